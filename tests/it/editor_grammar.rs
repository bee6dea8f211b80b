//! The TextMate grammar for `.scn` files (`editors/scenario.tmLanguage.json`): valid JSON with
//! the keys editors need, every regex compiles (with the Rust `regex` crate: the grammar keeps
//! to syntax Oniguruma and it share, no lookaround), every keyword of `grammar/scenario.pest`
//! and every result reason of the language reference is highlighted as a keyword, and the
//! tokens of a sample scenario get the scopes they should. The VS Code extension ships the same
//! grammar file.

use std::path::Path;

use regex::Regex;
use serde_json::Value;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn grammar() -> Value {
    serde_json::from_str(&read("editors/scenario.tmLanguage.json")).expect("the grammar is JSON")
}

/// Every `match`, `begin` and `end` regex of a grammar node, with the name of the repository
/// entry it is under.
fn regexes<'a>(node: &'a Value, entry: &str, out: &mut Vec<(String, &'a str)>) {
    match node {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("match" | "begin" | "end", Value::String(re)) => {
                        out.push((entry.to_string(), re))
                    }
                    ("repository", Value::Object(entries)) => {
                        for (name, e) in entries {
                            regexes(e, name, out);
                        }
                    }
                    _ => regexes(value, entry, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| regexes(v, entry, out)),
        _ => {}
    }
}

/// The words of the scenario language: every quoted word literal of the pest grammar (the
/// `kw_*` rules, `statement_word`, `assertion_word`, `pass`), so a keyword added there must be
/// added to the editor grammar too.
fn pest_words() -> Vec<String> {
    let pest = read("grammar/scenario.pest");
    let literal = Regex::new(r#""([A-Za-z][A-Za-z-]+)""#).unwrap();
    let mut words: Vec<String> = pest
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .flat_map(|l| literal.captures_iter(l).map(|c| c[1].to_string()))
        .collect();
    words.sort();
    words.dedup();
    // Keywords of both kinds, so the extraction itself cannot come back empty or half.
    for w in [
        "variant", "expect", "because", "buy", "Buy", "pass", "pending", "illegal",
    ] {
        assert!(
            words.iter().any(|x| x == w),
            "{w} not found in the pest grammar"
        );
    }
    words
}

/// The reasons of `result ... by <reason>`, from the table of the language reference.
fn reasons() -> Vec<String> {
    let doc = read("docs/scenario-language.md");
    let start = doc
        .find("| reason | outcome |")
        .expect("the table of reasons");
    let cell = Regex::new(r"^\| `([a-z-]+)` \|").unwrap();
    let reasons: Vec<String> = doc[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| cell.captures(l).map(|c| c[1].to_string()))
        .collect();
    assert!(reasons.len() >= 10, "{reasons:?}");
    reasons
}

#[test]
fn grammar_has_the_keys_editors_need() {
    let g = grammar();
    assert_eq!(g["scopeName"], "source.arbiter-scenario");
    assert_eq!(g["fileTypes"], serde_json::json!(["scn"]));
    assert!(g["name"].is_string());
    assert!(!g["patterns"].as_array().expect("patterns").is_empty());
    let repository = g["repository"].as_object().expect("repository");
    // Every include names an entry of the repository.
    let text = g.to_string();
    let include = Regex::new(r##""include":"#([a-z-]+)""##).unwrap();
    for c in include.captures_iter(&text) {
        assert!(repository.contains_key(&c[1]), "#{} is not defined", &c[1]);
    }
}

#[test]
fn every_regex_compiles() {
    let g = grammar();
    let mut all = Vec::new();
    regexes(&g, "", &mut all);
    assert!(all.len() > 20, "{}", all.len());
    for (entry, re) in all {
        // Lookaround compiles in Oniguruma but not here; the grammar does without it.
        assert!(!re.contains("(?="), "{entry}: lookahead in {re}");
        assert!(!re.contains("(?<"), "{entry}: lookbehind in {re}");
        assert!(!re.contains("(?!"), "{entry}: negative lookahead in {re}");
        Regex::new(re).unwrap_or_else(|e| panic!("{entry}: {re}: {e}"));
    }
}

#[test]
fn every_keyword_is_highlighted() {
    let g = grammar();
    let mut all = Vec::new();
    regexes(&g, "", &mut all);
    let keyword_patterns: Vec<Regex> = all
        .iter()
        .filter(|(entry, _)| entry.starts_with("keyword"))
        .map(|(_, re)| Regex::new(re).unwrap())
        .collect();
    let whole = |word: &str| {
        keyword_patterns
            .iter()
            .any(|re| re.find(word).is_some_and(|m| m.range() == (0..word.len())))
    };
    let missing: Vec<String> = pest_words()
        .into_iter()
        .chain(reasons())
        .filter(|w| !whole(w))
        .collect();
    assert!(
        missing.is_empty(),
        "not in the keyword patterns: {missing:?}"
    );
    assert!(
        !whole("checks") && !whole("move-rule"),
        "a keyword matches too much"
    );
}

/// The scope a first-match tokenizer gives each token of a line, as an editor would: at each
/// position, the pattern that matches earliest (the first listed on a tie).
fn scopes(g: &Value, line: &str) -> Vec<(String, String)> {
    let repository = &g["repository"];
    let mut top = Vec::new();
    for p in g["patterns"].as_array().unwrap() {
        let name = p["include"].as_str().unwrap().trim_start_matches('#');
        let entry = &repository[name];
        let items = match entry["patterns"].as_array() {
            Some(inner) if entry.get("match").is_none() && entry.get("begin").is_none() => {
                inner.clone()
            }
            _ => vec![entry.clone()],
        };
        for item in items {
            let re = item["match"].as_str().or(item["begin"].as_str()).unwrap();
            top.push((
                Regex::new(re).unwrap(),
                item["name"].as_str().unwrap().to_string(),
            ));
        }
    }
    let mut out = Vec::new();
    let mut at = 0;
    while at < line.len() {
        let best = top
            .iter()
            .filter_map(|(re, name)| re.find_at(line, at).map(|m| (m, name)))
            .min_by_key(|(m, _)| m.start());
        let Some((m, name)) = best else { break };
        // A string runs to its closing quote.
        let end = if name.starts_with("string") {
            line[m.end()..]
                .find('"')
                .map_or(line.len(), |i| m.end() + i + 1)
        } else {
            m.end().max(m.start() + 1)
        };
        let scope = name.trim_end_matches(".arbiter-scenario").to_string();
        out.push((line[m.start()..end].to_string(), scope));
        at = end;
    }
    out
}

#[test]
fn sample_lines_get_their_scopes() {
    let g = grammar();
    let cases: &[(&str, &[(&str, &str)])] = &[
        (
            "  play 1. e2-e4 e7-e5 2. Qxf7# # mate",
            &[
                ("play", "keyword.control.statement"),
                ("1.", "constant.numeric.move-number"),
                ("e2-e4", "meta.turn"),
                ("e7-e5", "meta.turn"),
                ("2.", "constant.numeric.move-number"),
                ("Qxf7#", "meta.turn"),
                ("# mate", "comment.line.number-sign"),
            ],
        ),
        (
            "expect result black wins by kill-rule",
            &[
                ("expect", "keyword.control.statement"),
                ("result", "keyword.other.assertion"),
                ("black", "constant.language"),
                ("wins", "constant.language"),
                ("by", "keyword.other.assertion"),
                ("kill-rule", "support.constant.reason"),
            ],
        ),
        (
            "variant xpanse 5x6",
            &[
                ("variant", "keyword.control.statement"),
                ("5x6", "constant.numeric.board-size"),
            ],
        ),
        (
            "scenario \"a # b\" { option move-rule-draw = no",
            &[
                ("scenario", "keyword.control.statement"),
                ("\"a # b\"", "string.quoted.double"),
                ("{", "punctuation.section.block"),
                ("option", "keyword.control.statement"),
                ("move-rule-draw", "variable.other.name"),
                ("=", "keyword.operator.assignment"),
                ("no", "keyword.other.assertion"),
            ],
        ),
        (
            "white: Ke1 (WD)e4 play P@c5 Ac1^c3xe5; coup Nf9 O-O-O",
            &[
                ("white", "constant.language"),
                (":", "punctuation.separator.colon"),
                ("Ke1", "meta.turn"),
                ("(WD)e4", "meta.turn"),
                ("play", "keyword.control.statement"),
                ("P@c5", "meta.turn"),
                ("Ac1^c3xe5", "meta.turn"),
                (";", "punctuation.separator.turn"),
                ("coup", "support.constant.reason"),
                ("Nf9", "meta.turn"),
                ("O-O-O", "keyword.other.castle"),
            ],
        ),
        (
            "expect e4 = white king  expect cost (Wfc(DNFA)scDsHbmH) = 3",
            &[
                ("expect", "keyword.control.statement"),
                ("e4", "meta.turn"),
                ("=", "keyword.operator.assignment"),
                ("white", "constant.language"),
                ("king", "entity.name.type.piece.word"),
                ("expect", "keyword.control.statement"),
                ("cost", "keyword.other.assertion"),
                ("(Wfc(DNFA)scDsHbmH)", "entity.name.type.piece.design"),
                ("=", "keyword.operator.assignment"),
                ("3", "constant.numeric"),
            ],
        ),
    ];
    for (line, want) in cases {
        let got = scopes(&g, line);
        let got: Vec<(&str, &str)> = got.iter().map(|(t, s)| (t.as_str(), s.as_str())).collect();
        assert_eq!(&got, want, "{line}");
    }
}

#[test]
fn the_vscode_extension_ships_the_grammar() {
    let package: Value =
        serde_json::from_str(&read("editors/vscode/package.json")).expect("package.json");
    let grammars = package["contributes"]["grammars"].as_array().unwrap();
    assert_eq!(grammars[0]["scopeName"], "source.arbiter-scenario");
    let path = grammars[0]["path"]
        .as_str()
        .unwrap()
        .trim_start_matches("./");
    assert_eq!(
        read(&format!("editors/vscode/{path}")),
        read("editors/scenario.tmLanguage.json"),
        "the extension's copy of the grammar is out of date: copy editors/scenario.tmLanguage.json"
    );
    let languages = package["contributes"]["languages"].as_array().unwrap();
    assert_eq!(languages[0]["extensions"], serde_json::json!([".scn"]));
    let config: Value = serde_json::from_str(&read("editors/vscode/language-configuration.json"))
        .expect("language-configuration.json");
    assert_eq!(config["comments"]["lineComment"], "#");
}
