//! Bounded search. Every exhaustive search (perft, invariant search, forced wins) spends nodes
//! from a [`Budget`] and stops with a [`Stop`] instead of running without end: when its nodes
//! run out, when a deadline passes, or when the user interrupts the run (Ctrl-C sets
//! [`INTERRUPTED`]). Depth is capped at [`MAX_DEPTH`] plies, checked before any search starts,
//! so that no request can overflow the stack.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The deepest search, in plies (turns), that any command or expectation may ask for. Far
/// beyond what any budget reaches in a real position, and shallow enough for the recursion to
/// stay well inside a thread's stack.
pub const MAX_DEPTH: u32 = 1000;

/// The node budget of one expectation or command when none is given. A node is a position the
/// move generator produces (perft's counted last ply included), so a node costs about the
/// same in every search; this many take about a minute of the slowest search on a 2-core
/// machine and are ample for every bundled scenario.
pub const DEFAULT_MAX_NODES: u64 = 100_000_000;

/// Set by the command line's Ctrl-C handler; every running search stops at its next check.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

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
                "stopped after {spent} nodes: the budget is {limit} nodes (raise it with --max-nodes)"
            ),
            Stop::Timeout { after, spent } => write!(
                f,
                "timed out after {:.1} s and {spent} nodes (raise it with --timeout)",
                after.as_secs_f64()
            ),
            Stop::Interrupted { spent } => write!(f, "interrupted after {spent} nodes"),
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

/// The limits a run gives each search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Nodes one search may spend.
    pub max_nodes: u64,
    /// When the searches of this piece of work must stop.
    pub deadline: Option<(Instant, Duration)>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_nodes: DEFAULT_MAX_NODES,
            deadline: None,
        }
    }
}

impl Limits {
    pub fn unlimited() -> Limits {
        Limits {
            max_nodes: u64::MAX,
            deadline: None,
        }
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
        Budget {
            limits: *self,
            spent: 0,
            next_look: CLOCK_EVERY,
        }
    }
}

/// The nodes one search has spent, against its [`Limits`].
#[derive(Clone, Debug)]
pub struct Budget {
    limits: Limits,
    spent: u64,
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
            NODES.fetch_add(
                self.spent - (self.next_look - CLOCK_EVERY).min(self.spent),
                Ordering::Relaxed,
            );
            self.next_look = self.spent.saturating_add(CLOCK_EVERY);
            self.look()?;
        }
        Ok(())
    }

    /// Looks at the clock and at the interrupt flag.
    pub fn look(&self) -> Result<(), Stop> {
        if INTERRUPTED.load(Ordering::Relaxed) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spends_until_the_limit() {
        let mut b = Limits {
            max_nodes: 10,
            deadline: None,
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
}
