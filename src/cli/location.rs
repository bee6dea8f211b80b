//! Places in scenario files as the command line names them: `file.scn` or `file.scn:14`, and
//! `--option name=value` pins.

use std::path::{Path, PathBuf};

use crate::scenario::ast::{File, Scenario, Statement};
use crate::scenario::report::Source;

/// A file, or a line of it: `scenarios/cypher/retake.scn:14`. A path that exists as written
/// is a file even if it ends in `:14`.
pub fn split(arg: &Path) -> (PathBuf, Option<usize>) {
    let text = arg.to_string_lossy();
    if arg.exists() {
        return (arg.to_path_buf(), None);
    }
    match text.rsplit_once(':') {
        // A line number too large for any file stays part of the path, which then names no
        // file: an error, not the whole file.
        Some((file, line)) if !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()) => {
            match line.parse() {
                Ok(n) => (PathBuf::from(file), Some(n)),
                Err(_) => (arg.to_path_buf(), None),
            }
        }
        _ => (arg.to_path_buf(), None),
    }
}

/// The scenario of `file` that holds line `line` of `source`, and the statement on that
/// line, if one starts there.
pub fn at_line<'f>(
    file: &'f File,
    source: &Source,
    line: usize,
) -> Result<(usize, &'f Scenario, Option<&'f Statement>), String> {
    let line_of = |offset: usize| source.line_col(offset).0;
    for (i, scenario) in file.scenarios.iter().enumerate() {
        let first = line_of(scenario.span.start);
        let last = line_of(scenario.span.end.saturating_sub(1));
        if (first..=last).contains(&line) {
            let statement = scenario.statements.iter().find(|s| {
                (line_of(s.span.start)..=line_of(s.span.end.saturating_sub(1))).contains(&line)
            });
            return Ok((i, scenario, statement));
        }
    }
    // The scenarios on either side of the line.
    let before = file
        .scenarios
        .iter()
        .rposition(|s| line_of(s.span.start) < line);
    let after = file
        .scenarios
        .iter()
        .position(|s| line_of(s.span.start) > line);
    let spans: Vec<String> = [before, after]
        .into_iter()
        .flatten()
        .map(|i| &file.scenarios[i])
        .map(|s| {
            format!(
                "  lines {}-{}: \"{}\"",
                line_of(s.span.start),
                line_of(s.span.end.saturating_sub(1)),
                s.title.node
            )
        })
        .collect();
    Err(if spans.is_empty() {
        format!("{} has no scenarios", source.shown_path())
    } else {
        format!(
            "line {line} of {} is in no scenario; the nearest:\n{}",
            source.shown_path(),
            spans.join("\n")
        )
    })
}

/// `name=value` as `--option` takes it.
pub fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() && !value.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!(
            "`{text}` is not an option setting; write name=value, e.g. stalemate=loss"
        )),
    }
}
