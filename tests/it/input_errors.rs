//! Hostile and mistaken input through the whole pipeline (parse, evaluate, report): every
//! problem says what was wrong, where, and what is accepted; nothing panics, wraps or hangs.

use arbiter::rules::chess::Chess;
use arbiter::rules::cypher::Cypher;
use arbiter::rules::{Geometry, Options, Rules, SetupErrorKind};
use arbiter::scenario::report::FileCheck;
use proptest::prelude::*;

/// What `arbiter check` prints for a file: the report lines and the rendered problems.
fn check(src: &str) -> (String, (usize, usize)) {
    let c = FileCheck::run("t.scn", src.to_string());
    (format!("{}{}", c.text(), c.problems_text()), c.counts())
}

fn chess(body: &str) -> String {
    format!("variant chess\nscenario \"t\" {{\n{body}\n}}\n")
}

fn cypher(body: &str) -> String {
    format!("variant cypher\nscenario \"t\" {{\n{body}\n}}\n")
}

/// The file's scenario passes.
#[track_caller]
fn passes(src: &str) {
    let (out, counts) = check(src);
    assert_eq!(counts, (1, 0), "{out}");
}

/// Text without whitespace and frame characters, so that a message matches its rendering
/// however the renderer wrapped it.
fn flat(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != '│')
        .collect()
}

/// The file (or its scenario) is refused as unusable, with problems whose rendering contains
/// every one of `parts`. Returns the rendering.
#[track_caller]
fn refused(src: &str, parts: &[&str]) -> String {
    let (out, _) = check(src);
    assert!(
        out.contains("ERROR") && out.contains("error:"),
        "not refused:\n{out}"
    );
    for part in parts {
        assert!(flat(&out).contains(&flat(part)), "`{part}` not in:\n{out}");
    }
    out
}

// ---- Counters -----------------------------------------------------------------------------

#[test]
fn a_position_never_used_is_still_checked() {
    // No play and no expect after it: the wrong key is an error all the same.
    refused(
        "variant xpanse 5x6\nscenario \"t\" {\n  board { white: Ka1 Rb2 Nc3 black: Ke6 Ra6 Nd5 }\n  set war-length = 300\n}\n",
        &["invalid position", "war-length is 1"],
    );
    refused(
        &chess("  board { white: Ke1 black: Ke8 }\n  set castling = QQ"),
        &["invalid position"],
    );
    passes(&chess("  board { white: Ke1 black: Ke8 }"));
}

#[test]
fn the_fullmove_number_does_not_wrap() {
    // It used to read 0 after Black's move.
    refused(
        &chess("  start\n  set fullmove-number = 4294967295\n  play Nf3 Nf6"),
        &[
            "the fullmove number `4294967295` is too large; the accepted range is 1 to 10000",
            "t.scn:4:3",
        ],
    );
    passes(&chess(
        "  start\n  set fullmove-number = 10000\n  play Nf3 Nf6\n  expect fullmove-number = 10001",
    ));
    refused(
        &chess("  start\n  set fullmove-number = 0"),
        &["the fullmove number `0` is too small; the accepted range is 1 to 10000"],
    );
}

#[test]
fn counters_distinguish_no_number_from_too_large() {
    refused(
        &chess("  fen \"4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999\"\n  expect check"),
        &["the fullmove number `99999999999999999999` is too large; the accepted range is 1 to 10000"],
    );
    refused(
        &chess("  fen \"4k3/8/8/8/8/8/8/4K3 w - - x1 1\"\n  expect check"),
        &["the halfmove clock `x1` is not a number; write a whole number (the accepted range is 0 to 150)"],
    );
    refused(
        &chess("  start\n  set halfmove-clock = -3"),
        &["the halfmove clock `-3` is negative; the accepted range is 0 to 150"],
    );
    refused(
        &chess("  start\n  set halfmove-clock = 151"),
        &["the halfmove clock `151` is too large; the accepted range is 0 to 150"],
    );
    refused(
        &chess("  start\n  set halfmove-clock = +3"),
        &["the halfmove clock `+3` is not a number"],
    );
}

#[test]
fn the_halfmove_clock_stops_at_the_draw() {
    // At 149 under the seventy-five-move rule one more quiet move draws; the game then refuses
    // every turn, so the clock never passes the largest value a position may be given.
    passes(&chess(
        "  option move-rule-draw = seventy-five\n  fen \"4k3/8/8/8/8/8/8/4K2R w - - 149 80\"\n  play Rh2\n  expect halfmove-clock = 150\n  expect result draw by fifty-move\n  expect illegal Ke7 because game-over",
    ));
}

#[test]
fn prisoners_do_not_wrap() {
    // A capture used to make 4294967295 prisoners 0 (and panicked in a debug build).
    refused(
        &cypher("  start\n  set prisoners white = 4294967295"),
        &["the number of white prisoners `4294967295` is too large; the accepted range is 0 to 110"],
    );
    refused(
        &cypher("  fen \"4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - 0/99999999999 -\"\n  start"),
        &["the number of black prisoners `99999999999` is too large; the accepted range is 0 to 110"],
    );
    // Each side within the range, but more pawns than squares in all.
    refused(
        &cypher("  start\n  set prisoners white = 100"),
        &["16 pawns on the board and 100/0 prisoners make 116 pawns; a position holds at most 110, one per square"],
    );
}

#[test]
fn prisoners_count_up_from_the_largest_total() {
    let mut pos = Cypher::from_fen(
        Cypher::geometry(),
        "4s5/2rn2nr2/3bqkb3/10/10/4p5/3P6/10/3BQKB3/2RN2NR2/4S5 w - 0/108 -",
        &Options::defaults(Cypher::options()),
    )
    .expect("a valid position");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let capture = moves
        .into_iter()
        .find(|m| pos.describe(*m).text(&Cypher::geometry()) == "c4xd5")
        .expect("the pawn capture is legal");
    pos.play(capture);
    assert_eq!(
        pos.state_key("prisoners", Some(arbiter::rules::Color::Black)),
        "109"
    );
    // The position after the capture reads back as it is.
    let again = Cypher::from_setup(&pos.to_setup(), &Options::defaults(Cypher::options()));
    assert!(again.is_ok(), "{again:?}");
}

// ---- FEN placements ------------------------------------------------------------------------

#[test]
fn fen_placements_with_hostile_runs_are_refused() {
    let g = Geometry::lettered(8, 8);
    let o = Options::defaults(Chess::options());
    let bad = |fen: &str| match Chess::from_fen(g, fen, &o) {
        Ok(_) => panic!("accepted {fen}"),
        Err(e) => {
            assert_eq!(e.kind(), SetupErrorKind::Fen, "{e}");
            e.to_string()
        }
    };
    // A run after a piece used to overflow the file count (a panic in a debug build).
    let e = bad("4k3/8/8/8/8/8/8/K4294967295 w - - 0 1");
    assert!(
        e.contains("rank 1: a run of `4294967295` empty squares; a run is 1 to 8"),
        "{e}"
    );
    // A run too long to parse used to count as 0 squares.
    let e = bad("4k3/8/8/8/8/8/8/4K3999999999999999999999 w - - 0 1");
    assert!(
        e.contains("a run of `39999999999999999999` empty squares"),
        "{e}"
    );
    let e = bad("4k3/8/8/8/8/8/8/4K2R1 w - - 0 1");
    assert!(e.contains("rank 1 describes more than the 8 files"), "{e}");
    let e = bad("4k3/8/8/8/8/8/0/4K3 w - - 0 1");
    assert!(e.contains("rank 2: a run of `0` empty squares"), "{e}");
    let e = bad("4k3/8/8/8/8/8/8/4K2é w - - 0 1");
    assert!(e.contains("`é` is not a piece letter"), "{e}");
    // Cypher ranks are named from 0.
    let e = Cypher::from_fen(
        Cypher::geometry(),
        "4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S6 w - 0/0 -",
        &Options::defaults(Cypher::options()),
    )
    .expect_err("eleven files");
    assert_eq!(e.kind(), SetupErrorKind::Fen);
    assert!(
        e.message()
            .contains("rank 0 describes more than the 10 files"),
        "{e}"
    );
}

#[test]
fn long_values_are_quoted_cut() {
    let long = "x".repeat(100_000);
    let out = refused(
        &chess(&format!(
            "  fen \"4k3/8/8/8/8/8/8/4K3 {long} - - 0 1\"\n  expect check"
        )),
        &["the side to move `xxxxxxxxxx", "…` is neither w nor b"],
    );
    assert!(out.len() < 3_000, "{} bytes", out.len());
}

// ---- Any input -----------------------------------------------------------------------------

/// Pieces of scenario text, likely and unlikely, that random files are made of.
const FRAGMENTS: &[&str] = &[
    "variant chess\n",
    "variant cypher\n",
    "varient",
    "scenario \"s\" {\n",
    "}\n",
    "start\n",
    "expect",
    "expct",
    "legal",
    "legl",
    "illegal",
    "e2-e4",
    "Nf3",
    "Kx",
    "play",
    "set",
    "fullmove-number",
    "halfmove-clock",
    "prisoners",
    "white",
    "black",
    "=",
    "4294967295",
    "99999999999999999999",
    "0",
    "-1",
    "fen",
    "\"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"",
    "\"K4294967295\"",
    "\"\"",
    "board {",
    "white: Ke1",
    "moves count",
    "perft 2 =",
    "result",
    "#",
    "\u{FEFF}",
    "é♞",
    "\r\n",
    "\n",
    " ",
    "{",
    "\"",
    "\\",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Any file made of these pieces gives a report or problems, never a panic.
    #[test]
    fn any_file_gives_a_report(picks in prop::collection::vec(0usize..FRAGMENTS.len(), 0..60)) {
        let src: String = picks.iter().map(|&i| format!("{} ", FRAGMENTS[i])).collect();
        let (out, _) = check(&src);
        prop_assert!(!out.is_empty());
    }

    /// Any FEN text is a position or an error, in both variants.
    #[test]
    fn any_fen_is_a_position_or_an_error(
        fen in "[KQRBNPSkqrbnps0-9/ wb\\-WB]{0,80}",
    ) {
        let _ = Chess::from_fen(Geometry::lettered(8, 8), &fen, &Options::defaults(Chess::options()));
        let _ = Cypher::from_fen(Cypher::geometry(), &fen, &Options::defaults(Cypher::options()));
    }
}

// ---- Names -----------------------------------------------------------------------------------

#[test]
fn misspelt_variants_options_and_values_are_suggested() {
    use arbiter::rules::Variant;
    let e = "chesss".parse::<Variant>().expect_err("no such variant");
    assert!(
        e.starts_with("unknown variant `chesss`; variants: chess, cypher, csipgs, xpanse; bundled definitions: 3check, ai-wok,"),
        "{e}"
    );
    assert!(
        e.ends_with("; or the path of a definition (`./my-game.def`); did you mean `chess`?"),
        "{e}"
    );
    let e = "xpans".parse::<Variant>().expect_err("no such variant");
    assert!(e.ends_with("did you mean `xpanse`?"), "{e}");
    let e = "tenjiku".parse::<Variant>().expect_err("no such variant");
    assert!(
        e.starts_with("unknown variant `tenjiku`; variants: chess, cypher, csipgs, xpanse; bundled definitions: ")
            && e.ends_with("; or the path of a definition (`./my-game.def`)"),
        "{e}"
    );

    let defs = Chess::options();
    let mut o = Options::defaults(defs);
    let e = o
        .set(defs, "chess", "repetiton-draw", "fivefold")
        .expect_err("no such option");
    assert!(
        e.starts_with("unknown option `repetiton-draw`; options of chess: ")
            && e.ends_with("; did you mean `repetition-draw`?"),
        "{e}"
    );
    let e = o
        .set(defs, "chess", "repetition-draw", "fivfold")
        .expect_err("no such value");
    assert!(
        e.starts_with("option `repetition-draw` has no value `fivfold`; values: ")
            && e.ends_with("; did you mean `fivefold`?"),
        "{e}"
    );
    // Through a file.
    refused(
        "varient chess\nscenario \"t\" { start }\n",
        &["did you mean `variant`?"],
    );
    refused(
        "variant chesss\nscenario \"t\" { start }\n",
        &["did you mean `chess`?"],
    );
    refused(
        "variant chess\noption move-rule-draw = seventy-fiv\nscenario \"t\" { start }\n",
        &["did you mean `seventy-five`?"],
    );
}

#[test]
fn reasons_and_check_belong_to_the_variant() {
    refused(
        &chess("  start\n  play f3 e5 g4 Qh4#\n  expect result black wins by flip"),
        &[
            "a chess game never ends by flip; it ends by checkmate, stalemate, repetition",
            "not a reason of this variant",
        ],
    );
    refused(
        &cypher("  start\n  expect result white wins by fifty-move"),
        &["a cypher game never ends by fifty-move; it ends by checkmate, stalemate, flip"],
    );
    passes(&chess(
        "  start\n  play f3 e5 g4 Qh4#\n  expect result black wins by checkmate\n  expect check",
    ));
}

// ---- Turns and statements at random --------------------------------------------------------

/// Squares of each board, and one on neither.
const SQUARES: [&[&str]; 2] = [
    &[
        "e2", "e4", "e7", "e5", "a1", "h8", "d4", "g1", "f3", "c6", "b8", "a7", "e1", "q1",
    ],
    &[
        "d0", "d4", "d10", "z0", "i10", "e3", "e4", "e7", "e6", "c4", "d5", "f9", "e5", "q1",
    ],
];

fn turn_text(kind: usize, a: &str, b: &str, c: &str, letter: char) -> String {
    match kind % 12 {
        0 => format!("{a}-{b}"),
        1 => format!("{letter}{a}x{b}"),
        2 => format!("{letter}{b}"),
        3 => format!("{a}-{b}-{c}"),
        4 => format!("{letter}@{b}"),
        5 => format!("{a}-{b}; {letter}{b}-{c}"),
        6 => format!("{a}-{b}; coup {letter}{c}"),
        7 => format!("{a}-{b}=Q+"),
        8 => "O-O-O#".to_string(),
        9 => "pass".to_string(),
        10 => format!("{a}-{b}; reborn {c}"),
        _ => format!("buy WD; {letter}={b}"),
    }
}

fn statement(kind: usize, turn: &str, a: &str, n: &str, variant: usize) -> String {
    let key = if variant == 0 {
        [
            "fullmove-number",
            "halfmove-clock",
            "castling",
            "en-passant",
        ][kind % 4]
    } else {
        [
            "prisoners white",
            "prisoners black",
            "retake",
            "infiltration-used black",
        ][kind % 4]
    };
    match kind % 11 {
        0 => format!("play {turn}"),
        1 => format!("expect legal {turn}"),
        2 => format!("expect illegal {turn} because castling"),
        3 => format!("set {key} = {n}"),
        4 => format!("expect moves from {a} count {n}"),
        5 => format!("expect {a} = white king"),
        6 => format!("expect {key} = {n}"),
        7 => "black to move".to_string(),
        8 => format!("board {{\n white: K{a} P{a}\n black: Ke8 S{a}\n }}"),
        9 => "expect check".to_string(),
        _ => format!(
            "expect result white wins by {}",
            ["checkmate", "flip", "mate"][kind % 3]
        ),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Well-formed scenarios of random statements, turns, squares and numbers, in both
    /// variants: a report, never a panic.
    #[test]
    fn random_statements_give_a_report(
        variant in 0usize..2,
        start in 0usize..3,
        statements in prop::collection::vec(
            (0usize..100, 0usize..100, 0usize..14, 0usize..14,
             0usize..14, prop::sample::select(vec!['K', 'Q', 'N', 'P', 'S', 'B']),
             prop::sample::select(vec!["0", "1", "110", "150", "10000", "4294967296", "-", "KQkq", "e3", "yes"])),
            0..12,
        ),
    ) {
        let (name, setup) = if variant == 0 {
            ("chess", ["start", "fen \"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1\"", "fen \"4k3/8/8/8/8/8/8/4K3 w - - 150 10000\""][start])
        } else {
            ("cypher", ["start", "fen \"4s5/10/5k4/10/10/4p5/3P6/10/5K4/10/4S5 w - 0/108 -\"", "fen \"4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 b WB 0/0 -\""][start])
        };
        let mut src = format!("variant {name}\nscenario \"random\" {{\n  {setup}\n");
        for (k, t, a, b, c, letter, n) in statements {
            let sq = SQUARES[variant];
            let turn = turn_text(t, sq[a], sq[b], sq[c], letter);
            src.push_str(&format!("  {}\n", statement(k, &turn, sq[a], n, variant)));
        }
        src.push_str("}\n");
        let (out, _) = check(&src);
        prop_assert!(!out.is_empty());
    }
}

#[test]
fn huge_inputs_give_short_reports() {
    let long_name = "a".repeat(1_000_000);
    let long_line = format!(
        "  play {}Kx {}",
        "e2-e4 ".repeat(100_000),
        "e7-e5 ".repeat(100_000)
    );
    for src in [
        format!("variant {long_name}\nscenario \"t\" {{ start }}\n"),
        format!("variant chess\noption {long_name} = x\nscenario \"t\" {{ start }}\n"),
        chess(&long_line),
        chess(&format!("  fen \"{}\"", "8/".repeat(300_000))),
        chess(&format!(
            "  start\n  set fullmove-number = {}",
            "9".repeat(1_000_000)
        )),
        format!(
            "variant chess\n{}",
            "scenario \"t\" {\n  strat\n}\n".repeat(20_000)
        ),
        // A turn of 20,000 legs, and one of 20,000 actions.
        chess(&format!(
            "  start\n  expect illegal a1{}\n  play e2{}",
            "-a2-a1".repeat(10_000),
            "-e3; e3".repeat(20_000)
        )),
        cypher(&format!(
            "  start\n  expect illegal d0{}\n  play e3-e4{}",
            "-d1-d0".repeat(10_000),
            "; Qd2-z4".repeat(20_000)
        )),
        // A board as full as it can be.
        chess(&format!(
            "  board {{\n    white: Ka1 {}\n    black: Kh8\n  }}\n  expect moves count 0",
            (1..=6)
                .flat_map(
                    |r| ["a", "b", "c", "d", "e", "f", "g", "h"].map(|f| format!("Q{f}{}", r + 1))
                )
                .collect::<Vec<_>>()
                .join(" ")
        )),
    ] {
        let (out, _) = check(&src);
        // Every problem is short, however long the input. (The report lines before them
        // quote a failing statement in full: report.rs's business.)
        for problem in out.split("error:").skip(1) {
            let start: String = problem.chars().take(300).collect();
            assert!(problem.len() < 3_000, "{} bytes: {start}", problem.len());
        }
    }
}

// ---- Pieces and designs -------------------------------------------------------------------

#[test]
fn unknown_pieces_are_errors_of_the_variant_at_their_span() {
    let out = refused(
        &chess("  start\n  expect e4 = white pwn"),
        &["unknown piece `pwn`", "did you mean `pawn`?"],
    );
    assert!(out.contains("t.scn:4:21"), "{out}");
    refused(
        &chess("  start\n  expect illegal Xe4"),
        &["unknown piece `X`", "K Q R B N P"],
    );
    refused(
        &chess("  board { white: Ke1 Ze2 black: Ke8 }"),
        &["unknown piece `Z`"],
    );
}

#[test]
fn invented_pieces_are_pieces_in_every_variant_and_a_bad_design_is_an_error_at_it() {
    // Every interpreted variant takes invented pieces; in Cypher one is a major piece.
    passes(&cypher(
        "  board { white: Kd1 (WD)e4 black: Kd9 }\n  expect e4 = white (WD)\n  expect legal (WD)e4-e6\n  expect illegal (WD)e4-f5 because invented-piece",
    ));
    passes(&cypher(
        "  start\n  expect illegal (Wfc(DNFA)scDsHbmH)@d6 because prisoner-release\n  expect illegal (WD)d3-d4 because no-such-piece",
    ));
    // A design that is no design is an error at the design itself: its line and column.
    for src in [
        cypher("  board { white: Kd1 (WX)e4 black: Kd9 }"),
        cypher("  start\n  expect e4 = white (WX)"),
    ] {
        let out = refused(&src, &["`(WX)` is not a design"]);
        let at = src.find('(').expect("a design");
        let line = src[..at].matches('\n').count() + 1;
        let col = at - src[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
        assert!(out.contains(&format!("t.scn:{line}:{col}")), "{src}: {out}");
    }
    // Buying and redesigning are actions that chess refuses, not unknown names.
    passes(&chess(
        "  start\n  expect illegal buy Wfc(DNFA)scDsHbmH because no-such-action\n  expect illegal FbDbcA=fc(DF) because no-such-action",
    ));
    // In chess an invented piece is a piece; a design that is no design is an error at it.
    passes(&chess("  board { white: Ke1 (WD)e4 black: Ke8 }\n  expect e4 = white (WD)\n  expect illegal e2-e4=(WD) because no-piece-there"));
    refused(
        &chess("  board { white: Ke1 (WX)e4 black: Ke8 }"),
        &["`(WX)` is not a design"],
    );
}
