//! Why a written turn is not a legal ChessXpanse turn, in words. The chess pieces' and the
//! Pawns' rules come from the tags of [`Xpanse::explore`]; a Magic Piece's written path is
//! walked leg by leg through [`paths::next_legs`], the function its generator follows; what
//! follows a move (a rebirth, a vanishing) is compared with the turns the move really brings.

use super::paths::{next_legs, PathState};
use super::*;
use crate::rules::refusal::{
    from_best, furthest, keep_furthest, origins, piece_words, what, whence, Explored,
};
use crate::rules::turn::{written_kind, ActionPattern, Origin, PieceRef};

pub(super) fn refusal(pos: &Xpanse, pattern: &TurnPattern) -> Refusal {
    let actions = match pattern {
        TurnPattern::Actions { actions, .. } => actions,
        TurnPattern::Draw => {
            return Xpanse::draw_refusal()
                .unwrap_or_else(|| Refusal::new("no-draws", "there are no draws"))
        }
        TurnPattern::Resign | TurnPattern::Timeout => {
            return Refusal::new(
                "no-such-action",
                "surrendering and timing out are not moves",
            )
        }
    };
    if let Some(o) = pos.result {
        return Refusal::new("game-over", format!("the battle is over: {o}"));
    }
    let (first, second) = match &actions[..] {
        [] => return Refusal::new("turn-length", "a turn needs an action"),
        [a] => (a, None),
        [a, b] => (a, Some(b)),
        _ => {
            return Refusal::new(
                "turn-length",
                format!(
                    "a turn is one move, and at most the rebirth or vanishing it brings; this one has {} actions",
                    actions.len()
                ),
            )
        }
    };
    if let Some(b) = second {
        if !matches!(
            b,
            ActionPattern::Reborn { .. } | ActionPattern::Vanish { .. }
        ) {
            return Refusal::new(
                "turn-length",
                "only a rebirth (`reborn c1`) or a vanishing (`vanish e5`) follows a move",
            );
        }
    }
    let us = pos.turn;
    match first {
        ActionPattern::Castle(_) => {
            Refusal::new("no-castling", "there is no castling in ChessXpanse")
        }
        ActionPattern::Drop { .. }
        | ActionPattern::Coup { .. }
        | ActionPattern::Buy { .. }
        | ActionPattern::Redesign { .. } => Refusal::new(
            "no-such-action",
            "a ChessXpanse turn is a move or a pass; there are no drops, coups, purchases or designs",
        ),
        ActionPattern::Reborn { .. } | ActionPattern::Vanish { .. } => Refusal::new(
            "turn-length",
            "a rebirth or a vanishing follows the move that brings it (`c4-c5; reborn c1`)",
        ),
        ActionPattern::Pass => {
            if second.is_some() {
                return Refusal::new("turn-length", "a pass is a whole turn; nothing follows it");
            }
            if pos.state.passes[us.index()] >= MAX_PASSES {
                return Refusal::new(
                    "pass",
                    format!("{us} has passed {MAX_PASSES} times in this battle, the most allowed"),
                );
            }
            fallback()
        }
        ActionPattern::Move {
            style,
            piece,
            from,
            legs,
            promotion,
        } => {
            if promotion.is_some() {
                return Refusal::new(
                    "no-promotion",
                    "a Pawn is never promoted in ChessXpanse: on its far row it is reborn or vanishes",
                );
            }
            let kind = written_kind(*style, *piece);
            move_refusal(pos, first, kind, *from, legs, second)
        }
    }
}

fn fallback() -> Refusal {
    Refusal::new(
        "no-such-action",
        "no legal ChessXpanse turn matches this turn",
    )
}

fn move_refusal(
    pos: &Xpanse,
    first: &ActionPattern,
    kind: Option<PieceRef>,
    from: Origin,
    legs: &[Leg],
    second: Option<&ActionPattern>,
) -> Refusal {
    let g = *pos.geometry();
    let starts = match origins(&pos.board, &g, pos.turn, kind, from) {
        Ok(s) => s,
        Err(r) => return r,
    };
    // The legal turns whose move is the one written: then only what follows it is wrong.
    let turns = pos.legal_turns();
    let moved: Vec<&Turn> = turns
        .iter()
        .map(|(_, t)| t)
        .filter(|t| t.actions.first().is_some_and(|a| first.matches(a)))
        .collect();
    if !moved.is_empty() {
        return follow_refusal(pos, &moved, second);
    }
    let mut best: Option<(Stage, Refusal)> = None;
    for s in &starts {
        let Some(p) = pos.board.get(*s) else { continue };
        let found = match p.role() {
            Role::Gatekeeper | Role::Mage | Role::Archer => judge_path(pos, *s, p, legs),
            _ => chess_piece(pos, *s, p, legs),
        };
        keep_furthest(&mut best, found);
    }
    from_best(best, starts.len(), || {
        Refusal::new(
            "no-such-piece",
            format!(
                "no {}{} can go to {}",
                what(pos.turn, kind),
                whence(&g, from),
                legs.last().map_or(String::new(), |l| g.square_name(l.to))
            ),
        )
    })
}

/// A move of a chess piece or a Pawn: one leg, read from the explorer's tags.
pub(super) fn chess_piece(pos: &Xpanse, s: Square, p: Piece, legs: &[Leg]) -> (Stage, Refusal) {
    let word = p.role().word();
    let [leg_written] = legs else {
        return (
            Stage::Movement,
            Refusal::new(
                if p.role() == Role::Pawn {
                    "pawn-move"
                } else {
                    "chess-moves"
                },
                format!(
                    "a {word} moves in one leg; only the Gatekeeper, the Mage and the Archer ricochet or go on"
                ),
            ),
        );
    };
    let to = leg_written.to;
    let (f, t) = (Sq::of(s), Sq::of(to));
    let mut all = Explored::default();
    pos.explore(&mut all);
    let aimed = |m: &Move| m.from == f.0 && m.destination() == Some(t);
    if let Some(m) = all.legal.iter().find(|m| aimed(m)) {
        return (Stage::Mark, mark_refusal(pos, s, to, m.kills()));
    }
    if let Some((m, why)) = furthest(all.rejected.iter().filter(|(m, _)| aimed(m)).copied()) {
        return (why.stage, sentence(pos, m, why));
    }
    (Stage::Movement, movement_refusal(pos, s, p, to))
}

fn mark_refusal(pos: &Xpanse, s: Square, to: Square, kills: bool) -> Refusal {
    let g = pos.geometry();
    let (f, t) = (g.square_name(s), g.square_name(to));
    Refusal::new(
        "kill-mark",
        if kills {
            format!("{f}x{t} kills on {t}, so it is written with x")
        } else {
            format!("{f}-{t} kills nothing on {t}, so it is written without x")
        },
    )
}

/// A move its piece never makes, whatever stands around it.
pub(super) fn movement_refusal(pos: &Xpanse, s: Square, p: Piece, to: Square) -> Refusal {
    let g = pos.geometry();
    let (f, t) = (g.square_name(s), g.square_name(to));
    let us = p.color();
    let (df, dr) = (
        i32::from(to.file) - i32::from(s.file),
        i32::from(to.rank) - i32::from(s.rank),
    );
    if p.role() == Role::Pawn {
        let fwd = if pos.state.up[us.index()] { 1 } else { -1 };
        let direction = if pos.state.up[us.index()] {
            "up"
        } else {
            "down"
        };
        if s.rank == pos.far_rank(us) {
            return Refusal::new(
                "dormant-pawn",
                format!("the pawn on {f} stands on its far row: it is dormant and cannot move on its own"),
            );
        }
        if df == 0 && dr == 2 * fwd {
            return Refusal::new(
                "no-double-step",
                format!("the Pawn always moves by one, never by two; {f} to {t} is a double step"),
            );
        }
        if dr * fwd < 0 {
            return Refusal::new(
                "pawn-direction",
                format!("{us}'s pawns move {direction} the board (pawn-direction {us} = {direction}); {f} to {t} goes the other way"),
            );
        }
        return Refusal::new(
            "pawn-move",
            format!("a pawn moves one square forward, or kills one square diagonally forward; {f} to {t} is neither"),
        );
    }
    if p.role() == Role::King && dr == 0 && df.abs() == 2 {
        return Refusal::new(
            "no-castling",
            format!("there is no castling in ChessXpanse; the king on {f} moves one square"),
        );
    }
    Refusal::new(
        "chess-moves",
        format!(
            "the {} on {f} moves as in chess, and {f} to {t} is none of its moves",
            piece_words(p)
        ),
    )
}

/// The explorer's tag on a candidate, in words.
fn sentence(pos: &Xpanse, m: Move, why: Rejection) -> Refusal {
    let g = pos.geometry();
    let name = |s: Sq| g.square_name(s.square());
    let at = why.at.map(|s| g.square_name(s)).unwrap_or_default();
    let holder = |s: Square| {
        pos.board
            .get(s)
            .map_or("nothing".to_string(), |p| format!("the {}", piece_words(p)))
    };
    let to = m.destination().unwrap_or(Sq(m.from));
    let text = match why.rule {
        "blocked" => format!(
            "the piece on {} cannot pass over {} on {at} to reach {}",
            name(Sq(m.from)),
            why.at.map_or("a piece".into(), holder),
            name(to)
        ),
        "own-piece-on-target" => format!(
            "{} holds {}; a piece cannot move onto its own side's piece",
            name(to),
            holder(to.square())
        ),
        "pawn-move"
            if pos.board.piece_at(to).is_some()
                && m.legs().count() == 1
                && to.square().file == Sq(m.from).square().file =>
        {
            format!(
                "a pawn moves forward only onto an empty square, and {} holds {}",
                name(to),
                holder(to.square())
            )
        }
        "pawn-move" => format!(
            "a pawn moves diagonally only to kill, and {} is empty",
            name(to)
        ),
        "pass" => format!(
            "{} has passed {MAX_PASSES} times in this battle, the most allowed",
            pos.turn
        ),
        rule => return path_sentence(pos, rule, why),
    };
    Refusal::new(why.rule, text)
}

/// A Magic Piece's leg stopped by a rule, in words.
pub(super) fn path_sentence(pos: &Xpanse, rule: &'static str, why: Rejection) -> Refusal {
    let g = pos.geometry();
    let at = why.at.map(|s| g.square_name(s)).unwrap_or_default();
    let holder = why
        .at
        .and_then(|s| pos.board.get(s))
        .map_or("nothing".to_string(), |p| format!("the {}", piece_words(p)));
    let text = match rule {
        "path-no-revisit" => format!("the path has already stopped on {at} (or started there); a path never stops twice on one square"),
        "gatekeeper-no-leap-gatekeeper" => format!("the first piece on the line is {holder} on {at}, and a Gatekeeper may not leap over another Gatekeeper"),
        "gatekeeper-no-kill-gatekeeper" => format!("{at} holds {holder}, and a Gatekeeper may not kill another Gatekeeper"),
        "mage-no-kill-mage" => format!("{at} holds {holder}, and a Mage may not kill another Mage"),
        "archer-no-kill-archer" => format!("{at} holds {holder}, and an Archer may not kill another Archer"),
        "no-second-ricochet" => format!("{at} holds {holder}: the piece has ricocheted once already, and multiple ricochets are not allowed"),
        "archer-switch" => format!("a switch lands on an empty square next to the last ricochet, and {at} holds {holder}"),
        _ => format!("{rule} forbids the leg to {at}"),
    };
    Refusal::new(rule, text)
}

/// The rule and the words for a leg the piece's movement does not make at all.
fn no_such_leg(pos: &Xpanse, st: &PathState, p: Piece, to: Square) -> Refusal {
    let g = pos.geometry();
    let (from, t) = (g.square_name(st.at.square()), g.square_name(to));
    let first = st.ricochets == 0;
    match p.role() {
        Role::Gatekeeper if first => Refusal::new(
            "gatekeeper-move",
            format!(
                "the gatekeeper on {from} cannot reach {t}: it moves along a {} (option gatekeeper-lines), leaps over the first piece on it, and then stops on the square after it (option gatekeeper-landing)",
                if pos.opts.gatekeeper_all_lines.get() { "rank, file or diagonal" } else { "rank or file" }
            ),
        ),
        Role::Gatekeeper => Refusal::new(
            "gatekeeper-ricochet",
            format!("after its ricochet the gatekeeper turns 90 degrees and leaps over the next piece; from {from} that does not reach {t}"),
        ),
        Role::Mage if first => Refusal::new(
            "mage-move",
            format!("the mage on {from} cannot reach {t}: it leaps one square one way and three the other"),
        ),
        Role::Mage => Refusal::new(
            "mage-ricochet",
            format!("after its ricochet the mage leaps one square one way and three the other; from {from} that does not reach {t}"),
        ),
        _ => {
            let near_ricochet = st.switch_centre(pos).is_some_and(|r| {
                let r = r.square();
                (i32::from(r.file) - i32::from(to.file)).abs() <= 1
                    && (i32::from(r.rank) - i32::from(to.rank)).abs() <= 1
            });
            if near_ricochet {
                Refusal::new(
                    "archer-switch",
                    format!("a switch lands on a square {} the last ricochet (option switch-reach); {t} is not one", if pos.opts.switch_orthogonal.get() { "a rook's step from" } else { "next to" }),
                )
            } else if first {
                Refusal::new(
                    "archer-move",
                    format!("the archer on {from} cannot reach {t}: it leaps two squares along a rank, a file or a diagonal"),
                )
            } else {
                Refusal::new(
                    "archer-ricochet",
                    format!("the archer goes on from {from} by a leap of two squares along a rank, a file or a diagonal, or by a switch next to its last ricochet; neither reaches {t}"),
                )
            }
        }
    }
}

/// Walks a written path leg by leg through the generator's own leg function, and says where
/// it first goes wrong.
pub(super) fn judge_path(pos: &Xpanse, s: Square, p: Piece, written: &[Leg]) -> (Stage, Refusal) {
    let g = *pos.geometry();
    let f = Sq::of(s);
    if let [only] = written {
        // One written leg may name a whole path by where it ends.
        let mut paths = Vec::new();
        paths::explore(pos, f, p.role(), &mut paths);
        let ends_there = paths
            .iter()
            .any(|m| m.destination() == Some(Sq::of(only.to)));
        if ends_there {
            let kills = paths
                .iter()
                .filter(|m| m.destination() == Some(Sq::of(only.to)))
                .all(|m| m.kills());
            return (Stage::Mark, mark_refusal(pos, s, only.to, kills));
        }
    }
    let mut st = PathState::new(p.role(), f);
    for (i, w) in written.iter().enumerate() {
        let last = i + 1 == written.len();
        let here: Vec<_> = next_legs(pos, &st)
            .iter()
            .filter(|(t, _, _)| *t == Sq::of(w.to))
            .collect();
        if here.is_empty() {
            let stage = if i == 0 {
                Stage::Movement
            } else {
                Stage::Second
            };
            return (stage, no_such_leg(pos, &st, p, w.to));
        }
        let ok = here
            .iter()
            .find(|(_, _, r)| matches!(r, Ok(k) if w.kind.admits(leg::kind(*k))));
        let Some(&(t, dir, Ok(kind))) = ok else {
            if let Some((_, _, Ok(k))) = here.iter().find(|(_, _, r)| r.is_ok()) {
                let from = g.square_name(st.at.square());
                let done = leg::kind(*k);
                return (
                    Stage::Mark,
                    Refusal::new(
                        "kill-mark",
                        format!(
                            "the leg from {from} to {} {}, so it is written {}",
                            g.square_name(w.to),
                            match done {
                                LegKind::Kill(_) => "kills",
                                LegKind::Ricochet => "ricochets",
                                LegKind::Switch => "switches",
                                LegKind::Step => "lands",
                            },
                            if done.is_kill() { "with x" } else { "with -" }
                        ),
                    ),
                );
            }
            let why = here
                .iter()
                .find_map(|(_, _, r)| r.err())
                .unwrap_or(Rejection::new("no-such-action", Stage::Target));
            return (why.stage, path_sentence(pos, why.rule, why));
        };
        let name = g.square_name(w.to);
        let word = p.role().word();
        if !last {
            match kind {
                leg::STEP | leg::SWITCH => {
                    return (
                        Stage::Target,
                        Refusal::new(
                            magic_rule(p.role()),
                            format!("the {word} lands on the empty square {name}, and a landing ends its move"),
                        ),
                    )
                }
                leg::KILL if !st.goes_on_after_kill(pos, t) => {
                    let rule = if p.role() == Role::Archer {
                        "archer-ricochet"
                    } else {
                        magic_rule(p.role())
                    };
                    return (
                        Stage::Target,
                        Refusal::new(
                            rule,
                            format!("the {word} kills on {name}, and that kill ends its move{}", if p.role() == Role::Archer { format!(" (option {})", st.kill_end_option(pos)) } else { String::new() }),
                        ),
                    );
                }
                _ => {}
            }
        } else if kind == leg::RICOCHET {
            return (
                Stage::Target,
                Refusal::new(
                    "ricochet-goes-on",
                    format!("{name} holds a {} piece: the {word} ricochets off it and must go on; a move never ends on the piece it ricochets off", pos.turn),
                ),
            );
        }
        st = st.after(pos, t, kind, dir);
    }
    (Stage::Final, fallback())
}

pub(super) fn magic_rule(role: Role) -> &'static str {
    match role {
        Role::Gatekeeper => "gatekeeper-move",
        Role::Mage => "mage-move",
        _ => "archer-move",
    }
}

/// What a move brings, read from the move itself: its origin, whether a pawn arrives on the far
/// row, and whether it leaves a first-row square while a dormant pawn waits.
pub(super) fn brings(
    moved: Option<&Turn>,
    first: u8,
    far: u8,
    dormant: &[Sq],
) -> (Option<Square>, bool, bool) {
    let (origin, arrives) = match moved.and_then(|t| t.actions.first()) {
        Some(Action::Move {
            role, from, legs, ..
        }) => (
            Some(*from),
            *role == Role::Pawn && legs.last().is_some_and(|l| l.to.rank == far),
        ),
        _ => (None, false),
    };
    let vacates = !arrives && origin.is_some_and(|o| o.rank == first) && !dormant.is_empty();
    (origin, arrives, vacates)
}

/// The move is legal; what is written after it is not what it brings.
/// Why the move alone says which pawn is concerned although its side has several dormant
/// pawns, when a reading makes it so.
fn which_pawn(pos: &Xpanse, moved: &[&Turn]) -> &'static str {
    let us = pos.turn;
    let several = Xpanse::dormant(&pos.board, us, pos.far_rank(us)).len() > 1;
    let by_kill = moved
        .first()
        .and_then(|t| t.actions.first())
        .is_some_and(|a| {
            matches!(
                a,
                Action::Move {
                    role: Role::Pawn,
                    ..
                }
            ) && a.kills()
        });
    if several && by_kill && !pos.opts.dormant_on_kill.peek() {
        " (option dormant-on-kill = no: a pawn arriving by a kill is itself reborn or vanishes)"
    } else if several && pos.opts.nearest_dormant.peek() {
        " (option dormant-choice = nearest: the dormant pawn nearest by file is the one concerned)"
    } else {
        ""
    }
}

fn follow_refusal(pos: &Xpanse, moved: &[&Turn], second: Option<&ActionPattern>) -> Refusal {
    let g = pos.geometry();
    let us = pos.turn;
    let rank = |r: u8| g.rank_label(r);
    let dormant = Xpanse::dormant(&pos.board, us, pos.far_rank(us));
    let dormant_names: Vec<String> = dormant.iter().map(|s| pos.name(*s)).collect();
    let (first, far) = (pos.first_rank(us), pos.far_rank(us));
    let (origin, arrives, vacates) = brings(moved.first().copied(), first, far, &dormant);
    let reborn_targets: Vec<Square> = moved
        .iter()
        .filter_map(|t| match t.actions.get(1) {
            Some(Action::Reborn { square, .. }) => Some(*square),
            _ => None,
        })
        .collect();
    // The dormant pawns the legal turns name (none when the move alone says which pawn).
    let mut named: Vec<Square> = moved
        .iter()
        .filter_map(|t| match t.actions.get(1) {
            Some(Action::Reborn { from: Some(f), .. }) => Some(*f),
            Some(Action::Vanish { square }) => Some(*square),
            _ => None,
        })
        .collect();
    named.sort();
    named.dedup();
    let names_needed = !named.is_empty();
    match second {
        None => Refusal::new(
            "dormant-pawn",
            format!(
                "{us} has several dormant pawns ({}): the turn names the one reborn (`reborn {}-<square>`) or the one that vanishes (`vanish {}`)",
                dormant_names.join(", "),
                dormant_names.first().cloned().unwrap_or_default(),
                dormant_names.first().cloned().unwrap_or_default()
            ),
        ),
        Some(_) if !arrives && !vacates => Refusal::new(
            "pawn-reborn",
            "this move brings no rebirth: no pawn reaches its far row, and no first-row square is vacated while a dormant pawn waits",
        ),
        Some(ActionPattern::Reborn { from, square }) => {
            if let Some(f) = from {
                if !dormant.iter().any(|d| d.square() == *f) {
                    return Refusal::new(
                        "dormant-pawn",
                        format!(
                            "{} holds no dormant {us} pawn; the dormant pawns are {}",
                            g.square_name(*f),
                            if dormant_names.is_empty() { "none".to_string() } else { dormant_names.join(", ") }
                        ),
                    );
                }
                if !names_needed && !reborn_targets.is_empty() {
                    return Refusal::new(
                        "dormant-pawn",
                        format!("the pawn reborn is named only when the turn chooses among several dormant pawns{}: write `reborn {}`", which_pawn(pos, moved), g.square_name(*square)),
                    );
                }
                if !named.is_empty() && !named.contains(f) {
                    return Refusal::new(
                        "dormant-pawn",
                        format!(
                            "the dormant pawn on {} is not the one concerned: the pawns nearest by file are {} (option dormant-choice)",
                            g.square_name(*f),
                            named.iter().map(|s| g.square_name(*s)).collect::<Vec<_>>().join(", ")
                        ),
                    );
                }
            }
            if vacates {
                return Refusal::new(
                    "dormant-vacate",
                    format!(
                        "the dormant pawn is reborn only on the square just vacated, {}",
                        origin.map_or(String::new(), |o| g.square_name(o))
                    ),
                );
            }
            let text = if square.rank != first {
                format!(
                    "a pawn is reborn on its first row, rank {}; {} is on rank {}",
                    rank(first),
                    g.square_name(*square),
                    rank(square.rank)
                )
            } else if reborn_targets.is_empty() {
                format!(
                    "no square of the first row (rank {}) is empty, so the pawn vanishes",
                    rank(first)
                )
            } else {
                format!(
                    "{} is not empty, so no pawn can be reborn there",
                    g.square_name(*square)
                )
            };
            Refusal::new("pawn-reborn", text)
        }
        Some(ActionPattern::Vanish { square }) => Refusal::new(
            "dormant-pawn",
            if !names_needed {
                format!("`vanish` names the dormant pawn that vanishes when the turn chooses among several{}; here the move alone says it", which_pawn(pos, moved))
            } else if !named.is_empty() && dormant.iter().any(|d| d.square() == *square) {
                format!(
                    "the dormant pawn on {} is not the one concerned: the pawns nearest by file are {} (option dormant-choice)",
                    g.square_name(*square),
                    named.iter().map(|s| g.square_name(*s)).collect::<Vec<_>>().join(", ")
                )
            } else {
                format!(
                    "{} holds none of {us}'s dormant pawns ({})",
                    g.square_name(*square),
                    dormant_names.join(", ")
                )
            },
        ),
        Some(_) => fallback(),
    }
}
