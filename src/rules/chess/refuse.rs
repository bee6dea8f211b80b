//! Why a written turn is not a legal chess move: the most specific rule, with the squares.
//!
//! A move is checked in stages (movement, blocking, target, capture mark, promotion, king
//! safety); when a short (SAN) pattern leaves the origin open, every own piece of the named kind
//! is tried and the one that gets furthest decides the refusal.

use super::*;
use crate::rules::attacks::first_blocker;
use crate::rules::turn::{straight, ActionPattern, Origin, PieceRef, Style};

const STAGE_MOVEMENT: u8 = 0;
const STAGE_BLOCKED: u8 = 1;
const STAGE_TARGET: u8 = 2;
const STAGE_MARK: u8 = 3;
const STAGE_PROMOTION: u8 = 4;
const STAGE_SAFETY: u8 = 5;

fn sq_name(s: Square) -> String {
    Chess::geometry().square_name(s)
}

fn describe_piece(p: Piece) -> String {
    format!("{} {}", p.color(), p.role())
}

/// A square from which a piece of colour `them` attacks `s` on board `b` (the shared attack
/// test, which names the attacker; the generator's own test only says whether there is one).
fn attacker_of(b: &Board, s: i32, them: u8) -> Option<Square> {
    attack_tables()[them as usize]
        .attacker(b, Sq(s as u16), |_| true, |_, _| false)
        .map(|a| a.from.square())
}

fn attacker_text(b: &Board, s: i32, them: u8) -> String {
    match attacker_of(b, s, them) {
        Some(a) => match b.get(a) {
            Some(p) => format!("the {} on {}", describe_piece(p), sq_name(a)),
            None => "a piece".into(),
        },
        None => "an enemy piece".into(),
    }
}

pub(super) fn refusal(pos: &Chess, pattern: &TurnPattern) -> Refusal {
    let actions = match pattern {
        TurnPattern::Actions { actions, .. } => actions,
        TurnPattern::Resign | TurnPattern::Draw => {
            return Refusal::new(
                "no-such-action",
                "resigning and agreeing a draw are not moves",
            )
        }
    };
    if actions.len() != 1 {
        return Refusal::new(
            "turn-length",
            format!(
                "a chess turn is exactly one move; this turn has {} actions",
                actions.len()
            ),
        );
    }
    let fallback = || Refusal::new("no-such-action", "no legal chess move matches this turn");
    match &actions[0] {
        ActionPattern::Drop { to, .. } => Refusal::new(
            "no-such-action",
            format!(
                "chess has no drops: no piece can be put onto {} from outside the board",
                sq_name(*to)
            ),
        ),
        ActionPattern::Coup { .. } => Refusal::new("no-such-action", "chess has no coup d'état"),
        ActionPattern::Reborn { .. } => {
            Refusal::new("no-such-action", "chess has no rebirth of pawns")
        }
        ActionPattern::Pass => Refusal::new(
            "no-such-action",
            "a chess player cannot pass; every turn is a move",
        ),
        ActionPattern::Buy { .. } => {
            Refusal::new("no-such-action", "chess has no purchases of pieces")
        }
        ActionPattern::Redesign { .. } => {
            Refusal::new("no-such-action", "chess has no piece designs to change")
        }
        ActionPattern::Castle(side) => castle_refusal(pos, *side).unwrap_or_else(fallback),
        ActionPattern::Move {
            style,
            piece,
            from,
            legs,
            promotion,
        } => {
            let Some((to, capture)) = straight(legs) else {
                return Refusal::new(
                    "no-such-action",
                    "a chess move goes straight from its origin to its destination; it names no squares in between, and nothing ricochets or switches",
                );
            };
            let want = match piece {
                Some(PieceRef::Role(r)) => Some(*r),
                Some(PieceRef::Design(d)) => {
                    return Refusal::new("no-such-piece", format!("chess has no piece design {d}"))
                }
                None if *style == Style::Short => Some(Role::Pawn),
                None => None,
            };
            if let Origin::Exact(sq) = from {
                let p = match pos.board.get(*sq) {
                    Some(p) => p,
                    None => {
                        return Refusal::new(
                            "no-piece-there",
                            format!("there is no piece on {}", sq_name(*sq)),
                        )
                    }
                };
                if p.color() != pos.turn {
                    return Refusal::new(
                        "not-your-turn",
                        format!(
                            "the piece on {} is {}, and it is {}'s turn",
                            sq_name(*sq),
                            p.color(),
                            pos.turn
                        ),
                    );
                }
                if let Some(r) = want {
                    if p.role() != r {
                        return Refusal::new(
                            "no-such-piece",
                            format!(
                                "the piece on {} is a {}, not a {}",
                                sq_name(*sq),
                                p.role(),
                                r
                            ),
                        );
                    }
                }
                return match piece_refusal(pos, *sq, to, capture, promotion) {
                    Some((_, r)) => r,
                    None => fallback(),
                };
            }
            let candidates: Vec<Square> = pos
                .board
                .pieces()
                .filter(|(s, p)| {
                    p.color() == pos.turn && want.is_none_or(|r| p.role() == r) && from.admits(*s)
                })
                .map(|(s, _)| s)
                .collect();
            let what = match want {
                Some(r) => format!("{} {}", pos.turn, r),
                None => format!("{} piece", pos.turn),
            };
            let whence = match from {
                Origin::File(f) => format!(" on the {}-file", Chess::geometry().file_label(*f)),
                Origin::Rank(r) => format!(" on rank {}", Chess::geometry().rank_label(*r)),
                _ => String::new(),
            };
            if candidates.is_empty() {
                return Refusal::new("no-such-piece", format!("there is no {what}{whence}"));
            }
            let mut best: Option<(u8, Refusal)> = None;
            for s in candidates {
                match piece_refusal(pos, s, to, capture, promotion) {
                    None => return fallback(),
                    Some((stage, r)) => {
                        if best.as_ref().is_none_or(|(b, _)| stage > *b) {
                            best = Some((stage, r));
                        }
                    }
                }
            }
            match best {
                Some((STAGE_MOVEMENT, _)) | None => Refusal::new(
                    "no-such-piece",
                    format!("no {what}{whence} can move to {}", sq_name(to)),
                ),
                Some((_, r)) => r,
            }
        }
    }
}

/// Why the king of the side to move cannot castle on `side`, or `None` if it can.
fn castle_refusal(pos: &Chess, side: CastleSide) -> Option<Refusal> {
    let us = pos.turn;
    let them = us.other() as u8;
    let base = if us == Color::White { 0 } else { BACK };
    let e = E1 + base;
    let (right, rook_sq, between, crossed, word) = match (side, us) {
        (CastleSide::King, Color::White) => {
            (WK, e + 3, vec![e + 1, e + 2], [e + 1, e + 2], "kingside")
        }
        (CastleSide::King, Color::Black) => {
            (BK, e + 3, vec![e + 1, e + 2], [e + 1, e + 2], "kingside")
        }
        (CastleSide::Queen, Color::White) => (
            WQ,
            e - 4,
            vec![e - 1, e - 2, e - 3],
            [e - 1, e - 2],
            "queenside",
        ),
        (CastleSide::Queen, Color::Black) => (
            BQ,
            e - 4,
            vec![e - 1, e - 2, e - 3],
            [e - 1, e - 2],
            "queenside",
        ),
    };
    if pos.kings[us.index()] as i32 != e {
        return Some(Refusal::new(
            "castling-rights",
            format!(
                "the {us} king is not on {}, so {us} cannot castle",
                Chess::name(e)
            ),
        ));
    }
    if pos.castling & right == 0 {
        return Some(Refusal::new(
            "castling-rights",
            format!(
                "{us} has lost the right to castle {word}: the king or the {} rook has moved, or the rook was captured",
                Chess::name(rook_sq)
            ),
        ));
    }
    for &s in &between {
        if let Some(p) = pos.board.piece_at(Sq(s as u16)) {
            return Some(Refusal::new(
                "castling-blocked",
                format!(
                    "castling {word} needs the squares between the king and the rook empty; {} holds a {}",
                    Chess::name(s),
                    describe_piece(p)
                ),
            ));
        }
    }
    if pos.king_attacked(us) {
        return Some(Refusal::new(
            "castling-out-of-check",
            format!(
                "the {us} king on {} is in check from {}, and a king in check cannot castle",
                Chess::name(e),
                attacker_text(&pos.board, e, them)
            ),
        ));
    }
    for (i, &s) in crossed.iter().enumerate() {
        if attacked(&pos.board, s, them, -1) {
            let verb = if i == 0 { "pass over" } else { "land on" };
            return Some(Refusal::new(
                "castling-through-check",
                format!(
                    "castling {word}, the king would {verb} {}, which {} attacks",
                    Chess::name(s),
                    attacker_text(&pos.board, s, them)
                ),
            ));
        }
    }
    None
}

fn promotion_refusal(
    role: Role,
    us: Color,
    from: Square,
    to: Square,
    promotion: &Option<PieceRef>,
) -> Option<Refusal> {
    let last = if us == Color::White { 7 } else { 0 };
    let r = |s: String| Some(Refusal::new("promotion", s));
    if role != Role::Pawn {
        if promotion.is_some() {
            return r(format!(
                "only a pawn is promoted; the piece on {} is a {role}",
                sq_name(from)
            ));
        }
        return None;
    }
    if to.rank == last {
        match promotion {
            None => r(format!(
                "a pawn reaching {} must be promoted to a queen, rook, bishop or knight (=Q, =R, =B, =N)",
                sq_name(to)
            )),
            Some(PieceRef::Role(Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => None,
            Some(PieceRef::Role(p)) => {
                r(format!("a pawn cannot be promoted to a {p}; only to a queen, rook, bishop or knight"))
            }
            Some(PieceRef::Design(d)) => r(format!(
                "a pawn cannot be promoted to {d}; only to a queen, rook, bishop or knight"
            )),
        }
    } else if promotion.is_some() {
        r(format!(
            "a pawn is promoted only on the last rank, and {} is not on it",
            sq_name(to)
        ))
    } else {
        None
    }
}

fn mark_refusal(from: Square, to: Square, capture: bool, captures: bool) -> Option<Refusal> {
    if capture == captures {
        return None;
    }
    Some(Refusal::new(
        "capture-mark",
        if capture {
            format!(
                "{}-{} captures nothing, so it is written with - rather than x",
                sq_name(from),
                sq_name(to)
            )
        } else {
            format!(
                "{}x{} is a capture, so it is written with x rather than -",
                sq_name(from),
                sq_name(to)
            )
        },
    ))
}

/// Checks a move of the own piece on `from` to `to` stage by stage: `None` when it is legal,
/// otherwise how far it got and why it fails.
fn piece_refusal(
    pos: &Chess,
    from: Square,
    to: Square,
    capture: bool,
    promotion: &Option<PieceRef>,
) -> Option<(u8, Refusal)> {
    let b = &pos.board;
    let piece = b.get(from)?;
    let us = piece.color();
    let role = piece.role();
    let target = b.get(to);
    let (fname, tname) = (sq_name(from), sq_name(to));
    let df = to.file as i32 - from.file as i32;
    let dr = to.rank as i32 - from.rank as i32;
    let fail =
        |stage: u8, rule: &'static str, reason: String| Some((stage, Refusal::new(rule, reason)));
    let mut kind = KIND_NORMAL;
    let mut captures = target.is_some();

    if from == to {
        let rule = match role {
            Role::King => "king-move",
            Role::Queen => "queen-move",
            Role::Rook => "rook-move",
            Role::Bishop => "bishop-move",
            Role::Knight => "knight-move",
            _ => "pawn-move",
        };
        return fail(STAGE_MOVEMENT, rule, format!("a move must leave {fname}"));
    }

    match role {
        Role::King => {
            let home = if us == Color::White { 0 } else { 7 };
            if dr == 0 && df.abs() == 2 && from == Square::new(4, home) {
                let side = if df > 0 {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                if let Some(r) = castle_refusal(pos, side) {
                    return Some((STAGE_SAFETY, r));
                }
                if let Some(r) = mark_refusal(from, to, capture, false) {
                    return Some((STAGE_MARK, r));
                }
                if let Some(r) = promotion_refusal(role, us, from, to, promotion) {
                    return Some((STAGE_PROMOTION, r));
                }
                return None;
            }
            if movement_of(role).could_reach(from, to, us).is_none() {
                return fail(
                    STAGE_MOVEMENT,
                    "king-move",
                    format!("the king moves to an adjoining square (or castles); {fname} to {tname} is not one step"),
                );
            }
        }
        Role::Knight => {
            if movement_of(role).could_reach(from, to, us).is_none() {
                return fail(
                    STAGE_MOVEMENT,
                    "knight-move",
                    format!("a knight leaps two squares one way and one the other; {fname} to {tname} is not a knight's leap"),
                );
            }
        }
        Role::Bishop | Role::Rook | Role::Queen => {
            if movement_of(role).could_reach(from, to, us).is_none() {
                let (rule, text) = match role {
                    Role::Bishop => ("bishop-move", "a bishop moves along a diagonal"),
                    Role::Rook => ("rook-move", "a rook moves along a file or a rank"),
                    _ => (
                        "queen-move",
                        "a queen moves along a file, a rank or a diagonal",
                    ),
                };
                return fail(
                    STAGE_MOVEMENT,
                    rule,
                    format!("{text}; {fname} to {tname} is not such a move"),
                );
            }
            if let Some(x) = first_blocker(b, from, to) {
                let p = b.get(x).map_or(String::from("a piece"), describe_piece);
                return fail(
                    STAGE_BLOCKED,
                    "blocked",
                    format!(
                        "the {role} on {fname} cannot pass over the {p} on {} to reach {tname}",
                        sq_name(x)
                    ),
                );
            }
        }
        Role::Pawn => {
            let sign = if us == Color::White { 1 } else { -1 };
            let fwd = dr * sign;
            let start = if us == Color::White { 1 } else { 6 };
            if df == 0 && (fwd == 1 || (fwd == 2 && from.rank == start)) {
                if fwd == 2 {
                    let mid = Square::new(from.file, (from.rank as i32 + sign) as u8);
                    if let Some(p) = b.get(mid) {
                        return fail(
                            STAGE_BLOCKED,
                            "blocked",
                            format!("the pawn on {fname} cannot pass over the {} on {} to reach {tname}", describe_piece(p), sq_name(mid)),
                        );
                    }
                    kind = KIND_DOUBLE;
                }
                if let Some(p) = target {
                    if p.color() == us {
                        return fail(
                            STAGE_TARGET,
                            "own-piece-on-target",
                            format!("{tname} holds a {}; a piece cannot move to a square occupied by its own side", describe_piece(p)),
                        );
                    }
                    return fail(
                        STAGE_TARGET,
                        "pawn-capture",
                        format!("a pawn captures diagonally forward, never straight ahead; it cannot take the {} on {tname}", describe_piece(p)),
                    );
                }
            } else if df.abs() == 1 && fwd == 1 {
                match target {
                    Some(_) => {}
                    None => {
                        let beside = Square::new(to.file, from.rank);
                        let ep = pos.ep != 0 && Sq::of(to).0 == pos.ep;
                        if ep {
                            kind = KIND_EP;
                            captures = true;
                        } else if b.get(beside) == Some(Piece::new(us.other(), Role::Pawn))
                            && from.rank == if us == Color::White { 4 } else { 3 }
                        {
                            return fail(
                                STAGE_TARGET,
                                "en-passant",
                                format!("the pawn on {} can be taken en passant only on the move right after its double step", sq_name(beside)),
                            );
                        } else {
                            return fail(
                                STAGE_TARGET,
                                "pawn-capture",
                                format!(
                                    "a pawn moves diagonally only to capture, and {tname} is empty"
                                ),
                            );
                        }
                    }
                }
            } else {
                return fail(
                    STAGE_MOVEMENT,
                    "pawn-move",
                    format!("a pawn moves straight forward one square (two from its starting square) or captures diagonally forward; {fname} to {tname} is neither"),
                );
            }
        }
        _ => {
            return fail(
                STAGE_MOVEMENT,
                "no-such-piece",
                format!("the {role} is not a chess piece"),
            )
        }
    }

    if let Some(p) = target {
        if p.color() == us {
            return fail(
                STAGE_TARGET,
                "own-piece-on-target",
                format!(
                    "{tname} holds a {}; a piece cannot move to a square occupied by its own side",
                    describe_piece(p)
                ),
            );
        }
    }
    if let Some(r) = mark_refusal(from, to, capture, captures) {
        return Some((STAGE_MARK, r));
    }
    if let Some(r) = promotion_refusal(role, us, from, to, promotion) {
        return Some((STAGE_PROMOTION, r));
    }

    // King safety: play the move on a copy.
    let mut next = pos.clone();
    let mut m = Move::new(Sq::of(from).0 as i32, Sq::of(to).0 as i32, kind);
    if role == Role::Pawn && (to.rank == 0 || to.rank == 7) {
        m.promo = QUEEN;
    }
    next.apply(m);
    if next.king_attacked(us) {
        let k = next.kings[us.index()] as i32;
        let by = attacker_text(&next.board, k, us.other() as u8);
        let text = if role == Role::King {
            format!("the king would be in check on {tname} from {by}")
        } else if pos.king_attacked(us) {
            format!(
                "the {us} king on {} is in check, and after {fname}-{tname} it is still attacked by {by}",
                Chess::name(k)
            )
        } else {
            format!(
                "moving the {role} from {fname} to {tname} would expose the {us} king on {} to {by}",
                Chess::name(k)
            )
        };
        return fail(STAGE_SAFETY, "own-king-in-check", text);
    }
    None
}
