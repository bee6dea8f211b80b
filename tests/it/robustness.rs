//! The reproducers of issue 6, each run as a user would: no abort, panic, hang or silence.
//! Every run has a watchdog: a command that does not end in time fails the test instead of
//! hanging it.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, ChildStdout, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn command(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    c.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// Waits for a child at most `limit`, killing it and failing the test if it is still running.
fn wait(mut child: Child, limit: Duration, what: &str) -> Output {
    let started = Instant::now();
    loop {
        if child.try_wait().expect("child status").is_some() {
            return child.wait_with_output().expect("child output");
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("`{what}` still ran after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn arbiter(args: &[&str]) -> Output {
    let child = command(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    // Read the pipes while waiting so that a chatty command cannot block on a full pipe.
    let what = args.join(" ");
    let output = read_all(child, Duration::from_secs(60), &what);
    assert_no_crash(&output, &what);
    output
}

fn read_all(mut child: Child, limit: Duration, what: &str) -> Output {
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out.read_to_end(&mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err.read_to_end(&mut buf);
        buf
    });
    let mut output = wait(child, limit, what);
    output.stdout = reader.join().expect("stdout reader");
    output.stderr = err_reader.join().expect("stderr reader");
    output
}

fn assert_no_crash(o: &Output, what: &str) {
    let err = stderr(o);
    assert!(
        !err.contains("panicked") && !err.contains("overflowed its stack"),
        "`{what}` crashed:\n{err}"
    );
    let code = o.status.code();
    assert!(
        matches!(code, Some(0..=2 | 130 | 141)),
        "`{what}` ended with {:?}:\n{err}",
        o.status
    );
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A scenario file in a fresh folder of the test's own.
fn scenario_file(test: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("robustness")
        .join(test);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{test}.scn"));
    std::fs::write(&file, text).unwrap();
    file
}

fn last_line(o: &Output) -> String {
    stdout(o).lines().last().unwrap_or("").to_string()
}

// ---- depth and budgets -----------------------------------------------------------------------

#[test]
fn perft_of_a_huge_depth_is_refused_not_a_stack_overflow() {
    for variant in ["chess", "cypher"] {
        let o = arbiter(&["perft", variant, "100000"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("depth 100000 is beyond"),
            "{}",
            stderr(&o)
        );
        assert!(stderr(&o).contains("1000 plies"), "{}", stderr(&o));
    }
}

#[test]
fn the_deepest_allowed_search_does_not_overflow_the_stack() {
    // Two bare kings: the search dives the whole 1000 plies before the budget stops it.
    let o = arbiter(&[
        "perft",
        "chess",
        "1000",
        "--fen",
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
        "--max-nodes",
        "20000",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the budget is 20000 nodes"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn huge_depths_in_scenarios_are_errors_of_their_scenario_only() {
    let file = scenario_file(
        "huge_depths",
        "variant cypher\n\
         scenario \"perft\" {\n  start\n  expect perft 100000 = 1\n}\n\
         scenario \"invariant\" {\n  start\n  expect invariant no-pawn-on-court to depth 100000\n}\n\
         scenario \"win\" {\n  start\n  expect win in 100000 for black\n}\n\
         scenario \"fine\" {\n  start\n  expect perft 1 = 27\n}\n",
    );
    let o = arbiter(&["check", file.to_str().unwrap()]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    assert!(
        out.contains("ERROR ") && out.contains("huge_depths.scn:2  perft"),
        "{out}"
    );
    assert!(out.contains("huge_depths.scn:10  win"), "{out}");
    assert!(
        out.contains("ok    ") && out.contains("huge_depths.scn:14  fine"),
        "{out}"
    );
    assert!(err.contains("huge_depths.scn:4:"), "{err}");
    assert!(err.contains("huge_depths.scn:8:"), "{err}");
    assert!(
        err.contains("depth 200000 is beyond"),
        "win in n is 2n plies: {err}"
    );
    assert_eq!(last_line(&o), "1 passed, 3 failed");
}

#[test]
fn perft_beyond_the_budget_stops_and_says_how_to_raise_it() {
    for threads in ["1", "2"] {
        let o = arbiter(&[
            "--threads",
            threads,
            "perft",
            "chess",
            "12",
            "--max-nodes",
            "100000",
        ]);
        assert_eq!(o.status.code(), Some(1));
        let err = stderr(&o);
        assert!(err.contains("perft 12: no answer"), "{err}");
        assert!(err.contains("the budget is 100000 nodes"), "{err}");
        assert!(err.contains("--max-nodes"), "{err}");
        // It stops just past the budget: one move list past it on one thread; on several,
        // each worker may first finish the share it counts before publishing (at most
        // 16,384 nodes, and less near the limit).
        let spent: u64 = err
            .split("stopped after ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no node count: {err}"));
        let slack = if threads == "1" {
            100
        } else {
            2 * 16_384 + 100
        };
        assert!(
            (100_001..=100_000 + slack).contains(&spent),
            "{threads} threads: {err}"
        );
    }
}

#[test]
fn the_default_budget_ends_a_search_of_hours() {
    // perft 12 of chess has 62 quadrillion paths; the default budget of an expectation stops
    // it in seconds.
    let file = scenario_file(
        "default-budget",
        "variant chess\n\nscenario \"deep\" {\n  start\n  expect perft 12 = 1\n}\n",
    );
    let o = arbiter(&["check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains(&format!(
            "the budget is {} nodes",
            arbiter::rules::search::DEFAULT_MAX_NODES
        )),
        "{}",
        stdout(&o)
    );
}

/// A command-line search's default budget is its kind's and variant's, about a minute of
/// work: more than the 100 million nodes of an expectation for chess perft, whose depth 6
/// (119 million nodes) an engine author runs first.
#[test]
fn a_command_line_perft_of_an_ordinary_depth_just_runs() {
    use arbiter::rules::search::{command_max_nodes, SearchKind, DEFAULT_MAX_NODES};
    use arbiter::rules::Variant;
    let o = arbiter(&["perft", "chess", "6"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "perft 6 = 119060324\n");
    for variant in Variant::ALL {
        let perft = command_max_nodes(SearchKind::Perft, variant);
        assert!(perft > DEFAULT_MAX_NODES, "{variant:?}");
        // Per node, a win search costs more than perft and an invariant search most.
        assert!(
            command_max_nodes(SearchKind::Win, variant) <= perft,
            "{variant:?}"
        );
        assert!(
            command_max_nodes(SearchKind::Invariant, variant)
                < command_max_nodes(SearchKind::Win, variant),
            "{variant:?}"
        );
    }
    // The budget a stop names is that default.
    let o = arbiter(&[
        "invariant",
        "xpanse",
        "passes-at-most-two",
        "40",
        "--size",
        "5x5",
        "--fen",
        "g1amk/1p3/1M1Nr/2P2/G1K1A w",
        "--max-nodes",
        "1000",
    ]);
    assert!(
        stderr(&o).contains("the budget is 1000 nodes"),
        "{}",
        stderr(&o)
    );
}

/// issue 20 item 13: one budget for all the searches of a run, named when it runs out.
#[test]
fn the_run_budget_bounds_all_searches_of_a_check() {
    // Each `perft 3` spends 9,322 nodes: the first fits in 15,000, the second runs out, the
    // third starts with nothing left.
    let file = scenario_file(
        "run-budget",
        "variant chess\n\n\
         scenario \"one\" {\n  start\n  expect perft 3 = 8902\n}\n\n\
         scenario \"two\" {\n  start\n  expect perft 3 = 8902\n}\n\n\
         scenario \"three\" {\n  start\n  expect perft 3 = 8902\n}\n",
    );
    let path = file.to_str().unwrap();
    let o = arbiter(&["--threads", "1", "check", path, "--max-run-nodes", "15000"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert_eq!(out.lines().last(), Some("1 passed, 2 failed"), "{out}");
    assert_eq!(
        out.matches("the run has spent its budget of 15000 nodes across all its searches (raise it with --max-run-nodes)")
            .count(),
        2,
        "{out}"
    );
    // The default leaves the same run alone.
    let o = arbiter(&["check", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // dispute says how many searches its table runs, and stops at the run budget too.
    let file = scenario_file(
        "run-budget-dispute",
        "variant cypher\n\nscenario \"start\" {\n  start\n  expect perft 2 = 729\n}\n",
    );
    let o = arbiter(&["dispute", file.to_str().unwrap()]);
    let err = stderr(&o);
    assert!(
        err.contains("readings x 1 search = ")
            && err.contains("1000000000 nodes (--max-run-nodes)"),
        "{err}"
    );
}

#[test]
fn searches_in_scenarios_beyond_the_budget_fail_at_their_line() {
    let file = scenario_file(
        "budget",
        "variant cypher\n\
         scenario \"deep\" {\n  start\n  expect perft 9 = 1\n  expect invariant no-pawn-on-court to depth 9\n  expect win in 9 for white\n}\n",
    );
    let o = arbiter(&["check", file.to_str().unwrap(), "--max-nodes", "50000"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    for line in [4, 5, 6] {
        assert!(out.contains(&format!("budget.scn:{line}:3")), "{out}");
    }
    assert_eq!(out.matches("the budget is 50000 nodes").count(), 3, "{out}");
    assert!(out.contains("raise it with --max-nodes"), "{out}");
}

#[test]
fn a_scenario_past_its_timeout_fails_and_the_run_goes_on() {
    let file = scenario_file(
        "timeout",
        "variant cypher\n\
         scenario \"slow\" {\n  start\n  expect perft 9 = 1\n}\n\
         scenario \"quick\" {\n  start\n  expect perft 1 = 27\n}\n",
    );
    let o = arbiter(&[
        "check",
        file.to_str().unwrap(),
        "--timeout",
        "1s",
        "--max-nodes",
        "100000000000",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("timed out after 1.0 s"), "{out}");
    assert!(out.contains("--timeout"), "{out}");
    assert_eq!(last_line(&o), "1 passed, 1 failed");
}

#[test]
fn fail_fast_stops_after_the_first_failure_and_counts_the_rest_skipped() {
    let file = scenario_file(
        "fail_fast",
        "variant chess\n\
         scenario \"a\" {\n  start\n  expect moves count 20\n}\n\
         scenario \"b\" {\n  start\n  expect moves count 21\n}\n\
         scenario \"c\" {\n  start\n  expect moves count 20\n}\n",
    );
    let o = arbiter(&["check", file.to_str().unwrap(), "--fail-fast"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!stdout(&o).contains("fail_fast.scn:10"), "{}", stdout(&o));
    assert_eq!(last_line(&o), "1 passed, 1 failed, 1 skipped");
}

// ---- a run that is watched -------------------------------------------------------------------

fn slow_file(test: &str) -> PathBuf {
    scenario_file(
        test,
        "variant chess\n\
         scenario \"quick\" {\n  start\n  expect moves count 20\n}\n\
         scenario \"slow\" {\n  start\n  expect perft 8 = 84998978956\n}\n",
    )
}

/// Starts `check` on a file whose second scenario searches for minutes, and returns the
/// child, its output and the first line it printed.
fn started_slow_check(test: &str) -> (Child, BufReader<ChildStdout>, String) {
    let file = slow_file(test);
    let mut child = command(&[
        "check",
        file.to_str().unwrap(),
        "--max-nodes",
        "100000000000",
        "--slow-after",
        "1s",
    ])
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("arbiter runs");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    out.read_line(&mut first).expect("a line");
    (child, out, first)
}

#[test]
fn check_prints_each_scenario_as_soon_as_it_is_decided() {
    let (mut child, _out, first) = started_slow_check("streaming");
    assert!(
        first.starts_with("ok    ") && first.contains("quick"),
        "{first}"
    );
    assert!(
        child.try_wait().expect("status").is_none(),
        "the slow scenario should still be running"
    );
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn a_scenario_that_runs_long_is_named_while_it_runs() {
    let (mut child, _out, _first) = started_slow_check("slow_named");
    let mut err = BufReader::new(child.stderr.take().expect("stderr"));
    let mut line = String::new();
    err.read_line(&mut line).expect("a line on stderr");
    let _ = child.kill();
    let _ = child.wait();
    assert!(line.starts_with("SLOW  "), "{line}");
    assert!(
        line.contains("slow_named.scn:6  slow (running for 1 s)"),
        "{line}"
    );
}

#[test]
fn ctrl_c_ends_the_run_cleanly_with_what_finished() {
    let (mut child, mut out, first) = started_slow_check("interrupt");
    // Interrupt once the slow scenario is known to run (its SLOW line is out), so the stop
    // lands in its search and not between two scenarios.
    let mut err = BufReader::new(child.stderr.take().expect("stderr"));
    let mut slow = String::new();
    err.read_line(&mut slow).expect("a SLOW line");
    assert!(slow.starts_with("SLOW  "), "{slow}");
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let mut rest = String::new();
    out.read_to_string(&mut rest).expect("the rest");
    let status = wait(child, Duration::from_secs(30), "interrupted check");
    assert_eq!(status.status.code(), Some(130), "{first}{rest}");
    assert!(first.contains("quick"), "{first}");
    assert!(rest.contains("interrupted after"), "{rest}");
    assert!(rest.contains("interrupted: the results above"), "{rest}");
    assert_eq!(rest.lines().last(), Some("1 passed, 1 failed"), "{rest}");
}

// ---- output that cannot be written -----------------------------------------------------------

#[test]
fn a_full_stdout_ends_with_one_line_and_no_panic() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    let Ok(full) = full else {
        eprintln!("skipped: this system has no /dev/full");
        return;
    };
    let child = command(&["moves", "chess"])
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    let o = wait(child, Duration::from_secs(30), "moves chess > /dev/full");
    let mut err = String::new();
    let _ = o.stderr.as_slice().read_to_string(&mut err);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot write the output"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_closed_stdout_ends_quietly() {
    for variant in ["chess", "cypher"] {
        let mut child = command(&["moves", variant])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("arbiter runs");
        drop(child.stdout.take());
        let o = read_all_stderr(child, &format!("moves {variant} | true"));
        let err = stderr(&o);
        assert!(err.is_empty(), "nothing on stderr: {err}");
        assert!(matches!(o.status.code(), Some(0 | 141)), "{:?}", o.status);
    }
}

fn read_all_stderr(mut child: Child, what: &str) -> Output {
    let mut err = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err.read_to_end(&mut buf);
        buf
    });
    let mut o = wait(child, Duration::from_secs(30), what);
    o.stderr = reader.join().expect("stderr reader");
    o
}

// ---- errors per scenario ---------------------------------------------------------------------

#[test]
fn an_unknown_rule_id_fails_its_scenario_and_the_others_run() {
    let file = scenario_file(
        "unknown_rule",
        "variant chess\n\
         scenario \"bad\" {\n  rule castlng\n  start\n  expect moves count 20\n}\n\
         scenario \"good\" {\n  start\n  expect moves count 20\n}\n\
         scenario \"bad key\" {\n  start\n  expect castlings = KQkq\n}\n",
    );
    let o = arbiter(&["check", file.to_str().unwrap()]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    assert!(
        out.contains("ERROR ") && out.contains("unknown_rule.scn:2  bad"),
        "{out}"
    );
    assert!(
        out.contains("ok    ") && out.contains("unknown_rule.scn:7  good"),
        "{out}"
    );
    assert!(err.contains("did you mean `castling`?"), "{err}");
    assert_eq!(last_line(&o), "1 passed, 2 failed");
}

#[test]
fn an_invalid_board_is_pointed_at_the_board() {
    let file = scenario_file(
        "invalid_board",
        "variant chess\n\
         scenario \"no black king\" {\n  board {\n    white: Ke1\n  }\n  expect moves count 5\n}\n\
         scenario \"fine\" {\n  start\n  expect moves count 20\n}\n",
    );
    let o = arbiter(&["check", file.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("invalid position"), "{err}");
    assert!(err.contains("invalid_board.scn:3:3"), "{err}");
    assert!(err.contains("first used on line 6"), "{err}");
    assert_eq!(last_line(&o), "1 passed, 1 failed");
}

// ---- messages --------------------------------------------------------------------------------

#[test]
fn explain_renders_a_bad_square_once() {
    let o = arbiter(&["explain", "chess", "e9"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2));
    assert!(!err.contains("error:   error:"), "{err}");
    assert!(
        err.contains("square `e9` is not on the chess board"),
        "{err}"
    );
}

#[test]
fn dispute_with_no_matching_scenario_says_so() {
    let o = arbiter(&[
        "dispute",
        "scenarios/cypher/options.scn",
        "--scenario",
        "zzz",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no scenario of scenarios/cypher/options.scn has `zzz`"),
        "{err}"
    );
}

#[test]
fn moves_from_an_empty_square_or_a_stuck_piece_says_so() {
    let o = arbiter(&["moves", "chess", "--from", "e4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("there is no piece on e4"),
        "{}",
        stderr(&o)
    );
    let o = arbiter(&["moves", "chess", "--from", "a1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("no legal turns from a1"),
        "{}",
        stderr(&o)
    );
    let o = arbiter(&["moves", "chess", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("the game is over"), "{}", stderr(&o));
}

#[test]
fn coverage_of_files_of_another_variant_is_not_a_silent_zero() {
    let o = arbiter(&["rules", "chess", "--coverage", "scenarios/cypher"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("files of variant cypher not counted"), "{err}");
    assert!(
        err.contains("no chess scenario under scenarios/cypher"),
        "{err}"
    );
}

#[test]
fn check_on_nothing_still_prints_the_summary_and_json() {
    let empty = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("robustness-empty");
    std::fs::create_dir_all(&empty).unwrap();
    for path in ["no/such/path", empty.to_str().unwrap()] {
        let o = arbiter(&["check", path]);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(last_line(&o), "0 passed, 0 failed");
        assert!(stderr(&o).contains("error: "), "{}", stderr(&o));
        let o = arbiter(&["check", path, "--format", "json"]);
        assert_eq!(o.status.code(), Some(2));
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        assert_eq!(doc["exit"], 2);
        assert_eq!(doc["errors"].as_array().map(Vec::len), Some(1));
    }
}

#[test]
fn binary_input_names_the_offending_byte_and_its_place() {
    let file = scenario_file("binary", "");
    std::fs::write(&file, b"variant chess\nscenario \"x\" {\n  st\xffart\n}\n").unwrap();
    let o = arbiter(&["check", file.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the byte 0xFF at line 3, column 5 is not valid UTF-8"),
        "{err}"
    );
    assert!(err.contains("binary.scn:3:5"), "{err}");
    assert_eq!(last_line(&o), "0 passed, 1 failed");
}

#[test]
fn a_path_that_never_ends_is_refused_and_a_huge_file_by_size() {
    if std::path::Path::new("/dev/zero").exists() {
        let o = arbiter(&["check", "/dev/zero"]);
        assert_eq!(o.status.code(), Some(2));
        // Refused by where it is, before it is opened.
        assert!(
            stderr(&o).contains("/dev/zero is not read: /dev holds no scenarios"),
            "{}",
            stderr(&o)
        );
        assert_eq!(last_line(&o), "0 passed, 0 failed");
    }
    // A sparse file: 65 MiB long, next to nothing on disk.
    let file = scenario_file("huge", "");
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_len(65 << 20)
        .unwrap();
    let o = arbiter(&["check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("larger than 64 MiB"), "{}", stderr(&o));
    let _ = std::fs::remove_file(&file);
}

#[cfg(unix)]
#[test]
fn a_folder_that_links_to_itself_is_walked_once() {
    let file = scenario_file(
        "link_cycle",
        "variant chess\nscenario \"x\" {\n  start\n  expect moves count 20\n}\n",
    );
    let dir = file.parent().unwrap().to_path_buf();
    let link = dir.join("again");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&dir, &link).unwrap();
    let o = arbiter(&["check", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(last_line(&o), "1 passed, 0 failed");
}

#[test]
fn a_syntax_error_in_one_scenario_leaves_the_others_to_run() {
    let file = scenario_file(
        "partial",
        "variant chess\n\
         scenario \"good\" {\n  start\n  expect moves count 20\n}\n\
         scenario \"broken\" {\n  start\n  expect moves count lots\n}\n\
         scenario \"good too\" {\n  start\n  expect moves count 20\n}\n",
    );
    let o = arbiter(&["check", file.to_str().unwrap()]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    assert!(out.contains("partial.scn:2  good"), "{out}");
    assert!(out.contains("partial.scn:10  good too"), "{out}");
    assert!(out.contains("parts of it cannot be used"), "{out}");
    assert!(err.contains("partial.scn:8:22"), "{err}");
    assert_eq!(last_line(&o), "2 passed, 1 failed");
}

// ---- writing users' files (issue 20) ---------------------------------------------------------

/// A folder of the test's own, emptied.
fn fresh_folder(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("robustness")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The names in a folder, sorted.
fn names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// `n` one-line scenarios, each with a comment: far from the canonical layout.
fn one_liners(n: usize, count: usize) -> String {
    let mut s = String::from("variant chess\n");
    for i in 0..n {
        s.push_str(&format!(
            "scenario \"s{i}\" {{ board {{ white: Ke1 black: Ke8 }} expect moves count {count} }} # c{i}\n"
        ));
    }
    s
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A 64 KiB tmpfs mounted for the test, unmounted when dropped. A test that needs one is
/// ignored where `build.rs` found it cannot be had (not root, no `mount`), so it fails here
/// rather than pass without testing anything.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(test: &str) -> Tmpfs {
        assert!(is_root(), "{test} mounts a tmpfs, which needs root");
        let dir = fresh_folder(test);
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
            .arg(&dir)
            .status()
            .is_ok_and(|s| s.success());
        assert!(
            mounted,
            "{test}: mounting a tmpfs on {} failed",
            dir.display()
        );
        Tmpfs(dir)
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// Fills the file system of `dir` up to the last byte.
fn fill(dir: &std::path::Path) {
    use std::io::Write;
    let mut f = std::fs::File::create(dir.join("filler")).unwrap();
    let block = vec![0u8; 1024];
    while f.write_all(&block).is_ok() {}
    let mut byte = [0u8; 1];
    while f.write_all(&byte).is_ok() {
        byte[0] = 0;
    }
    let _ = f.sync_all();
}

#[test]
#[cfg_attr(
    no_tmpfs,
    ignore = "mounts a tmpfs, which needs root and `mount` (Linux)"
)]
fn on_a_full_disk_fmt_bless_and_o_leave_every_file_as_it_was() {
    let disk = Tmpfs::mount("full_disk");
    let dir = disk.0.clone();
    // 6 is wrong (a lone King on e1 has 5 moves): blessable, and not in the canonical layout.
    let mut text = String::from("variant chess\n");
    let mut i = 0;
    loop {
        let line = format!(
            "scenario \"s{i}\" {{ board {{ white: Ke1 black: Ke8 }} expect moves count 6 }}\n"
        );
        if text.len() + line.len() > 3900 {
            break;
        }
        text.push_str(&line);
        i += 1;
    }
    let file = dir.join("grow.scn");
    std::fs::write(&file, &text).unwrap();
    fill(&dir);
    let path = file.to_str().unwrap();
    for args in [
        vec!["fmt", path],
        vec!["check", path, "--bless"],
        vec!["check", path, "--format", "json", "-o"],
    ] {
        let mut args = args;
        let report = dir.join("report.json");
        if args.last() == Some(&"-o") {
            args.push(report.to_str().unwrap());
        }
        let o = arbiter(&args);
        let what = args.join(" ");
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stdout(&o));
        let err = stderr(&o);
        assert!(
            err.contains("No space left on device")
                && (err.contains("left as it was") || err.contains("nothing was written")),
            "{what}: {err}"
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text, "{what}");
        assert_eq!(names(&dir), ["filler", "grow.scn"], "{what}");
    }
}

#[test]
fn a_kill_while_fmt_writes_never_leaves_a_partial_file() {
    let dir = fresh_folder("sigkill");
    let text = one_liners(60_000, 5);
    let formatted = arbiter::scenario::format::format(&text).unwrap();
    let file = dir.join("big.scn");
    std::fs::write(&file, &text).unwrap();
    let sizes = [text.len() as u64, formatted.len() as u64];
    let mut child = command(&["fmt", file.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let mut killed = false;
    // Whatever moment it is caught at, the file is the old text or the new one, never a part.
    while child.try_wait().unwrap().is_none() {
        let size = std::fs::metadata(&file).unwrap().len();
        assert!(sizes.contains(&size), "big.scn has {size} bytes mid-write");
        if names(&dir).iter().any(|n| n.ends_with(".tmp")) {
            let _ = child.kill();
            killed = true;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "fmt hangs");
    }
    let _ = child.wait();
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(after == text || after == formatted, "a mix of old and new");
    if !killed {
        assert_eq!(after, formatted);
    }
}

#[test]
fn a_fifo_or_device_named_scn_is_skipped_in_a_folder_and_refused_by_name() {
    let dir = fresh_folder("fifo");
    let fifo = dir.join("p.scn");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    std::fs::write(
        dir.join("a.scn"),
        "variant chess\nscenario \"t\" {\n  start\n}\n",
    )
    .unwrap();
    let d = dir.to_str().unwrap();
    for args in [vec!["check", d], vec!["fmt", d]] {
        let o = arbiter(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("skipped") && stderr(&o).contains("p.scn: it is a named pipe"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    let f = fifo.to_str().unwrap();
    for args in [vec!["check", f], vec!["fmt", f], vec!["check", "/dev/zero"]] {
        let o = arbiter(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let refused = ["not a regular file", "/dev holds no scenarios"];
        assert!(
            refused
                .iter()
                .any(|r| stderr(&o).contains(r) || stdout(&o).contains(r)),
            "{args:?}: {}{}",
            stdout(&o),
            stderr(&o)
        );
    }
}

#[test]
fn fmt_writes_through_a_symbolic_link_and_keeps_mode_and_owner() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = fresh_folder("keep");
    let file = dir.join("real.scn");
    std::fs::write(&file, one_liners(2, 5)).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    let root = is_root();
    if root {
        std::os::unix::fs::chown(&file, Some(1234), Some(5678)).unwrap();
    }
    let link = dir.join("link.scn");
    std::os::unix::fs::symlink("real.scn", &link).unwrap();
    let o = arbiter(&["fmt", link.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let meta = std::fs::metadata(&file).unwrap();
    assert_eq!(meta.mode() & 0o7777, 0o640);
    if root {
        assert_eq!((meta.uid(), meta.gid()), (1234, 5678));
    }
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("\n  board {\n"));
    assert_eq!(names(&dir), ["link.scn", "real.scn"]);
}

#[test]
fn a_file_with_hard_links_is_left_alone_unless_forced() {
    let dir = fresh_folder("hard_links");
    let file = dir.join("a.scn");
    let text = one_liners(2, 5);
    std::fs::write(&file, &text).unwrap();
    std::fs::hard_link(&file, dir.join("b.scn")).unwrap();
    let o = arbiter(&["fmt", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("2 hard links") && stderr(&o).contains("--force"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    let o = arbiter(&["fmt", file.to_str().unwrap(), "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_ne!(std::fs::read_to_string(&file).unwrap(), text);
    assert_eq!(std::fs::read_to_string(dir.join("b.scn")).unwrap(), text);
}

#[test]
fn o_naming_an_input_is_refused_unless_forced() {
    let dir = fresh_folder("o_input");
    let text = "variant chess\n\nscenario \"t\" {\n  start\n  expect moves count 19\n}\n";
    for name in ["a.scn", "b.scn"] {
        std::fs::write(dir.join(name), text).unwrap();
    }
    std::fs::hard_link(dir.join("b.scn"), dir.join("b-link.scn")).unwrap();
    let a = dir.join("a.scn");
    let a_dot = dir.join(".").join("a.scn");
    let b = dir.join("b.scn");
    let b_link = dir.join("b-link.scn");
    let s = |p: &PathBuf| p.to_str().unwrap().to_string();
    let runs: Vec<Vec<String>> = vec![
        vec![
            "show".into(),
            format!("{}:5", s(&a)),
            "-o".into(),
            s(&a_dot),
        ],
        vec![
            "check".into(),
            s(&b),
            "--format".into(),
            "html".into(),
            "-o".into(),
            s(&b_link),
        ],
        vec!["check".into(), s(&dir), "-o".into(), s(&a)],
    ];
    for args in &runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = arbiter(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("names the input"), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(&a).unwrap(), text);
        assert_eq!(std::fs::read_to_string(&b).unwrap(), text);
    }
    let o = arbiter(&["show", &format!("{}:5", s(&a)), "-o", &s(&a), "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&a).unwrap().starts_with("<svg"));
}

#[test]
fn o_writes_every_check_format_as_standard_output_would_get_it() {
    let dir = fresh_folder("o_formats");
    let file = dir.join("f.scn");
    std::fs::write(
        &file,
        "variant chess\n\nscenario \"ok\" {\n  start\n  expect moves count 20\n}\n\nscenario \"bad\" {\n  start\n  expect moves count 19\n}\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    for format in ["text", "json", "junit", "github", "html"] {
        let plain = arbiter(&["check", f, "--format", format]);
        let report = dir.join(format!("report.{format}"));
        let o = arbiter(&[
            "check",
            f,
            "--format",
            format,
            "-o",
            report.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), plain.status.code(), "{format}");
        assert_eq!(stdout(&o), "1 passed, 1 failed\n", "{format}");
        let written = std::fs::read(&report).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&written),
            stdout(&plain),
            "{format}"
        );
    }
    assert_eq!(
        names(&dir),
        [
            "f.scn",
            "report.github",
            "report.html",
            "report.json",
            "report.junit",
            "report.text"
        ]
    );
}

/// No control character of the input reaches the output raw, except the line breaks and
/// tabs the output lays out with.
fn assert_no_raw_controls(text: &str, what: &str) {
    assert!(
        !text
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t'),
        "`{what}` printed a control character raw:\n{text:?}"
    );
}

#[test]
fn titles_reasons_file_names_and_source_lines_are_shown_escaped() {
    // text-terminal-escapes.sh: a title that sets the terminal's title and clears it, a
    // pending reason and a file name that overwrite the line, a turn with an escape in it.
    let title = "\u{1b}]0;TERMTITLE\u{7}\u{1b}[2J\u{1b}[31mhidden\u{1b}[0m";
    let file = scenario_file(
        "escapes",
        &format!(
            "variant chess\nscenario \"{title}\" {{\n  start\n  expect moves count 19\n}}\n\
             scenario \"p\" {{\n  pending \"a\u{1b}[2Kb\"\n  start\n  expect moves count 19\n}}\n"
        ),
    );
    let dir = file.parent().unwrap().to_path_buf();
    let odd = dir.join("x\r\u{1b}[2Kok    looks-fine.scn");
    std::fs::write(
        &odd,
        "variant chess\nscenario \"t\" {\n  start\n  play e4\u{1b}[2J\n}\n",
    )
    .unwrap();
    let d = dir.to_str().unwrap();
    for args in [
        vec!["check", d],
        vec!["check", d, "--color", "always"],
        vec!["check", d, "--filter", "\u{1b}[2J"],
        vec!["dispute", file.to_str().unwrap()],
        vec!["explain", odd.to_str().unwrap()],
        vec!["show", &format!("{}:4", odd.to_str().unwrap())],
    ] {
        let o = arbiter(&args);
        let what = args.join(" ");
        let colourless = stdout(&o).replace("\u{1b}[", "");
        let colourless_err = stderr(&o).replace("\u{1b}[", "");
        if args.contains(&"always") {
            // Only arbiter's own colours: each ESC starts one of its SGR codes.
            let out = stdout(&o);
            for (i, _) in out.match_indices('\u{1b}') {
                let code = &out[i..out[i..].find('m').map_or(out.len(), |j| i + j + 1)];
                assert!(
                    [
                        "\u{1b}[32m",
                        "\u{1b}[1;31m",
                        "\u{1b}[33m",
                        "\u{1b}[2m",
                        "\u{1b}[0m"
                    ]
                    .contains(&code),
                    "`{what}` printed {code:?}"
                );
            }
            assert_no_raw_controls(&colourless, &what);
        } else {
            assert_no_raw_controls(&stdout(&o), &what);
            assert_no_raw_controls(&stderr(&o), &what);
        }
        assert_no_raw_controls(&colourless_err.replace('\u{1b}', ""), &what);
    }
    let o = arbiter(&["check", d]);
    let out = stdout(&o);
    assert!(
        out.contains("\\u{1b}]0;TERMTITLE\\u{7}\\u{1b}[2J\\u{1b}[31mhidden\\u{1b}[0m"),
        "{out}"
    );
    assert!(out.contains("(pending: a\\u{1b}[2Kb)"), "{out}");
    assert!(
        out.contains("x\\r\\u{1b}[2Kok    looks-fine.scn: unusable input"),
        "{out}"
    );
    // The source line of a diagnostic, and the marker still under the place.
    let err = stderr(&o);
    assert!(err.contains("play e4\\u{1b}[2J"), "{err}");
}

#[test]
fn a_github_run_escapes_both_streams() {
    // github-stderr-injection.sh: a path with a line break must not put a workflow command at
    // the start of a line, on standard output or on standard error.
    let file = scenario_file(
        "github-streams",
        "variant chess\nscenario \"t\" {\n  start\n}\n",
    );
    let dir = file.parent().unwrap();
    let inject = "x\n::error file=README.md,line=1,title=Injected::from a name";
    std::fs::write(
        dir.join(format!("{inject}.scn")),
        "variant chess\nscenario \"t\" {\n  start\n  expect moves count 1\n}\n",
    )
    .unwrap();
    let missing = format!("{}/nope\n::warning::injected", dir.display());
    let d = dir.to_str().unwrap();
    for args in [
        vec!["check", d, "--format", "github"],
        vec!["check", &missing, "--format", "github"],
        vec![
            "check",
            d,
            "--format",
            "github",
            "--filter",
            "\n::warning::f",
        ],
    ] {
        let o = arbiter(&args);
        for (stream, text) in [("stdout", stdout(&o)), ("stderr", stderr(&o))] {
            for line in text.lines() {
                assert!(
                    !line.trim_start().starts_with("::")
                        || line.starts_with("::error file=")
                        || line.starts_with("::error title=")
                        || line.starts_with("::notice"),
                    "{stream} of `{args:?}` has a line {line:?}"
                );
            }
            assert!(
                !text
                    .lines()
                    .any(|l| l.starts_with("::error file=README.md")),
                "{stream}: {text}"
            );
        }
    }
    let o = arbiter(&["check", &missing, "--format", "github"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("nope\\n::warning::injected does not exist"),
        "{}",
        stderr(&o)
    );
}

/// `expect moves = { ... }` holding the turns `arbiter moves` prints for `fen` (a ChessXpanse
/// board of `size`), and the file.
fn listed_xpanse(test: &str, size: &str, fen: &str) -> PathBuf {
    let o = arbiter(&["moves", "xpanse", "--size", size, "--fen", fen]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let turns: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert!(!turns.is_empty());
    scenario_file(
        test,
        &format!(
            "variant xpanse {size}\n\nscenario \"moves, as arbiter lists them\" {{\n  fen \"{fen}\"\n  expect moves = {{ {} }}\n}}\n",
            turns.join(" ")
        ),
    )
}

/// Reproducer xpanse-moves-list-canonical (issue 20): the one-leg texts of the docs' Archer
/// (`Ac3-c1`, `Ac3xc5`) were "not legal (or ambiguous)" in a list, though legal alone, and a
/// blessed list failed again.
#[test]
fn the_turns_arbiter_lists_read_back_as_a_moves_list_and_a_blessed_list_holds() {
    let fen = "a1qk1/3Nb/2A1R/1P1p1/K3n w 0/0 0/0 -/- up/down";
    let file = listed_xpanse("xpanse_listed", "5x5", fen);
    let o = arbiter(&["check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let wrong = scenario_file(
        "xpanse_blessed",
        &format!(
            "variant xpanse 5x5\n\nscenario \"blessed\" {{\n  fen \"{fen}\"\n  expect moves = {{ pass }}\n}}\n"
        ),
    );
    let o = arbiter(&["check", wrong.to_str().unwrap(), "--bless"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let o = arbiter(&["check", wrong.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(last_line(&o), "1 passed, 0 failed");
}

/// Reproducer moves-list-quadratic (issue 20): each listed turn was matched against every
/// legal turn, so the 57,000 turns of this board took 32 s of a release build (hours here);
/// they are looked up in an index now, well inside the watchdog.
#[test]
fn a_list_of_57000_turns_checks_in_linear_time() {
    let file = listed_xpanse(
        "xpanse_crowded_list",
        "7x7",
        "B1B1B2/1k5/R1R1R2/7/Q1A1Q2/7/K1K1K2 w",
    );
    let o = arbiter(&["check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(last_line(&o), "1 passed, 0 failed");
}
