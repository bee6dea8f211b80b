//! Writing a user's file so that it is never lost: every command that writes one (`fmt`,
//! `check --bless`, `-o` of `check` and `show`) goes through [`SafeFile`].
//!
//! The new text goes to a temporary file in the same folder (`.NAME.arbiter-PID-N.tmp`), which
//! is written, flushed to disk (`fsync`) and then renamed over the file, and the folder is
//! flushed so that the rename itself survives a crash. A reader, a crash, a kill or a full
//! disk therefore sees the old file or the new one, never a mix: on any error the temporary
//! file is removed and the original is as it was.
//!
//! A rename makes a new file, so what belongs to the old one is carried over by hand or
//! refused:
//! - permission bits: copied; the owner and group: copied when allowed (always as root,
//!   otherwise best effort: the new file may then belong to the user who ran arbiter);
//! - a symbolic link: written through, to the file it names (the link stays a link);
//! - hard links (a file with more than one name): a rename would give this name a new file
//!   and leave the other names on the old text, so it is refused unless `--force`, which
//!   makes that split knowingly. Writing in place instead would keep the links but could
//!   leave every name half-written after a crash or a full disk, the very loss this guards
//!   against;
//! - extended attributes, ACLs and security labels are not copied; the new file gets the
//!   folder's defaults.
//!
//! An output that is not a regular file (a terminal, `/dev/null`, a pipe) is written straight
//! to, as a stream has nothing to keep; a block device or a folder is refused.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// How a write may go past a refusal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Force(pub bool);

/// A file being written: created with [`SafeFile::create`], written through [`Write`], and put
/// in place by [`SafeFile::commit`]. Dropped without a commit, it leaves the original alone.
pub struct SafeFile {
    /// The path as the user gave it, for messages.
    shown: PathBuf,
    /// The file the new text replaces (the end of any symbolic links).
    target: PathBuf,
    /// The temporary file, or `None` when writing straight to a stream.
    temp: Option<PathBuf>,
    file: Option<BufWriter<File>>,
    /// Whether a file stood at `target` before.
    existed: bool,
}

/// The largest number of symbolic links followed to a target, as the kernel's own limit.
const MAX_LINKS: usize = 40;

static COUNTER: AtomicU64 = AtomicU64::new(0);

impl SafeFile {
    /// Prepares to replace `path` (or create it). Nothing is changed yet.
    pub fn create(path: &Path, force: Force) -> Result<SafeFile, String> {
        let shown = path.to_path_buf();
        let target = resolve_links(path).map_err(|e| cannot(&shown, &e, false))?;
        let meta = match std::fs::metadata(&target) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(cannot(&shown, &e, false)),
        };
        if let Some(meta) = &meta {
            if meta.is_dir() {
                return Err(format!("cannot write {}: it is a folder", shown.display()));
            }
            if !meta.is_file() {
                return SafeFile::stream(shown, target, meta);
            }
            let links = platform::links(meta);
            if links > 1 && !force.0 {
                return Err(format!(
                    "{} has {links} hard links: replacing it would leave the other names on \
                     the old text, so it is left as it was; give --force to replace this name \
                     only",
                    shown.display()
                ));
            }
        }
        let folder = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "output".into());
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = folder.join(format!(".{name}.arbiter-{}-{n}.tmp", std::process::id()));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        platform::new_file_mode(&mut options, meta.as_ref());
        let file = options
            .open(&temp)
            .map_err(|e| cannot(&shown, &e, meta.is_some()))?;
        let mut safe = SafeFile {
            shown,
            target,
            temp: Some(temp),
            file: Some(BufWriter::new(file)),
            existed: meta.is_some(),
        };
        if let Some(meta) = &meta {
            let file = safe.file.as_ref().expect("just opened").get_ref();
            if let Err(e) = platform::keep_owner_and_mode(file, meta) {
                let message = cannot(&safe.shown, &e, true);
                safe.discard();
                return Err(message);
            }
        }
        Ok(safe)
    }

    /// A character device or a pipe: written to as it is.
    fn stream(
        shown: PathBuf,
        target: PathBuf,
        meta: &std::fs::Metadata,
    ) -> Result<SafeFile, String> {
        if platform::is_block_device(meta) {
            return Err(format!(
                "cannot write {}: it is a block device, not a file",
                shown.display()
            ));
        }
        let file = OpenOptions::new()
            .write(true)
            .open(&target)
            .map_err(|e| cannot(&shown, &e, false))?;
        Ok(SafeFile {
            shown,
            target,
            temp: None,
            file: Some(BufWriter::new(file)),
            existed: false,
        })
    }

    /// The message for a write that failed, saying that the original is as it was.
    pub fn failed(&self, e: &io::Error) -> String {
        cannot(&self.shown, e, self.existed)
    }

    /// Flushes the new text to disk and puts it in place of the original.
    pub fn commit(mut self) -> Result<(), String> {
        let result = self.finish();
        if result.is_err() {
            self.discard();
        }
        result.map_err(|e| self.failed(&e))
    }

    fn finish(&mut self) -> io::Result<()> {
        let file = self.file.take().expect("a SafeFile is committed once");
        let file = file.into_inner().map_err(|e| e.into_error())?;
        let Some(temp) = &self.temp else {
            return Ok(());
        };
        file.sync_all()?;
        drop(file);
        std::fs::rename(temp, &self.target)?;
        self.temp = None;
        // The rename is done and the text is on disk; a folder that cannot be flushed (some
        // file systems refuse) only leaves the rename to the next flush.
        if let Some(folder) = self.target.parent() {
            let folder = if folder.as_os_str().is_empty() {
                Path::new(".")
            } else {
                folder
            };
            if let Ok(f) = File::open(folder) {
                let _ = f.sync_all();
            }
        }
        Ok(())
    }

    fn discard(&mut self) {
        self.file = None;
        if let Some(temp) = self.temp.take() {
            let _ = std::fs::remove_file(temp);
        }
    }
}

impl Write for SafeFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file
            .as_mut()
            .ok_or_else(|| io::Error::other("already committed"))?
            .write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.file.as_mut() {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for SafeFile {
    fn drop(&mut self) {
        self.discard();
    }
}

/// Writes `contents` as the new text of `path` (see the module's notes).
pub fn write_file(path: &Path, contents: &[u8], force: Force) -> Result<(), String> {
    let mut file = SafeFile::create(path, force)?;
    if let Err(e) = file.write_all(contents) {
        return Err(file.failed(&e));
    }
    file.commit()
}

/// Whether two paths name the same file (after symbolic links; by device and inode, so that
/// `a.scn`, `./a.scn` and a hard link to it all match). A path that does not exist matches
/// nothing.
pub fn same_file(a: &Path, b: &Path) -> bool {
    platform::same_file(a, b)
}

/// Refuses an output path that names one of the inputs, unless forced.
pub fn refuse_overwriting_input<'a>(
    output: &Path,
    inputs: impl IntoIterator<Item = &'a Path>,
    force: Force,
) -> Result<(), String> {
    if force.0 {
        return Ok(());
    }
    for input in inputs {
        if same_file(output, input) {
            return Err(format!(
                "-o {} names the input {}: writing there would replace it; write the output \
                 elsewhere, or give --force to replace it",
                output.display(),
                input.display()
            ));
        }
    }
    Ok(())
}

/// The end of a chain of symbolic links, which need not exist yet (a link to a file still to
/// be written).
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(parent) if to.is_relative() => parent.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a row"
    )))
}

fn cannot(path: &Path, e: &io::Error, existed: bool) -> String {
    if existed {
        format!(
            "cannot write {}: {e}; the file is left as it was",
            path.display()
        )
    } else {
        format!("cannot write {}: {e}; nothing was written", path.display())
    }
}

#[cfg(unix)]
mod platform {
    use std::fs::{File, Metadata, OpenOptions};
    use std::io;
    use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
    use std::path::Path;

    pub fn links(meta: &Metadata) -> u64 {
        meta.nlink()
    }

    pub fn is_block_device(meta: &Metadata) -> bool {
        meta.file_type().is_block_device()
    }

    pub fn same_file(a: &Path, b: &Path) -> bool {
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }

    /// A new file gets the usual `0666` less the umask; a replacement starts private and gets
    /// the original's bits once its owner is set.
    pub fn new_file_mode(options: &mut OpenOptions, original: Option<&Metadata>) {
        options.mode(if original.is_some() { 0o600 } else { 0o666 });
    }

    pub fn keep_owner_and_mode(file: &File, original: &Metadata) -> io::Result<()> {
        let now = file.metadata()?;
        if (now.uid(), now.gid()) != (original.uid(), original.gid()) {
            // Root can always give the file back to its owner; another user only to a group
            // of theirs. Failing that the new file is theirs: best effort, not an error.
            let _ = std::os::unix::fs::fchown(file, Some(original.uid()), Some(original.gid()));
        }
        // After the owner: changing the owner clears the set-user-id and set-group-id bits.
        file.set_permissions(std::fs::Permissions::from_mode(original.mode() & 0o7777))
    }
}

#[cfg(not(unix))]
mod platform {
    use std::fs::{File, Metadata, OpenOptions};
    use std::io;
    use std::path::Path;

    pub fn links(_: &Metadata) -> u64 {
        1
    }

    pub fn is_block_device(_: &Metadata) -> bool {
        false
    }

    pub fn same_file(a: &Path, b: &Path) -> bool {
        match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
    }

    pub fn new_file_mode(_: &mut OpenOptions, _: Option<&Metadata>) {}

    pub fn keep_owner_and_mode(file: &File, original: &Metadata) -> io::Result<()> {
        file.set_permissions(original.permissions())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("arbiter-safe-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn entries(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_dropped_write_leaves_the_original_and_no_temporary_file() {
        let d = folder("drop");
        let f = d.join("a.scn");
        std::fs::write(&f, "old").unwrap();
        let mut w = SafeFile::create(&f, Force(false)).unwrap();
        w.write_all(b"new text, never committed").unwrap();
        drop(w);
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "old");
        assert_eq!(entries(&d), ["a.scn"]);
        write_file(&f, b"new", Force(false)).unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "new");
        assert_eq!(entries(&d), ["a.scn"]);
    }

    #[cfg(unix)]
    #[test]
    fn permissions_and_symbolic_links_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let d = folder("keep");
        let f = d.join("real.scn");
        std::fs::write(&f, "old").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o640)).unwrap();
        std::os::unix::fs::symlink("real.scn", d.join("link.scn")).unwrap();
        write_file(&d.join("link.scn"), b"new", Force(false)).unwrap();
        assert!(std::fs::symlink_metadata(d.join("link.scn"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "new");
        let mode = std::fs::metadata(&f).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o640);
        // A dangling link gets its target created.
        std::os::unix::fs::symlink("later.svg", d.join("out.svg")).unwrap();
        write_file(&d.join("out.svg"), b"<svg/>", Force(false)).unwrap();
        assert_eq!(
            std::fs::read_to_string(d.join("later.svg")).unwrap(),
            "<svg/>"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_file_with_hard_links_is_refused_unless_forced() {
        let d = folder("links");
        let f = d.join("a.scn");
        std::fs::write(&f, "old").unwrap();
        std::fs::hard_link(&f, d.join("b.scn")).unwrap();
        let e = write_file(&f, b"new", Force(false)).unwrap_err();
        assert!(e.contains("2 hard links") && e.contains("--force"), "{e}");
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "old");
        assert!(same_file(&f, &d.join("b.scn")));
        write_file(&f, b"new", Force(true)).unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "new");
        assert_eq!(std::fs::read_to_string(d.join("b.scn")).unwrap(), "old");
    }

    #[test]
    fn streams_are_written_straight_and_folders_refused() {
        #[cfg(unix)]
        write_file(Path::new("/dev/null"), b"x", Force(false)).unwrap();
        let d = folder("dir");
        let e = write_file(&d, b"x", Force(false)).unwrap_err();
        assert!(e.contains("it is a folder"), "{e}");
    }

    #[test]
    fn an_output_naming_an_input_is_refused_by_inode() {
        let d = folder("same");
        let f = d.join("a.scn");
        std::fs::write(&f, "x").unwrap();
        let spelled = d.join(".").join("a.scn");
        let e = refuse_overwriting_input(&spelled, [f.as_path()], Force(false)).unwrap_err();
        assert!(e.contains("names the input"), "{e}");
        assert!(refuse_overwriting_input(&spelled, [f.as_path()], Force(true)).is_ok());
        assert!(refuse_overwriting_input(&d.join("b.scn"), [f.as_path()], Force(false)).is_ok());
    }
}
