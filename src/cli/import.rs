//! `arbiter import FILE.ini [SECTION...]`: writes the definition each section of a
//! Fairy-Stockfish `variants.ini` maps to ([`crate::definition::ini`]), to standard output or,
//! with `--out DIR`, one `SECTION.def` per section, each written safely (a temporary file
//! beside it, renamed over it; never over the INI file itself).
//!
//! A file written into `--out` starts with a line naming the section and a digest of the rest
//! ([`MARK`]): the next import replaces a file whose digest still holds, and keeps one that
//! does not carry it (written by hand) or whose text changed since (edited), unless `--force`.
//! Only regular files are ever replaced: a FIFO, a device or a folder of that name is left
//! alone, so the import never blocks on one.
//!
//! Exit status: 0 when every section named (or every section of the file) imports and is
//! written, 1 when some are refused (each with its reasons, on standard error, and a count of
//! the settings that stop them) or kept, 2 when the file cannot be used or a file cannot be
//! written (then the files already written are named).

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use super::output::Failure;
use super::safe_write::{same_file, write_file, Force};
use super::searches::Fingerprint;
use crate::definition::ini::{self, Detail};
use crate::text::path as shown;
use crate::{errln, outln};

/// At most this many problems are shown over all the refused sections of one run; the
/// sections refused after are counted in the tallies, and named by the last lines.
const MAX_SHOWN_PROBLEMS: usize = 10 * ini::MAX_PROBLEMS;

/// The start of the first line of a file the import writes into `--out`.
pub const MARK: &str = "# arbiter import of the section [";

/// Imports `sections` of `file` (all of them when none are named).
pub fn import(
    file: &Path,
    sections: &[String],
    out: Option<PathBuf>,
    force: Force,
) -> Result<i32, Failure> {
    crate::paths::typed_file(file, "INI files of variants").map_err(Failure::Input)?;
    let text = ini::read_text(file).map_err(Failure::Input)?;
    let name = shown(file);
    let parsed = ini::reader::read(&text);
    if parsed.sections.is_empty() {
        return Err(Failure::Input(format!(
            "{name} has no section (`[name]` or `[name:parent]`): it is not a variants.ini"
        )));
    }
    for stray in &parsed.stray_lines {
        let (line, _) = parsed.lines.line_col(&text, stray.start);
        errln!("warning: {name}:{line}: a line before the first section is ignored, as Fairy-Stockfish ignores it");
    }
    for (again, first) in parsed.repeated() {
        let (line, _) = parsed.lines.line_col(&text, again.span.start);
        let (at, _) = parsed.lines.line_col(&text, first.span.start);
        errln!(
            "warning: {name}:{line}: the section [{}] is given again (first at line {at}); it is ignored, as Fairy-Stockfish ignores it (\"already exists\")",
            again.name
        );
    }
    if let Some(dir) = &out {
        make_folder(dir)?;
    }
    let wanted: Vec<String> = if sections.is_empty() {
        let mut seen = HashSet::new();
        parsed
            .sections
            .iter()
            .filter(|s| seen.insert(s.name.as_str()))
            .map(|s| s.name.clone())
            .collect()
    } else {
        sections.to_vec()
    };
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    let (mut ok, mut failed, mut kept) = (0usize, 0usize, 0usize);
    let (mut problems_shown, mut not_shown) = (0usize, 0usize);
    let mut written: Vec<PathBuf> = Vec::new();
    let mut first = true;
    for (at, section) in wanted.iter().enumerate() {
        let detail = if problems_shown < MAX_SHOWN_PROBLEMS {
            Detail::Full
        } else {
            Detail::Count
        };
        match ini::import_with(&name, &text, &parsed, section, detail) {
            Ok(imported) => {
                ok += 1;
                match &out {
                    None => {
                        if !first {
                            outln!()?;
                        }
                        first = false;
                        super::output::out(format_args!("{}", imported.text))?;
                    }
                    Some(dir) => {
                        let path = dir.join(format!("{}.def", imported.name));
                        match place(&path, file, &imported.name, &imported.text, force) {
                            Placed::Written => {
                                outln!("{}", shown(&path))?;
                                written.push(path);
                            }
                            Placed::Unchanged => {
                                outln!("{}", shown(&path))?;
                                written.push(path);
                            }
                            Placed::Kept(why) => {
                                kept += 1;
                                errln!("warning: {why}");
                            }
                            Placed::Failed(why) => {
                                return Err(Failure::Input(stopped(
                                    &why,
                                    &written,
                                    wanted.len() - at - 1,
                                )));
                            }
                        }
                    }
                }
            }
            Err(refusal) => {
                failed += 1;
                match detail {
                    Detail::Full => {
                        problems_shown += refusal.problems;
                        super::output::err(format_args!("{}\n", refusal.message.trim_end()));
                    }
                    Detail::Count => not_shown += 1,
                }
                for s in refusal.settings {
                    *refused.entry(s).or_default() += 1;
                }
            }
        }
    }
    if not_shown > 0 {
        errln!(
            "{not_shown} more sections are refused, their problems not shown (past the first {MAX_SHOWN_PROBLEMS}); name a section to see its own: `arbiter import {name} SECTION`"
        );
    }
    errln!("imported {ok} of {} sections of {name}", wanted.len());
    if kept > 0 {
        errln!(
            "{kept} of them not written: a file of that name was kept (give --force to replace it)"
        );
    }
    if failed > 1 {
        let mut counts: Vec<(String, usize)> = refused.into_iter().collect();
        counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        errln!("sections refused, by the setting that stops them:");
        for (s, n) in counts {
            errln!("  {n:4}  {s}");
        }
    }
    Ok(if failed > 0 || kept > 0 { 1 } else { 0 })
}

/// `--out`'s folder, made (with its parents) when missing.
fn make_folder(dir: &Path) -> Result<(), Failure> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(Failure::Input(format!(
            "--out {}: not a folder",
            shown(dir)
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(|e| {
                Failure::Input(format!("--out {}: cannot make the folder: {e}", shown(dir)))
            })
        }
        Err(e) => Err(Failure::Input(format!("--out {}: {e}", shown(dir)))),
    }
}

/// What became of one section's file.
enum Placed {
    Written,
    /// The file already holds this text.
    Unchanged,
    /// A file that is not the import's is left as it is: why.
    Kept(String),
    /// The file could not be written: why.
    Failed(String),
}

/// The text of a file for `--out`: the mark line with the digest of the definition, then it.
fn marked(section: &str, text: &str) -> String {
    format!(
        "{MARK}{section}] (digest {}): the next import replaces it unless it is edited\n{text}",
        digest(text)
    )
}

fn digest(text: &str) -> String {
    let mut print = Fingerprint::new();
    print.add(text);
    print.hex()
}

/// Whether `existing` is a file an import wrote and nobody changed since: its mark line's
/// digest is the digest of the rest.
fn untouched(existing: &str) -> bool {
    let Some((first, rest)) = existing.split_once('\n') else {
        return false;
    };
    first.starts_with(MARK)
        && first
            .split_once("(digest ")
            .and_then(|(_, d)| d.split_once(')'))
            .is_some_and(|(d, _)| d == digest(rest))
}

/// Writes `text` for `section` at `path`, unless what stands there is not the import's to
/// replace.
fn place(path: &Path, input: &Path, section: &str, text: &str, force: Force) -> Placed {
    let new = marked(section, text);
    let what = shown(path);
    if same_file(path, input) {
        return Placed::Kept(format!(
            "{what} is the INI file being imported: it is never written over"
        ));
    }
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            let kind = crate::files::not_regular(&m.file_type());
            return Placed::Kept(format!(
                "{what} is {kind}, not a regular file: it is left alone and [{section}] is not written"
            ));
        }
        Ok(_) => match crate::files::read_bounded(path) {
            Ok(bytes) if bytes == new.as_bytes() => return Placed::Unchanged,
            Ok(bytes) => {
                let ours = std::str::from_utf8(&bytes).is_ok_and(untouched);
                if !ours && !force.0 {
                    return Placed::Kept(format!(
                        "{what} was not written by `arbiter import` or was edited since: it is kept; give --force to replace it"
                    ));
                }
            }
            Err(e) if !force.0 => {
                return Placed::Kept(format!(
                    "{what} cannot be read ({e}), so the import cannot tell whether it wrote it: it is kept; give --force to replace it"
                ))
            }
            Err(_) => {}
        },
        Err(_) => {}
    }
    match write_file(path, new.as_bytes(), force) {
        Ok(()) => Placed::Written,
        Err(why) => Placed::Failed(why),
    }
}

/// The message of a write that failed: which files were written before it (or were already
/// as written), and how many sections were not reached.
fn stopped(why: &str, written: &[PathBuf], after: usize) -> String {
    let done = match written {
        [] => "no file was written before it".to_string(),
        [one] => format!("written before it: {}", shown(one)),
        [first, .., last] if written.len() > 10 => format!(
            "written before it: {} files, listed on standard output ({} to {})",
            written.len(),
            shown(first),
            shown(last)
        ),
        all => format!(
            "written before it: {}",
            all.iter().map(|p| shown(p)).collect::<Vec<_>>().join(", ")
        ),
    };
    let rest = match after {
        0 => String::new(),
        1 => "; the import stopped there, 1 more section was not written".to_string(),
        n => format!("; the import stopped there, {n} more sections were not written"),
    };
    format!("{why}; {done}{rest}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_file_is_the_imports_until_edited() {
        let text = "variant x\nfrom chess\n";
        let file = marked("x", text);
        assert!(file.starts_with(MARK));
        assert!(untouched(&file));
        assert!(!untouched(&file.replace("from chess", "from shogi")));
        assert!(!untouched(text));
        assert!(!untouched("# my own edits\n"));
    }

    #[test]
    fn a_stopped_import_names_what_it_wrote() {
        let some: Vec<PathBuf> = ["o/a.def", "o/b.def"].map(PathBuf::from).to_vec();
        let m = stopped("cannot write o/c.def: No space left", &some, 3);
        assert!(m.contains("written before it: o/a.def, o/b.def"), "{m}");
        assert!(m.contains("3 more sections were not written"), "{m}");
        assert!(stopped("x", &[], 0).ends_with("no file was written before it"));
        let many: Vec<PathBuf> = (0..12)
            .map(|i| PathBuf::from(format!("o/{i}.def")))
            .collect();
        assert!(stopped("x", &many, 0)
            .contains("12 files, listed on standard output (o/0.def to o/11.def)"));
    }
}
