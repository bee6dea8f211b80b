//! Resolving written turns among a position's legal turns: the one path that a single turn
//! (`play`, `expect legal`) and every entry of a list (`expect moves = { ... }`) go through.
//!
//! The legal turns are indexed once ([`LegalTurns`]) by what their first action touches, so
//! that a written turn is compared only with the few legal turns it could name rather than
//! with all of them: a list of n entries in a position of m legal turns resolves in about
//! n + m steps, not n × m. The index only narrows the candidates; which of them the pattern
//! names is decided by [`TurnPattern::matches`] and [`turn::written_leg_for_leg`] as it
//! always was, so the index changes the cost, never the answer.

use std::collections::HashMap;
use std::hash::Hasher;

use super::key::KeyHasher;
use super::turn::{self, Action, ActionPattern, CastleSide, Origin, Turn, TurnPattern};
use super::Square;

/// A position's legal turns, sorted by canonical text, with an index from what a written
/// turn's first action says to the turns that could match it.
#[derive(Clone, Debug)]
pub struct LegalTurns<M> {
    turns: Vec<(M, Turn)>,
    /// Bucket key ([`Key::hash`]) to the places of the turns in it, in increasing order. Two
    /// keys may share a bucket (a hash collision): a bucket holds at least its key's turns,
    /// and matching picks the right ones.
    buckets: HashMap<u64, Vec<u32>>,
}

impl<M> Default for LegalTurns<M> {
    fn default() -> Self {
        LegalTurns {
            turns: Vec::new(),
            buckets: HashMap::new(),
        }
    }
}

/// A turn a written pattern names: the move, the turn as played, and its place among the
/// legal turns when it is one of them (a csipgs design change joined to a move is legal but
/// not listed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named<M> {
    pub m: M,
    pub turn: Turn,
    pub listed: Option<usize>,
}

impl<M: Copy> Named<M> {
    /// The legal turn at place `i`.
    pub fn listed(legal: &LegalTurns<M>, i: usize) -> Named<M> {
        let (m, turn) = &legal.turns[i];
        Named {
            m: *m,
            turn: turn.clone(),
            listed: Some(i),
        }
    }
}

/// What a bucket gathers: the turns whose first action is of this kind and touches these
/// squares.
#[derive(Clone, Copy)]
enum Key<'a> {
    /// A move from this square along legs ending on these squares.
    PathFrom(Square, &'a [Square]),
    /// A move from anywhere along legs ending on these squares.
    Path(&'a [Square]),
    /// A move from this square whose last leg ends on the square.
    EndFrom(Square, Square),
    /// A move from anywhere whose last leg ends on the square.
    End(Square),
    Castle(CastleSide),
    Drop(Square),
    Coup(Square),
    Reborn(Square),
    Vanish(Square),
    Pass,
    Buy(&'a str),
    Redesign(&'a str, &'a str),
}

impl Key<'_> {
    fn hash(self) -> u64 {
        let mut h = KeyHasher::default();
        let square = |h: &mut KeyHasher, s: Square| {
            h.write_u8(s.file);
            h.write_u8(s.rank);
        };
        let text = |h: &mut KeyHasher, t: &str| {
            h.write(t.as_bytes());
            h.write_u8(0xff);
        };
        match self {
            Key::PathFrom(from, squares) => {
                h.write_u8(0);
                square(&mut h, from);
                squares.iter().for_each(|s| square(&mut h, *s));
            }
            Key::Path(squares) => {
                h.write_u8(1);
                squares.iter().for_each(|s| square(&mut h, *s));
            }
            Key::EndFrom(from, to) => {
                h.write_u8(2);
                square(&mut h, from);
                square(&mut h, to);
            }
            Key::End(to) => {
                h.write_u8(3);
                square(&mut h, to);
            }
            Key::Castle(side) => {
                h.write_u8(4);
                h.write_u8(side as u8);
            }
            Key::Drop(s) | Key::Coup(s) | Key::Reborn(s) | Key::Vanish(s) => {
                h.write_u8(match self {
                    Key::Drop(_) => 5,
                    Key::Coup(_) => 6,
                    Key::Reborn(_) => 7,
                    _ => 8,
                });
                square(&mut h, s);
            }
            Key::Pass => h.write_u8(9),
            Key::Buy(design) => {
                h.write_u8(10);
                text(&mut h, design);
            }
            Key::Redesign(from, to) => {
                h.write_u8(11);
                text(&mut h, from);
                text(&mut h, to);
            }
        }
        h.finish()
    }
}

/// Where a written first action looks: the bucket of the turns it names leg for leg, and for
/// one written leg (which may also name a longer path ending there) the bucket of every turn
/// ending on that square.
struct Lookup {
    leg_for_leg: u64,
    whole_path: Option<u64>,
}

fn lookup(action: &ActionPattern) -> Lookup {
    let only = |key: Key| Lookup {
        leg_for_leg: key.hash(),
        whole_path: None,
    };
    match action {
        ActionPattern::Move { from, legs, .. } => {
            let squares: Vec<Square> = legs.iter().map(|l| l.to).collect();
            let (path, end) = match (*from, squares.as_slice()) {
                (Origin::Exact(o), [to]) => {
                    (Key::PathFrom(o, &squares), Some(Key::EndFrom(o, *to)))
                }
                (Origin::Exact(o), _) => (Key::PathFrom(o, &squares), None),
                (_, [to]) => (Key::Path(&squares), Some(Key::End(*to))),
                (_, _) => (Key::Path(&squares), None),
            };
            Lookup {
                leg_for_leg: path.hash(),
                whole_path: end.map(Key::hash),
            }
        }
        ActionPattern::Castle(side) => only(Key::Castle(*side)),
        ActionPattern::Drop { to, .. } => only(Key::Drop(*to)),
        ActionPattern::Coup { square, .. } => only(Key::Coup(*square)),
        ActionPattern::Reborn { square, .. } => only(Key::Reborn(*square)),
        ActionPattern::Vanish { square } => only(Key::Vanish(*square)),
        ActionPattern::Pass => only(Key::Pass),
        ActionPattern::Buy { design } => only(Key::Buy(design)),
        ActionPattern::Redesign {
            from_design,
            to_design,
        } => only(Key::Redesign(from_design, to_design)),
    }
}

/// The buckets a legal turn's first action belongs to.
fn keys_of(action: &Action, mut add: impl FnMut(u64)) {
    match action {
        Action::Move {
            from, legs, castle, ..
        } => {
            let squares: Vec<Square> = legs.iter().map(|l| l.to).collect();
            add(Key::PathFrom(*from, &squares).hash());
            add(Key::Path(&squares).hash());
            if let Some(&to) = squares.last() {
                add(Key::EndFrom(*from, to).hash());
                add(Key::End(to).hash());
            }
            if let Some(side) = castle {
                add(Key::Castle(*side).hash());
            }
        }
        Action::Drop { to, .. } => add(Key::Drop(*to).hash()),
        Action::Coup { square, .. } => add(Key::Coup(*square).hash()),
        Action::Reborn { square, .. } => add(Key::Reborn(*square).hash()),
        Action::Vanish { square } => add(Key::Vanish(*square).hash()),
        Action::Pass => add(Key::Pass.hash()),
        Action::Buy { design } => add(Key::Buy(design).hash()),
        Action::Redesign {
            from_design,
            to_design,
        } => add(Key::Redesign(from_design, to_design).hash()),
    }
}

impl<M> LegalTurns<M> {
    /// Indexes legal turns sorted by canonical text (as [`super::Rules::legal_turns`] gives
    /// them).
    pub fn new(turns: Vec<(M, Turn)>) -> LegalTurns<M> {
        let mut buckets: HashMap<u64, Vec<u32>> = HashMap::new();
        for (i, (_, t)) in turns.iter().enumerate() {
            let Some(first) = t.actions.first() else {
                continue;
            };
            let i = u32::try_from(i).expect("fewer than 2^32 legal turns");
            keys_of(first, |k| {
                let bucket = buckets.entry(k).or_default();
                // A turn whose keys collide is listed once.
                if bucket.last() != Some(&i) {
                    bucket.push(i);
                }
            });
        }
        LegalTurns { turns, buckets }
    }

    pub fn turns(&self) -> &[(M, Turn)] {
        &self.turns
    }

    pub fn len(&self) -> usize {
        self.turns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }

    /// The places of the legal turns `pattern` names, in increasing order (so sorted by
    /// canonical text): those it [matches](TurnPattern::matches), narrowed as
    /// [`turn::written_leg_for_leg`] narrows them. Empty when it names none.
    pub fn resolve(&self, pattern: &TurnPattern) -> Vec<usize> {
        let TurnPattern::Actions { actions, .. } = pattern else {
            return Vec::new();
        };
        let Some(first) = actions.first() else {
            return Vec::new();
        };
        let matching = |key: u64| -> Vec<usize> {
            self.buckets.get(&key).map_or_else(Vec::new, |bucket| {
                bucket
                    .iter()
                    .map(|&i| i as usize)
                    .filter(|&i| pattern.matches(&self.turns[i].1))
                    .collect()
            })
        };
        let Lookup {
            leg_for_leg,
            whole_path,
        } = lookup(first);
        let mut found = matching(leg_for_leg);
        // Narrowing keeps only the turns named leg for leg when there is one; only when there
        // is none do the longer paths ending on the written square count. Their bucket holds
        // the leg-for-leg one too.
        if let Some(whole) = whole_path {
            if !found
                .iter()
                .any(|&i| turn::closeness(pattern, &self.turns[i].1).is_some())
            {
                found = matching(whole);
            }
        }
        let found: Vec<(usize, &Turn)> = found.into_iter().map(|i| (i, &self.turns[i].1)).collect();
        turn::written_leg_for_leg(pattern, found, |(_, t)| *t)
            .into_iter()
            .map(|(i, _)| i)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::chess::Chess;
    use crate::rules::xpanse::Xpanse;
    use crate::rules::{Options, Rules};
    use crate::scenario::evaluate::Lowering;
    use crate::scenario::parse::parse_turn;

    /// The index names exactly what a scan of every legal turn names.
    fn scan(legal: &[((), Turn)], pattern: &TurnPattern) -> Vec<usize> {
        let found: Vec<usize> = (0..legal.len())
            .filter(|&i| pattern.matches(&legal[i].1))
            .collect();
        let found: Vec<(usize, &Turn)> = found.into_iter().map(|i| (i, &legal[i].1)).collect();
        turn::written_leg_for_leg(pattern, found, |(_, t)| *t)
            .into_iter()
            .map(|(i, _)| i)
            .collect()
    }

    /// Every legal turn's text and each of `more`, resolved by the index and by a scan.
    fn agree<R: Rules>(size: Option<(u8, u8)>, fen: &str, more: &[&str]) {
        let g = R::geometry_for(size).unwrap();
        let pos = R::from_fen(g, fen, &Options::defaults(R::options())).unwrap();
        let turns: Vec<((), Turn)> = pos
            .legal_turns()
            .into_iter()
            .map(|(_, t)| ((), t))
            .collect();
        let legal = LegalTurns::new(turns.clone());
        let lowering = Lowering::<R>::new(g);
        let mut texts: Vec<String> = turns.iter().map(|(_, t)| t.text(&g)).collect();
        texts.extend(more.iter().map(|t| t.to_string()));
        for text in texts {
            let pattern = lowering.turn(&parse_turn(&text).unwrap()).unwrap();
            assert_eq!(legal.resolve(&pattern), scan(&turns, &pattern), "{text}");
        }
    }

    #[test]
    fn the_index_names_what_a_scan_of_every_turn_names() {
        agree::<Chess>(
            None,
            "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
            &[
                "O-O", "O-O-O", "exd6", "e6", "b8=Q", "bxa8=N", "b8", "Kd1", "Ke1-f1", "Rh2",
                "Rxa8", "Ra1xa8", "R1a7", "Kf2", "e5-e6", "e4", "Qd1", "Ke1-g1",
            ],
        );
        // The docs' Archer: one written leg names the direct leap, or else every path ending
        // there; short notation names paths from anywhere.
        agree::<Xpanse>(
            Some((5, 5)),
            "a1qk1/3Nb/2A1R/1P1p1/K3n w 0/0 0/0 -/- up/down",
            &[
                "Ac3-c1", "Ac1", "Axc5", "Ac5", "Ae1", "Axe1", "Ac3-a1", "Aa1", "Ac3xe5", "Ac3-d4",
                "Ad4", "c3-c1", "Ka1-a2", "Ka2", "pass", "Pb2-b3", "b3",
            ],
        );
    }
}
