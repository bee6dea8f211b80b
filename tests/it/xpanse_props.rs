//! Property tests of ChessXpanse over random legal playouts on each of the six boards: random
//! set-ups within the Nine Pieces limits (one to three Kings a side, at most one Gatekeeper,
//! Mage and Archer, ...), random pawn directions and counters, under random readings of every
//! option. Along each playout: perft(1) counts the legal turns, each turn's canonical text
//! (`Ac1-c3-e5`, `c4-c5; reborn c1`, `pass`) resolves back to it, the FEN and the set-up
//! round-trip, and every invariant holds.
//!
//! The Magic Pieces' paths multiply with every ricochet (a crowded 7x7 board can have millions
//! of legal turns), so positions whose paths exceed what the fuzz targets list
//! ([`XPANSE_PATH_LEGS`]) are not set up, and a playout stops before one; in positions with
//! more than [`ALL_TEXTS`] turns a spread of the turns has its text resolved.

// Playouts stop before a position whose paths are too many to list
// (`common::playout_while` with `listable`).
#[allow(dead_code)]
use crate::common;

use arbiter::fuzzing::{xpanse_paths_within, XPANSE_PATH_LEGS};
use arbiter::rules::game::Resolved;
use arbiter::rules::xpanse::{Xpanse, INFO, LIMITS, OPTIONS};
use arbiter::rules::{Color, Game, Options, Piece, Reason, Role, Rules, Setup, Square};
use arbiter::scenario::evaluate::Lowering;
use arbiter::scenario::parse::parse_turn;
use proptest::prelude::*;
use proptest::strategy::ValueTree;

/// Positions with at most this many legal turns have every turn's text resolved.
const ALL_TEXTS: usize = 120;
/// In larger ones, this many turns, spread over the sorted list.
const SAMPLE: usize = 12;

/// A random battle: the pieces of each side (role and count), where they stand, and the
/// counters and readings.
#[derive(Clone, Debug)]
struct Battle {
    board: usize,
    pieces: [Vec<(Role, u8)>; 2],
    /// Seeds the order in which the squares are taken.
    placement: u64,
    /// The most squares filled, in percent of the board.
    fill: usize,
    black_to_move: bool,
    up: [bool; 2],
    passes: [u8; 2],
    without_kill: [u8; 2],
    /// The index of each option's value.
    readings: Vec<usize>,
}

/// One side's pieces: a King, up to two more, and up to the limit of every other kind.
fn side() -> impl Strategy<Value = Vec<(Role, u8)>> {
    LIMITS
        .iter()
        .map(|&(role, most)| {
            let least = u8::from(role == Role::King);
            (least..=most).prop_map(move |n| (role, n))
        })
        .collect::<Vec<_>>()
}

fn battle(board: usize) -> impl Strategy<Value = Battle> {
    (
        [side(), side()],
        any::<u64>(),
        30usize..=80,
        any::<bool>(),
        any::<[bool; 2]>(),
        [0u8..=2, 0u8..=2],
        [0u8..=9, 0u8..=9],
        OPTIONS
            .iter()
            .map(|d| 0..d.values.len())
            .collect::<Vec<_>>(),
    )
        .prop_map(
            move |(pieces, placement, fill, black_to_move, up, passes, without_kill, readings)| {
                Battle {
                    board,
                    pieces,
                    placement,
                    fill,
                    black_to_move,
                    up,
                    passes,
                    without_kill,
                    readings,
                }
            },
        )
}

fn options(b: &Battle) -> Options {
    let mut o = Options::defaults(Xpanse::options());
    for (d, &i) in OPTIONS.iter().zip(&b.readings) {
        o.set(OPTIONS, "xpanse", d.name, d.values[i])
            .expect("a value of the option");
    }
    o
}

/// The battle's position: the squares in an order drawn from the seed, each side's Kings
/// first, then the other pieces in turn until the board is as full as the battle says.
fn set_up(b: &Battle) -> Result<Xpanse, String> {
    let (files, ranks) = INFO.boards[b.board];
    let geometry = Xpanse::geometry_for(Some((files, ranks))).map_err(|e| e.to_string())?;
    let mut squares: Vec<Square> = geometry.squares().collect();
    let mut state = b.placement | 1;
    for i in (1..squares.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        squares.swap(i, (state % (i as u64 + 1)) as usize);
    }
    let most = squares.len() * b.fill / 100;
    // A King each first, then the other pieces alternately by side.
    let others = |c: Color, pieces: &[(Role, u8)]| -> Vec<Piece> {
        pieces
            .iter()
            .flat_map(|&(role, n)| {
                let n = if role == Role::King { n - 1 } else { n };
                std::iter::repeat_n(Piece::new(c, role), usize::from(n))
            })
            .collect()
    };
    let (white, black) = (
        others(Color::White, &b.pieces[0]),
        others(Color::Black, &b.pieces[1]),
    );
    let mut order = vec![
        Piece::new(Color::White, Role::King),
        Piece::new(Color::Black, Role::King),
    ];
    for i in 0..white.len().max(black.len()) {
        order.extend(white.get(i));
        order.extend(black.get(i));
    }
    let mut setup = Setup::empty(geometry);
    for (piece, at) in order.iter().zip(&squares).take(most.max(2)) {
        setup.board.put(*at, Some(*piece));
    }
    if b.black_to_move {
        setup.turn = Color::Black;
    }
    for c in Color::ALL {
        let i = c.index();
        let key = |k: &str| (k.to_string(), Some(c));
        let dir = if b.up[i] { "up" } else { "down" };
        setup.keys.insert(key("pawn-direction"), dir.into());
        setup.keys.insert(key("passes"), b.passes[i].to_string());
        setup
            .keys
            .insert(key("moves-without-kill"), b.without_kill[i].to_string());
    }
    Xpanse::from_setup(&setup, &options(b)).map_err(|e| e.to_string())
}

fn listable(pos: &Xpanse) -> bool {
    xpanse_paths_within(pos, XPANSE_PATH_LEGS)
}

/// [`common::turn_texts_round_trip`] for a spread of the turns.
fn some_turn_texts_round_trip(pos: &Xpanse, options: &Options) -> Result<(), String> {
    let g = *pos.board().geometry();
    let game = Game::new(pos.clone(), options.clone());
    let turns = game.legal_turns();
    for k in 0..SAMPLE {
        let (m, turn) = &turns[k * turns.len() / SAMPLE];
        let text = turn.text(&g);
        let parsed = parse_turn(&text).map_err(|p| format!("{text}: {}", p.message))?;
        let pattern = Lowering::<Xpanse>::new(g)
            .turn(&parsed)
            .map_err(|p| format!("{text}: {}", p.message))?;
        match game.resolve(&pattern) {
            Ok(Resolved::Move(back, _)) if back == *m => {}
            other => return Err(format!("{text} resolved to {other:?} in {}", pos.fen())),
        }
    }
    Ok(())
}

/// Every property in every position of the playout.
fn check(b: &Battle, choices: &[usize]) -> Result<(), TestCaseError> {
    let start = match set_up(b) {
        Ok(p) => p,
        // More turns than one position may have (`Rules::MAX_TURNS`): not a case.
        Err(e) if e.contains("legal turns") => {
            return Err(TestCaseError::reject("more turns than a position may have"))
        }
        Err(e) => return Err(TestCaseError::fail(format!("set-up refused: {e}"))),
    };
    // Too many paths to list: not a case (rare, see the module's note).
    if !listable(&start) {
        return Err(TestCaseError::reject("too many paths"));
    }
    let options = options(b);
    for pos in common::playout_while(start, choices, listable) {
        let fail = TestCaseError::fail;
        common::perft_one_counts_legal_turns(&pos, &options).map_err(fail)?;
        // A list is read back (three evaluations of a scenario holding every turn) where every
        // text is resolved too; lists of tens of thousands of turns are the robustness tests'.
        if pos.count_legal() as usize <= ALL_TEXTS {
            common::turn_texts_round_trip(&pos, &options).map_err(fail)?;
            common::moves_list_reads_back(&pos, &options).map_err(fail)?;
        } else {
            some_turn_texts_round_trip(&pos, &options).map_err(fail)?;
        }
        common::fen_and_setup_round_trip(&pos, &options).map_err(fail)?;
        common::invariants_hold(&pos).map_err(fail)?;
    }
    Ok(())
}

/// Whether the battle was decided by its last turn (rather than by having no turn left,
/// which the position shows by itself).
fn decided(pos: &Xpanse) -> bool {
    pos.outcome().is_some_and(|o| o.reason != Reason::NoMove)
}

fn choices() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(any::<usize>(), 0..60)
}

macro_rules! board_tests {
    ($($name:ident: $board:expr;)*) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(common::cases(48)))]
            $(
                /// perft(1) counts the legal turns; each turn's canonical text resolves back
                /// to it; the FEN and the set-up round-trip; the list of the legal turns
                /// reads back as `expect moves = { ... }`, blessed or not; every invariant
                /// holds.
                #[test]
                fn $name(b in battle($board), choices in choices()) {
                    check(&b, &choices)?;
                }
            )*
        }
    };
}

board_tests! {
    every_property_holds_along_random_playouts_on_4x5: 0;
    every_property_holds_along_random_playouts_on_5x5: 1;
    every_property_holds_along_random_playouts_on_5x6: 2;
    every_property_holds_along_random_playouts_on_6x6: 3;
    every_property_holds_along_random_playouts_on_6x7: 4;
    every_property_holds_along_random_playouts_on_7x7: 5;
}

/// The generator's battles set up (every one is valid, though a rare one has more turns than
/// a position may have, which `check` rejects as a case) and most are listable, so the
/// properties above run on real cases; and they are crowded.
#[test]
fn random_battles_set_up_and_are_mostly_listable() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for board in 0..INFO.boards.len() {
        let (mut listed, mut pieces) = (0, 0);
        for _ in 0..60 {
            let b = battle(board)
                .new_tree(&mut runner)
                .expect("a battle")
                .current();
            let pos = match set_up(&b) {
                Ok(pos) => pos,
                Err(e) if e.contains("legal turns") => continue,
                Err(e) => panic!("{b:?}: {e}"),
            };
            listed += usize::from(listable(&pos));
            pieces += pos.board().pieces().count();
        }
        let (files, ranks) = INFO.boards[board];
        assert!(listed >= 50, "{files}x{ranks}: {listed} of 60 listable");
        assert!(
            pieces >= 60 * usize::from(files) * usize::from(ranks) / 4,
            "{files}x{ranks}: {pieces} pieces in 60 battles"
        );
    }
}

/// The FEN (and the set-up) that ChessXpanse writes for a battle its last turn decided reads
/// back as that decided battle: the counter that decided it (`challenge-moves 2`,
/// `moves-without-kill 10`) or the loser's missing King says so. Found by the properties
/// above, when the reader refused those values.
#[test]
fn decided_battles_round_trip_through_the_fen() {
    let o = Options::defaults(Xpanse::options());
    let mut failures = Vec::new();
    for ((files, ranks), fen, turns) in [
        // White (K and R) is challenged and kills no King in two turns.
        ((4, 5), "k3/4/4/4/KR2 w", &["Rb1-b2", "a5-a4", "Rb2-b3"][..]),
        // White's tenth move without a kill.
        (
            (5, 5),
            "kr3/n4/5/N4/KR3 w 0/0 9/9 -/- up/down",
            &["Rb1-c1"][..],
        ),
        // White kills Black's last King.
        ((4, 5), "k3/R3/4/4/K3 w", &["Ra4xa5"][..]),
    ] {
        let g = Xpanse::geometry_for(Some((files, ranks))).unwrap();
        let mut game = Game::new(Xpanse::from_fen(g, fen, &o).unwrap(), o.clone());
        for t in turns {
            let pattern = Lowering::<Xpanse>::new(g)
                .turn(&parse_turn(t).unwrap())
                .unwrap();
            game.play(&pattern).unwrap_or_else(|e| panic!("{t}: {e:?}"));
        }
        assert!(decided(game.position()), "{fen}");
        let written = game.position().fen();
        if let Err(e) = common::fen_and_setup_round_trip(game.position(), &o) {
            failures.push(format!("{fen} then {}: {written}: {e}", turns.join(" ")));
        }
        let again = Xpanse::from_fen(g, &written, &o).expect("reads back");
        assert_eq!(again.outcome(), game.position().outcome(), "{written}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
