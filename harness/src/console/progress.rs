//! The progress of a run on stderr: first a line naming the lane, what the run is judged
//! against and where the results that need attention will be listed; then on a terminal, a
//! bar with the counts by status and by verdict and an estimate of the time left; elsewhere
//! (a CI log), a plain line every [`LINE_INTERVAL`] and at the end. Either way, each test
//! that needs attention (fails the run, or flaked) gets one line as soon as it finishes, the
//! first [`LISTED`] of them; a test that ran as expected gets none, whatever its status.
//!
//! What the runner knows shows too: a resumed run starts at the tests its journal holds
//! (counted with the rest, and named in the counts), and the counts say how many tests were
//! run again (`--retries`) and how many of those flaked.

use super::summary::{finding_line, LISTED};
use super::{eprint_line, set_live_bar};
use crate::lane::lane;
use crate::results::{RunInfo, Status, TestResult, Verdict};
use crate::review::{Finding, FindingKind};
use crate::runner::Progress;
use halfcheck_compiler::front::diagnostic::escape;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a plain progress line is printed when stderr is not a terminal.
pub(crate) const LINE_INTERVAL: Duration = Duration::from_secs(10);

/// Shows a run's progress; give it to `runner::run`, then call [`ProgressDisplay::finish`].
pub(crate) struct ProgressDisplay {
    /// The bar, when stderr is a terminal.
    bar: Option<ProgressBar>,
    /// What the run is judged against, and where its failures will be listed, for the first
    /// line.
    plan: Option<(String, String)>,
    state: Mutex<State>,
}

/// What has finished so far.
struct State {
    started: Instant,
    last_line: Instant,
    total: usize,
    done: usize,
    /// Of `done`, the tests the journal held when the run was resumed.
    resumed: usize,
    by_status: BTreeMap<Status, usize>,
    by_verdict: BTreeMap<Verdict, usize>,
    /// Tests run more than once (`--retries`).
    retried: usize,
    /// Of those, the flakes.
    flakes: usize,
    /// Tests that needed attention, each given a line (at most [`LISTED`]).
    listed: usize,
    /// The tests given a line, which the end summary does not list again.
    shown: BTreeSet<String>,
}

impl State {
    /// Nothing finished yet of `total` tests, starting now.
    fn new(total: usize) -> State {
        let now = Instant::now();
        State {
            started: now,
            last_line: now,
            total,
            done: 0,
            resumed: 0,
            by_status: BTreeMap::new(),
            by_verdict: BTreeMap::new(),
            retried: 0,
            flakes: 0,
            listed: 0,
            shown: BTreeSet::new(),
        }
    }
}

impl Default for ProgressDisplay {
    fn default() -> Self {
        Self::new()
    }
}

impl ProgressDisplay {
    /// A bar when stderr is a terminal, plain lines otherwise.
    pub(crate) fn new() -> ProgressDisplay {
        let bar = std::io::stderr().is_terminal().then(|| {
            let style = ProgressStyle::with_template(
                "{elapsed:>4} [{bar:30}] {pos}/{len} eta {eta:<4} {wide_msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(style)
        });
        ProgressDisplay {
            bar,
            plan: None,
            state: Mutex::new(State::new(0)),
        }
    }

    /// The same display, whose first line says what the run is judged `against` and that the
    /// results needing attention will be listed in `failures_csv`.
    pub(crate) fn with_plan(mut self, against: String, failures_csv: &std::path::Path) -> Self {
        self.plan = Some((against, failures_csv.display().to_string()));
        self
    }

    /// The tests the progress gave a line as they finished.
    pub(crate) fn shown(&self) -> BTreeSet<String> {
        self.state
            .lock()
            .map(|state| state.shown.clone())
            .unwrap_or_default()
    }

    /// Draws the bar a last time, where the run got to (a stopped run's bar is not full), and
    /// leaves it on the terminal above the summary; a run that never started draws none.
    pub(crate) fn finish(&self) {
        set_live_bar(None);
        if let Some(bar) = self.bar.as_ref().filter(|bar| bar.length().is_some()) {
            bar.abandon();
            // The cursor is still on the bar's line.
            eprint_line("");
        }
    }
}

impl Progress for ProgressDisplay {
    fn start(
        &self,
        info: &RunInfo,
        to_run: usize,
        done: &BTreeMap<String, TestResult>,
        is_flake: &dyn Fn(&str, &TestResult) -> bool,
    ) {
        log::debug!(
            "{to_run} tests to run on {} ({})",
            info.backend,
            info.renderer
        );
        if let Some(why) = &info.fallback {
            log::warn!("{why}");
        }
        let total = to_run + done.len();
        let plan = self
            .plan
            .as_ref()
            .map(|(against, csv)| {
                format!(", judged against {against}; results that need attention go to {csv}")
            })
            .unwrap_or_default();
        let platform = info
            .platform
            .as_ref()
            .map(|p| format!(" (EGL platform {p})"))
            .unwrap_or_default();
        eprint_line(&format!(
            "{} on {}{}: {total} tests, lane {}{}",
            info.backend,
            escape(&info.renderer),
            escape(&platform),
            escape(&lane(info)),
            escape(&plan)
        ));
        if !done.is_empty() {
            eprint_line(&format!(
                "resuming: {} of {total} tests are in the journal, {to_run} to run",
                done.len()
            ));
        }
        if let Ok(mut state) = self.state.lock() {
            state.total = total;
            for (name, result) in done {
                state.count(result, is_flake(name, result));
            }
            state.resumed = done.len();
            state.started = Instant::now();
            state.last_line = state.started;
            if let Some(bar) = &self.bar {
                bar.set_length(total as u64);
                bar.set_position(done.len() as u64);
                bar.set_message(state.counts());
                // The estimate starts from here: the journal's tests took no time now.
                bar.tick();
                bar.reset_eta();
                bar.enable_steady_tick(Duration::from_millis(200));
                set_live_bar(Some(bar.clone()));
            }
        }
    }

    fn finished(&self, name: &str, result: &TestResult, finding: Option<&Finding>) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        state.count(
            result,
            finding.is_some_and(|f| f.kind == FindingKind::Flake),
        );
        let position = format!("[{}/{}]", state.done, state.total);
        if let Some(finding) = finding {
            state.listed += 1;
            if state.listed <= LISTED {
                state.shown.insert(name.to_string());
                eprint_line(&format!(
                    "{position} {}",
                    finding_line(name, finding, result).trim_end()
                ));
            } else if state.listed == LISTED + 1 {
                eprint_line(&format!(
                    "{position} more results need attention: they are counted here and listed \
                     at the end"
                ));
            }
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
    /// Counts one finished test, which the review calls a flake or not.
    fn count(&mut self, result: &TestResult, flake: bool) {
        self.done += 1;
        *self.by_status.entry(result.status).or_default() += 1;
        if let Some(verdict) = result.verdict {
            *self.by_verdict.entry(verdict).or_default() += 1;
        }
        self.retried += usize::from(!result.attempts.is_empty());
        self.flakes += usize::from(flake);
    }

    /// `pass 120, fail 2; lowered 90, not-lowered 3; retried 2, flake 1; 40 from the
    /// journal`: the non-zero counts.
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
        let mut groups = vec![statuses.join(", ")];
        if !verdicts.is_empty() {
            groups.push(verdicts.join(", "));
        }
        if self.retried > 0 || self.flakes > 0 {
            groups.push(format!("retried {}, flake {}", self.retried, self.flakes));
        }
        if self.resumed > 0 {
            groups.push(format!("{} from the journal", self.resumed));
        }
        groups.join("; ")
    }

    /// `; eta 12 s` from the pace of this run's tests so far, or nothing at the end.
    fn eta(&self, now: Instant) -> String {
        let ran = self.done - self.resumed;
        if ran == 0 || self.done >= self.total {
            return String::new();
        }
        let per_test = now.duration_since(self.started).as_secs_f64() / ran as f64;
        let left = per_test * (self.total - self.done) as f64;
        format!("; eta {left:.0} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Attempt;

    fn state() -> State {
        State::new(10)
    }

    #[test]
    fn the_counts_name_retries_flakes_and_the_journals_tests() {
        let mut state = state();
        let mut lowered = TestResult::with_status(Status::Pass, "");
        lowered.verdict = Some(Verdict::Lowered);
        state.count(&lowered, false);
        state.resumed = 1;
        let mut flaky = TestResult::with_status(Status::Pass, "");
        flaky.flake = true;
        flaky.attempts = vec![Attempt {
            status: Status::Crash,
            verdict: None,
            reason: None,
        }];
        state.count(&flaky, true);
        let mut steady = TestResult::with_status(Status::Crash, "");
        steady.attempts = flaky.attempts.clone();
        state.count(&steady, false);
        assert_eq!(
            state.counts(),
            "pass 2, crash 1; lowered 1; retried 2, flake 1; 1 from the journal"
        );
    }

    #[test]
    fn the_estimate_counts_only_the_tests_this_run_ran() {
        let mut state = state();
        state.done = 6;
        state.resumed = 4;
        // Two tests in 20 s, four left: 40 s, not the 13 s that six tests would give.
        let now = state.started + Duration::from_secs(20);
        assert_eq!(state.eta(now), "; eta 40 s");
    }
}
