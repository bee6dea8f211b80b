//! Assertions: what follows `expect`.

use pest::iterators::Pair;

use super::{Builder, Res};
use crate::rules::Color;
use crate::scenario::ast::{Assertion, ExpectedResult, PieceName, Spanned};
use crate::scenario::parse::grammar::Rule;

impl Builder {
    /// `assertion = { legal_assert | illegal_assert | ... | key_assert }`
    pub(crate) fn assertion(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let p = self.only(&pair)?;
        match p.as_rule() {
            Rule::legal_assert => self.legal_assert(p),
            Rule::illegal_assert => self.illegal_assert(p),
            Rule::moves_from_list => self.moves_from_list(p),
            Rule::moves_from_count => self.moves_from_count(p),
            Rule::moves_count => self.moves_count(p),
            Rule::moves_list => self.moves_list(p),
            Rule::check_assert => Ok(self.check_assert(p)),
            Rule::no_check_assert => Ok(self.no_check_assert(p)),
            Rule::result_assert => self.result_assert(p),
            Rule::zone_assert => self.zone_assert(p),
            Rule::perft_assert => self.perft_assert(p),
            Rule::win_assert => self.win_assert(p),
            Rule::cost_assert => self.cost_assert(p),
            Rule::invariant_assert => self.invariant_assert(p),
            Rule::occupant_assert => self.occupant_assert(p),
            Rule::key_assert => self.key_assert(p),
            _ => Err(self.bug(&p)),
        }
    }

    /// `legal_assert = { kw_legal ~ turn }`
    pub(crate) fn legal_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let p = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::turn)
            .ok_or_else(|| self.missing("turn", &pair))?;
        Ok(Assertion::Legal(self.turn(p)?))
    }

    /// `illegal_assert = { kw_illegal ~ turn ~ (kw_because ~ rule_id)? }`
    pub(crate) fn illegal_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut turn = None;
        let mut because = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::turn => turn = Some(self.turn(p)?),
                Rule::rule_id => because = Some(self.rule_id(p)),
                _ => {}
            }
        }
        let turn = turn.ok_or_else(|| self.missing("turn", &whole))?;
        Ok(Assertion::Illegal(turn, because))
    }

    /// `moves_list = { kw_moves ~ eq ~ lbrace ~ (move_number | turn)* ~ rbrace }`
    pub(crate) fn moves_list(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let turns = pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::turn)
            .map(|p| self.turn(p))
            .collect::<Res<Vec<_>>>()?;
        Ok(Assertion::Moves(turns))
    }

    /// `moves_from_list = { kw_moves ~ kw_from ~ lone_square ~ eq ~ lbrace ~ lone_square* ~
    /// rbrace }`
    pub(crate) fn moves_from_list(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut squares = pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::lone_square)
            .map(|p| self.lone_square(p))
            .collect::<Res<Vec<_>>>()?;
        if squares.is_empty() {
            return Err(self.missing("square", &whole));
        }
        let from = squares.remove(0);
        Ok(Assertion::MovesFrom(from, squares))
    }

    /// `moves_from_count = { kw_moves ~ kw_from ~ lone_square ~ kw_count ~ number }`
    pub(crate) fn moves_from_count(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut square = None;
        let mut n = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::lone_square => square = Some(self.lone_square(p)?),
                Rule::number => n = Some(self.number(p)),
                _ => {}
            }
        }
        let square = square.ok_or_else(|| self.missing("square", &whole))?;
        let n = n.ok_or_else(|| self.missing("number", &whole))?;
        Ok(Assertion::MovesFromCount(square, n))
    }

    /// `moves_count = { kw_moves ~ kw_count ~ number }`
    pub(crate) fn moves_count(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let p = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::number)
            .ok_or_else(|| self.missing("number", &pair))?;
        Ok(Assertion::MovesCount(self.number(p)))
    }

    /// `check_assert = { kw_check }`
    pub(crate) fn check_assert(&mut self, _pair: Pair<Rule>) -> Assertion {
        Assertion::Check(true)
    }

    /// `no_check_assert = { kw_no ~ kw_check }`
    pub(crate) fn no_check_assert(&mut self, _pair: Pair<Rule>) -> Assertion {
        Assertion::Check(false)
    }

    /// `result_assert = { kw_result ~ outcome ~ (kw_by ~ reason)? }`
    pub(crate) fn result_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut outcome = None;
        let mut reason = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::outcome => outcome = Some(self.outcome(p)?),
                Rule::reason => reason = Some(self.reason(p)),
                _ => {}
            }
        }
        let outcome = outcome.ok_or_else(|| self.missing("outcome", &whole))?;
        Ok(Assertion::Result(outcome, reason))
    }

    /// `outcome = { color ~ kw_wins | kw_draw | kw_none }`
    pub(crate) fn outcome(&mut self, pair: Pair<Rule>) -> Res<ExpectedResult> {
        let p = self.only(&pair)?;
        match p.as_rule() {
            Rule::color => Ok(ExpectedResult::Wins(self.color(p)?)),
            Rule::kw_draw => Ok(ExpectedResult::Draw),
            Rule::kw_none => Ok(ExpectedResult::None),
            _ => Err(self.bug(&p)),
        }
    }

    /// `reason = @{ name }`.
    pub(crate) fn reason(&mut self, pair: Pair<Rule>) -> Spanned<String> {
        // Checked against the reasons in evaluation, with the other names a file uses.
        self.spanned_text(&pair)
    }

    /// `zone_assert = { kw_zone ~ lone_square ~ eq ~ name }`
    pub(crate) fn zone_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut square = None;
        let mut zone = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::lone_square => square = Some(self.lone_square(p)?),
                Rule::name => zone = Some(self.spanned_text(&p)),
                _ => {}
            }
        }
        let square = square.ok_or_else(|| self.missing("square", &whole))?;
        let zone = zone.ok_or_else(|| self.missing("zone", &whole))?;
        Ok(Assertion::Zone(square, zone))
    }

    /// `perft_assert = { kw_perft ~ number ~ eq ~ number }`
    pub(crate) fn perft_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let numbers: Vec<Pair<Rule>> = pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::number)
            .collect();
        match &numbers[..] {
            [depth, n] => {
                let depth = self.number_u32(depth.clone());
                let n = self.number(n.clone());
                Ok(Assertion::Perft(depth, n))
            }
            _ => Err(self.missing("numbers", &whole)),
        }
    }

    /// `win_assert = { kw_win ~ kw_in ~ number ~ kw_for ~ color }`
    pub(crate) fn win_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut n = None;
        let mut color = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::number => n = Some(self.number_u32(p)),
                Rule::color => color = Some(self.color(p)?),
                _ => {}
            }
        }
        let n = n.ok_or_else(|| self.missing("number", &whole))?;
        let color = color.ok_or_else(|| self.missing("colour", &whole))?;
        Ok(Assertion::WinIn(n, color))
    }

    /// `cost_assert = { kw_cost ~ (design | design_name) ~ eq ~ number }`
    pub(crate) fn cost_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut design = None;
        let mut n = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::design | Rule::design_name => {
                    let d = self.any_design(p)?;
                    design = Some(Spanned::new(d.text, d.span));
                }
                Rule::number => n = Some(self.number(p)),
                _ => {}
            }
        }
        let design = design.ok_or_else(|| self.missing("design", &whole))?;
        let n = n.ok_or_else(|| self.missing("number", &whole))?;
        Ok(Assertion::Cost(design, n))
    }

    /// `invariant_assert = { kw_invariant ~ name ~ kw_to ~ kw_depth ~ number }`
    pub(crate) fn invariant_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut name = None;
        let mut depth = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::name => name = Some(self.spanned_text(&p)),
                Rule::number => depth = Some(self.number_u32(p)),
                _ => {}
            }
        }
        let name = name.ok_or_else(|| self.missing("name", &whole))?;
        let depth = depth.ok_or_else(|| self.missing("depth", &whole))?;
        Ok(Assertion::Invariant(name, depth))
    }

    /// `occupant_assert = { lone_square ~ eq ~ (kw_empty | occupant) }`
    pub(crate) fn occupant_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut square = None;
        let mut occupant = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::lone_square => square = Some(self.lone_square(p)?),
                Rule::occupant => occupant = Some(self.occupant(p)?),
                _ => {}
            }
        }
        let square = square.ok_or_else(|| self.missing("square", &whole))?;
        Ok(Assertion::Occupant(square, occupant))
    }

    /// `occupant = { color ~ piece_name }`
    pub(crate) fn occupant(&mut self, pair: Pair<Rule>) -> Res<(Color, PieceName)> {
        let whole = pair.clone();
        let mut color = None;
        let mut piece = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::color => color = Some(self.color(p)?),
                Rule::piece_name => piece = Some(self.piece_name(p)?),
                _ => {}
            }
        }
        let color = color.ok_or_else(|| self.missing("colour", &whole))?;
        let piece = piece.ok_or_else(|| self.missing("piece", &whole))?;
        Ok((color, piece))
    }

    /// `key_assert = { key_value }`
    pub(crate) fn key_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let p = self.only(&pair)?;
        Ok(Assertion::Key(self.key_value(p)?))
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Color;
    use crate::scenario::ast::{Assertion, ExpectedResult, PieceName, Value};
    use crate::scenario::parse::test_util::*;

    #[test]
    fn assertion_forms() {
        assert!(matches!(assertion("legal Bc3-b4"), Assertion::Legal(t) if t.text == "Bc3-b4"));
        assert!(matches!(assertion("illegal O-O"), Assertion::Illegal(t, None) if t.text == "O-O"));
        match assertion("moves = { 1. e2-e4 Nf3 O-O; P=WD }") {
            Assertion::Moves(t) => assert_eq!(
                t.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
                ["e2-e4", "Nf3", "O-O; P=WD"]
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(assertion("moves = {}"), Assertion::Moves(vec![]));
        match assertion("moves from d0 = { d1 z0 e10 }") {
            Assertion::MovesFrom(from, to) => {
                assert_eq!(from.text(), "d0");
                assert_eq!(
                    to.iter().map(|s| s.text()).collect::<Vec<_>>(),
                    ["d1", "z0", "e10"]
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(assertion("moves count 20"), Assertion::MovesCount(20));
        assert!(
            matches!(assertion("moves from e2 count 2"), Assertion::MovesFromCount(s, 2) if s.text() == "e2")
        );
        assert_eq!(assertion("check"), Assertion::Check(true));
        assert_eq!(assertion("no check"), Assertion::Check(false));
        assert!(matches!(
            assertion("result white wins by checkmate"),
            Assertion::Result(ExpectedResult::Wins(Color::White), Some(r)) if r.node == "checkmate"
        ));
        assert!(matches!(
            assertion("result black wins by kill-rule"),
            Assertion::Result(ExpectedResult::Wins(Color::Black), Some(r)) if r.node == "kill-rule"
        ));
        assert!(matches!(
            assertion("result draw by stalemate"),
            Assertion::Result(ExpectedResult::Draw, Some(_))
        ));
        assert_eq!(
            assertion("result none"),
            Assertion::Result(ExpectedResult::None, None)
        );
        assert!(matches!(
            assertion("e4 = white pawn"),
            Assertion::Occupant(s, Some((Color::White, p))) if s.text() == "e4" && p.text() == "pawn"
        ));
        assert!(matches!(
            assertion("z10 = black S"),
            Assertion::Occupant(_, Some((Color::Black, p))) if p.text() == "S"
        ));
        assert!(matches!(
            assertion("e4 = black (WD)"),
            Assertion::Occupant(_, Some((Color::Black, PieceName::Design(d)))) if d.text == "WD"
        ));
        assert!(matches!(
            assertion("a1 = white gatekeeper"),
            Assertion::Occupant(_, Some((Color::White, p))) if p.text() == "gatekeeper"
        ));
        assert!(matches!(
            assertion("e4 = empty"),
            Assertion::Occupant(_, None)
        ));
        assert!(
            matches!(assertion("zone d0 = court"), Assertion::Zone(s, z) if s.text() == "d0" && z.node == "court")
        );
        assert_eq!(assertion("perft 3 = 8902"), Assertion::Perft(3, 8902));
        assert_eq!(
            assertion("win in 2 for black"),
            Assertion::WinIn(2, Color::Black)
        );
        assert!(matches!(assertion("cost (WD) = 5"), Assertion::Cost(d, 5) if d.node == "WD"));
        assert!(matches!(assertion("cost BL = 7"), Assertion::Cost(d, 7) if d.node == "BL"));
        assert!(matches!(
            assertion("invariant one-king-each to depth 3"),
            Assertion::Invariant(n, 3) if n.node == "one-king-each"
        ));
        match assertion("treasury white = 3") {
            Assertion::Key(kv) => {
                assert_eq!(kv.key.node, "treasury");
                assert_eq!(kv.color, Some(Color::White));
                assert_eq!(kv.value.node, Value::Word("3".into()));
            }
            other => panic!("{other:?}"),
        }
        // Keywords end at word boundaries: `checks` is a key, not `check` + `s`.
        assert!(
            matches!(assertion("checks white = 2"), Assertion::Key(kv) if kv.key.node == "checks")
        );
        assert!(matches!(assertion("results = 1"), Assertion::Key(kv) if kv.key.node == "results"));
        assert!(
            matches!(assertion("reserve black = (WD) (BL)"), Assertion::Key(kv) if kv.value.node.text() == "(WD) (BL)")
        );
    }
}
