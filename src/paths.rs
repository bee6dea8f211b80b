//! Which files are read: the rule a CI job running `arbiter check` on a pull request's
//! scenarios can trust (`docs/defining-variants.md`, "Where definitions are read").
//!
//! A scenario's `variant`, a definition's `from` and an INI section (`FILE.ini:SECTION`) name a
//! file that anyone who can write the scenario chooses, and so does a link in a folder of
//! scenarios. Read and quoted in an error, such a file reached the job's log: `variant
//! /proc/self/environ` printed the environment, tokens included. So every such path is checked
//! here before it is opened, by its canonical path (links followed):
//!
//! - never a file below `/proc`, `/sys` or `/dev`, as a definition or as a scenario;
//! - only a file named `*.def` (`*.ini` for an INI section) is read as a definition, and in a
//!   folder of scenarios only what leads to a `*.scn` file is read as one;
//! - a definition that a file names (not one typed on the command line) is read only inside
//!   the project: below the folder of the file that names it, below the root of its git
//!   repository (the nearest folder above it holding `.git`), below the working folder, or
//!   below a folder given with `--allow-path`.
//!
//! Anything else is refused without being opened, the refusal naming the path and, where it
//! helps, the flag that widens the rule.

use std::path::{Component, Path, PathBuf};
use std::sync::RwLock;

/// The flag that widens the rule, as refusals name it.
pub const ALLOW_FLAG: &str = "--allow-path";

/// What a definition path names: a definition file, or the INI file of a section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Definition,
    Ini,
}

impl Kind {
    fn extension(self) -> &'static str {
        match self {
            Kind::Definition => "def",
            Kind::Ini => "ini",
        }
    }
}

/// Folders below which a file may name a definition besides its own folder, its repository
/// and the working folder (`--allow-path`).
static ALLOWED: RwLock<Vec<PathBuf>> = RwLock::new(Vec::new());

/// Allows definitions below `folder` (`--allow-path`); an error if it is no folder.
pub fn allow(folder: &Path) -> Result<(), String> {
    let real = std::fs::canonicalize(folder)
        .map_err(|e| format!("{ALLOW_FLAG} {}: {e}", crate::text::path(folder)))?;
    if !real.is_dir() {
        return Err(format!(
            "{ALLOW_FLAG} {}: not a folder",
            crate::text::path(folder)
        ));
    }
    add(real);
    Ok(())
}

fn add(folder: PathBuf) {
    let mut allowed = ALLOWED.write().unwrap_or_else(|e| e.into_inner());
    if !allowed.contains(&folder) {
        allowed.push(folder);
    }
}

/// The system folders, whose files are no scenarios or definitions (the process's environment,
/// devices, kernel settings), whatever the rule allows.
const SYSTEM: &[&str] = &["/proc", "/sys", "/dev"];

/// Refuses a file whose canonical path `real` is in a system folder; `via` says where a link
/// led, and is left out when `path` itself names the system folder.
fn outside_system(path: &Path, real: &Path, via: &str, holds: &str) -> Result<(), String> {
    let Some(system) = SYSTEM.iter().find(|s| real.starts_with(s)) else {
        return Ok(());
    };
    let via = if absolute(path).starts_with(system) {
        ""
    } else {
        via
    };
    Err(format!(
        "{} is not read{via}: {system} holds no {holds}, and nothing there is ever read as one",
        crate::text::path(path)
    ))
}

/// Checks a definition path by what it is, whoever names it: its canonical path is not in a
/// system folder and is named `*.def` (or `*.ini`). Gives the canonical path (or, for a file
/// that does not exist, where it would be).
pub fn definition_file(path: &Path, kind: Kind) -> Result<PathBuf, String> {
    let real = real_path(path);
    let shown = crate::text::path(path);
    let via = leads_to(path, &real);
    outside_system(path, &real, &via, "definitions")?;
    let ext = kind.extension();
    if real.extension().and_then(|e| e.to_str()) != Some(ext) {
        return Err(format!(
            "{shown} is not read{via}: only files named `*.{ext}` are read as {}",
            match kind {
                Kind::Definition => "definitions",
                Kind::Ini => "INI files of variants",
            }
        ));
    }
    Ok(real)
}

/// Checks a definition path that the file `naming` names (a scenario's `variant`, a
/// definition's `from`): as [`definition_file`], and inside the project.
pub fn named_by(path: &Path, naming: &Path, kind: Kind) -> Result<(), String> {
    let real = definition_file(path, kind)?;
    let folder = folder_of(naming);
    let repository = folder.as_deref().and_then(repository_above);
    let working = std::env::current_dir()
        .ok()
        .and_then(|d| std::fs::canonicalize(d).ok());
    let allowed = ALLOWED.read().unwrap_or_else(|e| e.into_inner());
    let inside = folder
        .iter()
        .chain(repository.iter())
        .chain(working.iter())
        .chain(allowed.iter())
        .any(|root| real.starts_with(root));
    if inside {
        return Ok(());
    }
    let via = leads_to(path, &real);
    let repository = match &repository {
        Some(root) => format!(", its repository {}", crate::text::path(root)),
        None => String::new(),
    };
    Err(format!(
        "{} is not read{via}: a definition that a file names is read only inside the project \
         (below the folder of {}{repository}, or the working folder); `{ALLOW_FLAG} DIR` reads \
         below DIR too",
        crate::text::path(path),
        crate::text::path(naming)
    ))
}

/// Checks a file typed on the command line that is read as `holds` (`arbiter import FILE`):
/// wherever the user names it, but never in a system folder.
pub fn typed_file(path: &Path, holds: &str) -> Result<(), String> {
    let real = real_path(path);
    outside_system(path, &real, &leads_to(path, &real), holds)
}

/// The canonical folder of a file (of the file a link leads to).
fn folder_of(file: &Path) -> Option<PathBuf> {
    if let Some(parent) = std::fs::canonicalize(file)
        .ok()
        .and_then(|f| f.parent().map(Path::to_path_buf))
    {
        return Some(parent);
    }
    let folder = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::canonicalize(folder).ok()
}

/// The root of the git repository a folder is in: the nearest folder from it up holding
/// `.git` (a folder, or a file in a worktree).
fn repository_above(folder: &Path) -> Option<PathBuf> {
    folder
        .ancestors()
        .find(|a| a.join(".git").exists())
        .map(Path::to_path_buf)
}

/// Checks a scenario file before it is read: never one in a system folder; in a folder of
/// scenarios (`found_in_folder`), only what leads to a `*.scn` file, as a link named `x.scn`
/// may lead anywhere.
pub fn scenario_file(path: &Path, found_in_folder: bool) -> Result<(), String> {
    let real = real_path(path);
    let via = leads_to(path, &real);
    outside_system(path, &real, &via, "scenarios")?;
    if found_in_folder && real.extension().is_none_or(|e| e != "scn") {
        return Err(format!(
            "{} is not read{via}: in a folder, only `*.scn` files are read as scenarios",
            crate::text::path(path)
        ));
    }
    Ok(())
}

/// Where a path leads when links take it elsewhere, for refusals.
fn leads_to(path: &Path, real: &Path) -> String {
    if real == absolute(path) {
        return String::new();
    }
    format!(" (it leads to {})", crate::text::path(real))
}

/// `path` made absolute against the working folder, `.` and `..` taken away as written.
fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The canonical path of `path`, links followed; for a path that does not exist, the canonical
/// path of the nearest folder above it that does, with the rest as written.
fn real_path(path: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    let absolute = absolute(path);
    let mut rest = Vec::new();
    let mut at = absolute.as_path();
    loop {
        if let Ok(real) = std::fs::canonicalize(at) {
            let mut out = real;
            out.extend(rest.iter().rev());
            return out;
        }
        match (at.file_name(), at.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return absolute,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arbiter-paths-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::canonicalize(dir).unwrap()
    }

    #[test]
    fn system_folders_and_other_names_are_refused() {
        for (path, why) in [
            ("/proc/self/environ", "/proc holds no definitions"),
            ("/proc/self/environ.def", "/proc holds no definitions"),
            ("/dev/stdin", "/dev holds no definitions"),
            ("/sys/kernel/x.def", "/sys holds no definitions"),
            ("/etc/passwd", "only files named `*.def`"),
        ] {
            let e = definition_file(Path::new(path), Kind::Definition).unwrap_err();
            assert!(e.contains(why), "{path}: {e}");
            assert!(e.starts_with(path), "{path}: {e}");
        }
        let e = definition_file(Path::new("/etc/x.def"), Kind::Ini).unwrap_err();
        assert!(e.contains("`*.ini`"), "{e}");
    }

    #[test]
    fn a_link_is_judged_by_where_it_leads() {
        let dir = scratch("link");
        let link = dir.join("secret.def");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc/passwd", &link).unwrap();
            let e = definition_file(&link, Kind::Definition).unwrap_err();
            assert!(e.contains("(it leads to /etc/passwd)"), "{e}");
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_named_path_stays_in_the_project() {
        let dir = scratch("project");
        std::fs::create_dir_all(dir.join("repo/.git")).unwrap();
        std::fs::create_dir_all(dir.join("repo/tests")).unwrap();
        std::fs::create_dir_all(dir.join("repo/variants")).unwrap();
        std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
        let scenario = dir.join("repo/tests/a.scn");
        let inside = dir.join("repo/tests/../variants/x.def");
        assert_eq!(named_by(&inside, &scenario, Kind::Definition), Ok(()));
        let outside = dir.join("repo/../elsewhere/x.def");
        let e = named_by(&outside, &scenario, Kind::Definition).unwrap_err();
        assert!(e.contains("only inside the project"), "{e}");
        assert!(e.contains("--allow-path DIR"), "{e}");
        assert!(
            e.contains(&format!("its repository {}", dir.join("repo").display())),
            "{e}"
        );
        // Beside the file that names it, in no repository.
        let loose = dir.join("elsewhere/a.scn");
        assert_eq!(
            named_by(&dir.join("elsewhere/sub/x.def"), &loose, Kind::Definition),
            Ok(())
        );
        allow(&dir.join("elsewhere")).unwrap();
        assert_eq!(named_by(&outside, &scenario, Kind::Definition), Ok(()));
        let e = named_by(&dir.join("x.def"), &loose, Kind::Definition).unwrap_err();
        assert!(!e.contains("its repository"), "{e}");
        assert!(allow(&dir.join("no-such-folder")).is_err());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn paths_are_made_real_as_far_as_they_exist() {
        let dir = scratch("real");
        assert_eq!(real_path(&dir.join("a/../b/c.def")), dir.join("b/c.def"));
        assert_eq!(absolute(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
