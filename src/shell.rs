//! Commands as a user types them into a shell: a path shown in a suggested command
//! (`arbiter rules ./septet.def`) is relative to the current folder when it lies below it,
//! and quoted when the shell would split or expand it.

use std::path::Path;

/// `path` as a command line names it from the current folder: `./x.def` below it (a bare
/// `x.def` could name a bundled definition), the path as it is elsewhere, quoted for a POSIX
/// shell when it holds anything but letters, digits and `/._-+:@%,=`.
pub fn typed(path: &Path) -> String {
    // `tests/./x.def` (a relative `variant` read beside its scenario) is `tests/x.def`.
    let path: std::path::PathBuf = path
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect();
    let path = path.as_path();
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(&cwd).ok().map(Path::to_path_buf))
        .filter(|r| !r.as_os_str().is_empty());
    let shown = match relative {
        Some(r) => format!("./{}", r.to_string_lossy()),
        None if path.is_relative() && !path.starts_with("..") => {
            format!("./{}", path.to_string_lossy())
        }
        None => path.to_string_lossy().into_owned(),
    };
    quote(&shown)
}

/// A word quoted for a POSIX shell when it needs it: `'it'\''s'`.
pub fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@%,=".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_shown_as_typed() {
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(typed(&cwd.join("septet.def")), "./septet.def");
        assert_eq!(typed(&cwd.join("a/b.scn")), "./a/b.scn");
        assert_eq!(typed(Path::new("septet.def")), "./septet.def");
        assert_eq!(typed(Path::new("tests/./septet.def")), "./tests/septet.def");
        assert_eq!(typed(Path::new("../x.def")), "../x.def");
        assert_eq!(typed(Path::new("/elsewhere/x.def")), "/elsewhere/x.def");
        assert_eq!(typed(Path::new("/a b/it's.def")), r"'/a b/it'\''s.def'");
        assert_eq!(quote("$(rm)"), "'$(rm)'");
    }
}
