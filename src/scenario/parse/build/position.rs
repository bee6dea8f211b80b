//! Positions and state: `start`, `board { ... }`, `fen "..."`, `white to move`,
//! `set <key> [<colour>] = <value>` (and the key-value pair that `expect` shares).

use pest::iterators::Pair;

use super::{Builder, Res};
use crate::rules::Color;
use crate::scenario::ast::{KeyValue, Placement, Spanned, StatementKind, Value};
use crate::scenario::parse::grammar::Rule;

impl Builder {
    /// `start_stmt = { kw_start }`
    pub(crate) fn start_stmt(&mut self, _pair: Pair<Rule>) -> StatementKind {
        StatementKind::Start
    }

    /// `board_stmt = { kw_board ~ lbrace ~ board_side* ~ rbrace }`
    pub(crate) fn board_stmt(&mut self, pair: Pair<Rule>) -> Res<StatementKind> {
        let mut placements = Vec::new();
        for p in pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::board_side)
        {
            placements.extend(self.board_side(p)?);
        }
        Ok(StatementKind::Board(placements))
    }

    /// `board_side = { color ~ colon ~ placement* }`
    pub(crate) fn board_side(&mut self, pair: Pair<Rule>) -> Res<Vec<Placement>> {
        let mut color = None;
        let mut placements = Vec::new();
        for p in pair.clone().into_inner() {
            match p.as_rule() {
                Rule::color => color = Some(self.color(p)?),
                Rule::placement => {
                    let c = color.ok_or_else(|| self.missing("colour", &pair))?;
                    placements.push(self.placement(p, c)?);
                }
                _ => {}
            }
        }
        Ok(placements)
    }

    /// `placement = ${ piece? ~ square ~ !name_char }`
    pub(crate) fn placement(&mut self, pair: Pair<Rule>, color: Color) -> Res<Placement> {
        let span = self.span(&pair);
        let (piece, square) = self.piece_and_square(pair)?;
        Ok(Placement {
            color,
            piece,
            square,
            span,
        })
    }

    /// `pending_stmt = { kw_pending ~ string }`
    pub(crate) fn pending_stmt(&mut self, pair: Pair<Rule>) -> Res<StatementKind> {
        let p = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::string)
            .ok_or_else(|| self.missing("string", &pair))?;
        Ok(StatementKind::Pending(self.string(p)?))
    }

    /// `fen_stmt = { kw_fen ~ string }`
    pub(crate) fn fen_stmt(&mut self, pair: Pair<Rule>) -> Res<StatementKind> {
        let p = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::string)
            .ok_or_else(|| self.missing("string", &pair))?;
        Ok(StatementKind::Fen(self.string(p)?))
    }

    /// `side_to_move_stmt = { color ~ kw_to ~ kw_move }`
    pub(crate) fn side_to_move_stmt(&mut self, pair: Pair<Rule>) -> Res<StatementKind> {
        let p = self.only(&pair)?;
        Ok(StatementKind::ToMove(self.color(p)?))
    }

    /// `set_stmt = { kw_set ~ key_value }`
    pub(crate) fn set_stmt(&mut self, pair: Pair<Rule>) -> Res<StatementKind> {
        let p = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::key_value)
            .ok_or_else(|| self.missing("key", &pair))?;
        Ok(StatementKind::Set(self.key_value(p)?))
    }

    /// `key_value = { key ~ color? ~ eq ~ value }`
    pub(crate) fn key_value(&mut self, pair: Pair<Rule>) -> Res<KeyValue> {
        let whole = pair.clone();
        let mut key = None;
        let mut color = None;
        let mut value = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::key => key = Some(self.spanned_text(&p)),
                Rule::color => color = Some(self.color(p)?),
                Rule::value => value = Some(self.value(p)?),
                _ => {}
            }
        }
        Ok(KeyValue {
            key: key.ok_or_else(|| self.missing("key", &whole))?,
            color,
            value: value.ok_or_else(|| self.missing("value", &whole))?,
        })
    }

    /// `value = { designs | string | word }`
    pub(crate) fn value(&mut self, pair: Pair<Rule>) -> Res<Spanned<Value>> {
        let span = self.span(&pair);
        let p = self.only(&pair)?;
        let value = match p.as_rule() {
            Rule::designs => Value::Designs(self.designs(p)?),
            Rule::string => Value::Text(self.string(p)?.node),
            Rule::word => Value::Word(p.as_str().to_string()),
            _ => return Err(self.bug(&p)),
        };
        Ok(Spanned::new(value, span))
    }

    /// `designs = { design+ }`
    pub(crate) fn designs(&mut self, pair: Pair<Rule>) -> Res<Vec<String>> {
        pair.into_inner()
            .filter(|p| p.as_rule() == Rule::design)
            .map(|p| self.design(p).map(|d| d.text))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Color;
    use crate::scenario::ast::{PieceName, StatementKind, Value};
    use crate::scenario::parse::test_util::*;

    #[test]
    fn board_with_pawns_and_designs() {
        match one("board {\n white: Ke2 a3 (WD)e4 (WbRbmHfB)z10\n black:\n Ke8 }") {
            StatementKind::Board(p) => {
                assert_eq!(p.len(), 5);
                assert_eq!(p[1].piece, None);
                assert_eq!(p[1].square.text(), "a3");
                assert!(matches!(&p[2].piece, Some(PieceName::Design(d)) if d.text == "WD"));
                assert!(matches!(&p[3].piece, Some(PieceName::Design(d)) if d.text == "WbRbmHfB"));
                assert_eq!(p[3].square.file, "z");
                assert_eq!(p[3].square.rank, "10");
                assert_eq!(p[4].color, Color::Black);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(one("board { }"), StatementKind::Board(vec![]));
    }

    #[test]
    fn fen_and_side_to_move() {
        match one(r#"fen "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq - 0 1""#) {
            StatementKind::Fen(f) => assert!(f.node.starts_with("rnbqkbnr/8")),
            other => panic!("{other:?}"),
        }
        assert_eq!(one("black to move"), StatementKind::ToMove(Color::Black));
        assert_eq!(one("white to move"), StatementKind::ToMove(Color::White));
    }

    #[test]
    fn set_statements() {
        let cases = [
            (
                "set treasury white = 3",
                "treasury",
                Some(Color::White),
                Value::Word("3".into()),
            ),
            (
                "set reserve black = (WD) (WD)",
                "reserve",
                Some(Color::Black),
                Value::Designs(vec!["WD".into(), "WD".into()]),
            ),
            (
                "set infiltration-used black = yes",
                "infiltration-used",
                Some(Color::Black),
                Value::Word("yes".into()),
            ),
            (
                "set castling = KQkq",
                "castling",
                None,
                Value::Word("KQkq".into()),
            ),
            (
                "set en-passant = -",
                "en-passant",
                None,
                Value::Word("-".into()),
            ),
            (
                "set en-passant = e3",
                "en-passant",
                None,
                Value::Word("e3".into()),
            ),
            (
                "set note = \"a b\"",
                "note",
                None,
                Value::Text("a b".into()),
            ),
            (
                "set checks white = 2",
                "checks",
                Some(Color::White),
                Value::Word("2".into()),
            ),
        ];
        for (text, key, color, value) in cases {
            match one(text) {
                StatementKind::Set(kv) => {
                    assert_eq!(kv.key.node, key, "{text}");
                    assert_eq!(kv.color, color, "{text}");
                    assert_eq!(kv.value.node, value, "{text}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }
}
