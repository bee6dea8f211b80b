//! `arbiter check --format junit` and `--format github` tell what the JSON report tells: the
//! JUnit XML parsed with an XML parser and compared with the JSON report, file by file and
//! scenario by scenario; the GitHub workflow commands counted and their escaping checked; and
//! snapshots of both formats for two failing files.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// Runs `arbiter check <args> --format <format>` in the crate root: stdout and exit status.
fn check(args: &[&str], format: &str) -> (String, i32) {
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("check")
        .args(args)
        .args(["--format", format])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("arbiter runs");
    (
        String::from_utf8(o.stdout).expect("UTF-8 output"),
        o.status.code().unwrap_or(-1),
    )
}

fn json_report(args: &[&str]) -> (Value, i32) {
    let (out, code) = check(args, "json");
    (serde_json::from_str(&out).expect("check JSON"), code)
}

fn attr<'a>(node: roxmltree::Node<'a, '_>, name: &str) -> &'a str {
    node.attribute(name)
        .unwrap_or_else(|| panic!("<{}> has no {name}", node.tag_name().name()))
}

fn count_attr(node: roxmltree::Node<'_, '_>, name: &str) -> usize {
    attr(node, name).parse().expect("a count")
}

fn children<'a, 'i>(
    node: roxmltree::Node<'a, 'i>,
    tag: &'static str,
) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> {
    node.children().filter(move |c| c.has_tag_name(tag))
}

/// A workflow command's property value, escaped as the runner expects.
fn property(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
        .replace(':', "%3A")
        .replace(',', "%2C")
}

fn statuses(scenarios: &[Value], status: &str) -> usize {
    scenarios.iter().filter(|s| s["status"] == status).count()
}

/// Checks the JUnit report of `args` against their JSON report.
fn junit_agrees_with_json(args: &[&str]) {
    let (xml, code) = check(args, "junit");
    let (json, json_code) = json_report(args);
    assert_eq!(code, json_code, "exit status");
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let files = json["files"].as_array().expect("files");
    let suites: Vec<_> = children(root, "testsuite").collect();
    assert_eq!(suites.len(), files.len(), "one suite per file");
    let mut totals = [0; 4];
    for (suite, file) in suites.iter().zip(files) {
        let path = file["path"].as_str().unwrap();
        assert_eq!(attr(*suite, "name"), path);
        let scenarios = file["scenarios"].as_array().unwrap();
        let file_errors = file["errors"].as_array().unwrap();
        let extra = usize::from(!file_errors.is_empty());
        let counts = [
            count_attr(*suite, "tests"),
            count_attr(*suite, "failures"),
            count_attr(*suite, "errors"),
            count_attr(*suite, "skipped"),
        ];
        assert_eq!(
            counts,
            [
                scenarios.len() + extra,
                statuses(scenarios, "failed"),
                statuses(scenarios, "error") + extra,
                statuses(scenarios, "pending"),
            ],
            "{path}: tests, failures, errors, skipped"
        );
        for (t, c) in totals.iter_mut().zip(counts) {
            *t += c;
        }
        let cases: Vec<_> = children(*suite, "testcase").collect();
        assert_eq!(cases.len(), scenarios.len() + extra);
        for (case, s) in cases.iter().zip(scenarios) {
            assert_eq!(attr(*case, "name"), s["title"].as_str().unwrap());
            assert_eq!(attr(*case, "classname"), path);
            assert_eq!(attr(*case, "file"), path);
            assert_eq!(
                count_attr(*case, "line"),
                s["line"].as_u64().unwrap() as usize
            );
            let failures = s["failures"].as_array().unwrap();
            let elements: Vec<_> = children(*case, "failure").collect();
            let skipped: Vec<_> = children(*case, "skipped").collect();
            if s["status"] == "pending" {
                assert!(elements.is_empty(), "{path}: a pending scenario is skipped");
                assert_eq!(skipped.len(), 1);
                let reason = s["pending"].as_str().unwrap();
                assert_eq!(attr(skipped[0], "message"), format!("pending: {reason}"));
                continue;
            }
            assert!(skipped.is_empty());
            assert_eq!(elements.len(), failures.len(), "{path}: one per failure");
            for (element, f) in elements.iter().zip(failures) {
                assert_eq!(attr(*element, "type"), "expectation");
                let message = attr(*element, "message");
                assert!(
                    message.contains(f["expected"].as_str().unwrap()),
                    "{message}"
                );
                let text = element.text().unwrap_or("");
                let at = format!("{path}:{}:{}: ", f["line"], f["column"]);
                assert!(text.starts_with(&at), "{text}");
                assert!(text.contains(f["statement"].as_str().unwrap()), "{text}");
                assert!(text.contains(f["found"].as_str().unwrap()), "{text}");
                for o in f["options"].as_array().unwrap() {
                    let reading = format!("{} = {}", o["name"], o["value"]).replace('"', "");
                    assert!(text.contains(&reading), "{reading} in {text}");
                }
            }
            let errors = children(*case, "error").count();
            assert_eq!(errors, s["errors"].as_array().unwrap().len(), "{path}");
        }
        if extra == 1 {
            let case = cases.last().unwrap();
            assert_eq!(attr(*case, "name"), "unusable input");
            assert_eq!(children(*case, "error").count(), file_errors.len());
            let first = file_errors
                .iter()
                .map(|e| e["line"].as_u64().unwrap())
                .min();
            assert_eq!(count_attr(*case, "line") as u64, first.unwrap());
        }
    }
    let total = [
        count_attr(root, "tests"),
        count_attr(root, "failures"),
        count_attr(root, "errors"),
        count_attr(root, "skipped"),
    ];
    assert_eq!(total, totals, "the totals are the suites' sums");
}

#[test]
fn junit_of_failing_files_agrees_with_json() {
    junit_agrees_with_json(&["tests/failing"]);
}

#[test]
fn junit_of_passing_files_agrees_with_json() {
    junit_agrees_with_json(&["scenarios/chess"]);
    let (xml, code) = check(&["scenarios/chess"], "junit");
    assert_eq!(code, 0);
    assert!(
        !xml.contains("<failure") && !xml.contains("<error"),
        "{xml}"
    );
}

#[test]
fn github_commands_agree_with_json() {
    let (out, code) = check(&["tests/failing"], "github");
    let (json, json_code) = json_report(&["tests/failing"]);
    assert_eq!(code, json_code);
    let lines: Vec<&str> = out.lines().collect();
    let mut expected = Vec::new();
    for file in json["files"].as_array().unwrap() {
        let path = file["path"].as_str().unwrap();
        for e in file["errors"].as_array().unwrap() {
            expected.push(format!(
                "::error file={path},line={},col={},title=unusable input::",
                e["line"], e["column"]
            ));
        }
        for s in file["scenarios"].as_array().unwrap() {
            let title = property(s["title"].as_str().unwrap());
            let level = if s["status"] == "pending" {
                "warning"
            } else {
                "error"
            };
            for e in s["errors"].as_array().unwrap() {
                expected.push(format!(
                    "::error file={path},line={},col={},title={title}::",
                    e["line"], e["column"]
                ));
            }
            for f in s["failures"].as_array().unwrap() {
                let title = match s["pending"].as_str() {
                    Some(why) if level == "warning" => property(&format!(
                        "{} (pending: {why})",
                        s["title"].as_str().unwrap()
                    )),
                    _ => title.clone(),
                };
                expected.push(format!(
                    "::{level} file={path},line={},col={},title={title}::expected {}; found {}",
                    f["line"],
                    f["column"],
                    f["expected"].as_str().unwrap(),
                    f["found"].as_str().unwrap(),
                ));
            }
        }
    }
    let annotations: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("::error") || l.starts_with("::warning"))
        .collect();
    assert_eq!(annotations.len(), expected.len(), "{out}");
    for (line, want) in annotations.iter().zip(&expected) {
        assert!(
            line.starts_with(want.as_str()),
            "{line}\nshould start\n{want}"
        );
    }
    // A pending scenario that passes gets a notice; the last line is the summary.
    assert!(out.contains("::notice file=tests/failing/pending.scn,line=11,col=1,"));
    let summary = format!(
        "{} passed, {} failed, {} pending",
        json["passed"], json["failed"], json["pending"]
    );
    assert_eq!(lines.last().copied(), Some(summary.as_str()));
}

#[test]
fn github_escapes_messages_and_properties() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ci_formats");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("escapes.scn");
    std::fs::write(
        &file,
        "variant chess\n\nscenario \"100%: a, b <&>\" {\n  start\n  expect moves count 21\n}\n\n\
         scenario \"unknown\" {\n  start\n  expect zone e4 = court\n  rule no-such-rule\n}\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let (out, code) = check(&[path], "github");
    assert_eq!(code, 2, "{out}");
    let file_property = property(path);
    assert!(
        out.contains(&format!(
            "::error file={file_property},line=5,col=3,title=100%25%3A a%2C b <&>::expected 21 legal \
             turns; found 20 legal turns\n"
        )),
        "{out}"
    );
    // A problem's help goes on a second line of the message.
    let help = out
        .lines()
        .find(|l| l.contains("no-such-rule"))
        .expect("the unknown rule");
    assert!(help.contains("%0Ahelp: "), "{help}");
    assert!(!help.contains('\r'));
    // Every command is one line: nothing of a message spills over.
    for line in out.lines() {
        assert!(
            line.starts_with("::") || line.contains(" passed, "),
            "{line}"
        );
    }

    // The same file as JUnit: the title survives XML escaping.
    let (xml, _) = check(&[path], "junit");
    assert!(xml.contains("name=\"100%: a, b &lt;&amp;&gt;\""), "{xml}");
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let titles: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|n| n.attribute("name").unwrap_or(""))
        .collect();
    assert_eq!(titles, ["100%: a, b <&>", "unknown"]);
}

#[test]
fn exit_statuses_are_those_of_text() {
    for (args, want) in [
        (&["scenarios/chess/castling.scn"][..], 0),
        (&["tests/failing/false-expectations.scn"][..], 1),
        (&["tests/failing/unusable-names.scn"][..], 2),
        (&["no/such/folder"][..], 2),
    ] {
        for format in ["text", "junit", "github"] {
            assert_eq!(check(args, format).1, want, "{args:?} {format}");
        }
    }
    // A path with no scenario files is an error of its own in both formats.
    let (xml, _) = check(&["no/such/folder"], "junit");
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("error"))
            .count(),
        1
    );
    let (out, _) = check(&["no/such/folder"], "github");
    assert!(out.starts_with("::error title=unusable input::"), "{out}");
}

fn snapshot(name: &str, text: String) {
    insta::with_settings!({
        snapshot_path => "../../snapshots",
        // The file names these snapshots had when this was a test crate of its own.
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(format!("ci_formats__{name}"), text);
    });
}

#[test]
fn snapshots_of_failing_files() {
    let files = ["tests/failing/pending.scn", "tests/failing/readings.scn"];
    snapshot("junit", check(&files, "junit").0);
    snapshot("github", check(&files, "github").0);
}
