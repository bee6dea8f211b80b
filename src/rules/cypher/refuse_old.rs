//! Why a written turn is not a legal Cypher turn: the most specific rule, with the squares.
//!
//! The first action is checked in stages (movement, blocking, target and zone captures, the
//! capture mark), then the second action (court entry, infiltration, coup choice), then the
//! whole turn is played on a copy by [`Cypher::apply`], whose rule id is put in words. When a
//! short pattern leaves the origin open, every own piece of the named kind is tried and the one
//! that gets furthest decides.

use super::*;
use crate::rules::turn::{straight, ActionPattern, Origin, PieceRef, Style};

const STAGE_MOVEMENT: u8 = 0;
const STAGE_BLOCKED: u8 = 1;
const STAGE_TARGET: u8 = 2;
const STAGE_MARK: u8 = 3;
const STAGE_SECOND: u8 = 4;
const STAGE_FINAL: u8 = 5;

type Fail = Option<(u8, Refusal)>;

fn nm(s: i32) -> String {
    Cypher::name(s)
}

fn fail(stage: u8, rule: &'static str, reason: String) -> Fail {
    Some((stage, Refusal::new(rule, reason)))
}

fn cell_of(sq: Square) -> i32 {
    Sq::of(sq).0 as i32
}

fn movement_rule(role: u8, zf: u8) -> &'static str {
    match role {
        KING => "king-move",
        QUEEN => "queen-move",
        ROOK => "rook-move",
        BISHOP => "bishop-move",
        SPY => "spy-move",
        KNIGHT => match zf {
            FIELD => "knight-field",
            BORDER => "knight-border",
            _ => "knight-court-exit",
        },
        _ => "pawn-move",
    }
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

/// Checks the first action as a move of the own piece on `from` to `to`.
fn primary_refusal(pos: &Cypher, from: i32, to: i32, capture: bool, alone: bool) -> Fail {
    let us = pos.turn as u8;
    let c = pos.at(from);
    let role = c >> 1;
    let zf = zone_of(from);
    let zt = zone_of(to);
    let target = pos.at(to);
    let (f, t) = (nm(from), nm(to));
    let df = file_of(to) - file_of(from);
    let dr = rank_of(to) - rank_of(from);
    let rw = role_word(role);
    if from == to {
        return fail(
            STAGE_MOVEMENT,
            movement_rule(role, zf),
            format!("a move must leave {f}"),
        );
    }
    match role {
        KING => {
            if df.abs() > 1 || dr.abs() > 1 {
                return fail(
                    STAGE_MOVEMENT,
                    "king-move",
                    format!("the king moves one square in any direction (there is no castling); {f} to {t} is not one step"),
                );
            }
        }
        KNIGHT => {
            let (a, b) = (df.abs().min(dr.abs()), df.abs().max(dr.abs()));
            let classical = (a, b) == (1, 2);
            let extended = (a, b) == (1, 3);
            let rule = movement_rule(KNIGHT, zf);
            if !classical && !extended {
                return fail(
                    STAGE_MOVEMENT,
                    rule,
                    format!("{f} to {t} is neither the classical (1,2) nor the extended (1,3) knight's L"),
                );
            }
            if zf == FIELD && extended {
                return fail(
                    STAGE_MOVEMENT,
                    "knight-field",
                    format!("the knight on {f} stands in the Field and moves only by the classical L; {f} to {t} is an extended L"),
                );
            }
            if zf == COURT && classical {
                return fail(
                    STAGE_MOVEMENT,
                    "knight-court-exit",
                    format!("the knight on {f} stands in Court and moves only by the extended (1,3) L; {f} to {t} is a classical L"),
                );
            }
            if zf == BORDER && zt == COURT && extended {
                return fail(
                    STAGE_MOVEMENT,
                    "knight-court-entry",
                    format!("a knight enters Court only by the classical L; {f} to {t} is an extended L"),
                );
            }
        }
        QUEEN | ROOK | BISHOP | SPY => {
            let straight = df == 0 || dr == 0;
            let diagonal = df.abs() == dr.abs();
            let ok = match role {
                ROOK => straight,
                BISHOP => diagonal,
                _ => straight || diagonal,
            };
            if !ok {
                let text = match role {
                    ROOK => "a rook moves along a file or a rank",
                    BISHOP => "a bishop moves along a diagonal",
                    SPY => "a spy moves like a queen, along a file, a rank or a diagonal",
                    _ => "a queen moves along a file, a rank or a diagonal",
                };
                return fail(
                    STAGE_MOVEMENT,
                    movement_rule(role, zf),
                    format!("{text}; {f} to {t} is not such a move"),
                );
            }
            let d = delta(df.signum(), dr.signum());
            let mut x = from + d;
            while x != to {
                if pos.at(x) != EMPTY {
                    return fail(
                        STAGE_BLOCKED,
                        "blocked",
                        format!(
                            "the {rw} on {f} cannot pass over the {} on {} to reach {t}",
                            piece_words(pos.at(x)),
                            nm(x)
                        ),
                    );
                }
                x += d;
            }
        }
        PAWN => {
            let sign = if us == 0 { 1 } else { -1 };
            let fwd = dr * sign;
            if df == 0 && fwd == 1 {
                if zt == COURT {
                    return fail(
                        STAGE_TARGET,
                        "pawn-not-on-court",
                        format!("the pawn on {f} cannot step onto the Court square {t}; pawns never land in Court"),
                    );
                }
                if target != EMPTY {
                    if target & 1 == us {
                        return fail(
                            STAGE_TARGET,
                            "own-piece-on-target",
                            format!(
                                "{t} holds a {}; a piece cannot move onto its own side's piece",
                                piece_words(target)
                            ),
                        );
                    }
                    return fail(
                        STAGE_TARGET,
                        "pawn-capture",
                        format!("a pawn captures diagonally forward, never straight ahead; it cannot take the {} on {t}", piece_words(target)),
                    );
                }
            } else if df.abs() == 1 && fwd == 1 {
                if zt == COURT {
                    return fail(
                        STAGE_TARGET,
                        "pawn-not-on-court",
                        format!("the pawn on {f} cannot land on the Court square {t}"),
                    );
                }
                if target == EMPTY {
                    return fail(
                        STAGE_TARGET,
                        "pawn-capture",
                        format!("a pawn moves diagonally only to capture, and {t} is empty"),
                    );
                }
            } else {
                return fail(
                    STAGE_MOVEMENT,
                    "pawn-move",
                    format!("a pawn moves one square straight forward (no double step) or captures one square diagonally forward; {f} to {t} is neither"),
                );
            }
        }
        _ => {
            return fail(
                STAGE_MOVEMENT,
                "no-such-piece",
                format!("the {rw} is not a Cypher Chess piece"),
            )
        }
    }
    if target != EMPTY {
        if target & 1 == us {
            return fail(
                STAGE_TARGET,
                "own-piece-on-target",
                format!(
                    "{t} holds a {}; a piece cannot move onto its own side's piece",
                    piece_words(target)
                ),
            );
        }
        if let Err(rule) = pos.capture_rule(role, zf, target, to) {
            return fail(STAGE_TARGET, rule, capture_sentence(pos, rule, from, to));
        }
    }
    if role == KING && !pos.king_entry_ok(from, to, us) {
        let se = pos.spies[(us ^ 1) as usize] as i32;
        let why = if adjacent(to, se) {
            ", and a king stepping in next to it does not flip it (field-king-beside-court-spy = illegal)".to_string()
        } else {
            String::new()
        };
        return fail(
            STAGE_TARGET,
            "king-court-entry",
            format!(
                "the king on {f} cannot enter Court on {t} while the opposing spy stands in Court on {}{why}",
                nm(se)
            ),
        );
    }
    if alone && matches!(role, QUEEN | ROOK | BISHOP | KNIGHT) && zf != COURT && zt == COURT {
        return fail(
            STAGE_TARGET,
            "court-entry-trigger",
            format!(
                "the {} {rw} on {f} may enter Court on {t} only as the second action of a turn whose first moves the Court spy out of Court (e.g. `S..-..; {}{f}-{t}`)",
                zone_word(zf),
                Role::from_code(role).map_or('?', Role::letter)
            ),
        );
    }
    let captures = target != EMPTY;
    if capture != captures {
        return fail(
            STAGE_MARK,
            "capture-mark",
            if capture {
                format!("{f}-{t} captures nothing, so it is written with - rather than x")
            } else {
                format!("{f}x{t} is a capture, so it is written with x rather than -")
            },
        );
    }
    None
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
fn sentence(pos: &Cypher, after: &Cypher, rule: &'static str) -> String {
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
        "infiltration" => "an infiltration moves one own knight, bishop, rook, queen or spy to d0 or d10 right after a king's move onto the Border".into(),
        "court-entry-trigger" => "a second action must move a major piece into Court right after the Court spy left Court".into(),
        "prisoner-release" => "the release is not allowed".into(),
        _ => format!("the turn breaks {rule}"),
    }
}

fn fallback() -> Refusal {
    Refusal::new("no-such-action", "no legal Cypher turn matches this turn")
}

/// The squares a move pattern may start from.
fn origins(
    pos: &Cypher,
    style: Style,
    piece: &Option<PieceRef>,
    from: Origin,
) -> Result<Vec<i32>, Refusal> {
    let us = pos.turn;
    let want = match piece {
        Some(PieceRef::Role(r)) => Some(*r),
        Some(PieceRef::Design(d)) => {
            return Err(Refusal::new(
                "no-such-piece",
                format!("cypher has no piece design {d}"),
            ))
        }
        None if style == Style::Short => Some(Role::Pawn),
        None => None,
    };
    if let Origin::Exact(sq) = from {
        let p = match pos.board.get(sq) {
            Some(p) => p,
            None => {
                return Err(Refusal::new(
                    "no-piece-there",
                    format!(
                        "there is no piece on {}",
                        Cypher::geometry().square_name(sq)
                    ),
                ))
            }
        };
        let name = Cypher::geometry().square_name(sq);
        if p.color() != us {
            return Err(Refusal::new(
                "not-your-turn",
                format!(
                    "the piece on {name} is {}, and it is {us}'s turn",
                    p.color()
                ),
            ));
        }
        if let Some(r) = want {
            if p.role() != r {
                return Err(Refusal::new(
                    "no-such-piece",
                    format!("the piece on {name} is a {}, not a {r}", p.role()),
                ));
            }
        }
        return Ok(vec![cell_of(sq)]);
    }
    let found: Vec<i32> = pos
        .board
        .pieces()
        .filter(|(s, p)| p.color() == us && want.is_none_or(|r| p.role() == r) && from.admits(*s))
        .map(|(s, _)| cell_of(s))
        .collect();
    if found.is_empty() {
        let what = want.map_or("piece".to_string(), |r| r.word().to_string());
        return Err(Refusal::new(
            "no-such-piece",
            format!("there is no {us} {what} that matches"),
        ));
    }
    Ok(found)
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
        ActionPattern::Reborn { .. } => {
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
        ActionPattern::Move {
            style,
            piece,
            from,
            legs,
            promotion,
        } => {
            let Some((to, capture)) = straight(legs) else {
                return Refusal::new(
                    "no-such-action",
                    "a Cypher move goes straight to its destination; it names no squares between, and nothing ricochets or switches",
                );
            };
            if promotion.is_some() {
                return Refusal::new(
                    "no-such-action",
                    "Cypher Chess has no promotion; a pawn on its last Field row makes a coup d'etat",
                );
            }
            let starts = match origins(pos, *style, piece, *from) {
                Ok(v) => v,
                Err(r) => return r,
            };
            let to = cell_of(to);
            if !matches!(from, Origin::Exact(_))
                && !starts.iter().any(|s| could_ever_reach(pos, *s, to))
            {
                let what = piece_kind(*style, piece);
                return Refusal::new(
                    "no-such-piece",
                    format!(
                        "no {} {what} can move to {} by any pattern of its kind",
                        pos.turn,
                        nm(to)
                    ),
                );
            }
            let mut best: Option<(u8, Refusal)> = None;
            for s in starts {
                match turn_refusal(pos, s, to, capture, second) {
                    None => return fallback(),
                    Some((stage, r)) => {
                        if best.as_ref().is_none_or(|(b, _)| stage > *b) {
                            best = Some((stage, r));
                        }
                    }
                }
            }
            best.map_or_else(fallback, |(_, r)| r)
        }
    }
}

/// The word for the kind of piece a move pattern names.
fn piece_kind(style: Style, piece: &Option<PieceRef>) -> String {
    match piece {
        Some(PieceRef::Role(r)) => r.word().to_string(),
        Some(PieceRef::Design(d)) => d.to_string(),
        None if style == Style::Short => "pawn".to_string(),
        None => "piece".to_string(),
    }
}

/// Whether the piece on `from` could reach `to` by some pattern of its kind in some zone,
/// blockers and zones aside: when no candidate of a short move can, the move names no piece.
fn could_ever_reach(pos: &Cypher, from: i32, to: i32) -> bool {
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

fn release_refusal(pos: &Cypher, piece: &PieceRef, to: i32) -> Refusal {
    let us = pos.turn;
    let r = |s: String| Refusal::new("prisoner-release", s);
    if *piece != PieceRef::Role(Role::Pawn) {
        return r(format!(
            "only captured pawns are released; {piece}@{} is not a pawn",
            nm(to)
        ));
    }
    if pos.prisoners[us.index()] == 0 {
        return r(format!("{us} has no captured pawn to release"));
    }
    if zone_of(to) != BORDER {
        return r(format!(
            "a released pawn goes on a Border square (a5..h5); {} is in the {}",
            nm(to),
            zone_word(zone_of(to))
        ));
    }
    if pos.at(to) != EMPTY {
        return r(format!(
            "a released pawn goes on an empty Border square; {} holds a {}",
            nm(to),
            piece_words(pos.at(to))
        ));
    }
    if pos.king_in_check(us) {
        return r(format!("{us} is in check and cannot release a prisoner"));
    }
    let mut next = pos.clone();
    match next.apply(Move::new(0, to, K_DROP)) {
        Err("prisoner-release") => r(format!(
            "a pawn released on {} would check the {} king on {}",
            nm(to),
            us.other(),
            nm(pos.kings[us.other().index()] as i32)
        )),
        Err(rule) => Refusal::new(rule, final_sentence(pos, Move::new(0, to, K_DROP), rule)),
        Ok(()) => fallback(),
    }
}

/// Checks a whole turn whose first action moves the own piece on `from` to `to`.
fn turn_refusal(
    pos: &Cypher,
    from: i32,
    to: i32,
    capture: bool,
    second: Option<&ActionPattern>,
) -> Fail {
    let us = pos.turn as u8;
    let c = pos.at(from);
    let role = c >> 1;
    // An infiltration on its own (later-turn) is written like a move.
    if second.is_none()
        && pos.opts.infiltration_later
        && (to == D0 || to == D10)
        && !capture
        && matches!(role, KNIGHT | BISHOP | ROOK | QUEEN | SPY)
    {
        let k = pos.kings[us as usize] as i32;
        if k != 0 && zone_of(k) == BORDER {
            if pos.infiltration_used[us as usize] {
                if primary_refusal(pos, from, to, capture, true).is_some() {
                    return fail(
                        STAGE_SECOND,
                        "infiltration-once",
                        format!("{} has already infiltrated once this game", pos.turn),
                    );
                }
            } else {
                let m = Move::new(from, to, K_INFIL_ALONE);
                let mut next = pos.clone();
                if let Err(rule) = next.apply(m) {
                    if primary_refusal(pos, from, to, capture, true).is_some() {
                        return fail(STAGE_FINAL, rule, final_sentence(pos, m, rule));
                    }
                }
            }
        }
    }
    if let Some(f) = primary_refusal(pos, from, to, capture, second.is_none()) {
        return Some(f);
    }
    let mut m = Move::new(from, to, K_NORMAL);
    match second {
        None => {
            if role == PAWN && rank_of(to) == coup_rank(us) {
                let view = |x: i32| if x == from { EMPTY } else if x == to { c } else { pos.at(x) };
                let n = pos.coup_candidates(&view, us ^ 1, |_| {});
                if n > 1 {
                    let names: Vec<String> = {
                        let mut v = Vec::new();
                        pos.coup_candidates(&view, us ^ 1, |s| {
                            let l = Role::from_code(pos.at(s) >> 1).map_or('?', Role::letter);
                            v.push(format!("coup {l}{}", nm(s)))
                        });
                        v
                    };
                    return fail(
                        STAGE_SECOND,
                        "coup-choice",
                        format!(
                            "the pawn reaching {} makes a coup d'etat and {} opposing pieces share the highest rank; name one: {}",
                            nm(to),
                            n,
                            names.join(", ")
                        ),
                    );
                }
            }
        }
        Some(ActionPattern::Coup { piece, square }) => {
            if role != PAWN || rank_of(to) != coup_rank(us) {
                return fail(
                    STAGE_SECOND,
                    "coup-choice",
                    format!(
                        "{}-{} makes no coup d'etat: only a pawn landing on its last Field row does",
                        nm(from),
                        nm(to)
                    ),
                );
            }
            let view = |x: i32| if x == from { EMPTY } else if x == to { c } else { pos.at(x) };
            let n = pos.coup_candidates(&view, us ^ 1, |_| {});
            let s = cell_of(*square);
            let mut is_candidate = false;
            pos.coup_candidates(&view, us ^ 1, |x| is_candidate |= x == s);
            if n < 2 {
                return fail(
                    STAGE_SECOND,
                    "coup-choice",
                    format!(
                        "the coup after {}-{} has {} candidate; nothing is named, the turn is just the pawn move",
                        nm(from),
                        nm(to),
                        if n == 0 { "no" } else { "one" }
                    ),
                );
            }
            let role_ok = matches!(piece, PieceRef::Role(r) if Some(*r) == Role::from_code(pos.at(s) >> 1));
            if !is_candidate || !role_ok {
                return fail(
                    STAGE_SECOND,
                    "coup-choice",
                    format!(
                        "{} on {} is not one of the highest-ranking opposing pieces the coup can switch",
                        piece,
                        nm(s)
                    ),
                );
            }
            m = m.with2(0, s, K_COUP);
        }
        Some(ActionPattern::Move {
            style,
            piece,
            from: from2,
            legs,
            ..
        }) => {
            let Some((to2, capture2)) = straight(legs) else {
                return fail(STAGE_SECOND, "no-such-action", "a second action names no squares between, and nothing ricochets or switches".into());
            };
            let to2 = cell_of(to2);
            // The board after the first action, for the second's origin.
            let mut mid = pos.clone();
            mid.put(from, EMPTY);
            mid.put(to, c);
            let starts = match origins(&mid, *style, piece, *from2) {
                Ok(v) => v,
                Err(r) => return Some((STAGE_SECOND, r)),
            };
            let mut best: Fail = None;
            for g in starts {
                let r = second_refusal(pos, &mid, from, to, g, to2, capture2);
                match r {
                    Ok(m2) => {
                        let mut next = pos.clone();
                        match next.apply(m2) {
                            Ok(()) => return None,
                            Err(rule) => {
                                best = Some((STAGE_FINAL, Refusal::new(rule, final_sentence(pos, m2, rule))))
                            }
                        }
                    }
                    Err(f) => {
                        if best.as_ref().is_none_or(|(b, _)| f.0 > *b) {
                            best = Some(f);
                        }
                    }
                }
            }
            return best;
        }
        Some(_) => {
            return fail(
                STAGE_SECOND,
                "no-such-action",
                "the second action of a Cypher turn is a move (court entry, infiltration) or a coup choice".into(),
            )
        }
    }
    let mut next = pos.clone();
    match next.apply(m) {
        Ok(()) => None,
        Err(rule) => fail(STAGE_FINAL, rule, final_sentence(pos, m, rule)),
    }
}

/// Checks the second move action (court entry or infiltration) of the piece on `g` to `t`.
fn second_refusal(
    pos: &Cypher,
    mid: &Cypher,
    from: i32,
    to: i32,
    g: i32,
    t: i32,
    capture: bool,
) -> Result<Move, (u8, Refusal)> {
    let us = pos.turn as u8;
    let role = pos.at(from) >> 1;
    let c2 = mid.at(g);
    let r2 = c2 >> 1;
    let err = |rule: &'static str, s: String| Err((STAGE_SECOND, Refusal::new(rule, s)));
    let m = Move::new(from, to, K_NORMAL);
    let (gn, tn) = (nm(g), nm(t));
    if role == KING {
        if zone_of(to) != BORDER {
            return err(
                "infiltration",
                format!(
                    "only a king's move onto the Border allows infiltration; {} is in the {}",
                    nm(to),
                    zone_word(zone_of(to))
                ),
            );
        }
        if pos.infiltration_used[us as usize] {
            return err(
                "infiltration-once",
                format!("{} has already infiltrated once this game", pos.turn),
            );
        }
        if !matches!(r2, KNIGHT | BISHOP | ROOK | QUEEN | SPY) {
            return err(
                "infiltration",
                format!(
                    "infiltration moves a knight, bishop, rook, queen or spy; the piece on {gn} is a {}",
                    role_word(r2)
                ),
            );
        }
        if t != D0 && t != D10 {
            return err(
                "infiltration",
                format!("infiltration goes to d0 or d10, not {tn}"),
            );
        }
        if g == t {
            return err(
                "infiltration",
                format!("the {} already stands on {tn}", role_word(r2)),
            );
        }
        if capture {
            return Err((
                STAGE_SECOND,
                Refusal::new(
                    "capture-mark",
                    format!("an infiltration is a placement, written {gn}-{tn} even when it removes a piece"),
                ),
            ));
        }
        return Ok(m.with2(g, t, K_INFIL));
    }
    if role != SPY || zone_of(from) != COURT || zone_of(to) == COURT {
        if t == D0 || t == D10 {
            return err(
                "infiltration",
                format!(
                    "infiltration onto {tn} follows a king's move onto the Border; the first action moves a {}",
                    role_word(role)
                ),
            );
        }
        return err(
            "court-entry-trigger",
            format!(
                "only the Court spy's move out of Court lets a second piece move; {}-{} is not one",
                nm(from),
                nm(to)
            ),
        );
    }
    // Court entry.
    if r2 == KING {
        return err(
            "court-entry-trigger",
            format!("the king enters Court by its own step, not as the piece a spy's exit lets in ({gn})"),
        );
    }
    if !matches!(r2, KNIGHT | BISHOP | ROOK | QUEEN) {
        return err(
            "court-entry-trigger",
            format!("the spy's exit lets in a major piece other than the king; the piece on {gn} is a {}", role_word(r2)),
        );
    }
    if zone_of(g) == COURT {
        return err(
            "court-entry-trigger",
            format!("the {} on {gn} already stands in Court; the second action must bring a piece into Court", role_word(r2)),
        );
    }
    if zone_of(t) != COURT {
        return err(
            "court-entry-trigger",
            format!(
                "the second action must enter Court; {tn} is in the {}",
                zone_word(zone_of(t))
            ),
        );
    }
    if r2 == KNIGHT {
        let (df, dr) = (
            (file_of(t) - file_of(g)).abs(),
            (rank_of(t) - rank_of(g)).abs(),
        );
        if (df.min(dr), df.max(dr)) != (1, 2) {
            return err(
                "knight-court-entry",
                format!("a knight enters Court only by the classical L; {gn} to {tn} is not one"),
            );
        }
    } else {
        if let Some((_, r)) =
            primary_refusal(mid, g, t, capture, false).filter(|(s, _)| *s <= STAGE_BLOCKED)
        {
            return Err((STAGE_SECOND, r));
        }
    }
    let target = mid.at(t);
    if target != EMPTY {
        if target & 1 == us {
            return err(
                "own-piece-on-target",
                format!(
                    "{tn} holds a {}; a piece cannot move onto its own side's piece",
                    piece_words(target)
                ),
            );
        }
        let rule = match target >> 1 {
            KING => "no-king-capture",
            SPY => "spy-immunity",
            _ => "court-sanctuary",
        };
        return err(
            rule,
            format!(
                "the piece entering Court cannot capture: the {} on {tn} can be taken only by the opposing spy",
                piece_words(target)
            ),
        );
    }
    if capture {
        return Err((
            STAGE_SECOND,
            Refusal::new(
                "capture-mark",
                format!("{gn}x{tn} captures nothing; write {gn}-{tn}"),
            ),
        ));
    }
    Ok(m.with2(g, t, K_ENTRY))
}

#[cfg(test)]
mod differential {
    use super::super::invariant_tests::{random_position, Rng};
    use super::*;
    use crate::rules::refusal::Explored;
    use crate::scenario::evaluate::Lowering;
    use crate::scenario::parse::parse_turn;

    #[test]
    fn old_and_new_refusals_agree() {
        let g = Cypher::geometry();
        let mut rng =
            Rng(std::env::var("DIFF_SEED").map_or(0xABCD_1234_5678_9EF1, |v| v.parse().unwrap()));
        let n: usize = std::env::var("DIFF_N").map_or(150, |v| v.parse().unwrap());
        let (mut checked, mut rule_diff, mut text_diff) = (0, Vec::new(), Vec::new());
        let letters = ["", "K", "Q", "R", "B", "N", "S", "P"];
        for _ in 0..n {
            let (pos, _) = random_position(&mut rng);
            let mut texts = Vec::new();
            let mut explored = Explored::default();
            pos.explore(&Focus::EVERY, &mut explored);
            for (m, _) in &explored.rejected {
                texts.push(pos.describe(*m).text(&g));
            }
            let own: Vec<i32> = SQUARES
                .iter()
                .copied()
                .filter(|&s| pos.at(s) != EMPTY && pos.at(s) & 1 == pos.turn as u8)
                .collect();
            for _ in 0..6 {
                let then = match rng.below(3) {
                    0 => Then::Coup(SQUARES[rng.below(NSQ)]),
                    1 => Then::Move {
                        from: own.clone(),
                        to: [D0, D10][rng.below(2)],
                    },
                    _ => Then::Move {
                        from: (0..3).map(|_| own[rng.below(own.len())]).collect(),
                        to: SQUARES[rng.below(NSQ)],
                    },
                };
                let mut explored = Explored::default();
                pos.explore(&Focus { first: None, then }, &mut explored);
                let all: Vec<Move> = explored
                    .legal
                    .iter()
                    .copied()
                    .chain(explored.rejected.iter().map(|(m, _)| *m))
                    .collect();
                for m in all {
                    let t = pos.describe(m).text(&g);
                    // Flip a mark now and then.
                    let t = match rng.below(4) {
                        0 => t.replacen('-', "x", 1),
                        1 => t.replacen('x', "-", 1),
                        2 => t
                            .rsplitn(2, '-')
                            .collect::<Vec<_>>()
                            .into_iter()
                            .rev()
                            .collect::<Vec<_>>()
                            .join("x"),
                        _ => t,
                    };
                    texts.push(t);
                }
            }
            let mut explored = Explored::default();
            pos.explore(&Focus::EVERY, &mut explored);
            for m in explored.legal.iter().copied() {
                let t = pos.describe(m).text(&g);
                texts.push(t.replacen('-', "x", 1));
                texts.push(t.replacen('x', "-", 1));
            }
            let sqn = |s: i32| Cypher::name(s);
            let rand_sq = |rng: &mut Rng| SQUARES[rng.below(NSQ)];
            for _ in 0..300 {
                let f = if rng.below(4) > 0 {
                    own[rng.below(own.len())]
                } else {
                    rand_sq(&mut rng)
                };
                let t = rand_sq(&mut rng);
                let l = if pos.at(f) != EMPTY && rng.below(3) > 0 {
                    Role::from_code(pos.at(f) >> 1).map_or("".to_string(), |r| {
                        if r == Role::Pawn {
                            String::new()
                        } else {
                            r.letter().to_string()
                        }
                    })
                } else {
                    letters[rng.below(letters.len())].to_string()
                };
                let mark = if rng.below(2) == 0 { "-" } else { "x" };
                let first = match rng.below(6) {
                    0 => format!("{l}{}{}", if mark == "x" { "x" } else { "" }, sqn(t)),
                    _ => format!("{l}{}{mark}{}", sqn(f), sqn(t)),
                };
                let text = match rng.below(8) {
                    0 | 1 | 2 => first,
                    3 | 4 => {
                        let g2 = if rng.below(3) > 0 {
                            own[rng.below(own.len())]
                        } else {
                            rand_sq(&mut rng)
                        };
                        let t2 = if rng.below(3) == 0 {
                            [D0, D10][rng.below(2)]
                        } else {
                            rand_sq(&mut rng)
                        };
                        let l2 = if pos.at(g2) != EMPTY && rng.below(2) > 0 {
                            Role::from_code(pos.at(g2) >> 1).map_or("".to_string(), |r| {
                                if r == Role::Pawn {
                                    String::new()
                                } else {
                                    r.letter().to_string()
                                }
                            })
                        } else {
                            letters[rng.below(letters.len())].to_string()
                        };
                        let m2 = if rng.below(4) == 0 { "x" } else { "-" };
                        if rng.below(4) == 0 {
                            format!("{first}; {l2}{m2}{}", sqn(t2))
                        } else {
                            format!("{first}; {l2}{}{m2}{}", sqn(g2), sqn(t2))
                        }
                    }
                    5 => format!(
                        "{first}; coup {}{}",
                        ["Q", "N", "B", "R", "P"][rng.below(5)],
                        sqn(rand_sq(&mut rng))
                    ),
                    6 => format!("P@{}", sqn(t)),
                    _ => format!("{first}; O-O"),
                };
                texts.push(text);
            }
            for text in texts {
                let Ok(parsed) = parse_turn(&text) else {
                    continue;
                };
                let Ok(pattern) = Lowering::<Cypher>::new(g).turn(&parsed) else {
                    continue;
                };
                if pos.resolve(&pattern).is_ok() {
                    continue;
                }
                checked += 1;
                let old = refusal(&pos, &pattern);
                let new = pos.refusal(&pattern);
                if old.rule != new.rule {
                    rule_diff.push(format!(
                        "{text} in {}: old {} ({}), new {} ({})",
                        pos.fen(),
                        old.rule,
                        old.reason,
                        new.rule,
                        new.reason
                    ));
                } else if old.reason != new.reason {
                    text_diff.push(format!(
                        "{text} in {}: old {} ({}), new ({})",
                        pos.fen(),
                        old.rule,
                        old.reason,
                        new.reason
                    ));
                }
            }
        }
        eprintln!(
            "{checked} checked, {} rule diffs, {} text diffs",
            rule_diff.len(),
            text_diff.len()
        );
        for d in rule_diff.iter().take(40) {
            eprintln!("RULE {d}");
        }
        for d in text_diff.iter().take(40) {
            eprintln!("TEXT {d}");
        }
        assert!(rule_diff.is_empty() && text_diff.is_empty());
    }
}
