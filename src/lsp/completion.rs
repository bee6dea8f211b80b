//! Completion: the words that may come next. The keywords are the ones the grammar takes at
//! the cursor, as a syntax error there would list them ([`words_at_end`]); the names are read
//! from the words before the cursor on its line (the line being typed need not parse) and
//! come from the tables the checker suggests from: the variant's rule ids, options, keys,
//! invariants, zones, reasons, pieces and squares ([`Names`]). In a definition: its
//! statements, components, a component's settings and each setting's words, the resolver's
//! own lists; its pieces and options, as resolved; the parent's, after `without`.

use lsp_types::{CompletionItem, CompletionItemKind, Position};

use super::documents::Document;
use super::hover_definition;
use super::names::{variant_names, Names};
use super::text::Kind;
use crate::definition::resolve::{
    component_settings, names_pieces, setting_choices, COMMON_SETTINGS, COMPONENTS, STATEMENTS,
};
use crate::scenario::parse::words_at_end;

/// The completions at `position`.
pub fn complete(doc: &Document, position: Position) -> Vec<CompletionItem> {
    let offset = doc.lines.offset(&doc.text, position);
    let line_start = doc.text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = &doc.text[line_start..offset];
    // A comment completes nothing.
    if before.contains('#') {
        return Vec::new();
    }
    match doc.kind {
        Kind::Scenario => scenario(doc, &doc.text[..offset], before),
        Kind::Definition => definition(doc, &doc.text[..offset], before),
    }
}

fn item(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: (!detail.is_empty()).then(|| detail.to_string()),
        ..CompletionItem::default()
    }
}

fn words<'a>(
    list: impl IntoIterator<Item = &'a str>,
    kind: CompletionItemKind,
) -> Vec<CompletionItem> {
    list.into_iter().map(|w| item(w, kind, "")).collect()
}

/// The words of the line before the cursor, without the one being typed.
fn context(before: &str) -> Vec<&str> {
    let mut words: Vec<&str> = before.split_whitespace().collect();
    if !before.ends_with(char::is_whitespace) {
        words.pop();
    }
    words
}

fn scenario(doc: &Document, upto: &str, before: &str) -> Vec<CompletionItem> {
    let names = doc.names();
    let ctx = context(before);
    let keyword = CompletionItemKind::KEYWORD;
    let with =
        |f: &dyn Fn(&Names) -> Vec<CompletionItem>| names.as_ref().map(f).unwrap_or_default();
    // A piece is one of this variant's: the grammar's piece words are every variant's.
    let piece_slot =
        matches!(ctx.as_slice(), ["expect", sq, "=", "white" | "black"] if is_square(&names, sq));
    // The grammar's words here, from the text up to the word being typed.
    let partial = if before.ends_with(char::is_whitespace) {
        0
    } else {
        before.split_whitespace().last().map_or(0, str::len)
    };
    let cut = &before[..before.len() - partial];
    let grammar = words_at_end(&upto[..upto.len() - partial]).or_else(|| {
        // Text before that does not parse (a line being written above): the grammar is asked
        // about this line alone, in a scenario or in the header as the cursor is.
        let in_scenario = upto.lines().any(|l| l.trim_start().starts_with("scenario"));
        let alone = if in_scenario {
            format!("variant x\nscenario \"\" {{\n{cut}")
        } else {
            format!("variant x\n{cut}")
        };
        words_at_end(&alone)
    });
    let mut items = match grammar {
        _ if piece_slot => Vec::new(),
        Some(grammar) => words(grammar, keyword),
        None => Vec::new(),
    };
    items.extend(match ctx.as_slice() {
        ["variant"] => words(variant_names(), CompletionItemKind::MODULE),
        ["option"] => with(&options),
        ["option", name, "="] => with(&|n| {
            n.option(name)
                .map(|o| {
                    o.values
                        .iter()
                        .map(|v| {
                            let d = if *v == o.default { "default" } else { "" };
                            item(v, CompletionItemKind::ENUM_MEMBER, d)
                        })
                        .collect()
                })
                .unwrap_or_default()
        }),
        ["rule", ..] | [.., "because"] => with(&rules),
        ["set"] => with(&keys),
        ["expect"] => {
            let mut items = with(&keys);
            items.extend(with(&squares));
            items
        }
        ["expect", "invariant"] => with(&|n| {
            n.invariants
                .iter()
                .map(|i| item(i.name, CompletionItemKind::FUNCTION, i.summary))
                .collect()
        }),
        ["expect", "result", .., "by"] => {
            with(&|n| words(n.reasons(), CompletionItemKind::ENUM_MEMBER))
        }
        ["expect", "zone", _, "="] => {
            with(&|n| words(n.zones.iter().copied(), CompletionItemKind::ENUM_MEMBER))
        }
        ["expect", "moves", "from"] | ["expect", "zone"] => with(&squares),
        _ if piece_slot => with(&pieces),
        ["play", ..] | ["expect", "legal" | "illegal", ..] => {
            let mut items = with(&squares);
            items.extend(with(&pieces));
            items
        }
        ["white:" | "black:", ..] => {
            let mut items = with(&pieces);
            items.extend(with(&squares));
            items
        }
        _ => Vec::new(),
    });
    items
}

fn is_square(names: &Option<Names>, word: &str) -> bool {
    names
        .as_ref()
        .is_some_and(|n| n.squares.iter().any(|s| s == word))
}

fn options(n: &Names) -> Vec<CompletionItem> {
    n.options
        .iter()
        .map(|o| item(o.name, CompletionItemKind::PROPERTY, o.reason))
        .collect()
}

fn rules(n: &Names) -> Vec<CompletionItem> {
    n.rules
        .iter()
        .map(|r| item(r.id, CompletionItemKind::REFERENCE, r.summary))
        .collect()
}

fn keys(n: &Names) -> Vec<CompletionItem> {
    n.keys
        .iter()
        .map(|k| item(k.name, CompletionItemKind::FIELD, k.summary))
        .collect()
}

fn squares(n: &Names) -> Vec<CompletionItem> {
    words(
        n.squares.iter().map(String::as_str),
        CompletionItemKind::VALUE,
    )
}

fn pieces(n: &Names) -> Vec<CompletionItem> {
    let mut items = Vec::new();
    for (letter, word) in &n.pieces {
        items.push(item(&letter.to_string(), CompletionItemKind::CLASS, word));
        items.push(item(word, CompletionItemKind::CLASS, ""));
    }
    items
}

/// In a definition: the statements and components at the top level, and what `from` and
/// `without` name; inside a component's block its settings, then each setting's words, the
/// definition's pieces where a setting names pieces, and its options and their values after
/// `when`; inside an option's block, its three settings; inside `board`'s, the names of the squares.
fn definition(doc: &Document, upto: &str, before: &str) -> Vec<CompletionItem> {
    let ctx = context(before);
    let path = doc.path.as_deref();
    let head = enclosing_head(upto);
    match (head, ctx.as_slice()) {
        (None, []) => {
            let mut items = words(STATEMENTS.iter().copied(), CompletionItemKind::KEYWORD);
            items.extend(words(
                COMPONENTS.iter().copied(),
                CompletionItemKind::MODULE,
            ));
            items
        }
        (None, ["from"]) => words(
            crate::definition::load::bundled_names(),
            CompletionItemKind::MODULE,
        ),
        (None, ["without", rest @ ..]) => {
            let Some(parent) = hover_definition::parent_of_text(&doc.text, path) else {
                return Vec::new();
            };
            match rest {
                [] => {
                    let mut items = words(["piece", "option"], CompletionItemKind::KEYWORD);
                    items.extend(
                        parent.rules.iter().map(|r| {
                            item(&r.id, CompletionItemKind::REFERENCE, r.component.name())
                        }),
                    );
                    items
                }
                ["piece"] => parent
                    .pieces
                    .iter()
                    .map(|p| item(&p.letter.to_string(), CompletionItemKind::CLASS, &p.name))
                    .collect(),
                ["option"] => parent
                    .options
                    .iter()
                    .map(|o| item(&o.name, CompletionItemKind::PROPERTY, &o.reason))
                    .collect(),
                _ => Vec::new(),
            }
        }
        (Some("option"), []) => words(
            ["values", "default", "reason"],
            CompletionItemKind::PROPERTY,
        ),
        (Some("board"), []) => words(
            crate::definition::resolve::BOARD_SETTINGS.iter().copied(),
            CompletionItemKind::PROPERTY,
        ),
        (Some(head), []) if COMPONENTS.contains(&head) => words(
            component_settings(head)
                .iter()
                .chain(COMMON_SETTINGS)
                .copied(),
            CompletionItemKind::PROPERTY,
        ),
        (Some(head), [setting, rest @ ..]) if COMPONENTS.contains(&head) => {
            if names_pieces(setting) {
                let (pieces, _) = hover_definition::pieces_and_options(&doc.text, path);
                return pieces
                    .iter()
                    .map(|(l, name)| item(&l.to_string(), CompletionItemKind::CLASS, name))
                    .collect();
            }
            match (*setting, rest) {
                ("when", []) => {
                    let (_, options) = hover_definition::pieces_and_options(&doc.text, path);
                    options
                        .iter()
                        .map(|o| item(&o.name, CompletionItemKind::PROPERTY, &o.reason))
                        .collect()
                }
                ("when", [option]) => {
                    let (_, options) = hover_definition::pieces_and_options(&doc.text, path);
                    options
                        .iter()
                        .filter(|o| o.name == *option)
                        .flat_map(|o| &o.values)
                        .map(|v| item(v, CompletionItemKind::ENUM_MEMBER, ""))
                        .collect()
                }
                (setting, []) => setting_choices(setting).map_or_else(Vec::new, |c| {
                    words(c.iter().copied(), CompletionItemKind::ENUM_MEMBER)
                }),
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

/// The head word of the block the end of `text` is in, if any: found by matching braces
/// backwards, strings and comments left aside.
fn enclosing_head(text: &str) -> Option<&str> {
    // Braces in strings and comments do not count: blank them first, by position.
    let mut depth = 0usize;
    let mut open = None;
    let bytes = text.as_bytes();
    let mut in_string = false;
    let mut in_comment = false;
    let mut opens: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_comment {
            in_comment = b != b'\n';
        } else if in_string {
            if b == b'\\' {
                i += 1;
            } else if b == b'"' {
                in_string = false;
            }
        } else {
            match b {
                b'#' => in_comment = true,
                b'"' => in_string = true,
                b'{' => {
                    opens.push(i);
                    depth += 1;
                }
                b'}' => {
                    opens.pop();
                    depth = depth.saturating_sub(1);
                }
                _ => {}
            }
        }
        i += 1;
    }
    if depth > 0 {
        open = opens.last().copied();
    }
    let open = open?;
    let line_start = text[..open].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..open].split_whitespace().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_is_found_by_its_braces() {
        assert_eq!(enclosing_head("promotion {\n  pie"), Some("promotion"));
        assert_eq!(enclosing_head("castling { }\n"), None);
        assert_eq!(enclosing_head("goal \"{\" {\n # {\n"), Some("goal"));
        assert_eq!(context("  expect e4 = wh"), vec!["expect", "e4", "="]);
        assert_eq!(context("  expect "), vec!["expect"]);
    }
}
