//! Why a turn is legal or not in ChessXpanse, rule by rule (see [`crate::rules::explain`]).
//!
//! A legal move is walked through the rules its generator applied: whose turn it is; the
//! piece's movement (a chess piece's move, then no piece in the way and what stands on the
//! target; a Pawn's direction and step or kill; a Magic Piece's path leg by leg, each leg by
//! the rule that allows it, the last one saying why the path ends there, then the bounds on
//! ricochets and revisits); and, as there is no check, whether the move leaves one of the
//! mover's Kings where the opponent could kill it. Then what it did: each kill (a King's by
//! `no-check` too), the Pawn Reborn rules' rebirth or vanishing, the 10 Kill Rule's count, the
//! Challenge, the end of a run of timeouts. A pass gives the pass rule and the same counters.
//!
//! A refused turn gets the rules its decisive candidate passed (the candidate `refuse` reads
//! its refusal from: the same functions, [`refuse::chess_piece`] and [`refuse::judge_path`]
//! over [`next_legs`]), the refusal itself, and every other rule that also forbids the
//! written turn: for a chess piece or a Pawn each independent test of the written move
//! (dormancy, geometry, direction, double step, a piece in the way, its own piece on the
//! target, the written mark); for a Magic Piece every rejection [`next_legs`] gives the leg
//! where the path first goes wrong, and what the leg as the piece would make it forbids (a
//! last ricochet, a landing or a kill written as going on); for what follows a legal move,
//! each way the written rebirth differs from the ones the move brings; for a turn refused
//! by its shape (too many actions, a promotion), whatever refuses the rest of it. Other
//! candidates of a short move add their own refusals, naming the piece.

use super::paths::{next_legs, PathState};
use super::refuse;
use super::*;
use crate::rules::board::between;
use crate::rules::consulted::quietly;
use crate::rules::explain::{Step, StepVerdict};
use crate::rules::refusal::{origins, piece_words};
use crate::rules::turn::{written_kind, ActionPattern, Origin, PieceRef};

/// The opponent's turns looked at to find the Kings a move leaves attacked; past this many
/// the note names only the attacks found so far (the search is for a note, not a verdict).
const HUNT_LIMIT: usize = 100_000;

/// The rules a legal turn satisfied, in the order the variant applies them, then the rules
/// behind what it did.
pub(super) fn legal(pos: &Xpanse, m: Move) -> Vec<Step> {
    let us = pos.turn;
    let mut steps = Vec::new();
    match m.kind {
        MoveKind::Pass => {
            let used = pos.state.passes[us.index()];
            steps.push(Step::allows(
                "pass",
                format!(
                    "{us} has passed {} in this battle, and a player may pass at most {MAX_PASSES} times in one battle",
                    times(used)
                ),
            ));
            steps.push(Step::effect(
                "pass",
                format!(
                    "{us} passes: the move goes to {}, and {us} has {} left",
                    us.other(),
                    count(MAX_PASSES.saturating_sub(used + 1), "pass", "passes")
                ),
            ));
        }
        MoveKind::FreePass => {
            let passes = pos.opts.no_move_passes.get();
            debug_assert!(passes);
            steps.push(Step::allows(
                "no-legal-move",
                format!(
                    "{us} has no legal move and has passed {MAX_PASSES} times already; under no-legal-move = passes the move goes back to {} without using a pass",
                    us.other()
                ),
            ));
        }
        MoveKind::Path => {
            steps.extend(move_allows(pos, m, true));
            steps.extend(move_effects(pos, m));
        }
    }
    steps.extend(counters(pos, m));
    steps
}

// ---------------------------------------------------------------------------------------
// Words.

fn count(n: impl Into<u32>, one: &str, many: &str) -> String {
    crate::text::count_as(n.into(), one, many)
}

fn times(n: u8) -> String {
    count(n, "time", "times")
}

/// `the white rook on a4`.
fn piece_on(pos: &Xpanse, s: Sq) -> String {
    match pos.board.piece_at(s) {
        Some(p) => format!("the {} on {}", piece_words(p), pos.name(s)),
        None => format!("nothing on {}", pos.name(s)),
    }
}

fn is_magic(role: Role) -> bool {
    matches!(role, Role::Gatekeeper | Role::Mage | Role::Archer)
}

fn is_slider(role: Role) -> bool {
    matches!(role, Role::Queen | Role::Rook | Role::Bishop)
}

fn whose_turn(pos: &Xpanse, p: Piece, f: Sq) -> Step {
    let us = pos.turn;
    Step::allows(
        "not-your-turn",
        format!(
            "it is {us}'s turn, and the {} on {} is {}",
            p.role().word(),
            pos.name(f),
            p.color()
        ),
    )
}

/// Along which line a step in direction `dir` from `at` goes.
fn line_words(pos: &Xpanse, at: Sq, dir: (i8, i8)) -> String {
    let g = pos.geometry();
    let a = at.square();
    match dir {
        (0, _) => format!("along the {}-file", g.file_label(a.file)),
        (_, 0) => format!("along rank {}", g.rank_label(a.rank)),
        _ => "along a diagonal".to_string(),
    }
}

// ---------------------------------------------------------------------------------------
// A legal move: the rules it satisfied.

/// The Allows steps of a legal move: whose turn, the movement (leg by leg for a Magic
/// Piece), the path and the target, and with `attack` the `no-check` step.
fn move_allows(pos: &Xpanse, m: Move, attack: bool) -> Vec<Step> {
    let f = Sq(m.from);
    let Some(p) = pos.board.piece_at(f) else {
        return Vec::new();
    };
    let mut out = vec![whose_turn(pos, p, f)];
    let legs: Vec<(Sq, u8)> = m.legs().collect();
    if is_magic(p.role()) {
        let walked = walk_path(pos, p, f, &legs, true);
        out.extend(walked.iter().map(|w| Step::allows(w.rule, w.note.clone())));
        if walked.len() == legs.len() {
            out.extend(path_bounds(pos, p, f, &legs));
        }
    } else if let [(t, kind)] = legs[..] {
        if p.role() == Role::Pawn {
            out.push(pawn_direction(pos, p.color()));
            out.push(Step::allows("pawn-move", pawn_note(pos, f, t, kind)));
            if kind == leg::KILL {
                out.push(target_allows(pos, p, t));
            }
        } else {
            out.push(Step::allows("chess-moves", chess_note(pos, p, f, t)));
            if let Some(s) = clear_path(pos, p, f, t) {
                out.push(s);
            }
            out.push(target_allows(pos, p, t));
        }
    }
    if attack {
        out.extend(no_check(pos, m, p));
    }
    out
}

fn pawn_direction(pos: &Xpanse, c: Color) -> Step {
    let up = pos.state.up[c.index()];
    let dir = if up { "up" } else { "down" };
    let ghost = if up == (c == Color::White) {
        ""
    } else {
        ", Ghost Mode"
    };
    Step::allows(
        "pawn-direction",
        format!(
            "{c}'s pawns move {dir} the board (pawn-direction {c} = {dir}{ghost}): forward is toward rank {}",
            pos.geometry().rank_label(pos.far_rank(c))
        ),
    )
}

fn pawn_note(pos: &Xpanse, f: Sq, t: Sq, kind: u8) -> String {
    if kind == leg::KILL {
        format!(
            "the pawn on {} kills one square diagonally forward, on {}",
            pos.name(f),
            pos.name(t)
        )
    } else {
        format!(
            "the pawn on {} steps one square forward to the empty {}",
            pos.name(f),
            pos.name(t)
        )
    }
}

/// A chess piece's move from `f` to `t`, in words.
fn chess_note(pos: &Xpanse, p: Piece, f: Sq, t: Sq) -> String {
    let (a, b) = (f.square(), t.square());
    let (df, dr) = (
        i32::from(b.file) - i32::from(a.file),
        i32::from(b.rank) - i32::from(a.rank),
    );
    let (from, to) = (pos.name(f), pos.name(t));
    let word = p.role().word();
    match p.role() {
        Role::King => format!("the king on {from} moves as in chess, one square to {to}"),
        Role::Knight => format!(
            "the knight on {from} moves as in chess, a ({},{}) leap to {to}",
            df.abs(),
            dr.abs()
        ),
        _ => format!(
            "the {word} on {from} moves as in chess, {} to {to}",
            line_words(pos, f, (df.signum() as i8, dr.signum() as i8))
        ),
    }
}

/// The `blocked` step of a slider's move of more than one square.
fn clear_path(pos: &Xpanse, p: Piece, f: Sq, t: Sq) -> Option<Step> {
    (is_slider(p.role()) && !between(f.square(), t.square()).is_empty()).then(|| {
        Step::allows(
            "blocked",
            format!(
                "no piece stands between {} and {}",
                pos.name(f),
                pos.name(t)
            ),
        )
    })
}

fn target_allows(pos: &Xpanse, p: Piece, t: Sq) -> Step {
    let note = match pos.board.piece_at(t) {
        None => format!("{} is empty", pos.name(t)),
        Some(v) => format!(
            "{} holds the {}, an enemy piece, not one of {}'s own",
            pos.name(t),
            piece_words(v),
            p.color()
        ),
    };
    Step::allows("own-piece-on-target", note)
}

/// A leg of a Magic Piece's path, as the rules see it.
struct Walked {
    rule: &'static str,
    note: String,
    to: Sq,
    kind: u8,
}

/// Walks the legs of a path through [`next_legs`], the generator's own leg function; `ends`
/// says the last leg given ends the move (its note then says why the path stops there).
/// Stops early at a leg the function does not offer as given.
fn walk_path(pos: &Xpanse, p: Piece, from: Sq, legs: &[(Sq, u8)], ends: bool) -> Vec<Walked> {
    let mut st = PathState::new(p.role(), from);
    let mut out = Vec::new();
    for (i, &(t, kind)) in legs.iter().enumerate() {
        let found = next_legs(pos, &st)
            .iter()
            .find(|(s, _, r)| *s == t && matches!(r, Ok(k) if *k == kind));
        let Some((_, dir, _)) = found else { break };
        let next = st.after(pos, t, kind, dir);
        let last = ends && i + 1 == legs.len();
        out.push(Walked {
            rule: leg_rule(&st, kind),
            note: leg_note(pos, &st, &next, p, t, kind, dir, last),
            to: t,
            kind,
        });
        st = next;
    }
    out
}

/// The rule that allows a leg from the path state `st`.
fn leg_rule(st: &PathState, kind: u8) -> &'static str {
    let first = st.path.legs().next().is_none();
    match st.role {
        Role::Gatekeeper if first => "gatekeeper-move",
        Role::Gatekeeper => "gatekeeper-ricochet",
        Role::Mage if first => "mage-move",
        Role::Mage => "mage-ricochet",
        _ if kind == leg::SWITCH => "archer-switch",
        _ if first => "archer-move",
        _ => "archer-ricochet",
    }
}

/// The first piece on the line from `st.at` in direction `dir` (the piece's own origin is
/// empty while it flies): the piece a Gatekeeper leaps over.
fn screen(pos: &Xpanse, st: &PathState, dir: (i8, i8)) -> Option<Sq> {
    let d = delta(dir.0.into(), dir.1.into());
    let mut s = st.at.offset(d);
    while pos.board.cell(s) != WALL {
        if s != st.origin && pos.board.piece_at(s).is_some() {
            return Some(s);
        }
        s = s.offset(d);
    }
    None
}

#[allow(clippy::too_many_arguments)]
fn leg_note(
    pos: &Xpanse,
    st: &PathState,
    next: &PathState,
    p: Piece,
    t: Sq,
    kind: u8,
    dir: (i8, i8),
    last: bool,
) -> String {
    let at = pos.name(st.at);
    let to = pos.name(t);
    let previous = st.path.legs().last();
    let lead = match (p.role(), previous) {
        (Role::Gatekeeper, prev) => {
            let start = match prev {
                None => format!("the gatekeeper on {at} goes {}", line_words(pos, st.at, dir)),
                Some(_) => format!(
                    "after its ricochet the gatekeeper turns 90 degrees and goes {} from {at}",
                    line_words(pos, st.at, dir)
                ),
            };
            match screen(pos, st, dir) {
                Some(s) => {
                    let beyond = t != s.offset(delta(dir.0.into(), dir.1.into()));
                    format!(
                        "{start}, leaps over {}{}",
                        piece_on(pos, s),
                        if beyond && pos.opts.gatekeeper_next_piece.get() {
                            " and on over the empty squares after it (option gatekeeper-landing)"
                        } else {
                            ""
                        }
                    )
                }
                None => start,
            }
        }
        (Role::Mage, None) => {
            format!("the mage on {at} leaps one square one way and three the other")
        }
        (Role::Mage, Some(_)) => format!("after its ricochet the mage leaps again from {at}"),
        (_, _) if kind == leg::SWITCH => {
            let r = st.last_ricochet.map_or(String::new(), |r| pos.name(r));
            let centre = st.switch_centre(pos).map_or(String::new(), |c| pos.name(c));
            let from = if centre == r {
                String::new()
            } else {
                " (option switch-from: where its next leg starts)".to_string()
            };
            return format!(
                "after its ricochet off {r} the archer switches to {to}, an empty square {} {centre}{from} (option switch-reach){}",
                if pos.opts.switch_orthogonal.get() { "a rook's step from" } else { "next to" },
                if last { ", which ends its move" } else { "" }
            );
        }
        (_, None) => format!("the archer on {at} leaps two squares"),
        (_, Some((s, k))) if k == leg::KILL => format!(
            "after its kill on {} the archer goes on (option archer-kill-continues) and leaps two squares from {at}",
            pos.name(s)
        ),
        (_, Some((s, _))) => format!(
            "after its ricochet off {} the archer leaps two squares again from {at}",
            pos.name(s)
        ),
    };
    let does = match kind {
        leg::KILL => {
            // An Archer's kill asks the reading whether the path may go on, as the
            // generator asks it.
            let end = if p.role() == Role::Archer && st.goes_on_after_kill(pos, t) {
                if last {
                    ", and stops there: it may go on after a kill, and does not".to_string()
                } else {
                    ", and goes on, as an archer may after a kill (option archer-kill-continues)"
                        .to_string()
                }
            } else if !last {
                String::new()
            } else if p.role() != Role::Archer {
                ", and a kill ends its move".to_string()
            } else {
                format!(
                    ", and the kill ends its move (option {})",
                    st.kill_end_option(pos)
                )
            };
            format!("kills {}{end}", piece_on(pos, t))
        }
        leg::RICOCHET => {
            let from = if next.at != t {
                format!(
                    ", and goes on from {}, the square before it (option ricochet-from)",
                    pos.name(next.at)
                )
            } else {
                String::new()
            };
            format!(
                "ricochets off {}, a piece of its own side, which starts a compound move{from}",
                piece_on(pos, t)
            )
        }
        _ => format!(
            "lands on the empty {to}{}",
            if last { ", which ends its move" } else { "" }
        ),
    };
    format!("{lead} and {does}")
}

/// The bounds on a whole path: one ricochet for the Gatekeeper and the Mage, and no square
/// stopped on twice.
fn path_bounds(pos: &Xpanse, p: Piece, from: Sq, legs: &[(Sq, u8)]) -> Vec<Step> {
    let mut out = Vec::new();
    let word = p.role().word();
    if p.role() != Role::Archer && legs.iter().any(|(_, k)| *k == leg::RICOCHET) {
        out.push(Step::allows(
            "no-second-ricochet",
            format!("the {word} ricochets once, and its second leg does not: multiple ricochets are not allowed"),
        ));
    }
    if legs.len() > 1 {
        let stops: Vec<String> = legs.iter().map(|(s, _)| pos.name(*s)).collect();
        out.push(Step::allows(
            "path-no-revisit",
            format!(
                "the path starts on {} and stops on {}, never twice on one square",
                pos.name(from),
                join(&stops)
            ),
        ));
    }
    out
}

/// A sink that looks for kills of given Kings among the opponent's turns.
struct Hunt {
    kings: Vec<Sq>,
    /// Each King found attacked, with the square of the first piece found to kill it.
    found: Vec<(Sq, Sq)>,
    seen: usize,
}

impl crate::rules::refusal::Verdicts<Move> for Hunt {
    const REJECTED: bool = false;

    fn legal(&mut self, m: Move) {
        self.seen += 1;
        for (s, k) in m.legs() {
            if k == leg::KILL && self.kings.contains(&s) && !self.found.iter().any(|f| f.0 == s) {
                self.found.push((s, Sq(m.from)));
            }
        }
    }

    fn full(&self) -> bool {
        self.found.len() == self.kings.len() || self.seen >= HUNT_LIMIT
    }
}

/// The mover's Kings the opponent could kill on its next turn after `m` (each with the
/// square of a piece that could), and the board they stand on; none when `m` ends the
/// battle.
fn kings_attacked_after(pos: &Xpanse, m: Move) -> (Vec<(Sq, Sq)>, Board) {
    quietly(|| {
        let mut after = pos.clone();
        after.apply(m);
        if after.result.is_some() {
            return (Vec::new(), after.board);
        }
        let king = Piece::new(pos.turn, Role::King);
        let kings = after
            .board
            .pieces()
            .filter(|(_, p)| *p == king)
            .map(|(s, _)| Sq::of(s))
            .collect();
        let mut hunt = Hunt {
            kings,
            found: Vec::new(),
            seen: 0,
        };
        after.explore(&mut hunt);
        (hunt.found, after.board)
    })
}

/// There is no check: a King's move is never limited by attack, and a move may leave a King
/// where the opponent could kill it.
fn no_check(pos: &Xpanse, m: Move, p: Piece) -> Option<Step> {
    let (attacked, board) = kings_attacked_after(pos, m);
    let killer = |by: Sq| {
        format!(
            "the {} on {}",
            board.piece_at(by).map_or("piece".into(), piece_words),
            pos.name(by)
        )
    };
    let to = m.destination().unwrap_or(Sq(m.from));
    let others: Vec<String> = attacked
        .iter()
        .filter(|(k, _)| p.role() != Role::King || *k != to)
        .map(|(k, by)| {
            format!(
                "the king on {} where {} could kill it",
                pos.name(*k),
                killer(*by)
            )
        })
        .collect();
    let others = join(&others);
    if p.role() == Role::King {
        let here = attacked.iter().find(|(k, _)| *k == to);
        let mut note = match here {
            Some((_, by)) => format!(
                "there is no check: the king may go to {} although {} could kill it there",
                pos.name(to),
                killer(*by)
            ),
            None => "there is no check: a King's move is not limited by attack".to_string(),
        };
        if !others.is_empty() {
            note.push_str(&format!(", and the move leaves {others}"));
        }
        Some(Step::allows("no-check", note))
    } else if !others.is_empty() {
        Some(Step::allows(
            "no-check",
            format!("there is no check: the move may leave {others}"),
        ))
    } else {
        None
    }
}

/// `a`, `a and b`, `a, b and c`.
fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

// ---------------------------------------------------------------------------------------
// A legal move: what it did.

fn move_effects(pos: &Xpanse, m: Move) -> Vec<Step> {
    let f = Sq(m.from);
    let Some(p) = pos.board.piece_at(f) else {
        return Vec::new();
    };
    let legs: Vec<(Sq, u8)> = m.legs().collect();
    let kills: Vec<(Sq, &'static str)> = if is_magic(p.role()) {
        walk_path(pos, p, f, &legs, true)
            .into_iter()
            .filter(|w| w.kind == leg::KILL)
            .map(|w| (w.to, w.rule))
            .collect()
    } else {
        let rule = if p.role() == Role::Pawn {
            "pawn-move"
        } else {
            "chess-moves"
        };
        legs.iter()
            .filter(|(_, k)| *k == leg::KILL)
            .map(|(s, _)| (*s, rule))
            .collect()
    };
    let after = pos.board_after(&m);
    let mut out = Vec::new();
    for (s, rule) in kills {
        let Some(v) = pos.board.piece_at(s) else {
            continue;
        };
        out.push(Step::effect(
            rule,
            format!("the {} on {} is killed", piece_words(v), pos.name(s)),
        ));
        if v.role() == Role::King {
            let left = after.pieces().filter(|(_, q)| *q == v).count();
            out.push(Step::effect(
                "no-check",
                format!(
                    "there is no check, and a King is killed like any piece: {} has {} left",
                    v.color(),
                    if left == 0 {
                        "no king".to_string()
                    } else {
                        count(left as u32, "king", "kings")
                    }
                ),
            ));
        }
    }
    out.extend(follow_effects(pos, m, p, &after));
    out
}

/// What the Pawn Reborn rules did after the move.
fn follow_effects(pos: &Xpanse, m: Move, p: Piece, after: &Board) -> Vec<Step> {
    let us = pos.turn;
    let g = pos.geometry();
    let f = Sq(m.from);
    let Some(dest) = m.destination() else {
        return Vec::new();
    };
    let (first, far) = (pos.first_rank(us), pos.far_rank(us));
    let arrival = p.role() == Role::Pawn && dest.square().rank == far;
    let empty_first = (0..g.files)
        .map(|file| Sq::of(Square::new(file, first)))
        .any(|s| after.piece_at(s).is_none());
    let named = |n: bool| {
        if n {
            format!(" (named by the turn, as {us} has several dormant pawns)")
        } else {
            String::new()
        }
    };
    let ranks = format!("rank {}, its far row", g.rank_label(far));
    let first_row = format!("{us}'s first row (rank {})", g.rank_label(first));
    let mut out = Vec::new();
    match m.follow {
        Follow::None => {}
        Follow::Reborn { pawn, to, named: n } => {
            let (pawn, to) = (Sq(pawn), Sq(to));
            if arrival && pawn == dest {
                out.push(Step::effect(
                    "pawn-reborn",
                    format!(
                        "the pawn reaches {} on {ranks}; it is not promoted but reborn on {}, an empty square of {first_row}",
                        pos.name(dest),
                        pos.name(to)
                    ),
                ));
            } else if arrival {
                out.push(Step::effect(
                    "dormant-pawn",
                    format!(
                        "the pawn arriving on {} stays there: the dormant pawn on {}{} is the one reborn",
                        pos.name(dest),
                        pos.name(pawn),
                        named(n)
                    ),
                ));
                out.push(Step::effect(
                    "pawn-reborn",
                    format!(
                        "the dormant pawn on {} is reborn on {}, an empty square of {first_row}",
                        pos.name(pawn),
                        pos.name(to)
                    ),
                ));
            } else {
                out.push(Step::effect(
                    "dormant-vacate",
                    format!(
                        "the {} leaves {} on {first_row} while the pawn on {}{} is dormant: that pawn is reborn on {}, the square just vacated",
                        p.role().word(),
                        pos.name(f),
                        pos.name(pawn),
                        named(n),
                        pos.name(to)
                    ),
                ));
            }
        }
        Follow::Vanish { pawn, named: n } => {
            let pawn = Sq(pawn);
            let why = if empty_first {
                "the turn chooses no rebirth".to_string()
            } else {
                format!("no square of {first_row} is empty")
            };
            if arrival && pawn == dest {
                out.push(Step::effect(
                    "pawn-reborn",
                    format!(
                        "the pawn reaches {} on {ranks}; it is not promoted, and it vanishes: {why}",
                        pos.name(dest)
                    ),
                ));
            } else if arrival {
                out.push(Step::effect(
                    "dormant-pawn",
                    format!(
                        "the pawn arriving on {} stays there, and the dormant pawn on {}{} vanishes: {why}",
                        pos.name(dest),
                        pos.name(pawn),
                        named(n)
                    ),
                ));
            } else {
                out.push(Step::effect(
                    "dormant-vacate",
                    format!(
                        "the {} leaves {} on {first_row} while the pawn on {}{} is dormant: the turn chooses no rebirth, so that pawn vanishes",
                        p.role().word(),
                        pos.name(f),
                        pos.name(pawn),
                        named(n)
                    ),
                ));
            }
        }
    }
    out
}

/// The battle's counters after the turn: the 10 Kill Rule's count, the Challenge, and the
/// run of timeouts the turn ends. Read from the position the turn leads to.
fn counters(pos: &Xpanse, m: Move) -> Vec<Step> {
    let us = pos.turn;
    let them = us.other();
    let i = us.index();
    let mut after = pos.clone();
    after.apply(m);
    let mut out = Vec::new();
    let (before_n, after_n) = (pos.state.without_kill[i], after.state.without_kill[i]);
    let lost = if after_n >= KILL_RULE {
        format!(", and the {KILL_RULE}th loses the battle")
    } else {
        String::new()
    };
    let note = if m.kind == MoveKind::Path && m.kills() {
        if pos.opts.kill_rule_from_start.get() {
            format!("{us} kills; under kill-rule-count = from-start its count of moves without a kill stays at {after_n}")
        } else {
            format!("{us} kills, so its count of moves without a kill starts again at 0 (it was {before_n})")
        }
    } else if m.kind == MoveKind::Path {
        format!("{us} moves without a kill: its count of such moves is now {after_n} of {KILL_RULE}{lost}")
    } else if pos.opts.pass_counts.get() {
        format!("under pass-counts = yes a pass counts as a move without a kill: {us}'s count is now {after_n} of {KILL_RULE}{lost}")
    } else {
        format!("a pass is not a move (pass-counts = no): {us}'s count of moves without a kill stays at {after_n}")
    };
    out.push(Step::effect("kill-rule", note));
    if let Some(n) = pos.state.challenge[i] {
        out.push(Step::effect(
            "challenge",
            format!(
                "{us} is challenged (it has {} or fewer): this is its turn {} of {CHALLENGE_TURNS} to kill {them}'s last king",
                count(2u32, "piece", "pieces"),
                n + 1
            ),
        ));
    }
    for c in [us, them] {
        // Once the battle is decided, nobody is challenged to win it.
        if after.result.is_none()
            && pos.state.challenge[c.index()].is_none()
            && after.state.challenge[c.index()].is_some()
        {
            out.push(Step::effect(
                "challenge",
                format!(
                    "{c} is down to {}: it is challenged to kill {}'s last king within its next {CHALLENGE_TURNS} turns",
                    count(after.piece_count(c) as u32, "piece", "pieces"),
                    c.other()
                ),
            ));
        }
    }
    let timeouts = pos.state.timeouts[i];
    if timeouts > 0 {
        out.push(Step::effect(
            "timeout-war",
            format!(
                "{us} plays in time, so its run of {} in a row ends (two in a row lose the war)",
                count(timeouts, "timeout", "timeouts")
            ),
        ));
    }
    out
}

// ---------------------------------------------------------------------------------------
// A refused turn.

/// The rules a refused turn passed, the rule that forbids it, and the others that would too.
pub(super) fn refused(pos: &Xpanse, pattern: &TurnPattern) -> Vec<Step> {
    let refusal = pos.refusal(pattern);
    let (allows, also) = judge(pos, pattern, &refusal);
    let mut steps = allows;
    let first = refusal.rule;
    steps.push(refusal.into());
    for s in also {
        if s.rule == first {
            continue;
        }
        match steps
            .iter_mut()
            .find(|x| x.verdict == StepVerdict::Forbids && x.rule == s.rule)
        {
            Some(x) => {
                if !x.note.contains(&s.note) {
                    x.note = format!("{}; {}", x.note, s.note);
                }
            }
            None => steps.push(s),
        }
    }
    steps
}

/// The Allows steps of what the written turn passed, and the Forbids steps of every rule that
/// forbids it (the refusal's own rule among them or not; [`refused`] orders and merges).
fn judge(pos: &Xpanse, pattern: &TurnPattern, refusal: &Refusal) -> (Vec<Step>, Vec<Step>) {
    let none = (Vec::new(), Vec::new());
    let TurnPattern::Actions { actions, claim } = pattern else {
        return none;
    };
    if pos.result.is_some() {
        return none;
    }
    let follows = |a: &ActionPattern| {
        matches!(
            a,
            ActionPattern::Reborn { .. } | ActionPattern::Vanish { .. }
        )
    };
    let sub = |actions: &[ActionPattern]| TurnPattern::Actions {
        actions: actions.to_vec(),
        claim: *claim,
    };
    let (first, second) = match &actions[..] {
        [] => return none,
        [a] => (a, None),
        [a, b] if follows(b) => (a, Some(b)),
        [_, b, ..] => {
            // Refused by its length or its second action: what refuses the move (and what
            // may rightly follow it) by itself forbids the turn too.
            let head = if follows(b) { 2 } else { 1 };
            return (Vec::new(), forbids_of(pos, &sub(&actions[..head])));
        }
    };
    match first {
        ActionPattern::Pass => {
            let spent = pos.state.passes[pos.turn.index()] >= MAX_PASSES;
            let also = if second.is_some() && spent {
                forbids_of(pos, &sub(&actions[..1]))
            } else {
                Vec::new()
            };
            (Vec::new(), also)
        }
        ActionPattern::Move {
            style,
            piece,
            from,
            legs,
            promotion,
        } => {
            if promotion.is_some() {
                // The move without its promotion.
                let mut plain = actions.clone();
                if let ActionPattern::Move { promotion, .. } = &mut plain[0] {
                    *promotion = None;
                }
                return (Vec::new(), forbids_of(pos, &sub(&plain)));
            }
            let kind = written_kind(*style, *piece);
            move_judge(pos, first, kind, *from, legs, second, refusal)
        }
        _ => none,
    }
}

/// Every rule that forbids `pattern`, or nothing when it is legal.
fn forbids_of(pos: &Xpanse, pattern: &TurnPattern) -> Vec<Step> {
    if pos.legal_turns().iter().any(|(_, t)| pattern.matches(t)) {
        return Vec::new();
    }
    let r = pos.refusal(pattern);
    let (_, also) = judge(pos, pattern, &r);
    let mut out = vec![Step::from(r)];
    out.extend(also);
    out
}

/// A candidate meaning of a written move: one piece of the side to move, and how far its
/// move got.
struct Candidate {
    from: Square,
    piece: Piece,
    stage: Stage,
    refusal: Refusal,
    allows: Vec<Step>,
    also: Vec<Step>,
}

fn move_judge(
    pos: &Xpanse,
    first: &ActionPattern,
    kind: Option<PieceRef>,
    from: Origin,
    legs: &[Leg],
    second: Option<&ActionPattern>,
    refusal: &Refusal,
) -> (Vec<Step>, Vec<Step>) {
    let g = *pos.geometry();
    let Ok(starts) = origins(&pos.board, &g, pos.turn, kind, from) else {
        return (Vec::new(), Vec::new());
    };
    // The written move is legal: only what follows it is wrong.
    let turns = pos.legal_turns();
    let moved: Vec<&(Move, Turn)> = turns
        .iter()
        .filter(|(_, t)| t.actions.first().is_some_and(|a| first.matches(a)))
        .collect();
    if let Some((m, _)) = moved.first() {
        return (
            move_allows(pos, *m, false),
            follow_forbids(pos, &moved, second),
        );
    }
    let candidates: Vec<Candidate> = starts
        .iter()
        .filter_map(|s| {
            let p = pos.board.get(*s)?;
            Some(if is_magic(p.role()) {
                path_candidate(pos, *s, p, legs)
            } else {
                chess_candidate(pos, *s, p, legs)
            })
        })
        .collect();
    // The decisive candidate, as `refuse` chooses it: the furthest, the first of equals;
    // none when no candidate got past its movement and several pieces could have moved.
    let mut best: Option<usize> = None;
    for (i, c) in candidates.iter().enumerate() {
        if best.is_none_or(|b| c.stage > candidates[b].stage) {
            best = Some(i);
        }
    }
    let decisive = best.filter(|&b| candidates[b].stage != Stage::Movement || starts.len() == 1);
    let mut allows = Vec::new();
    let mut also = Vec::new();
    if let Some(b) = decisive {
        if candidates[b].refusal == *refusal {
            allows = candidates[b].allows.clone();
        }
        also.push(Step::from(candidates[b].refusal.clone()));
        also.extend(candidates[b].also.iter().cloned());
    }
    // The other candidates (not the piece already on the target square): each rule's
    // sentence once, with the pieces it concerns.
    let target = legs.last().map(|l| l.to);
    let mut groups: Vec<(&'static str, String, Vec<&Candidate>)> = Vec::new();
    for (i, c) in candidates.iter().enumerate() {
        if Some(i) == decisive || Some(c.from) == target {
            continue;
        }
        let own = std::iter::once((c.refusal.rule, c.refusal.reason.clone()))
            .chain(c.also.iter().map(|s| (s.rule, s.note.clone())));
        for (rule, note) in own {
            match groups.iter_mut().find(|(r, n, _)| *r == rule && *n == note) {
                Some(group) => group.2.push(c),
                None => groups.push((rule, note, vec![c])),
            }
        }
    }
    for (rule, note, pieces) in groups {
        let squares: Vec<String> = pieces.iter().map(|c| g.square_name(c.from)).collect();
        let text = if squares.iter().all(|s| note.contains(s.as_str())) {
            note
        } else {
            let p = pieces[0].piece;
            let who = if pieces.len() == 1 {
                piece_words(p)
            } else if pieces.iter().all(|c| c.piece == p) {
                format!("{} {}s", p.color(), p.role().word())
            } else {
                format!("{} pieces", p.color())
            };
            format!("the {who} on {}: {note}", join(&squares))
        };
        also.push(Step::forbids(rule, text));
    }
    (allows, also)
}

/// A chess piece's or a Pawn's written move: the refusal `refuse` gives it, the rules it
/// passed up to there, and every independent test of the move that fails.
fn chess_candidate(pos: &Xpanse, s: Square, p: Piece, legs: &[Leg]) -> Candidate {
    let (stage, refusal) = refuse::chess_piece(pos, s, p, legs);
    let f = Sq::of(s);
    let mut allows = vec![whose_turn(pos, p, f)];
    let mut also = Vec::new();
    if let [w] = legs {
        let t = Sq::of(w.to);
        if stage == Stage::Mark {
            // The move is legal, written with the wrong mark.
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            if let Some(m) = moves
                .iter()
                .find(|m| m.from == f.0 && m.destination() == Some(t))
            {
                allows = move_allows(pos, *m, false);
            }
        } else if stage > Stage::Movement {
            if p.role() == Role::Pawn {
                allows.push(pawn_direction(pos, p.color()));
                if refusal.rule != "pawn-move" {
                    allows.push(Step::allows(
                        "pawn-move",
                        format!(
                            "{} to {} is one square diagonally forward, where a pawn kills",
                            pos.name(f),
                            pos.name(t)
                        ),
                    ));
                }
            } else {
                allows.push(Step::allows("chess-moves", chess_note(pos, p, f, t)));
                if stage > Stage::Blocked {
                    allows.extend(clear_path(pos, p, f, t));
                }
            }
        }
        also = chess_forbids(pos, s, p, w);
    }
    Candidate {
        from: s,
        piece: p,
        stage,
        refusal,
        allows,
        also,
    }
}

/// Every test a chess piece's or a Pawn's one-leg move fails, each by itself: a dormant
/// Pawn, the movement's geometry (direction, double step), a piece in the way, what stands
/// on the target, and the written mark.
fn chess_forbids(pos: &Xpanse, s: Square, p: Piece, w: &Leg) -> Vec<Step> {
    let g = pos.geometry();
    let us = p.color();
    let to = w.to;
    let (f, t) = (g.square_name(s), g.square_name(to));
    let word = p.role().word();
    let target = pos.board.get(to);
    let holder = |q: Piece| format!("the {}", piece_words(q));
    let (df, dr) = (
        i32::from(to.file) - i32::from(s.file),
        i32::from(to.rank) - i32::from(s.rank),
    );
    let mut out = Vec::new();
    // What a move there does, when the piece's move decides it: a step or a kill.
    let mut expected: Option<LegKind> = None;
    if p.role() == Role::Pawn {
        let fwd = if pos.state.up[us.index()] { 1 } else { -1 };
        if s.rank == pos.far_rank(us) {
            out.push(Step::forbids(
                "dormant-pawn",
                format!("the pawn on {f} stands on its far row: it is dormant and cannot move on its own"),
            ));
        }
        if df == 0 && dr == fwd {
            match target {
                Some(q) => out.push(Step::forbids(
                    "pawn-move",
                    format!(
                        "a pawn moves forward only onto an empty square, and {t} holds {}",
                        holder(q)
                    ),
                )),
                None => expected = Some(LegKind::Step),
            }
        } else if df.abs() == 1 && dr == fwd {
            match target {
                None => out.push(Step::forbids(
                    "pawn-move",
                    format!("a pawn moves diagonally only to kill, and {t} is empty"),
                )),
                Some(q) if q.color() != us => expected = Some(LegKind::Kill(None)),
                Some(_) => {}
            }
        } else if df == 0 && dr == 2 * fwd {
            out.push(Step::forbids(
                "no-double-step",
                format!("the Pawn always moves by one, never by two; {f} to {t} is a double step"),
            ));
        } else if dr * fwd < 0 {
            let direction = if fwd > 0 { "up" } else { "down" };
            out.push(Step::forbids(
                "pawn-direction",
                format!("{us}'s pawns move {direction} the board (pawn-direction {us} = {direction}); {f} to {t} goes the other way"),
            ));
        } else {
            out.push(Step::forbids(
                "pawn-move",
                format!("a pawn moves one square forward, or kills one square diagonally forward; {f} to {t} is neither"),
            ));
        }
    } else {
        let reaches = movement::orthodox(p.role())
            .and_then(|mv| mv.could_reach(s, to, us))
            .is_some();
        if !reaches {
            let r = refuse::movement_refusal(pos, s, p, to);
            out.push(Step::forbids(r.rule, r.reason));
        } else if is_slider(p.role()) {
            if let Some(b) = between(s, to)
                .into_iter()
                .find(|b| pos.board.piece_at(*b).is_some())
            {
                out.push(Step::forbids(
                    "blocked",
                    format!(
                        "the piece on {f} cannot pass over {} to reach {t}",
                        piece_on(pos, b)
                    ),
                ));
            }
        }
        expected = match target {
            None => Some(LegKind::Step),
            Some(q) if q.color() != us => Some(LegKind::Kill(None)),
            Some(_) => None,
        };
    }
    if let Some(q) = target.filter(|q| q.color() == us) {
        out.push(Step::forbids(
            "own-piece-on-target",
            format!(
                "{t} holds {}; a piece cannot move onto its own side's piece",
                holder(q)
            ),
        ));
    }
    if matches!(w.kind, LegKind::Ricochet | LegKind::Switch) {
        out.push(Step::forbids(
            "kill-mark",
            format!("a {word} neither ricochets nor switches: only a Magic Piece's leg is written with ^ or ~"),
        ));
    } else if let Some(e) = expected.filter(|e| !w.kind.admits(*e)) {
        out.push(Step::forbids(
            "kill-mark",
            if e.is_kill() {
                format!(
                    "{t} holds {}, so a move there kills and is written with x",
                    target.map_or("a piece".into(), holder)
                )
            } else {
                format!("{t} is empty, so a move there kills nothing and is written without x")
            },
        ));
    }
    out
}

/// A Magic Piece's written path: the refusal `refuse` gives it, the legs that pass (each by
/// the rule that allows it), and the other rules that stop the leg where it goes wrong.
fn path_candidate(pos: &Xpanse, s: Square, p: Piece, legs: &[Leg]) -> Candidate {
    let (stage, refusal) = refuse::judge_path(pos, s, p, legs);
    let f = Sq::of(s);
    let mut allows = vec![whose_turn(pos, p, f)];
    let mut also = Vec::new();
    let done = |allows, also| Candidate {
        from: s,
        piece: p,
        stage,
        refusal: refusal.clone(),
        allows,
        also,
    };
    if let [only] = legs {
        // One written leg may name a whole path by where it ends: a path that does, with
        // the wrong mark.
        let mut paths = Vec::new();
        paths::explore(pos, f, p.role(), &mut paths);
        if let Some(m) = paths
            .iter()
            .find(|m| m.destination() == Some(Sq::of(only.to)))
        {
            let path: Vec<(Sq, u8)> = m.legs().collect();
            let walked = walk_path(pos, p, f, &path, true);
            allows.extend(walked.iter().map(|w| Step::allows(w.rule, w.note.clone())));
            return done(allows, also);
        }
    }
    let mut st = PathState::new(p.role(), f);
    for (i, w) in legs.iter().enumerate() {
        let last = i + 1 == legs.len();
        let t = Sq::of(w.to);
        let name = pos.name(t);
        let here: Vec<_> = next_legs(pos, &st)
            .iter()
            .filter(|(q, _, _)| *q == t)
            .collect();
        if here.is_empty() {
            break;
        }
        let admitted = here
            .iter()
            .find(|(_, _, r)| matches!(r, Ok(k) if w.kind.admits(leg::kind(*k))));
        let Some(&(_, dir, Ok(kind))) = admitted else {
            if let Some(&(_, _, Ok(k))) = here.iter().find(|(_, _, r)| r.is_ok()) {
                // Written with the wrong mark: the leg as the piece makes it may end the
                // path where more is written, or go on where nothing more is.
                also.extend(ends_wrongly(pos, &st, p, &name, t, k, last));
            } else {
                for why in here.iter().filter_map(|(_, _, r)| r.err()) {
                    let r = refuse::path_sentence(pos, why.rule, why);
                    also.push(Step::forbids(r.rule, r.reason));
                }
            }
            break;
        };
        let wrong = ends_wrongly(pos, &st, p, &name, t, kind, last);
        if !wrong.is_empty() {
            also.extend(wrong);
            break;
        }
        let next = st.after(pos, t, kind, dir);
        allows.push(Step::allows(
            leg_rule(&st, kind),
            leg_note(pos, &st, &next, p, t, kind, dir, false),
        ));
        st = next;
    }
    done(allows, also)
}

/// The rule that forbids a leg of kind `kind` where it stands in the written path: a landing
/// or a switch (or a kill the piece cannot go on from) with more written after it, or a
/// ricochet written last.
fn ends_wrongly(
    pos: &Xpanse,
    st: &PathState,
    p: Piece,
    name: &str,
    t: Sq,
    kind: u8,
    last: bool,
) -> Vec<Step> {
    let word = p.role().word();
    let step = if last {
        (kind == leg::RICOCHET).then(|| {
            Step::forbids(
                "ricochet-goes-on",
                format!("{name} holds a {} piece: the {word} ricochets off it and must go on; a move never ends on the piece it ricochets off", pos.turn),
            )
        })
    } else {
        match kind {
            leg::STEP | leg::SWITCH => Some(Step::forbids(
                refuse::magic_rule(p.role()),
                format!("the {word} lands on the empty square {name}, and a landing ends its move"),
            )),
            leg::KILL if !st.goes_on_after_kill(pos, t) => Some(Step::forbids(
                if p.role() == Role::Archer {
                    "archer-ricochet"
                } else {
                    refuse::magic_rule(p.role())
                },
                format!(
                    "the {word} kills on {name}, and that kill ends its move{}",
                    if p.role() == Role::Archer {
                        format!(" (option {})", st.kill_end_option(pos))
                    } else {
                        String::new()
                    }
                ),
            )),
            _ => None,
        }
    };
    step.into_iter().collect()
}

/// The move is legal; every way the written rebirth or vanishing differs from the ones it
/// brings.
fn follow_forbids(
    pos: &Xpanse,
    moved: &[&(Move, Turn)],
    second: Option<&ActionPattern>,
) -> Vec<Step> {
    let g = pos.geometry();
    let us = pos.turn;
    let Some(ActionPattern::Reborn { from, square }) = second else {
        return Vec::new();
    };
    let (first, far) = (pos.first_rank(us), pos.far_rank(us));
    let dormant = Xpanse::dormant(&pos.board, us, far);
    let dormant_names: Vec<String> = dormant.iter().map(|s| pos.name(*s)).collect();
    let (origin, arrives, vacates) =
        super::refuse::brings(moved.first().map(|(_, t)| t), first, far, &dormant);
    if !arrives && !vacates {
        return Vec::new();
    }
    let targets: Vec<Square> = moved
        .iter()
        .filter_map(|(_, t)| match t.actions.get(1) {
            Some(Action::Reborn { square, .. }) => Some(*square),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    if let Some(f) = from {
        if !dormant.iter().any(|d| d.square() == *f) {
            out.push(Step::forbids(
                "dormant-pawn",
                format!(
                    "{} holds no dormant {us} pawn; the dormant pawns are {}",
                    g.square_name(*f),
                    if dormant_names.is_empty() {
                        "none".to_string()
                    } else {
                        dormant_names.join(", ")
                    }
                ),
            ));
        } else if dormant.len() < 2 && !targets.is_empty() {
            out.push(Step::forbids(
                "dormant-pawn",
                format!(
                    "the pawn reborn is named only when {us} has several dormant pawns: write `reborn {}`",
                    g.square_name(*square)
                ),
            ));
        }
    }
    let name = g.square_name(*square);
    if vacates {
        if origin != Some(*square) {
            out.push(Step::forbids(
                "dormant-vacate",
                format!(
                    "the dormant pawn is reborn only on the square just vacated, {}",
                    origin.map_or(String::new(), |o| g.square_name(o))
                ),
            ));
        }
    } else if square.rank != first {
        out.push(Step::forbids(
            "pawn-reborn",
            format!(
                "a pawn is reborn on its first row, rank {}; {name} is on rank {}",
                g.rank_label(first),
                g.rank_label(square.rank)
            ),
        ));
    } else if targets.is_empty() {
        out.push(Step::forbids(
            "pawn-reborn",
            format!(
                "no square of the first row (rank {}) is empty, so the pawn vanishes",
                g.rank_label(first)
            ),
        ));
    } else if !targets.contains(square) {
        out.push(Step::forbids(
            "pawn-reborn",
            format!("{name} is not empty, so no pawn can be reborn there"),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::super::oracle::{every_path_reading, magic_paths, random_position, Readings, SIZES};
    use super::super::tests::{fen, opts};
    use super::*;
    use crate::rules::explain::{explain, Verdict};
    use crate::rules::game::Game;
    use crate::rules::refusal::Explored;
    use crate::rules::testing::{report, Rng};
    use crate::scenario::evaluate::Lowering;
    use crate::scenario::parse::parse_turn;

    /// The most paths a Magic Piece of either side may have in a position these tests use
    /// (the `no-check` step explores the opponent's turns after each move).
    const TAME: usize = 80;

    fn tame(pos: &Xpanse, options: &Options) -> bool {
        let r = Readings::of(options);
        pos.board
            .pieces()
            .filter(|(_, p)| is_magic(p.role()))
            .all(|(s, p)| magic_paths(&pos.board, p.color(), s, r, TAME).is_some())
    }

    /// Random tame positions of the six boards under random path readings, some after a few
    /// random turns (seeded playouts).
    fn positions(seed: u64, n: usize) -> Vec<(Xpanse, Options)> {
        let readings = every_path_reading();
        let mut rng = Rng(seed);
        let mut out = Vec::new();
        let mut i = 0;
        while out.len() < n {
            i += 1;
            let options = readings[rng.below(readings.len())].clone();
            let mut pos = random_position(&mut rng, SIZES[i % SIZES.len()], &options);
            if !tame(&pos, &options) {
                continue;
            }
            for _ in 0..rng.below(7) {
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let next = {
                    let mut p = pos.clone();
                    p.play(moves[rng.below(moves.len())]);
                    p
                };
                if next.result.is_some() || !tame(&next, &options) {
                    break;
                }
                pos = next;
            }
            if pos.result.is_none() {
                out.push((pos, options));
            }
        }
        out
    }

    fn lower(pos: &Xpanse, text: &str) -> Option<TurnPattern> {
        let parsed = parse_turn(text).ok()?;
        Lowering::<Xpanse>::new(*pos.geometry()).turn(&parsed).ok()
    }

    fn ids() -> BTreeSet<&'static str> {
        RULES.iter().map(|r| r.id).collect()
    }

    fn pairs(steps: &[Step]) -> Vec<(&'static str, StepVerdict)> {
        steps.iter().map(|s| (s.rule, s.verdict)).collect()
    }

    fn shown(steps: &[Step]) -> String {
        steps
            .iter()
            .map(|s| format!("\n  {} {}: {}", s.verdict.word(), s.rule, s.note))
            .collect()
    }

    /// Whether the steps are Allows, then Effects (a legal turn) or Forbids (a refused one).
    fn ordered(steps: &[Step], then: StepVerdict) -> bool {
        let first_other = steps
            .iter()
            .position(|s| s.verdict != StepVerdict::Allows)
            .unwrap_or(steps.len());
        steps[first_other..].iter().all(|s| s.verdict == then)
    }

    fn sample(rng: &mut Rng, n: usize, most: usize) -> Vec<usize> {
        let mut all: Vec<usize> = (0..n).collect();
        for i in (1..all.len()).rev() {
            all.swap(i, rng.below(i + 1));
        }
        all.truncate(most);
        all.sort_unstable();
        all
    }

    #[test]
    fn every_legal_turn_is_explained_by_rules_of_the_catalogue() {
        let ids = ids();
        let mut rng = Rng(0xE4B1_A170_0000_0001);
        let (mut checked, mut magic_legs, mut failures) = (0, 0, Vec::new());
        for (pos, _) in positions(0x5EED_E4B1_A170_0001, 120) {
            let g = *pos.geometry();
            let turns = pos.legal_turns();
            for i in sample(&mut rng, turns.len(), 25) {
                let (m, t) = &turns[i];
                let steps = pos.explain_legal(*m);
                checked += 1;
                let at = || format!("{} in `{}`:{}", t.text(&g), pos.fen(), shown(&steps));
                let allows = steps.iter().filter(|s| s.verdict == StepVerdict::Allows);
                if allows.count() == 0 || !ordered(&steps, StepVerdict::Effect) {
                    failures.push(format!("no Allows, or out of order: {}", at()));
                }
                if let Some(s) = steps.iter().find(|s| !ids.contains(s.rule)) {
                    failures.push(format!("{} is not in the catalogue: {}", s.rule, at()));
                }
                if steps != pos.explain_legal(*m) {
                    failures.push(format!("not deterministic: {}", at()));
                }
                // Every kill has its effect, and every leg of a Magic Piece its rule.
                let kills = m.legs().filter(|(_, k)| *k == leg::KILL).count();
                let killed = steps
                    .iter()
                    .filter(|s| s.verdict == StepVerdict::Effect && s.note.ends_with("is killed"))
                    .count();
                if kills != killed {
                    failures.push(format!("{kills} kills, {killed} kill effects: {}", at()));
                }
                let moving = pos.board.piece_at(Sq(m.from));
                if m.kind == MoveKind::Path && moving.is_some_and(|p| is_magic(p.role())) {
                    let leg_rules = [
                        "gatekeeper-move",
                        "gatekeeper-ricochet",
                        "mage-move",
                        "mage-ricochet",
                        "archer-move",
                        "archer-ricochet",
                        "archer-switch",
                    ];
                    let legs = steps
                        .iter()
                        .filter(|s| s.verdict == StepVerdict::Allows && leg_rules.contains(&s.rule))
                        .count();
                    magic_legs += legs;
                    if legs != m.legs().count() {
                        failures.push(format!("{legs} leg steps: {}", at()));
                    }
                }
            }
        }
        eprintln!("{checked} legal turns explained, {magic_legs} Magic Piece legs");
        report(&failures, checked, 2000, "legal turns explained");
        assert!(magic_legs >= 500, "{magic_legs}");
    }

    /// Written turns near the legal ones: every piece to a sample of squares (with `-` and
    /// `x`, coordinate and short), the explorer's rejected candidates, a Magic Piece's legal
    /// path with a leg added or its last leg moved, rebirths and vanishings after moves,
    /// promotions, passes, and turns of too many actions.
    fn near_misses(pos: &Xpanse, rng: &mut Rng) -> Vec<String> {
        let g = *pos.geometry();
        let squares: Vec<Square> = g.squares().collect();
        let name = |s: Square| g.square_name(s);
        let mut out = Vec::new();
        let letter = |p: Piece| {
            if p.role() == Role::Pawn {
                String::new()
            } else {
                p.role().letter().to_string()
            }
        };
        for (s, p) in pos.board.pieces().filter(|(_, p)| p.color() == pos.turn) {
            for i in sample(rng, squares.len(), 6) {
                let t = squares[i];
                for mark in ['-', 'x'] {
                    out.push(format!("{}{}{mark}{}", letter(p), name(s), name(t)));
                }
                if p.role() != Role::Pawn {
                    out.push(format!("{}{}", letter(p), name(t)));
                    out.push(format!("{}x{}", letter(p), name(t)));
                }
            }
        }
        let mut all = Explored::default();
        pos.explore(&mut all);
        for (m, _) in &all.rejected {
            out.push(pos.describe(*m).text(&g));
        }
        let turns = pos.legal_turns();
        for i in sample(rng, turns.len(), 12) {
            let (m, t) = &turns[i];
            let text = t.text(&g);
            let first = text.split(';').next().unwrap_or("").to_string();
            let magic = pos
                .board
                .piece_at(Sq(m.from))
                .is_some_and(|p| is_magic(p.role()));
            if magic {
                for j in sample(rng, squares.len(), 4) {
                    out.push(format!("{first}-{}", name(squares[j])));
                    out.push(format!("{first}x{}", name(squares[j])));
                    if let Some(cut) = first.rfind(['-', 'x', '^', '~']) {
                        out.push(format!("{}-{}", &first[..cut], name(squares[j])));
                    }
                }
            }
            if m.kind == MoveKind::Path {
                out.push(format!("{first}=Q"));
                out.push(format!("{first}; pass"));
                out.push(format!("{text}; {text}"));
                for j in sample(rng, squares.len(), 4) {
                    let q = name(squares[j]);
                    out.push(format!("{first}; reborn {q}"));
                    out.push(format!("{first}; vanish {q}"));
                    let k = name(squares[rng.below(squares.len())]);
                    out.push(format!("{first}; reborn {k}-{q}"));
                }
            }
        }
        out.push("pass".into());
        out.push("pass; reborn a1".into());
        out.push("pass; pass".into());
        out
    }

    #[test]
    fn every_refused_turn_is_forbidden_first_by_its_refusal() {
        let ids = ids();
        let mut rng = Rng(0xE4B1_A170_0000_0002);
        let (mut checked, mut several, mut failures) = (0, 0, Vec::new());
        let mut by_rule: std::collections::BTreeMap<&'static str, usize> = Default::default();
        for (pos, options) in positions(0x5EED_E4B1_A170_0002, 60) {
            let g = *pos.geometry();
            let turns = pos.legal_turns();
            let game = Game::new(pos.clone(), options.clone());
            let texts: BTreeSet<String> = near_misses(&pos, &mut rng).into_iter().collect();
            for (k, text) in texts.iter().enumerate() {
                let Some(pattern) = lower(&pos, text) else {
                    continue;
                };
                if turns.iter().any(|(_, t)| pattern.matches(t)) {
                    continue;
                }
                let steps = pos.explain_refused(&pattern);
                let refusal = pos.refusal(&pattern);
                checked += 1;
                let at = || {
                    format!(
                        "{text} in {}x{} `{}`:{}",
                        g.files,
                        g.ranks,
                        pos.fen(),
                        shown(&steps)
                    )
                };
                let forbids: Vec<&Step> = steps
                    .iter()
                    .filter(|s| s.verdict == StepVerdict::Forbids)
                    .collect();
                match forbids.first() {
                    Some(f) if f.rule == refusal.rule && f.note == refusal.reason => {}
                    _ => failures.push(format!("the first Forbids is not {refusal}: {}", at())),
                }
                *by_rule.entry(refusal.rule).or_default() += 1;
                several += usize::from(forbids.len() > 1);
                let distinct: BTreeSet<&str> = forbids.iter().map(|s| s.rule).collect();
                if distinct.len() != forbids.len() {
                    failures.push(format!("a rule forbids twice: {}", at()));
                }
                if let Some(s) = steps.iter().find(|s| !ids.contains(s.rule)) {
                    failures.push(format!("{} is not in the catalogue: {}", s.rule, at()));
                }
                if !ordered(&steps, StepVerdict::Forbids) {
                    failures.push(format!("out of order: {}", at()));
                }
                if steps != pos.explain_refused(&pattern) {
                    failures.push(format!("not deterministic: {}", at()));
                }
                // Through the shared explanation now and then.
                if k % 7 == 0 {
                    let e = explain(&game, &pattern);
                    if e.verdict == Verdict::Illegal
                        && e.forbidden_by().map(|s| s.rule) != Some(refusal.rule)
                    {
                        failures.push(format!("explain says {}: {}", e.summary(), at()));
                    }
                }
            }
        }
        eprintln!("{checked} refused turns, {several} forbidden by several rules; first rules: {by_rule:?}");
        report(&failures, checked, 5000, "refused turns explained");
        assert!(several >= 300, "{several}");
    }

    fn steps_of(size: (u8, u8), position: &str, text: &str) -> Vec<Step> {
        let pos = fen(size, position, &opts(&[]));
        let pattern = lower(&pos, text).expect("a turn");
        let turns = pos.legal_turns();
        match turns.iter().find(|(_, t)| pattern.matches(t)) {
            Some((m, _)) => pos.explain_legal(*m),
            None => pos.explain_refused(&pattern),
        }
    }

    use StepVerdict::{Allows as A, Effect as E, Forbids as F};

    /// White: Archer a1, Knight c1, King d2; Black: King a5, Rook c5, Knight a3 (4x5).
    const COMPOUND: &str = "k1r1/4/n3/3K/A1N1 w";

    #[test]
    fn a_quiet_move() {
        let steps = steps_of((4, 5), COMPOUND, "Nc1-b3");
        assert_eq!(
            pairs(&steps),
            [
                ("not-your-turn", A),
                ("chess-moves", A),
                ("own-piece-on-target", A),
                ("kill-rule", E)
            ],
            "{}",
            shown(&steps)
        );
        assert_eq!(
            steps[1].note,
            "the knight on c1 moves as in chess, a (1,2) leap to b3"
        );
        assert_eq!(
            steps[3].note,
            "white moves without a kill: its count of such moves is now 1 of 10"
        );
    }

    #[test]
    fn a_kill_that_challenges_the_other_side() {
        // The rook passes a2 and kills the knight on a3; Black is down to two pieces.
        let steps = steps_of((5, 5), "k4/1p3/n4/1P3/R3K w", "Ra1xa3");
        assert_eq!(
            pairs(&steps),
            [
                ("not-your-turn", A),
                ("chess-moves", A),
                ("blocked", A),
                ("own-piece-on-target", A),
                ("chess-moves", E),
                ("kill-rule", E),
                ("challenge", E)
            ],
            "{}",
            shown(&steps)
        );
        assert_eq!(steps[4].note, "the black knight on a3 is killed");
    }

    #[test]
    fn a_compound_move_leg_by_leg() {
        // The Archer ricochets off its Knight on c1, then kills the Knight on a3 and stops.
        let steps = steps_of((4, 5), COMPOUND, "Aa1^c1xa3");
        assert_eq!(
            pairs(&steps),
            [
                ("not-your-turn", A),
                ("archer-move", A),
                ("archer-ricochet", A),
                ("path-no-revisit", A),
                ("archer-ricochet", E),
                ("kill-rule", E),
                ("challenge", E)
            ],
            "{}",
            shown(&steps)
        );
        assert_eq!(
            steps[1].note,
            "the archer on a1 leaps two squares and ricochets off the white knight on c1, a piece of its own side, which starts a compound move"
        );
        assert!(
            steps[2]
                .note
                .ends_with("and stops there: it may go on after a kill, and does not"),
            "{}",
            steps[2].note
        );
        // A Gatekeeper's path: along the a-file over its pawn, off its rook, then along rank 4.
        let steps = steps_of((5, 5), "4k/R1n2/P4/4K/G4 w", "Ga1^a4-d4");
        assert_eq!(
            pairs(&steps),
            [
                ("not-your-turn", A),
                ("gatekeeper-move", A),
                ("gatekeeper-ricochet", A),
                ("no-second-ricochet", A),
                ("path-no-revisit", A),
                ("kill-rule", E)
            ],
            "{}",
            shown(&steps)
        );
    }

    #[test]
    fn pawn_reborn_and_a_dormant_pawn() {
        let steps = steps_of((4, 5), "2n1/1P2/3k/4/K1R1 w", "b4-b5; reborn d1");
        assert_eq!(
            pairs(&steps),
            [
                ("not-your-turn", A),
                ("pawn-direction", A),
                ("pawn-move", A),
                ("pawn-reborn", E),
                ("kill-rule", E)
            ],
            "{}",
            shown(&steps)
        );
        // The Rook leaves c1 while White's pawn on b5 is dormant: it is reborn on c1.
        let steps = steps_of((4, 5), "1P2/4/3k/4/K1R1 w", "Rc1-c3; reborn c1");
        assert_eq!(
            pairs(&steps),
            [
                ("not-your-turn", A),
                ("chess-moves", A),
                ("blocked", A),
                ("own-piece-on-target", A),
                ("dormant-vacate", E),
                ("kill-rule", E)
            ],
            "{}",
            shown(&steps)
        );
    }

    #[test]
    fn passes_and_timeouts() {
        let steps = steps_of((4, 5), COMPOUND, "pass");
        assert_eq!(
            pairs(&steps),
            [("pass", A), ("pass", E), ("kill-rule", E)],
            "{}",
            shown(&steps)
        );
        // A player who timed out last turn ends the run by playing.
        let mut pos = fen((4, 5), COMPOUND, &opts(&[]));
        pos.state.timeouts[Color::White.index()] = 1;
        let pattern = lower(&pos, "Nc1-b3").expect("a turn");
        let (m, _) = pos
            .legal_turns()
            .into_iter()
            .find(|(_, t)| pattern.matches(t))
            .expect("legal");
        let steps = pos.explain_legal(m);
        assert_eq!(
            steps.last().map(|s| (s.rule, s.verdict)),
            Some(("timeout-war", E)),
            "{}",
            shown(&steps)
        );
        // White can neither move (its King is boxed in by its own Pawns, which have nothing to
        // kill; the one on b5 is dormant) nor pass: under no-legal-move = passes the turn goes
        // back without using a pass.
        let o = opts(&[("no-legal-move", "passes")]);
        let pos = fen((4, 5), "KP2/PP2/4/4/3k w 2/0 0/0 -/- up/down", &o);
        let moves = {
            let mut v = Vec::new();
            pos.legal_moves(&mut v);
            v
        };
        assert_eq!(moves.len(), 1);
        let steps = pos.explain_legal(moves[0]);
        assert_eq!(
            pairs(&steps),
            [("no-legal-move", A), ("kill-rule", E)],
            "{}",
            shown(&steps)
        );
    }

    #[test]
    fn turns_forbidden_by_two_rules_at_once() {
        // Written as a kill, and a ricochet off its own Knight cannot end the move.
        let steps = steps_of((4, 5), COMPOUND, "Aa1xc1");
        assert_eq!(
            pairs(&steps),
            [
                ("not-your-turn", A),
                ("kill-mark", F),
                ("ricochet-goes-on", F)
            ],
            "{}",
            shown(&steps)
        );
        // No rook's move, and onto its own pawn.
        let steps = steps_of((5, 5), "k4/1p3/n4/1P3/R3K w", "Ra1-b2");
        assert_eq!(
            pairs(&steps),
            [
                ("not-your-turn", A),
                ("chess-moves", F),
                ("own-piece-on-target", F)
            ],
            "{}",
            shown(&steps)
        );
        // A dormant pawn does not move, and not backwards either.
        let steps = steps_of((4, 5), "1P2/4/3k/4/K1R1 w", "b5-b4");
        assert_eq!(
            pairs(&steps),
            [
                ("not-your-turn", A),
                ("dormant-pawn", F),
                ("pawn-direction", F)
            ],
            "{}",
            shown(&steps)
        );
        // A pass with something after it, when both passes are spent.
        let steps = steps_of(
            (4, 5),
            "k1r1/4/n3/3K/A1N1 w 2/0 0/0 -/- up/down",
            "pass; reborn a1",
        );
        assert_eq!(
            pairs(&steps),
            [("turn-length", F), ("pass", F)],
            "{}",
            shown(&steps)
        );
        // Neither knight reaches c3: each says why.
        let steps = steps_of((5, 5), "k4/5/5/5/N1N1K w", "Nc3");
        assert_eq!(
            pairs(&steps),
            [("no-such-piece", F), ("chess-moves", F)],
            "{}",
            shown(&steps)
        );
    }

    /// There is no check, so no turn is refused for its King's safety: the King may step
    /// where the Rook can kill it, and the explanation says so.
    #[test]
    fn a_king_moves_where_it_can_be_killed() {
        let steps = steps_of((4, 5), COMPOUND, "Kd2-c3");
        assert_eq!(
            pairs(&steps),
            [
                ("not-your-turn", A),
                ("chess-moves", A),
                ("own-piece-on-target", A),
                ("no-check", A),
                ("kill-rule", E)
            ],
            "{}",
            shown(&steps)
        );
        assert_eq!(
            steps[3].note,
            "there is no check: the king may go to c3 although the black rook on c5 could kill it there"
        );
        // Killing a King is a kill like any other.
        let steps = steps_of((4, 5), "k1r1/4/n3/2K1/A1N1 b", "Rc5xc2");
        assert_eq!(
            pairs(&steps),
            [
                ("not-your-turn", A),
                ("chess-moves", A),
                ("blocked", A),
                ("own-piece-on-target", A),
                ("chess-moves", E),
                ("no-check", E),
                ("kill-rule", E)
            ],
            "{}",
            shown(&steps)
        );
    }
}
