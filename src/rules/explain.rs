//! Why a turn is legal or not, rule by rule: what `arbiter explain` prints.
//!
//! A variant says which of its rules judged a turn through two hooks of [`Rules`]:
//! [`Rules::explain_legal`] walks a legal turn through the rules it satisfied, in the order the
//! variant applies them, then the rules behind what it did (captures, flips, triggers);
//! [`Rules::explain_refused`] gives the rules a refused turn passed, then the rule that forbids
//! it (the one [`Rules::refusal`] names) and every other rule that would also forbid it. This
//! module adds what the game knows (a finished game, a check claim, the result after the turn)
//! and, for a refused turn, the legal turns nearest to what was written.

use super::consulted::{self, Asked};
use super::game::{PlayError, Resolved, CHECK_CLAIM};
use super::turn::{written_kind, Action, ActionPattern, Origin, PieceRef, Turn, TurnPattern};
use super::{Game, Options, Outcome, Refusal, Rules};

/// How a rule came out for the turn explained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StepVerdict {
    /// The turn satisfies the rule.
    Allows,
    /// The rule forbids the turn.
    Forbids,
    /// The rule made something happen (a capture, a flip, a rebirth).
    Effect,
}

impl StepVerdict {
    pub fn word(self) -> &'static str {
        match self {
            StepVerdict::Allows => "allows",
            StepVerdict::Forbids => "forbids",
            StepVerdict::Effect => "effect",
        }
    }
}

/// One rule an explanation went through, with a sentence about this turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub rule: &'static str,
    pub verdict: StepVerdict,
    pub note: String,
}

impl Step {
    pub fn allows(rule: &'static str, note: impl Into<String>) -> Step {
        Step {
            rule,
            verdict: StepVerdict::Allows,
            note: note.into(),
        }
    }

    pub fn forbids(rule: &'static str, note: impl Into<String>) -> Step {
        Step {
            rule,
            verdict: StepVerdict::Forbids,
            note: note.into(),
        }
    }

    pub fn effect(rule: &'static str, note: impl Into<String>) -> Step {
        Step {
            rule,
            verdict: StepVerdict::Effect,
            note: note.into(),
        }
    }
}

impl From<Refusal> for Step {
    fn from(r: Refusal) -> Step {
        Step::forbids(r.rule, r.reason)
    }
}

/// What the written turn came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Legal: its canonical text (empty for a resignation or a draw) and the result it
    /// decides, if any.
    Legal {
        turn: String,
        result: Option<Outcome>,
    },
    /// Refused; the steps say by which rules.
    Illegal,
    /// The text names several legal turns (their canonical texts).
    Ambiguous(Vec<String>),
    /// Legal, but the position after it has more turns than one position may list.
    TooManyTurns(usize),
}

/// A legal turn near a refused one, and how it differs from what was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Near {
    pub turn: String,
    pub differs: String,
}

/// Why a turn is legal or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    pub verdict: Verdict,
    /// The rules in the order they judged the turn.
    pub steps: Vec<Step>,
    /// For a refused turn: the legal turns of the same piece or onto the same square.
    pub nearest: Vec<Near>,
    /// Whether the written turn begins with a move (the nearest turns are looked for).
    pub written_move: bool,
}

impl Explanation {
    /// The rule that forbids the turn (the first that does).
    pub fn forbidden_by(&self) -> Option<&Step> {
        self.steps
            .iter()
            .find(|s| s.verdict == StepVerdict::Forbids)
    }

    /// The verdict in a few words, to compare readings: `legal`, `legal, White wins by flip
    /// (rule king-flips-spy)`, `illegal by knight-field`.
    pub fn summary(&self) -> String {
        match &self.verdict {
            Verdict::Legal { result: None, .. } => "legal".to_string(),
            Verdict::Legal {
                result: Some(o), ..
            } => format!("legal, {o}"),
            Verdict::Illegal => match self.forbidden_by() {
                Some(s) => format!("illegal by {}", s.rule),
                None => "illegal".to_string(),
            },
            Verdict::Ambiguous(c) => format!("ambiguous ({})", c.join(", ")),
            Verdict::TooManyTurns(n) => format!("legal, then more than {n} turns"),
        }
    }
}

/// Explains `pattern` in `game`.
pub fn explain<R: Rules>(game: &Game<R>, pattern: &TurnPattern) -> Explanation {
    let g = *game.position().board().geometry();
    let written_move = matches!(pattern.first(), Some(ActionPattern::Move { .. }));
    let refused = |steps: Vec<Step>| Explanation {
        verdict: Verdict::Illegal,
        steps,
        nearest: nearest(game, pattern),
        written_move,
    };
    // Finding the turn lists every legal turn, which asks the readings of every other piece's
    // moves; what this turn asks is recorded by the variant's hooks and by the result.
    let resolved = match consulted::quietly(|| game.resolve(pattern)) {
        Ok(r) => r,
        Err(PlayError::Refused(r)) => {
            // A refusal of the game (over, no draws) or of the position's rules.
            let steps =
                if game.outcome().is_none() && matches!(pattern, TurnPattern::Actions { .. }) {
                    let steps = game.position().explain_refused(pattern);
                    debug_assert_eq!(
                        steps
                            .iter()
                            .find(|s| s.verdict == StepVerdict::Forbids)
                            .map(|s| s.rule),
                        Some(r.rule),
                        "explain_refused agrees with refusal"
                    );
                    if steps.iter().any(|s| s.verdict == StepVerdict::Forbids) {
                        steps
                    } else {
                        vec![r.into()]
                    }
                } else {
                    vec![r.into()]
                };
            return refused(steps);
        }
        Err(PlayError::Ambiguous(c)) => {
            return Explanation {
                verdict: Verdict::Ambiguous(c),
                steps: Vec::new(),
                nearest: Vec::new(),
                written_move,
            }
        }
        Err(PlayError::TooManyTurns(n)) => {
            return Explanation {
                verdict: Verdict::TooManyTurns(n),
                steps: Vec::new(),
                nearest: Vec::new(),
                written_move,
            }
        }
    };
    let mut steps = match &resolved {
        Resolved::Move(m, _) => game.position().explain_legal(*m),
        Resolved::Resign => vec![Step::allows(
            R::resignation_rule(),
            "a player may resign on their turn; the opponent wins",
        )],
        Resolved::Draw => vec![Step::allows(
            R::agreement_rule(),
            "a draw is agreed; the game ends drawn",
        )],
        Resolved::Timeout(o) => vec![Step::effect(o.rule, format!("the time runs out: {o}"))],
    };
    let mut after = game.clone();
    match consulted::quietly(|| after.play(pattern)) {
        Ok(turn) => {
            if let Some(claim) = pattern.claim() {
                steps.push(Step::allows(
                    CHECK_CLAIM,
                    format!("the move claims {}, and it gives it", claim_word(claim)),
                ));
            }
            let text = if turn.actions.is_empty() {
                String::new()
            } else {
                turn.text(&g)
            };
            Explanation {
                verdict: Verdict::Legal {
                    turn: text,
                    result: result_after(&after),
                },
                steps,
                nearest: Vec::new(),
                written_move,
            }
        }
        Err(PlayError::Refused(r)) => {
            // The turn is legal, but what it claims (check, mate) is not so.
            steps.push(r.into());
            refused(steps)
        }
        Err(PlayError::TooManyTurns(n)) => Explanation {
            verdict: Verdict::TooManyTurns(n),
            steps,
            nearest: Vec::new(),
            written_move,
        },
        Err(PlayError::Ambiguous(c)) => Explanation {
            verdict: Verdict::Ambiguous(c),
            steps,
            nearest: Vec::new(),
            written_move,
        },
    }
}

/// The result after the turn. Whether the game goes on asks every reading of the opponent's
/// replies (has it a legal turn at all?); those are not this turn's readings and are not
/// recorded. A result is asked again, recorded: the readings that decide it (a stalemate's
/// value, a win and a loss at once) are this turn's.
fn result_after<R: Rules>(after: &Game<R>) -> Option<Outcome> {
    let result = consulted::quietly(|| after.outcome());
    result.and_then(|_| after.outcome())
}

fn claim_word(claim: super::Claim) -> &'static str {
    match claim {
        super::Claim::Check => "check (+)",
        super::Claim::Mate => "mate (#)",
    }
}

/// At most this many nearest turns are listed.
pub const MAX_NEAREST: usize = 8;

/// The legal turns nearest a refused pattern: those whose first action moves the same kind of
/// piece (or the piece on the written origin), or any piece onto the written square; each
/// with how it differs from the text. The written piece's own turns come first, then other
/// pieces'; within each, by how far from the written square they end, then by text.
pub fn nearest<R: Rules>(game: &Game<R>, pattern: &TurnPattern) -> Vec<Near> {
    let Some(ActionPattern::Move {
        style,
        piece,
        from,
        legs,
        promotion,
    }) = pattern.first()
    else {
        return Vec::new();
    };
    let Some(to) = legs.last().map(|l| l.to) else {
        return Vec::new();
    };
    let kind = written_kind(*style, *piece);
    let g = *game.position().board().geometry();
    let name = |s| g.square_name(s);
    let written_len = match pattern {
        TurnPattern::Actions { actions, .. } => actions.len(),
        _ => 1,
    };
    let mut out = Vec::new();
    // Listing the other turns is not judging this one: their readings are not recorded.
    for (_, turn) in consulted::quietly(|| game.legal_turns()) {
        let Some(Action::Move {
            role,
            design,
            from: f,
            legs: l,
            promotion: p,
            ..
        }) = turn.actions.first()
        else {
            continue;
        };
        let same_kind = match kind {
            None => true,
            Some(PieceRef::Role(r)) => r == *role && design.is_none(),
            Some(PieceRef::Design(d)) => *design == Some(d),
        };
        let dest = l.last().map(|x| x.to);
        let same_origin = matches!(from, Origin::Exact(s) if s == f);
        if !(same_kind || dest == Some(to) || same_origin) {
            continue;
        }
        let mut differs = Vec::new();
        if !same_kind {
            differs.push("it moves another kind of piece".to_string());
        }
        if !from.admits(*f) {
            differs.push(format!("it starts from {}", name(*f)));
        }
        if dest != Some(to) {
            differs.push(format!("it goes to {}", name(dest.unwrap_or(to))));
        } else if l.len() != legs.len()
            || l.iter()
                .zip(legs)
                .any(|(a, b)| a.to != b.to || !b.kind.admits(a.kind))
        {
            differs.push("its path or capture marks differ".to_string());
        }
        let promo_written = promotion.is_some();
        if promo_written != p.is_some() {
            differs.push(if p.is_some() {
                "it promotes".to_string()
            } else {
                "it does not promote".to_string()
            });
        }
        if turn.actions.len() != written_len {
            differs.push(format!(
                "it has {}",
                crate::text::count(turn.actions.len(), "action")
            ));
        }
        if differs.is_empty() {
            differs.push("it is written differently".to_string());
        }
        // The piece written about first: the one on the written origin, or else any piece of
        // the written kind the written origin admits. Its turns onto the written square, then
        // its other turns by how far from it they end; then other pieces onto the square
        // (those of the written kind first), then other pieces of the kind by distance.
        let same_piece = match from {
            Origin::Exact(s) => s == f,
            _ => same_kind && from.admits(*f),
        };
        let onto = dest == Some(to);
        let d = dest.unwrap_or(to);
        let distance = d.file.abs_diff(to.file).max(d.rank.abs_diff(to.rank));
        let rank = match (same_piece, onto, same_kind) {
            (true, true, _) => 0,
            (true, false, _) => 1,
            (false, true, true) => 2,
            (false, true, false) => 3,
            (false, false, _) => 4,
        };
        out.push((
            (rank, distance),
            Near {
                turn: turn.text(&g),
                differs: differs.join("; "),
            },
        ));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.turn.cmp(&b.1.turn)));
    out.dedup_by(|a, b| a.1.turn == b.1.turn);
    out.into_iter().take(MAX_NEAREST).map(|(_, n)| n).collect()
}

/// What another value of one option would make of the turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alternative {
    pub value: &'static str,
    /// The verdict in a few words ([`Explanation::summary`]), or why there is none (the
    /// position cannot be built under that reading).
    pub summary: String,
    pub changes: bool,
}

/// An option the explanation consulted: its value in force and what its other values do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Consulted {
    pub option: &'static str,
    pub value: &'static str,
    /// Set by the scenario, the file or the command line rather than the default.
    pub pinned: bool,
    pub others: Vec<Alternative>,
}

/// The options `asked` names, each with what its other values make of the turn: `again`
/// explains the turn once more under the given options (rebuilding the position, which holds
/// its readings).
pub fn consulted<R: Rules>(
    asked: Asked,
    options: &Options,
    pinned: impl Fn(&str) -> bool,
    summary: &str,
    again: impl Fn(&Options) -> Result<Explanation, String>,
) -> Vec<Consulted> {
    asked
        .options(R::options())
        .into_iter()
        .map(|def| {
            let value = options.get(def.name);
            let others = def
                .values
                .iter()
                .filter(|v| **v != value)
                .map(|v| {
                    let mut other = options.clone();
                    let found = other
                        .set(R::options(), R::name(), def.name, v)
                        .and_then(|()| {
                            // Rebuilding consults options too; that is not this turn's doing.
                            let (e, _) = consulted::during(|| again(&other));
                            e
                        });
                    match found {
                        Ok(e) => {
                            let s = e.summary();
                            Alternative {
                                value: v,
                                changes: s != summary,
                                summary: s,
                            }
                        }
                        Err(why) => Alternative {
                            value: v,
                            summary: format!("no position: {why}"),
                            changes: true,
                        },
                    }
                })
                .collect();
            Consulted {
                option: def.name,
                value,
                pinned: pinned(def.name),
                others,
            }
        })
        .collect()
}

/// The canonical text of a turn, for variants' notes.
pub fn turn_text(turn: &Turn, g: &super::Geometry) -> String {
    turn.text(g)
}
