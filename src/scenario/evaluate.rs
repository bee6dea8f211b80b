//! Evaluation: runs the scenarios of a parsed file against a variant's rules.
//!
//! Two passes. The first checks every name the file uses (variant, options, rule ids, keys,
//! invariants, reasons, squares) against the variant's catalogues and collects a [`Problem`] for
//! each one it does not know: such a file is unusable (exit status 2). The second plays each
//! scenario and records a [`Failure`] for every expectation that does not hold (exit status 1).

use std::collections::BTreeSet;

use super::ast::*;
use super::diagnostic::Problem;
use crate::rules::game::PlayError;
use crate::rules::{
    perft, Game, Geometry, Options, Origin, PieceRef, Reason, Rules, Setup, Square, Turn,
    TurnPattern, Variant,
};
use crate::rules::{ActionPattern, Piece};
use crate::with_variant;

/// What one scenario came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioReport {
    pub title: String,
    pub span: Span,
    /// Expectations evaluated (a failed `play` stops the scenario).
    pub checked: usize,
    pub failures: Vec<Failure>,
}

impl ScenarioReport {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// An expectation that does not hold, or a `play` that was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub span: Span,
    /// The statement as written.
    pub statement: String,
    pub expected: String,
    pub found: String,
}

/// Evaluates a parsed file. `Err` holds the problems that make the file unusable.
pub fn evaluate(file: &File, src: &str) -> Result<Vec<ScenarioReport>, Vec<Problem>> {
    let variant: Variant =
        file.variant.node.parse().map_err(|e: String| {
            vec![Problem::new(e, file.variant.span.clone(), "this variant")]
        })?;
    with_variant!(variant, R => Evaluator::<R>::new(file, src)?.run())
}

/// Evaluates a file under extra option settings that override the file's (for `dispute`).
pub fn evaluate_with(
    file: &File,
    src: &str,
    overrides: &[(String, String)],
) -> Result<Vec<ScenarioReport>, Vec<Problem>> {
    let variant: Variant =
        file.variant.node.parse().map_err(|e: String| {
            vec![Problem::new(e, file.variant.span.clone(), "this variant")]
        })?;
    with_variant!(variant, R => {
        let mut ev = Evaluator::<R>::new(file, src)?;
        ev.overrides = overrides.to_vec();
        ev.run()
    })
}

/// The options of a file's variant that no statement of the scenario pins (for `dispute`).
pub fn unpinned_options(
    file: &File,
    scenario: &Scenario,
) -> Vec<(&'static str, Vec<&'static str>)> {
    let Ok(variant) = file.variant.node.parse::<Variant>() else {
        return Vec::new();
    };
    let pinned: BTreeSet<&str> = file
        .options
        .iter()
        .map(|o| o.name.node.as_str())
        .chain(scenario.statements.iter().filter_map(|s| match &s.kind {
            StatementKind::Option(o) => Some(o.name.node.as_str()),
            _ => None,
        }))
        .collect();
    with_variant!(variant, R => R::options()
        .iter()
        .filter(|d| !pinned.contains(d.name))
        .map(|d| (d.name, d.values.to_vec()))
        .collect())
}

struct Evaluator<'a, R: Rules> {
    file: &'a File,
    src: &'a str,
    geometry: Geometry,
    options: Options,
    overrides: Vec<(String, String)>,
    _rules: std::marker::PhantomData<R>,
}

/// The state of one scenario while it runs.
struct Run<R: Rules> {
    options: Options,
    setup: Option<Setup>,
    game: Option<Game<R>>,
}

impl<'a, R: Rules> Evaluator<'a, R> {
    fn new(file: &'a File, src: &'a str) -> Result<Self, Vec<Problem>> {
        let mut problems = Vec::new();
        let size = file.size.as_ref().map(|s| s.node);
        let geometry = R::geometry_for(size).map_err(|e| {
            let span = file
                .size
                .as_ref()
                .map_or(file.variant.span.clone(), |s| s.span.clone());
            vec![Problem::new(e, span, "board size")]
        })?;
        let mut options = Options::defaults(R::options());
        for o in &file.options {
            if let Err(e) = options.set(R::options(), R::NAME, &o.name.node, &o.value.node) {
                problems.push(Problem::new(e, o.span.clone(), "this option"));
            }
        }
        let ev = Evaluator {
            file,
            src,
            geometry,
            options,
            overrides: Vec::new(),
            _rules: std::marker::PhantomData,
        };
        for scenario in &file.scenarios {
            ev.check_names(scenario, &mut problems);
        }
        if problems.is_empty() {
            Ok(ev)
        } else {
            Err(problems)
        }
    }

    // ---- names -------------------------------------------------------------------------------

    fn square(&self, name: &SquareName) -> Result<Square, Problem> {
        Lowering::<R>::new(self.geometry).square(name)
    }

    fn piece_ref(&self, piece: &PieceName, span: &Span) -> Result<PieceRef, Problem> {
        Lowering::<R>::new(self.geometry).piece_ref(piece, span)
    }

    fn lower_turn(&self, turn: &TurnText) -> Result<TurnPattern, Problem> {
        Lowering::<R>::new(self.geometry).turn(turn)
    }

    fn check_rule_id(&self, id: &Spanned<String>) -> Result<(), Problem> {
        if R::rules().iter().any(|r| r.id == id.node) {
            return Ok(());
        }
        Err(Problem::new(
            format!("unknown rule id `{}` for {}", id.node, R::NAME),
            id.span.clone(),
            "not a rule of this variant",
        )
        .with_help(format!("`arbiter rules {}` lists the rule ids", R::NAME)))
    }

    fn check_key(&self, kv: &KeyValue, span: &Span) -> Result<(), Problem> {
        let Some(def) = R::state_keys().iter().find(|k| k.name == kv.key.node) else {
            let names: Vec<_> = R::state_keys().iter().map(|k| k.name).collect();
            return Err(Problem::new(
                format!(
                    "unknown key `{}`; keys of {}: {}",
                    kv.key.node,
                    R::NAME,
                    names.join(", ")
                ),
                kv.key.span.clone(),
                "no such key",
            ));
        };
        match (def.per_color, kv.color) {
            (true, None) => Err(Problem::new(
                format!(
                    "key `{}` needs a colour: `{} white = ...`",
                    def.name, def.name
                ),
                span.clone(),
                "colour missing",
            )),
            (false, Some(_)) => Err(Problem::new(
                format!("key `{}` takes no colour", def.name),
                span.clone(),
                "colour not expected",
            )),
            _ => Ok(()),
        }
    }

    fn check_names(&self, scenario: &Scenario, problems: &mut Vec<Problem>) {
        let mut push = |r: Result<(), Problem>| {
            if let Err(p) = r {
                problems.push(p);
            }
        };
        let mut scratch = Options::defaults(R::options());
        for st in &scenario.statements {
            match &st.kind {
                StatementKind::Rule(ids) => {
                    for id in ids {
                        push(self.check_rule_id(id));
                    }
                }
                StatementKind::Option(o) => push(
                    scratch
                        .set(R::options(), R::NAME, &o.name.node, &o.value.node)
                        .map_err(|e| Problem::new(e, o.span.clone(), "this option")),
                ),
                StatementKind::Board(placements) => {
                    for p in placements {
                        push(self.square(&p.square).map(|_| ()));
                        if let Some(piece) = &p.piece {
                            push(self.piece_ref(piece, &p.span).map(|_| ()));
                        }
                    }
                }
                StatementKind::Set(kv) => push(self.check_key(kv, &st.span)),
                StatementKind::Play(turns) => {
                    for t in turns {
                        push(self.lower_turn(t).map(|_| ()));
                    }
                }
                StatementKind::Expect(a) => self.check_assertion(a, &st.span, &mut push),
                StatementKind::Start | StatementKind::Fen(_) | StatementKind::ToMove(_) => {}
            }
        }
    }

    fn check_assertion(
        &self,
        a: &Assertion,
        span: &Span,
        push: &mut impl FnMut(Result<(), Problem>),
    ) {
        match a {
            Assertion::Legal(t) => push(self.lower_turn(t).map(|_| ())),
            Assertion::Illegal(t, because) => {
                push(self.lower_turn(t).map(|_| ()));
                if let Some(id) = because {
                    push(self.check_rule_id(id));
                }
            }
            Assertion::Moves(ts) => {
                for t in ts {
                    push(self.lower_turn(t).map(|_| ()));
                }
            }
            Assertion::MovesFrom(sq, sqs) => {
                push(self.square(sq).map(|_| ()));
                for s in sqs {
                    push(self.square(s).map(|_| ()));
                }
            }
            Assertion::MovesFromCount(sq, _) => push(self.square(sq).map(|_| ())),
            Assertion::Result(_, Some(reason)) => push(
                reason
                    .node
                    .parse::<Reason>()
                    .map(|_| ())
                    .map_err(|e| Problem::new(e, reason.span.clone(), "no such reason")),
            ),
            Assertion::Occupant(sq, piece) => {
                push(self.square(sq).map(|_| ()));
                if let Some((_, p)) = piece {
                    push(self.piece_ref(p, &sq.span).map(|_| ()));
                }
            }
            Assertion::Zone(sq, zone) => {
                push(self.square(sq).map(|_| ()));
                if R::ZONES.is_empty() {
                    push(Err(Problem::new(
                        format!("{} has no zones; `expect zone` is for cypher", R::NAME),
                        span.clone(),
                        "not answerable in this variant",
                    )));
                } else if !R::ZONES.contains(&zone.node.as_str()) {
                    push(Err(Problem::new(
                        format!(
                            "unknown zone `{}`; zones of {}: {}",
                            zone.node,
                            R::NAME,
                            R::ZONES.join(", ")
                        ),
                        zone.span.clone(),
                        "no such zone",
                    )));
                }
            }
            Assertion::Cost(design, _) => {
                if !R::HAS_COSTS {
                    push(Err(Problem::new(
                        format!(
                            "{} has no piece designs; `expect cost` is for csipgs",
                            R::NAME
                        ),
                        span.clone(),
                        "not answerable in this variant",
                    )));
                } else {
                    push(
                        R::cost(&design.node)
                            .map(|_| ())
                            .map_err(|e| Problem::new(e, design.span.clone(), "this design")),
                    );
                }
            }
            Assertion::Check(_) => {
                // Variants without check answer `in_check` with None; that is a static fact,
                // so asking is an input problem, found when the scenario runs.
            }
            Assertion::Key(kv) => push(self.check_key(kv, span)),
            Assertion::Invariant(name, _) => {
                if !R::invariants().iter().any(|i| i.name == name.node) {
                    let names: Vec<_> = R::invariants().iter().map(|i| i.name).collect();
                    push(Err(Problem::new(
                        format!(
                            "unknown invariant `{}`; invariants of {}: {}",
                            name.node,
                            R::NAME,
                            names.join(", ")
                        ),
                        name.span.clone(),
                        "no such invariant",
                    )));
                }
            }
            Assertion::MovesCount(_)
            | Assertion::Result(_, None)
            | Assertion::Perft(..)
            | Assertion::WinIn(..) => {}
        }
    }

    // ---- running -----------------------------------------------------------------------------

    fn run(&self) -> Result<Vec<ScenarioReport>, Vec<Problem>> {
        let mut reports = Vec::new();
        let mut problems = Vec::new();
        for scenario in &self.file.scenarios {
            match self.run_scenario(scenario) {
                Ok(r) => reports.push(r),
                Err(p) => problems.push(p),
            }
        }
        if problems.is_empty() {
            Ok(reports)
        } else {
            Err(problems)
        }
    }

    fn text(&self, span: &Span) -> String {
        self.src
            .get(span.clone())
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn run_scenario(&self, scenario: &Scenario) -> Result<ScenarioReport, Problem> {
        let mut run = Run::<R> {
            options: self.options.clone(),
            setup: None,
            game: None,
        };
        let mut report = ScenarioReport {
            title: scenario.title.node.clone(),
            span: scenario.span.clone(),
            checked: 0,
            failures: Vec::new(),
        };
        for (name, value) in &self.overrides {
            run.options
                .set(R::options(), R::NAME, name, value)
                .map_err(|e| Problem::new(e, scenario.title.span.clone(), "under this option"))?;
        }
        for st in &scenario.statements {
            match &st.kind {
                StatementKind::Rule(_) => {}
                StatementKind::Option(o) => {
                    if !self.overrides.iter().any(|(n, _)| *n == o.name.node) {
                        run.options
                            .set(R::options(), R::NAME, &o.name.node, &o.value.node)
                            .map_err(|e| Problem::new(e, o.span.clone(), "this option"))?;
                    }
                    if run.game.is_some() {
                        self.rebuild(&mut run, &st.span, |_| Ok(()))?;
                    }
                }
                StatementKind::Start => {
                    let pos = R::start(self.geometry, &run.options);
                    run.setup = None;
                    run.game = Some(Game::new(pos, run.options.clone()));
                }
                StatementKind::Board(placements) => {
                    let mut setup = Setup::empty(self.geometry);
                    for p in placements {
                        let sq = self.square(&p.square)?;
                        let role = match &p.piece {
                            None => crate::rules::Role::Pawn,
                            Some(PieceName::Role(r)) => *r,
                            Some(design @ PieceName::Design(_)) => {
                                self.piece_ref(design, &p.span)?;
                                return Err(Problem::new(
                                    format!("{} boards hold no designed pieces", R::NAME),
                                    p.span.clone(),
                                    "a design",
                                ));
                            }
                        };
                        if setup.board.get(sq).is_some() {
                            return Err(Problem::new(
                                format!("two pieces are placed on {}", p.square.text()),
                                p.span.clone(),
                                "square already taken",
                            ));
                        }
                        setup.board.put(sq, Some(Piece::new(p.color, role)));
                    }
                    run.setup = Some(setup);
                    run.game = None;
                }
                StatementKind::Fen(text) => {
                    let pos =
                        R::from_fen(self.geometry, &text.node, &run.options).map_err(|e| {
                            Problem::new(format!("bad FEN: {e}"), text.span.clone(), "this FEN")
                        })?;
                    run.setup = None;
                    run.game = Some(Game::new(pos, run.options.clone()));
                }
                StatementKind::ToMove(color) => {
                    let color = *color;
                    self.edit_setup(&mut run, &st.span, |s| {
                        s.turn = color;
                        Ok(())
                    })?;
                }
                StatementKind::Set(kv) => {
                    let key = (kv.key.node.clone(), kv.color);
                    let value = kv.value.node.text();
                    self.edit_setup(&mut run, &st.span, |s| {
                        s.keys.insert(key, value);
                        Ok(())
                    })?;
                }
                StatementKind::Play(turns) => {
                    let game = self.game(&mut run, &st.span)?;
                    for t in turns {
                        let pattern = self.lower_turn(t)?;
                        if let Err(e) = game.play(&pattern) {
                            report.failures.push(Failure {
                                span: t.span.clone(),
                                statement: format!("play {}", t.text),
                                expected: format!("{} is legal", t.text),
                                found: describe_error(&e),
                            });
                            return Ok(report);
                        }
                    }
                }
                StatementKind::Expect(a) => {
                    let game = self.game(&mut run, &st.span)?;
                    report.checked += 1;
                    if let Some((expected, found)) = self.expect(game, a, &st.span)? {
                        report.failures.push(Failure {
                            span: st.span.clone(),
                            statement: self.text(&st.span),
                            expected,
                            found,
                        });
                    }
                }
            }
        }
        Ok(report)
    }

    /// Changes the pending setup, or the built position through its setup.
    fn edit_setup(
        &self,
        run: &mut Run<R>,
        span: &Span,
        edit: impl FnOnce(&mut Setup) -> Result<(), Problem>,
    ) -> Result<(), Problem> {
        if let Some(setup) = run.setup.as_mut() {
            return edit(setup);
        }
        if run.game.is_none() {
            return Err(Problem::new(
                "set up a position (start, board or fen) before changing it",
                span.clone(),
                "no position yet",
            ));
        }
        self.rebuild(run, span, edit)
    }

    fn rebuild(
        &self,
        run: &mut Run<R>,
        span: &Span,
        edit: impl FnOnce(&mut Setup) -> Result<(), Problem>,
    ) -> Result<(), Problem> {
        let Some(game) = run.game.as_mut() else {
            return Ok(());
        };
        let mut setup = game.position().to_setup();
        edit(&mut setup)?;
        let pos = R::from_setup(&setup, &run.options)
            .map_err(|e| Problem::new(format!("invalid position: {e}"), span.clone(), "here"))?;
        game.replace_position(pos);
        Ok(())
    }

    fn game<'r>(&self, run: &'r mut Run<R>, span: &Span) -> Result<&'r mut Game<R>, Problem> {
        if let Some(setup) = run.setup.take() {
            let pos = R::from_setup(&setup, &run.options).map_err(|e| {
                Problem::new(
                    format!("invalid position: {e}"),
                    span.clone(),
                    "the position is used here",
                )
            })?;
            run.game = Some(Game::new(pos, run.options.clone()));
        }
        run.game.as_mut().ok_or_else(|| {
            Problem::new(
                "no position: a scenario needs `start`, `board` or `fen` before its first play or expect",
                span.clone(),
                "no position yet",
            )
        })
    }

    fn name(&self, sq: Square) -> String {
        self.geometry.square_name(sq)
    }

    fn turn_list(&self, turns: &[Turn]) -> String {
        if turns.is_empty() {
            return "{ }".to_string();
        }
        let texts: Vec<_> = turns.iter().map(|t| t.text(&self.geometry)).collect();
        format!("{{ {} }}", texts.join(" "))
    }

    /// Checks one assertion: `None` when it holds, otherwise what was expected and found.
    fn expect(
        &self,
        game: &Game<R>,
        a: &Assertion,
        span: &Span,
    ) -> Result<Option<(String, String)>, Problem> {
        let fail = |e: String, f: String| Ok(Some((e, f)));
        match a {
            Assertion::Legal(t) => {
                let pattern = self.lower_turn(t)?;
                match game.clone().play(&pattern) {
                    Ok(_) => Ok(None),
                    Err(e) => fail(format!("{} is legal", t.text), describe_error(&e)),
                }
            }
            Assertion::Illegal(t, because) => {
                let pattern = self.lower_turn(t)?;
                let expected = match because {
                    Some(id) => format!("{} is illegal because {}", t.text, id.node),
                    None => format!("{} is illegal", t.text),
                };
                match game.clone().play(&pattern) {
                    Ok(turn) => fail(expected, format!("legal ({})", turn.text(&self.geometry))),
                    Err(PlayError::Ambiguous(c)) => {
                        fail(expected, format!("legal, and ambiguous: {}", c.join(", ")))
                    }
                    Err(PlayError::Refused(r)) => match because {
                        Some(id) if id.node != r.rule => fail(
                            expected,
                            format!("illegal because {}: {}", r.rule, r.reason),
                        ),
                        _ => Ok(None),
                    },
                }
            }
            Assertion::Moves(ts) => {
                let legal: Vec<Turn> = game.legal_turns().into_iter().map(|(_, t)| t).collect();
                let mut unmatched = Vec::new();
                let mut wanted = BTreeSet::new();
                for t in ts {
                    let p = self.lower_turn(t)?;
                    let hits: Vec<usize> =
                        (0..legal.len()).filter(|i| p.matches(&legal[*i])).collect();
                    match hits.as_slice() {
                        [i] => {
                            wanted.insert(*i);
                        }
                        _ => unmatched.push(t.text.clone()),
                    }
                }
                let extra: Vec<Turn> = (0..legal.len())
                    .filter(|i| !wanted.contains(i))
                    .map(|i| legal[i].clone())
                    .collect();
                if unmatched.is_empty() && extra.is_empty() {
                    return Ok(None);
                }
                let mut found = format!("legal turns {}", self.turn_list(&legal));
                if !unmatched.is_empty() {
                    found.push_str(&format!(
                        "; not legal (or ambiguous): {}",
                        unmatched.join(", ")
                    ));
                }
                if !extra.is_empty() {
                    found.push_str(&format!("; also legal: {}", self.turn_list(&extra)));
                }
                let written: Vec<_> = ts.iter().map(|t| t.text.clone()).collect();
                fail(format!("legal turns {{ {} }}", written.join(" ")), found)
            }
            Assertion::MovesFrom(sq, sqs) => {
                let from = self.square(sq)?;
                let found: BTreeSet<Square> = game
                    .legal_turns()
                    .iter()
                    .filter(|(_, t)| t.first_origin() == Some(from))
                    .filter_map(|(_, t)| t.first_destination())
                    .collect();
                let expected: BTreeSet<Square> = sqs
                    .iter()
                    .map(|s| self.square(s))
                    .collect::<Result<_, _>>()?;
                if found == expected {
                    return Ok(None);
                }
                let list = |set: &BTreeSet<Square>| {
                    let mut v: Vec<String> = set.iter().map(|s| self.name(*s)).collect();
                    v.sort();
                    format!("{{ {} }}", v.join(" "))
                };
                fail(
                    format!("moves from {} = {}", sq.text(), list(&expected)),
                    format!("moves from {} = {}", sq.text(), list(&found)),
                )
            }
            Assertion::MovesCount(n) => {
                let found = game.legal_turns().len() as u64;
                if found == *n {
                    Ok(None)
                } else {
                    fail(format!("{n} legal turns"), format!("{found} legal turns"))
                }
            }
            Assertion::MovesFromCount(sq, n) => {
                let from = self.square(sq)?;
                let found = game
                    .legal_turns()
                    .iter()
                    .filter(|(_, t)| t.first_origin() == Some(from))
                    .count() as u64;
                if found == *n {
                    Ok(None)
                } else {
                    fail(
                        format!("{n} legal turns from {}", sq.text()),
                        format!("{found} legal turns from {}", sq.text()),
                    )
                }
            }
            Assertion::Check(expected) => {
                let Some(found) = game.position().in_check() else {
                    return Err(Problem::new(
                        format!(
                            "{} has no check; `expect check` cannot be answered",
                            R::NAME
                        ),
                        span.clone(),
                        "not answerable in this variant",
                    ));
                };
                let word = |b: bool| if b { "check" } else { "no check" };
                if found == *expected {
                    Ok(None)
                } else {
                    fail(word(*expected).to_string(), word(found).to_string())
                }
            }
            Assertion::Result(expected, reason) => {
                let outcome = game.outcome();
                let found = match outcome {
                    None => "none".to_string(),
                    Some(o) => o.to_string(),
                };
                let winner_ok = match (expected, outcome) {
                    (ExpectedResult::None, None) => true,
                    (ExpectedResult::Draw, Some(o)) => o.winner.is_none(),
                    (ExpectedResult::Wins(c), Some(o)) => o.winner == Some(*c),
                    _ => false,
                };
                let reason_ok = match (reason, outcome) {
                    (None, _) => true,
                    (Some(r), Some(o)) => o.reason.name() == r.node,
                    (Some(_), None) => false,
                };
                if winner_ok && reason_ok {
                    return Ok(None);
                }
                let mut e = match expected {
                    ExpectedResult::Wins(c) => format!("{c} wins"),
                    ExpectedResult::Draw => "draw".to_string(),
                    ExpectedResult::None => "none".to_string(),
                };
                if let Some(r) = reason {
                    e.push_str(&format!(" by {}", r.node));
                }
                fail(e, found)
            }
            Assertion::Occupant(sq, expected) => {
                let at = self.square(sq)?;
                let found = game.position().board().get(at);
                let expected_piece = match expected {
                    None => None,
                    Some((c, PieceName::Role(r))) => Some(Piece::new(*c, *r)),
                    Some((_, PieceName::Design(d))) => {
                        return Err(Problem::new(
                            format!("piece designs such as `({d})` exist only in csipgs"),
                            sq.span.clone(),
                            "a design",
                        ))
                    }
                };
                let show = |p: Option<Piece>| p.map_or("empty".to_string(), |p| p.to_string());
                if found == expected_piece {
                    Ok(None)
                } else {
                    fail(
                        format!("{} = {}", sq.text(), show(expected_piece)),
                        format!("{} = {}", sq.text(), show(found)),
                    )
                }
            }
            Assertion::Zone(sq, zone) => {
                let at = self.square(sq)?;
                let found = game.position().zone(at).unwrap_or("none");
                if found == zone.node {
                    Ok(None)
                } else {
                    fail(
                        format!("zone {} = {}", sq.text(), zone.node),
                        format!("zone {} = {found}", sq.text()),
                    )
                }
            }
            Assertion::Perft(depth, n) => {
                let found = perft(game.position(), *depth);
                if found == *n {
                    Ok(None)
                } else {
                    fail(
                        format!("perft {depth} = {n}"),
                        format!("perft {depth} = {found}"),
                    )
                }
            }
            Assertion::WinIn(n, color) => {
                if game.can_force_win(*color, *n) {
                    Ok(None)
                } else {
                    fail(
                        format!("{color} can force a win within {n} of its turns"),
                        "no forced win within that many turns".to_string(),
                    )
                }
            }
            Assertion::Cost(design, n) => {
                let found = R::cost(&design.node)
                    .map_err(|e| Problem::new(e, design.span.clone(), "this design"))?;
                if found == *n {
                    Ok(None)
                } else {
                    fail(
                        format!("cost {} = {n}", design.node),
                        format!("cost {} = {found}", design.node),
                    )
                }
            }
            Assertion::Key(kv) => {
                let found = game.position().state_key(&kv.key.node, kv.color);
                let expected = kv.value.node.text();
                if found == expected {
                    return Ok(None);
                }
                let name = match kv.color {
                    Some(c) => format!("{} {c}", kv.key.node),
                    None => kv.key.node.clone(),
                };
                fail(format!("{name} = {expected}"), format!("{name} = {found}"))
            }
            Assertion::Invariant(name, depth) => match game.invariant_violation(&name.node, *depth)
            {
                None => Ok(None),
                Some((path, what)) => {
                    let after = if path.is_empty() {
                        "in the current position".to_string()
                    } else {
                        format!("after {}", path.join(" "))
                    };
                    fail(
                        format!("invariant {} holds to depth {depth}", name.node),
                        format!("{after}: {what}"),
                    )
                }
            },
        }
    }
}

/// A refused or ambiguous turn in words.
pub fn describe_error(e: &PlayError) -> String {
    match e {
        PlayError::Refused(r) => format!("illegal because {}: {}", r.rule, r.reason),
        PlayError::Ambiguous(c) => format!("ambiguous: it matches {}", c.join(", ")),
    }
}

/// Resolves what a scenario writes (squares, pieces, turns) against a variant's board.
pub struct Lowering<R: Rules> {
    geometry: Geometry,
    _rules: std::marker::PhantomData<R>,
}

impl<R: Rules> Lowering<R> {
    pub fn new(geometry: Geometry) -> Self {
        Lowering {
            geometry,
            _rules: std::marker::PhantomData,
        }
    }

    pub fn square(&self, name: &SquareName) -> Result<Square, Problem> {
        self.geometry.parse_square(&name.text()).ok_or_else(|| {
            Problem::new(
                format!(
                    "square `{}` is not on the {} board ({})",
                    name.text(),
                    R::NAME,
                    self.geometry.describe()
                ),
                name.span.clone(),
                "no such square",
            )
        })
    }

    pub fn piece_ref(&self, piece: &PieceName, span: &Span) -> Result<PieceRef, Problem> {
        match piece {
            PieceName::Role(r) => Ok(PieceRef::Role(*r)),
            PieceName::Design(d) if R::HAS_COSTS => Ok(PieceRef::Design(d.clone())),
            PieceName::Design(d) => Err(Problem::new(
                format!(
                    "piece designs such as `({d})` exist only in csipgs; {} has none",
                    R::NAME
                ),
                span.clone(),
                "a design",
            )),
        }
    }

    pub fn turn(&self, turn: &TurnText) -> Result<TurnPattern, Problem> {
        let (actions, claim) = match &turn.turn {
            TurnSyntax::Resign => return Ok(TurnPattern::Resign),
            TurnSyntax::Draw => return Ok(TurnPattern::Draw),
            TurnSyntax::Actions(a, c) => (a, *c),
        };
        let mut out = Vec::new();
        for a in actions {
            out.push(match a {
                ActionSyntax::Move {
                    style,
                    piece,
                    from,
                    via,
                    to,
                    capture,
                    promotion,
                } => {
                    let from = match from {
                        OriginSyntax::Any => Origin::Any,
                        OriginSyntax::Exact(s) => Origin::Exact(self.square(s)?),
                        OriginSyntax::File(f) => {
                            Origin::File(self.geometry.file_of(f).ok_or_else(|| {
                                Problem::new(
                                    format!(
                                        "`{f}` is not a file of the {} board ({})",
                                        R::NAME,
                                        self.geometry.describe()
                                    ),
                                    turn.span.clone(),
                                    "no such file",
                                )
                            })?)
                        }
                        OriginSyntax::Rank(r) => {
                            Origin::Rank(self.geometry.rank_of(r).ok_or_else(|| {
                                Problem::new(
                                    format!(
                                        "`{r}` is not a rank of the {} board ({})",
                                        R::NAME,
                                        self.geometry.describe()
                                    ),
                                    turn.span.clone(),
                                    "no such rank",
                                )
                            })?)
                        }
                    };
                    ActionPattern::Move {
                        style: *style,
                        piece: piece
                            .as_ref()
                            .map(|p| self.piece_ref(p, &turn.span))
                            .transpose()?,
                        from,
                        via: via
                            .iter()
                            .map(|s| self.square(s))
                            .collect::<Result<_, _>>()?,
                        to: self.square(to)?,
                        capture: *capture,
                        promotion: promotion
                            .as_ref()
                            .map(|p| self.piece_ref(p, &turn.span))
                            .transpose()?,
                    }
                }
                ActionSyntax::Castle(side) => ActionPattern::Castle(*side),
                ActionSyntax::Drop { piece, to } => ActionPattern::Drop {
                    piece: self.piece_ref(piece, &turn.span)?,
                    to: self.square(to)?,
                },
                ActionSyntax::Coup { piece, square } => ActionPattern::Coup {
                    piece: self.piece_ref(piece, &turn.span)?,
                    square: self.square(square)?,
                },
                ActionSyntax::Reborn { square } => ActionPattern::Reborn {
                    square: self.square(square)?,
                },
                ActionSyntax::Pass => ActionPattern::Pass,
                ActionSyntax::Buy { design } => ActionPattern::Buy {
                    design: design.clone(),
                },
                ActionSyntax::Redesign { from, to } => ActionPattern::Redesign {
                    from: self.piece_ref(from, &turn.span)?,
                    to: to.clone(),
                },
            });
        }
        Ok(TurnPattern::Actions {
            actions: out,
            claim,
        })
    }
}
