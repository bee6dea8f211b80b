//! Where definitions come from: the bundled ones (the top-level `variants/` folder, compiled
//! into the binary) by name, or a file by path. A definition is parsed once per run and kept
//! ([`crate::rules::defined::register`]).

use std::path::Path;

use super::Definition;
use crate::rules::Variant;

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
    // `chess.def` names the bundled definition when no such file is here: the built-in
    // `chess` keeps the plain name.
    if let Some(stem) = spec.strip_suffix(".def") {
        if !path.exists() && !stem.contains(['/', '\\']) {
            if let Some(text) = bundled(stem) {
                return Ok((spec.to_string(), text.to_string()));
            }
        }
    }
    let bytes = crate::scenario::coverage::read_bounded(path)
        .map_err(|e| format!("cannot read {}: {e}", crate::text::path(path)))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{} is not UTF-8 text", crate::text::path(path)))?;
    Ok((spec.to_string(), text))
}

/// The variant a scenario file at `scenario` names by `spec`: a relative path is read from the
/// scenario's folder, not the current one, so a scenario and its definition move together. A
/// bare `name.def` with no such file beside the scenario keeps naming the bundled definition.
pub fn beside(spec: &str, scenario: &Path) -> String {
    let relative = Path::new(spec);
    if !is_path(spec) || relative.is_absolute() {
        return spec.to_string();
    }
    let Some(folder) = scenario.parent().filter(|f| !f.as_os_str().is_empty()) else {
        return spec.to_string();
    };
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

/// The variant a bundled name or a path stands for, read and registered for the run.
pub fn variant(spec: &str) -> Result<Variant, String> {
    crate::rules::defined::register(load(spec)?)
}
