//! Why a turn is legal or not in csipgs chess, rule by rule (see [`crate::rules::explain`]).
//!
//! A turn is walked through its parts in the order of rule 3: its shape (credit, one action,
//! at most one design change); then the action by the rules [`Csipgs::explore`] applies to
//! it: a move by its piece's design (the atom that goes there, the path, what stands on the
//! target, the capture mark), a drop by the reserve and the square (empty, next to a King of
//! the player, that King not in check), a purchase by the designs, check, the sixteen pieces
//! and the treasury; then king safety with one King (or the rule that lets several Kings
//! ignore check), tested on a copy of the position with the action played; then the design
//! change (the design replaced, the King's kept, the new one priced). A legal turn then gets
//! what it did: the credit, the capture, the reserve and treasury changes, the designs after
//! the change.
//!
//! A refused turn gets each of these rules tested on its own: the rules the decisive
//! candidate (the one [`Csipgs::refusal`] reads the refusal from) passed, the refusal, then
//! every other rule that forbids the written turn, of that piece, of the other pieces the text
//! could mean, and of a design change written after it.

use super::refuse::{
    best_step, design_slot, drop_square_refusal, movement_refusal, reserve_refusal, sentence,
    slot_of, sq_name, step_refusal,
};
use super::*;
use crate::rules::chess::explain::{
    assemble, best_route, listed, passage_note, routes, Check, Route, BLOCKED, FINAL, MARK,
    MOVEMENT, PRE, TARGET,
};
use crate::rules::explain::Step;
use crate::rules::movement::{Landing, Modality};
use crate::rules::refusal::{mark_refusal, origins, piece_text, piece_words, Explored};
use crate::rules::turn::{MoveShape, PieceRef};

/// Where the design change is tested: after the action and its king safety.
const DESIGN: u8 = 80;

fn cell(s: Square) -> u16 {
    Sq::of(s).0
}

/// The atom of a piece's design that a route goes by, as Betza writes it.
fn atom_text(piece: Piece, atom: usize) -> String {
    match Slot::of_piece(piece) {
        Slot::Design(d) => d
            .entry()
            .design
            .atoms()
            .get(atom)
            .map_or_else(|| d.text().to_string(), ToString::to_string),
        Slot::Role(Role::Pawn) => ["fmW", "fcF"].get(atom).copied().unwrap_or("P").into(),
        s => s.design_name(),
    }
}

fn movement_note(piece: Piece, from: Square, to: Square, route: &Route) -> String {
    let only = match route.modality {
        Modality::Move => ", which only moves (m)",
        Modality::Capture => ", which only captures (c)",
        Modality::Both => "",
    };
    format!(
        "the {} on {} {} to {} by the atom {} of its design {}{only}",
        piece_text(piece),
        sq_name(from),
        route.verb(),
        sq_name(to),
        atom_text(piece, route.atom),
        Slot::of_piece(piece).design_name()
    )
}

/// The action of a written turn in words.
fn action_word(a: &ActionPattern) -> &'static str {
    match a {
        ActionPattern::Move { .. } => "a move",
        ActionPattern::Drop { .. } => "a drop",
        ActionPattern::Buy { .. } => "a purchase",
        _ => "an action",
    }
}

fn structure(action: &str, change: Option<String>) -> Check {
    Check::pass(
        PRE,
        "turn-structure",
        match change {
            Some(c) => format!(
                "the turn is the credit of one zorkmid, one action ({action}) and one design change ({c})"
            ),
            None => format!(
                "the turn is the credit of one zorkmid and one action ({action}), with no design change"
            ),
        },
    )
}

/// King safety after the action (`after`, the position it leaves): with one King, the King
/// may not be attacked; with several, check may be ignored (rule 7).
fn safety(pos: &Csipgs, m: Move, after: &Csipgs, mover: Option<(Piece, Square)>) -> Check {
    let us = pos.turn;
    let them = us.other();
    let kings = after.kings(us);
    if kings.len() > 1 && pos.second_king_drop(m) {
        let attacked = kings.iter().find_map(|k| after.attacked(*k, them));
        return match attacked {
            None => Check::pass(
                FINAL,
                "own-king-in-check",
                format!("after the drop no {them} piece attacks either {us} king"),
            ),
            Some(a) if pos.opts.kings_before.get() => Check::fail(
                FINAL,
                sentence(pos, m, Rejection::at("own-king-in-check", Stage::Final, a)),
            ),
            Some(_) => Check::pass(
                FINAL,
                "several-kings",
                format!(
                    "{us} has two kings once the King is dropped (kings-counted = after-turn), so it may ignore check: the turn is not tested for it"
                ),
            ),
        };
    }
    let [k] = kings[..] else {
        return Check::pass(
            FINAL,
            "several-kings",
            format!(
                "{us} has {} kings, so it may ignore check: the turn is not tested for it",
                kings.len()
            ),
        );
    };
    if let Some(a) = after.attacked(k, them) {
        return Check::fail(
            FINAL,
            sentence(pos, m, Rejection::at("own-king-in-check", Stage::Final, a)),
        );
    }
    let kname = sq_name(k.square());
    let note = match mover {
        Some((p, _)) if p.role() == Role::King => {
            format!("no {them} piece attacks {kname}, so the king is not in check there")
        }
        _ => {
            let before = pos.kings(us).first().copied();
            let checker = before.and_then(|b| pos.attacked(b, them));
            let screened = match (mover, before) {
                (Some((_, from)), Some(b)) if checker.is_none() => {
                    let mut lifted = pos.clone();
                    lifted.board.put(from, None);
                    lifted.attacked(b, them)
                }
                _ => None,
            };
            match (checker, screened, mover) {
                (Some(c), _, _) => format!(
                    "the {us} king on {kname} is in check from the {} on {}, and after the turn no {them} piece attacks it",
                    pos.board.get(c).map_or(String::from("piece"), piece_words),
                    sq_name(c)
                ),
                (None, Some(a), Some((p, from))) => {
                    let pinner = format!(
                        "the {} on {}",
                        pos.board.get(a).map_or(String::from("piece"), piece_words),
                        sq_name(a)
                    );
                    let to = match m.act {
                        Act::Step { to, .. } => square(to),
                        _ => from,
                    };
                    if a == to {
                        format!(
                            "the {} on {} screens the {us} king on {kname} from {pinner}, and it captures that piece",
                            piece_text(p),
                            sq_name(from)
                        )
                    } else {
                        format!(
                            "the {} on {} screens the {us} king on {kname} from {pinner}, and on {} it still does",
                            piece_text(p),
                            sq_name(from),
                            sq_name(to)
                        )
                    }
                }
                _ => format!("after the turn no {them} piece attacks the {us} king on {kname}"),
            }
        }
    };
    Check::pass(FINAL, "own-king-in-check", note)
}

/// The rules a move of the own piece on `from` to `to` is judged by, each tested on its own;
/// `capture` is the written capture mark (none for a legal move).
fn step_checks(pos: &Csipgs, from: Square, to: Square, capture: Option<bool>) -> Vec<Check> {
    let us = pos.turn;
    let b = &pos.board;
    let Some(piece) = b.get(from) else {
        return Vec::new();
    };
    let (f, t) = (sq_name(from), sq_name(to));
    let m = Move::plain(Act::Step {
        from: cell(from),
        to: cell(to),
    });
    let tag = |rule: &'static str, at: Option<Square>| {
        let why = match at {
            Some(s) => Rejection::at(rule, Stage::Target, s),
            None => Rejection::new(rule, Stage::Target),
        };
        sentence(pos, m, why)
    };
    let mut out = vec![Check::pass(
        PRE,
        "not-your-turn",
        format!(
            "it is {us}'s turn, and the {} on {f} is {us}'s",
            piece_text(piece)
        ),
    )];
    let found = routes(piece_movement(piece), b, from, to, us);
    let route = best_route(&found, us);
    match route {
        None => out.push(Check::fail(MOVEMENT, movement_refusal(pos, from, to))),
        Some(route) => {
            out.push(Check::pass(
                MOVEMENT,
                "design-move",
                movement_note(piece, from, to, &route),
            ));
            if let Landing::Blocked { by } = route.landing {
                out.push(Check::fail(BLOCKED, tag("blocked", Some(by.square()))));
            } else if let Some(note) = passage_note(b, from, to, &route) {
                out.push(Check::pass(BLOCKED, "blocked", note));
            }
        }
    }
    let (moves, takes) = route.map_or((true, true), |r| {
        (r.modality.moves(), r.modality.captures())
    });
    let captures = match b.get(to) {
        Some(p) if p.color() == us => {
            out.push(Check::fail(TARGET, tag("own-piece-on-target", None)));
            None
        }
        Some(_) if !takes => {
            out.push(Check::fail(TARGET, tag("design-move", None)));
            None
        }
        None if !moves => {
            out.push(Check::fail(TARGET, tag("design-move", None)));
            None
        }
        Some(p) => {
            out.push(Check::pass(
                TARGET,
                "own-piece-on-target",
                format!(
                    "{t} holds the {}, a piece of the other side",
                    piece_words(p)
                ),
            ));
            Some(true)
        }
        None => {
            out.push(Check::pass(
                TARGET,
                "own-piece-on-target",
                format!("{t} is empty"),
            ));
            Some(false)
        }
    };
    if let (Some(written), Some(c)) = (capture, captures) {
        out.push(
            match mark_refusal(&Csipgs::geometry(), from, to, written, c) {
                Some(r) => Check::fail(MARK, r),
                None if c => Check::pass(
                    MARK,
                    "capture-mark",
                    format!("{f}x{t} is a capture, written with x"),
                ),
                None => Check::pass(
                    MARK,
                    "capture-mark",
                    format!("{f}-{t} captures nothing, and it is not written with x"),
                ),
            },
        );
    }
    let mut after = pos.clone();
    after.apply(m);
    out.push(safety(pos, m, &after, Some((piece, from))));
    out
}

/// The rules a drop of a piece of `kind` onto `to` is judged by, each tested on its own.
fn drop_checks(pos: &Csipgs, kind: Slot, to: Square) -> Vec<Check> {
    let us = pos.turn;
    let them = us.other();
    let t = sq_name(to);
    let m = Move::plain(Act::Drop { kind, to: cell(to) });
    let mut out = vec![match reserve_refusal(pos, kind) {
        Some(r) => Check::fail(MOVEMENT, r),
        None => Check::pass(
            MOVEMENT,
            "drop-reserve",
            format!(
                "{us} has {} in reserve (reserve: {})",
                kind.piece_name(),
                pos.reserve_text(us, " ")
            ),
        ),
    }];
    let beside: Vec<Sq> = pos
        .kings(us)
        .into_iter()
        .filter(|k| {
            let s = k.square();
            s != to && s.file.abs_diff(to.file) <= 1 && s.rank.abs_diff(to.rank) <= 1
        })
        .collect();
    if pos.board.get(to).is_some() || beside.is_empty() {
        out.push(Check::fail(TARGET, drop_square_refusal(pos, to)));
    } else {
        let names: Vec<String> = beside.iter().map(|k| sq_name(k.square())).collect();
        out.push(Check::pass(
            TARGET,
            "drop-next-to-king",
            format!(
                "{t} is empty and next to the {us} king on {}",
                listed(&names)
            ),
        ));
        // No King beside the square may be in check (5, and 7 with several); the explorer
        // names the first checked King's attacker.
        out.push(match beside.iter().find_map(|k| pos.attacked(*k, them)) {
            None => Check::pass(
                TARGET + 1,
                "drop-king-in-check",
                format!(
                    "no {us} king beside {t} is in check ({})",
                    listed(
                        &beside
                            .iter()
                            .map(|k| sq_name(k.square()))
                            .collect::<Vec<_>>()
                    )
                ),
            ),
            Some(a) => Check::fail(
                TARGET + 1,
                sentence(
                    pos,
                    m,
                    Rejection::at("drop-king-in-check", Stage::Target, a),
                ),
            ),
        });
    }
    if pos.board.get(to).is_none() {
        let mut after = pos.clone();
        after.apply(m);
        out.push(safety(pos, m, &after, None));
    }
    out
}

/// The rules a purchase of the design written `design` is judged by, each tested on its own.
fn buy_checks(pos: &Csipgs, design: &str) -> Vec<Check> {
    let us = pos.turn;
    let designs: Vec<String> = pos.designs[us.index()].iter().map(|s| s.name()).collect();
    let mut out = Vec::new();
    let slot = match design_slot(pos, design) {
        Ok((i, s)) => {
            out.push(Check::pass(
                MOVEMENT,
                "buy-design",
                format!(
                    "{} is one of {us}'s designs ({})",
                    s.name(),
                    designs.join(" ")
                ),
            ));
            Some((Some(i), s))
        }
        Err(r) => {
            out.push(Check::fail(MOVEMENT, r));
            Slot::parse_read(design, pos.opts.separate)
                .ok()
                .map(|s| (None, s))
        }
    };
    let tagged = |rule: &'static str| {
        let m = Move::plain(Act::Buy {
            slot: slot.and_then(|(i, _)| i).unwrap_or(0) as u8,
        });
        sentence(pos, m, Rejection::new(rule, Stage::Target))
    };
    out.push(if pos.in_check_any(us) {
        Check::fail(TARGET, tagged("buy-in-check"))
    } else {
        Check::pass(
            TARGET,
            "buy-in-check",
            if pos.kings(us).len() > 1 {
                format!("no {us} king is attacked")
            } else {
                format!("{us} is not in check")
            },
        )
    });
    let count = pos.piece_count(us);
    out.push(if count >= MAX_PIECES {
        Check::fail(TARGET + 1, tagged("buy-sixteen"))
    } else {
        Check::pass(
            TARGET + 1,
            "buy-sixteen",
            format!(
                "{us} has {} on the board and in reserve, fewer than 16",
                crate::text::count(count, "piece")
            ),
        )
    });
    if let Some((_, s)) = slot {
        let have = u64::from(pos.treasury[us.index()]) + 1;
        out.push(match s.price(pos.opts.separate) {
            Ok(p) if p > have => Check::fail(
                TARGET + 2,
                Refusal::new(
                    "buy-afford",
                    format!(
                        "a {} costs {p} zorkmids and {us} has {have} after this turn's credit",
                        s.name()
                    ),
                ),
            ),
            Ok(p) => Check::pass(
                TARGET + 2,
                "buy-afford",
                format!(
                    "a {} costs {p} zorkmids, and {us} has {have} after this turn's credit",
                    s.name()
                ),
            ),
            Err(e) => Check::fail(
                TARGET + 2,
                Refusal::new("buy-afford", format!("{} has no price: {e}", s.name())),
            ),
        });
    }
    out
}

/// The rules a design change `from=to` is judged by, each tested on its own, in the order
/// [`Csipgs::redesign`] tests them.
fn redesign_checks(pos: &Csipgs, from: &str, to: &str) -> Vec<Check> {
    let us = pos.turn;
    let designs = &pos.designs[us.index()];
    let mut out = Vec::new();
    let old = Slot::parse_read(from, pos.opts.separate).ok();
    let slot = designs
        .iter()
        .position(|s| Some(*s) == old || s.name() == from || s.design_name() == from);
    let mut royal = false;
    match slot {
        None => {
            let names: Vec<String> = designs.iter().map(|s| s.name()).collect();
            out.push(Check::fail(
                DESIGN,
                Refusal::new(
                    "redesign",
                    format!(
                        "{us} has no design {from}; its designs are {}",
                        names.join(" ")
                    ),
                ),
            ));
        }
        Some(i) => {
            out.push(Check::pass(
                DESIGN,
                "redesign",
                format!(
                    "{us} has the design {} to replace by {to}",
                    designs[i].name()
                ),
            ));
            if designs[i] == Slot::Role(Role::King) {
                royal = true;
                out.push(Check::fail(
                    DESIGN + 1,
                    Refusal::new(
                        "king-design-fixed",
                        "the King's design is kept: the royal pieces are the Kings",
                    ),
                ));
            }
        }
    }
    match Slot::parse_read(to, pos.opts.separate) {
        Err(e) => out.push(Check::fail(DESIGN + 2, Refusal::new("redesign-priced", e))),
        Ok(Slot::Role(Role::King)) => out.push(Check::fail(
            DESIGN + 3,
            Refusal::new(
                "king-design-fixed",
                "a second King's design would make another royal design; write the design `WF` for a non-royal piece that moves as a King",
            ),
        )),
        Ok(new) => {
            if !royal {
                out.push(Check::pass(
                    DESIGN + 3,
                    "king-design-fixed",
                    "neither the design replaced nor the new one is the King's",
                ));
            }
            out.push(match new.price(pos.opts.separate) {
                Ok(p) => Check::pass(
                    DESIGN + 4,
                    "redesign-priced",
                    format!("{} is priced: a piece of it costs {p} zorkmids", new.name()),
                ),
                Err(e) => Check::fail(
                    DESIGN + 4,
                    Refusal::new("redesign-priced", format!("`{to}` has no price: {e}")),
                ),
            });
        }
    }
    out
}

/// What a legal turn did: the credit, the action's capture, drop or purchase, the design
/// change.
fn effects(pos: &Csipgs, m: Move) -> Vec<Step> {
    let us = pos.turn;
    let i = us.index();
    let mut after = pos.clone();
    after.apply(m);
    let treasury = pos.treasury[i];
    let mut out = vec![Step::effect(
        "turn-structure",
        format!(
            "the credit adds one zorkmid to {us}'s treasury: {treasury} becomes {}",
            u64::from(treasury) + 1
        ),
    )];
    match m.act {
        Act::Step { from, to } => {
            let piece = pos.board.piece_at(Sq(from));
            let mover = piece.map_or(String::from("piece"), piece_text);
            if let Some(v) = pos.board.piece_at(Sq(to)) {
                if v.role() == Role::King {
                    out.push(Step::effect(
                        "several-kings",
                        format!(
                            "the {mover} on {} captures the {} on {}: {} has several kings and may leave them in check (rule 7)",
                            name(from),
                            piece_words(v),
                            name(to),
                            v.color()
                        ),
                    ));
                } else {
                    out.push(Step::effect(
                        "design-move",
                        format!(
                            "the {mover} on {} captures the {} on {}, which leaves the board",
                            name(from),
                            piece_words(v),
                            name(to)
                        ),
                    ));
                }
            }
            let last = if us == Color::White { 7 } else { 0 };
            if piece.is_some_and(|p| Slot::of_piece(p) == Slot::Role(Role::Pawn))
                && square(to).rank == last
            {
                out.push(Step::effect(
                    "no-promotion",
                    format!(
                        "the pawn on {} reaches the last rank and stays a pawn: there is no promotion",
                        name(to)
                    ),
                ));
            }
        }
        Act::Drop { kind, to } => out.push(Step::effect(
            "drop-reserve",
            format!(
                "the {} leaves {us}'s reserve for {} (reserve now: {})",
                kind.piece_name(),
                name(to),
                after.reserve_text(us, " ")
            ),
        )),
        Act::Buy { slot } => {
            let s = pos.designs[i][slot as usize];
            let price = s.price(pos.opts.separate).unwrap_or(0);
            out.push(Step::effect(
                "buy-afford",
                format!(
                    "{us} pays {price} zorkmids: its treasury goes from {} to {}",
                    u64::from(treasury) + 1,
                    after.treasury[i]
                ),
            ));
            out.push(Step::effect(
                "buy-design",
                format!(
                    "a {} goes into {us}'s reserve (reserve now: {})",
                    s.piece_name(),
                    after.reserve_text(us, " ")
                ),
            ));
        }
    }
    if let Some((slot, _)) = m.redesign {
        let old = pos.designs[i][slot as usize];
        let made = pos
            .board
            .pieces()
            .filter(|(_, p)| p.color() == us && Slot::of_piece(*p) == old)
            .count()
            + pos.reserve[i].iter().filter(|k| **k == old).count();
        let kept = if made == 0 {
            String::new()
        } else {
            format!(
                "; the {} of {} already made {} that design",
                crate::text::count(made, "piece"),
                old.name(),
                if made == 1 { "keeps" } else { "keep" }
            )
        };
        out.push(Step::effect(
            "redesign",
            format!(
                "{us}'s designs become {}{kept}",
                after.designs_text(us, " ")
            ),
        ));
    }
    out
}

/// The rules a legal turn satisfied, in the order the variant applies them, then the rules
/// behind what it did.
pub(super) fn legal(pos: &Csipgs, m: Move) -> Vec<Step> {
    let us = pos.turn;
    let (word, checks) = match m.act {
        Act::Step { from, to } => ("a move", step_checks(pos, square(from), square(to), None)),
        Act::Drop { kind, to } => ("a drop", drop_checks(pos, kind, square(to))),
        Act::Buy { slot } => (
            "a purchase",
            buy_checks(pos, &pos.designs[us.index()][slot as usize].name()),
        ),
    };
    let change = m.redesign.map(|(slot, new)| {
        let old = pos.designs[us.index()][slot as usize];
        (old, new)
    });
    let mut all = vec![structure(
        word,
        change.map(|(old, new)| format!("{}={}", old.name(), new.name())),
    )];
    all.extend(checks);
    if let Some((old, new)) = change {
        all.extend(redesign_checks(pos, &old.name(), &new.name()));
    }
    let mut steps: Vec<Step> = all.into_iter().map(Check::allows).collect();
    steps.extend(effects(pos, m));
    steps
}

/// The rules a refused turn passed, the rule that forbids it, and the others that would too.
pub(super) fn refused(pos: &Csipgs, pattern: &TurnPattern) -> Vec<Step> {
    let r = pos.refusal(pattern);
    let TurnPattern::Actions { actions, claim } = pattern else {
        return vec![r.into()];
    };
    let is_change = |a: &ActionPattern| matches!(a, ActionPattern::Redesign { .. });
    let (first, change) = match &actions[..] {
        [a] if !is_change(a) => (a, None),
        [a, ActionPattern::Redesign {
            from_design,
            to_design,
        }] if !is_change(a) => (a, Some((from_design.as_str(), to_design.as_str()))),
        _ => return vec![r.into()],
    };
    let redesign = change.map_or_else(Vec::new, |(f, t)| redesign_checks(pos, f, t));
    // A legal action: the design change decides.
    let legal_action = change.is_some()
        && pos
            .resolve(&TurnPattern::Actions {
                actions: vec![first.clone()],
                claim: *claim,
            })
            .is_ok();
    let mut own = vec![structure(
        action_word(first),
        change.map(|(f, t)| format!("{f}={t}")),
    )];
    let mut others = Vec::new();
    match first {
        ActionPattern::Buy { design } => own.extend(buy_checks(pos, design)),
        ActionPattern::Drop { piece, to } => own.extend(drop_checks(pos, slot_of(*piece), *to)),
        ActionPattern::Move { .. } => {
            let MoveShape::Straight(sm) = first.shape() else {
                return assemble(r, &[], &redesign);
            };
            // A design that is a standard one names that piece, as the refusal reads it.
            let kind = sm.kind.map(|k| match slot_of(k) {
                Slot::Role(role) => PieceRef::Role(role),
                Slot::Design(d) => PieceRef::Design(d),
            });
            let Ok(starts) = origins(&pos.board, &Csipgs::geometry(), pos.turn, kind, sm.from)
            else {
                return assemble(r, &[], &redesign);
            };
            let checks = |s: Square| step_checks(pos, s, sm.to, Some(sm.capture));
            if sm.promotion.is_some() {
                own.push(Check::fail(
                    MOVEMENT - 5,
                    Refusal::new(
                        "no-promotion",
                        "pawn promotion is illegal in csipgs chess (rule 10): a pawn on the last rank stays a pawn",
                    ),
                ));
                for &s in &starts {
                    others.extend(checks(s));
                }
            } else {
                // The candidate the refusal comes from, as `refusal` finds it.
                let all = {
                    let mut all = Explored::default();
                    pos.explore(&mut all);
                    all
                };
                let best = best_step(pos, &all, &starts, sm.to, sm.capture).unwrap_or_else(|()| {
                    // One is legal as written: the refusal is of what follows the move.
                    starts
                        .iter()
                        .find(|s| step_refusal(pos, &all, **s, sm.to, sm.capture).is_none())
                        .map(|s| (Stage::Final, r.clone(), *s))
                });
                let decisive = best
                    .filter(|(_, found, _)| *found == r || legal_action)
                    .map(|(_, _, s)| s);
                for &s in &starts {
                    if Some(s) == decisive {
                        own.extend(checks(s));
                    } else {
                        others.extend(checks(s));
                    }
                }
            }
        }
        _ => return assemble(r, &[], &redesign),
    }
    if legal_action {
        own.extend(redesign);
    } else {
        others.extend(redesign);
    }
    assemble(r, &own, &others)
}

#[cfg(test)]
pub(super) mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::rules::explain::StepVerdict;
    use crate::rules::testing::{report, Rng};
    use crate::scenario::evaluate::Lowering;
    use crate::scenario::parse::parse_turn;

    const DESIGNS: [&str; 8] = ["WD", "WbRbmHfB", "sWbmD", "FbDbcA", "NbR", "fF", "BL", "N"];

    fn pos(fen: &str) -> Csipgs {
        Csipgs::from_fen(Csipgs::geometry(), fen, &Options::defaults(OPTIONS))
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// Positions of seeded random playouts with purchases, drops and design changes.
    pub(in crate::rules::csipgs) fn positions(games: usize, seed: u64) -> Vec<Csipgs> {
        let mut rng = Rng(seed);
        let mut out = Vec::new();
        for game in 0..games {
            let money = 6 * (game % 4) as u32;
            let mut p = pos(&format!(
                "4k3/8/8/8/8/8/8/4K3 w {money}/{money} -/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF"
            ));
            let plies = 10 + rng.below(60);
            for _ in 0..plies {
                let mut moves = Vec::new();
                p.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                // Purchases and drops first, so that the boards fill.
                let busy: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| !matches!(m.act, Act::Step { .. }))
                    .collect();
                let mut m = if !busy.is_empty() && rng.below(3) > 0 {
                    busy[rng.below(busy.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                if rng.below(4) == 0 {
                    let slot = rng.below(6);
                    let old = p.designs[p.turn.index()][slot].name();
                    if let Ok(change) = p.redesign(&old, DESIGNS[rng.below(DESIGNS.len())]) {
                        m.redesign = Some(change);
                    }
                }
                p.play(m);
            }
            out.push(p);
        }
        out
    }

    fn pattern(text: &str) -> Option<TurnPattern> {
        let turn = parse_turn(text).ok()?;
        Lowering::<Csipgs>::new(Csipgs::geometry()).turn(&turn).ok()
    }

    fn known(rule: &str) -> bool {
        RULES.iter().any(|r| r.id == rule)
    }

    fn verdicts(steps: &[Step]) -> Vec<(&'static str, StepVerdict)> {
        steps.iter().map(|s| (s.rule, s.verdict)).collect()
    }

    fn explain(fen: &str, text: &str) -> Vec<Step> {
        let p = pos(fen);
        let pattern = pattern(text).expect("a turn");
        match p.resolve(&pattern) {
            Ok(found) => match &found[..] {
                [(m, _)] => p.explain_legal(*m),
                _ => panic!("{text} is ambiguous"),
            },
            Err(_) => p.explain_refused(&pattern),
        }
    }

    #[test]
    fn every_legal_turn_is_explained_by_catalogued_rules() {
        let (mut checked, mut failures) = (0, Vec::new());
        let mut rng = Rng(0x7E_A5);
        for p in positions(60, 0xC5_1E9) {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            for mut m in moves {
                if rng.below(3) == 0 {
                    let slot = rng.below(6);
                    let old = p.designs[p.turn.index()][slot].name();
                    if let Ok(change) = p.redesign(&old, DESIGNS[rng.below(DESIGNS.len())]) {
                        m.redesign = Some(change);
                    }
                }
                checked += 1;
                let steps = p.explain_legal(m);
                if !steps.iter().any(|s| s.verdict == StepVerdict::Allows)
                    || steps.iter().any(|s| !known(s.rule))
                    || steps.iter().any(|s| s.verdict == StepVerdict::Forbids)
                {
                    failures.push(format!("{m:?} in {}: {steps:?}", p.fen()));
                }
            }
        }
        report(&failures, checked, 1500, "legal turns explained");
    }

    /// Turns to refuse: every own piece to every square, drops of every kind onto every
    /// square, purchases of every design and some others, some with design changes after.
    fn near_misses(p: &Csipgs, rng: &mut Rng) -> Vec<String> {
        let g = Csipgs::geometry();
        let us = p.turn;
        let mut texts = Vec::new();
        for (from, piece) in p.board.pieces().filter(|(_, q)| q.color() == us) {
            let letter = match Slot::of_piece(piece) {
                Slot::Role(r) => r.letter().to_string(),
                s => format!("({})", s.name()),
            };
            for to in g.squares() {
                let (f, t) = (g.square_name(from), g.square_name(to));
                texts.push(format!("{letter}{f}-{t}"));
                texts.push(format!("{letter}{f}x{t}"));
                texts.push(format!("{letter}{t}"));
            }
        }
        let mut kinds: Vec<String> = ["N", "P", "Q", "(WD)", "(BL)"]
            .into_iter()
            .map(String::from)
            .collect();
        kinds.extend(p.reserve[us.index()].iter().map(|k| k.piece_name()));
        for k in &kinds {
            for to in g.squares() {
                texts.push(format!("{k}@{}", g.square_name(to)));
            }
        }
        let mut designs: Vec<String> = p.designs[us.index()].iter().map(|s| s.name()).collect();
        designs.extend(["WD", "Z", "K", "WW"].map(String::from));
        for d in designs {
            texts.push(format!("buy {d}"));
        }
        let changes = ["P=WD", "K=Q", "Q=Z", "L=FD", "N=BL"];
        let mut with = Vec::new();
        for t in &texts {
            if rng.below(20) == 0 {
                with.push(format!("{t}; {}", changes[rng.below(changes.len())]));
            }
        }
        texts.extend(with);
        texts
    }

    #[test]
    fn every_refused_turn_is_forbidden_first_by_its_refusal() {
        let (mut checked, mut failures) = (0, Vec::new());
        let mut also = BTreeSet::new();
        let mut rng = Rng(0xD0_0D);
        for p in positions(12, 0x005E_EDC5) {
            for text in near_misses(&p, &mut rng) {
                let Some(pattern) = pattern(&text) else {
                    continue;
                };
                let resolved = p.resolve(&pattern);
                let Err(refused) = resolved else {
                    continue;
                };
                checked += 1;
                let r = p.refusal(&pattern);
                let steps = p.explain_refused(&pattern);
                let forbids: Vec<&Step> = steps
                    .iter()
                    .filter(|s| s.verdict == StepVerdict::Forbids)
                    .collect();
                let distinct: BTreeSet<&str> = forbids.iter().map(|s| s.rule).collect();
                also.extend(forbids.iter().skip(1).map(|s| s.rule));
                if refused != r
                    || forbids.first().map(|s| (s.rule, s.note.as_str()))
                        != Some((r.rule, r.reason.as_str()))
                    || distinct.len() != forbids.len()
                    || steps.iter().any(|s| !known(s.rule))
                    || steps.iter().any(|s| s.verdict == StepVerdict::Effect)
                {
                    failures.push(format!(
                        "{text} in {}: resolve {refused}, refusal {r} / {steps:?}",
                        p.fen()
                    ));
                }
            }
        }
        report(&failures, checked, 10_000, "refused turns explained");
        for rule in [
            "own-king-in-check",
            "own-piece-on-target",
            "capture-mark",
            "drop-next-to-king",
            "buy-afford",
            "king-design-fixed",
            "redesign-priced",
        ] {
            assert!(
                also.contains(rule),
                "{rule} never forbids a turn as well: {also:?}"
            );
        }
    }

    #[test]
    fn a_quiet_move_with_a_design_change() {
        let steps = explain(START_FEN, "Kd2; P=WbRbmHfB");
        assert_eq!(
            verdicts(&steps),
            [
                ("turn-structure", StepVerdict::Allows),
                ("not-your-turn", StepVerdict::Allows),
                ("design-move", StepVerdict::Allows),
                ("own-piece-on-target", StepVerdict::Allows),
                ("own-king-in-check", StepVerdict::Allows),
                ("redesign", StepVerdict::Allows),
                ("king-design-fixed", StepVerdict::Allows),
                ("redesign-priced", StepVerdict::Allows),
                ("turn-structure", StepVerdict::Effect),
                ("redesign", StepVerdict::Effect),
            ]
        );
        assert_eq!(
            steps[2].note,
            "the king on e1 steps to d2 by the atom K of its design K"
        );
        assert_eq!(steps[9].note, "white's designs become R N B Q K WbRbmHfB");
    }

    #[test]
    fn a_capture_a_drop_and_a_purchase() {
        // A (WD) takes a knight; White has two kings, so check is not tested.
        let fen = "4k3/8/8/3n4/8/3(WD)4/8/K6K w 0/0 -/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF";
        let steps = explain(fen, "(WD)d3xd5");
        assert_eq!(
            verdicts(&steps),
            [
                ("turn-structure", StepVerdict::Allows),
                ("not-your-turn", StepVerdict::Allows),
                ("design-move", StepVerdict::Allows),
                ("own-piece-on-target", StepVerdict::Allows),
                ("several-kings", StepVerdict::Allows),
                ("turn-structure", StepVerdict::Effect),
                ("design-move", StepVerdict::Effect),
            ]
        );
        assert_eq!(
            steps[2].note,
            "the (WD) on d3 leaps to d5 by the atom D of its design WD"
        );
        let fen = "4k3/8/8/8/8/8/8/4K3 w 4/0 N/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF";
        assert_eq!(
            verdicts(&explain(fen, "N@d2")),
            [
                ("turn-structure", StepVerdict::Allows),
                ("drop-reserve", StepVerdict::Allows),
                ("drop-next-to-king", StepVerdict::Allows),
                ("drop-king-in-check", StepVerdict::Allows),
                ("own-king-in-check", StepVerdict::Allows),
                ("turn-structure", StepVerdict::Effect),
                ("drop-reserve", StepVerdict::Effect),
            ]
        );
        let steps = explain(fen, "buy B");
        assert_eq!(
            verdicts(&steps),
            [
                ("turn-structure", StepVerdict::Allows),
                ("buy-design", StepVerdict::Allows),
                ("buy-in-check", StepVerdict::Allows),
                ("buy-sixteen", StepVerdict::Allows),
                ("buy-afford", StepVerdict::Allows),
                ("turn-structure", StepVerdict::Effect),
                ("buy-afford", StepVerdict::Effect),
                ("buy-design", StepVerdict::Effect),
            ]
        );
        assert_eq!(
            steps[6].note,
            "white pays 3 zorkmids: its treasury goes from 5 to 2"
        );
    }

    #[test]
    fn turns_refused_by_several_rules() {
        // In check from the rook, with 16 pieces: the purchase fails twice, and the bishop
        // costs more than the treasury holds.
        let fen = "4k3/8/8/8/8/8/PPPPPPP1/4K2r w 0/0 PPPPPPPP/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF";
        let steps = explain(fen, "buy B");
        assert_eq!(
            verdicts(&steps),
            [
                ("turn-structure", StepVerdict::Allows),
                ("buy-design", StepVerdict::Allows),
                ("buy-in-check", StepVerdict::Forbids),
                ("buy-sixteen", StepVerdict::Forbids),
                ("buy-afford", StepVerdict::Forbids),
            ]
        );
        // A knight dropped though the reserve has none, onto a square far from the king.
        let fen = "4k3/8/8/8/8/8/8/4K3 w 0/0 P/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF";
        assert_eq!(
            verdicts(&explain(fen, "N@a5")),
            [
                ("turn-structure", StepVerdict::Allows),
                ("drop-reserve", StepVerdict::Forbids),
                ("drop-next-to-king", StepVerdict::Forbids),
            ]
        );
        // A legal move, then a design change that replaces the King's design by an unpriced
        // one.
        assert_eq!(
            verdicts(&explain(START_FEN, "Kd2; K=Z")),
            [
                ("turn-structure", StepVerdict::Allows),
                ("not-your-turn", StepVerdict::Allows),
                ("design-move", StepVerdict::Allows),
                ("own-piece-on-target", StepVerdict::Allows),
                ("capture-mark", StepVerdict::Allows),
                ("own-king-in-check", StepVerdict::Allows),
                ("redesign", StepVerdict::Allows),
                ("king-design-fixed", StepVerdict::Forbids),
                ("redesign-priced", StepVerdict::Forbids),
            ]
        );
    }

    #[test]
    fn a_king_may_not_step_into_check() {
        let fen = "4k3/8/8/8/8/8/2r5/4K3 w 0/0 -/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF";
        let steps = explain(fen, "Ke1-e2");
        assert_eq!(
            verdicts(&steps),
            [
                ("turn-structure", StepVerdict::Allows),
                ("not-your-turn", StepVerdict::Allows),
                ("design-move", StepVerdict::Allows),
                ("own-piece-on-target", StepVerdict::Allows),
                ("capture-mark", StepVerdict::Allows),
                ("own-king-in-check", StepVerdict::Forbids),
            ]
        );
        // Two squares sideways: castling, and into check on c1 too.
        assert_eq!(
            verdicts(&explain(fen, "Ke1-c1")),
            [
                ("turn-structure", StepVerdict::Allows),
                ("not-your-turn", StepVerdict::Allows),
                ("no-castling", StepVerdict::Forbids),
                ("own-king-in-check", StepVerdict::Forbids),
            ]
        );
    }

    #[test]
    fn the_shared_explanation_agrees_with_the_game() {
        let game = crate::rules::Game::new(pos(START_FEN), Options::defaults(Csipgs::options()));
        for (text, forbidden) in [
            ("Kd2; P=WD", None),
            ("Kd2; K=Q", Some("king-design-fixed")),
            ("buy Q", Some("buy-afford")),
        ] {
            let e = crate::rules::explain::explain(&game, &pattern(text).expect("a turn"));
            assert_eq!(e.forbidden_by().map(|s| s.rule), forbidden, "{text}: {e:?}");
            assert!(!e.steps.is_empty(), "{text}");
        }
    }
}
