//! FENs as Fairy-Stockfish writes them, for any board up to 16x16: numbers of empty squares
//! above 9 (`10`), `*` for a square that is not part of the board, `~` after a promoted
//! piece, castling rights as `KQkq` (X-FEN) or file letters (Shredder-FEN), an en passant
//! field of one or more squares, and check counters as `3+3` (checks left, before the clocks)
//! or `+2+0` (checks given, at the end). Pockets (`[...]`) are refused: hands are not part of
//! the language yet.

use std::fmt::Write;

/// The fields of a FEN, read but not yet checked against a definition's pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fen {
    /// Ranks from the top (the last rank) down, each a list of cells from the a-file.
    pub ranks: Vec<Vec<FenCell>>,
    pub white_to_move: bool,
    /// The castling field as written (`KQkq`, `HAha`, `-`).
    pub castling: String,
    /// The en passant squares, as written (`-` is none).
    pub en_passant: Vec<String>,
    pub halfmove: u32,
    pub fullmove: u32,
    /// Checks given by `[white, black]`, when the FEN has counters.
    pub checks_given: Option<[u8; 2]>,
    /// Checks left for `[white, black]`, when the FEN writes them that way.
    pub checks_left: Option<[u8; 2]>,
}

/// One square of a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenCell {
    Empty,
    Hole,
    /// A piece: its letter (upper case for White) and whether it is marked promoted.
    Piece {
        letter: char,
        promoted: bool,
    },
}

/// Why a FEN cannot be read, with the byte offset in the text where it goes wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    pub offset: usize,
    pub message: String,
}

fn err(offset: usize, message: impl Into<String>) -> FenError {
    FenError {
        offset,
        message: message.into(),
    }
}

impl Fen {
    /// Reads a FEN whose placement must be `files` x `ranks`.
    pub fn parse(text: &str, files: u8, ranks: u8) -> Result<Fen, FenError> {
        let mut fields = Vec::new();
        let mut at = 0;
        for part in text.split(' ') {
            if !part.is_empty() {
                fields.push((at, part));
            }
            at += part.len() + 1;
        }
        let Some(&(p0, placement)) = fields.first() else {
            return Err(err(0, "an empty FEN"));
        };
        let rows = read_placement(p0, placement, files, ranks)?;
        let mut fen = Fen {
            ranks: rows,
            white_to_move: true,
            castling: "-".into(),
            en_passant: Vec::new(),
            halfmove: 0,
            fullmove: 1,
            checks_given: None,
            checks_left: None,
        };
        let mut rest = fields[1..].iter().copied();
        if let Some((o, side)) = rest.next() {
            fen.white_to_move = match side {
                "w" => true,
                "b" => false,
                _ => {
                    return Err(err(
                        o,
                        format!("the side to move is `w` or `b`, not `{side}`"),
                    ))
                }
            };
        }
        if let Some((o, castling)) = rest.next() {
            if castling != "-" && !castling.chars().all(|c| c.is_ascii_alphabetic()) {
                return Err(err(
                    o,
                    format!("castling rights are `-` or letters, not `{castling}`"),
                ));
            }
            fen.castling = castling.to_string();
        }
        if let Some((o, ep)) = rest.next() {
            if ep != "-" {
                fen.en_passant = split_squares(o, ep)?;
            }
        }
        let mut numbers = Vec::new();
        for (o, f) in rest {
            if let Some(given) = f.strip_prefix('+') {
                let (w, b) = given
                    .split_once('+')
                    .ok_or_else(|| err(o, "check counters are written `+W+B`"))?;
                fen.checks_given = Some([number(o, w)?, number(o, b)?]);
            } else if let Some((w, b)) = f.split_once('+') {
                fen.checks_left = Some([number(o, w)?, number(o, b)?]);
            } else {
                numbers.push((o, f));
            }
        }
        if let Some(&(o, h)) = numbers.first() {
            fen.halfmove = number(o, h)?;
        }
        if let Some(&(o, f)) = numbers.get(1) {
            fen.fullmove = number(o, f)?;
        }
        if let Some(&(o, _)) = numbers.get(2) {
            return Err(err(o, "a FEN has at most two clock fields"));
        }
        Ok(fen)
    }
}

fn number<T: std::str::FromStr>(offset: usize, text: &str) -> Result<T, FenError> {
    text.parse()
        .map_err(|_| err(offset, format!("`{text}` is not a number")))
}

/// `e3` or `c5d6`: one or more squares run together.
fn split_squares(offset: usize, text: &str) -> Result<Vec<String>, FenError> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in text.chars() {
        if c.is_ascii_lowercase() && cur.chars().any(|d| d.is_ascii_digit()) {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    if out.iter().any(|s| {
        !s.starts_with(|c: char| c.is_ascii_lowercase())
            || !s[1..].chars().all(|c| c.is_ascii_digit())
            || s.len() < 2
    }) {
        return Err(err(offset, format!("`{text}` is not a list of squares")));
    }
    Ok(out)
}

fn read_placement(
    offset: usize,
    text: &str,
    files: u8,
    ranks: u8,
) -> Result<Vec<Vec<FenCell>>, FenError> {
    if text.contains('[') {
        let o = offset + text.find('[').unwrap_or(0);
        return Err(err(
            o,
            "pockets (`[...]`) are not supported: the language has no hands yet",
        ));
    }
    let mut rows = Vec::new();
    let mut o = offset;
    for row in text.split('/') {
        let mut cells: Vec<FenCell> = Vec::new();
        let mut digits = String::new();
        let flush =
            |digits: &mut String, cells: &mut Vec<FenCell>, at: usize| -> Result<(), FenError> {
                if digits.is_empty() {
                    return Ok(());
                }
                let n: usize = number(at, digits)?;
                if n == 0 || n > files as usize {
                    return Err(err(
                        at,
                        format!("`{digits}` empty squares do not fit a rank of {files}"),
                    ));
                }
                cells.extend(std::iter::repeat_n(FenCell::Empty, n));
                digits.clear();
                Ok(())
            };
        for (i, c) in row.char_indices() {
            let at = o + i;
            match c {
                '0'..='9' => digits.push(c),
                _ => {
                    flush(&mut digits, &mut cells, at)?;
                    match c {
                        '*' => cells.push(FenCell::Hole),
                        '~' => match cells.last_mut() {
                            Some(FenCell::Piece { promoted, .. }) => *promoted = true,
                            _ => return Err(err(at, "`~` marks the piece before it as promoted")),
                        },
                        c if c.is_ascii_alphabetic() => cells.push(FenCell::Piece {
                            letter: c,
                            promoted: false,
                        }),
                        _ => {
                            return Err(err(
                                at,
                                format!("`{c}` is not a piece letter, a number, `*` or `~`"),
                            ))
                        }
                    }
                }
            }
            if cells.len() > files as usize {
                return Err(err(
                    at,
                    format!(
                        "rank {} has more than {files} squares",
                        ranks as usize - rows.len()
                    ),
                ));
            }
        }
        flush(&mut digits, &mut cells, o + row.len())?;
        if cells.len() != files as usize {
            return Err(err(
                o,
                format!(
                    "rank {} has {} squares; the board has {files} files",
                    ranks as i64 - rows.len() as i64,
                    cells.len()
                ),
            ));
        }
        rows.push(cells);
        o += row.len() + 1;
    }
    if rows.len() != ranks as usize {
        return Err(err(
            offset,
            format!(
                "the placement has {} ranks; the board has {ranks}",
                rows.len()
            ),
        ));
    }
    Ok(rows)
}

/// Writes a placement row by row from the top, runs of empty squares as numbers.
pub fn write_placement(rows: &[Vec<FenCell>], out: &mut String) {
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for cell in row {
            if let FenCell::Empty = cell {
                empty += 1;
                continue;
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
                empty = 0;
            }
            match cell {
                FenCell::Hole => out.push('*'),
                FenCell::Piece { letter, promoted } => {
                    out.push(*letter);
                    if *promoted {
                        out.push('~');
                    }
                }
                FenCell::Empty => {}
            }
        }
        if empty > 0 {
            let _ = write!(out, "{empty}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fairy_stockfish_fields() {
        let f = Fen::parse(
            "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1+3 1 39",
            8,
            8,
        )
        .unwrap();
        assert_eq!(f.checks_left, Some([1, 3]));
        assert_eq!((f.halfmove, f.fullmove), (1, 39));
        let f = Fen::parse(
            "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1 39 +2+0",
            8,
            8,
        )
        .unwrap();
        assert_eq!(f.checks_given, Some([2, 0]));
        let f = Fen::parse("r8r/10/10/10/10/10/10/10/10/R8R w - e7 0 3", 10, 10).unwrap();
        assert_eq!(f.en_passant, vec!["e7"]);
        let f = Fen::parse("8/8/8/8/8/8/8/8 w KQkq c5d6 2 2", 8, 8).unwrap();
        assert_eq!(f.en_passant, vec!["c5", "d6"]);
        let f = Fen::parse("*6*/8/8/8/8/8/8/Q~7 w - -", 8, 8).unwrap();
        assert_eq!(f.ranks[0][0], FenCell::Hole);
        assert_eq!(
            f.ranks[7][0],
            FenCell::Piece {
                letter: 'Q',
                promoted: true
            }
        );
        let mut s = String::new();
        write_placement(&f.ranks, &mut s);
        assert_eq!(s, "*6*/8/8/8/8/8/8/Q~7");
    }

    #[test]
    fn placements_must_fit_the_board() {
        assert!(Fen::parse("8/8/8/8/8/8/8 w - -", 8, 8)
            .unwrap_err()
            .message
            .contains("7 ranks"));
        assert!(Fen::parse("9/8/8/8/8/8/8/8 w - -", 8, 8).is_err());
        assert!(Fen::parse("7/8/8/8/8/8/8/8 w - -", 8, 8)
            .unwrap_err()
            .message
            .contains("7 squares"));
        assert!(Fen::parse("8/8/8/8/8/8/8/8 x - -", 8, 8).is_err());
        assert!(Fen::parse("8/8/8/8/8/8/8/8[Q] w - -", 8, 8)
            .unwrap_err()
            .message
            .contains("pockets"));
    }
}
