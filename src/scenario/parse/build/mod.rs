//! The builder of the typed syntax tree ([`crate::scenario::ast`]): one function per grammar
//! rule, each node with its byte span in the whole file (also when a part of the file was
//! parsed on its own during error recovery). The functions live beside the family of nodes
//! they build: the file header and options, positions, turns, assertions, and the tokens
//! that all of them share.

mod assertions;
mod header;
mod position;
mod tokens;
mod turns;

use pest::iterators::Pair;

use super::grammar::Rule;
use crate::scenario::ast::{File, Scenario, Span, Spanned, Statement, StatementKind};
use crate::scenario::diagnostic::Problem;

pub(crate) type Res<T> = Result<T, Problem>;

/// Where a node's last token ends: past its last inner node, only the literals of its rule
/// count, not the whitespace and comments skipped after them. A node without inner nodes is
/// a token (or an atomic rule, which skips nothing) and ends where it ends.
fn content_end(pair: &Pair<Rule>) -> usize {
    let span = pair.as_span();
    let Some(last) = pair.clone().into_inner().last() else {
        return span.end();
    };
    let mut end = content_end(&last);
    let tail = &pair.as_str()[end - span.start()..];
    let mut chars = tail.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            ' ' | '\t' | '\r' | '\n' => {}
            '#' => while chars.next_if(|&(_, c)| c != '\n').is_some() {},
            _ => end = span.end() - tail.len() + i + c.len_utf8(),
        }
    }
    end
}

/// Builds syntax-tree nodes from pest pairs of `src[offset..]`, collecting semantic problems.
pub(crate) struct Builder {
    offset: usize,
    pub(crate) problems: Vec<Problem>,
}

impl Builder {
    pub(crate) fn new(offset: usize) -> Builder {
        Builder {
            offset,
            problems: Vec::new(),
        }
    }

    /// A node's span, from its first token to its last: pest lets a rule that ends in a
    /// repetition (`design+`) run on over the whitespace and comments after it, which `--bless`
    /// would then overwrite.
    pub(crate) fn span(&self, pair: &Pair<Rule>) -> Span {
        pair.as_span().start() + self.offset..content_end(pair) + self.offset
    }

    pub(crate) fn spanned_text(&self, pair: &Pair<Rule>) -> Spanned<String> {
        Spanned::new(pair.as_str().to_string(), self.span(pair))
    }

    /// The syntax tree does not have the shape the grammar promises: a bug, reported, not a
    /// panic.
    pub(crate) fn bug(&self, pair: &Pair<Rule>) -> Problem {
        Problem::new(
            format!(
                "internal error: unexpected {:?} in the syntax tree",
                pair.as_rule()
            ),
            self.span(pair),
            "here",
        )
    }

    pub(crate) fn missing(&self, what: &str, pair: &Pair<Rule>) -> Problem {
        Problem::new(
            format!("internal error: no {what} in {:?}", pair.as_rule()),
            self.span(pair),
            "here",
        )
    }

    /// The only meaningful child of a pair.
    pub(crate) fn only<'i>(&self, pair: &Pair<'i, Rule>) -> Res<Pair<'i, Rule>> {
        pair.clone()
            .into_inner()
            .next()
            .ok_or_else(|| self.missing("child", pair))
    }

    // ---- Entry points ----------------------------------------------------------------------

    /// `file = { file_start ~ variant_line ~ option_setting* ~ scenario+ ~ EOI }`
    pub(crate) fn file(&mut self, pair: Pair<Rule>) -> Res<File> {
        let whole = pair.clone();
        let mut variant = None;
        let mut size = None;
        let mut options = Vec::new();
        let mut scenarios = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::variant_line => {
                    let (v, s) = self.variant_line(p)?;
                    variant = Some(v);
                    size = s;
                }
                Rule::option_setting => options.push(self.option_setting(p)?),
                Rule::scenario => scenarios.push(self.scenario(p)?),
                _ => {}
            }
        }
        let variant = variant.ok_or_else(|| self.missing("variant line", &whole))?;
        Ok(File {
            variant,
            size,
            options,
            scenarios,
        })
    }

    /// `header = { file_start ~ variant_line ~ option_setting* }`, only checked during
    /// recovery: a file without its scenarios, built as a file is.
    pub(crate) fn header(&mut self, pair: Pair<Rule>) -> Res<File> {
        self.file(pair)
    }

    /// `scenario_tail = { SOI ~ scenario+ ~ EOI }`
    pub(crate) fn scenario_tail(&mut self, pair: Pair<Rule>) -> Res<Vec<Scenario>> {
        pair.into_inner()
            .filter(|p| p.as_rule() == Rule::scenario)
            .map(|p| self.scenario(p))
            .collect()
    }

    // ---- Scenarios and statements ----------------------------------------------------------

    /// `scenario = { kw_scenario ~ string ~ lbrace ~ statement* ~ rbrace }`
    pub(crate) fn scenario(&mut self, pair: Pair<Rule>) -> Res<Scenario> {
        let span = self.span(&pair);
        let whole = pair.clone();
        let mut title = None;
        let mut statements = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::string => title = Some(self.string(p)?),
                Rule::statement => statements.push(self.statement(p)?),
                _ => {}
            }
        }
        let title = title.ok_or_else(|| self.missing("title", &whole))?;
        Ok(Scenario {
            title,
            statements,
            span,
        })
    }

    /// `statement = { rule_stmt | option_stmt | ... | expect_stmt }`
    pub(crate) fn statement(&mut self, pair: Pair<Rule>) -> Res<Statement> {
        let span = self.span(&pair);
        let p = self.only(&pair)?;
        let kind = match p.as_rule() {
            Rule::rule_stmt => self.rule_stmt(p),
            Rule::pending_stmt => self.pending_stmt(p)?,
            Rule::option_stmt => self.option_stmt(p)?,
            Rule::start_stmt => self.start_stmt(p),
            Rule::board_stmt => self.board_stmt(p)?,
            Rule::fen_stmt => self.fen_stmt(p)?,
            Rule::side_to_move_stmt => self.side_to_move_stmt(p)?,
            Rule::set_stmt => self.set_stmt(p)?,
            Rule::play_stmt => self.play_stmt(p)?,
            Rule::expect_stmt => self.expect_stmt(p)?,
            _ => return Err(self.bug(&p)),
        };
        Ok(Statement { kind, span })
    }

    /// `rule_stmt = { kw_rule ~ rule_id+ }`
    pub(crate) fn rule_stmt(&mut self, pair: Pair<Rule>) -> StatementKind {
        StatementKind::Rule(
            pair.into_inner()
                .filter(|p| p.as_rule() == Rule::rule_id)
                .map(|p| self.rule_id(p))
                .collect(),
        )
    }

    /// `rule_id = @{ !(statement_word ~ !name_char) ~ name }`
    pub(crate) fn rule_id(&mut self, pair: Pair<Rule>) -> Spanned<String> {
        self.spanned_text(&pair)
    }

    /// `play_stmt = { kw_play ~ (move_number | turn)+ }`
    pub(crate) fn play_stmt(&mut self, pair: Pair<Rule>) -> Res<StatementKind> {
        let turns = pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::turn)
            .map(|p| self.turn(p))
            .collect::<Res<Vec<_>>>()?;
        Ok(StatementKind::Play(turns))
    }

    /// `expect_stmt = { kw_expect ~ assertion }`
    pub(crate) fn expect_stmt(&mut self, pair: Pair<Rule>) -> Res<StatementKind> {
        let p = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::assertion)
            .ok_or_else(|| self.missing("assertion", &pair))?;
        Ok(StatementKind::Expect(self.assertion(p)?))
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::ast::StatementKind;
    use crate::scenario::parse::test_util::*;

    #[test]
    fn rule_statement_takes_several_ids_and_stops_at_statement_words() {
        let s = statements("rule a-b c1 white-pawns\nboard { white: Ke1 }");
        match &s[0] {
            StatementKind::Rule(ids) => assert_eq!(
                ids.iter().map(|i| i.node.as_str()).collect::<Vec<_>>(),
                ["a-b", "c1", "white-pawns"]
            ),
            other => panic!("{other:?}"),
        }
        assert!(matches!(s[1], StatementKind::Board(_)));
    }

    #[test]
    fn play_skips_move_numbers() {
        match one("play 1. e2-e4 e7-e5 2. Nf3 2... Nc6 3.Bb5") {
            StatementKind::Play(t) => assert_eq!(
                t.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
                ["e2-e4", "e7-e5", "Nf3", "Nc6", "Bb5"]
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn statements_follow_each_other_without_terminators() {
        let s = statements("start play e2-e4 expect check expect no check white to move");
        assert_eq!(s.len(), 5);
    }
}
