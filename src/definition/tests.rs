//! Tests of the definition language: chess.def to its model, every error with its message,
//! inheritance, formatting, and robustness.

use super::model::*;
use super::{parse, Errors};

const CHESS: &str = include_str!("../../variants/chess.def");

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

#[allow(dead_code)]
fn read(text: &str) -> Result<Definition, Errors> {
    parse("test.def", text, &loader(&[]))
}

#[allow(dead_code)]
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
    assert_eq!(d.options.len(), 1);
    assert_eq!(d.options[0].name, "chess960");
    assert_eq!(d.options[0].values, ["off", "on"]);
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
            },
            Component::Promotion {
                pieces: vec!['P'],
                region: [rank(8, 7), rank(8, 0)],
                into: [vec!['Q', 'R', 'B', 'N'], vec!['Q', 'R', 'B', 'N']],
                mandatory: true,
                captured_only: false,
                limits: vec![],
            },
            Component::Castling {
                king: 'K',
                rooks: vec!['R'],
                king_to: [2, 6],
                rook_to: [3, 5],
                chess960: false,
                rank: 1,
                rooks_from: None,
            },
            Component::Castling {
                king: 'K',
                rooks: vec!['R'],
                king_to: [2, 6],
                rook_to: [3, 5],
                chess960: true,
                rank: 1,
                rooks_from: None,
            },
            Component::Check {
                safety: Safety::All
            },
            Component::Checkmate { value: Value::Loss },
            Component::Stalemate { value: Value::Draw },
            Component::Repetition { times: 3 },
            Component::MoveCount { moves: 50 },
        ]
    );
    for r in &d.rules {
        if r.id != "castling-960" {
            assert_eq!(r.id, r.component.name());
        }
        assert_eq!(r.source, "FIDE Laws of Chess");
        assert_eq!(r.when.is_empty(), r.component.name() != "castling");
        assert!(!r.clause.is_empty());
    }
    assert!(d.rules[1]
        .clause
        .starts_with("A pawn that could have captured"));
    assert_eq!((d.rules[0].span.line, d.rules[0].span.col), (23, 1));
}
