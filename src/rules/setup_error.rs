//! Why a position cannot be set up: the one error type of every variant's validating
//! constructors ([`super::Rules::from_setup`], [`super::Rules::from_fen`]) and board sizes
//! ([`super::Rules::geometry_for`]), with a kind for programs and a sentence for people.

use std::fmt;

/// What kind of problem refused the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetupErrorKind {
    /// The board size is not one the variant is played on.
    BoardSize,
    /// The FEN text is malformed: its fields, placement, side to move or counters.
    Fen,
    /// A state key is unknown, needs or takes no colour, is read-only, or has a bad value.
    StateKey,
    /// A piece the variant does not have (another variant's piece, a design).
    Piece,
    /// A side has too many or too few kings.
    Kings,
    /// A pawn stands where pawns cannot stand.
    Pawns,
    /// Castling rights that the placement contradicts.
    Castling,
    /// An en-passant square that no double step can have left.
    EnPassant,
    /// A counter outside the range the game can reach.
    Counter,
    /// The side that is not to move is in check (or already flipped).
    OppositeCheck,
    /// Any other placement rule of the variant (Spies, piece counts, ...).
    Placement,
}

/// A refused position: the kind of problem and a sentence that says what is wrong and what
/// would be accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    kind: SetupErrorKind,
    message: String,
}

impl SetupError {
    pub fn new(kind: SetupErrorKind, message: impl Into<String>) -> SetupError {
        SetupError {
            kind,
            message: message.into(),
        }
    }

    pub fn kind(&self) -> SetupErrorKind {
        self.kind
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// Malformed FEN text.
    pub fn fen(message: impl Into<String>) -> SetupError {
        SetupError::new(SetupErrorKind::Fen, message)
    }

    /// A bad state key or value.
    pub fn key(message: impl Into<String>) -> SetupError {
        SetupError::new(SetupErrorKind::StateKey, message)
    }

    /// A board size the variant is not played on.
    pub fn size(message: impl Into<String>) -> SetupError {
        SetupError::new(SetupErrorKind::BoardSize, message)
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SetupError {}

impl From<SetupError> for String {
    fn from(e: SetupError) -> String {
        e.message
    }
}
