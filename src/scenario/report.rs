//! Reports: what `arbiter check` prints for each file, as text for people or JSON for tools.
//!
//! A file is checked scenario by scenario; [`FileCheck::stream`] hands each scenario's report
//! over as soon as it is decided, so a long run shows its progress and a run that is stopped
//! (Ctrl-C, a CI timeout) has already printed what finished.

use std::ops::ControlFlow;

use serde::Serialize;

use super::ast::File;
use super::diagnostic::{render_with, LineIndex, Problem};
use super::evaluate::{evaluate_scenario, selected, ScenarioReport, Settings, Status};
use super::parse::{count_scenarios, parse_file_partial};
use crate::text::escape;

/// A scenario file's text, with what is needed to point into it.
#[derive(Clone, Debug)]
pub struct Source {
    pub path: String,
    pub src: String,
    lines: LineIndex,
}

impl Source {
    pub fn new(path: &str, src: String) -> Source {
        Source {
            path: path.to_string(),
            lines: LineIndex::new(&src),
            src,
        }
    }

    /// Reads a file as UTF-8 text, with the problem that makes it unusable if any: it cannot
    /// be read, or it holds bytes that are not UTF-8 (the problem points at the first of them;
    /// the text has U+FFFD in their place).
    pub fn read(path: &std::path::Path) -> (Source, Option<Problem>) {
        let name = path.display().to_string();
        let read = crate::paths::scenario_file(path, false).and_then(|()| {
            crate::files::read_bounded(path)
                .map_err(|e| format!("cannot read {}: {e}", crate::text::escape(&name)))
        });
        let bytes = match read {
            Ok(b) => b,
            Err(why) => {
                let problem = Problem::new(why, 0..0, "");
                return (Source::new(&name, String::new()), Some(problem));
            }
        };
        match String::from_utf8(bytes) {
            Ok(src) => (Source::new(&name, src), None),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let bad = e.as_bytes()[at];
                let src = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let source = Source::new(&name, src);
                let (line, col) = source.line_col(at);
                let problem = Problem::new(
                    format!(
                        "not UTF-8 text: the byte 0x{bad:02X} at line {line}, column {col} is \
                         not valid UTF-8"
                    ),
                    at..at + char::REPLACEMENT_CHARACTER.len_utf8(),
                    "not UTF-8",
                )
                .with_help("scenario files are UTF-8 text; is this the right file?");
                (source, Some(problem))
            }
        }
    }

    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        self.lines.line_col(&self.src, offset)
    }

    /// The path as people are shown it, control characters escaped.
    pub fn shown_path(&self) -> std::borrow::Cow<'_, str> {
        escape(&self.path)
    }

    fn line(&self, offset: usize) -> usize {
        self.line_col(offset).0
    }

    fn at(&self, offset: usize) -> String {
        let (line, col) = self.line_col(offset);
        format!("{}:{line}:{col}", self.shown_path())
    }

    /// A problem pointing at this source, rendered for people.
    pub fn render(&self, problem: &Problem) -> String {
        if self.src.is_empty() {
            format!("error: {}\n", crate::text::escape_lines(&problem.message))
        } else {
            render_with(problem, &self.path, &self.src, &self.lines)
        }
    }

    /// The report lines for one scenario; its problems go to [`Self::scenario_problems`]. The
    /// path, title and reason are escaped ([`escape`]): each stays on its line.
    pub fn scenario_text(&self, r: &ScenarioReport) -> String {
        let mark = match r.status() {
            Status::Passed => "ok   ",
            Status::Failed if r.pending.is_some() => "PEND ",
            Status::Failed => "FAIL ",
            Status::Error => "ERROR",
        };
        let note = match (&r.pending, r.status()) {
            (Some(why), Status::Failed) => format!("  (pending: {})", escape(why)),
            (Some(_), Status::Passed) => {
                "  (marked pending, but it passes: remove `pending`)".into()
            }
            _ => String::new(),
        };
        let mut out = format!(
            "{mark} {}:{}  {}{note}\n",
            self.shown_path(),
            self.line(r.span.start),
            escape(&r.title)
        );
        for f in &r.failures {
            out.push_str(&format!(
                "      {}: {}\n",
                self.at(f.span.start),
                f.statement
            ));
            out.push_str(&format!("        expected: {}\n", f.expected));
            out.push_str(&format!("        found:    {}\n", f.found));
            if !f.options.is_empty() {
                let readings: Vec<String> = f
                    .options
                    .iter()
                    .map(|(n, v)| format!("{n} = {v}"))
                    .collect();
                out.push_str(&format!("        readings: {}\n", readings.join(", ")));
            }
        }
        out
    }

    /// The problems of one scenario, each pointing at the source.
    pub fn scenario_problems(&self, r: &ScenarioReport) -> String {
        r.problems.iter().map(|p| self.render(p)).collect()
    }

    fn json_scenario(&self, r: &ScenarioReport) -> JsonScenario {
        JsonScenario {
            title: r.title.clone(),
            line: self.line(r.span.start),
            status: match r.status() {
                Status::Passed => "passed",
                Status::Failed if r.pending.is_some() => "pending",
                Status::Failed => "failed",
                Status::Error => "error",
            },
            pending: r.pending.clone(),
            passed: r.passed(),
            expectations: r.checked,
            failures: r
                .failures
                .iter()
                .map(|f| {
                    let (line, column) = self.line_col(f.span.start);
                    JsonFailure {
                        line,
                        column,
                        statement: f.statement.clone(),
                        expected: f.expected.clone(),
                        found: f.found.clone(),
                        options: f
                            .options
                            .iter()
                            .map(|(name, value)| JsonOption { name, value })
                            .collect(),
                    }
                })
                .collect(),
            errors: r.problems.iter().map(|p| self.json_error(p)).collect(),
        }
    }

    fn json_error(&self, p: &Problem) -> JsonError {
        let (line, column) = self.line_col(p.span.start);
        JsonError {
            line,
            column,
            message: p.message.clone(),
            help: p.help.clone(),
        }
    }
}

/// What [`FileCheck::stream`] tells as it goes.
pub enum Progress<'a> {
    /// A scenario starts: its title and line.
    Start(&'a str, usize),
    /// A scenario is decided.
    Done(&'a ScenarioReport),
}

/// What [`FileCheck::plan`] gives.
pub struct Planned {
    /// The file's check so far: its problems, no scenario report yet.
    pub check: FileCheck,
    /// The parsed file, if it parsed at all.
    pub file: Option<File>,
    /// The scenarios of `file` to evaluate, by index, in order: none when its header is not
    /// usable.
    pub selected: Vec<usize>,
}

/// One checked file: its scenarios' reports, and the problems that made all of it unusable
/// (a syntax error, an unknown variant, an unreadable file).
#[derive(Clone, Debug)]
pub struct FileCheck {
    pub source: Source,
    pub problems: Vec<Problem>,
    pub scenarios: Vec<ScenarioReport>,
    /// Scenarios of the text that could not run because of the file's problems.
    pub unrun: usize,
}

impl FileCheck {
    /// Checks a file's text with the default settings.
    pub fn run(path: &str, src: String) -> FileCheck {
        FileCheck::run_with(path, src, &Settings::default())
    }

    pub fn run_with(path: &str, src: String, settings: &Settings) -> FileCheck {
        FileCheck::stream(Source::new(path, src), settings, |_, _| {
            ControlFlow::Continue(())
        })
    }

    /// Checks a file, telling `each` when a scenario starts (its title and line) and handing
    /// it each scenario's report as soon as it is decided; `each` may break to stop before
    /// the next scenario.
    pub fn stream(
        source: Source,
        settings: &Settings,
        mut each: impl FnMut(&Source, Progress<'_>) -> ControlFlow<()>,
    ) -> FileCheck {
        let Planned {
            mut check,
            file,
            selected,
        } = FileCheck::plan(source, settings);
        let Some(file) = file else { return check };
        for s in selected.iter().filter_map(|&i| file.scenarios.get(i)) {
            let line = check.source.line(s.span.start);
            if each(&check.source, Progress::Start(&s.title.node, line)).is_break() {
                break;
            }
            let r = evaluate_scenario(&file, &check.source.src, settings, s);
            let flow = each(&check.source, Progress::Done(&r));
            check.scenarios.push(r);
            if flow.is_break() {
                break;
            }
        }
        check
    }

    /// A file parsed and its header checked, before any scenario runs: the check with the
    /// file's problems and no report yet, and what is left to evaluate (each scenario on its
    /// own with [`evaluate_scenario`], in the order of `selected`, possibly on other threads).
    pub fn plan(source: Source, settings: &Settings) -> Planned {
        // The scenarios that parsed run even when others of the file did not.
        let (file, mut problems) = parse_file_partial(&source.src);
        let Some(mut file) = file else {
            return Planned {
                check: FileCheck::unusable_all(source, problems),
                file: None,
                selected: Vec::new(),
            };
        };
        let header = place_variant(&mut file, std::path::Path::new(&source.path))
            .map_err(|p| vec![p])
            .and_then(|()| selected(&file, &source.src, settings));
        let (selected, unrun) = match header {
            Ok(selected) => (
                selected,
                count_scenarios(&source.src).saturating_sub(file.scenarios.len()),
            ),
            Err(header) => {
                problems.extend(header);
                (Vec::new(), count_scenarios(&source.src))
            }
        };
        Planned {
            check: FileCheck {
                source,
                problems,
                scenarios: Vec::new(),
                unrun,
            },
            file: Some(file),
            selected,
        }
    }

    /// A file that could not be read (or was no text), with the problem that says why.
    pub fn unusable(source: Source, problem: Problem) -> FileCheck {
        FileCheck::unusable_all(source, vec![problem])
    }

    fn unusable_all(source: Source, problems: Vec<Problem>) -> FileCheck {
        FileCheck {
            unrun: count_scenarios(&source.src),
            source,
            problems,
            scenarios: Vec::new(),
        }
    }

    /// Whether every part of the file could be used.
    pub fn usable(&self) -> bool {
        self.problems.is_empty() && self.scenarios.iter().all(|r| r.status() != Status::Error)
    }

    /// Scenarios passed and not passed (failed, unusable, or not run for the file's
    /// problems).
    pub fn counts(&self) -> (usize, usize) {
        let passed = self.scenarios.iter().filter(|r| r.passed()).count();
        let pending = self.pending();
        (passed, self.scenarios.len() - passed - pending + self.unrun)
    }

    /// Scenarios marked `pending` that do not pass (not counted as failed).
    pub fn pending(&self) -> usize {
        self.scenarios
            .iter()
            .filter(|r| r.pending_failure())
            .count()
    }

    /// The report lines for people: one per scenario, then the failures under it; problems
    /// are rendered separately by [`Self::problems_text`].
    pub fn text(&self) -> String {
        let mut out = String::new();
        if !self.problems.is_empty() {
            out.push_str(&self.header_text());
        }
        for r in &self.scenarios {
            out.push_str(&self.source.scenario_text(r));
        }
        out
    }

    /// The line for a file with problems outside its scenarios' names: all of it unusable,
    /// or only some scenarios (those that parsed ran).
    pub fn header_text(&self) -> String {
        if self.scenarios.is_empty() {
            format!(
                "ERROR {}: unusable input, see the errors\n",
                self.source.shown_path()
            )
        } else {
            format!(
                "ERROR {}: parts of it cannot be used, see the errors; the scenarios that could \
                 be read ran\n",
                self.source.shown_path()
            )
        }
    }

    /// Every problem of the file and of its scenarios, each pointing at the source.
    pub fn problems_text(&self) -> String {
        let file = self.problems.iter().map(|p| self.source.render(p));
        let scenarios = self
            .scenarios
            .iter()
            .map(|r| self.source.scenario_problems(r));
        file.chain(scenarios).collect()
    }

    pub fn json(&self) -> JsonFile {
        JsonFile {
            path: self.source.path.clone(),
            errors: self
                .problems
                .iter()
                .map(|p| self.source.json_error(p))
                .collect(),
            scenarios: self
                .scenarios
                .iter()
                .map(|r| self.source.json_scenario(r))
                .collect(),
            unrun: self.unrun,
        }
    }
}

#[derive(Serialize)]
pub struct JsonFile {
    pub path: String,
    pub errors: Vec<JsonError>,
    pub scenarios: Vec<JsonScenario>,
    /// Scenarios that could not run because of the file's errors (counted as failed).
    pub unrun: usize,
}

#[derive(Serialize)]
pub struct JsonError {
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub help: Option<String>,
}

#[derive(Serialize)]
pub struct JsonScenario {
    pub title: String,
    pub line: usize,
    /// `passed`, `failed`, `pending` (failed, but marked pending) or `error` (the scenario
    /// could not be used).
    pub status: &'static str,
    /// Why the scenario is marked pending, if it is.
    pub pending: Option<String>,
    pub passed: bool,
    pub expectations: usize,
    pub failures: Vec<JsonFailure>,
    pub errors: Vec<JsonError>,
}

#[derive(Serialize)]
pub struct JsonFailure {
    pub line: usize,
    pub column: usize,
    pub statement: String,
    pub expected: String,
    pub found: String,
    /// The interpretation options consulted on the way, with their values.
    pub options: Vec<JsonOption>,
}

#[derive(Serialize)]
pub struct JsonOption {
    pub name: &'static str,
    pub value: &'static str,
}

/// The totals of a whole run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub passed: usize,
    pub failed: usize,
    /// Scenarios not run (after `--fail-fast` or an interrupt).
    pub skipped: usize,
    /// Scenarios marked `pending` that do not pass yet.
    pub pending: usize,
    /// Some input could not be used.
    pub unusable: bool,
}

impl Totals {
    pub fn add(&mut self, check: &FileCheck) {
        let (p, f) = check.counts();
        self.passed += p;
        self.failed += f;
        self.pending += check.pending();
        self.unusable |= !check.usable();
    }

    /// The contract's exit status: 2 when input was unusable, 1 when something failed.
    pub fn exit_code(&self) -> i32 {
        if self.unusable {
            2
        } else if self.failed > 0 {
            1
        } else {
            0
        }
    }

    /// The last line: `N passed, M failed`, and `, K skipped` when scenarios were not run.
    pub fn line(&self) -> String {
        let mut line = format!("{} passed, {} failed", self.passed, self.failed);
        if self.pending > 0 {
            line.push_str(&format!(", {} pending", self.pending));
        }
        if self.skipped > 0 {
            line.push_str(&format!(", {} skipped", self.skipped));
        }
        line
    }
}

/// The summary of a whole run: the last line, and the exit status of the contract.
pub fn summary(checks: &[FileCheck]) -> (String, i32) {
    let mut totals = Totals::default();
    for c in checks {
        totals.add(c);
    }
    (totals.line(), totals.exit_code())
}

/// Resolves the variant a scenario file names from the file's place
/// ([`crate::definition::load::beside`]); a path refused there (outside the project, in a
/// system folder, not a definition) is the problem of the `variant` line, and nothing is read.
pub fn place_variant(
    file: &mut crate::scenario::ast::File,
    path: &std::path::Path,
) -> Result<(), Problem> {
    match crate::definition::load::beside(&file.variant.node, path) {
        Ok(spec) => {
            file.variant.node = spec;
            Ok(())
        }
        Err(why) => Err(Problem::new(why, file.variant.span.clone(), "this variant")),
    }
}
