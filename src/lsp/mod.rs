//! `arbiter lsp`: a Language Server Protocol server over standard input and output for
//! scenario files (`.scn`) and variant definitions (`.def`), answering from the library the
//! command line uses.
//!
//! Go to definition leads from a rule id or an option to the definition or catalogue page
//! that declares it ([`goto`]).
//!
//! Built on rust-analyzer's `lsp-server` (message types) and `lsp-types`: synchronous, no
//! async runtime, little to compile. One thread reads and frames messages ([`transport`]), the
//! main loop answers requests and keeps the documents ([`documents`]), one worker thread
//! evaluates ([`diagnostics`]), and one writes. Requests are answered from the main loop
//! without waiting for an evaluation; an edit cancels the evaluation of the text before it.
//! Bad input (malformed JSON-RPC, unknown methods, positions past the end of a line, huge
//! texts) gets an LSP error or a clamped answer, never a crash: a request whose handler
//! panics is answered with an internal error and the server goes on.

pub mod actions;
pub mod completion;
pub mod deferred;
pub mod diagnostics;
pub mod documents;
pub mod goto;
pub mod hover;
pub mod hover_definition;
pub mod names;
pub mod reference;
pub mod symbols;
pub mod text;
pub mod transport;

use std::time::{Duration, Instant};

use crossbeam_channel::{after, never, select, unbounded, Sender};
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response, ResponseError};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{
    notification, request, CodeActionKind, CodeActionOptions, CodeActionProviderCapability,
    CompletionOptions, HoverProviderCapability, InitializeResult, OneOf, PublishDiagnosticsParams,
    SaveOptions, ServerCapabilities, ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Uri,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use self::diagnostics::{Evaluated, Job};
use self::documents::Documents;

/// How long typing must pause before the text is evaluated.
pub const DEBOUNCE: Duration = Duration::from_millis(300);

/// Serves one client on standard input and output; the exit status (0 after `shutdown` and
/// `exit`, 1 when the input ends or `exit` comes without `shutdown`).
pub fn serve(max_nodes: Option<u64>) -> i32 {
    let (out_tx, out_rx) = unbounded::<String>();
    let (msg_tx, msg_rx) = unbounded::<Message>();
    let writer = std::thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || transport::writer(out_rx));
    let reader_out = out_tx.clone();
    let reader = std::thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || transport::reader(std::io::stdin().lock(), msg_tx, reader_out));
    let (job_tx, job_rx) = unbounded::<Job>();
    let (done_tx, done_rx) = unbounded::<Evaluated>();
    let worker = std::thread::Builder::new()
        .name("lsp-evaluator".into())
        .spawn(move || diagnostics::worker(job_rx, done_tx));
    let (later_tx, later_rx) = unbounded::<deferred::Job>();
    let (answered_tx, answered_rx) = unbounded::<deferred::Done>();
    let positions = std::thread::Builder::new()
        .name("lsp-positions".into())
        .spawn(move || deferred::worker(later_rx, answered_tx));
    let (Ok(writer), Ok(_), Ok(_), Ok(_)) = (writer, reader, worker, positions) else {
        eprintln!("error: cannot start the language server's threads");
        return 2;
    };
    let mut server = Server {
        out: out_tx,
        jobs: job_tx,
        later: later_tx,
        pending: Vec::new(),
        documents: Documents::default(),
        state: State::Uninitialized,
        max_nodes,
        watches: false,
    };
    let code = loop {
        let due = server
            .documents
            .next_due()
            .into_iter()
            .chain(server.pending.iter().map(|p| p.due))
            .min();
        let tick = match due {
            Some(at) => after(at.saturating_duration_since(Instant::now())),
            None => never(),
        };
        select! {
            recv(msg_rx) -> message => match message {
                Ok(message) => {
                    if let Some(code) = server.handle(message) {
                        break code;
                    }
                }
                Err(_) => break 1,
            },
            recv(done_rx) -> evaluated => {
                if let Ok(evaluated) = evaluated {
                    server.evaluated(evaluated);
                }
            },
            recv(answered_rx) -> answered => {
                if let Ok(answered) = answered {
                    server.answered(answered);
                }
            },
            recv(tick) -> _ => {},
        }
        server.give_up_due();
        server.start_due();
    };
    server.documents.cancel_all();
    // Whatever was answered goes out before the process ends.
    let _ = server.out.send(transport::STOP.to_string());
    let _ = writer.join();
    code
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Uninitialized,
    Running,
    ShutDown,
}

struct Server {
    out: Sender<String>,
    jobs: Sender<Job>,
    /// The requests worked out off the main loop ([`deferred`]), and those not answered yet.
    later: Sender<deferred::Job>,
    pending: Vec<deferred::Pending>,
    documents: Documents,
    state: State,
    max_nodes: Option<u64>,
    /// The client registers file watchers the server asks for (`initialize`'s capabilities).
    watches: bool,
}

/// A request's answer: a result, or an LSP error.
type Answer = Result<Value, ResponseError>;

/// An error answer.
pub fn error(code: ErrorCode, message: impl Into<String>) -> ResponseError {
    ResponseError {
        code: code as i32,
        message: message.into(),
        data: None,
    }
}

impl Server {
    fn send(&self, message: Message) {
        let _ = self.out.send(transport::body(&message));
    }

    fn respond(&self, id: RequestId, answer: Answer) {
        self.send(Message::Response(Response {
            id,
            response_result: answer,
        }));
    }

    /// Handles one message; `Some(exit status)` when the server is to stop.
    fn handle(&mut self, message: Message) -> Option<i32> {
        match message {
            Message::Request(request) => {
                let id = request.id.clone();
                let answer = match self.state {
                    State::Uninitialized if request.method == request::Initialize::METHOD => {
                        self.state = State::Running;
                        self.watches = request
                            .params
                            .pointer(
                                "/capabilities/workspace/didChangeWatchedFiles/dynamicRegistration",
                            )
                            .and_then(Value::as_bool)
                            .unwrap_or(false);
                        Ok(serde_json::to_value(capabilities()).unwrap_or(Value::Null))
                    }
                    State::Uninitialized => Err(error(
                        ErrorCode::ServerNotInitialized,
                        "the server is not initialized: send `initialize` first",
                    )),
                    State::ShutDown => Err(error(
                        ErrorCode::InvalidRequest,
                        "the server is shut down: only `exit` is expected",
                    )),
                    State::Running if request.method == request::Shutdown::METHOD => {
                        self.state = State::ShutDown;
                        Ok(Value::Null)
                    }
                    State::Running => {
                        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            self.request(request)
                        }));
                        match result {
                            Ok(Some(answer)) => answer,
                            // Answered later, by the position worker or on giving up.
                            Ok(None) => return None,
                            Err(_) => Err(error(
                                ErrorCode::InternalError,
                                "internal error: the request's handler panicked; please report it",
                            )),
                        }
                    }
                };
                self.respond(id, answer);
                None
            }
            Message::Notification(n) if n.method == notification::Exit::METHOD => {
                Some(if self.state == State::ShutDown { 0 } else { 1 })
            }
            Message::Notification(n) => {
                if self.state == State::Running {
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        self.notification(n)
                    }));
                }
                None
            }
            // The one request the server sends is the watchers' registration: a client that
            // refuses it only leaves definitions changed outside the editor unnoticed.
            Message::Response(_) => None,
        }
    }

    /// A request's answer, or `None` when it is worked out off the main loop.
    fn request(&mut self, request: Request) -> Option<Answer> {
        let Request { id, method, params } = request;
        if method == request::HoverRequest::METHOD {
            let reply = params_of::<lsp_types::HoverParams>(params).and_then(|p| {
                let pos = p.text_document_position_params;
                Ok(hover::hover(
                    self.document(&pos.text_document.uri)?,
                    pos.position,
                ))
            });
            return match reply {
                Ok(hover::Reply::Now(hover)) => Some(to_value(hover)),
                Ok(hover::Reply::Later(job)) => {
                    self.defer(id, job);
                    None
                }
                Err(e) => Some(Err(e)),
            };
        }
        Some(self.answer(method, params))
    }

    /// Hands a hover to the position worker, to be answered when it is worked out or when
    /// [`deferred::BUDGET`] has passed, whichever comes first.
    fn defer(&mut self, id: RequestId, hover: hover::Deferred) {
        let abandoned = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let gave_up = serde_json::to_value(hover.gave_up(deferred::BUDGET)).unwrap_or(Value::Null);
        self.pending.push(deferred::Pending {
            id: id.clone(),
            due: Instant::now() + deferred::BUDGET,
            gave_up,
            abandoned: abandoned.clone(),
        });
        let _ = self.later.send(deferred::Job {
            id,
            hover,
            abandoned,
        });
    }

    /// Sends a deferred request's answer, unless it was answered already.
    fn answered(&mut self, done: deferred::Done) {
        if let Some(i) = self.pending.iter().position(|p| p.id == done.id) {
            self.pending.swap_remove(i);
            self.respond(done.id, Ok(done.answer));
        }
    }

    /// Answers each deferred request whose budget has passed: it gave up.
    fn give_up_due(&mut self) {
        let now = Instant::now();
        let (due, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition(|p| p.due <= now);
        self.pending = waiting;
        for p in due {
            p.abandoned
                .store(true, std::sync::atomic::Ordering::Relaxed);
            self.respond(p.id, Ok(p.gave_up));
        }
    }

    fn answer(&mut self, method: String, params: Value) -> Answer {
        match method.as_str() {
            request::Completion::METHOD => {
                let p: lsp_types::CompletionParams = params_of(params)?;
                let pos = p.text_document_position;
                let doc = self.document(&pos.text_document.uri)?;
                to_value(completion::complete(doc, pos.position))
            }
            request::CodeActionRequest::METHOD => {
                let p: lsp_types::CodeActionParams = params_of(params)?;
                let doc = self.document(&p.text_document.uri)?;
                to_value(actions::code_actions(doc, p.range))
            }
            request::Formatting::METHOD => {
                let p: lsp_types::DocumentFormattingParams = params_of(params)?;
                let doc = self.document(&p.text_document.uri)?;
                to_value(actions::format(doc)?)
            }
            request::GotoDefinition::METHOD => {
                let p: lsp_types::GotoDefinitionParams = params_of(params)?;
                let pos = p.text_document_position_params;
                let doc = self.document(&pos.text_document.uri)?;
                to_value(
                    goto::definition(doc, pos.position).map(lsp_types::GotoDefinitionResponse::Scalar),
                )
            }
            request::DocumentSymbolRequest::METHOD => {
                let p: lsp_types::DocumentSymbolParams = params_of(params)?;
                let doc = self.document(&p.text_document.uri)?;
                to_value(symbols::symbols(doc))
            }
            _ => Err(error(
                ErrorCode::MethodNotFound,
                format!(
                    "unknown method `{}`; arbiter answers hover, completion, codeAction, formatting, documentSymbol and definition",
                    crate::text::escape(&method)
                ),
            )),
        }
    }

    fn document(&self, uri: &Uri) -> Result<&documents::Document, ResponseError> {
        self.documents.get(uri.as_str()).ok_or_else(|| {
            error(
                ErrorCode::InvalidParams,
                format!(
                    "{} is not open: send `didOpen` first",
                    crate::text::escape(uri.as_str())
                ),
            )
        })
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            notification::DidOpenTextDocument::METHOD => {
                if let Ok(p) = params_of::<lsp_types::DidOpenTextDocumentParams>(n.params) {
                    let d = p.text_document;
                    let doc = self.documents.open(d.uri.as_str(), d.text, d.version);
                    doc.due = Some(Instant::now());
                    self.publish(d.uri.as_str());
                }
            }
            notification::DidChangeTextDocument::METHOD => {
                if let Ok(p) = params_of::<lsp_types::DidChangeTextDocumentParams>(n.params) {
                    let uri = p.text_document.uri;
                    let version = p.text_document.version;
                    if let Some(doc) =
                        self.documents
                            .change(uri.as_str(), version, p.content_changes)
                    {
                        doc.due = Some(Instant::now() + DEBOUNCE);
                        self.publish(uri.as_str());
                    }
                }
            }
            notification::DidSaveTextDocument::METHOD => {
                if let Ok(p) = params_of::<lsp_types::DidSaveTextDocumentParams>(n.params) {
                    let uri = p.text_document.uri;
                    let mut saved_definition = None;
                    if let Some(doc) = self.documents.get_mut(uri.as_str()) {
                        if !doc.evaluating() {
                            doc.due = Some(Instant::now());
                        }
                        if doc.kind == text::Kind::Definition {
                            saved_definition = doc.path.clone();
                        }
                    }
                    // The scenario files that play this definition read it again.
                    if let Some(path) = saved_definition {
                        for user in self.documents.refresh_users_of(&path) {
                            self.publish(&user);
                        }
                    }
                }
            }
            notification::Initialized::METHOD if self.watches => {
                // Definitions and variants.ini files changed outside the editor (a checkout,
                // another program) are read again by the scenarios that play them.
                let watchers: Vec<Value> = ["**/*.def", "**/*.ini"]
                    .iter()
                    .map(|glob| serde_json::json!({ "globPattern": glob }))
                    .collect();
                self.send(Message::Request(Request::new(
                    RequestId::from("arbiter-watch-definitions".to_string()),
                    "client/registerCapability".into(),
                    serde_json::json!({ "registrations": [{
                        "id": "arbiter-watch-definitions",
                        "method": "workspace/didChangeWatchedFiles",
                        "registerOptions": { "watchers": watchers },
                    }]}),
                )));
            }
            notification::DidChangeWatchedFiles::METHOD => {
                if let Ok(p) = params_of::<lsp_types::DidChangeWatchedFilesParams>(n.params) {
                    let mut refreshed = Vec::new();
                    for change in p.changes {
                        if let Some(path) = text::file_path(change.uri.as_str()) {
                            for user in self.documents.refresh_users_of(&path) {
                                if !refreshed.contains(&user) {
                                    refreshed.push(user);
                                }
                            }
                        }
                    }
                    for user in refreshed {
                        self.publish(&user);
                    }
                }
            }
            notification::DidCloseTextDocument::METHOD => {
                if let Ok(p) = params_of::<lsp_types::DidCloseTextDocumentParams>(n.params) {
                    let uri = p.text_document.uri;
                    if self.documents.close(uri.as_str()) {
                        // A closed document's diagnostics are cleared.
                        self.send(Message::Notification(Notification::new(
                            notification::PublishDiagnostics::METHOD.into(),
                            PublishDiagnosticsParams {
                                uri,
                                diagnostics: Vec::new(),
                                version: None,
                            },
                        )));
                    }
                }
            }
            notification::Cancel::METHOD => {
                if let Ok(p) = params_of::<lsp_types::CancelParams>(n.params) {
                    let id = match p.id {
                        lsp_types::NumberOrString::Number(n) => RequestId::from(n),
                        lsp_types::NumberOrString::String(s) => RequestId::from(s),
                    };
                    if let Some(i) = self.pending.iter().position(|p| p.id == id) {
                        let p = self.pending.swap_remove(i);
                        p.abandoned
                            .store(true, std::sync::atomic::Ordering::Relaxed);
                        self.respond(
                            p.id,
                            Err(error(ErrorCode::RequestCanceled, "cancelled by the client")),
                        );
                    }
                }
            }
            // `initialized`, settings and anything unknown: nothing to do (every request but a
            // deferred hover is answered at once).
            _ => {}
        }
    }

    /// Sends a document's diagnostics.
    fn publish(&self, uri: &str) {
        let Some(doc) = self.documents.get(uri) else {
            return;
        };
        let Ok(uri) = uri.parse::<Uri>() else {
            return;
        };
        self.send(Message::Notification(Notification::new(
            notification::PublishDiagnostics::METHOD.into(),
            PublishDiagnosticsParams {
                uri,
                diagnostics: doc.diagnostics(),
                version: Some(doc.version),
            },
        )));
    }

    /// Hands the worker every evaluation that is due.
    fn start_due(&mut self) {
        let now = Instant::now();
        let max_nodes = self.max_nodes;
        for doc in self.documents.iter_mut() {
            if doc.due.is_none_or(|at| at > now) {
                continue;
            }
            doc.due = None;
            doc.started = Some(doc.generation());
            // Definitions are not evaluated; a scenario file is when it parses at all.
            let Some(file) = doc.file.clone() else {
                continue;
            };
            let _ = self.jobs.send(Job {
                uri: doc.uri.clone(),
                generation: doc.generation(),
                cancel: doc.cancel(),
                text: doc.text.clone(),
                file,
                max_nodes,
            });
        }
    }

    /// Takes an evaluation's findings, if they are of the current text, and publishes them.
    fn evaluated(&mut self, evaluated: Evaluated) {
        let uri = evaluated.uri.clone();
        if let Some(doc) = self.documents.get_mut(&uri) {
            if doc.take(evaluated) {
                self.publish(&uri);
            }
        }
    }
}

/// What the server can do.
fn capabilities() -> InitializeResult {
    InitializeResult {
        capabilities: ServerCapabilities {
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::FULL),
                    save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                        include_text: Some(false),
                    })),
                    ..TextDocumentSyncOptions::default()
                },
            )),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some(vec![" ".into(), "=".into()]),
                ..CompletionOptions::default()
            }),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
                ..CodeActionOptions::default()
            })),
            document_formatting_provider: Some(OneOf::Left(true)),
            document_symbol_provider: Some(OneOf::Left(true)),
            definition_provider: Some(OneOf::Left(true)),
            ..ServerCapabilities::default()
        },
        server_info: Some(ServerInfo {
            name: "arbiter".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
    }
}

/// A request's parameters, or an `InvalidParams` error saying what is wrong with them.
fn params_of<P: DeserializeOwned>(params: Value) -> Result<P, ResponseError> {
    serde_json::from_value(params)
        .map_err(|e| error(ErrorCode::InvalidParams, format!("invalid parameters: {e}")))
}

fn to_value(value: impl serde::Serialize) -> Answer {
    serde_json::to_value(value).map_err(|e| error(ErrorCode::InternalError, e.to_string()))
}
