//! The definitions read in this run, each compiled once and named by an id
//! ([`Variant::Defined`]), and the way a name or a path becomes one: [`load`] reads and
//! registers it, [`loaded`] again only when a file of its chain changed on disk. The
//! definition language below ([`crate::definition`]) knows nothing of the engine; the engine
//! registers what it reads.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{LazyLock, Mutex, RwLock};

use super::{entry_of, DefId, Entry};
use crate::definition::cache::{chain, Chain};
use crate::definition::Definition;
use crate::rules::Variant;

/// The definitions read in this run. An id never changes meaning: a definition edited and
/// read again (a language server sees each saved version) is a new entry, and the old one
/// stays for whatever still plays it.
struct Registry {
    entries: Vec<&'static Entry>,
    /// Entries by a hash of their definition, so registering the same definition again
    /// (every keystroke in a scenario that names it) costs one lookup, not a scan.
    by_hash: HashMap<u64, Vec<u32>>,
    /// The entry of each name read last.
    by_name: HashMap<String, u32>,
}

static REGISTRY: LazyLock<RwLock<Registry>> = LazyLock::new(|| {
    RwLock::new(Registry {
        entries: Vec::new(),
        by_hash: HashMap::new(),
        by_name: HashMap::new(),
    })
});

fn hash_of(def: &Definition) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    def.hash(&mut h);
    h.finish()
}

/// Keeps a definition for the rest of the run and returns its variant; the same definition
/// registered twice is one variant.
pub fn register(def: Definition) -> Result<Variant, String> {
    let hash = hash_of(&def);
    let found = |r: &Registry| {
        r.by_hash
            .get(&hash)
            .and_then(|ids| ids.iter().find(|&&i| r.entries[i as usize].def == def))
            .copied()
    };
    // The name stands for the version read last: an edit undone is that version again.
    let current = |r: &Registry, i: u32| r.by_name.get(&def.name) == Some(&i);
    {
        let r = REGISTRY.read().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = found(&r).filter(|&i| current(&r, i)) {
            return Ok(Variant::Defined(DefId(i)));
        }
    }
    let mut r = REGISTRY.write().unwrap_or_else(|e| e.into_inner());
    // Another thread may have registered it between the two locks.
    if let Some(i) = found(&r) {
        r.by_name.insert(def.name.clone(), i);
        return Ok(Variant::Defined(DefId(i)));
    }
    let id = u32::try_from(r.entries.len())
        .map_err(|_| "too many definitions in one run".to_string())?;
    let entry: &'static Entry = Box::leak(Box::new(entry_of(def)));
    r.entries.push(entry);
    r.by_hash.entry(hash).or_default().push(id);
    r.by_name.insert(entry.def.name.clone(), id);
    Ok(Variant::Defined(DefId(id)))
}

/// The registered definition `id`.
pub fn entry(id: DefId) -> &'static Entry {
    REGISTRY.read().unwrap_or_else(|e| e.into_inner()).entries[id.0 as usize]
}

/// The definition registered last under `name` (a version read again counts as read last).
pub fn find(name: &str) -> Option<Variant> {
    let r = REGISTRY.read().unwrap_or_else(|e| e.into_inner());
    r.by_name.get(name).map(|&i| Variant::Defined(DefId(i)))
}

/// The variant a bundled name or a path stands for, read and registered for the run; the
/// error is every problem found, rendered with its file, line and column.
pub fn load(spec: &str) -> Result<Variant, String> {
    register(crate::definition::load::load(spec)?)
}

/// At most this many specs are remembered; past that the table starts again.
const MAX_LOADED: usize = 256;

/// Each spec's chain when it was loaded, and its variant.
static LOADED: LazyLock<Mutex<HashMap<String, (Chain, Variant)>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// [`load`], read and registered once while every file of its chain has the size and
/// modification time it had ([`crate::definition::cache`]): the language server asks on every
/// keystroke of a scenario that plays a definition.
pub fn loaded(spec: &str) -> Result<Variant, String> {
    let now = chain(spec);
    let table = || LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((then, v)) = table().get(spec) {
        if *then == now {
            return Ok(*v);
        }
    }
    let v = load(spec)?;
    let mut t = table();
    if t.len() >= MAX_LOADED {
        t.clear();
    }
    t.insert(spec.to_string(), (now, v));
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A definition loaded twice while its files stand is one variant; a parent changed on
    /// disk makes it another.
    #[test]
    fn a_loaded_definition_is_read_again_when_its_parent_changes() {
        let dir = std::env::temp_dir().join(format!("arbiter-registry-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let parent = dir.join("par.def");
        std::fs::write(&parent, "variant par\nfrom chess\ntitle \"a\"\n").unwrap();
        let kid = dir.join("kid.def");
        std::fs::write(&kid, "variant kid\nfrom ./par.def\n").unwrap();
        let spec = kid.to_string_lossy().into_owned();
        let v = loaded(&spec).unwrap();
        assert_eq!(loaded(&spec).unwrap(), v);
        assert_eq!(v.info().game, "a");
        std::fs::write(&parent, "variant par\nfrom chess\ntitle \"bb\"\n").unwrap();
        let changed = loaded(&spec).unwrap();
        assert_ne!(changed, v);
        assert_eq!(changed.info().game, "bb");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
