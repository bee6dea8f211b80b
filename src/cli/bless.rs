//! `arbiter check --bless`: the values found written back into the failing expectations that
//! state a count, a move list or a state key (`perft`, `moves count`, `moves from ... count`,
//! `moves = { }`, `moves from ... = { }`, `<key> = <value>`), as expect-test's
//! `UPDATE_EXPECT` and insta's review do. The diff is shown first; nothing else of a file
//! changes (a file in `arbiter fmt`'s layout is kept in it), and a file that could not be used
//! is left alone.

use super::output::Failure;
use crate::outln;
use crate::scenario::report::FileCheck;

/// Writes the blessed assertions into their files; the number written and the number of
/// failures that could not be blessed (a wrong result, an illegal turn, a search that ran
/// out).
pub fn bless(checks: &[FileCheck]) -> Result<(usize, usize), Failure> {
    let (mut written, mut left) = (0, 0);
    for check in checks {
        if !check.problems.is_empty() {
            continue;
        }
        let mut edits: Vec<(std::ops::Range<usize>, &str)> = Vec::new();
        for report in &check.scenarios {
            for f in &report.failures {
                match &f.blessed {
                    Some(b) => edits.push((f.span.clone(), b)),
                    None => left += 1,
                }
            }
        }
        if edits.is_empty() {
            continue;
        }
        let src = &check.source.src;
        outln!("--- {}", check.source.path)?;
        for (span, new) in &edits {
            let (line, _) = check.source.line_col(span.start);
            outln!("@@ line {line}")?;
            for old in src[span.clone()].lines() {
                outln!("-{}", old.trim_end())?;
            }
            outln!("+{new}")?;
        }
        // From the end, so that the spans before stay where they are.
        let mut text = src.clone();
        edits.sort_by_key(|(span, _)| std::cmp::Reverse(span.start));
        for (span, new) in &edits {
            text.replace_range(span.clone(), new);
        }
        // A file kept in the canonical layout stays in it (a long move list is wrapped).
        let formatted = |t: &str| crate::scenario::format::format(t).ok();
        if formatted(src).as_deref() == Some(src.as_str()) {
            if let Some(f) = formatted(&text) {
                text = f;
            }
        }
        std::fs::write(&check.source.path, text)
            .map_err(|e| Failure::Input(format!("cannot write {}: {e}", check.source.path)))?;
        written += edits.len();
    }
    Ok((written, left))
}
