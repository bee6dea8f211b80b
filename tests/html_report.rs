//! `arbiter check --format html`: a snapshot of the page for a failing file, and the page
//! compared with the JSON report of the same run (every scenario title, each status, the
//! summary counts, one diagram per failing expectation), plus `-o` and its misuse.

use std::process::Command;

use serde_json::Value;

/// Runs `arbiter check <args>` in the crate root: stdout and exit status.
fn arbiter(args: &[&str]) -> (String, i32) {
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("check")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("arbiter runs");
    (
        String::from_utf8(o.stdout).expect("UTF-8 output"),
        o.status.code().unwrap_or(-1),
    )
}

/// Text as the page writes it.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// An element's text without its tags.
fn text_of(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

fn count(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

const FILES: [&str; 2] = ["tests/failing", "scenarios/chess"];

#[test]
fn page_tells_what_the_json_report_tells() {
    let mut args = FILES.to_vec();
    let (page, code) = arbiter(&[&args[..], &["--format", "html"]].concat());
    args.extend(["--format", "json"]);
    let (json, json_code) = arbiter(&args);
    let json: Value = serde_json::from_str(&json).expect("check JSON");
    assert_eq!(code, json_code, "the same exit status");
    assert!(page.starts_with("<!DOCTYPE html>\n"), "{}", &page[..100]);
    assert!(page.ends_with("</html>\n"));

    let n = |k: &str| json[k].as_u64().expect("a count") as usize;
    let (passed, failed, pending) = (n("passed"), n("failed"), n("pending"));
    assert!(
        failed > 0 && pending > 0 && passed > 0,
        "the run mixes all three"
    );
    let mut line = format!("{passed} passed, {failed} failed");
    if pending > 0 {
        line.push_str(&format!(", {pending} pending"));
    }
    // The summary once: its words are the text report's line, each count marked once.
    let start = page
        .find("<p class=\"summary\" id=\"summary\">")
        .expect("a summary");
    let summary = &page[start..start + page[start..].find("</p>").expect("its end")];
    assert_eq!(text_of(summary), line, "{summary}");
    for (name, n) in [("passed", passed), ("failed", failed), ("pending", pending)] {
        assert!(
            summary.contains(&format!("<b data-count=\"{name}\">{n}</b>")),
            "{name} = {n}"
        );
        assert_eq!(count(&page, &format!("data-count=\"{name}\"")), 1, "{name}");
    }
    assert_eq!(count(&page, &line), 1, "the summary line once: {line}");

    // Every file and every scenario, each with its status; a diagram (or a note saying why
    // there is none) under each failing expectation.
    let mut statuses = std::collections::BTreeMap::<String, usize>::new();
    let mut failures = 0;
    for file in json["files"].as_array().expect("files") {
        let path = file["path"].as_str().expect("path");
        assert!(
            page.contains(&format!("<span class=\"path\">{}</span>", esc(path))),
            "{path}"
        );
        for s in file["scenarios"].as_array().expect("scenarios") {
            let title = s["title"].as_str().expect("title");
            let status = s["status"].as_str().expect("status");
            let line = s["line"].as_u64().expect("line");
            let heading = format!(
                "<span class=\"title\">{}</span> <span class=\"where\">{}:{line}</span>",
                esc(title),
                esc(path)
            );
            assert!(page.contains(&heading), "{heading}");
            *statuses.entry(status.to_string()).or_default() += 1;
            for f in s["failures"].as_array().expect("failures") {
                failures += 1;
                let at = format!(
                    "<p class=\"at\">{}:{}:{}</p>",
                    esc(path),
                    f["line"],
                    f["column"]
                );
                assert!(page.contains(&at), "{at}");
                for (name, value) in f["options"].as_array().expect("options").iter().map(|o| {
                    (
                        o["name"].as_str().expect("name"),
                        o["value"].as_str().expect("value"),
                    )
                }) {
                    assert!(page.contains(&format!("<li><code>{name} = {value}</code></li>")));
                }
            }
        }
    }
    for (status, n) in &statuses {
        assert_eq!(
            count(&page, &format!("<article class=\"scenario {status}\">")),
            *n,
            "scenarios {status}"
        );
    }
    assert_eq!(
        count(&page, "<article class=\"scenario "),
        statuses.values().sum::<usize>()
    );
    assert_eq!(count(&page, "<div class=\"failure\">"), failures);
    let diagrams = count(&page, "<figure class=\"diagram\">\n<svg ");
    assert_eq!(
        diagrams + count(&page, "<p class=\"no-diagram\">"),
        failures
    );
    assert!(diagrams > 0, "at least one failure has a diagram");
}

#[test]
fn page_is_self_contained_and_deterministic() {
    let args = [FILES[0], "--format", "html"];
    let (page, _) = arbiter(&args);
    assert_eq!(page, arbiter(&args).0, "the same bytes twice");
    for external in ["<script", "<link", "<img", "@import", "url(http", "src=\""] {
        assert!(!page.contains(external), "the page holds {external}");
    }
    // The only `http` is the SVG namespace.
    let http: Vec<_> = page
        .match_indices("http")
        .map(|(i, _)| &page[i..i + 30])
        .filter(|s| !s.starts_with("http://www.w3.org/2000/svg\""))
        .filter(|s| !s.starts_with("http-equiv=\"Content-Security"))
        .collect();
    assert!(http.is_empty(), "{http:?}");
    assert!(page.contains("#failures-only:checked ~ main .scenario.passed"));
}

#[test]
fn output_file_gets_the_page_and_stdout_the_summary() {
    let dir = std::env::temp_dir().join(format!("arbiter-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("report.html");
    let path_text = path.to_str().expect("UTF-8 path");
    let file = "tests/failing/readings.scn";
    let (stdout, code) = arbiter(&[file, "--format", "html", "-o", path_text]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "0 passed, 2 failed\n");
    let written = std::fs::read_to_string(&path).expect("the page is written");
    assert_eq!(written, arbiter(&[file, "--format", "html"]).0);
    std::fs::remove_dir_all(&dir).ok();

    let (_, code) = arbiter(&[file, "--format", "json", "-o", path_text]);
    assert_eq!(code, 2, "-o goes with --format html only");
    let missing = dir.join("no/such/dir/report.html");
    let (_, code) = arbiter(&[
        file,
        "--format",
        "html",
        "-o",
        missing.to_str().expect("UTF-8 path"),
    ]);
    assert_eq!(code, 2, "an unwritable output file");
}

#[test]
fn snapshot_of_a_failing_file() {
    let (page, code) = arbiter(&["tests/failing/readings.scn", "--format", "html"]);
    assert_eq!(code, 1);
    insta::with_settings!({
        snapshot_path => "../snapshots",
        omit_expression => true,
    }, {
        insta::assert_snapshot!("html_readings", page);
    });
}
