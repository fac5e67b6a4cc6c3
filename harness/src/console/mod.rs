//! What `halfcheck` shows on the terminal: the progress of a run ([`progress`]), the summary
//! at its end ([`summary`]) and the `-v` debugging log ([`logger`]).
//!
//! Progress and log lines go to stderr, the summary to stdout ([`print`]). While a progress
//! bar is live, every stderr line goes through [`eprint_line`], which prints it above the bar
//! instead of tearing it. Neither panics on a closed pipe (`halfcheck run ... | head`).

pub(crate) mod logger;
pub(crate) mod progress;
pub(crate) mod summary;

use indicatif::ProgressBar;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The progress bar on the terminal, while one is drawn.
static LIVE_BAR: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Set once stdout could not be written (its reader went away): nothing more is printed there.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Prints `text` to stdout as is. Rust ignores SIGPIPE, so when the reader of a pipe has gone
/// (`halfcheck run ... | head`), a write fails with `BrokenPipe` and `print!` would panic
/// (exit 101) before the report is written. As ripgrep does, a broken pipe ends the output
/// quietly instead: the reader has all it wanted, and the command goes on to write its files
/// and exits with its own status. Any other write error stops stdout output the same way.
pub(crate) fn print(text: &str) {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
}

/// Prints `line` to stderr, above the live progress bar if there is one. A closed stderr
/// (`2>&1 | head`) is ignored, as [`print`] ignores a closed stdout.
pub(crate) fn eprint_line(line: &str) {
    let write = || {
        // Nowhere left to report a failure to write to stderr.
        let _ = writeln!(std::io::stderr(), "{line}");
    };
    let bar = LIVE_BAR.lock().ok().and_then(|live| live.clone());
    match bar {
        Some(bar) => bar.suspend(write),
        None => write(),
    }
}

/// Makes `bar` the live bar (`None`: no bar is drawn any more).
fn set_live_bar(bar: Option<ProgressBar>) {
    if let Ok(mut live) = LIVE_BAR.lock() {
        *live = bar;
    }
}
