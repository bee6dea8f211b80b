//! Colours, roles and pieces, shared by every variant.

use std::fmt;
use std::str::FromStr;

use super::design::{DesignId, MAX_DESIGNS};

/// A side. White moves first unless a scenario says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Color {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            _ => Err(format!("unknown colour `{s}`; colours: white, black")),
        }
    }
}

/// What a piece is, independent of its colour. The codes are stable: they are packed into
/// board cells (see [`Piece`]). `Design` stands for every designed piece; which design it is,
/// the piece says ([`Piece::design`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    King = 1,
    Queen = 2,
    Rook = 3,
    Bishop = 4,
    Knight = 5,
    Pawn = 6,
    Spy = 7,
    Gatekeeper = 8,
    Mage = 9,
    Archer = 10,
    /// A piece designed in Betza notation (csipgs chess, invented pieces).
    Design = 16,
}

impl Role {
    pub const ALL: [Role; 10] = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
        Role::Spy,
        Role::Gatekeeper,
        Role::Mage,
        Role::Archer,
    ];

    #[inline]
    pub fn from_code(code: u8) -> Option<Role> {
        match code {
            DESIGN_BASE..=DESIGN_LAST => Some(Role::Design),
            _ => Role::ALL.get((code as usize).wrapping_sub(1)).copied(),
        }
    }

    pub fn letter(self) -> char {
        match self {
            Role::King => 'K',
            Role::Queen => 'Q',
            Role::Rook => 'R',
            Role::Bishop => 'B',
            Role::Knight => 'N',
            Role::Pawn => 'P',
            Role::Spy => 'S',
            Role::Gatekeeper => 'G',
            Role::Mage => 'M',
            Role::Archer => 'A',
            Role::Design => '(',
        }
    }

    pub fn from_letter(c: char) -> Option<Role> {
        Role::ALL
            .iter()
            .copied()
            .find(|r| r.letter() == c.to_ascii_uppercase())
    }

    pub fn word(self) -> &'static str {
        match self {
            Role::King => "king",
            Role::Queen => "queen",
            Role::Rook => "rook",
            Role::Bishop => "bishop",
            Role::Knight => "knight",
            Role::Pawn => "pawn",
            Role::Spy => "spy",
            Role::Gatekeeper => "gatekeeper",
            Role::Mage => "mage",
            Role::Archer => "archer",
            Role::Design => "design",
        }
    }

    pub fn from_word(w: &str) -> Option<Role> {
        Role::ALL.iter().copied().find(|r| r.word() == w)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// The role part of the cell codes of designed pieces: design `i` is `DESIGN_BASE + i`.
const DESIGN_BASE: u8 = Role::Design as u8;
const DESIGN_LAST: u8 = DESIGN_BASE + MAX_DESIGNS as u8 - 1;

/// A coloured piece, packed into one byte: `role << 1 | colour`, where a designed piece's role
/// part is [`Role::Design`]'s code plus its design id. Never zero, never 0xFF, so board cells
/// can use those for "empty" and "off the board".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    /// A piece of a fixed role; designed pieces are made by [`Piece::designed`].
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece(((role as u8) << 1) | color as u8)
    }

    /// A designed piece.
    #[inline]
    pub fn designed(color: Color, design: DesignId) -> Piece {
        Piece(((DESIGN_BASE + design.index()) << 1) | color as u8)
    }

    /// Which design a designed piece is.
    #[inline]
    pub fn design(self) -> Option<DesignId> {
        match self.0 >> 1 {
            r @ DESIGN_BASE..=DESIGN_LAST => DesignId::from_index(r - DESIGN_BASE),
            _ => None,
        }
    }

    #[inline]
    pub fn color(self) -> Color {
        if self.0 & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline]
    pub fn role(self) -> Role {
        match Role::from_code(self.0 >> 1) {
            Some(r) => r,
            None => unreachable!("piece code {} has no role", self.0),
        }
    }

    #[inline]
    pub const fn code(self) -> u8 {
        self.0
    }

    #[inline]
    pub fn from_code(code: u8) -> Option<Piece> {
        Role::from_code(code >> 1).map(|_| Piece(code))
    }

    /// The piece in a FEN placement: its letter, upper case for White; a design in
    /// parentheses for White and in square brackets for Black (`(WD)`, `[WD]`), since a
    /// design's letters already have a case of their own.
    pub fn fen_text(self) -> String {
        match self.design() {
            Some(d) if self.color() == Color::White => format!("({})", d.text()),
            Some(d) => format!("[{}]", d.text()),
            None => self.fen_char().to_string(),
        }
    }

    /// The FEN letter of a piece of a fixed role: upper case for white.
    pub fn fen_char(self) -> char {
        let c = self.role().letter();
        match self.color() {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    pub fn from_fen_char(c: char) -> Option<Piece> {
        let role = Role::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, role))
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.design() {
            Some(d) => write!(f, "{} {d}", self.color()),
            None => write!(f, "{} {}", self.color(), self.role()),
        }
    }
}
