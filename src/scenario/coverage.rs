//! Which scenario files there are, and which rule ids and option values their scenarios
//! exercise.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::ast::{OptionSetting, Scenario, StatementKind};
use super::parse::parse_file;
use crate::rules::Rules;

/// The largest scenario file read: a bound for paths such as `/dev/zero` that never end.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Reads a regular file of at most [`MAX_FILE_BYTES`]. Anything else (a named pipe, a device)
/// is refused rather than read: a pipe with no writer would block for ever, a device may never
/// end.
pub fn read_bounded(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // Opening a pipe that has no writer blocks; without blocking, the kind is checked first.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path)?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(std::io::Error::other(format!(
            "it is {}, not a regular file",
            not_regular(&kind)
        )));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::other(format!(
            "it is larger than {} MiB, more than any scenario file needs",
            MAX_FILE_BYTES >> 20
        )));
    }
    Ok(bytes)
}

/// What a file that is not a regular file is, for messages: "a named pipe".
pub fn not_regular(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "not a file"
    }
}

/// The `*.scn` files under some paths, and the `*.scn` entries of their folders that were
/// passed over because they are not regular files (named pipes, devices), each with why.
#[derive(Debug, Default)]
pub struct Found {
    pub files: Vec<PathBuf>,
    pub skipped: Vec<String>,
}

/// Every `*.scn` file under the paths, sorted, so output order never depends on the file system.
/// A folder reached twice (through a symbolic link) is read once, so link cycles end. In a
/// folder, only regular files are taken (what else is named `*.scn` is listed in
/// [`Found::skipped`]); a path named on its own is taken as it is, and reading it says what is
/// wrong with it.
pub fn scenario_files(paths: &[PathBuf]) -> Result<Found, String> {
    files_with(paths, &["scn"])
}

/// [`scenario_files`] for files of any of these extensions (`fmt` takes `scn` and `def`).
pub fn files_with(paths: &[PathBuf], extensions: &[&str]) -> Result<Found, String> {
    fn walk(
        dir: &Path,
        extensions: &[&str],
        seen: &mut BTreeSet<PathBuf>,
        found: &mut Found,
    ) -> Result<(), String> {
        let cannot = |e: std::io::Error| format!("cannot read {}: {e}", crate::text::path(dir));
        if !seen.insert(std::fs::canonicalize(dir).map_err(cannot)?) {
            return Ok(());
        }
        // Visit the entries in name order, so that the walk itself never depends on the file
        // system's order either.
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(cannot)? {
            entries.push(entry.map_err(cannot)?.path());
        }
        entries.sort();
        for path in entries {
            // Through symbolic links; a broken one is taken, and reading it says so.
            let meta = std::fs::metadata(&path);
            if meta.as_ref().is_ok_and(|m| m.is_dir()) {
                walk(&path, extensions, seen, found)?;
            } else if path
                .extension()
                .is_some_and(|e| extensions.iter().any(|x| e == *x))
            {
                match meta {
                    Ok(m) if !m.is_file() => found.skipped.push(format!(
                        "skipped {}: it is {}, not a regular file",
                        path.display(),
                        not_regular(&m.file_type())
                    )),
                    // A link named `x.scn` may lead anywhere.
                    // A link named `x.scn` may lead anywhere; `fmt` walks for `x.def` too.
                    _ => match match path.extension().is_some_and(|e| e == "def") {
                        true => {
                            crate::paths::definition_file(&path, crate::paths::Kind::Definition)
                                .map(|_| ())
                        }
                        false => crate::paths::scenario_file(&path, true),
                    } {
                        Ok(()) => found.files.push(path),
                        Err(why) => found.skipped.push(why),
                    },
                }
            }
        }
        Ok(())
    }
    let mut found = Found::default();
    let mut seen = BTreeSet::new();
    for p in paths {
        if p.is_dir() {
            walk(p, extensions, &mut seen, &mut found)?;
        } else if p.exists() {
            found.files.push(p.clone());
        } else {
            return Err(format!("{} does not exist", crate::text::path(p)));
        }
    }
    found.files.sort();
    found.files.dedup();
    Ok(found)
}

/// What `arbiter rules --coverage` found under its paths.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Per rule id, how many scenarios of the variant name it in a `rule` line.
    pub counts: BTreeMap<String, usize>,
    /// Per option and value, how many scenarios play a turn or check an expectation under
    /// that value (pinned in the file or the scenario, or the default where nothing pins it).
    pub option_values: BTreeMap<(String, String), usize>,
    /// The scenarios of the variant that were read.
    pub scenarios: usize,
    /// What was read but not counted, and why (other variants, unreadable or broken files).
    pub notes: Vec<String>,
}

/// How many scenarios of this variant under the paths name each rule id in a `rule` line.
pub fn rule_coverage<R: Rules>(paths: &[PathBuf]) -> Result<Coverage, String> {
    let mut coverage = Coverage::default();
    let mut other_variants: BTreeMap<String, usize> = BTreeMap::new();
    let found = scenario_files(paths)?;
    coverage.notes.extend(found.skipped);
    for f in found.files {
        let read = read_bounded(&f).and_then(|b| {
            String::from_utf8(b).map_err(|_| std::io::Error::other("it is not UTF-8 text"))
        });
        let src = match read {
            Ok(src) => src,
            Err(e) => {
                coverage.notes.push(format!(
                    "{} not counted: cannot read it: {e}",
                    crate::text::path(&f)
                ));
                continue;
            }
        };
        let file = match parse_file(&src) {
            Ok(file) => file,
            Err(problems) => {
                coverage.notes.push(format!(
                    "{} not counted: it does not parse ({}; `arbiter check` shows them)",
                    crate::text::path(&f),
                    crate::text::count(problems.len(), "problem")
                ));
                continue;
            }
        };
        if file.variant.node != R::name() {
            *other_variants.entry(file.variant.node.clone()).or_insert(0) += 1;
            continue;
        }
        for s in &file.scenarios {
            coverage.scenarios += 1;
            let mut ids: Vec<&str> = s
                .statements
                .iter()
                .filter_map(|st| match &st.kind {
                    StatementKind::Rule(ids) => Some(ids),
                    _ => None,
                })
                .flatten()
                .map(|id| id.node.as_str())
                .collect();
            ids.sort();
            ids.dedup();
            for id in ids {
                *coverage.counts.entry(id.to_string()).or_insert(0) += 1;
            }
            for (name, value) in values_in_force::<R>(&file.options, s) {
                *coverage.option_values.entry((name, value)).or_insert(0) += 1;
            }
        }
    }
    for (variant, n) in other_variants {
        coverage.notes.push(format!(
            "{} of variant {variant} not counted",
            crate::text::count(n, "file")
        ));
    }
    Ok(coverage)
}

/// The values of the variant's options under which a scenario plays or expects something: the
/// file's pin or the default, changed by the scenario's own `option` lines as they come.
fn values_in_force<R: Rules>(
    file_options: &[OptionSetting],
    scenario: &Scenario,
) -> BTreeSet<(String, String)> {
    let mut current: BTreeMap<&str, &str> = R::options()
        .iter()
        .map(|o| {
            let pinned = file_options.iter().rev().find(|s| s.name.node == o.name);
            (o.name, pinned.map_or(o.default, |s| s.value.node.as_str()))
        })
        .collect();
    let mut used = BTreeSet::new();
    for st in &scenario.statements {
        match &st.kind {
            StatementKind::Option(s) => {
                if let Some(v) = current.get_mut(s.name.node.as_str()) {
                    *v = s.value.node.as_str();
                }
            }
            StatementKind::Play(_) | StatementKind::Expect(_) => {
                for (name, value) in &current {
                    used.insert((name.to_string(), value.to_string()));
                }
            }
            _ => {}
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::xpanse::Xpanse;

    #[test]
    fn an_option_value_counts_where_a_turn_or_an_expectation_runs_under_it() {
        let src = r#"variant xpanse 4x5
option switch-reach = orthogonal
scenario "a" {
  board { white: Ka1 black: Kd5 }
  option pass-counts = yes
  expect moves count 4
  option pass-counts = no
}
"#;
        let file = parse_file(src).expect("parses");
        let used = values_in_force::<Xpanse>(&file.options, &file.scenarios[0]);
        let has = |o: &str, v: &str| used.contains(&(o.to_string(), v.to_string()));
        assert!(has("switch-reach", "orthogonal") && !has("switch-reach", "adjacent"));
        // Pinned before the expectation: the default is not exercised; pinned after it, the
        // new value is not either.
        assert!(has("pass-counts", "yes") && !has("pass-counts", "no"));
        assert!(has("gatekeeper-lines", "orthogonal"));
    }
}
