//! `infiltration`: after a move of some piece onto its side's region, the same turn may put
//! one of the side's pieces on a target square, removing what stands there (Cypher Chess's
//! infiltration: a King onto the Border lets a major piece go to d0 or d10). The first action
//! is judged by itself, as an entry's is (`zones::exit`), the turn's end as any turn's; the
//! generator, the judge and the explanation read the same trigger and placements.

use super::compile::{KindSet, SqSet, Tag};
use super::position::{is_of, Move, Position, Special};
use super::zones::Shut;
use crate::rules::board::Sq;
use crate::rules::explain::Step;
use crate::rules::piece::Color;

/// A compiled `infiltration` component.
#[derive(Clone, Debug)]
pub struct Infiltration {
    pub tag: Tag,
    /// The pieces that may infiltrate.
    pub kinds: KindSet,
    /// The pieces whose arrival on the region opens it.
    pub by: KindSet,
    pub region: [SqSet; 2],
    pub targets: Vec<Sq>,
    /// Once a game per side; the part's rule id.
    pub once: bool,
    pub once_rule: &'static str,
    /// Also as a turn of its own while a `by` piece stands on the region.
    pub alone: bool,
    /// Its win's place among the endings after one turn, as a contact's `priority`.
    pub priority: u8,
}

impl Position {
    /// The `infiltration` component (its index) that the first action `m` opens, once or not:
    /// a plain move of a `by` piece ending on the region.
    pub(super) fn trigger(&self, m: Move) -> Option<usize> {
        let c = self.c;
        let plain = matches!(m.special, Special::None | Special::Step) && m.block.is_none();
        let kind = c.kind_at(self.board.cell(m.from)).filter(|_| plain)?;
        c.infiltrations
            .iter()
            .position(|i| i.by.has(kind) && i.region[self.turn.index()].has(m.to))
    }

    /// Whether the side to move has used every infiltration it had.
    pub(super) fn infiltrations_spent(&self) -> bool {
        (0..self.c.infiltrations.len()).all(|i| self.infiltration_spent(i))
    }

    /// Whether the side to move has used its one infiltration.
    #[inline]
    pub(super) fn infiltration_spent(&self, i: usize) -> bool {
        self.c.infiltrations[i].once && self.used[self.turn.index()]
    }

    /// The first action `m` of an infiltrating turn judged by itself, as an entry's exit is
    /// ([`Position::first_action`]): the component it opens and the position it leaves.
    pub(super) fn trigger_first(&self, m: Move) -> Result<(usize, Position), Shut> {
        let opened = self.trigger(m).ok_or(Shut::NoExit)?;
        Ok((opened, self.first_action(m)?))
    }

    /// The placements `(from, to)` of `color`'s pieces that component `i` allows on this
    /// board: any of its pieces of `pieces` to any target it does not stand on.
    pub(super) fn placements(&self, i: usize, color: Color) -> Vec<(Sq, Sq)> {
        let c = self.c;
        let inf = &c.infiltrations[i];
        let mut out = Vec::new();
        for &from in &c.squares {
            let code = self.board.cell(from);
            if !is_of(code, color) || !c.kind_at(code).is_some_and(|k| inf.kinds.has(k)) {
                continue;
            }
            for &to in &inf.targets {
                if to != from {
                    out.push((from, to));
                }
            }
        }
        out
    }

    /// The turns infiltration adds, legal ones only (`legal`) or all the components let
    /// through but the end of the turn: after each trigger, each placement; and under `alone`,
    /// the placements as turns of their own. Kept out of line: the generator of every game
    /// calls past it.
    #[inline(never)]
    pub(super) fn infiltrations(&self, out: &mut Vec<Move>, legal: bool, moves: Option<&[Move]>) {
        let c = self.c;
        let us = self.turn;
        if self.infiltrations_spent() {
            return;
        }
        let mut firsts = Vec::new();
        let firsts = match moves {
            Some(moves) => moves,
            None => {
                let by = c.infiltrations.iter().fold(0, |acc, i| acc | i.by.0);
                // Only a plain move of a `by` piece triggers one.
                self.moves_of_kinds(&mut firsts, by, |_, _| true);
                &firsts
            }
        };
        let keep = |turn: Move, out: &mut Vec<Move>| {
            let mut end = self.clone();
            end.apply(turn);
            if !legal || self.legal_after(turn, &end) {
                out.push(turn);
            }
        };
        for &m in firsts {
            let Some(i) = self.trigger(m) else {
                continue;
            };
            if self.infiltration_spent(i) {
                continue;
            }
            let Ok(next) = self.first_action(m) else {
                continue;
            };
            for (from, to) in next.placements(i, us) {
                let turn = Move {
                    then: Some((from, to)),
                    placed: true,
                    ..m
                };
                keep(turn, out);
            }
        }
        for (i, inf) in c.infiltrations.iter().enumerate() {
            if !inf.alone || self.infiltration_spent(i) || !self.stands_on_region(i) {
                continue;
            }
            for (from, to) in self.placements(i, us) {
                // A placement on an empty square that a legal move of the piece reaches is
                // written as that move, which the text then means (Cypher's `Sf0-d0`): listed
                // once, as the move.
                let shadowed = legal
                    && self.board.piece_at(to).is_none()
                    && out.iter().any(|o| {
                        o.from == from
                            && o.to == to
                            && o.then.is_none()
                            && matches!(o.special, Special::None | Special::Step)
                    });
                if shadowed {
                    continue;
                }
                let turn = Move {
                    special: Special::Place,
                    ..Move::plain(from, to)
                };
                keep(turn, out);
            }
        }
    }

    /// Whether a `by` piece of the side to move stands on component `i`'s region.
    pub(super) fn stands_on_region(&self, i: usize) -> bool {
        let c = self.c;
        let inf = &c.infiltrations[i];
        let us = self.turn;
        c.squares.iter().any(|&sq| {
            let code = self.board.cell(sq);
            is_of(code, us)
                && inf.region[us.index()].has(sq)
                && c.kind_at(code).is_some_and(|k| inf.by.has(k))
        })
    }

    /// The state a placement `m` (a [`Special::Place`] of the side to move) changes, before
    /// it is played: the side's infiltration is spent, and an enemy royal piece it removes
    /// wins for the component that made it.
    pub(super) fn place(&mut self, m: Move) {
        let c = self.c;
        let code = self.board.cell(m.to);
        let Some(i) = self.placer(m) else {
            return;
        };
        if c.infiltrations[i].once {
            self.used[self.turn.index()] = true;
        }
        let royal =
            is_of(code, self.turn.other()) && c.kind_at(code).is_some_and(|k| c.royal.has(k));
        if royal {
            self.infiltrated = Some(i as u8);
        }
    }

    /// The component (its index) a placement `m` is made under: the first whose targets hold
    /// `m.to` and whose pieces the moving one's kind.
    pub(super) fn placer(&self, m: Move) -> Option<usize> {
        let c = self.c;
        let kind = c.kind_at(self.board.cell(m.from))?;
        c.infiltrations
            .iter()
            .position(|i| i.targets.contains(&m.to) && i.kinds.has(kind))
    }

    /// The explanation's step for a placement `(from, to)` under component `i`.
    pub(super) fn placement_step(&self, i: usize, from: Sq, to: Sq) -> Step {
        let c = self.c;
        let name = |sq: Sq| c.geometry.square_name(sq.square());
        let removed = match c.kind_at(self.board.cell(to)) {
            Some(k) => format!(", removing the {} there", c.kinds[k].name),
            None => String::new(),
        };
        Step::allows(
            c.infiltrations[i].tag.rule,
            format!(
                "the {} on {} infiltrates {}{removed}",
                self.kind_name(from),
                name(from),
                name(to)
            ),
        )
    }
}

/// The catalogue's summary of an `infiltration` component.
pub fn summary(once: bool, alone: bool) -> String {
    let mut s = "after a move of a piece of the `by` kinds onto its side's region, the same turn may put one of the side's pieces of the named kinds on a target square, removing what stands there; removing an enemy royal piece wins".to_string();
    if alone {
        s.push_str("; also as a turn of its own while such a piece stands on the region");
    }
    if once {
        s.push_str("; once a game for each side");
    }
    s
}
