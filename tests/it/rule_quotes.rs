//! Every rule of every catalogue quotes the clause it cites, and the quote is the rule text's
//! own words: each passage is found verbatim, up to whitespace, in one of the texts the rule's
//! source names. The texts stay with their authors, outside this repository; they are read from
//! `../shared/rules/` where that folder is present (as in CI), and the wording check is ignored,
//! with the reason, where it is not (`build.rs` looks for it). And the quote says what its rule enforces: it shares a key word
//! with the rule's id and summary (or a curated word of the texts for it), or it is a text's
//! clause adopting standard chess, cited for the FIDE article the rule comes from. Where a text
//! has no clause for a rule, the rule's source names the FIDE article and says the text has none.

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
#[cfg_attr(
    no_rule_texts,
    ignore = "the rule texts are not in ../shared/rules/ (they stay with their authors, outside \
              the repository)"
)]
fn quotes_are_the_texts_own_words() {
    let dir = texts_folder().expect("the rule texts in ../shared/rules/");
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

/// Words too common in the texts and summaries to tie a quote to one rule.
const STOP_WORDS: &str = "\
    a after all also an and another any are as at be been before by can cannot chess \
    classical do does down each for from game has have he her his in into is it its may move \
    moved moves moving must no not of on one only onto or other out over own piece pieces \
    player players same she square squares than that the their them then there these they \
    this those to turn turns two under up what when where which while who with";

/// Words of the texts that say what a rule enforces where its summary says it in other words;
/// they count even when they are stop words.
const KEY_WORDS: &[(&str, &[&str])] = &[
    // FIDE 1.1: "two opponents who move their pieces".
    ("no-piece-there", &["their pieces"]),
    // The texts list the pieces there are.
    ("no-such-piece", &["pieces"]),
    // One move, then the other player's: FIDE 1.2 "alternately"; ChessXpanse's "two-part move".
    ("turn-length", &["alternately", "two part move"]),
    // Cypher V.viii, IV.g: "as long as no piece stands in its way".
    ("blocked", &["its way"]),
    ("game-over", &["ends", "over"]),
];

/// A text's clause adopting standard chess for all it does not change: it supports a rule
/// whose source names the FIDE article adopted.
const ADOPTIONS: &[&str] = &[
    "follows all the rules and conventions of standard chess",
    "all the pieces move as they do in classical chess",
    "keep their characteristic moves from the game of chess",
];

/// Lower-case words (letters and digits) of a text, in order.
fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A crude stem, so that "captures", "captured" and "capture" meet.
fn stem(word: &str) -> String {
    let mut w = word;
    for suffix in ["ing", "es", "s", "ed", "ly"] {
        if let Some(rest) = w.strip_suffix(suffix) {
            if rest.len() >= 3 {
                w = rest;
                break;
            }
        }
    }
    let w = if w.len() > 3 {
        w.trim_end_matches('e')
    } else {
        w
    };
    w.to_string()
}

/// The stems of a text's words that are not stop words.
fn key_stems(text: &str) -> std::collections::BTreeSet<String> {
    tokens(text)
        .into_iter()
        .filter(|w| w.len() > 2 && !STOP_WORDS.split_whitespace().any(|s| s == w))
        .map(|w| stem(&w))
        .collect()
}

/// Whether `phrase`'s words occur together in `words`.
fn has_phrase(words: &[String], phrase: &str) -> bool {
    let phrase = tokens(phrase);
    words.windows(phrase.len()).any(|w| w == phrase.as_slice())
}

/// Why the quote does not support the rule, if it does not: it shares no key word with the
/// rule's id and summary (or its curated key words), and it is not an adoption clause of
/// standard chess cited for a FIDE article.
fn unsupported(r: &arbiter::rules::RuleDef) -> Option<String> {
    let quote = tokens(r.quote);
    let rule_words = key_stems(&format!("{} {}", r.id.replace('-', " "), r.summary));
    let shared: Vec<_> = key_stems(r.quote)
        .intersection(&rule_words)
        .cloned()
        .collect();
    if !shared.is_empty() {
        return None;
    }
    let curated = KEY_WORDS
        .iter()
        .filter(|(id, _)| *id == r.id)
        .flat_map(|(_, words)| words.iter());
    if curated.clone().any(|k| has_phrase(&quote, k)) {
        return None;
    }
    if r.source.contains("FIDE") && ADOPTIONS.iter().any(|a| has_phrase(&quote, a)) {
        return None;
    }
    let curated: Vec<&str> = curated.copied().collect();
    let rule_words: Vec<String> = rule_words.into_iter().collect();
    Some(format!(
        "{}: the quote shares no key word with the rule ({}; curated: {})",
        r.id,
        rule_words.join(", "),
        curated.join(", ")
    ))
}

#[test]
fn every_quote_says_what_its_rule_enforces() {
    let mut wrong = Vec::new();
    for v in Variant::ALL {
        for r in v.rules() {
            if let Some(why) = unsupported(r) {
                wrong.push(format!("{} {why}\n    quote: {:?}", v.name(), r.quote));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} quotes do not support their rules:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The check catches the two quotes it was written for (issue 20, item 29).
#[test]
fn quotes_unrelated_to_their_rule_are_caught() {
    let rule_of = |variant: &str, id: &str| {
        let v = Variant::ALL.iter().find(|v| v.name() == variant).unwrap();
        *v.rules().iter().find(|r| r.id == id).unwrap()
    };
    for (variant, id, quote) in [
        (
            "cypher",
            "not-your-turn",
            "As in classical chess, victory goes to the color who manages to checkmate the opposing King.",
        ),
        (
            "xpanse",
            "no-piece-there",
            "The less advanced player goes first, after which players alternate.",
        ),
    ] {
        let r = rule_of(variant, id);
        assert!(unsupported(&r).is_none(), "{variant} {id} as it is now");
        let bad = arbiter::rules::RuleDef { quote, ..r };
        assert!(unsupported(&bad).is_some(), "{variant} {id}: {quote:?} passes");
    }
}

#[test]
fn curated_key_words_name_rules_that_exist() {
    for (id, _) in KEY_WORDS {
        assert!(
            Variant::ALL
                .iter()
                .any(|v| v.rules().iter().any(|r| r.id == *id)),
            "no rule {id}"
        );
    }
}
