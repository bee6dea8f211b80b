//! Colour on a terminal: the marks of `check` (`ok`, `FAIL`, `PEND`, `ERROR`), its summary
//! line, the verdict of `explain`, and the diagnostics on standard error. Plain when the output
//! is not a terminal or `NO_COLOR` is set (<https://no-color.org>), unless `--color always`;
//! the library itself never colours, so snapshots and JSON stay plain.
//!
//! Each function escapes the control characters of its text ([`crate::text::escape_lines`])
//! before it adds its own: what it returns is written as it is.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::ValueEnum;

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum When {
    /// On a terminal, unless `NO_COLOR` is set.
    #[default]
    Auto,
    Always,
    Never,
}

static STDOUT: AtomicBool = AtomicBool::new(false);

/// Decides for standard output and standard error, once, at start.
pub fn setup(when: When) {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let decide = |terminal: bool| match when {
        When::Always => true,
        When::Never => false,
        When::Auto => terminal && !no_color,
    };
    STDOUT.store(decide(std::io::stdout().is_terminal()), Ordering::Relaxed);
    crate::scenario::diagnostic::set_colour(decide(std::io::stderr().is_terminal()));
}

/// No colour on standard output from now on: its report goes to a file.
pub fn plain() {
    STDOUT.store(false, Ordering::Relaxed);
}

fn on() -> bool {
    STDOUT.load(Ordering::Relaxed)
}

const GREEN: &str = "\x1b[32m";
const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[33m";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

fn paint(code: &str, text: &str) -> String {
    format!("{code}{text}{RESET}")
}

/// A line of `check`'s report, its mark or label coloured.
pub fn report_line(line: &str) -> String {
    let line = &*crate::text::escape_lines(line);
    if !on() {
        return line.to_string();
    }
    for (mark, code) in [
        ("ok   ", GREEN),
        ("FAIL ", RED),
        ("PEND ", YELLOW),
        ("ERROR", RED),
    ] {
        if let Some(rest) = line.strip_prefix(mark) {
            return format!("{}{rest}", paint(code, mark));
        }
    }
    for label in ["expected:", "found:", "readings:"] {
        if let Some(i) = line.find(label) {
            if line[..i].trim().is_empty() {
                let (indent, rest) = line.split_at(i);
                let rest = &rest[label.len()..];
                return format!("{indent}{}{rest}", paint(DIM, label));
            }
        }
    }
    line.to_string()
}

/// A whole report, line by line.
pub fn report(text: &str) -> String {
    if !on() {
        return crate::text::escape_lines(text).into_owned();
    }
    text.lines().map(report_line).collect::<Vec<_>>().join("\n")
}

/// The summary line: `N passed` green, `M failed` red when there are failures.
pub fn summary(line: &str) -> String {
    let line = &*crate::text::escape_lines(line);
    if !on() {
        return line.to_string();
    }
    line.split(", ")
        .map(|part| {
            if part.ends_with(" passed") {
                paint(GREEN, part)
            } else if part.ends_with(" failed") && !part.starts_with("0 ") {
                paint(RED, part)
            } else if part.ends_with(" pending") || part.ends_with(" skipped") {
                paint(YELLOW, part)
            } else {
                part.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `legal` green, `illegal` red, in `explain`'s verdict line.
pub fn verdict(line: &str) -> String {
    let line = &*crate::text::escape_lines(line);
    if !on() {
        return line.to_string();
    }
    for (word, code) in [
        (": illegal", RED),
        (": legal", GREEN),
        (": ambiguous", YELLOW),
    ] {
        if let Some(i) = line.find(word) {
            let (head, tail) = line.split_at(i + 2);
            let w = &word[2..];
            return format!("{head}{}{}", paint(code, w), &tail[w.len()..]);
        }
    }
    line.to_string()
}
