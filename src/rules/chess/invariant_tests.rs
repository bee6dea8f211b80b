//! Every invariant of chess can fail: for each one a position or a move that breaks it (built
//! past the validating constructor, or played with `apply` past the legal move generator), and
//! a test that the table of those cases covers the catalogue. That none fails in legal play is
//! tested on random playouts (tests/it/properties.rs) and by an invariant search (tests.rs).

use super::*;

fn pos(fen: &str) -> Chess {
    let options = Options::defaults(Chess::options());
    Chess::from_fen(Chess::geometry(), fen, &options).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(s: &str) -> Square {
    Chess::geometry().parse_square(s).expect("a square")
}

/// A move from square names, of a kind, without promotion.
fn mv(from: &str, to: &str, kind: u8) -> Move {
    Move::new(Sq::of(sq(from)).0 as i32, Sq::of(sq(to)).0 as i32, kind)
}

/// Plays a move with `apply`, whether or not the generator would offer it.
fn forced(mut p: Chess, m: Move) -> Chess {
    p.apply(m);
    p
}

fn second_white_king() -> Result<(), String> {
    let mut p = pos(START_FEN);
    p.board
        .put(sq("e4"), Some(Piece::new(Color::White, Role::King)));
    p.check_invariant("one-king-each")
}

fn black_king_gone() -> Result<(), String> {
    let mut p = pos(START_FEN);
    p.board.put(sq("e8"), None);
    p.check_invariant("one-king-each")
}

/// The king steps onto a file a rook holds.
fn king_walks_into_check() -> Result<(), String> {
    let p = forced(
        pos("3rk3/8/8/8/8/8/8/4K3 w - - 0 1"),
        mv("e1", "d1", KIND_NORMAL),
    );
    p.check_invariant("mover-not-in-check")
}

/// En passant that takes both pawns off the king's rank and opens it to the rook.
fn en_passant_exposes_the_king() -> Result<(), String> {
    let p = forced(
        pos("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1"),
        mv("b5", "c6", KIND_EP),
    );
    p.check_invariant("mover-not-in-check")
}

/// A pinned knight leaves the line of a bishop.
fn pinned_knight_moves() -> Result<(), String> {
    let p = forced(
        pos("4k3/8/8/b7/8/2N5/8/4K3 w - - 0 1"),
        mv("c3", "e4", KIND_NORMAL),
    );
    p.check_invariant("mover-not-in-check")
}

/// A pawn reaches the last rank without promoting.
fn pawn_not_promoted() -> Result<(), String> {
    let p = forced(
        pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
        mv("a7", "a8", KIND_NORMAL),
    );
    p.check_invariant("no-pawn-on-back-rank")
}

/// The h1 rook is gone but White keeps its kingside right.
fn right_without_rook() -> Result<(), String> {
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    p.board.put(sq("h1"), None);
    p.check_invariant("castling-rights-consistent")
}

/// The black king moves, and its rights are put back afterwards.
fn right_after_king_move() -> Result<(), String> {
    let mut p = forced(
        pos("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"),
        mv("e8", "d8", KIND_NORMAL),
    );
    p.castling |= BQ;
    p.check_invariant("castling-rights-consistent")
}

/// Each invariant, a fragment of what it reports, and a case that breaks it.
use crate::rules::violations::{check_table, Case};

const VIOLATIONS: &[Case] = &[
    ("one-king-each", "white has 2 kings", second_white_king),
    ("one-king-each", "black has 0 kings", black_king_gone),
    (
        "mover-not-in-check",
        "white moved and its king on d1 is in check from the rook on d8",
        king_walks_into_check,
    ),
    (
        "mover-not-in-check",
        "white moved and its king on a5 is in check from the rook on h5",
        en_passant_exposes_the_king,
    ),
    (
        "mover-not-in-check",
        "white moved and its king on e1 is in check from the bishop on a5",
        pinned_knight_moves,
    ),
    (
        "no-pawn-on-back-rank",
        "a white pawn stands on a8",
        pawn_not_promoted,
    ),
    (
        "castling-rights-consistent",
        "white may castle kingside but there is no white rook on h1",
        right_without_rook,
    ),
    (
        "castling-rights-consistent",
        "black may castle queenside but its king is not on e8",
        right_after_king_move,
    ),
];

#[test]
fn every_invariant_reports_its_violations_and_the_table_covers_the_catalogue() {
    check_table(VIOLATIONS, INVARIANTS);
}

/// The independent check agrees with the engine on legal play: every position two moves from
/// the standard perft positions keeps the mover out of check, and with the side to move
/// flipped, finds it in check exactly when the engine does.
#[test]
fn the_mover_check_agrees_with_the_engine_on_legal_play() {
    fn walk(p: &Chess, depth: u32) {
        assert_eq!(
            p.check_invariant("mover-not-in-check"),
            Ok(()),
            "{}",
            p.fen()
        );
        let mut flipped = p.clone();
        flipped.turn = flipped.turn.other();
        assert_eq!(
            flipped.check_invariant("mover-not-in-check").is_err(),
            p.in_check() == Some(true),
            "{}",
            p.fen()
        );
        if depth == 0 {
            return;
        }
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        for m in moves {
            let mut next = p.clone();
            next.play(m);
            walk(&next, depth - 1);
        }
    }
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ] {
        walk(&pos(fen), 2);
    }
}
