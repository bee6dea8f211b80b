//! `arbiter dispute`: a scenario under every reading of the options its evaluation consulted.
//!
//! The scenario runs once as written; the options it consulted and that nothing pins (the
//! file, the scenario, `--option`) are the open readings. Every combination of their values is
//! evaluated, and whatever those runs consult in turn joins the set, until it is closed: an
//! option is varied only if some reading asked it. Past [`MAX_READINGS`] combinations the
//! scenario is not run, and the message says how to pin some.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::{json, Value};

use super::location;
use super::output::{err, Failure};
use super::Format;
use crate::outln;
use crate::rules::{Outcome, Variant};
use crate::scenario::ast::{Assertion, File, Scenario, StatementKind};
use crate::scenario::evaluate::{evaluate_with, ScenarioReport, Settings, Status};
use crate::scenario::parse::parse_file;
use crate::scenario::report::Source;

/// The most readings one scenario is evaluated under.
pub const MAX_READINGS: usize = 64;

type Outcome2 = Result<i32, Failure>;

/// One combination of values of the open options.
type Reading = BTreeMap<&'static str, &'static str>;

/// What a scenario came to under one reading.
struct Row {
    reading: Reading,
    status: Status,
    /// Per expectation column: held, failed, or not reached (`None`).
    cells: Vec<Option<bool>>,
    ended: String,
}

impl Row {
    /// What the row says, without the reading: to compare readings.
    fn verdict(&self) -> (Status, &[Option<bool>], &str) {
        (self.status, &self.cells, &self.ended)
    }
}

pub fn dispute(
    path: &Path,
    only: Option<&str>,
    pins: &[String],
    format: Format,
    settings: &Settings,
) -> Outcome2 {
    let (path, line) = location::split(path);
    let source = match Source::read(&path) {
        (source, None) => source,
        (source, Some(p)) => return Err(Failure::Rendered(source.render(&p))),
    };
    let render_all = |ps: Vec<crate::scenario::diagnostic::Problem>| {
        Failure::Rendered(ps.iter().map(|p| source.render(p)).collect())
    };
    let mut file = parse_file(&source.src).map_err(render_all)?;
    crate::scenario::report::place_variant(&mut file, Path::new(&source.path))
        .map_err(|p| render_all(vec![p]))?;
    let variant: Variant = file.variant.node.parse().map_err(Failure::Input)?;
    let mut settings = settings.clone();
    for pin in pins {
        let (name, value) = location::parse_option(pin)?;
        let defs = variant.options();
        let mut check = crate::rules::Options::defaults(defs);
        check.set(defs, variant.name(), &name, &value)?;
        settings.overrides.push((name, value));
    }
    let chosen: Vec<usize> = match line {
        Some(line) => vec![location::at_line(&file, &source, line)?.0],
        None => (0..file.scenarios.len())
            .filter(|&i| {
                only.is_none_or(|o| {
                    crate::text::contains_any_case(&file.scenarios[i].title.node, o)
                })
            })
            .collect(),
    };
    if chosen.is_empty() {
        let titles: Vec<String> = file
            .scenarios
            .iter()
            .map(|s| format!("  \"{}\"", crate::text::escape(&s.title.node)))
            .collect();
        return Err(Failure::Input(match only {
            Some(o) => format!(
                "no scenario of {} has `{o}` in its title; its scenarios:\n{}",
                source.shown_path(),
                titles.join("\n")
            ),
            None => format!("{} has no scenarios", source.shown_path()),
        }));
    }
    let mut code = 0;
    let mut docs = Vec::new();
    for (n, i) in chosen.into_iter().enumerate() {
        let scenario = &file.scenarios[i];
        if n > 0 && format == Format::Text {
            outln!()?;
        }
        let (c, doc) = one(&file, scenario, &source, variant, &settings, format)?;
        code = code.max(c);
        docs.push(doc);
        if super::commands::interrupted() {
            if format == Format::Text {
                outln!("interrupted")?;
            }
            return Ok(super::commands::INTERRUPTED_EXIT);
        }
    }
    if format == Format::Json {
        let doc = json!({ "path": source.path, "scenarios": docs, "exit": code });
        super::output::json(&doc)?;
    }
    Ok(code)
}

/// The options a scenario pins: the file's, its own `option` lines, and `--option`.
fn pinned(file: &File, scenario: &Scenario, settings: &Settings) -> BTreeSet<String> {
    file.options
        .iter()
        .map(|o| o.name.node.clone())
        .chain(scenario.statements.iter().filter_map(|s| match &s.kind {
            StatementKind::Option(o) => Some(o.name.node.clone()),
            _ => None,
        }))
        .chain(settings.overrides.iter().map(|(n, _)| n.clone()))
        .collect()
}

/// Disputes one scenario: the exit status and its JSON.
fn one(
    file: &File,
    scenario: &Scenario,
    source: &Source,
    variant: Variant,
    settings: &Settings,
    format: Format,
) -> Result<(i32, Value), Failure> {
    let alone = File {
        variant: file.variant.clone(),
        size: file.size.clone(),
        options: file.options.clone(),
        scenarios: vec![scenario.clone()],
    };
    let render_all = |ps: Vec<crate::scenario::diagnostic::Problem>| {
        Failure::Rendered(ps.iter().map(|p| source.render(p)).collect())
    };
    let evaluate = |reading: &Reading| -> Result<ScenarioReport, Failure> {
        let mut s = settings.clone();
        s.overrides
            .extend(reading.iter().map(|(n, v)| (n.to_string(), v.to_string())));
        let mut reports = evaluate_with(&alone, &source.src, &s).map_err(render_all)?;
        reports
            .pop()
            .ok_or_else(|| Failure::Input("internal error: no report".to_string()))
    };
    let line_of = |offset: usize| source.line_col(offset).0;
    let title = &scenario.title.node;
    let header = format!(
        "scenario \"{title}\" ({}:{})",
        source.shown_path(),
        line_of(scenario.span.start)
    );
    let spinner = super::progress::Progress::start(format!("dispute \"{title}\""));
    let base = evaluate(&Reading::new())?;
    if base.status() == Status::Error {
        err(format_args!("{}", source.scenario_problems(&base)));
        if format == Format::Text {
            outln!("{header}")?;
            outln!("  cannot be used as written; nothing to dispute")?;
        }
        return Ok((2, json!({ "title": title, "error": true })));
    }
    let pins = pinned(file, scenario, settings);
    let defs = variant.options();
    let default_of = |name: &str| defs.iter().find(|d| d.name == name).map(|d| d.default);
    let pinned_consulted: Vec<(&str, &str)> = base
        .consulted
        .iter()
        .filter(|(n, _)| pins.contains(*n))
        .copied()
        .collect();

    // The open options, closed under what the readings consult.
    let mut open: BTreeSet<&'static str> = base
        .consulted
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| !pins.contains(*n))
        .collect();
    announce(scenario, title, count(&open, defs), settings);
    let mut rows: BTreeMap<Reading, ScenarioReport> = BTreeMap::new();
    let too_many = loop {
        let n = count(&open, defs);
        if n > MAX_READINGS {
            break Some(n);
        }
        let readings = combinations(&open, defs);
        let mut grew = false;
        for reading in readings {
            if rows.contains_key(&reading) {
                continue;
            }
            if let Some(s) = &spinner {
                s.label(format!(
                    "dispute \"{title}\": reading {} of {n}",
                    rows.len() + 1
                ));
            }
            let report = evaluate(&reading)?;
            for (name, _) in &report.consulted {
                if !pins.contains(*name) && open.insert(name) {
                    grew = true;
                }
            }
            rows.insert(reading, report);
            if super::commands::interrupted() {
                break;
            }
        }
        if !grew || super::commands::interrupted() {
            break None;
        }
    };
    drop(spinner);
    if let Some(n) = too_many {
        let names: Vec<&str> = open.iter().copied().collect();
        let message = format!(
            "{} consulted ({}) make {n} readings, more than {MAX_READINGS}; pin some with --option name=value",
            crate::text::count(names.len(), "open option"),
            names.join(", ")
        );
        if format == Format::Text {
            outln!("{header}")?;
            outln!("  {message}")?;
        }
        return Ok((2, json!({ "title": title, "too_many": message })));
    }
    let readings = combinations(&open, defs);
    let columns: Vec<usize> = scenario
        .statements
        .iter()
        .filter(|s| matches!(s.kind, StatementKind::Expect(_)))
        .map(|s| s.span.start)
        .collect();
    let table: Vec<Row> = readings
        .iter()
        .filter_map(|r| rows.get(r).map(|report| row(r, report, &columns, source)))
        .collect();
    let default_reading: Reading = open
        .iter()
        .map(|n| (*n, default_of(n).unwrap_or("")))
        .collect();
    let decides: Vec<&str> = open
        .iter()
        .copied()
        .filter(|name| decides(name, &table))
        .collect();
    let indifferent: Vec<&str> = open
        .iter()
        .copied()
        .filter(|n| !decides.contains(n))
        .collect();
    let base_passed = base.passed();

    if format == Format::Text {
        outln!("{header}")?;
        if !pinned_consulted.is_empty() {
            let p: Vec<String> = pinned_consulted
                .iter()
                .map(|(n, v)| format!("{n} = {v}"))
                .collect();
            outln!("  pinned: {}", p.join(", "))?;
        }
        if open.is_empty() {
            outln!(
                "  {} under the one reading: it consulted no open option",
                verdict_word(base.status())
            )?;
        } else {
            // Options that decide nothing leave every row as it is: one row stands for all
            // their values (the JSON lists every reading).
            outln!(
                "  {} of the {} consulted",
                crate::text::count(table.len(), "reading"),
                crate::text::count(open.len(), "open option")
            )?;
            let shown: BTreeSet<&'static str> = decides.iter().copied().collect();
            let mut seen = BTreeSet::new();
            let rows: Vec<&Row> = table
                .iter()
                .filter(|r| seen.insert(project(&r.reading, &shown)))
                .collect();
            print_table(
                &rows,
                &shown,
                &columns,
                &project(&default_reading, &shown),
                source,
            )?;
        }
        if decides.is_empty() {
            if !open.is_empty() {
                outln!(
                    "  no option decides the outcome; consulted, indifferent here: {}",
                    indifferent.join(", ")
                )?;
            }
        } else {
            outln!(
                "  decided by: {}{}",
                decides.join(", "),
                if indifferent.is_empty() {
                    String::new()
                } else {
                    format!("; consulted, indifferent here: {}", indifferent.join(", "))
                }
            )?;
        }
    }
    let doc = json!({
        "title": title,
        "line": line_of(scenario.span.start),
        "pinned": pinned_consulted.iter().map(|(n, v)| json!({"name": n, "value": v})).collect::<Vec<_>>(),
        "open": open.iter().collect::<Vec<_>>(),
        "expectations": columns.iter().map(|c| line_of(*c)).collect::<Vec<_>>(),
        "readings": table.iter().map(|r| json!({
            "options": r.reading,
            "default": r.reading == default_reading,
            "status": status_word(r.status),
            "expectations": r.cells.iter().map(|c| match c {
                Some(true) => "pass",
                Some(false) => "fail",
                None => "not reached",
            }).collect::<Vec<_>>(),
            "result": r.ended,
        })).collect::<Vec<_>>(),
        "decided_by": decides,
        "indifferent": indifferent,
    });
    Ok((if base_passed { 0 } else { 1 }, doc))
}

/// How many readings `open` makes.
/// Says on standard error, before the table runs, how many searches it runs: each reading
/// repeats every search of the scenario (`expect perft`, `invariant`, `win in`), and the run's
/// budget bounds them all.
fn announce(scenario: &Scenario, title: &str, readings: usize, settings: &Settings) {
    let searches = scenario
        .statements
        .iter()
        .filter(|s| {
            matches!(
                &s.kind,
                StatementKind::Expect(
                    Assertion::Perft(..) | Assertion::WinIn(..) | Assertion::Invariant(..)
                )
            )
        })
        .count();
    if searches == 0 || readings <= 1 || readings > MAX_READINGS {
        return;
    }
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "es" });
    let run = settings
        .limits
        .run
        .map(|r| format!(", all of them within {} nodes (--max-run-nodes)", r.limit()))
        .unwrap_or_default();
    crate::errln!(
        "dispute \"{title}\": {readings} readings x {} = {} (more if the readings consult further options), each within {} nodes (--max-nodes){run}",
        plural(searches, "search"),
        plural(readings.saturating_mul(searches), "search"),
        settings.limits.max_nodes
    );
}

fn count(open: &BTreeSet<&'static str>, defs: &'static [crate::rules::OptionDef]) -> usize {
    open.iter()
        .filter_map(|n| defs.iter().find(|d| d.name == *n))
        .map(|d| d.values.len())
        .fold(1usize, |a, b| a.saturating_mul(b))
}

/// Every combination of values of `open`, the default of each first.
fn combinations(
    open: &BTreeSet<&'static str>,
    defs: &'static [crate::rules::OptionDef],
) -> Vec<Reading> {
    let mut out = vec![Reading::new()];
    for name in open {
        let Some(def) = defs.iter().find(|d| d.name == *name) else {
            continue;
        };
        let mut values: Vec<&'static str> = vec![def.default];
        values.extend(def.values.iter().filter(|v| **v != def.default));
        let mut next = Vec::with_capacity(out.len() * values.len());
        for r in &out {
            for v in &values {
                let mut r = r.clone();
                r.insert(def.name, v);
                next.push(r);
            }
        }
        out = next;
    }
    out
}

fn row(reading: &Reading, report: &ScenarioReport, columns: &[usize], source: &Source) -> Row {
    let cells = columns
        .iter()
        .map(|c| {
            report
                .expectations
                .iter()
                .find(|(span, _)| span.start == *c)
                .map(|(_, held)| *held)
        })
        .collect();
    let ended = match report.status() {
        Status::Error => {
            let first = report
                .problems
                .first()
                .map(|p| p.message.clone())
                .unwrap_or_default();
            format!("cannot be used: {first}")
        }
        _ => {
            // A refused play stops the scenario: say where.
            let refused = report
                .failures
                .iter()
                .find(|f| f.statement.starts_with("play "))
                .map(|f| format!("stopped: line {} refused", source.line_col(f.span.start).0));
            refused.unwrap_or_else(|| result_text(report.result))
        }
    };
    Row {
        reading: reading.clone(),
        status: report.status(),
        cells,
        ended,
    }
}

fn result_text(result: Option<Outcome>) -> String {
    match result {
        Some(o) => o.to_string(),
        None => "no result".to_string(),
    }
}

/// The values a reading gives the options of `names`.
fn project(reading: &Reading, names: &BTreeSet<&'static str>) -> Reading {
    reading
        .iter()
        .filter(|(n, _)| names.contains(*n))
        .map(|(n, v)| (*n, *v))
        .collect()
}

/// Whether changing `name` alone changes some row's verdict.
fn decides(name: &str, table: &[Row]) -> bool {
    table.iter().any(|a| {
        table.iter().any(|b| {
            a.reading.get(name) != b.reading.get(name)
                && a.reading
                    .iter()
                    .all(|(n, v)| *n == name || b.reading.get(n) == Some(v))
                && a.verdict() != b.verdict()
        })
    })
}

fn verdict_word(status: Status) -> &'static str {
    match status {
        Status::Passed => "holds",
        Status::Failed => "fails",
        Status::Error => "cannot be used",
    }
}

fn status_word(status: Status) -> &'static str {
    match status {
        Status::Passed => "passed",
        Status::Failed => "failed",
        Status::Error => "error",
    }
}

/// The table: one column per open option, one per expectation (by line), the result.
fn print_table(
    table: &[&Row],
    open: &BTreeSet<&'static str>,
    columns: &[usize],
    default_reading: &Reading,
    source: &Source,
) -> Result<(), Failure> {
    let mut head: Vec<String> = open.iter().map(|n| n.to_string()).collect();
    head.extend(
        columns
            .iter()
            .map(|c| format!("line {}", source.line_col(*c).0)),
    );
    head.push("result".to_string());
    let mut body: Vec<Vec<String>> = Vec::new();
    for r in table {
        let mut cells: Vec<String> = open
            .iter()
            .map(|n| r.reading.get(n).copied().unwrap_or("").to_string())
            .collect();
        cells.extend(r.cells.iter().map(|c| {
            match c {
                Some(true) => "pass",
                Some(false) => "FAIL",
                None => "-",
            }
            .to_string()
        }));
        cells.push(r.ended.clone());
        body.push(cells);
    }
    let widths: Vec<usize> = (0..head.len())
        .map(|i| {
            body.iter()
                .map(|r| r[i].chars().count())
                .chain([head[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |mark: &str, cells: &[String]| {
        let mut s = format!("  {mark} ");
        for (i, c) in cells.iter().enumerate() {
            if i + 1 == cells.len() {
                s.push_str(c);
            } else {
                s.push_str(&format!("{c:<w$}  ", w = widths[i]));
            }
        }
        s.trim_end().to_string()
    };
    outln!("{}", line(" ", &head))?;
    for (r, cells) in table.iter().zip(&body) {
        let mark = if project(&r.reading, open) == *default_reading {
            "*"
        } else {
            " "
        };
        outln!("{}", line(mark, cells))?;
    }
    outln!("  (* the defaults)")?;
    Ok(())
}
