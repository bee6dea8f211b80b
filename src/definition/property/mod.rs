//! A definition's own invariants (`property NAME "CLAUSE" { FORMULA... }`), resolved: formulas
//! over a position and over the turn that reached it, which `arbiter invariant` and `expect
//! invariant` check as the engine's invariants are checked. Read by [`read`]; evaluated by the
//! generic engine (`crate::rules::defined::properties`).
//!
//! Each node keeps the words it was written with, so a failure can quote the part that broke.

pub mod read;

use super::model::{Cell, Sides, Span};

/// `property NAME "CLAUSE" { LINE... }`: holds when every line holds.
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct Property {
    pub name: String,
    pub clause: String,
    /// One formula a line, each as written.
    pub lines: Vec<Formula>,
    /// Whether a line reads the turn that reached the position (a step property).
    pub step: bool,
    pub span: Span,
}

/// A formula with the words it was written with.
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct Formula {
    pub kind: Kind,
    pub text: String,
}

/// What a formula says.
#[derive(Clone, Debug, PartialEq, Hash)]
pub enum Kind {
    Not(Box<Formula>),
    And(Vec<Formula>),
    Or(Vec<Formula>),
    Implies(Box<Formula>, Box<Formula>),
    /// `TERM OP TERM`.
    Compare(Box<Term>, Cmp, Box<Term>),
    /// A count standing alone: it is not zero.
    Nonzero(Box<Term>),
    /// `in-check SIDE`, `in-check on SQUARE`, or `in-check` of the piece a quantifier names.
    InCheck(Subject),
    /// `to-move SIDE`: that side is to move.
    ToMove(SideRef),
    /// A yes/no state key of a side (or of the game, `None`).
    Flag(Flag, Option<SideRef>),
    /// `in PLACE` (or `on SQUARE`): the piece a quantifier names stands there.
    Within(Place),
    /// `every`, `some` or `no` side or piece (in a place), each with the body true.
    Quantified {
        quantifier: Quantifier,
        domain: Domain,
        within: Option<Place>,
        body: Option<Box<Formula>>,
    },
    /// `before F`: `F` in the position before the turn.
    Before(Box<Formula>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantifier {
    Every,
    Some,
    No,
}

/// What a quantifier ranges over.
#[derive(Clone, Debug, PartialEq, Hash)]
pub enum Domain {
    /// White and Black: `own` and `enemy` in the body are that side and the other.
    Side,
    /// The pieces on the board that match: `own` and `enemy` are the piece's side and the
    /// other, and `in`, `on`, `in-check` alone are about the piece.
    Pieces(Pattern),
}

/// Whose check `in-check` asks about.
#[derive(Clone, Debug, PartialEq, Hash)]
pub enum Subject {
    Side(SideRef),
    On(Cell),
    /// The piece a quantifier names.
    It,
}

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    pub const WORDS: &'static [&'static str] = &["=", "!=", "<", "<=", ">", ">="];
    pub const ALL: [Cmp; 6] = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge];

    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }
}

/// A number with the words it was written with.
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct Term {
    pub kind: TermKind,
    pub text: String,
}

/// What a number counts.
#[derive(Clone, Debug, PartialEq, Hash)]
pub enum TermKind {
    Number(i64),
    /// Terms added (`true`) or taken away (`false`), the first always added.
    Sum(Vec<(bool, Term)>),
    /// `count PATTERN [in PLACE]`: pieces on the board.
    Board(Pattern, Option<Place>),
    /// `count PATTERN in hand`: pieces in hand (prisoners included).
    Hand(Pattern),
    /// A numeric state key of a side (or of the game).
    Key(NumKey, Option<SideRef>),
    /// `removed PATTERN [in PLACE] [by HOW]`: pieces the turn took off the board.
    Removed(Pattern, Option<Place>, Option<How>),
    /// `captured PATTERN [in PLACE] [by PATTERN]`: pieces the turn captured, by what.
    Captured(Pattern, Option<Place>, Option<Pattern>),
    /// `did ACTION [PATTERN] [from PLACE] [to PLACE]`: the turn's actions of that kind.
    Did {
        action: Act,
        mover: Option<Pattern>,
        from: Option<Place>,
        to: Option<Place>,
    },
    /// `before TERM`: in the position before the turn.
    Before(Box<Term>),
}

/// Which pieces: a side (any when not given) and kinds (any when `None`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pattern {
    pub side: Option<SideRef>,
    /// Piece letters, [`super::model::INVENTED`] for every invented piece; `None`: `piece`.
    pub kinds: Option<Vec<char>>,
}

/// A side as a formula names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SideRef {
    White,
    Black,
    /// The side a quantifier names (a piece's side).
    Own,
    /// The other side.
    Enemy,
    /// The side that made the turn that reached the position.
    Mover,
    /// The side to move.
    ToMove,
}

impl SideRef {
    pub const WORDS: &'static [&'static str] =
        &["white", "black", "own", "enemy", "mover", "to-move"];
    pub const ALL: [SideRef; 6] = [
        SideRef::White,
        SideRef::Black,
        SideRef::Own,
        SideRef::Enemy,
        SideRef::Mover,
        SideRef::ToMove,
    ];
}

/// Squares: a zone or one square, or every square outside them; per side, as zones are.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    /// The name as written (`court`, `d0`).
    pub name: String,
    pub outside: bool,
    /// Sorted, per side.
    pub cells: Sides<Vec<Cell>>,
}

impl Place {
    /// Whether `cell` is in the place, for a piece or action of side `side` (0 White).
    pub fn holds(&self, side: usize, cell: Cell) -> bool {
        self.cells[side].binary_search(&cell).is_ok() != self.outside
    }
}

/// How a piece left the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum How {
    /// Taken by the moving piece (on its destination, or en passant).
    Capture,
    /// Taken by an explosion around a capture.
    Explosion,
    /// The moving piece itself, leaving by a `defection` (a coup).
    Coup,
    /// On a placement's target (`infiltration`).
    Infiltration,
}

impl How {
    pub const WORDS: &'static [&'static str] = &["capture", "explosion", "coup", "infiltration"];
    pub const ALL: [How; 4] = [How::Capture, How::Explosion, How::Coup, How::Infiltration];
}

/// A kind of action a turn is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Act {
    /// A piece moved on the board (captures, entries and castling included).
    Move,
    /// A move that captured.
    Capture,
    /// The second move of a turn of two, the one an `opened-by` piece let in.
    Entry,
    /// A move that made a `defection`.
    Coup,
    /// A placement (`infiltration`).
    Infiltration,
    /// A drop of a prisoner (`prisoners`).
    Release,
    /// A drop from the hand, prisoners included.
    Drop,
    Castle,
    Promotion,
    Pass,
}

impl Act {
    pub const WORDS: &'static [&'static str] = &[
        "move",
        "capture",
        "entry",
        "coup",
        "infiltration",
        "release",
        "drop",
        "castle",
        "promotion",
        "pass",
    ];
    pub const ALL: [Act; 10] = [
        Act::Move,
        Act::Capture,
        Act::Entry,
        Act::Coup,
        Act::Infiltration,
        Act::Release,
        Act::Drop,
        Act::Castle,
        Act::Promotion,
        Act::Pass,
    ];

    pub fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// A yes/no state key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flag {
    /// `infiltration-used SIDE`.
    InfiltrationUsed,
    /// `castling SIDE`: the side keeps a castling right.
    Castling,
    /// `retake`: the side to move may re-take.
    Retake,
    /// `en-passant`: a square may be taken en passant.
    EnPassant,
}

/// A numeric state key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NumKey {
    /// `prisoners SIDE`: the side's prisoners, to release.
    Prisoners,
    /// `check-count SIDE`: the checks the side gave.
    CheckCount,
    HalfmoveClock,
    FullmoveNumber,
}
