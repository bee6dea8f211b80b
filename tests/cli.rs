//! The command line as a user meets it: exit statuses, the summary line, pointed errors.

use std::process::{Command, Output};

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("arbiter runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn check_bundled_scenarios_passes() {
    let o = arbiter(&["check", "scenarios"]);
    let out = stdout(&o);
    let last = out.lines().last().unwrap_or("");
    let (passed, failed) = last.split_once(" passed, ").expect("summary line");
    assert!(passed.parse::<usize>().unwrap() > 0, "{out}");
    assert_eq!(failed, "0 failed", "{out}");
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
}

#[test]
fn check_defaults_to_the_scenarios_folder() {
    let o = arbiter(&["check"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o)
        .lines()
        .last()
        .unwrap_or("")
        .ends_with(" passed, 0 failed"));
}

#[test]
fn false_expectation_exits_1_and_points_at_it() {
    let o = arbiter(&["check", "tests/failing/false-expectations.scn"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("tests/failing/false-expectations.scn:6:3: expect moves count 21"),
        "{out}"
    );
    assert!(out.contains("expected: 21 legal turns"), "{out}");
    assert!(out.contains("found:    20 legal turns"), "{out}");
    assert_eq!(out.lines().last(), Some("1 passed, 3 failed"));
}

#[test]
fn syntax_error_exits_2_with_line_column_and_caret() {
    let dir = std::env::temp_dir().join(format!("arbiter-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("broken.scn");
    std::fs::write(
        &file,
        "variant chess\nscenario \"x\" {\n  start\n  expect moves count lots\n}\n",
    )
    .unwrap();
    let o = arbiter(&["check", file.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("broken.scn:4:22"), "{err}");
    assert!(err.contains("expect moves count lots"), "{err}");
    assert!(err.contains('^') || err.contains('┬'), "{err}");
    assert!(!err.contains('\u{1b}'), "no colour codes: {err}");
    assert_eq!(stdout(&o).lines().last(), Some("0 passed, 1 failed"));
}

/// A finished game lists no turns; every failed expectation about its turns says why (the
/// result and its rule), and one about a game still going on says nothing of the kind.
#[test]
fn move_list_failures_say_when_the_game_is_over() {
    let dir = std::env::temp_dir().join(format!("arbiter-cli-over-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("over.scn");
    std::fs::write(
        &file,
        "variant chess\n\n\
         scenario \"bare kings\" {\n  fen \"8/8/8/4k3/8/8/8/4K3 w - - 0 1\"\n\
         expect moves count 5\n  expect moves = { Ke1-e2 }\n  expect moves from e1 count 5\n\
         expect moves from e1 = { e2 }\n  expect legal Ke1-e2\n  play Ke1-e2\n}\n\n\
         scenario \"going on\" {\n  fen \"8/8/8/4k3/8/8/8/R3K3 w - - 0 1\"\n\
         expect moves count 5\n  expect moves = { Ke1-e2 }\n  expect moves from e1 count 9\n\
         expect moves from e1 = { e2 }\n}\n",
    )
    .unwrap();
    let o = arbiter(&["check", file.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let over = "the game is over: draw by insufficient-material (rule insufficient-material)";
    let (finished, live) = out.split_once("going on").expect("both scenarios reported");
    let found: Vec<&str> = finished.lines().filter(|l| l.contains("found:")).collect();
    assert_eq!(found.len(), 6, "{out}");
    for line in found {
        assert!(line.contains(over), "{line}");
    }
    assert!(
        finished.contains("found:    0 legal turns; the game is over"),
        "{out}"
    );
    assert!(finished.contains("moves from e1 = { }; the game"), "{out}");
    assert_eq!(live.matches("found:").count(), 4, "{out}");
    assert!(!live.contains("game is over"), "{out}");
}

#[test]
fn unknown_names_exit_2_and_list_the_valid_ones() {
    let o = arbiter(&["check", "tests/failing/unusable-names.scn"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("unknown option `colour-blind`; options of chess: "),
        "{err}"
    );
    assert!(err.contains("unknown rule id `no-such-rule`"), "{err}");
}

#[test]
fn unknown_variant_lists_the_variants() {
    let o = arbiter(&["perft", "shogi", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown variant `shogi`; variants: chess"));
}

#[test]
fn perft_counts_and_divides() {
    let o = arbiter(&["perft", "chess", "3"]);
    assert_eq!(stdout(&o).trim(), "perft 3 = 8902");
    let o = arbiter(&["perft", "chess", "2", "--divide"]);
    let out = stdout(&o);
    assert!(out.contains("e2-e4 20\n"), "{out}");
    assert!(out.ends_with("perft 2 = 400\n"), "{out}");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let o = arbiter(&["perft", "chess", "--fen", kiwipete, "2"]);
    assert_eq!(stdout(&o).trim(), "perft 2 = 2039");
}

#[test]
fn moves_lists_sorted_canonical_turns() {
    let o = arbiter(&["moves", "chess", "--from", "g1"]);
    assert_eq!(stdout(&o), "Ng1-f3\nNg1-h3\n");
    let o = arbiter(&["moves", "chess"]);
    assert_eq!(stdout(&o).lines().count(), 20);
}

#[test]
fn rules_lists_ids_with_sources() {
    let o = arbiter(&["rules", "chess"]);
    let out = stdout(&o);
    assert!(out.contains("own-king-in-check"), "{out}");
    assert!(out.contains("FIDE"), "{out}");
    let o = arbiter(&["rules", "chess", "--coverage", "scenarios"]);
    let out = stdout(&o);
    assert!(
        out.contains("0 of "),
        "every chess rule has a scenario:\n{out}"
    );
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn explain_names_the_rule() {
    let o = arbiter(&["explain", "chess", "e2-e5"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("pawn-move"), "{}", stdout(&o));
    let o = arbiter(&["explain", "chess", "Nf3"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.contains("\nNf3: legal, as Ng1-f3\n"), "{out}");
    assert!(
        out.contains("allows knight-move (FIDE Laws of Chess 3.6)"),
        "{out}"
    );
    // Bad requests are errors with a reason.
    for (args, says) in [
        (&["explain", "chess"][..], "name the turn to explain"),
        (
            &[
                "explain",
                "chess",
                "Nf3",
                "--fen",
                "8/8/8/8/8/8/8/8 w - - 0 1",
                "--board",
                "white: Ke1",
            ],
            "not both",
        ),
        (
            &["explain", "chess", "Nf3", "--option", "stalemate"],
            "not an option setting",
        ),
        (
            &["explain", "scenarios/chess/results.scn:1"],
            "in no scenario",
        ),
        (
            &["explain", "scenarios/chess/results.scn:4"],
            "holds no statement",
        ),
        (
            &["explain", "scenarios/chess/results.scn:5"],
            "not a `play`, `expect legal` or `expect illegal`",
        ),
    ] {
        let o = arbiter(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn json_report_parses() {
    let o = arbiter(&[
        "check",
        "--format",
        "json",
        "tests/failing/false-expectations.scn",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["failed"], 3);
    assert_eq!(v["passed"], 1);
    assert_eq!(v["files"][0]["scenarios"][0]["failures"][0]["line"], 6);
}

#[test]
fn dispute_shows_each_reading() {
    let dir = std::env::temp_dir().join(format!("arbiter-dispute-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("d.scn");
    std::fs::write(
        &file,
        "variant chess\nscenario \"three times\" {\n  start\n  play Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8\n  expect result draw by repetition\n}\n",
    )
    .unwrap();
    let o = arbiter(&["dispute", file.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    // Only the reading the evaluation asked is varied: the move-count rule never came up.
    assert!(
        out.contains("2 readings of the 1 open option consulted"),
        "{out}"
    );
    assert!(
        out.contains("* threefold        pass    draw by repetition"),
        "{out}"
    );
    assert!(
        out.contains("  fivefold         FAIL    no result"),
        "{out}"
    );
    assert!(out.contains("decided by: repetition-draw"), "{out}");
    assert!(!out.contains("move-rule-draw"), "{out}");
    // Pinned, it is not varied.
    let o = arbiter(&[
        "dispute",
        file.to_str().unwrap(),
        "--option",
        "repetition-draw=fivefold",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("pinned: repetition-draw = fivefold"), "{out}");
    let o = arbiter(&[
        "dispute",
        file.to_str().unwrap(),
        "--option",
        "repetition-draw=sixfold",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("values: threefold, fivefold"),
        "{}",
        stderr(&o)
    );
    let o = arbiter(&[
        "dispute",
        &format!("{}:5", file.to_str().unwrap()),
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["scenarios"][0]["decided_by"][0], "repetition-draw");
    assert_eq!(v["scenarios"][0]["readings"].as_array().unwrap().len(), 2);
    let o = arbiter(&["dispute", &format!("{}:99", file.to_str().unwrap())]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 99 of"), "{}", stderr(&o));
}

#[test]
fn cost_prices_designs_with_the_arithmetic() {
    let o = arbiter(&["cost", "WbRbmHfB", "(WD)", "B"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(
        out.contains(
            "  bmH      orthogonal leaper 1.5 x backward-only 0.2 x move-only 0.6 = 0.18\n"
        ),
        "{out}"
    );
    assert!(out.contains("  sum 4.99\n  price 5 zorkmids"), "{out}");
    assert!(
        out.contains("WD\n") && out.contains("  sum 3\n  price 3 zorkmids"),
        "{out}"
    );
    assert!(
        out.contains("  sum 3.3\n  x colourbound 0.9\n  = 2.97\n  price 3 zorkmids"),
        "{out}"
    );
    let o = arbiter(&["cost", "--royal", "WF", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(json[0]["price"], 12);
    assert_eq!(json[0]["exact"], "12");
    assert_eq!(json[0]["multipliers"][0]["name"], "royal");
}

#[test]
fn cost_points_at_a_bad_design_and_says_what_has_no_price() {
    let o = arbiter(&["cost", "N", "fcx", "Z"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stdout(&o).contains("  price 3 zorkmids"),
        "the good design is still priced"
    );
    let err = stderr(&o);
    assert!(
        err.contains("`fcx` is not a design: unexpected `x` at 2: expected an atom")
            && err.contains("\n  fcx\n    ^\n"),
        "{err}"
    );
    assert!(
        err.contains("`Z` has no price: the price table has no base price for Z"),
        "{err}"
    );
}

#[test]
fn dispute_is_bounded_and_says_how_to_pin() {
    let dir = std::env::temp_dir().join(format!("arbiter-bound-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("many.scn");
    // Two plies in a crowded position ask eight of Cypher's readings: 256 combinations.
    std::fs::write(
        &file,
        "variant cypher\nscenario \"many\" {\n  board {\n    white: Ke4 Sc2 Rb3 c5 Qh8\n    black: Kg6 Sf2 Bh3 e6 b6 d7\n  }\n  expect perft 2 = 0\n}\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let o = arbiter(&["dispute", path]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(
        out.contains("make 256 readings, more than 64; pin some with --option name=value"),
        "{out}"
    );
    let o = arbiter(&[
        "dispute",
        path,
        "--option",
        "king-beside-own-spy=illegal",
        "--option",
        "spy-beside-own-king=illegal",
        "--option",
        "spy-beside-enemy-spy=illegal",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("32 readings of the 5 open options consulted"),
        "{out}"
    );
}

#[test]
fn check_runs_one_scenario_by_line_or_by_title_with_options() {
    let o = arbiter(&["check", "scenarios/cypher/options.scn:125"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.starts_with("ok    scenarios/cypher/options.scn:118  stalemate = draw\n"),
        "{out}"
    );
    assert!(out.ends_with("1 passed, 0 failed\n"), "{out}");
    // The command line's option wins over the scenario's own.
    let o = arbiter(&[
        "check",
        "scenarios/cypher/options.scn:125",
        "--option",
        "stalemate=loss",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("readings: "), "{out}");
    assert!(out.contains("stalemate = loss"), "{out}");
    let o = arbiter(&["check", "scenarios/cypher/options.scn:128"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("line 128 of scenarios/cypher/options.scn is in no scenario; the nearest:"),
        "{err}"
    );
    assert!(err.contains("lines 118-127: \"stalemate = draw\""), "{err}");
    let o = arbiter(&["check", "scenarios/cypher", "--filter", "stalemate"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.ends_with("3 passed, 0 failed\n"), "{out}");
    let o = arbiter(&["check", "scenarios", "--filter", "no such title"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no scenario title contains `no such title`"));
    let o = arbiter(&["perft", "cypher", "2", "--option", "stalemate=lose"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did you mean `loss`?"),
        "{}",
        stderr(&o)
    );
    let o = arbiter(&["moves", "chess", "--option", "repetition-draw=fivefold"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn completions_and_the_manual_come_from_the_command_definitions() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = arbiter(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let script = stdout(&o);
        for sub in ["check", "explain", "dispute", "perft", "completions"] {
            assert!(script.contains(sub), "{shell} completion lacks {sub}");
        }
    }
    let o = arbiter(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("possible values"), "{}", stderr(&o));
    let o = arbiter(&["man"]);
    assert_eq!(o.status.code(), Some(0));
    let page = stdout(&o);
    assert!(page.contains(".TH arbiter 1"), "{page}");
    for sub in ["check", "explain", "dispute", "rules", "man"] {
        assert!(
            page.contains(&format!("arbiter\\-{sub}")) || page.contains(sub),
            "{sub}"
        );
    }
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let o = arbiter(&["check", "tests/failing/pending.scn", "--color", "always"]);
    let out = stdout(&o);
    assert!(out.contains("\x1b[33mPEND \x1b[0m"), "{out:?}");
    assert!(
        out.contains("\x1b[32m1 passed\x1b[0m, \x1b[1;31m1 failed\x1b[0m"),
        "{out:?}"
    );
    let o = arbiter(&["check", "tests/broken/bad_turn.scn", "--color", "always"]);
    assert!(stderr(&o).contains("\x1b["), "diagnostics in colour");
    // Piped (as here) or `never`: plain.
    for extra in [&[][..], &["--color", "never"][..]] {
        let mut args = vec!["check", "tests/failing/pending.scn"];
        args.extend(extra);
        let o = arbiter(&args);
        assert!(!stdout(&o).contains('\x1b'), "{extra:?}");
        assert!(!stderr(&o).contains('\x1b'), "{extra:?}");
    }
    let o = arbiter(&["explain", "chess", "Nf3", "--color", "always"]);
    assert!(
        stdout(&o).contains("Nf3: \x1b[32mlegal\x1b[0m, as Ng1-f3"),
        "{:?}",
        stdout(&o)
    );
}

#[test]
fn no_progress_display_when_standard_error_is_not_a_terminal() {
    let o = arbiter(&["perft", "cypher", "3"]);
    assert_eq!(o.status.code(), Some(0));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err:?}");
    assert!(err.contains("nodes in") && !err.contains('\r'), "{err:?}");
}

#[test]
fn bless_writes_the_values_found_and_nothing_else() {
    let dir = std::env::temp_dir().join(format!("arbiter-bless-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("b.scn");
    let before = "variant chess\n\nscenario \"counts\" {\n  start\n  expect perft 2 = 401 # kept\n  expect moves count 21\n  expect moves from g1 = { f3 g3 h3 }\n  expect check\n}\n\nscenario \"state\" {\n  fen \"4k3/8/8/8/8/8/8/4K2R w K - 3 1\"\n  expect moves = {\n    Ke1-d1 O-O\n  }\n  expect halfmove-clock = 4\n}\n";
    std::fs::write(&file, before).unwrap();
    let path = file.to_str().unwrap();
    let o = arbiter(&["check", path, "--bless"]);
    let out = stdout(&o);
    // `expect check` cannot be blessed: it stays, and the run still fails.
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("-expect perft 2 = 401\n+expect perft 2 = 400\n"),
        "{out}"
    );
    assert!(
        out.contains("blessed 5 expectations; 1 failure left as they are"),
        "{out}"
    );
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(after.contains("  expect perft 2 = 400 # kept\n"), "{after}");
    assert!(after.contains("  expect moves count 20\n"), "{after}");
    assert!(
        after.contains("  expect moves from g1 = { f3 h3 }\n"),
        "{after}"
    );
    assert!(after.contains("  expect check\n"), "{after}");
    assert!(after.contains("Ke1-d1 Ke1-d2"), "{after}");
    assert!(after.contains("  expect halfmove-clock = 3\n"), "{after}");
    // Blessed, everything but `expect check` holds.
    let o = arbiter(&["check", path]);
    assert!(
        stdout(&o).ends_with("1 passed, 1 failed\n"),
        "{}",
        stdout(&o)
    );
    let o = arbiter(&["check", path, "--bless", "--format", "json"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_line_number_past_any_file_is_an_error() {
    let o = arbiter(&["check", "scenarios/chess/results.scn:99999999999999999999"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stdout(&o).starts_with("0 passed"), "{}", stdout(&o));
}
