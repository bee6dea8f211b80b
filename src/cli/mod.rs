//! The `arbiter` command line: `check`, `perft`, `invariant`, `win`, `moves`, `rules`,
//! `explain`, `dispute`, `cost`.

mod bless;
mod check;
mod colour;
mod command_line;
mod commands;
mod dispute;
mod explain;
mod fmt;
mod import;
mod location;
mod man;
pub mod output;
mod progress;
pub mod safe_write;
mod searches;
mod show;
mod threads;

use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

/// A rules-specification verifier for chess variants.
///
/// Scenario files (`*.scn`) set up positions, play turns and state expectations; `arbiter`
/// evaluates them against reference rules interpreters. Exit status: 0 when every expectation
/// holds, 1 when some do not, 2 when input cannot be used (syntax, unknown variant, option, rule
/// id or key, unreadable file). Every search (perft, invariant, win in) runs under a node
/// budget; Ctrl-C stops a run and prints what finished (exit status 130).
#[derive(Parser, Debug)]
#[command(name = "arbiter", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// The most nodes (positions reached or counted) one search may spend: one perft, one
    /// `expect perft`, `expect invariant` or `expect win in`. Default: 100000000 for each
    /// expectation of a scenario; for `perft`, `invariant` and `win` on the command line, about
    /// a minute of one core's work for that search and variant (from 30 million for a
    /// ChessXpanse invariant search to 6000 million for chess perft; see docs/distributed.md).
    #[arg(long, global = true, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// The most nodes all the searches of one `check` or `dispute` run may spend together;
    /// the searches after that fail with a message naming this flag.
    #[arg(long, global = true, value_name = "N", default_value_t = crate::rules::search::DEFAULT_MAX_RUN_NODES)]
    pub max_run_nodes: u64,
    /// Colour: on a terminal unless NO_COLOR is set (`auto`), `always` or `never`.
    #[arg(long, global = true, value_enum, default_value_t = colour::When::Auto)]
    pub color: colour::When,
    /// Worker threads for searches (perft, invariant searches, forced wins) and for `check`'s
    /// scenarios; default: one per core, at most 1024. Results and output are the same for
    /// every count.
    #[arg(long, global = true, value_name = "N")]
    pub threads: Option<usize>,
    /// Also read the definitions that scenarios and definitions name below this folder
    /// (repeatable). A `variant` or `from` path is otherwise read only inside the project:
    /// below the naming file's folder, its git repository or the working folder; and only a
    /// `*.def` file (`*.ini` for `FILE.ini:SECTION`), never one in /proc, /sys or /dev.
    #[arg(long = "allow-path", global = true, value_name = "DIR")]
    pub allow_path: Vec<PathBuf>,
}

/// The position a search starts from, as the command line gives it (and a job line repeats it).
#[derive(clap::Args, Debug)]
pub struct Root {
    /// Start from this FEN instead of the initial position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Board size `<files>x<ranks>` for variants that take one.
    #[arg(long)]
    pub size: Option<String>,
    /// Set an option (`name=value`, repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// How `perft` and `invariant` spread a search past one machine.
#[derive(clap::Args, Debug)]
pub struct Spread {
    /// Write the search as jobs, one JSON line per position this many turns from the root.
    #[arg(long, value_name = "D")]
    pub split: Option<u64>,
    /// Run the job lines of this file (`-` or nothing: standard input), one result line each.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-")]
    pub job: Option<PathBuf>,
    /// Merge the result lines of these files (`-` or nothing: standard input) into the answer
    /// (perft: their sum), checking that every job of one split is there exactly once.
    #[arg(long, value_name = "FILE", num_args = 0..)]
    pub merge: Option<Vec<PathBuf>>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Evaluate scenario files; one line per scenario, then `N passed, M failed`.
    Check {
        /// Files and folders (searched for `*.scn`); default `scenarios/`. `file.scn:13` runs
        /// only the scenario that holds line 13.
        paths: Vec<PathBuf>,
        /// Only scenarios whose title contains this text, in any case.
        #[arg(long, value_name = "TEXT")]
        filter: Option<String>,
        /// Set an option for every scenario (`name=value`, repeatable), over the file's and
        /// the scenario's own `option` lines.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Output for people (`text`), tools (`json`), or CI: `junit` (JUnit XML, for Jenkins
        /// and GitLab), `github` (GitHub Actions annotations, then the summary line) or `html`
        /// (a page to open in a browser; see `-o`).
        #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
        format: CheckFormat,
        /// Write the report, in any `--format`, to this file (the summary line still goes to
        /// standard output), replacing it safely: a temporary file renamed over it. An input
        /// file is refused unless `--force`.
        #[arg(short = 'o', long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Write where arbiter would refuse to: `-o` naming an input file, and a file with
        /// several hard links (`--bless`, `-o`), which then gets a new file under this name
        /// while its other names keep the old text.
        #[arg(long)]
        force: bool,
        /// Stop after the first scenario that does not pass.
        #[arg(long)]
        fail_fast: bool,
        /// Write the values found into the failing `perft`, `moves ... count`, `moves = { }`
        /// and state-key expectations, showing the diff first; everything else is untouched.
        #[arg(long)]
        bless: bool,
        /// Give each scenario at most this long (`90`, `90s`, `2m`); a search still running
        /// then stops and its expectation fails.
        #[arg(long, value_name = "TIME", value_parser = parse_duration)]
        timeout: Option<Duration>,
        /// Name a scenario still running after this long on standard error (`SLOW ...`), and
        /// again each time its running time doubles.
        #[arg(long, value_name = "TIME", value_parser = parse_duration, default_value = "30s")]
        slow_after: Duration,
    },
    /// Count move paths of a given depth (the last ply is counted, not played).
    ///
    /// Beyond one machine: `--split D` writes one JSON line per position D turns from the root
    /// (a job), `--job` runs job lines (any subset, anywhere) and writes one result line each,
    /// and `--merge` sums the results of every job of one split: `arbiter perft chess 7
    /// --split 2 > jobs; arbiter perft --job jobs > results; arbiter perft --merge results`.
    #[command(verbatim_doc_comment)]
    Perft {
        /// The variant, as scenario files name it (`chess`, `cypher`, `csipgs`, `xpanse`);
        /// not with --job or --merge.
        variant: Option<String>,
        /// The depth in turns; not with --job or --merge.
        depth: Option<u64>,
        #[command(flatten)]
        root: Root,
        /// Show the count below each legal turn of the root.
        #[arg(long)]
        divide: bool,
        #[command(flatten)]
        spread: Spread,
    },
    /// Search for a position within a depth where an invariant breaks.
    ///
    /// As `expect invariant NAME to depth N` does: prints the turns that reach the first such
    /// position in the move generator's order and what broke (exit status 1), or that the
    /// invariant holds (0). `--split`, `--job` and `--merge` work as for perft.
    Invariant {
        /// The variant, as scenario files name it; not with --job or --merge.
        variant: Option<String>,
        /// The invariant (`arbiter rules VARIANT` lists them); not with --job or --merge.
        name: Option<String>,
        /// The depth in turns; not with --job or --merge.
        depth: Option<u64>,
        #[command(flatten)]
        root: Root,
        #[command(flatten)]
        spread: Spread,
    },
    /// Say whether a colour can force a win within a number of its own turns.
    ///
    /// Against every defence, as `expect white wins in N` does: exit status 0 when it can, 1
    /// when it cannot.
    Win {
        /// The variant, as scenario files name it.
        variant: String,
        /// The colour that is to win: `white` or `black`.
        #[arg(value_name = "COLOR")]
        side: String,
        /// How many of its own turns it may take.
        turns: u64,
        #[command(flatten)]
        root: Root,
    },
    /// List the legal turns in canonical notation, sorted.
    Moves {
        /// The variant, as scenario files name it.
        variant: String,
        /// List the turns of this FEN instead of the initial position.
        #[arg(long)]
        fen: Option<String>,
        /// Board size `<files>x<ranks>` for variants that take one.
        #[arg(long)]
        size: Option<String>,
        /// Only the turns of the piece on this square.
        #[arg(long)]
        from: Option<String>,
        /// Set an option (`name=value`, repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// List the variant's rule ids with their sources, its options and its state keys.
    Rules {
        /// The variant, as scenario files name it.
        variant: String,
        /// Also count the scenarios under these paths that name each rule (`rule` lines).
        #[arg(long, num_args = 1..)]
        coverage: Vec<PathBuf>,
        /// Output for people (`text`), tools (`json`) or documentation (`markdown`, as
        /// `docs/rules/<variant>.md`).
        #[arg(long, value_enum, default_value_t = CatalogueFormat::Text)]
        format: CatalogueFormat,
    },
    /// Say whether a turn is legal and why: the rules that judged it in order, each with its
    /// clause quoted, the effects or the rules that forbid it, the nearest legal turns, and
    /// the options consulted with what their other values would change.
    ///
    /// `arbiter explain cypher "Sd4xb6" --board "white: Kh1 Sd4; black: Kh9 b6"`, or a
    /// scenario line: `arbiter explain scenarios/cypher/retake.scn:14` (the position just
    /// before that line, with its turn; a `play` line explains its first refused turn, or its
    /// last).
    #[command(verbatim_doc_comment)]
    Explain {
        /// A variant (`chess`, `cypher`, `csipgs`, `xpanse`) or a scenario line `file.scn:LINE`.
        target: String,
        /// The turn, as a scenario writes it (`Nf3`, `e7-e8=Q`, `O-O`); with a scenario line,
        /// it replaces that line's turn.
        turn: Option<String>,
        /// Judge the turn in this FEN instead of the initial position.
        #[arg(long)]
        fen: Option<String>,
        /// Judge the turn on this board: `white: Ke2 Qd2; black: Ke8`, optionally with
        /// `; black to move` and `; set prisoners white = 1`.
        #[arg(long)]
        board: Option<String>,
        /// Board size `<files>x<ranks>` for variants that take one.
        #[arg(long)]
        size: Option<String>,
        /// Pin an option (`name=value`, repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Output for people (`text`) or tools (`json`).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print a shell completion script: `arbiter completions bash > /etc/bash_completion.d/arbiter`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff): `arbiter man > arbiter.1; man ./arbiter.1`, or a
    /// subcommand's with all its flags (`arbiter man check`), or write every page into a folder
    /// (`arbiter man --dir man1`).
    Man {
        /// The subcommand whose page to print (`check`); without it, the page of `arbiter`.
        command: Option<String>,
        /// Write every page (`arbiter.1`, `arbiter-check.1`, ...) into this folder, each
        /// replaced whole or not at all, and print their paths.
        #[arg(long, value_name = "FOLDER")]
        dir: Option<PathBuf>,
    },
    /// Draw a position: a text diagram, or an SVG file with `-o`. Zones are shaded, a turn is
    /// drawn as arrows through every leg (kills crossed out; a refused turn dashed, with the
    /// rule that refuses it), and `--moves-from` marks where one piece can go.
    ///
    /// `arbiter show cypher -o start.svg`, `arbiter show xpanse --size 5x5 --board "..."`, or a
    /// scenario line: `arbiter show scenarios/cypher/retake.scn:14` (the position just before
    /// that line).
    #[command(verbatim_doc_comment)]
    Show {
        /// A variant (`chess`, `cypher`, `csipgs`, `xpanse`) or a scenario line `file.scn:LINE`.
        target: String,
        /// Draw this FEN instead of the initial position.
        #[arg(long)]
        fen: Option<String>,
        /// Draw this board: `white: Ke2 Qd2; black: Ke8`, optionally with `; black to move`.
        #[arg(long)]
        board: Option<String>,
        /// Board size `<files>x<ranks>` for variants that take one.
        #[arg(long)]
        size: Option<String>,
        /// Pin an option (`name=value`, repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Draw this turn, resolved in the position (`Ac3^e3xc5-e5`); a refused one dashed.
        #[arg(long, value_name = "TEXT")]
        turn: Option<String>,
        /// Mark the destinations of the piece on this square.
        #[arg(long, value_name = "SQUARE")]
        moves_from: Option<String>,
        /// Write an SVG image to this file instead of the text diagram, replacing it safely
        /// (a temporary file renamed over it); the scenario file drawn is refused unless
        /// `--force`.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
        /// Write where arbiter would refuse to: `-o` naming the scenario file, or a file with
        /// several hard links (this name then gets a new file; the others keep the old one).
        #[arg(long)]
        force: bool,
    },
    /// Price csipgs piece designs (Betza's funny notation), with the arithmetic atom by atom.
    Cost {
        /// The designs: `WbRbmHfB`, `Wfc(DNFA)scDsHbmH`, `(WD)`.
        #[arg(required = true)]
        designs: Vec<String>,
        /// Price them as a King's design (royal, times 4).
        #[arg(long)]
        royal: bool,
        /// The reading of several direction letters on one atom (csipgs option
        /// `direction-letters`): by the moves they select (`fbB` is `B`) or each as a power
        /// of its own (`fbB` is `fB + bB`).
        #[arg(long, value_enum, default_value_t = DirectionLetters::MoveSet, value_name = "READING")]
        direction_letters: DirectionLetters,
        /// Output for people (`text`) or tools (`json`).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Evaluate scenarios under every reading of the options their evaluation consulted: a
    /// table per scenario, one row per reading, one column per expectation, and the result.
    Dispute {
        /// The scenario file, or one scenario of it by a line: `file.scn:14`.
        file: PathBuf,
        /// Only scenarios whose title contains this text, in any case.
        #[arg(long)]
        scenario: Option<String>,
        /// Pin an option (`name=value`, repeatable): it is not varied.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Output for people (`text`) or tools (`json`).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Give each scenario under each reading at most this long (`90`, `90s`, `2m`).
        #[arg(long, value_name = "TIME", value_parser = parse_duration)]
        timeout: Option<Duration>,
    },
    /// Write the definition each section of a Fairy-Stockfish `variants.ini` maps to.
    ///
    /// To standard output, or with `--out DIR` one `SECTION.def` per section. A section using
    /// a setting that is not supported is refused, naming the setting, its line and column
    /// (exit status 1); exit status 2 when the file cannot be used. A section can also be
    /// named directly wherever a variant is: `path/variants.ini:SECTION`.
    Import {
        /// The INI file.
        file: PathBuf,
        /// The sections to import (default: all of them).
        sections: Vec<String>,
        /// Write one `SECTION.def` per section into this folder (made if missing). A file
        /// there that an earlier import wrote is replaced; one it did not write, or one edited
        /// since, is kept; anything but a regular file is never written to.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// With `--out`, also replace a `SECTION.def` that the import did not write (or that
        /// was edited since).
        #[arg(long, requires = "out")]
        force: bool,
    },
    /// Serve the Language Server Protocol on standard input and output, for editors: live
    /// diagnostics (syntax, unknown names, then the evaluation after a pause or on save),
    /// hover, completion, code actions (bless, `because`), formatting, document symbols and go
    /// to definition, for scenario files and definitions. See docs/editors.md.
    Lsp,
    /// Rewrite scenario files in their canonical layout, printing the files changed. Each file
    /// is replaced safely: a temporary file in its folder, flushed to disk, renamed over it.
    Fmt {
        /// Files and folders (searched for `*.scn` and `*.def`); default `scenarios/`. `-`
        /// formats standard input to standard output.
        paths: Vec<PathBuf>,
        /// Change nothing: list the files that are not formatted (exit status 1 if any).
        #[arg(long)]
        check: bool,
        /// Format standard input to standard output (as `-` does).
        #[arg(long)]
        stdin: bool,
        /// Standard input is a definition (without it, one is told by its text: a `from`,
        /// `piece`, `board` or rule block and no `scenario`).
        #[arg(long)]
        def: bool,
        /// Also rewrite a file with several hard links: this name gets the new text as a new
        /// file, its other names keep the old one (without it such a file is left as it is).
        #[arg(long)]
        force: bool,
    },
}

/// The values of csipgs' option `direction-letters`, for `arbiter cost`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DirectionLetters {
    MoveSet,
    Separate,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// How `arbiter check` prints its report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
    /// JUnit XML: a test suite per file, a test case per scenario.
    Junit,
    /// GitHub Actions workflow commands (`::error file=...`), then the summary line.
    Github,
    /// One self-contained HTML page: every scenario, each failure with a diagram.
    Html,
}

/// How `arbiter rules` prints a catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CatalogueFormat {
    Text,
    Json,
    Markdown,
}

/// The node budgets the command line gives: `--max-nodes` if given, `--max-run-nodes`.
#[derive(Clone, Copy, Debug)]
pub struct Budgets {
    pub max_nodes: Option<u64>,
    pub max_run_nodes: u64,
}

impl Budgets {
    /// The limits of each search of a scenario run (`check`, `dispute`, `explain`), all of them
    /// spending from one run budget.
    pub fn scenario(self) -> crate::rules::Limits {
        crate::rules::Limits {
            max_nodes: self
                .max_nodes
                .unwrap_or(crate::rules::search::DEFAULT_MAX_NODES),
            deadline: None,
            run: Some(crate::rules::search::RunBudget::leak(self.max_run_nodes)),
            cancel: None,
        }
    }

    /// The limits of a command-line search of this kind and variant.
    pub fn search(
        self,
        kind: crate::rules::search::SearchKind,
        variant: crate::rules::Variant,
    ) -> crate::rules::Limits {
        crate::rules::Limits {
            max_nodes: self
                .max_nodes
                .unwrap_or_else(|| crate::rules::search::command_max_nodes(kind, variant)),
            deadline: None,
            run: None,
            cancel: None,
        }
    }
}

/// A duration in seconds, minutes or hours: `90`, `90s`, `1.5m`, `2h`.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let (number, unit) = match text.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => text.split_at(i),
        None => (text, "s"),
    };
    let scale = match unit {
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        _ => {
            return Err(format!(
                "unknown unit `{unit}`; write seconds, `90s`, `2m` or `1h`"
            ))
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a duration; write seconds, `90s`, `2m` or `1h`"))?;
    Duration::try_from_secs_f64(value * scale)
        .map_err(|_| format!("`{text}` is not a duration from zero to a few centuries"))
}

/// Runs the command line and returns the exit status.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version go out as clap writes them; a usage error may quote what was
        // typed, so it is shown escaped.
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            output::err(format_args!(
                "{}",
                crate::text::escape_lines(&e.render().to_string())
            ));
            return e.exit_code();
        }
    };
    colour::setup(cli.color);
    commands::interrupt_on_ctrl_c();
    if let Err(e) = threads::setup(cli.threads) {
        eprintln!("error: {e}");
        return 2;
    }
    for folder in &cli.allow_path {
        if let Err(e) = crate::paths::allow(folder) {
            crate::errln!("error: {e}");
            return 2;
        }
    }
    let limits = Budgets {
        max_nodes: cli.max_nodes,
        max_run_nodes: cli.max_run_nodes,
    };
    match commands::run(cli.command, limits) {
        Ok(code) => code,
        Err(failure) => failure.finish(),
    }
}
