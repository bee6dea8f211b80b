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
    tools();
}

/// The editors the tests drive, found on `PATH` now: a test of a missing one is ignored (with
/// its reason), never passed, except in CI (`CI` set), where it runs and fails without it.
/// Each `cfg(missing_<tool>)` is set only outside CI for a tool that is not found. A tool
/// installed later is seen at the next change of `PATH` or of this script (until then its
/// test stays ignored, never passed); one removed later fails its test.
/// The tools [`tools`] looks for.
const TOOLS: &[&str] = &["nvim"];

fn tools() {
    println!("cargo:rerun-if-env-changed=PATH");
    println!("cargo:rerun-if-env-changed=CI");
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    let path = std::env::var_os("PATH").unwrap_or_default();
    for tool in TOOLS {
        println!("cargo:rustc-check-cfg=cfg(missing_{tool})");
        let found = std::env::split_paths(&path).any(|dir| dir.join(tool).is_file());
        if !found && !ci {
            println!("cargo:rustc-cfg=missing_{tool}");
        }
    }
}
