//! `defection`: a piece that arrives on its side's region leaves the board, and the other
//! side's highest-ranked piece changes sides where it stands (Cypher Chess's coup d'état).
//! The generator makes one move per piece that may change sides (the mover names it when
//! there are several), the board change is made where every move's board change is made (so
//! the check test sees it), and the judge and the explanation read the same candidates.

use super::compile::{Compiled, KindSet, SqSet, Tag};
use super::position::{is_of, Move, Position, Special};
use crate::rules::board::{cell, Board, Sq};
use crate::rules::explain::Step;
use crate::rules::piece::Color;

/// A compiled `defection` component.
#[derive(Clone, Debug)]
pub struct Defection {
    pub tag: Tag,
    /// The pieces whose arrival makes a piece defect.
    pub kinds: KindSet,
    /// The kinds that may change sides, the highest first (`invented`: every invented piece,
    /// at one rank).
    pub ranking: Vec<KindSet>,
    /// Where each side's pieces arrive.
    pub region: [SqSet; 2],
    /// With these kinds alone a side is bare, and a defection that leaves it so wins.
    pub bare: Option<KindSet>,
    /// A side is counted bare before the switch (`counted before-switch`), not after.
    pub before: bool,
    /// The rule ids of its parts: naming the piece, and the win.
    pub choice_rule: &'static str,
    pub bare_rule: &'static str,
    /// The bare win's place among the endings after one turn, as a contact's `priority`.
    pub priority: u8,
}

impl Compiled {
    /// The `defection` component (its index) a move of a piece of `kind` of `color` that
    /// ends on `to` makes, if any: the first written whose pieces and region it meets.
    #[inline]
    pub fn defection_of(&self, kind: usize, color: Color, to: Sq) -> Option<usize> {
        self.defections
            .iter()
            .position(|d| d.kinds.has(kind) && d.region[color.index()].has(to))
    }

    /// The pieces of `them` on `board` that would change sides under defection `d`: every one
    /// of the highest kind of its ranking that `them` has, but the one on `taken` (captured by
    /// the move).
    pub fn defectors(&self, d: usize, board: &Board, them: Color, taken: Option<Sq>) -> Vec<Sq> {
        for &kinds in &self.defections[d].ranking {
            let found: Vec<Sq> = self
                .squares
                .iter()
                .copied()
                .filter(|&sq| {
                    let code = board.cell(sq);
                    Some(sq) != taken
                        && is_of(code, them)
                        && self.kind_at(code).is_some_and(|k| kinds.has(k))
                })
                .collect();
            if !found.is_empty() {
                return found;
            }
        }
        Vec::new()
    }
}

/// The board change of a move `m` of `us` that made a defection: its piece, now on `m.to`,
/// leaves, and the piece it names changes sides. Part of every move's board change.
pub(super) fn defect(
    c: &Compiled,
    board: &mut Board,
    us: Color,
    m: Move,
    changes: &mut super::position::Changes,
) {
    let Some(kind) = c.kind_at(board.cell(m.to)) else {
        return;
    };
    if c.defection_of(kind, us, m.to).is_none() {
        return;
    }
    changes.set(board, m.to, cell::EMPTY);
    if let Some(t) = m.turned {
        let code = board.cell(t);
        // A piece is its kind's code with the colour in the low bit.
        changes.set(board, t, code ^ 1);
    }
}

impl Position {
    /// Why no game reaches this set-up by a `defection`, if none does: a piece of its kinds
    /// stands on its side's region, where its arrival would have set the defection off and
    /// taken it from the board.
    pub(super) fn defection_setup_refusal(&self) -> Option<String> {
        let c = self.c;
        self.placed().find_map(|(sq, color, kind)| {
            let d = c.defection_of(kind, color, sq)?;
            Some(format!(
                "the {color} {} on {} stands where its arrival would have made the defection {} and taken it from the board",
                c.kinds[kind].name,
                c.geometry.square_name(sq.square()),
                c.defections[d].tag.rule
            ))
        })
    }

    /// Replaces each move from `out[begin..]` that makes a defection by one move per piece
    /// that may change sides (none: the move as it is).
    pub(super) fn defections(&self, out: &mut Vec<Move>, begin: usize) {
        let c = self.c;
        let us = self.turn;
        let mut at = begin;
        while at < out.len() {
            let m = out[at];
            let Some(d) = self.defection_made(m) else {
                at += 1;
                continue;
            };
            let found = c.defectors(d, &self.board, us.other(), self.taken_square(m));
            match found.split_first() {
                None => at += 1,
                Some((&first, rest)) => {
                    out[at].turned = Some(first);
                    let more: Vec<Move> = rest
                        .iter()
                        .map(|&t| Move {
                            turned: Some(t),
                            ..m
                        })
                        .collect();
                    let n = more.len();
                    out.splice(at + 1..at + 1, more);
                    at += 1 + n;
                }
            }
        }
    }

    /// The defection component (its index) move `m` of the side to move makes, if any.
    #[inline]
    pub(super) fn defection_made(&self, m: Move) -> Option<usize> {
        let c = self.c;
        if c.defections.is_empty()
            || matches!(
                m.special,
                Special::Drop { .. } | Special::Pass | Special::Castle { .. } | Special::Place
            )
        {
            return None;
        }
        let kind = m.promotion().or(c.kind_at(self.board.cell(m.from)))?;
        c.defection_of(kind, self.turn, m.to)
    }

    /// The square of the piece `m` captures, if it captures.
    fn taken_square(&self, m: Move) -> Option<Sq> {
        match m.special {
            Special::EnPassant { victim } => Some(victim),
            _ => (self.board.cell(m.to) != cell::EMPTY).then_some(m.to),
        }
    }

    /// Whether the turn `m` names the piece that changes sides: only where several may.
    pub(super) fn names_defector(&self, m: Move) -> bool {
        m.turned.is_some()
            && self.defection_made(m).is_some_and(|d| {
                self.c
                    .defectors(d, &self.board, self.turn.other(), self.taken_square(m))
                    .len()
                    > 1
            })
    }

    /// Whether `m`, a defection under component `d` by `mover` whose board change is made
    /// (`self` is the position it leaves but for the turn), left the other side bare; the
    /// component's index.
    pub(super) fn bared_by(&self, d: usize, m: Move, mover: Color) -> Option<u8> {
        let c = self.c;
        let bare = c.defections[d].bare?;
        let them = mover.other();
        let only_bare = c.squares.iter().all(|&sq| {
            let code = self.board.cell(sq);
            !is_of(code, them) || c.kind_at(code).is_some_and(|k| bare.has(k))
        });
        // Before the switch the other side also had the piece that changed sides.
        let before = only_bare && m.turned.is_none();
        let won = if before == only_bare || c.defections[d].before {
            before
        } else {
            only_bare
        };
        won.then_some(d as u8)
    }

    /// The explanation's steps for a defection `m` makes: the piece named, where the mover
    /// chooses, and what changes.
    pub(super) fn defection_steps(&self, m: Move) -> Vec<Step> {
        let c = self.c;
        let Some(d) = self.defection_made(m) else {
            return Vec::new();
        };
        let mut steps = Vec::new();
        if let Some(t) = m.turned.filter(|_| self.names_defector(m)) {
            let found = c.defectors(d, &self.board, self.turn.other(), self.taken_square(m));
            steps.push(Step::allows(
                c.defections[d].choice_rule,
                format!(
                    "the {} on {} is one of the {} pieces of the highest rank, and the turn names it",
                    self.kind_name(t),
                    c.geometry.square_name(t.square()),
                    found.len()
                ),
            ));
        }
        let name = |sq: Sq| c.geometry.square_name(sq.square());
        let mover = self.kind_name(m.from);
        let them = self.turn.other();
        let what = match m.turned {
            Some(t) => format!(
                "{them}'s {} on {} changes sides",
                self.kind_name(t),
                name(t)
            ),
            None => format!("{them} has no piece that may change sides"),
        };
        steps.push(Step::effect(
            c.defections[d].tag.rule,
            format!(
                "the {mover} arriving on {} leaves the board, and {what}",
                name(m.to)
            ),
        ));
        steps
    }

    /// Why a turn naming `named` (or nothing, `None`) as the piece that changes sides after
    /// `m` is refused: the part `choice`'s words.
    pub(super) fn choice_refusal(&self, m: Move, named: Option<Sq>) -> Step {
        let c = self.c;
        let them = self.turn.other();
        let name = |sq: Sq| c.geometry.square_name(sq.square());
        let Some(d) = self.defection_made(m) else {
            let rule = c
                .defections
                .first()
                .map_or("no-such-action", |d| d.choice_rule);
            return Step::forbids(
                rule,
                format!(
                    "the move of the {} to {} makes no piece change sides, so none is named",
                    self.kind_name(m.from),
                    name(m.to)
                ),
            );
        };
        let found = c.defectors(d, &self.board, them, self.taken_square(m));
        let list = found
            .iter()
            .map(|&s| name(s))
            .collect::<Vec<_>>()
            .join(", ");
        let why = match (named, found.len()) {
            (_, 0) => format!("{them} has no piece that may change sides, so none is named"),
            (Some(_), 1) => format!(
                "only {them}'s {} on {list} may change sides: it does, and is not named",
                self.kind_name(found[0])
            ),
            (None, _) => format!(
                "{them} has {} pieces of the highest rank ({list}): the turn names the one that changes sides",
                found.len()
            ),
            (Some(s), _) => format!(
                "the piece on {} is not among {them}'s pieces of the highest rank ({list})",
                name(s)
            ),
        };
        Step::forbids(c.defections[d].choice_rule, why)
    }
}

/// The catalogue's summary of a `defection` component.
pub fn summary() -> String {
    "a piece of the named kinds that ends its move on its side's region leaves the board, and the other side's piece of the highest kind of the ranking changes sides where it stands; among several, the mover names one".into()
}
