//! Documents as the editor holds them, and positions in them: the library speaks byte offsets,
//! LSP speaks lines and UTF-16 code units. Every conversion clamps: a position past the end of
//! a line is its end, a line past the end of the text is the end of the text, and a position
//! inside a character (between the halves of a surrogate pair) is the start of that character.

use lsp_types::{Position, Range};

use crate::scenario::ast::Span;

/// Where each line of a text starts, for conversions in time proportional to one line.
#[derive(Clone, Debug)]
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    /// The line starts of `text`; a line ends at `\n` (a `\r` before it is part of the line's
    /// text, as clients count it).
    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { starts }
    }

    /// The LSP position of a byte offset (clamped to the text, rounded down to a character).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = floor_char(text, offset.min(text.len()));
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let column = text[start..offset].encode_utf16().count();
        Position::new(
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(column).unwrap_or(u32::MAX),
        )
    }

    /// The byte offset of an LSP position, clamped as the module says.
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(text.len(), |&next| next - 1);
        let line = &text[start..end];
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut units = 0u32;
        for (i, c) in line.char_indices() {
            let next = units + c.len_utf16() as u32;
            if next > position.character {
                return start + i;
            }
            units = next;
        }
        start + line.len()
    }

    /// The LSP range of a byte span.
    pub fn range(&self, text: &str, span: &Span) -> Range {
        Range::new(
            self.position(text, span.start),
            self.position(text, span.end.max(span.start)),
        )
    }

    /// The byte span of an LSP range (its ends in order).
    pub fn span(&self, text: &str, range: Range) -> Span {
        let a = self.offset(text, range.start);
        let b = self.offset(text, range.end);
        a.min(b)..a.max(b)
    }

    /// The byte span of line `line` (without its line break), if the text has it.
    pub fn line_span(&self, text: &str, line: usize) -> Option<Span> {
        let start = *self.starts.get(line)?;
        let end = self.starts.get(line + 1).map_or(text.len(), |&n| n - 1);
        Some(start..end)
    }
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// What kind of file a document is, by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A scenario file (`.scn`), and anything not named `.def`.
    Scenario,
    /// A variant definition (`.def`).
    Definition,
}

impl Kind {
    /// The kind of the document at `uri`.
    pub fn of(uri: &str) -> Kind {
        if uri.ends_with(".def") {
            Kind::Definition
        } else {
            Kind::Scenario
        }
    }
}

/// The local path a `file:` URI names (percent-escapes decoded), for reading a definition
/// beside a scenario; `None` for any other scheme or a path that is not UTF-8.
pub fn file_path(uri: &str) -> Option<std::path::PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file:///c%3A/x` on Windows: the drive letter follows the third slash.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    let path = String::from_utf8(out).ok()?;
    #[cfg(windows)]
    let path = path.strip_prefix('/').unwrap_or(&path).to_string();
    Some(std::path::PathBuf::from(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_round_trip() {
        // `é` is one unit, `𝄞` two (a surrogate pair), both more than one byte.
        let text = "ab\né𝄞x\r\nlast";
        let lines = Lines::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(lines.position(text, x), Position::new(1, 3));
        assert_eq!(lines.offset(text, Position::new(1, 3)), x);
        // Inside the surrogate pair: the start of the character.
        assert_eq!(
            lines.offset(text, Position::new(1, 2)),
            text.find('𝄞').unwrap()
        );
        // Past the end of a line: its end, before `\r\n`.
        assert_eq!(lines.offset(text, Position::new(1, 99)), x + 1);
        assert_eq!(lines.offset(text, Position::new(0, 99)), 2);
        // Past the last line: the end of the text.
        assert_eq!(lines.offset(text, Position::new(9, 0)), text.len());
        assert_eq!(lines.position(text, 10_000), Position::new(2, 4));
        // An offset inside a character is rounded down.
        assert_eq!(lines.position(text, 4), Position::new(1, 0));
    }

    #[test]
    fn file_uris_become_paths() {
        assert_eq!(
            file_path("file:///home/a%20b/x.scn").unwrap(),
            std::path::PathBuf::from("/home/a b/x.scn")
        );
        assert_eq!(
            file_path("file:///x%2").unwrap(),
            std::path::PathBuf::from("/x%2")
        );
        assert!(file_path("untitled:Untitled-1").is_none());
        assert_eq!(Kind::of("file:///v/x.def"), Kind::Definition);
        assert_eq!(Kind::of("file:///v/x.scn"), Kind::Scenario);
    }
}
