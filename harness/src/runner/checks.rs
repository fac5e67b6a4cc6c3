//! What a run is checked against (`--expectations`, `--baseline`) and the judgement of its
//! results: the unexpected results of every check in one iterator, and the flakes apart.
//!
//! The same rule decides, per test while the run goes on, which results are rerun
//! (`--retries`) and counted by `--max-fails`: [`Checks::unexpected`].

use crate::results::{ResultsFile, Status, TestResult};
use crate::verdict::compare::{compare, is_regression, Comparison};
use crate::verdict::expectations::{Expectations, Unexpected};

/// The expectations and baseline a run is checked against.
#[derive(Debug, Default)]
pub struct Checks {
    /// `--expectations`.
    pub expectations: Option<Expectations>,
    /// `--baseline`.
    pub baseline: Option<ResultsFile>,
}

/// The outcome of checking a run.
#[derive(Debug, Default)]
pub struct Judgement {
    /// Results that differ from the expectations, in name order (those the expectations list
    /// as flakes included, marked `flake`).
    pub against_expectations: Vec<Unexpected>,
    /// Regressions against the baseline, in name order.
    pub regressions: Vec<Unexpected>,
    /// With neither expectations nor a baseline: tests that failed, crashed, timed out or
    /// errored, in name order.
    pub failures: Vec<Unexpected>,
    /// Tests whose attempts disagreed (`--retries`): reported, never failing.
    pub flakes: Vec<String>,
    /// The comparison with the baseline, when there is one.
    pub comparison: Option<Comparison>,
}

impl Judgement {
    /// Every result that counts against the run, whatever the check.
    pub fn unexpected(&self) -> impl Iterator<Item = &Unexpected> {
        self.against_expectations
            .iter()
            .chain(&self.regressions)
            .chain(&self.failures)
            .filter(|u| !u.flake)
    }

    /// Whether the run is good: nothing unexpected.
    pub fn good(&self) -> bool {
        self.unexpected().next().is_none()
    }
}

impl Checks {
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

    /// Whether one result counts against the run (see [`Judgement::unexpected`]).
    pub fn unexpected(&self, name: &str, result: &TestResult) -> bool {
        if self.expectations.is_none() && self.baseline.is_none() {
            return is_failure(result.status);
        }
        let against_expectations = self
            .expectations
            .as_ref()
            .is_some_and(|e| e.check_one(name, result).is_some_and(|u| !u.flake));
        let regressed = self
            .baseline
            .as_ref()
            .and_then(|b| b.tests.get(name))
            .is_some_and(|old| is_regression(old, result));
        against_expectations || regressed
    }

    /// Judges a finished (or stopped) run.
    pub fn judge(&self, results: &ResultsFile) -> Judgement {
        let flaky = |name: &str| results.tests.get(name).is_some_and(|r| r.flake);
        let mut judgement = Judgement {
            flakes: results
                .tests
                .iter()
                .filter(|(_, r)| r.flake)
                .map(|(name, _)| name.clone())
                .collect(),
            ..Judgement::default()
        };
        if let Some(expectations) = &self.expectations {
            judgement.against_expectations = expectations
                .check(results)
                .into_iter()
                .filter(|u| !flaky(&u.name))
                .collect();
        }
        if let Some(baseline) = &self.baseline {
            let comparison = compare(baseline, results);
            judgement.regressions = comparison
                .regressions
                .iter()
                .map(|c| Unexpected {
                    name: c.name.clone(),
                    improvement: false,
                    flake: false,
                    expected: c.old.clone(),
                    actual: c.new.clone(),
                    reason: Some("a regression against the baseline".to_string()),
                })
                .collect();
            judgement.comparison = Some(comparison);
        }
        if !self.any() {
            judgement.failures = results
                .tests
                .iter()
                .filter(|(name, r)| is_failure(r.status) && !flaky(name))
                .map(|(name, r)| Unexpected {
                    name: name.clone(),
                    improvement: false,
                    flake: false,
                    expected: "pass".to_string(),
                    actual: r.status.as_str().to_string(),
                    reason: None,
                })
                .collect();
        }
        judgement
    }

    /// Whether any check was asked for.
    pub fn any(&self) -> bool {
        self.expectations.is_some() || self.baseline.is_some()
    }
}

/// The statuses that fail a run that has no expectations.
fn is_failure(status: Status) -> bool {
    matches!(
        status,
        Status::Fail | Status::Crash | Status::Timeout | Status::Error
    )
}
