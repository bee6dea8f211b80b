//! Why a written turn is not a legal chess move, in words.
//!
//! The rule comes from the generator: [`Chess::explore`] tags every candidate move with the
//! rule that rejects it, and a written move is refused by the candidate it could mean that got
//! furthest (see [`crate::rules::refusal`]). Only what concerns the text is decided here: a
//! turn that is no chess move at all, the named square empty or the other side's, a capture
//! mark or promotion that disagrees with the candidate, and a move that no atom of the piece's
//! movement makes. The rest of this module puts the tag into a sentence with the squares.

use super::candidates::{attacker, castle_move};
use super::*;
use crate::rules::refusal::{
    keep_furthest, mark_refusal, origins, piece_text, piece_words, what, whence, Explored,
    Rejection, Stage,
};
use crate::rules::turn::{ActionPattern, MoveShape, Origin, PieceRef, StraightMove};

pub(super) fn sq_name(s: Square) -> String {
    Chess::geometry().square_name(s)
}

/// The attacker on `at` in words, on the board where it attacks.
pub(super) fn attacker_text(b: &Board, at: Option<Square>) -> String {
    match at.and_then(|a| b.get(a).map(|p| (a, p))) {
        Some((a, p)) => format!("the {} on {}", piece_words(p), sq_name(a)),
        None => "an enemy piece".into(),
    }
}

pub(super) fn explored(pos: &Chess) -> Explored<Move> {
    let mut all = Explored::default();
    pos.explore(&mut all);
    all
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
        TurnPattern::Timeout => {
            return Refusal::new(
                "no-such-action",
                "a timeout is not a turn in this variant; its games have no move clock",
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
        ActionPattern::Reborn { .. } | ActionPattern::Vanish { .. } => {
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
        ActionPattern::Castle(side) => {
            let m = castle_move(pos.turn, *side);
            let all = explored(pos);
            all.rejected
                .iter()
                .find(|(c, _)| *c == m)
                .map_or_else(fallback, |(_, why)| sentence(pos, m, *why))
        }
        ActionPattern::Move { .. } => {
            let MoveShape::Straight(StraightMove {
                kind,
                from,
                to,
                capture,
                promotion,
            }) = actions[0].shape()
            else {
                return Refusal::new(
                    "no-such-action",
                    "a chess move goes straight from its origin to its destination; it names no squares in between, and nothing ricochets or switches",
                );
            };
            let written = Written {
                to,
                capture,
                promotion: &promotion,
            };
            let starts = match origins(&pos.board, &Chess::geometry(), pos.turn, kind, from) {
                Ok(s) => s,
                Err(r) => return r,
            };
            if let Origin::Exact(sq) = from {
                return match written.refusal(pos, &explored(pos), sq) {
                    Some((_, r)) => r,
                    None => fallback(),
                };
            }
            let (what, whence) = (what(pos.turn, kind), whence(&Chess::geometry(), from));
            let all = explored(pos);
            let mut best: Option<(Stage, Refusal)> = None;
            for s in starts {
                match written.refusal(pos, &all, s) {
                    None => return fallback(),
                    Some(found) => keep_furthest(&mut best, found),
                }
            }
            match best {
                Some((Stage::Movement, _)) | None => Refusal::new(
                    "no-such-piece",
                    format!("no {what}{whence} can move to {}", sq_name(to)),
                ),
                Some((_, r)) => r,
            }
        }
    }
}

/// What a written move says beyond its origin.
pub(super) struct Written<'a> {
    pub(super) to: Square,
    pub(super) capture: bool,
    pub(super) promotion: &'a Option<PieceRef>,
}

impl Written<'_> {
    /// Why the written move of the own piece on `from` fails, and how far its best candidate
    /// got; `None` when a legal move matches it.
    pub(super) fn refusal(
        &self,
        pos: &Chess,
        all: &Explored<Move>,
        from: Square,
    ) -> Option<(Stage, Refusal)> {
        let piece = pos.board.get(from)?;
        // A castling tagged for a king away from home is no move of what stands there.
        let aimed = |m: &Move| {
            m.from() == from && m.to() == self.to && (!m.is_castle() || piece.role() == Role::King)
        };
        let candidates = all
            .legal
            .iter()
            .filter(|m| aimed(m))
            .map(|m| (*m, None))
            .chain(
                all.rejected
                    .iter()
                    .filter(|(m, _)| aimed(m))
                    .map(|(m, why)| (*m, Some(*why))),
            );
        let mut best: Option<(Stage, Refusal)> = None;
        let mut any = false;
        for (m, why) in candidates {
            any = true;
            keep_furthest(&mut best, self.judge(pos, m, why)?);
        }
        if !any {
            return Some((Stage::Movement, movement_refusal(piece, from, self.to)));
        }
        best
    }

    /// One candidate against the written move: its own tag if it got no further than the
    /// target, then the capture mark, then the promotion, then the tag of the whole move.
    fn judge(&self, pos: &Chess, m: Move, why: Option<Rejection>) -> Option<(Stage, Refusal)> {
        if let Some(why) = why.filter(|w| w.stage < Stage::Mark || m.is_castle()) {
            return Some((why.stage, sentence(pos, m, why)));
        }
        let captures = m.is_en_passant() || (!m.is_castle() && pos.board.get(m.to()).is_some());
        if let Some(r) = mark_refusal(&Chess::geometry(), m.from(), m.to(), self.capture, captures)
        {
            return Some((Stage::Mark, r));
        }
        if let Some(r) = self.promotion_refusal(pos, m) {
            return Some((Stage::Promotion, r));
        }
        why.map(|w| (w.stage, sentence(pos, m, w)))
    }

    pub(super) fn promotion_refusal(&self, pos: &Chess, m: Move) -> Option<Refusal> {
        let role = pos.board.get(m.from()).map_or(Role::Pawn, Piece::role);
        let r = |s: String| Some(Refusal::new("promotion", s));
        let written = match self.promotion {
            None => None,
            Some(PieceRef::Role(p)) => Some(*p),
            Some(PieceRef::Design(d)) => {
                return r(format!(
                    "a pawn cannot be promoted to {d}; only to a queen, rook, bishop or knight"
                ))
            }
        };
        if written == m.promotion() {
            return None;
        }
        match (written, m.promotion()) {
            (None, Some(_)) => r(format!(
                "a pawn reaching {} must be promoted to a queen, rook, bishop or knight (=Q, =R, =B, =N)",
                sq_name(m.to())
            )),
            (Some(_), None) if role != Role::Pawn => r(format!(
                "only a pawn is promoted; the piece on {} is a {role}",
                sq_name(m.from())
            )),
            (Some(_), None) => r(format!(
                "a pawn is promoted only on the last rank, and {} is not on it",
                sq_name(m.to())
            )),
            (Some(p), Some(_)) if !matches!(p, Role::Queen | Role::Rook | Role::Bishop | Role::Knight) => {
                r(format!("a pawn cannot be promoted to a {p}; only to a queen, rook, bishop or knight"))
            }
            // Another candidate carries the written promotion and decides the refusal.
            (Some(p), _) => r(format!("{}-{} promoted to a {p} is another move", sq_name(m.from()), sq_name(m.to()))),
            (None, None) => None,
        }
    }
}

/// A move the piece's movement never makes (no candidate goes there).
pub(super) fn movement_refusal(piece: Piece, from: Square, to: Square) -> Refusal {
    let (fname, tname) = (sq_name(from), sq_name(to));
    let role = piece.role();
    let rule = match role {
        Role::Design => "invented-piece",
        Role::King => "king-move",
        Role::Queen => "queen-move",
        Role::Rook => "rook-move",
        Role::Bishop => "bishop-move",
        Role::Knight => "knight-move",
        Role::Pawn => "pawn-move",
        _ => return Refusal::new("no-such-piece", format!("the {role} is not a chess piece")),
    };
    if from == to {
        return Refusal::new(rule, format!("a move must leave {fname}"));
    }
    let text = match role {
        Role::King => format!("the king moves to an adjoining square (or castles); {fname} to {tname} is not one step"),
        Role::Knight => format!("a knight leaps two squares one way and one the other; {fname} to {tname} is not a knight's leap"),
        Role::Bishop => format!("a bishop moves along a diagonal; {fname} to {tname} is not such a move"),
        Role::Rook => format!("a rook moves along a file or a rank; {fname} to {tname} is not such a move"),
        Role::Queen => format!("a queen moves along a file, a rank or a diagonal; {fname} to {tname} is not such a move"),
        Role::Design => format!("the {} on {fname} moves only as its design says, and {fname} to {tname} is none of its moves", piece_text(piece)),
        _ => format!("a pawn moves straight forward one square (two from its starting square) or captures diagonally forward; {fname} to {tname} is neither"),
    };
    Refusal::new(rule, text)
}

/// The generator's tag on candidate `m` in words.
pub(super) fn sentence(pos: &Chess, m: Move, why: Rejection) -> Refusal {
    let us = pos.turn;
    let b = &pos.board;
    let (from, to) = (m.from(), m.to());
    let (fname, tname) = (sq_name(from), sq_name(to));
    let role = b.get(from).map_or(Role::Pawn, Piece::role);
    let at = why.at.map(sq_name).unwrap_or_default();
    let side = if to > from { "kingside" } else { "queenside" };
    let text = match why.rule {
        "blocked" => {
            let p = why
                .at
                .and_then(|x| b.get(x))
                .map_or(String::from("a piece"), piece_words);
            let mover = b.get(from).map_or(String::from("piece"), piece_text);
            format!("the {mover} on {fname} cannot pass over the {p} on {at} to reach {tname}")
        }
        "own-piece-on-target" => format!(
            "{tname} holds a {}; a piece cannot move to a square occupied by its own side",
            b.get(to).map_or(String::from("piece"), piece_words)
        ),
        "pawn-capture" => match b.get(to) {
            Some(p) => format!("a pawn captures diagonally forward, never straight ahead; it cannot take the {} on {tname}", piece_words(p)),
            None => format!("a pawn moves diagonally only to capture, and {tname} is empty"),
        },
        "invented-piece" => match b.get(to) {
            Some(p) => format!("the {} on {fname} reaches {tname} only by an atom that moves without capturing (m), and {tname} holds the {}", b.get(from).map_or(String::from("piece"), piece_text), piece_words(p)),
            None => format!("the {} on {fname} reaches {tname} only by an atom that captures (c), and {tname} is empty", b.get(from).map_or(String::from("piece"), piece_text)),
        },
        "en-passant" => format!(
            "the pawn on {} can be taken en passant only on the move right after its double step",
            sq_name(Square::new(to.file, from.rank))
        ),
        "castling-rights" if pos.kings[us.index()] as i32 != Sq::of(from).0 as i32 => {
            format!("the {us} king is not on {fname}, so {us} cannot castle")
        }
        "castling-rights" => {
            let rook = castle_rook(m);
            format!("{us} has lost the right to castle {side}: the king or the {} rook has moved, or the rook was captured", sq_name(rook))
        }
        "castling-blocked" => format!(
            "castling {side} needs the squares between the king and the rook empty; {at} holds a {}",
            why.at.and_then(|x| b.get(x)).map_or(String::from("piece"), piece_words)
        ),
        "castling-out-of-check" => format!(
            "the {us} king on {fname} is in check from {}, and a king in check cannot castle",
            attacker_text(b, why.at)
        ),
        "castling-through-check" => {
            let passed = why.at.is_some_and(|s| s.file.abs_diff(from.file) == 1);
            let verb = if passed { "pass over" } else { "land on" };
            let a = why.at.and_then(|s| attacker(b, Sq::of(s).0 as i32, us.other() as u8));
            format!("castling {side}, the king would {verb} {at}, which {} attacks", attacker_text(b, a))
        }
        "own-king-in-check" => {
            let mut next = pos.clone();
            next.apply(m);
            let by = attacker_text(&next.board, why.at);
            if role == Role::King {
                format!("the king would be in check on {tname} from {by}")
            } else if pos.king_attacked(us) {
                format!(
                    "the {us} king on {} is in check, and after {fname}-{tname} it is still attacked by {by}",
                    Chess::name(next.kings[us.index()] as i32)
                )
            } else {
                format!(
                    "moving the {} from {fname} to {tname} would expose the {us} king on {} to {by}",
                    b.get(from).map_or(String::from("piece"), piece_text),
                    Chess::name(next.kings[us.index()] as i32)
                )
            }
        }
        rule => format!("{fname}-{tname} breaks {rule}"),
    };
    Refusal::new(why.rule, text)
}

/// The rook square a castling move needs.
pub(super) fn castle_rook(m: Move) -> Square {
    let (from, to) = (m.from(), m.to());
    let file = if to.file > from.file { 7 } else { 0 };
    Square::new(file, from.rank)
}
