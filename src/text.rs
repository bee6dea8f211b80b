//! Text for people: untrusted text shown safely, and counted nouns.
//!
//! Titles, reasons, file names and source lines come from files anyone can write. Printed raw,
//! an escape sequence in them drives the terminal (sets its title, clears it, overwrites lines
//! with `\r`), and a newline in a file name starts a line that a CI runner reads as a command.
//! Every human-readable output shows such characters escaped, as Rust writes them (`\u{1b}`,
//! `\n`), through [`escape`] or [`escape_lines`]; every other format has its own function here,
//! one each, all tested with the same hostile strings: [`github_data`] and [`github_property`]
//! (workflow commands), [`markdown`], [`markdown_prose`] and [`markdown_code`], [`html`], [`svg`], [`xml_attr`] and
//! [`xml_text`] (JUnit), and [`json`] (every JSON document, through serde_json).

use std::borrow::Cow;

pub mod json;

/// Whether `c` is shown escaped: the control characters (C0, DEL, C1), the line and paragraph
/// separators, and the bidirectional overrides and isolates, which reorder what a reader sees.
pub fn escaped(c: char) -> bool {
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

/// Prose for a Markdown page (a clause, a summary): as [`markdown`], but a code span the text
/// writes (`` `K` ``, closed by a run of as many backticks as opened it) stays a code span, its
/// content literal as Markdown keeps it and control characters escaped as [`escape`] does. A
/// backtick that closes nothing, or a span that holds `<`, `>` or `&` (literal in a code span,
/// but raw markup to anything else that reads the page), is escaped as the rest is. In a
/// `table` cell, where `|` ends the cell even inside a code span, it is escaped there too.
pub fn markdown_prose(text: &str, table: bool) -> String {
    const INLINE: &[char] = &['\\', '`', '*', '_', '[', ']', '<', '>', '&', '|', '~', '!'];
    const LEADING: &[char] = &['#', '+', '-', '='];
    let text = escape(text);
    let run = |at: usize| text[at..].bytes().take_while(|&b| b == b'`').count();
    let mut out = String::with_capacity(text.len() + 8);
    let mut i = 0;
    while let Some(c) = text[i..].chars().next() {
        if c == '`' {
            let n = run(i);
            // The first run of exactly `n` backticks after this one closes it.
            let mut j = i + n;
            let close = loop {
                match text[j..].find('`') {
                    None => break None,
                    Some(k) => {
                        let m = run(j + k);
                        if m == n {
                            break Some(j + k);
                        }
                        j += k + m;
                    }
                }
            };
            if let Some(close) = close {
                let span = &text[i..close + n];
                if !span.contains(['<', '>', '&']) {
                    out.push_str(&if table {
                        span.replace('|', "\\|")
                    } else {
                        span.to_string()
                    });
                    i = close + n;
                    continue;
                }
            }
        }
        if INLINE.contains(&c) || (i == 0 && LEADING.contains(&c)) {
            out.push('\\');
        }
        out.push(c);
        i += c.len_utf8();
    }
    out
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

/// A GitHub Actions workflow command's message (after `::`): `%`, CR and LF %-encoded as the
/// runner decodes them (a line break stays a line break of the annotation), every other
/// character [`escape`] hides shown escaped: the runner passes the rest to the log raw.
pub fn github_data(text: &str) -> String {
    github(text, false)
}

/// A workflow command's property value (`file=`, `title=`): as [`github_data`], and `:` and
/// `,` %-encoded too, which would end the property.
pub fn github_property(text: &str) -> String {
    github(text, true)
}

fn github(text: &str, property: bool) -> String {
    let text = escape_except(text, &['\r', '\n']);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}

/// The markup characters of HTML and XML as references; `quotes` for attribute values.
fn markup(text: &str, quotes: bool, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if quotes => out.push_str("&quot;"),
            '\'' if quotes => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// Text for an HTML page, in an element or an attribute value: markup as references, the
/// characters [`escape`] hides shown escaped as it shows them, line breaks and tabs kept (the
/// report lays text out with `white-space: pre-wrap`).
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    markup(&escape_lines(text), true, &mut out);
    out
}

/// Text for an SVG picture, in an element or an attribute value: as [`html`], on one line.
pub fn svg(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    markup(&escape(text), true, &mut out);
    out
}

/// Text for an XML attribute value (JUnit): markup and the whitespace a parser would turn into
/// spaces as references, and what [`escape`] hides as a reference or, where XML allows no
/// reference, shown escaped.
pub fn xml_attr(text: &str) -> String {
    xml(text, true)
}

/// Text for XML element content (JUnit): as [`xml_attr`], line breaks and tabs kept.
pub fn xml_text(text: &str) -> String {
    xml(text, false)
}

fn xml(text: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' if attribute => out.push_str("&#10;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\n' | '\t' => out.push(c),
            // A parser turns a bare carriage return into a line feed.
            '\r' => out.push_str("&#13;"),
            // XML 1.0 allows no other C0 control, not even as a reference.
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                out.push_str(&format!("\\u{{{:x}}}", u32::from(c)))
            }
            // DEL, C1, the separators and the bidirectional controls: a reader of the document
            // gets the character back, a terminal showing the file sees none.
            c if escaped(c) => out.push_str(&format!("&#x{:X};", u32::from(c))),
            '\'' if attribute => out.push_str("&apos;"),
            c => markup(c.encode_utf8(&mut [0; 4]), attribute, &mut out),
        }
    }
    out
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
pub(super) mod tests {
    use super::*;

    /// The hostile strings every format's escaping is tested with: terminal escapes (a colour,
    /// a hyperlink, a title, clearing the screen), BEL, NUL, CR, LF, the bidirectional override
    /// and isolate, DEL, NEL, the line separator, markup, quotes, and what each format gives a
    /// meaning (`%` and `::` for workflow commands, backticks and `|` for Markdown).
    pub(in crate::text) const HOSTILE: &[&str] = &[
        "red \u{1b}[31mtext\u{1b}[0m and \u{1b}[2J",
        "\u{1b}]8;;http://x\u{7}click\u{1b}]8;;\u{7} \u{1b}]0;title\u{7}",
        "bell\u{7} nul\u{0} tab\t",
        "cr\rlf\ncrlf\r\n",
        "a\u{202e}b\u{202c} \u{2066}c\u{2069}",
        "del\u{7f} nel\u{85} csi\u{9b} ls\u{2028} ps\u{2029}",
        "<script>alert(1)</script> <b onclick=\"x\">",
        "a & b &amp; &#60;",
        "\"double\" 'single'",
        "100% %0A %25",
        "::error title=x::y, file=a:b",
        "`code` ``two`` | cell | \\ *em* _u_ [l](u) # h",
        "plain text, é and 漢字",
    ];

    /// The characters no format may pass raw (those [`escaped`] names); `keep` are allowed.
    fn assert_hidden(format: &str, out: &str, keep: &[char]) {
        let raw: Vec<char> = out
            .chars()
            .filter(|&c| escaped(c) && !keep.contains(&c))
            .collect();
        assert!(raw.is_empty(), "{format}: raw {raw:?} in {out:?}");
    }

    #[test]
    fn text_escapes_every_hostile_string() {
        for s in HOSTILE {
            assert_hidden("text", &escape(s), &[]);
            assert_hidden("text lines", &escape_lines(s), &['\n', '\t']);
        }
    }

    #[test]
    fn github_escapes_every_hostile_string() {
        for s in HOSTILE {
            let data = github_data(s);
            let property = github_property(s);
            assert_hidden("github data", &data, &[]);
            assert_hidden("github property", &property, &[]);
            assert!(!property.contains([':', ',']), "{property}");
            // The runner decodes these three (and `%3A`, `%2C` in properties); any other `%`
            // would be taken for one of them.
            for text in [&data, &property] {
                let decoded = text
                    .replace("%0D", "\r")
                    .replace("%0A", "\n")
                    .replace("%3A", ":")
                    .replace("%2C", ",")
                    .replace("%25", "%");
                assert_eq!(decoded, escape_except(s, &['\r', '\n']), "{text}");
            }
        }
        assert_eq!(github_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(github_property("50% a\nb: c, d"), "50%25 a%0Ab%3A c%2C d");
        assert_eq!(github_property("a\u{1b}[2J"), "a\\u{1b}[2J");
    }

    #[test]
    fn markdown_escapes_every_hostile_string() {
        for s in HOSTILE {
            let md = markdown(s);
            assert_hidden("markdown", &md, &[]);
            // Every markup character is backslash-escaped: none acts as markup.
            let mut chars = md.chars();
            while let Some(c) = chars.next() {
                if c == '\\' {
                    chars.next();
                    continue;
                }
                assert!(!"`|<>&*_[]".contains(c), "{c:?} raw in {md:?}");
            }
            let code = markdown_code(s);
            assert_hidden("markdown code", &code, &[]);
            let fence = code.chars().take_while(|&c| c == '`').count();
            let inner = &code[fence..code.len() - fence];
            assert!(!inner.contains(&"`".repeat(fence)), "{code}");
        }
    }

    #[test]
    fn markdown_prose_keeps_code_spans_and_escapes_the_rest() {
        assert_eq!(
            markdown_prose("moves as `K`, then ``a`b``", false),
            "moves as `K`, then ``a`b``"
        );
        assert_eq!(markdown_prose("a `b | c` d", true), "a `b \\| c` d");
        assert_eq!(
            markdown_prose("`unclosed *x*", false),
            "\\`unclosed \\*x\\*"
        );
        assert_eq!(markdown_prose("`<script>`", false), "\\`\\<script\\>\\`");
        for s in HOSTILE {
            for table in [false, true] {
                let md = markdown_prose(s, table);
                assert_hidden("markdown prose", &md, &[]);
                let mut chars = md.chars().peekable();
                let mut ticks = 0;
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '`' => ticks += 1,
                        '|' if table => panic!("raw | in a cell: {md:?}"),
                        c => assert!(!"<>&".contains(c), "{c:?} raw in {md:?}"),
                    }
                }
                // What backticks are left open and close code spans.
                assert_eq!(ticks % 2, 0, "{md:?}");
            }
        }
    }

    #[test]
    fn html_and_svg_escape_every_hostile_string() {
        for s in HOSTILE {
            for (format, out, keep) in [("html", html(s), &['\n', '\t'][..]), ("svg", svg(s), &[])]
            {
                assert_hidden(format, &out, keep);
                assert!(!out.contains(['<', '>', '"', '\'']), "{format}: {out}");
                // Every `&` starts a reference.
                for (i, _) in out.match_indices('&') {
                    let rest = &out[i..];
                    assert!(
                        ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                            .iter()
                            .any(|r| rest.starts_with(r)),
                        "{format}: {out}"
                    );
                }
            }
        }
        assert_eq!(
            html("a<b>&\"c'\u{1}\n"),
            "a&lt;b&gt;&amp;&quot;c&#39;\\u{1}\n"
        );
    }

    #[test]
    fn xml_escapes_every_hostile_string() {
        for s in HOSTILE {
            let (a, t) = (xml_attr(s), xml_text(s));
            assert_hidden("xml attribute", &a, &[]);
            assert_hidden("xml text", &t, &['\n', '\t']);
            let doc = format!("<r a=\"{a}\">{t}</r>");
            let parsed = roxmltree::Document::parse(&doc).unwrap_or_else(|e| panic!("{e}: {doc}"));
            // What a parser reads back is the string, but for the C0 controls XML cannot hold.
            let expected: String = s
                .chars()
                .map(|c| match c {
                    '\n' | '\t' | '\r' => c.to_string(),
                    c if (c as u32) < 0x20 => format!("\\u{{{:x}}}", u32::from(c)),
                    c => c.to_string(),
                })
                .collect();
            let root = parsed.root_element();
            assert_eq!(root.attribute("a"), Some(expected.as_str()));
            assert_eq!(root.text().unwrap_or(""), expected);
        }
        assert_eq!(
            xml_attr("a<b>&\"c'\n\r\t"),
            "a&lt;b&gt;&amp;&quot;c&apos;&#10;&#13;&#9;"
        );
        assert_eq!(
            xml_text("a<b>&\"\n\r\u{1}\u{202e}"),
            "a&lt;b&gt;&amp;\"\n&#13;\\u{1}&#x202E;"
        );
    }

    #[test]
    fn json_escapes_every_hostile_string() {
        for s in HOSTILE {
            let out = json::to_string_pretty(s).unwrap();
            assert_hidden("json", &out, &[]);
            assert_eq!(serde_json::from_str::<String>(&out).unwrap(), *s);
        }
    }

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
