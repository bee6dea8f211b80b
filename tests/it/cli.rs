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
    let o = arbiter(&["perft", "tenjiku", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown variant `tenjiku`; variants: chess"));
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
    // In any case.
    let o = arbiter(&["check", "scenarios/cypher", "--filter", "STALEMATE"]);
    assert!(
        stdout(&o).ends_with("3 passed, 0 failed\n"),
        "{}",
        stdout(&o)
    );
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
    // The pages the main page refers to can be made: one with all of a subcommand's flags.
    let o = arbiter(&["man", "check"]);
    assert_eq!(o.status.code(), Some(0));
    let check = stdout(&o);
    assert!(check.contains(".TH arbiter-check 1"), "{check}");
    // Every page carries the version and the date fixed at build, and is the same bytes on
    // every run.
    let date = include_str!("../../Cargo.toml")
        .lines()
        .find_map(|l| l.strip_prefix("man-date = "))
        .expect("Cargo.toml gives man-date")
        .trim_matches('"');
    let title = format!(
        ".TH arbiter-check 1 {date} \"arbiter {}\" \"arbiter manual\"",
        env!("CARGO_PKG_VERSION")
    );
    if std::env::var_os("SOURCE_DATE_EPOCH").is_none() {
        assert!(check.contains(&title), "{title}: {check}");
        assert!(
            page.contains(&title.replace("arbiter-check", "arbiter")),
            "{page}"
        );
    }
    assert_eq!(stdout(&arbiter(&["man", "check"])), check);
    for flag in [
        "filter",
        "bless",
        "fail\\-fast",
        "slow\\-after",
        "max\\-nodes",
    ] {
        assert!(check.contains(&format!("\\-\\-{flag}")), "{flag}: {check}");
    }
    let o = arbiter(&["man", "chek"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did you mean `check`?"),
        "{}",
        stderr(&o)
    );
    // All of them into a folder, replacing what is there.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("man-pages");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("arbiter-check.1"), "old").unwrap();
    let o = arbiter(&["man", "--dir", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut written: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(stdout(&o).lines().count(), written.len(), "{written:?}");
    for sub in page.match_indices("arbiter\\-").map(|(i, _)| {
        let rest = &page[i + "arbiter\\-".len()..];
        rest[..rest.find('(').unwrap_or(0)].to_string()
    }) {
        if !sub.is_empty() {
            assert!(
                written.contains(&format!("arbiter-{sub}.1")),
                "{sub}: {written:?}"
            );
        }
    }
    assert!(written.contains(&"arbiter.1".to_string()));
    assert!(!written.iter().any(|n| n.ends_with(".tmp")), "{written:?}");
    assert_eq!(
        std::fs::read_to_string(dir.join("arbiter-check.1")).unwrap(),
        check
    );
    // A missing folder is made; one that cannot be (below a regular file) is an error.
    let below_a_file = dir.join("arbiter.1").join("sub");
    let o = arbiter(&["man", "--dir", &below_a_file.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2));
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

/// A fresh folder of the test's own.
fn fresh_folder(test: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn bless_keeps_the_comment_after_every_form_it_rewrites() {
    // Every expectation --bless rewrites, wrong, with a comment after it and a statement on the
    // next line: the statement's span must end at its last token, or the comment is lost and the
    // next line glued on.
    let forms: &[(&str, &str, &str, &str)] = &[
        ("chess", "start", "perft 1 = 21", "perft 1 = 20"),
        ("chess", "start", "moves count 19", "moves count 20"),
        (
            "chess",
            "start",
            "moves from g1 count 3",
            "moves from g1 count 2",
        ),
        (
            "chess",
            "start",
            "moves from g1 = { f3 }",
            "moves from g1 = { f3 h3 }",
        ),
        (
            "chess",
            "fen \"k7/8/8/8/8/8/P7/K7 w - - 0 1\"",
            "moves = { Ka1-b1 }",
            "moves = { ",
        ),
        ("chess", "start", "halfmove-clock = 4", "halfmove-clock = 0"),
        ("chess", "start", "castling = KQ", "castling = KQkq"),
        ("chess", "start", "en-passant = e3", "en-passant = -"),
        (
            "csipgs",
            "start",
            "reserve white = (WD)",
            "reserve white = -",
        ),
        (
            "csipgs",
            "start",
            "reserve black = (WD) (WD)",
            "reserve black = -",
        ),
        (
            "csipgs",
            "start",
            "treasury white = 5",
            "treasury white = 0",
        ),
        (
            "csipgs",
            "start",
            "designs white = \"N N B Q K fmWfcF\"",
            "designs white = \"R N B Q K fmWfcF\"",
        ),
        (
            "cypher",
            "start",
            "infiltration-used white = yes",
            "infiltration-used white = no",
        ),
        ("cypher", "start", "retake = e4", "retake = -"),
        (
            "cypher",
            "start",
            "prisoners black = 3",
            "prisoners black = 0",
        ),
    ];
    let dir = fresh_folder("bless-every-form");
    for (i, (variant, setup, wrong, right)) in forms.iter().enumerate() {
        let file = dir.join(format!("form{i}.scn"));
        let before = format!(
            "variant {variant}\n\nscenario \"form {i}\" {{\n  {setup}\n  expect {wrong}    # kept {i}\n  expect no check\n}}\n"
        );
        std::fs::write(&file, &before).unwrap();
        let path = file.to_str().unwrap();
        let o = arbiter(&["check", path]);
        assert_eq!(o.status.code(), Some(1), "{wrong}: {}", stdout(&o));
        let o = arbiter(&["check", path, "--bless"]);
        assert!(
            stdout(&o).contains("blessed 1 expectation; 0 failures"),
            "{wrong}: {}",
            stdout(&o)
        );
        let after = std::fs::read_to_string(&file).unwrap();
        let line = after.lines().nth(4).unwrap_or("");
        assert!(
            line.starts_with(&format!("  expect {right}"))
                && line.ends_with(&format!(" # kept {i}")),
            "{wrong}:\n{after}"
        );
        assert_eq!(
            after.lines().nth(5),
            Some("  expect no check"),
            "{wrong}:\n{after}"
        );
        let o = arbiter(&["check", path]);
        assert_eq!(o.status.code(), Some(0), "{wrong}:\n{after}{}", stdout(&o));
        assert_eq!(stdout(&o).lines().last(), Some("1 passed, 0 failed"));
    }
}

#[test]
fn bless_of_one_file_named_twice_writes_both_edits_once() {
    let dir = fresh_folder("bless-dup-path");
    let file = dir.join("dup.scn");
    std::fs::write(
        &file,
        "variant chess\n\nscenario \"one\" {\n  start\n  expect moves count 19\n}\n\nscenario \"two\" {\n  start\n  expect perft 2 = 1\n}\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let dotted = dir.join(".").join("dup.scn");
    // Two lines of one file, under two spellings, and one scenario named twice.
    let o = arbiter(&[
        "check",
        &format!("{path}:5"),
        &format!("{}:10", dotted.display()),
        &format!("{path}:4"),
        "--bless",
    ]);
    assert!(
        stdout(&o).contains("blessed 2 expectations; 0 failures"),
        "{}",
        stdout(&o)
    );
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(after.contains("  expect moves count 20\n"), "{after}");
    assert!(after.contains("  expect perft 2 = 400\n"), "{after}");
    let o = arbiter(&["check", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

/// `arbiter win` shows the winning line, or what refutes each try.
#[test]
fn win_shows_the_line_or_the_refutations() {
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let o = arbiter(&["win", "chess", "white", "2", "--fen", fen]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "white can force a win within 2 of its turns\n\
         winning line: Ra1-a8, then white wins by checkmate (rule checkmate)\n"
    );
    // Black to move escapes; the one reply that does is named.
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1";
    let o = arbiter(&["win", "chess", "white", "1", "--fen", fen]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "white cannot force a win within 1 of its turns\n\
         refuted by Kg8-f8: after it, white has no forced win within 1 of its turns\n"
    );
    // White to move: each try with its refutation, the first eight.
    let o = arbiter(&[
        "win",
        "chess",
        "white",
        "2",
        "--fen",
        "7k/8/8/8/8/8/8/R5K1 w - - 0 1",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("each try of white and the first reply that refutes it (no forced win within the 1 turn left):\n  Kg1-g2 Kh8-h7\n"), "{out}");
    assert!(out.ends_with("  and 9 more\n"), "{out}");
    let o = arbiter(&[
        "win",
        "chess",
        "white",
        "1",
        "--fen",
        "7k/8/8/8/8/8/8/R5K1 w - - 0 1",
    ]);
    assert!(
        stdout(&o).ends_with("none of its 17 turns wins at once\n"),
        "{}",
        stdout(&o)
    );
}

/// A scenario file of its own for a test, in the test target's folder.
fn scenario_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    file
}

#[test]
fn names_are_suggested_from_the_variants_own() {
    let file = scenario_file(
        "suggest.scn",
        "variant chess\nscenario \"key\" {\n  start\n  expect castle = KQkq\n}\n\
         scenario \"reason\" {\n  start\n  expect result white wins by fli\n}\n\
         scenario \"piece\" {\n  start\n  expect e1 = white spie\n}\n",
    );
    let o = arbiter(&["check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = flat(&stderr(&o));
    assert!(err.contains("did you mean `castling`?"), "{err}");
    // `flip` is Cypher's, `spy` Cypher's and ChessXpanse's: never offered in chess.
    assert!(!err.contains("flip"), "{err}");
    assert!(!err.contains("spy"), "{err}");
    assert!(
        err.contains("unknown reason `fli`; a chess game ends by checkmate"),
        "{err}"
    );
    assert!(
        err.contains("chess pieces are named by a letter (K Q R B N P)"),
        "{err}"
    );
    let file = scenario_file(
        "suggest-cypher.scn",
        "variant cypher\nscenario \"piece\" {\n  start\n  expect d0 = white spie\n}\n",
    );
    let err = flat(&stderr(&arbiter(&["check", file.to_str().unwrap()])));
    assert!(err.contains("did you mean `spy`?"), "{err}");
}

/// A diagnostic's message on one line, as miette wraps it.
fn flat(text: &str) -> String {
    text.replace("\n  │ ", " ")
}

#[test]
fn other_tools_notations_get_a_hint() {
    let o = arbiter(&["explain", "chess", "0-0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        flat(&stderr(&o)).contains("castling is written with the letter O, not zeros: `O-O`"),
        "{}",
        stderr(&o)
    );
    let o = arbiter(&["explain", "chess", "nf3"]);
    assert!(
        flat(&stderr(&o))
            .contains("pieces are written with capital letters for both colours: `Nf3`"),
        "{}",
        stderr(&o)
    );
    let o = arbiter(&["show", "chess", "--board", "white: Ke1; black: ke8"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        flat(&stderr(&o))
            .contains("pieces are written with capital letters for both colours: `Ke8`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn counts_of_one_are_singular() {
    // The white king has one turn, to a2: the black king covers b1 and b2, and the pawn on h2
    // is blocked.
    let file = scenario_file(
        "plural.scn",
        "variant chess\nscenario \"one\" {\n  fen \"8/8/8/8/8/7p/2k4P/K7 w - - 0 1\"\n  \
         expect moves from a1 count 3\n  expect moves count 2\n}\n\
         scenario \"start\" {\n  start\n  expect moves count 1\n}\n",
    );
    let o = arbiter(&["check", file.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("expected: 3 legal turns from a1"), "{out}");
    assert!(out.contains("found:    1 legal turn from a1\n"), "{out}");
    assert!(out.contains("found:    1 legal turn\n"), "{out}");
    assert!(out.contains("expected: 1 legal turn\n"), "{out}");
    assert!(!out.contains(" 1 legal turns"), "{out}");
    let o = arbiter(&["check", file.to_str().unwrap(), "--bless"]);
    assert!(
        stdout(&o).contains("blessed 3 expectations; 0 failures left as they are"),
        "{}",
        stdout(&o)
    );
    std::fs::write(
        &file,
        "variant chess\nscenario \"one\" {\n  start\n  expect moves count 1\n}\n",
    )
    .unwrap();
    let o = arbiter(&["check", file.to_str().unwrap(), "--bless"]);
    assert!(
        stdout(&o).contains("blessed 1 expectation; 0 failures left"),
        "{}",
        stdout(&o)
    );
    let o = arbiter(&["rules", "chess", "--coverage", file.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(out.contains("  0 scenarios"), "{out}");
    assert!(!out.contains(" 1 scenarios"), "{out}");
    let o = arbiter(&["cost", "fW"]);
    assert!(
        stdout(&o).contains("price 1 zorkmid (rounded up)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_scenario_reads_its_definition_from_its_own_folder() {
    // `variant ./sixes.def` is beside the scenario, not in the folder the command runs in.
    for cwd in [env!("CARGO_MANIFEST_DIR"), "/"] {
        let scenario = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/definitions/beside.scn"
        );
        let shown = if cwd == "/" {
            scenario
        } else {
            "tests/data/definitions/beside.scn"
        };
        let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["check", shown])
            .current_dir(cwd)
            .output()
            .expect("arbiter runs");
        let out = stdout(&o);
        assert_eq!(
            out.lines().last(),
            Some("2 passed, 0 failed"),
            "{out}{}",
            stderr(&o)
        );
        assert_eq!(o.status.code(), Some(0));
    }
}

#[test]
fn a_missing_definition_beside_a_scenario_is_named_by_its_joined_path() {
    let dir = std::env::temp_dir().join(format!("arbiter-beside-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.scn");
    std::fs::write(
        &path,
        "variant ./gone/nothing.def\n\nscenario \"x\" {\n  start\n  expect result none\n}\n",
    )
    .unwrap();
    let o = arbiter(&["check", path.to_str().unwrap()]);
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        all.contains(&format!(
            "cannot read {}",
            dir.join("gone/nothing.def").display()
        )),
        "{all}"
    );
    assert_eq!(o.status.code(), Some(2), "{all}");
    std::fs::remove_dir_all(&dir).ok();
}
