//! Evaluation: runs the scenarios of a parsed file against a variant's rules.
//!
//! The file's header (variant, board size, file-wide options) must be usable, or nothing runs.
//! Then each scenario on its own: first every name it uses (options, rule ids, keys,
//! invariants, reasons, squares, search depths) is checked against the variant's catalogues,
//! and a scenario with a name the variant does not know does not run: it reports its
//! [`Problem`]s (exit status 2) while the other scenarios still run. A scenario that runs
//! records a [`Failure`] for every expectation that does not hold (exit status 1); a position
//! that turns out invalid while it runs is again a problem of that scenario alone. Every search
//! runs under the [`Settings`]' node budget and per-scenario deadline.

use crate::rules::Color;
use std::collections::{BTreeSet, HashMap};
use std::ops::ControlFlow;
use std::time::Duration;

use super::ast::*;
use super::diagnostic::Problem;
use crate::picture::Picture;
use crate::rules::consulted;
use crate::rules::game::{Lookup, PlayError, Resolved};
use crate::rules::search::{self, Limits, Stop};
use crate::rules::variants::names_where;
use crate::rules::{
    perft_within, Game, Geometry, Options, Origin, Outcome, PieceRef, Reason, Rules, Setup, Square,
    Turn, TurnPattern, Variant,
};
use crate::rules::{ActionPattern, Leg, Piece, Role};
use crate::suggest::did_you_mean;
use crate::with_variant;

/// How scenarios are evaluated: the limits of every search, a deadline per scenario, option
/// values that override the file's and the scenarios' (`--option`, `dispute`), and which
/// scenarios run.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub limits: Limits,
    pub timeout: Option<Duration>,
    pub overrides: Vec<(String, String)>,
    /// Only scenarios whose title contains this text, in any case (`--filter`).
    pub filter: Option<String>,
    /// Only the scenario that holds this line of the file (`file.scn:13`).
    pub line: Option<usize>,
    /// How many failures of each scenario keep a picture of their position ([`Diagram`]),
    /// for the HTML report; none by default.
    pub diagrams: usize,
}

impl Settings {
    pub fn new(limits: Limits, timeout: Option<Duration>) -> Settings {
        Settings {
            limits,
            timeout,
            overrides: Vec::new(),
            filter: None,
            line: None,
            diagrams: 0,
        }
    }

    /// Whether the scenario runs under this selection.
    pub fn selects(&self, scenario: &Scenario, src: &str) -> bool {
        let line_of = |offset: usize| super::diagnostic::line_col(src, offset).0;
        self.filter
            .as_ref()
            .is_none_or(|f| crate::text::contains_any_case(&scenario.title.node, f))
            && self.line.is_none_or(|l| {
                (line_of(scenario.span.start)..=line_of(scenario.span.end.saturating_sub(1)))
                    .contains(&l)
            })
    }
}

/// What one scenario came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioReport {
    pub title: String,
    pub span: Span,
    /// Expectations evaluated (a failed `play` stops the scenario).
    pub checked: usize,
    pub failures: Vec<Failure>,
    /// What made the scenario unusable (an unknown name, an invalid position): it stopped
    /// there, or never ran.
    pub problems: Vec<Problem>,
    /// The user interrupted the run during this scenario.
    pub interrupted: bool,
    /// Each `expect` evaluated, in order, and whether it held.
    pub expectations: Vec<(Span, bool)>,
    /// Each `expect illegal` without `because` that held, with the rule that refused its turn.
    pub refused_by: Vec<(Span, &'static str)>,
    /// The options the evaluation consulted, with their values, in catalogue order.
    pub consulted: Vec<(&'static str, &'static str)>,
    /// The game's result where the scenario ended, if it has one.
    pub result: Option<Outcome>,
    /// Why the scenario is marked `pending`: its failures are reported, not counted.
    pub pending: Option<String>,
}

/// Passed, failed, or could not be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Passed,
    Failed,
    Error,
}

impl ScenarioReport {
    fn new(scenario: &Scenario) -> ScenarioReport {
        ScenarioReport {
            title: scenario.title.node.clone(),
            span: scenario.span.clone(),
            checked: 0,
            failures: Vec::new(),
            problems: Vec::new(),
            interrupted: false,
            expectations: Vec::new(),
            refused_by: Vec::new(),
            consulted: Vec::new(),
            result: None,
            pending: scenario.statements.iter().find_map(|s| match &s.kind {
                StatementKind::Pending(reason) => Some(reason.node.clone()),
                _ => None,
            }),
        }
    }

    pub fn status(&self) -> Status {
        if !self.problems.is_empty() {
            Status::Error
        } else if self.failures.is_empty() && !self.interrupted {
            Status::Passed
        } else {
            Status::Failed
        }
    }

    pub fn passed(&self) -> bool {
        self.status() == Status::Passed
    }

    /// A scenario marked `pending` that does not pass yet: reported, not counted as failed.
    pub fn pending_failure(&self) -> bool {
        self.pending.is_some() && self.status() == Status::Failed
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
    /// The interpretation options consulted on the way to it, with their values: a failure
    /// that hangs on a reading names it.
    pub options: Vec<(&'static str, &'static str)>,
    /// For a count, a move list or a state key: the assertion the values found make true
    /// (`perft 3 = 8902`), which `check --bless` writes in place of the statement.
    pub blessed: Option<String>,
    /// The position it was found in, for the HTML report.
    pub diagram: Diagram,
}

/// The picture a failure keeps of the position it was found in (the HTML report draws it):
/// taken when the failure is recorded, so that no report replays a scenario to draw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Diagram {
    /// None kept: the run draws no diagrams, or the scenario (or the report) has as many as
    /// [`Settings::diagrams`] allows.
    Omitted,
    /// The expectation is not about a position (`expect cost`).
    NoBoard,
    /// The position just before the statement, with the turn it is about drawn on it.
    Drawn(Box<Picture>),
}

/// A scenario run up to one of its statements: the game just before it, for `explain`.
pub struct Before<R: Rules> {
    pub game: Game<R>,
    pub geometry: Geometry,
    /// The options in force there.
    pub options: Options,
}

/// The game just before statement `until` of scenario `index`, under `settings`. The
/// statements before it run as `check` runs them; an expectation that fails there does not
/// matter, a refused `play` does (the position cannot be reached).
pub fn game_before<R: Rules>(
    file: &File,
    src: &str,
    settings: &Settings,
    index: usize,
    until: usize,
) -> Result<Before<R>, Vec<Problem>> {
    let (ev, mut problems) = Evaluator::<R>::new(file, src, settings)?;
    let scenario = &file.scenarios[index];
    let lowered = ev.check_names(scenario, &mut problems);
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut report = ScenarioReport::new(scenario);
    let mut run = Run::<R> {
        options: ev.options.clone(),
        setup: None,
        game: None,
        limits: settings.limits.with_timeout(settings.timeout),
        diagrams: 0,
    };
    ev.run_statements(scenario, &lowered, &mut report, &mut run, until)
        .map_err(|p| vec![p])?;
    if let Some(f) = report
        .failures
        .iter()
        .find(|f| f.statement.starts_with("play "))
    {
        return Err(vec![Problem::new(
            format!(
                "the position cannot be reached: {} is refused ({})",
                f.statement, f.found
            ),
            f.span.clone(),
            "refused here",
        )]);
    }
    let span = scenario
        .statements
        .get(until)
        .map_or(scenario.span.clone(), |s| s.span.clone());
    let game = ev.game(&mut run, &span).map_err(|p| vec![p])?.clone();
    Ok(Before {
        game,
        geometry: ev.geometry,
        options: run.options,
    })
}

/// The options of `asked` with their values in `options`, in catalogue order.
fn in_force<R: Rules>(
    asked: consulted::Asked,
    options: &Options,
) -> Vec<(&'static str, &'static str)> {
    asked
        .options(R::options())
        .into_iter()
        .map(|d| (d.name, options.get(d.name)))
        .collect()
}

/// Evaluates a parsed file with the default settings. `Err` holds the problems of a header
/// that makes the whole file unusable.
pub fn evaluate(file: &File, src: &str) -> Result<Vec<ScenarioReport>, Vec<Problem>> {
    evaluate_with(file, src, &Settings::default())
}

/// Evaluates a parsed file under the given settings.
pub fn evaluate_with(
    file: &File,
    src: &str,
    settings: &Settings,
) -> Result<Vec<ScenarioReport>, Vec<Problem>> {
    let mut reports = Vec::new();
    evaluate_each(file, src, settings, |event| {
        if let Event::Done(r) = event {
            reports.push(r);
        }
        ControlFlow::Continue(())
    })?;
    Ok(reports)
}

/// What [`evaluate_each`] tells as it goes.
// A report is moved once per scenario: boxing it would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum Event<'a> {
    /// A scenario starts.
    Start(&'a Scenario),
    /// A scenario is decided.
    Done(ScenarioReport),
}

/// Evaluates the scenarios of a file one by one, telling when each starts and handing each
/// report over as soon as it is decided; `each` may break to stop before the next scenario.
pub fn evaluate_each<'f>(
    file: &'f File,
    src: &str,
    settings: &Settings,
    mut each: impl FnMut(Event<'f>) -> ControlFlow<()>,
) -> Result<(), Vec<Problem>> {
    with_variant!(variant_of(file)?, R => {
        let ev = Evaluator::<R>::usable(file, src, settings)?;
        for scenario in file.scenarios.iter().filter(|s| settings.selects(s, src)) {
            if each(Event::Start(scenario)).is_break()
                || each(Event::Done(ev.scenario(scenario))).is_break()
            {
                break;
            }
        }
        Ok(())
    })
}

/// The scenarios of a file that `settings` selects, by index, when its header is usable; `Err`
/// holds the problems of a header that is not, as [`evaluate_each`] gives them. With
/// [`evaluate_scenario`], the scenarios of one file can be evaluated on several threads.
pub fn selected(file: &File, src: &str, settings: &Settings) -> Result<Vec<usize>, Vec<Problem>> {
    with_variant!(variant_of(file)?, R => {
        Evaluator::<R>::usable(file, src, settings)?;
    });
    Ok((0..file.scenarios.len())
        .filter(|&i| settings.selects(&file.scenarios[i], src))
        .collect())
}

/// Evaluates one scenario of a file whose header [`selected`] accepted (its problems otherwise),
/// as [`evaluate_each`] does, wholly on the calling thread: the options consulted are recorded
/// per thread.
pub fn evaluate_scenario(
    file: &File,
    src: &str,
    settings: &Settings,
    scenario: &Scenario,
) -> ScenarioReport {
    let evaluate = || -> Result<ScenarioReport, Vec<Problem>> {
        with_variant!(variant_of(file)?, R => {
            Ok(Evaluator::<R>::usable(file, src, settings)?.scenario(scenario))
        })
    };
    // The thread's record is left as it was: a worker that ran this while waiting inside
    // another scenario's evaluation (work stealing) must not disturb that one's record.
    consulted::quietly(evaluate).unwrap_or_else(|problems| ScenarioReport {
        problems,
        ..ScenarioReport::new(scenario)
    })
}

/// Every problem `check` finds before it runs anything: the header's, then each scenario's
/// unknown names (rule ids, options, keys, squares, pieces, turns), in file order, without
/// running a scenario. What an editor shows while the text is typed.
pub fn name_problems(file: &File, src: &str, settings: &Settings) -> Vec<Problem> {
    let variant = match variant_of(file) {
        Ok(v) => v,
        Err(problems) => return problems,
    };
    with_variant!(variant, R => match Evaluator::<R>::new(file, src, settings) {
        Err(problems) => problems,
        Ok((ev, mut problems)) => {
            for scenario in &file.scenarios {
                ev.check_names(scenario, &mut problems);
            }
            problems
        }
    })
}

/// How `arbiter rules` names the variant a file names by `spec`: a definition file by its
/// path as typed from the current folder (`./septet.def`), anything else as written.
fn rules_argument(spec: &str) -> String {
    if crate::definition::load::is_path(spec) && crate::definition::ini::spec(spec).is_none() {
        crate::shell::typed(std::path::Path::new(spec))
    } else {
        crate::shell::quote(spec)
    }
}

/// The variant a file names.
fn variant_of(file: &File) -> Result<Variant, Vec<Problem>> {
    file.variant
        .node
        .parse()
        .map_err(|e: String| vec![Problem::new(e, file.variant.span.clone(), "this variant")])
}

struct Evaluator<'a, R: Rules> {
    src: &'a str,
    /// The file's `variant` value, which commands suggested in messages name.
    spec: &'a str,
    geometry: Geometry,
    options: Options,
    settings: &'a Settings,
    _rules: std::marker::PhantomData<R>,
}

/// The turns of a scenario lowered against the variant, by where each starts in the file.
type Lowered = HashMap<usize, TurnPattern>;

/// The state of one scenario while it runs.
struct Run<R: Rules> {
    options: Options,
    /// A position being described (`board`, `set`, `to move`) and the statement that began it.
    setup: Option<(Setup, Span)>,
    game: Option<Game<R>>,
    limits: Limits,
    /// How many more failures keep a [`Diagram`].
    diagrams: usize,
}

impl<'a, R: Rules> Evaluator<'a, R> {
    /// The evaluator of a file, and the problems of its header (bad file-wide options); a
    /// board size the variant does not have leaves nothing to evaluate with.
    fn new(
        file: &'a File,
        src: &'a str,
        settings: &'a Settings,
    ) -> Result<(Self, Vec<Problem>), Vec<Problem>> {
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
            if let Err(e) = options.set(R::options(), R::name(), &o.name.node, &o.value.node) {
                problems.push(Problem::new(e, o.span.clone(), "this option"));
            }
        }
        for (name, value) in &settings.overrides {
            if let Err(e) = options.set(R::options(), R::name(), name, value) {
                problems.push(Problem::new(e, file.variant.span.clone(), "for this file"));
            }
        }
        let ev = Evaluator {
            src,
            spec: &file.variant.node,
            geometry,
            options,
            settings,
            _rules: std::marker::PhantomData,
        };
        Ok((ev, problems))
    }

    /// The evaluator of a file whose header is usable; the header's problems otherwise. Nothing
    /// runs with a broken header, but every name problem is worth a look.
    fn usable(file: &'a File, src: &'a str, settings: &'a Settings) -> Result<Self, Vec<Problem>> {
        let (ev, mut problems) = Evaluator::<R>::new(file, src, settings)?;
        if problems.is_empty() {
            return Ok(ev);
        }
        for scenario in &file.scenarios {
            ev.check_names(scenario, &mut problems);
        }
        Err(problems)
    }

    /// Checks a scenario's names, then runs it if they are all known.
    fn scenario(&self, scenario: &Scenario) -> ScenarioReport {
        let mut report = ScenarioReport::new(scenario);
        let lowered = self.check_names(scenario, &mut report.problems);
        if report.problems.is_empty() {
            if let Err(p) = self.run_scenario(scenario, &lowered, &mut report) {
                report.problems.push(p);
            }
        }
        report
    }

    // ---- names -------------------------------------------------------------------------------

    fn square(&self, name: &SquareName) -> Result<Square, Problem> {
        Lowering::<R>::new(self.geometry).square(name)
    }

    fn piece(&self, color: Color, piece: &PieceName) -> Result<Piece, Problem> {
        Lowering::<R>::new(self.geometry).piece(color, piece)
    }

    /// Lowers a turn into `lowered`, where running the scenario finds it again.
    fn lower_turn(&self, turn: &TurnText, lowered: &mut Lowered) -> Result<(), Problem> {
        let pattern = Lowering::<R>::new(self.geometry).turn(turn)?;
        lowered.insert(turn.span.start, pattern);
        Ok(())
    }

    fn check_rule_id(&self, id: &Spanned<String>) -> Result<(), Problem> {
        if R::rules().iter().any(|r| r.id == id.node) {
            return Ok(());
        }
        let hint = did_you_mean(&id.node, R::rules().iter().map(|r| r.id));
        Err(Problem::new(
            format!("unknown rule id `{}` for {}{hint}", id.node, R::name()),
            id.span.clone(),
            "not a rule of this variant",
        )
        .with_help(format!(
            "`arbiter rules {}` lists the rule ids",
            rules_argument(self.spec)
        )))
    }

    /// A search depth (in plies) within [`search::MAX_DEPTH`].
    fn check_depth(&self, plies: u64, span: &Span) -> Result<(), Problem> {
        search::check_depth(plies).map(|_| ()).map_err(|_| {
            Problem::new(search::too_deep(plies), span.clone(), "too deep to search").with_help(
                format!(
                    "searches go at most {} plies deep (`win in n` searches 2n plies)",
                    search::MAX_DEPTH
                ),
            )
        })
    }

    fn check_key(&self, kv: &KeyValue, span: &Span) -> Result<(), Problem> {
        let Some(def) = R::state_keys().iter().find(|k| k.name == kv.key.node) else {
            let names: Vec<_> = R::state_keys().iter().map(|k| k.name).collect();
            return Err(Problem::new(
                format!(
                    "unknown key `{}`; keys of {}: {}{}",
                    kv.key.node,
                    R::name(),
                    names.join(", "),
                    did_you_mean(&kv.key.node, names.iter().copied())
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

    /// Checks every name a scenario uses, and lowers its turns (once: running the scenario
    /// uses the patterns kept here).
    fn check_names(&self, scenario: &Scenario, problems: &mut Vec<Problem>) -> Lowered {
        let mut lowered = Lowered::new();
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
                StatementKind::Pending(reason) => {
                    if reason.node.trim().is_empty() {
                        push(Err(Problem::new(
                            "a pending scenario says why: `pending \"the coup rule is not settled\"`",
                            reason.span.clone(),
                            "no reason",
                        )));
                    }
                }
                StatementKind::Option(o) => push(
                    scratch
                        .set(R::options(), R::name(), &o.name.node, &o.value.node)
                        .map_err(|e| Problem::new(e, o.span.clone(), "this option")),
                ),
                StatementKind::Board(placements) => {
                    for p in placements {
                        push(self.square(&p.square).map(|_| ()));
                        if let Some(piece) = &p.piece {
                            push(self.piece(Color::White, piece).map(|_| ()));
                        }
                    }
                }
                StatementKind::Set(kv) => push(self.check_key(kv, &st.span)),
                StatementKind::Play(turns) => {
                    for t in turns {
                        push(self.lower_turn(t, &mut lowered));
                    }
                }
                StatementKind::Expect(a) => {
                    self.check_assertion(a, &st.span, &mut lowered, &mut push)
                }
                StatementKind::Start | StatementKind::Fen(_) | StatementKind::ToMove(_) => {}
            }
        }
        lowered
    }

    fn check_assertion(
        &self,
        a: &Assertion,
        span: &Span,
        lowered: &mut Lowered,
        push: &mut impl FnMut(Result<(), Problem>),
    ) {
        match a {
            Assertion::Legal(t) => push(self.lower_turn(t, lowered)),
            Assertion::Illegal(t, because) => {
                push(self.lower_turn(t, lowered));
                if let Some(id) = because {
                    push(self.check_rule_id(id));
                }
            }
            Assertion::Moves(ts) => {
                for t in ts {
                    push(self.lower_turn(t, lowered));
                }
            }
            Assertion::MovesFrom(sq, sqs) => {
                push(self.square(sq).map(|_| ()));
                for s in sqs {
                    push(self.square(s).map(|_| ()));
                }
            }
            Assertion::MovesFromCount(sq, _) => push(self.square(sq).map(|_| ())),
            Assertion::Result(_, Some(reason)) => {
                // Suggested from this variant's own reasons only: another variant's is no
                // better a guess than an unknown word.
                let names: Vec<_> = R::info().reasons.iter().map(|r| r.name()).collect();
                let hint = did_you_mean(&reason.node, names.iter().copied());
                push(match reason.node.parse::<Reason>() {
                    Ok(r) if R::info().reasons.contains(&r) => Ok(()),
                    Ok(r) => Err(Problem::new(
                        format!(
                            "a {} game never ends by {}; it ends by {}{hint}",
                            R::name(),
                            r.name(),
                            names.join(", ")
                        ),
                        reason.span.clone(),
                        "not a reason of this variant",
                    )),
                    Err(_) => Err(Problem::new(
                        format!(
                            "unknown reason `{}`; a {} game ends by {}{hint}",
                            reason.node,
                            R::name(),
                            names.join(", ")
                        ),
                        reason.span.clone(),
                        "no such reason",
                    )),
                })
            }
            Assertion::Occupant(sq, piece) => {
                push(self.square(sq).map(|_| ()));
                if let Some((_, p)) = piece {
                    push(self.piece(Color::White, p).map(|_| ()));
                }
            }
            Assertion::Zone(sq, zone) => {
                push(self.square(sq).map(|_| ()));
                if R::zones().is_empty() {
                    push(Err(Problem::new(
                        format!(
                            "{} has no zones; `expect zone` is for {} and for definitions \
                             whose components have regions",
                            R::name(),
                            names_where(|v| !v.zones.is_empty())
                        ),
                        span.clone(),
                        "not answerable in this variant",
                    )));
                } else if !R::zones().contains(&zone.node.as_str()) {
                    push(Err(Problem::new(
                        format!(
                            "unknown zone `{}`; zones of {}: {}{}",
                            zone.node,
                            R::name(),
                            R::zones().join(", "),
                            did_you_mean(&zone.node, R::zones().iter().copied())
                        ),
                        zone.span.clone(),
                        "no such zone",
                    )));
                }
            }
            Assertion::Cost(design, _) => {
                if !R::has_costs() {
                    push(Err(Problem::new(
                        format!(
                            "{} has no piece designs; `expect cost` is for {}",
                            R::name(),
                            names_where(|v| v.designs)
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
            Assertion::Check(_) if !R::info().check => push(Err(Problem::new(
                format!(
                    "{} has no check; `expect check` is for {}",
                    R::name(),
                    names_where(|v| v.check)
                ),
                span.clone(),
                "not answerable in this variant",
            ))),
            Assertion::Check(_) => {}
            Assertion::Key(kv) => push(self.check_key(kv, span)),
            Assertion::Invariant(name, depth) => {
                push(self.check_depth(u64::from(*depth), span));
                if !R::invariants().iter().any(|i| i.name == name.node) {
                    let names: Vec<_> = R::invariants().iter().map(|i| i.name).collect();
                    push(Err(Problem::new(
                        format!(
                            "unknown invariant `{}`; invariants of {}: {}{}",
                            name.node,
                            R::name(),
                            names.join(", "),
                            did_you_mean(&name.node, names.iter().copied())
                        ),
                        name.span.clone(),
                        "no such invariant",
                    )));
                }
            }
            Assertion::Perft(depth, _) => push(self.check_depth(u64::from(*depth), span)),
            Assertion::WinIn(turns, _) => push(self.check_depth(u64::from(*turns) * 2, span)),
            Assertion::MovesCount(_) | Assertion::Result(_, None) => {}
        }
    }

    // ---- running -----------------------------------------------------------------------------

    /// A statement as written, on one line, cut after [`MAX_QUOTED`] characters.
    fn text(&self, span: &Span) -> String {
        let words = self.src.get(span.clone()).unwrap_or("").split_whitespace();
        quoted(&words.collect::<Vec<_>>().join(" "))
    }

    /// Runs a scenario whose names are known. A problem (an invalid position, a statement
    /// that needs a position first) stops it.
    fn run_scenario(
        &self,
        scenario: &Scenario,
        lowered: &Lowered,
        report: &mut ScenarioReport,
    ) -> Result<(), Problem> {
        let mut run = Run::<R> {
            options: self.options.clone(),
            setup: None,
            game: None,
            limits: self.settings.limits.with_timeout(self.settings.timeout),
            diagrams: self.settings.diagrams,
        };
        consulted::reset();
        let mut result = self.run_statements(scenario, lowered, report, &mut run, usize::MAX);
        // A position described but never played or asked about is still checked, so that a
        // wrong `board` or `set` is an error and not a silent pass.
        if let (Ok(()), Some((setup, made_at))) = (&result, run.setup.take()) {
            if let Err(e) = R::from_setup(&setup, &run.options) {
                result = Err(Problem::new(
                    format!("invalid position: {e}"),
                    made_at,
                    "this position",
                ));
            }
        }
        report.result = run.game.as_ref().and_then(|g| g.outcome());
        report.consulted = in_force::<R>(consulted::take(), &run.options);
        result
    }

    /// Runs the statements before the one at index `until` (all of them for `usize::MAX`).
    fn run_statements(
        &self,
        scenario: &Scenario,
        lowered: &Lowered,
        report: &mut ScenarioReport,
        run: &mut Run<R>,
        until: usize,
    ) -> Result<(), Problem> {
        for st in scenario.statements.iter().take(until) {
            match &st.kind {
                StatementKind::Rule(_) | StatementKind::Pending(_) => {}
                StatementKind::Option(o) => {
                    if !self
                        .settings
                        .overrides
                        .iter()
                        .any(|(n, _)| *n == o.name.node)
                    {
                        run.options
                            .set(R::options(), R::name(), &o.name.node, &o.value.node)
                            .map_err(|e| Problem::new(e, o.span.clone(), "this option"))?;
                    }
                    if run.game.is_some() {
                        self.rebuild(run, &st.span, |_| Ok(()))?;
                    }
                }
                StatementKind::Start => {
                    let pos = R::start(self.geometry, &run.options).map_err(|e| {
                        Problem::new(e.to_string(), st.span.clone(), "no start position")
                    })?;
                    run.setup = None;
                    run.game = Some(Game::new(pos, run.options.clone()));
                }
                StatementKind::Board(placements) => {
                    let mut setup = Setup::empty(self.geometry);
                    for p in placements {
                        let sq = self.square(&p.square)?;
                        let piece = match &p.piece {
                            None => Piece::new(p.color, Role::Pawn),
                            Some(piece) => self.piece(p.color, piece)?,
                        };
                        if setup.board.get(sq).is_some() {
                            return Err(Problem::new(
                                format!("two pieces are placed on {}", p.square.text()),
                                p.span.clone(),
                                "square already taken",
                            ));
                        }
                        setup.board.put(sq, Some(piece));
                    }
                    run.setup = Some((setup, st.span.clone()));
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
                    self.edit_setup(run, &st.span, |s| {
                        s.turn = color;
                        Ok(())
                    })?;
                }
                StatementKind::Set(kv) => {
                    let key = (kv.key.node.clone(), kv.color);
                    let value = kv.value.node.text();
                    self.edit_setup(run, &st.span, |s| {
                        s.keys.insert(key, value);
                        Ok(())
                    })?;
                }
                StatementKind::Play(turns) => {
                    // The count leaves `run` while the game is borrowed from it.
                    let mut left = run.diagrams;
                    let game = self.game(run, &st.span)?;
                    for t in turns {
                        let pattern = self.pattern(lowered, t)?;
                        if let Err(e) = game.play(pattern) {
                            let diagram = diagram(&mut left, game, Some((t, pattern)));
                            run.diagrams = left;
                            report.failures.push(Failure {
                                span: t.span.clone(),
                                statement: quoted(&format!("play {}", t.text)),
                                expected: format!("{} is legal", t.text),
                                found: describe_error(&e),
                                options: in_force::<R>(consulted::asked(), &run.options),
                                blessed: None,
                                diagram,
                            });
                            return Ok(());
                        }
                    }
                }
                StatementKind::Expect(a) => {
                    let limits = run.limits;
                    let mut left = run.diagrams;
                    let game = self.game(run, &st.span)?;
                    report.checked += 1;
                    let mut blessed = None;
                    let verdict = match self.expect(game, a, &st.span, lowered, &limits)? {
                        Verdict::Holds => None,
                        Verdict::Refused(rule) => {
                            report.refused_by.push((st.span.clone(), rule));
                            None
                        }
                        Verdict::Fails(expected, found) => Some((expected, found)),
                        Verdict::Blessable(expected, found, b) => {
                            blessed = Some(format!("expect {b}"));
                            Some((expected, found))
                        }
                        Verdict::Undecided(expected, stop) => {
                            report.interrupted |= matches!(stop, Stop::Interrupted { .. });
                            Some((expected, format!("no answer: the search {stop}")))
                        }
                    };
                    report
                        .expectations
                        .push((st.span.clone(), verdict.is_none()));
                    if let Some((expected, found)) = verdict {
                        let diagram = match a {
                            Assertion::Cost(..) => Diagram::NoBoard,
                            Assertion::Legal(t) | Assertion::Illegal(t, _) => {
                                let turn = Some((t, self.pattern(lowered, t)?));
                                diagram(&mut left, game, turn)
                            }
                            _ => diagram(&mut left, game, None),
                        };
                        run.diagrams = left;
                        report.failures.push(Failure {
                            span: st.span.clone(),
                            statement: self.text(&st.span),
                            expected,
                            found,
                            options: in_force::<R>(consulted::asked(), &run.options),
                            blessed,
                            diagram,
                        });
                    }
                    if report.interrupted {
                        return Ok(());
                    }
                }
            }
        }
        Ok(())
    }

    /// Changes the pending setup, or the built position through its setup.
    fn edit_setup(
        &self,
        run: &mut Run<R>,
        span: &Span,
        edit: impl FnOnce(&mut Setup) -> Result<(), Problem>,
    ) -> Result<(), Problem> {
        if let Some((setup, _)) = run.setup.as_mut() {
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
        let pos = R::from_setup(&setup, &run.options).map_err(|e| {
            Problem::new(
                format!("invalid position: {e}"),
                span.clone(),
                "this makes the position invalid",
            )
        })?;
        game.replace_position(pos);
        Ok(())
    }

    fn game<'r>(&self, run: &'r mut Run<R>, span: &Span) -> Result<&'r mut Game<R>, Problem> {
        if let Some((setup, made_at)) = run.setup.take() {
            // Point at the `board` that described the position; the statement that first
            // needed it is named in the help.
            let pos = R::from_setup(&setup, &run.options).map_err(|e| {
                let (line, _) = super::diagnostic::line_col(self.src, span.start);
                Problem::new(
                    format!("invalid position: {e}"),
                    made_at.clone(),
                    "this position",
                )
                .with_help(format!(
                    "the position is first used on line {line}; `set` and `to move` lines \
                     after the board are part of it"
                ))
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

    /// The pattern of a turn, lowered when the names were checked.
    fn pattern<'l>(&self, lowered: &'l Lowered, t: &TurnText) -> Result<&'l TurnPattern, Problem> {
        lowered.get(&t.span.start).ok_or_else(|| {
            Problem::new(
                format!("internal error: the turn `{}` was not lowered", t.text),
                t.span.clone(),
                "this turn",
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

    /// Checks one assertion; searches run under the limits.
    fn expect(
        &self,
        game: &Game<R>,
        a: &Assertion,
        span: &Span,
        lowered: &Lowered,
        limits: &Limits,
    ) -> Result<Verdict, Problem> {
        let fail = |e: String, f: String| Ok(Verdict::Fails(e, f));
        let blessable = |e: String, f: String, b: String| Ok(Verdict::Blessable(e, f, b));
        match a {
            Assertion::Legal(t) => {
                let pattern = self.pattern(lowered, t)?;
                match game.clone().play(pattern) {
                    Ok(_) => Ok(Verdict::Holds),
                    Err(e) => fail(format!("{} is legal", t.text), describe_error(&e)),
                }
            }
            Assertion::Illegal(t, because) => {
                let pattern = self.pattern(lowered, t)?;
                let expected = match because {
                    Some(id) => format!("{} is illegal because {}", t.text, id.node),
                    None => format!("{} is illegal", t.text),
                };
                match game.clone().play(pattern) {
                    Ok(turn) => fail(expected, format!("legal ({})", turn.text(&self.geometry))),
                    Err(PlayError::Ambiguous(c)) => {
                        fail(expected, format!("legal, and ambiguous: {}", c.join(", ")))
                    }
                    Err(e @ PlayError::TooManyTurns(_)) => fail(expected, describe_error(&e)),
                    Err(PlayError::Refused(r)) => match because {
                        Some(id) if id.node != r.rule => fail(
                            expected,
                            format!("illegal because {}: {}", r.rule, r.reason),
                        ),
                        Some(_) => Ok(Verdict::Holds),
                        None => Ok(Verdict::Refused(r.rule)),
                    },
                }
            }
            Assertion::Moves(ts) => {
                // Each entry resolves as `play` resolves it, looked up among the legal turns
                // indexed once.
                let turns = game.legal_index();
                let legal = &turns.legal;
                let mut wanted = vec![false; legal.len()];
                let (mut refused, mut ambiguous, mut unlisted) =
                    (Vec::new(), Vec::new(), Vec::new());
                for t in ts {
                    let p = self.pattern(lowered, t)?;
                    match game.lookup(p, &turns) {
                        Ok(Lookup::Found(Some(i), Resolved::Move(m, _))) => {
                            match p.claim().map(|c| game.claim_after(m, c)) {
                                Some(Err(e)) => {
                                    refused.push(format!("{} ({})", t.text, describe_error(&e)))
                                }
                                _ => wanted[i] = true,
                            }
                        }
                        Ok(Lookup::Found(..)) => unlisted.push(t.text.clone()),
                        Ok(Lookup::Ambiguous(c)) | Err(PlayError::Ambiguous(c)) => {
                            ambiguous.push(format!("{} (it matches {})", t.text, few(&c)))
                        }
                        Ok(Lookup::None) | Err(_) => refused.push(t.text.clone()),
                    }
                }
                let extra: Vec<Turn> = legal
                    .turns()
                    .iter()
                    .zip(&wanted)
                    .filter(|(_, w)| !**w)
                    .map(|((_, t), _)| t.clone())
                    .collect();
                if refused.is_empty()
                    && ambiguous.is_empty()
                    && unlisted.is_empty()
                    && extra.is_empty()
                {
                    return Ok(Verdict::Holds);
                }
                let all: Vec<Turn> = legal.turns().iter().map(|(_, t)| t.clone()).collect();
                let mut found = format!("legal turns {}", self.turn_list(&all));
                for (what, entries) in [
                    ("not legal", &refused),
                    ("ambiguous", &ambiguous),
                    ("legal, but not among the turns listed", &unlisted),
                ] {
                    if !entries.is_empty() {
                        found.push_str(&format!("; {what}: {}", entries.join(", ")));
                    }
                }
                if !extra.is_empty() {
                    found.push_str(&format!("; also legal: {}", self.turn_list(&extra)));
                }
                if let Some(o) = turns.outcome {
                    found.push_str(&format!("; the game is over: {o}"));
                }
                let written: Vec<_> = ts.iter().map(|t| t.text.clone()).collect();
                blessable(
                    format!("legal turns {{ {} }}", written.join(" ")),
                    found,
                    format!("moves = {}", self.turn_list(&all)),
                )
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
                    return Ok(Verdict::Holds);
                }
                let list = |set: &BTreeSet<Square>| {
                    let mut v: Vec<String> = set.iter().map(|s| self.name(*s)).collect();
                    v.sort();
                    if v.is_empty() {
                        "{ }".to_string()
                    } else {
                        format!("{{ {} }}", v.join(" "))
                    }
                };
                blessable(
                    format!("moves from {} = {}", sq.text(), list(&expected)),
                    format!("moves from {} = {}{}", sq.text(), list(&found), over(game)),
                    format!("moves from {} = {}", sq.text(), list(&found)),
                )
            }
            Assertion::MovesCount(n) => {
                let found = game.legal_turns().len() as u64;
                if found == *n {
                    Ok(Verdict::Holds)
                } else {
                    blessable(
                        crate::text::count(*n, "legal turn"),
                        format!("{}{}", crate::text::count(found, "legal turn"), over(game)),
                        format!("moves count {found}"),
                    )
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
                    Ok(Verdict::Holds)
                } else {
                    blessable(
                        format!(
                            "{} from {}",
                            crate::text::count(*n, "legal turn"),
                            sq.text()
                        ),
                        format!(
                            "{} from {}{}",
                            crate::text::count(found, "legal turn"),
                            sq.text(),
                            over(game)
                        ),
                        format!("moves from {} count {found}", sq.text()),
                    )
                }
            }
            Assertion::Check(expected) => {
                let Some(found) = game.position().in_check() else {
                    return Err(Problem::new(
                        format!(
                            "{} has no check; `expect check` cannot be answered",
                            R::name()
                        ),
                        span.clone(),
                        "not answerable in this variant",
                    ));
                };
                let word = |b: bool| if b { "check" } else { "no check" };
                if found == *expected {
                    Ok(Verdict::Holds)
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
                    return Ok(Verdict::Holds);
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
                    Some((c, piece)) => Some(self.piece(*c, piece)?),
                };
                let show = |p: Option<Piece>| p.map_or("empty".to_string(), |p| p.to_string());
                if found == expected_piece {
                    Ok(Verdict::Holds)
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
                    Ok(Verdict::Holds)
                } else {
                    fail(
                        format!("zone {} = {}", sq.text(), zone.node),
                        format!("zone {} = {found}", sq.text()),
                    )
                }
            }
            Assertion::Perft(depth, n) => {
                let expected = format!("perft {depth} = {n}");
                match perft_within(game.position(), *depth, &mut limits.budget()) {
                    Ok(found) if found == *n => Ok(Verdict::Holds),
                    Ok(found) => blessable(
                        expected,
                        format!("perft {depth} = {found}"),
                        format!("perft {depth} = {found}"),
                    ),
                    Err(stop) => Ok(Verdict::Undecided(expected, stop)),
                }
            }
            Assertion::WinIn(n, color) => {
                let expected = format!("{color} can force a win within {n} of its turns");
                match game.can_force_win(*color, *n, &mut limits.budget()) {
                    Ok(true) => Ok(Verdict::Holds),
                    Ok(false) => fail(expected, "no forced win within that many turns".to_string()),
                    Err(stop) => Ok(Verdict::Undecided(expected, stop)),
                }
            }
            Assertion::Cost(design, n) => {
                let found = R::cost_with(&design.node, game.options())
                    .map_err(|e| Problem::new(e, design.span.clone(), "this design"))?;
                if found == *n {
                    Ok(Verdict::Holds)
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
                    return Ok(Verdict::Holds);
                }
                let name = match kv.color {
                    Some(c) => format!("{} {c}", kv.key.node),
                    None => kv.key.node.clone(),
                };
                blessable(
                    format!("{name} = {expected}"),
                    format!("{name} = {found}"),
                    format!("{name} = {}", value_text(&found)),
                )
            }
            Assertion::Invariant(name, depth) => {
                let expected = format!("invariant {} holds to depth {depth}", name.node);
                match game.invariant_violation(&name.node, *depth, &mut limits.budget()) {
                    Ok(None) => Ok(Verdict::Holds),
                    Ok(Some((path, what))) => {
                        let after = if path.is_empty() {
                            "in the current position".to_string()
                        } else {
                            format!("after {}", path.join(" "))
                        };
                        fail(expected, format!("{after}: {what}"))
                    }
                    Err(stop) => Ok(Verdict::Undecided(expected, stop)),
                }
            }
        }
    }
}

/// A failure's picture of `game`, with the written turn it is about, while `left` allows one.
fn diagram<R: Rules>(
    left: &mut usize,
    game: &Game<R>,
    turn: Option<(&TurnText, &TurnPattern)>,
) -> Diagram {
    if *left == 0 {
        return Diagram::Omitted;
    }
    *left -= 1;
    let mut picture = Picture::of(game.position());
    if let Some((t, pattern)) = turn {
        // An ambiguous turn, or one with too many answers, names no one path to draw.
        let _ = picture.draw_written(game, &t.text, pattern);
    }
    Diagram::Drawn(Box::new(picture))
}

/// What an expectation came to.
enum Verdict {
    Holds,
    /// An `expect illegal` without `because` held: the rule that refused the turn.
    Refused(&'static str),
    /// What was expected and what was found.
    Fails(String, String),
    /// What was expected and what was found, and the assertion the values found make true
    /// (for `check --bless`).
    Blessable(String, String, String),
    /// A search stopped before it had an answer.
    Undecided(String, Stop),
}

/// A state key's value as a scenario writes it: a bare word, designs as they are, or else a
/// quoted string.
fn value_text(value: &str) -> String {
    let word = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_/.+:".contains(c));
    if word || value.starts_with('(') {
        value.to_string()
    } else {
        format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// How much of a statement a failure quotes: a `play` of thousands of turns is named by its
/// start, not copied whole into the report.
pub const MAX_QUOTED: usize = 200;

/// `text`, or its first [`MAX_QUOTED`] characters and `…`.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTED) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// Why a game lists no turns, for a failed expectation about its turns: `; the game is over:
/// <result> (rule <id>)`, or nothing while it goes on.
fn over<R: Rules>(game: &Game<R>) -> String {
    game.outcome()
        .map_or_else(String::new, |o| format!("; the game is over: {o}"))
}

/// The first few of a list of turns, and how many more there are: an ambiguous entry of a
/// long list may match thousands of paths.
fn few(texts: &[String]) -> String {
    const SHOWN: usize = 4;
    if texts.len() <= SHOWN {
        return texts.join(", ");
    }
    format!(
        "{}, and {} more",
        texts[..SHOWN].join(", "),
        texts.len() - SHOWN
    )
}

/// A refused or ambiguous turn in words.
pub fn describe_error(e: &PlayError) -> String {
    match e {
        PlayError::Refused(r) => format!("illegal because {}: {}", r.rule, r.reason),
        PlayError::Ambiguous(c) => format!("ambiguous: it matches {}", c.join(", ")),
        PlayError::TooManyTurns(limit) => format!(
            "legal, but the position after it has more than {limit} legal turns, more than arbiter lists for one position"
        ),
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
                    R::name(),
                    self.geometry.describe()
                ),
                name.span.clone(),
                "no such square",
            )
        })
    }

    /// What a written piece names in this variant. A design lowers only in a variant where
    /// invented pieces may stand on the board; it is interned here.
    pub fn piece_ref(&self, piece: &PieceName) -> Result<PieceRef, Problem> {
        match piece {
            PieceName::Name(name) => self.role_named(name).map(PieceRef::Role),
            PieceName::Design(d) if R::info().invented => crate::rules::design::intern(&d.text)
                .map(PieceRef::Design)
                .map_err(|e| {
                    Problem::new(
                        format!("`({})` is {e}", d.text),
                        d.span.clone(),
                        "this design",
                    )
                }),
            PieceName::Design(d) => Err(Problem::new(
                format!(
                    "invented pieces such as `({})` stand only on boards of {} and of variants written as definitions; {} has none",
                    d.text,
                    names_where(|v| v.invented),
                    R::name()
                ),
                d.span.clone(),
                "a design",
            )),
        }
    }

    /// A piece of `color` that stands on a board (a placement, an occupant): one the variant
    /// has, or an invented one where the variant allows them.
    pub fn piece(&self, color: Color, piece: &PieceName) -> Result<Piece, Problem> {
        match self.piece_ref(piece)? {
            PieceRef::Role(r) if R::info().pieces.contains(&r) => Ok(Piece::new(color, r)),
            PieceRef::Role(r) => {
                let words = R::info().pieces.iter().map(|p| p.word());
                Err(Problem::new(
                    format!(
                        "{} has no {}; its pieces are {} ({}){}",
                        R::name(),
                        r.word(),
                        R::info().letters(),
                        words.clone().collect::<Vec<_>>().join(", "),
                        did_you_mean(r.word(), words)
                    ),
                    piece.span().clone(),
                    "not a piece of this variant",
                ))
            }
            PieceRef::Design(d) => Ok(Piece::designed(color, d)),
        }
    }

    /// The role a letter (`K`) or a word (`king`) names.
    fn role_named(&self, name: &Spanned<String>) -> Result<Role, Problem> {
        let text = name.node.as_str();
        let mut chars = text.chars();
        let role = match (chars.next(), chars.next()) {
            // A defined variant's own letters first: its `A` is not ChessXpanse's Archer.
            (Some(c), None) if R::info().pieces.contains(&Role::Kind(c)) => Some(Role::Kind(c)),
            (Some(c), None) if c.is_ascii_uppercase() => Role::from_letter(c),
            _ => R::role_of_word(text),
        };
        role.ok_or_else(|| {
            // The variant's own pieces, listed and suggested: another variant's are no help.
            let words = R::info().pieces.iter().map(|r| R::word_of(*r));
            Problem::new(
                format!(
                    "unknown piece `{text}`; {} pieces are named by a letter ({}) or a word ({}){}",
                    R::name(),
                    R::info().letters(),
                    words.clone().collect::<Vec<_>>().join(", "),
                    did_you_mean(text, words)
                ),
                name.span.clone(),
                "no such piece",
            )
        })
    }

    pub fn turn(&self, turn: &TurnText) -> Result<TurnPattern, Problem> {
        let (actions, claim) = match &turn.turn {
            TurnSyntax::Resign => return Ok(TurnPattern::Resign),
            TurnSyntax::Draw => return Ok(TurnPattern::Draw),
            TurnSyntax::Timeout => return Ok(TurnPattern::Timeout),
            TurnSyntax::Actions(a, c) => (a, *c),
        };
        let mut out = Vec::new();
        for a in actions {
            out.push(match a {
                ActionSyntax::Move {
                    style,
                    piece,
                    from,
                    legs,
                    promotion,
                } => {
                    let from = match from {
                        OriginSyntax::Any => Origin::Any,
                        OriginSyntax::Exact(s) => Origin::Exact(self.square(s)?),
                        OriginSyntax::File(f) => {
                            Origin::File(self.geometry.file_of(f).ok_or_else(|| {
                                // `nf3`: a piece letter written small, as a FEN writes Black's.
                                let small = f
                                    .to_uppercase()
                                    .chars()
                                    .next()
                                    .and_then(Role::from_letter)
                                    .filter(|r| R::info().pieces.contains(r));
                                let hint = match small {
                                    Some(_) if piece.is_none() && turn.text.is_char_boundary(1) => {
                                        let mut text = turn.text.clone();
                                        text[..1].make_ascii_uppercase();
                                        format!(
                                            "; pieces are written with capital letters for both colours: `{text}`"
                                        )
                                    }
                                    _ => String::new(),
                                };
                                Problem::new(
                                    format!(
                                        "`{f}` is not a file of the {} board ({}){hint}",
                                        R::name(),
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
                                        R::name(),
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
                        piece: piece.as_ref().map(|p| self.piece_ref(p)).transpose()?,
                        from,
                        legs: legs
                            .iter()
                            .map(|l| Ok(Leg::new(self.square(&l.to)?, l.kind)))
                            .collect::<Result<_, Problem>>()?,
                        promotion: promotion.as_ref().map(|p| self.piece_ref(p)).transpose()?,
                    }
                }
                ActionSyntax::Castle(side) => ActionPattern::Castle(*side),
                ActionSyntax::Drop { piece, to } => ActionPattern::Drop {
                    piece: self.piece_ref(piece)?,
                    to: self.square(to)?,
                },
                ActionSyntax::Coup { piece, square } => ActionPattern::Coup {
                    piece: self.piece_ref(piece)?,
                    square: self.square(square)?,
                },
                ActionSyntax::Reborn { from, square } => ActionPattern::Reborn {
                    from: from.as_ref().map(|s| self.square(s)).transpose()?,
                    square: self.square(square)?,
                },
                ActionSyntax::Vanish { square } => ActionPattern::Vanish {
                    square: self.square(square)?,
                },
                ActionSyntax::Pass => ActionPattern::Pass,
                ActionSyntax::Buy { design } => ActionPattern::Buy {
                    design: design.text.clone(),
                },
                ActionSyntax::Redesign {
                    from_design,
                    to_design,
                } => ActionPattern::Redesign {
                    from_design: from_design.text.clone(),
                    to_design: to_design.text.clone(),
                },
            });
        }
        Ok(TurnPattern::Actions {
            actions: out,
            claim,
        })
    }
}
