//! Compiles the bundled definitions of `variants/` into the binary, so that `arbiter perft
//! capablanca 4` works from any folder: one `(name, text)` entry per `variants/NAME.def`; and
//! finds what the tests that need something outside the project need ([`probe_test_needs`]).

use std::fmt::Write;
use std::path::Path;

fn main() {
    probe_test_needs();
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
    man_date(&manifest);
}

/// The date the manual pages carry, fixed at build time so that `arbiter man` writes the same
/// bytes on every run: the day of `SOURCE_DATE_EPOCH` when the build sets it (reproducible
/// builds), else `package.metadata.arbiter.man-date` of Cargo.toml, the day of the release.
fn man_date(manifest: &str) {
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
    let toml = Path::new(manifest).join("Cargo.toml");
    println!("cargo:rerun-if-changed={}", toml.display());
    let from_epoch = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .map(|secs| {
            let (y, m, d) = civil(secs.div_euclid(86_400));
            format!("{y:04}-{m:02}-{d:02}")
        });
    let date = from_epoch.unwrap_or_else(|| {
        let text = std::fs::read_to_string(&toml).unwrap_or_default();
        text.lines()
            .find_map(|l| {
                let v = l
                    .trim()
                    .strip_prefix("man-date")?
                    .trim()
                    .strip_prefix('=')?;
                Some(v.trim().trim_matches('"').to_string())
            })
            .expect("Cargo.toml gives package.metadata.arbiter.man-date")
    });
    println!("cargo:rustc-env=ARBITER_MAN_DATE={date}");
}

/// The calendar date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A test never passes without what it tests: a test that needs a program or files outside
/// the project is compiled `#[ignore]`d, with the reason, where they are missing (a `cfg`
/// this sets: `no_browser`, `no_nvim`, `no_tmpfs`, `no_rule_texts`), so `cargo test` reports
/// it as ignored, never as passed. Under CI (`CI` set, but not to `false` or `0`) the programs
/// `.ci/run` installs (Chromium, Neovim) are never ignored: there a missing one fails its test.
/// What is found is looked for again when `PATH` or `CI` changes, or when a program found goes.
fn probe_test_needs() {
    for name in ["no_browser", "no_nvim", "no_tmpfs", "no_rule_texts"] {
        println!("cargo::rustc-check-cfg=cfg({name})");
    }
    println!("cargo:rerun-if-env-changed=CI");
    println!("cargo:rerun-if-env-changed=PATH");
    // CI installs the programs (`.ci/run`), so there a missing one fails its test. What no
    // script can install (root's right to mount, the authors' texts) is ignored where missing.
    let ci = std::env::var("CI").is_ok_and(|v| !matches!(v.as_str(), "" | "false" | "0"));
    let on_path = |name: &str| {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    };
    // tests/it/html_browser.rs
    match ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| on_path(name))
    {
        Some(browser) => println!("cargo:rerun-if-changed={}", browser.display()),
        None if !ci => println!("cargo::rustc-cfg=no_browser"),
        None => {}
    }
    // tests/it/lsp.rs, a real editor client.
    match on_path("nvim") {
        Some(nvim) => println!("cargo:rerun-if-changed={}", nvim.display()),
        None if !ci => println!("cargo::rustc-cfg=no_nvim"),
        None => {}
    }
    // tests/it/robustness.rs, the full disk: root, to mount a tmpfs.
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if !linux || !root || on_path("mount").is_none() {
        println!("cargo::rustc-cfg=no_tmpfs");
    }
    // tests/it/rule_quotes.rs: the rule texts, which stay with their authors.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let texts = Path::new(&manifest).join("../shared/rules");
    if texts.is_dir() {
        println!("cargo:rerun-if-changed={}", texts.display());
    } else {
        println!("cargo::rustc-cfg=no_rule_texts");
    }
}
