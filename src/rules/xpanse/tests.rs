//! Unit tests of the ChessXpanse interpreter: set-up checks, the FEN, the battle counters,
//! wars and timeouts, and the bound on the Archer's paths.

use super::*;
use crate::rules::game::{Game, PlayError};
use crate::rules::SetupErrorKind;
use crate::scenario::evaluate::Lowering;
use crate::scenario::parse::parse_turn;

pub(super) fn opts(pairs: &[(&str, &str)]) -> Options {
    let mut o = Options::defaults(OPTIONS);
    for (k, v) in pairs {
        o.set(OPTIONS, "xpanse", k, v).expect("a valid option");
    }
    o
}

pub(super) fn geometry(files: u8, ranks: u8) -> Geometry {
    Xpanse::geometry_for(Some((files, ranks))).expect("a ChessXpanse board")
}

pub(super) fn fen(size: (u8, u8), text: &str, options: &Options) -> Xpanse {
    Xpanse::from_fen(geometry(size.0, size.1), text, options)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn game(size: (u8, u8), text: &str) -> Game<Xpanse> {
    Game::new(fen(size, text, &opts(&[])), opts(&[]))
}

fn pattern(pos: &Xpanse, text: &str) -> TurnPattern {
    let written = parse_turn(text).expect("a turn");
    Lowering::<Xpanse>::new(*pos.geometry())
        .turn(&written)
        .expect("lowers")
}

fn play(g: &mut Game<Xpanse>, text: &str) {
    let p = pattern(g.position(), text);
    g.play(&p)
        .unwrap_or_else(|e| panic!("{text}: {e:?} in {}", g.position().fen()));
}

fn refused(g: &Game<Xpanse>, text: &str) -> &'static str {
    let p = pattern(g.position(), text);
    match g.resolve(&p) {
        Err(PlayError::Refused(r)) => r.rule,
        other => panic!("{text} was not refused: {other:?}"),
    }
}

fn texts(pos: &Xpanse) -> Vec<String> {
    let g = *pos.geometry();
    pos.legal_turns()
        .into_iter()
        .map(|(_, t)| t.text(&g))
        .collect()
}

#[test]
fn the_six_boards_and_no_other_no_size_and_no_start() {
    for (f, r) in INFO.boards {
        assert!(Xpanse::geometry_for(Some((*f, *r))).is_ok());
    }
    let e = Xpanse::geometry_for(Some((8, 8))).unwrap_err();
    assert_eq!(e.kind(), SetupErrorKind::BoardSize);
    assert!(
        e.to_string().contains("4x5, 5x5, 5x6, 6x6, 6x7, 7x7"),
        "{e}"
    );
    let e = Xpanse::geometry_for(None).unwrap_err();
    assert!(e.to_string().contains("variant xpanse 5x6"), "{e}");
    let e = Xpanse::start(geometry(5, 6), &opts(&[])).unwrap_err();
    assert!(e.to_string().contains("`board"), "{e}");
}

#[test]
fn set_up_checks_the_upper_limits_and_a_king_each() {
    let o = opts(&[]);
    let g = geometry(7, 7);
    let err = |f: &str| Xpanse::from_fen(g, f, &o).unwrap_err().to_string();
    assert!(err("k6/7/7/7/7/7/GG4K w").contains("at most 1"));
    assert!(err("k6/7/7/7/7/7/PPPPK2 w").contains("4 pawns"));
    assert!(err("k6/7/7/7/7/7/RRRRRK1 w").contains("5 rooks"));
    assert!(err("k6/7/7/7/7/7/7 b").contains("no king"));
    // The side to move without a King has lost it: the battle is over.
    let over = Xpanse::from_fen(g, "k6/7/7/7/7/7/7 w", &o).expect("a finished battle");
    assert_eq!(
        over.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Color::Black), Reason::Extinction))
    );
    // A count at its end only for the side that moved last.
    assert!(err("k6/7/7/7/7/7/K6 w 0/0 10/0 -/- up/down").contains("its own last move"));
    let lost = Xpanse::from_fen(g, "k6/r6/7/7/7/R6/K6 b 0/0 10/0 -/- up/down", &o).expect("valid");
    assert_eq!(lost.outcome().map(|o| o.reason), Some(Reason::KillRule));
    assert!(err("k6/7/7/7/7/7/SK5 w").contains("not a ChessXpanse piece"));
    assert!(Xpanse::from_fen(g, "kkk4/7/7/7/7/7/QQQKKK1 w", &o).is_ok());
}

#[test]
fn the_fen_carries_the_battle_counters_and_reads_back() {
    let o = opts(&[]);
    let pos = fen((5, 6), "k3r/5/1p3/5/3P1/K3R w 1/2 3/0 -/- down/up", &o);
    assert_eq!(pos.fen(), "k3r/5/1p3/5/3P1/K3R w 1/2 3/0 -/- down/up");
    assert_eq!(pos.state_key("pawn-direction", Some(Color::White)), "down");
    assert_eq!(pos.state_key("moves-without-kill", Some(Color::White)), "3");
    let again = fen((5, 6), &pos.fen(), &o);
    assert_eq!(again.fen(), pos.fen());
    let back = Xpanse::from_setup(&pos.to_setup(), &o).expect("its own setup");
    assert_eq!(back.fen(), pos.fen());
    // Two pieces or fewer: the challenge is on from the set-up.
    let lone = fen((5, 5), "k4/5/5/5/K4 w", &o);
    assert_eq!(lone.state_key("challenge-moves", Some(Color::White)), "0");
}

#[test]
fn a_pass_is_a_turn_twice_a_battle() {
    let mut g = game((5, 5), "kr3/n4/5/N4/KR3 w");
    assert!(texts(g.position()).contains(&"pass".to_string()));
    for _ in 0..4 {
        play(&mut g, "pass");
    }
    assert_eq!(g.position().state_key("passes", Some(Color::White)), "2");
    assert!(!texts(g.position()).contains(&"pass".to_string()));
    assert_eq!(refused(&g, "pass"), "pass");
    // Passes do not count for the 10 Kill Rule by default.
    assert_eq!(
        g.position()
            .state_key("moves-without-kill", Some(Color::White)),
        "0"
    );
}

#[test]
fn ten_moves_without_a_kill_lose_the_battle() {
    let mut g = game((5, 5), "kr3/n4/5/N4/KR3 w 0/0 9/9 -/- up/down");
    play(&mut g, "Rb1-b2");
    let o = g.outcome().expect("decided");
    assert_eq!(
        (o.winner, o.reason, o.rule),
        (Some(Color::Black), Reason::KillRule, "kill-rule")
    );
    // A kill resets the count (since-last-kill), or leaves it where it was (from-start).
    for (option, count) in [("since-last-kill", "0"), ("from-start", "9")] {
        let o = opts(&[("kill-rule-count", option)]);
        let start = "kr3/np3/5/N4/KR3 w 0/0 9/0 -/- up/down";
        let mut g = Game::new(fen((5, 5), start, &o), o);
        play(&mut g, "Rb1xb4");
        assert_eq!(g.outcome(), None, "{option}");
        assert_eq!(
            g.position()
                .state_key("moves-without-kill", Some(Color::White)),
            count,
            "{option}"
        );
    }
}

#[test]
fn a_side_reduced_to_two_pieces_has_two_turns_to_kill_the_last_king() {
    // Black has K and R and a pawn; White kills the pawn: Black is challenged.
    let mut g = game((5, 6), "k3r/5/2p2/1Q3/5/K3R w");
    play(&mut g, "Qb3xc4");
    assert_eq!(
        g.position()
            .state_key("challenge-moves", Some(Color::Black)),
        "0"
    );
    play(&mut g, "Re6-d6");
    play(&mut g, "Ka1-b1");
    play(&mut g, "Rd6-c6");
    let o = g.outcome().expect("challenge lost");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), Reason::Challenge)
    );
}

#[test]
fn killing_the_last_king_wins_and_the_war_counts_it() {
    let o = opts(&[]);
    let mut setup = fen((5, 6), "1r2k/5/5/5/N4/K3R w", &o).to_setup();
    setup.keys.insert(("war-length".into(), None), "3".into());
    setup
        .keys
        .insert(("battles-won".into(), Some(Color::White)), "1".into());
    let mut g = Game::new(Xpanse::from_setup(&setup, &o).expect("valid"), o);
    assert_eq!(g.position().state_key("war-winner", None), "none");
    play(&mut g, "Re1-e2");
    assert_eq!(g.outcome(), None);
    play(&mut g, "Rb6-b5");
    play(&mut g, "Re2xe6");
    let out = g.outcome().expect("extinction");
    assert_eq!(
        (out.winner, out.reason, out.rule),
        (Some(Color::White), Reason::Extinction, "extinction")
    );
    assert_eq!(
        g.position().state_key("battles-won", Some(Color::White)),
        "2"
    );
    assert_eq!(g.position().state_key("war-winner", None), "white");
    assert_eq!(refused(&g, "Ka1-a2"), "game-over");
}

#[test]
fn a_timeout_loses_the_battle_and_two_in_a_row_the_war() {
    let mut g = game((4, 5), "k3/4/4/4/K3 w");
    play(&mut g, "timeout");
    let o = g.outcome().expect("timed out");
    assert_eq!((o.winner, o.reason), (Some(Color::Black), Reason::Timeout));
    assert_eq!(g.position().state_key("timeouts", Some(Color::White)), "1");
    assert_eq!(g.position().state_key("war-winner", None), "black");

    let o = opts(&[]);
    let mut setup = fen((4, 5), "k3/4/4/4/K3 w", &o).to_setup();
    setup.keys.insert(("war-length".into(), None), "5".into());
    setup
        .keys
        .insert(("timeouts".into(), Some(Color::White)), "1".into());
    let mut g = Game::new(Xpanse::from_setup(&setup, &o).expect("valid"), o.clone());
    play(&mut g, "timeout");
    assert_eq!(g.position().state_key("war-winner", None), "black");
    // A move in between ends the run of timeouts.
    let mut g = Game::new(Xpanse::from_setup(&setup, &o).expect("valid"), o);
    play(&mut g, "Ka1-a2");
    assert_eq!(g.position().state_key("timeouts", Some(Color::White)), "0");
}

#[test]
fn draws_are_refused_and_check_claims_too() {
    let g = game((4, 5), "k3/4/4/4/KQ2 w");
    assert_eq!(refused(&g, "draw"), "no-draws");
    let p = pattern(g.position(), "Qb1-b5+");
    assert!(matches!(g.clone().play(&p), Err(PlayError::Refused(r)) if r.rule == "check-claim"));
    assert_eq!(g.position().in_check(), None);
}

#[test]
fn a_king_may_move_into_attack_and_stay_attacked() {
    // The black rook on b5 attacks the b file; the white King steps onto it.
    let pos = fen((4, 5), "kr2/4/4/4/K3 w", &opts(&[]));
    let t = texts(&pos);
    assert!(t.contains(&"Ka1-b1".to_string()), "{t:?}");
    assert!(t.contains(&"Ka1-b2".to_string()), "{t:?}");
}

#[test]
fn with_no_turn_left_a_side_loses_or_hands_the_move_back() {
    // Ghost Mode: White's pawns move down, so b1 is dormant and a2, b2 are blocked by their
    // own side; the King on a1 is walled in, and both passes are spent.
    let boxed = "3k/4/4/PP2/KP2 w 2/0 0/0 -/- down/down";
    let loses = fen((4, 5), boxed, &opts(&[]));
    assert!(texts(&loses).is_empty());
    let o = loses.outcome().expect("no move loses");
    assert_eq!(
        (o.winner, o.reason, o.rule),
        (Some(Color::Black), Reason::NoMove, "no-legal-move")
    );
    let passes = fen((4, 5), boxed, &opts(&[("no-legal-move", "passes")]));
    assert_eq!(texts(&passes), ["pass"]);
    assert_eq!(passes.outcome(), None);
    let mut next = passes.clone();
    let m = next.legal_turns()[0].0;
    next.play(m);
    assert_eq!(next.state_key("passes", Some(Color::White)), "2");
    assert_eq!(next.turn(), Color::Black);
}

#[test]
fn the_archers_paths_are_bounded_on_the_most_crowded_board() {
    // The Archer on d4 of a 7x7 board, every square of its colour class (files b d f, ranks
    // 2 4 6) holding a piece of its own side: ricochets chain through all of them, and the
    // path bound (no square stopped on twice) keeps the list finite.
    let o = opts(&[]);
    let pos = fen((7, 7), "k6/1N1R1N1/7/1B1A1B1/7/1Q1R1Q1/K6 w", &o);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let archer: Vec<&Move> = moves
        .iter()
        .filter(|m| m.from == Sq::of(Square::new(3, 3)).0)
        .collect();
    assert!(archer.len() > 1000, "{}", archer.len());
    assert!(archer.iter().all(|m| m.n as usize <= MAX_LEGS));
    // No path stops twice on a square, its origin included.
    for m in &archer {
        let mut seen = vec![m.from];
        for (s, _) in m.legs() {
            assert!(!seen.contains(&s.0), "{m:?}");
            seen.push(s.0);
        }
    }
}

/// The Archer's sixteen squares of a 7x7 board all taken by its side: more than a million
/// paths when White is to move.
const SWARM: &str = "B1B1B1B/1k5/R1R1R1B/7/Q1A1Q1R/7/K1K1K1Q";

#[test]
fn a_position_with_more_turns_than_arbiter_lists_is_refused_and_never_counted() {
    let o = opts(&[]);
    let g = geometry(7, 7);
    let e = Xpanse::from_fen(g, &format!("{SWARM} w"), &o).unwrap_err();
    assert!(
        e.to_string().contains("more than 1000000 legal turns"),
        "{e}"
    );
    // Black to move has a handful of turns; every one of them hands White the swarm.
    let mut game = Game::new(fen((7, 7), &format!("{SWARM} b"), &o), o);
    let p = pattern(game.position(), "Kb6-b5");
    assert_eq!(
        game.play(&p),
        Err(PlayError::TooManyTurns(Xpanse::MAX_TURNS))
    );
    let found =
        crate::rules::perft_within(game.position(), 2, &mut crate::rules::Budget::unlimited());
    assert_eq!(
        found,
        Err(crate::rules::Stop::TooManyTurns {
            limit: Xpanse::MAX_TURNS
        })
    );
    // The generator stops just past the bound instead of listing them all.
    let mut next = game.position().clone();
    let m = next.legal_turns()[0].0;
    next.play(m);
    let mut moves = Vec::new();
    next.legal_moves(&mut moves);
    assert!(moves.len() > Xpanse::MAX_TURNS && moves.len() < Xpanse::MAX_TURNS + 64);
}
