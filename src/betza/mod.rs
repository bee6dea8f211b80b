//! Ralph Betza's "funny notation" for piece moves, as used by csipgs chess
//! (`Wfc(DNFA)scDsHbmH`, `RbcBbN`) and by Fairy-Stockfish's `from_betza`.
//!
//! This module stands alone: it turns a design's text into a [`Design`], a list of [`Atom`]s,
//! each a leap with a range, a set of concrete step vectors and a modality, and prints a
//! design back in a canonical form ([`Design`]'s `Display`) that parses to the same design.
//!
//! ```
//! use arbiter::betza::{Design, Modality, Side};
//!
//! let pawn: Design = "fcFfmW".parse().unwrap();
//! assert_eq!(pawn.vectors(Side::White), vec![(-1, 1), (0, 1), (1, 1)]);
//! assert_eq!(pawn.vectors(Side::Black), vec![(-1, -1), (0, -1), (1, -1)]);
//! assert_eq!(pawn.atoms()[0].modality(), Modality::Capture);
//! assert_eq!("WWfc(DF)".parse::<Design>().unwrap().to_string(), "Rfc(DF)");
//! let error = "fcx".parse::<Design>().unwrap_err();
//! assert_eq!(error.offset(), 2);
//! ```
//!
//! # Supported notation
//!
//! - **Atoms**: `W` (0,1), `F` (1,1), `D` (0,2), `N` (1,2), `A` (2,2), `H` (0,3), `L` (1,3,
//!   the camel, also written `C`), `Z` (2,3, the zebra, also written `J`), `G` (3,3).
//! - **Shortcuts**: `R` = `WW`, `B` = `FF`, `Q` = `RB`, `K` = `WF`. They expand to their
//!   atoms, so `Q` is the two atoms `R` and `B`, each with the modifiers written before `Q`.
//! - **Riders**: a doubled atom rides without limit (`NN`, `WW` = `R`); a number after an
//!   atom limits it to that many steps (`R4` = `W4`, `N2`, `K2` = `W2F2`), 1 to 255. A range of
//!   1 is the leaper itself (`W1` = `W`). Doubling a shortcut rider (`RR`) is an error, and
//!   so is a range after a doubled atom (`NN2`). `KK` doubles both of `K`'s atoms (= `Q`).
//! - **Modalities**: `m` move only, `c` capture only; neither (or both) means both.
//! - **Kinds**, as Fairy-Stockfish's `from_betza` reads them ([`Kind`]):
//!   - `n`, a lame (non-jumping) leaper: a piece on a square of the leap's path blocks it. The
//!     path is Fairy-Stockfish's ([`lame_path`]): from the start, one square along the axis
//!     on which more of the leap remains, or diagonally when as much remains on both. So `nN`
//!     (the xiangqi horse) is blocked by the orthogonal neighbour in its long direction, `nA`
//!     (the xiangqi elephant) by the diagonal middle square, `nD` (`fmnD`, a pawn's double
//!     step) by the middle square, the zebra `nZ` (2,3) by (0,1) and (1,2) (Janggi's
//!     elephant). These four are the lame leaps Fairy-Stockfish's engine generates. The same
//!     path gives `nH` both squares between, the camel `nL` (1,3) the two orthogonal squares
//!     (0,1) and (0,2), `nG` (1,1) and (2,2), and `nW`, `nF` none (they move as `W`, `F`):
//!     Fairy-Stockfish's path function reads them so, but its engine gives these pieces no
//!     lame move at all, so a game meant to match its counts uses `nD nN nA nZ` only. Leapers
//!     only: `n` on a rider (`nR`, `nNN`, `nN2`) is an error, since Fairy-Stockfish ignores
//!     it there.
//!   - `p`, a hopper (the cannon): it rides along a rank, file or diagonal, passes exactly one
//!     piece (the screen) anywhere on it, then moves to empty squares or captures the first
//!     piece beyond (`pR`, `pB`, `pQ`; `mRcpR` is the xiangqi cannon). As in
//!     Fairy-Stockfish, a hopper on a leaper rides its line (`pW` = `pR`, `pK` = `pQ`).
//!   - `g`, the grasshopper: it passes the first piece on the line and lands on the square
//!     right behind it, empty or to capture (`gQ`, `gR`, `gB`).
//!   - Fairy-Stockfish's hoppers move on ranks, files and diagonals only and have no range:
//!     `p` or `g` on `D N A H L C Z J G` is an error, and so is a range after a hopper
//!     (`pR3`). An atom is at most one of `n`, `p`, `g` (`pnN` is an error); a kind letter,
//!     like `m` and `c`, keeps the direction letters around it apart.
//!
//! For Black every vector is turned half round (dx and dy negated), as in Fairy-Stockfish:
//! directions are the piece's own, so `l` is the left of the player who owns it ([`Side`]).
//! Every left-right symmetric design (all those of the csipgs sample game) moves the same
//! whether Black's vectors are turned or mirrored; `l`, `r` and their pairs tell them apart.
//!
//! # Canonical form
//!
//! `Display` keeps the atoms in their order (no merging of different atoms: `WR` stays
//! `WR`, since csipgs prices atoms one by one), and writes each one canonically: the
//! shortest direction text for its set of vectors (`fbD` prints as `vD`, `ffN` as `fN`), then
//! `m` or `c`, then `n`, `p` or `g` (a hopper with its rider letter: `pW` prints as `pR`,
//! `gF` as `gB`), then the letter (`L` and `Z`, not `C` and `J`; a `W` or `F` rider as `R` or
//! `B`, with its range: `WW` prints as `R`, `W4` as `R4`), then the range. Two consecutive
//! atoms W and F with all their directions, the same range and the same modality print as
//! `K` (or `Q`, `Q4` for riders); a run of two or more atoms with the same non-empty prefix
//! prints as a group (`fc(DNFA)`). An atom that would otherwise run into the letter before it
//! (`N` then `NN` as `NNN`) is put in parentheses: `N(NN)`.
//!
//! # Not supported
//!
//! `j`, initial moves (`i`), en passant (`e`), multi-leg moves (`a`), check-only moves (`k`),
//! bent, crooked and circular riders (`t`, `z`, `q`), `o`, `d`, `u` and castling (`O`) are
//! refused with [`BetzaError::Unsupported`], which names the feature: a variant expresses
//! double steps, en passant and castling as rule components, not in a piece's design
//! (`ifmnD` is written `fmnD` with a double-step region). XBetza's `0` for an unlimited range
//! is refused as a range of 0. Leaps longer than 3 squares on an axis have no letter here:
//! the engine's board is padded by 3 cells, the most one step may cross. Whole-piece
//! properties (royal, colourbound, relay) are not part of a design's text.

mod directions;
mod error;
mod parse;

use std::fmt;
use std::str::FromStr;

pub use error::{BetzaError, Expected, InvalidAtom, Unsupported};
pub use parse::MAX_GROUP_DEPTH;

/// How an atom treats the squares it passes over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// No modifier: a leaper jumps over them, a rider needs them empty.
    Jumping,
    /// `n`, a lame (non-jumping) leaper: a piece on a square of the leap's path (see
    /// [`lame_path`]) blocks the leap. Leapers only.
    Lame,
    /// `p` or `g`, a hopper: the atom rides along its rank, file or diagonal, passes exactly
    /// one piece (the screen) anywhere on it, and then goes on as a rider whose range counts
    /// the squares beyond the screen: [`Range::Leaper`] lands right behind the screen (the
    /// grasshopper, `g`), [`Range::Unlimited`] goes any distance (the cannon, `p`).
    Hopper,
}

/// The squares a lame leap by `(dx, dy)` passes over, as offsets from its start, and how
/// many there are (at most 2 for leaps of up to 3 squares), as Fairy-Stockfish reads `n`: from
/// the start, step one square along the axis on which more of the leap remains, or diagonally
/// when as much remains on both, until the destination. So `nN` is blocked on the orthogonal
/// neighbour in the leap's long direction (the xiangqi horse), `nA` on the diagonal middle
/// square (the xiangqi elephant), `nD` on the middle square, `nH` on both squares between;
/// the camel `nL` (1,3) on the two orthogonal squares (0,1), (0,2); the zebra `nZ` (2,3) on
/// (0,1) and (1,2) (Janggi's elephant); `nG` (3,3) on (1,1), (2,2). `W` and `F` pass over
/// nothing.
pub fn lame_path(dx: i32, dy: i32) -> ([(i32, i32); 2], usize) {
    let mut out = [(0, 0); 2];
    let mut n = 0;
    let (mut x, mut y) = (0, 0);
    // Leaps longer than 3 squares have no path here (none exists in the notation).
    while (x, y) != (dx, dy) && n < 2 {
        let (rx, ry) = (dx - x, dy - y);
        match rx.abs().cmp(&ry.abs()) {
            std::cmp::Ordering::Greater => x += rx.signum(),
            std::cmp::Ordering::Less => y += ry.signum(),
            std::cmp::Ordering::Equal => {
                x += rx.signum();
                y += ry.signum();
            }
        }
        if (x, y) != (dx, dy) {
            out[n] = (x, y);
            n += 1;
        }
    }
    (out, n)
}

/// The geometry of an atom's leap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Along a rank or file: W, D, H.
    Orthogonal,
    /// Along a diagonal: F, A, G.
    Diagonal,
    /// Neither: N, L, Z.
    Oblique,
}

/// The leap of an atom, by its letter. [`Leap::coords`] gives the leap as `(a, b)`, a <= b.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Leap {
    /// Wazir (0,1).
    W,
    /// Ferz (1,1).
    F,
    /// Dabbaba (0,2).
    D,
    /// Knight (1,2).
    N,
    /// Alfil (2,2).
    A,
    /// Threeleaper (0,3).
    H,
    /// Camel (1,3), also written `C`.
    L,
    /// Zebra (2,3), also written `J`.
    Z,
    /// Tripper (3,3).
    G,
}

impl Leap {
    /// Every leap.
    pub const ALL: [Leap; 9] = [
        Leap::W,
        Leap::F,
        Leap::D,
        Leap::N,
        Leap::A,
        Leap::H,
        Leap::L,
        Leap::Z,
        Leap::G,
    ];

    /// The leap `(a, b)` with a <= b: N is (1,2).
    pub fn coords(self) -> (u8, u8) {
        match self {
            Leap::W => (0, 1),
            Leap::F => (1, 1),
            Leap::D => (0, 2),
            Leap::N => (1, 2),
            Leap::A => (2, 2),
            Leap::H => (0, 3),
            Leap::L => (1, 3),
            Leap::Z => (2, 3),
            Leap::G => (3, 3),
        }
    }

    /// The canonical letter.
    pub fn letter(self) -> char {
        match self {
            Leap::W => 'W',
            Leap::F => 'F',
            Leap::D => 'D',
            Leap::N => 'N',
            Leap::A => 'A',
            Leap::H => 'H',
            Leap::L => 'L',
            Leap::Z => 'Z',
            Leap::G => 'G',
        }
    }

    /// The leap of an atom letter, aliases included (`C` = `L`, `J` = `Z`); not shortcuts.
    pub fn from_letter(c: char) -> Option<Leap> {
        Some(match c {
            'W' => Leap::W,
            'F' => Leap::F,
            'D' => Leap::D,
            'N' => Leap::N,
            'A' => Leap::A,
            'H' => Leap::H,
            'L' | 'C' => Leap::L,
            'Z' | 'J' => Leap::Z,
            'G' => Leap::G,
            _ => return None,
        })
    }

    /// Orthogonal, diagonal or oblique.
    pub fn shape(self) -> Shape {
        match self.coords() {
            (0, _) => Shape::Orthogonal,
            (a, b) if a == b => Shape::Diagonal,
            _ => Shape::Oblique,
        }
    }

    /// Every vector of the leap for White (4 for orthogonal and diagonal leaps, 8 for
    /// oblique ones), in a fixed order: the order of the bits of an atom's direction mask.
    pub fn vectors(self) -> Vec<(i32, i32)> {
        let (a, b) = self.coords();
        let (a, b) = (i32::from(a), i32::from(b));
        let mut out: Vec<(i32, i32)> = Vec::with_capacity(8);
        for v in [
            (a, b),
            (-a, b),
            (b, a),
            (-b, a),
            (b, -a),
            (-b, -a),
            (a, -b),
            (-a, -b),
        ] {
            if !out.contains(&v) {
                out.push(v);
            }
        }
        out
    }

    fn full_mask(self) -> u8 {
        match self.shape() {
            Shape::Oblique => 0xff,
            _ => 0x0f,
        }
    }
}

/// How far an atom goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Range {
    /// One leap.
    Leaper,
    /// Any number of leaps in the same direction, each to an empty square but the last.
    Unlimited,
    /// Up to this many leaps (at least 2 in an [`Atom`]: a range of 1 is [`Range::Leaper`]).
    Limited(u8),
}

/// What a move may do at its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Modality {
    /// Only to an empty square (`m`).
    Move,
    /// Only to capture (`c`).
    Capture,
    /// Either (no letter).
    Both,
}

impl Modality {
    /// Whether the move may go to an empty square.
    pub fn can_move(self) -> bool {
        self != Modality::Capture
    }

    /// Whether the move may capture.
    pub fn can_capture(self) -> bool {
        self != Modality::Move
    }
}

/// A player, for the direction of "forward".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Forward is up (dy > 0): vectors as they are.
    White,
    /// Forward is down and left is White's right: (dx, dy) becomes (-dx, -dy).
    Black,
}

/// One atom of a design: a leap, its range, the concrete vectors it may use (for White) and
/// its modality.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    leap: Leap,
    range: Range,
    /// Bit i: vector i of `leap.vectors()`.
    mask: u8,
    modality: Modality,
    kind: Kind,
}

impl Atom {
    /// An atom in every direction of its leap. A range of `Limited(1)` becomes `Leaper`.
    pub fn new(leap: Leap, range: Range, modality: Modality) -> Result<Atom, InvalidAtom> {
        Ok(Atom {
            leap,
            range: normal_range(range)?,
            mask: leap.full_mask(),
            modality,
            kind: Kind::Jumping,
        })
    }

    /// The same atom made lame or a hopper. A lame atom is a leaper; a hopper moves along
    /// ranks, files or diagonals (W, F), the lines Fairy-Stockfish's hoppers use, with a range
    /// of [`Range::Leaper`] (the grasshopper) or [`Range::Unlimited`] (the cannon).
    pub fn with_kind(self, kind: Kind) -> Result<Atom, InvalidAtom> {
        match kind {
            Kind::Lame if self.range != Range::Leaper => Err(InvalidAtom::LameRider),
            Kind::Hopper if !matches!(self.leap, Leap::W | Leap::F) => {
                Err(InvalidAtom::HopperLine(self.leap))
            }
            Kind::Hopper if matches!(self.range, Range::Limited(_)) => {
                Err(InvalidAtom::HopperRange)
            }
            _ => Ok(Atom { kind, ..self }),
        }
    }

    /// An atom limited to some of its leap's vectors (for White; duplicates are ignored).
    pub fn with_vectors(
        leap: Leap,
        range: Range,
        vectors: &[(i32, i32)],
        modality: Modality,
    ) -> Result<Atom, InvalidAtom> {
        let all = leap.vectors();
        let mut mask = 0u8;
        for &v in vectors {
            let Some(i) = all.iter().position(|&w| w == v) else {
                return Err(InvalidAtom::NotOfLeap(v));
            };
            mask |= 1 << i;
        }
        if mask == 0 {
            return Err(InvalidAtom::NoVectors);
        }
        Ok(Atom {
            leap,
            range: normal_range(range)?,
            mask,
            modality,
            kind: Kind::Jumping,
        })
    }

    /// The leap.
    pub fn leap(&self) -> Leap {
        self.leap
    }

    /// The leap as `(a, b)` with a <= b.
    pub fn coords(&self) -> (u8, u8) {
        self.leap.coords()
    }

    /// The range: leaper, unlimited rider, or rider up to n leaps.
    pub fn range(&self) -> Range {
        self.range
    }

    /// Whether the atom rides (makes more than one leap).
    pub fn is_rider(&self) -> bool {
        self.range != Range::Leaper
    }

    /// Move only, capture only, or both.
    pub fn modality(&self) -> Modality {
        self.modality
    }

    /// Jumping, lame or a hopper.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Whether the atom has every direction of its leap.
    pub fn is_all_directions(&self) -> bool {
        self.mask == self.leap.full_mask()
    }

    /// The step vectors (dx, dy) the atom may use, for White (forward = dy > 0), sorted.
    pub fn steps(&self) -> Vec<(i32, i32)> {
        self.vectors(Side::White)
    }

    /// The step vectors (dx, dy) for `side`, sorted: White's as they are, Black's turned half
    /// round.
    pub fn vectors(&self, side: Side) -> Vec<(i32, i32)> {
        let mut out: Vec<(i32, i32)> = self
            .leap
            .vectors()
            .into_iter()
            .enumerate()
            .filter(|(i, _)| self.mask & (1 << i) != 0)
            .map(|(_, (dx, dy))| match side {
                Side::White => (dx, dy),
                Side::Black => (-dx, -dy),
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// The canonical direction letters of the atom (empty for all directions).
    fn direction_text(&self) -> String {
        directions::text_of(self.leap, self.mask)
    }
}

fn normal_range(range: Range) -> Result<Range, InvalidAtom> {
    match range {
        Range::Limited(0) => Err(InvalidAtom::ZeroRange),
        Range::Limited(1) => Ok(Range::Leaper),
        r => Ok(r),
    }
}

/// One concrete move of a design: a step vector with its atom's range and modality.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// Files to the right (from White's side).
    pub dx: i32,
    /// Ranks up (towards Black).
    pub dy: i32,
    /// How many times the step may be repeated.
    pub range: Range,
    /// What the move may do at its destination.
    pub modality: Modality,
    /// Jumping, lame or a hopper.
    pub kind: Kind,
}

/// A piece design: its atoms, in the order written (shortcuts and groups expanded).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Design {
    atoms: Vec<Atom>,
}

impl Design {
    /// Parses a design (the same as `str::parse`).
    pub fn parse(text: &str) -> Result<Design, BetzaError> {
        parse::parse(text)
    }

    /// The design of a piece that never moves (a definition's `none`, othello's disc): the
    /// one design without atoms.
    pub fn immobile() -> Design {
        Design { atoms: Vec::new() }
    }

    /// A design of these atoms; `None` if there are none (a parsed design has at least one
    /// atom).
    pub fn new(atoms: Vec<Atom>) -> Option<Design> {
        if atoms.is_empty() {
            None
        } else {
            Some(Design { atoms })
        }
    }

    /// The atoms, in order.
    pub fn atoms(&self) -> &[Atom] {
        &self.atoms
    }

    /// Every step vector of every atom for `side`, sorted, without duplicates.
    pub fn vectors(&self, side: Side) -> Vec<(i32, i32)> {
        let mut out: Vec<(i32, i32)> = self.atoms.iter().flat_map(|a| a.vectors(side)).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Every concrete move for `side`: one per vector of each atom, in atom order.
    pub fn steps(&self, side: Side) -> Vec<Step> {
        self.atoms
            .iter()
            .flat_map(|a| {
                a.vectors(side).into_iter().map(|(dx, dy)| Step {
                    dx,
                    dy,
                    range: a.range,
                    modality: a.modality,
                    kind: a.kind,
                })
            })
            .collect()
    }
}

/// An atom and its direction tokens as written, each with how many times it was written.
pub type WrittenAtom = (Atom, Vec<(Atom, u8)>);

/// One atom of a design with the direction tokens written before it, each as an atom of its
/// own (the same leap, range and modality, the token's vectors) and the number of times it
/// was written: `fbB` gives `B` with `fB` and `bB`; `ffW` gives `fW` with `fW` twice (a
/// doubled letter counts twice); `fsN` gives `fsN` with one token. An atom written without
/// direction letters has none. For pricing readings that count letters, not move sets.
pub fn written_powers(text: &str) -> Result<Vec<WrittenAtom>, BetzaError> {
    let mut written = Vec::new();
    let design = parse::parse_with(text, Some(&mut written))?;
    Ok(design
        .atoms
        .iter()
        .zip(written)
        .map(|(a, tokens)| {
            let powers = tokens
                .into_iter()
                .map(|(mask, n)| (Atom { mask, ..*a }, n))
                .collect();
            (*a, powers)
        })
        .collect())
}

impl FromStr for Design {
    type Err = BetzaError;

    fn from_str(s: &str) -> Result<Design, BetzaError> {
        parse::parse(s)
    }
}

/// The letters of an atom or a `K`/`Q` pair after its prefix: letter(s) and range.
fn body(leap_letter: char, rider_letter: Option<char>, range: Range) -> String {
    match (range, rider_letter) {
        (Range::Leaper, _) => leap_letter.to_string(),
        (Range::Unlimited, Some(r)) => r.to_string(),
        (Range::Unlimited, None) => format!("{leap_letter}{leap_letter}"),
        (Range::Limited(n), Some(r)) => format!("{r}{n}"),
        (Range::Limited(n), None) => format!("{leap_letter}{n}"),
    }
}

fn modality_text(m: Modality) -> &'static str {
    match m {
        Modality::Move => "m",
        Modality::Capture => "c",
        Modality::Both => "",
    }
}

/// The modality and kind letters of an atom, and the range its body prints: a hopper's is a
/// rider's (`pR`, `pB`), the cannon with `p` and the grasshopper (one square beyond the screen) with `g`.
fn modifiers(a: &Atom) -> (String, Range) {
    let m = modality_text(a.modality);
    match (a.kind, a.range) {
        (Kind::Jumping, r) => (m.to_string(), r),
        (Kind::Lame, r) => (format!("{m}n"), r),
        (Kind::Hopper, Range::Leaper) => (format!("{m}g"), Range::Unlimited),
        (Kind::Hopper, r) => (format!("{m}p"), r),
    }
}

/// One printed item: the prefix (direction letters and modality) and the body.
struct Chunk {
    prefix: String,
    body: String,
}

fn chunks(atoms: &[Atom]) -> Vec<Chunk> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < atoms.len() {
        let a = atoms[i];
        if let Some(&b) = atoms.get(i + 1) {
            if a.leap == Leap::W
                && b.leap == Leap::F
                && a.is_all_directions()
                && b.is_all_directions()
                && a.range == b.range
                && a.modality == b.modality
                && a.kind == b.kind
            {
                let (prefix, range) = modifiers(&a);
                let body = match range {
                    Range::Leaper => "K".to_string(),
                    r => body('Q', Some('Q'), r),
                };
                out.push(Chunk { prefix, body });
                i += 2;
                continue;
            }
        }
        let rider_letter = match a.leap {
            Leap::W => Some('R'),
            Leap::F => Some('B'),
            _ => None,
        };
        let (modifiers, range) = modifiers(&a);
        out.push(Chunk {
            prefix: a.direction_text() + &modifiers,
            body: body(a.leap.letter(), rider_letter, range),
        });
        i += 1;
    }
    out
}

/// Appends `item` to `out`, in parentheses if its first letter would run into the last
/// letter of `out` (and so be read as a doubling).
fn push_separated(out: &mut String, item: &str) {
    let runs_in = match (out.chars().last(), item.chars().next()) {
        (Some(a), Some(b)) => a == b && a.is_ascii_uppercase(),
        _ => false,
    };
    if runs_in {
        out.push('(');
        out.push_str(item);
        out.push(')');
    } else {
        out.push_str(item);
    }
}

impl fmt::Display for Design {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let chunks = chunks(&self.atoms);
        let mut out = String::new();
        let mut i = 0;
        while i < chunks.len() {
            let prefix = &chunks[i].prefix;
            // Only a prefixed run becomes a group; counting unprefixed runs from every atom
            // would make printing a long design quadratic.
            let run = if prefix.is_empty() {
                1
            } else {
                chunks[i..]
                    .iter()
                    .take_while(|c| c.prefix == *prefix)
                    .count()
            };
            if run >= 2 {
                let mut inner = String::new();
                for c in &chunks[i..i + run] {
                    push_separated(&mut inner, &c.body);
                }
                out.push_str(prefix);
                out.push('(');
                out.push_str(&inner);
                out.push(')');
                i += run;
            } else {
                let c = &chunks[i];
                push_separated(&mut out, &format!("{}{}", c.prefix, c.body));
                i += 1;
            }
        }
        f.pad(&out)
    }
}

impl fmt::Display for Atom {
    /// The atom as a one-atom design.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Design { atoms: vec![*self] }.fmt(f)
    }
}

#[cfg(test)]
mod tests;
