//! Why a turn is legal or not in this variant, rule by rule (see [`crate::rules::explain`]).
//!
//! A legal turn is walked through the rules in the order the generator and `apply` judge it:
//! whose turn; the piece's movement by its zone; the path; what stands on the target and the
//! zone capture rules that let it be taken (sanctuaries, reach, the Spy's powers, re-take); the
//! King's entry into Court; the second action (the piece a Court Spy's exit lets in, an
//! infiltration, a coup's choice); then the rules `judge` applies to the board the turn leaves
//! (king safety, and the King and Spy adjacency rules where the piece they restrict moved and
//! came within two squares); then what the turn did (capture, prisoner, re-take opened, coup,
//! infiltration, flips).
//!
//! A refused turn gets the rules its decisive candidate (the one [`refuse`] reads the refusal
//! from) passed, the refusal, and then every other rule that forbids the same written turn:
//! for that candidate, each rule of the stages from the one that stopped it on, tested on its
//! own with the engine's tests (the movement model and the knight's zones, the first blocker,
//! the target and zone capture rules, the King's Court entry, a major stopping in Court, the
//! capture mark, and `judge`'s rules on a copy of the board with the piece moved there); for
//! the other candidates the text could mean, the rule the generator rejects each by.

use super::refuse;
use super::*;
use crate::rules::explain::Step;
use crate::rules::refusal::{furthest, Rejection, Stage};
use crate::rules::turn::{ActionPattern, MoveShape, StraightMove};

fn nm(s: i32) -> String {
    Cypher::name(s)
}

fn cell_of(sq: Square) -> i32 {
    Sq::of(sq).0 as i32
}

fn square_of(s: i32) -> Square {
    Sq(s as u16).square()
}

/// A piece's kind in words: `knight`, `invented piece (WD)`.
fn kind(c: u8) -> String {
    match Piece::from_code(c).and_then(Piece::design) {
        Some(d) => format!("invented piece {d}"),
        None => role_word(c >> 1).to_string(),
    }
}

/// Where a piece of a zone stands: `in the Field`, `on the Border`, `in Court`.
fn where_in(z: u8) -> &'static str {
    match z {
        COURT => "in Court",
        BORDER => "on the Border",
        _ => "in the Field",
    }
}

/// The King's distance (the most of the file and rank distances) between two squares.
fn distance(a: i32, b: i32) -> i32 {
    (file_of(a) - file_of(b))
        .abs()
        .max((rank_of(a) - rank_of(b)).abs())
}

/// Whether two squares share a file, rank or diagonal.
fn on_line(a: i32, b: i32) -> bool {
    let (df, dr) = (file_of(b) - file_of(a), rank_of(b) - rank_of(a));
    a != b && (df == 0 || dr == 0 || df.abs() == dr.abs())
}

/// The squares strictly between two squares on one line.
fn between(a: i32, b: i32) -> Vec<i32> {
    if !on_line(a, b) {
        return Vec::new();
    }
    let d = delta(
        (file_of(b) - file_of(a)).signum(),
        (rank_of(b) - rank_of(a)).signum(),
    );
    let mut out = Vec::new();
    let mut x = a + d;
    while x != b {
        out.push(x);
        x += d;
    }
    out
}

/// Whether a role moves along lines (queen, rook, bishop, Spy).
fn line_mover(role: u8) -> bool {
    matches!(role, QUEEN | ROOK | BISHOP | SPY)
}

/// The rule ids `judge` refuses an action by, in the order it tests them.
const JUDGE_FAULTS: [&str; 8] = [
    "border-kings-apart",
    "court-king-beside-court-spy",
    "spy-beside-king",
    "spy-beside-enemy-spy",
    "king-beside-own-spy",
    "spy-beside-own-king",
    "own-king-in-check",
    "king-into-spy-line",
];

/// What `judge` finds on the board an action of `mover` leaves, every rule rather than the
/// first: the rules the action breaks (in `judge`'s order), and the flips it decides for the
/// mover (`won`) and against it (`lost`, under the `loses` readings).
struct Judged {
    faults: Vec<&'static str>,
    won: Vec<&'static str>,
    lost: Vec<&'static str>,
}

/// [`Cypher::judge`] with each rule tested on its own (the same tests, in the same order).
fn judged(after: &Cypher, mover: Color, acted: Acted, test_check: bool) -> Judged {
    let us = mover.index();
    let them = us ^ 1;
    let ks = after.kings[us] as i32;
    let ke = after.kings[them] as i32;
    let ss = after.spies[us] as i32;
    let se = after.spies[them] as i32;
    let o = after.opts;
    let mut faults = Vec::new();
    if ks != 0 && ke != 0 && zone_of(ks) == BORDER && zone_of(ke) == BORDER && adjacent(ks, ke) {
        faults.push("border-kings-apart");
    }
    let beside_enemy_spy = ks != 0 && se != 0 && adjacent(ks, se);
    let flips = beside_enemy_spy
        && (zone_of(ks) != COURT
            || zone_of(se) != COURT
            || (acted.king_entered && o.field_king_flips.get()));
    if beside_enemy_spy && !flips {
        faults.push("court-king-beside-court-spy");
    }
    let spy_by_king = acted.spy_moved && ss != 0 && ke != 0 && adjacent(ss, ke);
    let spy_by_king_illegal =
        spy_by_king && (zone_of(ke) == COURT || !o.spy_beside_enemy_king_loses.get());
    if spy_by_king_illegal {
        faults.push("spy-beside-king");
    }
    let spies_touch = ss != 0 && se != 0 && adjacent(ss, se);
    let spies_illegal = spies_touch && !o.spy_beside_enemy_spy_loses.get();
    if spies_illegal {
        faults.push("spy-beside-enemy-spy");
    }
    let own_spy = ks != 0 && ss != 0 && adjacent(ks, ss);
    let (own_rule, own_reading) = if acted.spy_moved && !acted.king_moved {
        ("spy-beside-own-king", o.spy_beside_own_king_loses)
    } else {
        ("king-beside-own-spy", o.king_beside_own_spy_loses)
    };
    let own_illegal = own_spy && !own_reading.get();
    if own_illegal {
        faults.push(own_rule);
    }
    if test_check
        && ks != 0
        && zone_of(ks) != COURT
        && after.attacked(ks, them as u8, if flips { se } else { -1 })
    {
        faults.push("own-king-in-check");
    }
    let into_line = after.spy_line(se, ks);
    let into_illegal = into_line && !o.king_into_spy_line_loses.get();
    if into_illegal {
        faults.push("king-into-spy-line");
    }
    let mut won = Vec::new();
    if ke == 0 && acted.infiltrated {
        won.push("infiltration");
    }
    if flips {
        won.push("king-flips-spy");
    }
    if after.spy_line(ss, ke) {
        won.push("spy-flips-king");
    }
    if acted.coup_bare {
        won.push("coup-bare-king");
    }
    let mut lost = Vec::new();
    if spy_by_king && !spy_by_king_illegal {
        lost.push("spy-beside-king");
    }
    if spies_touch && !spies_illegal {
        lost.push("spy-beside-enemy-spy");
    }
    if own_spy && !own_illegal {
        lost.push(own_rule);
    }
    if into_line && !into_illegal {
        lost.push("king-into-spy-line");
    }
    Judged { faults, won, lost }
}

/// What the first action from `from` to `to` did, as `apply` records it for `judge`.
fn first_acted(pos: &Cypher, from: i32, to: i32) -> Acted {
    let role = pos.at(from) >> 1;
    Acted {
        king_moved: role == KING,
        king_entered: role == KING && zone_of(from) != COURT && zone_of(to) == COURT,
        spy_moved: role == SPY,
        ..Acted::default()
    }
}

/// What the last action of the turn `m` did, as `apply` records it for `judge`; `after` is the
/// board the whole turn left.
fn acted_of(pos: &Cypher, m: Move, after: &Cypher) -> Acted {
    let (from, to) = (m.from as i32, m.to as i32);
    match m.kind {
        K_DROP | K_ENTRY => Acted::default(),
        K_INFIL | K_INFIL_ALONE => {
            let g = if m.kind == K_INFIL {
                pos.after_first(from, to)(m.from2 as i32)
            } else {
                pos.at(from)
            };
            Acted {
                spy_moved: g >> 1 == SPY,
                infiltrated: true,
                ..Acted::default()
            }
        }
        _ => {
            let mut acted = first_acted(pos, from, to);
            let us = pos.turn as u8;
            if pos.at(from) >> 1 == PAWN && rank_of(to) == coup_rank(us) {
                let view = |x: i32| {
                    if x == from || x == to {
                        EMPTY
                    } else {
                        pos.at(x)
                    }
                };
                let n = pos.coup_candidates(&view, us ^ 1, |_| {});
                let bare_before = n == 0;
                let bare_after = !SQUARES.iter().any(|&s| {
                    let c = after.at(s);
                    c != EMPTY && c != WALL && c & 1 != us && !matches!(c >> 1, KING | SPY)
                });
                // The reading is consulted only where the two moments differ, as `apply` does.
                acted.coup_bare = if bare_before == bare_after || pos.opts.coup_before_switch.get()
                {
                    bare_before
                } else {
                    bare_after
                };
            }
            acted
        }
    }
}

/// Whose turn it is, and that the piece on `from` is the mover's.
fn whose(pos: &Cypher, from: i32) -> Step {
    let us = pos.turn;
    Step::allows(
        "not-your-turn",
        format!(
            "it is {us}'s turn, and the {} on {} is {us}'s",
            kind(pos.at(from)),
            nm(from)
        ),
    )
}

/// The piece `c` from `from` to `to` by its movement, as its zone allows it.
fn movement_step(c: u8, from: i32, to: i32) -> Step {
    let role = c >> 1;
    let (f, t) = (nm(from), nm(to));
    let (zf, zt) = (zone_of(from), zone_of(to));
    let (df, dr) = (
        (file_of(to) - file_of(from)).abs(),
        (rank_of(to) - rank_of(from)).abs(),
    );
    match role {
        KING => Step::allows(
            "king-move",
            format!("the king on {f} steps one square to {t}"),
        ),
        _ if line_mover(role) => {
            let line = if df == 0 {
                "file"
            } else if dr == 0 {
                "rank"
            } else {
                "diagonal"
            };
            Step::allows(
                movement_rule(role, zf),
                format!("the {} on {f} moves along the {line} to {t}", kind(c)),
            )
        }
        KNIGHT => {
            let l = if df.min(dr) == 1 && df.max(dr) == 2 {
                "classical L (1,2)"
            } else {
                "extended L (1,3)"
            };
            if zf != COURT && zt == COURT {
                return Step::allows(
                    "knight-court-entry",
                    format!("the knight on {f} enters Court on {t} by the {l}"),
                );
            }
            let note = match zf {
                FIELD => format!("the Field knight on {f} leaps the {l} to {t}"),
                BORDER => format!("the Border knight on {f} leaps the {l} to {t}"),
                _ if zt == COURT => {
                    format!("the Court knight on {f} leaps the {l} to {t}, another Court square")
                }
                _ => format!("the Court knight on {f} leaps the {l} to {t}, leaving Court"),
            };
            Step::allows(movement_rule(KNIGHT, zf), note)
        }
        PAWN if df == 0 => Step::allows(
            "pawn-move",
            format!("the pawn on {f} steps one square straight forward to the empty square {t}"),
        ),
        PAWN => Step::allows(
            "pawn-capture",
            format!("the pawn on {f} captures one square diagonally forward on {t}"),
        ),
        _ => Step::allows(
            "invented-piece",
            format!("the {} on {f} reaches {t} by a move of its design", kind(c)),
        ),
    }
}

/// The path of the piece `c` from `from` to `to` on the board `view`: no piece between, and a
/// Court piece's crossing to another Court square.
fn path_steps(view: &dyn Fn(i32) -> u8, c: u8, from: i32, to: i32) -> Vec<Step> {
    let mut out = Vec::new();
    if !line_mover(c >> 1) {
        return out;
    }
    let squares = between(from, to);
    if squares.is_empty() {
        return out;
    }
    debug_assert!(squares.iter().all(|&x| view(x) == EMPTY));
    out.push(Step::allows(
        "blocked",
        format!("no piece stands between {} and {}", nm(from), nm(to)),
    ));
    if zone_of(from) == COURT && zone_of(to) == COURT {
        let border = squares.iter().any(|&x| zone_of(x) == BORDER);
        let field = squares.iter().any(|&x| zone_of(x) == FIELD);
        let crossed = match (field, border) {
            (true, true) => "the Field and the Border",
            (true, false) => "the Field",
            (false, true) => "the Border",
            (false, false) => "",
        };
        if !crossed.is_empty() {
            out.push(Step::allows(
                "court-crossing",
                format!(
                    "the Court {} on {} crosses {crossed} to the Court square {}, which needs no trigger",
                    kind(c),
                    nm(from),
                    nm(to)
                ),
            ));
        }
    }
    out
}

/// What stands on `to` (`target`) and the rules that let the piece `c` from `from` take it
/// there; a King's step into Court.
fn target_steps(pos: &Cypher, c: u8, from: i32, to: i32, target: u8) -> Vec<Step> {
    let role = c >> 1;
    let (zf, zt) = (zone_of(from), zone_of(to));
    let (f, t) = (nm(from), nm(to));
    let mut out = Vec::new();
    if target != EMPTY {
        let tp = piece_words(target);
        if target >> 1 == PAWN {
            if role == SPY {
                out.push(Step::allows(
                    "spy-capture-powers",
                    format!("the spy on {f} may take the {tp} on {t} (spy-captures-pawns = yes)"),
                ));
            }
        } else {
            match zt {
                FIELD if role == PAWN => out.push(Step::allows(
                    "field-sanctuary",
                    format!("the {tp} on {t} has sanctuary in the Field only from major Field pieces; a pawn may take it"),
                )),
                FIELD if zf != FIELD => out.push(Step::allows(
                    "field-sanctuary",
                    format!(
                        "the {tp} on {t} has sanctuary in the Field only from major Field pieces, and the {} on {f} stands {}",
                        kind(c),
                        where_in(zf)
                    ),
                )),
                FIELD => out.push(Step::allows(
                    "retake",
                    format!("the {tp} on {t} has just taken a major piece in the Field from outside it, so a major Field piece may re-take it on this turn"),
                )),
                BORDER => out.push(Step::allows(
                    "border-sanctuary",
                    format!("the {tp} on the Border square {t} can be taken only by a pawn, and the pawn on {f} is one"),
                )),
                _ => {
                    out.push(Step::allows(
                        "spy-capture-powers",
                        format!("the Court spy on {f} captures a major piece standing in Court"),
                    ));
                    out.push(Step::allows(
                        "court-sanctuary",
                        format!("the {tp} on the Court square {t} can be taken only by the opposing spy from another Court square, and the spy on {f} is one"),
                    ));
                }
            }
        }
    }
    if role == KING && zf != COURT && zt == COURT {
        let them = pos.turn.other();
        let se = pos.spies[them.index()] as i32;
        let note = if se == 0 {
            format!("the king on {f} may step into Court on {t}: {them} has no spy on the board")
        } else if zone_of(se) != COURT {
            format!(
                "the king on {f} may step into Court on {t}: the {them} spy on {} stands outside Court",
                nm(se)
            )
        } else {
            format!(
                "the king on {f} steps into Court on {t} next to the {them} Court spy on {}, which it flips (field-king-beside-court-spy = flips)",
                nm(se)
            )
        };
        out.push(Step::allows("king-court-entry", note));
    }
    out
}

/// Whether a candidate that got to `upto` (`None`: a legal turn) passed the rules of `stage`.
fn passed(stage: Stage, upto: Option<Stage>) -> bool {
    upto.is_none_or(|u| stage < u)
}

/// The rules of the first action from `from` to `to` (movement, path, target) that a
/// candidate which got to `upto` passed.
fn first_steps(pos: &Cypher, from: i32, to: i32, upto: Option<Stage>) -> Vec<Step> {
    let c = pos.at(from);
    let mut out = Vec::new();
    if passed(Stage::Movement, upto) {
        out.push(movement_step(c, from, to));
    }
    if passed(Stage::Blocked, upto) {
        out.extend(path_steps(&|x| pos.at(x), c, from, to));
    }
    if passed(Stage::Target, upto) {
        out.extend(target_steps(pos, c, from, to, pos.at(to)));
        if c >> 1 == PAWN && matches!(file_of(from), 1 | 8) && zone_of(to) != COURT {
            out.push(Step::allows(
                "pawn-not-on-court",
                format!(
                    "{} is a {} square, not a Court square, where pawns never land",
                    nm(to),
                    zone_word(zone_of(to))
                ),
            ));
        }
    }
    out
}

/// The rules the second action of `m` (or an infiltration on its own) passed.
fn second_steps(pos: &Cypher, m: Move) -> Vec<Step> {
    let us = pos.turn;
    let (from, to) = (m.from as i32, m.to as i32);
    let (g, t) = (m.from2 as i32, m.to2 as i32);
    let (f1, t1) = (nm(from), nm(to));
    let view = pos.after_first(from, to);
    match m.kind {
        K_ENTRY => {
            let c2 = view(g);
            let mut out = vec![
                Step::allows(
                    "court-entry-trigger",
                    format!("the Court spy's move from {f1} out of Court to {t1} lets one major piece other than the king enter Court in the same turn"),
                ),
                Step::allows(
                    "action-by-action",
                    format!("the spy's exit {f1}-{t1} is judged first, by itself: it breaks no Spy or King rule and decides nothing"),
                ),
                movement_step(c2, g, t),
            ];
            out.extend(path_steps(&view, c2, g, t));
            out.push(Step::allows(
                "turn-length",
                format!(
                    "the turn has two actions: the spy's exit and the {} on {} entering Court on {}",
                    kind(c2),
                    nm(g),
                    nm(t)
                ),
            ));
            out
        }
        K_INFIL => {
            let c2 = view(g);
            vec![
                Step::allows(
                    "infiltration",
                    format!(
                        "the king's step onto the Border square {t1} lets one own knight, bishop, rook, queen or spy go to d0 or d10 in the same turn: the {} on {} goes to {}",
                        kind(c2),
                        nm(g),
                        nm(t)
                    ),
                ),
                Step::allows("infiltration-once", format!("{us} has not infiltrated yet this game")),
                Step::allows(
                    "action-by-action",
                    format!("the king's step {f1}-{t1} is judged first, by itself: it breaks no Spy or King rule and decides nothing"),
                ),
                Step::allows(
                    "turn-length",
                    "the turn has two actions: the king's step onto the Border and the infiltration it allows",
                ),
            ]
        }
        K_COUP => {
            let chosen = pos.at(t);
            let n = pos.coup_candidates(
                &|x| {
                    if x == from || x == to {
                        EMPTY
                    } else {
                        pos.at(x)
                    }
                },
                us as u8 ^ 1,
                |_| {},
            );
            vec![
                Step::allows(
                    "coup-choice",
                    format!(
                        "{n} {} pieces share the highest coup rank ({}), and the turn names the one on {}",
                        us.other(),
                        kind(chosen),
                        nm(t)
                    ),
                ),
                Step::allows(
                    "turn-length",
                    "the turn has two actions: the pawn's move that makes the coup and the coup's choice",
                ),
            ]
        }
        K_INFIL_ALONE => {
            let k = pos.kings[us.index()] as i32;
            vec![
                Step::allows(
                    "infiltration",
                    format!(
                        "the {us} king stands on the Border square {}, and an infiltration may be a turn of its own (infiltration-timing = later-turn): the {} on {f1} goes to {t1}",
                        nm(k),
                        kind(pos.at(from))
                    ),
                ),
                Step::allows("infiltration-once", format!("{us} has not infiltrated yet this game")),
            ]
        }
        _ => Vec::new(),
    }
}

/// The rules at the head of a second action that only a trigger opens: the Court Spy's exit
/// and an infiltration; a second action stopped by one of them got no further.
fn trigger_rule(rule: &str) -> bool {
    matches!(
        rule,
        "court-entry-trigger" | "infiltration" | "infiltration-once"
    )
}

/// Whether `rule` is the one the movement of the piece of `role` on `g` breaks as the piece
/// a Spy's exit lets into Court.
fn entry_movement_rule(rule: &str, role: u8, g: i32) -> bool {
    rule == "knight-court-entry"
        || rule == "invented-piece"
        || rule == movement_rule(role, zone_of(g))
}

/// The rules the second action of the court entry `m` passed before `rule` stopped it: the
/// Spy's exit that lets a piece in, and the entering piece's movement and path.
fn entry_steps_before(pos: &Cypher, m: Move, rule: &str) -> Vec<Step> {
    if m.kind != K_ENTRY || trigger_rule(rule) {
        return Vec::new();
    }
    let (from, to) = (m.from as i32, m.to as i32);
    let (g, t) = (m.from2 as i32, m.to2 as i32);
    let view = pos.after_first(from, to);
    let c2 = view(g);
    let mut out = vec![Step::allows(
        "court-entry-trigger",
        format!(
            "the Court spy's move from {} out of Court to {} lets one major piece other than the king enter Court in the same turn",
            nm(from),
            nm(to)
        ),
    )];
    if !entry_movement_rule(rule, c2 >> 1, g) {
        out.push(movement_step(c2, g, t));
        if rule != "blocked" {
            out.extend(path_steps(&view, c2, g, t));
        }
    }
    out
}

/// Every rule that forbids the piece the court entry `m` lets in, each tested on its own as
/// `second_fault` tests them in turn: its movement into Court, the first piece in its way,
/// and what stands on its target.
fn entry_also(pos: &Cypher, m: Move, rule: &str) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if m.kind != K_ENTRY || trigger_rule(rule) {
        return out;
    }
    let us = pos.turn as u8;
    let (from, to) = (m.from as i32, m.to as i32);
    let (g, t) = (m.from2 as i32, m.to2 as i32);
    let view = pos.after_first(from, to);
    let r2 = view(g) >> 1;
    let say = |rule: &'static str, at: Option<i32>| {
        refuse::second_sentence(pos, m, rule, at.map(square_of))
    };
    if r2 == KNIGHT {
        let (df, dr) = (
            (file_of(t) - file_of(g)).abs(),
            (rank_of(t) - rank_of(g)).abs(),
        );
        if (df.min(dr), df.max(dr)) != (1, 2) {
            out.push(("knight-court-entry", say("knight-court-entry", None)));
        }
    } else if !is_design(r2) {
        if movement_of(r2)
            .could_reach(square_of(g), square_of(t), pos.turn)
            .is_none()
        {
            let rule = movement_rule(r2, zone_of(g));
            out.push((rule, say(rule, None)));
        } else if let Some(&x) = between(g, t).iter().find(|&&x| view(x) != EMPTY) {
            out.push(("blocked", say("blocked", Some(x))));
        }
    }
    let target = view(t);
    if target != EMPTY {
        let rule = if target & 1 == us {
            "own-piece-on-target"
        } else {
            match target >> 1 {
                KING => "no-king-capture",
                SPY => "spy-immunity",
                _ => "court-sanctuary",
            }
        };
        out.push((rule, say(rule, None)));
    }
    out
}

/// The rules a turn passed before `judge` (`upto`: the stage its candidate got to; `None`
/// for a legal turn).
fn turn_steps(pos: &Cypher, m: Move, upto: Option<Stage>) -> Vec<Step> {
    let us = pos.turn;
    let (from, to) = (m.from as i32, m.to as i32);
    match m.kind {
        K_DROP => {
            let mut out = vec![Step::allows("not-your-turn", format!("it is {us}'s turn"))];
            if upto.is_none() {
                let n = pos.prisoners[us.index()];
                out.push(Step::allows(
                    "prisoner-release",
                    format!(
                        "{us} holds {} and is not in check; {} is an empty Border square, and a pawn there checks no {} king",
                        crate::text::count(n, "captured pawn"),
                        nm(to),
                        us.other()
                    ),
                ));
            }
            out
        }
        K_INFIL_ALONE => {
            let mut out = vec![whose(pos, from)];
            if passed(Stage::Second, upto) {
                out.extend(second_steps(pos, m));
            }
            out
        }
        _ => {
            let mut out = vec![whose(pos, from)];
            out.extend(first_steps(pos, from, to, upto));
            if passed(Stage::Second, upto) {
                out.extend(second_steps(pos, m));
            }
            out
        }
    }
}

/// The rules of `judge` that a legal turn `m` satisfied, on the board `after` it left: king
/// safety, and the adjacency and line rules of Kings and Spies where the piece each restricts
/// moved and came within two squares of the other.
fn judge_steps(pos: &Cypher, m: Move, after: &Cypher) -> Vec<Step> {
    let us = pos.turn;
    let them = us.other();
    let ks = after.kings[us.index()] as i32;
    let ke = after.kings[them.index()] as i32;
    let ss = after.spies[us.index()] as i32;
    let se = after.spies[them.index()] as i32;
    let mut out = Vec::new();
    if ks != 0 {
        let note = if zone_of(ks) == COURT {
            format!(
                "the {us} king on {} stands in Court, where it is never in check",
                nm(ks)
            )
        } else {
            let flips =
                se != 0 && adjacent(ks, se) && !(zone_of(se) == COURT && zone_of(ks) == COURT);
            let aside = if flips {
                " (the spy it flips does not count)"
            } else {
                ""
            };
            if pos.king_in_check(us) {
                format!(
                    "the turn ends the check: after it no {them} piece checks the {us} king on {}{aside}",
                    nm(ks)
                )
            } else {
                format!(
                    "after the turn no {them} piece checks the {us} king on {}{aside}",
                    nm(ks)
                )
            }
        };
        out.push(Step::allows("own-king-in-check", note));
    }
    let placed = matches!(m.kind, K_DROP | K_INFIL_ALONE);
    let king_moved = !placed && pos.at(m.from as i32) >> 1 == KING;
    let spy_moved = after.spies[us.index()] != pos.spies[us.index()];
    let near = |a: i32, b: i32| a != 0 && b != 0 && distance(a, b) == 2;
    if king_moved && ke != 0 && zone_of(ks) == BORDER && zone_of(ke) == BORDER {
        out.push(Step::allows(
            "border-kings-apart",
            format!(
                "the kings on {} and {} both stand on the Border, but not side by side",
                nm(ks),
                nm(ke)
            ),
        ));
    }
    if king_moved && near(ks, se) && zone_of(ks) == COURT && zone_of(se) == COURT {
        out.push(Step::allows(
            "court-king-beside-court-spy",
            format!(
                "the {us} Court king on {} does not stand next to the {them} Court spy on {}",
                nm(ks),
                nm(se)
            ),
        ));
    }
    if king_moved && near(ks, ss) {
        out.push(Step::allows(
            "king-beside-own-spy",
            format!(
                "the {us} king on {} does not stand next to its own spy on {}",
                nm(ks),
                nm(ss)
            ),
        ));
    }
    if spy_moved && near(ss, ke) {
        out.push(Step::allows(
            "spy-beside-king",
            format!(
                "the {us} spy on {} does not stand next to the {them} king on {}",
                nm(ss),
                nm(ke)
            ),
        ));
    }
    if spy_moved && !king_moved && near(ss, ks) {
        out.push(Step::allows(
            "spy-beside-own-king",
            format!(
                "the {us} spy on {} does not stand next to its own king on {}",
                nm(ss),
                nm(ks)
            ),
        ));
    }
    if spy_moved && near(ss, se) {
        out.push(Step::allows(
            "spy-beside-enemy-spy",
            format!(
                "the {us} spy on {} does not stand next to the {them} spy on {}",
                nm(ss),
                nm(se)
            ),
        ));
    }
    if king_moved
        && ks != 0
        && se != 0
        && zone_of(ks) == COURT
        && zone_of(se) == COURT
        && on_line(se, ks)
        && !adjacent(se, ks)
        && !after.spy_line(se, ks)
    {
        out.push(Step::allows(
            "king-into-spy-line",
            format!(
                "the {us} Court king on {} shares a line with the {them} Court spy on {}, but a piece stands between them",
                nm(ks),
                nm(se)
            ),
        ));
    }
    out
}

/// The rule behind a capture by the piece `c` from `from` of the piece on `to`.
fn capture_rule_of(pos: &Cypher, c: u8, from: i32, to: i32) -> &'static str {
    let role = c >> 1;
    let target = pos.at(to);
    match role {
        PAWN => "pawn-capture",
        SPY => "spy-capture-powers",
        _ if target >> 1 != PAWN
            && zone_of(to) == FIELD
            && zone_of(from) == FIELD
            && to as u16 == pos.retake =>
        {
            "retake"
        }
        _ => movement_rule(role, zone_of(from)),
    }
}

/// The infiltration of the piece on `g` (on the board `view`) to `t`, and the once a game.
fn infiltration_effects(us: Color, view: &dyn Fn(i32) -> u8, g: i32, t: i32) -> Vec<Step> {
    let old = view(t);
    let removing = if old == EMPTY {
        String::new()
    } else {
        format!(", removing the {} there", piece_words(old))
    };
    vec![
        Step::effect(
            "infiltration",
            format!(
                "the {us} {} on {} is placed on {}{removing}",
                kind(view(g)),
                nm(g),
                nm(t)
            ),
        ),
        Step::effect(
            "infiltration-once",
            format!("{us} has now used its one infiltration of the game"),
        ),
    ]
}

/// What the legal turn `m` did, on the board `after` it left.
fn effects(pos: &Cypher, m: Move, after: &Cypher) -> Vec<Step> {
    let us = pos.turn;
    let them = us.other();
    let (from, to) = (m.from as i32, m.to as i32);
    let mut out = Vec::new();
    match m.kind {
        K_DROP => {
            let n = after.prisoners[us.index()];
            out.push(Step::effect(
                "prisoner-release",
                format!(
                    "a captured {us} pawn comes back onto {}; {us} holds {} now",
                    nm(to),
                    crate::text::count(n, "prisoner")
                ),
            ));
        }
        K_INFIL_ALONE => out.extend(infiltration_effects(us, &|x| pos.at(x), from, to)),
        _ => {
            let c = pos.at(from);
            let target = pos.at(to);
            if target != EMPTY {
                out.push(Step::effect(
                    capture_rule_of(pos, c, from, to),
                    format!(
                        "the {} on {} captures the {} on {}",
                        piece_words(c),
                        nm(from),
                        piece_words(target),
                        nm(to)
                    ),
                ));
                if target >> 1 == PAWN {
                    let n = after.prisoners[them.index()];
                    out.push(Step::effect(
                        "prisoner-release",
                        format!(
                            "the captured {them} pawn becomes a prisoner that {them} may release onto the Border instead of a move ({them} holds {n} now)"
                        ),
                    ));
                }
            }
            if after.retake != 0 {
                out.push(Step::effect(
                    "retake",
                    format!(
                        "the {} {} has taken a major piece in the Field: on the next turn only, {them} may re-take it on {} with a major Field piece",
                        zone_word(zone_of(from)),
                        kind(c),
                        nm(after.retake as i32)
                    ),
                ));
            }
            if c >> 1 == PAWN && rank_of(to) == coup_rank(us as u8) {
                let view = |x: i32| {
                    if x == from || x == to {
                        EMPTY
                    } else {
                        pos.at(x)
                    }
                };
                let mut first = 0;
                pos.coup_candidates(&view, them as u8, |s| {
                    if first == 0 {
                        first = s;
                    }
                });
                let chosen = if m.kind == K_COUP {
                    m.to2 as i32
                } else {
                    first
                };
                let note = if chosen == 0 {
                    format!("the pawn reaching {} on its last Field row leaves the board; {them} has no piece the coup could switch", nm(to))
                } else {
                    format!(
                        "the pawn reaching {} on its last Field row leaves the board, and the {} on {}, {them}'s highest-ranking piece, switches to {us}",
                        nm(to),
                        piece_words(pos.at(chosen)),
                        nm(chosen)
                    )
                };
                out.push(Step::effect("coup", note));
            }
            if m.kind == K_INFIL {
                let view = pos.after_first(from, to);
                out.extend(infiltration_effects(
                    us,
                    &view,
                    m.from2 as i32,
                    m.to2 as i32,
                ));
            }
        }
    }
    // The flips the turn decides, for the mover and against it.
    let j = judged(after, us, acted_of(pos, m, after), false);
    let ks = after.kings[us.index()] as i32;
    let ke = after.kings[them.index()] as i32;
    let ss = after.spies[us.index()] as i32;
    let se = after.spies[them.index()] as i32;
    for rule in j.won {
        let note = match rule {
            "king-flips-spy" => format!(
                "the {us} king on {} stands next to the {them} spy on {}, not both in Court, and flips it",
                nm(ks),
                nm(se)
            ),
            "spy-flips-king" => format!(
                "the {us} Court spy on {} lines up with the {them} Court king on {}, nothing between, and flips it",
                nm(ss),
                nm(ke)
            ),
            "coup-bare-king" => {
                format!("the coup leaves {them} with no piece but its king (and spy)")
            }
            // The removal of the King is the infiltration's effect.
            _ => continue,
        };
        out.push(Step::effect(rule, note));
    }
    for rule in j.lost {
        let note = match rule {
            "spy-beside-king" => format!(
                "the {us} spy on {} stands next to the {them} king on {} and is flipped (spy-beside-enemy-king = loses)",
                nm(ss),
                nm(ke)
            ),
            "spy-beside-enemy-spy" => format!(
                "the {us} spy on {} stands next to the {them} spy on {} and is flipped (spy-beside-enemy-spy = loses)",
                nm(ss),
                nm(se)
            ),
            "king-beside-own-spy" => format!(
                "the {us} king on {} stands next to its own spy on {} and is flipped (king-beside-own-spy = loses)",
                nm(ks),
                nm(ss)
            ),
            "spy-beside-own-king" => format!(
                "the {us} spy on {} stands next to its own king on {}, which is flipped (spy-beside-own-king = loses)",
                nm(ss),
                nm(ks)
            ),
            _ => format!(
                "the {us} Court king on {} stands on the line of the {them} Court spy on {}, nothing between, and is flipped (king-into-spy-line = loses)",
                nm(ks),
                nm(se)
            ),
        };
        out.push(Step::effect(rule, note));
    }
    out
}

/// The rules a legal turn satisfied, in the order the variant applies them, then the rules
/// behind what it did.
pub(super) fn legal(pos: &Cypher, m: Move) -> Vec<Step> {
    let mut after = pos.clone();
    if after.apply_turn(m, None).is_err() {
        // Not a legal turn: nothing satisfied it.
        return Vec::new();
    }
    let mut steps = turn_steps(pos, m, None);
    if m.kind != K_DROP {
        steps.extend(judge_steps(pos, m, &after));
    }
    steps.extend(effects(pos, m, &after));
    steps
}

/// The rules the refused turn passed, the rule that forbids it, and the others that would too.
pub(super) fn refused(pos: &Cypher, pattern: &TurnPattern) -> Vec<Step> {
    let r = pos.refusal(pattern);
    let alone = || vec![Step::from(r.clone())];
    let TurnPattern::Actions { actions, .. } = pattern else {
        return alone();
    };
    if pos.result.is_some() || actions.len() > 2 {
        return alone();
    }
    let Some(first @ ActionPattern::Move { .. }) = actions.first() else {
        return alone();
    };
    let MoveShape::Straight(StraightMove { to, capture, .. }) = first.shape() else {
        return alone();
    };
    let to = cell_of(to);
    let Ok(picks) = refuse::move_picks(pos, actions, first) else {
        return alone();
    };
    let decisive = furthest(
        picks
            .iter()
            .map(|(s, ((r, cand), why))| ((*s, r.rule, *cand), *why)),
    );
    let Some(((s, rule, cand), why)) = decisive else {
        return alone();
    };
    if rule != r.rule {
        return alone();
    }
    // A compound turn whose first action already broke a rule got no further than that action.
    let upto = match cand {
        Some(m) if why.stage == Stage::Final && matches!(m.kind, K_ENTRY | K_INFIL | K_COUP) => {
            match pos.clone().apply_turn(m, None) {
                Err(f) if f.first => Stage::Second,
                _ => Stage::Final,
            }
        }
        _ => why.stage,
    };
    let mut steps = turn_steps(pos, cand.unwrap_or(Move::new(s, to, K_NORMAL)), Some(upto));
    if let Some(m) = cand.filter(|_| why.stage == Stage::Second) {
        steps.extend(entry_steps_before(pos, m, r.rule));
    }
    let mut forbidden: Vec<&'static str> = Vec::new();
    let mut forbid = |steps: &mut Vec<Step>, rule: &'static str, note: String| {
        if !forbidden.contains(&rule) {
            forbidden.push(rule);
            steps.push(Step::forbids(rule, note));
        }
    };
    forbid(&mut steps, r.rule, r.reason.clone());
    let mut others = also(pos, actions, s, to, capture, cand, why);
    if let Some(m) = cand.filter(|_| why.stage == Stage::Second) {
        others.extend(entry_also(pos, m, r.rule));
    }
    for (rule, note) in others {
        forbid(&mut steps, rule, note);
    }
    // The other candidates the text could mean, each the rule the generator rejects it by.
    let g = Cypher::geometry();
    for &(s2, _) in &picks {
        // A piece whose movement never reaches the square is not what the text means, unless
        // it is the decisive piece, which the generator read otherwise (a placement).
        if !refuse::could_reach(pos, s2, to) && cand.is_some() && s2 == s {
            let other = refuse::movement_refusal(pos, s2, to);
            let text = pos.describe(Move::new(s2, to, K_NORMAL)).text(&g);
            forbid(
                &mut steps,
                other.rule,
                format!("read as {text}: {}", other.reason),
            );
        }
        let Some((named, text)) = refuse::named_from(pos, actions, s2, to) else {
            continue;
        };
        for (m2, w2) in named {
            if Some(m2) == cand {
                continue;
            }
            let other = refuse::word(pos, actions, m2, w2);
            let text = pos.describe(m2).text(&g);
            forbid(
                &mut steps,
                other.rule,
                format!("read as {text}: {}", other.reason),
            );
        }
        if let Some(other) = text {
            forbid(&mut steps, other.rule, other.reason);
        }
    }
    steps
}

/// Every other rule that forbids the decisive candidate (the first action from `s` to `to`,
/// written with a capture mark or not, read as `cand` when the generator offered it), each
/// tested on its own, from the stage at which the generator stopped it on.
fn also(
    pos: &Cypher,
    actions: &[ActionPattern],
    s: i32,
    to: i32,
    capture: bool,
    cand: Option<Move>,
    why: Rejection,
) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if cand.is_some_and(|m| matches!(m.kind, K_INFIL_ALONE | K_DROP)) {
        return out;
    }
    let stage = why.stage;
    let us = pos.turn as u8;
    let c = pos.at(s);
    let role = c >> 1;
    let (zf, zt) = (zone_of(s), zone_of(to));
    let target = pos.at(to);
    let m0 = Move::new(s, to, K_NORMAL);
    let reach = refuse::could_reach(pos, s, to);
    let single = actions.len() == 1;
    let say = |rule: &'static str, at: Option<i32>| {
        refuse::first_sentence(pos, m0, rule, at.map(square_of))
    };
    if stage <= Stage::Movement {
        if !reach {
            let r = refuse::movement_refusal(pos, s, to);
            out.push((r.rule, r.reason));
        } else if role == KNIGHT {
            let (df, dr) = (
                (file_of(to) - file_of(s)).abs(),
                (rank_of(to) - rank_of(s)).abs(),
            );
            let classical = df.min(dr) == 1 && df.max(dr) == 2;
            if let Some(w) = Cypher::knight_fault(zf, zt, classical) {
                out.push((w.rule, say(w.rule, None)));
            }
        }
    }
    if stage <= Stage::Blocked && reach && line_mover(role) {
        if let Some(&x) = between(s, to).iter().find(|&&x| pos.at(x) != EMPTY) {
            out.push(("blocked", say("blocked", Some(x))));
        }
    }
    if stage <= Stage::Target {
        if role == PAWN && reach {
            let diagonal = file_of(s) != file_of(to);
            if let Some(w) = pos.pawn_fault(s, to, diagonal) {
                out.push((w.rule, say(w.rule, None)));
            }
        } else if target != EMPTY {
            if target & 1 == us {
                out.push(("own-piece-on-target", say("own-piece-on-target", None)));
            } else if let Err(rule) = pos.capture_rule(role, zf, target, to) {
                out.push((rule, say(rule, None)));
            }
        }
        if role == KING && !pos.king_entry_ok(s, to, us) {
            let se = pos.spies[(us ^ 1) as usize] as i32;
            out.push(("king-court-entry", say("king-court-entry", Some(se))));
        }
        if single && is_major(role) && zf != COURT && zt == COURT {
            out.push(("court-entry-trigger", say("court-entry-trigger", None)));
        }
    }
    if stage <= Stage::Mark && (target == EMPTY || target & 1 != us) && capture != (target != EMPTY)
    {
        out.push((
            "capture-mark",
            refuse::mark_sentence(actions, m0, Stage::Mark),
        ));
    }
    // The rules `judge` applies, on a copy of the board with the piece moved: where the piece
    // may stand there at all (not onto a King or a Spy, not a pawn making a coup).
    if single
        && stage < Stage::Second
        && !matches!(target >> 1, KING | SPY)
        && !(role == PAWN && rank_of(to) == coup_rank(us))
    {
        let mut after = pos.clone();
        let _ = after.apply_turn(m0, None);
        for rule in judged(&after, pos.turn, first_acted(pos, s, to), true).faults {
            out.push((rule, refuse::sentence(pos, &after, rule)));
        }
    }
    if let Some(m) = cand.filter(|_| stage == Stage::Final && JUDGE_FAULTS.contains(&why.rule)) {
        let mut after = pos.clone();
        if let Err(f) = after.apply_turn(m, None) {
            let j = if f.first {
                judged(&after, pos.turn, first_acted(pos, s, to), false)
            } else {
                let acted = acted_of(pos, m, &after);
                judged(&after, pos.turn, acted, true)
            };
            for rule in j.faults {
                out.push((rule, refuse::sentence(pos, &after, rule)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::super::invariant_tests::{random_position_with, Rng, TEST_DESIGNS};
    use super::super::tests::{opts, setup};
    use super::*;
    use crate::rules::explain::StepVerdict;
    use crate::rules::game::Game;
    use crate::scenario::evaluate::Lowering;
    use crate::scenario::parse::parse_turn;

    fn pattern(text: &str) -> Option<TurnPattern> {
        let parsed = parse_turn(text).ok()?;
        Lowering::<Cypher>::new(Cypher::geometry())
            .turn(&parsed)
            .ok()
    }

    fn in_catalogue(rule: &str) -> bool {
        RULES.iter().any(|d| d.id == rule)
    }

    /// The start position, positions of seeded random playouts from it, and random positions
    /// under random options.
    fn positions(random: usize, playouts: usize) -> Vec<Cypher> {
        let start = Cypher::start(Cypher::geometry(), &opts(&[])).expect("the start position");
        let mut out = vec![start.clone()];
        let mut rng = Rng(0xE1A5_0C1D_5EED_0001);
        for _ in 0..playouts {
            let mut pos = start.clone();
            for _ in 0..40 {
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[rng.below(moves.len())]);
                if rng.below(4) == 0 {
                    out.push(pos.clone());
                }
            }
        }
        for _ in 0..random {
            out.push(random_position_with(&mut rng, &[]).0);
        }
        out
    }

    /// Random positions with invented pieces.
    fn designed_positions(n: usize) -> Vec<Cypher> {
        let mut rng = Rng(0xDE51_6AED);
        (0..n)
            .map(|_| random_position_with(&mut rng, &TEST_DESIGNS).0)
            .collect()
    }

    #[test]
    fn every_legal_turn_is_explained_by_catalogued_rules() {
        let mut failures = Vec::new();
        let mut checked = 0;
        let mut by_rule: BTreeSet<&str> = BTreeSet::new();
        for pos in positions(150, 6).into_iter().chain(designed_positions(40)) {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            for m in moves {
                checked += 1;
                let steps = legal(&pos, m);
                let text = pos.describe(m).text(&Cypher::geometry());
                let at = || format!("{text} in {}", pos.fen());
                if !steps.iter().any(|s| s.verdict == StepVerdict::Allows) {
                    failures.push(format!("no allowing rule for {}", at()));
                }
                if steps.iter().any(|s| s.verdict == StepVerdict::Forbids) {
                    failures.push(format!("a forbidding rule for the legal {}", at()));
                }
                for s in &steps {
                    by_rule.insert(s.rule);
                    if !in_catalogue(s.rule) {
                        failures.push(format!("{} is not in the catalogue ({})", s.rule, at()));
                    }
                    if s.note.is_empty() || s.note.ends_with('.') {
                        failures.push(format!("the note of {} for {}: {:?}", s.rule, at(), s.note));
                    }
                }
                // The result the turn decides is among its effects.
                let mut after = pos.clone();
                after.play(m);
                if let Some(o) = after.result {
                    if !steps
                        .iter()
                        .any(|s| s.verdict == StepVerdict::Effect && s.rule == o.rule)
                    {
                        failures.push(format!("{} decides {o}, not among the effects", at()));
                    }
                }
            }
        }
        crate::rules::testing::report(&failures, checked, 3000, "explained legal turns");
        for rule in [
            "knight-field",
            "knight-border",
            "knight-court-exit",
            "knight-court-entry",
            "court-entry-trigger",
            "infiltration",
            "king-court-entry",
            "own-king-in-check",
            "spy-capture-powers",
            "court-sanctuary",
            "border-sanctuary",
            "field-sanctuary",
            "prisoner-release",
            "coup",
        ] {
            assert!(
                by_rule.contains(rule),
                "{rule} never explains a turn: {by_rule:?}"
            );
        }
    }

    /// The rules `judged` finds are `judge`'s: its first fault is the rule `apply` refuses a
    /// candidate by, and a legal candidate's result is among its flips.
    #[test]
    fn judged_agrees_with_judge() {
        let (mut checked, mut failures) = (0, Vec::new());
        for pos in positions(200, 2) {
            if pos.result.is_some() {
                continue;
            }
            let mut candidates = Vec::new();
            pos.candidates(&Focus::EVERY, &mut candidates);
            for m in candidates {
                let mut after = pos.clone();
                let text = || format!("{m:?} in {}", pos.fen());
                match after.apply_turn(m, None) {
                    Err(f) if JUDGE_FAULTS.contains(&f.rule) || f.rule == "game-over" => {
                        checked += 1;
                        let j = if f.first {
                            judged(
                                &after,
                                pos.turn,
                                first_acted(&pos, m.from as i32, m.to as i32),
                                false,
                            )
                        } else {
                            judged(&after, pos.turn, acted_of(&pos, m, &after), true)
                        };
                        let decided = !(j.won.is_empty() && j.lost.is_empty());
                        let found = j.faults.first().copied().unwrap_or(if decided {
                            "game-over"
                        } else {
                            "none"
                        });
                        if found != f.rule {
                            failures.push(format!("{}: judge {}, judged {found}", text(), f.rule));
                        }
                    }
                    Err(_) => {}
                    Ok(()) => {
                        checked += 1;
                        let j = judged(&after, pos.turn, acted_of(&pos, m, &after), true);
                        let flips: Vec<_> = j.won.iter().chain(&j.lost).collect();
                        if !j.faults.is_empty()
                            || after.result.is_some_and(|o| !flips.contains(&&o.rule))
                            || (after.result.is_none() && !flips.is_empty())
                        {
                            failures.push(format!(
                                "{}: legal with {:?}, judged {:?} {flips:?}",
                                text(),
                                after.result,
                                j.faults
                            ));
                        }
                    }
                }
            }
        }
        crate::rules::testing::report(&failures, checked, 3000, "candidates judged alike");
    }

    /// The rules tested one by one for the further forbidding rules find what the generator
    /// and `apply` find: nothing for a legal move, and the rule that rejects a candidate.
    #[test]
    fn each_rule_tested_alone_agrees_with_the_generator() {
        let g = Cypher::geometry();
        let (mut checked, mut failures) = (0, Vec::new());
        for pos in positions(120, 2) {
            if pos.result.is_some() {
                continue;
            }
            let mut explored = crate::rules::refusal::Explored::default();
            pos.explore(&Focus::EVERY, &mut explored);
            let legal = explored.legal.iter().map(|&m| (m, None));
            let rejected = explored.rejected.iter().map(|&(m, why)| (m, Some(why)));
            for (m, why) in legal.chain(rejected) {
                let (s, to) = (m.from as i32, m.to as i32);
                if m.kind != K_NORMAL
                    || why.is_some_and(|w| w.stage == Stage::Second)
                    || (pos.at(s) >> 1 == PAWN && rank_of(to) == coup_rank(pos.turn as u8))
                {
                    continue;
                }
                let text = pos.describe(m).text(&g);
                let Some(TurnPattern::Actions { actions, .. }) = pattern(&text) else {
                    failures.push(format!("{text} does not read back"));
                    continue;
                };
                checked += 1;
                let capture = pos.at(to) != EMPTY;
                let from_start = Rejection::new("", Stage::Movement);
                let found: Vec<&str> = also(&pos, &actions, s, to, capture, Some(m), from_start)
                    .into_iter()
                    .map(|(rule, _)| rule)
                    .collect();
                let ok = match why {
                    None => found.is_empty(),
                    Some(w) => found.first() == Some(&w.rule),
                };
                if !ok {
                    failures.push(format!(
                        "{text} in {}: the generator {:?}, tested alone {found:?}",
                        pos.fen(),
                        why.map(|w| w.rule)
                    ));
                }
            }
        }
        crate::rules::testing::report(&failures, checked, 10000, "candidates tested rule by rule");
    }

    /// The same for the piece a Court Spy's exit lets in: what stops it tested rule by rule
    /// finds the rule `second_fault` rejects it by, and nothing for a legal entry.
    #[test]
    fn each_rule_of_a_court_entry_tested_alone_agrees_with_the_generator() {
        let mut rng = Rng(0xC0_0E7);
        let (mut checked, mut failures) = (0, Vec::new());
        let court: Vec<i32> = SQUARES
            .iter()
            .copied()
            .filter(|&s| zone_of(s) == COURT)
            .collect();
        for pos in positions(150, 2) {
            if pos.result.is_some() {
                continue;
            }
            let own: Vec<i32> = SQUARES
                .iter()
                .copied()
                .filter(|&s| pos.at(s) != EMPTY && pos.at(s) & 1 == pos.turn as u8)
                .collect();
            for _ in 0..6 {
                let to = court[rng.below(court.len())];
                let focus = Focus {
                    first: None,
                    then: Then::Move {
                        from: own.clone(),
                        to,
                    },
                };
                let mut explored = crate::rules::refusal::Explored::default();
                pos.explore(&focus, &mut explored);
                let legal = explored.legal.iter().map(|&m| (m, None));
                let rejected = explored.rejected.iter().map(|&(m, why)| (m, Some(why)));
                for (m, why) in legal.chain(rejected) {
                    if m.kind != K_ENTRY
                        || why.is_some_and(|w| w.stage != Stage::Second || trigger_rule(w.rule))
                    {
                        continue;
                    }
                    checked += 1;
                    let found: Vec<&str> = entry_also(&pos, m, why.map_or("", |w| w.rule))
                        .into_iter()
                        .map(|(rule, _)| rule)
                        .collect();
                    let ok = match why {
                        None => found.is_empty(),
                        Some(w) => found.first() == Some(&w.rule),
                    };
                    if !ok {
                        failures.push(format!(
                            "{m:?} in {}: the generator {:?}, tested alone {found:?}",
                            pos.fen(),
                            why.map(|w| w.rule)
                        ));
                    }
                }
            }
        }
        crate::rules::testing::report(&failures, checked, 500, "court entries tested rule by rule");
    }

    /// The refused patterns of a position: each rejected candidate the generator explores,
    /// written out, and each piece of the side to move onto a sample of squares.
    fn refused_patterns(pos: &Cypher, rng: &mut Rng) -> Vec<(String, TurnPattern)> {
        let g = Cypher::geometry();
        let mut texts = BTreeSet::new();
        let mut explored = crate::rules::refusal::Explored::default();
        pos.explore(&Focus::EVERY, &mut explored);
        for (m, _) in &explored.rejected {
            texts.insert(pos.describe(*m).text(&g));
        }
        // Two-action turns: a second action after every first action, as a refusal asks.
        let own: Vec<i32> = SQUARES
            .iter()
            .copied()
            .filter(|&s| pos.at(s) != EMPTY && pos.at(s) & 1 == pos.turn as u8)
            .collect();
        let court: Vec<i32> = SQUARES
            .iter()
            .copied()
            .filter(|&s| zone_of(s) == COURT)
            .collect();
        let thens = [
            Then::Move {
                from: own.clone(),
                to: court[rng.below(court.len())],
            },
            Then::Move {
                from: own.clone(),
                to: [D0, D10][rng.below(2)],
            },
            Then::Coup(SQUARES[rng.below(NSQ)]),
        ];
        for then in thens {
            let mut explored = crate::rules::refusal::Explored::default();
            pos.explore(&Focus { first: None, then }, &mut explored);
            let two: Vec<Move> = explored
                .rejected
                .iter()
                .map(|&(m, _)| m)
                .filter(|m| m.from2 != 0 || m.to2 != 0)
                .collect();
            for _ in 0..two.len().min(40) {
                texts.insert(pos.describe(two[rng.below(two.len())]).text(&g));
            }
        }
        for &s in SQUARES.iter() {
            let c = pos.at(s);
            if c == EMPTY || c & 1 != pos.turn as u8 {
                continue;
            }
            for _ in 0..12 {
                let t = SQUARES[rng.below(NSQ)];
                let text = pos.describe(Move::new(s, t, K_NORMAL)).text(&g);
                // Also with the other capture mark, and short (any piece of the kind).
                texts.insert(text.replacen('x', "-", 1));
                texts.insert(text.replacen('-', "x", 1));
                if c >> 1 != PAWN {
                    texts.insert(format!("{}{}", &text[..1], nm(t)));
                }
            }
        }
        let legal: BTreeSet<String> = pos.legal_turns().iter().map(|(_, t)| t.text(&g)).collect();
        texts
            .into_iter()
            .filter(|t| !legal.contains(t))
            .filter_map(|t| {
                let p = pattern(&t)?;
                pos.resolve(&p).is_err().then_some((t, p))
            })
            .collect()
    }

    #[test]
    fn every_refused_turn_is_forbidden_first_by_its_refusal() {
        let (mut checked, mut failures) = (0, Vec::new());
        let mut rng = Rng(0x7E11_0FA1);
        let mut also = 0;
        let mut by_rule: BTreeSet<&str> = BTreeSet::new();
        for pos in positions(40, 2).into_iter().chain(designed_positions(15)) {
            if pos.result.is_some() {
                continue;
            }
            for (text, p) in refused_patterns(&pos, &mut rng) {
                checked += 1;
                let at = || format!("{text} in {}", pos.fen());
                let r = pos.refusal(&p);
                let steps = refused(&pos, &p);
                let forbids: Vec<&str> = steps
                    .iter()
                    .filter(|s| s.verdict == StepVerdict::Forbids)
                    .map(|s| s.rule)
                    .collect();
                if forbids.first() != Some(&r.rule) {
                    failures.push(format!(
                        "{}: refused by {}, forbidden by {forbids:?}",
                        at(),
                        r.rule
                    ));
                }
                let first = steps.iter().find(|s| s.verdict == StepVerdict::Forbids);
                if first.is_some_and(|s| s.note != r.reason) {
                    failures.push(format!("{}: the first note is not the refusal's", at()));
                }
                let distinct: BTreeSet<&str> = forbids.iter().copied().collect();
                if distinct.len() != forbids.len() {
                    failures.push(format!("{}: a rule forbids twice: {forbids:?}", at()));
                }
                also += forbids.len() - 1;
                for s in &steps {
                    if s.verdict == StepVerdict::Forbids {
                        by_rule.insert(s.rule);
                    }
                    if !in_catalogue(s.rule) {
                        failures.push(format!("{} is not in the catalogue ({})", s.rule, at()));
                    }
                    if s.note.is_empty() || s.note.ends_with('.') {
                        failures.push(format!("the note of {} for {}: {:?}", s.rule, at(), s.note));
                    }
                }
                if steps.iter().any(|s| s.verdict == StepVerdict::Effect) {
                    failures.push(format!("{}: an effect of a refused turn", at()));
                }
            }
        }
        crate::rules::testing::report(&failures, checked, 3000, "refused turns explained");
        eprintln!("{checked} refused turns, {also} further forbidding rules: {by_rule:?}");
        assert!(also > 500, "{also}");
    }

    /// The (rule, verdict) pairs of the explanation of `text` on the board `white` / `black`
    /// (White to move; the start position for empty boards), under `pins`.
    fn chain(
        white: &str,
        black: &str,
        pins: &[(&str, &str)],
        text: &str,
    ) -> Vec<(&'static str, &'static str)> {
        let o = opts(pins);
        let pos = if white.is_empty() {
            Cypher::start(Cypher::geometry(), &o).expect("the start position")
        } else {
            Cypher::from_setup(&setup(white, black, false, &[]), &o).expect("a position")
        };
        let game = Game::new(pos, o);
        let p = pattern(text).expect("a turn");
        let e = crate::rules::explain::explain(&game, &p);
        e.steps.iter().map(|s| (s.rule, s.verdict.word())).collect()
    }

    #[test]
    fn a_quiet_move() {
        assert_eq!(
            chain("", "", &[], "Nc1-a2"),
            [
                ("not-your-turn", "allows"),
                ("knight-field", "allows"),
                ("own-king-in-check", "allows"),
            ]
        );
    }

    #[test]
    fn captures() {
        // A pawn takes a Border rook, which only a pawn may.
        assert_eq!(
            chain("Kb2 Sh0 d4", "Kb8 Sh10 Re5", &[], "d4xe5"),
            [
                ("not-your-turn", "allows"),
                ("pawn-capture", "allows"),
                ("border-sanctuary", "allows"),
                ("own-king-in-check", "allows"),
                ("pawn-capture", "effect"),
            ]
        );
        // A pawn taken becomes a prisoner of its side.
        assert_eq!(
            chain("Kb2 Sh0 d4", "Kb8 Sh10 e5", &[], "d4xe5"),
            [
                ("not-your-turn", "allows"),
                ("pawn-capture", "allows"),
                ("own-king-in-check", "allows"),
                ("pawn-capture", "effect"),
                ("prisoner-release", "effect"),
            ]
        );
        // A Border rook takes a Field knight, out of the Field sanctuary's reach, and opens a
        // re-take.
        assert_eq!(
            chain("Kh2 Sh0 Rb5", "Kh8 Sh10 Nb3", &[], "Rb5xb3"),
            [
                ("not-your-turn", "allows"),
                ("rook-move", "allows"),
                ("blocked", "allows"),
                ("field-sanctuary", "allows"),
                ("own-king-in-check", "allows"),
                ("rook-move", "effect"),
                ("retake", "effect"),
            ]
        );
    }

    #[test]
    fn special_turns() {
        // A Court entry after the Spy's exit.
        assert_eq!(
            chain("Kb2 Sd0 Qe3", "Kb8 Sh10", &[], "Sd0-d4; Qe3-e0"),
            [
                ("not-your-turn", "allows"),
                ("spy-move", "allows"),
                ("blocked", "allows"),
                ("court-entry-trigger", "allows"),
                ("action-by-action", "allows"),
                ("queen-move", "allows"),
                ("blocked", "allows"),
                ("turn-length", "allows"),
                ("own-king-in-check", "allows"),
                ("spy-beside-own-king", "allows"),
            ]
        );
        // An infiltration that removes the enemy Spy.
        assert_eq!(
            chain("Kd4 Sh0 Ra1", "Kb8 Sd10", &[], "Kd4-d5; Ra1-d10"),
            [
                ("not-your-turn", "allows"),
                ("king-move", "allows"),
                ("infiltration", "allows"),
                ("infiltration-once", "allows"),
                ("action-by-action", "allows"),
                ("turn-length", "allows"),
                ("own-king-in-check", "allows"),
                ("infiltration", "effect"),
                ("infiltration-once", "effect"),
            ]
        );
        // A coup that names one of two knights.
        assert_eq!(
            chain("Kb2 Sh0 e8", "Kb7 Sh10 Nc8 Ng8", &[], "e8-e9; coup Nc8"),
            [
                ("not-your-turn", "allows"),
                ("pawn-move", "allows"),
                ("coup-choice", "allows"),
                ("turn-length", "allows"),
                ("own-king-in-check", "allows"),
                ("coup", "effect"),
            ]
        );
        // A King stepping next to the enemy Border Spy flips it.
        assert_eq!(
            chain("Kd3 Sh0", "Kb8 Sd5", &[], "Kd3-d4"),
            [
                ("not-your-turn", "allows"),
                ("king-move", "allows"),
                ("own-king-in-check", "allows"),
                ("king-flips-spy", "effect"),
            ]
        );
    }

    #[test]
    fn turns_refused_by_several_rules() {
        // Two squares, onto its own pawn, into the Court rook's check.
        assert_eq!(
            chain("Kc2 Sh0 c4", "Kb8 Sh10 Ri4", &[], "Kc2-c4"),
            [
                ("not-your-turn", "allows"),
                ("king-move", "forbids"),
                ("own-piece-on-target", "forbids"),
                ("own-king-in-check", "forbids"),
            ]
        );
        // The piece let into Court is blocked and would capture.
        assert_eq!(
            chain("Kb2 Sd0 Qe3 e2", "Kb8 Sh10 Re0", &[], "Sd0-d4; Qe3xe0"),
            [
                ("not-your-turn", "allows"),
                ("spy-move", "allows"),
                ("blocked", "allows"),
                ("court-entry-trigger", "allows"),
                ("queen-move", "allows"),
                ("blocked", "forbids"),
                ("court-sanctuary", "forbids"),
            ]
        );
        // Two knights: the Field knight meets the Field sanctuary, the Court knight cannot
        // leave Court by the classical L.
        assert_eq!(
            chain("Ki2 Sz0 Nb1 Nc0", "Ki8 Sz10 Bd2", &[], "Nxd2"),
            [
                ("not-your-turn", "allows"),
                ("knight-field", "allows"),
                ("field-sanctuary", "forbids"),
                ("knight-court-exit", "forbids"),
            ]
        );
    }

    #[test]
    fn a_turn_refused_for_king_safety() {
        assert_eq!(
            chain("Kc2 Sh0 c4", "Kb8 Sh10 Ri3", &[], "Kc2-c3"),
            [
                ("not-your-turn", "allows"),
                ("king-move", "allows"),
                ("own-king-in-check", "forbids"),
            ]
        );
        // A Spy step that leaves the King in check and stands next to it.
        assert_eq!(
            chain("Kc2 Sf3", "Kb8 Sh10 Ri2", &[], "Sf3-d1"),
            [
                ("not-your-turn", "allows"),
                ("spy-move", "allows"),
                ("blocked", "allows"),
                ("spy-beside-own-king", "forbids"),
                ("own-king-in-check", "forbids"),
            ]
        );
    }
}
