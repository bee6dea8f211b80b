//! ChessXpanse's invariants, each read by a mechanism apart from the one that keeps it: piece
//! counts taken from the board (before and after the last turn) rather than from the legs of
//! the path, the FEN text rather than the counters, King steps listed from coordinates
//! rather than from the movement tables.

use super::{counts, Xpanse, LIMITS, MAX_PASSES};
use crate::rules::board::Square;
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::turn::Action;
use crate::rules::{Reason, Rules};

pub(super) fn check(pos: &Xpanse, name: &str) -> Result<(), String> {
    match name {
        "no-magic-kills-its-kind" => {
            let Some(last) = pos.last else { return Ok(()) };
            let Some(mover) = last.mover else {
                return Ok(());
            };
            let role = mover.role();
            if !matches!(role, Role::Gatekeeper | Role::Mage | Role::Archer) {
                return Ok(());
            }
            let them = mover.color().other().index();
            let now = counts(&pos.board)[them][role.code() as usize];
            if now < last.before[them][role.code() as usize] {
                return Err(format!(
                    "the {} {} killed the {} {}",
                    mover.color(),
                    role.word(),
                    mover.color().other(),
                    role.word()
                ));
            }
            Ok(())
        }
        "pawns-never-rest-on-far-row" => {
            for c in Color::ALL {
                let far = pos.far_rank(c);
                let on_far = pos
                    .board
                    .pieces()
                    .filter(|(s, p)| *p == Piece::new(c, Role::Pawn) && s.rank == far)
                    .count();
                if on_far > usize::from(pos.dormant_at_setup[c.index()]) {
                    return Err(format!(
                        "{c} has {on_far} pawns on its far row, and had {} dormant ones at the set-up",
                        pos.dormant_at_setup[c.index()]
                    ));
                }
            }
            Ok(())
        }
        "passes-at-most-two" => {
            let fen = pos.fen();
            let field = fen.split_whitespace().nth(2).unwrap_or("");
            for (c, n) in Color::ALL.iter().zip(field.split('/')) {
                match n.parse::<u8>() {
                    Ok(k) if k <= MAX_PASSES => {}
                    _ => return Err(format!("{c} has passed {n} times")),
                }
            }
            Ok(())
        }
        "battle-ends-when-last-king-dies" => {
            let outcome = pos.outcome();
            for c in Color::ALL {
                let king = pos
                    .board
                    .pieces()
                    .any(|(_, p)| p == Piece::new(c, Role::King));
                let extinct = matches!(outcome, Some(o) if o.reason == Reason::Extinction && o.winner == Some(c.other()));
                if !king && !extinct {
                    return Err(format!(
                        "{c} has no King, and the battle's result is {}",
                        outcome.map_or("none".to_string(), |o| o.to_string())
                    ));
                }
            }
            if let Some(o) = outcome.filter(|o| o.reason == Reason::Extinction) {
                let loser = o.winner.map(Color::other);
                if loser.is_some_and(|l| {
                    pos.board
                        .pieces()
                        .any(|(_, p)| p == Piece::new(l, Role::King))
                }) {
                    return Err(format!(
                        "the battle ended by extinction ({o}), but the loser still has a King"
                    ));
                }
            }
            Ok(())
        }
        "piece-limits" => {
            for c in Color::ALL {
                for (role, most) in LIMITS {
                    let n = pos
                        .board
                        .pieces()
                        .filter(|(_, p)| *p == Piece::new(c, role))
                        .count();
                    if n > usize::from(most) {
                        return Err(format!("{c} has {n} {}s; at most {most}", role.word()));
                    }
                }
                if let Some((s, p)) = pos.board.pieces().find(|(_, p)| {
                    p.color() == c && !LIMITS.iter().any(|(r, _)| *p == Piece::new(c, *r))
                }) {
                    return Err(format!(
                        "a {p} stands on {}, and ChessXpanse has no such piece",
                        pos.geometry().square_name(s)
                    ));
                }
            }
            Ok(())
        }
        "pieces-never-gained" => {
            let Some(last) = pos.last else { return Ok(()) };
            let now = counts(&pos.board);
            for c in Color::ALL {
                let (a, b): (u32, u32) = (
                    last.before[c.index()].iter().map(|n| u32::from(*n)).sum(),
                    now[c.index()].iter().map(|n| u32::from(*n)).sum(),
                );
                if b > a {
                    return Err(format!(
                        "{c} had {a} pieces before the last turn and has {b} after it"
                    ));
                }
            }
            Ok(())
        }
        "no-check" => {
            if pos.outcome().is_some() {
                return Ok(());
            }
            let turns = pos.legal_turns();
            if turns.is_empty() {
                return Err(format!(
                    "{} has no legal turn, and the battle is not over",
                    pos.turn()
                ));
            }
            let g = *pos.geometry();
            let us = pos.turn();
            for (from, p) in pos.board.pieces() {
                if p != Piece::new(us, Role::King) {
                    continue;
                }
                for df in -1i32..=1 {
                    for dr in -1i32..=1 {
                        let (f, r) = (from.file as i32 + df, from.rank as i32 + dr);
                        if (df, dr) == (0, 0) || f < 0 || r < 0 {
                            continue;
                        }
                        let to = Square::new(f as u8, r as u8);
                        if !g.contains(to) || pos.board.get(to).is_some_and(|q| q.color() == us) {
                            continue;
                        }
                        let found = turns.iter().any(|(_, t)| {
                            matches!(t.actions.first(), Some(Action::Move { role: Role::King, from: a, legs, .. })
                                if *a == from && legs.len() == 1 && legs[0].to == to)
                        });
                        if !found {
                            return Err(format!(
                                "the {us} King on {} may not step to {}",
                                g.square_name(from),
                                g.square_name(to)
                            ));
                        }
                    }
                }
            }
            Ok(())
        }
        _ => Err(format!("unknown invariant {name}")),
    }
}
