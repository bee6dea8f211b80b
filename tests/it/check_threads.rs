//! `check` on several worker threads writes what it writes on one: the same bytes on standard
//! output and standard error, in the same order, with the same exit status, for every format,
//! with `--fail-fast`, `--filter`, `file:LINE` and `--bless`; and a scenario evaluated on any
//! worker names the same readings beside its failures.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use arbiter::rules::consulted;
use arbiter::scenario::evaluate::{evaluate_scenario, evaluate_with, selected, Settings};
use arbiter::scenario::parse::parse_file;
use rayon::prelude::*;

const THREADS: [&str; 3] = ["1", "2", "4"];

fn arbiter_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("arbiter runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh folder for one test's files.
fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-threads-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// Files the fixtures under `tests/` lack: several scenarios that pass, fail and are pending
/// in one file, a file-wide option that does not exist, bytes that are not UTF-8.
fn mixed_folder(test: &str) -> PathBuf {
    let dir = folder(test);
    let write = |name: &str, body: &[u8]| std::fs::write(dir.join(name), body).expect("written");
    write(
        "a-mixed.scn",
        b"variant chess\n\
          scenario \"passes\" {\n  start\n  expect moves count 20\n}\n\
          scenario \"fails\" {\n  start\n  expect moves count 21\n  expect perft 2 = 401\n}\n\
          scenario \"pending\" {\n  pending \"not settled\"\n  start\n  expect moves count 19\n}\n\
          scenario \"passes too\" {\n  start\n  play e4\n  expect moves count 20\n}\n\
          scenario \"unknown square\" {\n  start\n  expect moves from z9 = { }\n}\n\
          scenario \"last\" {\n  start\n  expect perft 3 = 8902\n}\n",
    );
    write(
        "b-header.scn",
        b"variant chess\noption no-such-option = yes\n\
          scenario \"never runs\" {\n  start\n  expect moves count 20\n}\n",
    );
    write("c-bytes.scn", b"variant chess\n# \xff\xfe\n");
    write(
        "d-passes.scn",
        b"variant cypher\n\
          scenario \"one\" {\n  start\n  expect result none\n}\n\
          scenario \"two\" {\n  start\n  expect perft 2 = 0\n}\n",
    );
    dir
}

/// Runs `check` with `args` under every thread count and requires the same output and status
/// as on one thread; gives the run on one thread.
fn same_under_threads(dir: &Path, args: &[&str]) -> Output {
    let run = |threads: &str| {
        let mut all = vec!["--threads", threads, "check"];
        all.extend_from_slice(args);
        arbiter_in(dir, &all)
    };
    let one = run("1");
    for threads in &THREADS[1..] {
        let many = run(threads);
        assert_eq!(
            text(&one.stdout),
            text(&many.stdout),
            "stdout of check {args:?} with --threads {threads}"
        );
        assert_eq!(
            text(&one.stderr),
            text(&many.stderr),
            "stderr of check {args:?} with --threads {threads}"
        );
        assert_eq!(one.status.code(), many.status.code(), "check {args:?}");
    }
    one
}

fn fixtures(mixed: &Path) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths: Vec<String> = [
        "tests/failing",
        "tests/broken",
        "tests/disputes",
        "scenarios/chess/results.scn",
        "scenarios/cypher/flips.scn",
    ]
    .iter()
    .map(|p| root.join(p).display().to_string())
    .collect();
    paths.push(mixed.display().to_string());
    paths.push("no-such-folder".into());
    paths
}

#[test]
fn every_format_is_the_same_on_any_number_of_threads() {
    let mixed = mixed_folder("formats");
    let paths = fixtures(&mixed);
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    for format in ["text", "json", "junit", "github", "html"] {
        let mut args = paths.clone();
        args.extend(["--format", format]);
        let one = same_under_threads(&mixed, &args);
        assert_eq!(one.status.code(), Some(2), "{format}");
        assert!(!one.stdout.is_empty(), "{format}");
    }
    let one = same_under_threads(&mixed, &paths);
    let out = text(&one.stdout);
    for line in [
        "ok    ",
        "FAIL  ",
        "PEND  ",
        "ERROR ",
        "readings: ",
        "unusable input",
    ] {
        assert!(out.contains(line), "{line} in {out}");
    }
}

#[test]
fn the_html_page_written_to_a_file_is_the_same_on_any_number_of_threads() {
    let mixed = mixed_folder("html_file");
    let paths = fixtures(&mixed);
    let mut pages = Vec::new();
    for threads in THREADS {
        let page = mixed.join(format!("page-{threads}.html"));
        let mut args = vec!["--threads", threads, "check"];
        args.extend(paths.iter().map(String::as_str));
        let page_arg = page.display().to_string();
        args.extend(["--format", "html", "-o", &page_arg]);
        let o = arbiter_in(&mixed, &args);
        assert_eq!(o.status.code(), Some(2));
        pages.push((
            text(&o.stdout),
            std::fs::read_to_string(&page).expect("the page"),
        ));
    }
    assert!(pages.iter().all(|p| *p == pages[0]));
}

#[test]
fn fail_fast_stops_at_the_same_scenario_on_any_number_of_threads() {
    let mixed = mixed_folder("fail_fast");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let passing = root
        .join("scenarios/chess/results.scn")
        .display()
        .to_string();
    let first = mixed.join("a-mixed.scn").display().to_string();
    let header = mixed.join("b-header.scn").display().to_string();
    let d = mixed.join("d-passes.scn").display().to_string();
    // Stops in the middle of a file, with files after it; then at a file whose header is
    // unusable; then never.
    for paths in [
        vec![passing.as_str(), first.as_str(), d.as_str()],
        vec![passing.as_str(), header.as_str(), d.as_str()],
        vec![passing.as_str(), d.as_str()],
    ] {
        for format in ["text", "json"] {
            let mut args = paths.clone();
            args.extend(["--fail-fast", "--format", format]);
            same_under_threads(&mixed, &args);
        }
    }
    let o = same_under_threads(&mixed, &[&first, &d, "--fail-fast"]);
    let out = text(&o.stdout);
    assert!(out.contains("FAIL  ") && !out.contains("pending"), "{out}");
    assert_eq!(out.lines().last(), Some("1 passed, 1 failed, 6 skipped"));
}

#[test]
fn a_selection_is_the_same_on_any_number_of_threads() {
    let mixed = mixed_folder("selection");
    let file = mixed.join("a-mixed.scn").display().to_string();
    same_under_threads(&mixed, &[&file, "--filter", "passes"]);
    same_under_threads(&mixed, &[&file, "--filter", "nothing has this title"]);
    same_under_threads(&mixed, &[&format!("{file}:10"), "--format", "json"]);
    same_under_threads(&mixed, &[&format!("{file}:1")]);
    same_under_threads(&mixed, &[&file, "--option", "repetition-draw=fivefold"]);
}

#[test]
fn bless_writes_the_same_files_on_any_number_of_threads() {
    let mut results = Vec::new();
    for threads in THREADS {
        let dir = folder(&format!("bless-{threads}"));
        for name in ["a.scn", "b.scn", "c.scn"] {
            std::fs::write(
                dir.join(name),
                "variant chess\n\
                 scenario \"counts\" {\n  start\n  expect perft 2 = 401\n  expect moves count 21\n}\n\
                 scenario \"fine\" {\n  start\n  expect moves count 20\n}\n\
                 scenario \"state\" {\n  fen \"4k3/8/8/8/8/8/8/4K2R w K - 3 1\"\n  expect halfmove-clock = 4\n  expect check\n}\n",
            )
            .expect("written");
        }
        let o = arbiter_in(&dir, &["--threads", threads, "check", ".", "--bless"]);
        let files: Vec<String> = ["a.scn", "b.scn", "c.scn"]
            .iter()
            .map(|n| std::fs::read_to_string(dir.join(n)).expect("read back"))
            .collect();
        results.push((text(&o.stdout), text(&o.stderr), o.status.code(), files));
    }
    let (out, _, code, files) = &results[0];
    assert_eq!(*code, Some(1), "{out}");
    assert!(
        out.contains("blessed 9 expectations; 3 failures left as they are"),
        "{out}"
    );
    for f in files {
        assert!(f.contains("expect perft 2 = 400\n"), "{f}");
        assert!(!f.contains("count 21") && f.contains("check\n"), "{f}");
        assert!(f.contains("expect halfmove-clock = 3\n"), "{f}");
    }
    assert!(results.iter().all(|r| *r == results[0]));
}

#[test]
fn scenarios_that_run_long_at_the_same_time_are_each_named() {
    let dir = folder("slow");
    for name in ["a.scn", "b.scn"] {
        std::fs::write(
            dir.join(name),
            "variant chess\nscenario \"deep\" {\n  start\n  expect perft 9 = 1\n}\n",
        )
        .expect("written");
    }
    let o = arbiter_in(
        &dir,
        &[
            "--threads",
            "2",
            // Only the deadline stops the searches, however fast the machine.
            "--max-nodes",
            "100000000000",
            "check",
            "a.scn",
            "b.scn",
            "--timeout",
            "1.5",
            "--slow-after",
            "0.5",
        ],
    );
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(err.contains("SLOW  a.scn:2  deep (running for "), "{err}");
    assert!(err.contains("SLOW  b.scn:2  deep (running for "), "{err}");
    assert!(out.starts_with("FAIL  a.scn:2  deep\n"), "{out}");
    assert!(out.contains("timed out after 1.5 s"), "{out}");
    assert_eq!(out.lines().last(), Some("0 passed, 2 failed"));
}

/// The readings beside a failure come from the thread that ran the scenario: evaluated on
/// any worker, in any order, a scenario reports what it reports on the main thread.
#[test]
fn readings_are_the_same_on_every_worker() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .expect("a pool");
    let mut named = 0;
    for path in [
        "tests/failing/readings.scn",
        "tests/failing/false-expectations.scn",
        "tests/failing/pending.scn",
        "tests/disputes/cypher.scn",
        "tests/disputes/xpanse.scn",
        "tests/disputes/chess.scn",
        "tests/disputes/csipgs.scn",
    ] {
        let src = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
            .expect("a fixture");
        let file = parse_file(&src).expect("it parses");
        let settings = Settings::default();
        let alone = evaluate_with(&file, &src, &settings).expect("a usable header");
        let chosen = selected(&file, &src, &settings).expect("a usable header");
        assert_eq!(chosen.len(), alone.len(), "{path}");
        named += alone
            .iter()
            .flat_map(|r| &r.failures)
            .filter(|f| !f.options.is_empty())
            .count();
        // Each scenario several times, interleaved on the workers.
        let rounds = 6 * chosen.len();
        let reports: Vec<_> = pool.install(|| {
            (0..rounds)
                .into_par_iter()
                .map(|k| {
                    let scenario = &file.scenarios[chosen[k % chosen.len()]];
                    evaluate_scenario(&file, &src, &settings, scenario)
                })
                .collect()
        });
        for (k, r) in reports.iter().enumerate() {
            assert_eq!(*r, alone[k % alone.len()], "{path}: {}", r.title);
        }
    }
    assert!(named > 0, "some failure names its readings");
}

/// A scenario evaluated in the middle of another evaluation on the same thread (a worker that
/// steals a job while it waits) leaves that one's record of consulted options as it was.
#[test]
fn a_scenario_leaves_the_threads_record_as_it_found_it() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/failing/readings.scn");
    let src = std::fs::read_to_string(path).expect("a fixture");
    let file = parse_file(&src).expect("it parses");
    consulted::reset();
    assert!(consulted::Reading::new(true, 7).get());
    let before = consulted::asked();
    for scenario in &file.scenarios {
        let r = evaluate_scenario(&file, &src, &Settings::default(), scenario);
        assert!(!r.consulted.is_empty(), "{}", r.title);
        assert_eq!(consulted::asked(), before, "{}", r.title);
    }
    consulted::reset();
}
