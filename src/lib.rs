//! `arbiter`: a rules-specification verifier for chess variants.
//!
//! Scenario files (`scenario`) describe positions, turns and expectations; reference rules
//! interpreters (`rules`) evaluate them; the command line (`cli`) reports the results, and the
//! language server (`lsp`) shows them in an editor.

pub mod betza;
pub mod cli;
pub mod definition;
pub mod files;
#[doc(hidden)]
pub mod fuzzing;
pub mod lsp;
pub mod paths;
pub mod picture;
pub mod rules;
pub mod scenario;
pub mod shell;
pub mod suggest;
pub mod text;
