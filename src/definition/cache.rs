//! Definitions read from disk, kept while their files stay as they are: a definition's text,
//! the chain it inherits (`from`) and the parse trees of inherited texts are read once, then
//! served again for as long as every file of the chain has the size and modification time it
//! had, a look at each file's metadata and no read ([`crate::rules::defined::loaded`] keeps
//! the compiled game on the same stamps). The language server asks on every keystroke of a
//! scenario that plays a definition; `check` once per scenario file.
//!
//! Reading always goes through [`super::load`], so whatever `load` refuses is refused here
//! too; only what it gave before is given again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::SystemTime;

use super::load::{beside, bundled, is_path};
use super::parse::parse_tree;
use super::syntax::File;
use crate::scenario::diagnostic::Problem;

/// What stands on disk at one path: its size and modification time, or nothing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stamp {
    pub path: PathBuf,
    pub found: Option<(u64, Option<SystemTime>)>,
}

impl Stamp {
    /// The stamp of `path` now (its canonical form when it exists).
    pub fn of(path: &Path) -> Stamp {
        match std::fs::metadata(path) {
            Ok(m) if m.is_file() => Stamp {
                path: std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
                found: Some((m.len(), m.modified().ok())),
            },
            _ => Stamp {
                path: path.to_path_buf(),
                found: None,
            },
        }
    }

    /// Its size in bytes (0 when nothing is there).
    pub fn bytes(&self) -> u64 {
        self.found.map_or(0, |(len, _)| len)
    }
}

/// A definition and what it inherits, as they stand: the files, nearest first, and the bytes
/// of every text in the chain (bundled ones included).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chain {
    pub files: Vec<Stamp>,
    pub bytes: u64,
}

/// How many `from` links are followed: one past the resolver's bound, which reports deeper
/// chains itself.
const MAX_LINKS: usize = 17;

/// At most this many entries are kept in each table; past that the oldest half goes.
const MAX_ENTRIES: usize = 256;

/// Texts larger than this are never kept whole (their `from` is still remembered).
pub const MAX_KEPT_BYTES: usize = 2 << 20;

struct Tables {
    /// The `from` value of each file, by its stamp.
    parents: HashMap<Stamp, Option<String>>,
    /// The text each spec's file gave, by its stamp.
    sources: HashMap<Stamp, (String, Arc<str>)>,
    /// Parse trees of inherited texts, by a hash of the text, oldest first.
    trees: Vec<(u64, Arc<str>, Arc<File>)>,
}

static TABLES: LazyLock<Mutex<Tables>> = LazyLock::new(|| {
    Mutex::new(Tables {
        parents: HashMap::new(),
        sources: HashMap::new(),
        trees: Vec::new(),
    })
});

fn tables() -> std::sync::MutexGuard<'static, Tables> {
    TABLES.lock().unwrap_or_else(|e| e.into_inner())
}

fn bound<K, V>(map: &mut HashMap<K, V>) {
    if map.len() >= MAX_ENTRIES {
        map.clear();
    }
}

/// The `from` value of a definition's text, if it has one.
fn from_of(text: &str) -> Option<String> {
    let tree = parse_inherited(text).ok()?;
    let from = tree.statements.iter().find(|s| s.head.text == "from")?;
    Some(from.values.first()?.text.clone())
}

/// The `from` value of the definition file stamped `stamp`, read once per stamp.
fn parent_of_file(stamp: &Stamp) -> Option<String> {
    if let Some(found) = tables().parents.get(stamp) {
        return found.clone();
    }
    let text = crate::files::read_bounded(&stamp.path)
        .ok()
        .and_then(|b| String::from_utf8(b).ok());
    let parent = text.as_deref().and_then(from_of);
    let mut t = tables();
    bound(&mut t.parents);
    t.parents.insert(stamp.clone(), parent.clone());
    parent
}

/// The chain the definition `spec` names stands on now: each file it and its parents are
/// read from, as the resolver finds them (a relative `from` beside the file naming it, a
/// bare `name.def` the bundled one when no such file is there), and their bytes.
pub fn chain(spec: &str) -> Chain {
    let mut chain = Chain::default();
    let mut spec = spec.to_string();
    for _ in 0..MAX_LINKS {
        if let Some((file, _)) = super::ini::spec(&spec) {
            // An INI file's sections inherit inside the file.
            let stamp = Stamp::of(Path::new(file));
            chain.bytes += stamp.bytes();
            chain.files.push(stamp);
            break;
        }
        let bundled_text = if is_path(&spec) {
            spec.strip_suffix(".def")
                .filter(|stem| !stem.contains(['/', '\\']) && !Path::new(&spec).exists())
                .and_then(bundled)
        } else {
            bundled(&spec)
        };
        let (parent, asking) = match bundled_text {
            Some(text) => {
                chain.bytes += text.len() as u64;
                (from_of(text), None)
            }
            None if is_path(&spec) => {
                let stamp = Stamp::of(Path::new(&spec));
                chain.bytes += stamp.bytes();
                // A loop: the resolver reports it.
                let again = chain.files.iter().any(|s| s.path == stamp.path);
                let parent = stamp
                    .found
                    .filter(|_| !again)
                    .and_then(|_| parent_of_file(&stamp));
                chain.files.push(stamp);
                (parent, Some(spec.clone()))
            }
            None => break,
        };
        let Some(parent) = parent else {
            break;
        };
        spec = match asking {
            // A parent the rule on paths refuses is not read: the resolver reports it.
            Some(asking) => match beside(&parent, Path::new(&asking)) {
                Ok(spec) => spec,
                Err(_) => break,
            },
            None => parent,
        };
    }
    chain
}

/// The chain a definition's text inherits: that of its `from` value, read beside `path`
/// (the text's own file) as the resolver reads it; empty without `from`.
pub fn inherited_by(text: &str, path: Option<&Path>) -> Chain {
    match from_of(text) {
        Some(parent) => match path {
            Some(p) => beside(&parent, p).map_or_else(|_| Chain::default(), |spec| chain(&spec)),
            None => chain(&parent),
        },
        None => Chain::default(),
    }
}

/// [`super::load::source`], with a file's text read once while it stays as it is.
pub fn source(spec: &str) -> Result<(String, String), String> {
    let path = Path::new(spec);
    if !is_path(spec) || !path.is_file() {
        return super::load::source(spec);
    }
    let stamp = Stamp::of(path);
    if let Some((name, text)) = tables().sources.get(&stamp) {
        return Ok((name.clone(), text.to_string()));
    }
    let (name, text) = super::load::source(spec)?;
    if text.len() <= MAX_KEPT_BYTES {
        let mut t = tables();
        bound(&mut t.sources);
        t.sources
            .insert(stamp, (name.clone(), Arc::from(text.as_str())));
    }
    Ok((name, text))
}

/// How many parse trees are kept.
const MAX_TREES: usize = 8;

/// [`parse_tree`] of an inherited text, parsed once while the same text comes back: every
/// keystroke in a definition resolves its parents again, and a parent rarely changes.
pub fn parse_inherited(text: &str) -> Result<Arc<File>, Vec<Problem>> {
    if text.len() > MAX_KEPT_BYTES {
        return parse_tree(text).map(Arc::new);
    }
    let hash = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut h);
        h.finish()
    };
    {
        let t = tables();
        if let Some((_, _, tree)) = t
            .trees
            .iter()
            .find(|(h, kept, _)| *h == hash && **kept == *text)
        {
            return Ok(tree.clone());
        }
    }
    let tree = Arc::new(parse_tree(text)?);
    let mut t = tables();
    if t.trees.len() == MAX_TREES {
        t.trees.remove(0);
    }
    t.trees.push((hash, Arc::from(text), tree.clone()));
    Ok(tree)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arbiter-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A chain is every file read, nearest first, with the bytes of every text; a change to a
    /// parent on disk changes the chain (and with it the variant the engine keeps: its
    /// registry's test).
    #[test]
    fn a_chain_follows_from_and_sees_changes() {
        let dir = folder("chain");
        let parent = dir.join("par.def");
        std::fs::write(&parent, "variant par\nfrom chess\ntitle \"a\"\n").unwrap();
        let kid = dir.join("kid.def");
        std::fs::write(&kid, "variant kid\nfrom ./par.def\n").unwrap();
        let spec = kid.to_string_lossy().into_owned();
        let c = chain(&spec);
        assert_eq!(c.files.len(), 2, "{c:?}");
        assert!(c.files[1].path.ends_with("par.def"));
        let chess = bundled("chess").unwrap().len() as u64;
        assert_eq!(
            c.bytes,
            chess + c.files[0].bytes() + c.files[1].bytes(),
            "{c:?}"
        );
        std::fs::write(&parent, "variant par\nfrom chess\ntitle \"bb\"\n").unwrap();
        assert_ne!(chain(&spec), c);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_loop_ends_the_chain() {
        let dir = folder("loop");
        std::fs::write(dir.join("a.def"), "variant a\nfrom ./b.def\n").unwrap();
        std::fs::write(dir.join("b.def"), "variant b\nfrom ./a.def\n").unwrap();
        let c = chain(&dir.join("a.def").to_string_lossy());
        assert!(c.files.len() <= 3, "{c:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn inherited_trees_are_parsed_once() {
        let text = "variant par\nfrom chess\n# a comment\n";
        let a = parse_inherited(text).unwrap();
        let again = String::from(text);
        let b = parse_inherited(&again).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
    }
}
