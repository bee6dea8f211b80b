//! `arbiter import` and `FILE.ini:SECTION` variants: the text written for a section, the
//! refusals with their places and exit statuses, safe writes into `--out`, a scenario naming a
//! section, and the perft of every section of Fairy-Stockfish's own `variants.ini` that
//! imports, against Fairy-Stockfish's counts (`tests/data/fsf-ini-perft.txt`).

use std::process::{Command, Output};

use arbiter::rules::{perft, Options, Rules};

const SECTIONS: &str = "tests/data/fsf-ini-sections.ini";

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("arbiter runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn snapshot(name: &str, text: String) {
    insta::with_settings!({
        snapshot_path => "../../snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(format!("ini_import__{name}"), text);
    });
}

#[test]
fn imported_sections_as_text() {
    let o = arbiter(&["import", SECTIONS, "gemini", "allwayspawns", "pawnsonly"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    snapshot("three_sections", text(&o.stdout));
    assert_eq!(
        text(&o.stderr),
        format!("imported 3 of 3 sections of {SECTIONS}\n")
    );
}

#[test]
fn refusals_name_the_setting_at_its_place() {
    let o = arbiter(&["import", "tests/data/ini/refused.ini"]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    // The list of games a section may start from grows with the bundled definitions.
    let mut shown = String::new();
    let mut in_list = false;
    for line in err.lines() {
        if line.contains("help: the built-in games a section may start from:") {
            in_list = true;
            shown.push_str("  help: the built-in games a section may start from: [the list]\n");
            continue;
        }
        if in_list && line.starts_with("        ") {
            continue;
        }
        in_list = false;
        shown.push_str(line);
        shown.push('\n');
    }
    snapshot("refusals", shown);
    assert!(err.contains("may start from: chess, "), "{err}");
    assert!(
        err.contains("unknown setting `stalemateValu`; did you mean `stalemateValue`?"),
        "{err}"
    );
    assert!(err.contains("tests/data/ini/refused.ini:9:1"), "{err}");
    assert!(text(&o.stdout).starts_with("variant fine\nfrom chess\n"));
}

#[test]
fn an_unusable_file_is_status_2() {
    let o = arbiter(&["import", "tests/data/ini/uses-a-section.scn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("has no section"),
        "{}",
        text(&o.stderr)
    );
    let o = arbiter(&["import", "tests/data/ini/no-such-file.ini"]);
    assert_eq!(o.status.code(), Some(2));
    let o = arbiter(&["import", SECTIONS, "nosuch"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("no section [nosuch]"));
}

#[test]
fn out_writes_one_definition_per_section_that_reads_back() {
    let dir = std::env::temp_dir().join(format!("arbiter-ini-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_string_lossy().into_owned();
    let o = arbiter(&["import", SECTIONS, "orda", "cornerrook", "--out", &d]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let written = dir.join("orda.def");
    let def = std::fs::read_to_string(&written).unwrap();
    let shown = arbiter(&["import", SECTIONS, "orda"]);
    assert_eq!(def, text(&shown.stdout));
    let a = arbiter(&["perft", &written.to_string_lossy(), "2"]);
    let b = arbiter(&["perft", &format!("{SECTIONS}:orda"), "2"]);
    // Fairy-Stockfish's count for orda at depth 2.
    assert_eq!(text(&a.stdout), "perft 2 = 560\n");
    assert_eq!(text(&b.stdout), text(&a.stdout));
    // A second run does not overwrite the INI file, and replaces the definitions safely.
    let again = arbiter(&["import", SECTIONS, "orda", "--out", &d]);
    assert_eq!(again.status.code(), Some(0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_scenario_names_a_section() {
    let o = arbiter(&["check", "tests/data/ini/uses-a-section.scn"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
}

/// Every section of Fairy-Stockfish's `variants.ini` that imports has Fairy-Stockfish's perft
/// from its start position.
#[test]
fn imported_sections_have_fairy_stockfishs_perft() {
    let counts = include_str!("../data/fsf-ini-perft.txt");
    let mut failures = Vec::new();
    let mut ran = 0;
    for line in counts
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let (section, depth, want): (&str, u32, u64) =
            (f[0], f[1].parse().unwrap(), f[2].parse().unwrap());
        let spec = format!("{}/{SECTIONS}:{section}", env!("CARGO_MANIFEST_DIR"));
        let variant = match arbiter::definition::load::variant(&spec) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{section}: {e}"));
                continue;
            }
        };
        let got = arbiter::with_variant!(variant, R => {
            let options = Options::defaults(R::options());
            let geometry = R::geometry_for(None).expect("a board");
            R::start(geometry, &options).map(|p| perft(&p, depth)).map_err(|e| e.message().to_string())
        });
        ran += 1;
        match got {
            Ok(n) if n == want => {}
            other => failures.push(format!(
                "{section} depth {depth}: want {want}, got {other:?}"
            )),
        }
    }
    assert_eq!(ran, 69);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every section that imports has Fairy-Stockfish's perft beyond its start position too: with
/// castling ready at once, and at the ends of random games (`tests/data/fsf-ini-perft-beyond.txt`).
/// A line whose fifth field says `ours N` is a position where this program follows the rules and
/// Fairy-Stockfish does not (docs/defining-variants.md, "Where Fairy-Stockfish's counts differ"):
/// there arbiter's count is N.
#[test]
fn imported_sections_have_fairy_stockfishs_perft_beyond_the_start() {
    let counts = include_str!("../data/fsf-ini-perft-beyond.txt");
    let mut failures = Vec::new();
    let mut ran = 0;
    for line in counts
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let (section, fen, depth, fsf): (&str, &str, u32, u64) =
            (f[0], f[1], f[2].parse().unwrap(), f[3].parse().unwrap());
        let want = match f.get(4) {
            Some(ours) => ours
                .strip_prefix("ours ")
                .and_then(|n| n.split(':').next()?.trim().parse().ok())
                .unwrap_or_else(|| panic!("`ours N` in {line}")),
            None => fsf,
        };
        let spec = format!("{}/{SECTIONS}:{section}", env!("CARGO_MANIFEST_DIR"));
        let variant = match arbiter::definition::load::variant(&spec) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{section}: {e}"));
                continue;
            }
        };
        let got = arbiter::with_variant!(variant, R => {
            let options = Options::defaults(R::options());
            let geometry = R::geometry_for(None).expect("a board");
            R::from_fen(geometry, fen, &options).map(|p| perft(&p, depth)).map_err(|e| e.message().to_string())
        });
        ran += 1;
        match got {
            Ok(n) if n == want => {}
            other => failures.push(format!(
                "{section} {fen} depth {depth}: want {want}, got {other:?}"
            )),
        }
    }
    assert_eq!(ran, 69 * 4);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
