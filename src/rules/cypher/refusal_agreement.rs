//! Refusals and the generator cannot disagree, on random positions under random options: the
//! exploring generator finds the legal turns the move list has (also when a written second
//! action is explored after every first action), and every candidate it rejects, at any stage,
//! written out and read back, is refused by the rule it was rejected by (candidates written
//! alike, an infiltration on its own and the move it looks like, by the one that got furthest).
//! The second actions a refusal asks about are explored for random written second actions.

use std::collections::BTreeMap;

use super::invariant_tests::{random_position_with, Rng, TEST_DESIGNS};
use super::*;
use crate::rules::refusal::{furthest, Explored};
use crate::scenario::evaluate::Lowering;
use crate::scenario::parse::parse_turn;

fn text(pos: &Cypher, m: Move) -> String {
    pos.describe(m).text(&Cypher::geometry())
}

/// The squares of the pieces of the side to move.
fn own(pos: &Cypher) -> Vec<i32> {
    SQUARES
        .iter()
        .copied()
        .filter(|&s| pos.at(s) != EMPTY && pos.at(s) & 1 == pos.turn as u8)
        .collect()
}

/// The written second actions a refusal may ask about after any first action: moves of a few
/// own pieces to a random square, and a coup naming a random square.
fn random_thens(pos: &Cypher, rng: &mut Rng) -> Vec<Then> {
    let own = own(pos);
    let mut thens = Vec::new();
    for _ in 0..3 {
        let from = (0..2).map(|_| own[rng.below(own.len())]).collect();
        let to = SQUARES[rng.below(NSQ)];
        thens.push(Then::Move { from, to });
    }
    thens.push(Then::Move {
        from: own.clone(),
        to: [D0, D10][rng.below(2)],
    });
    thens.push(Then::Coup(SQUARES[rng.below(NSQ)]));
    thens
}

#[test]
fn the_exploring_generator_finds_the_legal_turns() {
    exploring_finds_the_legal_turns(&[], 120, 5000);
}

#[test]
fn the_exploring_generator_finds_the_legal_turns_of_invented_pieces() {
    exploring_finds_the_legal_turns(&TEST_DESIGNS, 80, 3000);
}

fn exploring_finds_the_legal_turns(designs: &[&str], positions: usize, least: usize) {
    let mut rng = Rng(0x5EED_F00D_E1A5_7B1E);
    let mut compared = 0;
    for _ in 0..positions {
        let (pos, _) = random_position_with(&mut rng, designs);
        if pos.result.is_some() {
            continue;
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let sorted = |v: &mut Vec<String>| v.sort();
        let mut want: Vec<String> = moves.iter().map(|&m| text(&pos, m)).collect();
        let mut explored = Explored::default();
        pos.explore(&Focus::EVERY, &mut explored);
        let mut found: Vec<String> = explored.legal.iter().map(|&m| text(&pos, m)).collect();
        sorted(&mut want);
        sorted(&mut found);
        assert_eq!(found, want, "{}", pos.fen());
        compared += want.len();
        // The written second action after every first action: as listed, and no other.
        let own = own(&pos);
        for &t in SQUARES.iter() {
            for (then, kinds) in [
                (
                    Then::Move {
                        from: own.clone(),
                        to: t,
                    },
                    &[K_ENTRY, K_INFIL][..],
                ),
                (Then::Coup(t), &[K_COUP][..]),
            ] {
                let mut want: Vec<String> = moves
                    .iter()
                    .filter(|m| kinds.contains(&m.kind) && m.to2 as i32 == t)
                    .map(|&m| text(&pos, m))
                    .collect();
                let mut explored = Explored::default();
                pos.explore(&Focus { first: None, then }, &mut explored);
                let mut found: Vec<String> =
                    explored.legal.iter().map(|&m| text(&pos, m)).collect();
                sorted(&mut want);
                sorted(&mut found);
                assert_eq!(
                    found,
                    want,
                    "second actions onto {} in {}",
                    Cypher::name(t),
                    pos.fen()
                );
                compared += want.len();
            }
        }
    }
    eprintln!("{compared} legal turns found by both");
    assert!(compared > least, "{compared}");
}

#[test]
fn every_rejected_candidate_is_refused_by_the_rule_that_rejected_it() {
    rejected_candidates_are_refused_by_their_rule(&[], 200, 5000);
}

#[test]
fn every_rejected_candidate_of_invented_pieces_is_refused_by_the_rule_that_rejected_it() {
    let by_rule = rejected_candidates_are_refused_by_their_rule(&TEST_DESIGNS, 120, 3000);
    // The design's own rule is among them.
    assert!(
        by_rule.get("invented-piece").is_some_and(|&n| n >= 20),
        "{by_rule:?}"
    );
}

/// Checks the refusals of the rejected candidates on random positions (with invented pieces
/// of `designs`); returns how many were checked, by rule.
fn rejected_candidates_are_refused_by_their_rule(
    designs: &[&str],
    positions: usize,
    least: usize,
) -> BTreeMap<&'static str, usize> {
    let g = Cypher::geometry();
    let mut rng = Rng(0x0DDB_1A5E_5BAD_5EED);
    let (mut checked, mut failures) = (0, Vec::new());
    let mut by_stage: BTreeMap<Stage, usize> = BTreeMap::new();
    let mut by_rule: BTreeMap<&'static str, usize> = BTreeMap::new();
    for _ in 0..positions {
        let (pos, _) = random_position_with(&mut rng, designs);
        if pos.result.is_some() {
            continue;
        }
        let mut focuses = vec![Focus::EVERY];
        focuses.extend(
            random_thens(&pos, &mut rng)
                .into_iter()
                .map(|then| Focus { first: None, then }),
        );
        for (i, focus) in focuses.into_iter().enumerate() {
            let mut explored = Explored::default();
            pos.explore(&focus, &mut explored);
            // A written second action adds the two-action candidates; the rest is as without.
            if i > 0 {
                explored
                    .rejected
                    .retain(|(m, _)| m.from2 != 0 || m.to2 != 0);
            }
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            let legal: Vec<String> = legal.iter().map(|&m| text(&pos, m)).collect();
            // Candidates written alike are one written turn, refused for the one that got
            // furthest.
            let mut written: BTreeMap<String, Vec<(Move, Rejection)>> = BTreeMap::new();
            for &(m, why) in &explored.rejected {
                written.entry(text(&pos, m)).or_default().push((m, why));
            }
            for (text, candidates) in written {
                if legal.contains(&text) {
                    continue;
                }
                let Some((_, why)) = furthest(candidates) else {
                    continue;
                };
                let Ok(parsed) = parse_turn(&text) else {
                    failures.push(format!("{text} does not parse"));
                    continue;
                };
                let Ok(pattern) = Lowering::<Cypher>::new(g).turn(&parsed) else {
                    failures.push(format!("{text} does not lower"));
                    continue;
                };
                checked += 1;
                *by_stage.entry(why.stage).or_default() += 1;
                *by_rule.entry(why.rule).or_default() += 1;
                let refusal = pos.refusal(&pattern);
                if refusal.rule != why.rule {
                    failures.push(format!(
                        "{text} in {}: the generator rejects it by {} ({:?}), the refusal says {} ({})",
                        pos.fen(),
                        why.rule,
                        why.stage,
                        refusal.rule,
                        refusal.reason
                    ));
                }
            }
        }
    }
    crate::rules::testing::report(
        &failures,
        checked,
        least,
        "rejected candidates refused by the same rule",
    );
    eprintln!("by stage: {by_stage:?}");
    // Every stage the generator tags is among them.
    for stage in [
        Stage::Movement,
        Stage::Blocked,
        Stage::Target,
        Stage::Second,
        Stage::Final,
    ] {
        assert!(
            by_stage.get(&stage).is_some_and(|&n| n >= 20),
            "{stage:?}: {by_stage:?}"
        );
    }
    by_rule
}
