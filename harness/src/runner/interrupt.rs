//! Stopping a run early and keeping what it measured: on SIGINT or SIGTERM (or once
//! `--max-fails` is reached) no new test starts, the tests in flight are abandoned (their
//! workers killed, nothing recorded, so `--resume` runs them again) and `results.json` is
//! written from what finished. A second SIGINT or SIGTERM ends the process at once.

use signal_hook::consts::{SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// Set when the run should stop; shared by the parent's threads.
#[derive(Debug, Default)]
pub(super) struct Interrupt {
    /// The signal received, 0 while none.
    signal: Arc<AtomicUsize>,
    /// Why the run stopped when no signal stopped it.
    stopped: OnceLock<String>,
}

impl Interrupt {
    /// An interrupt that SIGINT and SIGTERM set.
    pub(super) fn on_signals() -> Result<Self, String> {
        let interrupt = Interrupt::default();
        let received = Arc::new(AtomicBool::new(false));
        for signal in [SIGINT, SIGTERM] {
            // Registered first, so it runs before `received` is set: only a second signal
            // finds it set and exits.
            signal_hook::flag::register_conditional_shutdown(
                signal,
                128 + signal,
                Arc::clone(&received),
            )
            .and_then(|_| signal_hook::flag::register(signal, Arc::clone(&received)))
            .and_then(|_| {
                signal_hook::flag::register_usize(
                    signal,
                    Arc::clone(&interrupt.signal),
                    signal as usize,
                )
            })
            .map_err(|e| format!("cannot handle signal {signal}: {e}"))?;
        }
        Ok(interrupt)
    }

    /// From now on SIGINT or SIGTERM ends the process at once, with 128 + the signal as its
    /// exit status: for what comes after a run whose results are written (its report),
    /// where a signal has nothing left to save and must not wait for the work to finish.
    pub(super) fn exit_on_signals() -> Result<(), String> {
        let always = Arc::new(AtomicBool::new(true));
        for signal in [SIGINT, SIGTERM] {
            signal_hook::flag::register_conditional_shutdown(
                signal,
                128 + signal,
                Arc::clone(&always),
            )
            .map_err(|e| format!("cannot handle signal {signal}: {e}"))?;
        }
        Ok(())
    }

    /// Stops the run for `reason`, unless it is already stopping.
    pub(super) fn stop(&self, reason: String) {
        self.stopped.set(reason).ok();
    }

    /// Whether the run should stop.
    pub(super) fn is_set(&self) -> bool {
        self.signal.load(Ordering::SeqCst) != 0 || self.stopped.get().is_some()
    }

    /// Why the run stopped, if it did.
    pub(super) fn reason(&self) -> Option<String> {
        match self.signal.load(Ordering::SeqCst) as i32 {
            0 => self.stopped.get().cloned(),
            SIGINT => Some("interrupted by SIGINT".to_string()),
            SIGTERM => Some("interrupted by SIGTERM".to_string()),
            other => Some(format!("interrupted by signal {other}")),
        }
    }

    /// The exit status a signalled run ends with (128 + the signal), if a signal stopped it.
    pub(super) fn exit_code(&self) -> Option<u8> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            signal => u8::try_from(128 + signal).ok(),
        }
    }
}
