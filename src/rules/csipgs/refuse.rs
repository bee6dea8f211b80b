//! Why a written turn is not a legal csipgs turn, in words. The rule comes from the tags of
//! [`Csipgs::explore`]; only what concerns the text (the shape of the turn, a design or a
//! reserve piece the player does not have, a move no atom of the piece makes) is decided here.

use super::*;
use crate::rules::refusal::{
    from_best, furthest, keep_furthest, mark_refusal, origins, piece_words, what, whence, Explored,
};
use crate::rules::turn::{CastleSide, MoveShape, PieceRef, StraightMove};

pub(super) fn sq_name(s: Square) -> String {
    Csipgs::geometry().square_name(s)
}

pub(super) fn slot_of(piece: PieceRef) -> Slot {
    match piece {
        PieceRef::Role(r) => Slot::Role(r),
        PieceRef::Design(d) => Slot::of_design(d),
    }
}

pub(super) fn refusal(pos: &Csipgs, pattern: &TurnPattern) -> Refusal {
    let shape = |s: &str| Refusal::new("turn-structure", s.to_string());
    let actions = match pattern {
        TurnPattern::Actions { actions, .. } => actions,
        TurnPattern::Resign | TurnPattern::Draw => {
            return Refusal::new(
                "no-such-action",
                "resigning and agreeing a draw are not moves",
            )
        }
        TurnPattern::Timeout => {
            return Refusal::new(
                "no-such-action",
                "a timeout is not a turn in this variant; its games have no move clock",
            )
        }
    };
    match &actions[..] {
        [] => return shape("a turn needs an action"),
        [ActionPattern::Redesign { .. }, ..] => {
            return shape("a design change comes after the turn's action (`Kd2; P=WbRbmHfB`)")
        }
        [_, ActionPattern::Redesign { .. }] | [_] => {}
        [_, _] => return shape("a turn is one action, then at most one design change (`Q=BL`)"),
        _ => {
            return shape(&format!(
                "a turn is one action and at most one design change; this one has {} parts",
                actions.len()
            ))
        }
    }
    // A legal action followed by a design change that cannot be made: the change decides, as
    // in `resolve`.
    if let (
        [first, ActionPattern::Redesign {
            from_design,
            to_design,
        }],
        TurnPattern::Actions { claim, .. },
    ) = (&actions[..], pattern)
    {
        let single = TurnPattern::Actions {
            actions: vec![first.clone()],
            claim: *claim,
        };
        if pos.resolve(&single).is_ok() {
            if let Err(r) = pos.redesign(from_design, to_design) {
                return r;
            }
        }
    }
    let all = {
        let mut all = Explored::default();
        pos.explore(&mut all);
        all
    };
    let us = pos.turn;
    match &actions[0] {
        ActionPattern::Castle(side) => Refusal::new(
            "no-castling",
            format!(
                "castling is illegal in csipgs chess (rule 10); {} is not a move",
                if *side == CastleSide::King {
                    "O-O"
                } else {
                    "O-O-O"
                }
            ),
        ),
        ActionPattern::Coup { .. }
        | ActionPattern::Reborn { .. }
        | ActionPattern::Vanish { .. }
        | ActionPattern::Pass => Refusal::new(
            "no-such-action",
            "the actions of a csipgs turn are a move, a drop and a purchase",
        ),
        ActionPattern::Redesign { .. } => shape("a design change comes after the turn's action"),
        ActionPattern::Buy { design } => {
            let i = match design_slot(pos, design) {
                Ok((i, _)) => i,
                Err(r) => return r,
            };
            // The explorer offers each design once, from its first slot, as `position` finds.
            let tagged = all
                .rejected
                .iter()
                .find(|(m, _)| m.act == Act::Buy { slot: i as u8 });
            match tagged {
                Some((m, why)) => sentence(pos, *m, *why),
                None => fallback(),
            }
        }
        ActionPattern::Drop { piece, to } => {
            let kind = slot_of(*piece);
            if let Some(r) = reserve_refusal(pos, kind) {
                return r;
            }
            let t = Sq::of(*to).0;
            let tagged = all
                .rejected
                .iter()
                .find(|(m, _)| m.act == Act::Drop { kind, to: t });
            if let Some((m, why)) = tagged {
                return sentence(pos, *m, *why);
            }
            if all.legal.iter().any(|m| m.act == Act::Drop { kind, to: t }) {
                return fallback();
            }
            drop_square_refusal(pos, *to)
        }
        ActionPattern::Move { .. } => {
            let MoveShape::Straight(StraightMove {
                kind,
                from,
                to,
                capture,
                promotion,
            }) = actions[0].shape()
            else {
                return Refusal::new(
                    "design-move",
                    "a csipgs move goes straight to its destination; it names no squares between, and nothing ricochets or switches",
                );
            };
            if promotion.is_some() {
                return Refusal::new(
                    "no-promotion",
                    "pawn promotion is illegal in csipgs chess (rule 10): a pawn on the last rank stays a pawn",
                );
            }
            // A design that is a standard one names that piece: `(N)` is the knight.
            let kind = kind.map(|k| match slot_of(k) {
                Slot::Role(r) => PieceRef::Role(r),
                Slot::Design(d) => PieceRef::Design(d),
            });
            let starts = match origins(&pos.board, &Csipgs::geometry(), us, kind, from) {
                Ok(s) => s,
                Err(r) => return r,
            };
            let (what, whence) = (what(us, kind), whence(&Csipgs::geometry(), from));
            let best = match best_step(pos, &all, &starts, to, capture) {
                Ok(best) => best.map(|(stage, r, _)| (stage, r)),
                Err(()) => return fallback(),
            };
            from_best(best, starts.len(), || {
                Refusal::new(
                    "no-such-piece",
                    format!("no {what}{whence} can move to {}", sq_name(to)),
                )
            })
        }
    }
}

/// The refusal of a written move from the candidate among `starts` that got furthest (the
/// first of equals, as in chess), with its origin; `Err` when one of them is legal as written.
pub(super) fn best_step(
    pos: &Csipgs,
    all: &Explored<Move>,
    starts: &[Square],
    to: Square,
    capture: bool,
) -> Result<Option<(Stage, Refusal, Square)>, ()> {
    let mut best: Option<(Stage, Refusal)> = None;
    let mut from = None;
    for s in starts {
        let found = step_refusal(pos, all, *s, to, capture).ok_or(())?;
        if best.as_ref().is_none_or(|(b, _)| found.0 > *b) {
            from = Some(*s);
        }
        keep_furthest(&mut best, found);
    }
    Ok(best.zip(from).map(|((stage, r), s)| (stage, r, s)))
}

/// Why the written move of the own piece on `from` to `to` fails, and how far its best
/// candidate got: a move that gets past its target but is written with the wrong capture mark
/// at [`Stage::Mark`], as chess reads it; `None` when a legal move matches.
pub(super) fn step_refusal(
    pos: &Csipgs,
    all: &Explored<Move>,
    from: Square,
    to: Square,
    capture: bool,
) -> Option<(Stage, Refusal)> {
    let (f, t) = (Sq::of(from).0, Sq::of(to).0);
    let aimed = |m: &Move| m.act == Act::Step { from: f, to: t };
    if all.legal.iter().any(aimed) {
        let captures = pos.board.get(to).is_some();
        return mark_refusal(&Csipgs::geometry(), from, to, capture, captures)
            .map(|r| (Stage::Mark, r));
    }
    let captures = pos.board.get(to).is_some();
    Some(
        match furthest(all.rejected.iter().filter(|(m, _)| aimed(m)).copied()) {
            Some((_, why)) if why.stage >= Stage::Mark && capture != captures => {
                let r = mark_refusal(&Csipgs::geometry(), from, to, capture, captures);
                (Stage::Mark, r.expect("the marks differ"))
            }
            Some((m, why)) => (why.stage, sentence(pos, m, why)),
            None => (Stage::Movement, movement_refusal(pos, from, to)),
        },
    )
}

/// The first of the side to move's slots holding the design `text` (a purchase names it), or
/// why none does: the text is no design, or not one of the player's.
pub(super) fn design_slot(pos: &Csipgs, text: &str) -> Result<(usize, Slot), Refusal> {
    let us = pos.turn;
    let slot =
        Slot::parse_read(text, pos.opts.separate).map_err(|e| Refusal::new("buy-design", e))?;
    let designs = &pos.designs[us.index()];
    match designs.iter().position(|s| *s == slot) {
        Some(i) => Ok((i, slot)),
        None => {
            let names: Vec<String> = designs.iter().map(|s| s.name()).collect();
            Err(Refusal::new(
                "buy-design",
                format!(
                    "{} is not one of {us}'s designs ({}); change a design first, and buy on a later turn",
                    slot.name(),
                    names.join(" ")
                ),
            ))
        }
    }
}

/// Why the side to move cannot drop a piece of `kind`: none in its reserve (one on the board
/// cannot leave it); `None` when it has one.
pub(super) fn reserve_refusal(pos: &Csipgs, kind: Slot) -> Option<Refusal> {
    let us = pos.turn;
    if pos.reserve[us.index()]
        .iter()
        .any(|k| k.canonical() == kind.canonical())
    {
        return None;
    }
    if let Some((s, _)) = pos
        .board
        .pieces()
        .find(|(_, p)| p.color() == us && Slot::of_piece(*p) == kind)
    {
        return Some(Refusal::new(
            "no-leaving-board",
            format!(
                "{us} has no {} in reserve; the one on {} cannot leave the board to be dropped (rule 6)",
                kind.piece_name(),
                sq_name(s)
            ),
        ));
    }
    Some(Refusal::new(
        "drop-reserve",
        format!(
            "{us} has no {} in reserve (reserve: {})",
            kind.piece_name(),
            pos.reserve_text(us, " ")
        ),
    ))
}

/// A drop onto `to`, which is not an empty square next to one of the side's Kings.
pub(super) fn drop_square_refusal(pos: &Csipgs, to: Square) -> Refusal {
    let why = match pos.board.get(to) {
        Some(p) => format!("{} holds the {}", sq_name(to), piece_words(p)),
        None => format!("{} is next to none of {}'s kings", sq_name(to), pos.turn),
    };
    Refusal::new(
        "drop-next-to-king",
        format!("a reserve piece goes onto an empty square next to one of its side's kings; {why}"),
    )
}

fn fallback() -> Refusal {
    Refusal::new("no-such-action", "no legal csipgs turn matches this turn")
}

/// A move the piece's design never makes.
pub(super) fn movement_refusal(pos: &Csipgs, from: Square, to: Square) -> Refusal {
    let p = pos
        .board
        .get(from)
        .unwrap_or(Piece::new(pos.turn, Role::Pawn));
    let (f, t) = (sq_name(from), sq_name(to));
    let fwd = if p.color() == Color::White { 1 } else { -1 };
    let (df, dr) = (
        i32::from(to.file) - i32::from(from.file),
        (i32::from(to.rank) - i32::from(from.rank)) * fwd,
    );
    if p.role() == Role::Pawn && df == 0 && dr == 2 {
        return Refusal::new(
            "no-double-step",
            format!("pawns cannot move two squares, even on their first move (rule 10); {f} to {t} is a double step"),
        );
    }
    if p.role() == Role::King && dr == 0 && df.abs() == 2 {
        return Refusal::new(
            "no-castling",
            format!(
                "castling is illegal in csipgs chess (rule 10); the king on {f} moves one square"
            ),
        );
    }
    let design = Slot::of_piece(p).design_name();
    Refusal::new(
        "design-move",
        format!(
            "the {} on {f} moves as its design {design} says, and {f} to {t} is none of its moves",
            piece_words(p)
        ),
    )
}

/// The generator's tag on candidate `m` in words.
pub(super) fn sentence(pos: &Csipgs, m: Move, why: Rejection) -> Refusal {
    let us = pos.turn;
    let b = &pos.board;
    let at = why.at.map(sq_name).unwrap_or_default();
    let piece_at = |s: Option<Square>| {
        s.and_then(|s| b.get(s))
            .map_or("a piece".to_string(), |p| format!("the {}", piece_words(p)))
    };
    let text = match (m.act, why.rule) {
        (Act::Step { from, to }, "blocked") => format!(
            "the piece on {} cannot pass over {} on {at} to reach {}",
            name(from),
            piece_at(why.at),
            name(to)
        ),
        (Act::Step { to, .. }, "own-piece-on-target") => format!(
            "{} holds {}; a piece cannot move onto its own side's piece",
            name(to),
            piece_at(Some(square(to)))
        ),
        (Act::Step { from, to }, "design-move") => {
            let design = b
                .piece_at(Sq(from))
                .map_or(String::new(), |p| Slot::of_piece(p).design_name());
            match b.piece_at(Sq(to)) {
                Some(p) => format!(
                    "the {design} on {} reaches {} only by an atom that moves without capturing (m), and {} holds the {}",
                    name(from),
                    name(to),
                    name(to),
                    piece_words(p)
                ),
                None => format!(
                    "the {design} on {} reaches {} only by an atom that captures (c), and {} is empty",
                    name(from),
                    name(to),
                    name(to)
                ),
            }
        }
        (_, "own-king-in-check") => {
            let mut after = pos.clone();
            after.apply(m);
            let kings = after.kings(us);
            let k = kings
                .iter()
                .find(|k| after.attacked(**k, us.other()).is_some())
                .or(kings.first())
                .map_or(String::new(), |k| sq_name(k.square()));
            let counted = if kings.len() > 1 {
                format!(
                    " (with kings-counted = before-turn {us} has one King while it plays this turn, so it may not ignore check)"
                )
            } else {
                String::new()
            };
            format!(
                "after this turn the {us} king on {k} would be attacked by {} on {at}{counted}",
                after
                    .board
                    .get(why.at.unwrap_or(Square::new(0, 0)))
                    .map_or("a piece".to_string(), piece_words)
            )
        }
        (Act::Drop { to, .. }, "drop-king-in-check") => format!(
            "{} is next to a {us} king that is in check (from {} on {at}); no reserve piece may go there",
            name(to),
            piece_at(why.at)
        ),
        (_, "buy-in-check") => format!("{us} is in check and cannot buy (rule 4.3)"),
        (_, "buy-sixteen") => format!(
            "{us} already has {} pieces on the board and in reserve; 16 is the most (rule 4.2)",
            pos.piece_count(us)
        ),
        (Act::Buy { slot }, "buy-afford") => {
            let s = pos.designs[us.index()][slot as usize];
            let have = u64::from(pos.treasury[us.index()]) + 1;
            match s.price(pos.opts.separate) {
                Ok(p) => format!(
                    "a {} costs {p} zorkmids and {us} has {have} after this turn's credit",
                    s.name()
                ),
                Err(e) => format!("{} has no price: {e}", s.name()),
            }
        }
        (_, rule) => format!("the turn breaks {rule}"),
    };
    Refusal::new(why.rule, text)
}
