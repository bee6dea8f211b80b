//! `arbiter fmt` for definitions: the canonical layout, the one `variants/chess.def` is written
//! in.
//!
//! - top-level statements at column 0; the statements of a block indented two spaces more than
//!   the statement that opens it, and its `}` at that statement's column;
//! - single spaces between values, except that a run of `piece` lines (no blank line or
//!   comment between them) is laid out as a table: letter, name and move each padded to the
//!   widest in the run, then the flags (`royal`, `pawn`) padded likewise, then the clause;
//! - strings on one line, as they read (runs of whitespace are one space, so a string written
//!   over several lines means what its one-line form means), with `\"` and `\\` escaped;
//! - no trailing spaces, LF line ends, one final newline, at most one blank line in a row (kept
//!   between statements, none right after a `{` or before a `}`, none at the start);
//! - a comment alone on its line keeps its place, indented as the statement it comes before; a
//!   comment at the end of a line stays at the end of that line, at its column when the line
//!   leaves room (so aligned comments stay aligned), else one space after it.
//!
//! Formatting never changes what a text means: [`format()`] reads its own output again and
//! returns an internal error rather than a layout whose syntax tree differs from the input's.

use super::parse::parse_tree;
use super::syntax::{quote, Comment, File, Statement};
use crate::scenario::diagnostic::Problem;

/// How far a block's statements are indented past their statement.
const INDENT: usize = 2;

/// The text in canonical layout, or the syntax errors that keep it from being read.
pub fn format(src: &str) -> Result<String, Vec<Problem>> {
    let file = parse_tree(src)?;
    let mut w = Writer {
        src,
        comments: &file.comments,
        next: 0,
        out: String::with_capacity(src.len()),
        pos: 0,
        block_start: false,
    };
    w.statements(&file.statements, 0, src.len());
    while w.out.ends_with("\n\n") {
        w.out.pop();
    }
    if w.out.is_empty() {
        return Ok(String::new());
    }
    if !w.out.ends_with('\n') {
        w.out.push('\n');
    }
    // The layout moves only whitespace and comments; check that, so that a mistake here can
    // never change a definition.
    match parse_tree(&w.out) {
        Ok(again) if same_tree(&file, &again) => Ok(w.out),
        _ => Err(vec![Problem::new(
            "internal error: formatting would change the definition; it is left as it is",
            0..0,
            "here",
        )]),
    }
}

/// Whether two trees say the same, spans aside.
fn same_tree(a: &File, b: &File) -> bool {
    fn same(a: &[Statement], b: &[Statement]) -> bool {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                x.head.text == y.head.text
                    && x.values.len() == y.values.len()
                    && x.values
                        .iter()
                        .zip(&y.values)
                        .all(|(u, v)| u.text == v.text && u.quoted == v.quoted)
                    && match (&x.block, &y.block) {
                        (None, None) => true,
                        (Some(p), Some(q)) => same(&p.statements, &q.statements),
                        _ => false,
                    }
            })
    }
    same(&a.statements, &b.statements)
        && a.comments.len() == b.comments.len()
        && a.comments
            .iter()
            .zip(&b.comments)
            .all(|(x, y)| x.text == y.text)
}

struct Writer<'a> {
    src: &'a str,
    comments: &'a [Comment],
    /// The next comment to write.
    next: usize,
    out: String,
    /// Where in `src` the last thing written ends.
    pos: usize,
    /// Nothing was written since a `{` line: no blank line goes here.
    block_start: bool,
}

impl Writer<'_> {
    /// Writes statements at `indent`, and the comments up to `end` (a block's `}`).
    fn statements(&mut self, statements: &[Statement], indent: usize, end: usize) {
        let mut k = 0;
        while k < statements.len() {
            // A run of `piece` lines is laid out as one table.
            let mut run = 1;
            if statements[k].head.text == "piece" {
                while k + run < statements.len()
                    && statements[k + run].head.text == "piece"
                    && statements[k + run].block.is_none()
                    && self.adjacent(&statements[k + run - 1], &statements[k + run])
                {
                    run += 1;
                }
            }
            let widths = table_widths(&statements[k..k + run]);
            for stmt in &statements[k..k + run] {
                self.statement(stmt, indent, &widths);
            }
            k += run;
        }
        self.own_line_comments(end, indent);
    }

    /// Whether `b` follows `a` on the next line, with no blank line or comment between.
    fn adjacent(&self, a: &Statement, b: &Statement) -> bool {
        let gap = &self.src[a.span.end..b.span.start];
        line_breaks(gap) <= 1 && !gap.contains('#')
    }

    /// Writes the comments alone on their lines that stand before `end`, at `indent`.
    fn own_line_comments(&mut self, end: usize, indent: usize) {
        while let Some(c) = self.comments.get(self.next) {
            if c.span.start >= end {
                break;
            }
            self.next += 1;
            self.blank_line_before(c.span.start);
            self.line_start(indent);
            self.out.push_str(&c.text);
            self.out.push('\n');
            self.pos = c.span.end;
        }
    }

    /// One blank line when the source has one between the last thing written and `start`, and
    /// something was written on this level before.
    fn blank_line_before(&mut self, start: usize) {
        let gap = &self.src[self.pos.min(start)..start];
        let opened = self.block_start || self.out.is_empty() || self.out.ends_with("\n\n");
        if line_breaks(gap) >= 2 && !opened {
            self.out.push('\n');
        }
        self.block_start = false;
    }

    fn line_start(&mut self, indent: usize) {
        self.out.extend(std::iter::repeat_n(' ', indent));
    }

    fn statement(&mut self, stmt: &Statement, indent: usize, widths: &Widths) {
        self.own_line_comments(stmt.span.start, indent);
        self.blank_line_before(stmt.span.start);
        let line_start = self.out.len();
        self.line_start(indent);
        self.out.push_str(&stmt.head.text);
        let values: Vec<String> = stmt
            .values
            .iter()
            .map(|v| {
                if v.quoted {
                    quote(&v.text)
                } else {
                    v.text.clone()
                }
            })
            .collect();
        if widths.columns.is_empty() {
            for v in &values {
                self.out.push(' ');
                self.out.push_str(v);
            }
        } else {
            let (fixed, flags, rest) = split_piece(stmt);
            for (k, v) in values[..fixed].iter().enumerate() {
                self.out.push(' ');
                self.out.push_str(v);
                pad(
                    &mut self.out,
                    v,
                    widths.columns.get(k).copied().unwrap_or(0),
                );
            }
            let flag_text = values[fixed..fixed + flags].join(" ");
            if widths.flags > 0 {
                self.out.push(' ');
                self.out.push_str(&flag_text);
                pad(&mut self.out, &flag_text, widths.flags);
            }
            for v in &values[fixed + flags..fixed + flags + rest] {
                self.out.push(' ');
                self.out.push_str(v);
            }
            // A short line in a table ends in padding.
            let trimmed = self.out.trim_end_matches(' ').len();
            self.out.truncate(trimmed);
        }
        match &stmt.block {
            None => {
                self.pos = stmt.span.end;
                self.trailing_comment(line_start);
                self.out.push('\n');
            }
            Some(block) => {
                self.out.push_str(" {");
                self.pos = block.span.start + 1;
                self.trailing_comment(line_start);
                self.out.push('\n');
                self.block_start = true;
                let close = block.span.end - 1;
                self.statements(&block.statements, indent + INDENT, close);
                self.block_start = false;
                self.line_start(indent);
                self.out.push('}');
                self.pos = block.span.end;
                let close_start = self.out.len() - indent - 1;
                self.trailing_comment(close_start);
                self.out.push('\n');
            }
        }
    }

    /// The comment on the same source line right after `self.pos`, if any, at the end of the
    /// line being written (which starts at `line_start` in the output).
    fn trailing_comment(&mut self, line_start: usize) {
        let Some(c) = self.comments.get(self.next) else {
            return;
        };
        let gap = &self.src[self.pos.min(c.span.start)..c.span.start];
        if gap.contains(['\n', '\r']) || c.span.start < self.pos {
            return;
        }
        self.next += 1;
        let src_line_start = self.src[..c.span.start]
            .rfind(['\n', '\r'])
            .map_or(0, |i| i + 1);
        let column = self.src[src_line_start..c.span.start]
            .trim_start_matches('\u{FEFF}')
            .chars()
            .count();
        let written = self.out[line_start..].chars().count();
        if column > written {
            self.out.extend(std::iter::repeat_n(' ', column - written));
        } else {
            self.out.push(' ');
        }
        self.out.push_str(&c.text);
        self.pos = c.span.end;
    }
}

/// Column widths of a run of `piece` lines: the first three values, then the flags. Empty
/// for a run of one line, which needs no padding.
#[derive(Default)]
struct Widths {
    columns: Vec<usize>,
    flags: usize,
}

fn table_widths(run: &[Statement]) -> Widths {
    if run.len() < 2 {
        return Widths::default();
    }
    let mut w = Widths {
        columns: vec![0; 3],
        flags: 0,
    };
    for stmt in run {
        let (fixed, flags, _) = split_piece(stmt);
        for (k, v) in stmt.values[..fixed].iter().enumerate() {
            let len = if v.quoted {
                quote(&v.text).chars().count()
            } else {
                v.text.chars().count()
            };
            w.columns[k] = w.columns[k].max(len);
        }
        let flag_len: usize = stmt.values[fixed..fixed + flags]
            .iter()
            .map(|v| v.text.chars().count() + 1)
            .sum::<usize>()
            .saturating_sub(1);
        w.flags = w.flags.max(flag_len);
    }
    w
}

/// A `piece` line's values as the table sees them: how many of the first three are bare
/// words, how many bare words (flags) follow them, and how many values follow those.
fn split_piece(stmt: &Statement) -> (usize, usize, usize) {
    let fixed = stmt.values.iter().take(3).take_while(|v| !v.quoted).count();
    let flags = if fixed == 3 {
        stmt.values[3..].iter().take_while(|v| !v.quoted).count()
    } else {
        0
    };
    (fixed, flags, stmt.values.len() - fixed - flags)
}

fn pad(out: &mut String, written: &str, width: usize) {
    let len = written.chars().count();
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(len)));
}

/// The number of line ends in a text (`\r\n` is one).
fn line_breaks(text: &str) -> usize {
    text.matches('\n').count() + text.matches('\r').count() - text.matches("\r\n").count()
}
