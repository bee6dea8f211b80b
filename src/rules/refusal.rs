//! Refusals read from the generator.
//!
//! A variant's candidate generator sends every candidate turn it considers to a [`Verdicts`]
//! sink, either as legal or tagged with the [`Rejection`] that stops it: the rule id, how far
//! the candidate got ([`Stage`]) and the square that matters to the sentence (a blocker, an
//! attacker). Perft and move lists use sinks that take only the legal turns (`REJECTED =
//! false`, so the tagging compiles away); a refusal uses a sink that keeps the rejected
//! candidates the written turn could mean and reads the rule id from the one that got
//! furthest. Legal turns and refusals then come from the same code and cannot disagree.
//!
//! What the generator never produces, a move its piece's movement cannot make at all, is
//! refused from the movement model ([`crate::rules::movement::Movement::could_reach`]); what
//! concerns only the text (a second action where the variant has none, no piece on the named
//! square) is refused by the variant's wording module before any candidate is looked at.

use super::board::{Board, Geometry, Square};
use super::piece::{Color, Piece};
use super::turn::{Origin, PieceRef};
use super::Refusal;

/// How far a candidate got before a rule stopped it. When a written turn could mean several
/// candidates (a short move that leaves the origin open), the one that got furthest explains
/// the refusal, and ties go to the first in generation order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// The piece's movement cannot go there at all (in this zone).
    Movement,
    /// A piece stands in the way.
    Blocked,
    /// What stands on the target (own piece, a piece that cannot be taken there).
    Target,
    /// The written capture mark disagrees with the move.
    Mark,
    /// The written promotion disagrees with the move.
    Promotion,
    /// The second action of a compound turn.
    Second,
    /// The whole turn, played: king safety, adjacency rules, the result it decides.
    Final,
}

/// Why the generator rejected a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rejection {
    pub rule: &'static str,
    pub stage: Stage,
    /// The square the sentence is about, when there is one beyond the move's own squares.
    pub at: Option<Square>,
}

impl Rejection {
    pub const fn new(rule: &'static str, stage: Stage) -> Rejection {
        Rejection {
            rule,
            stage,
            at: None,
        }
    }

    pub const fn at(rule: &'static str, stage: Stage, square: Square) -> Rejection {
        Rejection {
            rule,
            stage,
            at: Some(square),
        }
    }
}

/// Where a candidate generator sends what it considers.
pub trait Verdicts<M> {
    /// Whether this sink takes rejected candidates; when false the generator skips the work
    /// of finding and tagging them.
    const REJECTED: bool;

    /// A legal turn.
    fn legal(&mut self, m: M);

    /// A candidate and the rule that rejects it.
    fn rejected(&mut self, m: M, why: Rejection) {
        let _ = (m, why);
    }

    /// Whether the sink has taken all it will: a generator whose lists can outgrow memory
    /// stops there ([`crate::rules::Rules::MAX_TURNS`]).
    fn full(&self) -> bool {
        false
    }
}

/// The legal turns only, into a list.
impl<M> Verdicts<M> for Vec<M> {
    const REJECTED: bool = false;

    fn legal(&mut self, m: M) {
        self.push(m);
    }
}

/// Every candidate with its verdict, in generation order.
#[derive(Clone, Debug)]
pub struct Explored<M> {
    pub legal: Vec<M>,
    pub rejected: Vec<(M, Rejection)>,
}

impl<M> Default for Explored<M> {
    fn default() -> Self {
        Explored {
            legal: Vec::new(),
            rejected: Vec::new(),
        }
    }
}

impl<M> Verdicts<M> for Explored<M> {
    const REJECTED: bool = true;

    fn legal(&mut self, m: M) {
        self.legal.push(m);
    }

    fn rejected(&mut self, m: M, why: Rejection) {
        self.rejected.push((m, why));
    }
}

/// The candidate that got furthest (the first of those that got equally far).
pub fn furthest<M, I>(candidates: I) -> Option<(M, Rejection)>
where
    I: IntoIterator<Item = (M, Rejection)>,
{
    let mut best: Option<(M, Rejection)> = None;
    for (m, why) in candidates {
        if best.as_ref().is_none_or(|(_, b)| why.stage > b.stage) {
            best = Some((m, why));
        }
    }
    best
}

/// Keeps the refusal of the candidate that got furthest among a written move's origins (the
/// first of those that got equally far).
pub fn keep_furthest(best: &mut Option<(Stage, Refusal)>, found: (Stage, Refusal)) {
    if best.as_ref().is_none_or(|(b, _)| found.0 > *b) {
        *best = Some(found);
    }
}

/// The refusal of a written move from the best of its `origins`: that candidate's, unless no
/// candidate got past the movement and the move could have come from several squares, when
/// `none_moves` says that no such piece can go there.
pub fn from_best(
    best: Option<(Stage, Refusal)>,
    origins: usize,
    none_moves: impl FnOnce() -> Refusal,
) -> Refusal {
    match best {
        Some((Stage::Movement, r)) if origins == 1 => r,
        Some((Stage::Movement, _)) | None => none_moves(),
        Some((_, r)) => r,
    }
}

/// Why a straight move from `from` to `to` is written wrong: marked as a capture (`capture`)
/// or not, against whether it captures; `None` when the mark is right.
pub fn mark_refusal(
    g: &Geometry,
    from: Square,
    to: Square,
    capture: bool,
    captures: bool,
) -> Option<Refusal> {
    if capture == captures {
        return None;
    }
    let (f, t) = (g.square_name(from), g.square_name(to));
    Some(Refusal::new(
        "capture-mark",
        if capture {
            format!("{f}-{t} captures nothing, so it is written with - rather than x")
        } else {
            format!("{f}x{t} is a capture, so it is written with x rather than -")
        },
    ))
}

/// Whether a piece is of a written kind.
pub fn is_kind(p: Piece, kind: PieceRef) -> bool {
    match kind {
        PieceRef::Role(r) => p.role() == r && p.design().is_none(),
        PieceRef::Design(d) => p.design() == Some(d),
    }
}

fn kind_text(kind: PieceRef) -> String {
    match kind {
        PieceRef::Role(r) => r.to_string(),
        PieceRef::Design(d) => d.to_string(),
    }
}

/// A piece's kind in words: its role (`knight`), or an invented piece's design (`(WD)`).
pub fn piece_text(p: Piece) -> String {
    p.design()
        .map_or_else(|| p.role().to_string(), |d| d.to_string())
}

/// A piece with its colour: `white knight`, `black (WD)`.
pub fn piece_words(p: Piece) -> String {
    format!("{} {}", p.color(), piece_text(p))
}

/// The squares of `turn`'s pieces a written move may start from, in board order, or why it
/// names none: an empty origin square (`no-piece-there`), the other side's piece
/// (`not-your-turn`), or no piece of the named kind there (`no-such-piece`). These concern the
/// text, not the rules, so every variant answers them the same way.
/// `a knight`, `an archer`: the article English puts before a noun phrase.
pub fn with_article(words: &str) -> String {
    let vowel = words
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {words}", if vowel { "an" } else { "a" })
}

pub fn origins(
    board: &Board,
    geometry: &Geometry,
    turn: Color,
    kind: Option<PieceRef>,
    from: Origin,
) -> Result<Vec<Square>, Refusal> {
    if let Origin::Exact(sq) = from {
        let name = geometry.square_name(sq);
        let Some(p) = board.get(sq) else {
            return Err(Refusal::new(
                "no-piece-there",
                format!("there is no piece on {name}"),
            ));
        };
        if p.color() != turn {
            return Err(Refusal::new(
                "not-your-turn",
                format!(
                    "the piece on {name} is {}, and it is {turn}'s turn",
                    p.color()
                ),
            ));
        }
        if let Some(k) = kind.filter(|k| !is_kind(p, *k)) {
            return Err(Refusal::new(
                "no-such-piece",
                format!(
                    "the piece on {name} is {}, not {}",
                    with_article(&piece_text(p)),
                    with_article(&kind_text(k))
                ),
            ));
        }
        return Ok(vec![sq]);
    }
    let found: Vec<Square> = board
        .pieces()
        .filter(|(s, p)| {
            p.color() == turn && kind.is_none_or(|k| is_kind(*p, k)) && from.admits(*s)
        })
        .map(|(s, _)| s)
        .collect();
    if found.is_empty() {
        return Err(Refusal::new(
            "no-such-piece",
            format!("there is no {}{}", what(turn, kind), whence(geometry, from)),
        ));
    }
    Ok(found)
}

/// `white knight`, `white (WD)`, `white piece`.
pub fn what(turn: Color, kind: Option<PieceRef>) -> String {
    match kind {
        Some(k) => format!("{turn} {}", kind_text(k)),
        None => format!("{turn} piece"),
    }
}

/// ` on the b-file`, ` on rank 3`, or nothing.
pub fn whence(geometry: &Geometry, from: Origin) -> String {
    match from {
        Origin::File(f) => format!(" on the {}-file", geometry.file_label(f)),
        Origin::Rank(r) => format!(" on rank {}", geometry.rank_label(r)),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_furthest_candidate_wins_and_ties_keep_the_first() {
        let c = [
            (1, Rejection::new("a", Stage::Target)),
            (2, Rejection::new("b", Stage::Final)),
            (3, Rejection::new("c", Stage::Final)),
            (4, Rejection::new("d", Stage::Movement)),
        ];
        assert_eq!(furthest(c).map(|(m, r)| (m, r.rule)), Some((2, "b")));
        assert_eq!(furthest(Vec::<(u8, Rejection)>::new()), None);
    }

    #[test]
    fn a_list_takes_only_legal_turns() {
        fn generate<V: Verdicts<u8>>(out: &mut V) {
            out.legal(1);
            if V::REJECTED {
                out.rejected(2, Rejection::new("blocked", Stage::Blocked));
            }
            out.legal(3);
        }
        let mut list = Vec::new();
        generate(&mut list);
        assert_eq!(list, [1, 3]);
        let mut all = Explored::default();
        generate(&mut all);
        assert_eq!(all.legal, [1, 3]);
        assert_eq!(all.rejected.len(), 1);
        assert_eq!(all.rejected[0].1.rule, "blocked");
    }
}
