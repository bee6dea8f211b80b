//! Every rule of every catalogue quotes the clause it cites, and the quote is the rule text's
//! own words: each passage is found verbatim, up to whitespace, in one of the texts the rule's
//! source names. The texts stay with their authors, outside this repository; they are read from
//! `../shared/rules/` where that folder is present (as in CI), and the wording check is skipped,
//! with a note, where it is not.

use std::collections::BTreeMap;
use std::path::PathBuf;

use arbiter::rules::{Variant, QUOTE_GAP};

fn texts_folder() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/rules");
    dir.is_dir().then_some(dir)
}

/// Lower-level whitespace: runs of spaces, tabs and line breaks become one space.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The rule texts a source names (`cypher-chess-rules.txt II.i, ...` names one).
fn cited(source: &str, texts: &BTreeMap<String, String>) -> Vec<String> {
    texts
        .keys()
        .filter(|name| source.contains(name.as_str()))
        .cloned()
        .collect()
}

#[test]
fn every_rule_quotes_its_clause() {
    let mut missing = Vec::new();
    for v in Variant::ALL {
        for r in v.rules() {
            if r.quote.trim().is_empty() {
                missing.push(format!("{}: {}", v.name(), r.id));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "rules without a quoted clause:\n{}",
        missing.join("\n")
    );
}

#[test]
fn quotes_are_the_texts_own_words() {
    let Some(dir) = texts_folder() else {
        eprintln!("note: ../shared/rules/ is not here; the quotes' wording is not checked");
        return;
    };
    let mut texts = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name != "README.md" {
            texts.insert(name, squeeze(&std::fs::read_to_string(&path).unwrap()));
        }
    }
    let mut wrong = Vec::new();
    let mut checked = 0;
    for v in Variant::ALL {
        for r in v.rules() {
            let named = cited(r.source, &texts);
            if named.is_empty() {
                // A source outside these texts (the FIDE Laws for orthodox chess).
                continue;
            }
            for passage in r.quote.split(QUOTE_GAP) {
                let passage = squeeze(passage);
                checked += 1;
                if !named.iter().any(|n| texts[n].contains(&passage)) {
                    wrong.push(format!(
                        "{} {} (cites {}): not found: {passage:?}",
                        v.name(),
                        r.id,
                        named.join(", ")
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {checked} quoted passages are not in the texts they cite:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(checked > 100, "only {checked} passages were checked");
}
