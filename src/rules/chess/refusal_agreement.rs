//! Refusals agree with the generator: every move that a piece's movement (the shared
//! movement model) takes to an empty square or an enemy piece, but that the legal generator
//! does not list, is refused for the one reason left, the own King's safety; on positions of
//! random playouts from the standard perft test positions.

use std::collections::BTreeSet;

use super::*;
use crate::rules::movement;
use crate::rules::testing::Rng;
use crate::scenario::evaluate::Lowering;
use crate::scenario::parse::parse_turn;

const STARTS: [&str; 4] = [
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
];

#[test]
fn every_move_the_geometry_allows_and_the_generator_drops_is_refused_for_king_safety() {
    let g = Chess::geometry();
    let options = Options::defaults(Chess::options());
    let mut rng = Rng(0xC0FF_EE15_600D_CAFE);
    let (mut checked, mut failures) = (0, Vec::new());
    for round in 0..500 {
        let mut pos = Chess::from_fen(g, STARTS[round % STARTS.len()], &options).unwrap();
        for _ in 0..rng.below(30) {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let legal: BTreeSet<String> = moves.iter().map(|m| pos.describe(*m).text(&g)).collect();
        let us = pos.turn;
        for (from, piece) in pos.board.pieces().filter(|(_, p)| p.color() == us) {
            let role = piece.role();
            let mut targets = Vec::new();
            movement::destinations(
                movement_of(role),
                &pos.board,
                Sq::of(from),
                us,
                |c| c & 1 != us as u8 && c >> 1 != KING,
                |t, capture| targets.push((t.square(), capture)),
            );
            for (to, capture) in targets {
                let letter = if role == Role::Pawn {
                    String::new()
                } else {
                    role.letter().to_string()
                };
                let last = if us == Color::White { 7 } else { 0 };
                let promotion = if role == Role::Pawn && to.rank == last {
                    "=Q"
                } else {
                    ""
                };
                let text = format!(
                    "{letter}{}{}{}{promotion}",
                    g.square_name(from),
                    if capture { 'x' } else { '-' },
                    g.square_name(to)
                );
                if legal.contains(&text) {
                    continue;
                }
                checked += 1;
                let pattern = Lowering::<Chess>::new(g)
                    .turn(&parse_turn(&text).expect("a move parses"))
                    .expect("a move lowers");
                let refusal = pos.refusal(&pattern);
                if refusal.rule != "own-king-in-check" {
                    failures.push(format!(
                        "{text} in {}: refused by {} ({})",
                        pos.fen(),
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
        500,
        "moves dropped by the generator, all refused for king safety",
    );
}
