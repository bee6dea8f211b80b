//! Diagnostics: what `check` would say, under the text.
//!
//! On every change, at once: the parser's syntax errors and the checker's unknown names
//! ([`live`]), or a definition's load and resolve errors ([`definition`]). After a pause or on
//! save, on a worker thread: the evaluation, each failing expectation with what was expected,
//! what was found and the readings consulted ([`Worker`]). Each evaluation runs under the
//! budgets `check` uses and a [`Cancel`] of its document, so an edit stops it at the next look
//! at the clock, as Ctrl-C stops `check`.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use crossbeam_channel::{Receiver, Sender};
use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString};

use super::text::{Kind, Lines};
use crate::definition::cache::Chain;
use crate::rules::search::{Cancel, Limits};
use crate::scenario::ast::StatementKind;
use crate::scenario::ast::{File, Span};
use crate::scenario::diagnostic::Problem;
use crate::scenario::evaluate::{
    evaluate_each, evaluate_scenario, name_problems, Event, Failure, Settings,
};
use crate::scenario::parse::parse_file_partial;

/// Texts larger than this, with everything they inherit (a definition's `from` chain, the
/// definition a scenario file plays), get no live analysis: the parse tree of a scenario file
/// costs tens of bytes per byte, a definition's resolution reads every text of its chain, and
/// a keystroke must not wait for them. `arbiter check` still reads them.
pub const MAX_LIVE_BYTES: usize = 2 << 20;

/// What the server's diagnostics are attributed to.
pub const SOURCE: &str = "arbiter";

/// The live analysis of a scenario text: the file as far as it parses (with its `variant`
/// spec read beside `path`) and every syntax and name problem.
pub struct Live {
    pub file: Option<File>,
    pub problems: Vec<Problem>,
    /// Over [`MAX_LIVE_BYTES`] with what it plays: nothing was analysed.
    pub too_large: bool,
}

/// Parses a scenario text and checks its names, running nothing.
pub fn live(text: &str, path: Option<&Path>) -> Live {
    if text.len() > MAX_LIVE_BYTES {
        return Live {
            file: None,
            problems: vec![too_large(text.len(), "")],
            too_large: true,
        };
    }
    let (file, mut problems) = parse_file_partial(text);
    let mut refused = None;
    let file = file.map(|mut f| {
        if let Some(p) = path {
            refused = crate::scenario::report::place_variant(&mut f, p).err();
        }
        f
    });
    match (&file, refused) {
        // The path is not read: its refusal is the variant's only problem.
        (_, Some(refused)) => problems.push(refused),
        (Some(f), None) => {
            // The definition it plays counts too: it is read and resolved to check the names.
            let built_in = crate::rules::Variant::ALL
                .iter()
                .any(|v| v.name() == f.variant.node);
            let played = match built_in {
                true => Chain::default(),
                false => crate::definition::cache::chain(&f.variant.node),
            };
            if let Some(p) = over_limit(text.len(), &played, "the definition it plays") {
                return Live {
                    file: None,
                    problems: vec![p],
                    too_large: true,
                };
            }
            problems.extend(name_problems(f, text, &Settings::default()));
        }
        (None, None) => {}
    }
    problems.sort_by_key(|p| p.span.start);
    problems.dedup();
    Live {
        file,
        problems,
        too_large: false,
    }
}

/// The note for a text whose chain is over [`MAX_LIVE_BYTES`], if it is.
fn over_limit(own: usize, chain: &Chain, what: &str) -> Option<Problem> {
    let total = own as u64 + chain.bytes;
    (total > MAX_LIVE_BYTES as u64).then(|| {
        too_large(
            usize::try_from(total).unwrap_or(usize::MAX),
            &format!(" with {what} and everything it inherits"),
        )
    })
}

/// Why a definition's text is not resolved as it is typed: it is over [`MAX_LIVE_BYTES`]
/// with everything it inherits.
pub fn definition_too_large(text: &str, path: Option<&Path>) -> Option<Problem> {
    if text.len() > MAX_LIVE_BYTES {
        return Some(too_large(text.len(), ""));
    }
    over_limit(
        text.len(),
        &crate::definition::cache::inherited_by(text, path),
        "the definitions it inherits",
    )
}

/// What a keystroke costs: the live analysis of a document's text ([`live`] for a scenario
/// file, [`definition`] for a definition), as LSP diagnostics; the scenario file as far as it
/// parses; whether the text with what it inherits is over [`MAX_LIVE_BYTES`].
pub fn on_change(
    kind: Kind,
    text: &str,
    lines: &Lines,
    path: Option<&Path>,
) -> (Option<File>, Vec<Diagnostic>, bool) {
    let (file, problems, too_large) = match kind {
        Kind::Scenario => {
            let live = live(text, path);
            (live.file, live.problems, live.too_large)
        }
        Kind::Definition => match definition_too_large(text, path) {
            Some(p) => (None, vec![p], true),
            None => (None, definition(text, path), false),
        },
    };
    let diagnostics = problems
        .iter()
        .map(|p| of_problem(text, lines, p))
        .collect();
    (file, diagnostics, too_large)
}

fn too_large(len: usize, with: &str) -> Problem {
    Problem::new(
        format!(
            "this text{with} is {len} bytes, more than the {} MiB checked as you type; `arbiter check` still checks it",
            MAX_LIVE_BYTES >> 20
        ),
        0..0,
        "too large",
    )
}

/// A definition's errors: each in this text where it is, and each in a text it inherits from
/// at the `from` line that brings that text in (the message says where in it).
pub fn definition(text: &str, path: Option<&Path>) -> Vec<Problem> {
    if let Some(p) = definition_too_large(text, path) {
        return vec![p];
    }
    let errors = match resolve_definition(text, path) {
        Ok(_) => return Vec::new(),
        Err(errors) => errors,
    };
    let from = from_line(text);
    errors
        .errors
        .iter()
        .map(|e| {
            if e.source == 0 {
                return e.problem.clone();
            }
            let mut p = e.problem.clone();
            p.message = format!("{}: {}", errors.location(e), p.message);
            p.span = from.clone();
            p
        })
        .collect()
}

/// A definition's text resolved as `check` resolves the file at `path` (its `from` read
/// beside it), under that path's name.
pub fn resolve_definition(
    text: &str,
    path: Option<&Path>,
) -> Result<crate::definition::Definition, crate::definition::Errors> {
    let name = path.map_or_else(
        || "<definition>".to_string(),
        |p| p.to_string_lossy().into_owned(),
    );
    let folder: Option<PathBuf> = path.map(Path::to_path_buf);
    let loader = move |spec: &str| {
        let spec = match &folder {
            Some(p) => crate::definition::load::beside(spec, p)?,
            None => spec.to_string(),
        };
        crate::definition::cache::source(&spec)
    };
    crate::definition::parse(&name, text, &loader)
}

/// Where a definition's `from` statement stands (the start of the text if it has none).
fn from_line(text: &str) -> Span {
    crate::definition::parse::parse_tree(text)
        .ok()
        .and_then(|tree| {
            tree.statements
                .into_iter()
                .find(|s| s.head.text == "from")
                .map(|s| s.span)
        })
        .unwrap_or(0..0)
}

/// A problem as an LSP diagnostic: the message, then its help.
pub fn of_problem(text: &str, lines: &Lines, problem: &Problem) -> Diagnostic {
    let mut message = crate::text::escape_lines(&problem.message).into_owned();
    if let Some(help) = &problem.help {
        message.push_str("\nhelp: ");
        message.push_str(&crate::text::escape_lines(help));
    }
    Diagnostic {
        range: lines.range(text, &problem.span),
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some(SOURCE.into()),
        message,
        ..Diagnostic::default()
    }
}

/// The code of a failure that `check --bless` can write a value into.
pub const BLESSABLE: &str = "blessable";

/// A failing expectation as an LSP diagnostic: expected, found, the readings consulted. A
/// scenario marked `pending` gives warnings, not errors.
pub fn of_failure(text: &str, lines: &Lines, failure: &Failure, pending: bool) -> Diagnostic {
    let mut message = format!(
        "expected: {}\nfound:    {}",
        crate::text::escape(&failure.expected),
        crate::text::escape(&failure.found)
    );
    if !failure.options.is_empty() {
        let readings: Vec<String> = failure
            .options
            .iter()
            .map(|(n, v)| format!("{n} = {v}"))
            .collect();
        message.push_str(&format!("\nreadings consulted: {}", readings.join(", ")));
    }
    if pending {
        message.push_str("\n(the scenario is pending: reported, not counted)");
    }
    Diagnostic {
        range: lines.range(text, &failure.span),
        severity: Some(if pending {
            DiagnosticSeverity::WARNING
        } else {
            DiagnosticSeverity::ERROR
        }),
        code: failure
            .blessed
            .as_ref()
            .map(|_| NumberOrString::String(BLESSABLE.into())),
        source: Some(SOURCE.into()),
        message,
        ..Diagnostic::default()
    }
}

/// One evaluation to run: a document's text at one generation.
pub struct Job {
    pub uri: String,
    pub generation: u64,
    pub cancel: Cancel,
    pub text: String,
    pub file: std::sync::Arc<File>,
    /// `--max-nodes`, if given.
    pub max_nodes: Option<u64>,
}

/// What an evaluation found: its failures (by scenario, with whether it is pending), the
/// problems met while running, and the pins that make a failing expectation hold. Nothing
/// comes back from a cancelled evaluation.
pub struct Evaluated {
    pub uri: String,
    pub generation: u64,
    pub failures: Vec<(Failure, bool)>,
    pub problems: Vec<Problem>,
    pub pins: Vec<Pin>,
    /// Each `expect illegal` without `because` that held, and the rule that refused its turn.
    pub refusals: Vec<(Span, &'static str)>,
}

/// An option reading that decides a failing expectation: pinned in its scenario, the
/// expectation holds (what `arbiter dispute` shows as a deciding option).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pin {
    /// The failing expectation.
    pub failure: Span,
    pub option: &'static str,
    pub value: &'static str,
    /// Where the `option` line goes (the start of the scenario's first statement) and the
    /// indentation the line after it keeps.
    pub at: usize,
    pub indent: String,
}

/// At most this many other readings are tried per evaluation, each under [`PIN_LIMITS`]'s
/// small budget: the pins are a hint, not a dispute.
const MAX_PIN_TRIES: usize = 8;

/// The node budget and deadline of each reading tried for a pin.
const PIN_NODES: u64 = 5_000_000;
const PIN_TIME: std::time::Duration = std::time::Duration::from_secs(1);

/// Runs the evaluation jobs one after another, skipping those cancelled before they start.
pub fn worker(jobs: Receiver<Job>, done: Sender<Evaluated>) {
    for job in jobs {
        if job.cancel.cancelled() {
            continue;
        }
        let evaluated = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| evaluate(&job)));
        let evaluated = match evaluated {
            Ok(Some(e)) => e,
            Ok(None) => continue,
            Err(_) => Evaluated {
                uri: job.uri.clone(),
                generation: job.generation,
                failures: Vec::new(),
                pins: Vec::new(),
                refusals: Vec::new(),
                problems: vec![Problem::new(
                    "internal error: the evaluation of this file panicked; please report it",
                    0..0,
                    "here",
                )],
            },
        };
        if done.send(evaluated).is_err() {
            return;
        }
    }
}

/// Evaluates a job's file as `check` does; `None` once cancelled.
pub fn evaluate(job: &Job) -> Option<Evaluated> {
    let limits = Limits {
        max_nodes: job
            .max_nodes
            .unwrap_or(crate::rules::search::DEFAULT_MAX_NODES),
        cancel: Some(job.cancel),
        ..Limits::default()
    };
    let settings = Settings::new(limits, None);
    let mut failures = Vec::new();
    let mut problems = Vec::new();
    let mut failing = Vec::new();
    let mut refusals = Vec::new();
    let header = evaluate_each(&job.file, &job.text, &settings, |event| {
        if job.cancel.cancelled() {
            return ControlFlow::Break(());
        }
        if let Event::Done(report) = event {
            let pending = report.pending.is_some();
            for f in &report.failures {
                failing.push((report.span.clone(), f.clone()));
            }
            failures.extend(report.failures.into_iter().map(|f| (f, pending)));
            problems.extend(report.problems);
            refusals.extend(report.refused_by);
        }
        ControlFlow::Continue(())
    });
    // The header's problems are the live analysis's already.
    drop(header);
    let pins = pins(job, &settings, &failing);
    if job.cancel.cancelled() {
        return None;
    }
    Some(Evaluated {
        uri: job.uri.clone(),
        generation: job.generation,
        failures,
        problems,
        pins,
        refusals,
    })
}

/// The readings that make failing expectations hold: for each option a failing `expect`
/// consulted that neither the file nor its scenario pins, each other value, tried on the
/// scenario alone.
fn pins(job: &Job, settings: &Settings, failing: &[(Span, Failure)]) -> Vec<Pin> {
    let mut pins = Vec::new();
    let mut tries = 0;
    for (scenario_span, failure) in failing {
        if !failure.statement.starts_with("expect ") {
            continue;
        }
        let Some(scenario) = job.file.scenarios.iter().find(|s| s.span == *scenario_span) else {
            continue;
        };
        let Some(first) = scenario.statements.first() else {
            continue;
        };
        let pinned = |name: &str| {
            job.file.options.iter().any(|o| o.name.node == name)
                || scenario
                    .statements
                    .iter()
                    .any(|s| matches!(&s.kind, StatementKind::Option(o) if o.name.node == name))
        };
        let Ok(variant) = job.file.variant.node.parse::<crate::rules::Variant>() else {
            return pins;
        };
        for (name, value) in &failure.options {
            if pinned(name) {
                continue;
            }
            let Some(def) = variant.options().iter().find(|o| o.name == *name) else {
                continue;
            };
            for alt in def.values.iter().filter(|v| *v != value) {
                if tries == MAX_PIN_TRIES || job.cancel.cancelled() {
                    return pins;
                }
                tries += 1;
                let mut tried = Settings::new(
                    Limits {
                        max_nodes: PIN_NODES,
                        ..settings.limits
                    },
                    Some(PIN_TIME),
                );
                tried.overrides = vec![(name.to_string(), alt.to_string())];
                let report = evaluate_scenario(&job.file, &job.text, &tried, scenario);
                let holds = report
                    .expectations
                    .iter()
                    .any(|(span, held)| *span == failure.span && *held);
                if holds && report.problems.is_empty() {
                    let line_start = job.text[..first.span.start]
                        .rfind('\n')
                        .map_or(0, |i| i + 1);
                    pins.push(Pin {
                        failure: failure.span.clone(),
                        option: name,
                        value: alt,
                        at: first.span.start,
                        indent: job.text[line_start..first.span.start].to_string(),
                    });
                }
            }
        }
    }
    pins
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_and_names_at_once() {
        let text = "variant chess\nscenario \"a\" {\n  rule castlin\n  start\n}\nscenario \"b\" {\n  expect legal\n}\n";
        let live = live(text, None);
        let messages: Vec<&str> = live.problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(
            messages[0].contains("did you mean `castling`"),
            "{messages:?}"
        );
        assert!(live.file.is_some());
    }

    #[test]
    fn a_huge_text_is_not_parsed() {
        let text = "#".repeat(MAX_LIVE_BYTES + 1);
        let live = live(&text, None);
        assert!(live.file.is_none());
        assert!(live.problems[0].message.contains("arbiter check"));
    }
}
