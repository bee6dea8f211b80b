//! JSON as every machine format of `arbiter` writes it: through serde_json, with every
//! character that [`super::escape`] would hide from a terminal (control characters, DEL, C1,
//! the line and paragraph separators, the bidirectional overrides and isolates) written as a
//! `\uXXXX` escape. The document is the same to a JSON reader (the escape decodes to the very
//! character) and safe to print: nothing in it drives a terminal or reorders a line, so the
//! stream that carries it writes it as it is and escapes nothing more.

use std::io;

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

/// `value` as one line of JSON (job lines, results).
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    write(value, Safe(CompactFormatter))
}

/// `value` as an indented JSON document (reports).
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    write(value, Safe(PrettyFormatter::new()))
}

fn write<T: Serialize + ?Sized, F: Formatter>(
    value: &T,
    formatter: F,
) -> Result<String, serde_json::Error> {
    let mut bytes = Vec::with_capacity(128);
    let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, formatter);
    value.serialize(&mut serializer)?;
    // serde_json writes UTF-8 only, and the escapes are ASCII.
    Ok(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into()))
}

/// A formatter that writes as `F` does, but escapes in strings what a terminal must not see
/// raw. serde_json itself escapes the C0 controls, `"` and `\`; the rest pass through
/// [`Formatter::write_string_fragment`].
struct Safe<F>(F);

/// Every character to escape is in the Basic Multilingual Plane: one `\uXXXX` each.
fn write_fragment<W: ?Sized + io::Write>(writer: &mut W, fragment: &str) -> io::Result<()> {
    let mut start = 0;
    for (i, c) in fragment.char_indices() {
        if super::escaped(c) {
            writer.write_all(&fragment.as_bytes()[start..i])?;
            write!(writer, "\\u{:04x}", u32::from(c))?;
            start = i + c.len_utf8();
        }
    }
    writer.write_all(&fragment.as_bytes()[start..])
}

impl<F: Formatter> Formatter for Safe<F> {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        write_fragment(writer, fragment)
    }

    // The layout is `F`'s.
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_strings_round_trip_and_stay_hidden() {
        for s in crate::text::tests::HOSTILE {
            for text in [to_string(s).unwrap(), to_string_pretty(&[s]).unwrap()] {
                // The layout's line breaks are the only ones.
                assert!(
                    !text.chars().any(|c| c != '\n' && crate::text::escaped(c)),
                    "{text:?}"
                );
                let back: serde_json::Value = serde_json::from_str(&text).unwrap();
                let back = back.as_str().or_else(|| back[0].as_str()).unwrap();
                assert_eq!(back, *s);
            }
        }
        assert_eq!(
            to_string("a\u{202e}b\u{7f}").unwrap(),
            "\"a\\u202eb\\u007f\""
        );
        // Keys are strings too.
        let map = std::collections::BTreeMap::from([("k\u{2028}", 1)]);
        assert_eq!(to_string(&map).unwrap(), "{\"k\\u2028\":1}");
    }

    #[test]
    fn the_layout_is_serde_jsons() {
        let v = serde_json::json!({"a": [1, {"b": null}], "c": "d"});
        assert_eq!(to_string(&v).unwrap(), serde_json::to_string(&v).unwrap());
        assert_eq!(
            to_string_pretty(&v).unwrap(),
            serde_json::to_string_pretty(&v).unwrap()
        );
    }
}
