//! Tests of the definition language: chess.def to its model, every error with its message,
//! inheritance, formatting, and robustness.

use super::model::*;
use super::{parse, Errors};

const CHESS: &str = include_str!("../../variants/chess.def");
const SHOGI: &str = include_str!("../../variants/shogi.def");

/// A loader that knows chess.def as `chess` and the texts given, by name.
fn loader(extra: &[(&str, &str)]) -> impl Fn(&str) -> Result<(String, String), String> {
    let mut known: Vec<(String, String)> = vec![("chess".into(), CHESS.into())];
    known.extend(extra.iter().map(|(n, t)| (n.to_string(), t.to_string())));
    move |name: &str| {
        known
            .iter()
            .find(|(n, _)| n == name)
            .map(|(n, t)| (n.clone(), t.clone()))
            .ok_or_else(|| format!("no definition named `{name}`"))
    }
}

fn read(text: &str) -> Result<Definition, Errors> {
    parse("test.def", text, &loader(&[]))
}

fn errors(text: &str) -> Errors {
    match read(text) {
        Ok(d) => panic!("expected errors, got {d:#?}"),
        Err(e) => e,
    }
}

fn rank(files: u8, r: u8) -> Region {
    Region {
        cells: (0..files).map(|file| Cell { file, rank: r }).collect(),
    }
}

#[test]
fn chess_is_the_expected_model() {
    let d = parse("chess", CHESS, &loader(&[])).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.title, "Orthodox chess");
    assert_eq!(d.source, "FIDE Laws of Chess");
    assert_eq!(d.parent, None);
    assert_eq!((d.files, d.ranks), (8, 8));
    assert!(d.holes.is_empty());
    let pieces: Vec<(char, &str, &str, bool, bool)> = d
        .pieces
        .iter()
        .map(|p| (p.letter, p.name.as_str(), p.betza.as_str(), p.royal, p.pawn))
        .collect();
    assert_eq!(
        pieces,
        [
            ('K', "king", "K", true, false),
            ('Q', "queen", "Q", false, false),
            ('R', "rook", "R", false, false),
            ('B', "bishop", "B", false, false),
            ('N', "knight", "N", false, false),
            ('P', "pawn", "fmWfcF", false, true),
        ]
    );
    assert_eq!(
        d.pieces[0].clause,
        "The king moves to any adjoining square."
    );
    assert_eq!((d.pieces[0].span.line, d.pieces[0].span.col), (8, 1));
    assert_eq!(
        d.pieces[5].design,
        crate::betza::Design::parse("fmWfcF").unwrap()
    );
    assert_eq!(
        d.start,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(
        d.pieces[5].capture_clause.as_deref(),
        Some("The pawn captures an enemy piece diagonally in front of it, and moves diagonally only to capture.")
    );
    let options: Vec<_> = d
        .options
        .iter()
        .map(|o| (o.name.as_str(), o.values.clone()))
        .collect();
    assert_eq!(
        options,
        [
            (
                "repetition-draw",
                vec!["threefold".to_string(), "fivefold".into()]
            ),
            (
                "move-rule-draw",
                vec!["fifty".to_string(), "seventy-five".into()]
            ),
            ("chess960", vec!["off".to_string(), "on".into()]),
        ]
    );
    let components: Vec<Component> = d.rules.iter().map(|r| r.component.clone()).collect();
    assert_eq!(
        components,
        [
            Component::DoubleStep {
                pieces: vec!['P'],
                region: [rank(8, 1), rank(8, 6)],
                steps: 2,
                movement: None,
            },
            Component::EnPassant {
                pieces: vec!['P'],
                region: Default::default(),
                where_it_steps: true,
            },
            Component::Promotion {
                pieces: vec!['P'],
                region: [rank(8, 7), rank(8, 0)],
                into: [vec!['Q', 'R', 'B', 'N'], vec!['Q', 'R', 'B', 'N']],
                mandatory: true,
                captured_only: false,
                limits: vec![],
                pairs: vec![],
                leaving: false,
                as_turn: false,
                demote: false,
            },
            Component::Castling {
                king: 'K',
                rooks: vec!['R'],
                king_to: [2, 6],
                rook_to: [3, 5],
                chess960: false,
                rank: 1,
                rooks_from: None,
                drop_rights: None,
            },
            Component::Castling {
                king: 'K',
                rooks: vec!['R'],
                king_to: [2, 6],
                rook_to: [3, 5],
                chess960: true,
                rank: 1,
                rooks_from: None,
                drop_rights: None,
            },
            Component::Check {
                safety: Safety::All
            },
            Component::Checkmate { value: Value::Loss },
            Component::Stalemate { value: Value::Draw },
            Component::Repetition { times: 3 },
            Component::Repetition { times: 5 },
            Component::MoveCount { moves: 50 },
            Component::MoveCount { moves: 75 },
            Component::InsufficientMaterial {
                alone: vec!['B', 'N'],
                colour_bound: vec!['B'],
            },
        ]
    );
    let ids: Vec<&str> = d.rules.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "double-step",
            "en-passant",
            "promotion",
            "castling",
            "castling-960",
            "own-king-in-check",
            "checkmate",
            "stalemate",
            "repetition",
            "repetition-fivefold",
            "fifty-move",
            "seventy-five-move",
            "insufficient-material",
        ]
    );
    for r in &d.rules {
        assert_eq!(r.source, "FIDE Laws of Chess");
        assert_eq!(
            r.when.is_empty(),
            !matches!(r.component.name(), "castling" | "repetition" | "move-count")
        );
        assert!(!r.clause.is_empty());
    }
    assert!(d.rules[1]
        .clause
        .starts_with("A pawn that could have captured"));
    assert_eq!((d.rules[0].span.line, d.rules[0].span.col), (35, 1));
}

#[test]
fn chess_is_in_canonical_layout() {
    let formatted = super::fmt::format(CHESS).unwrap();
    if formatted != CHESS {
        for (a, b) in formatted.lines().zip(CHESS.lines()) {
            if a != b {
                panic!("\n{a:?}\n{b:?}");
            }
        }
        panic!("lengths differ");
    }
}

/// A small definition the error tests add to: a king, a pawn, a start that fits.
const BASE: &str = "variant t
board 8x8
piece K king K royal
piece P pawn fmWfcF pawn
start \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"
";

/// The one error of `text`: its message and `line:col`.
fn one_error(text: &str) -> (String, String) {
    let e = errors(text);
    assert_eq!(e.errors.len(), 1, "{e}");
    let error = &e.errors[0];
    (error.problem.message.clone(), e.location(error))
}

/// The errors of `text`, each as `line:col message`.
fn all_errors(text: &str) -> Vec<String> {
    let e = errors(text);
    e.errors
        .iter()
        .map(|x| format!("{} {}", e.location(x), x.problem.message))
        .collect()
}

#[test]
fn defaults_regions_options_and_ids() {
    let text = format!(
        "{BASE}holes h8 a8
piece R rook R
option ep {{
  values on off
  default on
  reason \"The source does not say whether en passant applies.\"
}}
double-step {{
  clause \"Pawns may step two.\"
  white rank 2
  black ranks 7 6
  both square d4
}}
en-passant {{
  id ep-capture
  clause \"En passant.\"
  when ep on
}}
castling {{
  clause \"Castling.\"
}}
goal {{
  clause \"A king on d5 wins.\"
  source \"the designer\"
  both files d
}}
"
    );
    let text = text.replace("4k3/8", "*3k2*/8");
    let d = read(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        d.holes,
        [Cell { file: 0, rank: 7 }, Cell { file: 7, rank: 7 }]
    );
    assert_eq!(d.options.len(), 1);
    assert_eq!(d.options[0].values, ["on", "off"]);
    assert_eq!(d.options[0].default, "on");
    let ids: Vec<&str> = d.rules.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["double-step", "ep-capture", "castling", "goal"]);
    match &d.rules[0].component {
        Component::DoubleStep {
            pieces,
            region,
            steps,
            movement: None,
        } => {
            assert_eq!(pieces, &['P']);
            assert_eq!(*steps, 2);
            let d4 = Cell { file: 3, rank: 3 };
            assert_eq!(region[0].cells.len(), 9);
            assert!(region[0].contains(d4));
            assert_eq!(region[1].cells.len(), 17);
            assert!(region[1].contains(Cell { file: 0, rank: 6 }));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(d.rules[1].when, [("ep".to_string(), "on".to_string())]);
    assert_eq!(
        d.rules[2].component,
        Component::Castling {
            king: 'K',
            rooks: vec!['R'],
            king_to: [2, 6],
            rook_to: [3, 5],
            chess960: false,
            rank: 1,
            rooks_from: None,
            drop_rights: None,
        }
    );
    match &d.rules[3].component {
        Component::Goal {
            pieces,
            region,
            value,
            timing: Timing::AtOnce,
            safe: false,
        } => {
            assert_eq!(pieces, &['K']);
            assert_eq!(*value, Value::Win);
            // The d-file without holes: all eight squares.
            assert_eq!(region[0].cells.len(), 8);
            assert_eq!(region[0], region[1]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(d.rules[3].source, "the designer");
    assert_eq!(d.rules[0].source, "");
    assert_eq!(d.title, "t");
}

#[test]
fn castling_defaults_follow_the_board_width() {
    let text = "variant w
board 10x8
piece K king K royal
piece R rook R
start \"r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1\"
castling {
  clause \"Castling.\"
  chess960 yes
}
";
    let d = read(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        d.rules[0].component,
        Component::Castling {
            king: 'K',
            rooks: vec!['R'],
            king_to: [2, 8],
            rook_to: [3, 7],
            chess960: true,
            rank: 1,
            rooks_from: None,
            drop_rights: None,
        }
    );
}

#[test]
fn strings_read_escapes_and_fold_whitespace() {
    let text = format!("{BASE}title \"Said   \\\"hi\\\"\n    and \\\\ left\"\n");
    let d = read(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.title, "Said \"hi\" and \\ left");
}

#[test]
fn syntax_errors() {
    assert_eq!(
        one_error(&format!("{BASE}check {{\n  clause \"x\"\n")),
        (
            "expected a statement, the end of the line or `}`, found the end of the file".into(),
            "test.def:7:12".into()
        )
    );
    assert_eq!(
        one_error(&format!("{BASE}title \"open\n")),
        ("this string is never closed".into(), "test.def:6:7".into())
    );
    assert_eq!(
        one_error(&format!("{BASE}title \"a\\q\"\n")),
        (
            "unknown escape `\\q` in a string".into(),
            "test.def:6:9".into()
        )
    );
    assert_eq!(
        one_error(&format!("{BASE}}}\n")),
        ("`}` closes no block".into(), "test.def:6:1".into())
    );
    assert_eq!(
        one_error(&format!("{BASE}check\n{{\n}}\n")),
        (
            "a `{` must stand on the line of its statement".into(),
            "test.def:7:1".into()
        )
    );
    // Recovery: each broken line is reported.
    let e = all_errors(&format!("{BASE}}}\ntitle \"x\" }}\nsource \"y\"\n"));
    assert_eq!(
        e,
        [
            "test.def:6:1 `}` closes no block",
            "test.def:7:11 `}` closes no block"
        ]
    );
}

#[test]
fn unknown_names_suggest_the_valid_ones() {
    let e = errors(&format!("{BASE}castlin {{\n  clause \"x\"\n}}\n"));
    assert_eq!(
        e.messages(),
        ["unknown statement `castlin`; did you mean `castling`?"]
    );
    let help = e.errors[0].problem.help.clone().unwrap();
    assert!(help.contains("the components: double-step"), "{help}");
    assert_eq!(e.location(&e.errors[0]), "test.def:6:1");
    let e = errors(&format!(
        "{BASE}piece Q queen Q\npromotion {{\n  clause \"x\"\n  white rank 8\n  into Q\n  mandatry yes\n  king-to c g\n}}\n"
    ));
    assert_eq!(
        e.messages(),
        [
            "unknown setting `mandatry` of `promotion`; did you mean `mandatory`?",
            "`king-to` is not a setting of `promotion` (it is one of `castling`)",
        ]
    );
    assert_eq!(
        e.errors[0].problem.help.as_deref(),
        Some(
            "the settings of `promotion`: id, clause, source, when, pieces, into, mandatory, \
             captured-only, limit, white-into, black-into, pairs, leaving, as-turn, demote, \
             white, black, both"
        )
    );
    assert_eq!(
        one_error(&format!("{BASE}piece Q queen Q rolay\n")).0,
        "unknown piece flag `rolay`; did you mean `royal`?"
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}check {{\n  clause \"x\"\n  safety any\n}}\n"
        ))
        .0,
        "expected `all`, `any-one` or `last-one`, found `any`; did you mean `any-one`?"
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}goal {{\n  clause \"x\"\n  white rnak 8\n}}\n"
        ))
        .0,
        "expected `rank`, `file`, `square`, `area` or `zone`, found `rnak`; did you mean `rank`?"
    );
}

#[test]
fn settings_and_statements_out_of_place() {
    assert_eq!(
        one_error(&format!("{BASE}clause \"x\"\n")).0,
        "`clause` is a setting, not a statement: it goes in the block of a component"
    );
    assert_eq!(
        one_error(&format!("{BASE}king-to c g\n")).0,
        "`king-to` is a setting, not a statement: it goes in the block of `castling`"
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}check {{\n  clause \"x\"\n  piece Q queen Q\n}}\n"
        ))
        .0,
        "`piece` is a top-level statement, not a setting of `check`"
    );
}

#[test]
fn piece_errors() {
    assert_eq!(
        one_error(&format!("{BASE}piece K other W\n")),
        (
            "piece letter `K` is used twice (first at 3:1)".into(),
            "test.def:6:7".into()
        )
    );
    assert_eq!(
        one_error(&format!("{BASE}piece Q king Q\n")).0,
        "piece name `king` is used twice (first for `K`)"
    );
    let (message, at) = one_error(&format!("{BASE}piece Q queen Qx\n"));
    assert!(
        message.starts_with("the move `Qx` does not read as Betza notation: unexpected `x` at 1"),
        "{message}"
    );
    assert_eq!(at, "test.def:6:16");
    // The letter of a piece whose move does not read still names a piece: one error, not
    // one more for every line that names it.
    let (message, _) = one_error(&format!(
        "{BASE}piece Q queen Qx\npromotion {{\n  clause \"x\"\n  white rank 8\n  black rank 1\n  into Q\n}}\n"
    ));
    assert!(
        message.starts_with("the move `Qx` does not read"),
        "{message}"
    );
    assert_eq!(
        one_error(&format!("{BASE}piece q queen Q\n")).0,
        "piece letters are capitals: `Q` (the FEN writes Black's in small letters)"
    );
    assert_eq!(
        one_error(&format!("{BASE}piece Q queen\n")).0,
        "a piece needs a letter, a name and its move in Betza notation"
    );
    assert_eq!(
        one_error(&format!("{BASE}piece\n")).0,
        "a piece needs a letter, a name and its move in Betza notation"
    );
    assert_eq!(
        one_error(&format!("{BASE}option\n")).0,
        "`option` needs a name after it"
    );
}

#[test]
fn letters_must_be_pieces() {
    assert_eq!(
        one_error(&format!(
            "{BASE}promotion {{\n  clause \"x\"\n  white rank 8\n  black rank 1\n  into Q\n}}\n"
        )),
        (
            "`Q` is not a piece of this definition".into(),
            "test.def:10:8".into()
        )
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}en-passant {{\n  clause \"x\"\n  pieces p\n}}\n"
        ))
        .0,
        "`p` is not a piece of this definition; pieces are named by their capital letter: `P`"
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}explosion {{\n  clause \"x\"\n  immune pawn\n}}\n"
        ))
        .0,
        "expected a piece letter, found `pawn`; `pawn` is written `P`"
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}castling {{\n  clause \"x\"\n  king K\n  rooks K\n}}\n"
        ))
        .0,
        "the castling king `K` is also one of its rooks"
    );
}

#[test]
fn royalty_is_needed_for_check_and_checkmate() {
    let text = "variant t
board 8x8
piece P pawn fmWfcF pawn
start \"8/8/8/8/8/8/8/8 w - - 0 1\"
check {
  clause \"x\"
}
checkmate {
  clause \"y\"
}
";
    assert_eq!(
        all_errors(text),
        [
            "test.def:5:1 `check` needs a royal piece, and no piece is marked `royal`",
            "test.def:8:1 `checkmate` needs a royal piece, and no piece is marked `royal`",
        ]
    );
}

#[test]
fn start_positions_must_fit_the_board() {
    let fen = |placement: &str| BASE.replace("4k3/8/8/8/8/8/8/4K3", placement);
    assert_eq!(
        one_error(&fen("4k3/9/8/8/8/8/8/4K3")),
        (
            "the start position does not fit the board: rank 7 has more than 8 squares, the \
             width of the board"
                .into(),
            "test.def:5:12".into()
        )
    );
    assert_eq!(
        one_error(&fen("4k3/7/8/8/8/8/8/4K3")).0,
        "the start position does not fit the board: rank 7 has 7 squares, the board has 8 files"
    );
    assert_eq!(
        one_error(&fen("4k3/8/8/8/8/8/4K3")).0,
        "the start position does not fit the board: the placement has 7 ranks, the board has 8"
    );
    assert_eq!(
        one_error(&fen("4x3/8/8/8/8/8/8/4K3")),
        (
            "the start position does not fit the board: `x` is not a piece of this definition \
             (its pieces: K P)"
                .into(),
            "test.def:5:9".into()
        )
    );
    let holed = format!("{}holes a1\n", fen("4k3/8/8/8/8/8/8/K7"));
    assert_eq!(
        one_error(&holed),
        (
            "the start position does not fit the board: a piece on a1, which is not part of the \
             board (a hole)"
                .into(),
            "test.def:5:24".into()
        )
    );
    assert_eq!(
        one_error(&BASE.replace(" w - - 0 1", " x - - 0 1")).0,
        "the start position does not fit the board: expected the side to move, `w` or `b`, \
         found `x`"
    );
    assert_eq!(
        one_error(&BASE.replace("4k3/8/8/8/8/8/8/4K3", "4k3/8/8/8/8/8/8/4K3[]")).0,
        "the start position does not fit the board: pockets (`[...]`) are for games with drops, \
         and this one has none"
    );
    // A start written over two lines reads as one line; the column still points right.
    let split = BASE.replace("4k3/8/8/8/8/8/8/4K3 w", "4k3/8/8/8/8/8/8/4K3\n      q");
    assert_eq!(
        one_error(&split),
        (
            "the start position does not fit the board: expected the side to move, `w` or `b`, \
             found `q`"
                .into(),
            "test.def:6:7".into()
        )
    );
}

#[test]
fn options_and_readings() {
    let text = format!(
        "{BASE}option o {{\n  values a b\n  default c\n  reason \"r\"\n}}\ncheck {{\n  clause \"x\"\n  when o c\n  when p a\n}}\n"
    );
    assert_eq!(
        all_errors(&text),
        [
            "test.def:8:11 the default `c` is not among the option's values; did you mean `a` or `b`?",
            "test.def:13:10 option `o` has no value `c`; did you mean `a` or `b`?",
            "test.def:14:8 `when` names an unknown option `p`; did you mean `o`?",
        ]
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}option o {{\n  values a\n  reason \"r\"\n}}\n"
        ))
        .0,
        "option `o` needs `default`"
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}option o {{\n  values a\n  defualt a\n  reason \"r\"\n}}\n"
        ))
        .0,
        "unknown option setting `defualt`; did you mean `default`?"
    );
}

#[test]
fn ids_are_unique() {
    assert_eq!(
        one_error(&format!(
            "{BASE}check {{\n  clause \"x\"\n}}\ncheck {{\n  clause \"y\"\n}}\n"
        )),
        (
            "rule id `check` is used twice (first at 6:1)".into(),
            "test.def:9:1".into()
        )
    );
    // Another id makes two components of one kind fine.
    let two = format!(
        "{BASE}extinction {{\n  clause \"x\"\n}}\nextinction {{\n  id pawns-gone\n  clause \"y\"\n  pieces P\n}}\n"
    );
    let d = read(&two).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.rules[1].id, "pawns-gone");
    assert_eq!(
        d.rules[0].component,
        Component::Extinction {
            pieces: vec![],
            value: Value::Loss
        }
    );
}

#[test]
fn board_sizes_and_squares() {
    for size in ["17x8", "0x8", "8x17", "8x0"] {
        assert_eq!(
            one_error(&BASE.replace("8x8", size)).0,
            format!("board {size} is out of range: boards are 1x1 to 16x16")
        );
    }
    assert_eq!(
        one_error(&BASE.replace("8x8", "8by8")).0,
        "expected a board size `<files>x<ranks>`, found `8by8`"
    );
    assert_eq!(
        one_error(&format!("{BASE}holes i1\n")).0,
        "`i1` is not a square of this 8x8 board"
    );
    let d = read(&BASE.replace("8x8", "16x16").replace(
        "4k3/8/8/8/8/8/8/4K3",
        "4k11/16/16/16/16/16/16/16/16/16/16/16/16/16/16/4K11",
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((d.files, d.ranks), (16, 16));
}

#[test]
fn missing_parts_are_errors() {
    assert_eq!(
        one_error(&format!(
            "{BASE}drops {{\n  clause \"x\"\n  through-holes yes\n}}\n"
        )),
        (
            "`drops` needs `onto enclosing` for `through-holes yes`".to_string(),
            "test.def:6:1".to_string()
        )
    );
    assert_eq!(
        one_error(&format!("{BASE}check {{\n  safety all\n}}\n")).0,
        "`check` needs a `clause`: the designer's words for the rule"
    );
    assert_eq!(
        one_error(&format!("{BASE}check\n")).0,
        "`check` needs a block with its settings, at least its `clause`"
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}promotion {{\n  clause \"x\"\n  into K\n}}\n"
        ))
        .0,
        "`promotion` needs a region"
    );
    assert_eq!(
        one_error(&format!("{BASE}check-count {{\n  clause \"x\"\n}}\n")).0,
        "`check-count` needs `checks`"
    );
    assert_eq!(
        one_error(&BASE.replace("board 8x8\n", "")).0,
        "the definition has no `board`"
    );
    assert_eq!(
        one_error("").0,
        "the definition is empty: it starts with `variant <name>`"
    );
    assert_eq!(
        one_error(&format!("title \"x\"\n{BASE}")).0,
        "a definition starts with `variant <name>`"
    );
}

const CHILD: &str = "variant knightmare
from chess
title \"Chess with nightriders\"
piece N nightrider NN \"The nightrider rides knight leaps in a line.\"
piece A archbishop BN
without castling
option bare {
  values win draw
  default win
  reason \"Not settled.\"
}
extinction {
  id lone-king
  clause \"A side left with its king alone loses.\"
  pieces Q R B N A P
  when bare win
}
promotion {
  clause \"Pawns promote to any piece but the king.\"
  white rank 8
  black rank 1
  into Q R B N A
}
";

#[test]
fn inheritance_replaces_drops_and_adds() {
    let d = parse("knightmare.def", CHILD, &loader(&[])).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.name, "knightmare");
    assert_eq!(d.parent.as_deref(), Some("chess"));
    assert_eq!(d.title, "Chess with nightriders");
    // Not replaced: inherited.
    assert_eq!(d.source, "FIDE Laws of Chess");
    assert_eq!(
        d.start,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    let letters: String = d.pieces.iter().map(|p| p.letter).collect();
    assert_eq!(letters, "KQRBNPA");
    assert_eq!(d.pieces[4].name, "nightrider");
    assert_eq!(d.pieces[4].betza, "NN");
    let ids: Vec<&str> = d.rules.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "double-step",
            "en-passant",
            "promotion",
            "castling-960",
            "own-king-in-check",
            "checkmate",
            "stalemate",
            "repetition",
            "repetition-fivefold",
            "fifty-move",
            "seventy-five-move",
            "insufficient-material",
            "lone-king"
        ]
    );
    match &d.rules[2].component {
        Component::Promotion { into, .. } => {
            assert_eq!(into[0], ['Q', 'R', 'B', 'N', 'A']);
            assert_eq!(into[1], into[0]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        d.rules[2].clause,
        "Pawns promote to any piece but the king."
    );
    // An inherited rule keeps its parent's source; the child's own default to the inherited
    // source too.
    assert_eq!(d.rules[0].source, "FIDE Laws of Chess");
    assert_eq!(d.rules[12].when, [("bare".into(), "win".into())]);
    // The inherited rule's span is in the parent's text.
    assert_eq!(d.rules[0].span.line, 35);
}

#[test]
fn inheritance_errors() {
    let e = parse(
        "child.def",
        "variant child\nfrom chess\nwithout castlng\nwithout piece N\n",
        &loader(&[]),
    )
    .unwrap_err();
    let located: Vec<String> = e
        .errors
        .iter()
        .map(|x| format!("{} {}", e.location(x), x.problem.message))
        .collect();
    assert_eq!(
        located,
        [
            "child.def:3:9 there is no inherited rule `castlng` to drop; did you mean `castling` or \
             `castling-960`?",
            // Dropping the knight leaves chess's start and promotion naming it: the errors are
            // in chess.
            "chess:15:9 the start position does not fit the board: `n` is not a piece of this \
             definition (its pieces: K Q R B P)",
            "chess:52:14 `N` is not a piece of this definition",
            "chess:121:11 `N` is not a piece of this definition",
        ]
    );
    assert_eq!(
        e.errors[2].problem.help.as_deref(),
        Some(
            "the pieces: K (king), Q (queen), R (rook), B (bishop), P (pawn)\n`chess` is \
             inherited: `from` at child.def:2:6"
        )
    );
    let cycle = parse(
        "a",
        "variant a\nfrom b\n",
        &loader(&[("a", "variant a\nfrom b\n"), ("b", "variant b\nfrom a\n")]),
    )
    .unwrap_err();
    assert_eq!(
        cycle.messages(),
        ["inheritance loops back: `a`, which starts from `b`, which starts from `a` again"]
    );
    assert_eq!(cycle.location(&cycle.errors[0]), "b:2:6");
    // A chain deeper than the limit is too deep, not a loop.
    let mut chain: Vec<(String, String)> = (0..20)
        .map(|i| (format!("d{i}"), format!("variant d{i}\nfrom d{}\n", i + 1)))
        .collect();
    chain.push(("d20".into(), "variant d20\nfrom chess\n".into()));
    let refs: Vec<(&str, &str)> = chain
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let deep = parse("d0", &chain[0].1, &loader(&refs)).unwrap_err();
    assert_eq!(
        deep.messages(),
        [
            "inheritance is too deep: `d0`, `d1`, `d2`, ..., `d15`, `d16`, `d17` go on past 16 \
          definitions, the most followed"
        ]
    );
    let unknown = parse("a", "variant a\nfrom nowhere\n", &loader(&[])).unwrap_err();
    assert_eq!(
        unknown.messages(),
        ["cannot read the definition `nowhere`: no definition named `nowhere`"]
    );
    assert_eq!(
        one_error(&format!("{BASE}without check\n")).0,
        "`without` drops a part of the definition this one starts from, but it starts from none"
    );
    let own = parse(
        "c.def",
        "variant c\nfrom chess\npiece A archbishop BN\npiece A another BN\n",
        &loader(&[]),
    )
    .unwrap_err();
    assert_eq!(
        own.messages(),
        ["piece letter `A` is used twice (first at 3:1)"]
    );
}

#[test]
fn errors_render_like_scenario_errors() {
    let e = errors(&format!("{BASE}castlin {{\n  clause \"x\"\n}}\n"));
    let shown = e.to_string();
    assert!(
        shown.contains("error: unknown statement `castlin`; did you mean `castling`?"),
        "{shown}"
    );
    assert!(shown.contains("╭─[test.def:6:1]"), "{shown}");
    assert!(shown.contains(" 6 │ castlin {"), "{shown}");
    assert!(shown.contains("^^^^^^^"), "{shown}");
}

/// A definition with every span set to zero, to compare meaning across layouts.
fn unspanned(mut d: Definition) -> Definition {
    d.pieces.iter_mut().for_each(|p| p.span = Span::default());
    d.options.iter_mut().for_each(|o| o.span = Span::default());
    d.rules.iter_mut().for_each(|r| r.span = Span::default());
    d.properties
        .iter_mut()
        .for_each(|p| p.span = Span::default());
    d
}

#[test]
fn formatting_keeps_meaning_and_comments() {
    let messy = "\u{FEFF}# head comment\n\n\n   variant   t   # the name\ntitle \"a   long\n   title\"\r\nboard 8x8\npiece K king K royal \"k\"\npiece Q queen Q \"q\"  # trailing\n\n\npiece P pawn fmWfcF pawn\nstart \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n# before check\ncheck {   # opening\n\n      clause \"x \\\"y\\\"\"   \n  # inside\n\n  safety all\n\n\n  # last inside\n}  # closing\n# the end\n\n";
    let formatted = super::fmt::format(messy).unwrap();
    assert_eq!(
        formatted,
        "# head comment

variant t        # the name
title \"a long title\"
board 8x8
piece K king  K royal \"k\"
piece Q queen Q       \"q\" # trailing

piece P pawn fmWfcF pawn
start \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"
# before check
check {   # opening
  clause \"x \\\"y\\\"\"
  # inside

  safety all

  # last inside
}  # closing
# the end
"
    );
    assert_eq!(super::fmt::format(&formatted).unwrap(), formatted);
    assert_eq!(
        unspanned(read(messy).unwrap_or_else(|e| panic!("{e}"))),
        unspanned(read(&formatted).unwrap())
    );
    let child = super::fmt::format(CHILD).unwrap();
    assert_eq!(super::fmt::format(&child).unwrap(), child);
    assert_eq!(
        unspanned(parse("k", CHILD, &loader(&[])).unwrap()),
        unspanned(parse("k", &child, &loader(&[])).unwrap())
    );
    assert!(super::fmt::format("variant t\n}\n").is_err());
}

/// The positions of Fairy-Stockfish's perft suite, set A (shared/data/fsf/perft-a.txt).
const SUITE_FENS: &[&str] = &[
    "10/rr3k4/ppppp5/10/10/10/10/6PPPP/5K2RR/10 w Kq - 0 1",
    "1R4kr/4K3/8/8/8/8/8/8 b k - 0 1",
    "2Q5/3Pq2k/6p1/4Bp1p/5P1P/8/8/K7 w - - 2 72",
    "3mk3/r3s1R1/1psppnp1/p1pn4/1P2NP2/P1PPP1P1/4NS2/R1SKM3 w - - 0 1",
    "4brn1/2K2k2/8/8/8/8/8/8 w - - 0 1",
    "4k3/7r/8/P7/2p1n2P/3p2P1/1P3P2/PPP1PPP1 w - - 0 1",
    "4k3/pp4q1/3P2p1/8/P3PP2/PPP2r2/PPP5/PPPP4 b - - 0 1",
    "4kc3c/ernbq1b1re/ppp3p1pp/3p2pp2/4p5/5P4/2PN2P3/PP1PP2PPP/ER1BQKBNR1/5C3C w KQ - 0 9",
    "4ncr1k1/1cr2P4/pp2p2pp1/P7PN/2Ep1p4/B3P1eN2/2P1n1P3/1B1P1K4/9p/5C2CR w - - 0 1",
    "6/2P3/6/1K1k2/6/6 w - - 0 1",
    "6R1/2k5/5K2/8/3r4/8/8/8 b - - 0 1",
    "6r1/2K5/5k2/8/3R4/8/8/8 w - - 0 1",
    "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1 39 +2+0",
    "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1+3 1 39",
    "8/1k5P/8/8/8/3K4/p7/8 b - - 0 1",
    "8/1p6/8/8/8/8/P7/8 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -",
    "8/2p5/8/8/8/8/P7/8 w - - 0 1",
    "8/8/8/2sp2k1/7p/3P4/6K1/7r w - - 0 1",
    "8/8/8/8/6Q1/8/2h3h1/4K1k1 b - - 0 1",
    "8/8/8/8/8/8/2k5/rR4KR w KQ - 0 1",
    "8/k5SP/8/8/8/8/8/8/8/7K w - - 0 1",
    "Rr2k1rR/3K4/3p4/8/8/8/7P/8 w kq - 0 1",
    "k6k/hh2Q2h/8/8/8/8/8/4K3 w - - 0 1",
    "k7/5p2/4p2P/3p2P1/2p2P2/1p2P2P/p2P2P1/2P2P2 w - - 0 1",
    "k7/6P1/8/8/8/2K2p2/4p3/8 w - - 0 1",
    "nn1nnn1nn/9/3n1n3/9/9/9/3N1N3/9/NN1NNN1NN w - - 4 3",
    "r1s1ks1r/3nm3/pppNpppp/3n4/5P2/PPPPPNPP/8/R1SKMS1R b DEe 0 0 5",
    "r3k1rR/5K2/8/8/8/8/8/8 b kq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
    "r3kb1r/1pp1pppp/p1q2n2/3P4/6b1/2N2N2/PPP2PPP/R1BQ1RK1 b kq - 0 9",
    "r4b1r/2kb1N2/p2Bpnp1/8/2Pp3p/1P1PPP2/P5PP/R3K2R b KQ - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r5k3/4q2c2/1ebppnp3/1pp3BeEQ/10/2PE2P3/1P3P4/5NP2P/rR3KB3/7C2 w Q - 3 35",
    "r8r/1nbqkcabn1/ppp2ppppp/3p6/4pP4/10/10/PPPPP1PPPP/1NBQKCABN1/R8R w - e7 0 3",
    "rn1mksnr/3s4/pppppppp/8/4N3/PPPPPPPP/8/R1SKMSNR b DEde - 3 2",
    "rn1qkb1r/p5pp/2p5/3p4/N3P3/5P2/PPP4P/R1BQK3 w Qkq - 0 1",
    "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
    "rn2kb1r/ppp1pppp/6q1/8/2PP2b1/5B2/PP3P1P/R1BQK1NR w KQkq - 1 9",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqb1kr/pppppppp/8/8/8/8/PPPPPPPP/RNBQB1KR w AHah - 0 1",
    "rnbqkbnr/1ppppppp/8/6P1/p7/8/PPPPPP1P/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/6p1/2p1Pp1P/P1PPPP2/Pp4PP/1p2PPPP/1P2PPPP/PP1nPPPP b kq a3 0 18",
    "rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PP1PPPPP/RNBQKBNR w KQkq d6c5 0 1",
    "rnbqkbnr/pppp1ppp/8/2p5/5P2/8/PPP1PPPP/RNBQKBNR w KQkq c5d6 2 2",
];

#[test]
fn every_fen_of_the_perft_suite_reads() {
    use super::fen;
    let mut read_count = 0;
    for &position in SUITE_FENS {
        let line = position;
        let placement = position.split(' ').next().unwrap();
        let ranks = placement.split('/').count() as u8;
        let files: u32 = placement
            .split('/')
            .next()
            .unwrap()
            .chars()
            .fold((0, 0), |(n, run), c| match c.to_digit(10) {
                Some(d) => (n, run * 10 + d),
                None if c == '~' => (n + run, 0),
                None => (n + run + 1, 0),
            })
            .into_sum();
        let mut holes = Vec::new();
        for (i, rank) in placement.split('/').enumerate() {
            let mut file = 0u8;
            let mut run = 0u8;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    run = run * 10 + d as u8;
                    continue;
                }
                file += run;
                run = 0;
                if c == '*' {
                    holes.push(Cell {
                        file,
                        rank: ranks - 1 - i as u8,
                    });
                }
                if c != '~' {
                    file += 1;
                }
            }
        }
        let letters: Vec<char> = ('A'..='Z').collect();
        let shape = fen::Shape {
            names: None,
            files: files as u8,
            ranks,
            holes: &holes,
            letters: &letters,
            promoted: &[],
            pockets: false,
            blockers: false,
        };
        fen::parse(position, &shape).unwrap_or_else(|e| panic!("{line}: {e}"));
        read_count += 1;
    }
    assert!(read_count > 30);
}

trait IntoSum {
    fn into_sum(self) -> u32;
}

impl IntoSum for (u32, u32) {
    fn into_sum(self) -> u32 {
        self.0 + self.1
    }
}

#[test]
fn fen_fields_are_typed() {
    use super::fen::{self, CastlingRight, CheckCounters, Placed, RookRef};
    let letters: Vec<char> = "KQRBNP".chars().collect();
    let shape = fen::Shape {
        names: None,
        files: 8,
        ranks: 8,
        holes: &[],
        letters: &letters,
        promoted: &[],
        pockets: false,
        blockers: false,
    };
    let f = fen::parse(
        "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1+3 1 39",
        &shape,
    )
    .unwrap();
    assert_eq!(f.checks, Some(CheckCounters::Remaining([1, 3])));
    assert_eq!((f.halfmove, f.fullmove), (1, 39));
    let f = fen::parse(
        "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1 39 +2+0",
        &shape,
    )
    .unwrap();
    assert_eq!(f.checks, Some(CheckCounters::Given([2, 0])));
    let f = fen::parse(
        "rnbqkbnr/pppp1ppp/8/2p5/5P2/8/PPP1PPPP/RNBQKBNR w HAk c5d6 2 2",
        &shape,
    )
    .unwrap();
    assert_eq!(
        f.castling,
        [
            CastlingRight {
                color: Color::White,
                rook: RookRef::File(7)
            },
            CastlingRight {
                color: Color::White,
                rook: RookRef::File(0)
            },
            CastlingRight {
                color: Color::Black,
                rook: RookRef::Kingside
            },
        ]
    );
    assert_eq!(
        f.en_passant,
        [Cell { file: 2, rank: 4 }, Cell { file: 3, rank: 5 }]
    );
    assert_eq!(
        f.at(Cell { file: 4, rank: 0 }),
        Placed::Piece {
            letter: 'K',
            color: Color::White,
            promoted: false
        }
    );
    let f = fen::parse("4k3/8/8/8/8/8/8/Q~3K3 b - - 0 1", &shape).unwrap();
    assert_eq!(f.side, Color::Black);
    assert_eq!(
        f.at(Cell { file: 0, rank: 0 }),
        Placed::Piece {
            letter: 'Q',
            color: Color::White,
            promoted: true
        }
    );
    let bad = fen::parse("4k3/8/8/8/8/8/8/4K3 w KX - 0 1", &shape).unwrap_err();
    assert_eq!(bad.column, 23);
    let bad = fen::parse("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", &shape).unwrap_err();
    assert_eq!(
        bad.message,
        "`e9` is not a square of the board (ranks 1 to 8)"
    );
    let none = fen::Shape {
        names: None,
        files: 0,
        ranks: 0,
        holes: &[],
        letters: &letters,
        promoted: &[],
        pockets: false,
        blockers: false,
    };
    assert!(fen::parse("8", &none).is_err());
    let bad = fen::parse("4k3/8/8/8/8/8/8/4K3 w - - 0 1 9", &shape).unwrap_err();
    assert_eq!(bad.message, "unexpected `9` after the end of the FEN");
}

#[test]
fn designs_stand_in_a_fen_only_where_asked_for() {
    use super::fen::{self, Placed};
    let letters: Vec<char> = "KQRBNP".chars().collect();
    let holes = [Cell { file: 0, rank: 0 }];
    let shape = fen::Shape {
        names: None,
        files: 8,
        ranks: 8,
        holes: &holes,
        letters: &letters,
        promoted: &[],
        pockets: false,
        blockers: false,
    };
    let text = "4k3/8/8/8/3[Wf(DN)]4/8/8/*(WD)2K3 w - - 0 1";
    let bad = fen::parse(text, &shape).unwrap_err();
    assert!(bad.message.contains("pockets"), "{bad}");
    let f = fen::parse_with_designs(text, &shape).unwrap();
    let wd = crate::rules::design::intern("WD").unwrap();
    assert_eq!(
        f.at(Cell { file: 1, rank: 0 }),
        Placed::Design {
            design: wd,
            color: Color::White
        }
    );
    assert!(matches!(
        f.at(Cell { file: 3, rank: 3 }),
        Placed::Design {
            color: Color::Black,
            ..
        }
    ));
    assert_eq!(
        f.at(Cell { file: 4, rank: 0 }),
        Placed::Piece {
            letter: 'K',
            color: Color::White,
            promoted: false
        }
    );
    // Each error at the column of the design that is wrong.
    let err = |t: &str| fen::parse_with_designs(t, &shape).unwrap_err();
    let e = err("4k3/8/8/8/8/8/8/*3K(WX)2");
    assert_eq!(e.column, 19);
    assert!(e.message.contains("`(WX)` is not a design"), "{e}");
    let e = err("4k3/8/8/8/8/8/8/*3K(WD2");
    assert!(e.message.contains("has no closing `)`"), "{e}");
    let e = err("4k3/8/8/8/8/8/8/(WD)3K3");
    assert!(e.message.contains("not part of the board"), "{e}");
    let e = err("4k3/8/8/8/8/8/8/*3K2(WD)(WD)");
    assert!(e.message.contains("more than 8 squares"), "{e}");
}

mod robustness {
    use super::*;
    use proptest::prelude::*;

    const TOKENS: &[&str] = &[
        "variant",
        "t",
        "from",
        "chess",
        "board",
        "8x8",
        "17x3",
        "piece",
        "K",
        "P",
        "king",
        "fmWfcF",
        "royal",
        "pawn",
        "start",
        "\"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"",
        "\"x\"",
        "\"",
        "{",
        "}",
        "\n",
        "\n",
        "\n",
        " ",
        "# c",
        "check",
        "clause",
        "castling",
        "promotion",
        "into",
        "white",
        "rank",
        "8",
        "option",
        "values",
        "default",
        "reason",
        "when",
        "without",
        "holes",
        "a1",
        "id",
        "\\",
        "\r",
        "é",
        "(WD)",
    ];

    fn soup() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(TOKENS), 0..60).prop_map(|t| t.join(" "))
    }

    proptest! {
        #[test]
        fn token_soups_never_panic(text in soup()) {
            let load = loader(&[]);
            let first = parse("soup", &text, &load);
            if let Ok(formatted) = super::super::fmt::format(&text) {
                prop_assert_eq!(super::super::fmt::format(&formatted).ok(), Some(formatted.clone()));
                let again = parse("soup", &formatted, &load);
                match (first, again) {
                    (Ok(a), Ok(b)) => prop_assert_eq!(unspanned(a), unspanned(b)),
                    (Err(a), Err(b)) => prop_assert_eq!(a.errors.len(), b.errors.len()),
                    (a, b) => prop_assert!(false, "{:?} / {:?}", a.is_ok(), b.is_ok()),
                }
            }
        }

        #[test]
        fn byte_strings_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
            let text = String::from_utf8_lossy(&bytes);
            let _ = parse("bytes", &text, &loader(&[]));
            let _ = super::super::fmt::format(&text);
            if let Ok(e) = parse("bytes", &text, &loader(&[])) {
                let _ = e;
            }
        }

        #[test]
        fn chess_with_one_line_changed_never_panics(line in 0usize..70, text in soup()) {
            let mut lines: Vec<&str> = CHESS.lines().collect();
            if line < lines.len() {
                lines[line] = &text;
            }
            let changed = lines.join("\n");
            if let Err(e) = parse("chess", &changed, &loader(&[])) {
                prop_assert!(!e.errors.is_empty());
                let _ = e.to_string();
            }
        }
    }
}

#[test]
fn deep_nesting_and_long_inputs_are_bounded() {
    let deep = format!("variant t\n{}", "a {".repeat(100_000));
    assert_eq!(errors(&deep).messages(), ["blocks nest more than 8 deep"]);
    // Many statements and many errors: one pass each, and at most 100 errors reported.
    let many = format!("{BASE}{}", "bogus 1\n".repeat(20_000));
    let e = errors(&many);
    assert_eq!(e.errors.len(), super::resolve::MAX_ERRORS);
    let options: String = (0..5_000)
        .map(|k| format!("option o{k} {{\n  values a b\n  default a\n  reason \"r\"\n}}\n"))
        .collect();
    let whens: String = (0..5_000)
        .map(|k| format!("check {{\n  id c{k}\n  clause \"x\"\n  when o{k} b\n}}\n"))
        .collect();
    let d = read(&format!("{BASE}{options}{whens}")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.rules.len(), 5_000);
}

/// Every example of `docs/defining-variants.md` reads: a whole definition on its own, a part
/// of one added to chess (on its board, or on a 10x10 one).
#[test]
fn the_reference_examples_read() {
    let doc = include_str!("../../docs/defining-variants.md");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    // The tutorial's commands and scenarios are not definitions (tests/it/definitions.rs runs
    // them); a block whose fence names another language is skipped.
    let mut skipping = false;
    for line in doc.lines() {
        if skipping {
            skipping = !line.starts_with("```");
            continue;
        }
        if current.is_none() && (line == "```console" || line == "```scn") {
            skipping = true;
            continue;
        }
        match (&mut current, line.starts_with("```")) {
            (None, true) => current = Some(String::new()),
            (Some(block), true) => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), false) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, false) => {}
        }
    }
    let options =
        "option stalemate-reading {\n  values loss draw\n  default loss\n  reason \"r\"\n}\n";
    let small =
        format!("variant doc\nfrom chess\npiece A archbishop BN\npiece C chancellor RN\n{options}");
    let start10 = "start \"4k5/10/10/10/10/10/10/10/10/4K5 w - - 0 1\"\n";
    let large = format!("{small}board 10x10\n{start10}");
    let mut read_count = 0;
    for block in &blocks {
        if block.trim_start().starts_with("error:") {
            continue;
        }
        let tries: Vec<String> = if block.starts_with("variant") && block.lines().count() > 1 {
            vec![block.clone()]
        } else if block.starts_with("variant") {
            vec![format!(
                "{block}board 8x8\npiece K king K royal\nstart \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n"
            )]
        } else {
            vec![
                format!("variant doc\nfrom chess\n{block}"),
                format!("variant doc\nfrom shogi\n{block}"),
                format!("{small}{block}"),
                format!("{large}{block}"),
                format!("{small}{start10}{block}"),
            ]
        };
        let results: Vec<_> = tries
            .iter()
            .map(|t| {
                let cypher = include_str!("../../variants/cypher.def");
                parse(
                    "doc.def",
                    t,
                    &loader(&[("shogi", SHOGI), ("cypher.def", cypher)]),
                )
            })
            .collect();
        if !results.iter().any(Result::is_ok) {
            panic!("{block}\n{}", results.last().unwrap().as_ref().unwrap_err());
        }
        read_count += 1;
    }
    assert!(read_count > 25, "{read_count}");
}

#[test]
fn crlf_and_byte_order_mark_read_the_same() {
    let crlf = format!("\u{FEFF}{}", CHESS.replace('\n', "\r\n"));
    let a = parse("chess", CHESS, &loader(&[])).unwrap();
    let b = parse("chess", &crlf, &loader(&[])).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(unspanned(a), unspanned(b.clone()));
    // Lines and columns do not count the byte-order mark or the carriage returns.
    assert_eq!((b.pieces[0].span.line, b.pieces[0].span.col), (8, 1));
    assert_eq!(super::fmt::format(&crlf).unwrap(), CHESS);
}

#[test]
fn check_count_is_won_by_the_checking_side_by_default() {
    let d = read(&format!(
        "{BASE}check-count {{\n  clause \"x\"\n  checks 3\n}}\n"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        d.rules[0].component,
        Component::CheckCount {
            checks: 3,
            value: Value::Win
        }
    );
}

/// Formatting every bundled definition keeps what it means, and a second pass changes nothing.
#[test]
fn formatting_the_bundled_definitions_keeps_their_meaning() {
    use super::load;
    let mut count = 0;
    for name in load::bundled_names() {
        let text = load::bundled(name).unwrap();
        let formatted = super::fmt::format(text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(super::fmt::format(&formatted).unwrap(), formatted, "{name}");
        let before = parse(name, text, &load::source).unwrap_or_else(|e| panic!("{e}"));
        let after = parse(name, &formatted, &load::source).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(unspanned(before), unspanned(after), "{name}");
        count += 1;
    }
    assert!(count > 10, "{count}");
}

#[test]
fn a_piece_may_word_its_captures_apart() {
    let text = BASE.replace(
        "piece P pawn fmWfcF pawn\n",
        "piece P pawn fmWfcF pawn \"It steps.\" \"It captures.\"\n",
    );
    let d = parse("t.def", &text, &loader(&[])).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.pieces[1].clause, "It steps.");
    assert_eq!(d.pieces[1].capture_clause.as_deref(), Some("It captures."));
    assert_eq!(d.pieces[0].capture_clause, None);
    let three = BASE.replace(
        "piece P pawn fmWfcF pawn\n",
        "piece P pawn fmWfcF pawn \"a\" \"b\" \"c\"\n",
    );
    assert_eq!(
        one_error(&three),
        (
            "the piece's clauses end its line: one for its moves, one for its captures".into(),
            "test.def:4:34".into()
        )
    );
    let flag_after = BASE.replace(
        "piece P pawn fmWfcF pawn\n",
        "piece P pawn fmWfcF \"a\" pawn\n",
    );
    assert_eq!(one_error(&flag_after).0, "the piece's clause ends its line");
}

#[test]
fn insufficient_material_reads_its_kinds() {
    let ok = format!(
        "{BASE}piece B bishop B\ninsufficient-material {{\n  clause \"x\"\n  colour-bound B\n}}\n"
    );
    let d = parse("t.def", &ok, &loader(&[])).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        d.rules[0].component,
        Component::InsufficientMaterial {
            alone: vec![],
            colour_bound: vec!['B'],
        }
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}insufficient-material {{\n  clause \"x\"\n}}\n"
        ))
        .0,
        "`insufficient-material` needs `alone`"
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}insufficient-material {{\n  clause \"x\"\n  alone Q\n}}\n"
        ))
        .0,
        "`Q` is not a piece of this definition"
    );
}

#[test]
fn regions_that_bind_pieces_need_their_settings() {
    assert_eq!(
        one_error(&format!(
            "{BASE}confine {{\n  clause \"x\"\n  pieces K\n}}\n"
        ))
        .0,
        "`confine` needs a region"
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}region-move {{\n  clause \"x\"\n  pieces P\n  white rank 5\n}}\n"
        ))
        .0,
        "`region-move` needs `move`"
    );
    let d = parse(
        "t.def",
        &format!("{BASE}flying-royals {{\n  clause \"x\"\n}}\n"),
        &loader(&[]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.rules[0].component, Component::FlyingRoyals);
}

#[test]
fn janggi_components_read_and_refuse() {
    let d = parse(
        "t.def",
        &format!(
            "{BASE}piece C cannon pR\nregion-move {{\n  clause \"x\"\n  pieces C\n  move pB\n  within yes\n  both squares d1 e2 f3\n}}\nhop-limit {{\n  clause \"x\"\n  pieces C\n  immune C\n}}\npass {{\n  clause \"x\"\n}}\nbikjang {{\n  clause \"x\"\n  value loss\n}}\n"
        ),
        &loader(&[]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(
        d.rules[0].component,
        Component::RegionMove { within: true, .. }
    ));
    assert_eq!(
        d.rules[1].component,
        Component::HopLimit {
            pieces: vec!['C'],
            immune: vec!['C'],
        }
    );
    assert_eq!(
        d.rules[2].component,
        Component::Pass {
            value: Value::Draw,
            stuck: false
        }
    );
    assert_eq!(
        d.rules[3].component,
        Component::Bikjang { value: Value::Loss }
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}hop-limit {{\n  clause \"x\"\n  pieces K\n}}\n"
        )),
        (
            "`hop-limit` needs `immune`".to_string(),
            "test.def:6:1".to_string()
        )
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}hop-limit {{\n  clause \"x\"\n  pieces K\n  imune K\n}}\n"
        )),
        (
            "unknown setting `imune` of `hop-limit`; did you mean `immune`?".to_string(),
            "test.def:9:3".to_string()
        )
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}region-move {{\n  clause \"x\"\n  pieces K\n  move F\n  within maybe\n  white rank 1\n}}\n"
        ))
        .0,
        "expected `yes` or `no`, found `maybe`"
    );
    assert_eq!(
        one_error(&format!("{BASE}pas {{\n  clause \"x\"\n}}\n")).0,
        "unknown statement `pas`; did you mean `pass`?"
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}bikjang {{\n  clause \"x\"\n  value tie\n}}\n"
        ))
        .0,
        "expected `win`, `loss`, `draw` or `count`, found `tie`"
    );
}

#[test]
fn blockers_read_and_refuse() {
    let d = parse(
        "t.def",
        &format!("{BASE}blocker {{\n  clause \"x\"\n  letter D\n  name duck\n}}\n"),
        &loader(&[]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        d.rules[0].component,
        Component::Blocker {
            letter: 'D',
            name: "duck".into(),
            shot: false,
            keep: false,
        }
    );
    assert_eq!(
        one_error(&format!("{BASE}blocker {{\n  clause \"x\"\n}}\n")),
        (
            "`blocker` needs `letter`".to_string(),
            "test.def:6:1".to_string()
        )
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}blocker {{\n  clause \"x\"\n  letter K\n}}\n"
        )),
        (
            "`K` is the letter of the king".to_string(),
            "test.def:8:10".to_string()
        )
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}blocker {{\n  clause \"x\"\n  letter d\n}}\n"
        ))
        .0,
        "expected a capital letter, found `d`"
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}blocker {{\n  clause \"x\"\n  letter D\n  shoot yes\n}}\n"
        ))
        .0,
        "unknown setting `shoot` of `blocker`; did you mean `shot`?"
    );
}

#[test]
fn sanctuaries_and_regions_kept_out_read_with_their_settings() {
    let d = parse(
        "t.def",
        &format!(
            "{BASE}sanctuary {{\n  clause \"x\"\n  by K\n  from inside\n  both area b2-c3\n}}\n\
             no-entry {{\n  clause \"y\"\n  pieces K\n  white file a\n}}\n\
             region-move {{\n  clause \"z\"\n  pieces P\n  move sW\n  replace yes\n  black areas h8-g7\n}}\n"
        ),
        &loader(&[]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let cells = |l: &[(u8, u8)]| Region {
        cells: l.iter().map(|&(file, rank)| Cell { file, rank }).collect(),
    };
    let square = cells(&[(1, 1), (1, 2), (2, 1), (2, 2)]);
    assert_eq!(
        d.rules[0].component,
        Component::Sanctuary {
            pieces: vec!['K', 'P'],
            region: [square.clone(), square],
            by: vec!['K'],
            from: Reach::Inside,
            from_zones: None,
            attacks: true,
        }
    );
    assert_eq!(
        d.rules[1].component,
        Component::NoEntry {
            pieces: vec!['K'],
            region: [
                cells(&(0..8).map(|r| (0, r)).collect::<Vec<_>>()),
                Region::default()
            ],
            while_present: None,
            opened_by: Vec::new(),
            except_beside: Vec::new(),
        }
    );
    assert_eq!(
        d.rules[2].component,
        Component::RegionMove {
            pieces: vec!['P'],
            region: [Region::default(), cells(&[(6, 6), (6, 7), (7, 6), (7, 7)])],
            movement: "sW".into(),
            within: false,
            replace: true,
        }
    );
    // Each bad setting at its place, with the valid ones.
    assert_eq!(
        one_error(&format!(
            "{BASE}sanctuary {{\n  clause \"x\"\n  from insde\n  both rank 1\n}}\n"
        )),
        (
            "expected `anywhere`, `inside` or `outside`, found `insde`; did you mean `inside`?"
                .to_string(),
            "test.def:8:8".to_string()
        )
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}sanctuary {{\n  clause \"x\"\n  bye K\n  both rank 1\n}}\n"
        )),
        (
            "unknown setting `bye` of `sanctuary`; did you mean `by`?".to_string(),
            "test.def:8:3".to_string()
        )
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}sanctuary {{\n  clause \"x\"\n  by Q\n  both rank 1\n}}\n"
        ))
        .0,
        "`Q` is not a piece of this definition"
    );
    assert_eq!(
        one_error(&format!("{BASE}sanctuary {{\n  clause \"x\"\n}}\n")).0,
        "`sanctuary` needs a region"
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}no-entry {{\n  clause \"x\"\n  both file a\n}}\n"
        ))
        .0,
        "`no-entry` needs `pieces`"
    );
    assert_eq!(
        one_error(&format!("{BASE}no-entyr {{\n  clause \"x\"\n}}\n")).0,
        "unknown statement `no-entyr`; did you mean `no-entry`?"
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}region-move {{\n  clause \"x\"\n  pieces P\n  move W\n  replace maybe\n  both rank 4\n}}\n"
        )),
        (
            "expected `yes` or `no`, found `maybe`".to_string(),
            "test.def:10:11".to_string()
        )
    );
    // An area is two squares of the board joined by `-`.
    for (area, col) in [("b2-i5", 13), ("b2", 13), ("b2-", 13), ("a0-b2", 13)] {
        assert_eq!(
            one_error(&format!(
                "{BASE}no-entry {{\n  clause \"x\"\n  pieces K\n  both area {area}\n}}\n"
            )),
            (
                format!("`{area}` is not two squares of the board joined by `-`"),
                format!("test.def:9:{col}")
            )
        );
    }
}

/// Pockets and promoted kinds in a FEN: read where the game has hands, each mistake at its
/// column with what was expected.
#[test]
fn pockets_and_promoted_kinds_read_and_refuse() {
    use super::fen::{self, Placed};
    let letters: Vec<char> = "KPT".chars().collect();
    let shape = fen::Shape {
        names: None,
        files: 3,
        ranks: 3,
        holes: &[],
        letters: &letters,
        promoted: &[('P', 'T')],
        pockets: true,
        blockers: false,
    };
    let f = fen::parse("k2/1+P1/2K[PPp] w 0 1", &shape).expect("a FEN");
    assert_eq!(
        f.hand,
        vec![
            ('P', Color::White),
            ('P', Color::White),
            ('P', Color::Black)
        ]
    );
    assert!(matches!(
        f.at(Cell { file: 1, rank: 1 }),
        Placed::Piece { letter: 'T', .. }
    ));
    assert_eq!(f.fullmove, 1);
    let same = fen::parse("k2/1+P1/2K/PPp w 0 1", &shape).expect("a pocket as a rank");
    assert_eq!(same.hand, f.hand);
    let err = |text: &str| fen::parse(text, &shape).unwrap_err();
    assert_eq!(err("k2/3/2K[P").column, 7);
    assert!(err("k2/3/2K[P").message.contains("closes with `]`"));
    assert!(err("k2/3/2K[Q]").message.contains("`Q` in the pocket"));
    assert!(err("k2/+K2/2K[]")
        .message
        .contains("`K` promotes into no kind"));
    let none = fen::Shape {
        pockets: false,
        ..shape
    };
    assert!(fen::parse("k2/3/2K[P]", &none)
        .unwrap_err()
        .message
        .contains("for games with drops"));
}

#[test]
fn conversions_read_and_refuse() {
    let d = parse(
        "t.def",
        &format!(
            "{BASE}drops {{\n  clause \"x\"\n  pieces P\n  free yes\n  onto enclosing\n  opening e5 d4 d5 e4\n}}\n\
             flip {{\n  clause \"y\"\n  pattern lines\n}}\n\
             pass {{\n  clause \"z\"\n  stuck yes\n  value count\n}}\n\
             full-board {{\n  clause \"w\"\n}}\n\
             piece D disc none\n"
        ),
        &loader(&[]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let Component::Drops {
        free,
        onto,
        opening,
        ..
    } = &d.rules[0].component
    else {
        panic!("{:?}", d.rules[0].component)
    };
    assert!(*free);
    assert_eq!(*onto, Onto::Enclosing);
    let names: Vec<String> = opening
        .cells
        .iter()
        .map(|c| crate::definition::fen::square_name(*c))
        .collect();
    assert_eq!(names, ["d4", "d5", "e4", "e5"]);
    assert_eq!(
        d.rules[1].component,
        Component::Flip {
            pattern: FlipPattern::Lines
        }
    );
    assert_eq!(
        d.rules[2].component,
        Component::Pass {
            value: Value::Count,
            stuck: true
        }
    );
    assert_eq!(
        d.rules[3].component,
        Component::FullBoard {
            value: Value::Count
        }
    );
    assert!(d
        .pieces
        .iter()
        .any(|p| p.letter == 'D' && p.design.atoms().is_empty()));
    // A free drop alone gives no hands; one from the hand does.
    assert!(!d.rules[0].component.gives_hands());
    assert_eq!(
        one_error(&format!("{BASE}flip {{\n  clause \"x\"\n}}\n")),
        (
            "`flip` needs `pattern`".to_string(),
            "test.def:6:1".to_string()
        )
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}flip {{\n  clause \"x\"\n  pattern neighbors\n}}\n"
        ))
        .0,
        "expected `neighbours` or `lines`, found `neighbors`; did you mean `neighbours`?"
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}drops {{\n  clause \"x\"\n  onto touching\n}}\n"
        ))
        .0,
        "expected `anywhere`, `next-to-own` or `enclosing`, found `touching`"
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}drops {{\n  clause \"x\"\n  opening d4 i9\n}}\n"
        )),
        (
            "`i9` is not a square of this 8x8 board".to_string(),
            "test.def:8:14".to_string()
        )
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}full-board {{\n  clause \"x\"\n  value most\n}}\n"
        ))
        .0,
        "expected `win`, `loss`, `draw` or `count`, found `most`"
    );
    assert_eq!(
        one_error(&format!("{BASE}piece D disc nothing\n")).0,
        "the move `nothing` does not read as Betza notation: `o` at 1 (move across the board edge) is not supported: only leaps, riders, hoppers (p g), lame leaps (n), direction modifiers and m/c are"
    );
}

/// Betza text nested deeper than the parser's bound is one error at the `(` past the bound,
/// with its line and column and the bound, whatever the depth: 100,000 levels cost no more.
#[test]
fn a_move_nested_too_deep_is_an_error_at_its_place() {
    let deep = format!("{}W{}", "(".repeat(100_000), ")".repeat(100_000));
    let text = format!("variant deep\nfrom chess\npiece A amazon {deep} \"x\"\n");
    let (message, at) = one_error(&text);
    let column = "piece A amazon ".len() + crate::betza::MAX_GROUP_DEPTH + 1;
    assert_eq!(at, format!("test.def:3:{column}"));
    assert!(
        message.contains(&format!(
            "nests too deep: at most {} groups",
            crate::betza::MAX_GROUP_DEPTH
        )),
        "{message}"
    );
}

/// A 5x5 board that names its own squares: files `v` to `z`, ranks from 0.
const NAMED: &str = "variant named
board 5x5 {
  files v w x y z
  first-rank 0
}
holes v4
piece K king K      royal
piece P pawn fmWfcF pawn
start \"*3k/5/5/5/2K2 w - x2 0 1\"
promotion {
  clause \"x\"
  white rank 4
  black rank 0
  into K
}
confine {
  clause \"x\"
  pieces K
  both area w1-y3
  white files v
  white square z0
}
";

#[test]
fn a_board_block_names_the_squares() {
    use super::fen;
    let d = read(NAMED).unwrap_or_else(|e| panic!("{e}"));
    let g = d.geometry;
    assert_eq!((g.files, g.ranks, g.first_rank()), (5, 5, 0));
    assert_eq!(g.file_labels(), ["v", "w", "x", "y", "z"]);
    assert_eq!(Cell { file: 0, rank: 0 }.name(&g), "v0");
    assert_eq!(Cell::named(&g, "z4"), Some(Cell { file: 4, rank: 4 }));
    assert_eq!(Cell::named(&g, "a1"), None);
    assert_eq!(Cell::named(&g, "v5"), None);
    assert_eq!(Cell::named(&g, "v00"), None);
    assert_eq!(Cell::named(&g, "w01"), None);
    assert_eq!(d.holes, [Cell { file: 0, rank: 4 }]);
    let Component::Promotion { region, .. } = &d.rules[0].component else {
        panic!("{:?}", d.rules[0].component);
    };
    // `rank 4` is the top rank (holes left out), `rank 0` the bottom one.
    let top: Vec<Cell> = (1..5).map(|file| Cell { file, rank: 4 }).collect();
    assert_eq!(region[0].cells, top);
    assert_eq!(region[1], rank(5, 0));
    let Component::Confine { region, .. } = &d.rules[1].component else {
        panic!("{:?}", d.rules[1].component);
    };
    let white = &region[0].cells;
    assert!(
        white.contains(&Cell { file: 1, rank: 1 }) && white.contains(&Cell { file: 3, rank: 3 })
    );
    assert!(
        white.contains(&Cell { file: 0, rank: 3 }) && white.contains(&Cell { file: 4, rank: 0 })
    );
    assert!(!region[1].cells.contains(&Cell { file: 0, rank: 0 }));
    // The start's en-passant square reads by the names too.
    let shape = fen::Shape {
        names: Some(g),
        files: 5,
        ranks: 5,
        holes: &d.holes,
        letters: &['K', 'P'],
        promoted: &[],
        pockets: false,
        blockers: false,
    };
    let f = fen::parse(&d.start, &shape).unwrap();
    assert_eq!(f.en_passant, [Cell { file: 2, rank: 2 }]);
    let bad = fen::parse("*3k/5/5/5/2K2 w - c3 0 1", &shape).unwrap_err();
    assert_eq!(
        bad.message,
        "expected an en-passant square (a file one of `v w x y z`, then a rank) or `-`, found `c`"
    );
    let bad = fen::parse("*3k/5/5/5/2K2 w - x5 0 1", &shape).unwrap_err();
    assert_eq!(
        bad.message,
        "`x5` is not a square of the board (ranks 0 to 4)"
    );
    // Without a block, files are lettered and ranks count from 1.
    let d = read(BASE).unwrap();
    assert_eq!(d.geometry, crate::rules::board::Geometry::lettered(8, 8));
    // The same letters give the same interned table, whoever reads them.
    let again = read(NAMED).unwrap();
    assert!(std::ptr::eq(again.geometry.file_labels(), g.file_labels()));
}

#[test]
fn castling_files_read_by_the_names() {
    let text = "variant c
board 8x8 {
  files s t u v w x y z
}
piece K king K royal
piece R rook R
start \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"
castling {
  clause \"x\"
  king-to t y
  rook-to u x
}
";
    let d = read(text).unwrap_or_else(|e| panic!("{e}"));
    let Component::Castling {
        king_to, rook_to, ..
    } = &d.rules[0].component
    else {
        panic!("{:?}", d.rules[0].component);
    };
    assert_eq!((*king_to, *rook_to), ([1, 6], [2, 5]));
    let (message, at) = one_error(&text.replace("king-to t y", "king-to b y"));
    assert_eq!(
        (message.as_str(), at.as_str()),
        (
            "expected a file of this board, `s t u v w x y z` from left to right, found `b`",
            "test.def:10:11"
        )
    );
}

#[test]
fn board_block_errors() {
    let named = |block: &str| BASE.replace("board 8x8\n", &format!("board 8x8 {{\n{block}}}\n"));
    let cases: &[(&str, &str, &str)] = &[
        (
            "  files a b c\n",
            "`files` gives 3 labels, but the board (8x8) has 8 files",
            "test.def:3:9",
        ),
        (
            "  files a b c d e f g h i\n",
            "`files` gives 9 labels, but the board (8x8) has 8 files",
            "test.def:3:9",
        ),
        (
            "  files z a b c d e f a\n",
            "file label `a` is given twice (files 2 and 8 from the left)",
            "test.def:3:23",
        ),
        (
            "  files z a b C d e f g\n",
            "`C` is not a file label: a label is one small letter `a` to `z`",
            "test.def:3:15",
        ),
        (
            "  files z a b cc d e f g\n",
            "`cc` is not a file label: a label is one small letter `a` to `z`",
            "test.def:3:15",
        ),
        (
            "  files\n",
            "`files` needs a label for each of the board's 8 files, left to right",
            "test.def:3:3",
        ),
        (
            "  first-rank 10\n",
            "expected a number from 0 to 9, found `10`",
            "test.def:3:14",
        ),
        (
            "  first-rank\n",
            "`first-rank` needs a value: the number of the first rank, 0 to 9",
            "test.def:3:3",
        ),
        (
            "  first-rank 0\n  first-rank 1\n",
            "`first-rank` is given twice (first at 3:3)",
            "test.def:4:3",
        ),
        (
            "  ranks 0\n",
            "unknown setting `ranks` of `board`",
            "test.def:3:3",
        ),
    ];
    for (block, message, at) in cases {
        let (m, a) = one_error(&named(block));
        assert_eq!((m.as_str(), a.as_str()), (*message, *at), "{block}");
    }
    // The help says why labels are single letters, and lists the settings.
    let e = errors(&named("  files z a\n"));
    let help = e.errors[0].problem.help.clone().unwrap();
    assert!(help.contains("one small letter"), "{help}");
    let e = errors(&named("  file z a b c d e f g\n"));
    assert!(
        e.errors[0].problem.message.contains("did you mean `files`"),
        "{}",
        e.errors[0].problem.message
    );
    // A square of the lettered board is no square of a named one: the error names the board's
    // own files and ranks.
    let text = NAMED.replace("holes v4", "holes v4 a1");
    let e = errors(&text);
    assert_eq!(e.errors.len(), 1, "{e}");
    assert_eq!(
        e.errors[0].problem.message,
        "`a1` is not a square of this 5x5 board"
    );
    assert_eq!(
        e.errors[0].problem.help.as_deref(),
        Some(
            "a square is a file of this board, `v w x y z` from left to right and a rank 0 to \
             4, as in `v0`"
        )
    );
    // A broken block stops the reading there: the squares after it would be read by names
    // the definition does not mean, each a second error.
    let (m, _) = one_error(&NAMED.replace("files v w x y z", "files v w x y"));
    assert_eq!(m, "`files` gives 4 labels, but the board (5x5) has 5 files");
    let (m, _) = one_error(&NAMED.replace("first-rank 0", "first-rank 0 1"));
    assert!(m.starts_with("`first-rank` takes one value"), "{m}");
    let (m, _) = one_error(&NAMED.replace("white rank 4", "white rank 5"));
    assert_eq!(m, "expected a number from 0 to 4, found `5`");
    let (m, _) = one_error(&NAMED.replace("white files v", "white files a"));
    assert_eq!(
        m,
        "expected a file of this board, `v w x y z` from left to right, found `a`"
    );
    let e = errors(&NAMED.replace("area w1-y3", "area b2-d4"));
    assert!(
        e.errors[0]
            .problem
            .help
            .as_deref()
            .unwrap()
            .contains("as in `v0-z4`"),
        "{:?}",
        e.errors[0].problem.help
    );
    let e = errors(&NAMED.replace("w - x2", "w - c3"));
    assert!(
        e.errors[0].problem.message.contains("one of `v w x y z`"),
        "{}",
        e.errors[0].problem.message
    );
}

#[test]
fn a_child_inherits_the_names_with_the_board() {
    let load = loader(&[("named", NAMED)]);
    let child = "variant child\nfrom named\ntitle \"t\"\n";
    let d = parse("child.def", child, &load).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.geometry.file_labels(), ["v", "w", "x", "y", "z"]);
    assert_eq!(d.geometry.first_rank(), 0);
    // A child's `board` replaces the names with the size: without a block, the lettering.
    let child = "variant child\nfrom named\nboard 5x5\nholes a5\nstart \"*3k/5/5/5/2K2 w - - 0 1\"\nwithout confine\npromotion {\n  clause \"x\"\n  white rank 5\n  black rank 1\n  into K\n}\n";
    let d = parse("child.def", child, &load).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.geometry, crate::rules::board::Geometry::lettered(5, 5));
    assert_eq!(d.holes, [Cell { file: 0, rank: 4 }]);
}

#[test]
fn formatting_keeps_the_board_block() {
    assert_eq!(super::fmt::format(NAMED).unwrap(), NAMED);
    let squeezed = NAMED.replace(
        "board 5x5 {\n  files v w x y z\n  first-rank 0\n}",
        "board   5x5 {\nfiles v  w x y z\n   first-rank 0 }",
    );
    assert_eq!(super::fmt::format(&squeezed).unwrap(), NAMED);
}

#[test]
fn every_prefix_of_a_named_board_reads_without_panic() {
    let cypher = include_str!("../../variants/cypher-board.def");
    for text in [NAMED, cypher] {
        for end in (0..=text.len()).filter(|&e| text.is_char_boundary(e)) {
            let _ = read(&text[..end]);
        }
    }
    // Labels past the board's width, odd characters and huge numbers are errors, not panics.
    for block in [
        "  files a b c d e f g h i j k l m n o p q\n",
        "  files é b c d e f g h\n",
        "  files \"a\" b c d e f g h\n",
        "  first-rank 99999999999999999999\n",
        "  first-rank -1\n",
        "  files\n  files\n",
        "  first-rank 0 {\n  }\n",
    ] {
        let text = BASE.replace("board 8x8\n", &format!("board 8x8 {{\n{block}}}\n"));
        assert!(read(&text).is_err(), "{block}");
    }
}

#[test]
fn contacts_read_with_their_settings_and_defaults() {
    let d = read(&format!(
        "{BASE}adjacency {{\n  clause \"x\"\n  pieces K\n  beside P\n}}\n\
         alignment {{\n  clause \"y\"\n  pieces P\n  facing K\n  of own\n  moved into\n  effect win\n  \
         lines diagonal\n  gap 2\n  standing piece\n  other-moved no\n  white rank 1\n}}\n"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        d.rules[0].component,
        Component::Adjacency(Contact {
            pieces: vec!['K'],
            beside: vec!['P'],
            of: Whose::Enemy,
            moved: Moved::Any,
            effect: Effect::Illegal,
            region: [Region::default(), Region::default()],
            standing: Standing::Both,
            lines: Lines::All,
            gap: 1,
            priority: 0,
            disarms: false,
            other_moved: None,
            elsewhere: None,
        })
    );
    let Component::Alignment(k) = &d.rules[1].component else {
        panic!("{:?}", d.rules[1].component);
    };
    assert_eq!(k.other_moved, Some(false));
    assert_eq!(
        (k.of, k.moved, k.effect, k.lines, k.gap, k.standing),
        (
            Whose::Own,
            Moved::Into,
            Effect::Win,
            Lines::Diagonal,
            2,
            Standing::Piece
        )
    );
    assert_eq!(k.region[0], rank(8, 0));
    assert!(k.region[1].cells.is_empty());
}

#[test]
fn contacts_used_wrongly_are_errors_at_their_place() {
    let block = |body: &str| format!("{BASE}adjacency {{\n  clause \"x\"\n{body}}}\n");
    assert_eq!(
        one_error(&block("  beside K\n")),
        (
            "`adjacency` needs `pieces`".to_string(),
            "test.def:6:1".to_string()
        )
    );
    assert_eq!(
        one_error(&format!(
            "{BASE}alignment {{\n  clause \"x\"\n  pieces K\n}}\n"
        ))
        .0,
        "`alignment` needs `facing`"
    );
    assert_eq!(
        one_error(&block("  pieces K\n  beside Z\n")).0,
        "`Z` is not a piece of this definition"
    );
    assert_eq!(
        one_error(&block("  pieces K\n  beside P\n  effect los\n")),
        (
            "expected `illegal`, `win` or `loss`, found `los`; did you mean `loss`?".to_string(),
            "test.def:10:10".to_string()
        )
    );
    assert_eq!(
        one_error(&block("  pieces K\n  beside P\n  moved into\n")).0,
        "`moved into` needs a region to move into"
    );
    assert_eq!(
        one_error(&block("  pieces K\n  beside P\n  standing piece\n")).0,
        "`standing` says which piece stands in the region, and there is none"
    );
    assert_eq!(
        one_error(&block("  pieces K\n  beside P\n  both square z9\n")).0,
        one_error(&format!(
            "{BASE}confine {{\n  clause \"x\"\n  pieces K\n  both square z9\n}}\n"
        ))
        .0,
        "a region off the board is refused as every region is"
    );
    assert_eq!(
        one_error(&block("  pieces K\n  beside P\n  elsewhere loss\n")).0,
        "`elsewhere` is the effect outside the region, and there is none"
    );
    assert_eq!(
        one_error(&block("  pieces K\n  beside P\n  disarms yes\n")).0,
        "`disarms yes` is for a contact that wins: only a winning turn sets the other piece's \
         attacks aside"
    );
    assert_eq!(
        one_error(&block("  pieces K\n  beside P\n  gap 1\n")).0,
        "`gap` is not a setting of `adjacency` (it is one of `alignment`)"
    );
}

#[test]
fn a_setting_line_may_depend_on_a_reading() {
    let option = "option o {\n  values a b c\n  default b\n  reason \"r\"\n}\n";
    let text = format!(
        "{BASE}{option}adjacency {{\n  clause \"x\"\n  pieces K\n  beside P\n  effect illegal\n  \
         effect loss when o a\n  effect win when o c\n}}\n"
    );
    let d = read(&text).unwrap_or_else(|e| panic!("{e}"));
    type Reading = Vec<(String, String)>;
    let got: Vec<(String, Reading, Effect)> = d
        .rules
        .iter()
        .map(|r| match &r.component {
            Component::Adjacency(k) => (r.id.clone(), r.when.clone(), k.effect),
            c => panic!("{c:?}"),
        })
        .collect();
    let when = |v: &str| vec![("o".to_string(), v.to_string())];
    // The default reading first, then the others in the option's order.
    assert_eq!(
        got,
        [
            ("adjacency".to_string(), when("b"), Effect::Illegal),
            ("adjacency".to_string(), when("a"), Effect::Loss),
            ("adjacency".to_string(), when("c"), Effect::Win),
        ]
    );
    // A component's own `when` keeps only the readings it applies under.
    let own = text.replace("  effect illegal\n", "  effect illegal\n  when o a\n");
    let d = read(&own).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.rules.len(), 1);
    assert_eq!(d.rules[0].when, when("a"));
    // Errors: an unknown option or value, a `when` with too little, and `id` per reading.
    let with = |line: &str| {
        format!(
            "{BASE}{option}adjacency {{\n  clause \"x\"\n  pieces K\n  beside P\n  {line}\n}}\n"
        )
    };
    assert_eq!(
        one_error(&with("effect loss when p a")).0,
        "`when` names an unknown option `p`; did you mean `o`?"
    );
    assert!(one_error(&with("effect loss when o d"))
        .0
        .starts_with("option `o` has no value `d`"));
    assert_eq!(
        one_error(&with("effect loss when o")).0,
        "`when` at the end of a setting names an option and one of its values, after the \
         setting's own values"
    );
    assert_eq!(
        one_error(&with("id other when o a")).0,
        "`id` is the same under every reading: it takes no `when`"
    );
    // Two lines for one reading are a setting given twice.
    assert!(
        one_error(&with("effect loss when o a\n  effect win when o a"))
            .0
            .starts_with("`effect` is given twice")
    );
}

#[test]
fn transparent_pieces_read_with_the_whole_board_by_default() {
    let d = read(&format!(
        "{BASE}transparent {{\n  clause \"x\"\n  pieces P\n}}\n"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let Component::Transparent { pieces, region } = &d.rules[0].component else {
        panic!("{:?}", d.rules[0].component);
    };
    assert_eq!(pieces, &['P']);
    assert_eq!(region[0].cells.len(), 64);
    assert_eq!(region[0], region[1]);
    assert_eq!(
        one_error(&format!("{BASE}transparent {{\n  clause \"x\"\n}}\n")).0,
        "`transparent` needs `pieces`"
    );
}

#[test]
fn a_region_kept_while_a_piece_stands_there_reads_and_refuses_bad_lines() {
    let block = |line: &str| {
        format!("{BASE}no-entry {{\n  clause \"x\"\n  pieces K\n  {line}\n  both rank 8\n}}\n")
    };
    let d = read(&block("while enemy P")).unwrap_or_else(|e| panic!("{e}"));
    let Component::NoEntry { while_present, .. } = &d.rules[0].component else {
        panic!("{:?}", d.rules[0].component);
    };
    assert_eq!(while_present, &Some((Whose::Enemy, vec!['P'])));
    assert!(one_error(&block("while foe P"))
        .0
        .starts_with("expected `own` or `enemy`, found `foe`"));
    assert_eq!(
        one_error(&block("while enemy")).0,
        "`while` takes a side (`own` or `enemy`) and the kinds that must stand in the region"
    );
    assert_eq!(
        one_error(&block("while own X")).0,
        "`X` is not a piece of this definition"
    );
}

#[test]
fn a_region_opened_by_an_exit_reads() {
    let d = read(&format!(
        "{BASE}no-entry {{\n  clause \"x\"\n  pieces K\n  opened-by P\n  both rank 4\n}}\n"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let Component::NoEntry { opened_by, .. } = &d.rules[0].component else {
        panic!("{:?}", d.rules[0].component);
    };
    assert_eq!(opened_by, &['P']);
    assert_eq!(
        one_error(&format!(
            "{BASE}no-entry {{\n  clause \"x\"\n  pieces K\n  opened-by Z\n  both rank 4\n}}\n"
        ))
        .0,
        "`Z` is not a piece of this definition"
    );
}

/// A game with a re-take window and prisoners, for the `fen` layout's tests.
fn with_state(layout: &str) -> String {
    format!(
        "variant t\nboard 4x4\npiece K king K royal\npiece P pawn fmWfcF pawn\npiece R rook R\n\
         {layout}\nstart \"k3/4/4/K3 w 0/0 -\"\n\
         prisoners {{\n  clause \"c\"\n  pieces P\n}}\n\
         sanctuary {{\n  clause \"c\"\n  pieces R\n  both rank 2\n}}\n\
         retake {{\n  clause \"c\"\n  pieces R\n  both rank 2\n}}\n"
    )
}

#[test]
fn a_fen_layout_names_its_fields() {
    let d = read(&with_state("fen placement side prisoners retake")).unwrap();
    use super::layout::Field as F;
    assert_eq!(
        d.fen,
        Some(vec![F::Placement, F::Side, F::Prisoners, F::Retake])
    );
    let (m, at) = one_error(&with_state("fen placement side prisoners retak"));
    assert!(m.contains("`retak`") && m.contains("`retake`"), "{m}");
    assert_eq!(at, "test.def:6:30");
    let (m, _) = one_error(&with_state("fen side placement prisoners retake"));
    assert!(m.contains("starts with `placement`, then `side`"), "{m}");
    let (m, _) = one_error(&with_state("fen placement side prisoners retake retake"));
    assert!(m.contains("named twice"), "{m}");
    let (m, _) = one_error(&with_state("fen placement side prisoners retake castling"));
    assert!(
        m.contains("no component of this definition keeps `castling`"),
        "{m}"
    );
    let (m, _) = one_error(&with_state("fen placement side prisoners"));
    assert!(m.contains("leaves out retake"), "{m}");
}

#[test]
fn a_start_in_a_layout_is_read_by_it() {
    let text = with_state("fen placement side prisoners retake")
        .replace("k3/4/4/K3 w 0/0 -", "k3/4/4/K3 w 0/x -");
    let (m, at) = one_error(&text);
    assert!(m.contains("the prisoners field `0/x`"), "{m}");
    assert_eq!(at, "test.def:7:20");
}

/// A `defection` of pawns on the last rank, with `extra` lines in its block.
fn defection(extra: &str) -> String {
    format!(
        "{BASE}piece Q queen Q\ndefection {{\n  id coup\n  clause \"c\"\n  pieces P\n  ranking Q P\n  white rank 8\n  black rank 1\n{extra}}}\n"
    )
}

#[test]
fn a_defection_reads_its_parts() {
    let d = read(&defection(
        "  bare K\n  part choice \"The coup maker chooses.\" \"VI.ii.b\"\n",
    ))
    .unwrap();
    let r = d.rules.iter().find(|r| r.id == "coup").unwrap();
    assert_eq!(r.parts.len(), 1);
    assert_eq!(r.parts[0].name, "choice");
    assert_eq!(r.parts[0].source.as_deref(), Some("VI.ii.b"));
    let Component::Defection {
        ranking,
        bare,
        counted,
        ..
    } = &r.component
    else {
        panic!("{:?}", r.component)
    };
    assert_eq!(
        (ranking.as_slice(), bare.as_slice()),
        (&['Q', 'P'][..], &['K'][..])
    );
    assert_eq!(*counted, Counted::AfterSwitch);
    let (m, _) = one_error(&defection("  part choise \"c\"\n"));
    assert!(m.contains("`choise`") && m.contains("`choice`"), "{m}");
    let (m, _) = one_error(&defection("  part choice \"a\"\n  part choice \"b\"\n"));
    assert!(m.contains("the part `choice` is given twice"), "{m}");
    let (m, _) = one_error(&defection("  part choice\n"));
    assert!(m.contains("`part` takes a name and a clause"), "{m}");
    let (m, _) = one_error(&defection("  counted before-switch\n"));
    assert!(m.contains("`bare` for `counted`"), "{m}");
    let (m, _) = one_error(&format!(
        "{BASE}defection {{\n  clause \"c\"\n  pieces P\n  white rank 8\n  black rank 1\n}}\n"
    ));
    assert!(m.contains("`ranking`"), "{m}");
    let (m, _) = one_error(&format!(
        "{BASE}sanctuary {{\n  clause \"c\"\n  both rank 4\n  part choice \"c\"\n}}\n"
    ));
    assert!(m.contains("`part` is not a setting of `sanctuary`"), "{m}");
}

#[test]
fn an_infiltration_needs_its_pieces_trigger_and_targets() {
    let ok = format!(
        "{BASE}piece N knight N\ninfiltration {{\n  id raid\n  clause \"c\"\n  pieces N\n  by K\n  targets d1 d8\n  once yes\n  both ranks 4 5\n}}\n"
    );
    let d = read(&ok).unwrap();
    let Component::Infiltration {
        targets,
        once,
        alone,
        ..
    } = &d.rules.last().unwrap().component
    else {
        panic!("{:?}", d.rules.last())
    };
    assert_eq!((targets.len(), *once, *alone), (2, true, false));
    let (m, _) = one_error(&ok.replace("  targets d1 d8\n", ""));
    assert!(m.contains("`targets`"), "{m}");
    let (m, _) = one_error(&ok.replace("  by K\n", ""));
    assert!(m.contains("`by`"), "{m}");
    let (m, at) = one_error(&ok.replace("targets d1 d8", "targets d1 d9"));
    assert!(m.contains("d9"), "{m}");
    assert_eq!(at, "test.def:12:14");
    let (m, _) = one_error(&ok.replace("  once yes\n", "  part once \"c\"\n  part onse \"d\"\n"));
    assert!(m.contains("`onse`"), "{m}");
}

#[test]
fn a_part_may_have_an_id_of_its_own() {
    let d = read(&defection("  part choice as coup-choosing \"c\"\n")).unwrap();
    let r = d.rules.iter().find(|r| r.id == "coup").unwrap();
    assert_eq!(r.part_id("choice"), "coup-choosing");
    assert_eq!(r.part_id("bare-king"), "coup-bare-king");
    let (m, _) = one_error(&defection("  part choice as Bad_Id \"c\"\n"));
    assert!(m.contains("Bad_Id"), "{m}");
}

/// One rule may be written in several statements of a kind a definition holds many of, each
/// with the `id` line; a later one may leave out the clause, which is the first's.
#[test]
fn a_rule_may_take_several_statements() {
    let text = format!(
        "{BASE}piece Q queen Q\npiece S spy Q\n\
         sanctuary {{\n  id spy-powers\n  clause \"The Spy captures only in Court.\"\n  pieces Q\n  by S\n  both ranks 2 3 4 5 6 7\n}}\n\
         sanctuary {{\n  id spy-powers\n  pieces Q\n  by S\n  from outside\n  both ranks 1 8\n}}\n"
    );
    let d = read(&text).unwrap_or_else(|e| panic!("{e}"));
    let same: Vec<&Rule> = d.rules.iter().filter(|r| r.id == "spy-powers").collect();
    assert_eq!(same.len(), 2);
    assert_eq!(same[1].clause, "The Spy captures only in Court.");
    // A child drops the whole rule with one `without`.
    let child = "variant c\nfrom t\nwithout spy-powers\n";
    let d = parse("c.def", child, &loader(&[("t", &text)])).unwrap_or_else(|e| panic!("{e}"));
    assert!(d.rules.iter().all(|r| r.id != "spy-powers"));
    // Of two kinds, or without the id written out, it is an id used twice.
    let (m, _) = one_error(&format!(
        "{BASE}sanctuary {{\n  id z\n  clause \"c\"\n  both rank 4\n}}\nno-entry {{\n  id z\n  clause \"c\"\n  pieces K\n  both rank 4\n}}\n"
    ));
    assert!(m.contains("rule id `z` is used twice"), "{m}");
    let (m, _) = one_error(&format!(
        "{BASE}sanctuary {{\n  clause \"c\"\n  both rank 4\n}}\nsanctuary {{\n  clause \"c\"\n  both rank 5\n}}\n"
    ));
    assert!(m.contains("rule id `sanctuary` is used twice"), "{m}");
}

/// Zones are declared by name, named by later region lines and a sanctuary's `from`, and a
/// name that is no zone is an error with the zones declared.
#[test]
fn zones_are_named_and_reused() {
    let text = format!(
        "{BASE}zone {{\n  id zones\n  name middle\n  clause \"The middle ranks.\"\n  both ranks 4 5\n}}\nzone {{\n  id zones\n  name edge\n  both ranks 1 8\n}}\nsanctuary {{\n  clause \"x\"\n  pieces P\n  from edge\n  both zone middle\n}}\n"
    );
    let d = read(&text).unwrap_or_else(|e| panic!("{e}"));
    let Component::Sanctuary {
        region, from_zones, ..
    } = &d.rules[2].component
    else {
        panic!("{:?}", d.rules[2].component);
    };
    assert_eq!(region[0].cells.len(), 16);
    assert_eq!(
        from_zones
            .as_ref()
            .map(|(n, z)| (n.clone(), z[1].cells.len())),
        Some((vec!["edge".to_string()], 16))
    );
    let (message, at) = one_error(&format!(
        "{BASE}zone {{\n  name middle\n  clause \"x\"\n  both ranks 4 5\n}}\nsanctuary {{\n  clause \"x\"\n  both zone midle\n}}\n"
    ));
    assert_eq!(
        (message.as_str(), at.as_str()),
        (
            "no zone named `midle`; did you mean `middle`?",
            "test.def:13:13"
        )
    );
    let (message, _) = one_error(&format!(
        "{BASE}zone {{\n  name middle\n  clause \"x\"\n}}\n"
    ));
    assert!(message.contains("a region"), "{message}");
    let (message, at) = one_error(&format!(
        "{BASE}zone {{\n  id zones\n  name middle\n  clause \"x\"\n  both ranks 4 5\n}}\nzone {{\n  id zones\n  name middle\n  both rank 3\n}}\n"
    ));
    assert_eq!(
        (message.as_str(), at.as_str()),
        ("the zone `middle` is declared twice", "test.def:12:1")
    );
}

/// `invented` names every invented piece where a rule of zones may hold for them, and is an
/// error elsewhere; `rule` gives words only to the engine's rules; a piece's `as` names its
/// movement's rule.
#[test]
fn invented_words_and_piece_ids() {
    let d = read(&format!(
        "{BASE}sanctuary {{\n  clause \"x\"\n  pieces P invented\n  by K invented\n  both rank 4\n}}\n"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let Component::Sanctuary { pieces, by, .. } = &d.rules[0].component else {
        panic!();
    };
    assert_eq!(
        (pieces.as_slice(), by.as_slice()),
        (&['P', INVENTED][..], &['K', INVENTED][..])
    );
    let (message, at) = one_error(&format!(
        "{BASE}adjacency {{\n  clause \"x\"\n  pieces K\n  beside invented\n}}\n"
    ));
    assert_eq!(
        (message.as_str(), at.as_str()),
        ("`beside` does not take `invented`", "test.def:9:10")
    );
    let d = read(&format!(
        "{BASE}rule not-your-turn \"White moves first.\" \"the house rules\"\n"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.words[0].clause, "White moves first.");
    let (message, _) = one_error(&format!("{BASE}rule not-your-tun \"x\"\n"));
    assert_eq!(
        message,
        "`not-your-tun` is no rule of the engine's here; did you mean `not-your-turn`?"
    );
    let (message, _) = one_error(&format!("{BASE}rule action-by-action \"x\"\n"));
    assert!(
        message.contains("no rule of the engine's here"),
        "{message}"
    );
    let d = read(&BASE.replace(
        "piece P pawn fmWfcF pawn",
        "piece P pawn fmWfcF pawn as step",
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.pieces[1].move_rule(), "step");
    assert_eq!(d.pieces[0].move_rule(), "king-move");
    // A piece whose `as` is wrong is still a piece: the one error is the `as`.
    let (message, _) = one_error(&BASE.replace("piece K king K royal", "piece K king K royal as"));
    assert_eq!(message, "`as` names the rule id of the piece's movement");
    let (message, at) = one_error(&format!(
        "{BASE}rule not-your-turn \"a\"\nrule not-your-turn \"b\"\n"
    ));
    assert_eq!(
        (message.as_str(), at.as_str()),
        (
            "the words of rule `not-your-turn` are given twice (first at 6:1)",
            "test.def:7:6"
        )
    );
}

/// A `property` is read into formulas, each name resolved: the zones, squares, pieces, sides
/// and state keys of the definition; a line that reads the turn makes it a step property.
#[test]
fn properties_are_read_into_formulas() {
    use super::property::{Kind, Quantifier};
    let text = format!(
        "{BASE}zone {{\n  clause \"z\"\n  name back\n  white ranks 1\n  black ranks 8\n}}\n\
         property no-pawn-home \"no pawn on its back rank\" {{\n  no P in back\n}}\n\
         property kept \"captures only\" {{\n  count piece = before count piece - removed piece\n  \
         every white K is not in-check or to-move white\n}}\n"
    );
    let d = read(&text).unwrap_or_else(|e| panic!("{e}"));
    let [home, kept] = d.properties.as_slice() else {
        panic!("two properties: {:?}", d.properties);
    };
    assert_eq!((home.name.as_str(), home.step), ("no-pawn-home", false));
    assert_eq!(home.clause, "no pawn on its back rank");
    let Kind::Quantified {
        quantifier: Quantifier::No,
        within: Some(place),
        ..
    } = &home.lines[0].kind
    else {
        panic!("{:?}", home.lines[0]);
    };
    assert_eq!(place.cells[0].len(), 8);
    assert!(place.cells[0].iter().all(|c| c.rank == 0));
    assert!(place.cells[1].iter().all(|c| c.rank == 7));
    assert!(kept.step, "`before` and `removed` read the turn");
    assert_eq!(kept.lines.len(), 2);
    assert_eq!(
        kept.lines[1].text,
        "every white K is not in-check or to-move white"
    );
}

/// Every error of a formula is at its word, with the names valid there.
#[test]
fn property_errors_point_at_the_word() {
    let prop = |body: &str| format!("{BASE}property p \"c\" {{\n  {body}\n}}\n");
    let cases = [
        (
            "no Q in court",
            "`Q` is no piece of this definition; did you mean `K` or `P`?",
            "7:6",
        ),
        (
            "no pawn in cort",
            "`cort` is no zone or square of this definition",
            "7:14",
        ),
        (
            "count K = 1 and in-check",
            "`in-check` alone is about the piece a quantifier names, and none is named here",
            "7:19",
        ),
        (
            "count own K = 1",
            "`own` is relative to a side, and none is named here",
            "7:9",
        ),
        (
            "did mvoe > 0",
            "`mvoe` is no action; did you mean `move`?",
            "7:7",
        ),
        (
            "removed P by capturing = 0",
            "`capturing` is no way of leaving the board; did you mean `capture`?",
            "7:16",
        ),
        ("(count P = 1", "the `(` here is not closed", "7:3"),
        ("count P = 1 )", "a `)` closes no `(`", "7:15"),
        (
            "prisoners white = 0",
            "this definition keeps no `prisoners`",
            "7:3",
        ),
        (
            "before removed P = 0",
            "`removed` is about the turn, not about the position before it",
            "7:10",
        ),
        (
            "every K",
            "`every` needs what holds of each: `is` or `has` and a formula",
            "7:3",
        ),
        (
            "count P =",
            "the formula ends where a number was expected",
            "7:12",
        ),
        (
            "cuont P = 0",
            "`cuont` starts no formula or number; did you mean `count`?",
            "7:3",
        ),
        ("count P \"x\"", "a formula has no quoted words", "7:11"),
    ];
    let found: Vec<(String, String)> = cases
        .iter()
        .map(|(body, _, _)| one_error(&prop(body)))
        .collect();
    let wanted: Vec<(String, String)> = cases
        .iter()
        .map(|(_, m, at)| (m.to_string(), format!("test.def:{at}")))
        .collect();
    assert_eq!(found, wanted);
    let (m, _) = one_error(&format!("{BASE}property p {{\n  no P\n}}\n"));
    assert_eq!(m, "`property` takes a name and a clause in quotes");
    let (m, _) = one_error(&format!("{BASE}property p \"c\"\n"));
    assert_eq!(m, "property `p` states no formula");
    let (m, loc) = one_error(&format!(
        "{BASE}property p \"c\" {{\n  no P\n}}\nproperty p \"d\" {{\n  no K\n}}\n"
    ));
    assert_eq!(
        (m.as_str(), loc.as_str()),
        (
            "property `p` is stated twice (first at 6:1)",
            "test.def:9:10"
        )
    );
}

/// A child inherits its parent's properties, replaces one by writing its name again and drops
/// one with `without property`.
#[test]
fn properties_are_inherited_replaced_and_dropped() {
    let parent = format!(
        "{BASE}property a \"a\" {{\n  count K = 2\n}}\nproperty b \"b\" {{\n  count P = 0\n}}\n"
    );
    let load = loader(&[("parent", parent.as_str())]);
    let child = "variant child\nfrom parent\nproperty a \"a again\" {\n  count K >= 1\n}\n\
                 without property b\n";
    let d = parse("child.def", child, &load).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<(&str, &str)> = d
        .properties
        .iter()
        .map(|p| (p.name.as_str(), p.clause.as_str()))
        .collect();
    assert_eq!(names, [("a", "a again")]);
    let e = parse(
        "child.def",
        "variant child\nfrom parent\nwithout property c\n",
        &load,
    )
    .expect_err("no property c");
    assert_eq!(
        e.messages(),
        ["there is no inherited property `c` to drop; did you mean `a` or `b`?"]
    );
    let (m, _) = one_error(&format!("{BASE}property \"p\" \"c\" {{\n  no P\n}}\n"));
    assert_eq!(m, "`property` takes a name and a clause in quotes");
}
