//! Helpers of the parser's unit tests.

use super::parse_file;
use crate::scenario::ast::{Assertion, File, StatementKind};
use crate::scenario::diagnostic::{render, Problem};

pub fn file(src: &str) -> File {
    match parse_file(src) {
        Ok(f) => f,
        Err(problems) => {
            let rendered: Vec<String> = problems
                .iter()
                .map(|p| render(p, "test.scn", src))
                .collect();
            panic!("parse failed:\n{}", rendered.join("\n"))
        }
    }
}

/// The statements of a one-scenario file around `body`.
pub fn statements(body: &str) -> Vec<StatementKind> {
    let src = format!("variant chess\nscenario \"t\" {{\n{body}\n}}\n");
    let f = file(&src);
    f.scenarios[0]
        .statements
        .iter()
        .map(|s| s.kind.clone())
        .collect()
}

pub fn one(body: &str) -> StatementKind {
    let mut s = statements(body);
    assert_eq!(s.len(), 1, "{s:?}");
    s.remove(0)
}

pub fn assertion(text: &str) -> Assertion {
    match one(&format!("expect {text}")) {
        StatementKind::Expect(a) => a,
        other => panic!("not an expectation: {other:?}"),
    }
}

pub fn problems(src: &str) -> Vec<Problem> {
    match parse_file(src) {
        Ok(f) => panic!("parsed: {f:?}"),
        Err(p) => p,
    }
}

/// The problem for one statement in an otherwise fine chess scenario, and the text its
/// span covers.
pub fn one_problem(statement: &str) -> (Problem, String) {
    let src = format!("variant chess\nscenario \"t\" {{\n  start\n  {statement}\n}}\n");
    let p = problems(&src);
    assert_eq!(p.len(), 1, "{p:#?}");
    let covered = src[p[0].span.clone()].to_string();
    (p[0].clone(), covered)
}
