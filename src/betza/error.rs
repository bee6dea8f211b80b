//! Why a design does not parse, and where.

use std::fmt;

/// What could have stood at the place of an error. Each flag names one kind of input that the
/// parser would have accepted there; `Display` lists them in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Expected {
    /// An atom letter: `W F D H A G N L C Z J` or a shortcut `R B Q K`.
    pub atom: bool,
    /// A lower-case modifier: a direction `f b l r s v h`, a modality `m c` or a kind `n p g`.
    pub modifier: bool,
    /// `(`, opening a group.
    pub open: bool,
    /// `)`, closing the innermost open group.
    pub close: bool,
    /// A range digit after an atom (`R4`, `N2`).
    pub range: bool,
    /// The end of the design.
    pub end: bool,
}

impl Expected {
    /// Where a new term starts: an atom, a modifier or a group.
    pub(crate) const TERM: Expected = Expected {
        atom: true,
        modifier: true,
        open: true,
        close: false,
        range: false,
        end: false,
    };
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut items: Vec<&str> = Vec::new();
        if self.range {
            items.push("a range digit");
        }
        if self.atom {
            items.push("an atom (W F D H A G N L C Z J R B Q K)");
        }
        if self.modifier {
            items.push("a modifier (f b l r s v h m c n p g)");
        }
        if self.open {
            items.push("`(`");
        }
        if self.close {
            items.push("`)`");
        }
        if self.end {
            items.push("the end of the design");
        }
        match items.split_last() {
            None => f.write_str("nothing"),
            Some((last, [])) => f.write_str(last),
            Some((last, rest)) => write!(f, "{} or {last}", rest.join(", ")),
        }
    }
}

/// A feature of (extended) Betza notation that this module recognises but does not model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsupported {
    /// `j`: a jumping move that must (or may) skip a square.
    Jumping,
    /// `i`: a move allowed only as the piece's first move.
    Initial,
    /// `e`: an en passant capture.
    EnPassant,
    /// `a`: a multi-leg move ("again").
    MultiLeg,
    /// `k`: a move that may only give check.
    CheckOnly,
    /// `t`: a bent ("then") rider.
    Bent,
    /// `z`: a crooked (zig-zag) rider.
    Crooked,
    /// `q`: a circular rider.
    Circular,
    /// `o`: a move across the board edge (cylinder).
    Cylinder,
    /// `d`: a capture of one's own pieces (destroy).
    DestroyOwn,
    /// `u`: unloading (displacing) the captured piece.
    Unload,
    /// `O`: castling.
    Castling,
}

impl Unsupported {
    /// The feature a letter stands for in extended Betza notation, if it is one we recognise.
    pub(crate) fn of(letter: char) -> Option<Unsupported> {
        Some(match letter {
            'j' => Unsupported::Jumping,
            'i' => Unsupported::Initial,
            'e' => Unsupported::EnPassant,
            'a' => Unsupported::MultiLeg,
            'k' => Unsupported::CheckOnly,
            't' => Unsupported::Bent,
            'z' => Unsupported::Crooked,
            'q' => Unsupported::Circular,
            'o' => Unsupported::Cylinder,
            'd' => Unsupported::DestroyOwn,
            'u' => Unsupported::Unload,
            'O' => Unsupported::Castling,
            _ => return None,
        })
    }

    fn describe(self) -> &'static str {
        match self {
            Unsupported::Jumping => "jumping move",
            Unsupported::Initial => "initial-move-only move",
            Unsupported::EnPassant => "en passant capture",
            Unsupported::MultiLeg => "multi-leg move",
            Unsupported::CheckOnly => "check-only move",
            Unsupported::Bent => "bent rider",
            Unsupported::Crooked => "crooked rider",
            Unsupported::Circular => "circular rider",
            Unsupported::Cylinder => "move across the board edge",
            Unsupported::DestroyOwn => "capture of own pieces",
            Unsupported::Unload => "unloading move",
            Unsupported::Castling => "castling",
        }
    }
}

/// A design that cannot be read. Every kind carries `at`, the byte offset in the input of the
/// character the problem is about (see [`BetzaError::offset`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BetzaError {
    /// A character that cannot stand where it is; `expected` says what could.
    Unexpected {
        at: usize,
        found: char,
        expected: Expected,
    },
    /// The input ends where something more is needed (only for an empty design: other early
    /// ends are a dangling modifier or an unclosed group). `at` is the length of the input.
    UnexpectedEnd { at: usize, expected: Expected },
    /// A `(` that is never closed.
    UnclosedGroup { at: usize },
    /// A `)` with no open group.
    UnmatchedClose { at: usize },
    /// A `(` that opens more groups at once than [`super::MAX_GROUP_DEPTH`].
    TooDeep { at: usize, limit: usize },
    /// `()`: a group with no atom in it (`at` is its `(`).
    EmptyGroup { at: usize },
    /// A modifier with no atom after it: at the end of the design or right before `)`. `at`
    /// is the first modifier of the run.
    DanglingModifier { at: usize, letter: char },
    /// A range that is or starts with `0` (`R0`, `N05`).
    ZeroRange { at: usize },
    /// A range above 255. `at` is its first digit.
    RangeTooLarge { at: usize },
    /// A range after a doubled atom (`NN2`): the doubled atom is already unlimited.
    RangeAfterDoubled { at: usize },
    /// A doubled shortcut rider (`RR`, `BB`, `QQ`); `at` is the second letter.
    DoubledRider { at: usize, letter: char },
    /// `h` (half) not preceded by one of `f b l r`.
    LoneHalf { at: usize },
    /// Two different kind letters (`n`, `p`, `g`) on one atom; `at` is the second.
    ConflictingKinds {
        at: usize,
        letter: char,
        first: char,
    },
    /// `n` on a rider (`nR`, `nNN`, `nN2`); `at` is the `n`. Fairy-Stockfish ignores it there.
    LameRider { at: usize },
    /// A range after a hopper (`pR3`, `gR2`); `at` is its first digit.
    HopperRange { at: usize },
    /// `p` or `g` on an atom off the rank, file and diagonal lines (D N A H L C Z J G); `at`
    /// is the atom.
    HopperLine { at: usize, letter: char },
    /// A letter of extended Betza notation that this module does not model.
    Unsupported {
        at: usize,
        letter: char,
        feature: Unsupported,
    },
}

impl BetzaError {
    /// The byte offset in the input of the character the error is about.
    pub fn offset(&self) -> usize {
        match *self {
            BetzaError::Unexpected { at, .. }
            | BetzaError::UnexpectedEnd { at, .. }
            | BetzaError::UnclosedGroup { at }
            | BetzaError::UnmatchedClose { at }
            | BetzaError::EmptyGroup { at }
            | BetzaError::TooDeep { at, .. }
            | BetzaError::DanglingModifier { at, .. }
            | BetzaError::ZeroRange { at }
            | BetzaError::RangeTooLarge { at }
            | BetzaError::RangeAfterDoubled { at }
            | BetzaError::DoubledRider { at, .. }
            | BetzaError::LoneHalf { at }
            | BetzaError::ConflictingKinds { at, .. }
            | BetzaError::LameRider { at }
            | BetzaError::HopperRange { at }
            | BetzaError::HopperLine { at, .. }
            | BetzaError::Unsupported { at, .. } => at,
        }
    }
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BetzaError::Unexpected {
                at,
                found,
                expected,
            } => write!(f, "unexpected `{found}` at {at}: expected {expected}"),
            BetzaError::UnexpectedEnd { at, expected } => {
                write!(f, "unexpected end at {at}: expected {expected}")
            }
            BetzaError::UnclosedGroup { at } => write!(f, "`(` at {at} is never closed"),
            BetzaError::UnmatchedClose { at } => {
                write!(
                    f,
                    "`)` at {at} closes nothing: there is no open `(` before it"
                )
            }
            BetzaError::TooDeep { at, limit } => write!(
                f,
                "`(` at {at} nests too deep: at most {limit} groups may be open at once"
            ),
            BetzaError::EmptyGroup { at } => {
                write!(f, "empty group at {at}: a group holds at least one atom")
            }
            BetzaError::DanglingModifier { at, letter } => write!(
                f,
                "modifier `{letter}` at {at} has no atom after it: expected {} after it",
                Expected::TERM
            ),
            BetzaError::ZeroRange { at } => write!(
                f,
                "range starting with `0` at {at}: a range is a number from 1 to 255 \
                 (double the atom for an unlimited rider)"
            ),
            BetzaError::RangeTooLarge { at } => {
                write!(f, "range at {at} is too large: a range is at most 255")
            }
            BetzaError::RangeAfterDoubled { at } => write!(
                f,
                "range at {at} after a doubled atom: a doubled atom is already an unlimited rider"
            ),
            BetzaError::DoubledRider { at, letter } => write!(
                f,
                "doubled `{letter}` at {at}: `{letter}` is already an unlimited rider"
            ),
            BetzaError::LoneHalf { at } => write!(
                f,
                "`h` (half) at {at} must follow one of f b l r (fh, bh, lh, rh)"
            ),
            BetzaError::ConflictingKinds { at, letter, first } => write!(
                f,
                "`{letter}` at {at} on an atom already marked `{first}`: an atom is at most one \
                 of lame (n), hopper (p) or grasshopper (g)"
            ),
            BetzaError::LameRider { at } => write!(
                f,
                "`n` (lame) at {at} is on a rider: only a leaper can be lame (nN, nA, nD), \
                 and Fairy-Stockfish ignores `n` on riders"
            ),
            BetzaError::HopperRange { at } => write!(
                f,
                "range at {at} after a hopper: a hopper goes any distance beyond its screen \
                 (p) or lands right behind it (g), as in Fairy-Stockfish, which has no hopper \
                 of limited range"
            ),
            BetzaError::HopperLine { at, letter } => write!(
                f,
                "hopper on `{letter}` at {at}: hoppers move along ranks, files and diagonals \
                 only (W F R B Q K), the lines Fairy-Stockfish's hoppers use"
            ),
            BetzaError::Unsupported {
                at,
                letter,
                feature,
            } => write!(
                f,
                "`{letter}` at {at} ({}) is not supported: only leaps, riders, hoppers (p g), \
                 lame leaps (n), direction modifiers and m/c are",
                feature.describe()
            ),
        }
    }
}

impl std::error::Error for BetzaError {}

/// A hand-built atom that does not describe moves (see [`super::Atom::with_vectors`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvalidAtom {
    /// `Range::Limited(0)`.
    ZeroRange,
    /// No direction at all.
    NoVectors,
    /// A vector that is not one of the leap's (for White).
    NotOfLeap((i32, i32)),
    /// A lame atom that rides.
    LameRider,
    /// A hopper off the rank, file and diagonal lines (not W or F).
    HopperLine(super::Leap),
    /// A hopper with a limited range.
    HopperRange,
}

impl fmt::Display for InvalidAtom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidAtom::ZeroRange => f.write_str("a limited range of 0"),
            InvalidAtom::NoVectors => f.write_str("an atom without any direction"),
            InvalidAtom::NotOfLeap((dx, dy)) => {
                write!(f, "({dx}, {dy}) is not a vector of the atom's leap")
            }
            InvalidAtom::LameRider => f.write_str("a lame atom that rides (only leapers are lame)"),
            InvalidAtom::HopperLine(leap) => write!(
                f,
                "a hopper on {}: hoppers move along ranks, files and diagonals only (W, F)",
                leap.letter()
            ),
            InvalidAtom::HopperRange => {
                f.write_str("a hopper of limited range (a hopper goes any distance, or one square)")
            }
        }
    }
}

impl std::error::Error for InvalidAtom {}
