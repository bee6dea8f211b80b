//! The errors of a definition, collected: each a [`Problem`] in one of the texts read (the
//! definition or one it inherits from), rendered like the scenario errors (file:line:col, the
//! line and a caret).

use std::fmt;

use crate::scenario::diagnostic::{LineIndex, Problem, Renderer};

/// A text that was read: the definition, or one it inherits from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The name errors give it (a path, or `chess` for a bundled definition).
    pub name: String,
    /// The text as read.
    pub text: String,
}

/// One error: what is wrong, and in which of the texts read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Index into [`Errors::sources`].
    pub source: usize,
    /// What is wrong, where in that text.
    pub problem: Problem,
}

/// Everything wrong with a definition, in the order of the texts read and then of places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Errors {
    /// The texts read: the definition first, then those it inherits from.
    pub sources: Vec<Source>,
    /// The errors, by text and then place.
    pub errors: Vec<Error>,
}

impl Errors {
    /// The errors' messages alone, in order (for tests and short reports).
    pub fn messages(&self) -> Vec<&str> {
        self.errors
            .iter()
            .map(|e| e.problem.message.as_str())
            .collect()
    }

    /// `name:line:col` of an error.
    pub fn location(&self, error: &Error) -> String {
        let source = &self.sources[error.source];
        let (line, col) =
            LineIndex::new(&source.text).line_col(&source.text, error.problem.span.start);
        format!("{}:{line}:{col}", source.name)
    }
}

impl fmt::Display for Errors {
    /// Every error rendered as the scenario errors are: message, `╭─[name:line:col]`, the
    /// lines around it with a caret, and the help.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let renderers: Vec<Renderer> = self
            .sources
            .iter()
            .map(|s| Renderer::new(&s.name, &s.text))
            .collect();
        for (i, error) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            match renderers.get(error.source) {
                Some(r) => write!(f, "{}", r.render(&error.problem))?,
                None => writeln!(f, "error: {}", error.problem.message)?,
            }
        }
        Ok(())
    }
}

impl std::error::Error for Errors {}
