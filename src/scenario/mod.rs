//! The scenario language: grammar binding and syntax tree (`parse`, `ast`), evaluation against a
//! variant (`evaluate`), and what `arbiter check` prints (`report`, `diagnostic`).

pub mod ast;
pub mod ci_report;
pub mod coverage;
pub mod diagnostic;
pub mod evaluate;
pub mod format;
pub mod html_report;
pub mod parse;
pub mod report;
