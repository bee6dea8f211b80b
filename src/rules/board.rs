//! Board geometry and the padded mailbox that every variant's move generator walks.
//!
//! Boards are up to 16x16. Cells live in a fixed 22-wide mailbox with a three-cell wall on every
//! side, so a leap of up to three squares (the extended knight, the mage, csipgs `H` and `G`)
//! from any square lands on a wall cell instead of wrapping around. Direction offsets are
//! therefore the same for every board size.

use std::fmt;

use super::design;
use super::piece::{Color, Piece};

pub const MAX_FILES: u8 = 16;
pub const MAX_RANKS: u8 = 16;
const PAD: i32 = 3;
/// Cells per mailbox row.
pub const STRIDE: i32 = MAX_FILES as i32 + 2 * PAD;
/// Cells in the mailbox.
pub const CELLS: usize = (STRIDE * (MAX_RANKS as i32 + 2 * PAD)) as usize;

/// Raw cell codes for the hot paths of move generators: a cell holds `EMPTY`, `WALL`, or a
/// [`Piece`] code `role << 1 | colour`, whose role part is one of the role codes here.
pub mod cell {
    use crate::rules::piece::Role;

    pub const EMPTY: u8 = 0;
    pub const WALL: u8 = 0xFF;
    pub const KING: u8 = Role::King.code();
    pub const QUEEN: u8 = Role::Queen.code();
    pub const ROOK: u8 = Role::Rook.code();
    pub const BISHOP: u8 = Role::Bishop.code();
    pub const KNIGHT: u8 = Role::Knight.code();
    pub const PAWN: u8 = Role::Pawn.code();
    pub const SPY: u8 = Role::Spy.code();
}

use cell::{EMPTY, WALL};

/// The mailbox index of a file and rank, for tables built at compile time.
pub const fn mailbox(file: i32, rank: i32) -> i32 {
    (rank + PAD) * STRIDE + file + PAD
}

/// A square by file and rank, both counted from zero at White's lower left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    pub file: u8,
    pub rank: u8,
}

impl Square {
    pub const fn new(file: u8, rank: u8) -> Square {
        Square { file, rank }
    }
}

/// A mailbox index. Only meaningful together with a [`Board`] of the same layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sq(pub u16);

impl Sq {
    #[inline]
    pub fn of(square: Square) -> Sq {
        Sq(((square.rank as i32 + PAD) * STRIDE + square.file as i32 + PAD) as u16)
    }

    #[inline]
    pub fn square(self) -> Square {
        let i = self.0 as i32;
        Square::new((i % STRIDE - PAD) as u8, (i / STRIDE - PAD) as u8)
    }

    /// The cell `df` files and `dr` ranks away. The caller keeps `|df|, |dr| <= 3` per step, so
    /// the result is always inside the mailbox.
    #[inline]
    pub fn offset(self, delta: i32) -> Sq {
        Sq((self.0 as i32 + delta) as u16)
    }

    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A mailbox offset for a step of `df` files and `dr` ranks.
#[inline]
pub const fn delta(df: i32, dr: i32) -> i32 {
    dr * STRIDE + df
}

/// The board squares strictly between two squares on one line (a file, a rank or a
/// diagonal); none when they are not on one, or next to each other.
pub fn between(from: Square, to: Square) -> Vec<Sq> {
    let (df, dr) = (
        i32::from(to.file) - i32::from(from.file),
        i32::from(to.rank) - i32::from(from.rank),
    );
    let n = df.abs().max(dr.abs());
    if n < 2 || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return Vec::new();
    }
    let d = delta(df.signum(), dr.signum());
    (1..n).map(|k| Sq::of(from).offset(k * d)).collect()
}

/// How squares are named on one board: file labels left to right, rank labels bottom to top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    pub files: u8,
    pub ranks: u8,
    file_labels: &'static [&'static str],
    /// The number that names the first rank: 1 in chess, 0 in Cypher Chess.
    first_rank: u8,
}

const LETTERS: [&str; 26] = [
    "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s",
    "t", "u", "v", "w", "x", "y", "z",
];

/// The file labels of `letters` (one small letter a file, `zabcdefghi`) as a table that lives
/// for the run, for [`Geometry::labelled`]. Tables are interned: the same letters give the same
/// table, and each label is a slice of one static alphabet, so reading definitions again and
/// again (the language server reads one on every keystroke) allocates once per distinct table,
/// at most 16 pointers. `None` when a character is not a small ASCII letter or there are more
/// than [`MAX_FILES`].
pub fn file_labels(letters: &str) -> Option<&'static [&'static str]> {
    use std::collections::HashMap;
    use std::sync::{LazyLock, Mutex};
    static TABLES: LazyLock<Mutex<HashMap<String, &'static [&'static str]>>> =
        LazyLock::new(Default::default);
    if letters.is_empty()
        || letters.len() > MAX_FILES as usize
        || !letters.bytes().all(|b| b.is_ascii_lowercase())
    {
        return None;
    }
    if "abcdefghijklmnopqrstuvwxyz".starts_with(letters) {
        return Some(&LETTERS[..letters.len()]);
    }
    let mut tables = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&t) = tables.get(letters) {
        return Some(t);
    }
    let table: Vec<&'static str> = letters
        .bytes()
        .map(|b| LETTERS[(b - b'a') as usize])
        .collect();
    let table: &'static [&'static str] = Box::leak(table.into_boxed_slice());
    tables.insert(letters.to_string(), table);
    Some(table)
}

impl Geometry {
    /// Files `a`, `b`, ... and ranks from 1, as in orthodox chess.
    pub fn lettered(files: u8, ranks: u8) -> Geometry {
        assert!(files <= MAX_FILES && ranks <= MAX_RANKS && files > 0 && ranks > 0);
        Geometry {
            files,
            ranks,
            file_labels: &LETTERS[..files as usize],
            first_rank: 1,
        }
    }

    /// Arbitrary file labels and a first rank number.
    pub fn labelled(file_labels: &'static [&'static str], ranks: u8, first_rank: u8) -> Geometry {
        assert!(file_labels.len() <= MAX_FILES as usize && ranks <= MAX_RANKS);
        Geometry {
            files: file_labels.len() as u8,
            ranks,
            file_labels,
            first_rank,
        }
    }

    /// The labels of the files, left to right.
    pub fn file_labels(&self) -> &'static [&'static str] {
        self.file_labels
    }

    /// The number that names the first rank.
    pub fn first_rank(&self) -> u8 {
        self.first_rank
    }

    pub fn contains(&self, square: Square) -> bool {
        square.file < self.files && square.rank < self.ranks
    }

    pub fn file_label(&self, file: u8) -> &'static str {
        self.file_labels[file as usize]
    }

    pub fn rank_label(&self, rank: u8) -> String {
        (rank as u32 + self.first_rank as u32).to_string()
    }

    pub fn file_of(&self, label: &str) -> Option<u8> {
        self.file_labels
            .iter()
            .position(|l| *l == label)
            .map(|i| i as u8)
    }

    pub fn rank_of(&self, label: &str) -> Option<u8> {
        if label.is_empty() || !label.bytes().all(|b| b.is_ascii_digit()) || label.len() > 3 {
            return None;
        }
        let n: u32 = label.parse().ok()?;
        let r = n.checked_sub(self.first_rank as u32)?;
        (r < self.ranks as u32).then_some(r as u8)
    }

    /// Parses a square name such as `e4` or `z10`.
    pub fn parse_square(&self, text: &str) -> Option<Square> {
        let split = text.find(|c: char| c.is_ascii_digit())?;
        let file = self.file_of(&text[..split])?;
        let rank = self.rank_of(&text[split..])?;
        Some(Square::new(file, rank))
    }

    pub fn square_name(&self, square: Square) -> String {
        format!(
            "{}{}",
            self.file_label(square.file),
            self.rank_label(square.rank)
        )
    }

    /// A one-line description of the valid squares, for error messages.
    pub fn describe(&self) -> String {
        format!(
            "files {}..{}, ranks {}..{}",
            self.file_labels[0],
            self.file_labels[self.files as usize - 1],
            self.first_rank,
            self.first_rank as u32 + self.ranks as u32 - 1
        )
    }

    /// Every square, rank by rank from White's side, files left to right.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.ranks).flat_map(move |r| (0..self.files).map(move |f| Square::new(f, r)))
    }
}

/// A designed piece at the start of `text`: `(design)` for White, `[design]` for Black, the
/// design's own parentheses nested inside; returns the piece and the length it took, in bytes.
/// `label` names the rank in the error.
pub(crate) fn design_in_fen(text: &str, label: &str) -> Result<(Piece, usize), String> {
    let (open, close, color) = if text.starts_with('(') {
        ('(', ')', Color::White)
    } else {
        ('[', ']', Color::Black)
    };
    let mut depth = 0usize;
    let mut end = None;
    for (i, c) in text.char_indices() {
        if c == open || c == '(' {
            depth += 1;
        } else if c == close || c == ')' {
            depth = depth.saturating_sub(1);
            if depth == 0 && c == close {
                end = Some(i);
                break;
            }
        }
    }
    let shown: String = text.chars().take(40).collect();
    let end =
        end.ok_or_else(|| format!("rank {label}: the design `{shown}` has no closing `{close}`"))?;
    let inner = &text[1..end];
    let id = design::intern(inner)
        .map_err(|e| format!("rank {label}: `{open}{inner}{close}` is {e}"))?;
    Ok((Piece::designed(color, id), end + close.len_utf8()))
}

/// The cells of a board: pieces, empty squares and the wall around them.
#[derive(Clone)]
pub struct Board {
    cells: [u8; CELLS],
    geometry: Geometry,
}

impl Board {
    pub fn empty(geometry: Geometry) -> Board {
        let mut cells = [WALL; CELLS];
        for sq in geometry.squares() {
            cells[Sq::of(sq).index()] = EMPTY;
        }
        Board { cells, geometry }
    }

    #[inline]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    #[inline]
    pub fn piece_at(&self, sq: Sq) -> Option<Piece> {
        Piece::from_code(self.cells[sq.index()])
    }

    #[inline]
    pub fn is_empty(&self, sq: Sq) -> bool {
        self.cells[sq.index()] == EMPTY
    }

    #[inline]
    pub fn is_wall(&self, sq: Sq) -> bool {
        self.cells[sq.index()] == WALL
    }

    /// The raw cell byte: 0 empty, 0xFF wall, otherwise a [`Piece`] code.
    #[inline]
    pub fn cell(&self, sq: Sq) -> u8 {
        self.cells[sq.index()]
    }

    #[inline]
    pub fn set(&mut self, sq: Sq, piece: Option<Piece>) {
        debug_assert!(!self.is_wall(sq));
        self.cells[sq.index()] = piece.map_or(EMPTY, Piece::code);
    }

    /// Writes a raw cell code (`EMPTY` or a piece code), for the hot paths that undo what
    /// they tried.
    #[inline(always)]
    pub(crate) fn set_cell(&mut self, sq: Sq, code: u8) {
        debug_assert!(!self.is_wall(sq) && code != WALL);
        self.cells[sq.index()] = code;
    }

    pub fn get(&self, square: Square) -> Option<Piece> {
        if self.geometry.contains(square) {
            self.piece_at(Sq::of(square))
        } else {
            None
        }
    }

    /// Takes a square out of the board (a hole, `*` in a FEN): nothing stands on it or
    /// passes through it, as on the wall around the board.
    pub fn remove_square(&mut self, square: Square) {
        assert!(self.geometry.contains(square), "square off the board");
        self.cells[Sq::of(square).index()] = WALL;
    }

    /// Puts back, empty, a square that [`Self::remove_square`] took out: a neutral blocker
    /// that moves on (the duck) leaves it.
    pub fn restore_square(&mut self, square: Square) {
        assert!(self.geometry.contains(square), "square off the board");
        self.cells[Sq::of(square).index()] = EMPTY;
    }

    pub fn put(&mut self, square: Square, piece: Option<Piece>) {
        assert!(self.geometry.contains(square), "square off the board");
        self.set(Sq::of(square), piece);
    }

    /// Every occupied square with its piece, in [`Geometry::squares`] order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.geometry
            .squares()
            .filter_map(move |s| self.get(s).map(|p| (s, p)))
    }

    /// The placement part of a FEN: ranks from the top, `/` between them.
    pub fn fen_placement(&self) -> String {
        let g = self.geometry;
        let mut out = String::new();
        for rank in (0..g.ranks).rev() {
            let mut run = 0;
            for file in 0..g.files {
                match self.get(Square::new(file, rank)) {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            out.push_str(&run.to_string());
                            run = 0;
                        }
                        out.push_str(&p.fen_text());
                    }
                }
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// Parses the placement part of a FEN for this geometry.
    pub fn from_fen_placement(geometry: Geometry, text: &str) -> Result<Board, String> {
        let mut board = Board::empty(geometry);
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != geometry.ranks as usize {
            return Err(format!(
                "the placement has {} ranks; this board has {}",
                rows.len(),
                geometry.ranks
            ));
        }
        let files = geometry.files as usize;
        for (i, row) in rows.iter().enumerate() {
            let rank = geometry.ranks - 1 - i as u8;
            let label = geometry.rank_label(rank);
            let mut file = 0usize;
            let mut rest = *row;
            while let Some(c) = rest.chars().next() {
                if c.is_ascii_digit() {
                    let len = rest
                        .find(|c: char| !c.is_ascii_digit())
                        .unwrap_or(rest.len());
                    let digits = &rest[..len];
                    rest = &rest[len..];
                    // Parsed with a bound, so that no run of digits can overflow the count.
                    let run = digits
                        .parse::<usize>()
                        .ok()
                        .filter(|n| (1..=files).contains(n));
                    match run {
                        Some(n) => file += n,
                        None => {
                            let shown: String = digits.chars().take(20).collect();
                            return Err(format!(
                                "rank {label}: a run of `{shown}` empty squares; a run is 1 to {files} on this board"
                            ));
                        }
                    }
                } else {
                    let piece = if c == '(' || c == '[' {
                        let (piece, len) = design_in_fen(rest, &label)?;
                        rest = &rest[len..];
                        piece
                    } else {
                        rest = &rest[c.len_utf8()..];
                        Piece::from_fen_char(c).ok_or_else(|| {
                            format!(
                                "rank {label}: `{}` is not a piece letter (K Q R B N P S G M A, upper case for white), a design (`(WD)` white, `[WD]` black) nor a number of empty squares",
                                c.escape_debug()
                            )
                        })?
                    };
                    if file < files {
                        board.put(Square::new(file as u8, rank), Some(piece));
                    }
                    file += 1;
                }
                if file > files {
                    return Err(format!(
                        "rank {label} describes more than the {files} files of this board"
                    ));
                }
            }
            if file != files {
                return Err(format!(
                    "rank {label} describes {file} files; this board has {files}"
                ));
            }
        }
        Ok(board)
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.geometry == other.geometry && self.cells[..] == other.cells[..]
    }
}

impl Eq for Board {}

impl std::hash::Hash for Board {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.cells[..].hash(state);
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.fen_placement())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn designs_stand_on_boards_and_in_fen_placements() {
        let g = Geometry::lettered(8, 8);
        let text = "4k3/8/8/3[fmWfcF]4/8/4(W(D)N)3/8/4K3";
        let b = Board::from_fen_placement(g, text).unwrap();
        let white = b.get(g.parse_square("e3").unwrap()).unwrap();
        assert_eq!(white.color(), Color::White);
        assert_eq!(white.role(), crate::rules::Role::Design);
        assert_eq!(white.design().unwrap().text(), "WDN");
        assert_eq!(white.to_string(), "white (WDN)");
        let black = b.get(g.parse_square("d5").unwrap()).unwrap();
        assert_eq!(black.color(), Color::Black);
        // Written back canonically, and read back the same.
        let again = b.fen_placement();
        assert_eq!(again, "4k3/8/8/3[fmWfcF]4/8/4(WDN)3/8/4K3");
        assert_eq!(
            Board::from_fen_placement(g, &again)
                .unwrap()
                .fen_placement(),
            again
        );
    }

    #[test]
    fn broken_designs_in_a_placement_say_where_and_why() {
        let g = Geometry::lettered(8, 8);
        let e = |t: &str| Board::from_fen_placement(g, t).map(|_| ()).unwrap_err();
        assert!(
            e("4k3/8/8/8/8/8/8/3(WD4").contains("has no closing `)`"),
            "{}",
            e("4k3/8/8/8/8/8/8/3(WD4")
        );
        assert!(e("4k3/8/8/8/8/8/8/3(WX)3K").contains("rank 1: `(WX)` is not a design"));
        assert!(e("4k3/8/8/8/8/8/8/3[WD3").contains("no closing `]`"));
    }
}
