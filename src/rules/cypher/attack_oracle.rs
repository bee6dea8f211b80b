//! The hand-written check test that the shared attack table replaced, kept as the oracle the
//! table-based [`Cypher::attacker`] is compared with on random boards under every reading of
//! the options that change who checks.

use proptest::prelude::*;

use super::*;

/// The previous attacker: walks from the King's square by hand, zone rule by zone rule.
fn reference(pos: &Cypher, s: i32, them: u8, ignore: i32) -> Option<i32> {
    let at = |x: i32| if x == ignore { EMPTY } else { pos.at(x) };
    let o = &pos.opts;
    let pd = if them == 0 { UP } else { -UP };
    let pawn = code(them, PAWN);
    for x in [s - pd - 1, s - pd + 1] {
        if at(x) == pawn {
            let z = zone_of(x);
            if z == FIELD || (z == BORDER && o.border_pawn_checks.get()) {
                return Some(x);
            }
        }
    }
    let knight = code(them, KNIGHT);
    for d in CLASSICAL {
        let x = s + d;
        if at(x) == knight && zone_of(x) == BORDER {
            return Some(x);
        }
    }
    for d in EXTENDED {
        let x = s + d;
        if at(x) == knight && (zone_of(x) == BORDER || zone_of(x) == COURT) {
            return Some(x);
        }
    }
    let king = code(them, KING);
    for d in QUEEN_STEPS {
        let x = s + d;
        if at(x) == king {
            let z = zone_of(x);
            if z == COURT || (z == BORDER && (zone_of(s) == BORDER || !o.border_king_allowed.get()))
            {
                return Some(x);
            }
        }
    }
    for (i, &d) in QUEEN_STEPS.iter().enumerate() {
        let slider = if i < 4 { ROOK } else { BISHOP };
        let mut t = s + d;
        loop {
            let c = at(t);
            if c == EMPTY {
                t += d;
                continue;
            }
            if c == WALL {
                break;
            }
            let z = zone_of(t);
            let role = c >> 1;
            if role == SPY && z != COURT {
                if c & 1 == them && (z == BORDER || o.field_spy_checks.get()) {
                    return Some(t);
                }
                t += d;
                continue;
            }
            if c & 1 == them && z != FIELD && (role == QUEEN || role == slider || role == SPY) {
                return Some(t);
            }
            break;
        }
    }
    None
}

const CODES: [u8; 14] = [
    2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, // K Q R B N P S of both colours
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_attack_table_finds_what_the_hand_written_test_found(
        pieces in prop::collection::vec((0usize..NSQ, 0usize..CODES.len()), 1..30),
        flags in (any::<bool>(), any::<bool>(), any::<bool>()),
        ignore_pick in 0usize..NSQ,
    ) {
        let mut pos = Cypher::start(Cypher::geometry(), &Options::defaults(OPTIONS)).expect("the start position");
        let mut board = Board::empty(Cypher::geometry());
        for &(i, c) in &pieces {
            board.set(Sq(SQUARES[i] as u16), Piece::from_code(CODES[c]));
        }
        pos.board = board;
        pos.opts.border_pawn_checks = pos.opts.border_pawn_checks.with(flags.0);
        pos.opts.border_king_allowed = pos.opts.border_king_allowed.with(flags.1);
        pos.opts.field_spy_checks = pos.opts.field_spy_checks.with(flags.2);
        for &s in SQUARES.iter() {
            for them in [0u8, 1] {
                for ignore in [-1, SQUARES[ignore_pick]] {
                    prop_assert_eq!(
                        pos.attacker(s, them, ignore),
                        reference(&pos, s, them, ignore),
                        "square {}, attacker colour {}, ignoring {}, board {}",
                        Cypher::name(s), them, ignore, pos.board.fen_placement()
                    );
                }
            }
        }
    }
}
