//! Code actions and formatting. A failing value expectation (`perft`, `moves ... count`,
//! `moves = { }`, a state key) is blessed with the assertion the evaluation found, the text
//! `check --bless` writes ([`Failure::blessed`](crate::scenario::evaluate::Failure)); a
//! failing expectation that another reading of an option it consulted makes hold gets that
//! option pinned in its scenario (the pins are found on the evaluation's worker thread); an
//! `expect illegal` without `because` gets the rule that refuses its turn, as `explain` judges
//! it; formatting is `arbiter fmt`'s.

use std::collections::HashMap;

use lsp_server::ErrorCode;
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Range, TextEdit, Uri, WorkspaceEdit,
};

use super::documents::Document;
use super::hover::judge;
use super::text::Kind;
use crate::scenario::ast::{Assertion, Span, StatementKind};
use crate::with_variant;

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

/// `because <rule>` for each `expect illegal` without one in `span`.
fn because(doc: &Document, span: &Span) -> Vec<CodeActionOrCommand> {
    let (Some(file), Some((variant, _))) = (&doc.file, doc.variant) else {
        return Vec::new();
    };
    let mut actions = Vec::new();
    for (index, scenario) in file.scenarios.iter().enumerate() {
        if !overlaps(&scenario.span, span) {
            continue;
        }
        for (until, statement) in scenario.statements.iter().enumerate() {
            let StatementKind::Expect(Assertion::Illegal(turn, None)) = &statement.kind else {
                continue;
            };
            if !overlaps(&statement.span, span) {
                continue;
            }
            let judged = with_variant!(variant, R => judge::<R>(
                file,
                &doc.text,
                index,
                until,
                std::slice::from_ref(turn),
                0
            ));
            let Some(rule) = judged.ok().and_then(|j| j.forbidden_by) else {
                continue;
            };
            let at = turn.span.end..turn.span.end;
            if let Some(e) = edit(doc, &at, format!(" because {rule}")) {
                actions.push(quickfix(format!("Add `because {rule}`"), e));
            }
        }
    }
    actions
}

/// The whole text in `arbiter fmt`'s layout, as one edit (none when it already is); an error
/// naming the first problem when it does not parse.
pub fn format(doc: &Document) -> Result<Vec<TextEdit>, lsp_server::ResponseError> {
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
