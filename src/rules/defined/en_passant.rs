//! Double steps and en passant: `double-step` lets a piece advance several squares at once
//! from its region, and `en-passant` lets a piece it passed take it on the square it passed,
//! on the very next turn.
//! Everything these two components do is here: the moves they generate, the squares a move
//! leaves to take, the FEN's en-passant field, why a written turn is refused, and what
//! `explain` and `rules` say of them.

use super::compile::{KindSet, SqSet, Tag};
use super::position::{board_is_wall, Move, Position, Special};
use crate::definition::model::Cell;
use crate::rules::board::{cell, Sq, Square};
use crate::rules::explain::Step;
use crate::rules::movement::{destinations, gcd, offset, Movement};
use crate::rules::piece::Color;

/// A `double-step` component, compiled.
#[derive(Clone, Debug)]
pub struct DoubleStep {
    pub tag: Tag,
    pub kinds: KindSet,
    pub region: [SqSet; 2],
    pub steps: u8,
    /// The move made instead of the straight steps.
    pub movement: Option<Movement>,
}

/// An `en-passant` component, compiled.
#[derive(Clone, Debug)]
pub struct EnPassant {
    pub tag: Tag,
    pub kinds: KindSet,
    /// Where each side may capture en passant; empty: anywhere.
    pub region: [SqSet; 2],
    /// A capturer that could step onto the passed square may take there too.
    pub where_it_steps: bool,
}

impl Position {
    /// The double steps of the piece of `kind` on `from`: straight forward over empty
    /// squares, or the component's own move.
    #[inline]
    pub(super) fn double_steps(&self, out: &mut Vec<Move>, kind: usize, from: Sq) {
        let (c, us) = (self.c, self.turn);
        for ds in &c.double_steps {
            if !ds.kinds.has(kind) || !ds.region[us.index()].has(from) {
                continue;
            }
            if let Some(m) = &ds.movement {
                destinations(
                    m,
                    &self.board,
                    from,
                    us,
                    |_| false,
                    |to, _| self.push(out, kind, from, to, Special::Step),
                );
                continue;
            }
            let fwd = offset((0, 1), us);
            let mut t = from;
            for n in 1..=ds.steps {
                t = t.offset(fwd);
                if self.board.cell(t) != cell::EMPTY {
                    break;
                }
                if n >= 2 {
                    self.push(out, kind, from, t, Special::Step);
                }
            }
        }
    }

    /// The en passant captures of the piece of `kind` on `from`, onto the squares the last
    /// move passed.
    #[inline]
    pub(super) fn en_passant_captures(&self, out: &mut Vec<Move>, kind: usize, from: Sq) {
        let (c, us) = (self.c, self.turn);
        if let (Some(ep), Some(victim)) = (&c.en_passant, self.ep_victim) {
            if ep.kinds.has(kind) {
                let region = &ep.region[us.index()];
                for target in self.ep.iter().flatten() {
                    if (region.is_empty() || region.has(*target))
                        && self.captures_onto(kind, from, *target)
                        && (ep.where_it_steps || !self.steps_onto(kind, from, *target))
                    {
                        self.push(out, kind, from, *target, Special::EnPassant { victim });
                    }
                }
            }
        }
    }

    /// Whether a piece of `kind` on `from` could capture on the empty square `target`.
    fn captures_onto(&self, kind: usize, from: Sq, target: Sq) -> bool {
        let mut board = self.board.clone();
        let them = self.turn.other();
        board.set_cell(target, self.c.piece(them, 0).code());
        let mut hit = false;
        destinations(
            &self.c.kinds[kind].movement,
            &board,
            from,
            self.turn,
            |t| self.mine(t, them),
            |to, capture| hit |= capture && to == target,
        );
        hit
    }

    /// Whether the piece of `kind` on `from` may move onto the empty `target` without
    /// capturing (`en-passant`'s `take-where-it-steps no` then lets it only step there).
    pub(super) fn steps_onto(&self, kind: usize, from: Sq, target: Sq) -> bool {
        let them = self.turn.other();
        let mut hit = false;
        destinations(
            &self.c.kinds[kind].movement,
            &self.board,
            from,
            self.turn,
            |t| self.mine(t, them),
            |to, capture| hit |= !capture && to == target,
        );
        hit
    }

    /// After `m`: the squares a double step passed, which the next turn may take en passant.
    pub(super) fn mark_passed(&mut self, m: Move) {
        let c = self.c;
        self.ep = [None, None];
        self.ep_victim = None;
        if m.special == Special::Step && c.en_passant.is_some() {
            // The squares passed over: the whole steps between the two ends.
            let (a, b) = (m.from.square(), m.to.square());
            let (df, dr) = (b.file as i32 - a.file as i32, b.rank as i32 - a.rank as i32);
            let g = gcd(df.unsigned_abs(), dr.unsigned_abs()) as i32;
            if g > 1 {
                let step = crate::rules::board::delta(df / g, dr / g);
                for i in 1..g.min(3) {
                    self.ep[i as usize - 1] = Some(m.from.offset(step * i));
                }
                self.ep_victim = Some(m.to);
            }
        }
    }

    /// En passant squares as Fairy-Stockfish writes them: the squares a double step passed
    /// (empty: where a capturer goes) and, for some pieces, the square it stopped on (the
    /// piece taken). A single empty square names the piece beyond it, as in orthodox FENs.
    pub(super) fn read_en_passant(&mut self, squares: &[Cell]) {
        let them = self.turn.other();
        let mut targets = Vec::new();
        let mut victim = None;
        for cell in squares {
            let sq = Sq::of(Square::new(cell.file, cell.rank));
            if self.board.cell(sq) == cell::EMPTY {
                targets.push(sq);
            } else if self.mine(self.board.cell(sq), them) {
                victim = Some(sq);
            }
        }
        if victim.is_none() {
            victim = self.victim_beyond(&targets);
        }
        if victim.is_some() && !targets.is_empty() {
            for (i, t) in targets.iter().take(2).enumerate() {
                self.ep[i] = Some(*t);
            }
            self.ep_victim = victim;
        }
    }

    /// The en passant field's squares, in Fairy-Stockfish's order (by rank, then file): the
    /// squares a double step passed, and the piece that made it where the reader would not
    /// find it beyond one of them ([`Self::read_en_passant`]): a Berolina pawn's `d5c6`.
    pub(super) fn en_passant_squares(&self) -> Vec<Square> {
        let Some(victim) = self.ep_victim else {
            return Vec::new();
        };
        let targets: Vec<Sq> = self.ep.iter().flatten().copied().collect();
        if targets.is_empty() {
            return Vec::new();
        }
        let inferred = self.victim_beyond(&targets);
        let mut squares: Vec<Square> = targets.iter().map(|t| t.square()).collect();
        if inferred != Some(victim) {
            squares.push(victim.square());
        }
        squares.sort_by_key(|s| (s.rank, s.file));
        squares
    }

    /// The enemy piece just beyond one of the passed squares `targets`, as a reader of the
    /// en-passant field finds it when the field names no piece: the orthodox `e3`.
    fn victim_beyond(&self, targets: &[Sq]) -> Option<Sq> {
        let them = self.turn.other();
        let fwd = offset((0, 1), them);
        targets.iter().map(|t| t.offset(fwd)).find(|v| {
            !targets.contains(v)
                && !board_is_wall(&self.board, *v)
                && self.mine(self.board.cell(*v), them)
        })
    }

    /// What `explain` says of a move these components make.
    pub(super) fn en_passant_step(
        &self,
        m: Move,
        name: &str,
        from: &str,
        to: &str,
    ) -> Option<Step> {
        let c = self.c;
        match m.special {
            Special::Step => c.double_steps.first().map(|d| {
                Step::allows(
                    d.tag.rule,
                    format!("the {name} on {from} may step to {to} at once"),
                )
            }),
            Special::EnPassant { victim } => c.en_passant.as_ref().map(|e| {
                Step::allows(
                    e.tag.rule,
                    format!(
                        "the {} on {} just passed {to} and is taken en passant",
                        self.kind_name(victim),
                        self.square_name(victim)
                    ),
                )
            }),
            _ => None,
        }
    }

    /// Why no en passant takes the piece of `kind` from `from` to `to` as written
    /// (`capture`): a capture onto the empty `to` would be an en passant the last move did
    /// not make possible, or one that `take-where-it-steps no` leaves to the step. `reaches`
    /// says whether the piece gets to `to` on a board so changed.
    pub(super) fn en_passant_refusal(
        &self,
        kind: usize,
        from: Sq,
        to: Sq,
        capture: bool,
        reaches: impl Fn(&Position) -> bool,
    ) -> Option<Step> {
        let c = self.c;
        let e = c.en_passant.as_ref().filter(|e| e.kinds.has(kind))?;
        if let Some(step) = capture.then(|| self.ep_only_steps(from, to)).flatten() {
            return Some(step);
        }
        let empty = self.board.cell(to) == cell::EMPTY;
        let mut ep = self.clone();
        ep.board
            .put(to.square(), Some(c.piece(self.turn.other(), kind)));
        (capture && empty && self.could_have_passed(to) && reaches(&ep)).then(|| {
            let (name, t) = (self.kind_name(from), self.square_name(to));
            Step::forbids(
                e.tag.rule,
                format!("no piece passed over {t} on the last move, so the {name} cannot take en passant there"),
            )
        })
    }

    /// Under `en-passant`'s `take-where-it-steps no`: why a capture written onto the empty
    /// square a double step just passed, by a piece that may step there, is no turn.
    pub(super) fn ep_only_steps(&self, from: Sq, to: Sq) -> Option<Step> {
        let kind = self.c.kind_at(self.board.cell(from))?;
        let e = self.c.en_passant.as_ref().filter(|e| e.kinds.has(kind))?;
        let stepping = !e.where_it_steps
            && self.board.cell(to) == cell::EMPTY
            && self.ep.contains(&Some(to))
            && self.steps_onto(kind, from, to);
        stepping.then(|| {
            let (name, f, t) = (self.kind_name(from), self.square_name(from), self.square_name(to));
            Step::forbids(e.tag.rule, format!("the {name} may step onto {t}, and where it may step it does not take en passant (`take-where-it-steps no`): the turn is the step {f}-{t}"))
        })
    }

    /// Whether an enemy piece that double-steps stands just beyond `to` (seen from the
    /// mover), where a double step over `to` from its region would have put it: the written
    /// capture onto the empty `to` is then an en passant that is not (or no longer) allowed.
    fn could_have_passed(&self, to: Sq) -> bool {
        let c = self.c;
        let them = self.turn.other();
        let ahead = if self.turn == Color::White { 1 } else { -1 };
        let at = |d: i32| {
            let s = to.square();
            let rank = s.rank as i32 + d * ahead;
            (0..c.geometry.ranks as i32)
                .contains(&rank)
                .then(|| Sq::of(Square::new(s.file, rank as u8)))
        };
        let Some(behind) = at(-1) else {
            return false;
        };
        let theirs = self
            .board
            .piece_at(behind)
            .is_some_and(|p| p.color() == them);
        let Some(kind) = c.kind_at(self.board.cell(behind)).filter(|_| theirs) else {
            return false;
        };
        c.double_steps.iter().any(|d| {
            d.kinds.has(kind)
                && (1..d.steps as i32)
                    .any(|k| at(k).is_some_and(|sq| d.region[them.index()].has(sq)))
        })
    }
}

/// What `rules` says of these components.
pub(super) fn summary(c: &crate::definition::Component) -> Option<String> {
    use crate::definition::Component as C;
    Some(match c {
        C::DoubleStep { steps, .. } => format!("a piece on its double-step squares may advance up to {steps} squares straight forward over empty squares"),
        C::EnPassant { where_it_steps: true, .. } => "a piece passed over by a double step may be taken on a square it passed, on the next turn only".into(),
        C::EnPassant { where_it_steps: false, .. } => "a piece passed over by a double step may be taken on a square it passed, on the next turn only, by a capturer that could not step there without capturing".into(),
        _ => return None,
    })
}
