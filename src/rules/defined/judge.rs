//! Judging a written turn: the components that generate a move and the ones that forbid it,
//! asked in the order they judge, each giving a [`Step`] with its rule id and a sentence about
//! this turn. The generator ([`Position::pseudo_moves`], [`Position::castlings_judged`]) and
//! the legality test ([`Position::forbidder`]) are the same code the legal moves come from.

use super::position::{CastleBar, Colours, DropBar, Forbid, Move, Position, Special};
use super::zones::Shut;
use crate::rules::board::cell;
use crate::rules::explain::{Step, StepVerdict};
use crate::rules::movement::{walk, Landing};
use crate::rules::refusal::{mark_refusal, origins};
use crate::rules::turn::{ActionPattern, MoveShape, Origin, PieceRef};
use crate::rules::Role;
use crate::rules::{CastleSide, Rules, Sq, TurnPattern};

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
    pub(super) fn square_name(&self, sq: Sq) -> String {
        self.c.geometry.square_name(sq.square())
    }

    pub(super) fn kind_name(&self, sq: Sq) -> String {
        self.c
            .kind_at(self.board.cell(sq))
            .map_or_else(|| "piece".into(), |k| self.c.kinds[k].name.clone())
    }

    /// The steps of one generated move: the components that produced it, then each that
    /// judges it, up to the first that forbids.
    pub fn judge_move(&self, m: Move) -> Vec<Step> {
        let c = self.c;
        let mut steps = Vec::new();
        let name = match m.dropped() {
            Some(k) => c.kinds[k].name.clone(),
            None => self.kind_name(m.from),
        };
        let (from, to) = (self.square_name(m.from), self.square_name(m.to));
        let us = self.turn;
        match m.special {
            Special::Promote => {
                if let (Some(p), Some(k)) = (c.promotions.iter().find(|p| p.as_turn), m.promotion())
                {
                    steps.push(Step::allows(
                        p.tag.rule,
                        format!(
                            "the {name} on {from} may spend the turn promoting, becoming a {} on {to}",
                            c.kinds[k].name
                        ),
                    ));
                }
            }
            Special::Drop { kind } => {
                if let Some(d) = c.drop_component(kind as usize) {
                    steps.push(Step::allows(
                        d.tag.rule,
                        match (d.free, d.release) {
                            (true, _) => format!("a new {name} of {us}'s may be put on {to}"),
                            (_, true) => {
                                format!("a captured {name} of {us}'s may be released onto {to}")
                            }
                            _ => format!("the {name} in {us}'s hand may be dropped on {to}"),
                        },
                    ));
                }
            }
            Special::Pass => {
                if let Some(p) = &c.pass {
                    steps.push(Step::allows(p.tag.rule, "the player may pass"));
                }
            }
            Special::Castle { .. } => {
                if let Some(k) = &c.castling {
                    steps.push(Step::allows(
                        k.tag.rule,
                        format!("the {name} on {from} may castle to {to}"),
                    ));
                }
            }
            Special::Place => {
                if let Some(i) = self.placer(m) {
                    steps.push(self.placement_step(i, m.from, m.to));
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
                        // The region is named as `show` shades it: the zone `<rule id>-<side>`.
                        format!(
                            "the {name} on {from} stands in the zone {}-{us}, {how} {to}",
                            rm.tag.rule
                        ),
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
        if let (Some((k, at)), Some(t)) = (m.gated(), c.gating) {
            steps.push(Step::allows(
                t.rule,
                format!(
                    "the {} from {us}'s hand goes on {}, which the move leaves and which keeps its gating right",
                    c.kinds[k].name,
                    self.square_name(at)
                ),
            ));
        }
        steps.extend(self.zone_steps(m));
        if let (Some((f2, t2)), Some(i), true) = (m.then, self.trigger(m), m.placed) {
            let mut after = self.clone();
            after.apply(Move { then: None, ..m });
            steps.push(after.placement_step(i, f2, t2));
        }
        if let (Some((f2, t2)), false) = (m.then, m.placed) {
            let kind = c.kind_at(self.board.cell(m.from)).unwrap_or(0);
            if let Some(n) = c.opened(kind, us, m.from, m.to).map(|i| &c.no_entries[i]) {
                let mut after = self.clone();
                after.apply(Move { then: None, ..m });
                steps.push(Step::allows(
                    n.tag.rule,
                    format!(
                        "the {name} leaves the region of {} from {from} to {to}, which lets one piece in: the {} from {} to {}",
                        n.tag.rule,
                        after.kind_name(f2),
                        self.square_name(f2),
                        self.square_name(t2)
                    ),
                ));
            }
        }
        steps.extend(self.en_passant_step(m, &name, &from, &to));
        if let (Some(k), Some(p)) = (m.promotion(), c.promotions.first()) {
            steps.push(Step::effect(
                p.tag.rule,
                format!("the {name} becomes a {} on {to}", c.kinds[k].name),
            ));
        }
        let mut next = self.clone();
        next.apply(m);
        if let Some(step) = self.bikjang_step(m) {
            let forbids = step.verdict == StepVerdict::Forbids;
            steps.push(step);
            if forbids {
                return steps;
            }
        }
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
                        k.part(CastleBar::ThroughCheck),
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
            Some(Forbid::DropMate) => {
                if let Some(d) = m.dropped().and_then(|k| c.drop_component(k)) {
                    steps.push(Step::forbids(
                        d.tag.rule,
                        format!(
                            "dropping the {name} on {to} would checkmate, and a drop of it may not"
                        ),
                    ));
                }
                return steps;
            }
            Some(Forbid::DropCheck) => {
                if let Some(d) = m.dropped().and_then(|k| c.drop_component(k)) {
                    let what = match d.release {
                        true => "a released",
                        false => "a dropped",
                    };
                    steps.push(Step::forbids(
                        d.tag.rule,
                        format!(
                            "{}: {what} {name} may not give check",
                            next.attacked_note(us.other())
                        ),
                    ));
                }
                return steps;
            }
            Some(Forbid::PromotionCheck) => {
                if let Some(p) = c.promotions.iter().find(|p| p.as_turn) {
                    steps.push(Step::forbids(
                        p.tag.rule,
                        format!(
                            "{}: a promotion may not give check",
                            next.attacked_note(us.other())
                        ),
                    ));
                }
                return steps;
            }
            // Judged above, by `bikjang_step`.
            Some(Forbid::Bikjang) => return steps,
            Some(Forbid::Contact(k)) => {
                steps.push(self.contact_step(k, m, &next));
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
        if !c.contacts.is_empty() {
            steps.extend(self.contact_effect_step(m, &next));
        }
        if let (Some(b), Some(sq)) = (&c.blocker, m.block) {
            steps.push(Step::allows(
                b.tag.rule,
                format!("the {} goes to {}", b.name, self.square_name(sq)),
            ));
        }
        steps.extend(self.defection_steps(m));
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
        if c.drops.iter().any(|d| d.must) && !self.forced_drop(m) {
            let forcing = self.first_legal(|l| l.iter().copied().find(|x| self.forced_drop(*x)));
            if let Some((drop, text)) = forcing {
                let d = drop.dropped().and_then(|k| c.drop_component(k));
                if let Some(d) = d {
                    steps.push(Step::forbids(
                        d.tag.rule,
                        format!(
                            "{us} has pieces in hand to drop ({text}), so the turn must be a drop"
                        ),
                    ));
                    return steps;
                }
            }
        }
        if let Some(t) = c.compulsory_capture {
            if !self.is_capture(m) {
                let capture = self.first_legal(|l| l.iter().copied().find(|x| self.is_capture(*x)));
                if let Some((_, text)) = capture {
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
        if let (Some(p), true) = (c.pass, m.special == Special::Pass && c.pass_stuck) {
            if let Some((_, text)) = self.first_legal(|l| self.bars_pass(l)) {
                steps.push(Step::forbids(
                    p.tag.rule,
                    format!(
                        "{us} has a legal turn ({text}), and only a player without one may pass"
                    ),
                ));
                return steps;
            }
            steps.push(Step::allows(
                p.tag.rule,
                format!("{us} has no other legal turn"),
            ));
        }
        if let Some((t, _)) = c.flip {
            let turned: Vec<String> = c
                .squares
                .iter()
                .filter(|&&sq| {
                    self.board.piece_at(sq).is_some_and(|p| p.color() != us)
                        && next.board.piece_at(sq).is_some_and(|p| p.color() == us)
                })
                .map(|&sq| self.square_name(sq))
                .collect();
            if !turned.is_empty() {
                steps.push(Step::effect(
                    t.rule,
                    match turned.len() {
                        1 => format!("the piece on {} changes sides", turned[0]),
                        _ => format!("the pieces on {} change sides", turned.join(", ")),
                    },
                ));
            }
        }
        steps
    }

    /// The legal turn `pick` finds among all of them, with its text: the turn a rule that
    /// forces a kind of turn (a drop, a capture, any move rather than a pass) names when it
    /// refuses another.
    fn first_legal(&self, pick: impl FnOnce(&[Move]) -> Option<Move>) -> Option<(Move, String)> {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        pick(&legal).map(|m| (m, self.describe(m).text(&self.c.geometry)))
    }

    /// Under `bikjang`, in a position where the royal pieces face each other: the pass it
    /// allows (even in check), or the move it refuses because they still face each other.
    fn bikjang_step(&self, m: Move) -> Option<Step> {
        let b = self.c.bikjang?;
        let us = self.turn;
        let (royal, other) = self.royals(us).find_map(|sq| {
            super::position::facing_on(self.c, &self.board, sq, us).map(|o| (sq, o))
        })?;
        let (mine, theirs) = (
            format!("{} on {}", self.kind_name(royal), self.square_name(royal)),
            format!("{} on {}", self.kind_name(other), self.square_name(other)),
        );
        if m.special == Special::Pass {
            return Some(Step::allows(
                b.tag.rule,
                format!("the {mine} faces the {theirs}: the player may pass, even in check, and the pass ends the game"),
            ));
        }
        let mut next = self.clone();
        next.apply(m);
        match self.forbidder(m, &next) {
            Some(Forbid::Bikjang) => Some(Step::forbids(
                b.tag.rule,
                format!("the {mine} faces the {theirs}, and would still face it: the player must part them or pass"),
            )),
            _ => Some(Step::allows(
                b.tag.rule,
                format!("the {mine} faced the {theirs}, and the move parts them"),
            )),
        }
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
            // Lines of attack pass over transparent pieces.
            let open = super::position::opened(c, &self.board, royal).map(|(b, _)| b);
            let board = open.as_ref().unwrap_or(&self.board);
            let by = c.tables[them.index()]
                .attacker(
                    board,
                    royal,
                    |a| {
                        c.kind_at(a.code)
                            .is_none_or(|k| c.zone_admits(board, k, them, a.from, royal, true))
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
        match &self.c.blocker {
            Some(b) => self.judge_blocked(b, pattern),
            None => self.judge_one(pattern),
        }
    }

    /// Under `blocker`: a turn is a move, judged as in any game, and then the blocker's
    /// placement (`D@d5`), judged by the blocker component.
    fn judge_blocked(&self, b: &super::compile::Blocker, pattern: &TurnPattern) -> Vec<Step> {
        let TurnPattern::Actions { actions, claim } = pattern else {
            return self.judge_one(pattern);
        };
        let forbidden = |steps: &[Step]| steps.iter().any(|s| s.verdict == StepVerdict::Forbids);
        let how = format!(
            "a turn of this game is a move and then the {}'s placement, as `e2-e4; {}@d5`",
            b.name, b.letter
        );
        let (first, to) = match actions.as_slice() {
            [first, ActionPattern::Drop { piece, to }] => {
                if *piece != PieceRef::Role(Role::Kind(b.letter)) {
                    return vec![Step::forbids(
                        b.tag.rule,
                        format!(
                            "the second action places the {}, written `{}@square`",
                            b.name, b.letter
                        ),
                    )];
                }
                (first, *to)
            }
            [_] => {
                let steps = self.judge_one(pattern);
                if forbidden(&steps) {
                    return steps;
                }
                return vec![Step::forbids(b.tag.rule, how)];
            }
            _ => return vec![Step::forbids(rule_id("turn-length"), how)],
        };
        let single = TurnPattern::Actions {
            actions: vec![first.clone()],
            claim: *claim,
        };
        let steps = self.judge_one(&single);
        if forbidden(&steps) {
            return steps;
        }
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let found = self.matching(legal.iter().copied(), pattern);
        if !found.is_empty() {
            return self.furthest(found);
        }
        // The move is legal, the square is not: say why, after the move's own steps.
        let base = legal
            .into_iter()
            .map(|m| Move { block: None, ..m })
            .find(|m| single.matches(&self.describe(*m)));
        let sq = Sq::of(to);
        let at = self.square_name(sq);
        let reason = match base {
            Some(m) => {
                let mut next = self.clone();
                next.apply(m);
                let mover = self.kind_name(m.from);
                if next.board.is_wall(sq) && self.board.is_wall(sq) && !b.keep {
                    format!("the {} stands on {at} and must move elsewhere", b.name)
                } else if next.board.is_wall(sq) {
                    format!("a {} already stands on {at}", b.name)
                } else if next.board.cell(sq) != crate::rules::board::cell::EMPTY {
                    format!("{at} is not empty after the move")
                } else {
                    format!(
                        "the {mover} cannot send the {} from {} to {at}",
                        b.name,
                        self.square_name(m.to)
                    )
                }
            }
            None => format!("the {} cannot go to {at}", b.name),
        };
        let mut steps = steps;
        steps.push(Step::forbids(b.tag.rule, reason));
        steps
    }

    /// [`Self::judge`] of a turn of one move (or a turn that is no move).
    fn judge_one(&self, pattern: &TurnPattern) -> Vec<Step> {
        let action = match pattern {
            TurnPattern::Actions { actions, .. } if actions.len() == 1 => &actions[0],
            TurnPattern::Actions { actions, .. }
                if actions.len() == 2
                    && self.c.gating.is_some()
                    && matches!(actions[1], ActionPattern::Drop { .. }) =>
            {
                return self.judge_gating(pattern, actions);
            }
            TurnPattern::Actions { actions, claim }
                if actions.len() == 2
                    && !self.c.defections.is_empty()
                    && matches!(actions[1], ActionPattern::Coup { .. }) =>
            {
                return self.judge_defection(pattern, actions, *claim);
            }
            TurnPattern::Actions { actions, .. }
                if actions.len() >= 2
                    && !self.c.infiltrations.is_empty()
                    && actions
                        .iter()
                        .all(|a| matches!(a, ActionPattern::Move { .. })) =>
            {
                return self.judge_infiltration(pattern, actions);
            }
            TurnPattern::Actions { actions, .. }
                if actions.len() >= 2
                    && self.c.opens()
                    && actions
                        .iter()
                        .all(|a| matches!(a, ActionPattern::Move { .. })) =>
            {
                return self.judge_entry(pattern, actions);
            }
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
        if let ActionPattern::Pass = action {
            let Some(p) = &self.c.pass else {
                return vec![Step::forbids(
                    rule_id("no-such-action"),
                    "this game has no passing: a turn is one move",
                )];
            };
            self.pseudo_moves(&mut pseudo);
            let found: Vec<Move> = pseudo
                .into_iter()
                .filter(|m| m.special == Special::Pass)
                .collect();
            if found.is_empty() {
                return vec![Step::forbids(
                    p.tag.rule,
                    "a player with no piece on the board cannot pass",
                )];
            }
            return self.furthest(found);
        }
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
            let found = self.matching(pseudo.iter().copied(), pattern);
            if found.is_empty() {
                let bar = bars[want as usize].unwrap_or(CastleBar::Blocked);
                let note = castle_note(bar);
                return vec![Step::forbids(k.part(bar), note)];
            }
            return self.furthest(found);
        }
        if let ActionPattern::Drop { piece, to } = action {
            return self.judge_drop(pattern, piece, Sq::of(*to));
        }
        if self.c.infiltrations.iter().any(|i| i.alone) {
            let mut placed = Vec::new();
            self.infiltrations(&mut placed, false, None);
            let found = self.matching(
                placed.into_iter().filter(|m| m.special == Special::Place),
                pattern,
            );
            if !found.is_empty() {
                return self.furthest(found);
            }
            // A placement the side would make on a turn of its own but for its one
            // infiltration spent is refused by that, not by the piece's movement; a move the
            // piece's movement makes is judged as that move.
            let us = self.turn;
            for (i, inf) in self.c.infiltrations.iter().enumerate() {
                if !inf.alone || !self.infiltration_spent(i) || !self.stands_on_region(i) {
                    continue;
                }
                let spent = self.placements(i, us).into_iter().map(|(from, to)| Move {
                    special: Special::Place,
                    ..Move::plain(from, to)
                });
                if !self.matching(spent, pattern).is_empty() {
                    let mut moves = Vec::new();
                    self.pseudo_moves(&mut moves);
                    if !self.matching(moves, pattern).is_empty() {
                        break;
                    }
                    return vec![Step::forbids(
                        inf.once_rule,
                        format!("{us} has infiltrated once already, and does so once a game"),
                    )];
                }
            }
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
                match sm
                    .promotion
                    .and_then(|_| self.turn_promotion_refusal(from, to))
                {
                    Some(step) => vec![step],
                    None => vec![self.unreached(from, to, sm.capture, &bars_of(self))],
                }
            } else {
                let found = self.matching(onto.iter().copied(), pattern);
                if found.is_empty() {
                    if let Some(step) = sm.capture.then(|| self.ep_only_steps(from, to)).flatten() {
                        return vec![step];
                    }
                    // A defection whose piece the turn must name, written without it.
                    let unnamed = onto.iter().copied().find(|&m| {
                        self.names_defector(m)
                            && pattern.matches(&self.describe(Move { turned: None, ..m }))
                    });
                    if let Some(m) = unnamed {
                        return vec![self.choice_refusal(m, None)];
                    }
                    let captures = self.is_capture(onto[0]);
                    let mark = mark_refusal(g, from.square(), to.square(), sm.capture, captures);
                    let kind = self.c.kind_at(self.board.cell(from));
                    let p = self
                        .c
                        .promotions
                        .iter()
                        .find(|p| kind.is_some_and(|k| p.kinds.has(k)))
                        .or(self.c.promotions.first());
                    let promotes = onto.iter().any(|m| m.promo > 0);
                    match (mark, promotes || sm.promotion.is_some(), p) {
                        (Some(r), _, _) => vec![Step::forbids(rule_id(r.rule), r.reason)],
                        (None, true, Some(p)) if !promotes => vec![Step::forbids(p.tag.rule, format!("the {name} may not promote on a move from {f} to {t}: it promotes only on a move that ends in its promotion zone{}", if p.leaving { " or starts there" } else { "" }))],
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
            // The zones hold for invented pieces as for any other.
            if let Some(step) = self.zone_refusal(kind, from, to) {
                return step;
            }
            return self.design_unreached(from, to);
        }
        // The castling king going to its castling square is a castling, barred for a reason.
        if let Some(k) = c.castling.as_ref().filter(|k| k.king == kind) {
            let (a, b) = (from.square(), to.square());
            if a.rank == b.rank && (a.file as i32 - b.file as i32).abs() > 1 {
                for (side, bar) in bars.iter().enumerate() {
                    if b.file == k.king_to[side] && (side == 1) == (b.file > a.file) {
                        let bar = bar.unwrap_or(CastleBar::Blocked);
                        return Step::forbids(k.part(bar), castle_note(bar));
                    }
                }
            }
        }
        // A blocker stands on the target: nothing moves onto it.
        if let Some(b) = c.blocker.as_ref().filter(|_| self.board.is_wall(to)) {
            return Step::forbids(
                b.tag.rule,
                format!("the {} stands on {t}: no piece may move onto it", b.name),
            );
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
        // An enemy piece of its kind there may be one a zone keeps it from taking: the
        // square empty is asked too.
        let empty_target = || {
            let mut empty = self.clone();
            empty.board.put(to.square(), None);
            reaches(&empty)
        };
        // Whether the piece's pattern (its movement and the region's, zones aside) takes it
        // to `to`, empty or holding an enemy piece (`held`): on this board (`bare` false: a
        // piece in the way stops it), or on one with only the mover.
        let pattern = |held: bool, bare: bool| self.pattern_reaches(kind, from, to, held, bare);
        let anyhow = |bare: bool| pattern(true, bare) || pattern(false, bare);
        // Out of the region the piece is confined to, where its movement `reaches`.
        let confined = |reaches: bool| {
            let (tag, region) = c.confined.get(kind).copied().flatten()?;
            (!region[self.turn.index()].has(to) && reaches).then(|| {
                Step::forbids(
                    tag.rule,
                    format!("the {name} may not leave its region: {t} is outside it"),
                )
            })
        };
        // Onto its own piece where it may never stand, the region refuses first.
        let reaches_here = own_target && anyhow(false);
        if reaches_here {
            if let Some(step) = confined(true) {
                return step;
            }
        }
        if own_target && (reaches(&target) || empty_target() || reaches_here) {
            return Step::forbids(
                rule_id("own-piece-on-target"),
                format!("{t} holds a piece of {}", self.turn),
            );
        }
        // A move its movement makes, but that passes over or takes an immune piece.
        if let Some(step) = self.hop_limited(kind, from, to) {
            return step;
        }
        // A movement set aside in a region, or a square a zone component bars.
        if let Some(step) = self.zone_refusal(kind, from, to) {
            return step;
        }
        // On a board with only the mover (and the target), would it get there?
        let mut bare = self.clone();
        bare.board = self.only_piece(from);
        if self.board.cell(to) != crate::rules::board::cell::EMPTY {
            bare.board.put(to.square(), Some(c.piece(them, kind)));
        }
        if !own_target && reaches(&bare) {
            return blocked_step(&name, &f, &t);
        }
        // Its pattern reaches the piece on the target past the pieces between, though a zone
        // would keep it from taking that piece there, or the piece is its own: the path is
        // the first refusal.
        let held = self.board.piece_at(to).is_some();
        if held && anyhow(true) && !anyhow(false) {
            return blocked_step(&name, &f, &t);
        }
        if let Some(step) = self.en_passant_refusal(kind, from, to, capture, reaches) {
            return step;
        }
        // A move the piece's movement makes, out of the region it is confined to.
        if let Some(step) = confined(
            self.movement_reaches(kind, from, to) || pattern(false, true) || pattern(true, true),
        ) {
            return step;
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
        // The movement that reaches the square with it held as it is not refuses by what it
        // does there: a capture-only step onto an empty square, a move-only one onto a piece
        // (the capture's clause says where the piece takes). One that reaches it neither way
        // refuses by the piece's movement.
        if pattern(!held, true) {
            return Step::forbids(
                c.kinds[kind].rule(true),
                if held {
                    format!("the {name} cannot capture from {f} on {t}")
                } else {
                    format!("the {name} goes from {f} to {t} only to capture, and {t} is empty")
                },
            );
        }
        Step::forbids(
            c.kinds[kind].rule(false),
            if capture || held {
                format!("the {name} cannot capture from {f} on {t}")
            } else {
                format!("the {name} cannot go from {f} to {t}")
            },
        )
    }

    /// This board with only the piece on `from`: every other piece, and every blocker (a
    /// board square, unlike a hole), lifted.
    fn only_piece(&self, from: Sq) -> crate::rules::board::Board {
        let mut board = self.board.clone();
        for &sq in &self.c.squares {
            if board.is_wall(sq) {
                board.restore_square(sq.square());
            } else if sq != from {
                board.put(sq.square(), None);
            }
        }
        board
    }

    /// Whether the movement of the side to move's piece of `kind` on `from` (or the one a
    /// `region-move` puts in its place there), with what a `region-move` adds there, takes
    /// it to `to` with `to` empty or, if `held`, holding an enemy piece: on this board, or
    /// (`bare`) on one holding only the mover.
    fn pattern_reaches(&self, kind: usize, from: Sq, to: Sq, held: bool, bare: bool) -> bool {
        let c = self.c;
        let us = self.turn;
        let mut board = if bare {
            self.only_piece(from)
        } else {
            self.board.clone()
        };
        board.put(to.square(), held.then(|| c.piece(us.other(), kind)));
        let region = c
            .region_moves
            .iter()
            .filter(|rm| rm.kinds.has(kind) && rm.region[us.index()].has(from))
            .map(|rm| &rm.movement);
        let own = c
            .replaced(kind, us, from)
            .is_none()
            .then_some(&c.kinds[kind].movement);
        own.into_iter().chain(region).any(|movement| {
            let mut reaches = false;
            crate::rules::movement::destinations(
                movement,
                &board,
                from,
                us,
                |code| crate::rules::piece::Piece::from_code(code).is_some_and(|p| p.color() != us),
                |t, _| reaches |= t == to,
            );
            reaches
        })
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

    /// Under `hop-limit`: the refusal of a move from `from` to `to` that the movement of
    /// `kind` (or a region's) makes but that passes over or takes a piece of an immune kind.
    fn hop_limited(&self, kind: usize, from: Sq, to: Sq) -> Option<Step> {
        let c = self.c;
        let us = self.turn;
        let reaches = self.movement_reaches(kind, from, to)
            || c.region_moves.iter().any(|rm| {
                let mut hit = false;
                if rm.kinds.has(kind)
                    && rm.region[us.index()].has(from)
                    && (!rm.within || rm.region[us.index()].has(to))
                {
                    crate::rules::movement::destinations(
                        &rm.movement,
                        &self.board,
                        from,
                        us,
                        |code| {
                            crate::rules::piece::Piece::from_code(code)
                                .is_some_and(|p| p.color() != us)
                        },
                        |t, _| hit |= t == to,
                    );
                }
                hit
            });
        if !reaches {
            return None;
        }
        let name = self.kind_name(from);
        c.hop_limits
            .iter()
            .filter(|h| h.kinds.has(kind))
            .find_map(|h| {
                let at = super::position::hop_limit_blocker(c, &self.board, h, from, to)?;
                let other = format!("{} on {}", self.kind_name(at), self.square_name(at));
                Some(Step::forbids(
                    h.tag.rule,
                    if at == to {
                        format!("the {name} may not capture the {other}")
                    } else {
                        format!("the {name} may not pass over the {other}")
                    },
                ))
            })
    }

    /// Whether the movement of `kind` takes the piece on `from` to `to` on this board,
    /// whatever region it is confined to.
    fn movement_reaches(&self, kind: usize, from: Sq, to: Sq) -> bool {
        self.reaches_by(&self.c.kinds[kind].movement, from, to)
    }

    /// Whether a `region-move` of the region `from` stands in takes a piece of `kind` there
    /// to `to`.
    fn region_move_reaches(&self, kind: usize, from: Sq, to: Sq) -> bool {
        let us = self.turn;
        self.c.region_moves.iter().any(|rm| {
            rm.kinds.has(kind)
                && rm.region[us.index()].has(from)
                && self.reaches_by(&rm.movement, from, to)
        })
    }

    /// Whether `movement` takes a piece of the side to move from `from` to `to` on this board.
    fn reaches_by(&self, movement: &crate::rules::movement::Movement, from: Sq, to: Sq) -> bool {
        let us = self.turn;
        let mut reaches = false;
        crate::rules::movement::destinations(
            movement,
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

    /// Why a promotion that is a turn of its own does not take the piece on `from` to `to`,
    /// when such a promotion binds its kind.
    fn turn_promotion_refusal(&self, from: Sq, to: Sq) -> Option<Step> {
        let c = self.c;
        let us = self.turn;
        let kind = c.kind_at(self.board.cell(from))?;
        let p = c
            .promotions
            .iter()
            .find(|p| p.as_turn && p.kinds.has(kind))?;
        let name = &c.kinds[kind].name;
        let (f, t) = (self.square_name(from), self.square_name(to));
        let last = self.counts[us.index()][kind] == 1;
        let into = p.targets(kind, us);
        let why = if !last && !p.region[us.index()].has(from) {
            format!("the {name} on {f} is not on a promotion square, nor {us}'s last {name}")
        } else if let Some(&k) = into.iter().find(|&&k| !self.may_promote_into(p, k)) {
            format!(
                "{us} already has as many pieces of the {} as the promotion rule allows",
                c.kinds[k].name
            )
        } else if from != to && self.board.cell(to) != cell::EMPTY {
            format!("the new piece stands where the {name} stood or on an empty square, and {t} is not empty")
        } else {
            format!("the new piece on {t} would be out of its reach from {f}, or would attack an enemy piece there")
        };
        Some(Step::forbids(p.tag.rule, why))
    }

    /// The steps for a written gating turn, a move then a drop: those of the gating move it
    /// names, or the move's own refusal, or why the drop cannot follow it.
    fn judge_gating(&self, pattern: &TurnPattern, actions: &[ActionPattern]) -> Vec<Step> {
        let c = self.c;
        let us = self.turn;
        let mut pseudo = Vec::new();
        self.pseudo_moves(&mut pseudo);
        let found: Vec<Move> =
            self.matching(pseudo.into_iter().filter(|m| m.gated().is_some()), pattern);
        if !found.is_empty() {
            return self.furthest(found);
        }
        let alone = TurnPattern::Actions {
            actions: actions[..1].to_vec(),
            claim: None,
        };
        let mut steps = self.judge(&alone);
        if steps.iter().any(|s| s.verdict == StepVerdict::Forbids) {
            return steps;
        }
        let Some(tag) = c.gating else {
            return steps;
        };
        let ActionPattern::Drop { piece, to } = &actions[1] else {
            return steps;
        };
        let kind = c.kind_of_ref(piece);
        let at = self.square_name(Sq::of(*to));
        let why = match kind {
            Some(k) if self.hand[us.index()][k] == 0 => {
                format!("{us} has no {} in hand", c.kinds[k].name)
            }
            None => format!("{piece} is not a piece of this game"),
            Some(_) => format!(
                "a piece from the hand goes only on a first-rank square that the move leaves \
                 and that keeps its gating right, and {at} is not one"
            ),
        };
        steps.retain(|s| s.verdict != StepVerdict::Allows || s.rule != tag.rule);
        steps.push(Step::forbids(tag.rule, why));
        steps
    }

    /// The steps for a written drop: those of the drop it names, or what stops it.
    fn judge_drop(&self, pattern: &TurnPattern, piece: &PieceRef, to: Sq) -> Vec<Step> {
        let c = self.c;
        let us = self.turn;
        if c.drops.is_empty() {
            return vec![Step::forbids(
                rule_id("no-such-action"),
                "this game has no drops: no piece is ever put on the board from a hand",
            )];
        }
        let kind = c.kind_of_ref(piece);
        let Some(kind) = kind else {
            return vec![Step::forbids(
                rule_id("no-such-piece"),
                format!("{piece} is not a piece of this game, so it is never in a hand"),
            )];
        };
        let name = &c.kinds[kind].name;
        let t = self.square_name(to);
        let Some(d) = c.drop_component(kind) else {
            return vec![Step::forbids(
                rule_id("no-such-action"),
                format!("no drop rule drops the {name}"),
            )];
        };
        let mut pseudo = Vec::new();
        self.drops(&mut pseudo);
        let found = self.matching(
            pseudo
                .into_iter()
                .filter(|m| m.dropped() == Some(kind) && m.to == to),
            pattern,
        );
        if !found.is_empty() {
            return self.furthest(found);
        }
        let held = c.demoted.get(kind).copied().unwrap_or(kind);
        let taken = self.doubled_files(d, held);
        let checked = self.checked_for_drops();
        let bar = self.drop_bar(d, held, kind, to, taken, &Colours::new(self), checked);
        let why = match bar {
            Some(DropBar::NotHeld) if d.release => {
                format!("{us} has no captured {name} to release")
            }
            Some(DropBar::NotHeld) => format!("{us} has no {name} in hand"),
            Some(DropBar::InCheck) if d.release => {
                format!("{us} is in check, and a {name} is not released in check")
            }
            Some(DropBar::InCheck) => {
                format!("{us} is in check, and a {name} is not dropped in check")
            }
            Some(DropBar::Unpromoted) => {
                let held_name = &c.kinds[held].name;
                format!(
                    "a piece in hand is dropped as itself: {us}'s {held_name} goes on as a {held_name}, not promoted as a {name}"
                )
            }
            Some(DropBar::Occupied) if d.release => {
                format!("{t} is occupied: a prisoner is released only onto an empty square")
            }
            Some(DropBar::Occupied) => {
                format!("{t} is occupied: a piece is dropped only on an empty square")
            }
            Some(DropBar::Region) if d.release => {
                format!("{t} is not among the squares where {us} may release a {name}")
            }
            Some(DropBar::Region) => {
                format!("{t} is not among the squares where {us} may drop a {name}")
            }
            Some(DropBar::Doubled) => format!(
                "{us} already has a {name} on the {}-file",
                self.c.geometry.file_label(to.square().file)
            ),
            Some(DropBar::Immobile) => format!("a {name} on {t} could never move again"),
            Some(DropBar::Colours) => format!(
                "a {name} on {t} would leave too few squares of one colour for the pieces in hand that must stand on both"
            ),
            Some(DropBar::Opening) => {
                format!("a square of the opening is still empty, and the first drops go there, not on {t}")
            }
            Some(DropBar::NotNextToOwn) => {
                format!("no piece of {us}'s stands next to {t}")
            }
            Some(DropBar::NotEnclosing) => format!(
                "no line runs from {t} over enemy pieces to a piece of {us}'s, so a drop there encloses nothing"
            ),
            // Every bar is named above; a drop found by none is generated, and judged so.
            None => format!("the {name} may not be dropped on {t} as written"),
        };
        vec![Step::forbids(d.tag.rule, why)]
    }

    fn mine_at(&self, sq: Sq) -> bool {
        self.board
            .piece_at(sq)
            .is_some_and(|p| p.color() == self.turn)
    }

    /// A written turn of two actions against `turns`, the turns of two a component makes: the
    /// steps of those it names, judged as any (`Err`); else the first action's own refusal
    /// (`Err`), or the generated move the first action names (`Ok`), for the component to say
    /// why no second follows it as written.
    fn two_actions(
        &self,
        pattern: &TurnPattern,
        actions: &[ActionPattern],
        turns: Vec<Move>,
    ) -> Result<Move, Vec<Step>> {
        let found: Vec<Move> =
            self.matching(turns.into_iter().filter(|m| m.then.is_some()), pattern);
        if !found.is_empty() {
            return Err(self.furthest(found));
        }
        let first_pattern = TurnPattern::Actions {
            actions: vec![actions[0].clone()],
            claim: None,
        };
        let mut pseudo = Vec::new();
        self.pseudo_moves(&mut pseudo);
        pseudo
            .into_iter()
            .find(|m| first_pattern.matches(&self.describe(*m)))
            .ok_or_else(|| self.judge_one(&first_pattern))
    }

    /// A move and an infiltration after it (`Ke4-e5; Qd2-d10`): the generated turn the
    /// pattern names, judged as any; else the first action's own refusal, or why it opens
    /// no infiltration, or why the second is none (a turn whose first action lets a piece
    /// into a `no-entry` region is an entry's to judge).
    fn judge_infiltration(&self, pattern: &TurnPattern, actions: &[ActionPattern]) -> Vec<Step> {
        let c = self.c;
        let us = self.turn;
        let mut all = Vec::new();
        self.infiltrations(&mut all, false, None);
        let first = match self.two_actions(pattern, actions, all) {
            Ok(first) => first,
            Err(steps) => return steps,
        };
        let name = self.kind_name(first.from);
        let (f, t) = (self.square_name(first.from), self.square_name(first.to));
        let Some(i) = self.trigger(first) else {
            // A first action by a piece that may open a region is an entry's; one by a piece
            // that may only start an infiltration is the infiltration's to refuse.
            let kind = c.kind_at(self.board.cell(first.from));
            let infiltrates = kind.and_then(|k| c.infiltrations.iter().position(|f| f.by.has(k)));
            let opens = kind.is_some_and(|k| c.no_entries.iter().any(|n| n.opened_by.has(k)));
            if c.opens() && (opens || infiltrates.is_none()) {
                return self.judge_entry(pattern, actions);
            }
            let inf = &c.infiltrations[infiltrates.unwrap_or(0)];
            return vec![Step::forbids(
                inf.tag.rule,
                format!(
                    "a second action follows only a {}'s move onto the region of {}, and the {name} from {f} to {t} is none",
                    kind_names(c, inf.by),
                    inf.tag.rule
                ),
            )];
        };
        let inf = &c.infiltrations[i];
        if actions.len() > 2 {
            return vec![Step::forbids(
                rule_id("turn-length"),
                format!(
                    "an infiltration is one placement after the move: a turn has at most two actions, this one has {}",
                    actions.len()
                ),
            )];
        }
        if self.infiltration_spent(i) {
            return vec![Step::forbids(
                inf.once_rule,
                format!("{us} has infiltrated once already, and does so once a game"),
            )];
        }
        let next = match self.trigger_first(first) {
            Ok((_, next)) => next,
            Err(Shut::Contact(k, next)) => return vec![self.contact_step(k, first, &next)],
            Err(_) => {
                return vec![Step::forbids(
                    rule_id("game-over"),
                    format!(
                        "the {name}'s move from {f} to {t} ends the game: no second action follows"
                    ),
                )]
            }
        };
        let targets: Vec<String> = inf.targets.iter().map(|&s| self.square_name(s)).collect();
        // Written as the placement it is but for the mark: a placement captures nothing.
        if let MoveShape::Straight(sm) = actions[1].shape() {
            let to = Sq::of(sm.to);
            let from_ok = |from: Sq| match sm.from {
                Origin::Exact(s) => Sq::of(s) == from,
                _ => true,
            };
            let placement = next
                .placements(i, us)
                .into_iter()
                .find(|&(from, t2)| t2 == to && from_ok(from));
            if let (Some(_), true) = (placement, sm.capture) {
                return vec![Step::forbids(
                    rule_id("capture-mark"),
                    format!(
                        "an infiltration removes what stands on {}, and captures nothing: it is written with `-`",
                        self.square_name(to)
                    ),
                )];
            }
        }
        vec![Step::forbids(
            inf.tag.rule,
            format!(
                "after the {name}'s move onto the region of {}, the second action puts a {} of {us}'s on {}, and this one does not",
                inf.tag.rule,
                kind_names(c, inf.kinds),
                targets.join(" or ")
            ),
        )]
    }

    /// A move and the piece it makes change sides (`e8-e9; coup Nc6`): the generated turn the
    /// pattern names, judged as any; else the move's own refusal, or, the move being one,
    /// why that piece is not the one to name (the `defection`'s part `choice`).
    fn judge_defection(
        &self,
        pattern: &TurnPattern,
        actions: &[ActionPattern],
        claim: Option<crate::rules::turn::Claim>,
    ) -> Vec<Step> {
        let ActionPattern::Coup { square, .. } = &actions[1] else {
            return self.judge_one(pattern);
        };
        let mut pseudo = Vec::new();
        self.pseudo_moves(&mut pseudo);
        let found = self.matching(pseudo.iter().copied(), pattern);
        if !found.is_empty() {
            return self.furthest(found);
        }
        let single = TurnPattern::Actions {
            actions: vec![actions[0].clone()],
            claim,
        };
        let base = pseudo
            .into_iter()
            .find(|m| single.matches(&self.describe(Move { turned: None, ..*m })));
        match base {
            Some(m) => vec![self.choice_refusal(m, Some(Sq::of(*square)))],
            None => self.judge_one(&single),
        }
    }

    /// The moves of `moves` that the written turn `pattern` names.
    fn matching(&self, moves: impl IntoIterator<Item = Move>, pattern: &TurnPattern) -> Vec<Move> {
        moves
            .into_iter()
            .filter(|m| pattern.matches(&self.describe(*m)))
            .collect()
    }

    /// The steps of the candidate that gets furthest (the first, on a tie).
    /// A turn of two moves where a `no-entry` region opens (`opened-by`): the first action
    /// must take an opening piece out of the region, legal by itself but for check and not
    /// ending the game; the second brings one piece in from outside, judged on the board the
    /// first leaves; the turn's end is judged as any turn's.
    fn judge_entry(&self, pattern: &TurnPattern, actions: &[ActionPattern]) -> Vec<Step> {
        let c = self.c;
        let us = self.turn;
        let Some(door) = c.no_entries.iter().find(|n| n.opened_by.0 != 0) else {
            return Vec::new();
        };
        if actions.len() > 2 {
            return vec![Step::forbids(
                door.one_entry,
                format!(
                    "one piece leaving the region of {} lets one piece in: a turn has at most two actions, this one has {}",
                    door.tag.rule,
                    actions.len()
                ),
            )];
        }
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let first = match self.two_actions(pattern, actions, legal) {
            Ok(first) => first,
            Err(steps) => return steps,
        };
        let single = |a: &ActionPattern| TurnPattern::Actions {
            actions: vec![a.clone()],
            claim: None,
        };
        let name = self.kind_name(first.from);
        let (f, t) = (self.square_name(first.from), self.square_name(first.to));
        let (opened, next) = match self.exit(first) {
            Ok(exit) => exit,
            Err(Shut::NoExit) => {
                let openers = kind_names(c, door.opened_by);
                return vec![Step::forbids(
                    door.tag.rule,
                    format!(
                        "a second action enters the region of {} only after a {openers} leaves it, and the {name} from {f} to {t} does not",
                        door.tag.rule
                    ),
                )];
            }
            Err(Shut::Contact(k, next)) => return vec![self.contact_step(k, first, &next)],
            Err(Shut::Ends) => {
                return vec![Step::forbids(
                    rule_id("game-over"),
                    format!(
                        "the {name}'s move from {f} to {t} ends the game: no second action follows"
                    ),
                )]
            }
        };
        let n = &c.no_entries[opened];
        let entries = next.entries(opened, us);
        let mut after = next.clone();
        after.turn = us;
        let second_pattern = single(&actions[1]);
        let plain = |(from, to): (Sq, Sq)| Move::plain(from, to);
        if let Some(&entry) = entries
            .iter()
            .find(|&&e| second_pattern.matches(&after.describe(plain(e))))
        {
            // The entry is made; the turn's end is what refuses it.
            return self.judge_move(Move {
                then: Some(entry),
                ..first
            });
        }
        let mut seconds = Vec::new();
        after.pseudo_moves(&mut seconds);
        let written = seconds
            .into_iter()
            .find(|m| second_pattern.matches(&after.describe(*m)));
        let region = &n.region[us.index()];
        match written {
            Some(m) if !region.has(m.to) || region.has(m.from) => vec![Step::forbids(
                n.tag.rule,
                format!(
                    "the second action must bring a {} from outside the region of {} into it, and the {} from {} to {} does not",
                    kind_names(c, n.kinds),
                    n.tag.rule,
                    after.kind_name(m.from),
                    after.square_name(m.from),
                    after.square_name(m.to)
                ),
            )],
            _ => {
                // An entry by a movement only a region-move gives where the piece stands.
                if let MoveShape::Straight(sm) = actions[1].shape() {
                    if let Origin::Exact(from) = sm.from {
                        let (from, to) = (Sq::of(from), Sq::of(sm.to));
                        let kind = c.kind_at(after.board.cell(from)).filter(|&k| {
                            after.mine_at(from) && n.kinds.has(k) && !region.has(from)
                        });
                        if let Some(kind) = kind.filter(|&k| {
                            region.has(to)
                                && !after.movement_reaches(k, from, to)
                                && after.region_move_reaches(k, from, to)
                        }) {
                            return vec![Step::forbids(
                                n.own_movement,
                                format!(
                                    "a piece enters the region of {} by its own movement, `{}`, and the {} from {} reaches {} only as its region lets it move",
                                    n.tag.rule,
                                    c.betza(kind),
                                    after.kind_name(from),
                                    after.square_name(from),
                                    after.square_name(to)
                                ),
                            )];
                        }
                    }
                }
                let steps = after.judge_one(&second_pattern);
                if steps.iter().any(|s| s.verdict == StepVerdict::Forbids) {
                    steps
                } else {
                    vec![Step::forbids(
                        n.tag.rule,
                        format!(
                            "after the {name}'s move from {f} to {t}, the second action is no entry into the region of {} by a {}",
                            n.tag.rule,
                            kind_names(c, n.kinds)
                        ),
                    )]
                }
            }
        }
    }

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

/// The names of the kinds of `kinds`, joined by `or`.
fn kind_names(c: &super::Compiled, kinds: super::compile::KindSet) -> String {
    let names: Vec<&str> = (0..c.kinds.len())
        .filter(|&k| kinds.has(k))
        .map(|k| c.kinds[k].name.as_str())
        .collect();
    match names.as_slice() {
        [] => "piece".into(),
        [one] => (*one).into(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}
