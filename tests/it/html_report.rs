//! `arbiter check --format html`: a snapshot of the page for a failing file, and the page
//! compared with the JSON report of the same run (every scenario title, each status, the
//! summary counts once, one diagram per failing expectation), plus `-o` and its misuse; the
//! 200-diagram cap on a long game and on many failing scenarios, each diagram the position
//! `show` draws; the failing turn and the variant's state drawn, no board for `expect cost`.

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
        snapshot_path => "../../snapshots",
        // The file name this snapshot had when this was a test crate of its own.
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!("html_report__html_readings", page);
    });
}

/// A folder of its own under the temporary directory, with `files` written in it.
fn folder(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-html-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (file, text) in files {
        std::fs::write(dir.join(file), text).expect("write");
    }
    dir
}

/// The SVG of each diagram on the page, in order, with the ids the page gave its markers put
/// back as `arbiter show` writes them.
fn diagrams(page: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (n, part) in page
        .split("<figure class=\"diagram\">\n")
        .skip(1)
        .enumerate()
    {
        let svg = &part[..part.find("</svg>\n").expect("the SVG ends") + "</svg>\n".len()];
        out.push(svg.replace(&format!("d{}-head-", n + 1), "head-"));
    }
    out
}

/// The SVG `arbiter show <args> -o FILE` writes.
fn shown_svg(dir: &std::path::Path, args: &[&str]) -> String {
    let out = dir.join("shown.svg");
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("show")
        .args(args)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("arbiter runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(&out).expect("the SVG is written")
}

/// The repro of a 1,000-turn Cypher game with a failing check after each turn
/// (`html-quadratic.sh`): the page used to replay the game from its start for each of the
/// 1,000 diagrams. Now each failure keeps its picture when it is recorded: the page draws the
/// first 200 (each the position `arbiter show FILE:LINE` draws), and says that 800 were left out
/// and how to draw them.
#[test]
fn a_long_game_draws_the_first_diagrams_as_the_game_went_and_names_the_rest() {
    let file = "tests/data/cypher-1000-turns-failing.scn";
    let (page, code) = arbiter(&[file, "--format", "html"]);
    assert_eq!(code, 1);
    assert_eq!(count(&page, "<div class=\"failure\">"), 1000);
    let drawn = diagrams(&page);
    assert_eq!(drawn.len(), 200, "at most 200 diagrams on a page");
    assert!(page.contains(
        "<p class=\"note\">800 diagrams left out: the page draws the first 200; \
         <code>--filter</code> or <code>FILE:LINE</code> draws the rest</p>"
    ));
    assert_eq!(
        count(&page, "<p class=\"no-diagram\">diagram left out"),
        800
    );
    assert!(page.contains(&format!(
        "<code>arbiter check {file}:2004 --format html</code>"
    )));
    // The first failure (line 6), one in the middle and the last drawn (line 404): the position
    // of the game there, as `show` draws it from the next line (an `expect` moves nothing).
    let dir = folder("long-game", &[]);
    for (index, line) in [(0, 6), (99, 204), (199, 404)] {
        let at = format!("{}/{file}:{}", env!("CARGO_MANIFEST_DIR"), line + 1);
        assert!(drawn[index] == shown_svg(&dir, &[&at]), "line {line}");
    }
    assert!(drawn[0].contains("<title>cypher, black to move</title>"));
    std::fs::remove_dir_all(&dir).ok();
}

/// The repro of 100,000 failing scenarios (`html-many-failures-memory.sh`, a 2.4 GB page), at
/// 2,000: the page holds every failure but at most 200 diagrams, so it grows with the failures'
/// words and not with their pictures.
#[test]
fn many_failing_scenarios_make_a_page_of_at_most_200_diagrams() {
    let mut src = String::from("variant chess\n");
    for i in 0..2000 {
        src.push_str(&format!(
            "\nscenario \"s{i}\" {{\n  start\n  play e2-e4\n  expect moves count 21\n}}\n"
        ));
    }
    let dir = folder("many", &[("fail.scn", &src)]);
    let path = dir.join("fail.scn");
    let (page, code) = arbiter(&[path.to_str().expect("UTF-8 path"), "--format", "html"]);
    assert_eq!(code, 1);
    assert_eq!(count(&page, "<div class=\"failure\">"), 2000);
    assert_eq!(diagrams(&page).len(), 200);
    assert!(page.contains("<p class=\"note\">1800 diagrams left out"));
    // Some 1.2 kB of words per failure beside the 200 diagrams.
    assert!(
        page.len() < 200 * 30_000 + 2000 * 1_500,
        "{} bytes",
        page.len()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Under each failure, what the failure is about: the turn a `play` or an `expect legal` was
/// refused (dashed, with its rule), the turn an `expect illegal` found legal, the variant's
/// state beside the board (csipgs treasuries and reserves, chess castling rights), and no
/// board at all for `expect cost`, which asks about no position.
#[test]
fn diagrams_draw_the_failing_turn_and_the_state_and_no_board_for_a_cost() {
    let chess = "variant chess\n\n\
        scenario \"castling\" {\n  start\n  play e4 e5 Nf3 Nc6 Bc4 Bc5\n  \
        expect illegal O-O\n  expect legal O-O-O\n  play Kf1 Kf8\n  play O-O\n}\n";
    let csipgs = "variant csipgs\n\n\
        scenario \"prices and treasuries\" {\n  start\n  set treasury white = 7\n  \
        set reserve black = \"N (WD)\"\n  expect cost WD = 1\n  expect treasury white = 8\n}\n";
    let dir = folder("drawn", &[("castling.scn", chess), ("csipgs.scn", csipgs)]);
    let at = |f: &str| dir.join(f).to_str().expect("UTF-8 path").to_string();
    let (page, code) = arbiter(&[&at("castling.scn"), "--format", "html"]);
    assert_eq!(code, 1);
    let drawn = diagrams(&page);
    assert_eq!(drawn.len(), 3, "{page}");
    // The turn found legal, drawn as played: the King and the Rook.
    assert!(drawn[0].contains("<g class=\"turn\">"));
    assert!(drawn[0].contains("points=\"510,770 710,770\""));
    assert!(drawn[0].contains("points=\"810,770 610,770\""));
    // The turns refused, dashed with their rules.
    for (svg, rule) in [
        (&drawn[1], "castling-blocked"),
        (&drawn[2], "castling-rights"),
    ] {
        assert!(svg.contains("<g class=\"turn refused\">"), "{svg}");
        assert!(svg.contains(&format!(">{rule}</text>")), "{rule}");
        assert_eq!(
            count(svg, "stroke-dasharray"),
            2,
            "{rule}: both moves dashed"
        );
    }
    assert!(drawn[0].contains("castling: KQkq; en-passant: -"));
    assert!(drawn[2].contains("castling: -; en-passant: -"));
    // As `show --turn` draws it, from the line after the statement (an `expect` moves nothing).
    let shown = shown_svg(
        &dir,
        &[&format!("{}:8", at("castling.scn")), "--turn", "O-O-O"],
    );
    assert!(drawn[1] == shown);

    let (page, code) = arbiter(&[&at("csipgs.scn"), "--format", "html"]);
    assert_eq!(code, 1);
    assert_eq!(count(&page, "<div class=\"failure\">"), 2);
    let drawn = diagrams(&page);
    assert_eq!(
        drawn.len(),
        1,
        "a board for the treasury, none for the cost"
    );
    for state in [
        "treasury: white 7, black 0",
        "reserve: white -, black N (WD)",
    ] {
        assert!(drawn[0].contains(&format!(">{state}</text>")), "{state}");
    }
    let cost = page
        .split("<div class=\"failure\">")
        .nth(1)
        .expect("the cost's failure");
    let cost = &cost[..cost.find("</div>\n</div>").expect("its end")];
    assert!(cost.contains("expect cost WD = 1"));
    assert!(!cost.contains("diagram"), "{cost}");
    std::fs::remove_dir_all(&dir).ok();
}
