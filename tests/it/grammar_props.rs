//! Property tests of the scenario parser: it never panics, whatever the input, and the spans
//! it reports stay inside the input.

use arbiter::scenario::diagnostic::render;
use arbiter::scenario::parse::{parse_file, parse_turn};
use proptest::prelude::*;

const VALID: &str = r#"variant cypher
option king-beside-own-spy = illegal      # pin an interpretation for the whole file

scenario "A Field bishop cannot capture a Field queen" {
  rule field-sanctuary
  board {
    white: Ke2 Bc3 Sd0 (WD)e4 a3
    black: Ke8 Qd4 Sd10
  }
  white to move
  set treasury white = 3
  set reserve black = (WD) (WD)
  expect illegal Bc3xd4 because field-sanctuary
  expect legal Bc3-b4
  expect moves = { 1. Kd2 Nbd7 R1a3 exd5 e8=Q e7-e8=Q+ O-O O-O-O# Ac1-c3-e5 P@c5 (WD)xe5 }
}

scenario "From the start, a pawn steps one square" {
  start
  play 12. e3-e4 12... e7-e6 Sd0-d4; Qd2-z4 g8-g9; coup Nf9 c4-c5; reborn c1 pass buy WD Q=BL
  expect e4 = white pawn
  expect zone d0 = court
  expect moves from d0 count 9             # along the back row; d1 and e1 touch the king
  expect moves from d0 = { d1 z0 }
  expect result white wins by checkmate
  expect perft 2 = 400
  expect win in 2 for black
  expect cost (WD) = 5
  expect invariant one-king-each to depth 3
  expect checks white = 2
  expect no check
  fen "8/8/8/8/8/8/8/8 w - - 0 1"
  play resign draw
}
"#;

/// Checks the problems of a failed parse: each span lies inside the source, and each renders.
fn check(src: &str) {
    if let Err(problems) = parse_file(src) {
        assert!(!problems.is_empty());
        for p in &problems {
            assert!(
                p.span.start <= p.span.end && p.span.end <= src.len(),
                "{p:?}"
            );
            let _ = render(p, "prop.scn", src);
        }
    }
}

#[derive(Debug, Clone)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, String),
    Replace(usize, usize, String),
}

fn apply(src: &str, edits: &[Edit]) -> String {
    let mut s: Vec<char> = src.chars().collect();
    for e in edits {
        let len = s.len().max(1);
        match e {
            Edit::Delete(at, n) => {
                let at = at % len;
                let end = (at + n).min(s.len());
                if at < end {
                    s.drain(at..end);
                }
            }
            Edit::Insert(at, text) => {
                let at = (at % len).min(s.len());
                s.splice(at..at, text.chars());
            }
            Edit::Replace(at, n, text) => {
                let at = (at % len).min(s.len());
                let end = (at + n).min(s.len());
                s.splice(at..end, text.chars());
            }
        }
    }
    s.into_iter().collect()
}

fn edit() -> impl Strategy<Value = Edit> {
    let text = prop_oneof![
        "[ -~]{0,6}",
        Just("{".to_string()),
        Just("}".to_string()),
        Just("\"".to_string()),
        Just("\n".to_string()),
        Just("#".to_string()),
        Just("scenario".to_string()),
        Just("99999999999999999999999".to_string()),
        Just("é♞\u{0}".to_string()),
        Just("\\".to_string()),
    ];
    prop_oneof![
        (any::<usize>(), 1usize..8).prop_map(|(a, n)| Edit::Delete(a, n)),
        (any::<usize>(), text.clone()).prop_map(|(a, t)| Edit::Insert(a, t)),
        (any::<usize>(), 1usize..6, text).prop_map(|(a, n, t)| Edit::Replace(a, n, t)),
    ]
}

/// Turns as a rules module would print them: coordinate and short moves, drops, castling and
/// the variants' special actions, maybe joined by `;`, maybe with a claim.
fn canonical_turn() -> impl Strategy<Value = String> {
    let square = ("[a-z]", 0u8..=16).prop_map(|(f, r)| format!("{f}{r}"));
    let design = "[A-Za-z]{1,3}(\\([A-Za-z]{1,3}(\\([A-Z]{1,2}\\))?\\))?[A-Za-z]{0,2}";
    let piece = prop_oneof!["[A-Z]", design.prop_map(|d| format!("({d})")),];
    let opt_piece = prop_oneof![Just(String::new()), piece.clone()];
    let step = prop_oneof![Just("-"), Just("x"), Just("^"), Just("~")];
    let promo = prop_oneof![
        Just(String::new()),
        piece.clone().prop_map(|p| format!("={p}"))
    ];
    let coordinate = (
        opt_piece.clone(),
        square.clone(),
        prop::collection::vec((step, square.clone()), 1..3),
        promo.clone(),
    )
        .prop_map(|(p, from, legs, promo)| {
            let legs: String = legs.into_iter().map(|(s, q)| format!("{s}{q}")).collect();
            format!("{p}{from}{legs}{promo}")
        });
    let origin = prop_oneof![
        Just(String::new()),
        "[a-z]",
        (0u8..=16).prop_map(|r| r.to_string()),
        square.clone()
    ];
    let short = (
        opt_piece,
        origin,
        prop_oneof![Just(""), Just("x")],
        square.clone(),
        promo,
    )
        .prop_map(|(p, o, x, to, promo)| format!("{p}{o}{x}{to}{promo}"));
    let action = prop_oneof![
        coordinate,
        short,
        Just("O-O".to_string()),
        Just("O-O-O".to_string()),
        Just("pass".to_string()),
        (piece.clone(), square.clone()).prop_map(|(p, s)| format!("{p}@{s}")),
        (piece.clone(), square.clone()).prop_map(|(p, s)| format!("coup {p}{s}")),
        square.prop_map(|s| format!("reborn {s}")),
        design.prop_map(|d| format!("buy {d}")),
        (design, design).prop_map(|(a, b)| format!("{a}={b}")),
        (piece, design).prop_map(|(p, d)| format!("{p}={d}")),
    ];
    let claim = prop_oneof![Just(""), Just("+"), Just("#")];
    prop_oneof![
        4 => (prop::collection::vec(action, 1..3), claim).prop_map(|(a, c)| format!("{}{c}", a.join("; "))),
        1 => Just("resign".to_string()),
        1 => Just("draw".to_string()),
    ]
}

#[test]
fn the_valid_file_parses() {
    if let Err(problems) = parse_file(VALID) {
        let rendered: Vec<String> = problems
            .iter()
            .map(|p| render(p, "valid.scn", VALID))
            .collect();
        panic!("{}", rendered.join("\n"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn parse_file_never_panics_on_any_string(src in any::<String>()) {
        check(&src);
    }

    #[test]
    fn parse_file_never_panics_on_scenario_like_text(src in "(variant|scenario|option|\\{|\\}|\"|#|\n| |[a-z0-9=@;()+#xKQ-]{1,6}){0,40}") {
        check(&src);
    }

    #[test]
    fn parse_file_never_panics_on_mutations_of_a_valid_file(edits in prop::collection::vec(edit(), 1..6)) {
        let src = apply(VALID, &edits);
        check(&src);
    }

    #[test]
    fn canonical_turn_text_parses_back(text in canonical_turn()) {
        match parse_turn(&text) {
            Ok(t) => prop_assert_eq!(t.text, text),
            Err(p) => prop_assert!(false, "{}", render(&p, "turn", &text)),
        }
    }

    #[test]
    fn parse_turn_never_panics(text in any::<String>()) {
        if let Err(p) = parse_turn(&text) {
            prop_assert!(p.span.end <= text.len());
        }
    }

    #[test]
    fn parse_turn_never_panics_on_turn_like_text(text in "[a-zA-Z0-9=@;()+#x -]{0,16}") {
        match parse_turn(&text) {
            Ok(t) => prop_assert!(text.contains(t.text.as_str())),
            Err(p) => prop_assert!(p.span.end <= text.len()),
        }
    }
}
