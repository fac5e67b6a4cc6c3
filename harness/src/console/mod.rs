//! What `halfcheck` shows on the terminal: the progress of a run ([`progress`]), the summary
//! at its end ([`summary`]) and the `-v` debugging log ([`logger`]).
//!
//! Progress and log lines go to stderr, the summary to stdout. While a progress bar is live,
//! every stderr line goes through [`eprint_line`], which prints it above the bar instead of
//! tearing it.

pub mod logger;
pub mod progress;
pub mod summary;

use indicatif::ProgressBar;
use std::sync::Mutex;

/// The progress bar on the terminal, while one is drawn.
static LIVE_BAR: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Prints `line` to stderr, above the live progress bar if there is one.
pub fn eprint_line(line: &str) {
    let bar = LIVE_BAR.lock().ok().and_then(|live| live.clone());
    match bar {
        Some(bar) => bar.suspend(|| eprintln!("{line}")),
        None => eprintln!("{line}"),
    }
}

/// Makes `bar` the live bar (`None`: no bar is drawn any more).
fn set_live_bar(bar: Option<ProgressBar>) {
    if let Ok(mut live) = LIVE_BAR.lock() {
        *live = bar;
    }
}
