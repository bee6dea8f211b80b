//! Why a written turn is not a legal Cypher turn: the rule the generator rejects it by, put in
//! words with the squares.
//!
//! What concerns the text alone is refused here directly: resigning or agreeing a draw, a
//! finished game, more than two actions, what Cypher Chess does not have (castling, promotion,
//! rebirth, passes, purchases), a named square without the mover's piece of the named kind.
//! Then each piece the first action may start from is looked at. A move its movement cannot
//! make at all is refused from the movement model
//! ([`crate::rules::movement::Movement::could_reach`]). The generator explores the rest
//! ([`Cypher::explore`]), told by a [`Focus`] which first action and which second action are
//! written, and tags every candidate it rejects with the rule, the stage it reached and the
//! square that matters. The rejected candidates the text names compete, the one that got
//! furthest ([`furthest`]) decides, and its rule is put into words here.
//!
//! The rule id is the generator's, except where the text is at fault: a capture mark or a
//! coup's piece that does not fit a candidate which got past the stage where they are read, and
//! a second action that no candidate can be (no such piece after the first action, castling).

use super::*;
use crate::rules::refusal::{furthest, Explored, Rejection, Stage};
use crate::rules::turn::{ActionPattern, MoveShape, Origin, PieceRef, StraightMove};

fn nm(s: i32) -> String {
    Cypher::name(s)
}

fn cell_of(sq: Square) -> i32 {
    Sq::of(sq).0 as i32
}

/// The sentence for a capture the zone rules forbid.
fn capture_sentence(pos: &Cypher, rule: &'static str, from: i32, to: i32) -> String {
    let a = pos.at(from);
    let t = pos.at(to);
    let (zf, zt) = (zone_word(zone_of(from)), zone_word(zone_of(to)));
    let (ar, tp) = (role_word(a >> 1), piece_words(t));
    let (f, s) = (nm(from), nm(to));
    match rule {
        "no-king-capture" => format!("the {tp} on {s} cannot be captured; a king is checked, mated or flipped, never taken"),
        "spy-immunity" => format!("the {tp} on {s} cannot be captured by moving onto it; a spy leaves the board only by infiltration (or is flipped)"),
        "spy-capture-powers" if t >> 1 == PAWN => format!("the spy on {f} cannot capture the {tp} on {s}: a spy takes no pawns (spy-captures-pawns = no)"),
        "spy-capture-powers" if zone_of(to) == COURT => format!("the {zf} spy on {f} cannot capture the {tp} on {s}: a spy captures a Court piece only from another Court square"),
        "spy-capture-powers" => format!("the spy on {f} cannot capture the {tp} on the {zt} square {s}: a spy captures major pieces only in Court"),
        "field-sanctuary" => format!("the {tp} on {s} has sanctuary in the Field from the {ar} on {f}, a major Field piece (no re-take is open on {s})"),
        "field-reach" => format!("the {ar} on {f} stands in the Field and cannot capture the {tp} on the {zt} square {s}"),
        "border-sanctuary" => format!("the {tp} on the Border square {s} has sanctuary from the Border {ar} on {f}; only a pawn can take it"),
        "court-reach" => format!("the Court {ar} on {f} cannot capture the {tp} on the Border square {s}; only a pawn can take it"),
        "court-sanctuary" => format!("the {tp} on the Court square {s} can be captured only by the opposing spy from another Court square, not by the {zf} {ar} on {f}"),
        "pawn-not-on-court" => format!("the pawn on {f} cannot land on the Court square {s}"),
        _ => format!("the {ar} on {f} cannot capture the {tp} on {s}"),
    }
}

pub(super) fn refusal(pos: &Cypher, pattern: &TurnPattern) -> Refusal {
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
    if let Some(o) = pos.result {
        return Refusal::new("game-over", format!("the game is over: {o}"));
    }
    if actions.len() > 2 {
        return Refusal::new(
            "one-entry-per-exit",
            format!(
                "a Cypher turn has at most two actions (one Spy exit lets in one piece); this one has {}",
                actions.len()
            ),
        );
    }
    let Some(first) = actions.first() else {
        return Refusal::new("turn-length", "a turn needs at least one action");
    };
    let second = actions.get(1);
    match first {
        ActionPattern::Drop { piece, to } => {
            if second.is_some() {
                return Refusal::new(
                    "turn-length",
                    "a prisoner release is a whole turn; nothing follows it",
                );
            }
            release_refusal(pos, piece, cell_of(*to))
        }
        ActionPattern::Coup { .. } => Refusal::new(
            "coup-choice",
            "a coup's choice follows the pawn move that makes the coup (`g8-g9; coup Nf9`)",
        ),
        ActionPattern::Castle(_) => Refusal::new("no-such-action", "Cypher Chess has no castling"),
        ActionPattern::Reborn { .. } | ActionPattern::Vanish { .. } => {
            Refusal::new("no-such-action", "Cypher Chess has no rebirth of pawns")
        }
        ActionPattern::Pass => Refusal::new(
            "no-such-action",
            "a Cypher player cannot pass; every turn moves or releases a piece",
        ),
        ActionPattern::Buy { .. } | ActionPattern::Redesign { .. } => Refusal::new(
            "no-such-action",
            "Cypher Chess has no purchases or piece designs",
        ),
        ActionPattern::Move { .. } => match move_picks(pos, actions, first) {
            Err(r) => r,
            Ok(picks) => furthest(picks.into_iter().map(|(_, pick)| pick))
                .map_or_else(fallback, |((r, _), _)| r),
        },
    }
}

/// What refuses a written move from one piece: the refusal, the candidate turn it reads (none
/// when the movement model or the second action's text refuses it) and how far it got.
pub(super) type Pick = ((Refusal, Option<Move>), Rejection);

/// The pick of each piece the written move (`first`, the first of `actions`) may start from,
/// with that piece's square, in board order; or the refusal that comes before any piece is
/// looked at (the text, no such piece, none can reach the square), or `fallback()` when the
/// text names a legal turn.
pub(super) fn move_picks(
    pos: &Cypher,
    actions: &[ActionPattern],
    first: &ActionPattern,
) -> Result<Vec<(i32, Pick)>, Refusal> {
    let MoveShape::Straight(StraightMove {
        kind,
        from,
        to,
        promotion,
        ..
    }) = first.shape()
    else {
        return Err(Refusal::new(
            "no-such-action",
            "a Cypher move goes straight to its destination; it names no squares between, and nothing ricochets or switches",
        ));
    };
    if promotion.is_some() {
        return Err(Refusal::new(
            "no-such-action",
            "Cypher Chess has no promotion; a pawn on its last Field row makes a coup d'etat",
        ));
    }
    let starts = origins(pos, kind, from)?;
    let to = cell_of(to);
    if !matches!(from, Origin::Exact(_)) && !starts.iter().any(|s| could_reach(pos, *s, to)) {
        let what = piece_kind(kind);
        return Err(Refusal::new(
            "no-such-piece",
            format!(
                "no {} {what} can move to {} by any pattern of its kind",
                pos.turn,
                nm(to)
            ),
        ));
    }
    let mut picks = Vec::new();
    for s in starts {
        match refusal_from(pos, actions, s, to) {
            Some(pick) => picks.push((s, pick)),
            None => return Err(fallback()),
        }
    }
    Ok(picks)
}

/// The candidates a written turn names from one piece, each with its rejection, and the
/// refusal of its second action's text when no candidate can be it.
pub(super) type Named = (Vec<(Move, Rejection)>, Option<Refusal>);

/// The candidates the written turn whose first action starts from `s` names, each with the
/// rejection the written turn gets from it (ties to come first: by the second action's origin),
/// and the refusal of the second action's text when no candidate can be it; `None` when the
/// text names a legal turn from there.
pub(super) fn named_from(
    pos: &Cypher,
    actions: &[ActionPattern],
    s: i32,
    to: i32,
) -> Option<Named> {
    let (then, text) = then_of(pos, s, to, actions.get(1));
    let mut explored = Explored::default();
    let focus = Focus {
        first: Some((s, to)),
        then,
    };
    pos.explore(&focus, &mut explored);
    let legal = explored.legal.iter().map(|&m| (m, None));
    let rejected = explored.rejected.iter().map(|&(m, why)| (m, Some(why)));
    let mut named = Vec::new();
    for (m, verdict) in legal.chain(rejected) {
        match named_as(pos, actions, m, verdict) {
            None => {}
            Some(None) => return None,
            Some(Some(why)) => named.push((m, why)),
        }
    }
    // Ties go to the second action's origin that comes first on the board.
    named.sort_by_key(|(m, _)| m.from2);
    Some((named, text))
}

/// The refusal of the written turn whose first action starts from `s`, with the candidate it
/// reads and the stage it got to; `None` when the text names a legal turn from there.
fn refusal_from(pos: &Cypher, actions: &[ActionPattern], s: i32, to: i32) -> Option<Pick> {
    let (named, text) = named_from(pos, actions, s, to)?;
    let mut picks = Vec::new();
    // The generator lists only the moves the piece's movement can make; an infiltration on
    // its own is a placement, which it explores all the same.
    if !could_reach(pos, s, to) {
        let r = movement_refusal(pos, s, to);
        let why = Rejection::new(r.rule, Stage::Movement);
        picks.push(((r, None), why));
    }
    picks.extend(furthest(named).map(|(m, why)| ((word(pos, actions, m, why), Some(m)), why)));
    furthest(picks).or_else(|| {
        let r = text.unwrap_or_else(fallback);
        let why = Rejection::new(r.rule, Stage::Second);
        Some(((r, None), why))
    })
}

/// The second action as the generator explores it, after the first action from `s` to `to`;
/// with the refusal of its text when no candidate can be it.
fn then_of(
    pos: &Cypher,
    s: i32,
    to: i32,
    second: Option<&ActionPattern>,
) -> (Then, Option<Refusal>) {
    let other = |r: Refusal| (Then::Other, Some(r));
    match second {
        None => (Then::Alone, None),
        Some(ActionPattern::Coup { square, .. }) => (Then::Coup(cell_of(*square)), None),
        Some(second @ ActionPattern::Move { .. }) => {
            let MoveShape::Straight(StraightMove {
                kind,
                from,
                to: t,
                promotion,
                ..
            }) = second.shape()
            else {
                return other(Refusal::new("no-such-action", "a second action names no squares between, and nothing ricochets or switches"));
            };
            if promotion.is_some() {
                return other(Refusal::new("no-such-action", "Cypher Chess has no promotion; a pawn on its last Field row makes a coup d'etat"));
            }
            // The second action's piece is read on the board the first action left.
            let mut mid = pos.clone();
            let c = pos.at(s);
            mid.put(s, EMPTY);
            mid.put(to, c);
            match origins(&mid, kind, from) {
                Ok(from) => (
                    Then::Move {
                        from,
                        to: cell_of(t),
                    },
                    None,
                ),
                Err(r) => other(r),
            }
        }
        Some(_) => other(Refusal::new(
            "no-such-action",
            "the second action of a Cypher turn is a move (court entry, infiltration) or a coup choice",
        )),
    }
}

/// What the written `actions` make of candidate `m` and its verdict (`None`: legal): `None` when
/// they do not name it; else the rejection the written turn gets from it (`None`: legal).
///
/// A capture mark or a coup's piece that does not fit the candidate is the text's fault, which
/// refuses the turn unless the candidate's own rejection came at that stage or before; a written
/// capture never names an infiltration on its own (a placement is written with `-`; the move of
/// the same piece to the same square is what it names). A one-action candidate stands for a
/// two-action text by its first action when that action already fails: rejected before any
/// second action, or written with the wrong capture mark.
fn named_as(
    pos: &Cypher,
    actions: &[ActionPattern],
    m: Move,
    verdict: Option<Rejection>,
) -> Option<Option<Rejection>> {
    let turn = pos.describe(m);
    let short = turn.actions.len() < actions.len();
    let written = if short { &actions[..1] } else { actions };
    if written.len() != turn.actions.len() {
        return None;
    }
    let mut fault = None;
    for (i, (w, a)) in written.iter().zip(&turn.actions).enumerate() {
        if w.matches(a) {
            continue;
        }
        let text = match (w, a) {
            (ActionPattern::Move { .. }, Action::Move { legs, .. })
                if m.kind != K_INFIL_ALONE && unmarked(w, legs).matches(a) =>
            {
                let stage = if i == 0 { Stage::Mark } else { Stage::Second };
                Rejection::new("capture-mark", stage)
            }
            (ActionPattern::Coup { square, .. }, Action::Coup { square: played, .. })
                if square == played =>
            {
                Rejection::new("coup-choice", Stage::Second)
            }
            _ => return None,
        };
        fault.get_or_insert(text);
    }
    let early = verdict.is_some_and(|w| w.stage < Stage::Second);
    if short && !early && fault.is_none() {
        return None;
    }
    Some(match (fault, verdict) {
        (Some(text), Some(why)) if why.stage > text.stage => Some(text),
        (Some(text), None) => Some(text),
        (_, verdict) => verdict,
    })
}

/// The written move with the marks of the `played` legs.
fn unmarked(written: &ActionPattern, played: &[Leg]) -> ActionPattern {
    let mut w = written.clone();
    if let ActionPattern::Move { legs, .. } = &mut w {
        for (leg, p) in legs.iter_mut().zip(played) {
            leg.kind = p.kind;
        }
    }
    w
}

/// The rejection `why` of candidate `m`, named by the written `actions`, in words.
pub(super) fn word(pos: &Cypher, actions: &[ActionPattern], m: Move, why: Rejection) -> Refusal {
    let rule = why.rule;
    let reason = if m.kind == K_DROP && rule == "prisoner-release" {
        release_sentence(pos, m.to as i32)
    } else if why.stage == Stage::Final {
        final_sentence(pos, m, rule)
    } else if rule == "capture-mark" {
        mark_sentence(actions, m, why.stage)
    } else {
        match m.kind {
            K_NORMAL | K_INFIL_ALONE => first_sentence(pos, m, rule, why.at),
            K_COUP => coup_sentence(pos, actions, m),
            _ => second_sentence(pos, m, rule, why.at),
        }
    };
    Refusal::new(rule, reason)
}

/// A capture mark that does not fit: on the first action (stage `Mark`) or the second.
pub(super) fn mark_sentence(actions: &[ActionPattern], m: Move, stage: Stage) -> String {
    if stage == Stage::Mark {
        let (f, t) = (nm(m.from as i32), nm(m.to as i32));
        let written_capture = matches!(
            actions.first().map(ActionPattern::shape),
            Some(MoveShape::Straight(StraightMove { capture: true, .. }))
        );
        return if written_capture {
            format!("{f}-{t} captures nothing, so it is written with - rather than x")
        } else {
            format!("{f}x{t} is a capture, so it is written with x rather than -")
        };
    }
    let (g, t) = (nm(m.from2 as i32), nm(m.to2 as i32));
    if m.kind == K_INFIL {
        format!("an infiltration is a placement, written {g}-{t} even when it removes a piece")
    } else {
        format!("{g}x{t} captures nothing; write {g}-{t}")
    }
}

/// Why the first action (or an infiltration on its own) is rejected before the whole turn is
/// played.
pub(super) fn first_sentence(
    pos: &Cypher,
    m: Move,
    rule: &'static str,
    at: Option<Square>,
) -> String {
    let (from, to) = (m.from as i32, m.to as i32);
    let (f, t) = (nm(from), nm(to));
    let role = pos.at(from) >> 1;
    let rw = role_word(role);
    let straight_on = file_of(from) == file_of(to);
    match rule {
        "knight-field" => format!("the knight on {f} stands in the Field and moves only by the classical L; {f} to {t} is an extended L"),
        "knight-court-exit" => format!("the knight on {f} stands in Court and moves only by the extended (1,3) L; {f} to {t} is a classical L"),
        "knight-court-entry" => format!("a knight enters Court only by the classical L; {f} to {t} is an extended L"),
        "blocked" => {
            let x = at.map_or(to, cell_of);
            format!("the {rw} on {f} cannot pass over the {} on {} to reach {t}", piece_words(pos.at(x)), nm(x))
        }
        "own-piece-on-target" => format!(
            "{t} holds a {}; a piece cannot move onto its own side's piece",
            piece_words(pos.at(to))
        ),
        "pawn-not-on-court" if straight_on => format!("the pawn on {f} cannot step onto the Court square {t}; pawns never land in Court"),
        "pawn-capture" if straight_on => format!("a pawn captures diagonally forward, never straight ahead; it cannot take the {} on {t}", piece_words(pos.at(to))),
        "pawn-capture" => format!("a pawn moves diagonally only to capture, and {t} is empty"),
        "king-court-entry" => {
            let se = at.map_or(0, cell_of);
            let why = if adjacent(to, se) {
                ", and a king stepping in next to it does not flip it (field-king-beside-court-spy = illegal)"
            } else {
                ""
            };
            format!("the king on {f} cannot enter Court on {t} while the opposing spy stands in Court on {}{why}", nm(se))
        }
        "court-entry-trigger" => format!(
            "the {} {rw} on {f} may enter Court on {t} only as the second action of a turn whose first moves the Court spy out of Court (e.g. `S..-..; {}{f}-{t}`)",
            zone_word(zone_of(from)),
            Piece::from_code(pos.at(from)).map_or_else(
                || "?".to_string(),
                |p| p.design().map_or_else(|| p.role().letter().to_string(), |d| d.to_string())
            )
        ),
        "coup-choice" => {
            let us = pos.turn as u8;
            let view = pos.after_first(from, to);
            let mut names = Vec::new();
            let n = pos.coup_candidates(&view, us ^ 1, |s| {
                let l = Piece::from_code(pos.at(s)).map_or_else(
                    || "?".to_string(),
                    |p| p.design().map_or_else(|| p.role().letter().to_string(), |d| d.to_string()),
                );
                names.push(format!("coup {l}{}", nm(s)))
            });
            format!(
                "the pawn reaching {t} makes a coup d'etat and {n} opposing pieces share the highest rank; name one: {}",
                names.join(", ")
            )
        }
        "infiltration-once" => format!("{} has already infiltrated once this game", pos.turn),
        "invented-piece" => {
            let d = Piece::from_code(pos.at(from)).and_then(Piece::design);
            let name = d.map_or_else(|| "invented piece".to_string(), |d| format!("invented piece {d}"));
            if pos.at(to) == EMPTY {
                format!("the {name} on {f} reaches {t} only by an atom that captures, and {t} is empty")
            } else {
                format!("the {name} on {f} reaches {t} only by an atom that does not capture, and {t} holds a {}", piece_words(pos.at(to)))
            }
        }
        _ => capture_sentence(pos, rule, from, to),
    }
}

/// Why a second move (court entry, infiltration) is rejected after the first action.
pub(super) fn second_sentence(
    pos: &Cypher,
    m: Move,
    rule: &'static str,
    at: Option<Square>,
) -> String {
    let (from, to, g, t) = (m.from as i32, m.to as i32, m.from2 as i32, m.to2 as i32);
    let role = pos.at(from) >> 1;
    let view = pos.after_first(from, to);
    let r2 = view(g) >> 1;
    let (gn, tn) = (nm(g), nm(t));
    let spy_exit = role == SPY && zone_of(from) == COURT && zone_of(to) != COURT;
    match rule {
        "infiltration" if role != KING => format!(
            "infiltration onto {tn} follows a king's move onto the Border; the first action moves a {}",
            role_word(role)
        ),
        "infiltration" if zone_of(to) != BORDER => format!(
            "only a king's move onto the Border allows infiltration; {} is in the {}",
            nm(to),
            zone_word(zone_of(to))
        ),
        "infiltration" if !infiltrates(r2) => format!(
            "infiltration moves a knight, bishop, rook, queen, invented piece or spy; the piece on {gn} is a {}",
            role_word(r2)
        ),
        "infiltration" if t != D0 && t != D10 => format!("infiltration goes to d0 or d10, not {tn}"),
        "infiltration" => format!("the {} already stands on {tn}", role_word(r2)),
        "infiltration-once" => format!("{} has already infiltrated once this game", pos.turn),
        "court-entry-trigger" if !spy_exit => format!(
            "only the Court spy's move out of Court lets a second piece move; {}-{} is not one",
            nm(from),
            nm(to)
        ),
        "court-entry-trigger" if r2 == KING => format!("the king enters Court by its own step, not as the piece a spy's exit lets in ({gn})"),
        "court-entry-trigger" if !is_major(r2) => format!(
            "the spy's exit lets in a major piece other than the king; the piece on {gn} is a {}",
            role_word(r2)
        ),
        "court-entry-trigger" if zone_of(g) == COURT => format!(
            "the {} on {gn} already stands in Court; the second action must bring a piece into Court",
            role_word(r2)
        ),
        "court-entry-trigger" => format!(
            "the second action must enter Court; {tn} is in the {}",
            zone_word(zone_of(t))
        ),
        "knight-court-entry" => format!("a knight enters Court only by the classical L; {gn} to {tn} is not one"),
        "blocked" => {
            let x = at.map_or(t, cell_of);
            format!(
                "the {} on {gn} cannot pass over the {} on {} to reach {tn}",
                role_word(r2),
                piece_words(view(x)),
                nm(x)
            )
        }
        "own-piece-on-target" => format!(
            "{tn} holds a {}; a piece cannot move onto its own side's piece",
            piece_words(view(t))
        ),
        "no-king-capture" | "spy-immunity" | "court-sanctuary" => format!(
            "the piece entering Court cannot capture: the {} on {tn} can be taken only by the opposing spy",
            piece_words(view(t))
        ),
        _ => movement_sentence_at(&view, r2, g, t),
    }
}

/// Why the coup a turn names cannot be made.
fn coup_sentence(pos: &Cypher, actions: &[ActionPattern], m: Move) -> String {
    let (from, to, s) = (m.from as i32, m.to as i32, m.to2 as i32);
    let (f, t) = (nm(from), nm(to));
    let us = pos.turn as u8;
    let c = pos.at(from);
    if c >> 1 != PAWN || rank_of(to) != coup_rank(us) {
        return format!(
            "{f}-{t} makes no coup d'etat: only a pawn landing on its last Field row does"
        );
    }
    let view = pos.after_first(from, to);
    let n = pos.coup_candidates(&view, us ^ 1, |_| {});
    if n < 2 {
        return format!(
            "the coup after {f}-{t} has {} candidate; nothing is named, the turn is just the pawn move",
            if n == 0 { "no" } else { "one" }
        );
    }
    let piece = match actions.get(1) {
        Some(ActionPattern::Coup { piece, .. }) => piece.to_string(),
        _ => Role::from_code(pos.at(s) >> 1)
            .map_or('?', Role::letter)
            .to_string(),
    };
    format!(
        "{piece} on {} is not one of the highest-ranking opposing pieces the coup can switch",
        nm(s)
    )
}

/// A move that the piece's movement cannot make at all, whatever stands on the board.
pub(super) fn movement_refusal(pos: &Cypher, from: i32, to: i32) -> Refusal {
    let role = pos.at(from) >> 1;
    let (f, t) = (nm(from), nm(to));
    let reason = if from == to {
        format!("a move must leave {f}")
    } else {
        match role {
            KING => format!("the king moves one square in any direction (there is no castling); {f} to {t} is not one step"),
            KNIGHT => format!("{f} to {t} is neither the classical (1,2) nor the extended (1,3) knight's L"),
            PAWN => format!("a pawn moves one square straight forward (no double step) or captures one square diagonally forward; {f} to {t} is neither"),
            _ => movement_sentence_at(&|x| pos.at(x), role, from, to),
        }
    };
    Refusal::new(movement_rule(role, zone_of(from)), reason)
}

/// A move the piece on `from` (on the board `view`) cannot make by its movement.
fn movement_sentence_at(view: &dyn Fn(i32) -> u8, role: u8, from: i32, to: i32) -> String {
    match Piece::from_code(view(from)).and_then(Piece::design) {
        Some(d) if is_design(role) => format!(
            "the invented piece {d} on {} moves only by its design; {} to {} is not one of its moves",
            nm(from),
            nm(from),
            nm(to)
        ),
        _ => movement_sentence(role, from, to),
    }
}

/// A line piece's move that is not along one of its lines.
fn movement_sentence(role: u8, from: i32, to: i32) -> String {
    let text = match role {
        ROOK => "a rook moves along a file or a rank",
        BISHOP => "a bishop moves along a diagonal",
        SPY => "a spy moves like a queen, along a file, a rank or a diagonal",
        _ => "a queen moves along a file, a rank or a diagonal",
    };
    format!("{text}; {} to {} is not such a move", nm(from), nm(to))
}

/// Puts the rule id that `apply` returned into words; a rule the first action of a compound
/// turn broke says so, with that action.
fn final_sentence(pos: &Cypher, m: Move, rule: &'static str) -> String {
    let mut after = pos.clone();
    let first = matches!(after.apply_turn(m, None), Err(f) if f.first);
    if !first {
        return sentence(pos, &after, rule);
    }
    let opening = Move::new(m.from as i32, m.to as i32, K_NORMAL);
    let action = pos.describe(opening).text(&Cypher::geometry());
    if rule == "game-over" {
        let mut alone = pos.clone();
        let decided = match alone.apply(opening).map(|()| alone.result) {
            Ok(Some(outcome)) => format!(": {outcome}"),
            _ => String::new(),
        };
        return format!(
            "its first action, {action}, already decides the game{decided}; a turn ends when the game ends, so no second action follows"
        );
    }
    format!(
        "after its first action, {action}, {}; a second action cannot undo it (only a check may last until the end of the turn)",
        sentence(pos, &after, rule)
    )
}

/// The rule id in words, about the board `after` that the failing action left.
pub(super) fn sentence(pos: &Cypher, after: &Cypher, rule: &'static str) -> String {
    let us = pos.turn;
    let them = us.other();
    let ks = after.kings[us.index()] as i32;
    let ke = after.kings[them.index()] as i32;
    let ss = after.spies[us.index()] as i32;
    let se = after.spies[them.index()] as i32;
    match rule {
        "own-king-in-check" => {
            let by = after
                .attacker(ks, them as u8, -1)
                .map(|a| format!("the {} on {}", piece_words(after.at(a)), nm(a)))
                .unwrap_or_else(|| "an enemy piece".into());
            if pos.king_in_check(us) {
                format!(
                    "the {us} king is in check, and after this turn the king on {} is still attacked by {by}",
                    nm(ks)
                )
            } else {
                format!(
                    "after this turn the {us} king on {} would be in check from {by}",
                    nm(ks)
                )
            }
        }
        "border-kings-apart" => format!(
            "the kings on {} and {} would stand next to each other on the Border",
            nm(ks),
            nm(ke)
        ),
        "court-king-beside-court-spy" => format!(
            "the {us} king on {} would stand in Court next to the {them} Court spy on {}",
            nm(ks),
            nm(se)
        ),
        "spy-beside-king" => {
            if ke != 0 && zone_of(ke) == COURT {
                format!(
                    "the {us} spy on {} would stand next to the {them} Court king on {}; a spy must stay at least one empty square away",
                    nm(ss),
                    nm(ke)
                )
            } else {
                format!(
                    "the {us} spy cannot move to {}, next to the {them} king on {} (spy-beside-enemy-king = illegal)",
                    nm(ss),
                    nm(ke)
                )
            }
        }
        "spy-beside-enemy-spy" => format!(
            "the {us} spy on {} would stand next to the {them} spy on {}",
            nm(ss),
            nm(se)
        ),
        "king-beside-own-spy" => format!(
            "the {us} king on {} would stand next to its own spy on {}",
            nm(ks),
            nm(ss)
        ),
        "spy-beside-own-king" => format!(
            "the {us} spy cannot move to {}, next to its own king on {} (spy-beside-own-king = illegal)",
            nm(ss),
            nm(ks)
        ),
        "king-into-spy-line" => format!(
            "the {us} Court king on {} would stand on the line of the {them} Court spy on {} (king-into-spy-line = illegal)",
            nm(ks),
            nm(se)
        ),
        "coup-choice" => "the coup's piece must be named when several opposing pieces share the highest rank, and only then".into(),
        "infiltration-once" => format!("{us} has already infiltrated once this game"),
        "infiltration" => "an infiltration moves one own knight, bishop, rook, queen, invented piece or spy to d0 or d10 right after a king's move onto the Border".into(),
        "court-entry-trigger" => "a second action must move a major piece into Court right after the Court spy left Court".into(),
        "prisoner-release" => "the release is not allowed".into(),
        _ => format!("the turn breaks {rule}"),
    }
}

fn fallback() -> Refusal {
    Refusal::new("no-such-action", "no legal Cypher turn matches this turn")
}

/// The cells a move pattern may start from, on `pos`'s board (the shared text checks).
fn origins(pos: &Cypher, kind: Option<PieceRef>, from: Origin) -> Result<Vec<i32>, Refusal> {
    crate::rules::refusal::origins(&pos.board, &Cypher::geometry(), pos.turn, kind, from)
        .map(|squares| squares.into_iter().map(cell_of).collect())
}

/// The word for the kind of piece a move pattern names.
fn piece_kind(kind: Option<PieceRef>) -> String {
    match kind {
        Some(PieceRef::Role(r)) => r.word().to_string(),
        Some(PieceRef::Design(d)) => d.to_string(),
        None => "piece".to_string(),
    }
}

/// Whether the piece on `from` could reach `to` by some pattern of its kind in some zone,
/// blockers and zones aside: the movement model.
pub(super) fn could_reach(pos: &Cypher, from: i32, to: i32) -> bool {
    let c = pos.at(from);
    let color = if c & 1 == 0 {
        Color::White
    } else {
        Color::Black
    };
    movement_of(c >> 1)
        .could_reach(Sq(from as u16).square(), Sq(to as u16).square(), color)
        .is_some()
}

/// A release (main VI.iii): only pawns are released; the generator says why one cannot go to
/// `to`.
fn release_refusal(pos: &Cypher, piece: &PieceRef, to: i32) -> Refusal {
    if *piece != PieceRef::Role(Role::Pawn) {
        return Refusal::new(
            "prisoner-release",
            format!(
                "only captured pawns are released; {piece}@{} is not a pawn",
                nm(to)
            ),
        );
    }
    let mut explored = Explored::default();
    let focus = Focus {
        first: Some((0, to)),
        then: Then::Alone,
    };
    pos.explore(&focus, &mut explored);
    match explored
        .rejected
        .iter()
        .find(|(m, _)| m.kind == K_DROP && m.to as i32 == to)
    {
        Some(&(m, why)) => word(pos, &[], m, why),
        None => fallback(),
    }
}

/// Why the rules of release reject a release onto `to`.
fn release_sentence(pos: &Cypher, to: i32) -> String {
    let us = pos.turn;
    let them = us.other();
    if pos.prisoners[us.index()] == 0 {
        format!("{us} has no captured pawn to release")
    } else if zone_of(to) != BORDER {
        format!(
            "a released pawn goes on a Border square (a5..h5); {} is in the {}",
            nm(to),
            zone_word(zone_of(to))
        )
    } else if pos.at(to) != EMPTY {
        format!(
            "a released pawn goes on an empty Border square; {} holds a {}",
            nm(to),
            piece_words(pos.at(to))
        )
    } else if pos.king_in_check(us) {
        format!("{us} is in check and cannot release a prisoner")
    } else {
        format!(
            "a pawn released on {} would check the {them} king on {}",
            nm(to),
            nm(pos.kings[them.index()] as i32)
        )
    }
}
