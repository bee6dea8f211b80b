//! `arbiter fmt`: rewrites scenario files in their canonical layout
//! ([`crate::scenario::format`]), or with `--check` only says which files are not in it.
//!
//! Exit status: 0 when nothing is (or would be) changed or files were rewritten, 1 with
//! `--check` when some file is not formatted, 2 when some input cannot be used (a file that
//! does not parse is named with its line and column and left untouched; the other files are
//! still formatted).

use std::io::Read;
use std::path::PathBuf;

use super::output::{err, Failure};
use crate::scenario::coverage::scenario_files;
use crate::scenario::format::format;
use crate::scenario::report::Source;
use crate::{errln, outln};

/// The name standard input goes by in messages.
const STDIN: &str = "<stdin>";

/// Formats the files under `paths` (default `scenarios/`), or standard input to standard
/// output when a path is `-` or `stdin` is set.
pub fn fmt(paths: Vec<PathBuf>, check: bool, stdin: bool) -> Result<i32, Failure> {
    if stdin || paths.iter().any(|p| p.as_os_str() == "-") {
        if paths.iter().any(|p| p.as_os_str() != "-") {
            return Err(Failure::Input(
                "standard input (`-`, `--stdin`) is formatted on its own: name no files with it"
                    .into(),
            ));
        }
        return fmt_stdin(check);
    }
    let paths = if paths.is_empty() {
        vec![PathBuf::from("scenarios")]
    } else {
        paths
    };
    let mut unusable = false;
    let mut files = Vec::new();
    for p in &paths {
        match scenario_files(std::slice::from_ref(p)) {
            Ok(found) if found.is_empty() => {
                errln!("error: no scenario files (*.scn) under {}", p.display());
                unusable = true;
            }
            Ok(found) => files.extend(found),
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
        match format(&source.src) {
            Err(problems) => {
                for p in &problems {
                    err(format_args!("{}", source.render(p)));
                }
                unusable = true;
            }
            Ok(out) if out == source.src => {}
            Ok(out) => {
                if !check {
                    if let Err(e) = std::fs::write(f, out) {
                        errln!("error: cannot write {}: {e}", f.display());
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

/// Standard input to standard output; with `check`, only whether it is formatted.
fn fmt_stdin(check: bool) -> Result<i32, Failure> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Input(format!("cannot read standard input: {e}")))?;
    let src = String::from_utf8(bytes)
        .map_err(|_| Failure::Input("standard input is not UTF-8 text".into()))?;
    let source = Source::new(STDIN, src);
    match format(&source.src) {
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
