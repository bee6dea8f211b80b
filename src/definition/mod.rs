//! Variant definitions: a designer's own game written as data (board, pieces in Betza, start
//! position, readings and rule components, each with the designer's clause), which the generic
//! engine in `crate::rules::defined` plays. The bundled definitions are in the top-level
//! `variants/` folder.

pub mod model;

pub use model::{Component, Definition, PieceDef, Rule};
