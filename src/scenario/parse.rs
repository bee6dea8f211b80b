use super::ast::*;
use super::diagnostic::Problem;
pub fn parse_file(_src: &str) -> Result<File, Vec<Problem>> { Err(vec![]) }
pub fn parse_turn(_text: &str) -> Result<TurnText, Problem> { Err(Problem::new("x", 0..0, "")) }
