//! Turns: what a variant says was played ([`Turn`]) and what a person wrote ([`TurnPattern`]).
//!
//! A variant describes each legal move as a [`Turn`] of one or more [`Action`]s; the canonical
//! text of a turn is its `Display` with a [`Geometry`]. A scenario or the command line writes a
//! [`TurnPattern`], which may leave things out (SAN omits the origin square); a pattern resolves
//! to the legal turns it [`matches`](TurnPattern::matches).

use std::fmt::{self, Write};

use super::board::{Geometry, Square};
use super::piece::Role;

/// Which way a castling king went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CastleSide {
    King,
    Queen,
}

/// One action of a turn, fully described.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A piece moves from `from` through the `via` squares (ricochets, legs) to `to`.
    Move {
        role: Role,
        from: Square,
        via: Vec<Square>,
        to: Square,
        capture: bool,
        promotion: Option<Role>,
        castle: Option<CastleSide>,
    },
    /// A piece from outside the board (a prisoner, a reserve) is put on `to`.
    Drop { role: Role, to: Square },
    /// A follow-up choosing which piece on `square` changes sides (Cypher's coup d'état).
    Coup { role: Role, square: Square },
    /// A follow-up choosing where a pawn is reborn (ChessXpanse).
    Reborn { square: Square },
    /// The turn passes without moving (ChessXpanse).
    Pass,
}

impl Action {
    /// The square where the action leaves its piece, if it places one.
    pub fn destination(&self) -> Option<Square> {
        match self {
            Action::Move { to, .. } | Action::Drop { to, .. } => Some(*to),
            Action::Coup { square, .. } | Action::Reborn { square } => Some(*square),
            Action::Pass => None,
        }
    }

    pub fn origin(&self) -> Option<Square> {
        match self {
            Action::Move { from, .. } => Some(*from),
            _ => None,
        }
    }

    pub fn write(&self, g: &Geometry, out: &mut String) {
        match self {
            Action::Move {
                role,
                from,
                via,
                to,
                capture,
                promotion,
                ..
            } => {
                if *role != Role::Pawn {
                    out.push(role.letter());
                }
                out.push_str(&g.square_name(*from));
                let sep = if *capture { 'x' } else { '-' };
                for sq in via.iter().chain(std::iter::once(to)) {
                    out.push(sep);
                    out.push_str(&g.square_name(*sq));
                }
                if let Some(p) = promotion {
                    out.push('=');
                    out.push(p.letter());
                }
            }
            Action::Drop { role, to } => {
                let _ = write!(out, "{}@{}", role.letter(), g.square_name(*to));
            }
            Action::Coup { role, square } => {
                let _ = write!(out, "coup {}{}", role.letter(), g.square_name(*square));
            }
            Action::Reborn { square } => {
                let _ = write!(out, "reborn {}", g.square_name(*square));
            }
            Action::Pass => out.push_str("pass"),
        }
    }
}

/// A whole turn: one action or several joined by `;`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Turn {
    pub actions: Vec<Action>,
}

impl Turn {
    pub fn single(action: Action) -> Turn {
        Turn {
            actions: vec![action],
        }
    }

    /// The canonical text, which parses back to this turn.
    pub fn text(&self, g: &Geometry) -> String {
        let mut out = String::new();
        for (i, a) in self.actions.iter().enumerate() {
            if i > 0 {
                out.push_str("; ");
            }
            a.write(g, &mut out);
        }
        out
    }

    /// Where the first action leaves its piece: what `moves from` lists.
    pub fn first_destination(&self) -> Option<Square> {
        self.actions.first().and_then(Action::destination)
    }

    pub fn first_origin(&self) -> Option<Square> {
        self.actions.first().and_then(Action::origin)
    }
}

/// What a piece letter in a pattern names: a role, or a csipgs design in Betza notation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PieceRef {
    Role(Role),
    Design(String),
}

impl fmt::Display for PieceRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PieceRef::Role(r) => write!(f, "{}", r.letter()),
            PieceRef::Design(d) => write!(f, "({d})"),
        }
    }
}

/// What a pattern says about the square a move starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    Any,
    File(u8),
    Rank(u8),
    Exact(Square),
}

impl Origin {
    /// Whether a move from `sq` fits this origin.
    pub fn admits(self, sq: Square) -> bool {
        match self {
            Origin::Any => true,
            Origin::File(f) => sq.file == f,
            Origin::Rank(r) => sq.rank == r,
            Origin::Exact(s) => s == sq,
        }
    }
}

/// How a move was written: coordinates (`e2-e4`, piece letter optional) or short, SAN-like
/// (`e4`, `Nf3`), where no letter means a pawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    Coordinate,
    Short,
}

/// A claim glued to a move: `+` check, `#` mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Claim {
    Check,
    Mate,
}

/// One action as written, with squares resolved against the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ActionPattern {
    Move {
        style: Style,
        piece: Option<PieceRef>,
        from: Origin,
        via: Vec<Square>,
        to: Square,
        capture: bool,
        promotion: Option<PieceRef>,
    },
    Castle(CastleSide),
    Drop {
        piece: PieceRef,
        to: Square,
    },
    Coup {
        piece: PieceRef,
        square: Square,
    },
    Reborn {
        square: Square,
    },
    Pass,
    /// csipgs: buy a piece of a design into the reserve.
    Buy {
        design: String,
    },
    /// csipgs: replace the design `from` by the design `to`.
    Redesign {
        from: PieceRef,
        to: String,
    },
}

/// A turn as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TurnPattern {
    Actions {
        actions: Vec<ActionPattern>,
        claim: Option<Claim>,
    },
    Resign,
    Draw,
}

fn role_matches(piece: &Option<PieceRef>, style: Style, role: Role) -> bool {
    match piece {
        Some(PieceRef::Role(r)) => *r == role,
        Some(PieceRef::Design(_)) => false,
        None => style == Style::Coordinate || role == Role::Pawn,
    }
}

impl ActionPattern {
    pub fn matches(&self, action: &Action) -> bool {
        match (self, action) {
            (
                ActionPattern::Move {
                    style,
                    piece,
                    from,
                    via,
                    to,
                    capture,
                    promotion,
                },
                Action::Move {
                    role,
                    from: afrom,
                    via: avia,
                    to: ato,
                    capture: acapture,
                    promotion: apromotion,
                    ..
                },
            ) => {
                role_matches(piece, *style, *role)
                    && from.admits(*afrom)
                    && (via.is_empty() || via == avia)
                    && to == ato
                    && capture == acapture
                    && match (promotion, apromotion) {
                        (None, None) => true,
                        (Some(PieceRef::Role(p)), Some(a)) => p == a,
                        _ => false,
                    }
            }
            (
                ActionPattern::Castle(side),
                Action::Move {
                    castle: Some(c), ..
                },
            ) => side == c,
            (ActionPattern::Drop { piece, to }, Action::Drop { role, to: ato }) => {
                *piece == PieceRef::Role(*role) && to == ato
            }
            (ActionPattern::Coup { piece, square }, Action::Coup { role, square: asq }) => {
                *piece == PieceRef::Role(*role) && square == asq
            }
            (ActionPattern::Reborn { square }, Action::Reborn { square: asq }) => square == asq,
            (ActionPattern::Pass, Action::Pass) => true,
            _ => false,
        }
    }

    /// The square the pattern names as the moving piece's origin, if it names one exactly.
    pub fn exact_origin(&self) -> Option<Square> {
        match self {
            ActionPattern::Move {
                from: Origin::Exact(s),
                ..
            } => Some(*s),
            _ => None,
        }
    }

    pub fn destination(&self) -> Option<Square> {
        match self {
            ActionPattern::Move { to, .. } | ActionPattern::Drop { to, .. } => Some(*to),
            ActionPattern::Coup { square, .. } | ActionPattern::Reborn { square } => Some(*square),
            _ => None,
        }
    }
}

impl TurnPattern {
    /// Whether this pattern names `turn`: the same number of actions, each matching.
    pub fn matches(&self, turn: &Turn) -> bool {
        match self {
            TurnPattern::Actions { actions, .. } => {
                actions.len() == turn.actions.len()
                    && actions.iter().zip(&turn.actions).all(|(p, a)| p.matches(a))
            }
            TurnPattern::Resign | TurnPattern::Draw => false,
        }
    }

    pub fn claim(&self) -> Option<Claim> {
        match self {
            TurnPattern::Actions { claim, .. } => *claim,
            _ => None,
        }
    }

    pub fn first(&self) -> Option<&ActionPattern> {
        match self {
            TurnPattern::Actions { actions, .. } => actions.first(),
            _ => None,
        }
    }
}
