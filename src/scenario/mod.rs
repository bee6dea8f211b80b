//! The scenario language: grammar binding, syntax tree, evaluation and reports.

pub mod ast;
pub mod diagnostic;
pub mod parse;
