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
//! 1. A result whose attempts disagreed (`flake`, from `--retries`) is a flake.
//! 2. With expectations, what differs from them (as deqp-runner treats its baselines): an
//!    unexpected result, an unexpected improvement (still failing until the expectations are
//!    updated), or, for a test the expectations list under `flakes`, a flake.
//! 3. With a baseline, a regression against it (the rule of [`crate::verdict::compare`]).
//! 4. With neither, a test that failed, crashed, timed out or errored.
//!
//! A flake is reported apart and never fails a run; every other finding does.

use crate::results::{ResultsFile, Status, TestResult, Verdict};
use crate::verdict::compare::{compare, is_regression, Comparison};
use crate::verdict::expectations::Expectations;

/// Why a test needs attention.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindingKind {
    /// No expectations or baseline: the test failed, crashed, timed out or errored.
    Failed,
    /// Not what the expectations say.
    Unexpected,
    /// Better than the expectations say (an unexpected pass, more lowering): still a failure
    /// until the expectations are updated.
    Improvement,
    /// Its attempts disagreed (`--retries`), or it differs from the expectations and they
    /// list it under `flakes`: reported apart, never failing.
    Flake,
    /// Worse than in the baseline run.
    Regression,
}

impl FindingKind {
    /// The word the terminal and the CI files use.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::Failed => "failed",
            FindingKind::Unexpected => "unexpected",
            FindingKind::Improvement => "unexpected improvement",
            FindingKind::Flake => "flake",
            FindingKind::Regression => "regression",
        }
    }

    /// Whether this finding makes the run fail.
    pub fn fails_run(self) -> bool {
        self != FindingKind::Flake
    }
}

/// One test that needs attention.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
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
    pub fn describe(&self) -> String {
        self.describe_test(None)
    }

    /// [`Finding::describe`] with the test's name after the kind:
    /// `unexpected: arithmetic/div.shader_test: expected ..., got ...`.
    pub fn describe_test(&self, name: Option<&str>) -> String {
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
pub struct Review {
    /// `--expectations`.
    expectations: Option<Expectations>,
    /// `--baseline`.
    baseline: Option<ResultsFile>,
}

impl Review {
    /// A review against `expectations` and a `baseline` run; with neither, by status alone.
    pub fn new(expectations: Option<Expectations>, baseline: Option<ResultsFile>) -> Review {
        Review {
            expectations,
            baseline,
        }
    }

    /// Why test `name`, which ended with `result`, needs attention; `None` when it does not.
    pub fn finding(&self, name: &str, result: &TestResult) -> Option<Finding> {
        if result.flake {
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
    pub fn fails_run(&self, name: &str, result: &TestResult) -> bool {
        self.finding(name, result)
            .is_some_and(|f| f.kind.fails_run())
    }

    /// Every test of a run that needs attention, with its result and why, in name order.
    pub fn findings<'r>(
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
    pub fn failing(&self, results: &ResultsFile) -> usize {
        results
            .tests
            .iter()
            .filter(|(name, result)| self.fails_run(name, result))
            .count()
    }

    /// Whether the run is good: no finding fails it.
    pub fn passed(&self, results: &ResultsFile) -> bool {
        self.failing(results) == 0
    }

    /// The baseline run, if there is one.
    pub fn baseline(&self) -> Option<&ResultsFile> {
        self.baseline.as_ref()
    }

    /// The run compared with the baseline (fixes, new and removed tests too), if there is one.
    pub fn comparison(&self, results: &ResultsFile) -> Option<Comparison> {
        self.baseline.as_ref().map(|b| compare(b, results))
    }

    /// The expectations' `skips`, as `-x` patterns.
    pub fn skip_patterns(&self) -> Vec<String> {
        self.expectations
            .as_ref()
            .map(|e| e.skip_patterns().to_vec())
            .unwrap_or_default()
    }

    /// The expectations' renderer regex.
    pub fn renderer_guard(&self) -> Option<regex::Regex> {
        self.expectations.as_ref().and_then(|e| e.renderer.clone())
    }
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
