//! Writing to standard output and error without panicking.
//!
//! `println!` panics when standard output is closed (`arbiter moves | head -1`) or full
//! (`> /dev/full`). Commands write through [`out`] instead, which turns a failed write into a
//! [`Failure`] that ends the command: a closed pipe quietly, as other command-line tools do,
//! and any other write error with one line on standard error. Standard error itself is written
//! with [`err`], which ignores failures: there is nowhere left to report them. A report that
//! goes to a file (`check -o`) is sent there by [`redirect`], written safely.
//!
//! [`outln!`] and [`errln!`] are for lines people read: they show control characters escaped
//! ([`crate::text::escape_lines`]), so that a title or a file name cannot drive the terminal.
//! [`out`] and [`err`] write as given, for machine formats (which escape by their own rules)
//! and for text escaped before it was coloured; [`json`] and [`json_line`] write JSON, whose
//! serializer escapes on its own, as JSON escapes (never through [`outln!`], whose escapes
//! would make it invalid). Under `--format github`, [`err`] also puts
//! every message on one line ([`one_line_errors`]): the runner reads workflow commands from
//! standard error too.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::safe_write::SafeFile;

/// Why a command ended without its normal exit status.
#[derive(Debug)]
pub enum Failure {
    /// Input that cannot be used: a message for standard error (exit status 2).
    Input(String),
    /// A problem already rendered with its location (exit status 2).
    Rendered(String),
    /// Standard output was closed by the reader (a pipe to `head`, `true`).
    Closed,
    /// Standard output could not be written (a full disk, a device error).
    Write(io::Error),
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Input(message)
    }
}

/// The exit status for a closed output pipe: what a shell reports for a process ended by
/// SIGPIPE (128 + 13), so pipelines behave as with other tools.
pub const CLOSED_PIPE: i32 = 141;

impl Failure {
    /// Reports the failure on standard error and gives the exit status.
    pub fn finish(self) -> i32 {
        match self {
            Failure::Input(message) => {
                crate::errln!("error: {message}");
                2
            }
            Failure::Rendered(text) => {
                err(format_args!("{text}"));
                2
            }
            Failure::Closed => CLOSED_PIPE,
            Failure::Write(e) => {
                err(format_args!("error: cannot write the output: {e}\n"));
                2
            }
        }
    }
}

/// Where the report goes instead of standard output (`check -o FILE`), while it is written.
static REPORT_FILE: Mutex<Option<SafeFile>> = Mutex::new(None);

fn report_file() -> std::sync::MutexGuard<'static, Option<SafeFile>> {
    REPORT_FILE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Sends what [`out`] writes to `file` until [`end_redirect`]. The report goes uncoloured.
pub fn redirect(file: SafeFile) {
    super::colour::plain();
    *report_file() = Some(file);
}

/// Ends a [`redirect`]: with `keep`, the file is put in place of the old one; without, it is
/// dropped and the old one is left as it was.
pub fn end_redirect(keep: bool) -> Result<(), Failure> {
    match report_file().take() {
        Some(file) if keep => file.commit().map_err(Failure::Input),
        _ => Ok(()),
    }
}

/// Writes to standard output, or to the report file of a [`redirect`].
pub fn out(args: fmt::Arguments<'_>) -> Result<(), Failure> {
    if let Some(file) = report_file().as_mut() {
        return file
            .write_fmt(args)
            .map_err(|e| Failure::Input(file.failed(&e)));
    }
    let mut stdout = io::stdout().lock();
    stdout
        .write_fmt(args)
        .and_then(|()| stdout.flush())
        .map_err(|e| match e.kind() {
            io::ErrorKind::BrokenPipe => Failure::Closed,
            _ => Failure::Write(e),
        })
}

static ONE_LINE: AtomicBool = AtomicBool::new(false);

/// From now on, [`err`] writes each message on one line, every control character in it escaped
/// but a last line break: no part of a message can start a line of its own.
pub fn one_line_errors() {
    ONE_LINE.store(true, Ordering::Relaxed);
}

/// Writes to standard error, ignoring failure.
pub fn err(args: fmt::Arguments<'_>) {
    if ONE_LINE.load(Ordering::Relaxed) {
        let text = args.to_string();
        let (body, end) = match text.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (text.as_str(), ""),
        };
        let body = crate::text::escape(body);
        let _ = write!(io::stderr().lock(), "{body}{end}");
        return;
    }
    let _ = io::stderr().lock().write_fmt(args);
}

/// A JSON document on standard output, indented, valid for any text in it and safe on a
/// terminal ([`crate::text::json`]).
pub fn json<T: serde::Serialize + ?Sized>(value: &T) -> Result<(), Failure> {
    let text = crate::text::json::to_string_pretty(value)
        .map_err(|e| Failure::Input(format!("cannot write JSON: {e}")))?;
    out(format_args!("{text}\n"))
}

/// One JSON value on a line of its own (job lines, results), as [`json`] writes it.
pub fn json_line<T: serde::Serialize + ?Sized>(value: &T) -> Result<(), Failure> {
    let text = crate::text::json::to_string(value)
        .map_err(|e| Failure::Input(format!("cannot write JSON: {e}")))?;
    out(format_args!("{text}\n"))
}

/// A line the colour module returned (escaped, then painted), written as it is.
pub fn painted_line(line: &str) -> Result<(), Failure> {
    out(format_args!("{line}\n"))
}

/// A line for people, control characters escaped.
pub fn escaped_line(args: fmt::Arguments<'_>) -> String {
    let mut line = match args.as_str() {
        Some(s) => crate::text::escape_lines(s).into_owned(),
        None => crate::text::escape_lines(&args.to_string()).into_owned(),
    };
    line.push('\n');
    line
}

/// `println!` for standard output through [`out`], control characters escaped; evaluates to
/// `Result<(), Failure>`.
#[macro_export]
macro_rules! outln {
    () => { $crate::cli::output::out(format_args!("\n")) };
    ($($arg:tt)*) => {
        $crate::cli::output::out(format_args!(
            "{}",
            $crate::cli::output::escaped_line(format_args!($($arg)*))
        ))
    };
}

/// `eprintln!` through [`err`], control characters escaped.
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::output::err(format_args!(
            "{}",
            $crate::cli::output::escaped_line(format_args!($($arg)*))
        ))
    };
}
