//! Judging a written turn: the components that generate a move and the ones that forbid it,
//! asked in the order they judge, each giving a [`Step`] with its rule id and a sentence about
//! this turn. The generator ([`Position::pseudo_moves`], [`Position::castlings_judged`]) and
//! the legality test ([`Position::forbidder`]) are the same code the legal moves come from.

use super::position::{CastleBar, Forbid, Move, Position, Special};
use crate::rules::explain::{Step, StepVerdict};
use crate::rules::movement::{walk, Landing};
use crate::rules::refusal::{mark_refusal, origins};
use crate::rules::turn::{ActionPattern, MoveShape, Origin};
use crate::rules::{CastleSide, Rules, Sq, TurnPattern};

/// The castling sub-rule ids a castling component `id` refuses with, by [`CastleBar`].
pub fn castling_sub_id(id: &str, bar: CastleBar) -> String {
    let suffix = match bar {
        CastleBar::Rights => "rights",
        CastleBar::Blocked => "blocked",
        CastleBar::OutOfCheck => "out-of-check",
        CastleBar::ThroughCheck => "through-check",
    };
    format!("{id}-{suffix}")
}

/// The refusal of a move with a piece in the way.
pub(super) fn blocked_step(name: &str, from: &str, to: &str) -> Step {
    Step::forbids(
        rule_id("blocked"),
        format!("a piece stands in the way of the {name} from {from} to {to}"),
    )
}

/// The catalogue's own `'static` copy of rule id `id`.
fn rule_id(id: &str) -> &'static str {
    <Position as Rules>::rules()
        .iter()
        .find(|r| r.id == id)
        .map_or("no-such-action", |r| r.id)
}

impl Position {
    fn square_name(&self, sq: Sq) -> String {
        self.c.geometry.square_name(sq.square())
    }

    fn kind_name(&self, sq: Sq) -> String {
        self.c
            .kind_at(self.board.cell(sq))
            .map_or_else(|| "piece".into(), |k| self.c.kinds[k].name.clone())
    }

    /// The steps of one generated move: the components that produced it, then each that
    /// judges it, up to the first that forbids.
    pub fn judge_move(&self, m: Move) -> Vec<Step> {
        let c = self.c;
        let mut steps = Vec::new();
        let name = self.kind_name(m.from);
        let (from, to) = (self.square_name(m.from), self.square_name(m.to));
        match m.special {
            Special::Castle { .. } => {
                if let Some(k) = &c.castling {
                    steps.push(Step::allows(
                        k.tag.rule,
                        format!("the {name} on {from} may castle to {to}"),
                    ));
                }
            }
            Special::None if self.region_move_of(m).is_some() => {
                if let Some(rm) = self.region_move_of(m) {
                    let how = match rm.replace {
                        true => format!("where it moves only as `{}`, so it may go to", rm.betza),
                        false => "so it may also go to".into(),
                    };
                    steps.push(Step::allows(
                        rm.tag.rule,
                        format!("the {name} on {from} stands in its region, {how} {to}"),
                    ));
                }
            }
            Special::None if self.first_move_of(m).is_some() => {
                if let Some(fm) = self.first_move_of(m) {
                    steps.push(Step::allows(
                        fm.tag.rule,
                        format!("the {name} on {from} has not moved and may go to {to} on its first move"),
                    ));
                }
            }
            _ => {
                if let Some(k) = c.kind_at(self.board.cell(m.from)) {
                    let capture = self.is_capture(m);
                    steps.push(Step::allows(
                        c.kinds[k].rule(capture),
                        if capture {
                            format!("the {name} may capture from {from} on {to}")
                        } else {
                            format!("the {name} may go from {from} to {to}")
                        },
                    ));
                }
            }
        }
        steps.extend(self.zone_steps(m));
        match m.special {
            Special::Step => {
                if let Some(d) = c.double_steps.first() {
                    steps.push(Step::allows(
                        d.tag.rule,
                        format!("the {name} on {from} may step to {to} at once"),
                    ));
                }
            }
            Special::EnPassant { victim } => {
                if let Some(e) = &c.en_passant {
                    steps.push(Step::allows(
                        e.tag.rule,
                        format!(
                            "the {} on {} just passed {to} and is taken en passant",
                            self.kind_name(victim),
                            self.square_name(victim)
                        ),
                    ));
                }
            }
            _ => {}
        }
        if let (Some(k), Some(p)) = (m.promotion(), c.promotions.first()) {
            steps.push(Step::effect(
                p.tag.rule,
                format!("the {name} becomes a {} on {to}", c.kinds[k].name),
            ));
        }
        let mut next = self.clone();
        next.apply(m);
        let us = self.turn;
        match self.forbidder(m, &next) {
            Some(Forbid::CheckedRoyal) => {
                if let Some(t) = c.checked_royal_captures {
                    steps.push(Step::forbids(
                        t.rule,
                        format!("the {name} on {from} is in check and may move only to capture a piece giving check"),
                    ));
                }
                return steps;
            }
            Some(Forbid::OwnRoyalExploded) => {
                if let Some((t, _)) = c.explosion {
                    steps.push(Step::forbids(
                        t.rule,
                        format!("the capture on {to} would blow up the mover's own royal piece"),
                    ));
                }
                return steps;
            }
            Some(Forbid::Check) if matches!(m.special, Special::Castle { .. }) => {
                if let Some(k) = &c.castling {
                    steps.push(Step::forbids(
                        rule_id(&castling_sub_id(k.tag.rule, CastleBar::ThroughCheck)),
                        format!("the {name} may not land on {to}, an attacked square"),
                    ));
                }
                return steps;
            }
            Some(Forbid::Check) if next.facing_royal(us).is_some() => {
                if let (Some(t), Some((royal, other))) = (c.flying, next.facing_royal(us)) {
                    steps.push(Step::forbids(
                        t.rule,
                        format!(
                            "the {} on {} would face the {} on {} along an open file",
                            next.kind_name(royal),
                            next.square_name(royal),
                            next.kind_name(other),
                            next.square_name(other)
                        ),
                    ));
                }
                return steps;
            }
            Some(Forbid::Check) => {
                if let Some((t, _)) = c.check {
                    steps.push(Step::forbids(t.rule, next.attacked_note(us)));
                }
                return steps;
            }
            Some(Forbid::GivesCheck) => {
                if let Some(t) = c.no_giving_check {
                    steps.push(Step::forbids(
                        t.rule,
                        format!("{}: no move may give check", next.attacked_note(us.other())),
                    ));
                }
                return steps;
            }
            None => {}
        }
        if let Some((t, _)) = c.explosion {
            if self.is_capture(m) {
                steps.push(Step::effect(
                    t.rule,
                    format!("the capture on {to} blows up the pieces around it"),
                ));
            }
        }
        if let Some((t, _)) = c.check {
            steps.push(Step::allows(
                t.rule,
                format!("no royal piece of {us} is left attacked"),
            ));
        }
        if let Some(t) = c.no_giving_check {
            steps.push(Step::allows(t.rule, "the move gives no check"));
        }
        if let Some(t) = c.compulsory_capture {
            if !self.is_capture(m) {
                let mut legal = Vec::new();
                self.legal_moves(&mut legal);
                if let Some(cap) = legal.into_iter().find(|x| self.is_capture(*x)) {
                    let text = self.describe(cap).text(&c.geometry);
                    steps.push(Step::forbids(
                        t.rule,
                        format!("a capture is possible ({text}), so the move must capture"),
                    ));
                    return steps;
                }
                steps.push(Step::allows(t.rule, "no capture is possible"));
            } else {
                steps.push(Step::allows(t.rule, "the move captures"));
            }
        }
        steps
    }

    /// `the move would leave the king on e1 attacked by the rook on e8`, for `color`'s
    /// attacked royal piece in this (played) position.
    fn attacked_note(&self, color: Color) -> String {
        let c = self.c;
        for royal in self.royals(color) {
            if !self.attacked(royal, color.other()) {
                continue;
            }
            let them = color.other();
            let by = c.tables[them.index()]
                .attacker(
                    &self.board,
                    royal,
                    |a| {
                        c.kind_at(a.code).is_none_or(|k| {
                            c.zone_admits(&self.board, k, them, a.from, royal, true)
                        })
                    },
                    |_, _| false,
                )
                .map(|a| {
                    format!(
                        " by the {} on {}",
                        self.kind_name(a.from),
                        self.square_name(a.from)
                    )
                })
                .unwrap_or_default();
            return format!(
                "the move would leave the {} on {} attacked{by}",
                self.kind_name(royal),
                self.square_name(royal)
            );
        }
        format!("the move would leave a royal piece of {color} attacked")
    }

    /// The steps for a written turn: those of the generated move that gets furthest, or the
    /// component that generates no move the pattern names.
    pub fn judge(&self, pattern: &TurnPattern) -> Vec<Step> {
        let action = match pattern {
            TurnPattern::Actions { actions, .. } if actions.len() == 1 => &actions[0],
            TurnPattern::Actions { actions, .. } => {
                return vec![Step::forbids(
                    rule_id("turn-length"),
                    format!(
                        "a turn of this game is exactly one move; this turn has {} actions",
                        actions.len()
                    ),
                )]
            }
            _ => {
                return vec![Step::forbids(
                    rule_id("no-such-action"),
                    "a turn of this game is one move",
                )]
            }
        };
        let mut pseudo = Vec::new();
        let mut bars = [None; 2];
        if let ActionPattern::Castle(side) = action {
            let want = u8::from(*side == CastleSide::King);
            self.castlings_judged(&mut pseudo, |s, bar| {
                if bars[s as usize].is_none() {
                    bars[s as usize] = Some(bar);
                }
            });
            let Some(k) = &self.c.castling else {
                return vec![Step::forbids(
                    rule_id("no-such-action"),
                    "this game has no castling",
                )];
            };
            let found: Vec<Move> = pseudo
                .iter()
                .copied()
                .filter(|m| pattern.matches(&self.describe(*m)))
                .collect();
            if found.is_empty() {
                let bar = bars[want as usize].unwrap_or(CastleBar::Blocked);
                let note = castle_note(bar);
                return vec![Step::forbids(
                    rule_id(&castling_sub_id(k.tag.rule, bar)),
                    note,
                )];
            }
            return self.furthest(found);
        }
        let MoveShape::Straight(sm) = action.shape() else {
            return vec![Step::forbids(
                rule_id("no-such-action"),
                "a move of this game goes straight to its destination",
            )];
        };
        let g = &self.c.geometry;
        let froms = match origins(&self.board, g, self.turn, sm.kind, sm.from) {
            Ok(f) => f,
            Err(r) => return vec![Step::forbids(rule_id(r.rule), r.reason)],
        };
        self.pseudo_moves(&mut pseudo);
        let to = Sq::of(sm.to);
        let mut best: Option<Vec<Step>> = None;
        // How far the best one's atoms got, for an invented piece ([`Position::design_landing`]).
        let mut landed = 0;
        for from in froms.into_iter().map(Sq::of) {
            let name = self.kind_name(from);
            let (f, t) = (self.square_name(from), self.square_name(to));
            let onto: Vec<Move> = pseudo
                .iter()
                .copied()
                .filter(|m| {
                    m.from == from
                        && (m.to == to
                            || matches!(m.special, Special::Castle { rook, .. } if rook == to))
                })
                .collect();
            let steps = if onto.is_empty() {
                vec![self.unreached(from, to, sm.capture, &bars_of(self))]
            } else {
                let found: Vec<Move> = onto
                    .iter()
                    .copied()
                    .filter(|m| pattern.matches(&self.describe(*m)))
                    .collect();
                if found.is_empty() {
                    let captures = self.is_capture(onto[0]);
                    let mark = mark_refusal(g, from.square(), to.square(), sm.capture, captures);
                    let p = self.c.promotions.first();
                    match (mark, onto.iter().any(|m| m.promo > 0), p) {
                        (Some(r), _, _) => vec![Step::forbids(rule_id(r.rule), r.reason)],
                        (None, true, Some(p)) => vec![Step::forbids(p.tag.rule, format!("the {name} reaching {t} must become one of the kinds the promotion rule names, as written"))],
                        _ => vec![Step::forbids(self.c.kind_at(self.board.cell(from)).map_or("no-such-action", |k| self.c.kinds[k].rule(captures)), format!("the {name} cannot go from {f} to {t} as written"))],
                    }
                } else {
                    self.furthest(found)
                }
            };
            // Of several invented pieces refused alike, the one whose atom gets furthest.
            let got = match onto.is_empty() {
                true => self.design_landing(from, to).map_or(0, |(n, _)| n),
                false => 0,
            };
            let further = |b: &Vec<Step>| (progress(&steps), got) > (progress(b), landed);
            if best.as_ref().is_none_or(further) {
                landed = got;
                best = Some(steps);
            }
        }
        let best = best.unwrap_or_default();
        // An invented piece one of whose atoms gets there is that piece, refused.
        let moved = landed == 0
            && best.first().is_some_and(|s| {
                s.verdict == StepVerdict::Forbids
                    && self
                        .c
                        .kinds
                        .iter()
                        .any(|k| s.rule == k.move_rule || s.rule == k.capture_rule)
            });
        if moved && !matches!(sm.from, Origin::Exact(_)) {
            let what = crate::rules::refusal::what(self.turn, sm.kind);
            return vec![Step::forbids(
                rule_id("no-such-piece"),
                format!("no {what} can go to {}", g.square_name(sm.to)),
            )];
        }
        best
    }

    /// Why no generated move takes the piece on `from` to `to`: the first component, in the
    /// order they generate, that would have produced it on a board changed just enough.
    fn unreached(&self, from: Sq, to: Sq, capture: bool, bars: &[Option<CastleBar>; 2]) -> Step {
        let c = self.c;
        let name = self.kind_name(from);
        let (f, t) = (self.square_name(from), self.square_name(to));
        let Some(kind) = c.kind_at(self.board.cell(from)) else {
            return Step::forbids(
                rule_id("no-piece-there"),
                format!("there is no piece on {f}"),
            );
        };
        if c.kinds[kind].design.is_some() {
            return self.design_unreached(from, to);
        }
        // The castling king going to its castling square is a castling, barred for a reason.
        if let Some(k) = c.castling.as_ref().filter(|k| k.king == kind) {
            let (a, b) = (from.square(), to.square());
            if a.rank == b.rank && (a.file as i32 - b.file as i32).abs() > 1 {
                for (side, bar) in bars.iter().enumerate() {
                    if b.file == k.king_to[side] && (side == 1) == (b.file > a.file) {
                        let bar = bar.unwrap_or(CastleBar::Blocked);
                        return Step::forbids(
                            rule_id(&castling_sub_id(k.tag.rule, bar)),
                            castle_note(bar),
                        );
                    }
                }
            }
        }
        // With an enemy piece on the target (never one of the mover's), would it get there?
        let them = self.turn.other();
        let reaches = |pos: &Position| {
            let mut pseudo = Vec::new();
            pos.pseudo_moves(&mut pseudo);
            pseudo.iter().any(|m| m.from == from && m.to == to)
        };
        let mut target = self.clone();
        target.board.put(to.square(), Some(c.piece(them, kind)));
        let own_target = self.mine_at(to);
        if own_target && reaches(&target) {
            return Step::forbids(
                rule_id("own-piece-on-target"),
                format!("{t} holds a piece of {}", self.turn),
            );
        }
        // A movement set aside in a region, or a square a zone component bars.
        if let Some(step) = self.zone_refusal(kind, from, to) {
            return step;
        }
        // On a board with only the mover (and the target), would it get there?
        let mut bare = self.clone();
        for sq in c.squares.iter().copied() {
            if sq != from && sq != to {
                bare.board.put(sq.square(), None);
            }
        }
        if self.board.cell(to) != crate::rules::board::cell::EMPTY {
            bare.board.put(to.square(), Some(c.piece(them, kind)));
        }
        if !own_target && reaches(&bare) {
            return blocked_step(&name, &f, &t);
        }
        let empty = self.board.cell(to) == crate::rules::board::cell::EMPTY;
        if let Some(e) = c.en_passant.as_ref().filter(|e| e.kinds.has(kind)) {
            let mut ep = self.clone();
            ep.board.put(to.square(), Some(c.piece(them, kind)));
            if capture && empty && self.could_have_passed(to) && reaches(&ep) {
                return Step::forbids(e.tag.rule, format!("no piece passed over {t} on the last move, so the {name} cannot take en passant there"));
            }
        }
        // A move the piece's movement makes, out of the region it is confined to.
        if let Some(Some((tag, region))) = c.confined.get(kind) {
            if !region[self.turn.index()].has(to) && self.movement_reaches(kind, from, to) {
                return Step::forbids(
                    tag.rule,
                    format!("the {name} may not leave its region: {t} is outside it"),
                );
            }
        }
        // A first move the piece would make, but whose right is gone (or barred by check).
        if let Some(fm) = c
            .first_moves
            .iter()
            .find(|fm| fm.kinds.has(kind) && self.first_move_reaches(fm, from, to))
        {
            return Step::forbids(
                fm.tag.rule,
                if self.gated(from) {
                    format!("the {name} on {f} may not make its first move to {t} now")
                } else {
                    format!(
                        "the {name} on {f} has no first move left: it has moved, or lost the right"
                    )
                },
            );
        }
        let captures = capture || self.board.piece_at(to).is_some_and(|p| p.color() == them);
        Step::forbids(
            c.kinds[kind].rule(captures),
            if captures {
                format!("the {name} cannot capture from {f} on {t}")
            } else {
                format!("the {name} cannot go from {f} to {t}")
            },
        )
    }

    /// The first-move component that generates `m`, when the piece's own movement does not
    /// make it.
    fn first_move_of(&self, m: Move) -> Option<&'static super::compile::FirstMove> {
        let c = self.c;
        let kind = c.kind_at(self.board.cell(m.from))?;
        let us = self.turn;
        let mut own = false;
        crate::rules::movement::destinations(
            &c.kinds[kind].movement,
            &self.board,
            m.from,
            us,
            |code| crate::rules::piece::Piece::from_code(code).is_some_and(|p| p.color() != us),
            |to, _| own |= to == m.to,
        );
        if own {
            return None;
        }
        c.first_moves
            .iter()
            .find(|fm| fm.kinds.has(kind) && self.first_move_reaches(fm, m.from, m.to))
            .filter(|_| self.gated(m.from))
    }

    /// Under `flying-royals`: a royal piece of `color` and the opposing royal piece it faces
    /// along an open file, if there is one.
    fn facing_royal(&self, color: Color) -> Option<(Sq, Sq)> {
        let c = self.c;
        c.flying?;
        let g = &c.geometry;
        for royal in self.royals(color) {
            let s = royal.square();
            for dir in [1i32, -1] {
                let mut rank = s.rank as i32 + dir;
                while (0..g.ranks as i32).contains(&rank) {
                    let sq = Sq::of(crate::rules::board::Square::new(s.file, rank as u8));
                    if let Some(p) = self.board.piece_at(sq) {
                        let royal_kind = c
                            .kind_at(self.board.cell(sq))
                            .is_some_and(|k| c.royal.has(k));
                        if p.color() != color && royal_kind {
                            return Some((royal, sq));
                        }
                        break;
                    }
                    rank += dir;
                }
            }
        }
        None
    }

    /// Whether the movement of `kind` takes the piece on `from` to `to` on this board,
    /// whatever region it is confined to.
    fn movement_reaches(&self, kind: usize, from: Sq, to: Sq) -> bool {
        let us = self.turn;
        let mut reaches = false;
        crate::rules::movement::destinations(
            &self.c.kinds[kind].movement,
            &self.board,
            from,
            us,
            |code| crate::rules::piece::Piece::from_code(code).is_some_and(|p| p.color() != us),
            |t, _| reaches |= t == to,
        );
        reaches
    }

    /// The region-move component that generates `m`, when the piece's own movement does not.
    fn region_move_of(&self, m: Move) -> Option<&'static super::compile::RegionMove> {
        let c = self.c;
        let kind = c.kind_at(self.board.cell(m.from))?;
        let us = self.turn;
        if c.replaced(kind, us, m.from).is_none() && self.movement_reaches(kind, m.from, m.to) {
            return None;
        }
        c.region_moves.iter().find(|rm| {
            if !rm.kinds.has(kind) || !rm.region[us.index()].has(m.from) {
                return false;
            }
            let mut reaches = false;
            crate::rules::movement::destinations(
                &rm.movement,
                &self.board,
                m.from,
                us,
                |code| crate::rules::piece::Piece::from_code(code).is_some_and(|p| p.color() != us),
                |t, _| reaches |= t == m.to,
            );
            reaches
        })
    }

    /// Whether the piece on `from` still has its first-move right.
    fn gated(&self, from: Sq) -> bool {
        let s = from.square();
        let first_rank = if self.turn == Color::White {
            0
        } else {
            self.c.geometry.ranks - 1
        };
        s.rank == first_rank && self.gates[self.turn.index()] >> s.file & 1 != 0
    }

    /// Whether first move `fm` takes the piece on `from` to `to`, on this board.
    fn first_move_reaches(&self, fm: &super::compile::FirstMove, from: Sq, to: Sq) -> bool {
        let mut reaches = false;
        crate::rules::movement::destinations(
            &fm.movement,
            &self.board,
            from,
            self.turn,
            |_| false,
            |t, _| reaches |= t == to,
        );
        reaches
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
                .then(|| Sq::of(crate::rules::board::Square::new(s.file, rank as u8)))
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

    /// Why an invented piece on `from` does not go to `to`, as its design's atoms find that
    /// square (rule `invented-piece`).
    fn design_unreached(&self, from: Sq, to: Sq) -> Step {
        let name = self.kind_name(from);
        let (f, t) = (self.square_name(from), self.square_name(to));
        self.design_landing(from, to).map_or_else(
            || {
                Step::forbids(
                    rule_id("invented-piece"),
                    format!("the {name} on {f} moves only as its design says, and {f} to {t} is none of its moves"),
                )
            },
            |(_, step)| step,
        )
    }

    /// How far an atom of the invented piece on `from` gets towards `to` (1: a piece is in the
    /// way, 2: it lands there, and what stands there refuses it), with the step that refuses
    /// it; what stands on the target decides over a piece in the way. `None` where no atom
    /// gets there, or the piece is not an invented one.
    fn design_landing(&self, from: Sq, to: Sq) -> Option<(u8, Step)> {
        let c = self.c;
        let us = self.turn;
        let name = self.kind_name(from);
        let (f, t) = (self.square_name(from), self.square_name(to));
        let kind = c.kind_at(self.board.cell(from))?;
        c.kinds[kind].design?;
        // (how far the atom got: 1 blocked, 2 at the target; the step)
        let mut best: Option<(u8, Step)> = None;
        walk(
            &c.kinds[kind].movement,
            &self.board,
            from,
            us,
            true,
            |sq, landing| {
                if sq != to {
                    return;
                }
                let found = match landing {
                    Landing::Blocked { by } => (
                        1,
                        Step::forbids(
                            rule_id("blocked"),
                            format!(
                                "the {} on {} stands in the way of the {name} from {f} to {t}",
                                self.kind_name(by),
                                self.square_name(by)
                            ),
                        ),
                    ),
                    Landing::Piece { .. } if self.mine_at(to) => (
                        2,
                        Step::forbids(
                            rule_id("own-piece-on-target"),
                            format!("{t} holds a piece of {us}"),
                        ),
                    ),
                    Landing::Piece { .. } => (
                        2,
                        Step::forbids(
                            rule_id("invented-piece"),
                            format!("the {name} on {f} reaches {t} only by an atom that moves without capturing (m), and {t} holds the {}", self.kind_name(to)),
                        ),
                    ),
                    Landing::Empty { .. } => (
                        2,
                        Step::forbids(
                            rule_id("invented-piece"),
                            format!("the {name} on {f} reaches {t} only by an atom that captures (c), and {t} is empty"),
                        ),
                    ),
                };
                if best.as_ref().is_none_or(|(b, _)| found.0 > *b) {
                    best = Some(found);
                }
            },
        );
        best
    }

    fn mine_at(&self, sq: Sq) -> bool {
        self.board
            .piece_at(sq)
            .is_some_and(|p| p.color() == self.turn)
    }

    /// The steps of the candidate that gets furthest (the first, on a tie).
    fn furthest(&self, found: Vec<Move>) -> Vec<Step> {
        let mut best: Option<Vec<Step>> = None;
        for m in found {
            let steps = self.judge_move(m);
            if best.as_ref().is_none_or(|b| progress(&steps) > progress(b)) {
                best = Some(steps);
            }
        }
        best.unwrap_or_default()
    }
}

/// Whether a rule is a piece's movement: a kind's `<name>-move`, or `invented-piece`.
fn castle_note(bar: CastleBar) -> &'static str {
    match bar {
        CastleBar::Rights => {
            "the king or that rook has moved: no castling right is left on that side"
        }
        CastleBar::Blocked => {
            "a square between the king and the rook, or where they go, is occupied"
        }
        CastleBar::OutOfCheck => "the king is in check and may not castle out of it",
        CastleBar::ThroughCheck => "the king would pass over an attacked square",
    }
}

/// Why each side's castling is barred, if it is.
fn bars_of(pos: &Position) -> [Option<CastleBar>; 2] {
    let mut bars = [None; 2];
    pos.castlings_judged(&mut Vec::new(), |s, bar| {
        if bars[s as usize].is_none() {
            bars[s as usize] = Some(bar);
        }
    });
    bars
}

/// How far a judgement got: a legal one furthest, else the steps before the forbidding one.
fn progress(steps: &[Step]) -> usize {
    match steps.iter().position(|s| s.verdict == StepVerdict::Forbids) {
        Some(i) => i,
        None => usize::MAX,
    }
}

use crate::rules::Color;
