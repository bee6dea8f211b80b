//! Every input the fuzzers found a crash, panic or hang with, run again through the body of the
//! same fuzz target (`arbiter::fuzzing`), without a fuzzer: none may panic.
//!
//! Inputs live in `tests/fuzz-regressions/<target>/`, one file each, exactly the bytes the
//! target was given. `check_structured` inputs need the generator of the `fuzzing` feature; each
//! has a `.scn` beside it (the scenario file it generates), which plain `cargo test` runs through
//! `check_text`.
//!
//! A finding not fixed yet sits in `tests/fuzz-regressions/<target>/open/`: the ignored test
//! `open_findings` runs those (`cargo test --test it fuzz_regressions -- --ignored`), so the
//! suite stays green while the fix is made elsewhere; once fixed, the file moves up a level.

use std::path::{Path, PathBuf};

const TARGETS: [&str; 8] = [
    "check_text",
    "check_structured",
    "fen_chess",
    "fen_cypher",
    "fen_csipgs",
    "fen_xpanse",
    "turn_text",
    "definition_text",
];

fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz-regressions")
        .join(target);
    files_in(&dir)
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

/// Runs `body` on each input of `target` (those whose name passes `keep`), naming the input
/// when it panics.
fn run(target: &str, keep: impl Fn(&Path) -> bool, body: fn(&[u8])) -> usize {
    run_files(inputs(target), keep, body)
}

fn run_files(files: Vec<PathBuf>, keep: impl Fn(&Path) -> bool, body: fn(&[u8])) -> usize {
    let mut count = 0;
    for path in files.into_iter().filter(|p| keep(p)) {
        let data = std::fs::read(&path).expect("readable regression input");
        let outcome = std::panic::catch_unwind(|| body(&data));
        assert!(
            outcome.is_ok(),
            "fuzz regression {} panicked (see the message above)",
            path.display()
        );
        count += 1;
    }
    count
}

fn is_scn(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "scn")
}

#[test]
fn check_text() {
    run("check_text", |_| true, arbiter::fuzzing::check_text);
}

#[test]
fn check_structured_scenario_files() {
    run("check_structured", is_scn, arbiter::fuzzing::check_text);
}

#[cfg(feature = "fuzzing")]
#[test]
fn check_structured_inputs() {
    run(
        "check_structured",
        |p| !is_scn(p),
        arbiter::fuzzing::check_structured,
    );
}

#[test]
fn fen_chess() {
    run("fen_chess", |_| true, arbiter::fuzzing::fen_chess);
}

#[test]
fn fen_cypher() {
    run("fen_cypher", |_| true, arbiter::fuzzing::fen_cypher);
}

#[test]
fn fen_csipgs() {
    run("fen_csipgs", |_| true, arbiter::fuzzing::fen_csipgs);
}

#[test]
fn fen_xpanse() {
    run("fen_xpanse", |_| true, arbiter::fuzzing::fen_xpanse);
}

#[test]
fn turn_text() {
    run("turn_text", |_| true, arbiter::fuzzing::turn_text);
}

#[test]
fn definition_text() {
    run(
        "definition_text",
        |_| true,
        arbiter::fuzzing::definition_text,
    );
}

/// The body of a target, by name; `check_structured` inputs without the `fuzzing` feature
/// run their `.scn` through `check_text`.
fn body(target: &str, path: &Path) -> Option<fn(&[u8])> {
    Some(match target {
        "check_text" => arbiter::fuzzing::check_text,
        "check_structured" if is_scn(path) => arbiter::fuzzing::check_text,
        #[cfg(feature = "fuzzing")]
        "check_structured" => arbiter::fuzzing::check_structured,
        "fen_chess" => arbiter::fuzzing::fen_chess,
        "fen_cypher" => arbiter::fuzzing::fen_cypher,
        "fen_csipgs" => arbiter::fuzzing::fen_csipgs,
        "fen_xpanse" => arbiter::fuzzing::fen_xpanse,
        "turn_text" => arbiter::fuzzing::turn_text,
        "definition_text" => arbiter::fuzzing::definition_text,
        _ => return None,
    })
}

/// Findings not fixed yet: expected to fail until they are.
#[test]
#[ignore = "findings not fixed yet, in tests/fuzz-regressions/<target>/open/ (none when empty)"]
fn open_findings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions");
    for target in TARGETS {
        for path in files_in(&root.join(target).join("open")) {
            if let Some(f) = body(target, &path) {
                run_files(vec![path], |_| true, f);
            }
        }
    }
}

/// The fixed positions of `turn_text` are valid, so the target never fails on its own setup.
#[test]
fn turn_text_positions_parse() {
    use arbiter::rules::chess::Chess;
    use arbiter::rules::csipgs::Csipgs;
    use arbiter::rules::cypher::Cypher;
    use arbiter::rules::{Options, Rules};
    for fen in arbiter::fuzzing::CHESS_FENS {
        let g = Chess::geometry_for(None).unwrap();
        Chess::from_fen(g, fen, &Options::defaults(Chess::options())).unwrap();
    }
    for fen in arbiter::fuzzing::CYPHER_FENS {
        let g = Cypher::geometry_for(None).unwrap();
        Cypher::from_fen(g, fen, &Options::defaults(Cypher::options())).unwrap();
    }
    for fen in arbiter::fuzzing::CSIPGS_FENS {
        let g = Csipgs::geometry_for(None).unwrap();
        Csipgs::from_fen(g, fen, &Options::defaults(Csipgs::options())).unwrap();
    }
}

/// The generator writes scenario files that mostly parse and run: a smoke test of the
/// `fuzzing` feature on fixed bytes.
#[cfg(feature = "fuzzing")]
#[test]
fn structured_generator_writes_usable_files() {
    let mut usable = 0;
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..40 {
        let data: Vec<u8> = (0..600)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect();
        let src = arbiter::fuzzing::structured::scenario_file(&data);
        if arbiter::scenario::parse::parse_file(&src).is_ok() {
            usable += 1;
        }
    }
    assert!(usable >= 10, "only {usable} of 40 generated files parse");
}
