//! The `arbiter` command line: `check`, `perft`, `moves`, `rules`, `explain`, `dispute`.

mod commands;

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// A rules-specification verifier for chess variants.
///
/// Scenario files (`*.scn`) set up positions, play turns and state expectations; `arbiter`
/// evaluates them against reference rules interpreters. Exit status: 0 when every expectation
/// holds, 1 when some do not, 2 when input cannot be used (syntax, unknown variant, option, rule
/// id or key, unreadable file).
#[derive(Parser, Debug)]
#[command(name = "arbiter", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Evaluate scenario files; one line per scenario, then `N passed, M failed`.
    Check {
        /// Files and folders (searched for `*.scn`); default `scenarios/`.
        paths: Vec<PathBuf>,
        /// Output for people (`text`) or tools (`json`).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Count move paths of a given depth (the last ply is counted, not played).
    Perft {
        /// The variant, as scenario files name it (`chess`, `cypher`).
        variant: String,
        /// The depth in turns.
        depth: u32,
        /// Start from this FEN instead of the initial position.
        #[arg(long)]
        fen: Option<String>,
        /// Board size `<files>x<ranks>` for variants that take one.
        #[arg(long)]
        size: Option<String>,
        /// Show the count below each legal turn of the root.
        #[arg(long)]
        divide: bool,
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
    },
    /// List the variant's rule ids with their sources, its options and its state keys.
    Rules {
        /// The variant, as scenario files name it.
        variant: String,
        /// Also count the scenarios under these paths that name each rule (`rule` lines).
        #[arg(long, num_args = 1..)]
        coverage: Vec<PathBuf>,
    },
    /// Say whether a turn is legal in a position and, if not, which rule forbids it.
    Explain {
        /// The variant, as scenario files name it.
        variant: String,
        /// The turn, as a scenario writes it (`Nf3`, `e7-e8=Q`, `O-O`).
        turn: String,
        /// Judge the turn in this FEN instead of the initial position.
        #[arg(long)]
        fen: Option<String>,
        /// Board size `<files>x<ranks>` for variants that take one.
        #[arg(long)]
        size: Option<String>,
    },
    /// Evaluate a scenario file under every reading of each option it leaves open.
    Dispute {
        /// The scenario file.
        file: PathBuf,
        /// Only scenarios whose title contains this text.
        #[arg(long)]
        scenario: Option<String>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// Runs the command line and returns the exit status.
pub fn main() -> i32 {
    let cli = Cli::parse();
    match commands::run(cli.command) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            2
        }
    }
}
