//! Code actions and formatting. A failing value expectation (`perft`, `moves ... count`,
//! `moves = { }`, a state key) is blessed with the assertion the evaluation found, the text
//! `check --bless` writes ([`Failure::blessed`](crate::scenario::evaluate::Failure)); a
//! failing expectation that another reading of an option it consulted makes hold gets that
//! option pinned in its scenario (the pins are found on the evaluation's worker thread); an
//! `expect illegal` without `because` gets the rule that refused its turn in the evaluation.
//! Every action comes from what is ready: nothing is worked out when they are asked for.
//! Formatting is `arbiter fmt`'s, for texts up to the live limit.

use std::collections::HashMap;

use lsp_server::ErrorCode;
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Range, TextEdit, Uri, WorkspaceEdit,
};

use super::diagnostics::MAX_LIVE_BYTES;
use super::documents::Document;
use super::text::Kind;
use crate::scenario::ast::{Assertion, Span, StatementKind};

fn overlaps(a: &Span, b: &Span) -> bool {
    a.start <= b.end && b.start <= a.end
}

fn edit(doc: &Document, span: &Span, new_text: String) -> Option<WorkspaceEdit> {
    let uri: Uri = doc.uri.parse().ok()?;
    let edit = TextEdit {
        range: doc.lines.range(&doc.text, span),
        new_text,
    };
    Some(WorkspaceEdit {
        changes: Some(HashMap::from([(uri, vec![edit])])),
        ..WorkspaceEdit::default()
    })
}

fn quickfix(title: String, edit: WorkspaceEdit) -> CodeActionOrCommand {
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        edit: Some(edit),
        is_preferred: Some(true),
        ..CodeAction::default()
    })
}

/// The code actions for `range`.
pub fn code_actions(doc: &Document, range: Range) -> Vec<CodeActionOrCommand> {
    let span = doc.lines.span(&doc.text, range);
    let mut actions = Vec::new();
    if let Some(evaluated) = &doc.evaluated {
        for f in &evaluated.failures {
            let Some(blessed) = &f.blessed else {
                continue;
            };
            if !overlaps(&f.span, &span) {
                continue;
            }
            if let Some(e) = edit(doc, &f.span, blessed.clone()) {
                actions.push(quickfix(
                    format!("Bless: write `{}`", crate::text::escape(blessed)),
                    e,
                ));
            }
        }
    }
    if let Some(evaluated) = &doc.evaluated {
        for pin in evaluated
            .pins
            .iter()
            .filter(|p| overlaps(&p.failure, &span))
        {
            let line = format!("option {} = {}\n{}", pin.option, pin.value, pin.indent);
            if let Some(e) = edit(doc, &(pin.at..pin.at), line) {
                actions.push(quickfix(
                    format!(
                        "Pin `option {} = {}` in this scenario: the expectation then holds",
                        pin.option, pin.value
                    ),
                    e,
                ));
            }
        }
    }
    actions.extend(because(doc, &span));
    actions
}

/// `because <rule>` for each `expect illegal` without one in `span`, naming the rule the
/// evaluation found refusing its turn: from what is ready, never worked out here.
fn because(doc: &Document, span: &Span) -> Vec<CodeActionOrCommand> {
    let (Some(file), Some(evaluated)) = (&doc.file, &doc.evaluated) else {
        return Vec::new();
    };
    let mut actions = Vec::new();
    for (at, rule) in evaluated
        .refusals
        .iter()
        .filter(|(at, _)| overlaps(at, span))
    {
        let turn = file
            .scenarios
            .iter()
            .filter(|s| s.span.start <= at.start && at.end <= s.span.end)
            .flat_map(|s| &s.statements)
            .find_map(|st| match &st.kind {
                StatementKind::Expect(Assertion::Illegal(turn, None)) if st.span == *at => {
                    Some(turn)
                }
                _ => None,
            });
        let Some(turn) = turn else {
            continue;
        };
        let end = turn.span.end..turn.span.end;
        if let Some(e) = edit(doc, &end, format!(" because {rule}")) {
            actions.push(quickfix(format!("Add `because {rule}`"), e));
        }
    }
    actions
}

/// The whole text in `arbiter fmt`'s layout, as one edit (none when it already is); an error
/// naming the first problem when it does not parse.
pub fn format(doc: &Document) -> Result<Vec<TextEdit>, lsp_server::ResponseError> {
    // Formatting parses the whole text, at tens of bytes per byte: a huge text would block
    // every other request while it runs.
    if doc.text.len() > MAX_LIVE_BYTES {
        return Err(super::error(
            ErrorCode::RequestFailed,
            format!(
                "this text is {} bytes, more than the {} MiB formatted in the editor; run `arbiter fmt` on the file",
                doc.text.len(),
                MAX_LIVE_BYTES >> 20
            ),
        ));
    }
    let formatted = match doc.kind {
        Kind::Scenario => crate::scenario::format::format(&doc.text),
        Kind::Definition => crate::definition::fmt::format(&doc.text),
    };
    match formatted {
        Ok(text) if text == doc.text => Ok(Vec::new()),
        Ok(text) => Ok(vec![TextEdit {
            range: doc.lines.range(&doc.text, &(0..doc.text.len())),
            new_text: text,
        }]),
        Err(problems) => {
            let first = problems.first().map_or_else(String::new, |p| {
                let at = doc.lines.position(&doc.text, p.span.start);
                format!(
                    ": {}:{}: {}",
                    at.line + 1,
                    at.character + 1,
                    crate::text::escape(&p.message)
                )
            });
            Err(super::error(
                ErrorCode::RequestFailed,
                format!("the text does not parse, so it is not formatted{first}"),
            ))
        }
    }
}
