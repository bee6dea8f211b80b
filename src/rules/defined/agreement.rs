//! Orthodox chess as a definition against the built-in `chess`: the same legal turns, written
//! the same, the same check and the same outcome, along random games from the start and from
//! the positions of the perft suites. The built-in stays the fast path; this keeps the two
//! one game.

use crate::rules::chess::Chess;
use crate::rules::{Geometry, Options, Rules};

/// A small deterministic generator (xorshift), so that a failure replays.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn below(&mut self, n: usize) -> usize {
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
    let variant = crate::rules::defined::load("chess.def").expect("bundled");
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

/// The positions of the perft file of chess with invented pieces.
fn invented_fens() -> Vec<&'static str> {
    include_str!("../../../tests/data/perft-chess-invented.txt")
        .lines()
        .filter_map(|l| l.strip_prefix("fen "))
        .collect()
}

/// What a refusal's rule is under the definition: the built-in's `own-king-in-check` is its
/// `check` component.
/// Compares the refusals of every turn that writes an invented piece of the mover's going to
/// another square, with its origin and without (`(WD)e5`: no such piece), that is not legal;
/// returns how many it compared, and records the built-in's rules and every disagreement.
fn refusals_agree<R: Rules>(
    built_in: &Chess,
    defined: &R,
    legal: &[String],
    rules: &mut std::collections::BTreeSet<&'static str>,
    failures: &mut Vec<String>,
) -> usize {
    use crate::scenario::evaluate::Lowering;
    use crate::scenario::parse::parse_turn;
    let g = Geometry::lettered(8, 8);
    let board = built_in.board();
    let mut compared = 0;
    for (from, piece) in board.pieces() {
        let Some(d) = piece.design().filter(|_| piece.color() == built_in.turn()) else {
            continue;
        };
        for to in g.squares().filter(|s| *s != from) {
            let (f, t) = (g.square_name(from), g.square_name(to));
            let taken = board.get(to).is_some();
            let long = format!("{d}{f}{}{t}", if taken { "x" } else { "-" });
            let short = format!("{d}{}{t}", if taken { "x" } else { "" });
            let reached = legal
                .iter()
                .any(|l| l.starts_with(&d.to_string()) && l.ends_with(&t));
            for (text, is_legal) in [(long.clone(), legal.contains(&long)), (short, reached)] {
                if is_legal {
                    continue;
                }
                let turn = parse_turn(&text).expect("a move parses");
                let want =
                    built_in.refusal(&Lowering::<Chess>::new(g).turn(&turn).expect("lowers"));
                let got = defined.refusal(&Lowering::<R>::new(g).turn(&turn).expect("lowers"));
                compared += 1;
                rules.insert(want.rule);
                if want.rule != got.rule {
                    failures.push(format!(
                        "{text} in {}: built-in {} ({}), definition {} ({})",
                        built_in.fen(),
                        want.rule,
                        want.reason,
                        got.rule,
                        got.reason
                    ));
                }
            }
        }
    }
    compared
}

/// Chess with invented pieces (the positions of `tests/data/perft-chess-invented.txt`) as the
/// chess definition plays it and as the built-in does: the same legal turns, check and FEN
/// along random games, and the same refusal of every turn of an invented piece.
#[test]
fn invented_pieces_on_the_chess_definition_play_as_on_the_built_in() {
    let variant = crate::rules::defined::load("chess.def").expect("bundled");
    let mut rng = Rng(0x1_4E7E_D0DD);
    let (mut positions, mut refusals) = (0, 0);
    let mut failures = Vec::new();
    let mut rules = std::collections::BTreeSet::new();
    crate::with_variant!(variant, R => {
        let options = Options::defaults(R::options());
        let geometry = Geometry::lettered(8, 8);
        let chess_options = Options::defaults(Chess::options());
        for start in invented_fens() {
            for _game in 0..3 {
                let mut built_in = Chess::from_fen(geometry, start, &chess_options).expect("a FEN");
                for ply in 0..40 {
                    let fen = built_in.fen();
                    let defined = R::from_fen(geometry, &fen, &options)
                        .expect("the built-in's FEN reads");
                    let (a, b) = (texts(&built_in), texts(&defined));
                    assert_eq!(a, b, "legal turns of {fen}");
                    assert_eq!(built_in.in_check(), defined.in_check(), "{fen}");
                    assert_eq!(fen, defined.fen());
                    positions += 1;
                    if ply % 4 == 0 {
                        refusals += refusals_agree(&built_in, &defined, &a, &mut rules, &mut failures);
                    }
                    let legal = built_in.legal_turns();
                    if legal.is_empty() {
                        break;
                    }
                    let (m, _) = legal[rng.below(legal.len())].clone();
                    built_in.play(m);
                }
            }
        }
    });
    assert!(
        failures.is_empty(),
        "{} of {refusals} refusals differ:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    assert!(
        positions > 1500 && refusals > 100_000,
        "{positions} positions, {refusals} refusals"
    );
    let rules: Vec<_> = rules.into_iter().collect();
    assert_eq!(
        rules,
        [
            "blocked",
            "invented-piece",
            "no-such-piece",
            "own-king-in-check",
            "own-piece-on-target"
        ]
    );
}
