//! `arbiter explain`: one turn in one position, the verdict and the rules behind it.
//!
//! The position comes from a scenario line (`file.scn:14`: the position just before that
//! line, with that line's turn) or from the command line (`start`, `--fen`, `--board`). Both
//! become a scenario and run through the evaluator, so a position means the same here as in
//! `check`. Each rule is shown with its source and the clause quoted; then the options the
//! explanation consulted, each with what its other values would make of the turn.

use std::path::Path;

use serde_json::{json, Value};

use super::location;
use super::output::Failure;
use super::Format;
use crate::rules::explain::{self, Consulted, Explanation, Step, StepVerdict, Verdict};
use crate::rules::{consulted, Game, Options, Rules, Variant};
use crate::scenario::ast::{Assertion, File, StatementKind, TurnText};
use crate::scenario::diagnostic::Problem;
use crate::scenario::evaluate::{game_before, Lowering, Settings};
use crate::scenario::parse::{parse_file, parse_turn};
use crate::scenario::report::Source;
use crate::{outln, with_variant};

/// Where the position comes from.
pub struct Request<'a> {
    /// A variant name, or a scenario location `file.scn:LINE`.
    pub target: &'a str,
    pub turn: Option<&'a str>,
    pub fen: Option<&'a str>,
    pub board: Option<&'a str>,
    pub size: Option<&'a str>,
    pub options: &'a [String],
    pub format: Format,
}

pub fn explain(request: Request<'_>, settings: &Settings) -> Result<i32, Failure> {
    let mut settings = settings.clone();
    for pin in request.options {
        settings.overrides.push(location::parse_option(pin)?);
    }
    let (path, line) = location::split(Path::new(request.target));
    let (source, file, index, until, turns) = match line {
        Some(line) => {
            if request.fen.is_some() || request.board.is_some() || request.size.is_some() {
                return Err(Failure::Input(
                    "a scenario line sets the position; leave out --fen, --board and --size".into(),
                ));
            }
            from_line(&path, line, request.turn)?
        }
        None => one_liner(&request)?,
    };
    let variant: Variant = file.variant.node.parse().map_err(Failure::Input)?;
    with_variant!(variant, R => explain_in::<R>(&source, &file, index, until, &turns, &settings, request.format))
}

/// A scenario line: its file, the scenario and statement, and the turns to explain.
type Located = (Source, File, usize, usize, Vec<TurnText>);

fn from_line(path: &Path, line: usize, turn: Option<&str>) -> Result<Located, Failure> {
    let source = match Source::read(path) {
        (source, None) => source,
        (source, Some(p)) => return Err(Failure::Rendered(source.render(&p))),
    };
    let mut file = parse_file(&source.src)
        .map_err(|ps| Failure::Rendered(ps.iter().map(|p| source.render(p)).collect()))?;
    crate::scenario::report::place_variant(&mut file, Path::new(&source.path))
        .map_err(|p| Failure::Rendered(source.render(&p)))?;
    let (index, scenario, statement) = location::at_line(&file, &source, line)?;
    let Some(statement) = statement else {
        return Err(Failure::Input(format!(
            "line {line} of {} holds no statement of scenario \"{}\"; name the line of a `play`, `expect legal` or `expect illegal`",
            source.shown_path(), scenario.title.node
        )));
    };
    let until = scenario
        .statements
        .iter()
        .position(|s| s.span == statement.span)
        .unwrap_or(0);
    let turns = match (&statement.kind, turn) {
        (_, Some(text)) => vec![turn_text(text)?],
        (StatementKind::Play(turns), None) => turns.clone(),
        (StatementKind::Expect(Assertion::Legal(t)), None)
        | (StatementKind::Expect(Assertion::Illegal(t, _)), None) => vec![t.clone()],
        _ => {
            return Err(Failure::Input(format!(
                "line {line} of {} is not a `play`, `expect legal` or `expect illegal`; give the turn to explain after the location (`{}:{line} Nf3`)",
                source.shown_path(), source.shown_path()
            )))
        }
    };
    Ok((source, file, index, until, turns))
}

fn turn_text(text: &str) -> Result<TurnText, Failure> {
    parse_turn(text)
        .map_err(|p| Failure::Rendered(crate::scenario::diagnostic::render(&p, "<turn>", text)))
}

/// A position from the command line, as a scenario of one statement before the turn.
fn one_liner(request: &Request<'_>) -> Result<Located, Failure> {
    let variant: Variant = request.target.parse().map_err(Failure::Input)?;
    if request.turn.is_none() {
        return Err(Failure::Input(format!(
            "name the turn to explain: `arbiter explain {} \"Nf3\"`, or a scenario line: `arbiter explain file.scn:14`",
            variant.name()
        )));
    }
    let (source, file, turn) = super::command_line::scenario(&super::command_line::Given {
        command: "explain",
        variant: request.target,
        turn: request.turn,
        fen: request.fen,
        board: request.board,
        size: request.size,
    })?;
    let until = file.scenarios[0].statements.len().saturating_sub(1);
    Ok((source, file, 0, until, turn.into_iter().collect()))
}

/// The explanation at a scenario statement, printed.
fn explain_in<R: Rules>(
    source: &Source,
    file: &File,
    index: usize,
    until: usize,
    turns: &[TurnText],
    settings: &Settings,
    format: Format,
) -> Result<i32, Failure> {
    let rendered =
        |ps: Vec<Problem>| Failure::Rendered(ps.iter().map(|p| source.render(p)).collect());
    let before = game_before::<R>(file, &source.src, settings, index, until).map_err(rendered)?;
    let lowering = Lowering::<R>::new(before.geometry);
    let patterns = turns
        .iter()
        .map(|t| lowering.turn(t).map_err(|p| rendered(vec![p])))
        .collect::<Result<Vec<_>, _>>()?;
    // The turns before the one explained are played (a play line explains its first refused
    // turn, or its last).
    let pick = |game: &Game<R>| -> (Game<R>, usize) {
        let mut game = game.clone();
        for (i, p) in patterns.iter().enumerate() {
            if i + 1 == patterns.len() {
                return (game, i);
            }
            let mut next = game.clone();
            if next.play(p).is_err() {
                return (game, i);
            }
            game = next;
        }
        (game, 0)
    };
    consulted::reset();
    let (game, which) = pick(&before.game);
    let pattern = &patterns[which];
    let (explanation, asked) = consulted::during(|| explain::explain(&game, pattern));
    let summary = explanation.summary();
    let pinned = |name: &str| {
        file.options.iter().any(|o| o.name.node == name)
            || settings.overrides.iter().any(|(n, _)| n == name)
            || file.scenarios[index].statements[..until]
                .iter()
                .any(|s| matches!(&s.kind, StatementKind::Option(o) if o.name.node == name))
    };
    let again = |options: &Options| -> Result<Explanation, String> {
        let mut s = settings.clone();
        s.overrides = options
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        let before = game_before::<R>(file, &source.src, &s, index, until).map_err(|ps| {
            ps.first()
                .map(|p| p.message.clone())
                .unwrap_or_else(|| "the position cannot be built".into())
        })?;
        let (game, which) = pick(&before.game);
        Ok(explain::explain(&game, &patterns[which]))
    };
    let options = explain::consulted::<R>(asked, &before.options, pinned, &summary, again);
    let written = &turns[which].text;
    let code = match explanation.verdict {
        Verdict::Legal { .. } => 0,
        _ => 1,
    };
    match format {
        Format::Text => print_text::<R>(&game, written, &explanation, &options)?,
        Format::Json => {
            let doc = to_json::<R>(&game, written, &explanation, &options);
            super::output::json(&doc)?;
        }
    }
    Ok(code)
}

fn rule_def<R: Rules>(id: &str) -> Option<&'static crate::rules::RuleDef> {
    R::rules().iter().find(|r| r.id == id)
}

/// Words wrapped to `width` columns after `indent`.
fn wrap(text: &str, indent: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.len() + 1 + word.len() > width {
            out.push_str(indent);
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(indent);
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// One step; a rule's source and clause are quoted the first time it appears.
fn step_text<R: Rules>(n: usize, step: &Step, first: bool) -> String {
    let mut out = format!("  {n}. {} {}", step.verdict.word(), step.rule);
    match rule_def::<R>(step.rule) {
        Some(_) if !first => {
            out.push_str(" (quoted above)\n");
            out.push_str(&wrap(&step.note, "       ", 96));
        }
        Some(def) => {
            out.push_str(&format!(" ({})\n", def.source));
            out.push_str(&wrap(&step.note, "       ", 96));
            if !def.quote.is_empty() {
                out.push_str(&wrap(&format!("\"{}\"", def.quote), "       > ", 96));
            }
        }
        None => {
            out.push('\n');
            out.push_str(&wrap(&step.note, "       ", 96));
        }
    }
    out
}

fn print_text<R: Rules>(
    game: &Game<R>,
    written: &str,
    e: &Explanation,
    options: &[Consulted],
) -> Result<(), Failure> {
    let pos = game.position();
    outln!("{} {}, {} to move", R::name(), pos.fen(), pos.turn())?;
    match &e.verdict {
        Verdict::Legal { turn, result } => {
            if turn.is_empty() || turn == written {
                super::output::painted_line(&super::colour::verdict(&format!("{written}: legal")))?;
            } else {
                super::output::painted_line(&super::colour::verdict(&format!("{written}: legal, as {turn}")))?;
            }
            if let Some(o) = result {
                outln!("result: {o}")?;
            }
        }
        Verdict::Illegal => {
            let first = e.forbidden_by();
            match first {
                Some(s) => super::output::painted_line(&super::colour::verdict(&format!("{written}: illegal, forbidden by {}", s.rule)))?,
                None => super::output::painted_line(&super::colour::verdict(&format!("{written}: illegal")))?,
            }
            let also: Vec<&str> = e
                .steps
                .iter()
                .filter(|s| s.verdict == StepVerdict::Forbids)
                .skip(1)
                .map(|s| s.rule)
                .collect();
            if !also.is_empty() {
                outln!("also forbidden by: {}", also.join(", "))?;
            }
        }
        Verdict::Ambiguous(c) => {
            outln!("{written}: ambiguous, it names {}", c.join(", "))?;
            outln!("write the origin square or the whole path to pick one")?;
        }
        Verdict::TooManyTurns(n) => outln!(
            "{written}: legal, but the position after it has more than {n} legal turns, more than arbiter lists for one position"
        )?,
    }
    if !e.steps.is_empty() {
        outln!()?;
        outln!("rules, in the order they judged it:")?;
        let mut seen = std::collections::BTreeSet::new();
        for (i, s) in e.steps.iter().enumerate() {
            let first = seen.insert(s.rule);
            super::output::out(format_args!(
                "{}",
                crate::text::escape_lines(&step_text::<R>(i + 1, s, first))
            ))?;
        }
    }
    if !e.nearest.is_empty() {
        outln!()?;
        outln!("nearest legal turns:")?;
        for n in &e.nearest {
            outln!("  {}: {}", n.turn, n.differs)?;
        }
    } else if e.verdict == Verdict::Illegal && e.written_move {
        outln!()?;
        outln!("no legal turn moves that piece or reaches that square")?;
    }
    if !options.is_empty() {
        outln!()?;
        outln!("options consulted:")?;
        for o in options {
            let how = if o.pinned { "pinned" } else { "default" };
            let others: Vec<String> = o
                .others
                .iter()
                .map(|a| {
                    let had_result = matches!(
                        e.verdict,
                        Verdict::Legal {
                            result: Some(_),
                            ..
                        }
                    );
                    if !a.changes {
                        format!("{}: the same", a.value)
                    } else if a.summary == "legal" && had_result {
                        format!("{}: legal, and no result", a.value)
                    } else {
                        format!("{}: {}", a.value, a.summary)
                    }
                })
                .collect();
            outln!(
                "  {} = {} ({how}); {}",
                o.option,
                o.value,
                others.join("; ")
            )?;
        }
    }
    Ok(())
}

fn to_json<R: Rules>(
    game: &Game<R>,
    written: &str,
    e: &Explanation,
    options: &[Consulted],
) -> Value {
    let pos = game.position();
    let step = |s: &Step| {
        let def = rule_def::<R>(s.rule);
        json!({
            "rule": s.rule,
            "verdict": s.verdict.word(),
            "note": s.note,
            "source": def.map(|d| d.source),
            "quote": def.map(|d| d.quote),
        })
    };
    let forbids: Vec<&str> = e
        .steps
        .iter()
        .filter(|s| s.verdict == StepVerdict::Forbids)
        .map(|s| s.rule)
        .collect();
    let (verdict, canonical, result, candidates) = match &e.verdict {
        Verdict::Legal { turn, result } => ("legal", Some(turn.clone()), *result, Vec::new()),
        Verdict::Illegal => ("illegal", None, None, Vec::new()),
        Verdict::Ambiguous(c) => ("ambiguous", None, None, c.clone()),
        Verdict::TooManyTurns(_) => ("too-many-turns", None, None, Vec::new()),
    };
    json!({
        "variant": R::name(),
        "fen": pos.fen(),
        "to_move": pos.turn().to_string(),
        "turn": written,
        "verdict": verdict,
        "canonical": canonical,
        "result": result.map(|o| json!({
            "winner": o.winner.map(|c| c.to_string()),
            "reason": o.reason.name(),
            "rule": o.rule,
        })),
        "candidates": candidates,
        "forbidden_by": forbids.first(),
        "also_forbidden_by": forbids.iter().skip(1).collect::<Vec<_>>(),
        "steps": e.steps.iter().map(step).collect::<Vec<_>>(),
        "nearest": e.nearest.iter().map(|n| json!({"turn": n.turn, "differs": n.differs})).collect::<Vec<_>>(),
        "options": options.iter().map(|o| json!({
            "name": o.option,
            "value": o.value,
            "pinned": o.pinned,
            "others": o.others.iter().map(|a| json!({
                "value": a.value,
                "verdict": a.summary,
                "changes": a.changes,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}
