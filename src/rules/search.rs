//! Bounded search. Every exhaustive search (perft, invariant search, forced wins) spends nodes
//! from a [`Budget`] and stops with a [`Stop`] instead of running without end: when its nodes
//! run out, when a deadline passes, or when the user interrupts the run (Ctrl-C sets
//! [`INTERRUPTED`]). Depth is capped at [`MAX_DEPTH`] plies, checked before any search starts,
//! so that no request can overflow the stack.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::text::count;

/// The deepest search, in plies (turns), that any command or expectation may ask for. Far
/// beyond what any budget reaches in a real position, and shallow enough for the recursion to
/// stay well inside a thread's stack.
pub const MAX_DEPTH: u32 = 1000;

/// The node budget of one expectation of a scenario (`check`, `dispute`, `explain`) when
/// `--max-nodes` is not given. A node is a position the move generator produces (perft's
/// counted last ply included); this many take from about a second (chess perft) to three
/// minutes (a ChessXpanse invariant search) on one core, and are ample for every bundled
/// scenario. A command-line search has its own default, [`command_max_nodes`].
pub const DEFAULT_MAX_NODES: u64 = 100_000_000;

/// The node budget of a whole `check` or `dispute` run, every search of it together, when
/// `--max-run-nodes` is not given: `arbiter check scenarios` spends 15 million nodes (measured
/// 2026-11-26), so the bundled scenarios stay far inside it, while a run of twenty
/// `expect perft 6` lines (2,400 million nodes) or a dispute of 64 readings of deep searches
/// stops after some seconds to a few minutes instead of running for hours.
pub const DEFAULT_MAX_RUN_NODES: u64 = 1_000_000_000;

/// The kinds of search a command line runs, each with its own cost per node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    Perft,
    Invariant,
    Win,
}

/// The node budget of a command-line search (`perft`, `invariant`, `win`, and a `--job`) when
/// `--max-nodes` is not given: about a minute of one core's work, from the rates measured on a
/// release build of the 2-core machine arbiter is developed on (`arbiter --threads 1 perft ...`
/// and the like stopped by a 20 million node budget, in CPU seconds): perft counts its last
/// ply in bulk and runs at 110 (chess), 38 (Cypher), 20 (csipgs) and 10 (ChessXpanse) million
/// nodes a second; the forced-win search at 54, 20, 12 and 10; the invariant search, which
/// plays and checks every node, at 2.6, 1.7, 1.7 and 0.5. An explicit perft of an ordinary
/// depth (chess 6 or 7, Cypher 5) then just runs.
pub fn command_max_nodes(kind: SearchKind, variant: super::Variant) -> u64 {
    use super::Variant::*;
    const M: u64 = 1_000_000;
    match (kind, variant) {
        (SearchKind::Perft, Chess) => 6_000 * M,
        (SearchKind::Perft, Cypher) => 2_000 * M,
        (SearchKind::Perft, Csipgs) => 1_000 * M,
        (SearchKind::Perft, Xpanse) => 600 * M,
        (SearchKind::Win, Chess) => 3_000 * M,
        (SearchKind::Win, Cypher) => 1_000 * M,
        (SearchKind::Win, Csipgs) => 700 * M,
        (SearchKind::Win, Xpanse) => 600 * M,
        (SearchKind::Invariant, Chess) => 150 * M,
        (SearchKind::Invariant, Cypher) => 100 * M,
        (SearchKind::Invariant, Csipgs) => 100 * M,
        (SearchKind::Invariant, Xpanse) => 30 * M,
        // The generic engine plays every move to judge it: budgeted as the slowest built-in.
        (SearchKind::Perft, Defined(_)) => 600 * M,
        (SearchKind::Win, Defined(_)) => 600 * M,
        (SearchKind::Invariant, Defined(_)) => 30 * M,
    }
}

/// Set by the command line's Ctrl-C handler; every running search stops at its next check.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// An interruption of one piece of work rather than of the process: the work stops, as on
/// Ctrl-C ([`Stop::Interrupted`]), once `counter` has moved past `generation`. The language
/// server gives each document a counter and bumps it on every edit, so that the evaluation of
/// a text that is no longer the editor's stops at its next look at the clock.
#[derive(Clone, Copy, Debug)]
pub struct Cancel {
    counter: &'static AtomicU64,
    generation: u64,
}

impl Cancel {
    /// Work that is current while `counter` holds `generation`.
    pub fn new(counter: &'static AtomicU64, generation: u64) -> Cancel {
        Cancel {
            counter,
            generation,
        }
    }

    /// Whether the counter has moved on.
    pub fn cancelled(&self) -> bool {
        self.counter.load(Ordering::Relaxed) != self.generation
    }
}

/// One counter and generation is one cancellation.
impl PartialEq for Cancel {
    fn eq(&self, other: &Cancel) -> bool {
        std::ptr::eq(self.counter, other.counter) && self.generation == other.generation
    }
}

impl Eq for Cancel {}

/// Whether searches under `limits` must stop: Ctrl-C, or their own [`Cancel`].
fn interrupted(limits: &Limits) -> bool {
    INTERRUPTED.load(Ordering::Relaxed) || limits.cancel.is_some_and(|c| c.cancelled())
}

/// Nodes spent by every search of the process, published at each look at the clock: what a
/// progress display reads.
pub static NODES: AtomicU64 = AtomicU64::new(0);

/// How many nodes pass between two looks at the clock and at [`INTERRUPTED`].
const CLOCK_EVERY: u64 = 1 << 14;

/// Why a search stopped before it had an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The node budget ran out after `spent` nodes.
    Nodes { limit: u64, spent: u64 },
    /// The deadline passed.
    Timeout { after: Duration, spent: u64 },
    /// The user interrupted the run.
    Interrupted { spent: u64 },
    /// The run's budget, shared by all its searches, ran out; `spent` is this search's.
    RunNodes { limit: u64, spent: u64 },
    /// The requested depth is beyond [`MAX_DEPTH`].
    TooDeep { depth: u64 },
    /// A position on the way has more legal turns than one position may have
    /// ([`crate::rules::Rules::MAX_TURNS`]).
    TooManyTurns { limit: usize },
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Nodes { limit, spent } => write!(
                f,
                "stopped after {}: the budget is {} (raise it with --max-nodes)",
                count(*spent, "node"),
                count(*limit, "node")
            ),
            Stop::RunNodes { limit, spent } => write!(
                f,
                "stopped after {}: the run has spent its budget of {} across all its searches (raise it with --max-run-nodes)",
                count(*spent, "node"),
                count(*limit, "node")
            ),
            Stop::Timeout { after, spent } => write!(
                f,
                "timed out after {:.1} s and {} (raise it with --timeout)",
                after.as_secs_f64(),
                count(*spent, "node")
            ),
            Stop::Interrupted { spent } => write!(f, "interrupted after {}", count(*spent, "node")),
            Stop::TooDeep { depth } => write!(f, "{}", too_deep(*depth)),
            Stop::TooManyTurns { limit } => write!(
                f,
                "stopped at a position with more than {limit} legal turns, more than arbiter lists for one position"
            ),
        }
    }
}

/// The message for a depth beyond [`MAX_DEPTH`].
pub fn too_deep(depth: u64) -> String {
    format!("depth {depth} is beyond the deepest search arbiter runs, {MAX_DEPTH} plies")
}

/// Checks a requested depth against [`MAX_DEPTH`].
pub fn check_depth(depth: u64) -> Result<u32, Stop> {
    match u32::try_from(depth) {
        Ok(d) if d <= MAX_DEPTH => Ok(d),
        _ => Err(Stop::TooDeep { depth }),
    }
}

/// The nodes every search of one run (`check`, `dispute`) may spend together.
#[derive(Debug)]
pub struct RunBudget {
    limit: u64,
    spent: AtomicU64,
}

impl RunBudget {
    /// A run budget for the whole process: it lives as long as the run.
    pub fn leak(limit: u64) -> &'static RunBudget {
        Box::leak(Box::new(RunBudget {
            limit,
            spent: AtomicU64::new(0),
        }))
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The nodes the run's searches have spent so far (each search adds its count at every
    /// look at the clock and when it ends).
    pub fn spent(&self) -> u64 {
        self.spent.load(Ordering::Relaxed)
    }

    fn left(&self) -> u64 {
        self.limit.saturating_sub(self.spent())
    }

    /// Adds `n` nodes; the run's total.
    fn add(&self, n: u64) -> u64 {
        self.spent
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| {
                Some(s.saturating_add(n))
            })
            .unwrap_or(u64::MAX)
            .saturating_add(n)
    }
}

/// One run's budget is one object: limits are equal when they share it.
impl PartialEq for RunBudget {
    fn eq(&self, other: &RunBudget) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for RunBudget {}

/// The limits a run gives each search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Nodes one search may spend.
    pub max_nodes: u64,
    /// When the searches of this piece of work must stop.
    pub deadline: Option<(Instant, Duration)>,
    /// What the searches of the whole run may spend together (`--max-run-nodes`).
    pub run: Option<&'static RunBudget>,
    /// Stops the searches of this piece of work when its owner no longer wants the answer.
    pub cancel: Option<Cancel>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_nodes: DEFAULT_MAX_NODES,
            deadline: None,
            run: None,
            cancel: None,
        }
    }
}

impl Limits {
    pub fn unlimited() -> Limits {
        Limits {
            max_nodes: u64::MAX,
            deadline: None,
            run: None,
            cancel: None,
        }
    }

    /// The same limits with another node budget per search.
    pub fn with_max_nodes(self, max_nodes: u64) -> Limits {
        Limits { max_nodes, ..self }
    }

    /// The same limits with a deadline `timeout` from now.
    pub fn with_timeout(self, timeout: Option<Duration>) -> Limits {
        Limits {
            deadline: timeout.map(|t| (Instant::now() + t, t)),
            ..self
        }
    }

    /// A fresh budget for one search.
    pub fn budget(&self) -> Budget {
        let mut budget = Budget {
            limits: *self,
            spent: 0,
            published: 0,
            next_look: CLOCK_EVERY,
        };
        budget.next_look = budget.next_look();
        budget
    }
}

/// The nodes one search has spent, against its [`Limits`].
#[derive(Debug)]
pub struct Budget {
    limits: Limits,
    spent: u64,
    /// What of `spent` the process's and the run's totals have been told.
    published: u64,
    next_look: u64,
}

impl Budget {
    pub fn unlimited() -> Budget {
        Limits::unlimited().budget()
    }

    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// Spends `n` nodes; `Err` once the budget, the deadline or the user says stop.
    #[inline]
    pub fn spend(&mut self, n: u64) -> Result<(), Stop> {
        self.spent = self.spent.saturating_add(n);
        if self.spent > self.limits.max_nodes {
            return Err(Stop::Nodes {
                limit: self.limits.max_nodes,
                spent: self.spent,
            });
        }
        if self.spent >= self.next_look {
            let run = self.publish();
            self.next_look = self.next_look();
            if let (Some(budget), Some(total)) = (self.limits.run, run) {
                if total > budget.limit {
                    return Err(Stop::RunNodes {
                        limit: budget.limit,
                        spent: self.spent,
                    });
                }
            }
            self.look()?;
        }
        Ok(())
    }

    /// Adds what was spent since the last publication to the process's total and to the
    /// run's; the run's new total.
    fn publish(&mut self) -> Option<u64> {
        let n = self.spent - self.published;
        self.published = self.spent;
        NODES.fetch_add(n, Ordering::Relaxed);
        self.limits.run.map(|run| run.add(n))
    }

    /// The next count at which to look: a clock period on, or sooner where the run's budget
    /// would run out, so that a run stops close to its limit (on the first node of a search
    /// started after it was spent).
    fn next_look(&self) -> u64 {
        let step = match self.limits.run {
            Some(run) => CLOCK_EVERY.min(run.left().saturating_add(1)),
            None => CLOCK_EVERY,
        };
        self.spent.saturating_add(step)
    }

    /// Looks at the clock and at the interrupt flag.
    pub fn look(&self) -> Result<(), Stop> {
        if interrupted(&self.limits) {
            return Err(Stop::Interrupted { spent: self.spent });
        }
        if let Some((at, after)) = self.limits.deadline {
            if Instant::now() >= at {
                return Err(Stop::Timeout {
                    after,
                    spent: self.spent,
                });
            }
        }
        Ok(())
    }
}

/// The nodes spent since the last look count for the process and the run too.
impl Drop for Budget {
    fn drop(&mut self) {
        if self.spent > self.published {
            self.publish();
        }
    }
}

/// Something a search spends its nodes from: one search's own [`Budget`], or a [`Worker`]'s
/// share of a budget that several threads spend together. The searches are generic over it so
/// that the sequential and the parallel searches are one code, compiled twice.
pub trait Spend {
    /// Spends `n` nodes; `Err` once the search must stop.
    fn spend(&mut self, n: u64) -> Result<(), Stop>;
}

impl Spend for Budget {
    #[inline]
    fn spend(&mut self, n: u64) -> Result<(), Stop> {
        Budget::spend(self, n)
    }
}

/// One budget for a search that several threads run: `--max-nodes` bounds the whole search,
/// not each thread. Workers count locally and publish in chunks of [`CLOCK_EVERY`] nodes, so
/// that the shared counter is touched rarely enough not to slow the search; the first stop
/// (budget, deadline, Ctrl-C, or a worker's own) is recorded and makes every other worker stop
/// at its next publication.
#[derive(Debug)]
pub struct Shared {
    limits: Limits,
    spent: AtomicU64,
    stopped: AtomicBool,
    reason: Mutex<Option<Stop>>,
}

impl Shared {
    pub fn new(limits: Limits) -> Shared {
        Shared {
            limits,
            spent: AtomicU64::new(0),
            stopped: AtomicBool::new(false),
            reason: Mutex::new(None),
        }
    }

    /// The nodes published so far (a worker's unpublished remainder is added when it is
    /// dropped).
    pub fn spent(&self) -> u64 {
        self.spent.load(Ordering::Relaxed)
    }

    /// A worker's local account of this budget.
    pub fn worker(&self) -> Worker<'_> {
        Worker {
            shared: self,
            pending: 0,
            chunk: self.chunk(),
            cancel: None,
        }
    }

    /// A worker for task `index` that also stops once `first` (the lowest task that has
    /// settled the answer) falls below `index`: its work can no longer change the answer.
    pub fn cancellable<'a>(&'a self, first: &'a AtomicUsize, index: usize) -> Worker<'a> {
        Worker {
            shared: self,
            pending: 0,
            chunk: self.chunk(),
            cancel: Some((first, index)),
        }
    }

    /// How many nodes a worker counts before it publishes: [`CLOCK_EVERY`], or less near the
    /// limit, so that a stop for the budget reports about the limit, as the sequential
    /// search does, rather than the limit plus a chunk per thread.
    fn chunk(&self) -> u64 {
        let left = self.limits.max_nodes.saturating_sub(self.spent());
        (left / 4).clamp(1, CLOCK_EVERY)
    }

    /// Adds `n` nodes to the total without looking at the limits.
    fn record(&self, n: u64) -> u64 {
        NODES.fetch_add(n, Ordering::Relaxed);
        let before = self
            .spent
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| {
                Some(s.saturating_add(n))
            })
            .unwrap_or(u64::MAX);
        before.saturating_add(n)
    }

    /// Publishes `n` nodes; `Err` once the whole search must stop.
    pub fn publish(&self, n: u64) -> Result<(), Stop> {
        let total = self.record(n);
        if self.stopped.load(Ordering::Relaxed) {
            return Err(self.stop().unwrap_or(Stop::Interrupted { spent: total }));
        }
        if total > self.limits.max_nodes {
            return Err(self.halt(Stop::Nodes {
                limit: self.limits.max_nodes,
                spent: total,
            }));
        }
        if interrupted(&self.limits) {
            return Err(self.halt(Stop::Interrupted { spent: total }));
        }
        if let Some((at, after)) = self.limits.deadline {
            if Instant::now() >= at {
                return Err(self.halt(Stop::Timeout {
                    after,
                    spent: total,
                }));
            }
        }
        Ok(())
    }

    /// Stops every worker for `stop`, unless a stop was recorded first; returns the one
    /// recorded, which is the one reported.
    pub fn halt(&self, stop: Stop) -> Stop {
        let mut reason = self.reason.lock().unwrap_or_else(|e| e.into_inner());
        let first = *reason.get_or_insert(stop);
        self.stopped.store(true, Ordering::Relaxed);
        first
    }

    /// The stop recorded, if any.
    pub fn stop(&self) -> Option<Stop> {
        *self.reason.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The answer of a search that visits the same nodes whatever the number of threads
    /// (perft, an invariant that holds), once every worker is dropped: the recorded stop, or
    /// else the node limit checked against the exact total, so that a search fails its budget
    /// exactly when the sequential search would, even though workers look only at chunk
    /// boundaries.
    pub fn finish<T>(&self, result: Result<T, Stop>) -> Result<T, Stop> {
        if let Some(stop) = self.stop() {
            return Err(stop);
        }
        let value = result?;
        let total = self.spent();
        if total > self.limits.max_nodes {
            return Err(Stop::Nodes {
                limit: self.limits.max_nodes,
                spent: total,
            });
        }
        Ok(value)
    }
}

/// One thread's account of a [`Shared`] budget; publishes what is left when dropped.
#[derive(Debug)]
pub struct Worker<'a> {
    shared: &'a Shared,
    pending: u64,
    /// How many nodes to count before the next publication.
    chunk: u64,
    cancel: Option<(&'a AtomicUsize, usize)>,
}

impl Worker<'_> {
    /// Publishes the nodes counted locally, then looks at the shared stop and at the task's
    /// cancellation. A cancelled task gets [`Stop::Interrupted`], which its caller discards:
    /// the answer is already settled by a lower task.
    pub fn flush(&mut self) -> Result<(), Stop> {
        let n = std::mem::take(&mut self.pending);
        self.shared.publish(n)?;
        self.chunk = self.shared.chunk();
        if let Some((first, index)) = self.cancel {
            if first.load(Ordering::Relaxed) < index {
                return Err(Stop::Interrupted {
                    spent: self.shared.spent(),
                });
            }
        }
        Ok(())
    }
}

impl Spend for Worker<'_> {
    #[inline]
    fn spend(&mut self, n: u64) -> Result<(), Stop> {
        self.pending = self.pending.saturating_add(n);
        if self.pending >= self.chunk {
            self.flush()?;
        }
        Ok(())
    }
}

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        if self.pending > 0 {
            self.shared.record(std::mem::take(&mut self.pending));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spends_until_the_limit() {
        let mut b = Limits {
            max_nodes: 10,
            ..Limits::unlimited()
        }
        .budget();
        assert!(b.spend(10).is_ok());
        assert_eq!(
            b.spend(1),
            Err(Stop::Nodes {
                limit: 10,
                spent: 11
            })
        );
    }

    #[test]
    fn spending_is_published_at_each_look() {
        let before = NODES.load(Ordering::Relaxed);
        let mut b = Budget::unlimited();
        for _ in 0..3 {
            b.spend(CLOCK_EVERY).unwrap();
        }
        // Other tests' searches may add to the count at the same time.
        assert!(NODES.load(Ordering::Relaxed) - before >= 3 * CLOCK_EVERY);
    }

    #[test]
    fn a_cancel_stops_its_own_work_only() {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let mine = Limits {
            cancel: Some(Cancel::new(&COUNTER, 0)),
            ..Limits::unlimited()
        };
        let mut search = mine.budget();
        let mut other = Limits::unlimited().budget();
        search.spend(CLOCK_EVERY).unwrap();
        COUNTER.fetch_add(1, Ordering::Relaxed);
        // Stopped at its next look at the clock, as on Ctrl-C; work without it goes on.
        assert!(search.spend(CLOCK_EVERY - 1).is_ok());
        assert!(matches!(search.spend(1), Err(Stop::Interrupted { .. })));
        assert!(other.spend(2 * CLOCK_EVERY).is_ok());
        // The shared budget of a parallel search stops too.
        let shared = Shared::new(mine);
        assert!(matches!(shared.publish(1), Err(Stop::Interrupted { .. })));
        // Work of the new generation runs.
        let fresh = Limits {
            cancel: Some(Cancel::new(&COUNTER, 1)),
            ..Limits::unlimited()
        };
        assert!(fresh.budget().look().is_ok());
    }

    #[test]
    fn the_run_budget_is_shared_by_every_search_of_the_run() {
        let run = RunBudget::leak(100);
        let limits = Limits {
            run: Some(run),
            ..Limits::unlimited()
        };
        // A search's count reaches the run when it ends, below any look at the clock.
        let mut first = limits.budget();
        first.spend(60).unwrap();
        drop(first);
        assert_eq!(run.spent(), 60);
        // The next one looks where the run's budget runs out, not a clock period later.
        let mut second = limits.budget();
        second.spend(40).unwrap();
        assert_eq!(
            second.spend(1),
            Err(Stop::RunNodes {
                limit: 100,
                spent: 41
            })
        );
        drop(second);
        // A search started after the budget is spent stops at its first node.
        let mut third = limits.budget();
        assert_eq!(
            third.spend(1),
            Err(Stop::RunNodes {
                limit: 100,
                spent: 1
            })
        );
        assert!(Stop::RunNodes {
            limit: 100,
            spent: 1
        }
        .to_string()
        .contains("--max-run-nodes"));
        // Another run's budget is another budget.
        assert_ne!(
            limits,
            Limits {
                run: Some(RunBudget::leak(100)),
                ..limits
            }
        );
    }

    #[test]
    fn never_wraps() {
        let mut b = Budget::unlimited();
        b.spend(u64::MAX).unwrap();
        b.spend(u64::MAX).unwrap();
        assert_eq!(b.spent(), u64::MAX);
    }

    #[test]
    fn a_passed_deadline_stops() {
        let mut b = Limits::unlimited()
            .with_timeout(Some(Duration::ZERO))
            .budget();
        assert!(matches!(b.spend(CLOCK_EVERY), Err(Stop::Timeout { .. })));
    }

    #[test]
    fn depth_cap() {
        assert_eq!(check_depth(MAX_DEPTH as u64), Ok(MAX_DEPTH));
        assert_eq!(
            check_depth(u64::MAX),
            Err(Stop::TooDeep { depth: u64::MAX })
        );
    }

    fn limit(max_nodes: u64) -> Limits {
        Limits {
            max_nodes,
            ..Limits::unlimited()
        }
    }

    #[test]
    fn workers_share_one_limit() {
        let shared = Shared::new(limit(3 * CLOCK_EVERY));
        let (mut a, mut b) = (shared.worker(), shared.worker());
        a.spend(CLOCK_EVERY).unwrap();
        b.spend(CLOCK_EVERY).unwrap();
        a.spend(CLOCK_EVERY).unwrap();
        let stop = b.spend(CLOCK_EVERY).unwrap_err();
        assert_eq!(
            stop,
            Stop::Nodes {
                limit: 3 * CLOCK_EVERY,
                spent: 4 * CLOCK_EVERY
            }
        );
        // Every other worker now stops with the same reason at its next publication.
        assert_eq!(a.spend(CLOCK_EVERY), Err(stop));
    }

    #[test]
    fn the_remainder_counts_when_a_worker_ends() {
        let shared = Shared::new(limit(40));
        for _ in 0..3 {
            // Below a chunk: published only when the worker ends.
            shared.worker().spend(4).unwrap();
        }
        assert_eq!(shared.spent(), 12);
        assert_eq!(shared.finish(Ok(7)), Ok(7));
        // A total over the limit that no publication saw still fails at the end.
        let over = Shared::new(limit(10));
        let mut workers: Vec<_> = (0..11).map(|_| over.worker()).collect();
        for w in &mut workers {
            w.spend(1).unwrap();
        }
        drop(workers);
        assert_eq!(
            over.finish(Ok(())),
            Err(Stop::Nodes {
                limit: 10,
                spent: 11
            })
        );
    }

    #[test]
    fn publications_come_closer_near_the_limit() {
        let shared = Shared::new(limit(1000));
        let mut w = shared.worker();
        let mut spent = 0;
        let stop = loop {
            spent += 1;
            if let Err(stop) = w.spend(1) {
                break stop;
            }
        };
        // As the sequential budget: the node that goes past the limit stops the search.
        assert_eq!(spent, 1001);
        assert_eq!(
            stop,
            Stop::Nodes {
                limit: 1000,
                spent: 1001
            }
        );
    }

    #[test]
    fn the_first_stop_is_the_one_reported() {
        let shared = Shared::new(Limits::unlimited());
        let first = Stop::TooManyTurns { limit: 5 };
        assert_eq!(shared.halt(first), first);
        assert_eq!(shared.halt(Stop::Interrupted { spent: 0 }), first);
        assert_eq!(shared.worker().flush(), Err(first));
        assert_eq!(shared.finish(Ok(1)), Err(first));
    }

    #[test]
    fn a_settled_answer_cancels_higher_tasks_only() {
        let shared = Shared::new(Limits::unlimited());
        let first = AtomicUsize::new(usize::MAX);
        let (mut low, mut high) = (shared.cancellable(&first, 2), shared.cancellable(&first, 5));
        first.fetch_min(3, Ordering::Relaxed);
        assert!(low.flush().is_ok());
        assert!(matches!(high.flush(), Err(Stop::Interrupted { .. })));
        // A cancellation is no stop of the search.
        assert_eq!(shared.stop(), None);
    }

    #[test]
    fn shared_spending_is_published() {
        let before = NODES.load(Ordering::Relaxed);
        let shared = Shared::new(Limits::unlimited());
        shared.worker().spend(CLOCK_EVERY).unwrap();
        assert!(NODES.load(Ordering::Relaxed) - before >= CLOCK_EVERY);
    }

    #[test]
    fn shared_totals_never_wrap() {
        let shared = Shared::new(Limits::unlimited());
        shared.worker().spend(u64::MAX).unwrap();
        shared.worker().spend(u64::MAX).unwrap();
        assert_eq!(shared.spent(), u64::MAX);
    }
}
