//! The fast generator (`fast.rs`) against the reference, which plays every candidate on a
//! copy: the same turns in the same order, the same count, the same options consulted, the
//! same turns the refusal explorer calls legal, and so the same results, on positions from
//! random playouts under every combination of Cypher's options.
//!
//! Longer runs: `ARBITER_FAST_PLIES=40 ARBITER_FAST_SEED=7 cargo test --lib fast_agreement`.

use super::invariant_tests::{random_position_under, Rng, TEST_DESIGNS};
use super::*;
use crate::rules::refusal::Explored;
use crate::rules::testing::report;
use crate::rules::{consulted, perft};

fn knob(name: &str, default: u64) -> u64 {
    std::env::var(name).map_or(default, |v| v.parse().expect("a number"))
}

/// The options of combination `k`: bit `i` picks the second value of option `i`.
fn combination(k: usize) -> Options {
    let mut options = Options::defaults(OPTIONS);
    for (i, d) in OPTIONS.iter().enumerate() {
        let v = d.values[(k >> i) & 1];
        options.set(OPTIONS, "cypher", d.name, v).expect("a value");
    }
    options
}

/// What one generator says of a position.
#[derive(Debug, PartialEq, Eq)]
struct Said {
    turns: Vec<Move>,
    count: u64,
    asked: u64,
}

fn reference(p: &Cypher) -> Said {
    consulted::reset();
    let mut turns = Vec::new();
    if p.result.is_none() {
        p.generate_reference(&mut turns);
    }
    let asked = consulted::take().0;
    Said {
        count: turns.len() as u64,
        turns,
        asked,
    }
}

fn fast(p: &Cypher) -> Said {
    consulted::reset();
    let mut turns = Vec::new();
    p.legal_moves(&mut turns);
    let asked = consulted::take().0;
    Said {
        count: p.count_legal(),
        turns,
        asked,
    }
}

/// Compares the generators on `p`; with `explore`, also the explorer's legal turns.
fn compare(p: &Cypher, explore: bool, failures: &mut Vec<String>) {
    let (r, f) = (reference(p), fast(p));
    if r != f {
        failures.push(format!("{}: reference {r:?}\nfast {f:?}", p.fen()));
        return;
    }
    // The fast count decides the outcome a search sees at this node.
    if p.outcome_with(!r.turns.is_empty()) != p.outcome() {
        failures.push(format!("{}: outcome differs", p.fen()));
    }
    // A decided game lists no turns; the explorer is asked only while it goes on.
    if explore && p.result.is_none() {
        let mut explored = Explored::default();
        p.explore(&Focus::EVERY, &mut explored);
        let mut a = explored.legal;
        let mut b = f.turns;
        let key = |m: &Move| (m.from, m.to, m.from2, m.to2, m.kind);
        a.sort_by_key(key);
        b.sort_by_key(key);
        if a != b {
            failures.push(format!("{}: explorer {a:?}\nfast {b:?}", p.fen()));
        }
    }
}

/// Compares at `p` and at each position of a random playout of up to `plies` turns from it.
fn playout(rng: &mut Rng, mut p: Cypher, plies: u64, n: &mut usize, failures: &mut Vec<String>) {
    for ply in 0..=plies {
        compare(&p, ply % 4 == 0, failures);
        *n += 1;
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        if moves.is_empty() {
            return;
        }
        p.play(moves[rng.below(moves.len())]);
    }
}

#[test]
fn every_option_combination_on_random_positions() {
    let mut rng = Rng(knob("ARBITER_FAST_SEED", 0x2545_F491_4F6C_DD1D).max(1));
    let plies = knob("ARBITER_FAST_PLIES", 6);
    let (mut n, mut failures) = (0, Vec::new());
    let combinations = 1usize << OPTIONS.len();
    for k in 0..combinations {
        let options = combination(k);
        let designs: &[&str] = if k % 4 == 3 { &TEST_DESIGNS } else { &[] };
        let p = random_position_under(&mut rng, designs, &options);
        playout(&mut rng, p, plies, &mut n, &mut failures);
        if failures.len() > 8 {
            break;
        }
    }
    report(&failures, n, combinations, "positions agree");
}

#[test]
fn playouts_from_the_start() {
    let mut rng = Rng(knob("ARBITER_FAST_SEED", 0x9E37_79B9_7F4A_7C15).max(1));
    let (mut n, mut failures) = (0, Vec::new());
    for game in 0..knob("ARBITER_FAST_GAMES", 120) {
        let options = combination(rng.below(1 << OPTIONS.len()));
        let p = Cypher::start(Cypher::geometry(), &options).expect("the start");
        playout(&mut rng, p, 60 + game % 40, &mut n, &mut failures);
    }
    report(&failures, n, 5_000, "positions agree");
}

#[test]
fn perft_agrees_from_the_start() {
    // Counting at the last ply, listing above it, against listing everywhere.
    let p = Cypher::start(Cypher::geometry(), &Options::defaults(OPTIONS)).unwrap();
    assert_eq!(perft(&p, 3), p.perft_reference(3));
}
