//! The bundled orthodox chess scenarios, played under the chess DEFINITION
//! (`variants/chess.def`) by the generic engine: every scenario of the files listed must pass
//! with the verdicts, rule ids and results it expects of the built-in chess (invented pieces
//! such as `(WD)` stand on a definition's board as on the built-in's).

use std::path::Path;

use arbiter::scenario::report::FileCheck;

/// The chess scenario files played under `chess.def`.
const FILES: &[&str] = &[
    "castling.scn",
    "check.scn",
    "en-passant.scn",
    "invented.scn",
    "movement.scn",
    "notation.scn",
    "perft.scn",
    "promotion.scn",
    "results.scn",
    "search.scn",
    "state.scn",
];

#[test]
fn bundled_chess_scenarios_pass_under_the_chess_definition() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/chess");
    let mut failed = Vec::new();
    for file in FILES {
        let src = std::fs::read_to_string(dir.join(file)).expect("scenario file readable");
        let src: String = src
            .lines()
            .map(|l| match l.strip_prefix("variant chess") {
                Some(rest) if rest.is_empty() || rest.starts_with(' ') => {
                    format!("variant chess.def{rest}\n")
                }
                _ => format!("{l}\n"),
            })
            .collect();
        let text = FileCheck::run(file, src).text();
        let scenarios = text
            .lines()
            .filter(|l| l.contains(&format!("{file}:")))
            .count();
        assert!(scenarios > 0, "{file}: no scenario reported:\n{text}");
        if text
            .lines()
            .any(|l| l.starts_with("FAIL") || l.starts_with("ERROR"))
        {
            failed.push(text);
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
