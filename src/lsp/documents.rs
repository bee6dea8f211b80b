//! The documents the editor has open: their text, its line index, its analysis, and the
//! generation counter an edit bumps to cancel the evaluation of the text before it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use lsp_types::{Diagnostic, TextDocumentContentChangeEvent};

use super::diagnostics::{self, Evaluated, Pin};
use super::names::{variant_in, Names};
use super::text::{file_path, Kind, Lines};
use crate::rules::search::Cancel;
use crate::rules::Variant;
use crate::scenario::ast::{File, Span};
use crate::scenario::evaluate::Failure;

/// One open document.
pub struct Document {
    pub uri: String,
    pub kind: Kind,
    /// Its local path, for definitions named relative to it.
    pub path: Option<PathBuf>,
    pub text: String,
    pub version: i32,
    pub lines: Lines,
    /// Bumped on every change; an evaluation of an older generation is cancelled.
    counter: &'static AtomicU64,
    /// The scenario file as far as it parses: its header and the scenarios that parse.
    pub file: Option<Arc<File>>,
    /// The text with what it inherits is over the live limit: nothing is analysed.
    pub too_large: bool,
    /// The variant its `variant` line names, and the board size, when it names one.
    pub variant: Option<(Variant, Option<(u8, u8)>)>,
    /// Syntax and name diagnostics of the current text.
    pub live: Vec<Diagnostic>,
    /// The evaluation of the current text, once it has come.
    pub evaluated: Option<Evaluation>,
    /// When to start the next evaluation.
    pub due: Option<Instant>,
    /// The generation last handed to the worker: a save while it runs does not start it again.
    pub started: Option<u64>,
}

/// What the evaluation of one generation found, kept for the code actions.
pub struct Evaluation {
    pub diagnostics: Vec<Diagnostic>,
    pub failures: Vec<Failure>,
    pub pins: Vec<Pin>,
    /// Each `expect illegal` without `because` that held, and the rule that refused it.
    pub refusals: Vec<(Span, &'static str)>,
}

impl Document {
    /// The generation of the current text.
    pub fn generation(&self) -> u64 {
        self.counter.load(Ordering::Relaxed)
    }

    /// A cancellation of work on the current text.
    pub fn cancel(&self) -> Cancel {
        Cancel::new(self.counter, self.generation())
    }

    /// Every diagnostic of the current text: live, then evaluated.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut all = self.live.clone();
        if let Some(e) = &self.evaluated {
            all.extend(e.diagnostics.iter().cloned());
        }
        all
    }

    /// The names of the document's variant.
    pub fn names(&self) -> Option<Names> {
        self.variant.map(|(v, size)| Names::of(v, size))
    }

    /// Takes a new text: bumps the generation (cancelling any evaluation of the old one),
    /// analyses it, and forgets the old evaluation.
    fn set_text(&mut self, text: String, version: i32) {
        self.counter.fetch_add(1, Ordering::Relaxed);
        self.text = text;
        self.version = version;
        self.lines = Lines::new(&self.text);
        self.evaluated = None;
        let path = self.path.as_deref();
        let (file, live, too_large) =
            diagnostics::on_change(self.kind, &self.text, &self.lines, path);
        self.file = file.map(Arc::new);
        self.live = live;
        self.too_large = too_large;
        self.variant = match self.kind {
            Kind::Scenario if !too_large => variant_in(&self.text, path),
            _ => None,
        };
    }

    /// The file around `offset` as far as it parses, and the lines left out: the parsed file
    /// when it holds that place, or else the header and the scenario there with their broken
    /// lines blanked out (a file being typed is broken most of the time).
    pub fn parsed_at(&self, offset: usize) -> Option<(Arc<File>, Vec<Span>)> {
        if self.too_large || self.kind != Kind::Scenario {
            return None;
        }
        if let Some(file) = &self.file {
            let first = crate::scenario::parse::scenario_starts(&self.text).next();
            let in_header = first.is_none_or(|at| offset < at);
            if in_header
                || file
                    .scenarios
                    .iter()
                    .any(|s| s.span.contains(&offset) || s.span.end == offset)
            {
                return Some((file.clone(), Vec::new()));
            }
        }
        let outline = crate::scenario::parse::outline(&self.text, offset)?;
        let mut file = outline.file;
        if let Some(p) = self.path.as_deref() {
            // A variant path the rule on paths refuses is not read (the diagnostics say why).
            crate::scenario::report::place_variant(&mut file, p).ok()?;
        }
        Some((Arc::new(file), outline.blanked))
    }

    /// Whether the current text is evaluated or being evaluated.
    pub fn evaluating(&self) -> bool {
        self.evaluated.is_some() || self.started == Some(self.generation())
    }

    /// Takes what an evaluation found, if it is of the current text.
    pub fn take(&mut self, evaluated: Evaluated) -> bool {
        if evaluated.generation != self.generation() {
            return false;
        }
        let mut diagnostics: Vec<Diagnostic> = evaluated
            .failures
            .iter()
            .map(|(f, pending)| diagnostics::of_failure(&self.text, &self.lines, f, *pending))
            .collect();
        for p in &evaluated.problems {
            let d = diagnostics::of_problem(&self.text, &self.lines, p);
            // A name problem is the live analysis's already.
            if !self
                .live
                .iter()
                .any(|l| l.range == d.range && l.message == d.message)
            {
                diagnostics.push(d);
            }
        }
        self.evaluated = Some(Evaluation {
            diagnostics,
            failures: evaluated.failures.into_iter().map(|(f, _)| f).collect(),
            pins: evaluated.pins,
            refusals: evaluated.refusals,
        });
        true
    }
}

/// The open documents, and a counter for every document ever opened (kept after it closes,
/// so that an evaluation still running for it is cancelled and none is leaked twice).
#[derive(Default)]
pub struct Documents {
    open: HashMap<String, Document>,
    counters: HashMap<String, &'static AtomicU64>,
}

impl Documents {
    pub fn get(&self, uri: &str) -> Option<&Document> {
        self.open.get(uri)
    }

    pub fn get_mut(&mut self, uri: &str) -> Option<&mut Document> {
        self.open.get_mut(uri)
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Document> {
        self.open.values_mut()
    }

    /// Opens (or reopens) a document.
    pub fn open(&mut self, uri: &str, text: String, version: i32) -> &mut Document {
        let counter = *self
            .counters
            .entry(uri.to_string())
            .or_insert_with(|| Box::leak(Box::new(AtomicU64::new(0))));
        let mut doc = Document {
            uri: uri.to_string(),
            kind: Kind::of(uri),
            path: file_path(uri),
            text: String::new(),
            version,
            lines: Lines::new(""),
            counter,
            file: None,
            too_large: false,
            variant: None,
            live: Vec::new(),
            evaluated: None,
            due: None,
            started: None,
        };
        doc.set_text(text, version);
        self.open.insert(uri.to_string(), doc);
        self.open.get_mut(uri).expect("just inserted")
    }

    /// Applies an edit: whole texts, or ranges for a client that sends them anyway.
    pub fn change(
        &mut self,
        uri: &str,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) -> Option<&mut Document> {
        let doc = self.open.get_mut(uri)?;
        let mut text = std::mem::take(&mut doc.text);
        for change in changes {
            match change.range {
                None => text = change.text,
                Some(range) => {
                    let span = Lines::new(&text).span(&text, range);
                    text.replace_range(span, &change.text);
                }
            }
        }
        doc.set_text(text, version);
        Some(doc)
    }

    /// Closes a document, cancelling its evaluation.
    pub fn close(&mut self, uri: &str) -> bool {
        match self.open.remove(uri) {
            Some(doc) => {
                doc.counter.fetch_add(1, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    /// Analyses again every open scenario file whose variant is the definition at `path` (it
    /// was saved: scenarios read definitions from disk); their URIs.
    pub fn refresh_users_of(&mut self, path: &std::path::Path) -> Vec<String> {
        let mut refreshed = Vec::new();
        for doc in self.open.values_mut() {
            let same = |spec: &str| {
                let named = std::path::Path::new(spec);
                named == path
                    || std::fs::canonicalize(named).ok() == std::fs::canonicalize(path).ok()
                        && named.is_file()
            };
            // The definition named, its `variants.ini` file, or one it inherits from.
            let uses = doc.kind == Kind::Scenario
                && doc.file.as_ref().is_some_and(|f| {
                    let spec = f.variant.node.as_str();
                    let file = crate::definition::ini::spec(spec).map_or(spec, |(file, _)| file);
                    same(file)
                        || super::goto::inherited(std::path::Path::new(file))
                            .iter()
                            .any(|p| same(&p.to_string_lossy()))
                });
            if uses {
                let text = std::mem::take(&mut doc.text);
                doc.set_text(text, doc.version);
                doc.due = Some(Instant::now());
                refreshed.push(doc.uri.clone());
            }
        }
        refreshed
    }

    /// The earliest evaluation due.
    pub fn next_due(&self) -> Option<Instant> {
        self.open.values().filter_map(|d| d.due).min()
    }

    /// Cancels every evaluation (the server is going away).
    pub fn cancel_all(&self) {
        for c in self.counters.values() {
            c.fetch_add(1, Ordering::Relaxed);
        }
    }
}
