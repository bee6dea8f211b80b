//! Problems with scenario input, rendered with miette as plain text that points at the source.

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, MietteError,
    MietteSpanContents, SourceCode, SourceSpan, SpanContents, ThemeCharacters, ThemeStyles,
};

use super::ast::Span;
use crate::text::{escape, escape_lines};

/// One thing wrong with the input: a message, where, a label at that place, maybe a hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub message: String,
    pub span: Span,
    pub label: String,
    pub help: Option<String>,
}

impl Problem {
    pub fn new(message: impl Into<String>, span: Span, label: impl Into<String>) -> Problem {
        Problem {
            message: message.into(),
            span,
            label: label.into(),
            help: None,
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Problem {
        self.help = Some(help.into());
        self
    }
}

/// Why the string opening at `open` (its `"`) does not read: an unknown escape, or no closing
/// quote (before the end of its line when `one_line`, before the end of the text otherwise);
/// `None` when it reads. Scenario strings end on their line; a definition's clauses may run on.
pub fn string_problem(src: &str, open: usize, one_line: bool) -> Option<Problem> {
    let end = if one_line {
        src[open..].find('\n').map_or(src.len(), |i| open + i)
    } else {
        src.len()
    };
    let mut chars = src[open + 1..end].char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return None,
            '\\' => match chars.next() {
                Some((_, '"' | '\\')) => {}
                Some((j, e)) => {
                    return Some(
                        Problem::new(
                            format!("unknown escape `\\{e}` in a string"),
                            open + 1 + i..open + 1 + j + e.len_utf8(),
                            "unknown escape",
                        )
                        .with_help("a string knows two escapes: `\\\"` and `\\\\`"),
                    );
                }
                None => break,
            },
            _ => {}
        }
    }
    Some(if one_line {
        Problem::new(
            "unterminated string: expected a closing `\"` on the same line",
            open..open + 1,
            "this string is not closed",
        )
        .with_help("strings are double-quoted and end on the line they start on")
    } else {
        Problem::new(
            "this string is never closed",
            open..open + 1,
            "the string starts here",
        )
        .with_help("end it with `\"`; a quote inside a string is written `\\\"`")
    })
}

/// 1-based line and column of a byte offset (columns count characters). Scans the text before
/// the offset: for many lookups in one file, build a [`LineIndex`] once.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    LineIndex::new(src).line_col(src, offset)
}

/// Where each line of a text starts, so that line and column lookups cost a binary search and
/// the length of one line, not a scan of everything before them.
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(src: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// 1-based line and column of a byte offset in `src`, the text this index was built from.
    pub fn line_col(&self, src: &str, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(src, offset.min(src.len()));
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        let before = &src[start..offset];
        // A byte-order mark is no column.
        let before = match start {
            0 => before.strip_prefix(BOM).unwrap_or(before),
            _ => before,
        };
        (line, before.chars().count() + 1)
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Source lines longer than this many characters are shown cut to this many around the place,
/// with `…` where they are cut: an error on a megabyte-long line shows a line, not a megabyte.
pub const MAX_SHOWN_CHARS: usize = 100;

/// A span over more lines than this is shown by its first line.
pub const MAX_SPAN_LINES: usize = 20;

/// On a cut line, how many characters are shown before the place.
const SHOWN_BEFORE: usize = 40;

/// The UTF-8 byte-order mark a file may start with: not shown, and no column.
const BOM: char = '\u{FEFF}';

/// Renders a problem as `error: ...` with the file, line and column, the source line and a
/// caret under the place. Plain text, no colour, so snapshots and logs stay readable.
///
/// Only the lines around the place are handed to miette, never a copy of the whole text; the
/// line number costs a count of the newlines before the place. To render many problems of one
/// file, use [`render_with`] and the file's [`LineIndex`] (or a [`Renderer`]).
pub fn render(problem: &Problem, name: &str, src: &str) -> String {
    let start = floor_char_boundary(src, problem.span.start.min(src.len()));
    render_on_line(
        problem,
        name,
        src,
        count_newlines(&src.as_bytes()[..start]) + 1,
    )
}

/// Words longer than this many characters in a message are cut: a message that quotes a
/// megabyte-long name from the input stays a few lines long.
const MAX_WORD_CHARS: usize = 60;

/// The message with every word longer than [`MAX_WORD_CHARS`] cut to 40 characters and `…`,
/// keeping the punctuation that closes it (a closing backtick, a `;`).
fn shorten_words(message: &str) -> String {
    if !message
        .split_whitespace()
        .any(|w| w.chars().nth(MAX_WORD_CHARS).is_some())
    {
        return message.to_string();
    }
    let mut out = String::with_capacity(message.len().min(4096));
    let mut rest = message;
    while !rest.is_empty() {
        let space = rest.len() - rest.trim_start().len();
        out.push_str(&rest[..space]);
        rest = &rest[space..];
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..len];
        rest = &rest[len..];
        if word.chars().nth(MAX_WORD_CHARS).is_none() {
            out.push_str(word);
            continue;
        }
        let head: String = word.chars().take(40).collect();
        let tail_start = word.rfind(char::is_alphanumeric).map_or(word.len(), |i| {
            i + word[i..].chars().next().map_or(0, char::len_utf8)
        });
        let tail: String = word[tail_start..].chars().take(3).collect();
        out.push_str(&head);
        out.push('…');
        out.push_str(&tail);
    }
    out
}

/// The number of `\n` bytes. Counted in blocks of 255 into a byte-sized counter, which the
/// compiler turns into wide vector compares: several bytes per cycle, not one.
fn count_newlines(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|block| {
            block
                .iter()
                .fold(0u8, |n, &b| n.wrapping_add(u8::from(b == b'\n'))) as usize
        })
        .sum()
}

/// [`render`] with the line looked up in `lines`, the [`LineIndex`] of `src`: the cost is that
/// of the lines shown, however long the file.
pub fn render_with(problem: &Problem, name: &str, src: &str, lines: &LineIndex) -> String {
    // Looked up by the start of its line, so that the index does not count the columns of a
    // long line once more for every problem on it.
    let start = floor_char_boundary(src, problem.span.start.min(src.len()));
    let line_start = src[..start].rfind('\n').map_or(0, |i| i + 1);
    let (line, _) = lines.line_col(src, line_start);
    render_on_line(problem, name, src, line)
}

/// Renders the problems of one file, each in time proportional to the lines it shows.
pub struct Renderer<'a> {
    name: &'a str,
    src: &'a str,
    index: LineIndex,
}

impl<'a> Renderer<'a> {
    pub fn new(name: &'a str, src: &'a str) -> Renderer<'a> {
        Renderer {
            name,
            src,
            index: LineIndex::new(src),
        }
    }

    /// The same text as [`render`].
    pub fn render(&self, problem: &Problem) -> String {
        render_with(problem, self.name, self.src, &self.index)
    }
}

/// Renders a problem whose start is on the 1-based line `line` of `src`.
fn render_on_line(problem: &Problem, name: &str, src: &str, line: usize) -> String {
    let start = floor_char_boundary(src, problem.span.start.min(src.len()));
    let mut end = floor_char_boundary(src, problem.span.end.min(src.len())).max(start);
    // miette shows every line of a span: one over thousands of lines (a long `board` or
    // `play` statement) is pointed at by its first line alone.
    let spanned = &src[start..end];
    if spanned.match_indices('\n').nth(MAX_SPAN_LINES).is_some() {
        end = start + spanned.find('\n').unwrap_or(spanned.len());
    }
    // Everything miette is given is escaped first: it may colour what it prints.
    let name = &*escape(name);
    let excerpt = Excerpt::new(name, src, start..end, line);
    let col = excerpt.column + 1;
    let shown = |text: &str| escape_lines(&shorten_words(text)).into_owned();
    let mut diag = MietteDiagnostic::new(shown(&problem.message)).with_label(
        LabeledSpan::new_with_span(Some(shown(&problem.label)), excerpt.label),
    );
    if let Some(h) = &problem.help {
        diag = diag.with_help(shown(h));
    }
    let report = miette::Report::new(diag).with_source_code(excerpt);
    let handler = GraphicalReportHandler::new_themed(theme())
        .with_width(100)
        .with_context_lines(1);
    let mut out = String::new();
    if handler.render_report(&mut out, report.as_ref()).is_err() {
        out = format!(
            "error: {} at {name}:{line}:{col}\n",
            shown(&problem.message)
        );
    }
    trimmed(&out)
}

/// The rendered text without trailing spaces: miette pads lines with them in places, and
/// snapshots should not depend on them.
fn trimmed(out: &str) -> String {
    let mut cleaned: String = out
        .lines()
        .map(|l| l.trim_end())
        .collect::<Vec<_>>()
        .join("\n");
    cleaned.push('\n');
    cleaned
}

/// The lines of a file around a problem, as miette is given them: long lines cut around the
/// place, the byte-order mark left out, and line numbers and the column those of the file.
#[derive(Debug)]
struct Excerpt {
    name: String,
    text: String,
    /// The 0-based line number of the excerpt's first line in the file.
    first_line: usize,
    /// The problem's span in `text`.
    label: SourceSpan,
    /// The 0-based column of the problem in the file, in characters.
    column: usize,
}

/// How one line of the file appears in an excerpt.
struct ShownLine {
    /// Where the line starts in the file, and where its content (before `\r\n` or `\n`) ends.
    start: usize,
    content_end: usize,
    /// Where the line starts in the excerpt.
    shown_start: usize,
    /// The part of the content shown, as byte offsets in the content, and the `…` before it.
    window: std::ops::Range<usize>,
    /// The length of the window as shown, its control characters escaped.
    shown_len: usize,
    prefix: &'static str,
}

impl ShownLine {
    /// Where an offset of the file in this line lands in the excerpt; offsets in a part that
    /// was cut land at the edge of what is shown.
    fn map(&self, src: &str, offset: usize) -> usize {
        let rel = offset - self.start;
        let content_len = self.content_end - self.start;
        if rel > content_len {
            // In the line ending, which is kept as it is.
            let shown_len = self.prefix.len() + self.shown_len + self.suffix_len(content_len);
            return self.shown_start + shown_len + (rel - content_len);
        }
        let inside = rel.clamp(self.window.start, self.window.end);
        let before = &src[self.start + self.window.start..self.start + inside];
        self.shown_start + self.prefix.len() + escape_lines(before).len()
    }

    fn suffix_len(&self, content_len: usize) -> usize {
        if self.window.end < content_len {
            '…'.len_utf8()
        } else {
            0
        }
    }
}

impl Excerpt {
    /// The lines from the one before `span` to two after it, `line` (1-based) being the line
    /// of `span.start`.
    fn new(name: &str, src: &str, span: std::ops::Range<usize>, line: usize) -> Excerpt {
        let line_start = src[..span.start].rfind('\n').map_or(0, |i| i + 1);
        let (from, first_line) = if line_start == 0 {
            (0, line - 1)
        } else {
            let before = src[..line_start - 1].rfind('\n').map_or(0, |i| i + 1);
            (before, line.saturating_sub(2))
        };
        // miette shows one line after the span's last line; two more are harmless.
        let mut to = span.end;
        for _ in 0..3 {
            match src[to..].find('\n') {
                Some(i) => to += i + 1,
                None => {
                    to = src.len();
                    break;
                }
            }
        }
        let mut before = &src[line_start..span.start];
        if line_start == 0 {
            before = before.strip_prefix(BOM).unwrap_or(before);
        }
        if src[span.start..].starts_with('\n') {
            // The `\r` of a `\r\n` belongs to the line ending, as for miette.
            before = before.strip_suffix('\r').unwrap_or(before);
        }
        let column = if before.is_ascii() {
            before.len()
        } else {
            before.chars().count()
        };

        let mut text = String::new();
        let mut shown = Vec::new();
        let mut start = from;
        for raw in src[from..to].split_inclusive('\n') {
            let content = raw.trim_end_matches('\n').trim_end_matches('\r');
            let ending = &raw[content.len()..];
            let skip = if start == 0 && content.starts_with(BOM) {
                BOM.len_utf8()
            } else {
                0
            };
            let focus = (start..=start + content.len())
                .contains(&span.start)
                .then(|| span.start - start);
            let (window, prefix, suffix) = cut(content, skip, focus);
            let shown_window = escape_lines(&content[window.clone()]);
            let line = ShownLine {
                start,
                content_end: start + content.len(),
                shown_start: text.len(),
                window,
                shown_len: shown_window.len(),
                prefix,
            };
            text.push_str(prefix);
            text.push_str(&shown_window);
            text.push_str(suffix);
            text.push_str(ending);
            shown.push(line);
            start += raw.len();
        }
        let map = |offset: usize| {
            shown
                .iter()
                .rev()
                .find(|l| l.start <= offset)
                .map_or(0, |l| l.map(src, offset))
        };
        let (a, b) = (map(span.start), map(span.end));
        Excerpt {
            name: name.to_string(),
            text,
            first_line,
            label: (a, b.max(a) - a).into(),
            column,
        }
    }
}

/// The part of a line's content to show: at most [`MAX_SHOWN_CHARS`] characters, around
/// `focus` (a byte offset in the content) when it is given, from `skip` on; with the `…` to
/// put before and after it. The work is that of the characters shown, not of the whole line:
/// a long line with many problems on it is walked only near each.
fn cut(
    content: &str,
    skip: usize,
    focus: Option<usize>,
) -> (std::ops::Range<usize>, &'static str, &'static str) {
    let shown = &content[skip..];
    if shown.char_indices().nth(MAX_SHOWN_CHARS).is_none() {
        return (skip..content.len(), "", "");
    }
    let focus = focus.map_or(skip, |f| f.clamp(skip, content.len()));
    // Back from the place, then forward from there; near the end of the line, back from it.
    let mut first = chars_back(content, focus, SHOWN_BEFORE).max(skip);
    let last = chars_forward(content, first, MAX_SHOWN_CHARS);
    if last == content.len() {
        first = chars_back(content, last, MAX_SHOWN_CHARS).max(skip);
    }
    let prefix = if first > skip { "…" } else { "" };
    let suffix = if last < content.len() { "…" } else { "" };
    (first..last, prefix, suffix)
}

/// The byte offset `n` characters before `at` in `text` (or its start).
fn chars_back(text: &str, at: usize, n: usize) -> usize {
    match n.checked_sub(1) {
        Some(k) => text[..at].char_indices().rev().nth(k).map_or(0, |(i, _)| i),
        None => at,
    }
}

/// The byte offset `n` characters after `at` in `text` (or its end).
fn chars_forward(text: &str, at: usize, n: usize) -> usize {
    text[at..]
        .char_indices()
        .nth(n)
        .map_or(text.len(), |(i, _)| at + i)
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        // The place's own column is the file's, in characters; miette would count bytes of
        // the excerpt.
        let column = if span.offset() == self.label.offset() && context_lines_before == 0 {
            self.column
        } else {
            inner.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            self.first_line + inner.line(),
            column,
            inner.line_count(),
        )))
    }
}

/// Whether diagnostics are rendered in colour (the command line sets it for a terminal).
static COLOUR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Renders diagnostics in colour from now on (or not).
pub fn set_colour(on: bool) {
    COLOUR.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// miette's plain unicode frame, with carets under the place and `error:` before the message.
fn theme() -> GraphicalTheme {
    let characters = ThemeCharacters {
        underbar: '^',
        underline: '^',
        error: "error:".to_string(),
        ..ThemeCharacters::unicode()
    };
    GraphicalTheme {
        characters,
        styles: if COLOUR.load(std::sync::atomic::Ordering::Relaxed) {
            ThemeStyles::ansi()
        } else {
            ThemeStyles::none()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use miette::NamedSource;
    use proptest::prelude::*;

    /// The rendering before excerpts: miette given the whole text.
    fn render_whole(problem: &Problem, name: &str, src: &str) -> String {
        let start = floor_char_boundary(src, problem.span.start.min(src.len()));
        let end = floor_char_boundary(src, problem.span.end.min(src.len())).max(start);
        let mut diag = MietteDiagnostic::new(problem.message.clone())
            .with_label(LabeledSpan::at(start..end, problem.label.clone()));
        if let Some(h) = &problem.help {
            diag = diag.with_help(h.clone());
        }
        let report =
            miette::Report::new(diag).with_source_code(NamedSource::new(name, src.to_string()));
        let handler = GraphicalReportHandler::new_themed(theme())
            .with_width(100)
            .with_context_lines(1);
        let mut out = String::new();
        handler.render_report(&mut out, report.as_ref()).unwrap();
        trimmed(&out)
    }

    fn problem(span: Span) -> Problem {
        Problem::new("something is wrong", span, "here").with_help("a hint")
    }

    proptest! {
        /// Lines of ordinary length render exactly as miette renders the whole text.
        #[test]
        fn ordinary_lines_render_as_before(
            lines in prop::collection::vec("[a-z #{}=-]{0,90}", 1..12),
            crlf in any::<bool>(),
            trailing in any::<bool>(),
            a in 0usize..2000,
            len in 0usize..300,
        ) {
            let newline = if crlf { "\r\n" } else { "\n" };
            let mut src = lines.join(newline);
            if trailing {
                src.push_str(newline);
            }
            let start = a % (src.len() + 1);
            let end = (start + len).min(src.len());
            let p = problem(start..end);
            prop_assert_eq!(render(&p, "f.scn", &src), render_whole(&p, "f.scn", &src));
            prop_assert_eq!(Renderer::new("f.scn", &src).render(&p), render(&p, "f.scn", &src));
        }
    }

    proptest! {
        /// On a long line, what is shown is at most 100 characters and the caret stands under
        /// the character the problem starts at.
        #[test]
        fn long_lines_are_cut_around_the_caret(
            line in "[a-zé♞ ]{101,400}",
            at in 0usize..400,
        ) {
            let src = format!("before\n{line}\nafter\n");
            let chars: Vec<(usize, char)> = line.char_indices().collect();
            let (offset, c) = chars[at % chars.len()];
            prop_assume!(c != ' ');
            let start = "before\n".len() + offset;
            let out = render(&problem(start..start + c.len_utf8()), "f", &src);
            let shown = out.lines().find(|l| l.starts_with(" 2 │ ")).expect("the line");
            let text: String = shown.chars().skip(" 2 │ ".chars().count()).collect();
            prop_assert!(text.chars().count() <= MAX_SHOWN_CHARS + 2, "{}", out);
            let caret = out.lines().find(|l| l.contains('^')).expect("a caret");
            let col = caret.chars().position(|c| c == '^').expect("a caret");
            prop_assert_eq!(shown.chars().nth(col), Some(c), "{}", out);
            let header = format!("[f:2:{}]", at % chars.len() + 1);
            prop_assert!(out.contains(&header), "{}", out);
        }
    }

    #[test]
    fn a_long_line_is_cut_around_the_place() {
        let mut src = String::from("variant chess\nscenario \"t\" {\n  play ");
        src.push_str(&"e2-e4 ".repeat(200_000));
        let at = src.len();
        src.push_str("Kx ");
        src.push_str(&"e7-e5 ".repeat(200_000));
        src.push_str("\n}\n");
        let out = render(&problem(at..at + 2), "long.scn", &src);
        assert!(out.len() < 2_000, "{} bytes:\n{out}", out.len());
        let col = at - src[..at].rfind('\n').unwrap();
        assert!(out.contains(&format!("[long.scn:3:{col}]")), "{out}");
        let shown = out
            .lines()
            .find(|l| l.starts_with(" 3 │"))
            .expect("the line is shown");
        assert!(
            shown.starts_with(" 3 │ …") && shown.ends_with('…'),
            "{shown}"
        );
        assert_eq!(
            shown.chars().count(),
            " 3 │ ".chars().count() + 2 + MAX_SHOWN_CHARS
        );
        // The caret stands under `Kx`.
        let caret = out
            .lines()
            .find(|l| l.contains("^^"))
            .expect("a caret line");
        let caret_col = caret.chars().position(|c| c == '^').unwrap();
        let k_col = shown.chars().position(|c| c == 'K').unwrap();
        assert_eq!(caret_col, k_col, "\n{shown}\n{caret}");
        // The line before and after are ordinary and shown as they are.
        assert!(out.contains(" 2 │ scenario \"t\" {"), "{out}");
        assert!(out.contains(" 4 │ }"), "{out}");
    }

    #[test]
    fn long_lines_near_their_ends_and_as_context() {
        // A place near the start of a long line: nothing is cut before it.
        let src = format!("{}\n{}\n", "a".repeat(500), "b".repeat(500));
        let out = render(&problem(3..4), "f", &src);
        assert!(out.contains(" 1 │ aaa") && out.contains("a…\n"), "{out}");
        assert!(out.contains("[f:1:4]"), "{out}");
        // Near its end: nothing is cut after it. The next line, context, is cut after 100.
        let out = render(&problem(498..500), "f", &src);
        assert!(out.contains(" 1 │ …aaa") && out.contains("a\n"), "{out}");
        assert!(
            out.contains(&format!(" 2 │ {}…\n", "b".repeat(MAX_SHOWN_CHARS))),
            "{out}"
        );
        assert!(out.contains("[f:1:499]"), "{out}");
        // A span running past what is shown ends where the line is cut.
        let out = render(&problem(10..1000), "f", &src);
        assert!(out.len() < 2_000, "{out}");
    }

    #[test]
    fn columns_count_characters_and_skip_the_byte_order_mark() {
        let src = "\u{FEFF}variant chess\nscenario \"é♞\" { strat }\n";
        let at = src.find("strat").unwrap();
        let out = render(&problem(at..at + 5), "f", src);
        assert!(out.contains("[f:2:17]"), "{out}");
        let at = src.find("variant").unwrap();
        let out = render(&problem(at..at + 7), "f", src);
        assert!(out.contains("[f:1:1]"), "{out}");
        assert!(out.contains(" 1 │ variant chess"), "{out}");
        assert!(!out.contains('\u{FEFF}'), "{out}");
    }

    #[test]
    fn spans_outside_the_text_do_not_panic() {
        for src in ["", "x", "é", "a\n", "\u{FEFF}", "a\r\nb"] {
            for span in [0..0, 0..1, 1..1, 1..2, 5..9, Span { start: 2, end: 1 }] {
                let out = render(&problem(span), "f", src);
                assert!(out.contains("something is wrong"), "{out}");
            }
        }
    }

    #[test]
    fn a_span_over_many_lines_is_shown_by_its_first() {
        let src = format!("board {{\n{}}}\n", "  white: Ke1\n".repeat(100_000));
        let out = render(&problem(0..src.len() - 1), "f", &src);
        assert!(out.lines().count() < 12, "{out}");
        assert!(
            out.contains("[f:1:1]") && out.contains(" 1 │ board {"),
            "{out}"
        );
        // A few lines are shown whole, as miette does.
        let src = "board {\n  white: Ke1\n}\n";
        let p = problem(0..src.len() - 1);
        assert_eq!(render(&p, "f", src), render_whole(&p, "f", src));
    }

    #[test]
    fn many_problems_on_one_long_line_render() {
        // 10,000 problems on one 90 kB line: each is cut from near its place, and only the
        // fast scans for the line's ends and the column's characters cover the whole line.
        let src = format!("  rule {}\n", "zz123456 ".repeat(10_000));
        let renderer = Renderer::new("f", &src);
        for (i, _) in src.match_indices("zz") {
            let out = renderer.render(&problem(i..i + 8));
            assert!(out.len() < 1_000, "{out}");
        }
    }

    #[test]
    fn long_words_in_messages_are_cut() {
        let name = "a".repeat(1_000_000);
        let p = Problem::new(
            format!("unknown rule id `{name}`; did you mean `x`?"),
            0..1,
            "here",
        );
        let out = render(&p, "f", "rule x\n");
        assert!(out.len() < 1_000, "{out}");
        assert!(
            out.contains(&format!("unknown rule id `{}…`;", "a".repeat(39))),
            "{out}"
        );
        assert!(out.contains("did you mean `x`?"), "{out}");
        assert_eq!(shorten_words("short words stay"), "short words stay");
    }

    #[test]
    fn newlines_are_counted_in_blocks() {
        for n in [0, 1, 254, 255, 256, 1000] {
            let text = "a\n".repeat(n) + &"\n".repeat(n);
            assert_eq!(count_newlines(text.as_bytes()), 2 * n);
        }
    }

    #[test]
    fn many_problems_of_one_file_render() {
        let src = "  expect e4 = white pawn\n".repeat(50_000);
        let renderer = Renderer::new("f", &src);
        let mut total = 0;
        for (i, _) in src.match_indices("e4") {
            total += renderer.render(&problem(i..i + 2)).len();
        }
        assert!(total > 0);
    }

    #[test]
    fn a_byte_order_mark_is_no_column() {
        let src = "\u{FEFF}variant chess\nscenario";
        let index = LineIndex::new(src);
        assert_eq!(index.line_col(src, 3), (1, 1));
        assert_eq!(index.line_col(src, 4), (1, 2));
        assert_eq!(index.line_col(src, src.len()), (2, 9));
    }
}
