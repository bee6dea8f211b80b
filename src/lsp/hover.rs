//! Hover: what the word under the cursor means to `arbiter`. A rule id shows its summary,
//! source and quoted clause (the catalogue `arbiter rules` prints); an option its values,
//! default and reason; a turn in a `play` or `expect` line its verdict and the rule that
//! decided it (as `arbiter explain` judges it, in the position just before that line); a
//! square in an expectation the piece on it there; a state key or an invariant its summary.

use std::sync::Arc;
use std::time::Duration;

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};

use super::documents::Document;
use super::names::Names;
use super::text::Kind;
use crate::rules::explain::{self, Verdict};
use crate::rules::{consulted, Color, Game, Limits, Rules, Variant};
use crate::scenario::ast::{Assertion, File, Span, SquareName, StatementKind, TurnText};
use crate::scenario::evaluate::{game_before, Lowering, Settings};
use crate::text::{markdown, markdown_code};
use crate::with_variant;

/// How long a hover or a code action may spend building the position it asks about: the
/// statements before it run as `check` runs them, and a deep search among them stops here.
pub const POSITION_BUDGET: Duration = Duration::from_millis(250);

/// The node budget of each search run on the way to a position for a hover.
const POSITION_NODES: u64 = 2_000_000;

/// A turn is judged as you type in a position with at most this many legal turns.
pub const MAX_JUDGED_TURNS: u64 = 10_000;

/// What the cursor is on.
pub enum Target<'f> {
    Rule(&'f str),
    Option(&'f str),
    Key(&'f str),
    Invariant(&'f str),
    /// The `variant` line.
    Variant,
    /// Turn `which` of `turns`, written in statement `until` of scenario `index`.
    Turn {
        index: usize,
        until: usize,
        turns: &'f [TurnText],
        which: usize,
    },
    /// A square named in statement `until` of scenario `index`.
    Square {
        index: usize,
        until: usize,
        square: &'f SquareName,
    },
}

fn holds(span: &Span, offset: usize) -> bool {
    span.start <= offset && offset <= span.end
}

/// What stands at `offset` in a parsed file, and where it is.
pub fn target_at(file: &File, offset: usize) -> Option<(Target<'_>, Span)> {
    if holds(&file.variant.span, offset) {
        return Some((Target::Variant, file.variant.span.clone()));
    }
    for o in &file.options {
        if holds(&o.span, offset) {
            return Some((Target::Option(&o.name.node), o.name.span.clone()));
        }
    }
    let (index, scenario) = file
        .scenarios
        .iter()
        .enumerate()
        .find(|(_, s)| holds(&s.span, offset))?;
    let (until, statement) = scenario
        .statements
        .iter()
        .enumerate()
        .find(|(_, s)| holds(&s.span, offset))?;
    let turn = |turns: &[TurnText]| turns.iter().position(|t| holds(&t.span, offset));
    let square = |sq: &SquareName| holds(&sq.span, offset);
    match &statement.kind {
        StatementKind::Rule(ids) => ids
            .iter()
            .find(|id| holds(&id.span, offset))
            .map(|id| (Target::Rule(&id.node), id.span.clone())),
        StatementKind::Option(o) => Some((Target::Option(&o.name.node), o.name.span.clone())),
        StatementKind::Set(kv) => Some((Target::Key(&kv.key.node), kv.key.span.clone())),
        StatementKind::Play(turns) => turn(turns).map(|which| {
            let span = turns[which].span.clone();
            (
                Target::Turn {
                    index,
                    until,
                    turns,
                    which,
                },
                span,
            )
        }),
        StatementKind::Expect(a) => match a {
            Assertion::Illegal(_, Some(because)) if holds(&because.span, offset) => {
                Some((Target::Rule(&because.node), because.span.clone()))
            }
            Assertion::Legal(t) | Assertion::Illegal(t, _) => Some((
                Target::Turn {
                    index,
                    until,
                    turns: std::slice::from_ref(t),
                    which: 0,
                },
                t.span.clone(),
            )),
            Assertion::Key(kv) => Some((Target::Key(&kv.key.node), kv.key.span.clone())),
            Assertion::Invariant(name, _) => {
                Some((Target::Invariant(&name.node), name.span.clone()))
            }
            Assertion::Occupant(sq, _)
            | Assertion::MovesFromCount(sq, _)
            | Assertion::Zone(sq, _) => square(sq).then(|| on_square(index, until, sq)),
            Assertion::MovesFrom(sq, list) => std::iter::once(sq)
                .chain(list)
                .find(|s| square(s))
                .map(|sq| on_square(index, until, sq)),
            _ => None,
        },
        _ => None,
    }
}

fn on_square(index: usize, until: usize, square: &SquareName) -> (Target<'_>, Span) {
    (
        Target::Square {
            index,
            until,
            square,
        },
        square.span.clone(),
    )
}

/// A hover: ready now, or a position to work out on the hover worker.
pub enum Reply {
    Now(Option<Hover>),
    Later(Deferred),
}

/// A hover that needs the position before its line (a turn's verdict, a square's piece): the
/// statements before it run, which may cost seconds, so it is worked out off the main thread.
pub struct Deferred {
    file: Arc<File>,
    text: String,
    variant: Variant,
    index: usize,
    until: usize,
    asked: Asked,
    range: lsp_types::Range,
    /// The command that works it out without a budget.
    command: String,
}

enum Asked {
    Turn(Vec<TurnText>, usize),
    Square(SquareName),
}

impl Deferred {
    /// Works the hover out.
    pub fn run(self) -> Hover {
        let (file, text, index, until) = (&*self.file, self.text.as_str(), self.index, self.until);
        let value = match &self.asked {
            Asked::Turn(turns, which) => with_variant!(self.variant, R => turn_text::<R>(
                file, text, index, until, turns, *which, &self.command
            )),
            Asked::Square(square) => {
                with_variant!(self.variant, R => square_text::<R>(file, text, index, until, square))
            }
        };
        markup(value, self.range)
    }

    /// The hover when working it out took longer than `budget`.
    pub fn gave_up(&self, budget: Duration) -> Hover {
        let written = match &self.asked {
            Asked::Turn(turns, which) => markdown_code(&turns[*which].text),
            Asked::Square(square) => markdown_code(&square.text()),
        };
        markup(
            format!(
                "{written}: too costly to work out here (more than {} ms); run {}",
                budget.as_millis(),
                markdown_code(&self.command)
            ),
            self.range,
        )
    }
}

/// The hover at `position`, if the cursor is on something `arbiter` knows: at once, or to be
/// worked out when it needs a position.
pub fn hover(doc: &Document, position: Position) -> Reply {
    let offset = doc.lines.offset(&doc.text, position);
    if doc.kind == Kind::Definition {
        if doc.too_large {
            return Reply::Now(None);
        }
        return Reply::Now(
            super::hover_definition::text_at(&doc.text, doc.path.as_deref(), offset)
                .map(|(text, span)| markup(text, doc.lines.range(&doc.text, &span))),
        );
    }
    let Some((file, blanked)) = doc.parsed_at(offset) else {
        return Reply::Now(None);
    };
    let Some(names) = doc.names() else {
        return Reply::Now(None);
    };
    let Some((target, span)) = target_at(&file, offset) else {
        return Reply::Now(None);
    };
    let range = doc.lines.range(&doc.text, &span);
    let text = match target {
        Target::Rule(id) => rule_text(&names, id),
        Target::Option(name) => option_text(&names, name),
        Target::Key(name) => names.key(name).map(|k| {
            format!(
                "**{}**{}: {}\n\nvalues: {}",
                markdown(k.name),
                if k.per_color { " `<colour>`" } else { "" },
                markdown(k.summary),
                markdown(k.values)
            )
        }),
        Target::Invariant(name) => names.invariant(name).map(|i| {
            format!(
                "invariant **{}**: {}",
                markdown(i.name),
                markdown(i.summary)
            )
        }),
        Target::Variant => Some(format!(
            "**{}**: {}\n\nboards: {}; pieces: {}",
            markdown(names.variant),
            markdown(names.info.game),
            markdown(&names.info.boards_text()),
            markdown(&names.words())
        )),
        Target::Turn {
            index,
            until,
            turns,
            which,
        } => {
            let asked = Asked::Turn(turns.to_vec(), which);
            return later(doc, &file, &blanked, index, until, asked, range);
        }
        Target::Square {
            index,
            until,
            square,
        } => {
            let asked = Asked::Square(square.clone());
            return later(doc, &file, &blanked, index, until, asked, range);
        }
    };
    Reply::Now(text.map(|t| markup(t, range)))
}

/// The deferred hover of a turn or a square in statement `until` of scenario `index`, or at
/// once why there is none: a line above it that does not parse leaves its position unknown.
fn later(
    doc: &Document,
    file: &Arc<File>,
    blanked: &[Span],
    index: usize,
    until: usize,
    asked: Asked,
    range: lsp_types::Range,
) -> Reply {
    let Some((variant, _)) = doc.variant else {
        return Reply::Now(None);
    };
    let statement = &file.scenarios[index].statements[until];
    let written = match &asked {
        Asked::Turn(turns, which) => markdown_code(&turns[*which].text),
        Asked::Square(square) => markdown_code(&square.text()),
    };
    if let Some(broken) = blanked.iter().find(|b| b.start < statement.span.start) {
        let line = doc.lines.position(&doc.text, broken.start).line + 1;
        return Reply::Now(Some(markup(
            format!("{written}: the position before this line is not known while line {line} above does not parse"),
            range,
        )));
    }
    let line = doc.lines.position(&doc.text, statement.span.start).line + 1;
    let command = match doc.path.as_deref() {
        Some(path) => format!("arbiter explain {}:{line}", crate::shell::typed(path)),
        None => format!("arbiter explain FILE:{line} (once the file is saved)"),
    };
    Reply::Later(Deferred {
        file: file.clone(),
        text: doc.text.clone(),
        variant,
        index,
        until,
        asked,
        range,
        command,
    })
}

fn markup(value: String, range: lsp_types::Range) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(range),
    }
}

/// A rule of the catalogue: id, source, summary, the clause quoted.
pub fn rule_text(names: &Names, id: &str) -> Option<String> {
    let r = names.rule(id)?;
    let mut out = format!(
        "**{}** ({} rule)\n\n{}\n\nsource: {}",
        markdown(r.id),
        markdown(names.variant),
        markdown(r.summary),
        markdown(r.source)
    );
    if !r.quote.is_empty() {
        out.push_str(&format!("\n\n> \"{}\"", markdown(r.quote)));
    }
    Some(out)
}

/// An option: its values, default and reason.
pub fn option_text(names: &Names, name: &str) -> Option<String> {
    let o = names.option(name)?;
    Some(format!(
        "option **{}**\n\nvalues: {}; default: {}\n\n{}",
        markdown(o.name),
        o.values
            .iter()
            .map(|v| markdown_code(v))
            .collect::<Vec<_>>()
            .join(", "),
        markdown_code(o.default),
        markdown(o.reason)
    ))
}

/// The settings a position for a hover or a code action is built under: short searches.
pub fn quick_settings() -> Settings {
    Settings::new(
        Limits::default().with_max_nodes(POSITION_NODES),
        Some(POSITION_BUDGET),
    )
}

/// The game just before statement `until` of scenario `index`, or why there is none.
fn before<R: Rules>(file: &File, src: &str, index: usize, until: usize) -> Result<Game<R>, String> {
    game_before::<R>(file, src, &quick_settings(), index, until)
        .map(|b| b.game)
        .map_err(|ps| {
            ps.first().map_or_else(
                || "the position cannot be built".into(),
                |p| p.message.clone(),
            )
        })
}

/// A turn judged in its position: the verdict and the rules behind it.
pub struct Judged {
    /// `legal`, `illegal by castling-through-check`, ...
    pub summary: String,
    /// The rule that refuses it, for a refused turn.
    pub forbidden_by: Option<&'static str>,
    /// Each rule that judged it: its verdict word, id and note.
    pub steps: Vec<(&'static str, &'static str, String)>,
    /// The canonical text of a legal turn.
    pub canonical: Option<String>,
}

/// Why a turn is not judged: the position is not reached, or it has too many legal turns.
pub enum NotJudged {
    Why(String),
    TooCostly(u64),
}

impl From<String> for NotJudged {
    fn from(why: String) -> NotJudged {
        NotJudged::Why(why)
    }
}

/// Judges turn `which` of `turns` (statement `until` of scenario `index`), the turns before it
/// on the line played first, as `arbiter explain` does, in a position with at most
/// [`MAX_JUDGED_TURNS`] legal turns.
pub fn judge<R: Rules>(
    file: &File,
    src: &str,
    index: usize,
    until: usize,
    turns: &[TurnText],
    which: usize,
) -> Result<Judged, NotJudged> {
    // Playing or judging a turn lists every legal turn, at tens of microseconds each: a
    // crowded ChessXpanse board has half a million. Counting them first costs a fraction.
    let affordable = |game: &Game<R>| match game.position().count_legal() {
        legal if legal > MAX_JUDGED_TURNS => Err(NotJudged::TooCostly(legal)),
        _ => Ok(()),
    };
    let mut game = before::<R>(file, src, index, until)?;
    let lowering = Lowering::<R>::new(*game.position().board().geometry());
    for t in &turns[..which] {
        let pattern = lowering.turn(t).map_err(|p| p.message)?;
        affordable(&game)?;
        if game.play(&pattern).is_err() {
            return Err(NotJudged::Why(format!(
                "not reached: `{}` before it on this line is refused",
                t.text
            )));
        }
    }
    let pattern = lowering.turn(&turns[which]).map_err(|p| p.message)?;
    affordable(&game)?;
    let e = consulted::quietly(|| explain::explain(&game, &pattern));
    Ok(Judged {
        summary: e.summary(),
        forbidden_by: match e.verdict {
            Verdict::Illegal => e.forbidden_by().map(|s| s.rule),
            _ => None,
        },
        steps: e
            .steps
            .iter()
            .map(|s| (s.verdict.word(), s.rule, s.note.clone()))
            .collect(),
        canonical: match &e.verdict {
            Verdict::Legal { turn, .. } if !turn.is_empty() => Some(turn.clone()),
            _ => None,
        },
    })
}

fn turn_text<R: Rules>(
    file: &File,
    src: &str,
    index: usize,
    until: usize,
    turns: &[TurnText],
    which: usize,
    command: &str,
) -> String {
    let written = markdown_code(&turns[which].text);
    let judged = match judge::<R>(file, src, index, until, turns, which) {
        Ok(j) => j,
        Err(NotJudged::TooCostly(legal)) => {
            return format!(
                "{written}: too costly to work out here ({legal} legal turns, more than the \
                 {MAX_JUDGED_TURNS} judged as you type); run {}",
                markdown_code(command)
            )
        }
        Err(NotJudged::Why(why)) => return format!("{written}: {}", markdown(&why)),
    };
    let mut out = format!("{written}: **{}**", markdown(&judged.summary));
    if let Some(c) = judged.canonical.filter(|c| *c != turns[which].text) {
        out.push_str(&format!(" ({})", markdown_code(&c)));
    }
    if let Some(def) = judged
        .forbidden_by
        .and_then(|id| R::rules().iter().find(|r| r.id == id))
    {
        out.push_str(&format!(
            "\n\n**{}** ({}): {}",
            markdown(def.id),
            markdown(def.source),
            markdown(def.summary)
        ));
        if !def.quote.is_empty() {
            out.push_str(&format!("\n\n> \"{}\"", markdown(def.quote)));
        }
    }
    if !judged.steps.is_empty() {
        out.push_str("\n\n");
        for (n, (word, rule, note)) in judged.steps.iter().enumerate() {
            out.push_str(&format!(
                "{}. {word} {}: {}\n",
                n + 1,
                markdown_code(rule),
                markdown(note)
            ));
        }
    }
    out
}

fn square_text<R: Rules>(
    file: &File,
    src: &str,
    index: usize,
    until: usize,
    square: &SquareName,
) -> String {
    let name = square.text();
    let game = match before::<R>(file, src, index, until) {
        Ok(g) => g,
        Err(why) => return format!("{}: {}", markdown_code(&name), markdown(&why)),
    };
    let position = game.position();
    let Some(sq) = position.board().geometry().parse_square(&name) else {
        return format!("{} is not on this board", markdown_code(&name));
    };
    // A definition's pieces by their own names: `white guard`, not `white piece`.
    let on = match position.board().get(sq) {
        Some(piece) if piece.design().is_none() => {
            let colour = match piece.color() {
                Color::White => "white",
                Color::Black => "black",
            };
            markdown(&format!("{colour} {}", R::word_of(piece.role()))).into_owned()
        }
        Some(piece) => markdown(&piece.to_string()).into_owned(),
        None => "empty".to_string(),
    };
    let to_move = match position.turn() {
        Color::White => "white",
        Color::Black => "black",
    };
    format!(
        "{}: **{on}** before this line ({to_move} to move)\n\n{}",
        markdown_code(&name),
        markdown_code(&position.fen())
    )
}
