//! Every candidate chess move with its verdict, from the shared movement model.
//!
//! This is the slow, obviously right generator: each piece's atoms are walked square by
//! square (past the first blocker too, so a blocked move is a candidate with the blocker
//! named), pawn double steps, en passant, promotion and castling are added by the Laws' own
//! articles, and every candidate that the board allows is played on a copy and the own king
//! tested with the shared attack table. Refusals read their rule ids from it; the tests hold
//! its legal moves to the fast generator's on random positions.

use super::*;
use crate::rules::movement::{walk, Landing};
use crate::rules::refusal::{Rejection, Stage, Verdicts};

fn square(s: i32) -> Square {
    Sq(s as u16).square()
}

/// The square from which a piece of colour `them` attacks `s` (the shared attack test, with
/// every design interned so far).
pub(super) fn attacker(b: &Board, s: i32, them: u8) -> Option<Square> {
    attack_tables_with_designs()[them as usize]
        .attacker(b, Sq(s as u16), |_| true, |_, _| false)
        .map(|a| a.from.square())
}

/// The king of `color`, found on the board rather than in the cached squares.
fn king_square(b: &Board, color: Color) -> Option<i32> {
    b.pieces()
        .find(|(_, p)| *p == Piece::new(color, Role::King))
        .map(|(s, _)| Sq::of(s).0 as i32)
}

/// Whether a landing is a move the piece may make (to an empty square, or capturing a piece
/// of the other side than `us`), rules of the variant aside.
pub(crate) fn takes(landing: Landing, us: u8) -> bool {
    match landing {
        Landing::Empty { moves } => moves,
        Landing::Piece { code, captures } => captures && code & 1 != us,
        Landing::Blocked { .. } => false,
    }
}

/// Marks a square of an 8x8 board in `reached`; false if it was marked already.
pub(crate) fn first_time(reached: &mut u64, t: Sq) -> bool {
    let s = t.square();
    let bit = 1u64 << (s.rank * 8 + s.file);
    let first = *reached & bit == 0;
    *reached |= bit;
    first
}

/// The castling move of the side to move on `side`, from its king's home square.
pub(super) fn castle_move(us: Color, side: CastleSide) -> Move {
    let e = E1 + if us == Color::White { 0 } else { BACK };
    let to = match side {
        CastleSide::King => e + 2,
        CastleSide::Queen => e - 2,
    };
    Move::new(e, to, KIND_CASTLE)
}

impl Chess {
    /// Sends every candidate move of the side to move to `out`, legal or with the rule that
    /// rejects it. Moves that no atom of the piece's movement makes are not candidates.
    pub(crate) fn explore<V: Verdicts<Move>>(&self, out: &mut V) {
        let us = self.turn;
        let u = us as u8;
        let fwd = if us == Color::White { UP } else { -UP };
        let start_rank = if us == Color::White { 1 } else { 6 };
        let own: Vec<(Square, Piece)> = self
            .board
            .pieces()
            .filter(|(_, p)| p.color() == us)
            .collect();
        let unpinned = if V::REJECTED { None } else { self.unpinned() };
        for (from, piece) in own {
            let f = Sq::of(from).0 as i32;
            let role = piece.role();
            let free = role != Role::King
                && unpinned
                    .as_ref()
                    .is_some_and(|screens| !screens.contains(&Sq(f as u16)));
            let mut reached = 0u64;
            walk(
                piece_movement(piece),
                &self.board,
                Sq(f as u16),
                us,
                V::REJECTED,
                |t, landing| {
                    // Two atoms of a design may reach one square (`WR`): one move.
                    if takes(landing, u) && !first_time(&mut reached, t) {
                        return;
                    }
                    let t = t.0 as i32;
                    let m = Move::new(f, t, KIND_NORMAL);
                    match landing {
                        Landing::Blocked { by } => {
                            out.rejected(m, Rejection::at("blocked", Stage::Blocked, by.square()))
                        }
                        Landing::Empty { moves: true } if free => self.unchecked(m, out),
                        Landing::Empty { moves: true } => self.consider(m, out),
                        Landing::Empty { .. } if role == Role::Pawn => {
                            self.diagonal_to_empty(f, t, out)
                        }
                        Landing::Piece { code, .. } if code & 1 == u => {
                            if V::REJECTED {
                                out.rejected(
                                    m,
                                    Rejection::new("own-piece-on-target", Stage::Target),
                                )
                            }
                        }
                        Landing::Piece { captures: true, .. } if free => self.unchecked(m, out),
                        Landing::Piece { captures: true, .. } => self.consider(m, out),
                        Landing::Piece { .. } if role == Role::Pawn => {
                            if V::REJECTED {
                                out.rejected(m, Rejection::new("pawn-capture", Stage::Target))
                            }
                        }
                        // An invented piece's `m` atom onto a piece, or its `c` atom onto an
                        // empty square.
                        _ => {
                            if V::REJECTED {
                                out.rejected(m, Rejection::new("invented-piece", Stage::Target))
                            }
                        }
                    }
                },
            );
            if role == Role::Pawn && from.rank == start_rank {
                self.double_step(f, f + fwd, f + 2 * fwd, out);
            }
            if role == Role::King {
                for side in [CastleSide::King, CastleSide::Queen] {
                    self.castle(side, out);
                }
            }
        }
        // The castling right names the king's home square, whoever stands there now.
        if V::REJECTED && self.at(castle_move(us, CastleSide::King).from as i32) != code(u, KING) {
            for side in [CastleSide::King, CastleSide::Queen] {
                out.rejected(
                    castle_move(us, side),
                    Rejection::new("castling-rights", Stage::Final),
                );
            }
        }
    }

    /// A pawn's capture onto an empty square: en passant when the Laws allow it, otherwise no
    /// move, and a rejected candidate saying which rule.
    fn diagonal_to_empty<V: Verdicts<Move>>(&self, f: i32, t: i32, out: &mut V) {
        if self.ep != 0 && t == self.ep as i32 {
            self.consider(Move::new(f, t, KIND_EP), out);
            return;
        }
        if !V::REJECTED {
            return;
        }
        let us = self.turn as u8;
        let beside = t - if us == 0 { UP } else { -UP };
        let fifth = if us == 0 { 4 } else { 3 };
        let rule = if self.at(beside) == code(us ^ 1, PAWN) && rank_of(f) == fifth {
            "en-passant"
        } else {
            "pawn-capture"
        };
        out.rejected(
            Move::new(f, t, KIND_NORMAL),
            Rejection::new(rule, Stage::Target),
        );
    }

    /// A pawn's double step from its starting square (FIDE 3.7.b).
    fn double_step<V: Verdicts<Move>>(&self, f: i32, mid: i32, t: i32, out: &mut V) {
        let m = Move::new(f, t, KIND_DOUBLE);
        let us = self.turn as u8;
        if self.at(mid) != EMPTY {
            if V::REJECTED {
                out.rejected(m, Rejection::at("blocked", Stage::Blocked, square(mid)));
            }
        } else if self.at(t) == EMPTY {
            self.consider(m, out);
        } else if V::REJECTED {
            let rule = if self.at(t) & 1 == us {
                "own-piece-on-target"
            } else {
                "pawn-capture"
            };
            out.rejected(m, Rejection::new(rule, Stage::Target));
        }
    }

    /// Castling on `side` (FIDE 3.8.b), each condition in the order the article gives them.
    fn castle<V: Verdicts<Move>>(&self, side: CastleSide, out: &mut V) {
        let us = self.turn;
        let m = castle_move(us, side);
        let e = m.from as i32;
        if self.at(e) != code(us as u8, KING) {
            return;
        }
        let white = us == Color::White;
        let (right, between, crossed): (u8, &[i32], [i32; 2]) = match side {
            CastleSide::King => (if white { WK } else { BK }, &[e + 1, e + 2], [e + 1, e + 2]),
            CastleSide::Queen => (
                if white { WQ } else { BQ },
                &[e - 1, e - 2, e - 3],
                [e - 1, e - 2],
            ),
        };
        let them = us.other() as u8;
        let why = if self.castling & right == 0 {
            Some(Rejection::new("castling-rights", Stage::Final))
        } else if let Some(&s) = between.iter().find(|&&s| self.at(s) != EMPTY) {
            Some(Rejection::at("castling-blocked", Stage::Final, square(s)))
        } else if let Some(a) = attacker(&self.board, e, them) {
            Some(Rejection::at("castling-out-of-check", Stage::Final, a))
        } else {
            crossed
                .iter()
                .find(|&&s| attacker(&self.board, s, them).is_some())
                .map(|&s| Rejection::at("castling-through-check", Stage::Final, square(s)))
        };
        match why {
            Some(r) => out.rejected(m, r),
            None => self.consider(m, out),
        }
    }

    /// For move lists only (refusals test every candidate): the pieces that screen the own
    /// king from an enemy rider, when the king is not in check and no enemy rider hops. A move
    /// by any other piece (not the king) cannot expose the king, since a leaper's attack does
    /// not depend on what moves and a rider's only on the screens; so it is legal without a
    /// test on a copy. The tests hold these lists to the fully tested ones.
    fn unpinned(&self) -> Option<Vec<Sq>> {
        let us = self.turn;
        let k = Sq(king_square(&self.board, us)? as u16);
        let tables = attack_tables_with_designs();
        let table = &tables[us.other().index()];
        if table
            .attacker(&self.board, k, |_| true, |_, _| false)
            .is_some()
        {
            return None;
        }
        table.screens(&self.board, k)
    }

    /// A candidate that cannot expose the own king, with its promotions.
    fn unchecked<V: Verdicts<Move>>(&self, m: Move, out: &mut V) {
        let last = if self.turn == Color::White { 7 } else { 0 };
        if self.at(m.from as i32) >> 1 == PAWN && rank_of(m.to as i32) == last {
            for promo in [QUEEN, ROOK, BISHOP, KNIGHT] {
                out.legal(Move { promo, ..m });
            }
        } else {
            out.legal(m);
        }
    }

    /// A candidate the board allows: each promotion of it, played on a copy; legal unless the
    /// own king is then attacked (FIDE 3.9).
    fn consider<V: Verdicts<Move>>(&self, m: Move, out: &mut V) {
        let last = if self.turn == Color::White { 7 } else { 0 };
        if self.at(m.from as i32) >> 1 == PAWN && rank_of(m.to as i32) == last {
            for promo in [QUEEN, ROOK, BISHOP, KNIGHT] {
                self.judge(Move { promo, ..m }, out);
            }
        } else {
            self.judge(m, out);
        }
    }

    fn judge<V: Verdicts<Move>>(&self, m: Move, out: &mut V) {
        let us = self.turn;
        let mut next = self.clone();
        next.apply(m);
        let Some(k) = king_square(&next.board, us) else {
            // A position without its king cannot be built; nothing attacks what is not there.
            out.legal(m);
            return;
        };
        match attacker(&next.board, k, us.other() as u8) {
            Some(a) => out.rejected(m, Rejection::at("own-king-in-check", Stage::Final, a)),
            None => out.legal(m),
        }
    }
}
