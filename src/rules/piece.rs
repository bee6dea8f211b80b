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

/// What a piece is, independent of its colour. The codes ([`Role::code`]) are stable: they
/// are packed into board cells (see [`Piece`]). `Design` stands for every designed piece;
/// which design it is, the piece says ([`Piece::design`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
    Spy,
    Gatekeeper,
    Mage,
    Archer,
    /// A piece designed in Betza notation (csipgs chess, invented pieces).
    Design,
    /// A piece of a variant written as a definition, known by its letter (`A` to `Z`): what it
    /// is called and how it moves, the definition says.
    Kind(char),
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

    /// The role part of a cell code: 1 to 10 for the fixed roles, [`DESIGN_BASE`] for
    /// designs (a designed piece adds its id), then one code per definition letter.
    #[inline]
    pub const fn code(self) -> u8 {
        match self {
            Role::King => 1,
            Role::Queen => 2,
            Role::Rook => 3,
            Role::Bishop => 4,
            Role::Knight => 5,
            Role::Pawn => 6,
            Role::Spy => 7,
            Role::Gatekeeper => 8,
            Role::Mage => 9,
            Role::Archer => 10,
            Role::Design => DESIGN_BASE,
            Role::Kind(c) => KIND_BASE + (c as u8).wrapping_sub(b'A'),
        }
    }

    #[inline]
    pub fn from_code(code: u8) -> Option<Role> {
        match code {
            DESIGN_BASE..=DESIGN_LAST => Some(Role::Design),
            KIND_BASE..=KIND_LAST => Some(Role::Kind((b'A' + code - KIND_BASE) as char)),
            _ => Role::ALL.get((code as usize).wrapping_sub(1)).copied(),
        }
    }

    /// A defined variant's piece kind by its letter, upper or lower case; `None` for a
    /// character that is not a letter.
    pub fn kind(letter: char) -> Option<Role> {
        letter
            .is_ascii_alphabetic()
            .then(|| Role::Kind(letter.to_ascii_uppercase()))
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
            Role::Kind(c) => c,
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
            Role::Kind(_) => "piece",
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
const DESIGN_BASE: u8 = 16;
const DESIGN_LAST: u8 = DESIGN_BASE + MAX_DESIGNS as u8 - 1;
/// The role part of the cell codes of defined pieces: letter `A` is `KIND_BASE`.
const KIND_BASE: u8 = DESIGN_LAST + 1;
const KIND_LAST: u8 = KIND_BASE + 25;
// The highest code, `KIND_LAST << 1 | 1`, stays below the wall's 0xFF.
const _: () = assert!(KIND_LAST < 127);

/// A coloured piece, packed into one byte: `role << 1 | colour`, where a designed piece's role
/// part is [`Role::Design`]'s code plus its design id. Never zero, never 0xFF, so board cells
/// can use those for "empty" and "off the board".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    /// A piece of a fixed role; designed pieces are made by [`Piece::designed`].
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece((role.code() << 1) | color as u8)
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
