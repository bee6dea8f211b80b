//! How a game of a definition ends: the components that decide a position, in the order the
//! engine asks them. A component that ends the game whatever the moves (an extinction, a goal,
//! the n-th check) comes first; then a side with no legal turn (checkmate, stalemate); then the
//! draws that only apply while moves remain (the move count, insufficient material), as a mate
//! on the last counted move is still a mate.

use super::compile::Material;
use super::position::Position;
use super::reason_of;
use crate::definition::model::Value;
use crate::rules::{Color, Outcome, Reason};

impl Position {
    /// The result of the game in this position, `has_legal_turn` saying whether the side to
    /// move has a legal turn.
    pub fn ending(&self, has_legal_turn: bool) -> Option<Outcome> {
        let outcome = |color: Color, value: Value, reason: Reason, rule: &'static str| Outcome {
            winner: match value {
                Value::Win => Some(color),
                Value::Loss => Some(color.other()),
                Value::Draw => None,
                Value::Count => self.more_pieces(),
            },
            reason,
            rule,
        };
        if let Some((color, value, rule)) = self.decided() {
            let reason = self
                .c
                .def
                .rules
                .iter()
                .filter(|r| {
                    r.id == rule
                        || super::part_names(&r.component)
                            .iter()
                            .any(|p| r.part_id(p) == rule)
                })
                .find_map(|r| reason_of(&r.component))
                .unwrap_or(Reason::Extinction);
            return Some(outcome(color, value, reason, rule));
        }
        if !has_legal_turn {
            let checked = self.in_check() == Some(true);
            let (ending, reason) = if checked {
                (self.c.checkmate.or(self.c.stalemate), Reason::Checkmate)
            } else {
                (self.c.stalemate, Reason::Stalemate)
            };
            let e = ending?;
            return Some(outcome(self.turn, e.value, reason, e.tag.rule));
        }
        // The reading is consulted only where the counts of its components differ in what
        // they decide: from the fewest moves any of them counts.
        let (asked, fewest) = self.c.readings.move_count;
        if self.halfmove >= 2 * u32::from(fewest) {
            crate::rules::consulted::note(asked);
        }
        if let Some((tag, moves)) = self.c.move_count {
            if self.halfmove >= 2 * u32::from(moves) {
                return Some(outcome(self.turn, Value::Draw, Reason::FiftyMove, tag.rule));
            }
        }
        if let Some(m) = self.c.material.filter(|m| self.dead_by_material(m)) {
            return Some(outcome(
                self.turn,
                Value::Draw,
                Reason::InsufficientMaterial,
                m.tag.rule,
            ));
        }
        None
    }

    /// The side with more pieces on the board (`value count`); `None` on equal numbers.
    fn more_pieces(&self) -> Option<Color> {
        let (white, black) = (
            self.piece_total(Color::White),
            self.piece_total(Color::Black),
        );
        match white.cmp(&black) {
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Records the options a verdict in this position consults ([`super::Compiled::consult`]).
    pub fn consult(&self) {
        self.c.consult(self.castle[self.turn.index()] != 0);
    }

    /// Whether neither side can win with what is left: besides the royal pieces, at most one
    /// piece, of a kind that cannot win alone; or only colour-bound pieces, all on squares of
    /// one colour. A piece in a hand may still come on, so a position with one is never dead.
    fn dead_by_material(&self, m: &Material) -> bool {
        let c = self.c;
        if c.hands && self.hand.iter().flatten().any(|&n| n > 0) {
            return false;
        }
        let (mut others, mut alone, mut bound) = (0usize, 0usize, 0usize);
        let mut colours = [false; 2];
        for &sq in &c.squares {
            let Some(kind) = c.kind_at(self.board.cell(sq)) else {
                if self.board.piece_at(sq).is_some() {
                    // A piece the definition does not know (an invented one) may still win.
                    return false;
                }
                continue;
            };
            if c.royal.has(kind) {
                continue;
            }
            others += 1;
            if m.alone.has(kind) {
                alone += 1;
            }
            if m.colour_bound.has(kind) {
                bound += 1;
                let s = sq.square();
                colours[(s.file as usize + s.rank as usize) & 1] = true;
            }
        }
        (others <= 1 && alone == others) || (bound == others && !(colours[0] && colours[1]))
    }
}
