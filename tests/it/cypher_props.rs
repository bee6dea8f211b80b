//! Property tests for Cypher Chess over random legal playouts from the start: invariants after
//! every turn, move counting, notation round trips and FEN round trips.

use crate::common;

use arbiter::rules::cypher::Cypher;
use arbiter::rules::{Geometry, Options, Rules};
use proptest::prelude::*;

fn geometry() -> Geometry {
    Cypher::geometry_for(None).unwrap()
}

/// The defaults, or every option flipped to its other reading.
fn options(flipped: bool) -> Options {
    let mut o = Options::defaults(Cypher::options());
    if flipped {
        for d in Cypher::options() {
            let other = d.values.iter().find(|v| **v != d.default).unwrap();
            o.set(Cypher::options(), "cypher", d.name, other).unwrap();
        }
    }
    o
}

fn playout(flipped: bool, choices: &[usize]) -> Vec<Cypher> {
    common::playout(
        Cypher::start(geometry(), &options(flipped)).expect("the start position"),
        choices,
    )
}

fn walk() -> impl Strategy<Value = (bool, Vec<usize>)> {
    (any::<bool>(), prop::collection::vec(any::<usize>(), 0..40))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn every_invariant_holds_after_every_turn((flipped, choices) in walk()) {
        for pos in playout(flipped, &choices) {
            for inv in Cypher::invariants() {
                prop_assert!(pos.check_invariant(inv.name).is_ok(), "{}: {:?} in {}", inv.name, pos.check_invariant(inv.name), pos.fen());
            }
        }
    }

    #[test]
    fn perft_one_counts_the_legal_turns((flipped, choices) in walk()) {
        for pos in playout(flipped, &choices) {
            common::perft_one_counts_legal_turns(&pos, &options(flipped)).map_err(TestCaseError::fail)?;
        }
    }

    #[test]
    fn canonical_turn_text_parses_back_to_the_same_turn((flipped, choices) in walk()) {
        for pos in playout(flipped, &choices) {
            common::turn_texts_round_trip(&pos, &options(flipped)).map_err(TestCaseError::fail)?;
        }
    }

    /// `expect moves = { <what arbiter moves prints> }` holds, and blessing a wrong list
    /// writes one that holds.
    #[test]
    fn the_listed_turns_read_back_as_a_moves_list((flipped, choices) in walk()) {
        for pos in playout(flipped, &choices) {
            common::moves_list_reads_back(&pos, &options(flipped)).map_err(TestCaseError::fail)?;
        }
    }

    #[test]
    fn fen_and_setup_round_trip((flipped, choices) in walk()) {
        for pos in playout(flipped, &choices) {
            // A decided game may have lost a King to infiltration, which no setup accepts.
            if pos.outcome().is_none() {
                common::fen_and_setup_round_trip(&pos, &options(flipped)).map_err(TestCaseError::fail)?;
            }
        }
    }
}
