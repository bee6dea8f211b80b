//! Which interpretation options an evaluation consulted.
//!
//! A variant reads its options once, into flags of type [`Reading`]; reading a flag's value
//! records, for the running thread, that the option was asked. `dispute` then varies only the
//! options a scenario's evaluation asked, `check` names them beside a failure, and `explain`
//! says whether another value of each would change its verdict. A flag is read where the rule
//! needs it (after the cheaper conditions that make it matter), so an option that a position
//! never puts to the test is never recorded.
//!
//! The record is per thread: an evaluation runs on one thread from [`reset`] to [`take`].

use std::cell::Cell;

use super::OptionDef;

thread_local! {
    static ASKED: Cell<u64> = const { Cell::new(0) };
}

/// An option's value, read once, that records its consultation each time it is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Reading<T> {
    value: T,
    /// The option's position in its variant's catalogue.
    option: u8,
}

impl<T: Copy> Reading<T> {
    /// A reading of the option at `option` in the catalogue.
    pub const fn new(value: T, option: u8) -> Reading<T> {
        Reading { value, option }
    }

    /// The value, noting that the option was consulted.
    #[inline]
    pub fn get(self) -> T {
        ASKED.with(|a| a.set(a.get() | 1 << self.option));
        self.value
    }

    /// The value without recording it (for tests that compare readings).
    pub fn peek(self) -> T {
        self.value
    }

    /// The same option with another value (tests that vary a reading directly).
    pub fn with(self, value: T) -> Reading<T> {
        Reading { value, ..self }
    }
}

/// A set of options of one catalogue, by position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash, PartialOrd, Ord)]
pub struct Asked(pub u64);

impl Asked {
    pub fn contains(self, index: usize) -> bool {
        index < 64 && self.0 & 1 << index != 0
    }

    pub fn union(self, other: Asked) -> Asked {
        Asked(self.0 | other.0)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The options of `defs` in the set, in catalogue order.
    pub fn options(self, defs: &'static [OptionDef]) -> Vec<&'static OptionDef> {
        defs.iter()
            .enumerate()
            .filter(|(i, _)| self.contains(*i))
            .map(|(_, d)| d)
            .collect()
    }
}

/// Records that the options of `set` were consulted: for variants whose readings decide
/// which rules apply rather than flags read one at a time (definitions, whose components
/// apply `when` an option has a value).
pub fn note(set: Asked) {
    if set.0 != 0 {
        ASKED.with(|a| a.set(a.get() | set.0));
    }
}

/// Forgets what was consulted so far on this thread.
pub fn reset() {
    ASKED.with(|a| a.set(0));
}

/// What was consulted on this thread since the last [`reset`] (or [`take`]).
pub fn asked() -> Asked {
    Asked(ASKED.with(|a| a.get()))
}

/// What was consulted since the last reset, and a fresh start.
pub fn take() -> Asked {
    Asked(ASKED.with(|a| a.replace(0)))
}

/// Runs `f` and returns what it consulted, leaving the thread's record as it was plus that.
pub fn during<T>(f: impl FnOnce() -> T) -> (T, Asked) {
    let before = take();
    let out = f();
    let during = take();
    ASKED.with(|a| a.set(before.0 | during.0));
    (out, during)
}

/// Runs `f` without recording what it consults: for work that is not the evaluation's own
/// (a look at the opponent's replies to describe a turn).
pub fn quietly<T>(f: impl FnOnce() -> T) -> T {
    let before = asked();
    let out = f();
    ASKED.with(|a| a.set(before.0));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_records_only_when_used() {
        reset();
        let r = Reading::new(true, 3);
        assert!(asked().is_empty());
        assert!(r.peek());
        assert!(asked().is_empty());
        let ((), inner) = during(|| assert!(r.get()));
        assert_eq!(inner, Asked(1 << 3));
        assert!(asked().contains(3));
        assert!(!asked().contains(2));
        assert_eq!(take(), Asked(8));
        assert!(asked().is_empty());
        quietly(|| assert!(r.get()));
        assert!(asked().is_empty());
    }
}
