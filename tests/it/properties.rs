//! Property tests over random legal playouts: move counting, notation round trips, FEN round
//! trips and every invariant.

use crate::common;

use arbiter::rules::chess::Chess;
use arbiter::rules::{Geometry, Options, Rules, Square};
use proptest::prelude::*;

const STARTS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

fn geometry() -> Geometry {
    Chess::geometry_for(None).unwrap()
}

fn options() -> Options {
    Options::defaults(Chess::options())
}

fn playout(start: usize, choices: &[usize]) -> Vec<Chess> {
    common::playout(
        Chess::from_fen(geometry(), STARTS[start], &options()).unwrap(),
        choices,
    )
}

fn walk() -> impl Strategy<Value = (usize, Vec<usize>)> {
    (
        0..STARTS.len(),
        prop::collection::vec(any::<usize>(), 0..60),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn perft_one_counts_the_legal_turns((start, choices) in walk()) {
        for pos in playout(start, &choices) {
            common::perft_one_counts_legal_turns(&pos, &options()).map_err(TestCaseError::fail)?;
        }
    }

    #[test]
    fn canonical_turn_text_parses_back_to_the_same_turn((start, choices) in walk()) {
        for pos in playout(start, &choices) {
            common::turn_texts_round_trip(&pos, &options()).map_err(TestCaseError::fail)?;
        }
    }

    /// `expect moves = { <what arbiter moves prints> }` holds, and blessing a wrong list
    /// writes one that holds.
    #[test]
    fn the_listed_turns_read_back_as_a_moves_list((start, choices) in walk()) {
        for pos in playout(start, &choices) {
            common::moves_list_reads_back(&pos, &options()).map_err(TestCaseError::fail)?;
        }
    }

    #[test]
    fn fen_and_setup_round_trip((start, choices) in walk()) {
        for pos in playout(start, &choices) {
            common::fen_and_setup_round_trip(&pos, &options()).map_err(TestCaseError::fail)?;
        }
    }

    #[test]
    fn every_invariant_holds_after_every_move((start, choices) in walk()) {
        for pos in playout(start, &choices) {
            common::invariants_hold(&pos).map_err(TestCaseError::fail)?;
        }
    }
}

/// Square names round-trip on every board size and on Cypher-style labels.
#[test]
fn square_names_round_trip() {
    fn prop(files: u8, ranks: u8, file: u8, rank: u8) -> bool {
        let (files, ranks) = (files % 16 + 1, ranks % 16 + 1);
        let sq = Square::new(file % files, rank % ranks);
        let lettered = Geometry::lettered(files, ranks);
        let cypher = Geometry::labelled(&["z", "a", "b", "c", "d", "e", "f", "g", "h", "i"], 11, 0);
        let csq = Square::new(sq.file % 10, sq.rank % 11);
        lettered.parse_square(&lettered.square_name(sq)) == Some(sq)
            && cypher.parse_square(&cypher.square_name(csq)) == Some(csq)
    }
    quickcheck::quickcheck(prop as fn(u8, u8, u8, u8) -> bool);
}

/// Every FEN a bundled definition's position prints reads back to the same position (the same
/// FEN, legal moves and outcome), in seeded random games of every `variants/*.def`: a few
/// hundred positions each.
#[test]
fn every_definitions_fen_reads_back_to_the_same_position() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/variants");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("the bundled definitions")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "def"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 50, "{} definitions", paths.len());
    let mut failures = Vec::new();
    for path in &paths {
        let variant = arbiter::rules::defined::load(&path.to_string_lossy())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        // Deterministic: a seed per definition, eight games of up to 40 turns.
        let mut seed = name.bytes().fold(0x9e37_79b9_7f4a_7c15u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as usize
        };
        let failed = arbiter::with_variant!(variant, R => {
            let options = Options::defaults(R::options());
            let geometry = R::geometry_for(None).expect("a board");
            let start = R::start(geometry, &options).expect("a start position");
            let mut failed = None;
            'games: for _ in 0..8 {
                let choices: Vec<usize> = (0..40).map(|_| next()).collect();
                for pos in common::playout(start.clone(), &choices) {
                    if let Err(e) = fen_reads_back(&pos, &options) {
                        failed = Some(e);
                        break 'games;
                    }
                }
            }
            failed
        });
        if let Some(e) = failed {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The position `pos`'s FEN gives has that FEN, the same legal moves and the same outcome.
fn fen_reads_back<R: Rules>(pos: &R, options: &Options) -> Result<(), String> {
    let fen = pos.fen();
    let g = *pos.board().geometry();
    let again = R::from_fen(g, &fen, options).map_err(|e| format!("{fen} is refused: {e}"))?;
    if again.fen() != fen {
        return Err(format!("FEN {fen} came back as {}", again.fen()));
    }
    let moves = |p: &R| {
        let mut out = Vec::new();
        p.legal_moves(&mut out);
        let mut texts: Vec<String> = out.iter().map(|&m| p.describe(m).text(&g)).collect();
        texts.sort();
        texts
    };
    let (before, after) = (moves(pos), moves(&again));
    if before != after {
        return Err(format!(
            "FEN {fen} reads back with other legal moves: {} before, {} after",
            before.len(),
            after.len()
        ));
    }
    let outcome = |p: &R| p.outcome().map(|o| o.to_string());
    if outcome(pos) != outcome(&again) {
        return Err(format!(
            "FEN {fen} reads back with another outcome: {:?}, then {:?}",
            outcome(pos),
            outcome(&again)
        ));
    }
    Ok(())
}
