use super::*;
use crate::rules::game::{Game, PlayError, Resolved};
use crate::rules::perft;
use crate::scenario::evaluate::Lowering;
use crate::scenario::parse::parse_turn;

pub(super) fn opts(pins: &[(&str, &str)]) -> Options {
    let mut o = Options::defaults(Cypher::options());
    for (k, v) in pins {
        o.set(Cypher::options(), "cypher", k, v)
            .expect("a known option");
    }
    o
}

pub(super) fn sq(s: &str) -> Square {
    Cypher::geometry().parse_square(s).expect("a square")
}

/// A position from placements such as `Ke2 Qd2 Sd0 a3`, White to move unless `black`.
pub(super) fn setup(
    white: &str,
    black: &str,
    black_to_move: bool,
    keys: &[(&str, Option<Color>, &str)],
) -> Setup {
    let mut s = Setup::empty(Cypher::geometry());
    for (text, color) in [(white, Color::White), (black, Color::Black)] {
        for tok in text.split_whitespace() {
            let (role, at) = match tok.chars().next() {
                Some(c) if c.is_ascii_uppercase() => (Role::from_letter(c).unwrap(), &tok[1..]),
                _ => (Role::Pawn, tok),
            };
            s.board.put(sq(at), Some(Piece::new(color, role)));
        }
    }
    if black_to_move {
        s.turn = Color::Black;
    }
    for (k, c, v) in keys {
        s.keys.insert((k.to_string(), *c), v.to_string());
    }
    s
}

fn game_with(
    white: &str,
    black: &str,
    black_to_move: bool,
    pins: &[(&str, &str)],
    keys: &[(&str, Option<Color>, &str)],
) -> Game<Cypher> {
    let o = opts(pins);
    let p = match Cypher::from_setup(&setup(white, black, black_to_move, keys), &o) {
        Ok(p) => p,
        Err(e) => panic!("bad setup {white} / {black}: {e}"),
    };
    Game::new(p, o)
}

fn game(white: &str, black: &str) -> Game<Cypher> {
    game_with(white, black, false, &[], &[])
}

fn pattern(text: &str) -> TurnPattern {
    let parsed =
        parse_turn(text).unwrap_or_else(|p| panic!("`{text}` does not parse: {}", p.message));
    Lowering::<Cypher>::new(Cypher::geometry())
        .turn(&parsed)
        .unwrap_or_else(|p| panic!("`{text}`: {}", p.message))
}

fn refused(g: &Game<Cypher>, text: &str) -> Refusal {
    match g.resolve(&pattern(text)) {
        Err(PlayError::Refused(r)) => r,
        other => panic!("`{text}` is not refused: {other:?}"),
    }
}

#[track_caller]
fn assert_refused(g: &Game<Cypher>, text: &str, rule: &str) {
    let r = refused(g, text);
    assert_eq!(r.rule, rule, "`{text}`: {}", r.reason);
    assert!(!r.reason.is_empty());
    assert!(
        RULES.iter().any(|d| d.id == r.rule),
        "{} not in the catalogue",
        r.rule
    );
}

#[track_caller]
fn assert_legal(g: &Game<Cypher>, text: &str) {
    match g.resolve(&pattern(text)) {
        Ok(Resolved::Move(..)) => {}
        other => panic!("`{text}` is not legal: {other:?}"),
    }
}

#[track_caller]
fn play(g: &mut Game<Cypher>, text: &str) {
    if let Err(e) = g.play(&pattern(text)) {
        panic!("`{text}` refused: {e:?}");
    }
}

#[track_caller]
fn assert_result(g: &Game<Cypher>, winner: Option<Color>, reason: Reason, rule: &str) {
    let o = g.outcome().expect("a result");
    assert_eq!((o.winner, o.reason, o.rule), (winner, reason, rule));
    assert!(RULES.iter().any(|d| d.id == o.rule));
}

// Kings and Spies out of the way.
const WK: &str = "Kb2 Sh0";
const BK: &str = "Kb8 Sh10";

#[test]
fn start_position_facts() {
    let o = opts(&[]);
    let p = Cypher::start(Cypher::geometry(), &o).expect("the start position");
    assert_eq!(p.fen(), START_FEN);
    let g = Game::new(p.clone(), o);
    let from_d0 = g
        .legal_turns()
        .iter()
        .filter(|(_, t)| t.first_origin() == Some(sq("d0")))
        .count();
    assert_eq!(from_d0, 9);
    assert_eq!(p.zone(sq("d0")), Some("court"));
    assert_eq!(p.zone(sq("z5")), Some("court"));
    assert_eq!(p.zone(sq("a5")), Some("border"));
    assert_eq!(p.zone(sq("h5")), Some("border"));
    assert_eq!(p.zone(sq("e4")), Some("field"));
    assert_eq!(p.zone(sq("i7")), Some("court"));
    assert_eq!(p.in_check(), Some(false));
    assert_eq!(g.outcome(), None);
}

#[test]
fn perft_from_the_start() {
    let p = Cypher::start(Cypher::geometry(), &opts(&[])).expect("the start position");
    assert_eq!(perft(&p, 1), 27);
    assert_eq!(perft(&p, 2), 729);
    assert_eq!(perft(&p, 3), 26153);
    let t = std::time::Instant::now();
    let n = perft(&p, 4);
    println!("cypher perft 4 = {n} in {:?}", t.elapsed());
    assert_eq!(n, 937335);
}

#[test]
fn fen_round_trip_and_short_fen() {
    let o = opts(&[]);
    let fen = "4s5/10/4k5/10/10/3Q6/10/10/10/1K8/4S5 b WB 2/1 -";
    let p = Cypher::from_fen(Cypher::geometry(), fen, &o).unwrap();
    assert_eq!(p.fen(), fen);
    assert_eq!(p.state_key("prisoners", Some(Color::White)), "2");
    assert_eq!(p.state_key("infiltration-used", Some(Color::Black)), "yes");
    let again = Cypher::from_setup(&p.to_setup(), &o).unwrap();
    assert_eq!(again.fen(), fen);
    let short = Cypher::from_fen(
        Cypher::geometry(),
        "4s5/10/5k4/10/10/10/10/10/10/1K8/4S5 w",
        &o,
    )
    .unwrap();
    assert_eq!(
        short.fen(),
        "4s5/10/5k4/10/10/10/10/10/10/1K8/4S5 w - 0/0 -"
    );
    assert!(Cypher::from_fen(
        Cypher::geometry(),
        "4s5/10/4k5/10/10/10/10/10/10/1K8/P3S5 w",
        &o
    )
    .is_err());
    assert!(Cypher::from_fen(
        Cypher::geometry(),
        "4s5/10/10/10/10/10/10/10/10/1K8/4S5 w",
        &o
    )
    .is_err());
}

#[test]
fn setups_are_validated() {
    let o = opts(&[]);
    for (w, b) in [
        ("Kb2 Sh0 Pz4", BK), // pawn in Court
        ("Kb2 Sh0 Pe9", BK), // pawn on its last Field row
        ("Kb2 Sh0 Sg0", BK), // two spies
        ("Kb2 Sc3", BK),     // king beside own spy
        ("Kb2 Mc5 Sh0", BK), // not a cypher piece
        ("Sh0", BK),         // no king
    ] {
        assert!(
            Cypher::from_setup(&setup(w, b, false, &[]), &o).is_err(),
            "{w}"
        );
    }
}

#[test]
fn generic_refusals() {
    let g = game("Kb2 Sh0 Re3 Ne4 Bc3", "Kb8 Sh10 Qe7");
    assert_refused(&g, "Qe7-e6", "not-your-turn");
    assert_refused(&g, "f4-f5", "no-piece-there");
    assert_refused(&g, "Qe3-e5", "no-such-piece");
    assert_refused(&g, "Re3-e4", "own-piece-on-target");
    assert_refused(&g, "Re3-f4", "rook-move");
    assert_refused(&g, "Bc3-c4", "bishop-move");
    assert_refused(&g, "Kb2-b4", "king-move");
    assert_refused(&g, "Sh0-g2", "spy-move");
    assert_refused(&g, "Re3xe2", "capture-mark");
    assert_refused(&g, "P@c5; Re3-e2", "turn-length");
    assert_refused(&g, "pass", "no-such-action");
    assert_refused(&g, "O-O", "no-such-action");
    assert_refused(&g, "Sh0-h1; Re3-e2; Bc3-d4", "one-entry-per-exit");
    let g = game("Kb2 Sh0 Qd2 Rd3", "Kb8 Sh10");
    assert_refused(&g, "Qd2-d5", "blocked");
}

#[test]
fn pawns() {
    let g = game("Kb2 Sh0 e3 a4 g4", "Kb8 Sh10 Qz5 f6 e4");
    assert_refused(&g, "e3-e5", "pawn-move");
    assert_refused(&g, "e3-e4", "pawn-capture");
    assert_refused(&g, "e3-d4", "pawn-capture");
    assert_refused(&g, "a4xz5", "pawn-not-on-court");
    assert_legal(&g, "a4-a5");
    assert_legal(&g, "g4-g5");
}

#[test]
fn knights_by_zone() {
    let g = game("Kb2 Sh0 Nd3 Nd5 Nz3 Nc5", "Kg8 Sh10");
    assert_refused(&g, "Nd3-e6", "knight-field");
    assert_legal(&g, "Nd3-e5");
    assert_refused(&g, "Nd5-d7", "knight-border");
    assert_legal(&g, "Nd5-e8");
    assert_legal(&g, "Nd5-c7");
    assert_refused(&g, "Nz3-b4", "knight-court-exit");
    assert_legal(&g, "Nz3-a6");
    assert_refused(&g, "Nc5-z6", "knight-court-entry");
    assert_refused(&g, "Sh0-h1; Nc5-z6", "knight-court-entry");
    assert_refused(&g, "Nc5-c7", "knight-border");
    assert_legal(&g, "Nc5-a4");
    assert_refused(&g, "Nd3-b2", "own-piece-on-target");
}

#[test]
fn zone_captures() {
    let g = game("Kb2 Sh0 Re3 Ra5 Ri5 Bc3", "Kg8 Qd4 Ne5 Be10 Qe7 Sc7 f2");
    assert_refused(&g, "Bc3xd4", "field-sanctuary");
    assert_legal(&g, "Bc3-b4");
    assert_refused(&g, "Re3xe5", "field-reach");
    assert_refused(&g, "Ra5xe5", "border-sanctuary");
    assert_refused(&g, "Ri5xe5", "court-reach");
    assert_refused(&g, "Sh0xf2", "spy-capture-powers");
    let g = game("Kb2 Sh0 Re5 Qb4", "Kg8 Be10 Qe7 Sc7 Rz6");
    assert_legal(&g, "Re5xe7");
    assert_legal(&g, "Re5-e6");
    assert_refused(&g, "Qb4xz6", "field-reach");
    let g = game("Kb2 Sh0 Rd5 Qb4", "Kg8 Be10 Qd7 Sc7");
    assert_legal(&g, "Rd5xd7");
    let g = game("Kb2 Sh0 Rc5", "Kg8 Sc7 Qe10 Bc10");
    assert_refused(&g, "Rc5xc7", "spy-immunity");
    let g = game("Kb2 Sh0 Re5", "Kg8 Sh10 Be10");
    assert_refused(&g, "Re5xe10", "court-sanctuary");
    let g = game("Kb2 Re3 Sh0", "Ke7 Sh10");
    assert_refused(&g, "Re3xe7", "no-king-capture");
}

#[test]
fn spy_captures_court_majors_from_court_only() {
    let g = game("Kb2 Si4", "Kb8 Sh10 Qi8 Be4");
    assert_legal(&g, "Si4xi8");
    assert_refused(&g, "Si4xe4", "spy-capture-powers");
    let g = game("Kg2 Sc3", "Kb8 Sh10 Qz3");
    assert_refused(&g, "Sc3xz3", "spy-capture-powers");
}

#[test]
fn spy_captures_pawns_option() {
    let white = "Kb2 Sh0";
    let black = "Kb8 Sh10 e3";
    assert_refused(&game(white, black), "Sh0xe3", "spy-capture-powers");
    assert_legal(
        &game_with(white, black, false, &[("spy-captures-pawns", "yes")], &[]),
        "Sh0xe3",
    );
}

#[test]
fn retake_on_the_very_next_turn_only() {
    let mut g = game_with("Kb2 Sh0 Bd4 Rg4 a3", "Kb8 Sh10 Qd10 h7", true, &[], &[]);
    play(&mut g, "Qd10xd4");
    assert_eq!(g.position().state_key("retake", None), "d4");
    assert_legal(&g, "Rg4xd4");
    play(&mut g, "Rg4xd4");
    assert_eq!(g.position().state_key("retake", None), "-");

    let mut g = game_with("Kb2 Sh0 Bd4 Rg4 a3", "Kb8 Sh10 Qd10 h7", true, &[], &[]);
    play(&mut g, "Qd10xd4");
    play(&mut g, "a3-a4");
    play(&mut g, "h7-h6");
    assert_refused(&g, "Rg4xd4", "field-sanctuary");

    // A capture of a pawn, or by the King, opens no re-take.
    let mut g = game_with("Kb2 Sh0 d4 Rg4", "Kb8 Sh10 Qd10", true, &[], &[]);
    play(&mut g, "Qd10xd4");
    assert_eq!(g.position().state_key("retake", None), "-");
    assert_refused(&g, "Rg4xd4", "field-sanctuary");
}

#[test]
fn check_rules() {
    // A Border rook checks, a Field rook does not.
    let g = game("Ke3 Sh0", "Kb8 Sh10 Rd5");
    assert_refused(&g, "Ke3-d3", "own-king-in-check");
    let g = game("Ke3 Sh0", "Kb8 Sh10 Rd7");
    assert_legal(&g, "Ke3-d3");
    // Field and Border Spies are transparent for check.
    let g = game("Ke3 Sh0", "Kb8 Rz3 Sc3");
    assert_eq!(g.position().in_check(), Some(true));
    // A Court King is never in check.
    let g = game("Kz3 Sh0", "Kb8 Sh10 Rd3 Qb5");
    assert_eq!(g.position().in_check(), Some(false));
    assert!(g
        .position()
        .check_invariant("court-king-never-in-check")
        .is_ok());
    // Border Kings stay apart.
    let g = game("Kd4 Sh0", "Kf5 Sh10");
    assert_refused(&g, "Kd4-e5", "border-kings-apart");
}

#[test]
fn check_options() {
    let field_spy = |v| game_with("Ke3 Sh0", "Kb8 Sc3", false, &[("field-spy-checks", v)], &[]);
    assert_eq!(field_spy("no").position().in_check(), Some(false));
    assert_eq!(field_spy("yes").position().in_check(), Some(true));
    let kings = |v| {
        game_with(
            "Kd4 Sh0",
            "Ke5 Sh10",
            false,
            &[("border-king-beside-field-king", v)],
            &[],
        )
    };
    assert_eq!(kings("check").position().in_check(), Some(true));
    assert_eq!(kings("allowed").position().in_check(), Some(false));
    let pawn = |v| {
        game_with(
            "Ke4 Sh0",
            "Kb8 Sh10 d5",
            false,
            &[("border-pawn-checks", v)],
            &[],
        )
    };
    assert_eq!(pawn("yes").position().in_check(), Some(true));
    assert_eq!(pawn("no").position().in_check(), Some(false));
}

#[test]
fn court_entry() {
    let g = game("Ke4 Qd2 Sd0 Nc5 Rz3", "Ke8 Sd10 Qb8");
    assert_legal(&g, "Sd0-d1; Qd2-z6");
    assert_legal(&g, "Sd0-d1");
    assert_refused(&g, "Qd2-z6", "court-entry-trigger");
    assert_refused(&g, "Sd0-d1; Rz3-z4", "court-entry-trigger");
    assert_refused(&g, "Sd0-d1; Qd2-d3", "court-entry-trigger");
    assert_refused(&g, "Sd0-c0; Qd2-z6", "court-entry-trigger");
    assert_refused(&g, "Sd0-d1; Ke4-e5", "court-entry-trigger");
    assert_refused(&g, "Sd0-d1; Qd2xz6", "capture-mark");
    // The Spy's new square blocks the entering piece.
    assert_refused(&g, "Sd0-d1; Qd2-d0", "blocked");
    assert_legal(&g, "Sd0-c1; Qd2-d0");
    // A Court piece crosses to another Court square freely.
    assert_legal(&g, "Rz3-i3");
}

#[test]
fn king_court_entry() {
    let g = game("Ka1 Sg0", "Kf8 Sh10");
    assert_refused(&g, "Ka1-z1", "king-court-entry");
    let g = game("Ka1 Sg0", "Kh8 Sh6");
    assert_legal(&g, "Ka1-z1");
}

#[test]
fn field_king_beside_court_spy_option() {
    let white = "Ka1 Sg0";
    let black = "Kh8 Sc0";
    assert_refused(&game(white, black), "Ka1-b0", "king-court-entry");
    let mut g = game_with(
        white,
        black,
        false,
        &[("field-king-beside-court-spy", "flips")],
        &[],
    );
    play(&mut g, "Ka1-b0");
    assert_result(&g, Some(Color::White), Reason::Flip, "king-flips-spy");
}

#[test]
fn king_beside_own_spy_option() {
    let (white, black) = ("Kb2 Sd0", BK);
    assert_refused(&game(white, black), "Kb2-c1", "king-beside-own-spy");
    let mut g = game_with(
        white,
        black,
        false,
        &[("king-beside-own-spy", "loses")],
        &[],
    );
    play(&mut g, "Kb2-c1");
    assert_result(&g, Some(Color::Black), Reason::Flip, "king-beside-own-spy");
}

#[test]
fn spy_beside_enemy_spy_option() {
    let (white, black) = (WK, "Kb8 Sf2");
    assert_refused(&game(white, black), "Sh0-g1", "spy-beside-enemy-spy");
    let mut g = game_with(
        white,
        black,
        false,
        &[("spy-beside-enemy-spy", "loses")],
        &[],
    );
    play(&mut g, "Sh0-g1");
    assert_result(&g, Some(Color::Black), Reason::Flip, "spy-beside-enemy-spy");
}

#[test]
fn spy_beside_enemy_king_option() {
    let (white, black) = (WK, "Ke2 Sh10");
    assert_refused(&game(white, black), "Sh0-f2", "spy-beside-king");
    let mut g = game_with(
        white,
        black,
        false,
        &[("spy-beside-enemy-king", "loses")],
        &[],
    );
    play(&mut g, "Sh0-f2");
    assert_result(&g, Some(Color::Black), Reason::Flip, "spy-beside-king");
    // Next to a Court King it stays illegal.
    let (white, black) = ("Kb2 Sh8", "Ke10 Sb6");
    assert_refused(&game(white, black), "Sh8-f10", "spy-beside-king");
    let g = game_with(
        white,
        black,
        false,
        &[("spy-beside-enemy-king", "loses")],
        &[],
    );
    assert_refused(&g, "Sh8-f10", "spy-beside-king");
}

#[test]
fn king_flips_spy() {
    let mut g = game("Kb2 Sh0", "Kb8 Sd3");
    play(&mut g, "Kb2-c2");
    assert_result(&g, Some(Color::White), Reason::Flip, "king-flips-spy");
    assert_refused(&g, "Kb8-b7", "game-over");
    // The flipped Spy's own check does not count against the King that flips it.
    let mut g = game("Kb2 Sh0", "Kb8 Sb4");
    assert_eq!(g.position().in_check(), Some(false));
    play(&mut g, "Kb2-b3");
    assert_result(&g, Some(Color::White), Reason::Flip, "king-flips-spy");
}

#[test]
fn court_king_beside_court_spy() {
    let g = game("Kz1 Si2", "Kh8 Sb0");
    assert_refused(&g, "Kz1-a0", "court-king-beside-court-spy");
}

#[test]
fn spy_flips_king() {
    let mut g = game("Kb2 Si5", "Ke10 Sb6");
    play(&mut g, "Si5-i10");
    assert_result(&g, Some(Color::White), Reason::Flip, "spy-flips-king");
}

#[test]
fn king_into_spy_line_option() {
    let (white, black) = ("Kh0 Sd0", "Kb8 Si10");
    let mut g = game(white, black);
    play(&mut g, "Kh0-i0");
    assert_result(&g, Some(Color::Black), Reason::Flip, "king-into-spy-line");
    let g = game_with(
        white,
        black,
        false,
        &[("king-into-spy-line", "illegal")],
        &[],
    );
    assert_refused(&g, "Kh0-i0", "king-into-spy-line");
}

#[test]
fn infiltration() {
    let white = "Ke4 Qd2 Sd0 a3";
    let black = "Kb8 Sd10";
    let g = game(white, black);
    assert_legal(&g, "Ke4-e5; Qd2-d10");
    assert_refused(&g, "Ke4-d3; Qd2-d10", "infiltration");
    assert_refused(&g, "Ke4-e5; a3-d10", "infiltration");
    assert_refused(&g, "Ke4-e5; Qd2-d9", "infiltration");
    assert_refused(&g, "Ke4-e5; Qd2xd10", "capture-mark");
    assert_refused(&g, "a3-a4; Qd2-d10", "infiltration");
    let mut g2 = g.clone();
    play(&mut g2, "Ke4-e5; Qd2-d10");
    assert_eq!(
        g2.position()
            .state_key("infiltration-used", Some(Color::White)),
        "yes"
    );
    assert_eq!(
        g2.position().board().get(sq("d10")),
        Some(Piece::new(Color::White, Role::Queen))
    );
    assert!(g2.outcome().is_none());
    for inv in INVARIANTS {
        assert!(
            g2.position().check_invariant(inv.name).is_ok(),
            "{}",
            inv.name
        );
    }
    let used = game_with(
        white,
        black,
        false,
        &[],
        &[("infiltration-used", Some(Color::White), "yes")],
    );
    assert_refused(&used, "Ke4-e5; Qd2-d10", "infiltration-once");
    // Removing the enemy King wins.
    let mut g = game("Ke4 Qd2 Sh0", "Kd10 Sb8");
    play(&mut g, "Ke4-e5; Qd2-d10");
    assert_result(&g, Some(Color::White), Reason::Infiltration, "infiltration");
}

#[test]
fn infiltration_timing_option() {
    let (white, black) = ("Ke5 Qd2 Sh0", "Kb8 Sh10");
    assert_refused(&game(white, black), "Qd2-d10", "court-entry-trigger");
    let g = game_with(
        white,
        black,
        false,
        &[("infiltration-timing", "later-turn")],
        &[],
    );
    assert_legal(&g, "Qd2-d10");
    let g = game_with(
        white,
        black,
        false,
        &[("infiltration-timing", "later-turn")],
        &[("infiltration-used", Some(Color::White), "yes")],
    );
    assert_refused(&g, "Qd2-d10", "infiltration-once");
}

#[test]
fn coup() {
    // One queen: the plain move switches it.
    let mut g = game("Kb2 Sh0 g8", "Ke6 Sh10 Qc8 Rb9");
    play(&mut g, "g8-g9");
    assert_eq!(
        g.position().board().get(sq("c8")),
        Some(Piece::new(Color::White, Role::Queen))
    );
    assert_eq!(g.position().board().get(sq("g9")), None);
    assert!(g.outcome().is_none());
    for inv in INVARIANTS {
        assert!(
            g.position().check_invariant(inv.name).is_ok(),
            "{}",
            inv.name
        );
    }
    // Two knights: the choice is named.
    let g = game("Kb2 Sh0 g8", "Ke6 Sh10 Nf9 Nc8 Rb9");
    assert_refused(&g, "g8-g9", "coup-choice");
    assert_refused(&g, "g8-g9; coup Rb9", "coup-choice");
    assert_refused(&g, "g8-g9; coup Nf7", "coup-choice");
    assert_refused(&g, "coup Nf9", "coup-choice");
    assert_legal(&g, "g8-g9; coup Nf9");
    assert_legal(&g, "g8-g9; coup Nc8");
    let g = game("Kb2 Sh0 g8", "Ke6 Sh10 Nf9 Rb9");
    assert_refused(&g, "g8-g9; coup Nf9", "coup-choice");
}

#[test]
fn coup_bare_king_option() {
    let (white, black) = ("Kb2 Sh0 g8", "Ke6 Sh10 Rb9");
    let mut g = game(white, black);
    play(&mut g, "g8-g9");
    assert_result(&g, Some(Color::White), Reason::Coup, "coup-bare-king");
    let mut g = game_with(
        white,
        black,
        false,
        &[("coup-bare-king", "before-switch")],
        &[],
    );
    play(&mut g, "g8-g9");
    assert!(g.outcome().is_none());
    let mut g = game_with(
        white,
        "Ke6 Sh10",
        false,
        &[("coup-bare-king", "before-switch")],
        &[],
    );
    play(&mut g, "g8-g9");
    assert_result(&g, Some(Color::White), Reason::Coup, "coup-bare-king");
}

#[test]
fn prisoner_release() {
    let keys = [("prisoners", Some(Color::White), "1")];
    let g = game_with(WK, "Kf8 Sh10", false, &[], &keys);
    assert_legal(&g, "P@c5");
    assert_refused(&g, "P@d4", "prisoner-release");
    assert_refused(&g, "Q@c5", "prisoner-release");
    let mut g2 = g.clone();
    play(&mut g2, "P@c5");
    assert_eq!(
        g2.position().state_key("prisoners", Some(Color::White)),
        "0"
    );
    assert!(g2
        .position()
        .check_invariant("piece-count-changes-only-by-capture-coup-infiltration-or-release")
        .is_ok());
    assert_refused(&game(WK, "Kf8 Sh10"), "P@c5", "prisoner-release");
    let g = game_with(WK, "Kf8 Sh10 Ne5", false, &[], &keys);
    assert_refused(&g, "P@e5", "prisoner-release");
    // No release while in check, none that gives check.
    let g = game_with(WK, "Kf8 Sh10 Rb5", false, &[], &keys);
    assert_refused(&g, "P@c5", "prisoner-release");
    let g = game_with(WK, "Kd6 Sh10", false, &[], &keys);
    assert_refused(&g, "P@c5", "prisoner-release");
    let g = game_with(
        WK,
        "Kd6 Sh10",
        false,
        &[("border-pawn-checks", "no")],
        &keys,
    );
    assert_legal(&g, "P@c5");
    // A captured pawn becomes a prisoner of its side.
    let mut g = game("Kb2 Sh0 Rd5", "Kf8 Sh10 d6");
    play(&mut g, "Rd5xd6");
    assert_eq!(g.position().state_key("prisoners", Some(Color::Black)), "1");
}

#[test]
fn checkmate_and_stalemate() {
    let g = game("Ka1", "Kh8 Sh10 Ra5 Rb5");
    assert_eq!(g.position().in_check(), Some(true));
    assert_result(&g, Some(Color::Black), Reason::Checkmate, "checkmate");
    let (white, black) = ("Ka1", "Kh8 Sh10 Bd5 Rb5");
    let g = game(white, black);
    assert_result(&g, None, Reason::Stalemate, "stalemate");
    let g = game_with(white, black, false, &[("stalemate", "loss")], &[]);
    assert_result(&g, Some(Color::Black), Reason::Stalemate, "stalemate");
}

#[test]
fn repetition_resignation_agreement_and_claims() {
    let mut g = Game::new(
        Cypher::start(Cypher::geometry(), &opts(&[])).expect("the start position"),
        opts(&[]),
    );
    for _ in 0..2 {
        for t in ["Rb1-a1", "Rb9-a9", "Ra1-b1", "Ra9-b9"] {
            play(&mut g, t);
        }
    }
    assert_result(&g, None, Reason::Repetition, "repetition");
    let mut g = Game::new(
        Cypher::start(Cypher::geometry(), &opts(&[])).expect("the start position"),
        opts(&[]),
    );
    assert!(
        matches!(g.play(&pattern("e3-e4+")), Err(PlayError::Refused(r)) if r.rule == "check-claim")
    );
    play(&mut g, "resign");
    assert_result(&g, Some(Color::Black), Reason::Resignation, "resignation");
    let mut g = Game::new(
        Cypher::start(Cypher::geometry(), &opts(&[])).expect("the start position"),
        opts(&[]),
    );
    play(&mut g, "draw");
    assert_result(&g, None, Reason::Agreement, "agreement");
}

#[test]
fn catalogue_is_consistent() {
    assert_eq!(OPTIONS.len(), 14);
    for o in OPTIONS {
        assert!(o.values.contains(&o.default), "{}", o.name);
        assert_eq!(o.values.len(), 2);
    }
    for id in [
        "game-over",
        "check-claim",
        "zones",
        "start-position",
        "court-crossing",
        "retake",
        "coup",
    ] {
        assert!(RULES.iter().any(|r| r.id == id), "{id}");
    }
    let mut ids: Vec<_> = RULES.iter().map(|r| r.id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), RULES.len());
    assert_eq!(INVARIANTS.len(), 7);
}

#[test]
fn the_prisoner_range_is_the_catalogue_s() {
    let values = STATE_KEYS
        .iter()
        .find(|k| k.name == "prisoners")
        .map(|k| k.values)
        .unwrap_or_default();
    assert!(values.contains(&format!("0 to {MAX_PAWNS}")), "{values}");
}

#[test]
fn invented_pieces_round_trip_through_the_fen_and_the_setup() {
    let fen = "4s5/10/5k4/10/3[NN]6/10/10/3(WD)6/10/8K1/4S5 w - 0/0 -";
    let options = Options::defaults(Cypher::options());
    let p = Cypher::from_fen(Cypher::geometry(), fen, &options).expect("a valid FEN");
    assert!(p.designed);
    assert_eq!(p.fen(), fen);
    let q = Cypher::from_setup(&p.to_setup(), &options).expect("a valid setup");
    assert_eq!(q.fen(), fen);
    // Without invented pieces the position does not pay for them.
    let start = Cypher::start(Cypher::geometry(), &options).expect("the start position");
    assert!(!start.designed);
}

#[test]
fn a_court_king_beside_the_court_spy_is_a_flip_or_no_position() {
    // Reached only by a King stepping in under `flips`: decided, and its FEN reads back.
    let fen = "10/8k1/10/10/10/10/10/s9/K9/10/10 b - 0/0 -";
    let flips = opts(&[("field-king-beside-court-spy", "flips")]);
    let p = Cypher::from_fen(Cypher::geometry(), fen, &flips).expect("a decided position");
    let o = p.outcome().expect("a flip");
    assert_eq!((o.winner, o.rule), (Some(Color::White), "king-flips-spy"));
    // Under `illegal` no turn reaches it.
    let e = Cypher::from_fen(Cypher::geometry(), fen, &opts(&[])).unwrap_err();
    assert!(e.to_string().contains("both in Court"), "{e}");
}
