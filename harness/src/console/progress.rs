//! The progress of a run on stderr: on a terminal, a bar with the counts by status and by
//! verdict and an estimate of the time left; elsewhere (a CI log), a plain line every
//! [`LINE_INTERVAL`] and at the end. Either way, each test that did not pass (fail, warn,
//! crash, timeout, error) gets a line of its own as soon as it finishes.

use super::{eprint_line, set_live_bar};
use crate::results::{RunInfo, Status, TestResult, Verdict};
use crate::runner::Progress;
use halfcheck_compiler::front::diagnostic::escape;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a plain progress line is printed when stderr is not a terminal.
pub const LINE_INTERVAL: Duration = Duration::from_secs(10);

/// Shows a run's progress; give it to `runner::run`, then call [`ProgressDisplay::finish`].
pub struct ProgressDisplay {
    /// The bar, when stderr is a terminal.
    bar: Option<ProgressBar>,
    state: Mutex<State>,
}

/// What has finished so far.
struct State {
    started: Instant,
    last_line: Instant,
    total: usize,
    done: usize,
    by_status: BTreeMap<Status, usize>,
    by_verdict: BTreeMap<Verdict, usize>,
}

impl Default for ProgressDisplay {
    fn default() -> Self {
        Self::new()
    }
}

impl ProgressDisplay {
    /// A bar when stderr is a terminal, plain lines otherwise.
    pub fn new() -> ProgressDisplay {
        let bar = std::io::stderr().is_terminal().then(|| {
            let style = ProgressStyle::with_template(
                "{elapsed:>4} [{bar:30}] {pos}/{len} eta {eta:<4} {wide_msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(style)
        });
        let now = Instant::now();
        ProgressDisplay {
            bar,
            state: Mutex::new(State {
                started: now,
                last_line: now,
                total: 0,
                done: 0,
                by_status: BTreeMap::new(),
                by_verdict: BTreeMap::new(),
            }),
        }
    }

    /// Takes the bar off the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        set_live_bar(None);
    }
}

impl Progress for ProgressDisplay {
    fn start(&self, _info: &RunInfo, total: usize, done: usize) {
        log::debug!("{total} tests to run, {done} already in the journal");
        let total = total + done;
        if let Ok(mut state) = self.state.lock() {
            state.total = total;
            state.done = done;
            state.started = Instant::now();
            state.last_line = state.started;
        }
        if let Some(bar) = &self.bar {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            bar.reset_eta();
            bar.enable_steady_tick(Duration::from_millis(200));
            set_live_bar(Some(bar.clone()));
        }
    }

    fn result(&self, name: &str, result: &TestResult) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        state.done += 1;
        *state.by_status.entry(result.status).or_default() += 1;
        if let Some(verdict) = result.verdict {
            *state.by_verdict.entry(verdict).or_default() += 1;
        }
        let position = format!("[{}/{}]", state.done, state.total);
        if !matches!(result.status, Status::Pass | Status::Skip) {
            let reason = result.reason.as_deref().unwrap_or("");
            let first = reason.lines().next().unwrap_or("");
            eprint_line(&format!(
                "{position} {}: {}: {}",
                result.status.as_str(),
                escape(name),
                escape(first)
            ));
        }
        let counts = state.counts();
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                bar.set_message(counts);
            }
            None => {
                let now = Instant::now();
                let end = state.done == state.total;
                if end || now.duration_since(state.last_line) >= LINE_INTERVAL {
                    state.last_line = now;
                    eprint_line(&format!("{position} {counts}{}", state.eta(now)));
                }
            }
        }
    }
}

impl State {
    /// `pass 120, fail 2; lowered 90, not-lowered 3`: the non-zero counts.
    fn counts(&self) -> String {
        let statuses: Vec<String> = self
            .by_status
            .iter()
            .map(|(s, n)| format!("{} {n}", s.as_str()))
            .collect();
        let verdicts: Vec<String> = self
            .by_verdict
            .iter()
            .map(|(v, n)| format!("{v} {n}"))
            .collect();
        if verdicts.is_empty() {
            statuses.join(", ")
        } else {
            format!("{}; {}", statuses.join(", "), verdicts.join(", "))
        }
    }

    /// `; eta 12 s` from the pace so far, or nothing at the end.
    fn eta(&self, now: Instant) -> String {
        if self.done == 0 || self.done >= self.total {
            return String::new();
        }
        let per_test = now.duration_since(self.started).as_secs_f64() / self.done as f64;
        let left = per_test * (self.total - self.done) as f64;
        format!("; eta {left:.0} s")
    }
}
