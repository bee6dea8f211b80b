//! Compiles the bundled definitions of `variants/` into the binary, so that `arbiter perft
//! capablanca 4` works from any folder: one `(name, text)` entry per `variants/NAME.def`.

use std::fmt::Write;
use std::path::Path;

fn main() {
    // Read at run time, not baked in with `env!`: a build script compiled in one checkout and
    // reused from a copied `target/` must still read the checkout it is building.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("variants");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut entries: Vec<(String, String)> = Vec::new();
    if let Ok(read) = std::fs::read_dir(&dir) {
        for e in read.flatten() {
            let path = e.path();
            println!("cargo:rerun-if-changed={}", path.display());
            if path.extension().is_some_and(|x| x == "def") {
                if let Some(stem) = path.file_stem().and_then(|s| s.to_str()) {
                    entries.push((stem.to_string(), path.display().to_string()));
                }
            }
        }
    }
    entries.sort();
    let mut out = String::from("/// The bundled definitions: `(name, text)`, sorted by name.\n");
    out.push_str("pub static BUNDLED: &[(&str, &str)] = &[\n");
    for (name, path) in &entries {
        let _ = writeln!(out, "    ({name:?}, include_str!({path:?})),");
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("bundled_variants.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
