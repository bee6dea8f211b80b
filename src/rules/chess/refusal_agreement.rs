//! Refusals agree with the generator, on positions of random playouts from the standard perft
//! test positions:
//! - the explorer (the slow generator of every candidate, by the shared movement model) finds
//!   exactly the legal moves the fast generator lists;
//! - every candidate the explorer rejects, written out, is refused by the rule it was tagged
//!   with (the tag of the candidate that got furthest, where a text means several), also in
//!   positions with invented pieces.

use std::collections::{BTreeMap, BTreeSet};

use super::*;
use crate::rules::refusal::{Explored, Rejection};
use crate::rules::testing::{report, Rng};
use crate::scenario::evaluate::Lowering;
use crate::scenario::parse::parse_turn;

const STARTS: [&str; 6] = [
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

/// Positions with invented pieces (from `tests/data/perft-chess-invented.txt`), whose legal
/// moves come from the explorer itself.
const INVENTED: [&str; 7] = [
    "r[WA][FD]qk[mBcR][NW]r/pppppppp/8/8/8/8/PPPPPPPP/R(WA)(FD)QK(mBcR)(NW)R w KQkq - 0 1",
    "r[L][G][mQcN]k[H][Z]r/pppppppp/8/8/8/8/PPPPPPPP/R(L)(G)(mQcN)K(H)(Z)R w KQkq - 0 1",
    "[R4][NNF][sWfD][RN]k[BN]nr/pppppppp/8/8/8/8/PPPPPPPP/(R4)(NNF)(sWfD)(RN)K(BN)NR w Kk - 0 1",
    "r3k2r/p1pp[BN]pb1/bn2p[L]p1/3PN3/Pp2P3/2(WA)2Q1p/1PP(fBbR)BPPP/R3K2R b KQkq a3 0 1",
    // Lame leapers (whose path pins), a cannon and a grasshopper (whose screens do).
    "r[nN][nA]qk[mRcpR][gQ]r/pppppppp/8/8/8/8/PPPPPPPP/R(nN)(nA)QK(mRcpR)(gQ)R w KQkq - 0 1",
    "[pB][nZ][nL]qk[nH][gR][R]/pppppppp/8/8/8/8/PPPPPPPP/(pB)(nZ)(nL)QK(nH)(gR)(R) w - - 0 1",
    // Open kings among lame leapers, whose paths pin: d2 to d3's horse, d7 to d6's.
    "4k3/3p4/3(nN)4/8/8/3[nN]4/3B4/4K3 w - - 0 1",
];

/// Positions of random playouts, each with its explored candidates.
fn positions(starts: &[&str], rounds: usize, seed: u64) -> Vec<(Chess, Explored<Move>)> {
    let g = Chess::geometry();
    let options = Options::defaults(Chess::options());
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for round in 0..rounds {
        let mut pos = Chess::from_fen(g, starts[round % starts.len()], &options).unwrap();
        for _ in 0..rng.below(40) {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
        }
        let mut all = Explored::default();
        pos.explore(&mut all);
        out.push((pos, all));
    }
    out
}

#[test]
fn the_explorer_finds_exactly_the_legal_moves_of_the_fast_generator() {
    let (mut checked, mut failures) = (0, Vec::new());
    for (pos, all) in positions(&STARTS, 1500, 0x5EED_C0DE_1234_9876) {
        let mut fast = Vec::new();
        pos.legal_moves(&mut fast);
        let fast: BTreeSet<String> = fast.iter().map(|m| format!("{m:?}")).collect();
        let slow: BTreeSet<String> = all.legal.iter().map(|m| format!("{m:?}")).collect();
        checked += 1;
        if fast != slow {
            failures.push(format!(
                "{}: only the fast generator {:?}, only the explorer {:?}",
                pos.fen(),
                fast.difference(&slow).collect::<Vec<_>>(),
                slow.difference(&fast).collect::<Vec<_>>()
            ));
        }
    }
    report(
        &failures,
        checked,
        1500,
        "positions with the same legal moves",
    );
}

/// With invented pieces the move list comes from the explorer with a shortcut (no test on a
/// copy for a piece that screens nothing); it must equal the list of the fully tested
/// candidates.
#[test]
fn the_shortcut_of_move_lists_with_invented_pieces_keeps_every_legal_move() {
    let (mut checked, mut failures) = (0, Vec::new());
    for (pos, all) in positions(&INVENTED, 1500, 0x0005_C4EE_2D00) {
        let mut listed = Vec::new();
        pos.legal_moves(&mut listed);
        let listed: BTreeSet<String> = listed.iter().map(|m| format!("{m:?}")).collect();
        let tested: BTreeSet<String> = all.legal.iter().map(|m| format!("{m:?}")).collect();
        checked += 1;
        if listed != tested {
            failures.push(format!(
                "{}: only listed {:?}, only tested {:?}",
                pos.fen(),
                listed.difference(&tested).collect::<Vec<_>>(),
                tested.difference(&listed).collect::<Vec<_>>()
            ));
        }
    }
    report(
        &failures,
        checked,
        1500,
        "positions with invented pieces, lists agree",
    );
}

#[test]
fn every_rejected_candidate_is_refused_by_its_tag() {
    let g = Chess::geometry();
    let (mut checked, mut failures) = (0, Vec::new());
    let mut rules = BTreeSet::new();
    let orthodox = positions(&STARTS, 500, 0xC0FF_EE15_600D_CAFE);
    let invented = positions(&INVENTED, 300, 0x1_4E7E_D0DD);
    for (pos, all) in orthodox.into_iter().chain(invented) {
        let legal: BTreeSet<String> = all
            .legal
            .iter()
            .map(|m| pos.describe(*m).text(&g))
            .collect();
        // A text several candidates share is refused by the one that got furthest.
        let mut tags: BTreeMap<String, Rejection> = BTreeMap::new();
        for (m, why) in &all.rejected {
            // A castling tagged for a king away from home has no king to describe.
            let text = match (m.is_castle(), m.to().file) {
                (true, 6) => "O-O".to_string(),
                (true, _) => "O-O-O".to_string(),
                _ => pos.describe(*m).text(&g),
            };
            let kept = tags.entry(text).or_insert(*why);
            if why.stage > kept.stage {
                *kept = *why;
            }
        }
        for (text, why) in tags {
            if legal.contains(&text) {
                continue;
            }
            checked += 1;
            rules.insert(why.rule);
            let pattern = Lowering::<Chess>::new(g)
                .turn(&parse_turn(&text).expect("a move parses"))
                .expect("a move lowers");
            let refusal = pos.refusal(&pattern);
            if refusal.rule != why.rule {
                failures.push(format!(
                    "{text} in {}: tagged {}, refused by {} ({})",
                    pos.fen(),
                    why.rule,
                    refusal.rule,
                    refusal.reason
                ));
            }
        }
    }
    report(
        &failures,
        checked,
        10_000,
        "rejected candidates refused by their tag",
    );
    // Every rule the explorer tags with is met, so none of them goes unchecked.
    let expected = [
        "blocked",
        "castling-blocked",
        "castling-out-of-check",
        "castling-rights",
        "castling-through-check",
        "en-passant",
        "invented-piece",
        "own-king-in-check",
        "own-piece-on-target",
        "pawn-capture",
    ];
    assert_eq!(rules.into_iter().collect::<Vec<_>>(), expected);
}
