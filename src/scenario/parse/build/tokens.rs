//! Tokens that every family of nodes uses: pieces, squares, colours, strings and numbers.

use pest::iterators::Pair;

use super::{Builder, Res};
use crate::rules::Color;
use crate::scenario::ast::{Design, PieceName, Spanned, SquareName};
use crate::scenario::diagnostic::Problem;
use crate::scenario::parse::grammar::Rule;
use crate::scenario::parse::messages::quoted;

impl Builder {
    // ---- Pieces and squares ----------------------------------------------------------------

    /// `piece = { piece_letter | design }`
    pub(crate) fn piece(&mut self, pair: Pair<Rule>) -> Res<PieceName> {
        let p = self.only(&pair)?;
        match p.as_rule() {
            Rule::piece_letter => Ok(PieceName::Name(self.spanned_text(&p))),
            Rule::design => Ok(PieceName::Design(self.design(p)?)),
            _ => Err(self.bug(&p)),
        }
    }

    /// `piece_name = { design | piece_word | role_letter }`
    pub(crate) fn piece_name(&mut self, pair: Pair<Rule>) -> Res<PieceName> {
        let p = self.only(&pair)?;
        match p.as_rule() {
            Rule::design => Ok(PieceName::Design(self.design(p)?)),
            Rule::piece_word | Rule::role_letter => Ok(PieceName::Name(self.spanned_text(&p))),
            _ => Err(self.bug(&p)),
        }
    }

    /// `design = ${ "(" ~ design_name ~ ")" }`: the text without parentheses, the span with
    /// them.
    pub(crate) fn design(&mut self, pair: Pair<Rule>) -> Res<Design> {
        let span = self.span(&pair);
        let p = self.only(&pair)?;
        Ok(Design {
            text: p.as_str().to_string(),
            span,
        })
    }

    /// `design_name = @{ (ASCII_ALPHANUMERIC | design_group)+ }`
    pub(crate) fn design_name(&mut self, pair: Pair<Rule>) -> Design {
        let Spanned { node, span } = self.spanned_text(&pair);
        Design { text: node, span }
    }

    /// A design with or without its parentheses (`buy`, `redesign`, `cost`).
    pub(crate) fn any_design(&mut self, pair: Pair<Rule>) -> Res<Design> {
        match pair.as_rule() {
            Rule::design => self.design(pair),
            Rule::design_name => Ok(self.design_name(pair)),
            _ => Err(self.bug(&pair)),
        }
    }

    /// The piece (if written) and the square (required) of a placement, a drop or a coup.
    pub(crate) fn piece_and_square(
        &mut self,
        pair: Pair<Rule>,
    ) -> Res<(Option<PieceName>, SquareName)> {
        let whole = pair.clone();
        let mut piece = None;
        let mut square = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::piece => piece = Some(self.piece(p)?),
                Rule::square => square = Some(self.square(p)),
                _ => {}
            }
        }
        let square = square.ok_or_else(|| self.missing("square", &whole))?;
        Ok((piece, square))
    }

    /// `square = @{ ASCII_ALPHA_LOWER ~ ASCII_DIGIT+ }`
    pub(crate) fn square(&mut self, pair: Pair<Rule>) -> SquareName {
        let text = pair.as_str();
        let split = text.char_indices().nth(1).map_or(text.len(), |(i, _)| i);
        SquareName {
            file: text[..split].to_string(),
            rank: text[split..].to_string(),
            span: self.span(&pair),
        }
    }

    /// `lone_square = ${ square ~ !name_char }`
    pub(crate) fn lone_square(&mut self, pair: Pair<Rule>) -> Res<SquareName> {
        let p = self.only(&pair)?;
        Ok(self.square(p))
    }

    /// `color = { kw_white | kw_black }`
    pub(crate) fn color(&mut self, pair: Pair<Rule>) -> Res<Color> {
        pair.as_str().parse::<Color>().map_err(|_| self.bug(&pair))
    }

    // ---- Tokens ----------------------------------------------------------------------------

    /// `string = ${ "\"" ~ string_inner ~ "\"" }`: the text with escapes resolved; the span
    /// covers the quotes.
    pub(crate) fn string(&mut self, pair: Pair<Rule>) -> Res<Spanned<String>> {
        let span = self.span(&pair);
        let p = self.only(&pair)?;
        let mut text = String::new();
        let mut chars = p.as_str().chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                if let Some(e) = chars.next() {
                    text.push(e);
                }
            } else {
                text.push(c);
            }
        }
        Ok(Spanned::new(text, span))
    }

    /// `number = @{ ASCII_DIGIT+ ~ !name_char }`; a number that does not fit is a problem
    /// (and reads as 0).
    pub(crate) fn number(&mut self, pair: Pair<Rule>) -> u64 {
        match pair.as_str().parse::<u64>() {
            Ok(n) => n,
            Err(_) => {
                self.problems.push(Problem::new(
                    format!(
                        "number {} is too large (the largest is {})",
                        quoted(pair.as_str()),
                        u64::MAX
                    ),
                    self.span(&pair),
                    "too large",
                ));
                0
            }
        }
    }

    /// A `number` used as a depth or a count of turns, which must fit in 32 bits.
    pub(crate) fn number_u32(&mut self, pair: Pair<Rule>) -> u32 {
        match pair.as_str().parse::<u32>() {
            Ok(n) => n,
            Err(_) => {
                self.problems.push(Problem::new(
                    format!(
                        "number {} is too large here (the largest is {})",
                        quoted(pair.as_str()),
                        u32::MAX
                    ),
                    self.span(&pair),
                    "too large",
                ));
                0
            }
        }
    }
}
