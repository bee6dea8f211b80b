//! A definition's own FEN layout (`fen placement side prisoners retake`): which fields its
//! FENs have, in which order, each named as the state key it holds. A FEN in a layout is read
//! by rewriting it in Fairy-Stockfish's conventions (the fields that have a place there) and
//! keeping the others (`prisoners` as counts, `retake`) aside, with every column mapped back,
//! so one reader serves both and an error points into the text as written.

use super::fen::{fields, FenError};

/// One field of a FEN layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    Placement,
    Side,
    Castling,
    EnPassant,
    HalfmoveClock,
    FullmoveNumber,
    /// Checks given, `+W+B`.
    CheckCount,
    /// Each side's prisoners of the one kind kept, `W/B` (`0/0`).
    Prisoners,
    /// A `retake` window's square, or `-`.
    Retake,
    /// The sides that have made their one infiltration: `-`, `W`, `B` or `WB`.
    InfiltrationUsed,
}

impl Field {
    pub const WORDS: &'static [&'static str] = &[
        "placement",
        "side",
        "castling",
        "en-passant",
        "halfmove-clock",
        "fullmove-number",
        "check-count",
        "prisoners",
        "retake",
        "infiltration-used",
    ];
    pub const ALL: &'static [Field] = &[
        Field::Placement,
        Field::Side,
        Field::Castling,
        Field::EnPassant,
        Field::HalfmoveClock,
        Field::FullmoveNumber,
        Field::CheckCount,
        Field::Prisoners,
        Field::Retake,
        Field::InfiltrationUsed,
    ];

    pub fn word(self) -> &'static str {
        Self::WORDS[Self::ALL.iter().position(|&f| f == self).unwrap_or(0)]
    }

    /// What the field holds when a FEN stops before it.
    fn default_text(self) -> &'static str {
        match self {
            Field::Placement => "",
            Field::Side => "w",
            Field::HalfmoveClock => "0",
            Field::FullmoveNumber => "1",
            Field::CheckCount => "+0+0",
            Field::Prisoners => "0/0",
            Field::Castling | Field::EnPassant | Field::Retake | Field::InfiltrationUsed => "-",
        }
    }
}

/// The `infiltration-used` field's texts, by which sides have infiltrated (White, Black).
const USED: [([bool; 2], &str); 4] = [
    ([false, false], "-"),
    ([true, false], "W"),
    ([false, true], "B"),
    ([true, true], "WB"),
];

/// The `infiltration-used` field for `used`, which sides have infiltrated.
pub fn used_text(used: [bool; 2]) -> &'static str {
    USED.iter()
        .find(|(u, _)| *u == used)
        .map_or("-", |&(_, t)| t)
}

/// A FEN of a layout rewritten in Fairy-Stockfish's conventions, and the fields that have no
/// place there.
#[derive(Clone, Debug, Default)]
pub struct Standard {
    pub text: String,
    /// `(column in text, column in the original, width)` of each field copied over.
    map: Vec<(usize, usize, usize)>,
    /// The prisoners of each side, and where the field was written.
    pub prisoners: Option<([u32; 2], usize)>,
    /// The `retake` field's text and its column, when given and not `-`.
    pub retake: Option<(String, usize)>,
    /// The sides that have infiltrated, when given.
    pub used: [bool; 2],
}

impl Standard {
    /// `e`, found in [`Self::text`], with its column where the original text has it.
    pub fn locate(&self, mut e: FenError) -> FenError {
        if let Some(&(at, orig, width)) = self.map.iter().rev().find(|&&(at, _, _)| at <= e.column)
        {
            e.column = orig + (e.column - at).min(width.saturating_sub(1));
        }
        e
    }
}

/// Rewrites `text`, a FEN with the fields of `layout` (a FEN may stop after any field), in
/// Fairy-Stockfish's conventions. `kept` is the letter of the one kind prisoners are, whose
/// counts go to the pocket.
pub fn standard(text: &str, layout: &[Field], kept: Option<char>) -> Result<Standard, FenError> {
    let given = fields(text.trim());
    if given.len() > layout.len() {
        let (col, extra) = given[layout.len()];
        return Err(FenError {
            column: col,
            width: extra.chars().count().max(1),
            message: format!(
                "unexpected `{extra}` after the end of the FEN: this game's FEN has {} fields ({})",
                layout.len(),
                layout
                    .iter()
                    .map(|f| f.word())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    let at = |f: Field| {
        let k = layout.iter().position(|&l| l == f)?;
        given.get(k).copied()
    };
    let mut out = Standard::default();
    let push = |out: &mut Standard, field: Option<(usize, &str)>, f: Field| {
        if !out.text.is_empty() {
            out.text.push(' ');
        }
        match field {
            Some((col, t)) => {
                out.map
                    .push((out.text.chars().count(), col, t.chars().count()));
                out.text.push_str(t);
            }
            None => out.text.push_str(f.default_text()),
        }
    };
    if let Some((col, t)) = at(Field::Prisoners) {
        let bad = || FenError {
            column: col,
            width: t.chars().count().max(1),
            message: format!("the prisoners field `{t}` is not <white>/<black>, e.g. 0/0"),
        };
        let (w, b) = t.split_once('/').ok_or_else(bad)?;
        let counts = [w.parse::<u32>(), b.parse::<u32>()];
        let [Ok(w), Ok(b)] = counts else {
            return Err(bad());
        };
        out.prisoners = Some(([w, b], col));
    }
    let placement = at(Field::Placement);
    push(&mut out, placement, Field::Placement);
    if let (Some(([w, b], col)), Some(letter)) = (out.prisoners, kept) {
        // At most one a square: more could never have stood on the board.
        if w.max(b) > 4096 {
            return Err(FenError {
                column: col,
                width: 1,
                message: format!("{} prisoners are more than any board holds", w.max(b)),
            });
        }
        let pocket: String = std::iter::repeat_n(letter.to_ascii_uppercase(), w as usize)
            .chain(std::iter::repeat_n(letter.to_ascii_lowercase(), b as usize))
            .collect();
        match out.text.strip_suffix(']') {
            Some(open) => out.text = format!("{open}{pocket}]"),
            None => out.text.push_str(&format!("[{pocket}]")),
        }
    }
    for f in [
        Field::Side,
        Field::Castling,
        Field::EnPassant,
        Field::HalfmoveClock,
        Field::FullmoveNumber,
    ] {
        push(&mut out, at(f), f);
    }
    if layout.contains(&Field::CheckCount) {
        push(&mut out, at(Field::CheckCount), Field::CheckCount);
    }
    if let Some((col, t)) = at(Field::InfiltrationUsed) {
        out.used = USED
            .iter()
            .find(|(_, text)| *text == t)
            .map(|&(used, _)| used)
            .ok_or_else(|| FenError {
                column: col,
                width: t.chars().count().max(1),
                message: format!("the infiltrations field `{t}` is not -, W, B or WB"),
            })?;
    }
    out.retake = at(Field::Retake)
        .filter(|(_, t)| *t != "-")
        .map(|(col, t)| (t.to_string(), col));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CYPHER: &[Field] = &[
        Field::Placement,
        Field::Side,
        Field::Prisoners,
        Field::Retake,
    ];

    #[test]
    fn a_layout_fen_reads_as_fairy_stockfish_writes_it() {
        let s = standard("8/8 b 2/1 c4", CYPHER, Some('P')).unwrap();
        assert_eq!(s.text, "8/8[PPp] b - - 0 1");
        assert_eq!(s.prisoners.map(|p| p.0), Some([2, 1]));
        assert_eq!(s.retake.as_ref().map(|r| r.0.as_str()), Some("c4"));
        let short = standard("8/8 w", CYPHER, Some('P')).unwrap();
        assert_eq!(short.text, "8/8 w - - 0 1");
        assert!(short.retake.is_none() && short.prisoners.is_none());
    }

    #[test]
    fn layout_errors_point_into_the_text_as_written() {
        let e = standard("8/8 w 0/x -", CYPHER, Some('P')).unwrap_err();
        assert_eq!(e.column, 6);
        assert!(e.message.contains("not <white>/<black>"), "{}", e.message);
        let e = standard("8/8 w 0/0 - extra", CYPHER, Some('P')).unwrap_err();
        assert_eq!(e.column, 12);
        assert!(e.message.contains("4 fields"), "{}", e.message);
        let s = standard("8/8 x", CYPHER, Some('P')).unwrap();
        let moved = s.locate(FenError {
            column: 4,
            width: 1,
            message: String::new(),
        });
        assert_eq!(moved.column, 4);
    }
}
