//! `arbiter check --format html`: the whole run as one self-contained HTML page.
//!
//! The page holds the summary line, each file and each scenario with its status, and under
//! each failing expectation its location, statement, expected and found values, the readings
//! it consulted, and a diagram of the position just before the statement (an inline SVG from
//! [`crate::picture`], with the turn the statement is about and the variant's state), for the
//! first [`MAX_DIAGRAMS`] failures of the run. Each diagram is the picture the evaluation kept
//! when it recorded the failure ([`Diagram`]): no scenario is run again to draw it. Styles are
//! inline and the "only what did not pass" filter is a checkbox read by a CSS `:checked ~`
//! selector, so the page loads nothing and runs no script. Nothing in it depends on the clock
//! or the machine: the same run gives the same bytes.

use std::fmt::Write;

use super::diagnostic::Problem;
use super::evaluate::{Diagram, Failure, ScenarioReport, Status};
use super::report::{FileCheck, Source, Totals};
use crate::picture;

/// The most diagrams one page draws: each is some 20 kB of SVG, and a run with thousands of
/// failures would otherwise make a page of gigabytes. The failures after them say how to draw
/// theirs (`--filter`, `FILE:LINE`).
pub const MAX_DIAGRAMS: usize = 200;

/// Keeps the diagrams of a run's first [`MAX_DIAGRAMS`] failures, in the order of the report,
/// and drops the others' pictures as soon as a scenario's report arrives; `left` counts the
/// diagrams the page may still draw.
pub fn keep_diagrams(report: &mut ScenarioReport, left: &mut usize) {
    for f in &mut report.failures {
        if let Diagram::Drawn(_) = f.diagram {
            if *left == 0 {
                f.diagram = Diagram::Omitted;
            } else {
                *left -= 1;
            }
        }
    }
}

/// What the page says about a run beyond the files' reports.
pub struct Run<'a> {
    /// The command-line paths that gave no scenario file.
    pub inputs: &'a [String],
    pub totals: &'a Totals,
    /// The user stopped the run before it finished.
    pub interrupted: bool,
}

/// The HTML document for a whole run.
pub fn html(checks: &[FileCheck], run: &Run<'_>) -> String {
    let totals = run.totals;
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; img-src data:\">\n",
    );
    let _ = writeln!(out, "<title>arbiter check: {}</title>", esc(&totals.line()));
    let _ = writeln!(out, "<style>\n{CSS}</style>\n</head>\n<body>\n<header>");
    out.push_str("<h1>arbiter check</h1>\n");
    // The summary line once, each count in its colour: the words of `Totals::line`.
    let mut counts = vec![("passed", totals.passed), ("failed", totals.failed)];
    if totals.pending > 0 {
        counts.push(("pending", totals.pending));
    }
    if totals.skipped > 0 {
        counts.push(("skipped", totals.skipped));
    }
    let counts: Vec<String> = counts
        .into_iter()
        .map(|(name, n)| {
            format!("<span class=\"count {name}\"><b data-count=\"{name}\">{n}</b> {name}</span>")
        })
        .collect();
    let _ = writeln!(
        out,
        "<p class=\"summary\" id=\"summary\">{}</p>",
        counts.join(", ")
    );
    let left_out = left_out(checks);
    if left_out > 0 {
        let _ = writeln!(
            out,
            "<p class=\"note\">{left_out} diagram{} left out: the page draws the first \
             {MAX_DIAGRAMS}; <code>--filter</code> or <code>FILE:LINE</code> draws the rest</p>",
            if left_out == 1 { "" } else { "s" }
        );
    }
    if run.interrupted {
        out.push_str(
            "<p class=\"note\">interrupted: the results below are those that finished</p>\n",
        );
    }
    out.push_str("</header>\n");
    out.push_str(
        "<input type=\"checkbox\" id=\"failures-only\">\n\
         <label for=\"failures-only\">Show only what did not pass</label>\n<main>\n",
    );
    if !run.inputs.is_empty() {
        out.push_str("<section class=\"file trouble\">\n<h2>unusable input</h2>\n");
        for message in run.inputs {
            let _ = writeln!(out, "<p class=\"problem\">{}</p>", esc(message));
        }
        out.push_str("</section>\n");
    }
    let mut diagram = 0;
    for check in checks {
        file_section(&mut out, check, &mut diagram);
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// The class and mark of a scenario: `passed`, `failed`, `pending` or `error`.
fn status(r: &ScenarioReport) -> (&'static str, &'static str) {
    match r.status() {
        Status::Passed => ("passed", "PASS"),
        Status::Failed if r.pending.is_some() => ("pending", "PEND"),
        Status::Failed => ("failed", "FAIL"),
        Status::Error => ("error", "ERROR"),
    }
}

/// The failures about a position that the page draws no diagram for.
fn left_out(checks: &[FileCheck]) -> usize {
    let failures = checks
        .iter()
        .flat_map(|c| &c.scenarios)
        .flat_map(|r| &r.failures);
    let (mut drawn, mut omitted) = (0usize, 0);
    for f in failures {
        match f.diagram {
            Diagram::Drawn(_) => drawn += 1,
            Diagram::Omitted => omitted += 1,
            Diagram::NoBoard => {}
        }
    }
    omitted + drawn.saturating_sub(MAX_DIAGRAMS)
}

fn file_section(out: &mut String, check: &FileCheck, diagram: &mut usize) {
    let source = &check.source;
    let clean = check.problems.is_empty()
        && check.unrun == 0
        && check.scenarios.iter().all(|r| r.status() == Status::Passed);
    let (passed, failed) = check.counts();
    let _ = writeln!(
        out,
        "<section class=\"file {}\">",
        if clean { "clean" } else { "trouble" }
    );
    let _ = writeln!(
        out,
        "<h2><span class=\"path\">{}</span> <span class=\"file-counts\">{passed} passed, \
         {failed} failed{}</span></h2>",
        esc(&source.path),
        match check.pending() {
            0 => String::new(),
            n => format!(", {n} pending"),
        }
    );
    if !check.problems.is_empty() {
        let _ = writeln!(out, "<div class=\"problems\">");
        for p in &check.problems {
            problem(out, source, p);
        }
        if check.unrun > 0 {
            let _ = writeln!(
                out,
                "<p class=\"note\">{} of this file could not run</p>",
                crate::text::count(check.unrun, "scenario")
            );
        }
        out.push_str("</div>\n");
    }
    for r in &check.scenarios {
        let (class, mark) = status(r);
        let line = source.line_col(r.span.start).0;
        let _ = writeln!(out, "<article class=\"scenario {class}\">");
        let _ = writeln!(
            out,
            "<h3><span class=\"mark {class}\">{mark}</span> <span class=\"title\">{}</span> \
             <span class=\"where\">{}:{line}</span></h3>",
            esc(&r.title),
            esc(&source.path)
        );
        match (&r.pending, r.status()) {
            (Some(why), Status::Failed) => {
                let _ = writeln!(out, "<p class=\"note\">pending: {}</p>", esc(why));
            }
            (Some(_), Status::Passed) => out.push_str(
                "<p class=\"note\">marked pending, but it passes: remove <code>pending</code></p>\n",
            ),
            _ => {}
        }
        for p in &r.problems {
            problem(out, source, p);
        }
        for f in &r.failures {
            failure(out, source, f, diagram);
        }
        if r.interrupted && r.failures.is_empty() {
            out.push_str(
                "<p class=\"note\">the run was interrupted before this scenario finished</p>\n",
            );
        }
        out.push_str("</article>\n");
    }
    out.push_str("</section>\n");
}

fn problem(out: &mut String, source: &Source, p: &Problem) {
    let _ = write!(
        out,
        "<div class=\"problem\"><span class=\"at\">{}</span>: {}",
        esc(&at(source, p.span.start)),
        esc(&p.message)
    );
    if let Some(help) = &p.help {
        let _ = write!(out, "<br><span class=\"help\">help: {}</span>", esc(help));
    }
    out.push_str("</div>\n");
}

fn failure(out: &mut String, source: &Source, f: &Failure, diagram: &mut usize) {
    out.push_str("<div class=\"failure\">\n<div class=\"facts\">\n");
    let _ = writeln!(
        out,
        "<p class=\"at\">{}</p>\n<pre class=\"statement\">{}</pre>",
        esc(&at(source, f.span.start)),
        esc(&f.statement)
    );
    let _ = writeln!(
        out,
        "<dl>\n<dt>expected</dt><dd class=\"expected\">{}</dd>\n\
         <dt>found</dt><dd class=\"found\">{}</dd>",
        esc(&f.expected),
        esc(&f.found)
    );
    if !f.options.is_empty() {
        out.push_str("<dt>readings</dt><dd class=\"readings\"><ul>");
        for (name, value) in &f.options {
            let _ = write!(out, "<li><code>{} = {}</code></li>", esc(name), esc(value));
        }
        out.push_str("</ul></dd>\n");
    }
    out.push_str("</dl>\n</div>\n");
    let line = source.line_col(f.span.start).0;
    match &f.diagram {
        Diagram::Drawn(picture) if *diagram < MAX_DIAGRAMS => {
            *diagram += 1;
            let _ = writeln!(
                out,
                "<figure class=\"diagram\">\n{}<figcaption>the position before line {line}\
                 </figcaption>\n</figure>",
                inline_svg(&picture::svg::render(picture), *diagram)
            );
        }
        Diagram::Drawn(_) | Diagram::Omitted => {
            let _ = writeln!(
                out,
                "<p class=\"no-diagram\">diagram left out (the page draws {MAX_DIAGRAMS}): \
                 <code>arbiter check {}:{line} --format html</code> draws it</p>",
                esc(&source.path)
            );
        }
        // Not about a position: no board to draw.
        Diagram::NoBoard => {}
    }
    out.push_str("</div>\n");
}

/// An SVG document made fit to stand inside the page: the ids of its markers made unique,
/// since every diagram defines the same ones.
fn inline_svg(svg: &str, n: usize) -> String {
    svg.replace("id=\"head-", &format!("id=\"d{n}-head-"))
        .replace("url(#head-", &format!("url(#d{n}-head-"))
}

fn at(source: &Source, offset: usize) -> String {
    let (line, col) = source.line_col(offset);
    format!("{}:{line}:{col}", source.path)
}

/// Text for HTML content and attribute values ([`crate::text::html`]).
pub fn esc(s: &str) -> String {
    crate::text::html(s)
}

/// The page's whole style; the checkbox `#failures-only` hides what passed.
const CSS: &str = r#"body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem; color: #1a1a1a; background: #fafafa; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
.summary { font-size: 1.25rem; font-weight: 600; margin: .25rem 0; }
.count { padding: .1rem .5rem; border-radius: .375rem; background: #eee; }
.count.passed { background: #dcefd0; } .count.failed { background: #f4c7c3; }
.count.pending { background: #f6e7a8; } .count.skipped { background: #e0e0e0; }
label { cursor: pointer; user-select: none; }
#failures-only:checked ~ main .scenario.passed, #failures-only:checked ~ main .file.clean { display: none; }
.file { margin: 1.25rem 0; padding: .5rem 1rem; background: #fff; border: 1px solid #ddd; border-radius: .5rem; }
.file h2 { font-size: 1.1rem; margin: .25rem 0 .5rem; }
.file-counts { font-weight: normal; color: #555; font-size: .9rem; }
.scenario { border-left: .3rem solid #ccc; margin: .5rem 0; padding: .25rem .75rem; }
.scenario h3 { font-size: 1rem; font-weight: normal; margin: .25rem 0; }
.scenario.passed { border-color: #4c9a2a; } .scenario.failed { border-color: #c62828; }
.scenario.pending { border-color: #d9a400; } .scenario.error { border-color: #6a1b9a; }
.mark { display: inline-block; min-width: 3.5rem; text-align: center; font-weight: 700; font-size: .8rem; border-radius: .25rem; padding: .1rem .3rem; color: #fff; }
.mark.passed { background: #4c9a2a; } .mark.failed { background: #c62828; }
.mark.pending { background: #b38600; } .mark.error { background: #6a1b9a; }
.where, .at { font-family: ui-monospace, monospace; color: #555; font-size: .85rem; }
.failure { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; margin: .5rem 0 1rem; padding: .5rem; background: #fff5f4; border-radius: .375rem; }
.pending .failure { background: #fffbea; }
.facts { flex: 1 1 20rem; min-width: 0; }
.facts p { margin: 0; }
.statement { margin: .25rem 0; padding: .25rem .5rem; background: #f3f3f3; border-radius: .25rem; white-space: pre-wrap; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .75rem; margin: .5rem 0; }
dt { font-weight: 600; } dd { margin: 0; font-family: ui-monospace, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
dd ul { margin: 0; padding-left: 1.1rem; }
.diagram { margin: 0; flex: 0 1 auto; }
.diagram svg { max-width: 22rem; height: auto; display: block; }
figcaption { font-size: .8rem; color: #555; }
.problem { color: #6a1b9a; margin: .25rem 0; white-space: pre-wrap; }
.note, .no-diagram { color: #555; font-style: italic; margin: .25rem 0; }
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_ids_are_made_unique() {
        let svg = "<marker id=\"head-legal\"/><path marker-end=\"url(#head-legal)\"/>";
        assert_eq!(
            inline_svg(svg, 3),
            "<marker id=\"d3-head-legal\"/><path marker-end=\"url(#d3-head-legal)\"/>"
        );
    }
}
