//! The Magic Pieces' paths: the Gatekeeper, the Mage and the Archer.
//!
//! A path is a list of legs; [`next_legs`] says where the next leg of a path in progress can
//! end and what it does there (step, kill, ricochet, switch), or which rule stops it. The
//! generator ([`explore`]) follows the legs it allows; a refusal walks a written path through
//! the same function leg by leg, so the two cannot disagree.
//!
//! Termination: every leg stops on a square not stopped on before, the starting square
//! included (rule `path-no-revisit`), so a path has fewer legs than the board has squares.

use std::collections::BTreeMap;

use super::{leg, KillGoesOn, Move, Xpanse};
use crate::rules::board::{delta, Sq};
use crate::rules::movement::{CAMEL_LEAPS, KING_STEPS, WAZIR};
use crate::rules::piece::{Piece, Role};
use crate::rules::refusal::{Rejection, Stage, Verdicts};
use crate::rules::Rules;

/// The Archer's leaps: two squares along a rank, a file or a diagonal.
pub const ARCHER_LEAPS: [(i8, i8); 8] = [
    (0, 2),
    (0, -2),
    (2, 0),
    (-2, 0),
    (2, 2),
    (-2, 2),
    (2, -2),
    (-2, -2),
];

/// A path in progress.
#[derive(Clone, Copy, Debug)]
pub struct PathState {
    pub role: Role,
    pub origin: Sq,
    /// Where the next leg starts.
    pub at: Sq,
    /// The squares stopped on, the origin included (bit `file + 7 * rank`).
    pub visited: u64,
    pub ricochets: u8,
    /// The square of the last leg's ricochet, when the last leg was one.
    pub last_ricochet: Option<Sq>,
    /// The last leg's direction as one step (the Gatekeeper's line; half the Archer's leap).
    pub dir: (i8, i8),
    pub path: Move,
}

fn bit(s: Sq) -> u64 {
    let q = s.square();
    1u64 << (q.file as u32 + 7 * q.rank as u32)
}

impl PathState {
    pub fn new(role: Role, origin: Sq) -> PathState {
        PathState {
            role,
            origin,
            at: origin,
            visited: bit(origin),
            ricochets: 0,
            last_ricochet: None,
            dir: (0, 0),
            path: Move::path(origin),
        }
    }

    /// The state after a leg to `to` of kind `kind` in direction `dir`.
    pub fn after(&self, pos: &Xpanse, to: Sq, kind: u8, dir: (i8, i8)) -> PathState {
        let mut next = *self;
        next.path = self.path.with_leg(to, kind);
        next.visited |= bit(to);
        next.dir = dir;
        next.at = to;
        next.last_ricochet = None;
        if kind == leg::RICOCHET {
            next.ricochets += 1;
            next.last_ricochet = Some(to);
            if pos.opts.ricochet_from_before.get() && self.role != Role::Mage {
                next.at = to.offset(-delta(dir.0.into(), dir.1.into()));
            }
        }
        next
    }

    /// Whether the path may go on after its next leg kills on `victim` (options
    /// archer-kill-continues and, when the victim is the opponent's last King,
    /// last-king-kill).
    pub fn goes_on_after_kill(&self, pos: &Xpanse, victim: Sq) -> bool {
        self.kill_may_go_on(pos)
            && !(self.kills_last_king(pos, victim) && pos.opts.last_king_ends_move.get())
    }

    fn kill_may_go_on(&self, pos: &Xpanse) -> bool {
        self.role == Role::Archer
            && match pos.opts.archer_kill.get() {
                KillGoesOn::AfterRicochet => self.ricochets > 0,
                KillGoesOn::Always => true,
                KillGoesOn::Never => false,
            }
    }

    /// The option that ends an Archer's move at its kill on `victim` (when it ends there).
    pub fn kill_end_option(&self, pos: &Xpanse) -> &'static str {
        if self.kill_may_go_on(pos) {
            "last-king-kill"
        } else {
            "archer-kill-continues"
        }
    }

    /// Whether a kill on `victim` takes the opponent's last King, counting the Kings the
    /// path has killed already (the board is not changed while a path is walked).
    pub fn kills_last_king(&self, pos: &Xpanse, victim: Sq) -> bool {
        let king = Piece::new(pos.turn.other(), Role::King);
        if pos.board.piece_at(victim) != Some(king) {
            return false;
        }
        let killed = self
            .path
            .legs()
            .filter(|&(s, k)| k == leg::KILL && pos.board.piece_at(s) == Some(king))
            .count();
        let kings = pos.board.pieces().filter(|(_, p)| *p == king).count();
        killed + 1 == kings
    }

    /// The square whose neighbours a Switch Move may land on: the piece of the last
    /// ricochet, or (option switch-from) the square the next leg starts from, which differs
    /// only under ricochet-from = before.
    pub fn switch_centre(&self, pos: &Xpanse) -> Option<Sq> {
        let r = self.last_ricochet?;
        Some(if r != self.at && pos.opts.switch_from_leg_start.get() {
            self.at
        } else {
            r
        })
    }
}

/// Where a leg can end: the square, the leg's direction, and what it does there ([`leg`]) or
/// the rule that stops it.
pub type Option_ = (Sq, (i8, i8), Result<u8, Rejection>);

/// The leg options of a path in progress, at most 24.
pub struct Legs {
    items: [Option<Option_>; 24],
    n: usize,
}

impl Legs {
    fn push(&mut self, o: Option_) {
        if self.n < self.items.len() {
            self.items[self.n] = Some(o);
            self.n += 1;
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = Option_> + '_ {
        self.items[..self.n].iter().flatten().copied()
    }
}

/// What stands on a square while the piece is in flight (its own origin is empty then).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Off,
    Empty,
    Piece(Piece),
}

fn cell(pos: &Xpanse, st: &PathState, s: Sq) -> Cell {
    if pos.board.cell(s) == crate::rules::board::cell::WALL {
        Cell::Off
    } else if s == st.origin {
        Cell::Empty
    } else {
        match pos.board.piece_at(s) {
            Some(p) => Cell::Piece(p),
            None => Cell::Empty,
        }
    }
}

fn rejected(rule: &'static str, at: Sq) -> Result<u8, Rejection> {
    Err(Rejection::at(rule, Stage::Target, at.square()))
}

/// What a leg ending on `t` does: land on an empty square, kill an enemy, or ricochet off a
/// piece of its own side, each as the piece's rules allow.
fn ending(pos: &Xpanse, st: &PathState, t: Sq, c: Cell) -> Option<Result<u8, Rejection>> {
    let us = pos.turn;
    Some(match c {
        Cell::Off => return None,
        _ if st.visited & bit(t) != 0 => rejected("path-no-revisit", t),
        Cell::Empty => Ok(leg::STEP),
        Cell::Piece(p) if p.color() != us => {
            if p.role() == st.role {
                rejected(
                    match st.role {
                        Role::Gatekeeper => "gatekeeper-no-kill-gatekeeper",
                        Role::Mage => "mage-no-kill-mage",
                        _ => "archer-no-kill-archer",
                    },
                    t,
                )
            } else {
                Ok(leg::KILL)
            }
        }
        Cell::Piece(_) => {
            if st.role != Role::Archer && st.ricochets > 0 {
                rejected("no-second-ricochet", t)
            } else {
                Ok(leg::RICOCHET)
            }
        }
    })
}

/// The squares where the next leg of `st` can end, with what it does there or why it
/// cannot.
pub fn next_legs(pos: &Xpanse, st: &PathState) -> Legs {
    let mut out = Legs {
        items: [None; 24],
        n: 0,
    };
    let step = |s: Sq, d: (i8, i8)| s.offset(delta(d.0.into(), d.1.into()));
    match st.role {
        Role::Gatekeeper => {
            let (x, y) = st.dir;
            let turned = [(-y, x), (y, -x)];
            let dirs: &[(i8, i8)] = if st.ricochets > 0 {
                &turned
            } else if pos.opts.gatekeeper_all_lines.get() {
                &KING_STEPS
            } else {
                &WAZIR
            };
            for &d in dirs {
                // Slide to the first piece, the one leaped over.
                let mut s = step(st.at, d);
                let screen = loop {
                    match cell(pos, st, s) {
                        Cell::Off => break None,
                        Cell::Empty => s = step(s, d),
                        Cell::Piece(p) => break Some(p),
                    }
                };
                let Some(screen) = screen else { continue };
                let mut t = step(s, d);
                if screen.role() == Role::Gatekeeper {
                    if cell(pos, st, t) != Cell::Off {
                        out.push((t, d, rejected("gatekeeper-no-leap-gatekeeper", s)));
                    }
                    continue;
                }
                let first = cell(pos, st, t);
                if let Some(r) = ending(pos, st, t, first) {
                    out.push((t, d, r));
                }
                if pos.opts.gatekeeper_next_piece.get() && first == Cell::Empty {
                    // Over the empty squares to the next piece: a kill or a ricochet.
                    loop {
                        t = step(t, d);
                        match cell(pos, st, t) {
                            Cell::Off => break,
                            Cell::Empty => {}
                            c => {
                                if let Some(r) = ending(pos, st, t, c) {
                                    out.push((t, d, r));
                                }
                                break;
                            }
                        }
                    }
                }
            }
        }
        Role::Mage => {
            for v in CAMEL_LEAPS {
                let t = step(st.at, v);
                if let Some(r) = ending(pos, st, t, cell(pos, st, t)) {
                    out.push((t, v, r));
                }
            }
        }
        _ => {
            for v in ARCHER_LEAPS {
                let t = step(st.at, v);
                if let Some(r) = ending(pos, st, t, cell(pos, st, t)) {
                    out.push((t, (v.0 / 2, v.1 / 2), r));
                }
            }
            if let Some(r) = st.switch_centre(pos) {
                let around: &[(i8, i8)] = if pos.opts.switch_orthogonal.get() {
                    &WAZIR
                } else {
                    &KING_STEPS
                };
                for &d in around {
                    let t = step(r, d);
                    let res = match cell(pos, st, t) {
                        Cell::Off => continue,
                        _ if st.visited & bit(t) != 0 => rejected("path-no-revisit", t),
                        Cell::Empty => Ok(leg::SWITCH),
                        Cell::Piece(_) => rejected("archer-switch", t),
                    };
                    out.push((t, d, res));
                }
            }
        }
    }
    out
}

/// Sends every legal path of the Magic Piece on `from` to `out` (through
/// [`Xpanse::finish`], which adds what follows a move from the first row).
///
/// Paths that leave the same board (the same last square and the same kills) are each a
/// turn, or, under `same-board-paths = one-turn`, one turn: the path with the fewest legs,
/// then the first by its text. The option is asked only when two paths end on one square.
pub fn explore<V: Verdicts<Move>>(pos: &Xpanse, from: Sq, role: Role, out: &mut V) {
    let st = PathState::new(role, from);
    let mut ends = 0u64;
    let mut asked = false;
    // Whether this path ends where an earlier one did, so that the reading matters.
    let mut again = |m: &Move| {
        let b = m.destination().map_or(0, bit);
        let seen = ends & b != 0;
        ends |= b;
        seen
    };
    if !pos.opts.one_turn_per_board.peek() {
        extend(pos, &st, &mut |m| {
            if !asked && again(&m) {
                asked = true;
                pos.opts.one_turn_per_board.get();
            }
            pos.finish(m, out);
            !out.full()
        });
        return;
    }
    // One turn per board: the best path of each (last square, kills), kept in order.
    let mut best: BTreeMap<(u16, u64), Move> = BTreeMap::new();
    extend(pos, &st, &mut |m| {
        if !asked && again(&m) {
            asked = true;
            pos.opts.one_turn_per_board.get();
        }
        let kills = m
            .legs()
            .filter(|&(_, k)| k == leg::KILL)
            .fold(0, |acc, (s, _)| acc | bit(s));
        let key = (m.destination().map_or(0, |d| d.0), kills);
        match best.get_mut(&key) {
            Some(kept) => {
                if text_order(&m, kept).is_lt() {
                    *kept = m;
                }
            }
            None => {
                best.insert(key, m);
            }
        }
        best.len() <= Xpanse::MAX_TURNS
    });
    for m in best.into_values() {
        if out.full() {
            return;
        }
        pos.finish(m, out);
    }
}

/// Two paths of one piece in order: fewer legs first, then by their text (each leg written
/// as its mark, file letter and rank digit).
fn text_order(a: &Move, b: &Move) -> std::cmp::Ordering {
    fn written(m: &Move) -> impl Iterator<Item = (char, u8, u8)> + '_ {
        m.legs().map(|(s, k)| {
            let q = s.square();
            (leg::kind(k).mark(), q.file, q.rank)
        })
    }
    a.legs()
        .count()
        .cmp(&b.legs().count())
        .then_with(|| written(a).cmp(written(b)))
}

/// Walks every path from `st`, handing each complete one to `emit`, which says whether to
/// go on.
fn extend(pos: &Xpanse, st: &PathState, emit: &mut impl FnMut(Move) -> bool) -> bool {
    for (t, dir, res) in next_legs(pos, st).iter() {
        let Ok(kind) = res else { continue };
        let next = st.after(pos, t, kind, dir);
        let go_on = match kind {
            leg::RICOCHET => extend(pos, &next, emit),
            leg::KILL => {
                emit(next.path) && (!st.goes_on_after_kill(pos, t) || extend(pos, &next, emit))
            }
            _ => emit(next.path),
        };
        if !go_on {
            return false;
        }
    }
    true
}
