//! The shared rules engine: one [`Rules`] trait that every variant implements, the [`Variant`]
//! enum that picks one, and the vocabulary they share (rule ids, refusals, outcomes, options,
//! state keys, invariants).

pub mod attacks;
pub mod board;
pub mod catalogue;
pub mod chess;
pub mod consulted;
pub mod csipgs;
pub mod cypher;
pub mod defined;
pub mod design;
pub mod explain;
pub mod game;
pub mod key;
pub mod movement;
pub mod parallel;
pub mod piece;
pub(crate) mod reach;
pub mod refusal;
pub mod resolve;
pub mod search;
pub mod setup_error;
#[cfg(test)]
mod testing;
pub mod turn;
pub mod variants;
#[cfg(test)]
mod violations;
pub mod xpanse;

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

pub use board::{Board, Geometry, Sq, Square};
pub use game::Game;
pub use piece::{Color, Piece, Role};
pub use search::{Budget, Limits, Stop};
pub use setup_error::{SetupError, SetupErrorKind};
pub use turn::{
    Action, ActionPattern, CastleSide, Claim, Leg, LegKind, Origin, PieceRef, Style, Turn,
    TurnPattern,
};
pub use variants::{Variant, VariantInfo, REGISTRY};

/// One enforced rule: a kebab-case id, the clause of the rule text it comes from, the clause's
/// own words and a summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleDef {
    pub id: &'static str,
    pub source: &'static str,
    pub summary: &'static str,
    /// The cited clause quoted from the rule text, word for word; passages from more than one
    /// place are joined by [`QUOTE_GAP`].
    pub quote: &'static str,
}

/// What joins two quoted passages that are not next to each other in the text.
pub const QUOTE_GAP: &str = " [...] ";

/// A [`RuleDef`], for the static catalogues.
pub const fn rule(id: &'static str, source: &'static str, summary: &'static str) -> RuleDef {
    RuleDef {
        id,
        source,
        summary,
        quote: "",
    }
}

impl RuleDef {
    /// The rule with the words of its clause.
    pub const fn quote(self, quote: &'static str) -> RuleDef {
        RuleDef { quote, ..self }
    }
}

/// A reading the rule texts leave open: a named option, its values, the default and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionDef {
    pub name: &'static str,
    pub values: &'static [&'static str],
    pub default: &'static str,
    pub reason: &'static str,
}

/// A piece of variant state that `set` and `expect` can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyDef {
    pub name: &'static str,
    /// Whether the key takes a colour (`prisoners white`).
    pub per_color: bool,
    /// What its values look like.
    pub values: &'static str,
    pub summary: &'static str,
}

/// A property that must hold in every reachable position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvariantDef {
    pub name: &'static str,
    pub summary: &'static str,
}

/// Why a turn is not legal: the rule that forbids it and a sentence about this case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub rule: &'static str,
    pub reason: String,
}

impl Refusal {
    pub fn new(rule: &'static str, reason: impl Into<String>) -> Refusal {
        Refusal {
            rule,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule, self.reason)
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    Checkmate,
    Stalemate,
    Flip,
    Infiltration,
    Coup,
    Repetition,
    Agreement,
    Extinction,
    Challenge,
    KillRule,
    Resignation,
    FiftyMove,
    InsufficientMaterial,
    Timeout,
    NoMove,
    CheckCount,
    BareKing,
    FullBoard,
    /// A piece reached its goal region (a definition's `goal`).
    Goal,
}

impl Reason {
    pub const ALL: [Reason; 19] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::Flip,
        Reason::Infiltration,
        Reason::Coup,
        Reason::Repetition,
        Reason::Agreement,
        Reason::Extinction,
        Reason::Challenge,
        Reason::KillRule,
        Reason::Resignation,
        Reason::FiftyMove,
        Reason::InsufficientMaterial,
        Reason::Timeout,
        Reason::NoMove,
        Reason::CheckCount,
        Reason::BareKing,
        Reason::FullBoard,
        Reason::Goal,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Flip => "flip",
            Reason::Infiltration => "infiltration",
            Reason::Coup => "coup",
            Reason::Repetition => "repetition",
            Reason::Agreement => "agreement",
            Reason::Extinction => "extinction",
            Reason::Challenge => "challenge",
            Reason::KillRule => "kill-rule",
            Reason::Resignation => "resignation",
            Reason::FiftyMove => "fifty-move",
            Reason::InsufficientMaterial => "insufficient-material",
            Reason::Timeout => "timeout",
            Reason::NoMove => "no-move",
            Reason::CheckCount => "check-count",
            Reason::BareKing => "bare-king",
            Reason::FullBoard => "full-board",
            Reason::Goal => "goal",
        }
    }
}

impl FromStr for Reason {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Reason::ALL
            .iter()
            .copied()
            .find(|r| r.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Reason::ALL.iter().map(|r| r.name()).collect();
                format!(
                    "unknown reason `{s}`; reasons: {}{}",
                    names.join(", "),
                    crate::suggest::did_you_mean(s, names.iter().copied())
                )
            })
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a game ended: the winner (none for a draw), why, and the rule that says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: Reason,
    pub rule: &'static str,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{c} wins by {}", self.reason)?,
            None => write!(f, "draw by {}", self.reason)?,
        }
        write!(f, " (rule {})", self.rule)
    }
}

/// The interpretation options in force: every option of the variant has a value.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Options {
    values: BTreeMap<&'static str, &'static str>,
    defs: &'static [OptionDef],
}

impl Options {
    /// The defaults of a catalogue.
    pub fn defaults(defs: &'static [OptionDef]) -> Options {
        Options {
            values: defs.iter().map(|d| (d.name, d.default)).collect(),
            defs,
        }
    }

    /// An option's value as a flag that records each use ([`consulted`]), through `read`.
    pub fn reading<T: Copy>(&self, name: &str, read: impl Fn(&str) -> T) -> consulted::Reading<T> {
        let index = self
            .defs
            .iter()
            .position(|d| d.name == name)
            .unwrap_or_else(|| panic!("option `{name}` is not in the catalogue"));
        consulted::Reading::new(read(self.get(name)), index as u8)
    }

    /// Pins `name` to `value`, checking both against the catalogue.
    pub fn set(
        &mut self,
        defs: &'static [OptionDef],
        variant: &str,
        name: &str,
        value: &str,
    ) -> Result<(), String> {
        let def = defs.iter().find(|d| d.name == name).ok_or_else(|| {
            if defs.is_empty() {
                format!(
                    "unknown option {}; {variant} has no options",
                    chess::quoted(name)
                )
            } else {
                let names: Vec<_> = defs.iter().map(|d| d.name).collect();
                format!(
                    "unknown option {}; options of {variant}: {}{}",
                    chess::quoted(name),
                    names.join(", "),
                    crate::suggest::did_you_mean(name, names.iter().copied())
                )
            }
        })?;
        let v = def.values.iter().find(|v| **v == value).ok_or_else(|| {
            format!(
                "option `{name}` has no value {}; values: {}{}",
                chess::quoted(value),
                def.values.join(", "),
                crate::suggest::did_you_mean(value, def.values.iter().copied())
            )
        })?;
        self.values.insert(def.name, v);
        Ok(())
    }

    /// The value of an option; a name not in the catalogue is a programming error.
    pub fn get(&self, name: &str) -> &'static str {
        match self.values.get(name) {
            Some(v) => v,
            None => panic!("option `{name}` is not in the catalogue"),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
        self.values.iter().map(|(k, v)| (*k, *v))
    }
}

/// A raw position as a scenario describes it, before a variant has checked it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: Board,
    pub turn: Color,
    /// State keys by name and colour (`None` for keys without a colour), as written.
    pub keys: BTreeMap<(String, Option<Color>), String>,
}

impl Setup {
    pub fn empty(geometry: Geometry) -> Setup {
        Setup {
            board: Board::empty(geometry),
            turn: Color::White,
            keys: BTreeMap::new(),
        }
    }
}

/// A variant's rules. Required methods are the hooks a variant supplies; everything built on
/// them (perft, turn resolution, outcomes with history) lives in [`Game`] and [`perft`].
pub trait Rules: Clone + Sized {
    /// The variant's compact move, used by the hot paths.
    type Move: Copy + Eq + fmt::Debug;

    /// What the variant is (its registry entry, [`variants::REGISTRY`], or a definition's).
    fn info() -> &'static VariantInfo;

    /// The variant's name as scenario files write it.
    fn name() -> &'static str {
        Self::info().name
    }

    /// The most legal turns one position may have. A variant whose turn lists can outgrow
    /// memory (ChessXpanse's paths) sets it: its generator stops once it has produced more,
    /// its set-up refuses such a position, and searches and play stop there with
    /// [`Stop::TooManyTurns`] or [`game::PlayError::TooManyTurns`] rather than count a list
    /// cut short.
    const MAX_TURNS: usize = usize::MAX;

    fn rules() -> &'static [RuleDef];
    fn options() -> &'static [OptionDef];
    fn state_keys() -> &'static [KeyDef];
    fn invariants() -> &'static [InvariantDef];

    /// The board for a scenario header's size (`None` when the header gives none).
    fn geometry_for(size: Option<(u8, u8)>) -> Result<Geometry, SetupError>;

    /// The variant's initial position, or why it has none (ChessXpanse publishes no
    /// starting arrays).
    fn start(geometry: Geometry, options: &Options) -> Result<Self, SetupError>;

    /// The one validating constructor: a raw setup becomes a position, or the reason it cannot.
    fn from_setup(setup: &Setup, options: &Options) -> Result<Self, SetupError>;
    fn to_setup(&self) -> Setup;

    fn from_fen(geometry: Geometry, fen: &str, options: &Options) -> Result<Self, SetupError>;
    fn fen(&self) -> String;

    fn board(&self) -> &Board;
    fn turn(&self) -> Color;

    /// Appends every legal move to `out`.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// The number of legal moves; variants may count without generating.
    fn count_legal(&self) -> u64 {
        // One allocation that malloc's per-thread cache serves (at most 1 KiB), instead of a
        // list grown by reallocation at every counted position: on two threads those
        // reallocations went to a shared arena and its lock.
        let mut v = Vec::with_capacity(1024 / std::mem::size_of::<Self::Move>().max(1));
        self.legal_moves(&mut v);
        v.len() as u64
    }

    /// Plays a move that `legal_moves` returned.
    fn play(&mut self, m: Self::Move);

    /// The move as a [`Turn`], for notation and matching.
    fn describe(&self, m: Self::Move) -> Turn;

    /// Whether the side to move is in check; `None` where the variant has no check.
    fn in_check(&self) -> Option<bool>;

    /// An outcome that this position decides by itself (mate, stalemate, flip, ...).
    fn outcome(&self) -> Option<Outcome>;

    /// [`Rules::outcome`] for a caller that has generated the legal moves already and knows
    /// whether there is one: searches ask this at every node, and generating twice would
    /// double their cost.
    fn outcome_with(&self, has_legal_turn: bool) -> Option<Outcome> {
        let _ = has_legal_turn;
        self.outcome()
    }

    /// Why a pattern that matches no legal turn is illegal.
    fn refusal(&self, pattern: &TurnPattern) -> Refusal;

    /// The rules a legal turn was judged by, in the order the variant applies them (whose
    /// turn, the piece's movement, zones and captures, king safety), then the rules behind what
    /// it does (captures, flips, triggers, rebirths), each with a sentence about this turn.
    fn explain_legal(&self, m: Self::Move) -> Vec<explain::Step>;

    /// Why no legal turn matches `pattern`, rule by rule: the rules the turn passed, then the
    /// rule that forbids it (the one [`Rules::refusal`] names) and each other rule that would
    /// also forbid it.
    fn explain_refused(&self, pattern: &TurnPattern) -> Vec<explain::Step> {
        vec![self.refusal(pattern).into()]
    }

    /// The legal turns a written pattern names, sorted by canonical text (several when it is
    /// ambiguous), or why it names none: [`Rules::resolve_in`] among all the legal turns.
    fn resolve(&self, pattern: &TurnPattern) -> Result<Vec<(Self::Move, Turn)>, Refusal> {
        let legal = resolve::LegalTurns::new(self.legal_turns());
        let found = self.resolve_in(pattern, &legal)?;
        if found.is_empty() {
            return Err(self.refusal(pattern));
        }
        Ok(found.into_iter().map(|n| (n.m, n.turn)).collect())
    }

    /// The turns a written pattern names, `legal` being this position's legal turns: the one
    /// resolution that a single turn and each entry of a list go through. Empty when it names
    /// none ([`Rules::refusal`] says why; a list does not ask); an error only for a refusal
    /// found without looking among the turns. The default looks the pattern up in `legal`; a
    /// variant whose turns cannot all be listed (csipgs design changes) resolves what is not
    /// listed itself.
    fn resolve_in(
        &self,
        pattern: &TurnPattern,
        legal: &resolve::LegalTurns<Self::Move>,
    ) -> Result<Vec<resolve::Named<Self::Move>>, Refusal> {
        Ok(legal
            .resolve(pattern)
            .into_iter()
            .map(|i| resolve::Named::listed(legal, i))
            .collect())
    }

    /// The legal moves with their descriptions, sorted by canonical text.
    fn legal_turns(&self) -> Vec<(Self::Move, Turn)> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let g = *self.board().geometry();
        let mut turns: Vec<_> = moves
            .into_iter()
            .map(|m| {
                let t = self.describe(m);
                (t.text(&g), m, t)
            })
            .collect();
        turns.sort_by(|a, b| a.0.cmp(&b.0));
        turns.into_iter().map(|(_, m, t)| (m, t)).collect()
    }

    /// The identity of a position for repetition: equal keys mean the same position.
    fn repetition_key(&self) -> u64;

    /// The rule that draws this position when it has occurred `seen` times (this time
    /// included); `None` where it does not, or the variant has no repetition rule.
    fn repetition_draw(&self, seen: usize) -> Option<&'static str>;

    /// The word a role is named by in this variant: a definition's own piece names.
    fn word_of(role: Role) -> &'static str {
        role.word()
    }

    /// The role a piece's name (`knight`) stands for in this variant.
    fn role_of_word(word: &str) -> Option<Role> {
        Role::from_word(word)
    }

    /// The rule ids for resignation and agreed draws.
    fn resignation_rule() -> &'static str;
    fn agreement_rule() -> &'static str;

    /// Why `draw` is refused, in a variant that has no draws.
    fn draw_refusal() -> Option<Refusal> {
        None
    }

    /// The outcome when the side to move runs out of time (`timeout`), or why the variant
    /// has no such turn.
    fn time_out(&self) -> Result<Outcome, Refusal> {
        Err(Refusal::new(
            "no-such-action",
            format!("{} has no move clock, so no timeouts", Self::name()),
        ))
    }

    /// The game was decided outside the position (a resignation, an agreed draw, a
    /// timeout); a variant whose state depends on the result (ChessXpanse's wars) records it.
    fn declare(&mut self, outcome: Outcome) {
        let _ = outcome;
    }

    /// Reads a state key (already checked against [`Rules::state_keys`]).
    fn state_key(&self, key: &str, color: Option<Color>) -> String;

    /// The two moves of castling on `side` for `color`, the King's then the Rook's, each
    /// `(from, to)` on the squares castling starts from: pictures draw both, a refused
    /// castling included. `None` in a variant without castling.
    fn castling_moves(color: Color, side: CastleSide) -> Option<[(Square, Square); 2]> {
        let _ = (color, side);
        None
    }

    /// Checks a named invariant (already checked against [`Rules::invariants`]) in this
    /// position; the error says what broke.
    fn check_invariant(&self, name: &str) -> Result<(), String>;

    /// [`Rules::check_invariant`] in this position, reached from `before` by the turn `m`: an
    /// invariant about turns (a definition's step `property`) reads what `m` did. By default,
    /// this position alone.
    fn check_invariant_after(
        &self,
        before: &Self,
        m: Self::Move,
        name: &str,
    ) -> Result<(), String> {
        let _ = (before, m);
        self.check_invariant(name)
    }

    /// The names of the zones a square can be in; empty where the variant has none.
    fn zones() -> &'static [&'static str] {
        Self::info().zones
    }

    /// The zone of a square, for variants with zones.
    fn zone(&self, _square: Square) -> Option<&'static str> {
        None
    }

    /// Whether the variant prices piece designs (`expect cost`).
    fn has_costs() -> bool {
        Self::info().designs
    }

    /// The price of a design in Betza notation, for variants with [`Rules::HAS_COSTS`].
    fn cost(_design: &str) -> Result<u64, String> {
        Err(format!("{} has no piece designs to price", Self::name()))
    }

    /// [`Rules::cost`] under the readings of `options` (where a reading changes prices). A
    /// design [`Rules::cost`] prices is priced under every reading.
    fn cost_with(design: &str, options: &Options) -> Result<u64, String> {
        let _ = options;
        Self::cost(design)
    }
}

/// An error when a generator produced more turns than [`Rules::MAX_TURNS`] (its list was cut
/// short, so nothing may be counted or searched from it).
pub fn within_turns<R: Rules>(n: usize) -> Result<(), Stop> {
    if n > R::MAX_TURNS {
        return Err(Stop::TooManyTurns {
            limit: R::MAX_TURNS,
        });
    }
    Ok(())
}

/// Counts the move paths of `depth` turns, with no budget: for tests and benchmarks whose
/// depths are known to be small. Commands and scenarios use [`perft_within`].
pub fn perft<R: Rules>(pos: &R, depth: u32) -> u64 {
    match perft_within(pos, depth, &mut Budget::unlimited()) {
        Ok(n) => n,
        Err(stop) => panic!("perft {depth}: {stop}"),
    }
}

/// Counts the move paths of `depth` turns within a budget. The last ply is counted, not
/// played; every position the generator produces, the counted ones included, spends a node.
pub fn perft_within<R: Rules>(pos: &R, depth: u32, budget: &mut Budget) -> Result<u64, Stop> {
    search::check_depth(depth.into())?;
    perft_inner(pos, depth, budget, &mut move_buffers(depth))
}

/// One move list per remaining depth, reused by every node at that depth: a search allocates
/// its lists once instead of once per node.
pub(crate) fn move_buffers<M>(depth: u32) -> Vec<Vec<M>> {
    (0..=depth).map(|_| Vec::new()).collect()
}

/// `buffers[d]` is the move list of the node being searched at remaining depth `d`.
pub(crate) fn perft_inner<R: Rules, S: search::Spend>(
    pos: &R,
    depth: u32,
    budget: &mut S,
    buffers: &mut [Vec<R::Move>],
) -> Result<u64, Stop> {
    match depth {
        0 => {
            budget.spend(1)?;
            Ok(1)
        }
        1 => {
            let n = pos.count_legal();
            within_turns::<R>(n as usize)?;
            budget.spend(n)?;
            Ok(n)
        }
        _ => {
            let Some((moves, below)) = buffers.split_last_mut() else {
                return perft_inner(pos, depth, budget, &mut move_buffers(depth));
            };
            moves.clear();
            pos.legal_moves(moves);
            within_turns::<R>(moves.len())?;
            budget.spend(moves.len() as u64)?;
            let mut total = 0;
            for &m in moves.iter() {
                let mut next = pos.clone();
                next.play(m);
                total += if depth == 2 {
                    // The depth-1 case in line: most interior nodes are here, and the call
                    // per counted position was measurable.
                    let n = next.count_legal();
                    within_turns::<R>(n as usize)?;
                    budget.spend(n)?;
                    n
                } else {
                    perft_inner(&next, depth - 1, budget, below)?
                };
            }
            Ok(total)
        }
    }
}
