//! Commands on variants given as definitions: snapshots of `rules` (text, JSON, markdown) and
//! `show` (text and SVG) on a bundled definition, so a change in what a designer sees is
//! reviewed.

use std::process::Command;

/// Standard output of `arbiter ARGS`, which must succeed.
fn arbiter(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("arbiter runs");
    assert_eq!(
        o.status.code(),
        Some(0),
        "arbiter {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("UTF-8 output")
}

fn snapshot(name: &str, text: String) {
    insta::with_settings!({
        snapshot_path => "../../snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(format!("definitions__{name}"), text);
    });
}

#[test]
fn rules_of_a_definition_in_every_format() {
    snapshot("rules_capablanca", arbiter(&["rules", "capablanca"]));
    snapshot(
        "rules_capablanca_json",
        arbiter(&["rules", "capablanca", "--format", "json"]),
    );
    snapshot(
        "rules_capablanca_markdown",
        arbiter(&["rules", "capablanca", "--format", "markdown"]),
    );
}

#[test]
fn show_draws_pieces_without_a_glyph_as_lettered_discs() {
    let text = arbiter(&["show", "capablanca"]);
    // The archbishop (A) and chancellor (C) are drawn by their letters; the first rank is
    // Black's promotion zone, shaded; every zone has a shade of its own (some squares are in
    // none, so none is blank), and its name as scenarios write it.
    assert!(
        text.contains("1 :R::N::A::B::Q::K::B::C::N::R: 1"),
        "{text}"
    );
    assert!(
        text.contains(
            "zones: ░ double-step-white, ▒ double-step-black, ▓ promotion-white, : promotion-black"
        ),
        "{text}"
    );
    snapshot("show_capablanca", text);
    let dir = std::env::temp_dir().join(format!("arbiter-definitions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("capablanca.svg");
    arbiter(&["show", "capablanca", "-o", path.to_str().unwrap()]);
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(
        svg.contains("text-anchor=\"middle\" fill=\"#1a1a1a\">A</text>")
            && svg.contains("text-anchor=\"middle\" fill=\"#ffffff\">C</text>"),
        "the archbishop and chancellor are lettered discs"
    );
    snapshot("show_capablanca_svg", svg);
    std::fs::remove_dir_all(&dir).ok();
}

/// The block of `docs/defining-variants.md` fenced with ```` ```lang ````, the first of them.
fn doc_block(doc: &str, lang: &str) -> String {
    let fence = format!("```{lang}\n");
    let start = doc.find(&fence).expect("the block is in the tutorial") + fence.len();
    let end = start + doc[start..].find("```").expect("the block ends");
    doc[start..end].to_string()
}

#[test]
fn the_tutorial_definition_and_scenario_check() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/defining-variants.md"
    ))
    .unwrap();
    let dir = std::env::temp_dir().join(format!("arbiter-tutorial-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("my.def"), doc_block(&doc, "def")).unwrap();
    std::fs::write(dir.join("my.scn"), doc_block(&doc, "scn")).unwrap();
    let my = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let out = arbiter(&["check", &my("my.scn")]);
    assert_eq!(out.lines().last(), Some("2 passed, 0 failed"), "{out}");
    let perft = arbiter(&["perft", &my("my.def"), "3"]);
    assert!(perft.starts_with("perft 3 = 1283\n"), "{perft}");
    assert!(
        doc.contains("perft 3 = 1283\n"),
        "the tutorial shows the count"
    );
    // Both are in the canonical layout the tutorial promises.
    arbiter(&["fmt", "--check", &my("my.def"), &my("my.scn")]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn dispute_varies_the_readings_a_definition_declares() {
    // The fifty-move scenario consults move-rule-draw (its count is past the fewest moves a
    // move-count component counts); the castling ones consult chess960 (a side holds a
    // castling right); the others consult nothing.
    snapshot(
        "dispute_endings",
        arbiter(&["dispute", "scenarios/definitions/endings.scn"]),
    );
    snapshot(
        "dispute_castling",
        arbiter(&["dispute", "scenarios/definitions/castling.scn"]),
    );
}

#[test]
fn bundled_definitions_and_their_scenarios_are_formatted() {
    let mut args = vec!["fmt".to_string(), "--check".to_string()];
    for dir in ["variants", "scenarios/definitions"] {
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path().display().to_string())
            .collect();
        files.sort();
        args.extend(files);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    arbiter(&args);
}

/// `from ./parent.def` names a file beside the definition that says it, whatever the current
/// folder: a scenario, its definition and the parent move together (run here from the
/// repository's folder, far from the files).
#[test]
fn a_parent_path_is_read_beside_its_definition() {
    let dir = std::env::temp_dir().join(format!("arbiter-parent-beside-{}", std::process::id()));
    let sub = dir.join("games");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&sub).unwrap();
    let chess = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/chess.def"),
    )
    .unwrap();
    std::fs::write(
        sub.join("parent.def"),
        chess.replacen("variant chess", "variant parent", 1),
    )
    .unwrap();
    std::fs::write(sub.join("child.def"), "variant child\nfrom ./parent.def\n").unwrap();
    std::fs::write(
        sub.join("s.scn"),
        "variant ./child.def\nscenario \"x\" {\n  rule castling\n  start\n  expect moves count 20\n}\n",
    )
    .unwrap();
    let out = arbiter(&["check", &sub.join("s.scn").to_string_lossy()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.contains("1 passed, 0 failed"), "{out}");
}

/// A definition that starts from itself under another spelling of its path is a loop found at
/// once (by canonical path), not a chain followed until it is too deep.
#[test]
fn a_loop_is_found_by_canonical_path_and_a_long_chain_is_too_deep() {
    let dir = std::env::temp_dir().join(format!("arbiter-from-loop-{}", std::process::id()));
    let sub = dir.join("sub");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(dir.join("a.def"), "variant a\nfrom ./sub/../a.def\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["rules", &dir.join("a.def").to_string_lossy()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("inheritance loops back"), "{err}");
    assert!(!err.contains("too deep"), "{err}");
    // One step: the file starts from itself.
    assert_eq!(err.matches("which starts from").count(), 1, "{err}");
    // A chain of 20 files, each starting from the next, is too deep, not a loop.
    for i in 0..20 {
        std::fs::write(
            dir.join(format!("c{i}.def")),
            format!("variant c{i}\nfrom ./c{}.def\n", i + 1),
        )
        .unwrap();
    }
    std::fs::write(dir.join("c20.def"), "variant c20\nfrom chess\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["rules", &dir.join("c0.def").to_string_lossy()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("inheritance is too deep"), "{err}");
    assert!(!err.contains("loops"), "{err}");
}

/// `arbiter ARGS` in the crate's folder: exit status, standard output and standard error.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("arbiter runs");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// definition-capturable-king.sh: a definition with check refuses a position whose side not to
/// move is in check, as the built-in chess does, for explain, perft and a scenario's FEN alike;
/// the side to move in check is a position like any other.
#[test]
fn a_definition_refuses_a_position_whose_side_not_to_move_is_in_check() {
    let fen = "4k3/3P4/8/8/8/8/8/4K3 w - - 0 1";
    let said = "bad FEN: black is in check, but it is white's turn";
    for variant in ["variants/chess.def", "chess"] {
        let (code, _, err) = run(&["explain", variant, "dxe8=Q", "--fen", fen]);
        assert_eq!(code, Some(2), "{variant}: {err}");
        assert!(err.contains(said), "{variant}: {err}");
    }
    let (code, _, err) = run(&["perft", "variants/chess.def", "1", "--fen", fen]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(said), "{err}");
    let dir = std::env::temp_dir().join(format!("arbiter-capturable-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scn = dir.join("king.scn");
    std::fs::write(
        &scn,
        format!(
            "variant {}/variants/chess.def\n\nscenario \"k\" {{\n  fen \"{fen}\"\n  expect moves count 1\n}}\n",
            env!("CARGO_MANIFEST_DIR")
        ),
    )
    .unwrap();
    let (code, out, err) = run(&["check", &scn.to_string_lossy()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains(said), "{out}{err}");
    // Allowed: the side to move in check.
    let (code, out, err) = run(&[
        "perft",
        "variants/chess.def",
        "1",
        "--fen",
        "4k3/3P4/8/8/8/8/8/4K3 b - - 0 1",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "perft 1 = 5\n");
}

/// fsf-differences.sh: the four differences from Fairy-Stockfish that were this program's, at
/// Fairy-Stockfish's counts: S-chess gate letters, makpong's double check, Berolina's en passant
/// field read back from what arbiter writes, and dragon-chess's castling through the import.
#[test]
fn the_differences_from_fairy_stockfish_that_were_ours() {
    let perft = |args: &[&str]| {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        out
    };
    assert_eq!(
        perft(&[
            "perft",
            "seirawan",
            "1",
            "--fen",
            "4k3/8/8/8/8/8/8/R2K3R[Ee] w H - 0 1"
        ]),
        "perft 1 = 34\n"
    );
    assert_eq!(
        perft(&[
            "perft",
            "makpong",
            "1",
            "--fen",
            "8/8/8/7k/6P1/8/8/K6R b - - 0 1"
        ]),
        "perft 1 = 0\n"
    );
    let shown = perft(&[
        "explain",
        "berolina",
        "Ke1-f1",
        "--fen",
        "4k3/8/8/1pPp4/8/8/8/4K3 w - d5c6 0 1",
    ]);
    let first = shown.lines().next().unwrap_or("");
    assert_eq!(
        first,
        "berolina 4k3/8/8/1pPp4/8/8/8/4K3 w - d5c6 0 1, white to move"
    );
    let written = first
        .trim_start_matches("berolina ")
        .trim_end_matches(", white to move");
    assert_eq!(
        perft(&["perft", "berolina", "1", "--fen", written]),
        "perft 1 = 8\n"
    );
    assert_eq!(
        perft(&[
            "perft",
            "tests/data/fsf-ini-sections.ini:dragon-chess",
            "1",
            "--fen",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
        ]),
        "perft 1 = 54\n"
    );
}
