//! Reading the text of a Fairy-Stockfish `variants.ini` into sections of settings, each with its
//! place in the file.
//!
//! The lines are split by the `ini-roundtrip` crate: it is maintained, small, has no
//! dependencies, reads the syntax Fairy-Stockfish writes (`[name]` or `[name:parent]` headers,
//! `key = value` lines, whole-line comments starting with `;` or `#`) without trying to
//! interpret values (a `#` inside a value stays part of it, as Fairy-Stockfish reads it), and it
//! hands back every item as a slice of the text, so the byte offset of each key and value (and
//! from it the line and column of an error) is recovered exactly. The other INI crates looked at
//! (`rust-ini`, `configparser`, `tini`) keep no positions, strip inline comments or lower-case
//! keys, which would change what a section says.

use std::collections::HashMap;
use std::ops::Range;

use crate::scenario::diagnostic::LineIndex;

/// One `key = value` line of a section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The name before the `=`, trimmed.
    pub key: String,
    /// What follows the `=`, trimmed.
    pub value: String,
    /// Byte range of the key in the file.
    pub key_span: Range<usize>,
    /// Byte range of the value (empty, just after the `=`, when there is none).
    pub value_span: Range<usize>,
}

/// One `[name]` or `[name:parent]` section, with its settings in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The name before the `:` (or the whole header).
    pub name: String,
    /// The name after the `:`, if any.
    pub parent: Option<String>,
    /// Byte range of the header line.
    pub span: Range<usize>,
    /// Byte range of the parent's name in the header.
    pub parent_span: Range<usize>,
    /// The `key = value` lines, in file order.
    pub settings: Vec<Setting>,
    /// Lines of the section that are neither a setting, a comment nor blank.
    pub bad_lines: Vec<Range<usize>>,
}

/// A whole file: its sections in order, and the lines before the first section that are not
/// comments or blank (Fairy-Stockfish skips them; they are reported).
#[derive(Clone, Debug, Default)]
pub struct IniFile {
    /// The sections in file order.
    pub sections: Vec<Section>,
    /// Byte ranges of the lines before the first section that are not comments or blank.
    pub stray_lines: Vec<Range<usize>>,
    /// Where the first section of each name stands in [`Self::sections`]: a chain of parents
    /// is followed by lookups, not by scans of the file.
    first: HashMap<String, usize>,
    /// Where each line starts, for the places of problems.
    pub lines: LineIndex,
}

impl IniFile {
    /// The section of this name: the first, as Fairy-Stockfish ignores a later one with the
    /// same name.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.position(name).map(|i| &self.sections[i])
    }

    /// The index of the section of this name (the first of that name).
    pub fn position(&self, name: &str) -> Option<usize> {
        self.first.get(name).copied()
    }

    /// Each section whose name an earlier section has already taken (Fairy-Stockfish says
    /// "already exists" and ignores it), with the index of that earlier one.
    pub fn repeated(&self) -> impl Iterator<Item = (&Section, &Section)> {
        self.sections.iter().enumerate().filter_map(|(i, s)| {
            let first = self.position(&s.name)?;
            (first != i).then(|| (s, &self.sections[first]))
        })
    }
}

/// Where `part`, a slice of `text`, starts in it.
fn offset(text: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize)
}

/// Reads the sections of `text`. Never fails: what does not read is kept as a bad line. A
/// UTF-8 byte-order mark (which Windows editors write) is skipped; places stay offsets into
/// the whole text.
pub fn read(text: &str) -> IniFile {
    let mut file = IniFile {
        lines: LineIndex::new(text),
        ..IniFile::default()
    };
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    for item in ini_roundtrip::Parser::new(body) {
        match item {
            ini_roundtrip::Item::Section { name, raw } => {
                let start = offset(text, raw);
                let (name, parent, parent_span) = match name.split_once(':') {
                    Some((n, p)) => {
                        let p_at = offset(text, p);
                        (n.trim(), Some(p.trim().to_string()), p_at..p_at + p.len())
                    }
                    None => (name, None, start..start),
                };
                file.sections.push(Section {
                    name: name.to_string(),
                    parent,
                    span: start..start + raw.len(),
                    parent_span,
                    settings: Vec::new(),
                    bad_lines: Vec::new(),
                });
            }
            ini_roundtrip::Item::Property { key, val, raw } => {
                let Some(section) = file.sections.last_mut() else {
                    let at = offset(text, raw);
                    file.stray_lines.push(at..at + raw.len());
                    continue;
                };
                match val {
                    Some(value) if !key.is_empty() => {
                        let k = offset(text, key);
                        let v = offset(text, value);
                        section.settings.push(Setting {
                            key: key.to_string(),
                            value: value.to_string(),
                            key_span: k..k + key.len(),
                            value_span: v..v + value.len(),
                        });
                    }
                    _ => {
                        let at = offset(text, raw);
                        section.bad_lines.push(at..at + raw.len());
                    }
                }
            }
            ini_roundtrip::Item::Error(raw) => {
                let at = offset(text, raw);
                match file.sections.last_mut() {
                    Some(section) => section.bad_lines.push(at..at + raw.len()),
                    None => file.stray_lines.push(at..at + raw.len()),
                }
            }
            ini_roundtrip::Item::SectionEnd
            | ini_roundtrip::Item::Comment { .. }
            | ini_roundtrip::Item::Blank { .. } => {}
        }
    }
    for (i, s) in file.sections.iter().enumerate() {
        file.first.entry(s.name.clone()).or_insert(i);
    }
    file
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_settings_and_places() {
        let text =
            "# intro\n[a:chess]\nmaxRank = 6\n; note\n#x = 1\nbroken line\n[b]\nk=v # kept\n";
        let f = read(text);
        assert_eq!(f.sections.len(), 2);
        let a = &f.sections[0];
        assert_eq!((a.name.as_str(), a.parent.as_deref()), ("a", Some("chess")));
        assert_eq!(&text[a.parent_span.clone()], "chess");
        assert_eq!(a.settings.len(), 1);
        assert_eq!(&text[a.settings[0].key_span.clone()], "maxRank");
        assert_eq!(&text[a.settings[0].value_span.clone()], "6");
        assert_eq!(&text[a.bad_lines[0].clone()], "broken line");
        let b = &f.sections[1];
        assert_eq!(b.parent, None);
        assert_eq!(b.settings[0].value, "v # kept");
        assert!(f.stray_lines.is_empty());
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_places_stay_in_the_text() {
        let text = "\u{feff}[a:chess]\nmaxRank = 6\n";
        let f = read(text);
        assert!(f.stray_lines.is_empty());
        assert_eq!(f.sections.len(), 1);
        assert_eq!(&text[f.sections[0].parent_span.clone()], "chess");
        assert_eq!(&text[f.sections[0].settings[0].key_span.clone()], "maxRank");
    }

    #[test]
    fn a_repeated_section_is_found_and_the_first_is_the_one() {
        let f = read("[x:chess]\nmaxRank = 6\n[y]\n[x:chess]\nmaxFile = 6\n");
        assert_eq!(f.section("x").unwrap().settings[0].key, "maxRank");
        let repeated: Vec<_> = f
            .repeated()
            .map(|(a, b)| (a.span.start, b.span.start))
            .collect();
        assert_eq!(repeated, [(26, 0)]);
        assert_eq!(f.position("y"), Some(1));
        assert_eq!(f.position("z"), None);
    }

    #[test]
    fn stray_lines_and_bad_headers() {
        let f = read("x = 1\n[open\n[s]\n[t]junk\n");
        assert_eq!(f.stray_lines.len(), 2);
        assert_eq!(f.sections.len(), 1);
        assert_eq!(f.sections[0].bad_lines.len(), 1);
    }
}
