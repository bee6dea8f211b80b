//! Refusals agree with the generator, on random crowded positions of the six boards under
//! random readings (some after a few random turns):
//! - (a) every legal turn's canonical text, read back, resolves to exactly that turn;
//! - (b) every candidate the explorer rejects (the chess pieces' and the Pawns' tags, the
//!   pass), written out, is refused by the rule it was tagged with;
//! - (c) near misses of legal Magic Piece paths (the last leg moved to another square, a leg
//!   added or dropped, a mark flipped between `-` and `x`) are refused, when illegal, by a
//!   rule of the catalogue other than the generic `no-such-action`, never panic, and name the
//!   rule by which [`next_legs`] rejects the leg where the written path first goes wrong;
//!   whether a near miss is legal at all is also checked against the oracle's paths.

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};

use super::oracle::{every_path_reading, magic_paths, random_position, OLeg, Readings, SIZES};
use super::paths::{next_legs, PathState};
use super::*;
use crate::rules::game::{Game, PlayError, Resolved};
use crate::rules::refusal::{furthest, Explored};
use crate::rules::testing::{report, Rng};
use crate::scenario::evaluate::Lowering;
use crate::scenario::parse::parse_turn;

/// The most paths a Magic Piece may have in a position these tests use: each refusal lists
/// every legal turn, so a position with thousands of paths would make them slow.
const TAME: usize = 150;

fn is_magic(r: Role) -> bool {
    matches!(r, Role::Gatekeeper | Role::Mage | Role::Archer)
}

/// Whether every Magic Piece of the side to move has at most [`TAME`] paths (by the oracle,
/// which gives up early where the generator would list them all).
fn tame(pos: &Xpanse, options: &Options) -> bool {
    let r = Readings::of(options);
    pos.board
        .pieces()
        .filter(|(_, p)| p.color() == pos.turn && is_magic(p.role()))
        .all(|(s, _)| magic_paths(&pos.board, pos.turn, s, r, TAME).is_some())
}

/// Random positions with their options: a random reading of the five path options (and of
/// `no-legal-move`), a random board, up to three random turns played; only tame ones.
fn positions(seed: u64, n: usize) -> Vec<(Xpanse, Options)> {
    let readings = every_path_reading();
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    let mut i = 0;
    while out.len() < n {
        i += 1;
        let mut options = readings[rng.below(readings.len())].clone();
        if rng.below(3) == 0 {
            options
                .set(OPTIONS, "xpanse", "no-legal-move", "passes")
                .expect("an option");
        }
        let mut pos = random_position(&mut rng, SIZES[i % SIZES.len()], &options);
        for _ in 0..rng.below(4) {
            if pos.result.is_some() || !tame(&pos, &options) {
                break;
            }
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
        }
        if pos.result.is_none() && tame(&pos, &options) {
            out.push((pos, options));
        }
    }
    out
}

fn lower(pos: &Xpanse, text: &str) -> Result<TurnPattern, String> {
    let parsed = parse_turn(text).map_err(|e| format!("{text} does not parse: {e:?}"))?;
    Lowering::<Xpanse>::new(*pos.geometry())
        .turn(&parsed)
        .map_err(|e| format!("{text} does not lower: {e:?}"))
}

/// Up to `most` of `n` indices, at random.
fn sample(rng: &mut Rng, n: usize, most: usize) -> Vec<usize> {
    let mut all: Vec<usize> = (0..n).collect();
    for i in (1..all.len()).rev() {
        all.swap(i, rng.below(i + 1));
    }
    all.truncate(most);
    all
}

#[test]
fn every_legal_turns_text_resolves_to_that_turn() {
    let mut rng = Rng(0x7E47_0FA1_17E4_7001);
    let (mut checked, mut ambiguous, mut followed) = (0, 0, 0);
    let mut failures = Vec::new();
    for (pos, options) in positions(0x5EED_0A7E_4700_0001, 400) {
        let g = *pos.geometry();
        let game = Game::new(pos.clone(), options.clone());
        let turns = pos.legal_turns();
        let mut printed: BTreeMap<String, usize> = BTreeMap::new();
        for (_, t) in &turns {
            *printed.entry(t.text(&g)).or_default() += 1;
        }
        for i in sample(&mut rng, turns.len(), 30) {
            let (m, t) = &turns[i];
            let text = t.text(&g);
            let pattern = match lower(&pos, &text) {
                Ok(p) => p,
                Err(e) => {
                    failures.push(e);
                    continue;
                }
            };
            checked += 1;
            followed += usize::from(t.actions.len() > 1);
            match game.resolve(&pattern) {
                Ok(Resolved::Move(m2, t2)) if m2 == *m && t2 == *t => {}
                Err(PlayError::Ambiguous(_)) if printed[&text] > 1 => ambiguous += 1,
                other => failures.push(format!(
                    "{text} in {}x{} `{}` ({}): resolves to {other:?}",
                    g.files,
                    g.ranks,
                    pos.fen(),
                    super::oracle::path_options(&options)
                )),
            }
        }
    }
    eprintln!("(a) {checked} legal turns, {followed} with a rebirth or vanishing, {ambiguous} printed alike");
    report(
        &failures,
        checked,
        3000,
        "legal turns whose text resolves to the turn",
    );
    assert_eq!(ambiguous, 0, "two legal turns print alike");
    assert!(followed >= 20, "{followed}");
}

/// Resolves `text` in a position of the 4x5 board; the texts of the legal turns.
fn resolve_on_4x5(fen: &str, options: &[(&str, &str)], text: &str) -> (Vec<String>, String) {
    let mut o = Options::defaults(OPTIONS);
    for (name, value) in options {
        o.set(OPTIONS, "xpanse", name, value).expect("an option");
    }
    let g = Geometry::lettered(4, 5);
    let pos = Xpanse::from_fen(g, fen, &o).expect("a position");
    let texts = pos.legal_turns().iter().map(|(_, t)| t.text(&g)).collect();
    let pattern = lower(&pos, text).expect("a pattern");
    let resolved = match Game::new(pos, o).resolve(&pattern) {
        Ok(Resolved::Move(_, t)) => t.text(&g),
        other => format!("{other:?}"),
    };
    (texts, resolved)
}

/// A one-leg Magic move and a longer path to the same square (`turn::written_leg_for_leg`): the Archer on a1 leaps to a3, or ricochets
/// off its Knight on c1 and lands on a3. The canonical text of the first, `Aa1-a3`, names
/// both.
#[test]
fn the_text_of_a_one_leg_magic_move_names_only_that_move() {
    let (texts, resolved) = resolve_on_4x5("k3/4/4/3K/A1N1 w", &[], "Aa1-a3");
    assert!(texts.contains(&"Aa1^c1-a3".to_string()), "{texts:?}");
    assert_eq!(resolved, "Aa1-a3");
}

/// A leap and a Switch Move onto one square (`turn::written_leg_for_leg`): under `ricochet-from = before` the Archer on a1
/// ricochets off its Knight on c3 and goes on from b2; its leap to b4 and its Switch Move to
/// b4 (next to c3) are two turns, and the canonical text of the leap, `Aa1^c3-b4`, names
/// both.
#[test]
fn the_text_of_a_leap_after_a_ricochet_names_only_that_leap() {
    let (texts, resolved) = resolve_on_4x5(
        "k3/4/2N1/4/A2K w",
        &[("ricochet-from", "before")],
        "Aa1^c3-b4",
    );
    assert!(texts.contains(&"Aa1^c3~b4".to_string()), "{texts:?}");
    assert_eq!(resolved, "Aa1^c3-b4");
}

#[test]
fn every_rejected_candidate_is_refused_by_its_tag() {
    let (mut checked, mut failures) = (0, Vec::new());
    let mut by_rule: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (pos, options) in positions(0x5EED_0B7A_6500_0002, 400) {
        let g = *pos.geometry();
        let game = Game::new(pos.clone(), options.clone());
        let mut all = Explored::default();
        pos.explore(&mut all);
        let legal: BTreeSet<String> = all
            .legal
            .iter()
            .map(|m| pos.describe(*m).text(&g))
            .collect();
        // A text several candidates share is refused by the one that got furthest.
        let mut written: BTreeMap<String, Vec<(Move, Rejection)>> = BTreeMap::new();
        for &(m, why) in &all.rejected {
            written
                .entry(pos.describe(m).text(&g))
                .or_default()
                .push((m, why));
        }
        for (text, candidates) in written {
            if legal.contains(&text) {
                continue;
            }
            let Some((_, why)) = furthest(candidates) else {
                continue;
            };
            let pattern = match lower(&pos, &text) {
                Ok(p) => p,
                Err(e) => {
                    failures.push(e);
                    continue;
                }
            };
            checked += 1;
            *by_rule.entry(why.rule).or_default() += 1;
            let refusal = pos.refusal(&pattern);
            let resolved = game.resolve(&pattern);
            let through_game = match &resolved {
                Err(PlayError::Refused(r)) => Some(r.rule),
                _ => None,
            };
            if refusal.rule != why.rule || through_game != Some(why.rule) {
                failures.push(format!(
                    "{text} in {}x{} `{}`: tagged {} ({:?}), refused by {} ({}), resolved {resolved:?}",
                    g.files,
                    g.ranks,
                    pos.fen(),
                    why.rule,
                    why.stage,
                    refusal.rule,
                    refusal.reason
                ));
            }
        }
    }
    eprintln!("(b) by rule: {by_rule:?}");
    report(
        &failures,
        checked,
        2000,
        "rejected candidates refused by their tag",
    );
    // Every rule the explorer tags with is met.
    assert_eq!(
        by_rule.keys().copied().collect::<Vec<_>>(),
        ["blocked", "own-piece-on-target", "pass", "pawn-move"]
    );
    assert!(by_rule.values().all(|&n| n >= 20), "{by_rule:?}");
}

/// Where [`next_legs`] first turns the written path down: walking the written legs, each
/// leg before it allowed as written and going on (a ricochet, or a kill the Archer goes on
/// after), the leg onto a square that the leg function offers only with rejections. The
/// rules of those rejections; `None` when the path goes wrong otherwise (a square it does
/// not offer, a wrong mark, a leg after a landing) or not at all.
fn rejected_by(
    pos: &Xpanse,
    from: Square,
    role: Role,
    written: &[Leg],
) -> Option<Vec<&'static str>> {
    let mut st = PathState::new(role, Sq::of(from));
    for (i, w) in written.iter().enumerate() {
        let here: Vec<_> = next_legs(pos, &st)
            .iter()
            .filter(|(t, _, _)| *t == Sq::of(w.to))
            .collect();
        if here.iter().any(|(_, _, r)| r.is_ok()) {
            let (t, dir, kind) = here.iter().find_map(|&(t, d, r)| match r {
                Ok(k) if w.kind.admits(leg::kind(k)) => Some((t, d, k)),
                _ => None,
            })?;
            let goes_on =
                kind == leg::RICOCHET || (kind == leg::KILL && st.goes_on_after_kill(pos, t));
            if i + 1 < written.len() && !goes_on {
                return None;
            }
            st = st.after(pos, t, kind, dir);
            continue;
        }
        let rules: Vec<&'static str> = here
            .iter()
            .filter_map(|(_, _, r)| r.err())
            .map(|e| e.rule)
            .collect();
        return (!rules.is_empty()).then_some(rules);
    }
    None
}

/// Whether written legs name a path (as a written move names a played one: leg by leg, `-`
/// also naming a ricochet or a switch; or one leg for the whole path by where it ends, `x`
/// when it kills on the way).
fn names(written: &[Leg], path: &[OLeg]) -> bool {
    let admits = |w: LegKind, m: char| match w {
        LegKind::Step => m != 'x',
        LegKind::Kill(_) => m == 'x',
        k => k.mark() == m,
    };
    if written.len() == path.len() {
        return written
            .iter()
            .zip(path)
            .all(|(w, p)| w.to == p.0 && admits(w.kind, p.1));
    }
    match (written, path) {
        ([only], [.., last]) => {
            only.to == last.0
                && if only.kind.is_kill() {
                    path.iter().any(|l| l.1 == 'x')
                } else {
                    path.iter().all(|l| l.1 != 'x') && admits(only.kind, last.1)
                }
        }
        _ => false,
    }
}

/// Near misses of a legal path: the last leg onto another square (one the leg function
/// offers from there, and random ones), a leg added (likewise), each leg dropped, each mark
/// flipped between `-` and `x`.
fn near_misses(
    pos: &Xpanse,
    rng: &mut Rng,
    from: Square,
    role: Role,
    legs: &[Leg],
) -> Vec<Vec<Leg>> {
    let g = pos.geometry();
    let squares: Vec<Square> = g.squares().collect();
    let random = |rng: &mut Rng| squares[rng.below(squares.len())];
    // The state before each leg, and after the last.
    let mut states = vec![PathState::new(role, Sq::of(from))];
    for l in legs {
        let st = *states.last().expect("a state");
        let (t, dir, kind) = next_legs(pos, &st)
            .iter()
            .find_map(|(t, d, r)| match r {
                Ok(k) if t == Sq::of(l.to) && leg::kind(k).mark() == l.kind.mark() => {
                    Some((t, d, k))
                }
                _ => None,
            })
            .expect("a legal path's leg");
        states.push(st.after(pos, t, kind, dir));
    }
    let offered = |st: &PathState| -> Vec<Square> {
        next_legs(pos, st)
            .iter()
            .map(|(t, _, _)| t.square())
            .collect()
    };
    let mut out = Vec::new();
    let n = legs.len();
    let marks = [LegKind::Step, LegKind::Kill(None)];
    // The last leg elsewhere.
    let mut targets = offered(&states[n - 1]);
    targets.extend((0..3).map(|_| random(rng)));
    for t in targets {
        if t != legs[n - 1].to {
            let mut v = legs.to_vec();
            v[n - 1].to = t;
            out.push(v);
        }
    }
    // A leg added.
    let mut targets = offered(&states[n]);
    targets.extend((0..2).map(|_| random(rng)));
    for t in targets {
        let mut v = legs.to_vec();
        v.push(Leg::new(t, marks[rng.below(2)]));
        out.push(v);
    }
    // A leg dropped.
    if n > 1 {
        for i in 0..n {
            let mut v = legs.to_vec();
            v.remove(i);
            out.push(v);
        }
    }
    // A mark flipped.
    for i in 0..n {
        let mut v = legs.to_vec();
        v[i].kind = if v[i].kind.is_kill() {
            LegKind::Step
        } else {
            LegKind::Kill(None)
        };
        out.push(v);
    }
    out
}

#[test]
fn near_misses_of_magic_paths_are_refused_by_the_rule_that_stops_them() {
    let mut rng = Rng(0x0EA5_4155_0F9A_7400);
    let rule_ids: BTreeSet<&str> = RULES.iter().map(|r| r.id).collect();
    let mut failures = Vec::new();
    let (mut tried, mut legal, mut ambiguous, mut refused, mut exact) = (0, 0, 0, 0, 0);
    let mut by_rule: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut exact_by_rule: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (pos, options) in positions(0x5EED_0C4E_A200_0003, 400) {
        let g = *pos.geometry();
        let game = Game::new(pos.clone(), options.clone());
        let turns = pos.legal_turns();
        // The Magic Pieces' paths, once each.
        let paths: BTreeSet<(Square, Role, Vec<Leg>)> = turns
            .iter()
            .filter_map(|(_, t)| match t.actions.first() {
                Some(Action::Move {
                    role, from, legs, ..
                }) if is_magic(*role) => Some((
                    *from,
                    *role,
                    legs.iter()
                        .map(|l| {
                            Leg::new(
                                l.to,
                                if l.kind.is_kill() {
                                    LegKind::Kill(None)
                                } else {
                                    l.kind
                                },
                            )
                        })
                        .collect(),
                )),
                _ => None,
            })
            .collect();
        let paths: Vec<_> = paths.into_iter().collect();
        let r = Readings::of(&options);
        let mut oracle: BTreeMap<Square, BTreeSet<Vec<OLeg>>> = BTreeMap::new();
        for i in sample(&mut rng, paths.len(), 5) {
            let (from, role, legs) = &paths[i];
            let known = oracle.entry(*from).or_insert_with(|| {
                magic_paths(&pos.board, pos.turn, *from, r, usize::MAX).expect("no budget")
            });
            for written in near_misses(&pos, &mut rng, *from, *role, legs) {
                let mut text = format!("{}{}", role.letter(), g.square_name(*from));
                for l in &written {
                    text.push(l.kind.mark());
                    text.push_str(&g.square_name(l.to));
                }
                let where_ = || {
                    format!(
                        "{text} in {}x{} `{}` ({})",
                        g.files,
                        g.ranks,
                        pos.fen(),
                        super::oracle::path_options(&options)
                    )
                };
                let pattern = match lower(&pos, &text) {
                    Ok(p) => p,
                    Err(e) => {
                        failures.push(e);
                        continue;
                    }
                };
                tried += 1;
                let Ok(resolved) = catch_unwind(AssertUnwindSafe(|| game.resolve(&pattern))) else {
                    failures.push(format!("{}: panics", where_()));
                    continue;
                };
                // Legal as a path: some legal turn's move is the written one (a turn may
                // still need its rebirth named).
                let first = pattern.first().expect("a move");
                let move_legal = turns
                    .iter()
                    .any(|(_, t)| t.actions.first().is_some_and(|a| first.matches(a)));
                let by_oracle = known.iter().any(|p| names(&written, p));
                if move_legal != by_oracle {
                    failures.push(format!(
                        "{}: the written move is {} by the generator, {} by the oracle",
                        where_(),
                        if move_legal { "legal" } else { "illegal" },
                        if by_oracle { "legal" } else { "illegal" },
                    ));
                }
                let refusal = match resolved {
                    Ok(_) => {
                        legal += 1;
                        continue;
                    }
                    Err(PlayError::Ambiguous(_)) => {
                        ambiguous += 1;
                        continue;
                    }
                    Err(PlayError::Refused(r)) => r,
                    Err(e @ PlayError::TooManyTurns(_)) => {
                        failures.push(format!(
                            "{}: resolving gave {e:?}, which only play gives",
                            where_()
                        ));
                        continue;
                    }
                };
                refused += 1;
                *by_rule.entry(refusal.rule).or_default() += 1;
                if !rule_ids.contains(refusal.rule) || refusal.rule == "no-such-action" {
                    failures.push(format!(
                        "{}: refused by {} ({}), not a rule of the catalogue's own",
                        where_(),
                        refusal.rule,
                        refusal.reason
                    ));
                }
                // One written leg may name a whole path by its end: not a leg to judge.
                let shorthand = written.len() == 1
                    && known
                        .iter()
                        .any(|p| p.last().is_some_and(|l| l.0 == written[0].to));
                if shorthand || move_legal {
                    continue;
                }
                if let Some(rules) = rejected_by(&pos, *from, *role, &written) {
                    exact += 1;
                    *exact_by_rule.entry(rules[0]).or_default() += 1;
                    if !rules.contains(&refusal.rule) {
                        failures.push(format!(
                            "{}: the leg function rejects it by {rules:?}, the refusal says {} ({})",
                            where_(),
                            refusal.rule,
                            refusal.reason
                        ));
                    }
                }
            }
        }
    }
    eprintln!(
        "(c) {tried} near misses: {legal} legal, {ambiguous} ambiguous, {refused} refused, {exact} of them at a leg the leg function rejects"
    );
    eprintln!("(c) refused by rule: {by_rule:?}");
    eprintln!("(c) rejected legs by rule: {exact_by_rule:?}");
    report(&failures, tried, 3000, "near misses of Magic Piece paths");
    // Every rule the leg function rejects with is met.
    for rule in [
        "path-no-revisit",
        "gatekeeper-no-leap-gatekeeper",
        "gatekeeper-no-kill-gatekeeper",
        "mage-no-kill-mage",
        "archer-no-kill-archer",
        "no-second-ricochet",
        "archer-switch",
    ] {
        assert!(
            exact_by_rule.get(rule).is_some_and(|&n| n >= 5),
            "{rule}: {exact_by_rule:?}"
        );
    }
}
