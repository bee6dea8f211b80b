//! `arbiter check`: the scenarios of every file evaluated on the worker pool (`--threads`), and
//! their reports written in the order of a run on one thread, each as soon as it and everything
//! before it are decided.
//!
//! The main thread reads and plans the files in order, a bounded window ahead of the output,
//! hands each selected scenario to the pool as one job, and writes what comes back in order. A
//! scenario runs wholly on one worker: the options it consults are recorded per thread, and its
//! searches stay single-threaded, so that every report is what one thread would have found.

use std::cell::Cell;
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::commands::{interrupted, INTERRUPTED_EXIT};
use super::output::{err, Failure};
use super::safe_write::{refuse_overwriting_input, Force, SafeFile};
use super::CheckFormat;
use crate::files::scenario_files;
use crate::scenario::ast::File;
use crate::scenario::evaluate::{evaluate_scenario, ScenarioReport, Settings, Status};
use crate::scenario::parse;
use crate::scenario::report::{FileCheck, Planned, Source, Totals};
use crate::{errln, outln};

type Outcome = Result<i32, Failure>;

/// The files a `check` run reads (each with the line that picks one scenario, if given), and
/// the paths that gave none.
fn check_inputs(paths: &[PathBuf]) -> (Vec<(PathBuf, Option<usize>)>, Vec<String>) {
    let mut files = Vec::new();
    let mut missing = Vec::new();
    for p in paths {
        let (p, line) = super::location::split(p);
        match scenario_files(std::slice::from_ref(&p)) {
            Ok(found) => {
                for note in &found.skipped {
                    errln!("note: {note}");
                }
                if found.files.is_empty() {
                    missing.push(format!(
                        "no scenario files (*.scn) under {}",
                        crate::text::path(&p)
                    ))
                }
                files.extend(found.files.into_iter().map(|f| (f, line)));
            }
            Err(e) => missing.push(e),
        }
    }
    files.sort();
    files.dedup();
    (files, missing)
}

/// Runs `check`; with `-o FILE`, the report goes to that file (written safely, and never over
/// an input unless forced) and its summary line to standard output.
pub(super) fn check(
    paths: Vec<PathBuf>,
    (format, report_file): (CheckFormat, Option<PathBuf>),
    fail_fast: bool,
    slow_after: Duration,
    settings: &Settings,
    (bless, force): (bool, Force),
) -> Outcome {
    let paths = if paths.is_empty() {
        vec![PathBuf::from("scenarios")]
    } else {
        paths
    };
    if format == CheckFormat::Github {
        super::output::one_line_errors();
    }
    let (files, missing) = check_inputs(&paths);
    let run = |missing| {
        check_files(
            &files,
            missing,
            format,
            fail_fast,
            slow_after,
            settings,
            (bless, force),
        )
    };
    let Some(report_file) = report_file else {
        return run(missing).map(|(code, _)| code);
    };
    refuse_overwriting_input(&report_file, files.iter().map(|(f, _)| f.as_path()), force)?;
    super::output::redirect(SafeFile::create(&report_file, force)?);
    let ran = run(missing);
    super::output::end_redirect(ran.is_ok())?;
    let (code, summary) = ran?;
    outln!("{summary}")?;
    Ok(code)
}

/// Checks the files and writes the report; the exit status and the summary line.
fn check_files(
    files: &[(PathBuf, Option<usize>)],
    missing: Vec<String>,
    format: CheckFormat,
    fail_fast: bool,
    slow_after: Duration,
    settings: &Settings,
    (bless, force): (bool, Force),
) -> Result<(i32, String), Failure> {
    let text = format == CheckFormat::Text;
    let mut totals = Totals {
        unusable: !missing.is_empty(),
        ..Totals::default()
    };
    for m in &missing {
        errln!("error: {m}");
    }
    let run = Run {
        text,
        fail_fast,
        keep: !text || bless,
        settings,
        slow: SlowWatch::new(slow_after),
        spinner: super::progress::Progress::start("check"),
        diagrams: Cell::new(settings.diagrams),
    };
    let Ran {
        checks,
        stopped,
        selected,
    } = run.files(files, &mut totals)?;
    if let (Some(f), 0) = (&settings.filter, selected) {
        if !totals.unusable && !stopped {
            errln!(
                "error: no scenario title contains `{}`",
                crate::text::escape(f)
            );
            totals.unusable = true;
        }
    }
    let mut code = if interrupted() {
        INTERRUPTED_EXIT
    } else {
        totals.exit_code()
    };
    if bless && code == 1 {
        let done = super::bless::bless(&checks, force)?;
        let (written, left) = (done.written, done.left);
        outln!(
            "blessed {}; {} left as they are",
            crate::text::count(written, "expectation"),
            crate::text::count(left, "failure")
        )?;
        if done.unwritten > 0 {
            code = 2;
        } else if left == 0 {
            code = 0;
        }
    }
    match format {
        CheckFormat::Junit => {
            let doc = crate::scenario::ci_report::junit(&checks, &missing);
            super::output::out(format_args!("{doc}"))?;
        }
        CheckFormat::Github => {
            let commands = crate::scenario::ci_report::github(&checks, &missing);
            super::output::out(format_args!("{commands}"))?;
            outln!("{}", totals.line())?;
        }
        CheckFormat::Html => {
            let run = crate::scenario::html_report::Run {
                inputs: &missing,
                totals: &totals,
                interrupted: interrupted(),
            };
            let page = crate::scenario::html_report::html(&checks, &run);
            super::output::out(format_args!("{page}"))?;
        }
        CheckFormat::Text => {
            if interrupted() {
                outln!("interrupted: the results above are those that finished")?;
            }
            super::output::painted_line(&super::colour::summary(&totals.line()))?;
        }
        CheckFormat::Json => {
            let files: Vec<_> = checks.iter().map(FileCheck::json).collect();
            let doc = serde_json::json!({
                "files": files,
                "errors": missing,
                "passed": totals.passed,
                "failed": totals.failed,
                "skipped": totals.skipped,
                "pending": totals.pending,
                "interrupted": interrupted(),
                "exit": code,
            });
            super::output::json(&doc)?;
        }
    }
    Ok((code, totals.line()))
}

/// How one `check` run goes through its files.
struct Run<'a> {
    text: bool,
    fail_fast: bool,
    /// Keep every file's reports for the end (a format written at the end, `--bless`).
    keep: bool,
    settings: &'a Settings,
    slow: SlowWatch,
    spinner: Option<super::progress::Progress>,
    /// How many more failures of the run keep their diagram (the HTML report's): each
    /// scenario keeps some, and the first ones in the report's order are kept.
    diagrams: Cell<usize>,
}

/// What [`Run::files`] gives.
struct Ran {
    /// The files checked, when kept.
    checks: Vec<FileCheck>,
    /// The run stopped early (`--fail-fast`, Ctrl-C).
    stopped: bool,
    /// Scenarios that ran.
    selected: usize,
}

/// What a scenario's job sends back to the main thread.
// A report is moved once per scenario: boxing it would buy nothing.
#[allow(clippy::large_enum_variant)]
enum Message {
    /// Scenario `seq` starts on a worker.
    Start(u64),
    /// Scenario `seq` is over.
    Done(u64, Job),
}

/// What came of one scenario's job.
#[allow(clippy::large_enum_variant)]
enum Job {
    Report(ScenarioReport),
    /// Not run: the run was stopping when the job's turn came.
    NotRun,
    /// The evaluation panicked; the panic goes on where a run on one thread would have met it.
    Panicked(Box<dyn std::any::Any + Send>),
}

/// A file whose scenarios were handed to the pool and are not all written yet.
struct InFlight {
    /// The file's index in the run's list.
    index: usize,
    line: Option<usize>,
    check: FileCheck,
    /// The jobs of its selected scenarios are numbered `first..first + count`.
    first: u64,
    count: u64,
}

/// How many files and scenarios the main thread plans ahead of the output: enough to keep the
/// workers busy behind a long scenario, few enough that memory stays bounded.
fn window() -> u64 {
    64.max(16 * rayon::current_num_threads() as u64)
}

impl Run<'_> {
    /// Checks `files` in order, writing each scenario's report (text) as soon as it and every
    /// one before it are decided, and adding every file to `totals`. The progress display
    /// ends with it, before the summary is written.
    fn files(
        self,
        files: &[(PathBuf, Option<usize>)],
        totals: &mut Totals,
    ) -> Result<Ran, Failure> {
        let (tx, rx) = channel::<Message>();
        // Set when the output stops: jobs not started by then are not run.
        let cancel = Arc::new(AtomicBool::new(false));
        // Dropping the guard (an early return included) cancels what is still queued.
        let _cancel_on_exit = CancelOnDrop(cancel.clone());
        let mut ran = Ran {
            checks: Vec::new(),
            stopped: false,
            selected: 0,
        };
        let mut queue: VecDeque<InFlight> = VecDeque::new();
        let mut labels: HashMap<u64, String> = HashMap::new();
        let mut done: HashMap<u64, Job> = HashMap::new();
        let (mut running, mut shown) = (BTreeSet::new(), None::<String>);
        let (mut next_file, mut next_seq, mut ahead) = (0, 0u64, 0u64);
        loop {
            while !ran.stopped && next_file < files.len() && ahead < window() {
                let (path, line) = &files[next_file];
                let mut settings = self.settings.clone();
                settings.line = *line;
                let Planned {
                    check,
                    file,
                    selected,
                } = match Source::read(path) {
                    (source, None) => FileCheck::plan(source, &settings),
                    (source, Some(problem)) => Planned {
                        check: FileCheck::unusable(source, problem),
                        file: None,
                        selected: Vec::new(),
                    },
                };
                let first = next_seq;
                if let Some(file) = file {
                    let shared = Arc::new(Shared {
                        src: check.source.src.clone(),
                        file,
                        settings,
                    });
                    for &i in &selected {
                        if let Some(s) = shared.file.scenarios.get(i) {
                            let at = check.source.line_col(s.span.start).0;
                            let label = format!(
                                "{}:{at}  {}",
                                crate::text::escape(&check.source.path),
                                crate::text::escape(&s.title.node)
                            );
                            labels.insert(next_seq, label);
                            spawn(next_seq, i, &shared, &tx, &cancel);
                            next_seq += 1;
                        }
                    }
                }
                ahead += 1 + (next_seq - first);
                queue.push_back(InFlight {
                    index: next_file,
                    line: *line,
                    check,
                    first,
                    count: next_seq - first,
                });
                next_file += 1;
            }
            // Write what is decided, in order.
            while let Some(front) = queue.front_mut() {
                let seq = front.first + front.check.scenarios.len() as u64;
                if !ran.stopped && seq < front.first + front.count {
                    let Some(job) = done.remove(&seq) else { break };
                    ahead -= 1;
                    match job {
                        Job::Report(report) => ran.stopped = self.scenario(front, report)?,
                        Job::NotRun => ran.stopped = true,
                        Job::Panicked(payload) => std::panic::resume_unwind(payload),
                    }
                    continue;
                }
                let Some(front) = queue.pop_front() else {
                    break;
                };
                ahead -= 1 + front.count - front.check.scenarios.len() as u64;
                ran.selected += front.check.scenarios.len();
                self.file_done(front, files, &mut ran, totals)?;
                if ran.stopped {
                    break;
                }
            }
            if ran.stopped {
                // The files the stop left out, read or not.
                let left = queue.iter().map(|f| f.index).chain(next_file..files.len());
                for i in left {
                    totals.skipped += count_scenarios(&files[i].0);
                }
                break;
            }
            if queue.is_empty() {
                if next_file == files.len() {
                    break;
                }
                continue;
            }
            // The front file waits for one of its jobs, which always answers.
            match rx.recv() {
                Ok(Message::Start(seq)) => {
                    running.insert(seq);
                    if let (true, Some(label)) = (self.text, labels.get(&seq)) {
                        self.slow.start(seq, label.clone());
                    }
                }
                Ok(Message::Done(seq, job)) => {
                    running.remove(&seq);
                    self.slow.stop(seq);
                    labels.remove(&seq);
                    done.insert(seq, job);
                }
                // Cannot happen while `tx` is here; stop rather than wait for nothing.
                Err(_) => ran.stopped = true,
            }
            // The display names the first scenario running: the one the output waits for.
            let first = running.first().and_then(|seq| labels.get(seq));
            if let (Some(s), Some(label)) = (&self.spinner, first) {
                if shown.as_ref() != Some(label) {
                    s.label(label.clone());
                    shown = Some(label.clone());
                }
            }
        }
        Ok(ran)
    }

    /// Writes one scenario's report (text); whether the run stops after it.
    fn scenario(&self, at: &mut InFlight, mut report: ScenarioReport) -> Result<bool, Failure> {
        let mut left = self.diagrams.get();
        crate::scenario::html_report::keep_diagrams(&mut report, &mut left);
        self.diagrams.set(left);
        if self.text {
            let source = &at.check.source;
            super::progress::Progress::suspend(&self.spinner, || {
                let written = super::output::painted_line(&super::colour::report(
                    source.scenario_text(&report).trim_end(),
                ));
                err(format_args!("{}", source.scenario_problems(&report)));
                written
            })?;
        }
        let stop = interrupted() || (self.fail_fast && report.status() != Status::Passed);
        at.check.scenarios.push(report);
        Ok(stop)
    }

    /// What follows a file's scenarios: the problems of the file, its part of the totals.
    fn file_done(
        &self,
        at: InFlight,
        files: &[(PathBuf, Option<usize>)],
        ran: &mut Ran,
        totals: &mut Totals,
    ) -> Result<(), Failure> {
        let check = at.check;
        if let (Some(line), true) = (
            at.line,
            check.problems.is_empty() && check.scenarios.is_empty(),
        ) {
            // The line is in no scenario: say which lines are.
            if let Ok(file) = parse::parse_file(&check.source.src) {
                if let Err(e) = super::location::at_line(&file, &check.source, line) {
                    errln!("error: {e}");
                    totals.unusable = true;
                }
            }
        }
        if self.text && !check.problems.is_empty() {
            super::output::painted_line(&super::colour::report(check.header_text().trim_end()))?;
            for p in &check.problems {
                err(format_args!("{}", check.source.render(p)));
            }
        }
        if self.fail_fast && !check.usable() {
            ran.stopped = true;
        }
        if ran.stopped {
            // The scenarios of this file that the stop left out.
            let all = count_scenarios(&files[at.index].0);
            totals.skipped += all.saturating_sub(check.scenarios.len());
        }
        totals.add(&check);
        if self.keep {
            ran.checks.push(check);
        }
        Ok(())
    }
}

/// What the jobs of one file share.
struct Shared {
    file: File,
    src: String,
    settings: Settings,
}

/// Sets the flag when dropped.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Hands scenario `index` of a file to the pool as job `seq`. The jobs run in the order given
/// (files in order: a long file's scenarios start early); the job answers even when it does
/// not run or panics, and an answer nobody waits for any more is dropped.
fn spawn(
    seq: u64,
    index: usize,
    shared: &Arc<Shared>,
    tx: &Sender<Message>,
    cancel: &Arc<AtomicBool>,
) {
    let (shared, tx, cancel) = (shared.clone(), tx.clone(), cancel.clone());
    rayon::spawn_fifo(move || {
        let job = match shared.file.scenarios.get(index) {
            Some(s) if !cancel.load(Ordering::Relaxed) && !interrupted() => {
                let _ = tx.send(Message::Start(seq));
                let evaluate = || evaluate_scenario(&shared.file, &shared.src, &shared.settings, s);
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(evaluate)) {
                    Ok(report) => Job::Report(report),
                    Err(payload) => Job::Panicked(payload),
                }
            }
            _ => Job::NotRun,
        };
        let _ = tx.send(Message::Done(seq, job));
    });
}

/// Names the scenarios that run long, on standard error, so that a run stopped from outside (a
/// CI timeout) has said which scenarios it was in: `SLOW  file:line  title (running for 30 s)`
/// after `first` (30 seconds unless `--slow-after` says otherwise), then at each doubling; each
/// running scenario on its own.
struct SlowWatch {
    running: Arc<Mutex<HashMap<u64, Watched>>>,
    first: Duration,
}

/// A scenario under watch: its label, since when it runs, and when to name it next.
struct Watched {
    label: String,
    since: Instant,
    next: Duration,
}

impl SlowWatch {
    fn new(first: Duration) -> SlowWatch {
        let running: Arc<Mutex<HashMap<u64, Watched>>> = Arc::default();
        let watched = Arc::downgrade(&running);
        // The thread ends with the watch: it holds only a weak reference.
        std::thread::spawn(move || {
            while let Some(running) = watched.upgrade() {
                if let Ok(mut guard) = running.lock() {
                    // In the order the scenarios started.
                    let mut due: Vec<(&u64, &mut Watched)> = guard
                        .iter_mut()
                        .filter(|(_, w)| w.since.elapsed() >= w.next)
                        .collect();
                    due.sort_by_key(|(seq, _)| **seq);
                    for (_, w) in due {
                        let running = w.since.elapsed();
                        errln!("SLOW  {} (running for {} s)", w.label, running.as_secs());
                        w.next = (running * 2).max(Duration::from_secs(1));
                    }
                }
                drop(running);
                std::thread::sleep(Duration::from_millis(250));
            }
        });
        SlowWatch { running, first }
    }

    fn start(&self, seq: u64, label: String) {
        if let Ok(mut guard) = self.running.lock() {
            let (since, next) = (Instant::now(), self.first);
            guard.insert(seq, Watched { label, since, next });
        }
    }

    fn stop(&self, seq: u64) {
        if let Ok(mut guard) = self.running.lock() {
            guard.remove(&seq);
        }
    }
}

/// How many scenarios a file holds, for the `skipped` count of a run that stopped early.
fn count_scenarios(path: &Path) -> usize {
    crate::files::read_bounded(path).map_or(0, |bytes| {
        parse::count_scenarios(&String::from_utf8_lossy(&bytes))
    })
}
