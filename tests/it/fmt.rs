//! `arbiter fmt`: the layout is stable (formatting a formatted file changes nothing), it never
//! changes what a file means (the syntax tree is the same, spans aside), every comment
//! survives in order, and the bundled scenarios are formatted. Checked on every bundled file
//! and on generated files; then the command line: `--check`, files that do not parse, stdin.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use arbiter::scenario::format::{format, without_spans, WIDTH};
use arbiter::scenario::parse::parse_file;
use proptest::prelude::*;

/// The comments of a scenario file in order: a `#` outside strings that starts a line or
/// follows whitespace (a `#` glued to a move claims mate), to the end of its line.
fn comments(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = src.char_indices().peekable();
    let mut in_string = false;
    let mut prev = '\n';
    while let Some((i, c)) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' | '\n' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if c == '#' && prev.is_whitespace() {
            let end = src[i..].find(['\n', '\r']).map_or(src.len(), |e| i + e);
            out.push(src[i..end].trim_end().to_string());
            while chars.next_if(|&(j, _)| j < end).is_some() {}
        }
        prev = c;
    }
    out
}

/// Formats `src` and checks every promise of `fmt` on it.
fn check_formatting(name: &str, src: &str) -> Result<String, TestCaseError> {
    let before = parse_file(src).map_err(|p| TestCaseError::fail(format!("{name}: {p:?}")))?;
    let once = format(src).map_err(|p| TestCaseError::fail(format!("{name}: {p:?}")))?;
    let twice = format(&once).map_err(|p| TestCaseError::fail(format!("{name}: {p:?}")))?;
    prop_assert_eq!(&twice, &once, "{}: not idempotent", name);
    let after = parse_file(&once).map_err(|p| TestCaseError::fail(format!("{name}: {p:?}")))?;
    prop_assert_eq!(
        without_spans(&format!("{after:?}")),
        without_spans(&format!("{before:?}")),
        "{}: the syntax tree changed",
        name
    );
    prop_assert_eq!(comments(&once), comments(src), "{}: comments lost", name);
    prop_assert!(once.ends_with('\n') && !once.ends_with("\n\n"), "{}", name);
    prop_assert!(!once.contains('\r') && !once.contains("\n\n\n"), "{}", name);
    prop_assert!(
        once.lines().all(|l| l == l.trim_end()),
        "{}: trailing space",
        name
    );
    Ok(once)
}

fn scn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("folder")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            scn_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "scn") {
            out.push(p);
        }
    }
}

fn bundled(dirs: &[&str]) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in dirs {
        scn_files(&root.join(d), &mut files);
    }
    assert!(!files.is_empty());
    files
        .into_iter()
        .map(|f| {
            let src = std::fs::read_to_string(&f).expect("readable");
            (f.display().to_string(), src)
        })
        .collect()
}

#[test]
fn every_bundled_file_formats_without_changing_its_meaning() {
    let dirs = [
        "scenarios",
        "tests/explain",
        "tests/disputes",
        "tests/failing",
    ];
    for (name, src) in bundled(&dirs) {
        if let Err(e) = check_formatting(&name, &src) {
            panic!("{e}");
        }
    }
}

#[test]
fn the_bundled_scenarios_are_formatted() {
    for (name, src) in bundled(&["scenarios"]) {
        let out = format(&src).expect("parses");
        assert!(out == src, "{name} is not formatted: run `arbiter fmt`");
    }
}

#[test]
fn a_messy_file_gets_the_canonical_layout() {
    let src =
        "variant chess\r\noption  repetition-draw=twofold\n\n\n\nscenario \"t\" {   # why\n\n  \
               rule   stalemate\n   board {  white:  Ke1\n black : Ke8 } \n\tplay 1. e2-e4 e7-e5 \
               # opening\n2. Nf3\n # note\n\n\n  expect e4=white pawn    \n\n}\nscenario \"u\" { \
               start }";
    let want = "variant chess\noption repetition-draw = twofold\n\nscenario \"t\" {   # why\n  \
                rule stalemate\n  board {\n    white: Ke1\n    black: Ke8\n  }\n  play 1. e2-e4 \
                e7-e5 # opening\n      2. Nf3\n  # note\n\n  expect e4 = white pawn\n}\n\n\
                scenario \"u\" {\n  start\n}\n";
    assert_eq!(format(src).expect("parses"), want);
}

#[test]
fn long_play_lines_are_filled_and_move_numbers_stay_with_their_turns() {
    let mut src = String::from("variant chess\n\nscenario \"t\" {\n  start\n  play");
    for n in 1..40 {
        src.push_str(&format!(" {n}. Nf3 {n}... Nf6 Ng1 Ng8"));
    }
    src.push_str("\n}\n");
    let out = format(&src).expect("parses");
    let play: Vec<&str> = out.lines().skip(4).take_while(|l| *l != "}").collect();
    assert!(play.len() > 5, "{out}");
    assert!(play[0].starts_with("  play 1. Nf3 1... Nf6"), "{out}");
    for l in &play[1..] {
        assert!(l.starts_with("      ") && !l.starts_with("       "), "{l}");
    }
    for l in &play {
        assert!(l.chars().count() <= WIDTH, "{l}");
        assert!(
            !l.ends_with('.'),
            "a move number left at the end of a line: {l}"
        );
    }
}

#[test]
fn a_file_that_does_not_parse_is_an_error() {
    let problems = format("variant chess\nscenario \"t\" {\n  play e2-e4 Kx\n}\n").unwrap_err();
    assert!(!problems.is_empty());
}

// ---- generated files ---------------------------------------------------------------------------

fn tokens(text: &str) -> Vec<String> {
    text.split(' ').map(str::to_string).collect()
}

fn turn() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("e2-e4"),
        Just("Nf3"),
        Just("Sd0-d4; Qd2-z4"),
        Just("Sd0-d4;Qd2-z4"),
        Just("coup Nf9"),
        Just("O-O-O"),
        Just("exd5"),
        Just("e7-e8=Q+"),
        Just("(WD)@e5"),
        Just("(WD)xe5"),
        Just("Qxf7#"),
        Just("Ac1^c3xe5"),
        Just("resign"),
        Just("pass"),
        Just("b4-b5; reborn b1"),
        Just("Buy WD; Q=BL"),
        Just("12."),
        Just("12..."),
    ]
    .prop_map(str::to_string)
}

fn statement() -> impl Strategy<Value = Vec<String>> {
    let fixed = prop_oneof![
        Just("rule stalemate fifty-move"),
        Just("start"),
        Just("white to move"),
        Just("set castling = KQkq"),
        Just("set reserve black = (WD) (WD)"),
        Just("option king-beside-own-spy = illegal"),
        Just("expect no check"),
        Just("expect e4 = white pawn"),
        Just("expect d4 = empty"),
        Just("expect result black wins by checkmate"),
        Just("expect moves from d0 = { d1 z0 }"),
        Just("expect moves from d0 count 9"),
        Just("expect cost (WD) = 5"),
        Just("expect perft 2 = 400"),
        Just("expect illegal Bc3xd4 because field-sanctuary"),
        Just("board { white : Ke2 (WD)e4 a3 black : Ke8 }"),
        Just("board { }"),
    ]
    .prop_map(tokens);
    let text = Just(vec![
        "fen".to_string(),
        "\"8/8/8/8/8/8/8/8 w - - 0 1\"".to_string(),
    ]);
    let play = prop::collection::vec(turn(), 1..40).prop_map(|t| {
        let mut s = vec!["play".to_string()];
        s.extend(t);
        s
    });
    let moves = prop::collection::vec(turn(), 0..30).prop_map(|t| {
        let mut s = tokens("expect moves = {");
        s.extend(t);
        s.push("}".into());
        s
    });
    prop_oneof![6 => fixed, 1 => text, 2 => play, 1 => moves]
}

fn scenario() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(statement(), 0..8).prop_map(|stmts| {
        let mut s = vec![
            "scenario".to_string(),
            "\"a title # not a comment\"".to_string(),
            "{".to_string(),
        ];
        s.extend(stmts.into_iter().flatten());
        s.push("}".into());
        s
    })
}

fn separator() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        8 => Just(" "),
        2 => Just("\n  "),
        1 => Just("   "),
        1 => Just("\t"),
        1 => Just("\n\n\n"),
        1 => Just("\r\n"),
        1 => Just("  # one\n"),
        1 => Just("\n  # two\n\n  "),
        1 => Just(" #three  \n\n"),
    ]
}

/// A valid file as a list of tokens, each with whatever whitespace and comments after it.
fn messy_file() -> impl Strategy<Value = String> {
    let header = prop_oneof![
        Just(tokens("variant chess")),
        Just(tokens(
            "variant xpanse 5x6 option repetition-draw = twofold"
        )),
    ];
    (header, prop::collection::vec(scenario(), 1..4))
        .prop_flat_map(|(header, scenarios)| {
            let mut all = header;
            all.extend(scenarios.into_iter().flatten());
            let n = all.len();
            (
                Just(all),
                prop::collection::vec(separator(), n),
                prop_oneof![Just(""), Just("# first\n\n")],
            )
        })
        .prop_map(|(tokens, seps, lead)| {
            let mut s = lead.to_string();
            for (t, sep) in tokens.iter().zip(seps) {
                s.push_str(t);
                s.push_str(sep);
            }
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn generated_files_format_without_changing_their_meaning(src in messy_file()) {
        check_formatting("generated", &src)?;
    }
}

// ---- the command line ---------------------------------------------------------------------------

fn arbiter(args: &[&str], dir: &Path, stdin: Option<&str>) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    let input = stdin.unwrap_or("").to_string();
    let mut pipe = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || pipe.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("arbiter ends");
    let _ = writer.join();
    out
}

/// A fresh folder under the system's temporary folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-fmt-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("scenarios/sub")).expect("scratch folder");
    dir
}

const MESSY: &str = "variant chess\nscenario \"t\" {\n start\n  expect  e4=empty\n}\n";
const TIDY: &str = "variant chess\n\nscenario \"t\" {\n  start\n  expect e4 = empty\n}\n";

#[test]
fn fmt_check_lists_the_files_to_format_and_changes_nothing() {
    let dir = scratch("check");
    std::fs::write(dir.join("scenarios/sub/messy.scn"), MESSY).unwrap();
    std::fs::write(dir.join("scenarios/tidy.scn"), TIDY).unwrap();
    let o = arbiter(&["fmt", "--check"], &dir, None);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "scenarios/sub/messy.scn\n"
    );
    let messy = std::fs::read_to_string(dir.join("scenarios/sub/messy.scn")).unwrap();
    assert_eq!(messy, MESSY);

    let o = arbiter(&["fmt"], &dir, None);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "scenarios/sub/messy.scn\n"
    );
    let messy = std::fs::read_to_string(dir.join("scenarios/sub/messy.scn")).unwrap();
    assert_eq!(messy, TIDY);

    let o = arbiter(&["fmt", "--check", "scenarios"], &dir, None);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fmt_leaves_a_file_that_does_not_parse_untouched_and_says_where() {
    let dir = scratch("broken");
    let broken = "variant chess\nscenario \"t\" {\n  play e2-e4 Kx\n}\n";
    std::fs::write(dir.join("scenarios/broken.scn"), broken).unwrap();
    std::fs::write(dir.join("scenarios/messy.scn"), MESSY).unwrap();
    let o = arbiter(&["fmt"], &dir, None);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("broken.scn:3:16"), "{err}");
    let after = std::fs::read_to_string(dir.join("scenarios/broken.scn")).unwrap();
    assert_eq!(after, broken);
    // The other files are still formatted.
    let messy = std::fs::read_to_string(dir.join("scenarios/messy.scn")).unwrap();
    assert_eq!(messy, TIDY);

    let o = arbiter(&["fmt", "missing.scn"], &dir, None);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fmt_reads_standard_input() {
    let dir = scratch("stdin");
    let o = arbiter(&["fmt", "-"], &dir, Some(MESSY));
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), TIDY);
    let o = arbiter(&["fmt", "--stdin", "--check"], &dir, Some(MESSY));
    assert_eq!(o.status.code(), Some(1));
    let o = arbiter(&["fmt", "--stdin", "--check"], &dir, Some(TIDY));
    assert_eq!(o.status.code(), Some(0));
    let o = arbiter(&["fmt", "-"], &dir, Some("variant chess\nscenario {"));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("<stdin>:2:"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The peak resident memory of a child in KiB, as Linux reports it while it runs (`None`
/// where /proc does not say).
fn peak_kib(child: &mut std::process::Child) -> Option<u64> {
    let status = format!("/proc/{}/status", child.id());
    let mut peak = None;
    while child.try_wait().expect("child status").is_none() {
        let hwm = std::fs::read_to_string(&status).ok().and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        });
        if hwm.is_some() {
            peak = peak.max(hwm);
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    peak
}

#[test]
fn a_large_file_is_not_doubled_and_memory_stays_a_small_multiple_of_it() {
    // One-line scenarios with a comment after each: the closing brace once got padded out to
    // the comment's old column (34 MB in, 70 MB out), and the parse tree of the whole file
    // took about 70 bytes of memory per byte of input.
    let dir = scratch("large");
    let mut text = String::from("variant chess\n");
    for i in 0..60_000 {
        text.push_str(&format!(
            "scenario \"s{i}\" {{ board {{ white: Ke1 black: Ke8 }} expect moves count 5 }} # c{i}\n"
        ));
    }
    let file = dir.join("big.scn");
    std::fs::write(&file, &text).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["fmt", "big.scn"])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .spawn()
        .expect("arbiter runs");
    let peak = peak_kib(&mut child);
    assert!(child.wait().unwrap().success());
    let out = std::fs::read_to_string(&file).unwrap();
    // The canonical layout puts each scenario on seven indented lines: a fifth more, not twice.
    assert!(
        out.len() * 4 < text.len() * 5,
        "{} bytes in, {} out",
        text.len(),
        out.len()
    );
    assert!(out.contains("\n} # c7\n"), "{}", &out[..400]);
    if let Some(kib) = peak {
        let input_kib = text.len() as u64 / 1024;
        assert!(
            kib < 12 * input_kib,
            "{kib} KiB at the peak for {input_kib} KiB of input"
        );
    } else {
        eprintln!("note: memory not measured: /proc/PID/status has no VmHWM here");
    }
    let o = arbiter(&["fmt", "--check", "big.scn"], &dir, None);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn fmt_formats_a_named_definition_and_checks_it() {
    let dir = scratch("definition");
    let messy = "variant mini\nboard 4x4\npiece K king K royal \"The king steps.\"\npiece R rook R \"The rook slides.\"\nstart \"k3/4/4/R2K w - - 0 1\"\ncheck {\nclause   \"No royal may be left attacked.\"\n}\n";
    std::fs::write(dir.join("mini.def"), messy).unwrap();
    let o = arbiter(&["fmt", "--check", "mini.def"], &dir, None);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&o.stdout), "mini.def\n");
    assert_eq!(
        std::fs::read_to_string(dir.join("mini.def")).unwrap(),
        messy
    );

    let o = arbiter(&["fmt", "mini.def"], &dir, None);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let tidy = std::fs::read_to_string(dir.join("mini.def")).unwrap();
    assert!(
        tidy.contains("check {\n  clause \"No royal may be left attacked.\"\n}\n"),
        "{tidy}"
    );
    assert!(
        tidy.contains("piece K king K royal \"The king steps.\""),
        "{tidy}"
    );

    let o = arbiter(&["fmt", "--check", "mini.def"], &dir, None);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "");

    // A definition that does not parse is left as it was, with its line and column.
    std::fs::write(
        dir.join("bad.def"),
        "variant bad\ncheck {\n  clause \"x\"\n",
    )
    .unwrap();
    let o = arbiter(&["fmt", "bad.def"], &dir, None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("bad.def:3:12"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("bad.def")).unwrap(),
        "variant bad\ncheck {\n  clause \"x\"\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

const MESSY_DEF: &str = "variant tiny\nfrom   chess\ntitle \"Tiny\"\ncheck {\nclause \"x\"\n}\n";
const TIDY_DEF: &str = "variant tiny\nfrom chess\ntitle \"Tiny\"\n\ncheck {\n  clause \"x\"\n}\n";

#[test]
fn fmt_reads_a_definition_from_standard_input_when_told_or_by_its_text() {
    let dir = scratch("stdin-def");
    // Told: `--def`.
    let o = arbiter(&["fmt", "--def", "-"], &dir, Some(MESSY_DEF));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let tidy = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        tidy.contains("from chess\n") && tidy.contains("  clause \"x\"\n"),
        "{tidy}"
    );
    // By its text: a `from` line and a rule block, no scenario.
    let o = arbiter(&["fmt", "-"], &dir, Some(MESSY_DEF));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&o.stdout), tidy);
    let o = arbiter(&["fmt", "--stdin", "--check"], &dir, Some(&tidy));
    assert_eq!(o.status.code(), Some(0));
    let o = arbiter(&["fmt", "--stdin", "--check"], &dir, Some(MESSY_DEF));
    assert_eq!(o.status.code(), Some(1));
    // A scenario file stays one, though it starts with `variant` too.
    let o = arbiter(&["fmt", "-"], &dir, Some(MESSY));
    assert_eq!(String::from_utf8_lossy(&o.stdout), TIDY);
    // `--def` is about standard input only.
    let o = arbiter(&["fmt", "--def", "scenarios"], &dir, None);
    assert_eq!(o.status.code(), Some(2));
    assert!(TIDY_DEF.starts_with("variant tiny\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fmt_check_of_a_folder_covers_its_definitions() {
    let dir = scratch("check-def");
    std::fs::write(dir.join("scenarios/sub/tiny.def"), MESSY_DEF).unwrap();
    std::fs::write(dir.join("scenarios/tidy.scn"), TIDY).unwrap();
    let o = arbiter(&["fmt", "--check", "."], &dir, None);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "./scenarios/sub/tiny.def\n"
    );
    let o = arbiter(&["fmt", "."], &dir, None);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = arbiter(&["fmt", "--check", "."], &dir, None);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "");
    let _ = std::fs::remove_dir_all(&dir);
}
