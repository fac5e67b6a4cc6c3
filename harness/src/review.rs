//! Which results of a run need a person's attention, and why: decided in one place, one test at
//! a time, so that nothing that reads a run can disagree with anything else.
//!
//! A [`Review`] holds what a run is checked against (`--expectations`, `--baseline`) and
//! answers for one result ([`Review::finding`]). It sits beside the runner and the outputs,
//! in neither, because both ask it: the runner while tests run (a result that fails the run is
//! run again, `--retries`, and counts towards `--max-fails`), and once a run is over (or
//! stopped, resumed or merged) the exit code, the terminal's summary, `junit.xml`,
//! `failures.csv` and `halfcheck compare` (a review against the older run as baseline).
//!
//! The rule, first match wins:
//! 0. A test the run selected but never ran (`notrun`: a killed shard, a stopped run) fails
//!    it, whatever the expectations or the baseline say: nothing vanishes from a nightly.
//! 1. A test run more than once (`--retries`) of which one attempt met its expectation (or,
//!    without expectations or baseline, did not fail), as deqp-runner defines a flake, is a
//!    flake. Attempts that differ but all miss are no flake: the test is the worst of them
//!    ([`settle`]) and judged as the rules below say.
//! 2. With expectations, what differs from them (as deqp-runner treats its baselines): an
//!    unexpected result, an unexpected improvement (still failing until the expectations are
//!    updated), or, for a test the expectations list under `flakes`, a flake.
//! 3. With a baseline, a regression against it (the rule of [`crate::compare`]).
//! 4. With neither, a test that failed, crashed, timed out or errored.
//!
//! A flake is reported apart and never fails a run; every other finding does.

use crate::compare::{compare, is_regression, Comparison};
use crate::discover::Suites;
use crate::expectations::Expectations;
use crate::results::{Attempt, ResultsFile, Selection, Status, TestResult, Verdict};
use std::path::Path;

/// Why a test needs attention.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FindingKind {
    /// No expectations or baseline: the test failed, crashed, timed out or errored.
    Failed,
    /// Not what the expectations say.
    Unexpected,
    /// Better than the expectations say (an unexpected pass, more lowering): still a failure
    /// until the expectations are updated.
    Improvement,
    /// One of its attempts (`--retries`) met its expectation and another did not, or it
    /// differs from the expectations and they list it under `flakes`: reported apart, never
    /// failing.
    Flake,
    /// Worse than in the baseline run.
    Regression,
    /// Selected, never run (`notrun`).
    NotRun,
}

impl FindingKind {
    /// The word the terminal and the CI files use.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            FindingKind::Failed => "failed",
            FindingKind::Unexpected => "unexpected",
            FindingKind::Improvement => "unexpected improvement",
            FindingKind::Flake => "flake",
            FindingKind::Regression => "regression",
            FindingKind::NotRun => "not run",
        }
    }

    /// Whether this finding makes the run fail.
    pub(crate) fn fails_run(self) -> bool {
        self != FindingKind::Flake
    }
}

/// One test that needs attention.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Finding {
    /// Why.
    pub kind: FindingKind,
    /// What was expected (`pass, lowered`), or what the baseline run gave; `None` without
    /// either.
    pub expected: Option<String>,
    /// What happened (`fail, not-lowered`; for a flake, each attempt: `crash, then pass`).
    pub actual: String,
    /// The expectation entry's reason, when one matched; why a flake is one.
    pub reason: Option<String>,
}

impl Finding {
    /// One line: `unexpected: expected pass, lowered, got pass, not-lowered (reason)`; a
    /// regression reads `regression: pass, lowered -> pass, not-lowered`.
    pub(crate) fn describe(&self) -> String {
        self.describe_test(None)
    }

    /// [`Finding::describe`] with the test's name after the kind:
    /// `unexpected: arithmetic/div.shader_test: expected ..., got ...`.
    pub(crate) fn describe_test(&self, name: Option<&str>) -> String {
        let name = name.map(|n| format!("{n}: ")).unwrap_or_default();
        let what = match (self.kind, &self.expected) {
            (FindingKind::Regression, Some(old)) => format!("{old} -> {}", self.actual),
            (_, Some(expected)) => format!("expected {expected}, got {}", self.actual),
            (_, None) => self.actual.clone(),
        };
        let why = self
            .reason
            .as_deref()
            .map(|r| format!(" ({r})"))
            .unwrap_or_default();
        format!("{}: {name}{what}{why}", self.kind.as_str())
    }
}

/// What a run is checked against, and the judge of its results (see the module's rule).
#[derive(Debug, Default)]
pub(crate) struct Review {
    /// `--expectations`.
    expectations: Option<Expectations>,
    /// `--baseline`.
    baseline: Option<ResultsFile>,
    /// Where they were read from, for people ([`Review::against`]).
    sources: Vec<String>,
}

/// How many results of a run the review found, two questions counted apart: what differs
/// from the expectations, and what changed against the baseline. The first line of a summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Results that fail the run.
    pub failing: usize,
    /// Tests selected and never run (`notrun`), failing the run.
    pub not_run: usize,
    /// With expectations: results that differ from them (improvements included), failing.
    pub unexpected: usize,
    /// Of `unexpected`, the results better than expected.
    pub improvements: usize,
    /// With a baseline: tests worse than in the baseline run; `None` without one.
    pub regressions: Option<usize>,
    /// With a baseline: tests better than in the baseline run.
    pub fixes: usize,
    /// Flakes, which fail nothing.
    pub flakes: usize,
}

impl Tally {
    /// The counts in words, as the first line of the summary and the report say them:
    /// `192 unexpected results (0 improvements); against the baseline 3 regressions, 0 fixes;
    /// 19 not run; 5 flakes`. Without expectations or a baseline, `N failed tests`.
    pub(crate) fn words(&self, judged: bool, has_expectations: bool) -> String {
        let mut parts = Vec::new();
        if !judged {
            parts.push(format!("{} failed tests", self.failing - self.not_run));
        }
        if has_expectations {
            parts.push(format!(
                "{} unexpected results ({} improvements)",
                self.unexpected, self.improvements
            ));
        }
        if let Some(regressions) = self.regressions {
            parts.push(format!(
                "against the baseline {regressions} regressions, {} fixes",
                self.fixes
            ));
        }
        if self.not_run > 0 {
            parts.push(format!("{} not run", self.not_run));
        }
        parts.push(format!("{} flakes", self.flakes));
        parts.join("; ")
    }
}

impl Review {
    /// A review against `expectations` and a `baseline` run; with neither, by status alone.
    pub(crate) fn new(expectations: Option<Expectations>, baseline: Option<ResultsFile>) -> Review {
        Review {
            expectations,
            baseline,
            sources: Vec::new(),
        }
    }

    /// The same review, saying where its expectations and baseline were read from.
    pub(crate) fn read_from(
        mut self,
        expectations: Option<&Path>,
        baseline: Option<&Path>,
    ) -> Review {
        self.sources = expectations
            .map(|p| p.display().to_string())
            .into_iter()
            .chain(baseline.map(|p| format!("baseline {}", p.display())))
            .collect();
        self
    }

    /// Whether the run is judged by expectations or a baseline, not by its statuses alone.
    pub(crate) fn judges_by_checks(&self) -> bool {
        self.expectations.is_some() || self.baseline.is_some()
    }

    /// What the run is judged against, for people: `cases/expectations/llvmpipe.yaml`,
    /// `baseline OLD`, both, or `its statuses (no expectations or baseline)`.
    pub(crate) fn against(&self) -> String {
        match (self.judges_by_checks(), self.sources.is_empty()) {
            (false, _) => "its statuses (no expectations or baseline)".to_string(),
            (true, false) => self.sources.join(" and "),
            (true, true) => "expectations or a baseline".to_string(),
        }
    }

    /// The counts of what the review found in `results`: the findings by kind, and the
    /// regressions and fixes of the comparison with the baseline (whatever the expectations
    /// said of the same tests).
    pub(crate) fn tally(&self, results: &ResultsFile) -> Tally {
        let findings = self.findings(results);
        let count = |keep: &dyn Fn(FindingKind) -> bool| {
            findings.iter().filter(|(_, _, f)| keep(f.kind)).count()
        };
        let comparison = self.comparison(results);
        Tally {
            failing: count(&|k| k.fails_run()),
            not_run: count(&|k| k == FindingKind::NotRun),
            unexpected: count(&|k| matches!(k, FindingKind::Unexpected | FindingKind::Improvement)),
            improvements: count(&|k| k == FindingKind::Improvement),
            regressions: comparison.as_ref().map(|c| c.regressions.len()),
            fixes: comparison.map_or(0, |c| c.fixes.len()),
            flakes: count(&|k| k == FindingKind::Flake),
        }
    }

    /// Whether the run has expectations.
    pub(crate) fn has_expectations(&self) -> bool {
        self.expectations.is_some()
    }

    /// The exit status a finished run gets: 1 when anything fails it or it is incomplete
    /// (a test of its selection never ran), else 0.
    pub(crate) fn exit_code(&self, results: &ResultsFile) -> u8 {
        u8::from(!self.passed(results) || results.run.incomplete.is_some())
    }

    /// Whether the review calls test `name`'s `result` a flake: the one count the progress,
    /// the summary, the CSV files and `junit.xml` share.
    pub(crate) fn is_flake(&self, name: &str, result: &TestResult) -> bool {
        self.finding(name, result)
            .is_some_and(|f| f.kind == FindingKind::Flake)
    }

    /// Why test `name`, which ended with `result`, needs attention; `None` when it does not.
    pub(crate) fn finding(&self, name: &str, result: &TestResult) -> Option<Finding> {
        if result.flake && self.some_attempt_met(name, result) {
            let mut outcomes: Vec<String> = result
                .attempts
                .iter()
                .map(|a| outcome(a.status, a.verdict))
                .collect();
            outcomes.push(outcome(result.status, result.verdict));
            return Some(Finding {
                kind: FindingKind::Flake,
                expected: None,
                actual: outcomes.join(", then "),
                reason: Some("changed when run again".to_string()),
            });
        }
        self.checked(name, result)
    }

    /// Whether one of the attempts at `result` (itself included) fails nothing, by the rules
    /// after the first: a result marked `flake` by a runner that judged otherwise (an older
    /// journal: attempts that differed but all missed) is judged as any other.
    fn some_attempt_met(&self, name: &str, result: &TestResult) -> bool {
        let meets = |r: &TestResult| self.checked(name, r).is_none_or(|f| !f.kind.fails_run());
        meets(result) || result.attempts.iter().any(|a| meets(&attempt_result(a)))
    }

    /// Rules 2 to 4 of the module's rule: `result` as one attempt, whatever its others gave.
    fn checked(&self, name: &str, result: &TestResult) -> Option<Finding> {
        if result.status == Status::NotRun {
            return Some(Finding {
                kind: FindingKind::NotRun,
                expected: None,
                actual: Status::NotRun.as_str().to_string(),
                reason: result
                    .reason
                    .as_deref()
                    .map(|r| r.strip_prefix("not run: ").unwrap_or(r).to_string()),
            });
        }
        if let Some(u) = self
            .expectations
            .as_ref()
            .and_then(|e| e.check_one(name, result))
        {
            let kind = match (u.flake, u.improvement) {
                (true, _) => FindingKind::Flake,
                (false, true) => FindingKind::Improvement,
                (false, false) => FindingKind::Unexpected,
            };
            return Some(Finding {
                kind,
                expected: Some(u.expected),
                actual: u.actual,
                reason: u.reason,
            });
        }
        if let Some(baseline) = &self.baseline {
            let old = baseline
                .tests
                .get(name)
                .filter(|old| is_regression(old, result))?;
            return Some(Finding {
                kind: FindingKind::Regression,
                expected: Some(outcome(old.status, old.verdict)),
                actual: outcome(result.status, result.verdict),
                reason: None,
            });
        }
        let failed = matches!(
            result.status,
            Status::Fail | Status::Crash | Status::Timeout | Status::Error
        );
        (self.expectations.is_none() && failed).then(|| Finding {
            kind: FindingKind::Failed,
            expected: None,
            actual: outcome(result.status, result.verdict),
            reason: None,
        })
    }

    /// Whether `result` fails the run: it is run again (`--retries`) and counts towards
    /// `--max-fails`.
    pub(crate) fn fails_run(&self, name: &str, result: &TestResult) -> bool {
        self.finding(name, result)
            .is_some_and(|f| f.kind.fails_run())
    }

    /// Every test of a run that needs attention, with its result and why, in name order.
    pub(crate) fn findings<'r>(
        &self,
        results: &'r ResultsFile,
    ) -> Vec<(&'r str, &'r TestResult, Finding)> {
        results
            .tests
            .iter()
            .filter_map(|(name, result)| Some((name.as_str(), result, self.finding(name, result)?)))
            .collect()
    }

    /// How many tests of a run fail it.
    pub(crate) fn failing(&self, results: &ResultsFile) -> usize {
        results
            .tests
            .iter()
            .filter(|(name, result)| self.fails_run(name, result))
            .count()
    }

    /// Whether the run is good: no finding fails it.
    pub(crate) fn passed(&self, results: &ResultsFile) -> bool {
        self.failing(results) == 0
    }

    /// The baseline run, if there is one.
    pub(crate) fn baseline(&self) -> Option<&ResultsFile> {
        self.baseline.as_ref()
    }

    /// The run compared with the baseline (fixes, new and removed tests too), if there is one.
    pub(crate) fn comparison(&self, results: &ResultsFile) -> Option<Comparison> {
        self.baseline.as_ref().map(|b| compare(b, results))
    }

    /// What is stale in the expectations of a run that selected `selection`
    /// (`Expectations::stale`): one line naming the stale entries (the first few), and one
    /// naming the suite root when the tests' names start with another folder than the
    /// entries'. Empty without expectations; an error when the run's tests cannot be listed.
    pub(crate) fn stale(&self, selection: Option<&Selection>) -> Result<Vec<String>, String> {
        const NAMED: usize = 3;
        let Some(expectations) = &self.expectations else {
            return Ok(Vec::new());
        };
        let selection = selection
            .ok_or_else(|| "the run does not record which tests it selected".to_string())?;
        let suites = Suites::of(selection)?;
        let stale = expectations.stale(&suites);
        let mut lines = Vec::new();
        if !stale.is_empty() {
            let more = stale.len().saturating_sub(NAMED);
            lines.push(format!(
                "stale expectations: {} {} no test of the run's suites: {}{}",
                stale.len(),
                if stale.len() == 1 {
                    "entry matches"
                } else {
                    "entries match"
                },
                stale[..stale.len().min(NAMED)].join("; "),
                if more > 0 {
                    format!("; and {more} more")
                } else {
                    String::new()
                }
            ));
        }
        let roots: std::collections::BTreeSet<&str> = suites
            .names()
            .filter_map(|n| n.split_once('/').map(|(root, _)| root))
            .collect();
        let written = expectations.roots();
        if !roots.is_empty()
            && !written.is_empty()
            && written.iter().all(|w| !roots.contains(w.as_str()))
        {
            let quote = |set: Vec<&str>| {
                set.iter()
                    .map(|r| format!("'{r}/'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            lines.push(format!(
                "the tests' names start with their suite root's folder, {}, the expectations' \
                 entries with {}: run the suite from a folder of that name, or rename the entries",
                quote(roots.into_iter().collect()),
                quote(written.iter().map(String::as_str).collect())
            ));
        }
        Ok(lines)
    }

    /// `--strict-expectations`: an error holding [`Review::stale`]'s lines, or saying why
    /// they cannot be known.
    pub(crate) fn refuse_stale(&self, selection: Option<&Selection>) -> Result<(), String> {
        let lines = self
            .stale(selection)
            .map_err(|e| format!("cannot check the expectations for stale entries: {e}"))?;
        if lines.is_empty() {
            Ok(())
        } else {
            Err(format!("{} (--strict-expectations)", lines.join("\n")))
        }
    }

    /// The expectations' `skips`, as `-x` patterns.
    pub(crate) fn skip_patterns(&self) -> Vec<String> {
        self.expectations
            .as_ref()
            .map(Expectations::skip_patterns)
            .unwrap_or_default()
    }

    /// The expectations' renderer regex.
    pub(crate) fn renderer_guard(&self) -> Option<regex::Regex> {
        self.expectations.as_ref().and_then(|e| e.renderer.clone())
    }
}

/// The one result of a test that was run `runs.len()` times (`--retries`, oldest first), as
/// deqp-runner settles them: when the last run does not fail (`fails`) and an earlier one did,
/// the test is a flake, the last run its result and the others its `attempts`. Otherwise every
/// run missed: the result is the worst of them (by [`severity`], the earliest of equals), the
/// others its `attempts`, and no flake, so it fails the run. `None` for no runs.
pub(crate) fn settle(
    runs: Vec<TestResult>,
    fails: impl Fn(&TestResult) -> bool,
) -> Option<TestResult> {
    let last = runs.len().checked_sub(1)?;
    let flake = last > 0 && !fails(&runs[last]);
    let keep = if flake {
        last
    } else {
        // `max_by_key` keeps the last of equals; reversed, the earliest.
        (0..runs.len())
            .rev()
            .max_by_key(|&i| severity(runs[i].status))
            .unwrap_or(last)
    };
    let mut attempts = Vec::new();
    let mut kept = None;
    for (i, mut run) in runs.into_iter().enumerate() {
        if i == keep {
            kept = Some(run);
        } else {
            attempts.push(Attempt {
                status: run.status,
                verdict: run.verdict,
                reason: run.reason.take(),
            });
        }
    }
    let mut result = kept?;
    result.attempts = attempts;
    result.flake = flake;
    Some(result)
}

/// How bad a status is, for [`settle`]: a crash is the worst, then a timeout, an error, a
/// failure, a warning, a pass, and a skip (which ran nothing).
pub(crate) fn severity(status: Status) -> u8 {
    match status {
        Status::NotRun | Status::Skip => 0,
        Status::Pass => 1,
        Status::Warn => 2,
        Status::Fail => 3,
        Status::Error => 4,
        Status::Timeout => 5,
        Status::Crash => 6,
    }
}

/// An earlier attempt as a result of its own, to be judged.
fn attempt_result(attempt: &Attempt) -> TestResult {
    let mut result = TestResult::with_status(attempt.status, "");
    result.reason = attempt.reason.clone();
    result.verdict = attempt.verdict;
    result
}

/// `status` or `status, verdict`, as findings show a result.
fn outcome(status: Status, verdict: Option<Verdict>) -> String {
    match verdict {
        Some(v) => format!("{}, {v}", status.as_str()),
        None => status.as_str().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Attempt, RunInfo, FORMAT};

    fn result(status: Status, verdict: Option<Verdict>) -> TestResult {
        let mut result = TestResult::with_status(status, "");
        result.verdict = verdict;
        result
    }

    fn run(tests: &[(&str, Status, Option<Verdict>)]) -> ResultsFile {
        ResultsFile {
            format: FORMAT.into(),
            run: RunInfo::default(),
            tests: tests
                .iter()
                .map(|&(name, status, verdict)| (name.to_string(), result(status, verdict)))
                .collect(),
        }
    }

    fn names(findings: &[(&str, &TestResult, Finding)]) -> Vec<String> {
        findings.iter().map(|(n, _, _)| n.to_string()).collect()
    }

    #[test]
    fn without_expectations_bad_statuses_fail_the_run_and_warnings_do_not() {
        let results = run(&[
            ("a", Status::Pass, Some(Verdict::NotLowered)),
            ("b", Status::Warn, None),
            ("c", Status::Crash, None),
            ("d", Status::Skip, None),
        ]);
        let review = Review::default();
        let findings = review.findings(&results);
        assert_eq!(names(&findings), ["c"]);
        assert_eq!(findings[0].2.describe(), "failed: crash");
        assert!(!review.passed(&results));
    }

    #[test]
    fn with_expectations_only_what_differs_counts_and_listed_flakes_never_fail() {
        let expectations = Expectations::parse(
            "default: {status: pass, verdict: lowered}\n\
             tests:\n  - name: known\n    status: fail\n    reason: a driver bug\n\
             flakes: ['^flaky']\n",
        )
        .expect("parses");
        let results = run(&[
            ("known", Status::Fail, Some(Verdict::Lowered)),
            ("lost", Status::Pass, Some(Verdict::NotLowered)),
            ("flaky", Status::Crash, None),
        ]);
        let review = Review::new(Some(expectations), None);
        let findings = review.findings(&results);
        assert_eq!(names(&findings), ["flaky", "lost"]);
        assert_eq!(findings[0].2.kind, FindingKind::Flake);
        assert_eq!(
            findings[1].2.describe(),
            "unexpected: expected pass, lowered, got pass, not-lowered"
        );
        assert_eq!(review.failing(&results), 1);
        assert!(review.passed(&run(&[("flaky", Status::Crash, None)])));
    }

    #[test]
    fn a_baseline_makes_lost_lowering_a_regression() {
        let old = run(&[("t", Status::Pass, Some(Verdict::Lowered))]);
        let new = run(&[("t", Status::Pass, Some(Verdict::NotLowered))]);
        let review = Review::new(None, Some(old));
        let finding = review.finding("t", &new.tests["t"]).expect("a finding");
        assert_eq!(
            finding.describe(),
            "regression: pass, lowered -> pass, not-lowered"
        );
        assert_eq!(
            review.comparison(&new).map(|c| c.regressions.len()),
            Some(1)
        );
    }

    /// A result that changed when run again is a flake whatever the checks say, and the rule
    /// the runner retries by never calls it failing.
    #[test]
    fn a_result_whose_attempts_disagree_is_a_flake_that_never_fails() {
        let mut flaky = result(Status::Pass, Some(Verdict::Lowered));
        flaky.flake = true;
        flaky.attempts = vec![Attempt {
            status: Status::Crash,
            verdict: None,
            reason: Some("SIGSEGV".into()),
        }];
        let baseline = run(&[("t", Status::Pass, Some(Verdict::Lowered))]);
        for review in [Review::default(), Review::new(None, Some(baseline))] {
            let finding = review.finding("t", &flaky).expect("a finding");
            assert_eq!(
                finding.describe_test(Some("t")),
                "flake: t: crash, then pass, lowered (changed when run again)"
            );
            assert!(!review.fails_run("t", &flaky));
        }
    }
}
