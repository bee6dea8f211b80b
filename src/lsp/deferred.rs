//! Requests whose answer needs a position built (a hover on a turn or a square): the
//! statements before the line run, and a crowded board lists half a million turns, so they
//! are worked out on a thread of their own, beside the evaluation's, and answered from there.
//! The main loop never waits for one: it answers every other request at once, and answers a
//! deferred one itself, saying it gave up, when [`BUDGET`] passes first.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use lsp_server::RequestId;
use serde_json::Value;

use super::hover::Deferred;

/// How long a deferred request may take before the main loop answers it without its result.
pub const BUDGET: Duration = Duration::from_millis(800);

/// One deferred request.
pub struct Job {
    pub id: RequestId,
    pub hover: Deferred,
    /// Set once the request is answered without it: it is not started then.
    pub abandoned: Arc<AtomicBool>,
}

/// A deferred request's answer.
pub struct Done {
    pub id: RequestId,
    pub answer: Value,
}

/// A deferred request not answered yet.
pub struct Pending {
    pub id: RequestId,
    pub due: Instant,
    /// What is answered when [`BUDGET`] passes first.
    pub gave_up: Value,
    pub abandoned: Arc<AtomicBool>,
}

/// Works out the deferred requests one after another, skipping those answered already.
pub fn worker(jobs: Receiver<Job>, done: Sender<Done>) {
    for job in jobs {
        if job.abandoned.load(Ordering::Relaxed) {
            continue;
        }
        let hover = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.hover.run()));
        let answer = match hover {
            Ok(hover) => serde_json::to_value(hover).unwrap_or(Value::Null),
            Err(_) => Value::Null,
        };
        if done.send(Done { id: job.id, answer }).is_err() {
            return;
        }
    }
}
