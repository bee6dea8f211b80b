//! `docs/rules/<variant>.md` is the catalogue `arbiter rules <variant> --format markdown`
//! prints: a committed page that has gone stale fails here. `UPDATE_DOCS=1 cargo test --test
//! rule_docs` writes them anew.

use std::path::PathBuf;

use arbiter::rules::catalogue::markdown;
use arbiter::rules::Variant;
use arbiter::with_variant;

#[test]
fn the_rule_pages_are_the_catalogues() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/rules");
    let update = std::env::var_os("UPDATE_DOCS").is_some();
    let mut stale = Vec::new();
    for v in Variant::ALL {
        let page = with_variant!(v, R => markdown::<R>());
        let path = dir.join(format!("{v}.md"));
        if update {
            std::fs::create_dir_all(&dir).expect("docs/rules can be made");
            std::fs::write(&path, &page).expect("the page can be written");
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(committed) if committed == page => {}
            _ => stale.push(path.display().to_string()),
        }
    }
    assert!(
        stale.is_empty(),
        "stale or missing: {} (regenerate with `UPDATE_DOCS=1 cargo test --test it rule_docs` or `arbiter rules <variant> --format markdown`)",
        stale.join(", ")
    );
}
