//! What the terminal sees while a run goes on: the runner calls a [`Progress`] at the start
//! and once per final result. [`PlainProgress`] prints plain lines; a progress bar is another
//! implementation of the same trait.

use crate::results::{RunInfo, Status, TestResult};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Watches a run. Called from the pool's threads, so it must be `Sync`.
pub trait Progress: Sync {
    /// The first worker is up: `total` tests to run now, `done` already in the journal
    /// (`--resume`).
    fn start(&self, info: &RunInfo, total: usize, done: usize);
    /// A test's final result (after any retries), as it arrives.
    fn result(&self, name: &str, result: &TestResult);
}

/// One line per test that did not pass, and a count every 100 tests.
#[derive(Debug, Default)]
pub struct PlainProgress {
    total: AtomicUsize,
    done: AtomicUsize,
}

impl Progress for PlainProgress {
    fn start(&self, _info: &RunInfo, total: usize, done: usize) {
        self.total.store(total + done, Ordering::SeqCst);
        self.done.store(done, Ordering::SeqCst);
    }

    fn result(&self, name: &str, result: &TestResult) {
        let done = self.done.fetch_add(1, Ordering::SeqCst) + 1;
        let total = self.total.load(Ordering::SeqCst);
        if result.flake {
            eprintln!("[{done}/{total}] flake: {name}: {}", result.status.as_str());
        } else if !matches!(result.status, Status::Pass | Status::Skip) {
            let reason = result.reason.as_deref().unwrap_or("");
            let first_line = reason.lines().next().unwrap_or("");
            eprintln!(
                "[{done}/{total}] {}: {name}: {first_line}",
                result.status.as_str()
            );
        } else if done.is_multiple_of(100) || done == total {
            eprintln!("[{done}/{total}]");
        }
    }
}
