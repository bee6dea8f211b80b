//! A FEN reader in Fairy-Stockfish's conventions, shared by the definition checks (a start
//! position must fit its board) and the engine (which plays from it): the placement with `*`
//! for a square that is not part of the board and `~` after a promoted piece, the side to
//! move, castling rights in X-FEN (`KQkq`) or Shredder-FEN (rook files, `HAha`), en-passant
//! squares (one or more, `c5d6`), the clocks, and check counters either before the clocks
//! (`3+3`, checks remaining) or after them (`+2+0`, checks given). Pockets, the pieces in
//! hand, follow the placement in brackets (`[Qn]`, `[-]` for none) or stand as one more rank
//! (`.../4K3/Qn`); `+P` is the kind `P` promotes into (shogi). Shogi FENs leave out castling
//! and en passant (`w 0 1`). Every error names the column (in characters, from 0) of the FEN
//! text where it is.

use std::fmt;

use super::model::{Cell, Color};
use crate::rules::board::Geometry;
use crate::rules::design::DesignId;

/// What a FEN is read against: the board and the piece letters of a definition.
#[derive(Clone, Copy, Debug)]
pub struct Shape<'a> {
    /// Files of the board, 1 to 26.
    pub files: u8,
    /// Ranks of the board.
    pub ranks: u8,
    /// How the board names its squares (a definition's `board` block), for the en-passant
    /// squares and the errors; `None` for files `a`, `b`, ... and ranks from 1. Castling
    /// rights' file letters stay positional (`a` the leftmost file) whatever the names, as
    /// Shredder-FEN's are: they count files, they do not name them.
    pub names: Option<Geometry>,
    /// Squares that are not part of the board: `*` in the FEN, or left empty.
    pub holes: &'a [Cell],
    /// The piece letters, upper case.
    pub letters: &'a [char],
    /// Shogi-style promoted kinds: `(base, promoted)` letters, so that `+P` in a FEN is the
    /// kind `P` promotes into.
    pub promoted: &'a [(char, char)],
    /// Whether the FEN may give pockets: `[...]` after the placement, or one more rank.
    pub pockets: bool,
    /// Whether `*` may also mark a neutral blocker on a square of the board (a definition
    /// with a `blocker`: the duck, the amazons' arrows), read as a hole of this position.
    pub blockers: bool,
}

impl Shape<'_> {
    /// The name of a square of this board.
    pub fn name(&self, cell: Cell) -> String {
        match &self.names {
            Some(g) => cell.name(g),
            None => square_name(cell),
        }
    }

    /// The file labelled by `c`.
    fn file_of(&self, c: char) -> Option<u8> {
        match &self.names {
            Some(g) => g.file_of(c.encode_utf8(&mut [0; 4])),
            None => {
                (c.is_ascii_lowercase() && (c as u8 - b'a') < self.files).then(|| c as u8 - b'a')
            }
        }
    }

    /// The number of the first rank.
    fn first_rank(&self) -> u32 {
        self.names.map_or(1, |g| u32::from(g.first_rank()))
    }

    /// The files, for an error: `a` to `h`, or the board's own labels.
    fn file_choices(&self) -> String {
        match &self.names {
            Some(g) if g.file_labels() != Geometry::lettered(g.files, g.ranks).file_labels() => {
                format!("one of `{}`", g.file_labels().join(" "))
            }
            _ => format!("`a` to `{}`", (b'a' + self.files - 1) as char),
        }
    }
}

/// What stands on one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placed {
    /// No piece.
    Empty,
    /// Not part of the board.
    Hole,
    /// A piece of a side.
    Piece {
        /// The kind's letter, upper case.
        letter: char,
        /// Upper case in the FEN for White, lower case for Black.
        color: Color,
        /// Written with `~` after it: a piece that was promoted (it reverts if captured in some
        /// games, and counts as promoted for others).
        promoted: bool,
    },
    /// An invented piece, written as its Betza design: `(WD)` for White, `[WD]` for Black.
    Design {
        /// The design, interned for the run.
        design: DesignId,
        /// Whose piece it is.
        color: Color,
    },
}

/// Which rook a castling right is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RookRef {
    /// `K`/`k`: the outermost rook on the king's kingside (X-FEN).
    Kingside,
    /// `Q`/`q`: the outermost rook on the king's queenside (X-FEN).
    Queenside,
    /// A file letter (`H`, `a`): the rook on that file (Shredder-FEN, X-FEN for inner rooks).
    File(u8),
}

/// One castling right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastlingRight {
    /// The side the right belongs to (upper case in the FEN for White).
    pub color: Color,
    /// The rook it castles with.
    pub rook: RookRef,
}

/// The check counters of n-check games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckCounters {
    /// `3+3` before the clocks: the checks each side (`[white, black]`) still has to give.
    Remaining([u32; 2]),
    /// `+2+0` after the clocks: the checks each side has given.
    Given([u32; 2]),
}

/// A FEN, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fen {
    /// The board's files, as read against.
    pub files: u8,
    /// The board's ranks, as read against.
    pub ranks: u8,
    /// Every square, rank by rank from White's first rank, each from the a-file:
    /// index `rank * files + file`.
    pub squares: Vec<Placed>,
    /// White when the FEN gives only the placement.
    pub side: Color,
    /// Empty for `-` or when not given.
    pub castling: Vec<CastlingRight>,
    /// Empty for `-` or when not given.
    pub en_passant: Vec<Cell>,
    /// Half-moves since the last capture or pawn move; 0 when not given.
    pub halfmove: u32,
    /// The move number; 1 when not given.
    pub fullmove: u32,
    /// The check counters, when the FEN gives them.
    pub checks: Option<CheckCounters>,
    /// The pieces in hand, by upper-case letter and side, as the pocket lists them.
    pub hand: Vec<(char, Color)>,
}

impl Fen {
    /// What stands on a square (a hole off the board).
    pub fn at(&self, cell: Cell) -> Placed {
        if cell.file >= self.files || cell.rank >= self.ranks {
            return Placed::Hole;
        }
        self.squares[cell.rank as usize * self.files as usize + cell.file as usize]
    }
}

/// A FEN that does not fit: what is wrong, and at which column of the FEN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// In characters from the start of the FEN text, 0 for the first.
    pub column: usize,
    /// How many characters are wrong (at least 1).
    pub width: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (column {})", self.message, self.column + 1)
    }
}

impl std::error::Error for FenError {}

/// A piece placed on `file`, `rank` (written at `column`, `width` characters): an error when
/// that square is a hole.
fn on_board(
    shape: &Shape,
    file: usize,
    rank: usize,
    column: usize,
    width: usize,
) -> Result<(), FenError> {
    let cell = Cell {
        file: file as u8,
        rank: rank as u8,
    };
    if shape.holes.contains(&cell) {
        return Err(err(
            column,
            width,
            format!(
                "a piece on {}, which is not part of the board (a hole)",
                shape.name(cell)
            ),
        ));
    }
    Ok(())
}

/// The side a piece letter is written for: upper case White, lower case Black.
fn side_of(letter: char) -> Color {
    if letter.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    }
}

fn is_number(field: &str) -> bool {
    !field.is_empty() && field.bytes().all(|b| b.is_ascii_digit())
}

fn err(column: usize, width: usize, message: impl Into<String>) -> FenError {
    FenError {
        column,
        width: width.max(1),
        message: message.into(),
    }
}

/// The name of a square (`a1`, `p16`).
pub fn square_name(cell: Cell) -> String {
    format!("{}{}", (b'a' + cell.file) as char, u32::from(cell.rank) + 1)
}

/// Reads a FEN against a board and its pieces.
pub fn parse(text: &str, shape: &Shape) -> Result<Fen, FenError> {
    read(text, shape, false)
}

/// Reads a FEN against a board and its pieces, where invented pieces may stand besides them:
/// a Betza design in parentheses for White (`(WD)`) or in square brackets for Black (`[WD]`),
/// interned for the run. Square brackets are designs here, never a pocket.
pub fn parse_with_designs(text: &str, shape: &Shape) -> Result<Fen, FenError> {
    read(text, shape, true)
}

/// The whitespace-separated fields of a FEN, each with its starting column in characters.
pub fn fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (col, (byte, c)) in text.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (true, Some((scol, sbyte))) => {
                out.push((scol, &text[sbyte..byte]));
                start = None;
            }
            (false, None) => start = Some((col, byte)),
            _ => {}
        }
    }
    if let Some((scol, sbyte)) = start {
        out.push((scol, &text[sbyte..]));
    }
    out
}

fn read(text: &str, shape: &Shape, designs: bool) -> Result<Fen, FenError> {
    if !(1..=26).contains(&shape.files) || shape.ranks == 0 {
        return Err(err(
            0,
            1,
            format!(
                "a board of {}x{} has no FEN: files run from a to z at most",
                shape.files, shape.ranks
            ),
        ));
    }
    let fields = fields(text);
    let Some(&(_, placement)) = fields.first() else {
        return Err(err(
            0,
            1,
            "the FEN is empty: expected the placement of the pieces",
        ));
    };
    let (squares, hand) = read_placement(placement, shape, designs)?;
    let mut fen = Fen {
        files: shape.files,
        ranks: shape.ranks,
        squares,
        side: Color::White,
        castling: Vec::new(),
        en_passant: Vec::new(),
        halfmove: 0,
        fullmove: 1,
        checks: None,
        hand,
    };
    let mut rest = fields[1..].iter().copied().peekable();
    if let Some((col, side)) = rest.next() {
        fen.side = match side {
            "w" => Color::White,
            "b" => Color::Black,
            _ => {
                return Err(err(
                    col,
                    side.chars().count(),
                    format!("expected the side to move, `w` or `b`, found `{side}`"),
                ))
            }
        };
    }
    // Shogi FENs go from the side to move straight to the clocks: a castling field is never
    // a number.
    let shogi = matches!(rest.peek(), Some(&(_, f)) if is_number(f));
    if !shogi {
        if let Some((col, castling)) = rest.next() {
            fen.castling = read_castling(castling, col, shape)?;
        }
        if let Some((col, ep)) = rest.next() {
            // Fairy-Stockfish reads a number here as no square (`DEe 0 0 5` in its suite).
            if ep != "-" && !is_number(ep) {
                fen.en_passant = read_squares(ep, col, shape)?;
            }
        }
    }
    if let Some(&(col, counters)) = rest.peek() {
        if counters.contains('+') && !counters.starts_with('+') {
            rest.next();
            fen.checks = Some(CheckCounters::Remaining(read_counters(counters, col)?));
        }
    }
    let mut clocks = 0;
    while let Some(&(col, field)) = rest.peek() {
        if field.starts_with('+') || clocks == 2 {
            break;
        }
        rest.next();
        let n = read_number(field, col, "a move clock")?;
        if clocks == 0 {
            fen.halfmove = n;
        } else {
            fen.fullmove = n;
        }
        clocks += 1;
    }
    if let Some(&(col, counters)) = rest.peek() {
        if let Some(given) = counters.strip_prefix('+') {
            rest.next();
            if fen.checks.is_some() {
                return Err(err(
                    col,
                    counters.chars().count(),
                    "check counters are given twice",
                ));
            }
            fen.checks = Some(CheckCounters::Given(read_counters(given, col + 1)?));
        }
    }
    if let Some((col, extra)) = rest.next() {
        return Err(err(
            col,
            extra.chars().count(),
            format!("unexpected `{extra}` after the end of the FEN"),
        ));
    }
    Ok(fen)
}

/// The placement and the pieces in hand.
type Placement = (Vec<Placed>, Vec<(char, Color)>);

fn read_placement(placement: &str, shape: &Shape, designs: bool) -> Result<Placement, FenError> {
    let ranks = shape.ranks as usize;
    let count = placement.split('/').count();
    if shape.pockets && count == ranks + 1 {
        // The pocket as one more rank: `.../4K3/Qn`.
        let at = placement.rfind('/').unwrap_or(0);
        let col = placement[..=at].chars().count();
        let squares = read_board(&placement[..at], shape, designs)?;
        return Ok((squares, read_pocket(&placement[at + 1..], col, shape)?));
    }
    let unclosed = placement
        .rfind('[')
        .filter(|&at| !placement[at..].contains(']'));
    if let (true, Some(at)) = (shape.pockets, unclosed) {
        let col = placement[..at].chars().count();
        return Err(err(
            col,
            placement.chars().count() - col,
            "a pocket opened with `[` closes with `]` at the end of the placement",
        ));
    }
    if let Some(at) = placement.rfind('[').filter(|_| placement.ends_with(']')) {
        let col = placement[..at].chars().count();
        if !shape.pockets {
            // A black invented piece is in brackets too: this is a pocket only if the board
            // is complete without it.
            if !designs || read_board(&placement[..at], shape, designs).is_ok() {
                return Err(err(
                    col,
                    placement.chars().count() - col,
                    "pockets (`[...]`) are for games with drops, and this one has none",
                ));
            }
        } else if let Ok(squares) = read_board(&placement[..at], shape, designs) {
            let inner = &placement[at + 1..placement.len() - 1];
            return Ok((squares, read_pocket(inner, col + 1, shape)?));
        }
    }
    Ok((read_board(placement, shape, designs)?, Vec::new()))
}

/// The pieces of a pocket, `-` or nothing for none; written at `col`.
fn read_pocket(text: &str, col: usize, shape: &Shape) -> Result<Vec<(char, Color)>, FenError> {
    let mut hand = Vec::new();
    if text == "-" {
        return Ok(hand);
    }
    for (k, c) in text.chars().enumerate() {
        let letter = c.to_ascii_uppercase();
        if !c.is_ascii_alphabetic() || !shape.letters.contains(&letter) {
            return Err(err(
                col + k,
                1,
                format!(
                    "`{c}` in the pocket is not a piece of this definition (its pieces: {})",
                    letter_list(shape)
                ),
            ));
        }
        hand.push((letter, side_of(c)));
    }
    Ok(hand)
}

fn letter_list(shape: &Shape) -> String {
    shape
        .letters
        .iter()
        .map(|l| l.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn read_board(placement: &str, shape: &Shape, designs: bool) -> Result<Vec<Placed>, FenError> {
    let (files, ranks) = (shape.files as usize, shape.ranks as usize);
    let mut squares = vec![Placed::Empty; files * ranks];
    let mut rank_texts: Vec<(usize, &str)> = Vec::new();
    let mut col = 0;
    for part in placement.split('/') {
        rank_texts.push((col, part));
        col += part.chars().count() + 1;
    }
    if rank_texts.len() != ranks {
        let (col, width) = match rank_texts.get(ranks) {
            Some(&(col, part)) => (col, part.chars().count()),
            None => (0, placement.chars().count()),
        };
        return Err(err(
            col,
            width,
            format!(
                "the placement has {} ranks, the board has {ranks}",
                rank_texts.len()
            ),
        ));
    }
    for (i, &(start, part)) in rank_texts.iter().enumerate() {
        let rank = ranks - 1 - i;
        let mut file = 0usize;
        let mut chars = part.chars().enumerate().peekable();
        while let Some((k, c)) = chars.next() {
            let col = start + k;
            let too_long = || {
                err(
                    col,
                    1,
                    format!(
                        "rank {} has more than {files} squares, the width of the board",
                        rank + 1
                    ),
                )
            };
            match c {
                '1'..='9' => {
                    let mut n = c as usize - '0' as usize;
                    let mut width = 1;
                    while let Some(&(_, d)) = chars.peek() {
                        let Some(digit) = d.to_digit(10) else { break };
                        chars.next();
                        width += 1;
                        n = (n * 10 + digit as usize).min(1000);
                    }
                    if file + n > files {
                        return Err(err(
                            col,
                            width,
                            format!(
                                "rank {} has more than {files} squares, the width of the board",
                                rank + 1
                            ),
                        ));
                    }
                    file += n;
                }
                '*' => {
                    if file >= files {
                        return Err(too_long());
                    }
                    let cell = Cell {
                        file: file as u8,
                        rank: rank as u8,
                    };
                    if !shape.holes.contains(&cell) && !shape.blockers {
                        return Err(err(
                            col,
                            1,
                            format!(
                                "`*` marks a square that is not part of the board, but {} is \
                                 (list it in `holes` to cut it out)",
                                shape.name(cell)
                            ),
                        ));
                    }
                    squares[rank * files + file] = Placed::Hole;
                    file += 1;
                }
                c if c.is_ascii_alphabetic() => {
                    if file >= files {
                        return Err(too_long());
                    }
                    let letter = c.to_ascii_uppercase();
                    if !shape.letters.contains(&letter) {
                        let known = letter_list(shape);
                        return Err(err(
                            col,
                            1,
                            format!(
                                "`{c}` is not a piece of this definition (its pieces: {known})"
                            ),
                        ));
                    }
                    on_board(shape, file, rank, col, 1)?;
                    let promoted = chars.next_if(|&(_, c)| c == '~').is_some();
                    squares[rank * files + file] = Placed::Piece {
                        letter,
                        color: side_of(c),
                        promoted,
                    };
                    file += 1;
                }
                '(' | '[' if designs => {
                    if file >= files {
                        return Err(too_long());
                    }
                    let byte = part.char_indices().nth(k).map_or(part.len(), |(b, _)| b);
                    let label = (rank + 1).to_string();
                    let (piece, len) = crate::rules::board::design_in_fen(&part[byte..], &label)
                        .map_err(|e| err(col, part[byte..].chars().count(), e))?;
                    let text = &part[byte..byte + len];
                    on_board(shape, file, rank, col, text.chars().count())?;
                    // The opening character is taken; the rest of the design follows it.
                    for _ in 1..text.chars().count() {
                        chars.next();
                    }
                    if let Some(design) = piece.design() {
                        squares[rank * files + file] = Placed::Design {
                            design,
                            color: piece.color(),
                        };
                    }
                    file += 1;
                }
                '~' => return Err(err(col, 1, "`~` stands right after a promoted piece")),
                '[' => {
                    return Err(err(
                        col,
                        1,
                        "unexpected `[` in the placement: pockets (`[...]`) follow the whole \
                         placement, in games with drops; a Black invented piece in brackets \
                         stands only in a scenario's FEN",
                    ))
                }
                '+' => {
                    if file >= files {
                        return Err(too_long());
                    }
                    let Some((_, b)) = chars.next_if(|&(_, b)| b.is_ascii_alphabetic()) else {
                        return Err(err(col, 1, "`+` stands right before a piece letter"));
                    };
                    let base = b.to_ascii_uppercase();
                    let Some(&(_, letter)) = shape.promoted.iter().find(|(p, _)| *p == base) else {
                        return Err(err(
                            col,
                            2,
                            format!("`+{b}`: `{base}` promotes into no kind of its own here"),
                        ));
                    };
                    on_board(shape, file, rank, col, 2)?;
                    squares[rank * files + file] = Placed::Piece {
                        letter,
                        color: side_of(b),
                        promoted: false,
                    };
                    file += 1;
                }
                _ => {
                    return Err(err(
                        col,
                        1,
                        format!(
                            "unexpected `{c}` in the placement: expected a piece letter, a \
                             number of empty squares, `*` or `/`"
                        ),
                    ))
                }
            }
        }
        if file < files {
            let width = part.chars().count();
            return Err(err(
                start,
                width,
                format!(
                    "rank {} has {file} squares, the board has {files} files",
                    rank + 1
                ),
            ));
        }
    }
    for hole in shape.holes {
        if let Some(square) = squares.get_mut(hole.rank as usize * files + hole.file as usize) {
            *square = Placed::Hole;
        }
    }
    Ok(squares)
}

fn read_castling(text: &str, col: usize, shape: &Shape) -> Result<Vec<CastlingRight>, FenError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    let mut rights: Vec<CastlingRight> = Vec::new();
    for (k, c) in text.chars().enumerate() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rook = match c.to_ascii_lowercase() {
            'k' => RookRef::Kingside,
            'q' => RookRef::Queenside,
            f if f.is_ascii_lowercase() && (f as u8 - b'a') < shape.files => {
                RookRef::File(f as u8 - b'a')
            }
            _ => {
                let last = (b'a' + shape.files - 1) as char;
                return Err(err(
                    col + k,
                    1,
                    format!(
                        "unexpected `{c}` in the castling rights: expected `-`, `K`, `Q`, `k`, \
                         `q` or a rook's file `a` to `{last}` (upper case for White)"
                    ),
                ));
            }
        };
        let right = CastlingRight { color, rook };
        if rights.contains(&right) {
            return Err(err(
                col + k,
                1,
                format!("castling right `{c}` is given twice"),
            ));
        }
        rights.push(right);
    }
    Ok(rights)
}

fn read_squares(text: &str, col: usize, shape: &Shape) -> Result<Vec<Cell>, FenError> {
    let chars: Vec<char> = text.chars().collect();
    let first = shape.first_rank();
    let mut cells = Vec::new();
    let mut k = 0;
    while k < chars.len() {
        let start = k;
        let c = chars[k];
        let Some(file) = shape.file_of(c) else {
            return Err(err(
                col + k,
                1,
                format!(
                    "expected an en-passant square (a file {}, then a rank) or `-`, found `{c}`",
                    shape.file_choices()
                ),
            ));
        };
        k += 1;
        let mut rank: u32 = 0;
        let digits = k;
        while k < chars.len() && chars[k].is_ascii_digit() {
            rank = (rank * 10 + chars[k] as u32 - '0' as u32).min(1000);
            k += 1;
        }
        if k == digits || rank < first || rank - first >= u32::from(shape.ranks) {
            return Err(err(
                col + start,
                k - start,
                format!(
                    "`{}` is not a square of the board (ranks {first} to {})",
                    chars[start..k].iter().collect::<String>(),
                    first + u32::from(shape.ranks) - 1
                ),
            ));
        }
        let cell = Cell {
            file,
            rank: (rank - first) as u8,
        };
        if shape.holes.contains(&cell) {
            return Err(err(
                col + start,
                k - start,
                format!("{} is not part of the board (a hole)", shape.name(cell)),
            ));
        }
        cells.push(cell);
    }
    Ok(cells)
}

fn read_counters(text: &str, col: usize) -> Result<[u32; 2], FenError> {
    let Some((white, black)) = text.split_once('+') else {
        return Err(err(
            col,
            text.chars().count(),
            "expected check counters `<white>+<black>`",
        ));
    };
    let w = read_number(white, col, "a check counter")?;
    let b = read_number(black, col + white.chars().count() + 1, "a check counter")?;
    Ok([w, b])
}

fn read_number(text: &str, col: usize, what: &str) -> Result<u32, FenError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(
            col,
            text.chars().count(),
            format!("expected {what} (a number), found `{text}`"),
        ));
    }
    text.parse().map_err(|_| {
        err(
            col,
            text.chars().count(),
            format!("{what} `{text}` is too large"),
        )
    })
}
