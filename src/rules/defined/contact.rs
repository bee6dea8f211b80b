//! Contacts between pieces: `adjacency` (a piece of the side that moved next to a piece of some
//! kinds) and `alignment` (lined up with one, nothing between). The turn that leaves such a
//! contact is refused, won or lost, as the component's `effect` says. One search finds the
//! contact for the legality test, for the result of a position and for the judge's words.

use super::compile::{KindSet, SqSet, Tag};
use super::position::{is_of, Move, Position, Special};
use crate::definition::model::{Effect, Lines, Moved, Standing, Value, Whose};
use crate::rules::board::{cell, delta, Board, Sq};
use crate::rules::explain::Step;
use crate::rules::movement::KING_STEPS;
use crate::rules::piece::Color;

/// A compiled `adjacency` or `alignment` component.
#[derive(Clone, Debug)]
pub struct Contact {
    pub tag: Tag,
    /// `alignment`: along lines, with at least `gap` empty squares between; else next to.
    pub line: bool,
    pub pieces: KindSet,
    pub beside: KindSet,
    pub of: Whose,
    pub moved: Moved,
    pub effect: Effect,
    /// Where the pieces stand, by the side that moved; `None`: anywhere.
    pub region: Option<[SqSet; 2]>,
    pub standing: Standing,
    /// The mailbox steps it looks along.
    pub steps: Vec<i32>,
    pub gap: u8,
}

/// Where the piece a turn moved came from (`None`: from the hand) and where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    pub from: Option<Sq>,
    pub to: Sq,
}

impl Arrival {
    /// The piece `m` moves: none for a pass.
    pub fn of(m: Move) -> Option<Arrival> {
        match m.special {
            Special::Pass => None,
            Special::Drop { .. } => Some(Arrival {
                from: None,
                to: m.to,
            }),
            _ => Some(Arrival {
                from: Some(m.from),
                to: m.to,
            }),
        }
    }
}

impl Contact {
    pub fn new(
        tag: Tag,
        line: bool,
        k: &crate::definition::model::Contact,
        set: impl Fn(&[char]) -> KindSet,
        region: [SqSet; 2],
    ) -> Contact {
        let steps = KING_STEPS
            .iter()
            .filter(|(df, dr)| {
                let diagonal = *df != 0 && *dr != 0;
                match k.lines {
                    Lines::All => true,
                    Lines::Orthogonal => !diagonal,
                    Lines::Diagonal => diagonal,
                }
            })
            .map(|&(df, dr)| delta(df as i32, dr as i32))
            .collect();
        Contact {
            tag,
            line,
            pieces: set(&k.pieces),
            beside: set(&k.beside),
            of: k.of,
            moved: k.moved,
            effect: k.effect,
            region: (!region.iter().all(SqSet::is_empty)).then_some(region),
            standing: k.standing,
            steps: if line {
                steps
            } else {
                KING_STEPS
                    .iter()
                    .map(|&(df, dr)| delta(df as i32, dr as i32))
                    .collect()
            },
            gap: if line { k.gap } else { 0 },
        }
    }

    /// The first contact on `board` after a turn of `mover` whose moved piece is `arrival`:
    /// the square of the piece of `pieces`, and of the piece it touches or faces.
    pub fn find(
        &self,
        c: &super::Compiled,
        board: &Board,
        mover: Color,
        arrival: Option<Arrival>,
    ) -> Option<(Sq, Sq)> {
        let region = self.region.as_ref().map(|r| &r[mover.index()]);
        let inside = |sq: Sq, who: Standing| {
            let applies = self.standing == Standing::Both || self.standing == who;
            !applies || region.is_none_or(|r| r.has(sq))
        };
        let other = match self.of {
            Whose::Own => mover,
            Whose::Enemy => mover.other(),
        };
        for &sq in &c.squares {
            let code = board.cell(sq);
            if !is_of(code, mover) || !c.kind_at(code).is_some_and(|k| self.pieces.has(k)) {
                continue;
            }
            if !inside(sq, Standing::Piece) || !self.moved_ok(sq, region, arrival) {
                continue;
            }
            for &d in &self.steps {
                let mut at = sq.offset(d);
                let mut empty = 0u32;
                loop {
                    let code = board.cell(at);
                    if code == cell::WALL {
                        break;
                    }
                    if code == cell::EMPTY {
                        if !self.line {
                            break;
                        }
                        empty += 1;
                        at = at.offset(d);
                        continue;
                    }
                    let touches = is_of(code, other)
                        && c.kind_at(code).is_some_and(|k| self.beside.has(k))
                        && empty >= u32::from(self.gap)
                        && at != sq
                        && inside(at, Standing::Beside);
                    if touches {
                        return Some((sq, at));
                    }
                    break;
                }
            }
        }
        None
    }

    /// Whether the piece on `sq` moved as `moved` asks.
    fn moved_ok(&self, sq: Sq, region: Option<&SqSet>, arrival: Option<Arrival>) -> bool {
        let here = arrival.filter(|a| a.to == sq);
        let entered = here.is_some_and(|a| {
            region.is_some_and(|r| r.has(a.to) && a.from.is_none_or(|f| !r.has(f)))
        });
        match self.moved {
            Moved::Any => true,
            Moved::Yes => here.is_some(),
            Moved::Into => entered,
            Moved::NotInto => !entered,
        }
    }

    /// The kinds whose pieces it looks at.
    pub fn kinds(&self) -> KindSet {
        KindSet(self.pieces.0 | self.beside.0)
    }
}

impl super::Compiled {
    /// The contact components that refuse, in the order written: `before` those written
    /// before `check` (asked before it), else those after.
    fn refusing(&self, before: bool) -> impl Iterator<Item = (usize, &Contact)> {
        let check = self.check.map_or(usize::MAX, |(t, _)| t.index);
        self.contacts
            .iter()
            .enumerate()
            .filter(move |(_, k)| k.effect == Effect::Illegal && (k.tag.index < check) == before)
    }
}

impl Position {
    /// The first contact component, among those asked `before` the check test or after it,
    /// that refuses `m` played into `board`: its index in [`super::Compiled::contacts`].
    pub(super) fn contact_refusal(&self, m: Move, board: &Board, before: bool) -> Option<usize> {
        let c = self.c;
        let arrival = Arrival::of(m);
        c.refusing(before)
            .find(|(_, k)| k.find(c, board, self.turn, arrival).is_some())
            .map(|(i, _)| i)
    }

    /// The square of the piece a winning contact after `m` (played into `board`) takes out of
    /// play: the move that flips it is not judged by its attack.
    pub(super) fn flipped_after(&self, m: Move, board: &Board) -> Option<Sq> {
        let c = self.c;
        let arrival = Arrival::of(m);
        c.contacts
            .iter()
            .filter(|k| k.effect == Effect::Win)
            .find_map(|k| k.find(c, board, self.turn, arrival))
            .map(|(_, other)| other)
    }

    /// The game's end by a contact: after a turn, the first winning or losing contact (in the
    /// order written) of the side that moved; in a position set up without a last turn, a
    /// winning contact of either side (the side that moved looked at first), as a loss
    /// belongs to the turn that brought it about. The value is the side's it happens to.
    pub(super) fn contact_ending(&self) -> Option<(Color, Value, &'static str)> {
        let c = self.c;
        let last = self.turn.other();
        let deciding = || c.contacts.iter().filter(|k| k.effect != Effect::Illegal);
        let value = |e: Effect| {
            if e == Effect::Win {
                Value::Win
            } else {
                Value::Loss
            }
        };
        match self.arrival {
            Some(a) => deciding()
                .find(|k| k.find(c, &self.board, last, Some(a)).is_some())
                .map(|k| (last, value(k.effect), k.tag.rule)),
            None => [last, self.turn].into_iter().find_map(|color| {
                deciding()
                    .filter(|k| k.effect == Effect::Win && k.moved == Moved::Any)
                    .find(|k| k.find(c, &self.board, color, None).is_some())
                    .map(|k| (color, Value::Win, k.tag.rule))
            }),
        }
    }

    /// The refusal of `m` by the contact component `index`, played into `next`.
    pub(super) fn contact_step(&self, index: usize, m: Move, next: &Position) -> Step {
        let k = &self.c.contacts[index];
        let found = k.find(self.c, &next.board, self.turn, Arrival::of(m));
        let note = match found {
            Some((a, b)) => format!(
                "{}: a turn may not leave it",
                next.contact_words(k, a, b, self.turn)
            ),
            None => "the turn would leave a contact this rule forbids".into(),
        };
        Step::forbids(k.tag.rule, note)
    }

    /// What a legal `m` played into `next` brings about by contact: the step that ends the game.
    pub(super) fn contact_effect_step(&self, m: Move, next: &Position) -> Option<Step> {
        let (color, value, rule) = next.contact_ending()?;
        let k = self.c.contacts.iter().find(|k| k.tag.rule == rule)?;
        let (a, b) = k.find(self.c, &next.board, color, Arrival::of(m))?;
        let outcome = match value {
            Value::Win => "the side that moved wins",
            _ => "the side that moved loses",
        };
        Some(Step::effect(
            rule,
            format!("{}: {outcome}", next.contact_words(k, a, b, color)),
        ))
    }

    /// `the spy on d5 stands next to the enemy king on e6`.
    fn contact_words(&self, k: &Contact, a: Sq, b: Sq, mover: Color) -> String {
        let whose = match k.of {
            Whose::Own => format!("{mover}'s own"),
            Whose::Enemy => "the enemy".into(),
        };
        let relation = if k.line {
            "is lined up, with nothing between, with"
        } else {
            "stands next to"
        };
        format!(
            "the {} on {} {relation} {whose} {} on {}",
            self.kind_name(a),
            self.square_name(a),
            self.kind_name(b),
            self.square_name(b)
        )
    }
}

/// The summary of a contact component for the catalogue; `name` gives a kind's name.
pub fn summary(
    k: &crate::definition::model::Contact,
    line: bool,
    name: impl Fn(char) -> String,
) -> String {
    let kinds = |l: &[char]| {
        let names: Vec<String> = l.iter().map(|&c| name(c)).collect();
        match names.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        }
    };
    let (p, b) = (kinds(&k.pieces), kinds(&k.beside));
    let first = match k.moved {
        Moved::Any => format!("a {p} of the mover's"),
        Moved::Yes => format!("the {p} it moves"),
        Moved::Into => format!("a {p} it moves into the region"),
        Moved::NotInto => format!("a {p} of the mover's, unless just moved into the region,"),
    };
    let second = match k.of {
        Whose::Own => format!("a {b} of the mover's"),
        Whose::Enemy => format!("an enemy {b}"),
    };
    let relation = if line {
        let lines = match k.lines {
            Lines::All => "a file, rank or diagonal",
            Lines::Orthogonal => "a file or rank",
            Lines::Diagonal => "a diagonal",
        };
        let gap = match k.gap {
            0 => String::new(),
            1 => ", at least one empty square between".into(),
            n => format!(", at least {n} empty squares between"),
        };
        format!("lined up on {lines}, nothing between{gap}, with")
    } else {
        "next to".into()
    };
    let region = if k.region.iter().all(|r| r.cells.is_empty()) {
        ""
    } else {
        match k.standing {
            Standing::Both => ", both in the region",
            Standing::Piece => ", the first in the region",
            Standing::Beside => ", the second in the region",
        }
    };
    let effect = match k.effect {
        Effect::Illegal => "it may not be played",
        Effect::Win => "the mover wins",
        Effect::Loss => "the mover loses",
    };
    format!("a turn that leaves {first} {relation} {second}{region}: {effect}")
}
