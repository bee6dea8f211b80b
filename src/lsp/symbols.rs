//! Document symbols: a scenario file's scenarios by title; a definition's statements by what
//! they declare (`piece N`, a component by its name and id, an option by its name).

use lsp_types::{DocumentSymbol, DocumentSymbolResponse, SymbolKind};

use super::documents::Document;
use super::text::Kind;
use crate::definition::resolve::COMPONENTS;
use crate::scenario::ast::Span;

#[allow(deprecated)] // `deprecated` is a field every DocumentSymbol must still give.
fn symbol(
    doc: &Document,
    name: String,
    kind: SymbolKind,
    span: &Span,
    name_span: &Span,
) -> DocumentSymbol {
    DocumentSymbol {
        name: if name.trim().is_empty() {
            "(untitled)".into()
        } else {
            crate::text::escape(&name).into_owned()
        },
        detail: None,
        kind,
        tags: None,
        deprecated: None,
        range: doc.lines.range(&doc.text, span),
        selection_range: doc.lines.range(&doc.text, name_span),
        children: None,
    }
}

/// The symbols of a document.
pub fn symbols(doc: &Document) -> DocumentSymbolResponse {
    let list = match doc.kind {
        Kind::Scenario => doc
            .file
            .iter()
            .flat_map(|f| &f.scenarios)
            .map(|s| {
                symbol(
                    doc,
                    s.title.node.clone(),
                    SymbolKind::FUNCTION,
                    &s.span,
                    &s.title.span,
                )
            })
            .collect(),
        Kind::Definition => definition(doc),
    };
    DocumentSymbolResponse::Nested(list)
}

fn definition(doc: &Document) -> Vec<DocumentSymbol> {
    let Ok(tree) = crate::definition::parse::parse_tree(&doc.text) else {
        return Vec::new();
    };
    tree.statements
        .iter()
        .map(|s| {
            let head = s.head.text.as_str();
            let first = s.values.first().map(|v| v.text.as_str());
            let id = s.block.as_ref().and_then(|b| {
                b.statements
                    .iter()
                    .find(|st| st.head.text == "id")
                    .and_then(|st| st.values.first())
                    .map(|v| v.text.clone())
            });
            let (name, kind) = match head {
                "piece" => (format!("piece {}", first.unwrap_or("")), SymbolKind::CLASS),
                "option" => (format!("option {}", first.unwrap_or("")), SymbolKind::ENUM),
                c if COMPONENTS.contains(&c) => (
                    match id {
                        Some(id) => format!("{c} ({id})"),
                        None => c.to_string(),
                    },
                    SymbolKind::MODULE,
                ),
                other => (
                    match first {
                        Some(v) => format!("{other} {v}"),
                        None => other.to_string(),
                    },
                    SymbolKind::PROPERTY,
                ),
            };
            symbol(doc, name, kind, &s.span, &s.head.span)
        })
        .collect()
}
