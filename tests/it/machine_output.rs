//! Every format escapes for its own reader (`src/text.rs`): the JSON of `check`, `dispute`,
//! `rules` and `explain` is valid on every input and gives back every title, clause and file
//! name as written (a property test over arbitrary Unicode), and is safe on a terminal; GitHub
//! workflow commands, Markdown, JUnit and HTML carry no raw control character, bidirectional
//! control or markup (`../shared/repro/machine-output-escaping.sh`).

use std::path::{Path, PathBuf};
use std::process::Command;

use proptest::prelude::*;
use serde_json::Value;

fn fresh(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-machine-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Standard output of `arbiter <args>` run in `dir`, with its exit status.
fn run(dir: &Path, args: &[&str]) -> (String, i32) {
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("arbiter runs");
    (
        String::from_utf8(o.stdout).expect("UTF-8 output"),
        o.status.code().unwrap_or(-1),
    )
}

/// The JSON document `arbiter <args>` writes, which holds nothing a terminal would act on.
fn json(dir: &Path, args: &[&str]) -> Value {
    let (out, _) = run(dir, args);
    assert!(raw(&out).is_empty(), "{args:?}: raw {:?}", raw(&out));
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}:\n{out}"))
}

/// The characters no output may hold raw: control characters, the separators, bidirectional
/// controls (what `arbiter::text::escaped` names). JSON's and XML's own line breaks are their
/// layout, not text.
fn raw(out: &str) -> Vec<char> {
    out.chars()
        .filter(|&c| c != '\n' && arbiter::text::escaped(c))
        .collect()
}

/// A string as the scenario and definition languages quote it.
fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

const TITLE: &str = "a\u{202e}b\u{7f}c\u{85}d\u{2028}e\u{2066}f\u{1b}[2J\u{7}g\u{0}h";
const CLAUSE: &str = "c\u{202e}d\u{1b}[31m<script>x</script> & \"q\" 100% a::b, `c` | d";

/// The files of the reproducer: a scenario with a hostile title, a definition with a hostile
/// title and clause, and a scenario playing it.
fn hostile_files(dir: &Path) {
    std::fs::write(
        dir.join("bidi.scn"),
        format!(
            "variant chess\nscenario {} {{\n  start\n  expect legal e2-e5\n}}\n",
            quoted(TITLE)
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("bidi.def"),
        format!(
            "variant bidi\nfrom chess\ntitle {}\ncheck {{\n  clause {}\n}}\n",
            quoted(TITLE),
            quoted(CLAUSE)
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("plays.scn"),
        format!(
            "variant ./bidi.def\nscenario {} {{\n  start\n  expect illegal e2-e5\n}}\n",
            quoted(TITLE)
        ),
    )
    .unwrap();
}

#[test]
fn the_reproducer_gets_valid_json_and_no_raw_escapes() {
    let dir = fresh("repro");
    hostile_files(&dir);
    for (args, holds) in [
        (&["check", "bidi.scn", "--format", "json"][..], true),
        (&["check", "plays.scn", "--format", "json"], true),
        (&["dispute", "bidi.scn", "--format", "json"], true),
        (&["rules", "./bidi.def", "--format", "json"], true),
        (&["explain", "./bidi.def", "e2e4", "--format", "json"], true),
        // A scenario line's explanation names neither: valid all the same.
        (&["explain", "plays.scn:4", "--format", "json"], false),
    ] {
        let doc = json(&dir, args);
        assert!(
            !holds
                || strings(&doc)
                    .iter()
                    .any(|s| s.contains(TITLE) || s == CLAUSE),
            "{args:?}: neither the title nor the clause read back:\n{doc}"
        );
    }
    let check = json(&dir, &["check", "bidi.scn", "--format", "json"]);
    assert_eq!(check["files"][0]["scenarios"][0]["title"], TITLE);
    let rules = json(&dir, &["rules", "./bidi.def", "--format", "json"]);
    assert_eq!(
        rules["game"].as_str(),
        Some(as_definition_reads(TITLE).as_str())
    );
    assert!(strings(&rules).iter().any(|s| s == CLAUSE), "{rules}");

    for file in ["bidi.scn", "plays.scn"] {
        let (github, _) = run(&dir, &["check", file, "--format", "github"]);
        assert!(raw(&github).is_empty(), "github: raw {:?}", raw(&github));
        for line in github.lines().filter(|l| l.starts_with("::")) {
            let properties = line[2..].split("::").next().unwrap();
            assert!(!properties.contains(['\u{1b}', '\u{7}', '\0']), "{line}");
        }
        let (junit, _) = run(&dir, &["check", file, "--format", "junit"]);
        assert!(raw(&junit).is_empty(), "junit: raw {:?}", raw(&junit));
        let xml = roxmltree::Document::parse(&junit).expect("JUnit is XML");
        let names: Vec<&str> = xml
            .descendants()
            .filter_map(|n| n.attribute("name"))
            .collect();
        // The title as XML can hold it: all but the C0 controls, shown escaped.
        let readable = TITLE
            .replace('\u{1b}', "\\u{1b}")
            .replace('\u{7}', "\\u{7}")
            .replace('\0', "\\u{0}");
        assert!(names.contains(&readable.as_str()), "{names:?}");
        let (html, _) = run(&dir, &["check", file, "--format", "html"]);
        assert!(raw(&html).is_empty(), "html: raw {:?}", raw(&html));
        assert!(!html.contains("<script>"), "html");
        let (text, _) = run(&dir, &["check", file]);
        assert!(raw(&text).is_empty(), "text: raw {:?}", raw(&text));
    }
    let (markdown, _) = run(&dir, &["rules", "./bidi.def", "--format", "markdown"]);
    assert!(
        raw(&markdown).is_empty(),
        "markdown: raw {:?}",
        raw(&markdown)
    );
    assert!(!markdown.contains("<script>"), "markdown");
    assert!(
        markdown.contains("c\\\\u{202e}d\\\\u{1b}\\[31m\\<script\\>x\\</script\\>"),
        "{markdown}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Every string of a JSON document.
fn strings(v: &Value) -> Vec<String> {
    match v {
        Value::String(s) => vec![s.clone()],
        Value::Array(a) => a.iter().flat_map(strings).collect(),
        Value::Object(o) => o
            .iter()
            .flat_map(|(k, v)| std::iter::once(k.clone()).chain(strings(v)))
            .collect(),
        _ => Vec::new(),
    }
}

/// Characters of every kind, the hostile ones often.
fn any_text(len: usize) -> impl Strategy<Value = String> {
    let hostile = prop::sample::select(vec![
        '\u{1b}',
        '\u{7}',
        '\0',
        '\r',
        '\n',
        '\t',
        '\u{202e}',
        '\u{2066}',
        '\u{7f}',
        '\u{85}',
        '\u{9b}',
        '\u{2028}',
        '\u{2029}',
        '<',
        '>',
        '&',
        '"',
        '\'',
        '\\',
        '%',
        ':',
        ',',
        '`',
        '|',
        '\u{feff}',
        '\u{fffe}',
        '\u{ffff}',
        '\u{10ffff}',
    ]);
    prop::collection::vec(prop_oneof![2 => hostile, 3 => any::<char>()], 0..len)
        .prop_map(|cs| cs.into_iter().collect())
}

/// How a definition's string reads: each run of whitespace is one space.
fn as_definition_reads(s: &str) -> String {
    let mut out = String::new();
    let mut blank = false;
    for c in s.chars() {
        if c.is_whitespace() {
            if !blank {
                out.push(' ');
            }
            blank = true;
        } else {
            out.push(c);
            blank = false;
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// A title, a clause and a file name of any characters (but those the languages or the file
    /// system cannot hold: a line break in a scenario title, `/` and NUL in a file name) read
    /// back from every JSON output as they were written.
    #[test]
    fn titles_clauses_and_file_names_round_trip_through_every_json_output(
        title in any_text(12),
        clause in any_text(12),
        name in any_text(10),
    ) {
        let title: String = format!("t{title}").chars().filter(|c| !matches!(c, '\n' | '\r')).collect();
        let clause = format!("c{clause}");
        let name: String = format!("f{name}").chars().filter(|c| !matches!(c, '/' | '\0')).collect();
        let dir = fresh("round-trip");
        std::fs::write(
            dir.join("game.def"),
            format!(
                "variant game\nfrom chess\ntitle {}\ncheck {{\n  clause {}\n}}\n",
                quoted(&clause),
                quoted(&clause)
            ),
        )
        .unwrap();
        let scn = dir.join(format!("{name}.scn"));
        std::fs::write(
            &scn,
            format!(
                "variant ./game.def\nscenario {} {{\n  start\n  expect legal e2-e4\n}}\n",
                quoted(&title)
            ),
        )
        .unwrap();
        let path = scn.to_str().unwrap();
        let clause = as_definition_reads(&clause);

        let check = json(&dir, &["check", path, "--format", "json"]);
        prop_assert_eq!(check["exit"].as_i64(), Some(0), "{}", check);
        prop_assert_eq!(check["files"][0]["path"].as_str(), Some(path));
        prop_assert_eq!(check["files"][0]["scenarios"][0]["title"].as_str(), Some(title.as_str()));

        let dispute = json(&dir, &["dispute", path, "--format", "json"]);
        prop_assert_eq!(dispute["path"].as_str(), Some(path));
        prop_assert_eq!(dispute["scenarios"][0]["title"].as_str(), Some(title.as_str()));

        let rules = json(&dir, &["rules", "./game.def", "--format", "json"]);
        prop_assert_eq!(rules["game"].as_str(), Some(clause.as_str()));
        prop_assert!(strings(&rules).contains(&clause), "{}", rules);

        let explain = json(&dir, &["explain", "./game.def", "e2e4", "--format", "json"]);
        prop_assert!(strings(&explain).contains(&clause), "{}", explain);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
