//! A game in progress: a variant's position plus what the position alone does not know (the
//! repetition history, resignations and agreed draws). Turn patterns resolve here.

use super::{Claim, Color, Options, Outcome, Reason, Refusal, Rules, Turn, TurnPattern};

/// Rule ids every variant's catalogue has, because this module refuses with them.
pub const GAME_OVER: &str = "game-over";
pub const CHECK_CLAIM: &str = "check-claim";

#[derive(Clone, Debug)]
pub struct Game<R: Rules> {
    position: R,
    history: Vec<u64>,
    declared: Option<Outcome>,
    options: Options,
}

/// What a turn pattern stands for in the current position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved<M> {
    Move(M, Turn),
    Resign,
    Draw,
}

/// Why a pattern could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// No legal turn matches; the rule that forbids it.
    Refused(Refusal),
    /// Several legal turns match: their canonical texts, sorted.
    Ambiguous(Vec<String>),
}

impl<R: Rules> Game<R> {
    pub fn new(position: R, options: Options) -> Game<R> {
        let key = position.repetition_key();
        Game {
            position,
            history: vec![key],
            declared: None,
            options,
        }
    }

    pub fn position(&self) -> &R {
        &self.position
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Replaces the position (after `set`), keeping the history.
    pub fn replace_position(&mut self, position: R) {
        if let Some(last) = self.history.last_mut() {
            *last = position.repetition_key();
        }
        self.position = position;
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.declared {
            return Some(o);
        }
        if let Some(o) = self.position.outcome() {
            return Some(o);
        }
        let (limit, rule) = self.position.repetition_limit()?;
        let now = *self.history.last()?;
        let seen = self.history.iter().filter(|k| **k == now).count();
        (seen >= limit).then_some(Outcome {
            winner: None,
            reason: Reason::Repetition,
            rule,
        })
    }

    /// The legal turns with their descriptions, sorted by canonical text; none once the game
    /// is over.
    pub fn legal_turns(&self) -> Vec<(R::Move, Turn)> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        let g = *self.position.board().geometry();
        let mut turns: Vec<_> = moves
            .into_iter()
            .map(|m| {
                let t = self.position.describe(m);
                (t.text(&g), m, t)
            })
            .collect();
        turns.sort_by(|a, b| a.0.cmp(&b.0));
        turns.into_iter().map(|(_, m, t)| (m, t)).collect()
    }

    fn game_over_refusal(&self, outcome: Outcome) -> Refusal {
        Refusal::new(GAME_OVER, format!("the game is over: {outcome}"))
    }

    /// What a pattern stands for now, or why it cannot be played.
    pub fn resolve(&self, pattern: &TurnPattern) -> Result<Resolved<R::Move>, PlayError> {
        if let Some(o) = self.outcome() {
            return Err(PlayError::Refused(self.game_over_refusal(o)));
        }
        match pattern {
            TurnPattern::Resign => return Ok(Resolved::Resign),
            TurnPattern::Draw => return Ok(Resolved::Draw),
            TurnPattern::Actions { .. } => {}
        }
        let g = *self.position.board().geometry();
        let mut found: Vec<(R::Move, Turn)> = self
            .legal_turns()
            .into_iter()
            .filter(|(_, t)| pattern.matches(t))
            .collect();
        match found.len() {
            0 => Err(PlayError::Refused(self.position.refusal(pattern))),
            1 => {
                let (m, t) = found.remove(0);
                Ok(Resolved::Move(m, t))
            }
            _ => Err(PlayError::Ambiguous(
                found.iter().map(|(_, t)| t.text(&g)).collect(),
            )),
        }
    }

    /// Plays a resolved turn.
    pub fn apply(&mut self, resolved: &Resolved<R::Move>) {
        let mover = self.position.turn();
        match resolved {
            Resolved::Move(m, _) => {
                self.position.play(*m);
                self.history.push(self.position.repetition_key());
            }
            Resolved::Resign => {
                self.declared = Some(Outcome {
                    winner: Some(mover.other()),
                    reason: Reason::Resignation,
                    rule: R::resignation_rule(),
                })
            }
            Resolved::Draw => {
                self.declared = Some(Outcome {
                    winner: None,
                    reason: Reason::Agreement,
                    rule: R::agreement_rule(),
                })
            }
        }
    }

    /// Resolves and plays a pattern, checking a `+` or `#` claim; on error nothing changes.
    pub fn play(&mut self, pattern: &TurnPattern) -> Result<Turn, PlayError> {
        let resolved = self.resolve(pattern)?;
        let mut next = self.clone();
        next.apply(&resolved);
        if let Some(claim) = pattern.claim() {
            next.check_claim(claim)?;
        }
        *self = next;
        Ok(match resolved {
            Resolved::Move(_, t) => t,
            _ => Turn {
                actions: Vec::new(),
            },
        })
    }

    fn check_claim(&self, claim: Claim) -> Result<(), PlayError> {
        let check = self.position.in_check();
        let mate = matches!(
            self.outcome(),
            Some(Outcome {
                reason: Reason::Checkmate,
                ..
            })
        );
        let refuse = |s: &str| Err(PlayError::Refused(Refusal::new(CHECK_CLAIM, s)));
        match (claim, check) {
            (_, None) => refuse("the move claims check, but this variant has no check"),
            (Claim::Check, Some(false)) => {
                refuse("the move claims check (+), but it gives no check")
            }
            (Claim::Mate, _) if !mate => refuse("the move claims mate (#), but it does not mate"),
            _ => Ok(()),
        }
    }

    /// Whether `color` can force a win within `turns` of its own turns (repetition ignored).
    pub fn can_force_win(&self, color: Color, turns: u32) -> bool {
        if let Some(o) = self.outcome() {
            return o.winner == Some(color);
        }
        let attacker = self.position.turn() == color;
        if attacker && turns == 0 {
            return false;
        }
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        let after = |m: R::Move| {
            let mut next = self.clone();
            next.position.play(m);
            next.history.clear();
            next.history.push(next.position.repetition_key());
            next
        };
        if attacker {
            moves
                .into_iter()
                .any(|m| after(m).can_force_win(color, turns - 1))
        } else {
            !moves.is_empty()
                && moves
                    .into_iter()
                    .all(|m| after(m).can_force_win(color, turns))
        }
    }

    /// Looks for a position within `depth` turns where the invariant fails; returns the turns
    /// that reach it and what broke.
    pub fn invariant_violation(&self, name: &str, depth: u32) -> Option<(Vec<String>, String)> {
        if let Err(e) = self.position.check_invariant(name) {
            return Some((Vec::new(), e));
        }
        if depth == 0 || self.outcome().is_some() {
            return None;
        }
        for (m, t) in self.legal_turns() {
            let mut next = self.clone();
            next.apply(&Resolved::Move(m, t.clone()));
            if let Some((mut path, e)) = next.invariant_violation(name, depth - 1) {
                path.insert(0, t.text(self.position.board().geometry()));
                return Some((path, e));
            }
        }
        None
    }
}
