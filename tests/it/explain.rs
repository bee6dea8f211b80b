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

#[test]
fn disputes() {
    insta::glob!("../disputes", "*.scn", |path| {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let (text, err, code) = arbiter("tests/disputes", &["dispute".into(), name.clone()]);
        assert!(err.is_empty(), "{name}: {err}");
        snapshot(
            "dispute",
            format!("$ arbiter dispute {name}\nexit {code}\n{text}"),
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
        assert!(err.is_empty(), "{name}: {err}");
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
