//! `arbiter show`: a picture of a position, as a text diagram or an SVG file.
//!
//! The position comes from a scenario line (`file.scn:14`: the position just before that
//! line, as `explain` reads it) or from the command line (a variant's start, `--fen`,
//! `--board`); both run through the evaluator, so a position means the same here as in
//! `check`. `--turn` draws a turn resolved in that position (a refused one dashed, with the
//! rule that refuses it), `--moves-from` marks where one piece can go.

use std::path::Path;

use super::location;
use super::output::Failure;
use super::safe_write::{refuse_overwriting_input, write_file, Force};
use crate::picture::{self, Picture};
use crate::rules::game::PlayError;
use crate::rules::{Options, Rules, Variant};
use crate::scenario::ast::File;
use crate::scenario::evaluate::{game_before, Lowering, Settings};
use crate::scenario::parse::{parse_file, parse_turn};
use crate::scenario::report::Source;
use crate::with_variant;

/// What to draw, and where.
pub struct Request<'a> {
    /// A variant name, or a scenario location `file.scn:LINE`.
    pub target: &'a str,
    pub fen: Option<&'a str>,
    pub board: Option<&'a str>,
    pub size: Option<&'a str>,
    pub options: &'a [String],
    pub turn: Option<&'a str>,
    pub moves_from: Option<&'a str>,
    /// An SVG file to write; text on standard output without it.
    pub output: Option<&'a Path>,
    /// Write the SVG file even over the scenario file drawn, or over a file with hard links.
    pub force: Force,
}

pub fn show(request: Request<'_>, settings: &Settings) -> Result<i32, Failure> {
    let mut settings = settings.clone();
    for pin in request.options {
        settings.overrides.push(location::parse_option(pin)?);
    }
    let (path, line) = location::split(Path::new(request.target));
    if let (Some(out), Some(_)) = (request.output, line) {
        refuse_overwriting_input(out, [path.as_path()], request.force)?;
    }
    let (source, file, index, until) = match line {
        Some(line) => {
            if request.fen.is_some() || request.board.is_some() || request.size.is_some() {
                return Err(Failure::Input(
                    "a scenario line sets the position; leave out --fen, --board and --size".into(),
                ));
            }
            from_line(&path, line)?
        }
        None => one_liner(&request)?,
    };
    let variant: Variant = file.variant.node.parse().map_err(Failure::Input)?;
    let picture = with_variant!(variant, R => picture_of::<R>(&source, &file, index, until, &request, &settings))?;
    match request.output {
        Some(out) => {
            write_file(
                out,
                picture::svg::render(&picture).as_bytes(),
                request.force,
            )?;
            Ok(0)
        }
        None => {
            super::output::out(format_args!(
                "{}",
                crate::text::escape_lines(&picture::text::render(&picture))
            ))?;
            Ok(0)
        }
    }
}

/// A scenario line: its file, the scenario, and how many of its statements come before.
type Located = (Source, File, usize, usize);

fn rendered(source: &Source, problems: &[crate::scenario::diagnostic::Problem]) -> Failure {
    Failure::Rendered(problems.iter().map(|p| source.render(p)).collect())
}

fn from_line(path: &Path, line: usize) -> Result<Located, Failure> {
    let source = match Source::read(path) {
        (source, None) => source,
        (source, Some(p)) => return Err(Failure::Rendered(source.render(&p))),
    };
    let mut file = parse_file(&source.src).map_err(|ps| rendered(&source, &ps))?;
    crate::scenario::report::place_variant(&mut file, Path::new(&source.path))
        .map_err(|p| rendered(&source, &[p]))?;
    let (index, scenario, _) = location::at_line(&file, &source, line)?;
    // The statements that end before the line: on a statement's line, those before it; on a
    // blank or comment line, those above it.
    let until = scenario
        .statements
        .iter()
        .position(|s| source.line_col(s.span.end.saturating_sub(1)).0 >= line)
        .unwrap_or(scenario.statements.len());
    Ok((source, file, index, until))
}

/// A position from the command line, as a scenario of one statement.
fn one_liner(request: &Request<'_>) -> Result<Located, Failure> {
    let variant: Variant = request.target.parse().map_err(Failure::Input)?;
    if request.fen.is_none() && request.board.is_none() {
        with_variant!(variant, R => has_start::<R>(request.size))?;
    }
    let (source, file, _) = super::command_line::scenario(&super::command_line::Given {
        command: "show",
        variant: request.target,
        turn: None,
        fen: request.fen,
        board: request.board,
        size: request.size,
    })?;
    let until = file.scenarios[0].statements.len();
    Ok((source, file, 0, until))
}

/// Whether the variant has a start position on this board; ChessXpanse has none.
fn has_start<R: Rules>(size: Option<&str>) -> Result<(), Failure> {
    let parsed = match size {
        None => None,
        Some(s) => match s.split_once('x').map(|(f, r)| (f.parse(), r.parse())) {
            Some((Ok(f), Ok(r))) => Some((f, r)),
            // The scenario header reports a malformed size with its own words.
            _ => return Ok(()),
        },
    };
    // Without a size where the variant needs one, the first size it is played on tells
    // whether it has a start at all.
    let (geometry, size_error) = match R::geometry_for(parsed) {
        Ok(g) => (g, None),
        Err(e) => match R::info().boards.first().map(|&b| R::geometry_for(Some(b))) {
            Some(Ok(g)) => (g, Some(e)),
            _ => return Err(Failure::Input(e.to_string())),
        },
    };
    match (
        R::start(geometry, &Options::defaults(R::options())),
        size_error,
    ) {
        (Err(e), _) => Err(Failure::Input(format!(
            "{e}; to `arbiter show` give --fen or --board"
        ))),
        (Ok(_), Some(e)) => Err(Failure::Input(e.to_string())),
        (Ok(_), None) => Ok(()),
    }
}

/// The position after `until` statements of the scenario, with the turn and the moves drawn.
fn picture_of<R: Rules>(
    source: &Source,
    file: &File,
    index: usize,
    until: usize,
    request: &Request<'_>,
    settings: &Settings,
) -> Result<Picture, Failure> {
    let before = game_before::<R>(file, &source.src, settings, index, until)
        .map_err(|ps| rendered(source, &ps))?;
    let game = before.game;
    let g = before.geometry;
    let mut picture = Picture::of(game.position());
    if let Some(from) = request.moves_from {
        let sq = g.parse_square(from).ok_or_else(|| {
            Failure::Input(format!(
                "--moves-from: square `{from}` is not on the {} board ({})",
                R::name(),
                g.describe()
            ))
        })?;
        if game.position().board().get(sq).is_none() {
            return Err(Failure::Input(format!(
                "--moves-from: there is no piece on {from}"
            )));
        }
        let turns: Vec<_> = game
            .legal_turns()
            .into_iter()
            .map(|(_, t)| (t.text(&g), t))
            .collect();
        picture.mark_moves_from(sq, &turns);
    }
    if let Some(text) = request.turn {
        let written = parse_turn(text).map_err(|p| {
            Failure::Rendered(crate::scenario::diagnostic::render(&p, "--turn", text))
        })?;
        let pattern = Lowering::<R>::new(g).turn(&written).map_err(|p| {
            Failure::Rendered(crate::scenario::diagnostic::render(&p, "--turn", text))
        })?;
        match picture.draw_written(&game, &written.text, &pattern) {
            Ok(true) => {}
            Ok(false) => {
                return Err(Failure::Input(format!(
                "`{text}` moves nothing on the board; give a move, a drop or another turn to draw"
            )))
            }
            Err(PlayError::Ambiguous(names)) => {
                return Err(Failure::Input(format!(
                    "`{text}` is ambiguous, it names {}; write the origin square or the whole path",
                    names.join(", ")
                )))
            }
            Err(PlayError::TooManyTurns(n)) => {
                return Err(Failure::Input(format!(
                    "`{text}` leads to a position with more than {n} legal turns"
                )))
            }
            // A refused turn is drawn.
            Err(PlayError::Refused(_)) => {}
        }
    }
    Ok(picture)
}
