//! Go to definition: from a rule id or an option in a scenario file to what declares it. For a
//! variant written as a definition, the statement of the `.def` file that declares it (its
//! component, by `id` or by name, or its `option`), following `from` to the definitions it
//! inherits; for a built-in variant, its catalogue page `docs/rules/<variant>.md`, found in a
//! folder above the scenario file (the repository's). A bundled definition is looked for as
//! `variants/<name>.def` in the same way. Inside a definition being edited: from `from`'s
//! value to that file, and from a `when` option, a piece letter or what `without` drops to
//! its declaration, in this text or in a definition it inherits from.

use std::path::{Path, PathBuf};

use lsp_types::{Location, Position, Uri};

use super::documents::Document;
use super::hover::{target_at, Target};
use super::text::{Kind, Lines};
use crate::definition::load::{bundled, is_path};
use crate::definition::parse::parse_tree;
use crate::scenario::ast::Span;

/// How many `from` links are followed: as deep as the resolver goes.
const MAX_DEPTH: usize = 16;

/// What is looked for.
#[derive(Clone, Copy)]
enum Wanted<'a> {
    Rule(&'a str),
    Option(&'a str),
    Piece(char),
}

/// Where the name at `position` is declared, if that can be found.
pub fn definition(doc: &Document, position: Position) -> Option<Location> {
    if doc.kind == Kind::Definition {
        return in_open_definition(doc, position);
    }
    let offset = doc.lines.offset(&doc.text, position);
    let (file, _) = doc.parsed_at(offset)?;
    let wanted = match target_at(&file, offset)?.0 {
        Target::Rule(id) => Wanted::Rule(id),
        Target::Option(name) => Wanted::Option(name),
        _ => return None,
    };
    let folder = doc.path.as_deref().and_then(Path::parent);
    let spec = file.variant.node.as_str();
    let built_in = crate::rules::Variant::ALL.iter().any(|v| v.name() == spec);
    let (path, span) = if built_in {
        in_catalogue(&above(folder?, &format!("docs/rules/{spec}.md"))?, wanted)?
    } else if is_path(spec) && spec.ends_with(".def") {
        let naming = doc.path.as_deref()?;
        crate::paths::named_by(Path::new(spec), naming, crate::paths::Kind::Definition).ok()?;
        in_definition(Path::new(spec), wanted, 0)?
    } else if bundled(spec).is_some() {
        in_definition(&above(folder?, &format!("variants/{spec}.def"))?, wanted, 0)?
    } else {
        return None;
    };
    location(&path, &span)
}

fn location(path: &Path, span: &Span) -> Option<Location> {
    let text = read(path)?;
    let lines = Lines::new(&text);
    let uri: Uri = uri_of(path)?.parse().ok()?;
    Some(Location {
        uri,
        range: lines.range(&text, span),
    })
}

/// In a definition being edited: from an option named by `when`, a piece letter of a setting
/// that names pieces, or what a `without` line drops, to its declaration in this text or in a
/// definition it inherits from; from `from`'s value to that definition.
fn in_open_definition(doc: &Document, position: Position) -> Option<Location> {
    if doc.too_large {
        return None;
    }
    let offset = doc.lines.offset(&doc.text, position);
    let tree = parse_tree(&doc.text).ok()?;
    let holds = |span: &Span| span.start <= offset && offset <= span.end;
    let statement = tree.statements.iter().find(|s| holds(&s.span))?;
    let value_at =
        |s: &'_ crate::definition::syntax::Statement| s.values.iter().position(|v| holds(&v.span));
    let path = doc.path.as_deref();
    let from = || {
        let spec = &tree
            .statements
            .iter()
            .find(|s| s.head.text == "from")?
            .values
            .first()?
            .text;
        parent_file(path?, spec)
    };
    let wanted = match (statement.head.text.as_str(), value_at(statement)) {
        ("from", Some(0)) => return location(&from()?, &(0..0)),
        ("without", Some(i)) => {
            let value = &statement.values[i];
            match (statement.values[0].text.as_str(), i) {
                ("piece", 1) => Wanted::Piece(value.text.chars().next()?),
                ("option", 1) => Wanted::Option(&value.text),
                (_, 0) => Wanted::Rule(&value.text),
                _ => return None,
            }
        }
        (_, Some(_)) => return None,
        (_, None) => {
            let setting = statement
                .block
                .as_ref()?
                .statements
                .iter()
                .find(|s| holds(&s.span))?;
            let i = value_at(setting)?;
            let value = &setting.values[i];
            match setting.head.text.as_str() {
                "when" if i == 0 => Wanted::Option(&value.text),
                name if crate::definition::resolve::names_pieces(name) => {
                    let (letter, _) = super::hover_definition::letter_at(value, offset)?;
                    Wanted::Piece(letter)
                }
                _ => return None,
            }
        }
    };
    // A `without` line names what the parent declares, not this text.
    if statement.head.text != "without" {
        if let Some(span) = declared(&tree, wanted) {
            let uri: Uri = doc.uri.parse().ok()?;
            return Some(Location {
                uri,
                range: doc.lines.range(&doc.text, &span),
            });
        }
    }
    let (path, span) = in_definition(&from()?, wanted, 0)?;
    location(&path, &span)
}

/// The span in a definition's tree of the statement that declares `wanted`, if it does.
fn declared(tree: &crate::definition::syntax::File, wanted: Wanted) -> Option<Span> {
    tree.statements.iter().find_map(|s| {
        let head = s.head.text.as_str();
        let first = s.values.first();
        match wanted {
            Wanted::Option(name) if head == "option" => {
                first.filter(|v| v.text == name).map(|v| v.span.clone())
            }
            Wanted::Piece(letter) if head == "piece" => first
                .filter(|v| v.text.chars().eq(std::iter::once(letter)))
                .map(|v| v.span.clone()),
            Wanted::Rule(id) => {
                let declared = s.block.as_ref().and_then(|b| {
                    b.statements
                        .iter()
                        .find(|st| st.head.text == "id")
                        .and_then(|st| st.values.first())
                });
                match declared {
                    Some(v) if v.text == id => Some(v.span.clone()),
                    None if head == id && s.block.is_some() => Some(s.head.span.clone()),
                    _ => None,
                }
            }
            _ => None,
        }
    })
}

/// A file's text, read as `check` reads files: a regular file of bounded size, never a pipe
/// or a device that would block the server.
fn read(path: &Path) -> Option<String> {
    let bytes = crate::files::read_bounded(path).ok()?;
    String::from_utf8(bytes).ok()
}

/// A definition file's syntax tree, read as [`read`] reads it, when it is small enough to be
/// parsed as you type ([`MAX_LIVE_BYTES`](super::diagnostics::MAX_LIVE_BYTES)): the links of a
/// chain are followed on the main loop.
fn tree_of(path: &Path) -> Option<std::sync::Arc<crate::definition::syntax::File>> {
    let small =
        std::fs::metadata(path).is_ok_and(|m| m.len() <= super::diagnostics::MAX_LIVE_BYTES as u64);
    if !small {
        return None;
    }
    // Parsed once while the text stays the same: every request follows the chain again.
    crate::definition::cache::parse_inherited(&read(path)?).ok()
}

/// The file at `relative` in the nearest folder from `folder` up that has it.
fn above(folder: &Path, relative: &str) -> Option<PathBuf> {
    folder
        .ancestors()
        .map(|f| f.join(relative))
        .find(|p| p.is_file())
}

/// The statement of the definition at `path`, or of one it inherits from, that declares
/// `wanted`.
fn in_definition(path: &Path, wanted: Wanted, depth: usize) -> Option<(PathBuf, Span)> {
    if depth > MAX_DEPTH {
        return None;
    }
    let tree = tree_of(path)?;
    if let Some(span) = declared(&tree, wanted) {
        return Some((path.to_path_buf(), span));
    }
    let parent = tree
        .statements
        .iter()
        .find(|s| s.head.text == "from")?
        .values
        .first()?;
    in_definition(&parent_file(path, &parent.text)?, wanted, depth + 1)
}

/// The files a definition at `path` inherits from, nearest first, as far as they read.
pub fn inherited(path: &Path) -> Vec<PathBuf> {
    let mut chain = Vec::new();
    let mut at = path.to_path_buf();
    while chain.len() < MAX_DEPTH {
        let Some(parent) = tree_of(&at).and_then(|tree| {
            let from = tree.statements.iter().find(|s| s.head.text == "from")?;
            parent_file(&at, &from.values.first()?.text)
        }) else {
            break;
        };
        chain.push(parent.clone());
        at = parent;
    }
    chain
}

/// The file a definition at `path` inherits from by `from parent`.
fn parent_file(path: &Path, parent: &str) -> Option<PathBuf> {
    if is_path(parent) {
        let beside = path.parent().unwrap_or(Path::new("")).join(parent);
        if beside.is_file() {
            crate::paths::named_by(&beside, path, crate::paths::Kind::Definition).ok()?;
            Some(beside)
        } else {
            // `chess.def` names the bundled definition when no such file is there.
            let stem = parent.strip_suffix(".def")?;
            sibling_bundled(path, stem)
        }
    } else {
        sibling_bundled(path, parent)
    }
}

/// The bundled definition `name` as a file: beside `path` (in `variants/`), or in a
/// `variants/` folder above it.
fn sibling_bundled(path: &Path, name: &str) -> Option<PathBuf> {
    bundled(name)?;
    let folder = path.parent()?;
    let beside = folder.join(format!("{name}.def"));
    if beside.is_file() && folder.ends_with("variants") {
        return Some(beside);
    }
    above(folder, &format!("variants/{name}.def"))
}

/// The line of a catalogue page that declares `wanted`: a rule's heading, an option's row.
fn in_catalogue(path: &Path, wanted: Wanted) -> Option<(PathBuf, Span)> {
    let text = read(path)?;
    let needle = match wanted {
        Wanted::Rule(id) => format!("### `{id}`"),
        Wanted::Option(name) => format!("| `{name}` |"),
        // A built-in game's pieces have no page of their own.
        Wanted::Piece(_) => return None,
    };
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with(&needle) {
            return Some((path.to_path_buf(), at..at + line.trim_end().len()));
        }
        at += line.len();
    }
    None
}

/// A `file:` URI for a path, with the characters URIs do not take as they are escaped.
fn uri_of(path: &Path) -> Option<String> {
    let absolute = std::fs::canonicalize(path).ok()?;
    let text = absolute.to_str()?;
    let mut out = String::from("file://");
    #[cfg(windows)]
    out.push('/');
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            #[cfg(windows)]
            b'\\' => out.push('/'),
            #[cfg(windows)]
            b':' => out.push(':'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_and_options_are_found_in_the_catalogue_pages() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let page = root.join("docs/rules/chess.md");
        let (_, span) = in_catalogue(&page, Wanted::Rule("castling")).unwrap();
        let text = std::fs::read_to_string(&page).unwrap();
        assert_eq!(&text[span.clone()], "### `castling`");
        let lines = Lines::new(&text);
        assert_eq!(lines.range(&text, &span).start.character, 0);
        let (_, span) = in_catalogue(&page, Wanted::Option("repetition-draw")).unwrap();
        assert!(text[span].starts_with("| `repetition-draw` |"));
        assert!(in_catalogue(&page, Wanted::Rule("no-such-rule")).is_none());
    }

    /// A pipe named as a definition is refused, not read: a read would block the server.
    #[cfg(unix)]
    #[test]
    fn a_pipe_is_never_read() {
        let dir = std::env::temp_dir().join(format!("arbiter-goto-fifo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("pipe.def");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(in_definition(&fifo, Wanted::Rule("castling"), 0).is_none());
        assert!(inherited(&fifo).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn inherited_declarations_are_followed() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let three = root.join("variants/3check.def");
        let (path, _) = in_definition(&three, Wanted::Rule("check-count"), 0).unwrap();
        assert_eq!(path, three);
        // `castling` is chess's, which 3check inherits.
        let (path, span) = in_definition(&three, Wanted::Rule("castling"), 0).unwrap();
        assert!(path.ends_with("variants/chess.def"), "{path:?}");
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(&text[span], "castling");
        assert_eq!(uri_of(Path::new("/")).as_deref(), Some("file:///"));
    }
}
