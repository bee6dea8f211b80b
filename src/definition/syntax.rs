//! The syntax tree of a definition, before any name is resolved: statements of a head word,
//! values and maybe a block, each node with its byte span in the text it was read from.

use std::ops::Range;

/// Byte offsets into the definition's text.
pub type Span = Range<usize>;

/// A whole definition as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    /// The top-level statements, in order.
    pub statements: Vec<Statement>,
    /// Every comment, in text order (`fmt` keeps them).
    pub comments: Vec<Comment>,
}

/// `head value* { statement* }?`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// The word it starts with.
    pub head: Word,
    /// The values after the head, on its line.
    pub values: Vec<Value>,
    /// The block that ends it, if any.
    pub block: Option<Block>,
    /// From the head to the last value or the closing brace.
    pub span: Span,
}

/// A bare word (a head or a value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// The word as written.
    pub text: String,
    /// Where it stands.
    pub span: Span,
}

/// A value: a bare word or a quoted string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    /// The word, or the string's text with its escapes read and each run of whitespace read
    /// as one space.
    pub text: String,
    /// Written in quotes (a string), not bare.
    pub quoted: bool,
    /// The whole token, quotes included.
    pub span: Span,
}

/// `{ statement* }`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Its statements, in order.
    pub statements: Vec<Statement>,
    /// From `{` to `}`.
    pub span: Span,
}

/// `# ...` to the end of its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The comment, `#` included, trailing blanks left out.
    pub text: String,
    /// Where it stands, `#` to the last character before the line end.
    pub span: Span,
}

impl Value {
    /// The byte offset in the definition's text of the character `index` (counted in
    /// characters of [`Value::text`]), for errors that point inside a value (a FEN's column,
    /// a Betza letter). `src` is the text the value was read from.
    pub fn offset_of(&self, src: &str, index: usize) -> usize {
        let raw = src.get(self.span.clone()).unwrap_or("");
        if !self.quoted {
            return self.span.start + raw.char_indices().nth(index).map_or(raw.len(), |(i, _)| i);
        }
        // Replays the reading of the string: escapes and whitespace runs.
        let body = raw.strip_prefix('"').unwrap_or(raw);
        let mut seen = 0;
        let mut chars = body.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c == '"' {
                return self.span.start + 1 + i;
            }
            if seen == index {
                return self.span.start + 1 + i;
            }
            seen += 1;
            if c == '\\' {
                chars.next();
            } else if c.is_whitespace() {
                while chars.next_if(|&(_, c)| c.is_whitespace()).is_some() {}
            }
        }
        self.span.end
    }
}

/// Reads a string token (quotes included): escapes read, runs of whitespace as one space.
pub fn read_string(raw: &str) -> String {
    let body = raw.strip_prefix('"').unwrap_or(raw);
    let body = body.strip_suffix('"').unwrap_or(body);
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else if c.is_whitespace() {
            while chars.next_if(|c| c.is_whitespace()).is_some() {}
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// Writes a text as a string token that reads back to it: quotes and backslashes escaped.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}
