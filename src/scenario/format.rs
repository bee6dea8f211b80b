//! `arbiter fmt`: the canonical layout of a scenario file.
//!
//! The layout is the one the bundled scenarios are written in:
//!
//! - the `variant` line and file-level `option` lines at column 0, then a blank line;
//! - `scenario "<title>" {` at column 0, one statement per line indented two spaces, `}` at
//!   column 0, and a blank line between scenarios;
//! - `board {` blocks with one `white:` / `black:` line each, indented four spaces, and their
//!   `}` at two;
//! - single spaces between tokens (so `=` has one space on each side), no trailing spaces,
//!   LF line ends, one final newline, at most one blank line in a row (blank lines are kept
//!   between statements, none right after a `{` or before a `}`);
//! - `play` statements and `expect moves = { ... }` lists filled to [`WIDTH`] columns, their
//!   continuation lines indented four more spaces; a move number (`12.`, `12...`) stays where
//!   it was written, on the line of the turn it numbers.
//!
//! Comments are not in the syntax tree (the grammar skips them), so they are recovered from
//! the gaps between the tokens of the parse tree: a comment alone on its line keeps its place
//! among the statements, indented as the statement it comes before; a comment at the end of a
//! line stays at the end of the line of the token it follows, at its column when the line
//! leaves room and holds what its source line held (so aligned comments stay aligned; after a
//! line split up, one space), and ends that line. Turns and strings are
//! written exactly as they were: they are single tokens, and their text is part of the syntax
//! tree.
//!
//! Formatting never changes what a file means: [`format`] parses its own output again and
//! returns an internal error rather than a layout whose syntax tree differs from the input's.

use pest::iterators::Pair;
use pest::Parser;

use super::diagnostic::Problem;
use super::parse::{parse_file, parse_in_pieces, Piece, Rule, ScenarioParser};

/// The column `play` lines and `moves` lists are filled to.
pub const WIDTH: usize = 100;

/// How far the statements of a scenario are indented.
const STATEMENT: usize = 2;
/// How far the sides of a `board` block are indented.
const BOARD_SIDE: usize = 4;
/// How much further a continuation line is indented than the line it continues.
const CONTINUATION: usize = 4;

/// The file in canonical layout, or the problems that keep it from parsing.
///
/// The file is parsed and laid out piece by piece ([`parse_in_pieces`]), so that memory stays
/// a small multiple of the file's size; a file that does not parse in pieces is parsed whole,
/// for its problems.
pub fn format(src: &str) -> Result<String, Vec<Problem>> {
    let mut w = Writer::new(src);
    let mut header_done = false;
    let mut before = Meaning::default();
    let pieces = parse_in_pieces(src, |offset, pair, built| {
        before.add(&built);
        w.base = offset;
        w.items(pair, &mut header_done);
    });
    if pieces.is_none() {
        return format_whole(src);
    }
    w.base = 0;
    w.gap(src.len(), 0);
    w.flush();
    let out = w.out;
    // The layout moves only whitespace and comments; check that, so that a mistake here can
    // never rewrite a file into one that means something else.
    let mut after = Meaning::default();
    match parse_in_pieces(&out, |_, _, built| after.add(&built)) {
        Some(()) if after == before => Ok(out),
        _ => Err(vec![internal(
            "the formatted file would not mean what the file means; it is left as it is",
        )]),
    }
}

/// [`format`] on the parse tree of the whole file.
fn format_whole(src: &str) -> Result<String, Vec<Problem>> {
    let before = parse_file(src)?;
    let file = ScenarioParser::parse(Rule::file, src)
        .map_err(|_| vec![internal("the file parsed once but not twice")])?
        .next()
        .ok_or_else(|| vec![internal("empty parse")])?;
    let mut w = Writer::new(src);
    w.items(file, &mut false);
    w.gap(src.len(), 0);
    w.flush();
    let out = w.out;
    match parse_file(&out) {
        Ok(after)
            if without_spans(&format!("{after:?}")) == without_spans(&format!("{before:?}")) =>
        {
            Ok(out)
        }
        _ => Err(vec![internal(
            "the formatted file would not mean what the file means; it is left as it is",
        )]),
    }
}

/// What a file means, as a digest of its syntax tree without positions: the header and each
/// scenario in turn, however the file is cut into pieces. Two independent 64-bit hashes, so that
/// two different trees agree by chance with odds of about 2^-128.
#[derive(Default, PartialEq, Eq)]
struct Meaning {
    hashes: [u64; 2],
    parts: usize,
}

impl Meaning {
    fn add(&mut self, piece: &Piece) {
        match piece {
            Piece::Header(file) => self.part(&format!("{file:?}")),
            Piece::Scenarios(scenarios) => {
                for s in scenarios {
                    self.part(&format!("{s:?}"));
                }
            }
        }
    }

    fn part(&mut self, debug: &str) {
        use std::hash::{Hash, Hasher};
        let text = without_spans(debug);
        for (seed, h) in self.hashes.iter_mut().enumerate() {
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            (seed, *h, &text).hash(&mut hasher);
            *h = hasher.finish();
        }
        self.parts += 1;
    }
}

fn internal(message: &str) -> Problem {
    Problem::new(format!("internal error in fmt: {message}"), 0..0, "here")
}

/// The `Debug` text of a syntax tree with every `span: a..b` taken out, so that two trees
/// that differ only in where their nodes stand compare equal.
pub fn without_spans(debug: &str) -> String {
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug;
    while let Some(i) = rest.find("span: ") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "span: ".len()..];
        let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        let a = digits(after);
        match after[a..].strip_prefix("..") {
            Some(tail) if a > 0 && digits(tail) > 0 => rest = &tail[digits(tail)..],
            _ => {
                out.push_str("span: ");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Where a token goes.
#[derive(Clone, Copy)]
enum Place {
    /// On a new line at this indent; comments just before it are indented by `comments`.
    Line {
        indent: usize,
        comments: usize,
        blank: bool,
    },
    /// After the previous token on its line.
    Same,
    /// Right after the previous token, with no space: the `:` of `white:`.
    Glue,
    /// After the previous token, or on a continuation line when this many more columns
    /// (the token and what must stay with it) would pass [`WIDTH`].
    Fill(usize),
}

struct Writer<'a> {
    src: &'a str,
    out: String,
    /// The line being written, indent included; `None` between lines.
    line: Option<String>,
    /// The source offset up to which everything has been written.
    pos: usize,
    /// The indent of continuation lines of the statement being written.
    continuation: usize,
    /// The last line opened a block: no blank line follows it.
    block_start: bool,
    /// The next line comes after a blank one, whatever the source has.
    force_blank: bool,
    /// The source offset of what the current line starts with.
    line_start: usize,
    /// Where in `src` the piece being laid out starts: its parse tree counts from there.
    base: usize,
}

impl<'a> Writer<'a> {
    fn new(src: &'a str) -> Writer<'a> {
        Writer {
            src,
            out: String::with_capacity(src.len() + 64),
            line: None,
            pos: 0,
            continuation: CONTINUATION,
            block_start: false,
            force_blank: false,
            line_start: 0,
            base: 0,
        }
    }

    /// The items of a parse tree of the file, its header or scenarios.
    fn items(&mut self, tree: Pair<'a, Rule>, header_done: &mut bool) {
        for pair in tree.into_inner() {
            match pair.as_rule() {
                Rule::file_start => self.pos = self.base + pair.as_span().end(),
                Rule::variant_line | Rule::option_setting => self.statement(pair, 0, false),
                Rule::scenario => {
                    if !*header_done {
                        *header_done = true;
                        self.force_blank = true;
                    }
                    self.scenario(pair);
                }
                _ => {}
            }
        }
    }

    /// `scenario "<title>" {`, its statements, `}`.
    fn scenario(&mut self, pair: Pair<'a, Rule>) {
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::kw_scenario => {
                    self.continuation = CONTINUATION;
                    self.token(&part, line(0, 0, true));
                }
                Rule::string => self.token(&part, Place::Same),
                Rule::lbrace => {
                    self.token(&part, Place::Same);
                    self.block_start = true;
                }
                Rule::statement => {
                    for stmt in part.into_inner() {
                        if stmt.as_rule() == Rule::board_stmt {
                            self.board(stmt);
                        } else {
                            let fill = stmt.as_rule() == Rule::play_stmt
                                || stmt.clone().into_inner().any(|a| {
                                    a.into_inner().any(|a| a.as_rule() == Rule::moves_list)
                                });
                            self.statement(stmt, STATEMENT, fill);
                        }
                    }
                }
                Rule::rbrace => {
                    self.token(&part, line(0, STATEMENT, false));
                    self.force_blank = true;
                }
                _ => {}
            }
        }
    }

    /// `board {`, a line for each side, `}`.
    fn board(&mut self, pair: Pair<'a, Rule>) {
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::kw_board => {
                    self.continuation = STATEMENT + CONTINUATION;
                    self.token(&part, line(STATEMENT, STATEMENT, true));
                }
                Rule::lbrace => {
                    self.token(&part, Place::Same);
                    self.block_start = true;
                }
                Rule::board_side => self.statement(part, BOARD_SIDE, false),
                Rule::rbrace => self.token(&part, line(STATEMENT, BOARD_SIDE, false)),
                _ => {}
            }
        }
    }

    /// A statement on a line of its own at `indent`, its tokens one space apart; filled to
    /// [`WIDTH`] when `fill`.
    fn statement(&mut self, pair: Pair<'a, Rule>, indent: usize, fill: bool) {
        let mut tokens = Vec::new();
        leaves(pair, &mut tokens);
        self.continuation = indent + CONTINUATION;
        let mut i = 0;
        while i < tokens.len() {
            let place = if i == 0 {
                line(indent, indent, true)
            } else if tokens[i].as_rule() == Rule::colon {
                Place::Glue
            } else if fill {
                // A move number goes with the turn it numbers.
                let mut group = width(tokens[i].as_str());
                let mut j = i;
                while tokens[j].as_rule() == Rule::move_number && j + 1 < tokens.len() {
                    j += 1;
                    group += 1 + width(tokens[j].as_str());
                }
                Place::Fill(group)
            } else {
                Place::Same
            };
            self.token(&tokens[i], place);
            i += 1;
        }
    }

    /// Writes the comments before `token`, then the token itself.
    fn token(&mut self, token: &Pair<'a, Rule>, place: Place) {
        let span = token.as_span();
        let (start, end) = (self.base + span.start(), self.base + span.end());
        let comments = match place {
            Place::Line { comments, .. } => comments,
            _ => self.continuation,
        };
        self.gap(start, comments);
        let text = token.as_str();
        match place {
            Place::Line { indent, blank, .. } => {
                let blank = blank && self.blank_before(start);
                self.start_line(indent, blank);
                self.line_start = start;
                self.push(text);
            }
            Place::Same | Place::Glue | Place::Fill(_) => {
                let room = match place {
                    Place::Fill(w) => self
                        .line
                        .as_ref()
                        .is_none_or(|l| l.trim_start().is_empty() || width(l) + 1 + w <= WIDTH),
                    _ => true,
                };
                match &mut self.line {
                    Some(l) if room => {
                        if !matches!(place, Place::Glue) {
                            l.push(' ');
                        }
                        l.push_str(text);
                    }
                    _ => {
                        // A comment ended the line, or it is full: continue on the next.
                        self.start_line(self.continuation, false);
                        self.line_start = start;
                        self.push(text);
                    }
                }
            }
        }
        self.pos = end;
    }

    /// Writes the comments between the last thing written and `end`.
    fn gap(&mut self, end: usize, indent: usize) {
        while let Some((start, stop)) = next_comment(self.src, self.pos, end) {
            let text = self.src[start..stop].trim_end();
            let breaks = line_breaks(&self.src[self.pos..start]);
            match &mut self.line {
                Some(l) if breaks == 0 => {
                    // At the end of its line: at its column if the line leaves room for it and
                    // holds what its source line held (a line split up keeps one space, or a
                    // one-line scenario would pad its closing `}` out to the comment's column).
                    let before = self.src[..start].rsplit(['\n', '\r']).next().unwrap_or("");
                    let content = start - before.len() + (before.len() - before.trim_start().len());
                    let column = if content == self.line_start {
                        before.chars().count()
                    } else {
                        0
                    };
                    let pad = column.saturating_sub(width(l)).max(1);
                    l.push_str(&" ".repeat(pad));
                    l.push_str(text);
                    self.flush();
                }
                _ => {
                    let blank = breaks >= 2;
                    self.start_line(indent, blank);
                    self.push(text);
                    self.flush();
                }
            }
            self.pos = stop;
        }
    }

    /// Whether the source has a blank line between the last thing written and `start`.
    fn blank_before(&self, start: usize) -> bool {
        line_breaks(&self.src[self.pos..start]) >= 2
    }

    /// Ends the current line and starts one at `indent`, after a blank line when the source
    /// has one there (and a blank line may stand there) or one is due.
    fn start_line(&mut self, indent: usize, blank: bool) {
        self.flush();
        if !self.out.is_empty() && (self.force_blank || (blank && !self.block_start)) {
            self.out.push('\n');
        }
        self.force_blank = false;
        self.block_start = false;
        self.line = Some(" ".repeat(indent));
    }

    fn push(&mut self, text: &str) {
        if let Some(l) = &mut self.line {
            l.push_str(text);
        }
    }

    fn flush(&mut self) {
        if let Some(l) = self.line.take() {
            self.out.push_str(l.trim_end());
            self.out.push('\n');
        }
    }
}

fn line(indent: usize, comments: usize, blank: bool) -> Place {
    Place::Line {
        indent,
        comments,
        blank,
    }
}

/// The tokens of a statement: the leaves of its parse tree, a turn, a placement, a string or a
/// design taken whole (what is inside them is written as it was).
fn leaves<'a>(pair: Pair<'a, Rule>, out: &mut Vec<Pair<'a, Rule>>) {
    let whole = matches!(
        pair.as_rule(),
        Rule::turn
            | Rule::placement
            | Rule::string
            | Rule::design
            | Rule::board_size
            | Rule::lone_square
            | Rule::move_number
    );
    if whole || pair.clone().into_inner().next().is_none() {
        out.push(pair);
    } else {
        for inner in pair.into_inner() {
            leaves(inner, out);
        }
    }
}

/// The next comment between `from` and `to` (only whitespace and comments lie there).
fn next_comment(src: &str, from: usize, to: usize) -> Option<(usize, usize)> {
    let start = from + src[from..to].find('#')?;
    let stop = start + src[start..to].find(['\n', '\r']).unwrap_or(to - start);
    Some((start, stop))
}

/// How many line ends a stretch of whitespace holds (`\n`, `\r\n` or a lone `\r`).
fn line_breaks(text: &str) -> usize {
    text.matches('\n').count() + text.matches('\r').count() - text.matches("\r\n").count()
}

fn width(text: &str) -> usize {
    text.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_taken_out() {
        assert_eq!(
            without_spans("A { span: 3..14, b: Spanned { node: 1, span: 0..2 } }"),
            "A { , b: Spanned { node: 1,  } }"
        );
    }

    #[test]
    fn a_comment_after_a_line_split_up_keeps_one_space() {
        let src = "variant chess\nscenario \"s\" { board { white: Ke1 black: Ke8 } expect moves count 5 } # c\n";
        let out = format(src).unwrap();
        assert!(out.ends_with("  expect moves count 5\n} # c\n"), "{out}");
        // Aligned comments on lines that stay whole stay aligned.
        let src = "variant chess\n\nscenario \"s\" {\n  start      # one\n  expect moves count 20 # two\n  expect check       # three\n}\n";
        let out = format(src).unwrap();
        assert!(out.contains("  start      # one\n"), "{out}");
        assert!(out.contains("  expect check       # three\n"), "{out}");
    }

    #[test]
    fn a_messy_file_is_laid_out() {
        let src = "# top\r\nvariant   chess\noption a=b   # pin\n# before\nscenario \"t\"{ rule x\n\n\n  start # here\n  board { white: Ke1\n # kings\n black: Ke8 }\n expect e4=empty\n  # last\n\n}\n# end";
        let want = "# top\nvariant chess\noption a = b # pin\n\n# before\nscenario \"t\" {\n  rule x\n\n  start # here\n  board {\n    white: Ke1\n    # kings\n    black: Ke8\n  }\n  expect e4 = empty\n  # last\n}\n\n# end\n";
        assert_eq!(format(src).unwrap(), want);
        assert_eq!(format(want).unwrap(), want);
    }
}
