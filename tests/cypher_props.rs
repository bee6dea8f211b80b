//! Property tests for Cypher Chess over random legal playouts from the start: invariants after
//! every turn, move counting, notation round trips and FEN round trips.

use arbiter::rules::cypher::Cypher;
use arbiter::rules::game::Resolved;
use arbiter::rules::{perft, Game, Geometry, Options, Rules};
use arbiter::scenario::evaluate::Lowering;
use arbiter::scenario::parse::parse_turn;
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

/// The positions met along `choices` from the start, stopping when the game is decided.
fn playout(flipped: bool, choices: &[usize]) -> Vec<Cypher> {
    let o = options(flipped);
    let mut pos = Cypher::start(geometry(), &o);
    let mut seen = vec![pos.clone()];
    for c in choices {
        if pos.outcome().is_some() {
            break;
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos.play(moves[c % moves.len()]);
        seen.push(pos.clone());
    }
    seen
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
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            prop_assert_eq!(perft(&pos, 1), moves.len() as u64, "{}", pos.fen());
            let game = Game::new(pos.clone(), options(flipped));
            if game.outcome().is_none() {
                prop_assert_eq!(game.legal_turns().len(), moves.len());
            }
        }
    }

    #[test]
    fn canonical_turn_text_parses_back_to_the_same_turn((flipped, choices) in walk()) {
        let g = geometry();
        for pos in playout(flipped, &choices) {
            let game = Game::new(pos.clone(), options(flipped));
            for (m, turn) in game.legal_turns() {
                let text = turn.text(&g);
                let parsed = parse_turn(&text).map_err(|p| TestCaseError::fail(p.message))?;
                let pattern = Lowering::<Cypher>::new(g).turn(&parsed)
                    .map_err(|p| TestCaseError::fail(p.message))?;
                match game.resolve(&pattern) {
                    Ok(Resolved::Move(back, _)) => prop_assert_eq!(back, m, "{}", text),
                    other => prop_assert!(false, "{} resolved to {:?} in {}", text, other, pos.fen()),
                }
            }
        }
    }

    #[test]
    fn fen_and_setup_round_trip((flipped, choices) in walk()) {
        let o = options(flipped);
        for pos in playout(flipped, &choices) {
            if pos.outcome().is_some() {
                continue;
            }
            let fen = pos.fen();
            let again = Cypher::from_fen(geometry(), &fen, &o).map_err(TestCaseError::fail)?;
            prop_assert_eq!(again.fen(), fen.clone());
            let rebuilt = Cypher::from_setup(&pos.to_setup(), &o).map_err(TestCaseError::fail)?;
            prop_assert_eq!(rebuilt.fen(), fen);
        }
    }
}
