//! Progress on long work: a spinner on standard error with the nodes searched, their rate and
//! that Ctrl-C stops the run, while perft, a scenario's searches or a dispute run. Only on a
//! terminal; nothing otherwise, and standard output is never touched.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::rules::search::NODES;

/// A running display; dropping it clears the line.
pub struct Progress {
    bar: ProgressBar,
    done: Arc<AtomicBool>,
    ticker: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts a display labelled `label`, or nothing when standard error is not a terminal.
    pub fn start(label: impl Into<String>) -> Option<Progress> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
        bar.set_style(
            ProgressStyle::with_template("{spinner} {prefix} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_prefix(crate::text::escape(&label.into()).into_owned());
        let done = Arc::new(AtomicBool::new(false));
        let ticker = {
            let (bar, done) = (bar.clone(), done.clone());
            let (start, first) = (Instant::now(), NODES.load(Ordering::Relaxed));
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    let nodes = NODES.load(Ordering::Relaxed).saturating_sub(first);
                    let secs = start.elapsed().as_secs_f64().max(1e-3);
                    bar.set_message(format!(
                        "{} nodes, {:.1} M nodes/s (Ctrl-C stops)",
                        HumanCount(nodes),
                        nodes as f64 / secs / 1e6
                    ));
                    bar.tick();
                    std::thread::sleep(Duration::from_millis(200));
                }
            })
        };
        Some(Progress {
            bar,
            done,
            ticker: Some(ticker),
        })
    }

    /// Runs `f` with the display out of the way (a line for standard output).
    pub fn suspend<T>(progress: &Option<Progress>, f: impl FnOnce() -> T) -> T {
        match progress {
            Some(p) => p.bar.suspend(f),
            None => f(),
        }
    }

    /// A new label for the same display (the scenario now running).
    pub fn label(&self, label: impl Into<String>) {
        self.bar
            .set_prefix(crate::text::escape(&label.into()).into_owned());
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.ticker.take() {
            let _ = t.join();
        }
        self.bar.finish_and_clear();
    }
}
