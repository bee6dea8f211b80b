//! Reports for continuous integration: `arbiter check --format junit` (JUnit XML, as Jenkins
//! and GitLab read it) and `--format github` (GitHub Actions workflow commands, which become
//! annotations on the lines of the scenario files).
//!
//! JUnit: one `<testsuite>` per file and one `<testcase>` per scenario. A failing expectation is
//! a `<failure type="expectation">`, an unusable part of a scenario an `<error>`, and a pending
//! scenario that fails is `<skipped>` (its failures in the element's text, as they are not
//! counted). A file whose header or syntax cannot be used gets one more test case, named
//! `unusable input`, that holds its errors. The `failures`, `errors` and `skipped` attributes
//! count test cases, as JUnit does, not failure elements.

use super::diagnostic::Problem;
use super::evaluate::{Failure, ScenarioReport, Status};
use super::report::{FileCheck, Source};

/// The name of the test case that holds a file's own problems, and the title of their
/// annotations.
const UNUSABLE: &str = "unusable input";

/// The whole run as a JUnit XML document; `inputs` are the command-line paths that gave no
/// scenario file, reported as errors of a suite of their own.
pub fn junit(checks: &[FileCheck], inputs: &[String]) -> String {
    let mut suites = Vec::new();
    for check in checks {
        suites.push(file_suite(check));
    }
    if !inputs.is_empty() {
        let mut suite = Suite::new("arbiter check");
        for message in inputs {
            suite.cases.push(Case {
                errors: vec![(message.clone(), message.clone())],
                ..Case::new(message, "arbiter check", None)
            });
        }
        suites.push(suite);
    }
    let total = |count: fn(&Suite) -> usize| suites.iter().map(count).sum::<usize>();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuites name=\"arbiter check\" tests=\"{}\" failures=\"{}\" errors=\"{}\" \
         skipped=\"{}\">\n",
        total(|s| s.cases.len()),
        total(|s| s.count(Case::failed)),
        total(|s| s.count(Case::errored)),
        total(|s| s.count(Case::skipped)),
    ));
    for suite in &suites {
        suite.write(&mut out);
    }
    out.push_str("</testsuites>\n");
    out
}

/// One test suite: its name and its cases.
struct Suite {
    name: String,
    cases: Vec<Case>,
}

/// One test case with what it came to; no failures, errors or skip is a pass.
struct Case {
    name: String,
    classname: String,
    /// The file and line, for cases that come from a file.
    at: Option<(String, usize)>,
    /// `(message, text)` of each failing expectation.
    failures: Vec<(String, String)>,
    /// `(message, text)` of each problem that made it unusable.
    errors: Vec<(String, String)>,
    /// Why it is skipped (`pending: ...`), with the failures it hides.
    skipped: Option<(String, String)>,
    /// A note on a case that passes (a `pending` mark that can go).
    out: Option<String>,
}

impl Case {
    fn new(name: &str, classname: &str, at: Option<(String, usize)>) -> Case {
        Case {
            name: name.to_string(),
            classname: classname.to_string(),
            at,
            failures: Vec::new(),
            errors: Vec::new(),
            skipped: None,
            out: None,
        }
    }

    fn errored(&self) -> bool {
        !self.errors.is_empty()
    }

    fn failed(&self) -> bool {
        !self.errored() && !self.failures.is_empty()
    }

    fn skipped(&self) -> bool {
        !self.errored() && self.failures.is_empty() && self.skipped.is_some()
    }
}

impl Suite {
    fn new(name: &str) -> Suite {
        Suite {
            name: name.to_string(),
            cases: Vec::new(),
        }
    }

    fn count(&self, what: fn(&Case) -> bool) -> usize {
        self.cases.iter().filter(|c| what(c)).count()
    }

    fn write(&self, out: &mut String) {
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">\n",
            attr(&self.name),
            self.cases.len(),
            self.count(Case::failed),
            self.count(Case::errored),
            self.count(Case::skipped),
        ));
        for case in &self.cases {
            out.push_str(&format!(
                "    <testcase name=\"{}\" classname=\"{}\"",
                attr(&case.name),
                attr(&case.classname)
            ));
            if let Some((file, line)) = &case.at {
                out.push_str(&format!(" file=\"{}\" line=\"{line}\"", attr(file)));
            }
            let empty = case.failures.is_empty()
                && case.errors.is_empty()
                && case.skipped.is_none()
                && case.out.is_none();
            if empty {
                out.push_str("/>\n");
                continue;
            }
            out.push_str(">\n");
            for (message, body) in &case.errors {
                element(out, "error", message, "unusable", body);
            }
            for (message, body) in &case.failures {
                element(out, "failure", message, "expectation", body);
            }
            if let Some((message, body)) = &case.skipped {
                if body.is_empty() {
                    out.push_str(&format!("      <skipped message=\"{}\"/>\n", attr(message)));
                } else {
                    out.push_str(&format!(
                        "      <skipped message=\"{}\">{}</skipped>\n",
                        attr(message),
                        text(body)
                    ));
                }
            }
            if let Some(note) = &case.out {
                out.push_str(&format!("      <system-out>{}</system-out>\n", text(note)));
            }
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n");
    }
}

fn element(out: &mut String, name: &str, message: &str, kind: &str, body: &str) {
    out.push_str(&format!(
        "      <{name} message=\"{}\" type=\"{kind}\">{}</{name}>\n",
        attr(message),
        text(body)
    ));
}

fn file_suite(check: &FileCheck) -> Suite {
    let source = &check.source;
    let path = &source.path;
    let mut suite = Suite::new(path);
    for r in &check.scenarios {
        let line = source.line_col(r.span.start).0;
        let mut case = Case::new(&r.title, path, Some((path.clone(), line)));
        let failures: Vec<(String, String)> = r
            .failures
            .iter()
            .map(|f| (failure_message(f), failure_text(source, f)))
            .chain(
                (r.interrupted && r.failures.is_empty())
                    .then(|| ("interrupted".to_string(), interrupted_text(source, r))),
            )
            .collect();
        case.errors = r
            .problems
            .iter()
            .map(|p| (p.message.clone(), problem_text(source, p)))
            .collect();
        match (&r.pending, r.status()) {
            (Some(why), Status::Failed) => {
                let body: Vec<String> = failures.into_iter().map(|(_, t)| t).collect();
                case.skipped = Some((format!("pending: {why}"), body.join("\n")));
            }
            (Some(_), Status::Passed) => {
                case.out = Some("marked pending, but it passes: remove `pending`".into());
            }
            _ => case.failures = failures,
        }
        suite.cases.push(case);
    }
    if !check.problems.is_empty() {
        let line = check
            .problems
            .iter()
            .map(|p| source.line_col(p.span.start).0)
            .min()
            .unwrap_or(1);
        let mut case = Case::new(UNUSABLE, path, Some((path.clone(), line)));
        case.errors = check
            .problems
            .iter()
            .map(|p| (p.message.clone(), problem_text(source, p)))
            .collect();
        suite.cases.push(case);
    }
    suite
}

/// The one-line message of a failure: what was expected and what was found.
fn failure_message(f: &Failure) -> String {
    format!("expected {}; found {}", f.expected, f.found)
}

/// A failure as the text report writes it, from `file:line:col`.
fn failure_text(source: &Source, f: &Failure) -> String {
    let mut out = format!(
        "{}: {}\nexpected: {}\nfound:    {}\n",
        at(source, f.span.start),
        f.statement,
        f.expected,
        f.found
    );
    if let Some(readings) = readings(f) {
        out.push_str(&format!("readings: {readings}\n"));
    }
    out
}

fn interrupted_text(source: &Source, r: &ScenarioReport) -> String {
    format!(
        "{}: the run was interrupted before this scenario finished\n",
        at(source, r.span.start)
    )
}

fn problem_text(source: &Source, p: &Problem) -> String {
    let mut out = format!("{}: {}\n", at(source, p.span.start), p.message);
    if let Some(help) = &p.help {
        out.push_str(&format!("help: {help}\n"));
    }
    out
}

/// The readings (option values) a failure consulted, if any: `stalemate = draw, ...`.
fn readings(f: &Failure) -> Option<String> {
    (!f.options.is_empty()).then(|| {
        f.options
            .iter()
            .map(|(n, v)| format!("{n} = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    })
}

fn at(source: &Source, offset: usize) -> String {
    let (line, col) = source.line_col(offset);
    format!("{}:{line}:{col}", source.path)
}

/// Text for an XML attribute value.
fn attr(s: &str) -> String {
    crate::text::xml_attr(s)
}

/// Text for XML element content.
fn text(s: &str) -> String {
    crate::text::xml_text(s)
}

// ---- GitHub Actions ---------------------------------------------------------------------------

/// The workflow commands for the whole run, one per line: `::error` for each failing
/// expectation and each unusable part, `::warning` for the failures of pending scenarios,
/// `::notice` for a pending mark that can go. `inputs` are the command-line paths that gave no
/// scenario file. The summary line is the caller's.
pub fn github(checks: &[FileCheck], inputs: &[String]) -> String {
    let mut out = String::new();
    for message in inputs {
        out.push_str(&format!("::error title={UNUSABLE}::{}\n", data(message)));
    }
    for check in checks {
        let source = &check.source;
        for p in &check.problems {
            command(
                &mut out,
                "error",
                source,
                p.span.start,
                UNUSABLE,
                &problem_message(p),
            );
        }
        for r in &check.scenarios {
            github_scenario(&mut out, source, r);
        }
    }
    out
}

fn github_scenario(out: &mut String, source: &Source, r: &ScenarioReport) {
    let (level, title) = match (&r.pending, r.status()) {
        (Some(why), Status::Failed) => ("warning", format!("{} (pending: {why})", r.title)),
        (Some(_), Status::Passed) => {
            let message = "marked pending, but it passes: remove `pending`";
            command(out, "notice", source, r.span.start, &r.title, message);
            return;
        }
        _ => ("error", r.title.clone()),
    };
    for p in &r.problems {
        command(
            out,
            "error",
            source,
            p.span.start,
            &r.title,
            &problem_message(p),
        );
    }
    for f in &r.failures {
        let mut message = failure_message(f);
        if let Some(readings) = readings(f) {
            message.push_str(&format!("\nreadings: {readings}"));
        }
        command(out, level, source, f.span.start, &title, &message);
    }
    if r.interrupted && r.failures.is_empty() {
        let message = "the run was interrupted before this scenario finished";
        command(out, level, source, r.span.start, &title, message);
    }
}

fn problem_message(p: &Problem) -> String {
    match &p.help {
        Some(help) => format!("{}\nhelp: {help}", p.message),
        None => p.message.clone(),
    }
}

/// `::<level> file=<path>,line=<l>,col=<c>,title=<title>::<message>`
fn command(
    out: &mut String,
    level: &str,
    source: &Source,
    offset: usize,
    title: &str,
    message: &str,
) {
    let (line, col) = source.line_col(offset);
    out.push_str(&format!(
        "::{level} file={},line={line},col={col},title={}::{}\n",
        property(&source.path),
        property(title),
        data(message)
    ));
}

/// A command's message ([`crate::text::github_data`]).
fn data(s: &str) -> String {
    crate::text::github_data(s)
}

/// A command's property value ([`crate::text::github_property`]).
fn property(s: &str) -> String {
    crate::text::github_property(s)
}
