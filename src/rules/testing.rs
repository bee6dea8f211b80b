//! What the random-position tests share: a small deterministic generator (xorshift64*), so
//! that a failure names a case that runs again the same way, and their final report.

pub struct Rng(pub u64);

impl Rng {
    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// Fails with the first disagreements, if any, and unless at least `at_least` cases were
/// checked (so that a test cannot pass by checking nothing); `what` names the cases.
pub fn report(failures: &[String], checked: usize, at_least: usize, what: &str) {
    assert!(
        failures.is_empty(),
        "{} of {checked} disagree, the first:\n{}",
        failures.len(),
        failures[..failures.len().min(8)].join("\n")
    );
    eprintln!("{checked} {what}");
    assert!(checked >= at_least, "only {checked} {what}");
}
