//! A game in progress: a variant's position plus what the position alone does not know (the
//! repetition history, resignations and agreed draws). Turn patterns resolve here.

use std::collections::BTreeMap;

use super::resolve::LegalTurns;
use super::search::{self, Budget, Spend, Stop};
use super::{Claim, Color, Options, Outcome, Reason, Refusal, Rules, Turn, TurnPattern};

/// Rule ids every variant's catalogue has, because this module refuses with them.
pub const GAME_OVER: &str = "game-over";
pub const CHECK_CLAIM: &str = "check-claim";

#[derive(Clone, Debug)]
pub struct Game<R: Rules> {
    position: R,
    history: History,
    declared: Option<Outcome>,
    options: Options,
}

/// What a turn pattern stands for in the current position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved<M> {
    Move(M, Turn),
    Resign,
    Draw,
    /// The side to move ran out of time: the outcome the variant gives it.
    Timeout(Outcome),
}

/// A game's legal turns, indexed, and its result when it is over ([`Game::legal_index`]).
#[derive(Clone, Debug)]
pub struct GameTurns<M> {
    pub legal: LegalTurns<M>,
    pub outcome: Option<Outcome>,
}

/// What a pattern names among indexed legal turns ([`Game::lookup`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup<M> {
    /// One turn: its place among the legal turns when it is one of them, and what it is.
    Found(Option<usize>, Resolved<M>),
    /// Several legal turns: their canonical texts, sorted.
    Ambiguous(Vec<String>),
    /// No legal turn ([`Rules::refusal`] says why).
    None,
}

/// Why a pattern could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// No legal turn matches; the rule that forbids it.
    Refused(Refusal),
    /// Several legal turns match: their canonical texts, sorted.
    Ambiguous(Vec<String>),
    /// The turn leads to a position with more legal turns than one position may have
    /// ([`Rules::MAX_TURNS`]); nothing after it could be answered exactly.
    TooManyTurns(usize),
}

impl<R: Rules> Game<R> {
    pub fn new(position: R, options: Options) -> Game<R> {
        let key = position.repetition_key();
        Game {
            position,
            history: History::new(key),
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

    /// The repetition history, for searches that start from this game.
    pub(crate) fn history(&self) -> &History {
        &self.history
    }

    /// Whether the game was decided outside the position (resignation, agreement, timeout).
    pub(crate) fn is_declared(&self) -> bool {
        self.declared.is_some()
    }

    /// Plays the legal move whose canonical text is exactly `text`, as a search does: no
    /// game-over check and no claim, only the move and the history. This is how a split
    /// search's job reaches its subtree: replaying the turns rebuilds what a FEN may not
    /// carry (the repetition history, a decided result).
    pub fn replay(&mut self, text: &str) -> Result<(), String> {
        let g = *self.position.board().geometry();
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        super::within_turns::<R>(moves.len()).map_err(|stop| stop.to_string())?;
        let mut found = moves
            .into_iter()
            .filter(|&m| self.position.describe(m).text(&g) == text);
        let Some(m) = found.next() else {
            return Err(format!(
                "`{text}` is not a legal turn in {}",
                self.position.fen()
            ));
        };
        if found.next().is_some() {
            return Err(format!(
                "several legal turns are written `{text}` in {}",
                self.position.fen()
            ));
        }
        self.position.play(m);
        self.history.push(self.position.repetition_key());
        Ok(())
    }

    /// Replaces the position (after `set`), keeping the history.
    pub fn replace_position(&mut self, position: R) {
        self.history.replace_last(position.repetition_key());
        self.position = position;
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.declared {
            return Some(o);
        }
        repetition_or(self.position.outcome(), &self.position, &self.history)
    }

    /// The legal turns with their descriptions, sorted by canonical text; none once the game
    /// is over.
    pub fn legal_turns(&self) -> Vec<(R::Move, Turn)> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        self.position.legal_turns()
    }

    fn game_over_refusal(&self, outcome: Outcome) -> Refusal {
        Refusal::new(GAME_OVER, format!("the game is over: {outcome}"))
    }

    /// What a pattern stands for now, or why it cannot be played.
    pub fn resolve(&self, pattern: &TurnPattern) -> Result<Resolved<R::Move>, PlayError> {
        if let Some(settled) = self.settled(pattern, self.outcome()) {
            return settled;
        }
        let legal = LegalTurns::new(self.position.legal_turns());
        match self.lookup_move(pattern, &legal)? {
            Lookup::Found(_, resolved) => Ok(resolved),
            Lookup::Ambiguous(texts) => Err(PlayError::Ambiguous(texts)),
            Lookup::None => Err(PlayError::Refused(self.position.refusal(pattern))),
        }
    }

    /// The legal turns, indexed for [`Game::lookup`], with the game's result (none are legal
    /// once there is one): both are asked once for a whole list.
    pub fn legal_index(&self) -> GameTurns<R::Move> {
        let outcome = self.outcome();
        GameTurns {
            legal: match outcome {
                Some(_) => LegalTurns::default(),
                None => LegalTurns::new(self.position.legal_turns()),
            },
            outcome,
        }
    }

    /// What a pattern stands for among `turns` (this game's [`Game::legal_index`]), resolved
    /// exactly as [`Game::resolve`] resolves it, but without putting a refusal in words when it
    /// names no turn: a list of many entries resolves each in about constant time.
    pub fn lookup(
        &self,
        pattern: &TurnPattern,
        turns: &GameTurns<R::Move>,
    ) -> Result<Lookup<R::Move>, PlayError> {
        match self.settled(pattern, turns.outcome) {
            Some(settled) => settled.map(|r| Lookup::Found(None, r)),
            None => self.lookup_move(pattern, &turns.legal),
        }
    }

    /// What is decided before the legal turns are looked at: a game that is over (`outcome`,
    /// this game's), and the turns that are not moves (resign, draw, timeout).
    fn settled(
        &self,
        pattern: &TurnPattern,
        outcome: Option<Outcome>,
    ) -> Option<Result<Resolved<R::Move>, PlayError>> {
        if let Some(o) = outcome {
            return Some(Err(PlayError::Refused(self.game_over_refusal(o))));
        }
        match pattern {
            TurnPattern::Resign => Some(Ok(Resolved::Resign)),
            TurnPattern::Draw => Some(match R::draw_refusal() {
                Some(r) => Err(PlayError::Refused(r)),
                None => Ok(Resolved::Draw),
            }),
            TurnPattern::Timeout => Some(
                self.position
                    .time_out()
                    .map(Resolved::Timeout)
                    .map_err(PlayError::Refused),
            ),
            TurnPattern::Actions { .. } => None,
        }
    }

    fn lookup_move(
        &self,
        pattern: &TurnPattern,
        legal: &LegalTurns<R::Move>,
    ) -> Result<Lookup<R::Move>, PlayError> {
        let g = *self.position.board().geometry();
        let mut found = self
            .position
            .resolve_in(pattern, legal)
            .map_err(PlayError::Refused)?;
        Ok(match found.len() {
            0 => Lookup::None,
            1 => {
                let n = found.remove(0);
                Lookup::Found(n.listed, Resolved::Move(n.m, n.turn))
            }
            _ => Lookup::Ambiguous(found.iter().map(|n| n.turn.text(&g)).collect()),
        })
    }

    /// Plays a resolved turn.
    pub fn apply(&mut self, resolved: &Resolved<R::Move>) {
        let mover = self.position.turn();
        match resolved {
            Resolved::Move(m, _) => {
                self.position.play(*m);
                self.history.push(self.position.repetition_key());
            }
            Resolved::Resign => self.declare(Outcome {
                winner: Some(mover.other()),
                reason: Reason::Resignation,
                rule: R::resignation_rule(),
            }),
            Resolved::Draw => self.declare(Outcome {
                winner: None,
                reason: Reason::Agreement,
                rule: R::agreement_rule(),
            }),
            Resolved::Timeout(o) => self.declare(*o),
        }
    }

    /// Ends the game outside the position (a resignation, an agreed draw, a timeout), and
    /// tells the position, whose state may depend on it.
    fn declare(&mut self, outcome: Outcome) {
        self.declared = Some(outcome);
        self.position.declare(outcome);
    }

    /// Resolves and plays a pattern, checking a `+` or `#` claim; on error nothing changes.
    pub fn play(&mut self, pattern: &TurnPattern) -> Result<Turn, PlayError> {
        let resolved = self.resolve(pattern)?;
        let mut next = self.clone();
        next.apply(&resolved);
        // A decided position lists no turns; only a declared result needs saying.
        if R::MAX_TURNS != usize::MAX && next.declared.is_none() {
            let mut moves = Vec::new();
            next.position.legal_moves(&mut moves);
            if moves.len() > R::MAX_TURNS {
                return Err(PlayError::TooManyTurns(R::MAX_TURNS));
            }
        }
        if let Some(claim) = pattern.claim() {
            claim_holds(&next.position, claim)?;
        }
        *self = next;
        Ok(match resolved {
            Resolved::Move(_, t) => t,
            _ => Turn {
                actions: Vec::new(),
            },
        })
    }

    /// Whether the claim (`+`, `#`) written with a turn holds after the move `m`, as
    /// [`Game::play`] checks it.
    pub fn claim_after(&self, m: R::Move, claim: Claim) -> Result<(), PlayError> {
        let mut after = self.position.clone();
        after.play(m);
        claim_holds(&after, claim)
    }

    /// Whether `color` can force a win within `turns` of its own turns (repetition ignored).
    /// Searches one more turn at a time, so that a short win is found without searching the
    /// whole depth.
    pub fn can_force_win(
        &self,
        color: Color,
        turns: u32,
        budget: &mut Budget,
    ) -> Result<bool, Stop> {
        search::check_depth(u64::from(turns) * 2)?;
        if let Some(o) = self.outcome() {
            return Ok(o.winner == Some(color));
        }
        for within in 0..=turns {
            if force_win(&self.position, color, within, budget)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The line a forced win takes, once [`Self::can_force_win`] has said there is one: the
    /// attacker plays the turn that wins soonest (the first in the generator's order among
    /// equals) and the defender the reply that holds out longest (likewise), until the game
    /// ends; the turns, and how it ended. `None` if `color` cannot force a win within
    /// `turns`. Each choice is a win search below it, so the line costs a few times the
    /// search that found the win.
    pub fn winning_line(
        &self,
        color: Color,
        turns: u32,
        budget: &mut Budget,
    ) -> Result<Option<Line<R::Move>>, Stop> {
        search::check_depth(u64::from(turns) * 2)?;
        let mut pos = self.position.clone();
        if let Some(o) = self.outcome() {
            return Ok((o.winner == Some(color)).then(|| (Vec::new(), o)));
        }
        let Some(mut left) = fewest_turns(&pos, color, turns, budget)? else {
            return Ok(None);
        };
        let mut line = Vec::new();
        loop {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            if let Some(o) = pos.outcome_with(!moves.is_empty()) {
                return Ok(Some((line, o)));
            }
            let mut best: Option<(R::Move, u32)> = None;
            for &m in &moves {
                let mut next = pos.clone();
                next.play(m);
                let attacker = pos.turn() == color;
                // `within`: the fewest attacker turns from `pos` through `m`.
                let within = if attacker {
                    // Only a win sooner than the best so far can replace it.
                    let cap = match best {
                        None => left.checked_sub(1),
                        Some((_, b)) => b.checked_sub(2),
                    };
                    match cap {
                        Some(cap) => fewest_turns(&next, color, cap, budget)?.map(|w| w + 1),
                        None => None,
                    }
                } else {
                    fewest_turns(&next, color, left, budget)?
                };
                let better = match (within, best) {
                    (Some(w), None) => Some(w),
                    (Some(w), Some((_, b))) if attacker && w < b => Some(w),
                    (Some(w), Some((_, b))) if !attacker && w > b => Some(w),
                    _ => None,
                };
                if let Some(w) = better {
                    best = Some((m, w));
                }
            }
            // A forced win leaves the attacker a winning turn and the defender only losing
            // replies; anything else is a search that disagrees with itself.
            let Some((m, w)) = best else {
                return Ok(None);
            };
            left = if pos.turn() == color { w - 1 } else { w };
            line.push(m);
            pos.play(m);
        }
    }

    /// Why `color` cannot force a win within `turns`: with the attacker to move, each of its
    /// turns in the generator's order and the defender's first reply after which no win is
    /// forced within the turns left (`None` when that turn ends the game); with the defender
    /// to move, its first such reply alone (and no attacker turn). Empty when the game is
    /// over, and when a win can be forced. These are the replies the search itself meets
    /// first, so they cost about what it cost.
    pub fn refutations(
        &self,
        color: Color,
        turns: u32,
        budget: &mut Budget,
    ) -> Result<Vec<Refutation<R::Move>>, Stop> {
        search::check_depth(u64::from(turns) * 2)?;
        let pos = &self.position;
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if self.outcome().is_some() || pos.outcome_with(!moves.is_empty()).is_some() {
            return Ok(Vec::new());
        }
        // The defender's first reply from `at` after which no win is forced within `left`.
        let refute = |at: &R, left: u32, budget: &mut Budget| -> Result<Option<R::Move>, Stop> {
            let mut replies = Vec::new();
            at.legal_moves(&mut replies);
            for r in replies {
                let mut next = at.clone();
                next.play(r);
                if !force_win(&next, color, left, budget)? {
                    return Ok(Some(r));
                }
            }
            Ok(None)
        };
        if pos.turn() != color {
            return Ok(match refute(pos, turns, budget)? {
                Some(r) => vec![(None, Some(r))],
                None => Vec::new(),
            });
        }
        let Some(left) = turns.checked_sub(1) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for m in moves {
            let mut next = pos.clone();
            next.play(m);
            if force_win(&next, color, left, budget)? {
                return Ok(Vec::new());
            }
            let reply = if next.turn() == color {
                None
            } else {
                refute(&next, left, budget)?
            };
            out.push((Some(m), reply));
        }
        Ok(out)
    }

    /// Looks for a position within `depth` turns where the invariant fails; returns the turns
    /// that reach it and what broke. Turns are tried in the generator's order.
    pub fn invariant_violation(
        &self,
        name: &str,
        depth: u32,
        budget: &mut Budget,
    ) -> Result<Option<(Vec<String>, String)>, Stop> {
        search::check_depth(depth.into())?;
        if let Err(e) = self.position.check_invariant(name) {
            return Ok(Some((Vec::new(), e)));
        }
        if self.declared.is_some() {
            return Ok(None);
        }
        let mut history = self.history.clone();
        let mut path = Vec::new();
        let Some(broken) =
            invariant_search(&self.position, &mut history, name, depth, budget, &mut path)?
        else {
            return Ok(None);
        };
        let geometry = *self.position.board().geometry();
        let mut pos = self.position.clone();
        let mut texts = Vec::with_capacity(path.len());
        for m in path {
            texts.push(pos.describe(m).text(&geometry));
            pos.play(m);
        }
        Ok(Some((texts, broken)))
    }
}

/// Whether a claim holds in the position after the turn. A mate is the position's own
/// outcome (a repetition never overrides one), so the game's history is not needed.
fn claim_holds<R: Rules>(after: &R, claim: Claim) -> Result<(), PlayError> {
    let check = after.in_check();
    let mate = matches!(
        after.outcome(),
        Some(Outcome {
            reason: Reason::Checkmate,
            ..
        })
    );
    let refuse = |s: &str| Err(PlayError::Refused(Refusal::new(CHECK_CLAIM, s)));
    match (claim, check) {
        (_, None) => refuse("the move claims check, but this variant has no check"),
        (Claim::Check, Some(false)) => refuse("the move claims check (+), but it gives no check"),
        (Claim::Mate, _) if !mate => refuse("the move claims mate (#), but it does not mate"),
        _ => Ok(()),
    }
}

/// The repetition keys of the positions a game went through, with how often each occurred, so
/// that asking whether the last one repeats costs a lookup, not a scan of the whole game.
#[derive(Clone, Debug)]
pub(crate) struct History {
    keys: Vec<u64>,
    counts: BTreeMap<u64, usize>,
}

impl History {
    fn new(first: u64) -> History {
        History {
            keys: vec![first],
            counts: BTreeMap::from([(first, 1)]),
        }
    }

    pub(crate) fn push(&mut self, key: u64) {
        self.keys.push(key);
        *self.counts.entry(key).or_insert(0) += 1;
    }

    pub(crate) fn pop(&mut self) {
        if let Some(key) = self.keys.pop() {
            self.uncount(key);
        }
    }

    fn uncount(&mut self, key: u64) {
        if let Some(n) = self.counts.get_mut(&key) {
            *n -= 1;
            if *n == 0 {
                self.counts.remove(&key);
            }
        }
    }

    /// Changes the last position's key (its position was edited).
    fn replace_last(&mut self, key: u64) {
        self.pop();
        self.push(key);
    }

    /// How often the last position has occurred.
    pub(crate) fn seen_last(&self) -> usize {
        self.keys
            .last()
            .and_then(|k| self.counts.get(k))
            .copied()
            .unwrap_or(0)
    }
}

/// The outcome the position decides by itself, or else a draw by repetition if its history
/// makes one.
pub(crate) fn repetition_or<R: Rules>(
    decided: Option<Outcome>,
    position: &R,
    history: &History,
) -> Option<Outcome> {
    if decided.is_some() {
        return decided;
    }
    position
        .repetition_draw(history.seen_last())
        .map(|rule| Outcome {
            winner: None,
            reason: Reason::Repetition,
            rule,
        })
}

/// Whether `color` wins within `turns` of its own turns from `pos` against every defence.
pub(crate) fn force_win<R: Rules, S: Spend>(
    pos: &R,
    color: Color,
    turns: u32,
    budget: &mut S,
) -> Result<bool, Stop> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    super::within_turns::<R>(moves.len())?;
    // A position with no move still costs one, so that every call spends something.
    budget.spend(moves.len().max(1) as u64)?;
    if let Some(o) = pos.outcome_with(!moves.is_empty()) {
        return Ok(o.winner == Some(color));
    }
    let attacker = pos.turn() == color;
    if attacker && turns == 0 {
        return Ok(false);
    }
    for m in moves {
        let mut next = pos.clone();
        next.play(m);
        if attacker {
            if force_win(&next, color, turns - 1, budget)? {
                return Ok(true);
            }
        } else if !force_win(&next, color, turns, budget)? {
            return Ok(false);
        }
    }
    Ok(!attacker)
}

/// A forced win's turns and how the game ends.
pub type Line<M> = (Vec<M>, Outcome);

/// A try of the attacker (none when the defender moves first) and the reply that refutes it
/// (none when the try ends the game or the attacker moves again).
pub type Refutation<M> = (Option<M>, Option<M>);

/// The fewest of its turns, at most `turns`, within which `color` can force a win from `pos`.
fn fewest_turns<R: Rules>(
    pos: &R,
    color: Color,
    turns: u32,
    budget: &mut Budget,
) -> Result<Option<u32>, Stop> {
    for within in 0..=turns {
        if force_win(pos, color, within, budget)? {
            return Ok(Some(within));
        }
    }
    Ok(None)
}

/// Depth-first search for a position where the invariant breaks; `path` ends as the moves
/// that reach it. The history is the repetition history down to `pos`.
pub(crate) fn invariant_search<R: Rules, S: Spend>(
    pos: &R,
    history: &mut History,
    name: &str,
    depth: u32,
    budget: &mut S,
    path: &mut Vec<R::Move>,
) -> Result<Option<String>, Stop> {
    if depth == 0 {
        return Ok(None);
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    super::within_turns::<R>(moves.len())?;
    budget.spend(moves.len() as u64)?;
    let decided = pos.outcome_with(!moves.is_empty());
    if repetition_or(decided, pos, history).is_some() {
        return Ok(None);
    }
    for m in moves {
        let mut next = pos.clone();
        next.play(m);
        path.push(m);
        if let Err(broken) = next.check_invariant_after(pos, m, name) {
            return Ok(Some(broken));
        }
        history.push(next.repetition_key());
        let found = invariant_search(&next, history, name, depth - 1, budget, path)?;
        history.pop();
        if found.is_some() {
            return Ok(found);
        }
        path.pop();
    }
    Ok(None)
}
