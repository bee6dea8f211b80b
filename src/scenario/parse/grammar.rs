//! The pest binding of `grammar/scenario.pest`.

use pest_derive::Parser;

/// The pest parser generated from `grammar/scenario.pest`.
#[derive(Parser)]
#[grammar = "../grammar/scenario.pest"]
pub struct ScenarioParser;
