//! Turns: what a variant says was played ([`Turn`]) and what a person wrote ([`TurnPattern`]).
//!
//! A variant describes each legal move as a [`Turn`] of one or more [`Action`]s; the canonical
//! text of a turn is its `Display` with a [`Geometry`]. A scenario or the command line writes a
//! [`TurnPattern`], which may leave things out (SAN omits the origin square); a pattern resolves
//! to the legal turns it [`matches`](TurnPattern::matches).
//!
//! A move is a list of [`Leg`]s, each with the square it ends on and what happens there
//! ([`LegKind`]); played moves and patterns share the type, so `Ac1-c3xe5` and `Ac1xc3-e5` are
//! different turns in both.

use std::fmt::{self, Write};

use super::board::{Geometry, Square};
use super::design::DesignId;
use super::piece::{Piece, Role};

/// Which way a castling king went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CastleSide {
    King,
    Queen,
}

/// What happens on the square a leg of a move ends on. The canonical text writes each kind
/// with its own mark before the square: `-` step, `x` kill, `^` ricochet, `~` switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LegKind {
    /// The piece moves onto an empty square (`-`).
    Step,
    /// The piece kills what stands there (`x`; en passant kills beside it). A variant's
    /// [`Action`] names the killed piece; a pattern names it only when it was written, and
    /// `None` there admits any kill.
    Kill(Option<Piece>),
    /// The piece bounces off a piece of its own side and moves on (`^`; ChessXpanse's
    /// Gatekeeper, Mage and Archer).
    Ricochet,
    /// The Archer's Switch Move: after a ricochet it lands on an empty square next to the
    /// square it bounced off (`~`).
    Switch,
}

impl LegKind {
    /// The mark written before the leg's square.
    pub fn mark(self) -> char {
        match self {
            LegKind::Step => '-',
            LegKind::Kill(_) => 'x',
            LegKind::Ricochet => '^',
            LegKind::Switch => '~',
        }
    }

    /// The kind a mark stands for (a kill without its victim).
    pub fn from_mark(mark: char) -> Option<LegKind> {
        Some(match mark {
            '-' => LegKind::Step,
            'x' => LegKind::Kill(None),
            '^' => LegKind::Ricochet,
            '~' => LegKind::Switch,
            _ => return None,
        })
    }

    pub fn is_kill(self) -> bool {
        matches!(self, LegKind::Kill(_))
    }

    /// Whether a leg written with this kind names a played leg of kind `played`. `-` says
    /// only that nothing is killed there, so it also names a ricochet or a switch: the
    /// contract writes paths that way (`Ac1-c3-e5`), and the position tells them apart.
    pub fn admits(self, played: LegKind) -> bool {
        match (self, played) {
            (LegKind::Step, k) => !k.is_kill(),
            (LegKind::Kill(None), k) => k.is_kill(),
            (k, p) => k == p,
        }
    }
}

/// One leg of a move: the square it ends on and what happens there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Leg {
    pub to: Square,
    pub kind: LegKind,
}

impl Leg {
    pub fn new(to: Square, kind: LegKind) -> Leg {
        Leg { to, kind }
    }

    /// A one-leg move's leg onto `to`: a kill of `victim` if there is one, else a step.
    pub fn onto(to: Square, victim: Option<Piece>) -> Leg {
        let kind = match victim {
            Some(p) => LegKind::Kill(Some(p)),
            None => LegKind::Step,
        };
        Leg { to, kind }
    }
}

/// The square a move of one straight leg goes to, and whether it kills there; `None` for a
/// path of several legs, a ricochet or a switch (which only ChessXpanse has).
pub fn straight(legs: &[Leg]) -> Option<(Square, bool)> {
    match legs {
        [Leg {
            to,
            kind: LegKind::Step | LegKind::Kill(_),
        }] => Some((*to, legs[0].kind.is_kill())),
        _ => None,
    }
}

/// Whether written legs name played legs: leg by leg when there are as many, each on the same
/// square and [admitting](LegKind::admits) the played kind. One written leg may also stand
/// for a whole path, as short notation writes it: it names where the path ends, and `x` says
/// that it kills somewhere on the way, `-` that it kills nowhere.
fn legs_match(written: &[Leg], played: &[Leg]) -> bool {
    if written.len() == played.len() {
        return written
            .iter()
            .zip(played)
            .all(|(w, p)| w.to == p.to && w.kind.admits(p.kind));
    }
    match (written, played) {
        ([only], [.., last]) => {
            only.to == last.to
                && if only.kind.is_kill() {
                    played.iter().any(|p| only.kind.admits(p.kind))
                } else {
                    !played.iter().any(|p| p.kind.is_kill()) && only.kind.admits(last.kind)
                }
        }
        _ => false,
    }
}

/// How closely a pattern's written legs name a turn's legs: `None` when a written move has
/// another number of legs than the played one (one written leg naming a whole path), else how
/// many legs carry the very mark written.
pub fn closeness(pattern: &TurnPattern, t: &Turn) -> Option<usize> {
    let TurnPattern::Actions { actions, .. } = pattern else {
        return None;
    };
    let mut exact = 0;
    for (p, a) in actions.iter().zip(&t.actions) {
        if let (ActionPattern::Move { legs, .. }, Action::Move { legs: played, .. }) = (p, a) {
            if legs.len() != played.len() {
                return None;
            }
            exact += legs
                .iter()
                .zip(played)
                .filter(|(w, p)| w.kind.mark() == p.kind.mark())
                .count();
        }
    }
    Some(exact)
}

/// The turns a pattern names, narrowed to those it names most closely when there are such:
/// first those it names leg for leg (one written leg names a whole path by where it ends, but
/// `Ac3-c1` is first of all the direct leap, not also every ricochet path that ends on c1),
/// then those with the most legs of the very mark written (a written `-` also names a
/// ricochet or a switch, but `Aa1^c3-b4` is first of all the step, not the switch `~b4`).
/// Every canonical text then names its own turn alone. `found` holds what the pattern
/// [matches](TurnPattern::matches), each giving its turn by `turn`; the order is kept.
pub fn written_leg_for_leg<T>(
    pattern: &TurnPattern,
    found: Vec<T>,
    turn: impl Fn(&T) -> &Turn,
) -> Vec<T> {
    let Some(best) = found
        .iter()
        .filter_map(|f| closeness(pattern, turn(f)))
        .max()
    else {
        return found;
    };
    found
        .into_iter()
        .filter(|f| closeness(pattern, turn(f)) == Some(best))
        .collect()
}

/// One action of a turn, fully described.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A piece moves from `from` along its legs (one for most moves; several for paths with
    /// ricochets and kills on the way); the last leg ends where the piece stays.
    Move {
        role: Role,
        /// Which design, when the role is [`Role::Design`].
        design: Option<DesignId>,
        from: Square,
        legs: Vec<Leg>,
        promotion: Option<Role>,
        castle: Option<CastleSide>,
    },
    /// A piece from outside the board (a prisoner, a reserve) is put on `to`.
    Drop {
        role: Role,
        design: Option<DesignId>,
        to: Square,
    },
    /// A follow-up choosing which piece on `square` changes sides (Cypher's coup d'état).
    Coup {
        role: Role,
        /// Which design, when the role is [`Role::Design`].
        design: Option<DesignId>,
        square: Square,
    },
    /// A follow-up choosing where a pawn is reborn (ChessXpanse); `from` names the dormant
    /// pawn reborn when a side has several.
    Reborn {
        from: Option<Square>,
        square: Square,
    },
    /// A follow-up naming the dormant pawn that vanishes, when a side has several
    /// (ChessXpanse).
    Vanish { square: Square },
    /// The turn passes without moving (ChessXpanse).
    Pass,
    /// csipgs: a piece of a design (Betza notation, without parentheses) is bought into the
    /// reserve.
    Buy { design: String },
    /// csipgs: the design `from_design` is replaced by `to_design`.
    Redesign {
        from_design: String,
        to_design: String,
    },
}

impl Action {
    /// The square where the action leaves its piece, if it places one.
    pub fn destination(&self) -> Option<Square> {
        match self {
            Action::Move { legs, .. } => legs.last().map(|l| l.to),
            Action::Drop { to, .. } => Some(*to),
            Action::Coup { square, .. } | Action::Reborn { square, .. } => Some(*square),
            Action::Pass | Action::Vanish { .. } | Action::Buy { .. } | Action::Redesign { .. } => {
                None
            }
        }
    }

    /// Whether the action kills a piece.
    pub fn kills(&self) -> bool {
        matches!(self, Action::Move { legs, .. } if legs.iter().any(|l| l.kind.is_kill()))
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
                design,
                from,
                legs,
                promotion,
                ..
            } => {
                match design {
                    Some(d) => {
                        let _ = write!(out, "{d}");
                    }
                    None if *role != Role::Pawn => out.push(role.letter()),
                    None => {}
                }
                out.push_str(&g.square_name(*from));
                for leg in legs {
                    out.push(leg.kind.mark());
                    out.push_str(&g.square_name(leg.to));
                }
                if let Some(p) = promotion {
                    out.push('=');
                    out.push(p.letter());
                }
            }
            Action::Drop { role, design, to } => {
                match design {
                    Some(d) => {
                        let _ = write!(out, "{d}");
                    }
                    None => out.push(role.letter()),
                }
                let _ = write!(out, "@{}", g.square_name(*to));
            }
            Action::Coup {
                role,
                design,
                square,
            } => {
                let _ = match design {
                    Some(d) => write!(out, "coup {d}{}", g.square_name(*square)),
                    None => write!(out, "coup {}{}", role.letter(), g.square_name(*square)),
                };
            }
            Action::Reborn { from, square } => {
                out.push_str("reborn ");
                if let Some(f) = from {
                    let _ = write!(out, "{}-", g.square_name(*f));
                }
                out.push_str(&g.square_name(*square));
            }
            Action::Vanish { square } => {
                let _ = write!(out, "vanish {}", g.square_name(*square));
            }
            Action::Pass => out.push_str("pass"),
            Action::Buy { design } => {
                let _ = write!(out, "buy {design}");
            }
            Action::Redesign {
                from_design,
                to_design,
            } => {
                let _ = write!(out, "{from_design}={to_design}");
            }
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

/// What a piece in a pattern names: a role, or an invented piece's design.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceRef {
    Role(Role),
    /// A designed piece, interned when the pattern was lowered.
    Design(DesignId),
}

impl fmt::Display for PieceRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PieceRef::Role(r) => write!(f, "{}", r.letter()),
            PieceRef::Design(d) => write!(f, "{d}"),
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

/// One action as written, with squares and pieces resolved against the variant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ActionPattern {
    /// A move: its legs as written (one for short notation).
    Move {
        style: Style,
        piece: Option<PieceRef>,
        from: Origin,
        legs: Vec<Leg>,
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
        from: Option<Square>,
        square: Square,
    },
    Vanish {
        square: Square,
    },
    Pass,
    /// csipgs: buy a piece of a design into the reserve.
    Buy {
        design: String,
    },
    /// csipgs: replace the design `from_design` by `to_design` (`Q=BL`: a letter is the
    /// name of a standard design).
    Redesign {
        from_design: String,
        to_design: String,
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
    /// The side to move ran out of time (ChessXpanse).
    Timeout,
}

fn role_matches(
    piece: &Option<PieceRef>,
    style: Style,
    role: Role,
    design: Option<DesignId>,
) -> bool {
    match piece {
        Some(PieceRef::Role(r)) => *r == role && design.is_none(),
        Some(PieceRef::Design(d)) => design == Some(*d),
        None => style == Style::Coordinate || role == Role::Pawn,
    }
}

/// A written move read as one straight move, the way variants whose moves have one leg read
/// it: the kind of piece it names, its origin, its destination, whether it is marked as a
/// capture, and its promotion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StraightMove {
    /// The piece's letter or design; a pawn for a short move without one; `None` for a
    /// coordinate move without one (any piece).
    pub kind: Option<PieceRef>,
    pub from: Origin,
    pub to: Square,
    pub capture: bool,
    pub promotion: Option<PieceRef>,
}

/// The kind of piece a written move names: its letter or design; a pawn for a short move
/// without one; `None` (any piece) for a coordinate move without one.
pub fn written_kind(style: Style, piece: Option<PieceRef>) -> Option<PieceRef> {
    match piece {
        Some(p) => Some(p),
        None if style == Style::Short => Some(PieceRef::Role(Role::Pawn)),
        None => None,
    }
}

/// What a written action is to a variant whose moves have one leg.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveShape {
    /// A move straight to its destination.
    Straight(StraightMove),
    /// A move written as a path: squares between, a ricochet or a switch.
    Path,
    /// Not a move.
    Other,
}

impl ActionPattern {
    pub fn matches(&self, action: &Action) -> bool {
        match (self, action) {
            (
                ActionPattern::Move {
                    style,
                    piece,
                    from,
                    legs,
                    promotion,
                },
                Action::Move {
                    role,
                    design,
                    from: afrom,
                    legs: alegs,
                    promotion: apromotion,
                    ..
                },
            ) => {
                role_matches(piece, *style, *role, *design)
                    && from.admits(*afrom)
                    && legs_match(legs, alegs)
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
            (
                ActionPattern::Drop { piece, to },
                Action::Drop {
                    role,
                    design,
                    to: ato,
                },
            ) => role_matches(&Some(*piece), Style::Coordinate, *role, *design) && to == ato,
            (
                ActionPattern::Coup { piece, square },
                Action::Coup {
                    role,
                    design,
                    square: asq,
                },
            ) => {
                let named = match design {
                    Some(d) => PieceRef::Design(*d),
                    None => PieceRef::Role(*role),
                };
                *piece == named && square == asq
            }
            (
                ActionPattern::Reborn { from, square },
                Action::Reborn {
                    from: afrom,
                    square: asq,
                },
            ) => square == asq && (from.is_none() || from == afrom),
            (ActionPattern::Vanish { square }, Action::Vanish { square: asq }) => square == asq,
            (ActionPattern::Pass, Action::Pass) => true,
            (ActionPattern::Buy { design }, Action::Buy { design: a }) => design == a,
            (
                ActionPattern::Redesign {
                    from_design,
                    to_design,
                },
                Action::Redesign {
                    from_design: afrom,
                    to_design: ato,
                },
            ) => from_design == afrom && to_design == ato,
            _ => false,
        }
    }

    /// The action as one straight move, a path, or no move at all.
    pub fn shape(&self) -> MoveShape {
        let ActionPattern::Move {
            style,
            piece,
            from,
            legs,
            promotion,
        } = self
        else {
            return MoveShape::Other;
        };
        let Some((to, capture)) = straight(legs) else {
            return MoveShape::Path;
        };
        let kind = written_kind(*style, *piece);
        MoveShape::Straight(StraightMove {
            kind,
            from: *from,
            to,
            capture,
            promotion: *promotion,
        })
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
            ActionPattern::Move { legs, .. } => legs.last().map(|l| l.to),
            ActionPattern::Drop { to, .. } => Some(*to),
            ActionPattern::Coup { square, .. } | ActionPattern::Reborn { square, .. } => {
                Some(*square)
            }
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
            TurnPattern::Resign | TurnPattern::Draw | TurnPattern::Timeout => false,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::chess::Chess;
    use crate::rules::{Color, Rules};
    use crate::scenario::evaluate::Lowering;
    use crate::scenario::parse::parse_turn;

    fn geometry() -> Geometry {
        Chess::geometry_for(None).expect("the chess board")
    }

    fn sq(name: &str) -> Square {
        geometry().parse_square(name).expect("a square")
    }

    fn pattern(text: &str) -> TurnPattern {
        let written = parse_turn(text).expect("a turn");
        Lowering::<Chess>::new(geometry())
            .turn(&written)
            .expect("lowers")
    }

    /// An Archer's path from c1 along these legs.
    fn archer(legs: &[(&str, LegKind)]) -> Turn {
        Turn::single(Action::Move {
            role: Role::Archer,
            design: None,
            from: sq("c1"),
            legs: legs.iter().map(|(s, k)| Leg::new(sq(s), *k)).collect(),
            promotion: None,
            castle: None,
        })
    }

    const KNIGHT: LegKind = LegKind::Kill(Some(Piece::new(Color::Black, Role::Knight)));

    #[test]
    fn a_designed_piece_is_written_and_matched_by_its_design() {
        let wd = crate::rules::design::intern("WD").unwrap();
        let turn = Turn::single(Action::Move {
            role: Role::Design,
            design: Some(wd),
            from: sq("d4"),
            legs: vec![Leg::new(sq("d6"), LegKind::Step)],
            promotion: None,
            castle: None,
        });
        assert_eq!(turn.text(&geometry()), "(WD)d4-d6");
        let drop = Turn::single(Action::Drop {
            role: Role::Design,
            design: Some(wd),
            to: sq("e5"),
        });
        assert_eq!(drop.text(&geometry()), "(WD)@e5");
        // The same design matches (written `(W1D)` too); another design does not.
        let written = |d: &str| TurnPattern::Actions {
            actions: vec![ActionPattern::Move {
                style: Style::Coordinate,
                piece: Some(PieceRef::Design(crate::rules::design::intern(d).unwrap())),
                from: Origin::Exact(sq("d4")),
                legs: vec![Leg::new(sq("d6"), LegKind::Step)],
                promotion: None,
            }],
            claim: None,
        };
        assert!(written("WD").matches(&turn));
        assert!(written("W1D").matches(&turn));
        assert!(!written("WA").matches(&turn));
        // A role never names a designed piece.
        assert!(!pattern("Pd4-d6").matches(&turn));
    }

    #[test]
    fn the_canonical_text_prints_each_legs_mark_and_reads_back() {
        for (legs, text) in [
            (vec![("c3", LegKind::Step), ("e5", KNIGHT)], "Ac1-c3xe5"),
            (vec![("c3", KNIGHT), ("e5", LegKind::Step)], "Ac1xc3-e5"),
            (vec![("c3", KNIGHT), ("e5", KNIGHT)], "Ac1xc3xe5"),
            (
                vec![("c3", LegKind::Ricochet), ("e5", LegKind::Step)],
                "Ac1^c3-e5",
            ),
            (
                vec![("c3", LegKind::Ricochet), ("d3", LegKind::Switch)],
                "Ac1^c3~d3",
            ),
        ] {
            let turn = archer(&legs);
            assert_eq!(turn.text(&geometry()), text);
            assert!(pattern(text).matches(&turn), "{text}");
        }
    }

    #[test]
    fn marks_tell_paths_over_the_same_squares_apart() {
        let turns = [
            archer(&[("c3", LegKind::Step), ("e5", KNIGHT)]),
            archer(&[("c3", KNIGHT), ("e5", LegKind::Step)]),
            archer(&[("c3", KNIGHT), ("e5", KNIGHT)]),
        ];
        for (i, text) in ["Ac1-c3xe5", "Ac1xc3-e5", "Ac1xc3xe5"].iter().enumerate() {
            let p = pattern(text);
            let hits: Vec<usize> = (0..turns.len()).filter(|&j| p.matches(&turns[j])).collect();
            assert_eq!(hits, [i], "{text}");
        }
        assert_ne!(pattern("Ac1-c3xe5"), pattern("Ac1xc3-e5"));
    }

    #[test]
    fn a_dash_kills_nothing_so_it_also_names_a_ricochet_or_a_switch() {
        // The contract writes ricochet paths with `-`: `Ac1-c3-e5`.
        let ricochet = archer(&[("c3", LegKind::Ricochet), ("e5", LegKind::Step)]);
        assert!(pattern("Ac1-c3-e5").matches(&ricochet));
        assert!(!pattern("Ac1^c3xe5").matches(&ricochet));
        let switch = archer(&[("c3", LegKind::Ricochet), ("d3", LegKind::Switch)]);
        assert!(pattern("Ac1-c3-d3").matches(&switch));
        assert!(!pattern("Ac1^c3^d3").matches(&switch));
        // `^` and `~` name only their own kind.
        let steps = archer(&[("c3", LegKind::Step), ("e5", LegKind::Step)]);
        assert!(!pattern("Ac1^c3-e5").matches(&steps));
    }

    #[test]
    fn one_written_leg_names_a_whole_path_by_where_it_ends() {
        let kills_on_the_way = archer(&[("c3", KNIGHT), ("e5", LegKind::Step)]);
        assert!(pattern("Axe5").matches(&kills_on_the_way));
        assert!(pattern("Ac1xe5").matches(&kills_on_the_way));
        assert!(!pattern("Ae5").matches(&kills_on_the_way));
        let quiet = archer(&[("c3", LegKind::Ricochet), ("e5", LegKind::Step)]);
        assert!(pattern("Ae5").matches(&quiet));
        assert!(!pattern("Axe5").matches(&quiet));
        // Two written legs name two played legs, not three.
        let three = archer(&[
            ("c3", LegKind::Ricochet),
            ("e5", LegKind::Ricochet),
            ("g7", LegKind::Step),
        ]);
        assert!(!pattern("Ac1-c3-g7").matches(&three));
    }

    #[test]
    fn a_written_leg_prefers_the_direct_move_to_paths_ending_there() {
        let direct = archer(&[("c3", LegKind::Step)]);
        let path = archer(&[("a3", LegKind::Ricochet), ("c3", LegKind::Step)]);
        let found = vec![(0, direct.clone()), (1, path.clone())];
        let one: Vec<u8> = written_leg_for_leg(&pattern("Ac1-c3"), found.clone(), |(_, t)| t)
            .into_iter()
            .map(|(m, _)| m)
            .collect();
        assert_eq!(one, [0]);
        // With no direct move, one written leg still names the path.
        let short = vec![(1, path.clone())];
        assert_eq!(
            written_leg_for_leg(&pattern("Ac3"), short, |(_, t)| t).len(),
            1
        );
        let written_out: Vec<u8> = written_leg_for_leg(&pattern("Ac1-a3-c3"), found, |(_, t)| t)
            .into_iter()
            .map(|(m, _)| m)
            .collect();
        assert_eq!(written_out, [1]);
        // A written `-` names the step rather than a switch onto the same square.
        let step = archer(&[("c3", LegKind::Ricochet), ("b4", LegKind::Step)]);
        let switch = archer(&[("c3", LegKind::Ricochet), ("b4", LegKind::Switch)]);
        let found = vec![(0u8, step), (1, switch)];
        let picked: Vec<u8> = written_leg_for_leg(&pattern("Ac1^c3-b4"), found.clone(), |(_, t)| t)
            .into_iter()
            .map(|(m, _)| m)
            .collect();
        assert_eq!(picked, [0]);
        let picked: Vec<u8> = written_leg_for_leg(&pattern("Ac1-c3~b4"), found, |(_, t)| t)
            .into_iter()
            .map(|(m, _)| m)
            .collect();
        assert_eq!(picked, [1]);
    }

    #[test]
    fn purchases_and_redesigns_print_and_match() {
        let buy = Turn::single(Action::Buy {
            design: "WD".into(),
        });
        assert_eq!(buy.text(&geometry()), "buy WD");
        let redesign = Turn::single(Action::Redesign {
            from_design: "Q".into(),
            to_design: "BL".into(),
        });
        assert_eq!(redesign.text(&geometry()), "Q=BL");
        let (buy_p, redesign_p) = (
            TurnPattern::Actions {
                actions: vec![ActionPattern::Buy {
                    design: "WD".into(),
                }],
                claim: None,
            },
            TurnPattern::Actions {
                actions: vec![ActionPattern::Redesign {
                    from_design: "Q".into(),
                    to_design: "BL".into(),
                }],
                claim: None,
            },
        );
        assert!(buy_p.matches(&buy) && !buy_p.matches(&redesign));
        assert!(redesign_p.matches(&redesign) && !redesign_p.matches(&buy));
    }
}
