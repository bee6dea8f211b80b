//! `arbiter import FILE.ini [SECTION...]`: writes the definition each section of a
//! Fairy-Stockfish `variants.ini` maps to ([`crate::definition::ini`]), to standard output or,
//! with `--out DIR`, one `SECTION.def` per section, each written safely (a temporary file
//! beside it, renamed over it; never over the INI file itself).
//!
//! Exit status: 0 when every section named (or every section of the file) imports, 1 when
//! some are refused (each with its reasons, on standard error, and a count of the settings
//! that stop them), 2 when the file cannot be used.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::output::Failure;
use super::safe_write::{refuse_overwriting_input, write_file, Force};
use crate::definition::ini;
use crate::{errln, outln};

/// Imports `sections` of `file` (all of them when none are named).
pub fn import(file: &Path, sections: &[String], out: Option<PathBuf>) -> Result<i32, Failure> {
    let text = ini::read_text(file).map_err(Failure::Input)?;
    let name = crate::text::path(file);
    let parsed = ini::reader::read(&text);
    if parsed.sections.is_empty() {
        return Err(Failure::Input(format!(
            "{name} has no section (`[name]` or `[name:parent]`): it is not a variants.ini"
        )));
    }
    for stray in &parsed.stray_lines {
        let (line, _) = crate::scenario::diagnostic::line_col(&text, stray.start);
        errln!("warning: {name}:{line}: a line before the first section is ignored, as Fairy-Stockfish ignores it");
    }
    if let Some(dir) = &out {
        if !dir.is_dir() {
            return Err(Failure::Input(format!(
                "--out {}: not a folder",
                crate::text::path(dir)
            )));
        }
    }
    let wanted: Vec<String> = if sections.is_empty() {
        let mut seen = Vec::new();
        for s in &parsed.sections {
            if !seen.contains(&s.name) {
                seen.push(s.name.clone());
            }
        }
        seen
    } else {
        sections.to_vec()
    };
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    let (mut ok, mut failed) = (0usize, 0usize);
    let mut first = true;
    for section in &wanted {
        match ini::import(&name, &text, &parsed, section) {
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
                        refuse_overwriting_input(&path, [file], Force(false))
                            .map_err(Failure::Input)?;
                        write_file(&path, imported.text.as_bytes(), Force(false))
                            .map_err(Failure::Input)?;
                        outln!("{}", crate::text::path(&path))?;
                    }
                }
            }
            Err(refusal) => {
                failed += 1;
                super::output::err(format_args!("{}\n", refusal.message.trim_end()));
                for s in refusal.settings {
                    *refused.entry(s).or_default() += 1;
                }
            }
        }
    }
    errln!("imported {ok} of {} sections of {name}", wanted.len());
    if failed > 1 {
        let mut counts: Vec<(String, usize)> = refused.into_iter().collect();
        counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        errln!("sections refused, by the setting that stops them:");
        for (s, n) in counts {
            errln!("  {n:4}  {s}");
        }
    }
    Ok(if failed > 0 { 1 } else { 0 })
}
