//! A path a scenario or a definition names is read only inside the project and only as a
//! definition (`src/paths.rs`, `docs/defining-variants.md`, "Where definitions are read"):
//! `/proc/self/environ`, `/etc/passwd`, a link inside the project to either, and a file not
//! named `*.def` are refused without being read, in every format and in the language server,
//! so a CI job's secrets never reach its log (`../shared/repro/path-disclosure.sh`);
//! `../variants/x.def` from `tests/` in a repository is read, and `--allow-path` widens the rule.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fake token in the environment of every run here: `/proc/self/environ` holds it.
const SECRET: &str = "ghp_FAKE_TOKEN_FOR_THE_TEST_2f1c";

/// A definition that reads: if any refused file below were read as one, the scenario would pass.
const GAME: &str = "variant game\nfrom chess\ntitle \"A game\"\n";

fn fresh(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-confined-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::canonicalize(dir).unwrap()
}

fn arbiter(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(dir)
        .env("ARBITER_TEST_TOKEN", SECRET)
        .env("NO_COLOR", "1")
        .output()
        .expect("arbiter runs")
}

/// Standard output and error together.
fn both(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn scenario(variant: &str) -> String {
    format!("variant {variant}\nscenario \"x\" {{\n  start\n  expect legal e2-e4\n}}\n")
}

#[test]
fn the_reproducer_leaks_nothing_in_any_format() {
    let dir = fresh("repro");
    std::fs::write(dir.join("leak.scn"), scenario("/proc/self/environ")).unwrap();
    for format in ["text", "github", "junit", "json", "html"] {
        let o = arbiter(&dir, &["check", "leak.scn", "--format", format]);
        let out = both(&o);
        assert_eq!(o.status.code(), Some(2), "{format}: {out}");
        assert!(
            !out.contains(SECRET),
            "{format}: the token reached the output"
        );
        assert!(!out.contains("ARBITER_TEST_TOKEN"), "{format}: {out}");
        // The text report wraps its lines.
        if format != "text" {
            assert!(
                out.contains("/proc/self/environ is not read") && out.contains("/proc holds no"),
                "{format}: {out}"
            );
        }
    }
    for args in [
        &["dispute", "leak.scn"][..],
        &["explain", "leak.scn:3"],
        &["show", "leak.scn:3"],
        &["explain", "/proc/self/environ", "e2e4"],
        &["rules", "/proc/self/environ", "--format", "json"],
    ] {
        let o = arbiter(&dir, args);
        let out = both(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {out}");
        assert!(!out.contains(SECRET), "{args:?}: {out}");
        assert!(out.contains("is not read"), "{args:?}: {out}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The same through `from`, a link, an INI section and a folder of scenarios.
#[test]
fn every_way_to_name_the_environment_is_refused() {
    let dir = fresh("ways");
    std::fs::write(
        dir.join("from.def"),
        "variant from\nfrom /proc/self/environ\n",
    )
    .unwrap();
    std::fs::write(dir.join("from.scn"), scenario("./from.def")).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", dir.join("env.def")).unwrap();
    std::fs::write(dir.join("link.scn"), scenario("./env.def")).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", dir.join("env.ini")).unwrap();
    std::fs::write(dir.join("ini.scn"), scenario("./env.ini:chess")).unwrap();
    std::fs::create_dir(dir.join("folder")).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", dir.join("folder/env.scn")).unwrap();
    for (file, says) in [
        ("from.scn", "/proc/self/environ is not read"),
        ("link.scn", "env.def is not read (it leads to /proc/"),
        ("ini.scn", "env.ini is not read (it leads to /proc/"),
        ("folder", "env.scn is not read (it leads to /proc/"),
    ] {
        for format in ["text", "github", "junit", "json", "html"] {
            let o = arbiter(&dir, &["check", file, "--format", format]);
            let out = both(&o);
            assert_eq!(o.status.code(), Some(2), "{file} {format}: {out}");
            assert!(!out.contains(SECRET), "{file} {format}: {out}");
            assert!(
                format == "text" || out.contains(says),
                "{file} {format}: {out}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_definition_in_the_repository_is_read_from_its_tests_folder() {
    let dir = fresh("repository");
    let repo = dir.join("repo");
    for sub in [".git", "tests", "variants"] {
        std::fs::create_dir_all(repo.join(sub)).unwrap();
    }
    std::fs::write(repo.join("variants/x.def"), GAME).unwrap();
    std::fs::write(repo.join("tests/a.scn"), scenario("../variants/x.def")).unwrap();
    // From outside the repository too: its root is found from the scenario.
    for cwd in [&repo, &repo.join("tests"), &dir] {
        let o = arbiter(cwd, &["check", repo.join("tests/a.scn").to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}: {}", cwd.display(), both(&o));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn outside_the_project_and_not_definitions_are_refused_unread() {
    let dir = fresh("refused");
    let project = dir.join("project");
    std::fs::create_dir_all(project.join("tests")).unwrap();
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    std::fs::write(dir.join("elsewhere/x.def"), GAME).unwrap();
    // A good definition under another name: read, it would make the scenario pass.
    std::fs::write(project.join("tests/game.txt"), GAME).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", project.join("tests/passwd.def")).unwrap();
    let cases = [
        ("/proc/self/environ", "/proc holds no definitions"),
        (
            "/etc/passwd",
            "only files named `*.def` are read as definitions",
        ),
        ("/dev/stdin", "/dev holds no definitions"),
        (
            "./passwd.def",
            "passwd.def is not read (it leads to /etc/passwd): only files named `*.def`",
        ),
        (
            "./game.txt",
            "game.txt is not read: only files named `*.def`",
        ),
        (
            "../../elsewhere/x.def",
            "is not read: a definition that a file names is read only inside the project",
        ),
    ];
    for (variant, says) in cases {
        std::fs::write(project.join("tests/a.scn"), scenario(variant)).unwrap();
        for format in ["text", "json"] {
            let o = arbiter(&project, &["check", "tests/a.scn", "--format", format]);
            let out = both(&o);
            assert_eq!(o.status.code(), Some(2), "{variant}: {out}");
            assert!(format == "text" || out.contains(says), "{variant}: {out}");
            assert!(
                !out.contains("root:"),
                "{variant}: /etc/passwd was quoted: {out}"
            );
            assert!(!out.contains(SECRET), "{variant}: {out}");
        }
    }
    // The refusal names the flag that widens the rule, and the flag does.
    let o = arbiter(&project, &["check", "tests/a.scn", "--format", "json"]);
    assert!(
        both(&o).contains("`--allow-path DIR` reads below DIR too"),
        "{}",
        both(&o)
    );
    let elsewhere = dir.join("elsewhere");
    let o = arbiter(
        &project,
        &[
            "--allow-path",
            elsewhere.to_str().unwrap(),
            "check",
            "tests/a.scn",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", both(&o));
    let o = arbiter(
        &project,
        &["check", "tests/a.scn", "--allow-path", "../elsewhere"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", both(&o));
    // It widens where, not what: a link to /etc/passwd stays refused.
    std::fs::write(project.join("tests/a.scn"), scenario("./passwd.def")).unwrap();
    let o = arbiter(&project, &["--allow-path", "/", "check", "tests/a.scn"]);
    assert_eq!(o.status.code(), Some(2), "{}", both(&o));
    assert!(!both(&o).contains("root:"), "{}", both(&o));
    let o = arbiter(
        &project,
        &["--allow-path", "no-such-folder", "check", "tests"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", both(&o));
    assert!(
        both(&o).contains("--allow-path no-such-folder"),
        "{}",
        both(&o)
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A path typed on the command line is the user's own, read where it is; but only as a
/// definition.
#[test]
fn a_definition_on_the_command_line_is_read_where_it_is() {
    let dir = fresh("command-line");
    std::fs::write(dir.join("x.def"), GAME).unwrap();
    let other = fresh("command-line-cwd");
    let def = dir.join("x.def");
    let o = arbiter(&other, &["rules", def.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", both(&o));
    std::fs::write(dir.join("x.txt"), GAME).unwrap();
    let o = arbiter(&other, &["rules", dir.join("x.txt").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", both(&o));
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(other);
}

/// The language server follows the same rule: its diagnostics of a scenario and of a
/// definition never quote a refused file (here the test's own environment, which cargo fills
/// with `CARGO_` variables).
#[test]
fn the_language_server_refuses_the_same_paths() {
    use arbiter::lsp::diagnostics::{definition, live};
    let dir = fresh("lsp");
    std::os::unix::fs::symlink("/proc/self/environ", dir.join("env.def")).unwrap();
    let scn = dir.join("a.scn");
    for variant in ["/proc/self/environ", "./env.def", "/etc/passwd"] {
        let text = scenario(variant);
        let problems = live(&text, Some(&scn)).problems;
        assert_eq!(problems.len(), 1, "{variant}: {problems:?}");
        let message = &problems[0].message;
        assert!(message.contains("is not read"), "{variant}: {message}");
        assert!(
            !message.contains("CARGO_") && !message.contains("root:"),
            "{message}"
        );
    }
    let def = dir.join("mine.def");
    for from in ["/proc/self/environ", "./env.def", "/etc/passwd"] {
        let text = format!("variant mine\nfrom {from}\n");
        let problems = definition(&text, Some(&def));
        assert!(!problems.is_empty(), "{from}");
        for p in &problems {
            assert!(!p.message.contains("CARGO_"), "{from}: {}", p.message);
            assert!(!p.message.contains("root:"), "{from}: {}", p.message);
        }
        assert!(
            problems.iter().any(|p| p.message.contains("is not read")),
            "{from}: {problems:?}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A job line (`perft --job`) may come from elsewhere, a CI artifact say: the definition it
/// names is read under the same rule as a scenario's `variant`, the job file being the file
/// that names it.
#[test]
fn a_job_line_names_a_definition_under_the_same_rule() {
    let dir = fresh("job");
    let elsewhere = dir.join("elsewhere");
    let project = dir.join("project");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    let def = elsewhere.join("x.def");
    std::fs::write(&def, GAME).unwrap();
    let def = def.to_str().unwrap();
    let split = arbiter(&elsewhere, &["perft", def, "2", "--split", "1"]);
    assert_eq!(split.status.code(), Some(0), "{}", both(&split));
    std::fs::write(project.join("jobs.txt"), &split.stdout).unwrap();
    let refused = arbiter(&project, &["perft", "--job", "jobs.txt"]);
    let said = both(&refused);
    assert_eq!(refused.status.code(), Some(2), "{said}");
    assert!(said.contains("x.def is not read"), "{said}");
    assert!(said.contains("--allow-path DIR"), "{said}");
    assert!(refused.stdout.is_empty(), "{said}");
    let allowed = arbiter(
        &project,
        &[
            "--allow-path",
            elsewhere.to_str().unwrap(),
            "perft",
            "--job",
            "jobs.txt",
        ],
    );
    assert_eq!(allowed.status.code(), Some(0), "{}", both(&allowed));
    assert_eq!(String::from_utf8_lossy(&allowed.stdout).lines().count(), 20);
}

/// `arbiter import FILE` reads the file the user types wherever it is, but never one in a
/// system folder: it is refused unread.
#[test]
fn the_import_never_reads_a_system_file() {
    let dir = fresh("import");
    for path in ["/proc/self/environ", "/dev/stdin"] {
        let o = arbiter(&dir, &["import", path]);
        let said = both(&o);
        assert_eq!(o.status.code(), Some(2), "{said}");
        assert!(said.contains(&format!("{path} is not read")), "{said}");
        assert!(said.contains("holds no INI files of variants"), "{said}");
        assert!(!said.contains(SECRET), "{said}");
    }
}
