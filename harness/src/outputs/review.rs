//! Which results of a run need a person's attention, decided once for the exit code, the
//! terminal's summary, `junit.xml` and `failures.csv`, so they never disagree.
//!
//! With expectations or a baseline, only what differs from them counts (as deqp-runner treats
//! its baselines): an unexpected result, an unexpected improvement, a regression. A result
//! listed under the expectations' `flakes` is reported but does not count. Without either, a
//! test that failed, crashed, timed out or errored counts.

use crate::results::{ResultsFile, Status};
use crate::verdict::compare::Comparison;
use crate::verdict::expectations::Expectations;
use std::collections::BTreeMap;

/// Why a test is in the review.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindingKind {
    /// No expectations: the test failed, crashed, timed out or errored.
    Failed,
    /// Not what the expectations say.
    Unexpected,
    /// Better than the expectations say (an unexpected pass, more lowering): still a failure
    /// until the expectations are updated.
    Improvement,
    /// Not what the expectations say, but listed under `flakes`: reported, never failing.
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
    /// What happened (`fail, not-lowered`).
    pub actual: String,
    /// The expectation entry's reason, when one matched.
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

/// The findings of one run, by test name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Review {
    /// Every test that needs attention, with why.
    pub findings: BTreeMap<String, Finding>,
}

impl Review {
    /// Reviews `results` against `expectations` and a comparison with a baseline run; with
    /// neither, by status alone.
    pub fn new(
        results: &ResultsFile,
        expectations: Option<&Expectations>,
        baseline: Option<&Comparison>,
    ) -> Review {
        let mut findings = BTreeMap::new();
        if let Some(expectations) = expectations {
            for u in expectations.check(results) {
                let kind = match (u.flake, u.improvement) {
                    (true, _) => FindingKind::Flake,
                    (false, true) => FindingKind::Improvement,
                    (false, false) => FindingKind::Unexpected,
                };
                let finding = Finding {
                    kind,
                    expected: Some(u.expected),
                    actual: u.actual,
                    reason: u.reason,
                };
                findings.insert(u.name, finding);
            }
        }
        if let Some(comparison) = baseline {
            for change in &comparison.regressions {
                findings.entry(change.name.clone()).or_insert(Finding {
                    kind: FindingKind::Regression,
                    expected: Some(change.old.clone()),
                    actual: change.new.clone(),
                    reason: None,
                });
            }
        }
        if expectations.is_none() && baseline.is_none() {
            for (name, result) in &results.tests {
                if matches!(
                    result.status,
                    Status::Fail | Status::Crash | Status::Timeout | Status::Error
                ) {
                    let actual = match result.verdict {
                        Some(v) => format!("{}, {v}", result.status.as_str()),
                        None => result.status.as_str().to_string(),
                    };
                    let finding = Finding {
                        kind: FindingKind::Failed,
                        expected: None,
                        actual,
                        reason: None,
                    };
                    findings.insert(name.clone(), finding);
                }
            }
        }
        Review { findings }
    }

    /// Whether the run is good: no finding makes it fail.
    pub fn passed(&self) -> bool {
        !self.findings.values().any(|f| f.kind.fails_run())
    }

    /// How many findings make the run fail.
    pub fn failing(&self) -> usize {
        self.findings
            .values()
            .filter(|f| f.kind.fails_run())
            .count()
    }

    /// The finding for `name`, if the test has one.
    pub fn finding(&self, name: &str) -> Option<&Finding> {
        self.findings.get(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{RunInfo, TestResult, Verdict, FORMAT};
    use crate::verdict::compare::compare;

    fn run(tests: &[(&str, Status, Option<Verdict>)]) -> ResultsFile {
        ResultsFile {
            format: FORMAT.into(),
            run: RunInfo::default(),
            tests: tests
                .iter()
                .map(|&(name, status, verdict)| {
                    let mut result = TestResult::with_status(status, "");
                    result.verdict = verdict;
                    (name.to_string(), result)
                })
                .collect(),
        }
    }

    #[test]
    fn without_expectations_bad_statuses_fail_the_run_and_warnings_do_not() {
        let results = run(&[
            ("a", Status::Pass, Some(Verdict::NotLowered)),
            ("b", Status::Warn, None),
            ("c", Status::Crash, None),
            ("d", Status::Skip, None),
        ]);
        let review = Review::new(&results, None, None);
        assert_eq!(review.findings.keys().collect::<Vec<_>>(), ["c"]);
        assert_eq!(review.findings["c"].describe(), "failed: crash");
        assert!(!review.passed());
    }

    #[test]
    fn with_expectations_only_what_differs_counts_and_flakes_never_fail() {
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
        let review = Review::new(&results, Some(&expectations), None);
        assert_eq!(review.findings.len(), 2);
        assert_eq!(
            review.findings["lost"].describe(),
            "unexpected: expected pass, lowered, got pass, not-lowered"
        );
        assert_eq!(review.findings["flaky"].kind, FindingKind::Flake);
        assert!(!review.passed());
        let flaky_only = Review::new(
            &run(&[("flaky", Status::Crash, None)]),
            Some(&expectations),
            None,
        );
        assert!(flaky_only.passed());
    }

    #[test]
    fn a_baseline_makes_lost_lowering_a_regression() {
        let old = run(&[("t", Status::Pass, Some(Verdict::Lowered))]);
        let new = run(&[("t", Status::Pass, Some(Verdict::NotLowered))]);
        let review = Review::new(&new, None, Some(&compare(&old, &new)));
        assert_eq!(
            review.findings["t"].describe(),
            "regression: pass, lowered -> pass, not-lowered"
        );
    }
}
