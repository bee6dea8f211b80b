//! Why a turn is legal or not in orthodox chess, rule by rule (see [`crate::rules::explain`]).
//!
//! A move is walked through the rules in the order the generator ([`Chess::explore`]) applies
//! them: whose turn; the piece's movement (the pawn's step, double step, diagonal capture and
//! en passant; an invented piece's atoms); the path; what stands on the target; the capture
//! mark and the promotion as written; then king safety, tested on a copy of the board with the
//! move played. Castling has its own conditions, in the order of FIDE 3.8.2: the rights, the
//! squares between, the king not in check, the squares it crosses and lands on not attacked.
//! A legal move then gets what it did: the capture, the rook's crossing, the promotion, the
//! castling rights it takes away, an en-passant capture it makes possible, the fifty-move
//! count it starts again.
//!
//! A refused move gets every one of these rules tested on its own ([`Check`]s), for each piece
//! the text could mean: the rules the decisive candidate (the one [`Chess::refusal`] reads the
//! refusal from) passed before the rule that stopped it, that rule, then every other rule
//! that forbids the written move, of that piece or of the others.

use std::borrow::Cow;

use super::candidates::{attacker, castle_move};
use super::refuse::{castle_rook, movement_refusal, sentence, sq_name, Written};
use super::*;
use crate::rules::explain::Step;
use crate::rules::movement::{walk, Landing, Modality, Reach as Range};
use crate::rules::refusal::{
    mark_refusal, origins, piece_text, piece_words, Explored, Rejection, Stage,
};
use crate::rules::turn::{ActionPattern, MoveShape, PieceRef};

// How far along the generator a rule is tested: a refused move lists as passed the rules
// before the one that stopped it.
pub(crate) const PRE: u8 = 0;
pub(crate) const MOVEMENT: u8 = 10;
pub(crate) const BLOCKED: u8 = 20;
pub(crate) const TARGET: u8 = 30;
pub(crate) const MARK: u8 = 40;
pub(crate) const PROMOTION: u8 = 50;
pub(crate) const FINAL: u8 = 70;

/// One rule tested on a written or legal turn: where in the order of the rules, the rule, and
/// whether the turn satisfies it, with a sentence about this turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Check {
    pub order: u8,
    pub rule: &'static str,
    pub pass: bool,
    pub note: String,
}

impl Check {
    pub fn pass(order: u8, rule: &'static str, note: impl Into<String>) -> Check {
        Check {
            order,
            rule,
            pass: true,
            note: note.into(),
        }
    }

    pub fn fail(order: u8, r: Refusal) -> Check {
        Check {
            order,
            rule: r.rule,
            pass: false,
            note: r.reason,
        }
    }

    /// The check as a step of a legal turn.
    pub fn allows(self) -> Step {
        debug_assert!(
            self.pass,
            "a legal turn breaks {}: {}",
            self.rule, self.note
        );
        Step::allows(self.rule, self.note)
    }
}

/// A refused turn's steps: the checks of the decisive candidate (`best`) that passed before
/// the one that stopped it, the refusal `r`, then every other rule that fails, of `best` or of
/// `others` (the other candidates the text could mean), each rule once. When `best` has no
/// failing check of `r`'s rule, only its checks before the movement count as passed.
pub(crate) fn assemble(r: Refusal, best: &[Check], others: &[Check]) -> Vec<Step> {
    let decisive = best
        .iter()
        .find(|c| !c.pass && c.rule == r.rule)
        .map_or(MOVEMENT, |c| c.order);
    let mut steps: Vec<Step> = best
        .iter()
        .filter(|c| c.pass && c.order < decisive)
        .map(|c| Step::allows(c.rule, c.note.clone()))
        .collect();
    let mut forbidden = vec![r.rule];
    steps.push(r.into());
    for c in best.iter().chain(others) {
        if !c.pass && !forbidden.contains(&c.rule) {
            forbidden.push(c.rule);
            steps.push(Step::forbids(c.rule, c.note.clone()));
        }
    }
    steps
}

/// One way an atom of a piece's movement goes from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Route {
    /// The atom's index in the movement.
    pub atom: usize,
    pub reach: Range,
    pub modality: Modality,
    /// How many of the atom's steps the move is.
    pub steps: i32,
    /// The step, in files and ranks as the board has them.
    pub step: (i32, i32),
    /// What the atom finds on the target (blocked when a piece stands in the way).
    pub landing: Landing,
}

impl Route {
    /// Whether the atom may go there: an empty square it moves to, or a piece of the other
    /// side than `us` it captures.
    pub fn takes(&self, us: Color) -> bool {
        super::candidates::takes(self.landing, us as u8)
    }

    pub fn blocked(&self) -> bool {
        matches!(self.landing, Landing::Blocked { .. })
    }

    /// The move in words: `leaps`, `steps`, `moves 3 squares`.
    pub fn verb(&self) -> String {
        let far = self.step.0.abs().max(self.step.1.abs()) > 1;
        match self.reach {
            Range::Leap | Range::Lame if far => "leaps".into(),
            Range::Leap | Range::Lame => "steps".into(),
            Range::Hop(1) => "hops over a screen to the square behind it".into(),
            Range::Hop(_) => "hops over a screen".into(),
            Range::Ride(_) if self.steps == 1 && far => "leaps".into(),
            Range::Ride(_) if self.steps == 1 => "steps".into(),
            Range::Ride(_) => format!("moves {} steps", self.steps),
        }
    }
}

/// Every atom of `movement` whose geometry takes a piece of `color` from `from` to `to`, in
/// atom order, with what it finds there on `board` (the shared walk, past blockers).
pub(crate) fn routes(
    movement: &Movement,
    board: &Board,
    from: Square,
    to: Square,
    color: Color,
) -> Vec<Route> {
    let sign = if color == Color::White { 1 } else { -1 };
    let (df, dr) = (
        i32::from(to.file) - i32::from(from.file),
        i32::from(to.rank) - i32::from(from.rank),
    );
    let target = Sq::of(to);
    let mut out = Vec::new();
    for (i, a) in movement.atoms.iter().enumerate() {
        let one = Movement {
            atoms: Cow::Owned(vec![a.clone()]),
        };
        let mut landing = None;
        walk(&one, board, Sq::of(from), color, true, |t, l| {
            if t == target && landing.is_none() {
                landing = Some(l);
            }
        });
        let Some(landing) = landing else { continue };
        let step = a.steps.iter().find_map(|&(sf, sr)| {
            let (sf, sr) = (i32::from(sf) * sign, i32::from(sr) * sign);
            let k = if sf != 0 { df / sf } else { dr / sr };
            (k >= 1 && df == k * sf && dr == k * sr).then_some(((sf, sr), k))
        });
        let Some((step, steps)) = step else { continue };
        out.push(Route {
            atom: i,
            reach: a.reach,
            modality: a.modality,
            steps,
            step,
            landing,
        });
    }
    out
}

/// The route a move is judged by: the first that takes the target, else the first that is
/// not blocked, else the first.
pub(crate) fn best_route(routes: &[Route], us: Color) -> Option<Route> {
    routes
        .iter()
        .find(|r| r.takes(us))
        .or_else(|| routes.iter().find(|r| !r.blocked()))
        .or(routes.first())
        .copied()
}

/// The squares strictly between two squares on a line (none for a leap).
pub(crate) fn between(from: Square, route: &Route) -> Vec<Square> {
    (1..route.steps)
        .map(|k| {
            Square::new(
                (i32::from(from.file) + k * route.step.0) as u8,
                (i32::from(from.rank) + k * route.step.1) as u8,
            )
        })
        .collect()
}

/// What a route that is not blocked needed on its way, as a sentence: the squares between
/// that are empty (for a lame leap, the squares of its path; for a hopper, all but its
/// screen) and the screen a hopper passes; `None` for a move that passes no square.
pub(crate) fn passage_note(
    board: &Board,
    from: Square,
    to: Square,
    route: &Route,
) -> Option<String> {
    let (f, t) = (sq_name(from), sq_name(to));
    let mut squares = if route.reach == Range::Lame {
        let (path, n) = crate::betza::lame_path(route.step.0, route.step.1);
        path[..n]
            .iter()
            .map(|&(x, y)| {
                Square::new(
                    (i32::from(from.file) + x) as u8,
                    (i32::from(from.rank) + y) as u8,
                )
            })
            .collect()
    } else {
        between(from, route)
    };
    let screen = match route.reach {
        Range::Hop(_) => {
            let i = squares.iter().position(|&s| board.get(s).is_some())?;
            Some(squares.remove(i))
        }
        _ => None,
    };
    let names: Vec<String> = squares.into_iter().map(sq_name).collect();
    let empty = format!(
        "{} {} empty",
        listed(&names),
        if names.len() == 1 { "is" } else { "are" }
    );
    Some(match (screen, names.is_empty()) {
        (None, true) => return None,
        (None, false) if route.reach == Range::Lame => {
            format!("nothing blocks the leap from {f} to {t}: {empty}")
        }
        (None, false) => format!("no piece stands between {f} and {t}: {empty}"),
        (Some(s), true) => format!("it hops over the one piece on {}", sq_name(s)),
        (Some(s), false) => format!(
            "it hops over the one piece on {}, and otherwise {empty}",
            sq_name(s)
        ),
    })
}

/// `a8, b8 and c8`.
pub(crate) fn listed(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Along what a line move goes: `the a-file`, `rank 1`, `a diagonal`.
fn line(from: Square, to: Square) -> String {
    let g = Chess::geometry();
    if from.file == to.file {
        format!("the {}-file", g.file_label(from.file))
    } else if from.rank == to.rank {
        format!("rank {}", g.rank_label(from.rank))
    } else {
        "a diagonal".into()
    }
}

fn movement_rule(role: Role) -> &'static str {
    match role {
        Role::King => "king-move",
        Role::Queen => "queen-move",
        Role::Rook => "rook-move",
        Role::Bishop => "bishop-move",
        Role::Knight => "knight-move",
        Role::Pawn => "pawn-move",
        _ => "invented-piece",
    }
}

/// The rule by which a piece's move captures.
fn capture_rule(piece: Piece) -> &'static str {
    match piece.role() {
        Role::Pawn => "pawn-capture",
        r => movement_rule(r),
    }
}

/// How a piece's move goes by its route, in words.
fn movement_note(piece: Piece, from: Square, to: Square, route: &Route) -> String {
    let (f, t) = (sq_name(from), sq_name(to));
    match piece.design() {
        Some(d) => {
            let atom = d
                .entry()
                .design
                .atoms()
                .get(route.atom)
                .map_or(String::new(), ToString::to_string);
            let only = match route.modality {
                Modality::Move => ", which only moves (m)",
                Modality::Capture => ", which only captures (c)",
                Modality::Both => "",
            };
            format!(
                "the {d} on {f} {} to {t} by its atom {atom}{only}",
                route.verb()
            )
        }
        None => match piece.role() {
            Role::King => format!("the king on {f} steps to the adjoining square {t}"),
            Role::Knight => format!(
                "the knight on {f} leaps to {t}, one of the nearest squares not on its rank, file or diagonal"
            ),
            r => format!("the {r} on {f} moves along {} to {t}", line(from, to)),
        },
    }
}

/// Whose turn it is, and whose piece moves.
fn turn_check(pos: &Chess, piece: Option<(Square, Piece)>) -> Check {
    let us = pos.turn;
    Check::pass(
        PRE,
        "not-your-turn",
        match piece {
            Some((s, p)) => format!(
                "it is {us}'s turn, and the {} on {} is {us}'s",
                piece_text(p),
                sq_name(s)
            ),
            None => format!("it is {us}'s turn"),
        },
    )
}

/// The own king of the side to move, found on a board.
fn king_on(b: &Board, color: Color) -> Option<Square> {
    b.pieces()
        .find(|(_, p)| *p == Piece::new(color, Role::King))
        .map(|(s, _)| s)
}

fn cell(s: Square) -> i32 {
    Sq::of(s).0 as i32
}

/// Castling on `side`, each condition of FIDE 3.8.2 in the generator's order; the king not on
/// its square fails the rights.
fn castle_checks(pos: &Chess, side: CastleSide) -> Vec<Check> {
    let us = pos.turn;
    let them = us.other();
    let b = &pos.board;
    let m = castle_move(us, side);
    let (e, to) = (m.from(), m.to());
    let fail = |order: u8, rule: &'static str, at: Option<Square>| {
        let why = match at {
            Some(s) => Rejection::at(rule, Stage::Final, s),
            None => Rejection::new(rule, Stage::Final),
        };
        Check::fail(order, sentence(pos, m, why))
    };
    if b.get(e) != Some(Piece::new(us, Role::King)) {
        return vec![fail(FINAL, "castling-rights", None)];
    }
    let white = us == Color::White;
    let (right, between, name) = match side {
        CastleSide::King => (if white { WK } else { BK }, vec![1, 2], "kingside"),
        CastleSide::Queen => (if white { WQ } else { BQ }, vec![-1, -2, -3], "queenside"),
    };
    let dir = if side == CastleSide::King { 1 } else { -1 };
    let at = |df: i8| Square::new((e.file as i8 + df) as u8, e.rank);
    let rook = at(if side == CastleSide::King { 3 } else { -4 });
    let crossed = at(dir);
    let mut out = vec![Check::pass(
        MOVEMENT,
        "castling",
        format!(
            "castling {name}, the king on {} moves two squares towards the {} rook, to {}, and the rook crosses to {}",
            sq_name(e),
            sq_name(rook),
            sq_name(to),
            sq_name(crossed)
        ),
    )];
    out.push(if pos.castling & right == 0 {
        fail(FINAL, "castling-rights", None)
    } else {
        Check::pass(
            FINAL,
            "castling-rights",
            format!(
                "{us} still has the right to castle {name}: neither the king nor the {} rook has moved",
                sq_name(rook)
            ),
        )
    });
    let squares: Vec<Square> = between.iter().map(|&d| at(d)).collect();
    out.push(match squares.iter().find(|s| b.get(**s).is_some()) {
        Some(s) => fail(FINAL + 1, "castling-blocked", Some(*s)),
        None => Check::pass(
            FINAL + 1,
            "castling-blocked",
            format!(
                "{}, between the king and the rook, {} empty",
                listed(&squares.iter().map(|s| sq_name(*s)).collect::<Vec<_>>()),
                if squares.len() == 1 { "is" } else { "are" }
            ),
        ),
    });
    out.push(match attacker(b, cell(e), them as u8) {
        Some(a) => fail(FINAL + 2, "castling-out-of-check", Some(a)),
        None => Check::pass(
            FINAL + 2,
            "castling-out-of-check",
            format!("the {us} king on {} is not in check", sq_name(e)),
        ),
    });
    out.push(
        match [crossed, to]
            .into_iter()
            .find(|s| attacker(b, cell(*s), them as u8).is_some())
        {
            Some(s) => fail(FINAL + 3, "castling-through-check", Some(s)),
            None => Check::pass(
                FINAL + 3,
                "castling-through-check",
                format!(
                    "no {them} piece attacks {}, which the king crosses, or {}, where it lands",
                    sq_name(crossed),
                    sq_name(to)
                ),
            ),
        },
    );
    out
}

/// Why the own king is safe after `m` (which leaves it unattacked on `after`), in words.
fn safety_note(pos: &Chess, m: Move, piece: Piece, after: &Chess) -> String {
    let us = pos.turn;
    let them = us.other();
    let (f, t) = (sq_name(m.from()), sq_name(m.to()));
    let Some(k) = king_on(&after.board, us) else {
        return format!("{us} has no king to expose");
    };
    let kname = sq_name(k);
    if piece.role() == Role::King {
        return format!("no {them} piece attacks {t}, so the king is not in check there");
    }
    let b = &pos.board;
    if let Some(c) = attacker(b, cell(k), them as u8) {
        return format!(
            "the {us} king on {kname} is in check from the {} on {}, and after the move no {them} piece attacks it",
            b.get(c).map_or(String::from("piece"), piece_words),
            sq_name(c)
        );
    }
    let mut lifted = b.clone();
    lifted.put(m.from(), None);
    if let Some(a) = attacker(&lifted, cell(k), them as u8) {
        let pinner = format!(
            "the {} on {}",
            b.get(a).map_or(String::from("piece"), piece_words),
            sq_name(a)
        );
        return if a == m.to() {
            format!(
                "the {} on {f} screens the {us} king on {kname} from {pinner}, and it captures that piece",
                piece_text(piece)
            )
        } else {
            format!(
                "the {} on {f} screens the {us} king on {kname} from {pinner}, and on {t} it still does",
                piece_text(piece)
            )
        };
    }
    format!("after the move no {them} piece attacks the {us} king on {kname}")
}

/// Every rule a move of the own piece on `from` to `to` is judged by, in the generator's
/// order, each tested on its own. `written` is the text being refused (its capture mark and
/// promotion are checked too); without it the move is a legal one, promoting to `promo`.
fn move_checks(
    pos: &Chess,
    from: Square,
    to: Square,
    written: Option<&Written>,
    promo: Option<Role>,
) -> Vec<Check> {
    let us = pos.turn;
    let them = us.other();
    let b = &pos.board;
    let Some(piece) = b.get(from) else {
        return vec![turn_check(pos, None)];
    };
    let mut out = vec![turn_check(pos, Some((from, piece)))];
    // Castling written as a move of the king.
    if piece.role() == Role::King {
        for side in [CastleSide::King, CastleSide::Queen] {
            let m = castle_move(us, side);
            if m.from() != from || m.to() != to {
                continue;
            }
            out.extend(castle_checks(pos, side));
            if let Some(w) = written {
                if let Some(r) = mark_refusal(&Chess::geometry(), from, to, w.capture, false) {
                    out.push(Check::fail(MARK, r));
                }
                if let Some(r) = w.promotion_refusal(pos, m) {
                    out.push(Check::fail(PROMOTION, r));
                }
            }
            return out;
        }
    }
    let (f, t) = (sq_name(from), sq_name(to));
    let role = piece.role();
    let target = b.get(to);
    let mut kind = KIND_NORMAL;
    // Whether the move captures, once what stands on the target allows it.
    let mut captures: Option<bool> = None;
    let tag = |kind: u8, rule: &'static str, at: Option<Square>| {
        let m = Move::new(cell(from), cell(to), kind);
        let why = match at {
            Some(s) => Rejection::at(rule, Stage::Target, s),
            None => Rejection::new(rule, Stage::Target),
        };
        sentence(pos, m, why)
    };
    if role == Role::Pawn {
        let fwd = if us == Color::White { 1 } else { -1 };
        let start = if us == Color::White { 1 } else { 6 };
        let df = i32::from(to.file) - i32::from(from.file);
        let dr = (i32::from(to.rank) - i32::from(from.rank)) * fwd;
        match (df, dr) {
            (0, 1) | (0, 2) if dr == 1 || from.rank == start => {
                if dr == 2 {
                    kind = KIND_DOUBLE;
                    out.push(Check::pass(
                        MOVEMENT,
                        "pawn-move",
                        format!("the pawn on {f} stands on its starting square and may advance two squares, to {t}"),
                    ));
                    let mid = Square::new(from.file, (i32::from(from.rank) + fwd) as u8);
                    out.push(match b.get(mid) {
                        Some(_) => Check::fail(BLOCKED, tag(KIND_DOUBLE, "blocked", Some(mid))),
                        None => Check::pass(
                            BLOCKED,
                            "blocked",
                            format!(
                                "{}, the square the pawn passes over, is empty",
                                sq_name(mid)
                            ),
                        ),
                    });
                } else {
                    out.push(Check::pass(
                        MOVEMENT,
                        "pawn-move",
                        format!("the pawn on {f} moves straight forward to {t}"),
                    ));
                }
                match target {
                    Some(p) if p.color() == us => {
                        out.push(Check::fail(TARGET, tag(kind, "own-piece-on-target", None)))
                    }
                    Some(_) => out.push(Check::fail(TARGET, tag(kind, "pawn-capture", None))),
                    None => captures = Some(false),
                }
            }
            (-1 | 1, 1) => match target {
                Some(p) if p.color() == us => {
                    out.push(Check::fail(TARGET, tag(kind, "own-piece-on-target", None)))
                }
                Some(p) => {
                    captures = Some(true);
                    out.push(Check::pass(
                        TARGET,
                        "pawn-capture",
                        format!(
                            "the pawn on {f} captures diagonally forward: {t} holds the {}",
                            piece_words(p)
                        ),
                    ));
                }
                None if pos.ep != 0 && cell(to) == pos.ep as i32 => {
                    kind = KIND_EP;
                    captures = Some(true);
                    let victim = Square::new(to.file, from.rank);
                    out.push(Check::pass(
                        TARGET,
                        "en-passant",
                        format!(
                            "the {them} pawn on {} has just advanced two squares, passing over {t}, so the pawn on {f} may take it as though it had moved one square",
                            sq_name(victim)
                        ),
                    ));
                }
                None => {
                    let beside = Square::new(to.file, from.rank);
                    let fifth = if us == Color::White { 4 } else { 3 };
                    let rule = if b.get(beside) == Some(Piece::new(them, Role::Pawn))
                        && from.rank == fifth
                    {
                        "en-passant"
                    } else {
                        "pawn-capture"
                    };
                    out.push(Check::fail(TARGET, tag(kind, rule, None)));
                }
            },
            _ => out.push(Check::fail(MOVEMENT, movement_refusal(piece, from, to))),
        }
    } else {
        let found = routes(piece_movement(piece), b, from, to, us);
        let route = best_route(&found, us);
        match route {
            None => out.push(Check::fail(MOVEMENT, movement_refusal(piece, from, to))),
            Some(route) => {
                out.push(Check::pass(
                    MOVEMENT,
                    movement_rule(role),
                    movement_note(piece, from, to, &route),
                ));
                if let Landing::Blocked { by } = route.landing {
                    out.push(Check::fail(
                        BLOCKED,
                        tag(KIND_NORMAL, "blocked", Some(by.square())),
                    ));
                } else if let Some(note) = passage_note(b, from, to, &route) {
                    out.push(Check::pass(BLOCKED, "blocked", note));
                }
            }
        }
        // What stands on the target, whether or not the piece can go there.
        let (moves, takes) = route.map_or((true, true), |r| {
            (r.modality.moves(), r.modality.captures())
        });
        match target {
            Some(p) if p.color() == us => {
                out.push(Check::fail(TARGET, tag(kind, "own-piece-on-target", None)))
            }
            Some(_) if !takes => out.push(Check::fail(TARGET, tag(kind, "invented-piece", None))),
            None if !moves => out.push(Check::fail(TARGET, tag(kind, "invented-piece", None))),
            Some(p) => {
                captures = Some(true);
                out.push(Check::pass(
                    TARGET,
                    "own-piece-on-target",
                    format!(
                        "{t} holds the {}, a piece of the other side",
                        piece_words(p)
                    ),
                ));
            }
            None => {
                captures = Some(false);
                out.push(Check::pass(
                    TARGET,
                    "own-piece-on-target",
                    format!("{t} is empty"),
                ));
            }
        }
    }
    let last = if us == Color::White { 7 } else { 0 };
    let required = role == Role::Pawn && to.rank == last;
    let promo = match written {
        None => promo,
        Some(w) => match w.promotion {
            Some(PieceRef::Role(r))
                if required
                    && matches!(r, Role::Queen | Role::Rook | Role::Bishop | Role::Knight) =>
            {
                Some(*r)
            }
            _ if required => Some(Role::Queen),
            _ => None,
        },
    };
    let m = Move {
        promo: promo.map_or(0, |r| r.code()),
        ..Move::new(cell(from), cell(to), kind)
    };
    if let (Some(w), Some(c)) = (written, captures) {
        out.push(
            match mark_refusal(&Chess::geometry(), from, to, w.capture, c) {
                Some(r) => Check::fail(MARK, r),
                None if c => Check::pass(
                    MARK,
                    "capture-mark",
                    format!("{f}x{t} is a capture, written with x"),
                ),
                None => Check::pass(
                    MARK,
                    "capture-mark",
                    format!("{f}-{t} captures nothing, and it is not written with x"),
                ),
            },
        );
    }
    match written.and_then(|w| w.promotion_refusal(pos, m)) {
        Some(r) => out.push(Check::fail(PROMOTION, r)),
        None => {
            if let Some(p) = m.promotion().filter(|_| required) {
                out.push(Check::pass(
                    PROMOTION,
                    "promotion",
                    format!(
                        "{t} is on the last rank, so the pawn is exchanged, as part of the move, for a queen, rook, bishop or knight: here a {p}"
                    ),
                ));
            }
        }
    }
    // King safety, on a copy of the board with the move played.
    let mut after = pos.clone();
    after.apply(m);
    let safe = king_on(&after.board, us).and_then(|k| attacker(&after.board, cell(k), them as u8));
    out.push(match safe {
        Some(a) => Check::fail(
            FINAL,
            sentence(pos, m, Rejection::at("own-king-in-check", Stage::Final, a)),
        ),
        None => Check::pass(
            FINAL,
            "own-king-in-check",
            safety_note(pos, m, piece, &after),
        ),
    });
    out
}

/// What a legal move did: the capture, the rook's crossing, the promotion, the castling rights
/// it takes away, an en-passant capture it opens, the fifty-move count it starts again.
fn effects(pos: &Chess, m: Move) -> Vec<Step> {
    let us = pos.turn;
    let them = us.other();
    let b = &pos.board;
    let (from, to) = (m.from(), m.to());
    let (f, t) = (sq_name(from), sq_name(to));
    let Some(piece) = b.get(from) else {
        return Vec::new();
    };
    let mut after = pos.clone();
    after.apply(m);
    let mut out = Vec::new();
    let mut captured = false;
    if m.is_castle() {
        let rook = castle_rook(m);
        let crossed = Square::new((from.file + to.file) / 2, from.rank);
        out.push(Step::effect(
            "castling",
            format!(
                "the rook on {} crosses to {}, the square the king passed over",
                sq_name(rook),
                sq_name(crossed)
            ),
        ));
    } else if m.is_en_passant() {
        captured = true;
        let victim = Square::new(to.file, from.rank);
        out.push(Step::effect(
            "en-passant",
            format!(
                "the {them} pawn on {} is captured en passant and leaves the board; the pawn on {f} lands on {t}",
                sq_name(victim)
            ),
        ));
    } else if let Some(v) = b.get(to) {
        captured = true;
        out.push(Step::effect(
            capture_rule(piece),
            format!(
                "the {} on {f} captures the {} on {t}, which leaves the board",
                piece_text(piece),
                piece_words(v)
            ),
        ));
    }
    if let Some(p) = m.promotion() {
        out.push(Step::effect(
            "promotion",
            format!("the pawn on {t} is exchanged for a {us} {p}"),
        ));
    }
    // Rights taken away.
    for color in Color::ALL {
        let (k, q) = if color == Color::White {
            (WK, WQ)
        } else {
            (BK, BQ)
        };
        let lost: Vec<&str> = [(k, "kingside"), (q, "queenside")]
            .into_iter()
            .filter(|(bit, _)| pos.castling & bit != 0 && after.castling & bit == 0)
            .map(|(_, side)| side)
            .collect();
        if lost.is_empty() {
            continue;
        }
        let why = if color == us && piece.role() == Role::King {
            format!("its king has left {f}")
        } else if color == us {
            format!("its rook has left {f}")
        } else {
            format!("its rook on {t} is captured")
        };
        out.push(Step::effect(
            "castling-rights",
            format!(
                "{color} loses the right to castle {}: {why}",
                lost.join(" and ")
            ),
        ));
    }
    // A double step that the other side may take en passant on the next move.
    if m.kind == KIND_DOUBLE {
        let mut replies = Vec::new();
        after.legal_moves(&mut replies);
        let takers: Vec<String> = replies
            .iter()
            .filter(|r| r.is_en_passant())
            .map(|r| sq_name(r.from()))
            .collect();
        if !takers.is_empty() {
            let mid = Square::new(from.file, (from.rank + to.rank) / 2);
            out.push(Step::effect(
                "en-passant",
                format!(
                    "the pawn passed over {}: the {them} {} on {} may take it en passant on the next move only",
                    sq_name(mid),
                    crate::text::plural(takers.len(), "pawn"),
                    listed(&takers)
                ),
            ));
        }
    }
    if (piece.role() == Role::Pawn || captured) && pos.halfmove > 0 {
        out.push(Step::effect(
            "fifty-move",
            format!(
                "a {} starts the count of the fifty-move rule again (it stood at {} half-moves)",
                if captured { "capture" } else { "pawn move" },
                pos.halfmove
            ),
        ));
    }
    out
}

/// The rules a legal turn satisfied, in the order the variant applies them, then the rules
/// behind what it did.
pub(super) fn legal(pos: &Chess, m: Move) -> Vec<Step> {
    let mut steps: Vec<Step> = if m.is_castle() {
        let side = if m.to() > m.from() {
            CastleSide::King
        } else {
            CastleSide::Queen
        };
        let piece = pos.board.get(m.from()).map(|p| (m.from(), p));
        std::iter::once(turn_check(pos, piece))
            .chain(castle_checks(pos, side))
            .map(Check::allows)
            .collect()
    } else {
        move_checks(pos, m.from(), m.to(), None, m.promotion())
            .into_iter()
            .map(Check::allows)
            .collect()
    };
    steps.extend(effects(pos, m));
    steps
}

/// The rules a refused turn passed, the rule that forbids it, and the others that would too.
pub(super) fn refused(pos: &Chess, pattern: &TurnPattern) -> Vec<Step> {
    let r = pos.refusal(pattern);
    let action = match pattern {
        TurnPattern::Actions { actions, .. } if actions.len() == 1 => &actions[0],
        _ => return vec![r.into()],
    };
    match action {
        ActionPattern::Castle(side) => {
            let piece = pos
                .board
                .get(castle_move(pos.turn, *side).from())
                .filter(|p| *p == Piece::new(pos.turn, Role::King))
                .map(|p| (castle_move(pos.turn, *side).from(), p));
            let mut checks = vec![turn_check(pos, piece)];
            checks.extend(castle_checks(pos, *side));
            assemble(r, &checks, &[])
        }
        ActionPattern::Move { .. } => {
            let MoveShape::Straight(sm) = action.shape() else {
                return vec![r.into()];
            };
            let Ok(starts) = origins(&pos.board, &Chess::geometry(), pos.turn, sm.kind, sm.from)
            else {
                return vec![r.into()];
            };
            let written = Written {
                to: sm.to,
                capture: sm.capture,
                promotion: &sm.promotion,
            };
            let all: Explored<Move> = super::refuse::explored(pos);
            // The candidate the refusal comes from: the furthest, the first of equals.
            let mut best: Option<(Stage, Refusal, Square)> = None;
            for &s in &starts {
                if let Some((stage, found)) = written.refusal(pos, &all, s) {
                    if best.as_ref().is_none_or(|(b, _, _)| stage > *b) {
                        best = Some((stage, found, s));
                    }
                }
            }
            let decisive = best.filter(|(_, found, _)| *found == r).map(|(_, _, s)| s);
            let mut own = vec![turn_check(pos, None)];
            let mut others = Vec::new();
            for &s in &starts {
                let checks = move_checks(pos, s, sm.to, Some(&written), None);
                if Some(s) == decisive {
                    own = checks;
                } else {
                    others.extend(checks);
                }
            }
            assemble(r, &own, &others)
        }
        _ => vec![r.into()],
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::rules::explain::StepVerdict;
    use crate::rules::testing::{report, Rng};
    use crate::scenario::evaluate::Lowering;
    use crate::scenario::parse::parse_turn;

    const STARTS: [&str; 7] = [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "r[WA][FD]qk[mBcR][NW]r/pppppppp/8/8/8/8/PPPPPPPP/R(WA)(FD)QK(mBcR)(NW)R w KQkq - 0 1",
    ];

    fn pos(fen: &str) -> Chess {
        let options = Options::defaults(Chess::options());
        Chess::from_fen(Chess::geometry(), fen, &options).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// Positions of seeded random playouts from the starts.
    fn positions(rounds: usize, seed: u64) -> Vec<Chess> {
        let mut rng = Rng(seed);
        (0..rounds)
            .map(|round| {
                let mut p = pos(STARTS[round % STARTS.len()]);
                for _ in 0..rng.below(40) {
                    let mut moves = Vec::new();
                    p.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    p.play(moves[rng.below(moves.len())]);
                }
                p
            })
            .collect()
    }

    fn pattern(text: &str) -> Option<TurnPattern> {
        let turn = parse_turn(text).ok()?;
        Lowering::<Chess>::new(Chess::geometry()).turn(&turn).ok()
    }

    fn known(rule: &str) -> bool {
        RULES.iter().any(|r| r.id == rule)
    }

    fn verdicts(steps: &[Step]) -> Vec<(&'static str, StepVerdict)> {
        steps.iter().map(|s| (s.rule, s.verdict)).collect()
    }

    fn explain(fen: &str, text: &str) -> Vec<Step> {
        let p = pos(fen);
        let pattern = pattern(text).expect("a turn");
        let found: Vec<_> = p
            .legal_turns()
            .into_iter()
            .filter(|(_, t)| pattern.matches(t))
            .collect();
        match &found[..] {
            [] => p.explain_refused(&pattern),
            [(m, _)] => p.explain_legal(*m),
            _ => panic!("{text} is ambiguous"),
        }
    }

    #[test]
    fn every_legal_move_is_explained_by_catalogued_rules() {
        let (mut checked, mut failures) = (0, Vec::new());
        for p in positions(150, 0xE8_91A1) {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            for m in moves {
                checked += 1;
                let steps = p.explain_legal(m);
                let bad: Vec<_> = steps.iter().filter(|s| !known(s.rule)).collect();
                if !steps.iter().any(|s| s.verdict == StepVerdict::Allows)
                    || !bad.is_empty()
                    || steps.iter().any(|s| s.verdict == StepVerdict::Forbids)
                {
                    failures.push(format!("{m:?} in {}: {steps:?}", p.fen()));
                }
            }
        }
        report(&failures, checked, 3000, "legal moves explained");
    }

    /// The texts to refuse in a position: every rejected candidate of the explorer, and every
    /// own piece written to every square (with and without the capture mark, and short).
    fn near_misses(p: &Chess, every_square: bool) -> BTreeSet<String> {
        let g = Chess::geometry();
        let mut all = Explored::default();
        p.explore(&mut all);
        let mut texts: BTreeSet<String> = all
            .rejected
            .iter()
            .filter(|(m, _)| !m.is_castle())
            .map(|(m, _)| p.describe(*m).text(&g))
            .collect();
        texts.insert("O-O".into());
        texts.insert("O-O-O".into());
        if every_square {
            for (from, piece) in p.board.pieces().filter(|(_, q)| q.color() == p.turn) {
                let letter = match piece.design() {
                    Some(d) => d.to_string(),
                    None => piece.role().letter().to_string(),
                };
                for to in g.squares() {
                    let (f, t) = (g.square_name(from), g.square_name(to));
                    texts.insert(format!("{letter}{f}-{t}"));
                    texts.insert(format!("{letter}{f}x{t}"));
                    if piece.role() != Role::Pawn {
                        texts.insert(format!("{letter}{t}"));
                    } else if to.rank == 0 || to.rank == 7 {
                        texts.insert(format!("{f}-{t}=Q"));
                        texts.insert(t.clone());
                    } else {
                        texts.insert(format!("{t}=N"));
                    }
                }
            }
        }
        texts
    }

    #[test]
    fn every_refused_move_is_forbidden_first_by_its_refusal() {
        let (mut checked, mut failures) = (0, Vec::new());
        let mut also = BTreeSet::new();
        for (i, p) in positions(90, 0x0E_F05E).into_iter().enumerate() {
            let legal: BTreeSet<String> = p
                .legal_turns()
                .into_iter()
                .map(|(_, t)| t.text(&Chess::geometry()))
                .collect();
            for text in near_misses(&p, i % 3 == 0) {
                let Some(pattern) = pattern(&text) else {
                    continue;
                };
                if legal.contains(&text) || p.legal_turns().iter().any(|(_, t)| pattern.matches(t))
                {
                    continue;
                }
                checked += 1;
                let r = p.refusal(&pattern);
                let steps = p.explain_refused(&pattern);
                let forbids: Vec<&Step> = steps
                    .iter()
                    .filter(|s| s.verdict == StepVerdict::Forbids)
                    .collect();
                let distinct: BTreeSet<&str> = forbids.iter().map(|s| s.rule).collect();
                also.extend(forbids.iter().skip(1).map(|s| s.rule));
                if forbids.first().map(|s| (s.rule, s.note.as_str()))
                    != Some((r.rule, r.reason.as_str()))
                    || distinct.len() != forbids.len()
                    || steps.iter().any(|s| !known(s.rule))
                    || steps.iter().any(|s| s.verdict == StepVerdict::Effect)
                {
                    failures.push(format!("{text} in {}: {r} / {steps:?}", p.fen()));
                }
            }
        }
        report(&failures, checked, 20_000, "refused moves explained");
        // The rules found forbidding besides the decisive one.
        for rule in [
            "own-king-in-check",
            "own-piece-on-target",
            "capture-mark",
            "blocked",
            "promotion",
        ] {
            assert!(
                also.contains(rule),
                "{rule} never forbids a move as well: {also:?}"
            );
        }
    }

    #[test]
    fn a_quiet_move() {
        let steps = explain(START_FEN, "Nf3");
        assert_eq!(
            verdicts(&steps),
            [
                ("not-your-turn", StepVerdict::Allows),
                ("knight-move", StepVerdict::Allows),
                ("own-piece-on-target", StepVerdict::Allows),
                ("own-king-in-check", StepVerdict::Allows),
            ]
        );
        assert_eq!(
            steps[1].note,
            "the knight on g1 leaps to f3, one of the nearest squares not on its rank, file or diagonal"
        );
        assert_eq!(
            steps[3].note,
            "after the move no black piece attacks the white king on e1"
        );
        // A double step that Black can take en passant.
        let steps = explain("4k3/8/8/8/3p4/8/4P3/4K3 w - - 3 40", "e4");
        assert_eq!(
            verdicts(&steps),
            [
                ("not-your-turn", StepVerdict::Allows),
                ("pawn-move", StepVerdict::Allows),
                ("blocked", StepVerdict::Allows),
                ("own-king-in-check", StepVerdict::Allows),
                ("en-passant", StepVerdict::Effect),
                ("fifty-move", StepVerdict::Effect),
            ]
        );
        assert_eq!(
            steps[4].note,
            "the pawn passed over e3: the black pawn on d4 may take it en passant on the next move only"
        );
    }

    #[test]
    fn a_capture_out_of_a_pin() {
        // The bishop on d2 is pinned by the b4 bishop, and takes it.
        let steps = explain("4k3/8/8/8/1b6/8/3B4/4K3 w - - 0 1", "Bxb4");
        assert_eq!(
            verdicts(&steps),
            [
                ("not-your-turn", StepVerdict::Allows),
                ("bishop-move", StepVerdict::Allows),
                ("blocked", StepVerdict::Allows),
                ("own-piece-on-target", StepVerdict::Allows),
                ("own-king-in-check", StepVerdict::Allows),
                ("bishop-move", StepVerdict::Effect),
            ]
        );
        assert_eq!(
            steps[4].note,
            "the bishop on d2 screens the white king on e1 from the black bishop on b4, and it captures that piece"
        );
        assert_eq!(
            steps[5].note,
            "the bishop on d2 captures the black bishop on b4, which leaves the board"
        );
    }

    #[test]
    fn castling_en_passant_and_promotion() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(
            verdicts(&explain(fen, "O-O")),
            [
                ("not-your-turn", StepVerdict::Allows),
                ("castling", StepVerdict::Allows),
                ("castling-rights", StepVerdict::Allows),
                ("castling-blocked", StepVerdict::Allows),
                ("castling-out-of-check", StepVerdict::Allows),
                ("castling-through-check", StepVerdict::Allows),
                ("castling", StepVerdict::Effect),
                ("castling-rights", StepVerdict::Effect),
            ]
        );
        let steps = explain("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6");
        assert_eq!(
            verdicts(&steps),
            [
                ("not-your-turn", StepVerdict::Allows),
                ("en-passant", StepVerdict::Allows),
                ("own-king-in-check", StepVerdict::Allows),
                ("en-passant", StepVerdict::Effect),
            ]
        );
        let steps = explain("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "axb8=N");
        assert_eq!(
            verdicts(&steps),
            [
                ("not-your-turn", StepVerdict::Allows),
                ("pawn-capture", StepVerdict::Allows),
                ("promotion", StepVerdict::Allows),
                ("own-king-in-check", StepVerdict::Allows),
                ("pawn-capture", StepVerdict::Effect),
                ("promotion", StepVerdict::Effect),
            ]
        );
        // Castling refused by three conditions at once: the queenside is blocked on b1, the
        // king is in check and the squares it crosses are attacked.
        let steps = explain("3rr1k1/8/8/8/8/8/8/RN2K2R w KQ - 0 1", "O-O-O");
        assert_eq!(
            verdicts(&steps),
            [
                ("not-your-turn", StepVerdict::Allows),
                ("castling", StepVerdict::Allows),
                ("castling-rights", StepVerdict::Allows),
                ("castling-blocked", StepVerdict::Forbids),
                ("castling-out-of-check", StepVerdict::Forbids),
                ("castling-through-check", StepVerdict::Forbids),
            ]
        );
    }

    #[test]
    fn a_king_move_refused_by_three_rules() {
        // Two squares, onto its own knight, which a black rook attacks.
        let steps = explain("4k3/8/8/8/8/8/8/r2N1K2 w - - 0 1", "Kf1-d1");
        assert_eq!(
            verdicts(&steps),
            [
                ("not-your-turn", StepVerdict::Allows),
                ("king-move", StepVerdict::Forbids),
                ("own-piece-on-target", StepVerdict::Forbids),
                ("own-king-in-check", StepVerdict::Forbids),
            ]
        );
        assert_eq!(
            steps[3].note,
            "the king would be in check on d1 from the black rook on a1"
        );
    }

    #[test]
    fn a_pinned_piece_is_refused_for_king_safety() {
        // The knight on e2 shields its king from the rook on e8.
        let fen = "4r1k1/8/8/8/8/2p5/4N3/4K3 w - - 0 1";
        let steps = explain(fen, "Ne2xc3");
        assert_eq!(
            verdicts(&steps),
            [
                ("not-your-turn", StepVerdict::Allows),
                ("knight-move", StepVerdict::Allows),
                ("own-piece-on-target", StepVerdict::Allows),
                ("capture-mark", StepVerdict::Allows),
                ("own-king-in-check", StepVerdict::Forbids),
            ]
        );
        assert_eq!(
            steps[4].note,
            "moving the knight from e2 to c3 would expose the white king on e1 to the black rook on e8"
        );
        // Written without the x, the capture mark decides first (as the refusal reads it).
        assert_eq!(
            verdicts(&explain(fen, "Ne2-c3")),
            [
                ("not-your-turn", StepVerdict::Allows),
                ("knight-move", StepVerdict::Allows),
                ("own-piece-on-target", StepVerdict::Allows),
                ("capture-mark", StepVerdict::Forbids),
                ("own-king-in-check", StepVerdict::Forbids),
            ]
        );
        // A short move two knights could mean: the decisive one is the pinned knight, and the
        // one on h1 cannot leap there at all.
        let steps = explain("4r1k1/8/8/8/8/8/4N3/4K2N w - - 0 1", "Nc3");
        assert_eq!(
            verdicts(&steps),
            [
                ("not-your-turn", StepVerdict::Allows),
                ("knight-move", StepVerdict::Allows),
                ("own-piece-on-target", StepVerdict::Allows),
                ("capture-mark", StepVerdict::Allows),
                ("own-king-in-check", StepVerdict::Forbids),
                ("knight-move", StepVerdict::Forbids),
            ]
        );
        assert!(steps[5].note.contains("h1"), "{}", steps[5].note);
    }

    #[test]
    fn the_shared_explanation_agrees_with_the_game() {
        let game = crate::rules::Game::new(pos(START_FEN), Options::defaults(Chess::options()));
        for (text, forbidden) in [
            ("Nf3", None),
            ("Nd2", Some("own-piece-on-target")),
            ("Ke1-g1", Some("castling-blocked")),
        ] {
            let e = crate::rules::explain::explain(&game, &pattern(text).expect("a turn"));
            assert_eq!(e.forbidden_by().map(|s| s.rule), forbidden, "{text}: {e:?}");
            assert!(!e.steps.is_empty(), "{text}");
        }
    }
}
