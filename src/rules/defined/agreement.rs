//! Orthodox chess as a definition against the built-in `chess`: the same legal turns, written
//! the same, the same check and the same outcome, along random games from the start and from
//! the positions of the perft suites. The built-in stays the fast path; this keeps the two
//! one game.

use crate::rules::chess::Chess;
use crate::rules::{Geometry, Options, Rules};

/// A small deterministic generator (xorshift), so that a failure replays.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn texts<R: Rules>(pos: &R) -> Vec<String> {
    let g = *pos.board().geometry();
    pos.legal_turns()
        .into_iter()
        .map(|(_, t)| t.text(&g))
        .collect()
}

#[test]
fn chess_as_a_definition_plays_as_the_built_in() {
    let variant = crate::definition::load::variant("chess.def").expect("bundled");
    let mut starts: Vec<String> = vec![crate::rules::chess::START_FEN.to_string()];
    for line in super::tests::lines(include_str!("../../../tests/data/fsf/perft-a.txt")) {
        if line.variant == "chess" && line.position != "startpos" {
            starts.push(line.position.clone());
        }
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut positions = 0;
    crate::with_variant!(variant, R => {
        let options = Options::defaults(R::options());
        let geometry = Geometry::lettered(8, 8);
        let chess_options = Options::defaults(Chess::options());
        for start in &starts {
            for _game in 0..12 {
                let mut built_in = Chess::from_fen(geometry, start, &chess_options).expect("a FEN");
                for _ply in 0..80 {
                    let defined = R::from_fen(geometry, &built_in.fen(), &options)
                        .expect("the built-in's FEN reads");
                    let (a, b) = (texts(&built_in), texts(&defined));
                    assert_eq!(a, b, "legal turns of {}", built_in.fen());
                    assert_eq!(built_in.in_check(), defined.in_check(), "{}", built_in.fen());
                    positions += 1;
                    let legal = built_in.legal_turns();
                    if legal.is_empty() {
                        let outcome = |o: Option<crate::rules::Outcome>| o.map(|o| (o.winner, o.reason));
                        assert_eq!(outcome(built_in.outcome()), outcome(defined.outcome()));
                        break;
                    }
                    let (m, _) = legal[rng.below(legal.len())].clone();
                    built_in.play(m);
                }
            }
        }
    });
    assert!(positions > 3000, "{positions}");
}
