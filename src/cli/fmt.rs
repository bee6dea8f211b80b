//! `arbiter fmt`: rewrites scenario files in their canonical layout
//! ([`crate::scenario::format`]) and definition files (`*.def`, named or found in the folders
//! named) in theirs ([`crate::definition::fmt`]), or with `--check` only says which files are
//! not in it. Standard input is a definition with `--def`, or when its text reads as one
//! ([`looks_like_definition`]); otherwise a scenario file.
//!
//! Exit status: 0 when nothing is (or would be) changed or files were rewritten, 1 with
//! `--check` when some file is not formatted, 2 when some input cannot be used (a file that
//! does not parse is named with its line and column and left untouched; the other files are
//! still formatted).
//!
//! A file is replaced whole through [`super::safe_write`] (a temporary file renamed over it),
//! so that a full disk or a kill never leaves it half-written, and never with a text larger
//! than arbiter reads back.

use std::io::Read;
use std::path::PathBuf;

use super::output::{err, Failure};
use super::safe_write::{write_file, Force};
use crate::files::{files_with, MAX_FILE_BYTES};
use crate::scenario::format::format;
use crate::scenario::report::Source;
use crate::{errln, outln};

/// The name standard input goes by in messages.
const STDIN: &str = "<stdin>";

/// Formats the files under `paths` (default `scenarios/`), or standard input to standard
/// output when a path is `-` or `stdin` is set.
pub fn fmt(
    paths: Vec<PathBuf>,
    check: bool,
    stdin: bool,
    def: bool,
    force: Force,
) -> Result<i32, Failure> {
    if stdin || paths.iter().any(|p| p.as_os_str() == "-") {
        if paths.iter().any(|p| p.as_os_str() != "-") {
            return Err(Failure::Input(
                "standard input (`-`, `--stdin`) is formatted on its own: name no files with it"
                    .into(),
            ));
        }
        return fmt_stdin(check, def);
    }
    if def {
        return Err(Failure::Input(
            "--def says what standard input is (`arbiter fmt --def -`); a file named is a \
             definition by its `.def`"
                .into(),
        ));
    }
    let paths = if paths.is_empty() {
        vec![PathBuf::from("scenarios")]
    } else {
        paths
    };
    let mut unusable = false;
    let mut files = Vec::new();
    for p in &paths {
        // Folders are searched for scenarios and definitions alike.
        if is_definition(p) && p.is_file() {
            files.push(p.clone());
            continue;
        }
        match files_with(std::slice::from_ref(p), &["scn", "def"]) {
            Ok(found) => {
                for note in &found.skipped {
                    errln!("note: {note}");
                }
                if found.files.is_empty() {
                    errln!(
                        "error: no scenario or definition files (*.scn, *.def) under {}",
                        p.display()
                    );
                    unusable = true;
                }
                files.extend(found.files);
            }
            Err(e) => {
                errln!("error: {e}");
                unusable = true;
            }
        }
    }
    files.sort();
    files.dedup();
    let mut changed = false;
    for f in &files {
        let source = match Source::read(f) {
            (source, None) => source,
            (source, Some(problem)) => {
                err(format_args!("{}", source.render(&problem)));
                unusable = true;
                continue;
            }
        };
        let formatted = if is_definition(f) {
            crate::definition::fmt::format(&source.src)
        } else {
            format(&source.src)
        };
        match formatted {
            Err(problems) => {
                for p in &problems {
                    err(format_args!("{}", source.render(p)));
                }
                unusable = true;
            }
            Ok(out) if out == source.src => {}
            Ok(out) if out.len() as u64 > MAX_FILE_BYTES => {
                errln!(
                    "error: {} formatted would be {} bytes, more than the {} MiB arbiter reads; \
                     it is left as it was",
                    f.display(),
                    out.len(),
                    MAX_FILE_BYTES >> 20
                );
                unusable = true;
            }
            Ok(out) => {
                if !check {
                    if let Err(e) = write_file(f, out.as_bytes(), force) {
                        errln!("error: {e}");
                        unusable = true;
                        continue;
                    }
                }
                changed = true;
                outln!("{}", f.display())?;
            }
        }
    }
    Ok(if unusable {
        2
    } else if check && changed {
        1
    } else {
        0
    })
}

/// Whether a path names a definition rather than a scenario file.
fn is_definition(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| e == "def")
}

/// Whether a text is a definition rather than a scenario file: no `scenario` block, and a
/// statement at the start of a line that only a definition has (`from`, `piece`, `board`, a
/// component...). Both kinds start with `variant`, and a scenario file's other top-level
/// statement, `option`, is a definition's too, so a text with neither sign is a scenario file.
pub fn looks_like_definition(src: &str) -> bool {
    use crate::definition::resolve::{COMPONENTS, STATEMENTS};
    let mut definition = false;
    for line in src.lines() {
        // Top-level statements start at the left margin in both layouts.
        let Some(word) = line.split(|c: char| c.is_whitespace() || c == '{').next() else {
            continue;
        };
        if word == "scenario" {
            return false;
        }
        if word != "variant"
            && word != "option"
            && (STATEMENTS.contains(&word) || COMPONENTS.contains(&word))
        {
            definition = true;
        }
    }
    definition
}

/// Standard input to standard output; with `check`, only whether it is formatted. A
/// definition when `def` says so or its text reads as one.
fn fmt_stdin(check: bool, def: bool) -> Result<i32, Failure> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Input(format!("cannot read standard input: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Failure::Input(format!(
            "standard input is larger than {} MiB, more than arbiter reads",
            MAX_FILE_BYTES >> 20
        )));
    }
    let src = String::from_utf8(bytes)
        .map_err(|_| Failure::Input("standard input is not UTF-8 text".into()))?;
    let source = Source::new(STDIN, src);
    let formatted = if def || looks_like_definition(&source.src) {
        crate::definition::fmt::format(&source.src)
    } else {
        format(&source.src)
    };
    match formatted {
        Err(problems) => {
            let rendered: Vec<String> = problems.iter().map(|p| source.render(p)).collect();
            Err(Failure::Rendered(rendered.concat()))
        }
        Ok(out) if check => {
            if out == source.src {
                Ok(0)
            } else {
                outln!("{STDIN}")?;
                Ok(1)
            }
        }
        Ok(out) => {
            super::output::out(format_args!("{out}"))?;
            Ok(0)
        }
    }
}
