//! Snapshots of what settles a dispute: `arbiter explain` (text and JSON) for every position in
//! `tests/explain/*.args` (one argument per line, run in `tests/explain/`, where the scenario
//! files they point into live), and `arbiter dispute` for every file in `tests/disputes/` (the
//! bundled scenarios that pin an option, with the pin taken out: one per option of every
//! variant).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use arbiter::rules::Variant;

fn arbiter(dir: &str, args: &[String]) -> (String, String, i32) {
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir))
        .output()
        .expect("arbiter runs");
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

fn args_of(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

fn snapshot(name: &str, text: String) {
    insta::with_settings!({
        snapshot_path => "../../snapshots",
        // The file names these snapshots had when this was a test crate of its own.
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(format!("explain__{name}"), text);
    });
}

#[test]
fn explanations() {
    insta::glob!("../explain", "*.args", |path| {
        let mut args = vec!["explain".to_string()];
        args.extend(args_of(path));
        let (text, err, code) = arbiter("tests/explain", &args);
        assert!(err.is_empty(), "{}: {err}", path.display());
        assert!(code == 0 || code == 1, "{}: exit {code}", path.display());
        args.extend(["--format".to_string(), "json".to_string()]);
        let (json, _, json_code) = arbiter("tests/explain", &args);
        assert_eq!(code, json_code);
        let doc: serde_json::Value = serde_json::from_str(&json).expect("explain JSON");
        // The two formats tell the same story.
        let verdict = doc["verdict"].as_str().unwrap_or("");
        assert!(
            text.lines().nth(1).unwrap_or("").contains(verdict),
            "{text}"
        );
        for step in doc["steps"].as_array().unwrap() {
            assert!(text.contains(step["rule"].as_str().unwrap()));
        }
        let shown: Vec<String> = args[1..args.len() - 2]
            .iter()
            .map(|a| {
                if a.contains(' ') {
                    format!("\"{a}\"")
                } else {
                    a.clone()
                }
            })
            .collect();
        snapshot(
            "explain",
            format!(
                "$ arbiter explain {}\nexit {code}\n{text}\n--- --format json\n{json}",
                shown.join(" ")
            ),
        );
    });
}

/// `dispute` says on standard error how many searches a scenario's table will run, and
/// nothing else for these files.
fn assert_only_search_notes(name: &str, err: &str) {
    for line in err.lines() {
        assert!(
            line.starts_with("dispute \"") && line.contains(" searches ("),
            "{name}: {err}"
        );
    }
}

#[test]
fn disputes() {
    insta::glob!("../disputes", "*.scn", |path| {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let (text, err, code) = arbiter("tests/disputes", &["dispute".into(), name.clone()]);
        assert_only_search_notes(&name, &err);
        snapshot(
            "dispute",
            format!("$ arbiter dispute {name}\nexit {code}\n{text}--- stderr\n{err}"),
        );
    });
}

/// Every option of every variant decides the scenario chosen for it: the readings differ.
#[test]
fn every_option_decides_a_disputed_scenario() {
    let mut decided: BTreeSet<(String, String)> = BTreeSet::new();
    for entry in std::fs::read_dir("tests/disputes").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let (json, err, _) = arbiter(
            "tests/disputes",
            &[
                "dispute".into(),
                name.clone(),
                "--format".into(),
                "json".into(),
            ],
        );
        assert_only_search_notes(&name, &err);
        let doc: serde_json::Value = serde_json::from_str(&json).expect("dispute JSON");
        let variant = name.split(['.', '-']).next().unwrap().to_string();
        for s in doc["scenarios"].as_array().unwrap() {
            for o in s["decided_by"].as_array().unwrap() {
                decided.insert((variant.clone(), o.as_str().unwrap().to_string()));
            }
        }
    }
    for v in Variant::ALL {
        for o in v.options() {
            assert!(
                decided.contains(&(v.name().to_string(), o.name.to_string())),
                "no disputed scenario is decided by {v} option {}",
                o.name
            );
        }
    }
}

/// The options `explain` lists are all that matter: every option it does not list, set to any
/// other value, leaves the verdict, the forbidding rule and the result as they were.
#[test]
fn options_not_listed_do_not_change_the_verdict() {
    let key = |doc: &serde_json::Value| {
        format!(
            "{} {} {} {}",
            doc["verdict"], doc["forbidden_by"], doc["canonical"], doc["result"]
        )
    };
    let mut compared = 0;
    for entry in std::fs::read_dir("tests/explain").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "args") {
            continue;
        }
        let mut args = vec!["explain".to_string()];
        args.extend(args_of(&path));
        args.extend(["--format".to_string(), "json".to_string()]);
        let (json, _, _) = arbiter("tests/explain", &args);
        let doc: serde_json::Value = serde_json::from_str(&json).expect("explain JSON");
        let variant: Variant = doc["variant"].as_str().unwrap().parse().unwrap();
        let listed: BTreeSet<&str> = doc["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect();
        let pinned: BTreeSet<String> = args
            .iter()
            .filter_map(|a| a.split_once('=').map(|(n, _)| n.to_string()))
            .collect();
        for def in variant.options() {
            if listed.contains(def.name) || pinned.contains(def.name) {
                continue;
            }
            for v in def.values.iter().filter(|v| **v != def.default) {
                let mut with = args.clone();
                with.extend(["--option".to_string(), format!("{}={v}", def.name)]);
                let (other, _, _) = arbiter("tests/explain", &with);
                let other: serde_json::Value = serde_json::from_str(&other).expect("JSON");
                compared += 1;
                assert_eq!(
                    key(&doc),
                    key(&other),
                    "{}: {} = {v} is not listed, yet it changes the verdict",
                    path.display(),
                    def.name
                );
            }
        }
    }
    assert!(compared > 100, "only {compared} readings compared");
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}

#[test]
fn board_text_is_parsed_on_its_own_rule_and_errors_point_into_the_flag() {
    // board-splice.sh: a `}` in --board once closed the board, and the rest ran as statements
    // (a perft 6, a second board).
    let board = "white: Ke1 e2; black: Ke8 } start expect perft 6 = 1 play e2-e4 e7-e5 board { white: Ke1 black: Ke8";
    let started = std::time::Instant::now();
    let (out, err, code) = arbiter(
        ".",
        &strings(&["explain", "chess", "Ke1-e2", "--board", board]),
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(started.elapsed().as_secs() < 10, "a search ran");
    assert!(err.contains("found `}`"), "{err}");
    assert!(
        err.contains("--board 'white: Ke1 e2; black: Ke8 }"),
        "{err}"
    );
    // The caret stands under the `}` of the flag as the command line shows it.
    let line = err.lines().find(|l| l.contains("--board '")).unwrap();
    let caret = err.lines().find(|l| l.trim_end().ends_with('^')).unwrap();
    let column = |text: &str, i: usize| text[..i].chars().count();
    assert_eq!(
        line.find(" } ").map(|i| column(line, i + 1)),
        caret.find('^').map(|i| column(caret, i)),
        "{err}"
    );
    // Separators: `;` or line breaks; the side to move and `set` lines after the sides.
    for board in [
        "white: Ke1 e2; black: Ke8; black to move",
        "white: Ke1 e2\nblack: Ke8\nblack to move",
        "white: Ke1 e2 black: Ke8 black to move;",
    ] {
        let (out, err, code) = arbiter(
            ".",
            &strings(&["explain", "chess", "Ke8-d8", "--board", board]),
        );
        assert_eq!(code, 0, "{board:?}: {out}{err}");
        assert!(out.contains("Ke8-d8: legal"), "{out}");
    }
    // A bad square is shown in the flag, at its place.
    let (_, err, code) = arbiter(
        ".",
        &strings(&["show", "chess", "--board", "white: Ke1 Zz3; black: Ke8"]),
    );
    assert_eq!(code, 2);
    assert!(err.contains("<command line>:1:"), "{err}");
    assert!(
        err.contains("arbiter show chess --board 'white: Ke1 Zz3; black: Ke8'"),
        "{err}"
    );
    assert!(!err.contains("scenario \"command line\""), "{err}");
}

#[test]
fn a_board_without_its_size_says_which_size_to_add() {
    let (_, err, code) = arbiter(
        ".",
        &strings(&[
            "explain",
            "xpanse",
            "Ke1-e2",
            "--board",
            "white: Ke1; black: Ke5",
        ]),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("xpanse needs a board size: add `--size 5x5`"),
        "{err}"
    );
    assert!(err.contains("--board 'white: Ke1; black: Ke5'"), "{err}");
    assert!(err.contains("no --size for this board"), "{err}");
    let (_, err, _) = arbiter(
        ".",
        &strings(&["show", "xpanse", "--board", "white: Ke1; black: Kf6"]),
    );
    assert!(err.contains("add `--size 6x6`"), "{err}");
    // The size it names works.
    let (out, err, code) = arbiter(
        ".",
        &strings(&[
            "explain",
            "xpanse",
            "Ke1-e2",
            "--board",
            "white: Ke1; black: Ke5",
            "--size",
            "5x5",
        ]),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Ke1-e2: legal"), "{out}");
    let (_, err, code) = arbiter(
        ".",
        &strings(&["explain", "xpanse", "Ke1-e2", "--fen", "4k/5/5/5/4K w"]),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("add `--size <files>x<ranks>`; sizes: 4x5"),
        "{err}"
    );
}

/// A definition that shares a built-in's name (`chess.def`) is explained by the definition
/// (its own catalogue: no FIDE article for whose turn it is), not by the built-in.
#[test]
fn a_definition_named_as_a_built_in_is_explained_by_itself() {
    let args = strings(&[
        "explain",
        "chess.def",
        "(WD)d4-e5",
        "--board",
        "white: Ke1 (WD)d4; black: Ke8 Pd6",
    ]);
    let (text, err, code) = arbiter(".", &args);
    assert_eq!((err.as_str(), code), ("", 1), "{text}");
    assert!(text.contains("forbidden by invented-piece"), "{text}");
    assert!(!text.contains("FIDE Laws of Chess 1.1"), "{text}");
    let mut built_in = args.clone();
    built_in[1] = "chess".into();
    let (text, _, _) = arbiter(".", &built_in);
    assert!(text.contains("FIDE Laws of Chess 1.1"), "{text}");
}
