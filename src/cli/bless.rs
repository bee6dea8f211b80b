//! `arbiter check --bless`: the values found written back into the failing expectations that
//! state a count, a move list or a state key (`perft`, `moves count`, `moves from ... count`,
//! `moves = { }`, `moves from ... = { }`, `<key> = <value>`), as expect-test's
//! `UPDATE_EXPECT` and insta's review do. The diff is shown first; nothing else of a file
//! changes (a file in `arbiter fmt`'s layout is kept in it), and a file that could not be used
//! is left alone.
//!
//! A file named more than once (`f.scn:5 f.scn:10`) gets all its edits in one write; every file
//! is replaced whole through [`super::safe_write`].

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use super::output::{err, Failure};
use super::safe_write::{write_file, Force};
use crate::outln;
use crate::scenario::report::FileCheck;

/// What `--bless` did.
#[derive(Debug, Default)]
pub struct Blessed {
    /// Expectations written.
    pub written: usize,
    /// Failures that could not be blessed (a wrong result, an illegal turn, a search that ran
    /// out).
    pub left: usize,
    /// Files that could not be written (each reported on standard error; left as they were).
    pub unwritten: usize,
}

/// Writes the blessed assertions into their files.
pub fn bless(checks: &[FileCheck], force: Force) -> Result<Blessed, Failure> {
    let mut done = Blessed::default();
    for group in by_file(checks) {
        if group.iter().any(|c| !c.problems.is_empty()) {
            continue;
        }
        let first = group[0];
        if group.iter().any(|c| c.source.src != first.source.src) {
            err(format_args!(
                "error: {} changed while it was checked; it is not blessed\n",
                first.source.path
            ));
            done.unwritten += 1;
            continue;
        }
        // By span: a scenario selected twice fails twice, and is blessed once.
        let mut edits: BTreeMap<(usize, usize), &str> = BTreeMap::new();
        let mut left: BTreeMap<(usize, usize), ()> = BTreeMap::new();
        for check in &group {
            for report in &check.scenarios {
                for f in &report.failures {
                    let key = (f.span.start, f.span.end);
                    match &f.blessed {
                        Some(b) => {
                            edits.insert(key, b);
                        }
                        None => {
                            left.insert(key, ());
                        }
                    }
                }
            }
        }
        done.left += left.len();
        if edits.is_empty() {
            continue;
        }
        let src = &first.source.src;
        outln!("--- {}", first.source.path)?;
        for (&(start, end), new) in &edits {
            let (line, _) = first.source.line_col(start);
            outln!("@@ line {line}")?;
            for old in src[start..end].lines() {
                outln!("-{}", old.trim_end())?;
            }
            outln!("+{new}")?;
        }
        let mut text = splice(src, edits.iter().map(|(&(s, e), new)| (s..e, *new)));
        // A file kept in the canonical layout stays in it (a long move list is wrapped).
        let formatted = |t: &str| crate::scenario::format::format(t).ok();
        if formatted(src).as_deref() == Some(src.as_str()) {
            if let Some(f) = formatted(&text) {
                text = f;
            }
        }
        match write_file(Path::new(&first.source.path), text.as_bytes(), force) {
            Ok(()) => done.written += edits.len(),
            Err(e) => {
                err(format_args!("error: {e}\n"));
                done.unwritten += 1;
            }
        }
    }
    Ok(done)
}

/// The checks grouped by the file they read, in the order the files first come: the same file
/// under two spellings (`f.scn`, `./f.scn`) is one group.
fn by_file(checks: &[FileCheck]) -> Vec<Vec<&FileCheck>> {
    let mut groups: Vec<Vec<&FileCheck>> = Vec::new();
    let mut index: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for check in checks {
        let path = Path::new(&check.source.path);
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        match index.get(&key) {
            Some(&i) => groups[i].push(check),
            None => {
                index.insert(key, groups.len());
                groups.push(vec![check]);
            }
        }
    }
    groups
}

/// The text with each span (in order, not overlapping) replaced, in one pass.
fn splice<'a>(src: &str, edits: impl Iterator<Item = (Range<usize>, &'a str)>) -> String {
    let mut out = String::with_capacity(src.len());
    let mut at = 0;
    for (span, new) in edits {
        if span.start < at {
            // Overlapping spans cannot come from one parse; keep the first.
            continue;
        }
        out.push_str(&src[at..span.start]);
        out.push_str(new);
        at = span.end;
    }
    out.push_str(&src[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::splice;

    #[test]
    fn edits_are_spliced_in_order() {
        let src = "a 1 b 2 c";
        let out = splice(src, [(2..3, "10"), (6..7, "20")].into_iter());
        assert_eq!(out, "a 10 b 20 c");
    }
}
