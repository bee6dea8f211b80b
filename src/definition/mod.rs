//! Variant definitions: a designer's own game written as data (board, pieces in Betza, start
//! position, readings and rule components, each with the designer's clause), which the generic
//! engine in `crate::rules::defined` plays. The bundled definitions are in the top-level
//! `variants/` folder.
//!
//! The language (`docs/defining-variants.md`) is read in two steps: [`parse::parse_tree`] reads
//! the text into a syntax tree of generic statements ([`syntax`]), and [`resolve::parse`]
//! applies inheritance and resolves every name into the [`model`], collecting [`Errors`].
//! [`fmt::format`] writes a text in canonical layout (`arbiter fmt`); [`load`] finds bundled
//! definitions and files; FENs are read by [`fen`], which the engine shares.

pub mod cache;
pub mod error;
pub mod fen;
pub mod fmt;
pub mod ini;
pub mod layout;
pub mod load;
pub mod model;
pub mod parse;
pub mod property;
pub mod resolve;
pub mod syntax;
#[cfg(test)]
mod tests;

pub use error::Errors;
pub use model::{Component, Definition, PieceDef, Rule};
pub use resolve::{parse, Loader};
