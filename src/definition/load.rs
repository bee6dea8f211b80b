//! Where definitions come from: the bundled ones (the top-level `variants/` folder, compiled
//! into the binary) by name, or a file by path. The engine registers what is read here
//! ([`crate::rules::defined::load`]).

use std::path::Path;

use super::Definition;

include!(concat!(env!("OUT_DIR"), "/bundled_variants.rs"));

/// The text of the bundled definition `name`.
pub fn bundled(name: &str) -> Option<&'static str> {
    BUNDLED
        .binary_search_by(|(n, _)| (*n).cmp(name))
        .ok()
        .map(|i| BUNDLED[i].1)
}

/// The names of the bundled definitions, sorted.
pub fn bundled_names() -> impl Iterator<Item = &'static str> {
    BUNDLED.iter().map(|(n, _)| *n)
}

/// Whether a variant argument names a file rather than a variant: it has a folder separator,
/// ends in `.def`, or names a section of an INI file (`variants.ini:name`).
pub fn is_path(spec: &str) -> bool {
    spec.contains('/')
        || spec.contains('\\')
        || spec.ends_with(".def")
        || super::ini::spec(spec).is_some()
}

/// The text a name or path stands for, with the name its errors are reported under.
pub fn source(spec: &str) -> Result<(String, String), String> {
    if !is_path(spec) {
        return bundled(spec)
            .map(|text| (spec.to_string(), text.to_string()))
            .ok_or_else(|| {
                format!(
                    "no bundled definition `{spec}`{}",
                    crate::suggest::did_you_mean(spec, bundled_names())
                )
            });
    }
    let path = Path::new(spec);
    if names_bundled(spec) {
        if let Some(text) = spec.strip_suffix(".def").and_then(bundled) {
            return Ok((spec.to_string(), text.to_string()));
        }
    }
    crate::paths::definition_file(path, crate::paths::Kind::Definition)?;
    let bytes = crate::files::read_bounded(path)
        .map_err(|e| format!("cannot read {}: {e}", crate::text::path(path)))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{} is not UTF-8 text", crate::text::path(path)))?;
    Ok((spec.to_string(), text))
}

/// Whether `spec` is a bare `name.def` that names a bundled definition: `chess.def` does when
/// no such file is here (the built-in `chess` keeps the plain name).
fn names_bundled(spec: &str) -> bool {
    spec.strip_suffix(".def").is_some_and(|stem| {
        !stem.contains(['/', '\\']) && bundled(stem).is_some() && !Path::new(spec).exists()
    })
}

/// The variant the file at `naming` (a scenario, or a definition's `from`) names by `spec`: a
/// relative path is read from that file's folder, not the current one, so a file and its
/// definition move together. A bare `name.def` with no such file beside it keeps naming the
/// bundled definition. A path is refused, unread, where [`crate::paths::named_by`] refuses it:
/// outside the project, in a system folder, not a `*.def` (`*.ini`) file.
pub fn beside(spec: &str, naming: &Path) -> Result<String, String> {
    if !is_path(spec) {
        return Ok(spec.to_string());
    }
    let resolved = joined(spec, naming);
    let (file, kind) = match super::ini::spec(&resolved) {
        Some((file, _)) => (file, crate::paths::Kind::Ini),
        None if names_bundled(&resolved) => return Ok(resolved),
        None => (resolved.as_str(), crate::paths::Kind::Definition),
    };
    crate::paths::named_by(Path::new(file), naming, kind)?;
    Ok(resolved)
}

/// `spec` read from the folder of `naming`.
fn joined(spec: &str, naming: &Path) -> String {
    let relative = Path::new(spec);
    if relative.is_absolute() {
        return spec.to_string();
    }
    let Some(folder) = naming.parent().filter(|f| !f.as_os_str().is_empty()) else {
        return spec.to_string();
    };
    // `./x.def` beside `games/a.scn` is `games/x.def`, as messages name it (a `..` stays: it
    // may pass through a link).
    let relative = relative.strip_prefix(".").unwrap_or(relative);
    let joined = folder.join(relative);
    // `variants.ini:name` is found by its file's part.
    let file_exists = super::ini::spec(spec).is_some_and(|(file, _)| folder.join(file).exists());
    if joined.exists() || file_exists || spec.contains(['/', '\\']) {
        joined.to_string_lossy().into_owned()
    } else {
        spec.to_string()
    }
}

/// Reads and resolves the definition a name or path stands for; the error is every problem
/// found, rendered with its file, line and column.
pub fn load(spec: &str) -> Result<Definition, String> {
    if super::ini::spec(spec).is_some() {
        return super::ini::load(spec);
    }
    let (name, text) = source(spec)?;
    super::parse(&name, &text, &source).map_err(|e| {
        let n = e.errors.len();
        format!(
            "the definition {} cannot be used ({}):\n{e}",
            crate::text::path(Path::new(&name)),
            crate::text::count(n, "error")
        )
    })
}
