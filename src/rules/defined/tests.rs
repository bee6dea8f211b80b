//! Fairy-Stockfish's perft suite, sets A and B, from the bundled definitions: every line's
//! count at depths 1 to 3 (as Fairy-Stockfish measured them, `tests/data/fsf/perft-*-low-depth.txt`)
//! here, and every line at its full depth behind `--ignored` (run it in release:
//! `cargo test --release --lib defined::tests -- --ignored`).

use crate::rules::{perft_within, Limits, Options, Rules, Variant};

const LOW: &str = include_str!("../../../tests/data/fsf/perft-a-low-depth.txt");
const FULL: &str = include_str!("../../../tests/data/fsf/perft-a.txt");
const LOW_B: &str = include_str!("../../../tests/data/fsf/perft-b-low-depth.txt");
const FULL_B: &str = include_str!("../../../tests/data/fsf/perft-b.txt");

/// One line of a perft data file: `variant | position | depth | count [| chess960]`.
#[derive(Debug)]
pub(crate) struct Line {
    pub variant: String,
    pub position: String,
    pub depth: u32,
    pub count: u64,
    pub chess960: bool,
}

pub(crate) fn lines(text: &str) -> Vec<Line> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            Line {
                variant: f[0].to_string(),
                position: f[1].to_string(),
                depth: f[2].parse().expect("a depth"),
                count: f[3].parse().expect("a count"),
                chess960: f.get(4) == Some(&"chess960"),
            }
        })
        .collect()
}

/// The definition a data file's variant name stands for: the bundled one, also for `chess`
/// (whose plain name is the built-in).
fn variant_of(name: &str) -> Result<Variant, String> {
    let spec = if name == "chess" {
        "chess.def".to_string()
    } else {
        name.to_string()
    };
    crate::rules::defined::load(&spec)
}

/// The count of one line, or why there is none.
pub(crate) fn count(line: &Line, max_nodes: u64) -> Result<u64, String> {
    let variant = variant_of(&line.variant)?;
    crate::with_variant!(variant, R => {
        let mut options = Options::defaults(R::options());
        if line.chess960 {
            options.set(R::options(), R::name(), "chess960", "on")?;
        }
        let geometry = R::geometry_for(None).map_err(|e| e.message().to_string())?;
        let pos = if line.position == "startpos" {
            R::start(geometry, &options)
        } else {
            R::from_fen(geometry, &line.position, &options)
        }
        .map_err(|e| e.message().to_string())?;
        perft_within(&pos, line.depth, &mut Limits::unlimited().with_max_nodes(max_nodes).budget()).map_err(|e| e.to_string())
    })
}

fn check(text: &str, max_count: u64) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for line in lines(text) {
        if line.count > max_count {
            continue;
        }
        ran += 1;
        match count(&line, line.count.saturating_mul(4).max(1000)) {
            Ok(n) if n == line.count => {}
            Ok(n) => failures.push(format!("{line:?}: {n}")),
            Err(e) => failures.push(format!("{line:?}: {e}")),
        }
    }
    assert!(ran > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn perft_a_depths_one_to_three() {
    check(LOW, 300_000);
}

#[test]
#[ignore = "heavy: run in release"]
fn perft_a_full_depth() {
    check(FULL, u64::MAX);
}

#[test]
fn perft_b_depths_one_to_three() {
    check(LOW_B, 300_000);
}

#[test]
#[ignore = "heavy: run in release"]
fn perft_b_full_depth() {
    check(FULL_B, u64::MAX);
}

/// The counts of chess with invented pieces (Fairy-Stockfish's, `tests/data/perft-chess-invented.txt`)
/// under the chess definition, up to `max_count` each.
fn invented(max_count: u64) {
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut fen = "";
    for l in include_str!("../../../tests/data/perft-chess-invented.txt").lines() {
        if let Some(f) = l.strip_prefix("fen ") {
            fen = f;
        }
        let Some((depth, n)) = l.strip_prefix("perft ").and_then(|r| r.split_once(' ')) else {
            continue;
        };
        let line = Line {
            variant: "chess".into(),
            position: fen.into(),
            depth: depth.parse().expect("a depth"),
            count: n.parse().expect("a count"),
            chess960: false,
        };
        if line.count > max_count {
            continue;
        }
        ran += 1;
        match count(&line, line.count.saturating_mul(4)) {
            Ok(n) if n == line.count => {}
            Ok(n) => failures.push(format!("{line:?}: {n}")),
            Err(e) => failures.push(format!("{line:?}: {e}")),
        }
    }
    assert!(ran >= 40, "{ran}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn invented_pieces_on_the_chess_definition_count_as_fairy_stockfish() {
    invented(300_000);
}

#[test]
#[ignore = "heavy: run in release"]
fn invented_pieces_on_the_chess_definition_full_depth() {
    invented(u64::MAX);
}

#[test]
fn every_game_has_a_definition() {
    for line in lines(FULL).into_iter().chain(lines(FULL_B)) {
        assert!(
            crate::definition::load::bundled(&line.variant).is_some(),
            "{} has no definition",
            line.variant
        );
    }
}

/// Engine fixes found while writing the bundled games, each pinned on a small position whose
/// count Fairy-Stockfish gives.
mod engine {
    use super::{count, variant_of, Line};
    use crate::rules::{Color, Options, Rules};

    /// The outcome of a FEN of a bundled game: the winner (`None`: a draw) and the rule.
    fn outcome(variant: &str, fen: &str) -> Option<(Option<Color>, &'static str)> {
        let variant = variant_of(variant).expect("a bundled definition");
        crate::with_variant!(variant, R => {
            let options = Options::defaults(R::options());
            let geometry = R::geometry_for(None).expect("a board");
            let pos = R::from_fen(geometry, fen, &options).expect("a FEN");
            pos.outcome().map(|o| (o.winner, o.rule))
        })
    }

    fn perft(variant: &str, fen: &str, depth: u32, chess960: bool) -> u64 {
        let line = Line {
            variant: variant.to_string(),
            position: fen.to_string(),
            depth,
            count: 0,
            chess960,
        };
        count(&line, 1_000_000).expect("a count")
    }

    /// A Chess960 king that castles without moving (g1, rook h1 to f1) would block the check
    /// it stands in: castling out of check is refused all the same (Kf2, Kg2, Kh2 remain).
    #[test]
    fn no_castling_out_of_check_when_the_king_stays() {
        assert_eq!(perft("chess", "k7/8/8/8/8/8/8/1r4KR w K - 0 1", 1, true), 3);
    }

    /// An atomic king next to the enemy king is safe where it stands, but the square it
    /// crosses when castling (d8, seen through e8) is attacked by the rook on f8.
    #[test]
    fn castling_path_is_judged_with_the_king_lifted() {
        assert_eq!(
            perft("atomic", "r3kR2/5K2/8/8/8/8/8/6r1 b q - 0 1", 1, false),
            26
        );
    }

    /// Ataxx: a side walled in passes, and only then; a side without stones has no turn; a
    /// full board and two passes in a row end the game, the side with more stones winning.
    #[test]
    fn ataxx_passes_only_when_stuck_and_ends_by_counting() {
        assert_eq!(
            perft("ataxx", "7/7/7/ppp4/ppp4/ppp4/Ppp4 w 0 1", 1, false),
            1
        );
        assert_eq!(
            perft("ataxx", "7/7/7/ppp4/ppp4/ppp4/Ppp4 w 0 1", 3, false),
            68
        );
        assert_eq!(
            perft("ataxx", "7/7/7/ppp4/ppp4/ppp4/Ppp4 b 0 1", 3, false),
            3865
        );
        let full = "PPPPPPP/PPPPPPP/PPPPPPP/PPPPPPP/PPPPPPP/ppppppp/pppppp1 w 0 1";
        assert_eq!(perft("ataxx", full, 3, false), 41);
        assert_eq!(perft("ataxx", "7/7/7/7/7/7/P6 b 0 1", 1, false), 0);
        assert_eq!(
            outcome("ataxx", "7/7/7/7/7/7/P6 b 0 1"),
            Some((Some(Color::White), "no-stones"))
        );
        let filled = "PPPPPPP/PPPPPPP/PPPPPPP/PPPPPPP/PPPPPPP/ppppppp/ppppppP b 0 1";
        assert_eq!(
            outcome("ataxx", filled),
            Some((Some(Color::White), "full-board"))
        );
        let one_empty = "PPPPPPP/PPPPPPP/PPPPPPP/PPPPppp/ppppppp/ppppppp/pppppp1 w 0 1";
        assert_eq!(outcome("ataxx", one_empty), None);
    }

    /// Flipello: the first discs go on the four centre squares, enclosing or not; after them
    /// a disc must enclose; a side that cannot place one passes, and a side without discs has
    /// no turn (counts from Fairy-Stockfish).
    #[test]
    fn flipello_opening_passes_and_enclosing() {
        let opening = "8/8/8/8/8/8/8/pP6[PPpp] w 0 1";
        assert_eq!(perft("flipello", opening, 3, false), 24);
        let open_centre = "8/8/8/8/2pPp3/2PpP3/2pPp3/8[PPPPPpppp] w 0 1";
        assert_eq!(perft("flipello", open_centre, 1, false), 2);
        assert_eq!(perft("flipello", open_centre, 4, false), 187);
        let lines = "8/8/8/2pPp3/2PpP3/2pPp3/8/8[PPPPPpppp] w 0 1";
        assert_eq!(perft("flipello", lines, 4, false), 3552);
        let walled =
            "pppppppp/pppppppp/pppppppp/pppppppp/ppPPpppp/pppppppp/pppppppp/ppppppp1[PPpp] w 0 1";
        assert_eq!(perft("flipello", walled, 2, false), 1);
        assert_eq!(perft("flipello", walled, 3, false), 0);
    }

    /// Racing Kings: a king on the eighth rank wins, unless the other king matched it on the
    /// very next move, which draws.
    #[test]
    fn a_matched_goal_is_a_draw() {
        assert_eq!(
            outcome("racingkings", "1K6/8/8/8/8/8/8/k7 b - - 0 1"),
            Some((Some(Color::White), "goal"))
        );
        assert_eq!(
            outcome("racingkings", "1K4k1/8/8/8/8/8/8/8 w - - 0 1"),
            Some((None, "goal"))
        );
        assert_eq!(
            outcome("racingkings", "1K6/5k2/8/8/8/8/8/8 b - - 0 1"),
            None
        );
    }

    /// The position after a side's third check is decided, and the side that gave the checks
    /// wins: the check-count rule's value is that side's.
    #[test]
    fn three_check_is_won_by_the_side_that_checked() {
        let variant = variant_of("3check").expect("3check is bundled");
        crate::with_variant!(variant, R => {
            let options = Options::defaults(R::options());
            let geometry = R::geometry_for(None).expect("a fixed board");
            let pos = R::from_fen(geometry, "4k3/8/8/8/8/8/8/4K3 b - - 0+3 0 1", &options)
                .expect("a FEN of the game");
            let outcome = pos.outcome().expect("three checks given");
            assert_eq!(outcome.winner, Some(Color::White));
            assert_eq!(outcome.rule, "check-count");
        });
    }

    /// Janggi, on positions whose counts Fairy-Stockfish gives: generals facing each other
    /// (the player facing it may only part them or pass, and a pass in check is allowed then
    /// and ends the game), cannons that may not jump over or take cannons, palace diagonals.
    #[test]
    fn janggi_bikjang_passes_and_cannons() {
        for (fen, depth, n) in [
            ("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", 4, 394),
            ("4k4/4a4/9/9/9/9/9/4R4/4K4/9 b - - 0 1", 4, 12576),
            ("3k5/9/9/9/4c4/9/9/9/4K4/3C5 w - - 0 1", 4, 1439),
            ("3k5/4c4/5C3/9/9/9/2p6/3P5/4K4/5r3 w - - 0 1", 4, 4458),
            ("4k4/3P5/9/9/9/9/9/9/5K3/3R5 w - - 0 1", 4, 1332),
            ("3k5/9/9/9/9/9/9/9/4R4/3K1r3 w - - 0 1", 1, 1),
            ("3k5/9/9/9/9/9/9/9/4R4/3K1r3 w - - 0 1", 2, 0),
        ] {
            assert_eq!(
                perft("janggi", fen, depth, false),
                n,
                "{fen} at depth {depth}"
            );
        }
    }

    /// Duck chess and amazons, on positions whose counts Fairy-Stockfish gives: a duck that
    /// must move on and may not land where a double step passed (no en passant then), a
    /// king that may be taken, arrows that stay and block.
    #[test]
    fn blockers_count_as_fairy_stockfish() {
        for (variant, fen, depth, n) in [
            ("duck", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", 2, 162000),
            ("duck", "k7/8/1Q6/8/8/8/8/4K3 b - - 0 1", 2, 292562),
            (
                "duck",
                "rnbqkbnr/ppp1pppp/3*4/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
                1,
                930,
            ),
            (
                "amazons",
                "q**6*/***7/10/10/10/10/10/10/10/9Q b - - 0 1",
                2,
                0,
            ),
            (
                "amazons",
                "3q2q3/10/10/q8q/10/4*5/Q8Q/10/10/3Q2Q3 w - - 0 1",
                1,
                2005,
            ),
        ] {
            assert_eq!(perft(variant, fen, depth, false), n, "{variant} {fen}");
        }
    }

    /// Janggi: two passes in a row end the game, and so does a pass while the generals face
    /// each other; one pass alone does not.
    #[test]
    fn janggi_games_end_by_passing() {
        use super::super::position::Special;
        use super::super::Position;
        let variant = variant_of("janggi").expect("janggi is bundled");
        let crate::rules::Variant::Defined(id) = variant else {
            panic!("janggi is not a definition")
        };
        let _bound = super::super::bind(id);
        let options = Options::defaults(Position::options());
        let geometry = Position::geometry_for(None).expect("a board");
        let passed = |fen: &str, times: usize| {
            let mut pos = Position::from_fen(geometry, fen, &options).expect("a FEN");
            for _ in 0..times {
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                let pass = moves.into_iter().find(|m| m.special == Special::Pass);
                pos.apply(pass.expect("a legal pass"));
            }
            pos.outcome().map(|o| (o.winner, o.rule))
        };
        let start = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
        assert_eq!(passed(start, 1), None);
        assert_eq!(passed(start, 2), Some((None, "pass")));
        assert_eq!(
            passed("3k5/9/9/9/9/9/9/9/9/3K1r3 w - - 0 1", 1),
            Some((None, "bikjang"))
        );
    }
}

/// The invariants a definition's components offer hold where they should and are found
/// broken where they are (each allowing and forbidding).
#[test]
fn invariants_of_a_definition_hold_and_break() {
    use crate::rules::{Options, Rules};
    let variant = variant_of("chess").expect("chess.def is bundled");
    crate::with_variant!(variant, R => {
        let options = Options::defaults(R::options());
        let geometry = R::geometry_for(None).expect("a board");
        let at = |fen: &str, name: &str| {
            R::from_fen(geometry, fen, &options)
                .expect("a FEN")
                .check_invariant(name)
        };
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        for name in [
            "mover-not-in-check",
            "one-king-each",
            "no-pawn-on-back-rank",
            "castling-rights-consistent",
        ] {
            assert_eq!(at(start, name), Ok(()), "{name}");
        }
        // Black just moved and left its king attacked by the rook.
        let err = at("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "mover-not-in-check");
        assert_eq!(err, Ok(()));
        let err = at("r3k3/8/8/8/8/8/8/4K3 b - - 0 1", "mover-not-in-check");
        assert_eq!(err, Ok(()));
        // Such a position is refused as a FEN, as the built-in chess refuses it; only a
        // board changed by hand breaks the invariant.
        let Err(refused) = R::from_fen(geometry, "4k3/8/8/8/8/8/8/4K2r b - - 0 1", &options)
        else {
            panic!("refused");
        };
        assert_eq!(refused.message(), "white is in check, but it is black's turn");
        let mut pos = <super::Position as Rules>::from_fen(
            geometry,
            "4k3/8/8/8/8/8/8/4K3 b - - 0 1",
            &options,
        )
        .expect("a FEN");
        let rook = pos.c.kind_of_letter('R').expect("a rook");
        pos.board.put(
            crate::rules::Square::new(7, 0),
            Some(pos.c.piece(crate::rules::Color::Black, rook)),
        );
        let err = pos.check_invariant("mover-not-in-check").unwrap_err();
        assert!(err.contains("king on e1"), "{err}");
        let err = at("4k3/8/8/8/8/8/8/4KK2 w - - 0 1", "one-king-each").unwrap_err();
        assert_eq!(err, "white has 2 kings");
        let err = at("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "no-pawn-on-back-rank").unwrap_err();
        assert_eq!(err, "a pawn stands on a1");
        assert!(at("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "no-such-invariant").is_err());
        let names: Vec<&str> = R::invariants().iter().map(|i| i.name).collect();
        // A right kept for a file whose rook is gone (only a hand-made position has one).
        let mut pos = <super::Position as Rules>::from_fen(geometry, start, &options)
            .expect("the start");
        pos.board.put(crate::rules::Square::new(0, 0), None);
        let err = pos.check_invariant("castling-rights-consistent").unwrap_err();
        assert!(err.contains("a-file"), "{err}");
        assert_eq!(
            names,
            [
                "mover-not-in-check",
                "one-king-each",
                "no-pawn-on-back-rank",
                "castling-rights-consistent"
            ]
        );
    });
}

/// The judge and the generator are one evaluation: on every position of sets A and B, and
/// the positions one move on, a pseudo move the judge lets through is exactly a legal move,
/// and one it refuses names a component of the definition.
#[test]
fn the_judge_agrees_with_the_legal_moves_on_sets_a_and_b() {
    judge_agrees(lines(LOW).into_iter().chain(lines(LOW_B)).collect());
}

/// [`the_judge_agrees_with_the_legal_moves_on_sets_a_and_b`] for janggi, duck chess and amazons:
/// their lines of set B, and positions where the generals face each other (passing, in check
/// or not) and cannons meet.
#[test]
fn the_judge_agrees_with_the_legal_moves_on_janggi_duck_and_amazons() {
    let mut janggi: Vec<Line> = lines(LOW_B)
        .into_iter()
        .filter(|l| ["janggi", "duck", "amazons"].contains(&l.variant.as_str()))
        .collect();
    for fen in [
        "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/4R4/3K1r3 w - - 0 1",
        "3k5/4c4/5C3/9/9/9/2p6/3P5/4K4/5r3 w - - 0 1",
        "r2k1c3/4p4/3R5/9/9/9/9/4c4/4K4/3c1C3 b - - 0 1",
    ] {
        janggi.push(Line {
            variant: "janggi".into(),
            position: fen.into(),
            depth: 1,
            count: 0,
            chess960: false,
        });
    }
    judge_agrees(janggi);
}

/// On every position of `lines`, and the positions one move on, a pseudo move the judge lets
/// through is exactly a legal move, and one it refuses names a component of the definition.
fn judge_agrees(lines: Vec<Line>) {
    use super::Position;
    use crate::rules::explain::StepVerdict;
    let mut seen = std::collections::HashSet::new();
    for line in lines {
        if !seen.insert(line.position.clone()) {
            continue;
        }
        let variant = variant_of(&line.variant).expect("a bundled definition");
        let Variant::Defined(id) = variant else {
            panic!("{} is not a definition", line.variant)
        };
        let _bound = super::bind(id);
        let mut options = Options::defaults(Position::options());
        if line.chess960 {
            options
                .set(Position::options(), "x", "chess960", "on")
                .expect("a chess960 option");
        }
        let geometry = Position::geometry_for(None).expect("a board");
        let start = if line.position == "startpos" {
            Position::start(geometry, &options)
        } else {
            Position::from_fen(geometry, &line.position, &options)
        }
        .expect("a position");
        let mut positions = vec![start.clone()];
        let mut first = Vec::new();
        start.legal_moves(&mut first);
        for m in first.into_iter().take(8) {
            let mut next = start.clone();
            next.apply(m);
            positions.push(next);
        }
        let ids: Vec<&str> = Position::rules().iter().map(|r| r.id).collect();
        for pos in positions {
            if pos.decided().is_some() {
                continue;
            }
            let (mut pseudo, mut legal) = (Vec::new(), Vec::new());
            pos.pseudo_moves(&mut pseudo);
            pos.legal_moves(&mut legal);
            // Under `blocker`, a legal turn is a move and a square: the judge's is the move.
            for m in legal.iter_mut() {
                m.block = None;
            }
            for m in pseudo {
                let steps = pos.judge_move(m);
                let forbids = steps.iter().find(|s| s.verdict == StepVerdict::Forbids);
                assert_eq!(
                    forbids.is_none(),
                    legal.contains(&m),
                    "{}: {} judged {steps:?}",
                    line.variant,
                    pos.fen()
                );
                for s in &steps {
                    assert!(
                        ids.contains(&s.rule),
                        "{}: {} is not in rules()",
                        line.variant,
                        s.rule
                    );
                }
            }
        }
    }
}

/// A move a region gives is explained naming the region, as `show` shades it and `expect
/// zone` names it: the soldier across the river steps sideways by `crossed-river`.
#[test]
fn a_region_move_names_its_zone() {
    use super::Position;
    use crate::rules::board::{Sq, Square};
    let Ok(Variant::Defined(id)) = variant_of("xiangqi") else {
        panic!("xiangqi is a bundled definition")
    };
    let _bound = super::bind(id);
    let options = Options::defaults(Position::options());
    let geometry = Position::geometry_for(None).expect("a board");
    let pos = Position::from_fen(geometry, "4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1", &options)
        .expect("a position");
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let (e6, d6) = (Sq::of(Square::new(4, 5)), Sq::of(Square::new(3, 5)));
    let side = legal
        .into_iter()
        .find(|m| m.from == e6 && m.to == d6)
        .expect("the soldier steps sideways");
    let steps = pos.judge_move(side);
    assert_eq!(steps[0].rule, "crossed-river");
    assert!(
        steps[0]
            .note
            .contains("stands in the zone crossed-river-white"),
        "{}",
        steps[0].note
    );
}

/// A language server reads a definition again on every save: each version is its own variant
/// for as long as the process runs, with no limit on how many, and the same text read again
/// is the same variant.
#[test]
fn every_saved_version_of_a_definition_is_its_own_variant() {
    let base = crate::definition::load::load("chess").expect("chess is bundled");
    let version = |i: usize| {
        let mut d = base.clone();
        d.name = "saved-again-and-again".to_string();
        d.title = format!("chess, edit {i}");
        if i % 2 == 1 {
            // Without White's queen's knight: 19 first moves (a rook to b1), not 20.
            d.start = d.start.replacen("RNBQ", "R1BQ", 1);
        }
        d
    };
    let ids: Vec<Variant> = (0..1500)
        .map(|i| super::register(version(i)).expect("no limit on versions"))
        .collect();
    let mut distinct = ids.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), ids.len());
    assert_eq!(super::find("saved-again-and-again"), Some(ids[1499]));
    // An edit undone: the name stands for the version read last.
    assert_eq!(super::register(version(0)), Ok(ids[0]));
    assert_eq!(super::find("saved-again-and-again"), Some(ids[0]));
    assert_eq!(super::register(version(1499)), Ok(ids[1499]));
    assert_eq!(super::find("saved-again-and-again"), Some(ids[1499]));
    let first_moves = |v: Variant| {
        crate::with_variant!(v, R => {
            let options = Options::defaults(R::options());
            let pos = R::start(R::geometry_for(None).unwrap(), &options).unwrap();
            pos.legal_turns().len()
        })
    };
    assert_eq!(first_moves(ids[0]), 20);
    assert_eq!(first_moves(ids[1]), 19);
    assert_eq!(first_moves(ids[1498]), 20);
    assert_eq!(first_moves(ids[1499]), 19);
}

/// `variants/cypher.def`, read as the bundled definitions are.
pub(super) fn bundled_cypher() -> crate::definition::Definition {
    let load = |name: &str| {
        crate::definition::load::bundled(name)
            .map(|t| (name.to_string(), t.to_string()))
            .ok_or_else(|| format!("no definition named `{name}`"))
    };
    let text = include_str!("../../../variants/cypher.def");
    crate::definition::parse("cypher.def", text, &load).unwrap_or_else(|e| panic!("{e}"))
}

/// The engine's rules that `rule ID "clause"` may give words (`ENGINE_RULES`) are the ones
/// every catalogue has besides its pieces' and components' rules: none is left out of the
/// statement, and none it accepts is missing from the catalogue, where its words would be lost.
#[test]
fn the_engine_rules_a_definition_may_word_are_its_catalogues() {
    use crate::definition::resolve::ENGINE_RULES;
    let def = bundled_cypher();
    assert!(def
        .rules
        .iter()
        .any(|r| r.component.makes_two_action_turns()));
    let mut own: Vec<String> = def.pieces.iter().map(|p| p.move_rule()).collect();
    own.extend(def.pieces.iter().map(|p| format!("{}-capture", p.name)));
    for r in &def.rules {
        own.push(r.id.clone());
        own.extend(
            crate::definition::resolve::component_parts(r.component.name())
                .iter()
                .map(|p| r.part_id(p)),
        );
    }
    let Variant::Defined(id) = super::register(def).expect("registered") else {
        panic!("a definition");
    };
    let _bound = super::bind(id);
    let engine: Vec<&str> = super::Position::rules()
        .iter()
        .map(|r| r.id)
        .filter(|id| !own.iter().any(|o| o == id))
        .collect();
    let mut want = ENGINE_RULES.to_vec();
    want.sort();
    let mut got = engine.clone();
    got.sort();
    assert_eq!(got, want);
    // The definition's words stand in the catalogue.
    let turn = super::Position::rules()
        .iter()
        .find(|r| r.id == "not-your-turn")
        .expect("not-your-turn");
    assert!(
        turn.source.starts_with("FIDE Laws of Chess 1.1"),
        "{}",
        turn.source
    );
    assert!(
        turn.quote.starts_with("The game of chess is played"),
        "{}",
        turn.quote
    );
}

/// A rook crossing from one tower to another is explained by the no-entry's part `crossing`,
/// and a move within no region by no part of it.
#[test]
fn a_crossing_is_explained_by_its_part() {
    use super::Position;
    let load = |name: &str| {
        crate::definition::load::bundled(name)
            .map(|t| (name.to_string(), t.to_string()))
            .ok_or_else(|| format!("no definition named `{name}`"))
    };
    let text = include_str!("../../../scenarios/definitions/keep.def");
    let def = crate::definition::parse("keep.def", text, &load).unwrap_or_else(|e| panic!("{e}"));
    let Variant::Defined(id) = super::register(def).expect("registered") else {
        panic!("a definition");
    };
    let _bound = super::bind(id);
    let options = Options::defaults(Position::options());
    let geometry = Position::geometry_for(None).expect("a board");
    let pos = Position::from_fen(geometry, "3k4/8/8/8/8/8/3K4/R7 w - - 0 1", &options)
        .expect("a position");
    let rules_of = |to: &str| -> Vec<&'static str> {
        let (m, _) = pos
            .legal_turns()
            .into_iter()
            .find(|(_, t)| t.text(&geometry) == format!("Ra1-{to}"))
            .unwrap_or_else(|| panic!("Ra1-{to} is legal"));
        pos.explain_legal(m).iter().map(|s| s.rule).collect()
    };
    assert!(rules_of("h1").contains(&"towers-gate-crossing"));
    assert!(!rules_of("e1").iter().any(|r| r.starts_with("towers-gate")));
}

/// A set-up no game reaches is refused by the component that says so, and the same set-up
/// with the piece elsewhere stands (each allowing and forbidding): a `confine`, a
/// `defection`, contacts.
#[test]
fn set_ups_no_game_reaches_are_refused_by_their_components() {
    use crate::rules::{Options, Rules};
    let read = |spec: &str, fen: &str, option: Option<(&str, &str)>| {
        let variant = variant_of(spec).expect("a bundled definition");
        crate::with_variant!(variant, R => {
            let mut options = Options::defaults(R::options());
            if let Some((name, value)) = option {
                options.set(R::options(), R::name(), name, value).expect("an option");
            }
            let geometry = R::geometry_for(None).expect("a board");
            R::from_fen(geometry, fen, &options).map(|_| ()).map_err(|e| e.message().to_string())
        })
    };
    // The general outside its palace; inside it.
    let refused = read("xiangqi", "4k4/9/9/9/9/9/9/9/9/K8 w - - 0 1", None).unwrap_err();
    assert!(refused.contains("(palace)"), "{refused}");
    assert_eq!(
        read("xiangqi", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", None),
        Ok(())
    );
    // A white pawn on its sixth rank would have defected; on its fifth it stands.
    let turncoat = "scenarios/definitions/turncoat.def";
    let refused = read(turncoat, "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1", None).unwrap_err();
    assert!(refused.contains("turncoat"), "{refused}");
    assert_eq!(
        read(turncoat, "4k3/8/8/3P4/8/8/8/4K3 b - - 0 1", None),
        Ok(())
    );
    // Spies side by side: no turn leaves them so; a square apart they stand.
    let spies = "scenarios/definitions/spies.def";
    let refused = read(spies, "k7/8/8/3sS3/8/8/8/6K1 w - - 0 1", None).unwrap_err();
    assert!(refused.contains("spies-apart"), "{refused}");
    assert_eq!(
        read(spies, "k7/8/8/2s1S3/8/8/8/6K1 w - - 0 1", None),
        Ok(())
    );
    // A King beside its own Spy is refused under either reading: a loss the set-up cannot
    // show (what the last turn moved) is no game it stands for.
    for reading in ["illegal", "loses"] {
        let option = Some(("own-spy", reading));
        let refused = read(spies, "4k3/8/8/8/8/8/3S4/4K3 b - - 0 1", option).unwrap_err();
        assert!(
            refused.contains("king-beside-own-spy"),
            "{reading}: {refused}"
        );
        assert_eq!(
            read(spies, "4k3/8/8/8/8/3S4/8/4K3 b - - 0 1", option),
            Ok(())
        );
    }
}
