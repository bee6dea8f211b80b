//! The scenario parser: the pest binding (`grammar`), the syntax-tree builder by family of
//! nodes (`build`), error recovery (`recover`) and syntax errors in words (`messages`).
//!
//! Syntax errors become [`Problem`]s that say in words what was expected. After a syntax error
//! the parser resumes at the next line that starts with `scenario`, so several broken
//! scenarios give several problems. Checks that need no variant (board sizes, numbers that do
//! not fit) are made here too. Nothing here panics, whatever the input.

mod build;
mod grammar;
mod messages;
mod recover;
#[cfg(test)]
mod test_util;

use pest::Parser;

use self::build::Builder;
pub use self::grammar::{Rule, ScenarioParser};
use self::messages::syntax_problem;
pub use self::messages::words_at_end;
pub use self::recover::{count_scenarios, outline, scenario_starts, Outline};
use self::recover::{recover, scenario_lines};
use super::ast::{File, Scenario, Spanned, Statement, StatementKind, TurnText};
use super::diagnostic::Problem;

/// The largest board side `<files>x<ranks>` may name.
pub const MAX_BOARD_SIDE: u64 = 16;

/// Parses a whole scenario file. On failure, every problem found: each syntax error (the
/// parser resumes at the next `scenario` line after one) and each semantic problem that needs
/// no variant.
pub fn parse_file(src: &str) -> Result<File, Vec<Problem>> {
    match parse_file_partial(src) {
        (Some(file), problems) if problems.is_empty() => Ok(file),
        (_, problems) => Err(problems),
    }
}

/// Parses as much of a file as can be used: the file with every scenario that parsed without
/// a problem (`None` when the header itself is broken), and every problem found. A syntax
/// error in one scenario then leaves the others to run.
pub fn parse_file_partial(src: &str) -> (Option<File>, Vec<Problem>) {
    let (file, problems) = match ScenarioParser::parse(Rule::file, src) {
        Ok(mut pairs) => {
            let mut builder = Builder::new(0);
            let built = match pairs.next() {
                Some(pair) => builder.file(pair),
                None => Err(Problem::new("internal error: empty parse", 0..0, "here")),
            };
            match built {
                Ok(file) => (Some(file), builder.problems),
                Err(p) => {
                    builder.problems.push(p);
                    (None, builder.problems)
                }
            }
        }
        Err(error) => recover(src, &error),
    };
    let problems = sorted(problems);
    // A problem before the first scenario is the header's: nothing can run without it.
    let header_end = scenario_lines(src).next().unwrap_or(src.len());
    if problems.iter().any(|p| p.span.start < header_end) {
        return (None, problems);
    }
    // Both lists are in source order: one pass drops the scenarios a problem lies in.
    let file = file.map(|mut file| {
        let mut starts = problems.iter().map(|p| p.span.start).peekable();
        file.scenarios.retain(|s| {
            while starts.next_if(|&p| p < s.span.start).is_some() {}
            starts.peek().is_none_or(|&p| p >= s.span.end)
        });
        file
    });
    (file, problems)
}

/// What one piece of a file builds to (see [`parse_in_pieces`]).
pub enum Piece {
    /// The variant line and file options: a file without scenarios.
    Header(File),
    /// The scenarios from one `scenario` line up to the next (one, or more on one line).
    Scenarios(Vec<Scenario>),
}

/// Parses a file piece by piece: its header, then the text from each line that starts with
/// `scenario` to the next, as error recovery does. pest's parse tree costs tens of bytes per
/// byte of input; this way it is held for one piece at a time, not for the whole file. `each`
/// gets each piece's offset in `src`, its parse tree (`header` or `scenario_tail`, positions
/// relative to the piece) and what it builds to. `None` when some piece does not parse or
/// build cleanly: [`parse_file`] then says what is wrong.
pub(crate) fn parse_in_pieces<'a>(
    src: &'a str,
    mut each: impl FnMut(usize, pest::iterators::Pair<'a, Rule>, Piece),
) -> Option<()> {
    let lines: Vec<usize> = scenario_lines(src).collect();
    let header_end = *lines.first()?;
    let header = &src[..header_end];
    let pair = ScenarioParser::parse(Rule::header, header).ok()?.next()?;
    // What follows the header's last token before the first scenario: only blanks and
    // comments, as in the whole file.
    let mut rest = header[pair.as_span().end()..].chars();
    while let Some(c) = rest.next() {
        match c {
            ' ' | '\t' | '\r' | '\n' => {}
            '#' => while rest.next().is_some_and(|c| c != '\n' && c != '\r') {},
            _ => return None,
        }
    }
    let mut builder = Builder::new(0);
    let file = builder.header(pair.clone()).ok()?;
    if !builder.problems.is_empty() {
        return None;
    }
    each(0, pair, Piece::Header(file));
    for (i, &start) in lines.iter().enumerate() {
        let end = lines.get(i + 1).copied().unwrap_or(src.len());
        let pair = ScenarioParser::parse(Rule::scenario_tail, &src[start..end])
            .ok()?
            .next()?;
        let mut builder = Builder::new(start);
        let scenarios = builder.scenario_tail(pair.clone()).ok()?;
        if !builder.problems.is_empty() {
            return None;
        }
        each(start, pair, Piece::Scenarios(scenarios));
    }
    Some(())
}

/// Parses one turn, as written on the command line or in a scenario (`Nbd7`, `O-O`,
/// `Sd0-d4; Qd2-z4`, `resign`). Whitespace around it is allowed.
pub fn parse_turn(text: &str) -> Result<TurnText, Problem> {
    parse_turn_at(text, 0, text)
}

/// Parses one turn that stands at `offset` in `src` (a command line shown whole): spans and
/// problems point into `src`.
pub fn parse_turn_at(src: &str, offset: usize, text: &str) -> Result<TurnText, Problem> {
    let pair = match ScenarioParser::parse(Rule::turn_only, text) {
        Ok(mut pairs) => pairs.next(),
        Err(error) => return Err(syntax_problem(&error, src, offset)),
    };
    let mut builder = Builder::new(offset);
    let turn = pair
        .and_then(|p| p.into_inner().find(|p| p.as_rule() == Rule::turn))
        .ok_or_else(|| {
            Problem::new(
                "internal error: no turn in the parse",
                offset..offset,
                "here",
            )
        })
        .and_then(|p| builder.turn(p))?;
    match builder.problems.into_iter().next() {
        Some(problem) => Err(problem),
        None => Ok(turn),
    }
}

/// Parses the text of `--board` (`white: Ke2 Qd2; black: Ke8; black to move`), standing at
/// `offset` in `src`, on its own rule: the board's placements as one statement, then the side
/// to move and the `set` lines, each spanning its part of the flag's text.
pub fn parse_board_at(src: &str, offset: usize, text: &str) -> Result<Vec<Statement>, Problem> {
    let pair = match ScenarioParser::parse(Rule::board_only, text) {
        Ok(mut pairs) => pairs.next(),
        Err(error) => return Err(syntax_problem(&error, src, offset)),
    };
    let mut builder = Builder::new(offset);
    let mut placements = Vec::new();
    let mut after = Vec::new();
    for part in pair
        .into_iter()
        .flat_map(|p| p.into_inner())
        .filter(|p| p.as_rule() == Rule::board_flag_part)
    {
        let span = builder.span(&part);
        let inner = builder.only(&part)?;
        match inner.as_rule() {
            Rule::board_side => placements.extend(builder.board_side(inner)?),
            Rule::side_to_move_stmt => after.push(Statement {
                kind: builder.side_to_move_stmt(inner)?,
                span,
            }),
            Rule::set_stmt => after.push(Statement {
                kind: builder.set_stmt(inner)?,
                span,
            }),
            _ => return Err(builder.bug(&inner)),
        }
    }
    if let Some(problem) = builder.problems.into_iter().next() {
        return Err(problem);
    }
    let board = Statement {
        kind: StatementKind::Board(placements),
        span: offset..offset + text.len(),
    };
    Ok(std::iter::once(board).chain(after).collect())
}

/// Parses the text of `--size` (`5x6`), standing at `offset` in `src`.
pub fn parse_size_at(src: &str, offset: usize, text: &str) -> Result<Spanned<(u8, u8)>, Problem> {
    let pair = match ScenarioParser::parse(Rule::size_only, text) {
        Ok(mut pairs) => pairs.next(),
        Err(error) => return Err(syntax_problem(&error, src, offset)),
    };
    let mut builder = Builder::new(offset);
    let size = pair
        .and_then(|p| p.into_inner().find(|p| p.as_rule() == Rule::board_size))
        .and_then(|p| builder.board_size(p));
    match (builder.problems.into_iter().next(), size) {
        (Some(problem), _) => Err(problem),
        (None, Some(size)) => Ok(size),
        (None, None) => Err(Problem::new(
            "internal error: no board size in the parse",
            offset..offset + text.len(),
            "here",
        )),
    }
}

fn sorted(mut problems: Vec<Problem>) -> Vec<Problem> {
    problems.sort_by_key(|p| p.span.start);
    problems
}
#[cfg(test)]
mod tests {
    use crate::rules::{Color, Role};
    use crate::scenario::ast::{
        ActionSyntax, Assertion, ExpectedResult, PieceName, StatementKind, TurnSyntax,
    };
    use crate::scenario::parse::test_util::*;

    const TASTE: &str = r#"variant cypher
option king-beside-own-spy = illegal      # pin an interpretation for the whole file

scenario "A Field bishop cannot capture a Field queen" {
  rule field-sanctuary
  board {
    white: Ke2 Bc3 Sd0
    black: Ke8 Qd4 Sd10
  }
  white to move
  expect illegal Bc3xd4 because field-sanctuary
  expect legal Bc3-b4
}

scenario "From the start, a pawn steps one square" {
  start
  play e3-e4 e7-e6
  expect e4 = white pawn
  expect zone d0 = court
  expect moves from d0 count 9             # along the back row; d1 and e1 touch the king
  expect result none
}
"#;

    fn role(r: Role) -> Option<String> {
        Some(r.letter().to_string())
    }

    #[test]
    fn the_taste_example_parses() {
        let f = file(TASTE);
        assert_eq!(f.variant.node, "cypher");
        assert_eq!(&TASTE[f.variant.span.clone()], "cypher");
        assert_eq!(f.size, None);
        assert_eq!(f.options.len(), 1);
        assert_eq!(f.options[0].name.node, "king-beside-own-spy");
        assert_eq!(f.options[0].value.node, "illegal");
        assert_eq!(f.scenarios.len(), 2);
        let s0 = &f.scenarios[0];
        assert_eq!(s0.title.node, "A Field bishop cannot capture a Field queen");
        assert_eq!(s0.statements.len(), 5);
        assert!(TASTE[s0.span.clone()].starts_with("scenario \"A Field"));
        assert!(TASTE[s0.span.clone()].ends_with('}'));
        match &s0.statements[1].kind {
            StatementKind::Board(p) => {
                assert_eq!(p.len(), 6);
                assert_eq!(p[2].piece.as_ref().map(PieceName::text), role(Role::Spy));
                assert_eq!(p[2].square.text(), "d0");
                assert_eq!(p[5].color, Color::Black);
                assert_eq!(p[5].square.text(), "d10");
                assert_eq!(&TASTE[p[5].span.clone()], "Sd10");
            }
            other => panic!("{other:?}"),
        }
        match &s0.statements[3].kind {
            StatementKind::Expect(Assertion::Illegal(t, Some(because))) => {
                assert_eq!(t.text, "Bc3xd4");
                assert_eq!(&TASTE[t.span.clone()], "Bc3xd4");
                assert_eq!(because.node, "field-sanctuary");
            }
            other => panic!("{other:?}"),
        }
        let s1 = &f.scenarios[1];
        let kinds: Vec<_> = s1.statements.iter().map(|s| &s.kind).collect();
        assert_eq!(kinds[0], &StatementKind::Start);
        match kinds[1] {
            StatementKind::Play(t) => {
                assert_eq!(
                    t.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
                    ["e3-e4", "e7-e6"]
                )
            }
            other => panic!("{other:?}"),
        }
        match kinds[4] {
            StatementKind::Expect(Assertion::MovesFromCount(s, 9)) => assert_eq!(s.text(), "d0"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            kinds[5],
            &StatementKind::Expect(Assertion::Result(ExpectedResult::None, None))
        );
        // Statement spans stop before trailing comments.
        assert_eq!(
            &TASTE[s1.statements[4].span.clone()],
            "expect moves from d0 count 9"
        );
    }

    #[test]
    fn spans_are_byte_offsets_in_the_file() {
        let src = "variant chess\nscenario \"t\" {\n  start\n  play e2-e4 Nf3\n}\n";
        let f = file(src);
        match &f.scenarios[0].statements[1].kind {
            StatementKind::Play(t) => {
                assert_eq!(&src[t[1].span.clone()], "Nf3");
                match &t[1].turn {
                    TurnSyntax::Actions(a, _) => match &a[0] {
                        ActionSyntax::Move { legs, .. } => {
                            assert_eq!(&src[legs[0].to.span.clone()], "f3")
                        }
                        other => panic!("{other:?}"),
                    },
                    other => panic!("{other:?}"),
                }
            }
            other => panic!("{other:?}"),
        }
    }
}
