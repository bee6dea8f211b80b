//! The generator's specialised attack test against the shared one of [`crate::rules::movement`],
//! on random boards: both must see the same attacks, also with a square (not an attacker's)
//! treated as empty.

use proptest::prelude::*;

use super::*;

const CODES: [u8; 12] = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]; // K Q R B N P of both colours

fn squares() -> Vec<i32> {
    Geometry::lettered(8, 8)
        .squares()
        .map(|s| Sq::of(s).0 as i32)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_fast_attack_test_agrees_with_the_shared_one(
        pieces in prop::collection::vec((0usize..64, 0usize..CODES.len()), 1..32),
        ignore_pick in 0usize..64,
    ) {
        let all = squares();
        let mut b = Board::empty(Geometry::lettered(8, 8));
        for &(i, c) in &pieces {
            b.set(Sq(all[i] as u16), Piece::from_code(CODES[c]));
        }
        for &s in &all {
            for them in [0u8, 1] {
                // The generator ignores the square of the king that moves, never an attacker's.
                let held = b.cell(Sq(all[ignore_pick] as u16));
                let ignores = if held != EMPTY && held & 1 == them {
                    vec![-1]
                } else {
                    vec![-1, all[ignore_pick]]
                };
                for ignore in ignores {
                    let shared = attack_tables()[them as usize]
                        .attacker(
                            &b,
                            Sq(s as u16),
                            |a| a.from.0 as i32 != ignore,
                            |x, _| x.0 as i32 == ignore,
                        )
                        .is_some();
                    prop_assert_eq!(
                        attacked(&b, s, them, ignore),
                        shared,
                        "square {:?}, colour {}, ignoring {}, board {}",
                        Sq(s as u16).square(), them, ignore, b.fen_placement()
                    );
                }
            }
        }
    }
}
