//! The file header and options: `variant <name> [<files>x<ranks>]`, `option <name> = <value>`.

use pest::iterators::Pair;

use super::{Builder, Res};
use crate::scenario::ast::{OptionSetting, Spanned, StatementKind};
use crate::scenario::diagnostic::Problem;
use crate::scenario::parse::grammar::Rule;
use crate::scenario::parse::messages::quoted;
use crate::scenario::parse::MAX_BOARD_SIDE;

impl Builder {
    /// `variant_line = { kw_variant ~ variant_ref ~ board_size? }`
    #[allow(clippy::type_complexity)]
    pub(crate) fn variant_line(
        &mut self,
        pair: Pair<Rule>,
    ) -> Res<(Spanned<String>, Option<Spanned<(u8, u8)>>)> {
        let whole = pair.clone();
        let mut name = None;
        let mut size = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::variant_ref => name = Some(self.spanned_text(&p)),
                Rule::board_size => size = self.board_size(p),
                _ => {}
            }
        }
        let name = name.ok_or_else(|| self.missing("variant name", &whole))?;
        Ok((name, size))
    }

    /// `board_size = ${ digits ~ "x" ~ digits ~ !name_char }`; each side in 1..=16.
    pub(crate) fn board_size(&mut self, pair: Pair<Rule>) -> Option<Spanned<(u8, u8)>> {
        let span = self.span(&pair);
        let mut sides = Vec::new();
        for p in pair.into_inner().filter(|p| p.as_rule() == Rule::digits) {
            let value = p
                .as_str()
                .parse::<u64>()
                .ok()
                .filter(|v| (1..=MAX_BOARD_SIDE).contains(v));
            match value {
                Some(v) => sides.push(v as u8),
                None => {
                    self.problems.push(
                        Problem::new(
                            format!(
                                "board side {} out of range: a board has 1 to {MAX_BOARD_SIDE} files and ranks",
                                quoted(p.as_str())
                            ),
                            self.span(&p),
                            "out of range",
                        )
                        .with_help("the size is `<files>x<ranks>`, as in `variant xpanse 5x6`"),
                    );
                }
            }
        }
        match sides[..] {
            [files, ranks] => Some(Spanned::new((files, ranks), span)),
            _ => None,
        }
    }

    /// `option_setting = { kw_option ~ name ~ eq ~ option_value }`
    pub(crate) fn option_setting(&mut self, pair: Pair<Rule>) -> Res<OptionSetting> {
        let span = self.span(&pair);
        let whole = pair.clone();
        let mut name = None;
        let mut value = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::name => name = Some(self.spanned_text(&p)),
                Rule::option_value => value = Some(self.option_value(p)?),
                _ => {}
            }
        }
        Ok(OptionSetting {
            name: name.ok_or_else(|| self.missing("option name", &whole))?,
            value: value.ok_or_else(|| self.missing("option value", &whole))?,
            span,
        })
    }

    /// `option_value = { string | word }`
    pub(crate) fn option_value(&mut self, pair: Pair<Rule>) -> Res<Spanned<String>> {
        let span = self.span(&pair);
        let p = self.only(&pair)?;
        let text = match p.as_rule() {
            Rule::string => self.string(p)?.node,
            Rule::word => p.as_str().to_string(),
            _ => return Err(self.bug(&p)),
        };
        Ok(Spanned::new(text, span))
    }

    /// `option_stmt = { option_setting }`
    pub(crate) fn option_stmt(&mut self, pair: Pair<Rule>) -> Res<StatementKind> {
        let p = self.only(&pair)?;
        Ok(StatementKind::Option(self.option_setting(p)?))
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::ast::StatementKind;
    use crate::scenario::parse::test_util::*;

    #[test]
    fn header_with_size_and_string_option() {
        let f = file(
            "variant xpanse 5x6\noption a-b = \"x \\\" y\"\noption n = 3\nscenario \"s\" { start }",
        );
        assert_eq!(f.size.as_ref().map(|s| s.node), Some((5, 6)));
        assert_eq!(f.options[0].value.node, "x \" y");
        assert_eq!(f.options[1].value.node, "3");
    }

    #[test]
    fn option_statement() {
        match one("option king-beside-own-spy = legal") {
            StatementKind::Option(o) => {
                assert_eq!(o.name.node, "king-beside-own-spy");
                assert_eq!(o.value.node, "legal");
            }
            other => panic!("{other:?}"),
        }
    }
}
