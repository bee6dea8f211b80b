//! Problems with scenario input, rendered with miette as plain text that points at the source.

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, NamedSource,
    ThemeCharacters, ThemeStyles,
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

/// Renders a problem as `error: ...` with the file, line and column, the source line and a
/// caret under the place. Plain text, no colour, so snapshots and logs stay readable.
pub fn render(problem: &Problem, name: &str, src: &str) -> String {
    let (line, col) = line_col(src, problem.span.start);
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
