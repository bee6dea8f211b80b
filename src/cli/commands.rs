//! What each subcommand does. Every function returns the exit status, or a [`Failure`]: input
//! that cannot be used (exit status 2), or output that cannot be written.

use std::path::PathBuf;
use std::sync::atomic::Ordering;

use super::output::Failure;
use super::{CatalogueFormat, CheckFormat, Command, Format};
use crate::rules::search::{Stop, INTERRUPTED};
use crate::rules::{Game, Geometry, Options, Rules, Variant};
use crate::scenario::coverage::rule_coverage;
use crate::scenario::evaluate::Settings;
use crate::{errln, outln, with_variant};

type Outcome = Result<i32, Failure>;

/// The exit status of a run the user interrupted (128 + SIGINT).
pub(super) const INTERRUPTED_EXIT: i32 = 130;

/// The first Ctrl-C asks the running search to stop and the run to print what it has; a
/// second one ends the process at once.
pub fn interrupt_on_ctrl_c() {
    // Without a handler (it could not be installed) Ctrl-C still ends the process, as it
    // always did: nothing to report.
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(INTERRUPTED_EXIT);
        }
    });
}

pub(super) fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

pub fn run(command: Command, limits: super::Budgets) -> Outcome {
    match command {
        Command::Check {
            paths,
            filter,
            options,
            format,
            output,
            fail_fast,
            bless,
            timeout,
            slow_after,
            force,
        } => {
            if bless && format != CheckFormat::Text {
                return Err(Failure::Input(
                    "--bless goes with the text report; leave out --format".into(),
                ));
            }
            let mut settings = Settings::new(limits.scenario(), timeout);
            settings.filter = filter;
            if format == CheckFormat::Html {
                settings.diagrams = crate::scenario::html_report::MAX_DIAGRAMS;
            }
            for pin in &options {
                settings.overrides.push(super::location::parse_option(pin)?);
            }
            let format = (format, output);
            let force = super::safe_write::Force(force);
            super::check::check(
                paths,
                format,
                fail_fast,
                slow_after,
                &settings,
                (bless, force),
            )
        }
        Command::Lsp => Ok(crate::lsp::serve(limits.max_nodes)),
        Command::Perft {
            variant,
            depth,
            root,
            divide,
            spread,
        } => super::searches::perft(
            super::searches::Request {
                variant,
                invariant: None,
                depth,
                root,
                divide,
                spread,
            },
            limits,
        ),
        Command::Invariant {
            variant,
            name,
            depth,
            root,
            spread,
        } => super::searches::invariant(
            super::searches::Request {
                variant,
                invariant: name,
                depth,
                root,
                divide: false,
                spread,
            },
            limits,
        ),
        Command::Win {
            variant,
            side,
            turns,
            root,
        } => super::searches::win(&variant, &side, turns, root, limits),
        Command::Moves {
            variant,
            fen,
            size,
            from,
            options,
        } => {
            let variant: Variant = variant.parse()?;
            with_variant!(variant, R => moves::<R>(fen, size, from, &options))
        }
        Command::Rules {
            variant,
            coverage,
            format,
        } => {
            let variant: Variant = variant.parse()?;
            match format {
                CatalogueFormat::Text => with_variant!(variant, R => rules::<R>(&coverage)),
                _ if !coverage.is_empty() => Err(Failure::Input(
                    "--coverage prints text; leave out --format".into(),
                )),
                CatalogueFormat::Json => {
                    let doc = with_variant!(variant, R => crate::rules::catalogue::json::<R>());
                    super::output::json(&doc)?;
                    Ok(0)
                }
                CatalogueFormat::Markdown => {
                    let doc = with_variant!(variant, R => crate::rules::catalogue::markdown::<R>());
                    super::output::out(format_args!("{doc}"))?;
                    Ok(0)
                }
            }
        }
        Command::Explain {
            target,
            turn,
            fen,
            board,
            size,
            options,
            format,
        } => super::explain::explain(
            super::explain::Request {
                target: &target,
                turn: turn.as_deref(),
                fen: fen.as_deref(),
                board: board.as_deref(),
                size: size.as_deref(),
                options: &options,
                format,
            },
            &Settings::new(limits.scenario(), None),
        ),
        Command::Completions { shell } => {
            let mut cmd = <super::Cli as clap::CommandFactory>::command();
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut cmd, "arbiter", &mut script);
            super::output::out(format_args!("{}", String::from_utf8_lossy(&script)))?;
            Ok(0)
        }
        Command::Man { command, dir } => super::man::man(command.as_deref(), dir.as_deref()),
        Command::Show {
            target,
            fen,
            board,
            size,
            options,
            turn,
            moves_from,
            output,
            force,
        } => super::show::show(
            super::show::Request {
                target: &target,
                fen: fen.as_deref(),
                board: board.as_deref(),
                size: size.as_deref(),
                options: &options,
                turn: turn.as_deref(),
                moves_from: moves_from.as_deref(),
                output: output.as_deref(),
                force: super::safe_write::Force(force),
            },
            &Settings::new(limits.scenario(), None),
        ),
        Command::Cost {
            designs,
            royal,
            direction_letters,
            format,
        } => cost(&designs, royal, direction_letters, format),
        Command::Dispute {
            file,
            scenario,
            options,
            format,
            timeout,
        } => super::dispute::dispute(
            &file,
            scenario.as_deref(),
            &options,
            format,
            &Settings::new(limits.scenario(), timeout),
        ),
        Command::Import {
            file,
            sections,
            out,
            force,
        } => super::import::import(&file, &sections, out, super::safe_write::Force(force)),
        Command::Fmt {
            paths,
            check,
            stdin,
            def,
            force,
        } => super::fmt::fmt(paths, check, stdin, def, super::safe_write::Force(force)),
    }
}

// ---- positions -------------------------------------------------------------------------------

fn parse_size(size: Option<String>) -> Result<Option<(u8, u8)>, String> {
    let Some(s) = size else { return Ok(None) };
    let bad = || format!("bad board size `{s}`; write <files>x<ranks>, such as 5x6");
    let (f, r) = s.split_once('x').ok_or_else(bad)?;
    Ok(Some((
        f.parse().map_err(|_| bad())?,
        r.parse().map_err(|_| bad())?,
    )))
}

/// The options of the variant with `name=value` pins from the command line.
pub(super) fn options_with<R: Rules>(pins: &[String]) -> Result<Options, String> {
    let mut options = Options::defaults(R::options());
    for pin in pins {
        let (name, value) = super::location::parse_option(pin)?;
        options.set(R::options(), R::name(), &name, &value)?;
    }
    Ok(options)
}

pub(super) fn position<R: Rules>(
    fen: Option<String>,
    size: Option<String>,
    pins: &[String],
) -> Result<(R, Geometry), String> {
    let geometry = R::geometry_for(parse_size(size)?)?;
    let options = options_with::<R>(pins)?;
    let pos = match fen {
        Some(f) => R::from_fen(geometry, &f, &options).map_err(|e| format!("bad FEN: {e}"))?,
        None => R::start(geometry, &options).map_err(|e| e.to_string())?,
    };
    Ok((pos, geometry))
}

// ---- searches --------------------------------------------------------------------------------

/// The exit status of a command whose search stopped.
pub(super) fn stop_exit(stop: &Stop) -> i32 {
    match stop {
        Stop::Interrupted { .. } => INTERRUPTED_EXIT,
        Stop::TooDeep { .. } => 2,
        Stop::Nodes { .. }
        | Stop::RunNodes { .. }
        | Stop::Timeout { .. }
        | Stop::TooManyTurns { .. } => 1,
    }
}

// ---- moves -----------------------------------------------------------------------------------

fn moves<R: Rules>(
    fen: Option<String>,
    size: Option<String>,
    from: Option<String>,
    pins: &[String],
) -> Outcome {
    let (pos, geometry) = position::<R>(fen, size, pins)?;
    let from = match from {
        Some(f) => {
            let sq = geometry.parse_square(&f).ok_or_else(|| {
                format!(
                    "square `{f}` is not on the {} board ({})",
                    R::name(),
                    geometry.describe()
                )
            })?;
            if pos.board().get(sq).is_none() {
                return Err(Failure::Input(format!("there is no piece on {f}")));
            }
            Some((sq, f))
        }
        None => None,
    };
    let game = Game::new(pos, Options::defaults(R::options()));
    let mut listed = 0;
    for (_, t) in game.legal_turns() {
        if from
            .as_ref()
            .is_none_or(|(sq, _)| t.first_origin() == Some(*sq))
        {
            outln!("{}", t.text(&geometry))?;
            listed += 1;
        }
    }
    if listed > 0 {
        return Ok(0);
    }
    let why = match game.outcome() {
        Some(o) => format!(": the game is over ({o})"),
        None => String::new(),
    };
    match from {
        Some((_, f)) => errln!("no legal turns from {f}{why}"),
        None => errln!("no legal turns{why}"),
    }
    Ok(1)
}

// ---- rules -----------------------------------------------------------------------------------

fn rules<R: Rules>(coverage: &[PathBuf]) -> Outcome {
    let counts = if coverage.is_empty() {
        None
    } else {
        let found = rule_coverage::<R>(coverage)?;
        for note in &found.notes {
            errln!("note: {note}");
        }
        if found.scenarios == 0 {
            return Err(Failure::Input(format!(
                "no {} scenario under {}: coverage counts the scenarios of files that say \
                 `variant {}`",
                R::name(),
                coverage
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                R::name()
            )));
        }
        Some(found)
    };
    let width = R::rules().iter().map(|r| r.id.len()).max().unwrap_or(0);
    outln!("rules of {}:", R::name())?;
    let mut uncovered = 0;
    for r in R::rules() {
        match &counts {
            Some(c) => {
                let n = c.counts.get(r.id).copied().unwrap_or(0);
                if n == 0 {
                    uncovered += 1;
                }
                outln!(
                    "  {:width$}  {n:>3} {:9}  {}: {}",
                    r.id,
                    crate::text::plural(n, "scenario"),
                    r.source,
                    r.summary
                )?;
            }
            None => {
                outln!("  {:width$}  {}: {}", r.id, r.source, r.summary)?;
                if !r.quote.is_empty() {
                    outln!("  {:width$}  > \"{}\"", "", r.quote)?;
                }
            }
        }
    }
    if R::options().is_empty() {
        outln!("options: none")?;
    } else {
        outln!("options:")?;
        for o in R::options() {
            outln!(
                "  {} = {} (default {}): {}",
                o.name,
                o.values.join(" | "),
                o.default,
                o.reason
            )?;
        }
    }
    let mut unexercised = 0;
    if let Some(c) = &counts {
        if !R::options().is_empty() {
            outln!("option values (scenarios that play or expect under each):")?;
        }
        for o in R::options() {
            for v in o.values {
                let n = c
                    .option_values
                    .get(&(o.name.to_string(), v.to_string()))
                    .copied()
                    .unwrap_or(0);
                if n == 0 {
                    unexercised += 1;
                }
                outln!(
                    "  {} = {v}  {n:>3} {}",
                    o.name,
                    crate::text::plural(n, "scenario")
                )?;
            }
        }
    }
    outln!("state keys:")?;
    for k in R::state_keys() {
        let color = if k.per_color { " <color>" } else { "" };
        outln!("  {}{color} = {}: {}", k.name, k.values, k.summary)?;
    }
    outln!("invariants:")?;
    for i in R::invariants() {
        outln!("  {}: {}", i.name, i.summary)?;
    }
    if counts.is_some() {
        let values: usize = R::options().iter().map(|o| o.values.len()).sum();
        outln!(
            "{} of {} rules have no scenario; {} of {} option values are exercised by none",
            uncovered,
            R::rules().len(),
            unexercised,
            values
        )?;
        return Ok(if uncovered == 0 && unexercised == 0 {
            0
        } else {
            1
        });
    }
    Ok(0)
}

// ---- cost ------------------------------------------------------------------------------------

/// Prices each design; a design that cannot be read or priced is an error at its character,
/// and the others are still priced.
fn cost(
    designs: &[String],
    royal: bool,
    letters: super::DirectionLetters,
    format: Format,
) -> Outcome {
    use crate::betza::Design;
    use crate::rules::csipgs::price::{price_text, Letters};
    let letters = match letters {
        super::DirectionLetters::MoveSet => Letters::MoveSet,
        super::DirectionLetters::Separate => Letters::Separate,
    };
    let mut failed = false;
    let mut json = Vec::new();
    for text in designs {
        // A design may be written as a piece is, in parentheses.
        let bare = text
            .strip_prefix('(')
            .and_then(|t| t.strip_suffix(')'))
            .unwrap_or(text);
        let priced = Design::parse(bare)
            .map_err(|e| {
                let skip = text.len() - bare.len();
                let at = skip.min(1) + e.offset();
                format!(
                    "`{text}` is not a design: {e}\n  {text}\n  {}^",
                    " ".repeat(text[..at.min(text.len())].chars().count())
                )
            })
            .and_then(|_| {
                price_text(bare, royal, letters).map_err(|e| format!("`{text}` has no price: {e}"))
            });
        match priced {
            Ok(p) => match format {
                Format::Text => outln!("{p}")?,
                Format::Json => json.push(serde_json::json!({
                    "design": p.design,
                    "royal": royal,
                    "atoms": p.atoms.iter().map(|a| serde_json::json!({
                        "atom": a.text,
                        "family": a.family,
                        "base": a.base.to_string(),
                        "powers": a.powers.iter().map(|w| serde_json::json!({
                            "directions": (!w.directions.is_empty()).then(|| w.directions.iter().map(|t| t.name).collect::<Vec<_>>().join(" x ")),
                            "factor": (!w.directions.is_empty()).then(|| w.directions.iter().map(|t| t.factor.to_string()).collect::<Vec<_>>().join(" x ")),
                            "price": w.price.to_string(),
                        })).collect::<Vec<_>>(),
                        "modality": a.modality.as_ref().map(|t| t.name),
                        "subtotal": a.subtotal.to_string(),
                    })).collect::<Vec<_>>(),
                    "sum": p.sum.to_string(),
                    "multipliers": p.multipliers.iter().map(|t| serde_json::json!({
                        "name": t.name, "factor": t.factor.to_string(),
                    })).collect::<Vec<_>>(),
                    "exact": p.exact.to_string(),
                    "price": p.zorkmids,
                })),
            },
            Err(message) => {
                failed = true;
                match format {
                    Format::Text => errln!("error: {message}"),
                    Format::Json => {
                        json.push(serde_json::json!({ "design": text, "error": message }))
                    }
                }
            }
        }
    }
    if format == Format::Json {
        super::output::json(&json)?;
    }
    Ok(if failed { 2 } else { 0 })
}
