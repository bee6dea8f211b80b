//! `retake`: a window of one turn after some captures, in which the capturer may be taken
//! back on the square it took on, whatever a `sanctuary` says there. The window is opened
//! when a turn is played, read by the zone test the generator and the judge share (so a
//! re-take is made and refused by one reading), and explained here.

use super::compile::{KindSet, SqSet, Tag};
use super::position::{is_of, Move, Position, Special};
use crate::definition::model::Reach;
use crate::rules::board::{cell, Sq};
use crate::rules::explain::Step;

/// A compiled `retake` component.
#[derive(Clone, Debug)]
pub struct Retake {
    pub tag: Tag,
    /// The capturers that may be re-taken.
    pub kinds: KindSet,
    /// The captured kinds that open the window; `None`: any.
    pub takes: Option<KindSet>,
    /// The kinds that may re-take; `None`: any.
    pub by: Option<KindSet>,
    /// Where the capturer stood, seen from the region.
    pub from: Reach,
    /// Where each side's captures open a window.
    pub region: [SqSet; 2],
}

/// An open window: the square of the capturer, and the component (its index in
/// [`super::compile::Compiled::retakes`]) that opened it.
pub type Window = Option<(Sq, u8)>;

impl Position {
    /// The window `m`, about to be played by the side to move, opens: the first `retake`
    /// component (in the order written) whose capturer, captured kind, region and `from` it
    /// meets.
    pub(super) fn window_of(&self, m: Move) -> Window {
        let c = self.c;
        if c.retakes.is_empty()
            || matches!(
                m.special,
                Special::Drop { .. } | Special::Pass | Special::Place
            )
        {
            return None;
        }
        let victim = match m.special {
            Special::EnPassant { victim } => victim,
            Special::Castle { .. } => return None,
            _ => m.to,
        };
        let taken = self.board.cell(victim);
        let (Some(kind), Some(victim_kind)) = (
            c.kind_at(self.board.cell(m.from)),
            c.kind_at(taken).filter(|_| taken != cell::EMPTY),
        ) else {
            return None;
        };
        let us = self.turn.index();
        c.retakes.iter().enumerate().find_map(|(i, r)| {
            let region = &r.region[us];
            let whence = match r.from {
                Reach::Anywhere => true,
                Reach::Inside => region.has(m.from),
                Reach::Outside => !region.has(m.from),
            };
            (r.kinds.has(kind)
                && r.takes.is_none_or(|t| t.has(victim_kind))
                && region.has(m.to)
                && whence)
                .then_some((m.to, i as u8))
        })
    }

    /// The square a piece of `kind` of the side to move may re-take on, if a window is open
    /// for it: the capturer still stands there, and `kind` is among the component's `by`.
    #[inline]
    pub(super) fn retake_square(&self, kind: usize) -> Option<Sq> {
        let (sq, i) = self.retake?;
        let r = &self.c.retakes[i as usize];
        (r.by.is_none_or(|by| by.has(kind)) && is_of(self.board.cell(sq), self.turn.other()))
            .then_some(sq)
    }

    /// The window a position set up with the square named `name` as its `retake` has: the
    /// first component under which the piece there, of the side that just moved, could have
    /// made the capture; or why there is none.
    pub(super) fn window_at(&self, name: &str) -> Result<(Sq, u8), String> {
        let c = self.c;
        let g = c.geometry;
        let sq = g
            .parse_square(name)
            .map(Sq::of)
            .ok_or_else(|| format!("`retake` is a square ({}) or -, not `{name}`", g.describe()))?;
        let code = self.board.cell(sq);
        let mover = self.turn.other();
        let kind = c.kind_at(code).filter(|_| is_of(code, mover));
        let found = c
            .retakes
            .iter()
            .position(|r| kind.is_some_and(|k| r.kinds.has(k)) && r.region[mover.index()].has(sq));
        match found {
            Some(i) => Ok((sq, i as u8)),
            None => Err(format!(
                "the re-take square {name} must hold a piece of {mover}'s that a `retake` component lets be re-taken, standing in its region"
            )),
        }
    }

    /// The window's square, as the state key `retake` reads it (`-`: none open).
    pub(super) fn retake_text(&self) -> String {
        match self.retake {
            Some((sq, _)) => self.c.geometry.square_name(sq.square()),
            None => "-".into(),
        }
    }

    /// The step that lets a generated capture `m` by a piece of `kind` through a window,
    /// where a sanctuary would otherwise hold against it.
    pub(super) fn retake_step(&self, m: Move, kind: usize) -> Option<Step> {
        let c = self.c;
        let sq = self.retake_square(kind).filter(|&sq| sq == m.to)?;
        c.bar(&self.board, kind, self.turn, m.from, m.to, m.to)?;
        let (_, i) = self.retake?;
        let square = |s: Sq| c.geometry.square_name(s.square());
        let victim = c
            .kind_at(self.board.cell(sq))
            .map_or("piece", |k| c.kinds[k].name.as_str());
        Some(Step::allows(
            c.retakes[i as usize].tag.rule,
            format!(
                "the {victim} on {} made the capture there on the last turn, so the {} on {} may re-take it now, sanctuary or not",
                square(sq),
                c.kinds[kind].name,
                square(m.from)
            ),
        ))
    }
}

/// The catalogue's summary of a `retake` component.
pub fn summary(from: Reach) -> String {
    let whence = match from {
        Reach::Anywhere => "",
        Reach::Inside => " standing in the region",
        Reach::Outside => " standing outside the region",
    };
    format!(
        "right after a piece of the named kinds{whence} captures on a square of its side's region, a piece of the `by` kinds may capture it there on the very next turn only, whatever a sanctuary says"
    )
}
