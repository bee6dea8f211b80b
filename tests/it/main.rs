//! The integration tests, one module per theme, in one test binary: linking thirty binaries
//! against the library took most of a cold `cargo test`. The fixtures stay in `tests/` beside
//! this folder; proptest keeps these modules' failing cases in `tests/proptest-regressions/`;
//! the snapshots in `snapshots/` keep the names they had as crates of their own.

mod common;

mod betza;
mod betza_props;
mod check_threads;
mod ci_formats;
mod cli;
mod confined_paths;
mod consulted;
mod coverage;
mod csipgs_props;
mod cypher_compound;
mod cypher_definition;
mod cypher_props;
mod defined_chess;
mod definitions;
mod docs_examples;
mod editor_grammar;
mod explain;
mod fmt;
mod fuzz_regressions;
mod grammar_props;
mod html_browser;
mod html_report;
mod ini_import;
mod input_errors;
mod invented_pieces;
mod lsp;
mod machine_output;
mod perft;
mod properties;
mod robustness;
mod rule_docs;
mod rule_quotes;
mod scenarios;
mod show;
mod split;
mod syntax_errors;
mod xpanse_moves;
mod xpanse_props;
