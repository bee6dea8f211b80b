//! Reports: what `arbiter check` prints for each file, as text for people or JSON for tools.

use serde::Serialize;

use super::diagnostic::{line_col, render, Problem};
use super::evaluate::{evaluate, ScenarioReport};
use super::parse::parse_file;

/// One checked file: its scenarios' reports, or the problems that made it unusable.
#[derive(Clone, Debug)]
pub struct FileCheck {
    pub path: String,
    pub src: String,
    pub result: Result<Vec<ScenarioReport>, Vec<Problem>>,
}

impl FileCheck {
    pub fn run(path: &str, src: String) -> FileCheck {
        let result = parse_file(&src).and_then(|file| evaluate(&file, &src));
        FileCheck {
            path: path.to_string(),
            src,
            result,
        }
    }

    pub fn unreadable(path: &str, error: &std::io::Error) -> FileCheck {
        FileCheck {
            path: path.to_string(),
            src: String::new(),
            result: Err(vec![Problem::new(
                format!("cannot read {path}: {error}"),
                0..0,
                "",
            )]),
        }
    }

    pub fn counts(&self) -> (usize, usize) {
        match &self.result {
            Ok(reports) => {
                let passed = reports.iter().filter(|r| r.passed()).count();
                (passed, reports.len() - passed)
            }
            Err(_) => (0, 0),
        }
    }

    fn at(&self, offset: usize) -> String {
        let (line, col) = line_col(&self.src, offset);
        format!("{}:{line}:{col}", self.path)
    }

    /// The report lines for people; problems are rendered separately by [`Self::problems_text`].
    pub fn text(&self) -> String {
        let mut out = String::new();
        let Ok(reports) = &self.result else {
            out.push_str(&format!(
                "ERROR {}: unusable input, see the errors\n",
                self.path
            ));
            return out;
        };
        for r in reports {
            let (line, _) = line_col(&self.src, r.span.start);
            let mark = if r.passed() { "ok  " } else { "FAIL" };
            out.push_str(&format!("{mark}  {}:{line}  {}\n", self.path, r.title));
            for f in &r.failures {
                out.push_str(&format!(
                    "      {}: {}\n",
                    self.at(f.span.start),
                    f.statement
                ));
                out.push_str(&format!("        expected: {}\n", f.expected));
                out.push_str(&format!("        found:    {}\n", f.found));
            }
        }
        out
    }

    /// The problems of an unusable file, each pointing at the source.
    pub fn problems_text(&self) -> String {
        match &self.result {
            Ok(_) => String::new(),
            Err(problems) => problems
                .iter()
                .map(|p| {
                    if self.src.is_empty() {
                        format!("error: {}\n", p.message)
                    } else {
                        render(p, &self.path, &self.src)
                    }
                })
                .collect(),
        }
    }

    pub fn json(&self) -> JsonFile {
        match &self.result {
            Ok(reports) => JsonFile {
                path: self.path.clone(),
                errors: Vec::new(),
                scenarios: reports
                    .iter()
                    .map(|r| JsonScenario {
                        title: r.title.clone(),
                        line: line_col(&self.src, r.span.start).0,
                        passed: r.passed(),
                        expectations: r.checked,
                        failures: r
                            .failures
                            .iter()
                            .map(|f| {
                                let (line, column) = line_col(&self.src, f.span.start);
                                JsonFailure {
                                    line,
                                    column,
                                    statement: f.statement.clone(),
                                    expected: f.expected.clone(),
                                    found: f.found.clone(),
                                }
                            })
                            .collect(),
                    })
                    .collect(),
            },
            Err(problems) => JsonFile {
                path: self.path.clone(),
                scenarios: Vec::new(),
                errors: problems
                    .iter()
                    .map(|p| {
                        let (line, column) = line_col(&self.src, p.span.start);
                        JsonError {
                            line,
                            column,
                            message: p.message.clone(),
                            help: p.help.clone(),
                        }
                    })
                    .collect(),
            },
        }
    }
}

#[derive(Serialize)]
pub struct JsonFile {
    pub path: String,
    pub errors: Vec<JsonError>,
    pub scenarios: Vec<JsonScenario>,
}

#[derive(Serialize)]
pub struct JsonError {
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub help: Option<String>,
}

#[derive(Serialize)]
pub struct JsonScenario {
    pub title: String,
    pub line: usize,
    pub passed: bool,
    pub expectations: usize,
    pub failures: Vec<JsonFailure>,
}

#[derive(Serialize)]
pub struct JsonFailure {
    pub line: usize,
    pub column: usize,
    pub statement: String,
    pub expected: String,
    pub found: String,
}

/// The summary of a whole run: the last line, and the exit status of the contract.
pub fn summary(checks: &[FileCheck]) -> (String, i32) {
    let (mut passed, mut failed) = (0, 0);
    let mut unusable = false;
    for c in checks {
        let (p, f) = c.counts();
        passed += p;
        failed += f;
        unusable |= c.result.is_err();
    }
    let code = if unusable {
        2
    } else if failed > 0 {
        1
    } else {
        0
    };
    (format!("{passed} passed, {failed} failed"), code)
}
