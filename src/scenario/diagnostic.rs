//! Problems with scenario input, rendered with miette as plain text that points at the source.

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, MietteError,
    MietteSpanContents, SourceCode, SourceSpan, SpanContents, ThemeCharacters, ThemeStyles,
};

use super::ast::Span;

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
        (line, src[start..offset].chars().count() + 1)
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
    let (line, _) = lines.line_col(src, problem.span.start);
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
    let end = floor_char_boundary(src, problem.span.end.min(src.len())).max(start);
    let excerpt = Excerpt::new(name, src, start..end, line);
    let col = excerpt.column + 1;
    let mut diag = MietteDiagnostic::new(problem.message.clone()).with_label(
        LabeledSpan::new_with_span(Some(problem.label.clone()), excerpt.label),
    );
    if let Some(h) = &problem.help {
        diag = diag.with_help(h.clone());
    }
    let report = miette::Report::new(diag).with_source_code(excerpt);
    let handler = GraphicalReportHandler::new_themed(theme())
        .with_width(100)
        .with_context_lines(1);
    let mut out = String::new();
    if handler.render_report(&mut out, report.as_ref()).is_err() {
        out = format!("error: {} at {name}:{line}:{col}\n", problem.message);
    }
    // miette pads lines with trailing spaces in places; snapshots should not depend on them.
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
    prefix: &'static str,
}

impl ShownLine {
    /// Where an offset of the file in this line lands in the excerpt; offsets in a part that
    /// was cut land at the edge of what is shown.
    fn map(&self, offset: usize) -> usize {
        let rel = offset - self.start;
        let content_len = self.content_end - self.start;
        if rel > content_len {
            // In the line ending, which is kept as it is.
            let shown_len = self.prefix.len() + self.window.len() + self.suffix_len(content_len);
            return self.shown_start + shown_len + (rel - content_len);
        }
        let inside = rel.clamp(self.window.start, self.window.end) - self.window.start;
        self.shown_start + self.prefix.len() + inside
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
        let column = before.chars().count();

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
            let line = ShownLine {
                start,
                content_end: start + content.len(),
                shown_start: text.len(),
                window: window.clone(),
                prefix,
            };
            text.push_str(prefix);
            text.push_str(&content[window]);
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
                .map_or(0, |l| l.map(offset))
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
/// put before and after it.
fn cut(
    content: &str,
    skip: usize,
    focus: Option<usize>,
) -> (std::ops::Range<usize>, &'static str, &'static str) {
    let shown = &content[skip..];
    let n = shown.chars().count();
    if n <= MAX_SHOWN_CHARS {
        return (skip..content.len(), "", "");
    }
    let focus_char = focus.map_or(0, |f| content[skip..f.max(skip)].chars().count());
    let first = focus_char
        .saturating_sub(SHOWN_BEFORE)
        .min(n - MAX_SHOWN_CHARS);
    let last = first + MAX_SHOWN_CHARS;
    let byte = |c: usize| shown.char_indices().nth(c).map_or(shown.len(), |(i, _)| i) + skip;
    let prefix = if first > 0 { "…" } else { "" };
    let suffix = if last < n { "…" } else { "" };
    (byte(first)..byte(last), prefix, suffix)
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
        styles: ThemeStyles::none(),
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
        let mut cleaned: String = out
            .lines()
            .map(|l| l.trim_end())
            .collect::<Vec<_>>()
            .join("\n");
        cleaned.push('\n');
        cleaned
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
    fn newlines_are_counted_in_blocks() {
        for n in [0, 1, 254, 255, 256, 1000] {
            let text = "a\n".repeat(n) + &"\n".repeat(n);
            assert_eq!(count_newlines(text.as_bytes()), 2 * n);
        }
    }

    #[test]
    fn many_problems_of_one_file_render_in_linear_time() {
        let src = "  expect e4 = white pawn\n".repeat(50_000);
        let renderer = Renderer::new("f", &src);
        let t = std::time::Instant::now();
        let mut total = 0;
        for (i, _) in src.match_indices("e4") {
            total += renderer.render(&problem(i..i + 2)).len();
        }
        assert!(total > 0);
        assert!(t.elapsed().as_secs() < 10, "{:?}", t.elapsed());
    }
}
