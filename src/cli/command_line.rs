//! A position given on the command line (`explain`, `show`), as a scenario of one statement.
//!
//! The source its errors point into is the command line itself, each flag's text parsed on its
//! own grammar rule (`--board` on `board_only`, `--size` on `size_only`, the turn on
//! `turn_only`): no text of a flag is spliced into a scenario, so a `}` in `--board` cannot
//! close the board and go on as statements, and an error is shown under the flag that holds it.

use crate::rules::{Rules, Variant};
use crate::scenario::ast::{
    Assertion, File, Placement, Scenario, Spanned, Statement, StatementKind, TurnText,
};
use crate::scenario::diagnostic::Problem;
use crate::scenario::parse::{parse_board_at, parse_size_at, parse_turn_at};
use crate::scenario::report::Source;
use crate::with_variant;

use super::output::Failure;

/// What a command line gives.
pub struct Given<'a> {
    /// The subcommand: `explain`, `show`.
    pub command: &'a str,
    /// The variant as typed.
    pub variant: &'a str,
    /// The turn to explain, if any: it becomes the scenario's `expect legal`.
    pub turn: Option<&'a str>,
    pub fen: Option<&'a str>,
    pub board: Option<&'a str>,
    pub size: Option<&'a str>,
}

/// The command line as shown, and where each value stands in it.
struct Line {
    text: String,
}

impl Line {
    /// Appends a word; a value with spaces or quotes is shown in quotes, its text unchanged,
    /// so that offsets into it are offsets into the line. Returns where the value starts.
    fn push(&mut self, word: &str) -> usize {
        if !self.text.is_empty() {
            self.text.push(' ');
        }
        let quote = word.is_empty()
            || word.contains(|c: char| c.is_whitespace() || "'\";{}#$&|<>()".contains(c));
        if quote {
            self.text.push(if word.contains('\'') { '"' } else { '\'' });
        }
        let at = self.text.len();
        self.text.push_str(word);
        if quote {
            self.text.push(if word.contains('\'') { '"' } else { '\'' });
        }
        at
    }
}

/// The scenario a command line describes, the source to render its problems with, and the
/// turn it names.
pub fn scenario(given: &Given<'_>) -> Result<(Source, File, Option<TurnText>), Failure> {
    let variant: Variant = given.variant.parse().map_err(Failure::Input)?;
    let mut line = Line {
        text: String::new(),
    };
    line.push("arbiter");
    line.push(given.command);
    let variant_at = line.push(given.variant);
    let turn_at = given.turn.map(|t| line.push(t));
    let mut flag = |name: &str, value: Option<&str>| {
        value.map(|v| {
            line.push(name);
            line.push(v)
        })
    };
    let fen_at = flag("--fen", given.fen);
    let board_at = flag("--board", given.board);
    let size_at = flag("--size", given.size);
    let src = line.text;
    let fail = |p: Problem| {
        let source = Source::new("<command line>", src.clone());
        Failure::Rendered(source.render(&p))
    };

    let variant_span = variant_at..variant_at + given.variant.len();
    let size = match (given.size, size_at) {
        (Some(text), Some(at)) => Some(parse_size_at(&src, at, text).map_err(fail)?),
        _ => None,
    };
    let mut statements = match (given.fen, fen_at, given.board, board_at) {
        (Some(_), _, Some(_), _) => {
            return Err(Failure::Input(
                "give the position by --fen or by --board, not both".into(),
            ))
        }
        (Some(fen), Some(at), _, _) => vec![Statement {
            kind: StatementKind::Fen(Spanned::new(fen.to_string(), at..at + fen.len())),
            span: at..at + fen.len(),
        }],
        (_, _, Some(board), Some(at)) => parse_board_at(&src, at, board).map_err(fail)?,
        _ => vec![Statement {
            kind: StatementKind::Start,
            span: variant_span.clone(),
        }],
    };
    if size.is_none() {
        let placements = match statements.first().map(|s| &s.kind) {
            Some(StatementKind::Board(p)) => &p[..],
            _ => &[],
        };
        let place = board_at.map_or(variant_span.clone(), |at| {
            at..at + given.board.map_or(0, str::len)
        });
        if let Some(p) = with_variant!(variant, R => needs_size::<R>(placements, place)) {
            return Err(fail(p));
        }
    }
    let turn = match (given.turn, turn_at) {
        (Some(text), Some(at)) => {
            let turn = parse_turn_at(&src, at, text).map_err(fail)?;
            statements.push(Statement {
                kind: StatementKind::Expect(Assertion::Legal(turn.clone())),
                span: turn.span.clone(),
            });
            Some(turn)
        }
        _ => None,
    };
    // A definition that shares a built-in's name (`chess.def`) keeps the words it was given.
    let name = match variant.name().parse::<Variant>() {
        Ok(v) if v == variant => variant.name(),
        _ => given.variant,
    };
    let file = File {
        variant: Spanned::new(name.to_string(), variant_span),
        size,
        options: Vec::new(),
        scenarios: vec![Scenario {
            title: Spanned::new("command line".to_string(), 0..0),
            statements,
            span: 0..src.len(),
        }],
    };
    Ok((Source::new("<command line>", src), file, turn))
}

/// The problem of a variant played on several sizes when no `--size` is given: at `place` (the
/// board's text, or the variant), naming the size the board implies when it implies one.
fn needs_size<R: Rules>(
    placements: &[Placement],
    place: std::ops::Range<usize>,
) -> Option<Problem> {
    if R::geometry_for(None).is_ok() {
        return None;
    }
    // The board's extent: the furthest file letter and rank written.
    let files = placements
        .iter()
        .filter_map(|p| p.square.file.chars().next())
        .filter(char::is_ascii_lowercase)
        .map(|c| c as u8 - b'a' + 1)
        .max();
    let ranks = placements
        .iter()
        .filter_map(|p| p.square.rank.parse::<u8>().ok())
        .max();
    let fits = match (files, ranks) {
        (Some(f), Some(r)) => R::info()
            .boards
            .iter()
            .filter(|&&(bf, br)| bf >= f && br >= r)
            .min_by_key(|&&(bf, br)| (u16::from(bf) * u16::from(br), bf)),
        _ => None,
    };
    let problem = match fits {
        Some((f, r)) => Problem::new(
            format!("{} needs a board size: add `--size {f}x{r}`", R::name()),
            place,
            "no --size for this board",
        )
        .with_help(format!(
            "{f}x{r} is the smallest size this board fits; sizes: {}",
            R::info().boards_text()
        )),
        None => Problem::new(
            format!(
                "{} needs a board size: add `--size <files>x<ranks>`; sizes: {}",
                R::name(),
                R::info().boards_text()
            ),
            place,
            "no --size",
        ),
    };
    Some(problem)
}
