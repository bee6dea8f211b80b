//! Docs that run: every example of `README.md` and `docs/*.md` is run and what it prints is
//! compared with what the page shows, so that the docs cannot drift from the program.
//!
//! The conventions, for whoever writes the docs:
//! - An **example** is a fenced block with a line starting `$ ` whose command runs `arbiter`.
//!   Each `$ ` line is a command (a line ending in `\` goes on on the next); the lines after
//!   it, up to the next `$ ` line, are what it prints: standard output and standard error
//!   together, as a terminal shows them. A line holding only `...` (indented or not) stands for
//!   any number of lines, so a page may show the lines that matter; a `...` within a line
//!   stands for any part of it (a time: `1283 nodes in ... s`).
//! - It runs under `bash`, in a new temporary folder holding the document's files (below) and
//!   links to the repository's `scenarios`, `tests` and `variants` folders, with `arbiter` on
//!   the `PATH` as the binary these tests build. Its exit statuses are compared too.
//! - HTML comments on the lines right above the fence say more, one a line:
//!   - `<!-- not run: REASON -->`: the example is not run (a long search, a tool the tests
//!     cannot count on); the reason is for the reader of the page's source;
//!   - `<!-- exit: N -->`: the exit status of its commands, one number each or one for all
//!     (without it, every command must exit with 0);
//!   - `<!-- setup: COMMAND -->`: run first, in the same folder, and it must succeed (a file an
//!     example reads that another command writes).
//! - A **file** an example needs: the fenced block right below `<!-- file: NAME -->` is saved as
//!   `NAME` for every example of the same page; a file the reader need not see is given whole
//!   in a comment, `<!-- file: NAME` on one line, its text, then `-->` alone on a line.
//! - Nothing of the output is normalised but the temporary folder's path (written `$TMP`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One example of a page.
#[derive(Debug)]
struct Example {
    /// `README.md:130`: the page and the line of its first command.
    at: String,
    commands: Vec<(String, Vec<String>)>,
    exits: Vec<i32>,
    setup: Vec<String>,
}

/// A page's examples and files.
#[derive(Debug, Default)]
struct Page {
    examples: Vec<Example>,
    files: BTreeMap<String, String>,
    not_run: usize,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The directive of an HTML comment line, `<!-- key: value -->`.
fn directive(line: &str) -> Option<(&str, &str)> {
    let inner = line
        .trim()
        .strip_prefix("<!--")?
        .strip_suffix("-->")?
        .trim();
    let (key, value) = inner.split_once(':')?;
    Some((key.trim(), value.trim()))
}

fn read_page(name: &str, text: &str) -> Page {
    let lines: Vec<&str> = text.lines().collect();
    let mut page = Page::default();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        // A file given whole in a comment.
        if let Some(name) = line
            .trim()
            .strip_prefix("<!-- file:")
            .filter(|rest| !rest.contains("-->"))
        {
            let mut body = String::new();
            i += 1;
            while i < lines.len() && lines[i].trim() != "-->" {
                body.push_str(lines[i]);
                body.push('\n');
                i += 1;
            }
            assert!(i < lines.len(), "{name}: the file comment is never closed");
            page.files.insert(name.trim().to_string(), body);
            i += 1;
            continue;
        }
        if !line.starts_with("```") {
            i += 1;
            continue;
        }
        // The comments right above the fence.
        let mut notes: Vec<(&str, &str)> = Vec::new();
        let mut k = i;
        while k > 0 {
            match directive(lines[k - 1]) {
                Some(d) => notes.push(d),
                None => break,
            }
            k -= 1;
        }
        let fence_line = i + 1;
        let mut body = Vec::new();
        i += 1;
        while i < lines.len() && !lines[i].starts_with("```") {
            body.push(lines[i]);
            i += 1;
        }
        i += 1;
        if let Some((_, file)) = notes.iter().find(|(k, _)| *k == "file") {
            let mut text = body.join("\n");
            text.push('\n');
            page.files.insert(file.to_string(), text);
            continue;
        }
        let first = body.iter().position(|l| l.starts_with("$ "));
        let Some(first) = first else { continue };
        if !body
            .iter()
            .any(|l| l.starts_with("$ ") && l.contains("arbiter"))
        {
            continue;
        }
        if notes.iter().any(|(k, _)| *k == "not run") {
            page.not_run += 1;
            continue;
        }
        let mut commands: Vec<(String, Vec<String>)> = Vec::new();
        let mut j = first;
        while j < body.len() {
            let mut command = body[j][2..].to_string();
            while command.ends_with('\\') && j + 1 < body.len() {
                command.pop();
                j += 1;
                command.push_str(body[j]);
            }
            j += 1;
            let mut shown = Vec::new();
            while j < body.len() && !body[j].starts_with("$ ") {
                shown.push(body[j].to_string());
                j += 1;
            }
            commands.push((command, shown));
        }
        let exits: Vec<i32> = match notes.iter().find(|(k, _)| *k == "exit") {
            Some((_, v)) => v
                .split_whitespace()
                .map(|n| n.parse().expect("`exit:` takes numbers"))
                .collect(),
            None => vec![0],
        };
        assert!(
            exits.len() == 1 || exits.len() == commands.len(),
            "{name}:{fence_line}: `exit:` gives one status, or one per command"
        );
        let setup = notes
            .iter()
            .rev()
            .filter(|(k, _)| *k == "setup")
            .map(|(_, v)| v.to_string())
            .collect();
        page.examples.push(Example {
            at: format!("{name}:{}", fence_line + first + 1),
            commands,
            exits,
            setup,
        });
    }
    page
}

/// Whether `found` is what the page shows, `...` standing for any lines.
fn matches(shown: &[String], found: &[&str]) -> bool {
    match shown.split_first() {
        None => found.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=found.len()).any(|skip| matches(rest, &found[skip..]))
        }
        Some((first, rest)) => {
            found.first().is_some_and(|f| line_matches(first, f)) && matches(rest, &found[1..])
        }
    }
}

/// Whether a line is what the page shows, a `...` inside the shown line standing for any text.
fn line_matches(shown: &str, found: &str) -> bool {
    let (shown, found) = (shown.trim_end(), found.trim_end());
    let parts: Vec<&str> = shown.split("...").collect();
    if parts.len() == 1 {
        return shown == found;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !found.starts_with(first) || found.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &found[first.len()..found.len() - last.len()];
    if !found.ends_with(last) {
        return false;
    }
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// The folder an example runs in: the page's files and links to the repository's folders.
fn folder(page: &Page, n: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "arbiter-docs-{}-{n}-{:x}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in &page.files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(path, text).unwrap();
    }
    #[cfg(unix)]
    for linked in ["scenarios", "tests", "variants"] {
        std::os::unix::fs::symlink(root().join(linked), dir.join(linked)).unwrap();
    }
    dir
}

fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_arbiter"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Runs one command in `dir`: its output (both streams, in the order written) and status.
fn run(dir: &Path, command: &str) -> (String, i32) {
    let path = format!(
        "{}:{}",
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("{{ {command}\n}} 2>&1"))
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("CI")
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("bash runs");
    let text = String::from_utf8_lossy(&out.stdout).replace(&*dir.to_string_lossy(), "$TMP");
    (text, out.status.code().unwrap_or(-1))
}

/// The pages with examples.
fn pages() -> Vec<(String, String)> {
    let mut names = vec![PathBuf::from("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| Path::new("docs").join(p.file_name().unwrap()))
        .collect();
    docs.sort();
    names.extend(docs);
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(root().join(&n)).unwrap();
            (n.to_string_lossy().into_owned(), text)
        })
        .collect()
}

#[cfg(unix)]
#[test]
fn every_example_of_the_docs_prints_what_the_docs_show() {
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut n = 0;
    for (name, text) in pages() {
        let page = read_page(&name, &text);
        for example in &page.examples {
            n += 1;
            let dir = folder(&page, n);
            for setup in &example.setup {
                let (out, status) = run(&dir, setup);
                assert_eq!(
                    status, 0,
                    "{}: the setup `{setup}` fails:\n{out}",
                    example.at
                );
            }
            for (k, (command, shown)) in example.commands.iter().enumerate() {
                ran += 1;
                let want = example.exits[k.min(example.exits.len() - 1)];
                let (out, status) = run(&dir, command);
                let found: Vec<&str> = out.lines().collect();
                if !matches(shown, &found) || status != want {
                    failures.push(format!(
                        "{}: `$ {command}`\n--- the page shows (exit {want}):\n{}\n--- it prints (exit {status}):\n{out}",
                        example.at,
                        shown.join("\n"),
                    ));
                }
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} commands of the docs' examples print something else:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    // The README and the tutorial have a dozen examples between them; none found means the
    // reading of the pages broke, not that they are right.
    assert!(ran >= 10, "only {ran} example commands found");
}

#[test]
fn the_example_reader_follows_the_conventions() {
    let page = read_page(
        "p.md",
        "<!-- file: a.scn -->\n```\nvariant chess\n```\n\n<!-- file: hidden.def\nvariant x\n-->\n\
         <!-- exit: 1 -->\n```console\n$ arbiter check a.scn\nok\n...\n$ arbiter check \\\n  b.scn\n```\n\
         <!-- not run: too long -->\n```\n$ arbiter perft chess 9\n```\n```\ncargo build\n```\n",
    );
    assert_eq!(page.files["a.scn"], "variant chess\n");
    assert_eq!(page.files["hidden.def"], "variant x\n");
    assert_eq!(page.not_run, 1);
    assert_eq!(page.examples.len(), 1);
    let e = &page.examples[0];
    assert_eq!(e.at, "p.md:11");
    assert_eq!(e.exits, [1]);
    assert_eq!(e.commands[0].0, "arbiter check a.scn");
    assert_eq!(e.commands[0].1, ["ok", "..."]);
    assert_eq!(e.commands[1].0, "arbiter check   b.scn");
    let lines = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&lines(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(matches(&lines(&["a", "..."]), &["a"]));
    assert!(!matches(&lines(&["a", "...", "d"]), &["a", "b"]));
    assert!(!matches(&lines(&["a"]), &["a", "b"]));
    assert!(line_matches(
        "12 nodes in ... s: ... per second",
        "12 nodes in 0.1 s: 3.2 per second"
    ));
    assert!(!line_matches("12 nodes in ... s", "13 nodes in 0.1 s"));
    assert!(!line_matches("ab...ba", "aba"));
}
