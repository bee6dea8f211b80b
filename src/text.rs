//! Text for people: untrusted text shown safely, and counted nouns.
//!
//! Titles, reasons, file names and source lines come from files anyone can write. Printed raw,
//! an escape sequence in them drives the terminal (sets its title, clears it, overwrites lines
//! with `\r`), and a newline in a file name starts a line that a CI runner reads as a command.
//! Every human-readable output shows such characters escaped, as Rust writes them (`\u{1b}`,
//! `\n`), through [`escape`] or [`escape_lines`]; machine formats (JSON, JUnit, GitHub, HTML)
//! escape by their own rules.

use std::borrow::Cow;

/// Whether `c` is shown escaped: the control characters (C0, DEL, C1), the line and paragraph
/// separators, and the bidirectional overrides and isolates, which reorder what a reader sees.
fn escaped(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// The one escaping function; `keep` names the characters that stay (the line structure of a
/// report).
fn escape_except<'a>(text: &'a str, keep: &[char]) -> Cow<'a, str> {
    let hit = |c: char| escaped(c) && !keep.contains(&c);
    let Some(first) = text.find(hit) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        if !hit(c) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
        }
    }
    Cow::Owned(out)
}

/// One value (a title, a file name, a reason) with every control character escaped, line
/// breaks included: it stays on its line.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_except(text, &[])
}

/// Lines of text with every control character escaped but the line breaks and tabs that lay
/// them out.
pub fn escape_lines(text: &str) -> Cow<'_, str> {
    escape_except(text, &['\n', '\t'])
}

/// A value for Markdown (a language server's hover): the characters Markdown gives a meaning
/// (emphasis, links, code, HTML, headings, tables) backslash-escaped, as CommonMark allows for
/// any ASCII punctuation, and control characters escaped as [`escape`] does, so a clause
/// reads as the designer typed it and never as markup.
pub fn markdown(text: &str) -> Cow<'_, str> {
    // Inline markup anywhere; headings, lists and rules only where a line starts, and a value
    // has no line breaks of its own once escaped.
    const INLINE: &[char] = &['\\', '`', '*', '_', '[', ']', '<', '>', '&', '|', '~', '!'];
    const LEADING: &[char] = &['#', '+', '-', '='];
    let text = escape(text);
    let leading = text.starts_with(LEADING);
    if !leading && !text.contains(INLINE) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 8);
    for (i, c) in text.chars().enumerate() {
        if INLINE.contains(&c) || (i == 0 && leading) {
            out.push('\\');
        }
        out.push(c);
    }
    Cow::Owned(out)
}

/// A value as a Markdown code span: fenced by one more backtick than its longest run of them,
/// so no text closes it early; control characters escaped as [`escape`] does.
pub fn markdown_code(text: &str) -> String {
    let text = escape(text);
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Whether `text` contains `part`, letters of any case alike (Unicode lower case: `É` finds
/// `é`): how a title is picked by a word from it (`--filter`, `--scenario`).
pub fn contains_any_case(text: &str, part: &str) -> bool {
    text.to_lowercase().contains(&part.to_lowercase())
}

/// A path as people are shown it: [`escape`] of its display form.
pub fn path(path: &std::path::Path) -> String {
    escape(&path.display().to_string()).into_owned()
}

/// `1 scenario`, `2 scenarios`: a count with its noun, which takes an `s` unless it is one.
pub fn count<N: Counted>(n: N, noun: &str) -> String {
    format!("{n} {}", plural(n, noun))
}

/// The noun for a count of `n`: itself for one, with an `s` otherwise (for a count laid out
/// apart, as in a column).
pub fn plural<N: Counted>(n: N, noun: &str) -> String {
    if n == N::from(1) {
        noun.to_string()
    } else {
        format!("{noun}s")
    }
}

/// A count with a noun whose plural is not an `s` away (`1 match`, `2 matches`).
pub fn count_as<N: Counted>(n: N, one: &str, many: &str) -> String {
    format!("{n} {}", if n == N::from(1) { one } else { many })
}

/// A number that can be counted with [`count`]: any unsigned integer.
pub trait Counted: std::fmt::Display + PartialEq + From<u8> + Copy {}

impl<N: std::fmt::Display + PartialEq + From<u8> + Copy> Counted for N {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_shows_markup_as_text() {
        assert_eq!(markdown("plain words"), "plain words");
        assert_eq!(
            markdown("*a* [b](c) <d> `e`"),
            "\\*a\\* \\[b\\](c) \\<d\\> \\`e\\`"
        );
        assert_eq!(markdown("a\nb"), "a\\\\nb");
        assert_eq!(
            markdown("# not a heading - nor a list"),
            "\\# not a heading - nor a list"
        );
        assert_eq!(markdown_code("QR"), "`QR`");
        assert_eq!(markdown_code("a`b"), "``a`b``");
        assert_eq!(markdown_code("`x"), "`` `x ``");
    }

    #[test]
    fn escapes_controls_only() {
        assert_eq!(escape("plain `text` é"), "plain `text` é");
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
        assert_eq!(
            escape("\u{1b}]0;T\u{7}\r\n\t\u{0}\u{9b}\u{202e}x"),
            "\\u{1b}]0;T\\u{7}\\r\\n\\t\\u{0}\\u{9b}\\u{202e}x"
        );
        assert_eq!(escape_lines("a\u{1b}[2J\n\tb\r"), "a\\u{1b}[2J\n\tb\\r");
    }

    #[test]
    fn finds_in_any_case() {
        assert!(contains_any_case("Stalemate = Draw", "stalemate"));
        assert!(contains_any_case("Échec et mat", "éCHEC"));
        assert!(!contains_any_case("castling", "castle"));
    }

    #[test]
    fn counts() {
        assert_eq!(count(1u8, "scenario"), "1 scenario");
        assert_eq!(count(0u8, "scenario"), "0 scenarios");
        assert_eq!(count(2usize, "legal turn"), "2 legal turns");
        assert_eq!(count_as(1u8, "match", "matches"), "1 match");
        assert_eq!(count_as(3u8, "match", "matches"), "3 matches");
        assert_eq!(plural(1u64, "reading"), "reading");
        assert_eq!(plural(0u64, "reading"), "readings");
    }
}
