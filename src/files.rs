//! How files are read and found, for every command and the language server: a bounded read
//! that never blocks on a pipe or a device, and the walk of folders for scenario files (and,
//! for `fmt`, definitions), in an order that never depends on the file system. Which paths
//! may be read at all is [`crate::paths`]'s rule.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The largest file read (a scenario, a definition, an INI file): a bound for paths such as
/// `/dev/zero` that never end.
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
            "it is larger than {} MiB, more than any scenario or definition needs",
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
