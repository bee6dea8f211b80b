//! What each subcommand does. Every function returns the exit status, or a message for input
//! that cannot be used (exit status 2).

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::{Command, Format};
use crate::rules::game::{PlayError, Resolved};
use crate::rules::{perft, Game, Geometry, Options, Rules, Variant};
use crate::scenario::coverage::{rule_coverage, scenario_files};
use crate::scenario::diagnostic::render;
use crate::scenario::evaluate::{describe_error, evaluate_with, unpinned_options, Lowering};
use crate::scenario::parse::{parse_file, parse_turn};
use crate::scenario::report::{summary, FileCheck};
use crate::with_variant;

pub fn run(command: Command) -> Result<i32, String> {
    match command {
        Command::Check { paths, format } => check(paths, format),
        Command::Perft {
            variant,
            depth,
            fen,
            size,
            divide,
        } => {
            let variant: Variant = variant.parse()?;
            with_variant!(variant, R => perft_command::<R>(depth, fen, size, divide))
        }
        Command::Moves {
            variant,
            fen,
            size,
            from,
        } => {
            let variant: Variant = variant.parse()?;
            with_variant!(variant, R => moves::<R>(fen, size, from))
        }
        Command::Rules { variant, coverage } => {
            let variant: Variant = variant.parse()?;
            with_variant!(variant, R => rules::<R>(&coverage))
        }
        Command::Explain {
            variant,
            turn,
            fen,
            size,
        } => {
            let variant: Variant = variant.parse()?;
            with_variant!(variant, R => explain::<R>(&turn, fen, size))
        }
        Command::Dispute { file, scenario } => dispute(&file, scenario.as_deref()),
    }
}

fn check(paths: Vec<PathBuf>, format: Format) -> Result<i32, String> {
    let paths = if paths.is_empty() {
        vec![PathBuf::from("scenarios")]
    } else {
        paths
    };
    let files = scenario_files(&paths)?;
    if files.is_empty() {
        return Err(format!(
            "no scenario files (*.scn) under {}",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let checks: Vec<FileCheck> = files
        .iter()
        .map(|f| {
            let name = f.display().to_string();
            match std::fs::read_to_string(f) {
                Ok(src) => FileCheck::run(&name, src),
                Err(e) => FileCheck::unreadable(&name, &e),
            }
        })
        .collect();
    let (last, code) = summary(&checks);
    match format {
        Format::Text => {
            for c in &checks {
                print!("{}", c.text());
                eprint!("{}", c.problems_text());
            }
            println!("{last}");
        }
        Format::Json => {
            let files: Vec<_> = checks.iter().map(FileCheck::json).collect();
            let (passed, failed) = checks.iter().fold((0, 0), |(p, f), c| {
                let (cp, cf) = c.counts();
                (p + cp, f + cf)
            });
            let doc = serde_json::json!({
                "files": files,
                "passed": passed,
                "failed": failed,
                "exit": code,
            });
            println!(
                "{}",
                serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?
            );
        }
    }
    Ok(code)
}

fn parse_size(size: Option<String>) -> Result<Option<(u8, u8)>, String> {
    let Some(s) = size else { return Ok(None) };
    let bad = || format!("bad board size `{s}`; write <files>x<ranks>, such as 5x6");
    let (f, r) = s.split_once('x').ok_or_else(bad)?;
    Ok(Some((
        f.parse().map_err(|_| bad())?,
        r.parse().map_err(|_| bad())?,
    )))
}

fn position<R: Rules>(fen: Option<String>, size: Option<String>) -> Result<(R, Geometry), String> {
    let geometry = R::geometry_for(parse_size(size)?)?;
    let options = Options::defaults(R::options());
    let pos = match fen {
        Some(f) => R::from_fen(geometry, &f, &options).map_err(|e| format!("bad FEN: {e}"))?,
        None => R::start(geometry, &options),
    };
    Ok((pos, geometry))
}

fn perft_command<R: Rules>(
    depth: u32,
    fen: Option<String>,
    size: Option<String>,
    divide: bool,
) -> Result<i32, String> {
    let (pos, geometry) = position::<R>(fen, size)?;
    let started = Instant::now();
    let total = if divide && depth > 0 {
        let game = Game::new(pos.clone(), Options::defaults(R::options()));
        let mut total = 0;
        for (m, t) in game.legal_turns() {
            let mut next = pos.clone();
            next.play(m);
            let n = perft(&next, depth - 1);
            println!("{} {n}", t.text(&geometry));
            total += n;
        }
        total
    } else {
        perft(&pos, depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    println!("perft {depth} = {total}");
    eprintln!(
        "{total} nodes in {seconds:.3} s: {:.1} million nodes per second",
        total as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(0)
}

fn moves<R: Rules>(
    fen: Option<String>,
    size: Option<String>,
    from: Option<String>,
) -> Result<i32, String> {
    let (pos, geometry) = position::<R>(fen, size)?;
    let from = match from {
        Some(f) => Some(geometry.parse_square(&f).ok_or_else(|| {
            format!(
                "square `{f}` is not on the {} board ({})",
                R::NAME,
                geometry.describe()
            )
        })?),
        None => None,
    };
    let game = Game::new(pos, Options::defaults(R::options()));
    for (_, t) in game.legal_turns() {
        if from.is_none() || t.first_origin() == from {
            println!("{}", t.text(&geometry));
        }
    }
    Ok(0)
}

fn rules<R: Rules>(coverage: &[PathBuf]) -> Result<i32, String> {
    let counts = if coverage.is_empty() {
        None
    } else {
        Some(rule_coverage::<R>(coverage)?)
    };
    let width = R::rules().iter().map(|r| r.id.len()).max().unwrap_or(0);
    println!("rules of {}:", R::NAME);
    let mut uncovered = 0;
    for r in R::rules() {
        match &counts {
            Some(c) => {
                let n = c.get(r.id).copied().unwrap_or(0);
                if n == 0 {
                    uncovered += 1;
                }
                println!(
                    "  {:width$}  {:>3} scenarios  {}: {}",
                    r.id, n, r.source, r.summary
                );
            }
            None => println!("  {:width$}  {}: {}", r.id, r.source, r.summary),
        }
    }
    if R::options().is_empty() {
        println!("options: none");
    } else {
        println!("options:");
        for o in R::options() {
            println!(
                "  {} = {} (default {}): {}",
                o.name,
                o.values.join(" | "),
                o.default,
                o.reason
            );
        }
    }
    println!("state keys:");
    for k in R::state_keys() {
        let color = if k.per_color { " <color>" } else { "" };
        println!("  {}{color} = {}: {}", k.name, k.values, k.summary);
    }
    println!("invariants:");
    for i in R::invariants() {
        println!("  {}: {}", i.name, i.summary);
    }
    if counts.is_some() {
        println!(
            "{} of {} rules have no scenario",
            uncovered,
            R::rules().len()
        );
        return Ok(if uncovered == 0 { 0 } else { 1 });
    }
    Ok(0)
}

fn explain<R: Rules>(text: &str, fen: Option<String>, size: Option<String>) -> Result<i32, String> {
    let (pos, geometry) = position::<R>(fen, size)?;
    let turn = parse_turn(text).map_err(|p| render(&p, "<turn>", text))?;
    let pattern = Lowering::<R>::new(geometry)
        .turn(&turn)
        .map_err(|p| render(&p, "<turn>", text))?;
    let game = Game::new(pos, Options::defaults(R::options()));
    let source = |id: &str| R::rules().iter().find(|r| r.id == id).copied();
    match game.resolve(&pattern) {
        Ok(Resolved::Move(_, t)) => {
            let mut after = game.clone();
            match after.play(&pattern) {
                Ok(_) => {
                    println!("legal: {}", t.text(&geometry));
                    if let Some(o) = after.outcome() {
                        println!("result: {o}");
                    }
                    Ok(0)
                }
                Err(e) => {
                    println!("{}", describe_error(&e));
                    Ok(1)
                }
            }
        }
        Ok(Resolved::Resign) | Ok(Resolved::Draw) => {
            println!("legal: {text}");
            Ok(0)
        }
        Err(PlayError::Refused(r)) => {
            println!("illegal: {}", r.reason);
            match source(r.rule) {
                Some(def) => println!("rule {} ({}): {}", def.id, def.source, def.summary),
                None => println!("rule {}", r.rule),
            }
            Ok(1)
        }
        Err(e @ PlayError::Ambiguous(_)) => {
            println!("{}", describe_error(&e));
            Ok(1)
        }
    }
}

fn dispute(path: &Path, only: Option<&str>) -> Result<i32, String> {
    let name = path.display().to_string();
    let src = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let file = parse_file(&src).map_err(|ps| {
        ps.iter()
            .map(|p| render(p, &name, &src))
            .collect::<String>()
    })?;
    let render_all = |ps: Vec<crate::scenario::diagnostic::Problem>| {
        ps.iter()
            .map(|p| render(p, &name, &src))
            .collect::<String>()
    };
    let base = evaluate_with(&file, &src, &[]).map_err(render_all)?;
    let mut code = 0;
    for (scenario, report) in file.scenarios.iter().zip(&base) {
        if only.is_some_and(|o| !scenario.title.node.contains(o)) {
            continue;
        }
        println!("scenario \"{}\"", scenario.title.node);
        let verdict = |passed: bool| if passed { "holds" } else { "fails" };
        println!("  defaults: {}", verdict(report.passed()));
        let mut depends = Vec::new();
        for (option, values) in unpinned_options(&file, scenario) {
            for value in values {
                let overrides = [(option.to_string(), value.to_string())];
                let reports = evaluate_with(&file, &src, &overrides).map_err(render_all)?;
                let r = reports.iter().find(|r| r.span == scenario.span);
                let passed = r.is_some_and(|r| r.passed());
                println!("  {option} = {value}: {}", verdict(passed));
                if passed != report.passed() {
                    depends.push(format!("{option} = {value}"));
                }
            }
        }
        if depends.is_empty() {
            println!("  the outcome does not depend on any open option");
        } else {
            println!("  the outcome depends on: {}", depends.join(", "));
        }
        if !report.passed() {
            code = 1;
        }
    }
    Ok(code)
}
