//! The search commands: `perft`, `invariant` and `win`, on `--threads` threads, and the split
//! of a perft or invariant search into jobs for other processes or machines (`--split`,
//! `--job`, `--merge`), as JSON lines.
//!
//! A job names its subtree by the turns that reach it from the root, in canonical text, and
//! is replayed from there: a FEN does not carry the repetition history, nor in some variants a
//! decided result, so a job rebuilt from one could search a different tree. Each line carries a
//! fingerprint of the whole split, so that results of different splits cannot be summed.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::commands::{options_with, position, stop_exit, INTERRUPTED_EXIT};
use super::output::Failure;
use super::{Budgets, Root};
use crate::rules::search::{self, SearchKind, Shared, Stop};
use crate::rules::{parallel, perft_within, Color, Game, Limits, Options, Rules, Variant};
use crate::{errln, outln, with_variant};

type Outcome = Result<i32, Failure>;

/// What `perft` and `invariant` were asked for on the command line.
pub struct Request {
    pub variant: Option<String>,
    /// The invariant's name (`invariant` only).
    pub invariant: Option<String>,
    pub depth: Option<u64>,
    pub root: Root,
    pub divide: bool,
    pub spread: super::Spread,
}

/// Which search a split belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Perft,
    Invariant,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Perft => "perft",
            Kind::Invariant => "invariant",
        }
    }

    fn search(self) -> SearchKind {
        match self {
            Kind::Perft => SearchKind::Perft,
            Kind::Invariant => SearchKind::Invariant,
        }
    }
}

/// `arbiter perft ...`.
pub fn perft(request: Request, limits: Budgets) -> Outcome {
    dispatch(Kind::Perft, request, limits)
}

/// `arbiter invariant ...`.
pub fn invariant(request: Request, limits: Budgets) -> Outcome {
    dispatch(Kind::Invariant, request, limits)
}

fn dispatch(kind: Kind, r: Request, budgets: Budgets) -> Outcome {
    let command = kind.name();
    let positional = if kind == Kind::Perft {
        "VARIANT and DEPTH"
    } else {
        "VARIANT, NAME and DEPTH"
    };
    if r.spread.job.is_some() || r.spread.merge.is_some() {
        let flag = if r.spread.job.is_some() {
            "--job"
        } else {
            "--merge"
        };
        if r.spread.job.is_some() && r.spread.merge.is_some() {
            return Err(Failure::Input(
                "--job runs jobs and --merge sums their results; give one of them".into(),
            ));
        }
        let given = r.variant.is_some() || r.invariant.is_some() || r.depth.is_some();
        let extra = [
            (r.root.fen.is_some(), "--fen"),
            (r.root.size.is_some(), "--size"),
            (!r.root.options.is_empty(), "--option"),
            (r.divide, "--divide"),
            (r.spread.split.is_some(), "--split"),
        ];
        if given {
            return Err(Failure::Input(format!(
                "{command} {flag} reads the variant, position and depth from its lines; leave out {positional}"
            )));
        }
        if let Some((_, name)) = extra.iter().find(|(on, _)| *on) {
            return Err(Failure::Input(format!(
                "{command} {flag} reads the variant, position and options from its lines; leave out {name}"
            )));
        }
        return match (r.spread.job, r.spread.merge) {
            (Some(file), _) => run_jobs(kind, &file, budgets),
            (_, Some(files)) => merge(kind, &files),
            _ => Ok(2),
        };
    }
    let usage = match kind {
        Kind::Perft => "arbiter perft chess 5",
        Kind::Invariant => "arbiter invariant chess one-king-each 4",
    };
    let (Some(variant), Some(depth)) = (r.variant, r.depth) else {
        return Err(Failure::Input(format!(
            "{command} needs {positional} (`{usage}`), or --job or --merge"
        )));
    };
    if kind == Kind::Invariant && r.invariant.is_none() {
        return Err(Failure::Input(format!(
            "{command} needs {positional} (`{usage}`), or --job or --merge"
        )));
    }
    if r.divide && r.spread.split.is_some() {
        return Err(Failure::Input(
            "--divide prints counts and --split prints jobs; give one of them".into(),
        ));
    }
    let depth = search::check_depth(depth).map_err(|stop| Failure::Input(stop.to_string()))?;
    // A job names a definition by the path it was read from (its name is known only once it
    // is read), so that another process runs it.
    let variant_spec = variant.clone();
    let variant: Variant = variant.parse()?;
    let limits = budgets.search(kind.search(), variant);
    let root = r.root;
    with_variant!(variant, R => {
        let name = match &r.invariant {
            Some(name) => Some(invariant_name::<R>(name)?),
            None => None,
        };
        match r.spread.split {
            Some(plies) => split::<R>(kind, &root, &variant_spec, name, depth, plies, limits),
            None => match name {
                Some(name) => invariant_command::<R>(&root, name, depth, limits),
                None => perft_command::<R>(&root, depth, r.divide, limits),
            },
        }
    })
}

/// Checks an invariant's name against the variant's catalogue.
fn invariant_name<R: Rules>(name: &str) -> Result<&'static str, Failure> {
    R::invariants()
        .iter()
        .find(|i| i.name == name)
        .map(|i| i.name)
        .ok_or_else(|| {
            let names: Vec<_> = R::invariants().iter().map(|i| i.name).collect();
            Failure::Input(format!(
                "unknown invariant `{name}`; invariants of {}: {}{}",
                R::name(),
                names.join(", "),
                crate::suggest::did_you_mean(name, names.iter().copied())
            ))
        })
}

impl Root {
    fn game<R: Rules>(&self) -> Result<Game<R>, Failure> {
        let (pos, _) = position::<R>(self.fen.clone(), self.size.clone(), &self.options)?;
        Ok(Game::new(pos, options_with::<R>(&self.options)?))
    }
}

fn threads() -> usize {
    rayon::current_num_threads()
}

// ---- perft -----------------------------------------------------------------------------------

/// Perft from the command line. With one thread this is the sequential search, unchanged, so
/// that its output (budget stops and their node counts included) is what it always was.
fn perft_command<R>(root: &Root, depth: u32, divide: bool, limits: Limits) -> Outcome
where
    R: Rules + Send + Sync,
    R::Move: Send + Sync,
{
    let game = root.game::<R>()?;
    let pos = game.position().clone();
    let geometry = *pos.board().geometry();
    let started = Instant::now();
    let mut budget = limits.budget();
    let shared = Shared::new(limits);
    let mut count = |p: &R, d: u32| {
        if threads() == 1 {
            perft_within(p, d, &mut budget)
        } else {
            parallel::perft(p, d, &shared)
        }
    };
    let progress = super::progress::Progress::start(format!("perft {depth}"));
    let total = if divide && depth > 0 {
        let game = Game::new(pos.clone(), Options::defaults(R::options()));
        let mut total: Result<u64, Stop> = Ok(0);
        for (m, t) in game.legal_turns() {
            let mut next = pos.clone();
            next.play(m);
            match count(&next, depth - 1) {
                Ok(n) => {
                    super::progress::Progress::suspend(&progress, || {
                        outln!("{} {n}", t.text(&geometry))
                    })?;
                    total = total.map(|sum| sum + n);
                }
                Err(stop) => {
                    total = Err(stop);
                    break;
                }
            }
        }
        total
    } else {
        count(&pos, depth)
    };
    drop(progress);
    let seconds = started.elapsed().as_secs_f64();
    match total {
        Ok(total) => {
            outln!("perft {depth} = {total}")?;
            errln!(
                "{} in {seconds:.3} s: {:.1} million nodes per second",
                crate::text::count(total, "node"),
                total as f64 / seconds.max(1e-9) / 1e6
            );
            Ok(0)
        }
        Err(stop) => {
            errln!("perft {depth}: no answer: the search {stop}");
            Ok(stop_exit(&stop))
        }
    }
}

// ---- invariant -------------------------------------------------------------------------------

fn invariant_command<R>(root: &Root, name: &str, depth: u32, limits: Limits) -> Outcome
where
    R: Rules + Send + Sync,
    R::Move: Send + Sync,
{
    let game = root.game::<R>()?;
    let progress = super::progress::Progress::start(format!("invariant {name} to depth {depth}"));
    let found = search_invariant(&game, name, depth, limits);
    drop(progress);
    match found {
        Ok(found) => invariant_report(name, depth, found.as_ref()),
        Err(stop) => {
            errln!("invariant {name}: no answer: the search {stop}");
            Ok(stop_exit(&stop))
        }
    }
}

fn search_invariant<R>(
    game: &Game<R>,
    name: &str,
    depth: u32,
    limits: Limits,
) -> Result<Option<(Vec<String>, String)>, Stop>
where
    R: Rules + Send + Sync,
    R::Move: Send + Sync,
{
    if threads() == 1 {
        game.invariant_violation(name, depth, &mut limits.budget())
    } else {
        parallel::invariant_violation(game, name, depth, &Shared::new(limits))
    }
}

/// Prints an invariant search's answer (the direct search's and the merged one's alike): exit
/// status 0 when it holds, 1 when it breaks.
fn invariant_report(name: &str, depth: u32, found: Option<&(Vec<String>, String)>) -> Outcome {
    match found {
        None => {
            outln!("invariant {name} holds to depth {depth}")?;
            Ok(0)
        }
        Some((turns, what)) if turns.is_empty() => {
            outln!("invariant {name} breaks in the root position: {what}")?;
            Ok(1)
        }
        Some((turns, what)) => {
            outln!("invariant {name} breaks after {}: {what}", turns.join(" "))?;
            Ok(1)
        }
    }
}

// ---- win -------------------------------------------------------------------------------------

/// `arbiter win <VARIANT> <white|black> <TURNS>`: exit status 0 when the colour can force a
/// win within that many of its turns, 1 when it cannot.
pub fn win(variant: &str, color: &str, turns: u64, root: Root, budgets: Budgets) -> Outcome {
    let variant: Variant = variant.parse()?;
    let limits = budgets.search(SearchKind::Win, variant);
    let color: Color = color.parse()?;
    let turns = u32::try_from(turns)
        .ok()
        .filter(|t| search::check_depth(u64::from(*t) * 2).is_ok())
        .ok_or_else(|| Failure::Input(search::too_deep(turns.saturating_mul(2))))?;
    with_variant!(variant, R => win_command::<R>(&root, color, turns, limits))
}

fn win_command<R>(root: &Root, color: Color, turns: u32, limits: Limits) -> Outcome
where
    R: Rules + Send + Sync,
    R::Move: Send + Sync,
{
    let game = root.game::<R>()?;
    let progress = super::progress::Progress::start(format!("{color} wins in {turns}"));
    let found = if threads() == 1 {
        game.can_force_win(color, turns, &mut limits.budget())
    } else {
        parallel::can_force_win(&game, color, turns, &Shared::new(limits))
    };
    match found {
        Ok(true) => {
            let line = game.winning_line(color, turns, &mut limits.budget());
            drop(progress);
            outln!("{color} can force a win within {turns} of its turns")?;
            match line {
                Ok(Some((line, outcome))) => {
                    let texts = parallel::texts(game.position(), &line);
                    match texts.is_empty() {
                        true => outln!("the game is over: {outcome}")?,
                        false => outln!("winning line: {}, then {outcome}", texts.join(" "))?,
                    }
                }
                Ok(None) => {}
                Err(stop) => errln!("the winning line: not worked out: the search {stop}"),
            }
            Ok(0)
        }
        Ok(false) => {
            let refuted = game.refutations(color, turns, &mut limits.budget());
            drop(progress);
            outln!("{color} cannot force a win within {turns} of its turns")?;
            match refuted {
                Ok(pairs) => print_refutations(game.position(), color, turns, &pairs)?,
                Err(stop) => errln!("the refutations: not worked out: the search {stop}"),
            }
            Ok(1)
        }
        Err(stop) => {
            drop(progress);
            errln!("win: no answer: the search {stop}");
            Ok(stop_exit(&stop))
        }
    }
}

/// How many of the attacker's turns `win` shows with their refutations.
const TRIES_SHOWN: usize = 8;

/// Prints each try of the attacker (or the defender's one reply) and what refutes it.
fn print_refutations<R: Rules>(
    root: &R,
    color: Color,
    turns: u32,
    pairs: &[crate::rules::game::Refutation<R::Move>],
) -> Result<(), Failure> {
    let g = *root.board().geometry();
    let text = |pos: &R, m: R::Move| pos.describe(m).text(&g);
    match pairs {
        [(None, Some(reply))] => outln!(
            "refuted by {}: after it, {color} has no forced win within {turns} of its turns",
            text(root, *reply)
        ),
        _ if pairs.is_empty() => Ok(()),
        _ if turns == 1 => outln!(
            "none of its {} turn{} wins at once",
            pairs.len(),
            if pairs.len() == 1 { "" } else { "s" }
        ),
        _ => {
            outln!(
                "each try of {color} and the first reply that refutes it (no forced win within the {} turn{} left):",
                turns - 1,
                if turns == 2 { "" } else { "s" }
            )?;
            for (m, reply) in pairs.iter().take(TRIES_SHOWN) {
                let Some(m) = *m else { continue };
                let mut next = root.clone();
                next.play(m);
                match reply {
                    Some(r) => outln!("  {} {}", text(root, m), text(&next, *r))?,
                    None => {
                        let mut moves = Vec::new();
                        next.legal_moves(&mut moves);
                        match next.outcome_with(!moves.is_empty()) {
                            Some(o) => outln!("  {} (then {o})", text(root, m))?,
                            None => outln!("  {} ({color} to move again)", text(root, m))?,
                        }
                    }
                }
            }
            if pairs.len() > TRIES_SHOWN {
                outln!("  and {} more", pairs.len() - TRIES_SHOWN)?;
            }
            Ok(())
        }
    }
}

// ---- split -----------------------------------------------------------------------------------

/// One job of a split search, as `--split` writes it and `--job` reads it.
#[derive(Serialize, Deserialize)]
struct JobLine {
    kind: String,
    search: String,
    job: u64,
    jobs: u64,
    fingerprint: String,
    variant: String,
    size: Option<String>,
    /// `start`, or the FEN the search started from.
    root: String,
    options: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    invariant: Option<String>,
    depth: u32,
    split: u32,
    remaining: u32,
    /// The turns from the root, in canonical text.
    turns: Vec<String>,
    /// The position they reach, for people; the job replays the turns and checks it.
    fen: String,
    /// The answer is known already (found during the split): the job only repeats it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    done: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    violation: Option<Violation>,
    /// [`digest`] of the line's other fields: `--job` refuses a line edited since `--split`
    /// wrote it, and the result names its job by it.
    digest: String,
}

/// Where an invariant broke: the turns from the root and what broke.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
struct Violation {
    turns: Vec<String>,
    broken: String,
}

/// One job's answer, as `--job` writes it and `--merge` reads it.
#[derive(Serialize, Deserialize)]
struct ResultLine {
    kind: String,
    search: String,
    job: u64,
    jobs: u64,
    fingerprint: String,
    depth: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    invariant: Option<String>,
    /// Perft: the paths counted in the job's subtree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    /// Invariant: whether it holds in the job's subtree, and if not, where it broke.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    holds: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    violation: Option<Violation>,
    /// The digest of the job line that gave this result.
    job_digest: String,
    /// [`digest`] of the line's other fields: `--merge` refuses a line edited since `--job`
    /// wrote it.
    digest: String,
}

/// A line's digest: 64-bit FNV-1a of its canonical JSON, which is the line without its
/// `digest` field, keys sorted, no spaces (`jq -cjS 'del(.digest)'` writes the same bytes),
/// followed by the byte 0x1f. Against lines edited or mixed up by a batch system, not against
/// forgery: anyone can compute it.
fn digest<T: Serialize>(line: &T) -> String {
    let mut value = serde_json::to_value(line).unwrap_or_default();
    if let Some(fields) = value.as_object_mut() {
        fields.remove("digest");
    }
    let mut print = Fingerprint::new();
    print.add(&value.to_string());
    print.hex()
}

/// Takes a line's `digest` and checks it against the other fields.
fn check_digest<T: Serialize>(
    at: &str,
    what: &str,
    again: &str,
    line: &mut T,
    field: impl Fn(&mut T) -> &mut String,
) -> Result<String, Failure> {
    let claimed = std::mem::take(field(line));
    let found = digest(line);
    if claimed != found {
        return Err(Failure::Input(format!(
            "{at}: {what} is not as arbiter wrote it: its digest is {claimed}, its fields give {found} (an edited line, or one from another arbiter version); {again}"
        )));
    }
    *field(line) = claimed.clone();
    Ok(claimed)
}

/// FNV-1a, 64 bits: a fingerprint that every build computes alike (std's hasher promises no
/// such thing), for telling splits (and files `import` wrote) apart, not for security.
pub(super) struct Fingerprint(u64);

impl Fingerprint {
    pub(super) fn new() -> Fingerprint {
        Fingerprint(0xcbf2_9ce4_8422_2325)
    }

    /// Adds a field; a separator byte keeps `ab`+`c` apart from `a`+`bc`.
    pub(super) fn add(&mut self, text: &str) {
        for b in text.bytes().chain([0x1f]) {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    pub(super) fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

/// Why writing a split stopped.
enum SplitError {
    Stop(Stop),
    Out(Failure),
}

impl From<Stop> for SplitError {
    fn from(stop: Stop) -> SplitError {
        SplitError::Stop(stop)
    }
}

/// A leaf of the split in owned form: the turns from the root and, when the invariant breaks
/// on the way there, what broke.
fn leaf_parts<R: Rules>(root: &R, leaf: &parallel::Leaf<'_, R>) -> (Vec<String>, Option<String>) {
    match leaf {
        parallel::Leaf::Open { path, .. } => (parallel::texts(root, path), None),
        parallel::Leaf::Broken { path, what } => (parallel::texts(root, path), Some(what.clone())),
    }
}

/// `--split D`: one JSON line per position D turns from the root, streamed. The walk runs
/// twice, once to count the jobs and fingerprint the split (every line carries both), once to
/// write; it costs what perft to depth D costs, nothing next to the search it splits.
fn split<R: Rules>(
    kind: Kind,
    root: &Root,
    spec: &str,
    invariant: Option<&'static str>,
    depth: u32,
    plies: u64,
    limits: Limits,
) -> Outcome {
    let plies = match u32::try_from(plies) {
        Ok(p) if p <= depth => p,
        _ => {
            return Err(Failure::Input(format!(
                "--split {plies} is deeper than the search, depth {depth}; split at most at {depth}"
            )))
        }
    };
    let game = root.game::<R>()?;
    let start = game.position().clone();
    let mut template = JobLine {
        kind: "job".into(),
        search: kind.name().into(),
        job: 0,
        jobs: 0,
        fingerprint: String::new(),
        variant: if crate::definition::load::is_path(spec) {
            spec.into()
        } else {
            R::name().into()
        },
        size: root.size.clone(),
        root: root.fen.clone().unwrap_or_else(|| "start".into()),
        options: game
            .options()
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        invariant: invariant.map(str::to_string),
        depth,
        split: plies,
        remaining: depth - plies,
        turns: Vec::new(),
        fen: String::new(),
        done: false,
        nodes: None,
        violation: None,
        digest: String::new(),
    };
    let mut print = Fingerprint::new();
    for field in [&template.search, &template.variant, &template.root] {
        print.add(field);
    }
    print.add(template.size.as_deref().unwrap_or("-"));
    for (k, v) in &template.options {
        print.add(&format!("{k}={v}"));
    }
    print.add(template.invariant.as_deref().unwrap_or("-"));
    print.add(&format!("{depth}/{plies}"));
    let mut jobs = 0u64;
    let counted = parallel::split(&game, invariant, plies, &mut limits.budget(), &mut |leaf| {
        let (turns, broken) = leaf_parts(&start, &leaf);
        print.add(&turns.join(" "));
        print.add(broken.as_deref().unwrap_or("-"));
        jobs += 1;
        Ok::<(), Stop>(())
    });
    if let Err(stop) = counted {
        errln!("{} split: no answer: the search {stop}", kind.name());
        return Ok(stop_exit(&stop));
    }
    // The job count too, so that results cannot be merged as a split of fewer jobs.
    print.add(&jobs.max(1).to_string());
    // No position at the split ply (the game ends sooner everywhere): one job that already
    // knows its answer, so that a merge still has a line to count.
    if jobs == 0 {
        print.add("none");
        template.jobs = 1;
        template.fingerprint = print.hex();
        template.fen = start.fen();
        template.done = true;
        match kind {
            Kind::Perft => template.nodes = Some(0),
            Kind::Invariant => template.violation = None,
        }
        template.digest = digest(&template);
        super::output::json_line(&template)?;
        return Ok(0);
    }
    template.jobs = jobs;
    template.fingerprint = print.hex();
    let mut next = 0u64;
    let written = parallel::split(&game, invariant, plies, &mut limits.budget(), &mut |leaf| {
        let (turns, broken) = leaf_parts(&start, &leaf);
        let fen = match &leaf {
            parallel::Leaf::Open { position, .. } => position.fen(),
            parallel::Leaf::Broken { path, .. } => {
                let mut pos = start.clone();
                for &m in path.iter() {
                    pos.play(m);
                }
                pos.fen()
            }
        };
        template.job = next;
        template.fen = fen;
        template.done = broken.is_some();
        template.violation = broken.map(|broken| Violation {
            turns: turns.clone(),
            broken,
        });
        template.turns = turns;
        template.digest = String::new();
        template.digest = digest(&template);
        next += 1;
        super::output::json_line(&template).map_err(SplitError::Out)
    });
    match written {
        Ok(()) => Ok(0),
        Err(SplitError::Out(failure)) => Err(failure),
        Err(SplitError::Stop(stop)) => {
            errln!("{} split: no answer: the search {stop}", kind.name());
            Ok(stop_exit(&stop))
        }
    }
}

// ---- jobs ------------------------------------------------------------------------------------

/// Lines read, each with where it came from (`file:LINE`).
type Lines = Box<dyn Iterator<Item = (String, std::io::Result<String>)>>;

/// Lines from a file, or from standard input for `-`, each with where it came from.
fn lines(path: &Path) -> Result<Lines, Failure> {
    let (label, reader): (String, Box<dyn Read>) = if path == Path::new("-") {
        ("standard input".into(), Box::new(std::io::stdin()))
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| Failure::Input(format!("cannot read {}: {e}", crate::text::path(path))))?;
        (path.display().to_string(), Box::new(file))
    };
    Ok(Box::new(BufReader::new(reader).lines().enumerate().map(
        move |(i, line)| (format!("{label}:{}", i + 1), line),
    )))
}

/// Parses a line as a `kind` line (`job` or `result`), naming the other when it is that.
fn parse_line<T: for<'de> Deserialize<'de>>(
    at: &str,
    line: &str,
    want: &str,
    hint: &str,
) -> Result<T, Failure> {
    let value: serde_json::Value = serde_json::from_str(line)
        .map_err(|e| Failure::Input(format!("{at}: not a JSON line: {e}")))?;
    match value.get("kind").and_then(|k| k.as_str()) {
        Some(k) if k == want => {}
        Some(k) => {
            return Err(Failure::Input(format!(
                "{at}: a {k} line, where {want} lines are read; {hint}"
            )))
        }
        None => {
            return Err(Failure::Input(format!(
                "{at}: not a {want} line (no `kind`)"
            )))
        }
    }
    serde_json::from_value(value).map_err(|e| Failure::Input(format!("{at}: bad {want} line: {e}")))
}

/// `--job`: runs each job line read, writing one result line per job as it finishes.
fn run_jobs(kind: Kind, path: &Path, budgets: Budgets) -> Outcome {
    let mut status = 0;
    for (at, line) in lines(path)? {
        let line = line.map_err(|e| Failure::Input(format!("{at}: cannot read: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let mut job: JobLine = parse_line(
            &at,
            &line,
            "job",
            "--job runs the lines --split writes; --merge reads its results",
        )?;
        check_digest(
            &at,
            "the job line",
            "split the search again",
            &mut job,
            |j| &mut j.digest,
        )?;
        if job.search != kind.name() {
            return Err(Failure::Input(format!(
                "{at}: a job of a {} search; run it with `arbiter {} --job`",
                job.search, job.search
            )));
        }
        // A job line may come from elsewhere (a CI artifact): the definition it names is
        // read under the rule for files naming definitions, as a scenario's `variant` is.
        if crate::definition::load::is_path(&job.variant) {
            let (file, file_kind) = match crate::definition::ini::spec(&job.variant) {
                Some((file, _)) => (file, crate::paths::Kind::Ini),
                None => (job.variant.as_str(), crate::paths::Kind::Definition),
            };
            crate::paths::named_by(Path::new(file), path, file_kind)
                .map_err(|e| Failure::Input(format!("{at}: {e}")))?;
        }
        let variant: Variant = job
            .variant
            .parse()
            .map_err(|e: String| Failure::Input(format!("{at}: {e}")))?;
        let limits = budgets.search(kind.search(), variant);
        let result = with_variant!(variant, R => run_job::<R>(&at, &job, limits))?;
        match result {
            Ok(line) => super::output::json_line(&line)?,
            Err(stop) => {
                errln!("job {}: no answer: the search {stop}", job.job);
                status = status.max(stop_exit(&stop));
                if matches!(stop, Stop::Interrupted { .. }) {
                    return Ok(INTERRUPTED_EXIT);
                }
            }
        }
    }
    Ok(status)
}

fn run_job<R>(at: &str, job: &JobLine, limits: Limits) -> Result<Result<ResultLine, Stop>, Failure>
where
    R: Rules + Send + Sync,
    R::Move: Send + Sync,
{
    let bad = |what: String| Failure::Input(format!("{at}: job {}: {what}", job.job));
    if job.split.checked_add(job.remaining) != Some(job.depth) {
        return Err(bad(format!(
            "split {} and remaining depth {} do not add up to depth {}",
            job.split, job.remaining, job.depth
        )));
    }
    if job.job >= job.jobs {
        return Err(bad(format!(
            "its id is not below the job count {}",
            job.jobs
        )));
    }
    let mut result = ResultLine {
        kind: "result".into(),
        search: job.search.clone(),
        job: job.job,
        jobs: job.jobs,
        fingerprint: job.fingerprint.clone(),
        depth: job.depth,
        invariant: job.invariant.clone(),
        nodes: None,
        holds: None,
        violation: None,
        job_digest: job.digest.clone(),
        digest: String::new(),
    };
    let invariant = match (&job.invariant, job.search.as_str()) {
        (Some(name), "invariant") => Some(invariant_name::<R>(name).map_err(|e| match e {
            Failure::Input(m) => bad(m),
            other => other,
        })?),
        (None, "invariant") => return Err(bad("an invariant job names no invariant".into())),
        _ => None,
    };
    if job.done {
        match invariant {
            Some(_) => {
                result.holds = Some(job.violation.is_none());
                result.violation = job.violation.clone();
            }
            None => result.nodes = Some(job.nodes.unwrap_or(0)),
        }
        return Ok(Ok(sealed(result)));
    }
    let root = Root {
        fen: (job.root != "start").then(|| job.root.clone()),
        size: job.size.clone(),
        options: job
            .options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect(),
    };
    let mut game = root.game::<R>().map_err(|e| match e {
        Failure::Input(m) => bad(m),
        other => other,
    })?;
    for turn in &job.turns {
        game.replay(turn).map_err(&bad)?;
    }
    if game.position().fen() != job.fen {
        return Err(bad(format!(
            "its turns reach {}, not the line's {} (was it split by another version of arbiter?)",
            game.position().fen(),
            job.fen
        )));
    }
    match invariant {
        None => {
            let nodes = if threads() == 1 {
                perft_within(game.position(), job.remaining, &mut limits.budget())
            } else {
                parallel::perft(game.position(), job.remaining, &Shared::new(limits))
            };
            Ok(nodes.map(|n| {
                result.nodes = Some(n);
                sealed(result)
            }))
        }
        Some(name) => Ok(
            search_invariant(&game, name, job.remaining, limits).map(|found| {
                result.holds = Some(found.is_none());
                result.violation = found.map(|(below, broken)| Violation {
                    turns: job.turns.iter().cloned().chain(below).collect(),
                    broken,
                });
                sealed(result)
            }),
        ),
    }
}

/// A result line with its digest.
fn sealed(mut result: ResultLine) -> ResultLine {
    result.digest = String::new();
    result.digest = digest(&result);
    result
}

// ---- merge -----------------------------------------------------------------------------------

/// Job ids as short ranges: `0-4, 7, 9-12`, the first few only.
fn id_ranges(ids: impl IntoIterator<Item = u64>) -> String {
    let mut ranges: Vec<(u64, u64)> = Vec::new();
    for id in ids {
        match ranges.last_mut() {
            Some((_, end)) if end.checked_add(1) == Some(id) => *end = id,
            _ => ranges.push((id, id)),
        }
    }
    let shown: Vec<String> = ranges
        .iter()
        .take(20)
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    let more = ranges.len().saturating_sub(20);
    if more > 0 {
        format!("{} and {more} more ranges", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// `--merge`: sums the results of every job of one split (perft), or answers with the
/// violation of the lowest job that has one (invariant, the direct search's answer).
fn merge(kind: Kind, paths: &[PathBuf]) -> Outcome {
    let stdin = [PathBuf::from("-")];
    let paths = if paths.is_empty() { &stdin[..] } else { paths };
    let mut first: Option<(String, ResultLine)> = None;
    let mut seen = BTreeSet::new();
    let mut duplicates = BTreeSet::new();
    let mut total: u64 = 0;
    let mut lowest: Option<(u64, Violation)> = None;
    for path in paths {
        for (at, line) in lines(path)? {
            let line = line.map_err(|e| Failure::Input(format!("{at}: cannot read: {e}")))?;
            if line.trim().is_empty() {
                continue;
            }
            let mut r: ResultLine = parse_line(
                &at,
                &line,
                "result",
                "run the jobs with --job first and merge what they write",
            )?;
            check_digest(&at, "the result line", "run its job again", &mut r, |r| {
                &mut r.digest
            })?;
            if r.search != kind.name() {
                return Err(Failure::Input(format!(
                    "{at}: a result of a {} search; merge it with `arbiter {} --merge`",
                    r.search, r.search
                )));
            }
            if let Some((where_first, f)) = &first {
                if f.fingerprint != r.fingerprint || f.jobs != r.jobs {
                    return Err(Failure::Input(format!(
                        "results of different splits: {where_first} has fingerprint {} ({}), {at} has {} ({}); merge the results of one split",
                        f.fingerprint,
                        crate::text::count(f.jobs, "job"),
                        r.fingerprint,
                        crate::text::count(r.jobs, "job")
                    )));
                }
                // One fingerprint, one search: lines that disagree were not written by one
                // split's jobs.
                let differs = [
                    ("depth", f.depth.to_string(), r.depth.to_string()),
                    (
                        "invariant",
                        f.invariant.clone().unwrap_or_default(),
                        r.invariant.clone().unwrap_or_default(),
                    ),
                ];
                if let Some((field, a, b)) = differs.iter().find(|(_, a, b)| a != b) {
                    return Err(Failure::Input(format!(
                        "{at}: its {field} `{b}` disagrees with its split's `{a}` ({where_first}, fingerprint {}); merge the results of one split",
                        f.fingerprint
                    )));
                }
            }
            if r.job >= r.jobs {
                return Err(Failure::Input(format!(
                    "{at}: job {} is not below the job count {}",
                    r.job, r.jobs
                )));
            }
            if !seen.insert(r.job) {
                duplicates.insert(r.job);
            }
            match kind {
                Kind::Perft => {
                    let nodes = r.nodes.ok_or_else(|| {
                        Failure::Input(format!("{at}: a perft result with no `nodes`"))
                    })?;
                    total = total.checked_add(nodes).ok_or_else(|| {
                        Failure::Input("the sum of the results overflows 64 bits".into())
                    })?;
                }
                Kind::Invariant => {
                    let violation = match (r.holds, &r.violation) {
                        (Some(true), None) => None,
                        (Some(false), Some(v)) => Some(v.clone()),
                        _ => {
                            return Err(Failure::Input(format!(
                                "{at}: an invariant result needs `holds`, and a `violation` exactly when it is false"
                            )))
                        }
                    };
                    if let Some(v) = violation {
                        if lowest.as_ref().is_none_or(|(id, _)| r.job < *id) {
                            lowest = Some((r.job, v));
                        }
                    }
                }
            }
            if first.is_none() {
                first = Some((at, r));
            }
        }
    }
    let Some((_, first)) = first else {
        return Err(Failure::Input(
            "no result lines to merge; give the files --job wrote, or pipe them in".into(),
        ));
    };
    if !duplicates.is_empty() {
        return Err(Failure::Input(format!(
            "job ids given more than once: {} (of {}); merge each job's result once",
            id_ranges(duplicates),
            crate::text::count(first.jobs, "job")
        )));
    }
    if seen.len() as u64 != first.jobs {
        let mut missing = Vec::new();
        let mut expect = 0u64;
        for &id in seen.iter().chain([first.jobs].iter()) {
            // Only the first few ranges are shown, so listing stops early.
            if missing.len() > 10_000 {
                break;
            }
            missing.extend(expect..id.min(expect.saturating_add(10_000)));
            expect = id.saturating_add(1);
        }
        return Err(Failure::Input(format!(
            "missing results for job ids {} (of {} jobs, {} given)",
            id_ranges(missing),
            first.jobs,
            seen.len()
        )));
    }
    match kind {
        Kind::Perft => {
            outln!("perft {} = {total}", first.depth)?;
            Ok(0)
        }
        Kind::Invariant => {
            let name = first.invariant.unwrap_or_default();
            let found = lowest.map(|(_, v)| (v.turns, v.broken));
            invariant_report(&name, first.depth, found.as_ref())
        }
    }
}
