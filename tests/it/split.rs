//! Searches split into jobs (`--split`, `--job`, `--merge`) and searches on several threads
//! give the direct, sequential answer: for every variant, at split depths 1 and 2, with the
//! jobs run in shuffled subsets on one and two threads.

use std::io::Write;
use std::process::{Command, Stdio};

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn arbiter(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    // Written from a thread: a job run answers while it reads, and would block on a full
    // output pipe that nobody reads yet.
    let mut input = child.stdin.take().expect("stdin");
    let bytes = stdin.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        // A run that stops reading early (an input error) closes the pipe: no failure here.
        let _ = input.write_all(&bytes);
    });
    let out = child.wait_with_output().expect("arbiter ends");
    writer.join().expect("stdin writer");
    Run {
        code: out.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A small deterministic shuffle (xorshift), so that a failure can be replayed.
fn shuffle<T>(items: &mut [T], mut seed: u64) {
    for i in (1..items.len()).rev() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        items.swap(i, (seed % (i as u64 + 1)) as usize);
    }
}

/// Positions per variant (the arguments around the depth: variant, `--fen`, ...), each with a
/// depth small enough for the unoptimised test binary.
const POSITIONS: &[(&[&str], &str)] = &[
    (&["chess"], "3"),
    (
        &[
            "chess",
            "--fen",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ],
        "2",
    ),
    // White mates at once: paths that end the game before the split depth.
    (
        &["chess", "--fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"],
        "3",
    ),
    (&["cypher"], "2"),
    (
        &[
            "cypher",
            "--fen",
            "10/8k1/3n6/10/4s5/1N8/10/3Q6/7R2/8K1/4S5 w - 0/0 -",
        ],
        "2",
    ),
    (&["csipgs"], "3"),
    (
        &[
            "xpanse",
            "--size",
            "5x5",
            "--fen",
            "a1qk1/3Nb/2A1R/1P1p1/K3n w",
        ],
        "3",
    ),
    (
        &[
            "xpanse",
            "--size",
            "5x5",
            "--fen",
            "g1amk/1p3/1M1Nr/2P2/G1K1A w",
        ],
        "2",
    ),
];

/// `arbiter <search> <variant> [name] <depth> <rest...>`.
fn args<'a>(
    search: &'a str,
    position: &[&'a str],
    name: Option<&'a str>,
    depth: &'a str,
) -> Vec<&'a str> {
    let mut v = vec![search, position[0]];
    v.extend(name);
    v.push(depth);
    v.extend_from_slice(&position[1..]);
    v
}

/// Splits, runs the jobs in three shuffled subsets (one and two threads), merges the shuffled
/// results, and returns the merged run.
fn split_and_merge(
    search: &str,
    position: &[&str],
    name: Option<&str>,
    depth: &str,
    plies: &str,
    seed: u64,
) -> Run {
    let mut split_args = args(search, position, name, depth);
    split_args.extend(["--split", plies]);
    let split = arbiter(&split_args, "");
    assert_eq!(split.code, 0, "{split_args:?}: {}", split.err);
    let mut lines: Vec<&str> = split.out.lines().collect();
    assert!(!lines.is_empty(), "{split_args:?}: no job lines");
    shuffle(&mut lines, seed);
    let mut results: Vec<String> = Vec::new();
    for (i, part) in lines.chunks(lines.len().div_ceil(3)).enumerate() {
        let threads = if i % 2 == 0 { "1" } else { "2" };
        let input = part.join("\n") + "\n";
        let run = arbiter(&["--threads", threads, search, "--job"], &input);
        assert_eq!(run.code, 0, "{split_args:?} jobs: {}", run.err);
        results.extend(run.out.lines().map(str::to_string));
    }
    assert_eq!(
        results.len(),
        lines.len(),
        "{split_args:?}: one result per job"
    );
    shuffle(&mut results, seed + 1);
    arbiter(&[search, "--merge"], &(results.join("\n") + "\n"))
}

#[test]
fn perft_split_and_merge_equals_direct_perft() {
    for (i, (position, depth)) in POSITIONS.iter().enumerate() {
        let direct = arbiter(&args("perft", position, None, depth), "");
        assert_eq!(direct.code, 0, "{position:?}: {}", direct.err);
        for plies in ["1", "2", "3"].into_iter().filter(|p| p <= depth) {
            let merged = split_and_merge("perft", position, None, depth, plies, 7 + i as u64);
            assert_eq!(merged.code, 0, "{position:?} split {plies}: {}", merged.err);
            assert_eq!(merged.out, direct.out, "{position:?} split {plies}");
        }
    }
}

#[test]
fn a_root_without_turns_splits_into_one_known_job() {
    // Black is stalemated: nothing at any split depth.
    let position: &[&str] = &["chess", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"];
    let merged = split_and_merge("perft", position, None, "2", "1", 3);
    assert_eq!((merged.code, merged.out.as_str()), (0, "perft 2 = 0\n"));
    let merged = split_and_merge("invariant", position, Some("one-king-each"), "2", "1", 3);
    assert_eq!(
        (merged.code, merged.out.as_str()),
        (0, "invariant one-king-each holds to depth 2\n")
    );
}

/// Invariants per variant, to check on its positions.
fn invariants(variant: &str) -> &'static [&'static str] {
    match variant {
        "chess" => &["one-king-each", "castling-rights-consistent"],
        "cypher" => &["court-king-never-in-check", "one-infiltration-per-side"],
        "csipgs" => &["treasury-in-range", "a-king-each"],
        _ => &["pieces-never-gained", "no-check"],
    }
}

#[test]
fn invariant_split_and_merge_equals_the_direct_search() {
    for (i, (position, _)) in POSITIONS.iter().enumerate() {
        for name in invariants(position[0]) {
            let direct = arbiter(&args("invariant", position, Some(name), "2"), "");
            assert!(direct.code <= 1, "{position:?} {name}: {}", direct.err);
            for plies in ["1", "2"] {
                let merged =
                    split_and_merge("invariant", position, Some(name), "2", plies, 11 + i as u64);
                assert_eq!(
                    (merged.code, &merged.out),
                    (direct.code, &direct.out),
                    "{position:?} {name} split {plies}: {}",
                    merged.err
                );
            }
        }
    }
}

/// A line's digest as arbiter computes it (docs/distributed.md): 64-bit FNV-1a of the line
/// without `digest`, keys sorted, no spaces, then the byte 0x1f.
fn digest(line: &serde_json::Value) -> String {
    let mut v = line.clone();
    v.as_object_mut().unwrap().remove("digest");
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in v.to_string().bytes().chain([0x1f]) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// An edited line with its digest made to match: what a batch system cannot produce by
/// mixing files up, for tests of the checks behind the digest.
fn resealed(mut v: serde_json::Value) -> String {
    v["digest"] = digest(&v).into();
    v.to_string()
}

/// Result lines of a small perft split (chess, depth 2, split 1: 20 jobs).
fn results(search: &str, name: Option<&str>, plies: &str) -> Vec<String> {
    let mut split_args = args(search, &["chess"], name, "2");
    split_args.extend(["--split", plies]);
    let split = arbiter(&split_args, "");
    let run = arbiter(&[search, "--job"], &split.out);
    assert_eq!(run.code, 0, "{}", run.err);
    run.out.lines().map(str::to_string).collect()
}

#[test]
fn merge_reports_the_violation_of_the_lowest_job() {
    let mut lines = results("invariant", Some("one-king-each"), "1");
    assert_eq!(lines.len(), 20);
    // Real positions never break the invariant; two results say they did.
    let broken = |line: &str, turns: &str, what: &str| {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        v["holds"] = false.into();
        v["violation"] =
            serde_json::json!({"turns": turns.split(' ').collect::<Vec<_>>(), "broken": what});
        resealed(v)
    };
    lines[9] = broken(&lines[9], "e2-e4 e7-e5", "later");
    lines[4] = broken(&lines[4], "d2-d4 d7-d5", "first");
    lines.reverse();
    let merged = arbiter(&["invariant", "--merge"], &(lines.join("\n") + "\n"));
    assert_eq!(merged.code, 1, "{}", merged.err);
    assert_eq!(
        merged.out,
        "invariant one-king-each breaks after d2-d4 d7-d5: first\n"
    );
}

#[test]
fn merge_refuses_incomplete_or_mixed_results() {
    let lines = results("perft", None, "1");
    let merge = |lines: &[String]| arbiter(&["perft", "--merge"], &(lines.join("\n") + "\n"));
    let mut missing = lines.clone();
    missing.remove(3);
    missing.remove(3);
    let run = merge(&missing);
    assert_eq!(run.code, 2);
    assert!(
        run.err
            .contains("missing results for job ids 3-4 (of 20 jobs, 18 given)"),
        "{}",
        run.err
    );
    let mut twice = lines.clone();
    twice.push(lines[7].clone());
    let run = merge(&twice);
    assert_eq!(run.code, 2);
    assert!(run.err.contains("given more than once: 7"), "{}", run.err);
    let mut mixed = lines.clone();
    mixed.extend(results("perft", None, "2"));
    let run = merge(&mixed);
    assert_eq!(run.code, 2);
    assert!(
        run.err.contains("results of different splits"),
        "{}",
        run.err
    );
    let run = merge(&[]);
    assert_eq!(run.code, 2);
    assert!(run.err.contains("no result lines"), "{}", run.err);
    // Job lines are not results, and results of another search are not these.
    let split = arbiter(&["perft", "chess", "2", "--split", "1"], "");
    let run = arbiter(&["perft", "--merge"], &split.out);
    assert_eq!(run.code, 2);
    assert!(
        run.err.contains("a job line, where result lines are read"),
        "{}",
        run.err
    );
    let run = arbiter(&["invariant", "--merge"], &(lines.join("\n") + "\n"));
    assert_eq!(run.code, 2);
    assert!(run.err.contains("arbiter perft --merge"), "{}", run.err);
}

/// split-tamper.sh: job and result lines edited after they were written give exit status 2
/// and name the line, instead of a wrong total.
#[test]
fn edited_lines_are_refused() {
    let split = arbiter(&["perft", "chess", "3", "--split", "2"], "");
    assert_eq!(split.code, 0, "{}", split.err);
    let run = arbiter(&["perft", "--job"], &split.out);
    assert_eq!(run.code, 0, "{}", run.err);
    let results: Vec<&str> = run.out.lines().collect();
    let merged = arbiter(&["perft", "--merge"], &run.out);
    assert_eq!(merged.out, "perft 3 = 8902\n", "{}", merged.err);
    // Every line's digest is the one the documentation says how to compute.
    for line in split.out.lines().chain(run.out.lines()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["digest"].as_str(), Some(digest(&v).as_str()), "{line}");
    }
    let first_job = split.out.lines().next().unwrap();
    let edited_jobs = [
        first_job.replace(
            "\"depth\":3,\"split\":2,\"remaining\":1",
            "\"depth\":4,\"split\":2,\"remaining\":2",
        ),
        first_job.replace(",\"digest\"", ",\"done\":true,\"nodes\":0,\"digest\""),
    ];
    for edited in &edited_jobs {
        assert_ne!(edited, first_job);
        let mut jobs: Vec<&str> = split.out.lines().collect();
        jobs[0] = edited;
        let run = arbiter(&["perft", "--job"], &(jobs.join("\n") + "\n"));
        assert_eq!(run.code, 2, "{edited}: {}", run.out);
        assert!(
            run.err
                .contains("standard input:1: the job line is not as arbiter wrote it"),
            "{}",
            run.err
        );
        assert!(run.out.is_empty(), "{}", run.out);
    }
    // The last result dropped and the job count lowered on every line.
    let fewer: Vec<String> = results[..results.len() - 1]
        .iter()
        .map(|l| l.replace("\"jobs\":400", "\"jobs\":399"))
        .collect();
    let edited_results = [
        fewer,
        results
            .iter()
            .enumerate()
            .map(|(i, l)| match i {
                0 => l.replace("\"depth\":3", "\"depth\":9"),
                _ => l.to_string(),
            })
            .collect(),
    ];
    for lines in &edited_results {
        let run = arbiter(&["perft", "--merge"], &(lines.join("\n") + "\n"));
        assert_eq!(run.code, 2, "{}", run.out);
        assert!(
            run.err
                .contains("standard input:1: the result line is not as arbiter wrote it"),
            "{}",
            run.err
        );
    }
    // Lines of one fingerprint that disagree on the depth (written by no split's jobs).
    let mut lines: Vec<String> = results.iter().map(|l| l.to_string()).collect();
    let mut v: serde_json::Value = serde_json::from_str(&lines[5]).unwrap();
    v["depth"] = 9.into();
    lines[5] = resealed(v);
    let run = arbiter(&["perft", "--merge"], &(lines.join("\n") + "\n"));
    assert_eq!(run.code, 2, "{}", run.out);
    assert!(
        run.err
            .contains("standard input:6: its depth `9` disagrees with its split's `3`"),
        "{}",
        run.err
    );
    // Invariant results with mixed invariant names.
    let split = arbiter(
        &["invariant", "chess", "one-king-each", "2", "--split", "1"],
        "",
    );
    let run = arbiter(&["invariant", "--job"], &split.out);
    let mut lines: Vec<String> = run.out.lines().map(str::to_string).collect();
    let renamed = lines[1].replace("one-king-each", "no-pawn-on-back-rank");
    lines[1] = renamed.clone();
    let merged = arbiter(&["invariant", "--merge"], &(lines.join("\n") + "\n"));
    assert_eq!(merged.code, 2, "{}", merged.out);
    assert!(
        merged
            .err
            .contains("standard input:2: the result line is not as arbiter wrote it"),
        "{}",
        merged.err
    );
    lines[1] = resealed(serde_json::from_str(&renamed).unwrap());
    let merged = arbiter(&["invariant", "--merge"], &(lines.join("\n") + "\n"));
    assert_eq!(merged.code, 2, "{}", merged.out);
    assert!(
        merged.err.contains(
            "standard input:2: its invariant `no-pawn-on-back-rank` disagrees with its split's `one-king-each`"
        ),
        "{}",
        merged.err
    );
}

#[test]
fn misuse_is_an_input_error() {
    let cases: &[(&[&str], &str)] = &[
        (&["perft"], "needs VARIANT and DEPTH"),
        (
            &["perft", "chess", "3", "--job"],
            "leave out VARIANT and DEPTH",
        ),
        (
            &["perft", "--merge", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
            "leave out --fen",
        ),
        (&["perft", "--job", "--merge"], "give one of them"),
        (
            &["perft", "chess", "2", "--split", "3"],
            "deeper than the search",
        ),
        (
            &["perft", "chess", "2", "--split", "1", "--divide"],
            "give one of them",
        ),
        (
            &["invariant", "chess", "3"],
            "needs VARIANT, NAME and DEPTH",
        ),
        (
            &["invariant", "chess", "nope", "2"],
            "invariants of chess: one-king-each",
        ),
        (&["win", "chess", "green", "1"], "colours: white, black"),
        (
            &["win", "chess", "white", "100000"],
            "beyond the deepest search",
        ),
        (
            &["perft", "--job", "/no/such/file"],
            "cannot read /no/such/file",
        ),
        (&["--threads", "0", "perft", "chess", "1"], "at least 1"),
        (
            &["--threads", "100000000000", "perft", "chess", "1"],
            "at most 1024",
        ),
    ];
    for (args, says) in cases {
        let run = arbiter(args, "");
        assert_eq!(run.code, 2, "{args:?}: {}", run.err);
        assert!(run.err.contains(says), "{args:?}: {}", run.err);
    }
    let run = arbiter(&["perft", "--job"], "{not json\n");
    assert_eq!(run.code, 2);
    assert!(
        run.err.contains("standard input:1: not a JSON line"),
        "{}",
        run.err
    );
    // A job whose turns do not replay.
    let split = arbiter(&["perft", "chess", "2", "--split", "1"], "");
    let mut first: serde_json::Value =
        serde_json::from_str(split.out.lines().next().unwrap()).unwrap();
    first["turns"] = serde_json::json!(["a2-a5"]);
    let run = arbiter(&["perft", "--job"], &resealed(first));
    assert_eq!(run.code, 2, "{}", run.err);
    assert!(
        run.err.contains("`a2-a5` is not a legal turn"),
        "{}",
        run.err
    );
}

#[test]
fn one_and_two_threads_answer_alike() {
    let wins: &[(&[&str], &str, &str)] = &[
        (
            &["chess", "--fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"],
            "white",
            "1",
        ),
        (
            &["chess", "--fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"],
            "black",
            "1",
        ),
        (
            &["chess", "--fen", "6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1"],
            "white",
            "2",
        ),
        (&["chess"], "white", "1"),
        (&["cypher"], "white", "1"),
        (&["csipgs"], "black", "2"),
        (
            &[
                "xpanse",
                "--size",
                "5x5",
                "--fen",
                "a1qk1/3Nb/2A1R/1P1p1/K3n w",
            ],
            "white",
            "1",
        ),
        (
            &[
                "xpanse",
                "--size",
                "5x5",
                "--fen",
                "g1amk/1p3/1M1Nr/2P2/G1K1A w",
            ],
            "black",
            "1",
        ),
    ];
    for (position, side, turns) in wins {
        let mut a = vec!["win", position[0], side, turns];
        a.extend_from_slice(&position[1..]);
        same_on_one_and_two_threads(&a);
    }
    for (position, depth) in POSITIONS {
        let searches = [
            args("perft", position, None, depth),
            args(
                "invariant",
                position,
                Some(invariants(position[0])[0]),
                depth,
            ),
        ];
        for a in searches {
            same_on_one_and_two_threads(&a);
        }
    }
    // The divided counts too.
    let divide = |t: &str| arbiter(&["--threads", t, "perft", "chess", "3", "--divide"], "").out;
    assert_eq!(divide("1"), divide("2"));
}

/// Runs the command with `--threads 1` and `--threads 2`: both answer (exit 0 or 1), the same.
fn same_on_one_and_two_threads(a: &[&str]) {
    let answers: Vec<_> = ["1", "2"]
        .iter()
        .map(|t| {
            let mut with = vec!["--threads", t];
            with.extend(a);
            let run = arbiter(&with, "");
            assert!(run.code <= 1, "{with:?}: {}", run.err);
            (run.code, run.out)
        })
        .collect();
    assert_eq!(answers[0], answers[1], "{a:?}");
}

#[test]
fn a_shared_budget_stops_every_thread() {
    for threads in ["1", "2"] {
        let run = arbiter(
            &[
                "--threads",
                threads,
                "--max-nodes",
                "100000",
                "perft",
                "chess",
                "5",
            ],
            "",
        );
        assert_eq!(run.code, 1, "{}", run.err);
        assert!(
            run.err
                .contains("the budget is 100000 nodes (raise it with --max-nodes)"),
            "{}",
            run.err
        );
    }
    // Exactly enough nodes for the whole search is enough on any number of threads.
    for threads in ["1", "2"] {
        let run = arbiter(
            &[
                "--threads",
                threads,
                "--max-nodes",
                "206603",
                "perft",
                "chess",
                "4",
            ],
            "",
        );
        assert_eq!(
            (run.code, run.out.as_str()),
            (0, "perft 4 = 197281\n"),
            "{}",
            run.err
        );
        let run = arbiter(
            &[
                "--threads",
                threads,
                "--max-nodes",
                "206602",
                "perft",
                "chess",
                "4",
            ],
            "",
        );
        assert_eq!(run.code, 1, "{threads}: {}", run.err);
    }
}
