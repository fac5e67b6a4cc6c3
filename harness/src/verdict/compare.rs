//! `halfcheck compare OLD NEW`: what changed between two runs, and which changes are regressions.
//!
//! A regression is a test whose status got worse in piglit's order (pass, warn, fail, timeout,
//! crash, error), that shows less lowering (any step down from `lowered` or `partial`: to
//! less lowering, or to a verdict that shows none, `undetermined`, `inconsistent`, `unjudged`
//! and no verdict at all included), or that became out of bounds. The reverse of the first
//! and the last, and more lowering, are fixes. Other differences (e.g. pass -> skip) are
//! changes.

use super::classify::Verdict;
use super::expectations::status_rank;
use crate::results::{ResultsFile, TestResult};

/// One test's difference between two runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The test.
    pub name: String,
    /// `status, verdict` before.
    pub old: String,
    /// `status, verdict` after.
    pub new: String,
}

/// Everything that differs between two runs.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Comparison {
    /// Worse than before.
    pub regressions: Vec<Change>,
    /// Better than before.
    pub fixes: Vec<Change>,
    /// Different, neither better nor worse.
    pub changes: Vec<Change>,
    /// Only in the new run.
    pub new_tests: Vec<String>,
    /// Only in the old run.
    pub removed_tests: Vec<String>,
}

/// How one test moved: -1 worse, 0 sideways, +1 better.
fn direction(old: &TestResult, new: &TestResult) -> i8 {
    let old_rank = status_rank(old.status);
    let new_rank = status_rank(new.status);
    if new_rank > old_rank {
        return -1;
    }
    let became_out_of_bounds =
        new.verdict == Some(Verdict::OutOfBounds) && old.verdict != Some(Verdict::OutOfBounds);
    if became_out_of_bounds {
        return -1;
    }
    let lowering = (
        old.verdict.and_then(Verdict::lowering_rank),
        new.verdict.and_then(Verdict::lowering_rank),
    );
    match lowering {
        (Some(a), Some(b)) if b < a => -1,
        (Some(a), None) if a > 0 => -1,
        (Some(a), Some(b)) if b > a => 1,
        _ if new_rank < old_rank => 1,
        _ if old.verdict == Some(Verdict::OutOfBounds) && new.verdict != old.verdict => 1,
        _ => 0,
    }
}

/// `status` or `status, verdict`.
fn describe(result: &TestResult) -> String {
    match result.verdict {
        Some(v) => format!("{}, {v}", result.status.as_str()),
        None => result.status.as_str().to_string(),
    }
}

/// Compares two runs test by test.
pub fn compare(old: &ResultsFile, new: &ResultsFile) -> Comparison {
    let mut out = Comparison::default();
    for (name, new_result) in &new.tests {
        let Some(old_result) = old.tests.get(name) else {
            out.new_tests.push(name.clone());
            continue;
        };
        if old_result.status == new_result.status && old_result.verdict == new_result.verdict {
            continue;
        }
        let change = Change {
            name: name.clone(),
            old: describe(old_result),
            new: describe(new_result),
        };
        match direction(old_result, new_result) {
            d if d < 0 => out.regressions.push(change),
            d if d > 0 => out.fixes.push(change),
            _ => out.changes.push(change),
        }
    }
    out.removed_tests = old
        .tests
        .keys()
        .filter(|name| !new.tests.contains_key(*name))
        .cloned()
        .collect();
    out
}

impl Comparison {
    /// A human-readable report, one section per kind of change.
    pub fn report(&self) -> String {
        let mut text = String::new();
        let mut section = |title: &str, lines: Vec<String>| {
            if !lines.is_empty() {
                text.push_str(&format!("{title} ({}):\n", lines.len()));
                for line in lines {
                    text.push_str(&format!("  {line}\n"));
                }
            }
        };
        let changes = |list: &[Change]| {
            list.iter()
                .map(|c| format!("{}: {} -> {}", c.name, c.old, c.new))
                .collect::<Vec<_>>()
        };
        section("regressions", changes(&self.regressions));
        section("fixes", changes(&self.fixes));
        section("changes", changes(&self.changes));
        section("new tests", self.new_tests.clone());
        section("removed tests", self.removed_tests.clone());
        if text.is_empty() {
            text.push_str("no differences\n");
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{RunInfo, Status, FORMAT};

    fn run(tests: &[(&str, Status, Option<Verdict>)]) -> ResultsFile {
        ResultsFile {
            format: FORMAT.into(),
            run: RunInfo::default(),
            tests: tests
                .iter()
                .map(|(name, status, verdict)| {
                    let mut r = TestResult::with_status(*status, "");
                    r.verdict = *verdict;
                    (name.to_string(), r)
                })
                .collect(),
        }
    }

    #[test]
    fn lost_lowering_and_worse_status_are_regressions() {
        let old = run(&[
            ("a", Status::Pass, Some(Verdict::Lowered)),
            ("b", Status::Pass, None),
            ("c", Status::Fail, Some(Verdict::NotLowered)),
            ("d", Status::Pass, None),
            ("gone", Status::Pass, None),
        ]);
        let new = run(&[
            ("a", Status::Fail, Some(Verdict::NotLowered)),
            ("b", Status::Crash, None),
            ("c", Status::Pass, Some(Verdict::Lowered)),
            ("d", Status::Skip, None),
            ("fresh", Status::Pass, None),
        ]);
        let c = compare(&old, &new);
        let names = |list: &[Change]| list.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&c.regressions), ["a", "b"]);
        assert_eq!(names(&c.fixes), ["c"]);
        assert_eq!(names(&c.changes), ["d"]);
        assert_eq!(c.new_tests, ["fresh"]);
        assert_eq!(c.removed_tests, ["gone"]);
        assert!(c.report().contains("a: pass, lowered -> fail, not-lowered"));
    }

    #[test]
    fn any_step_down_from_lowered_is_a_regression() {
        for new in [
            None,
            Some(Verdict::Partial),
            Some(Verdict::Undetermined),
            Some(Verdict::Inconsistent),
            Some(Verdict::Unjudged),
        ] {
            let old = run(&[("a", Status::Pass, Some(Verdict::Lowered))]);
            let new = run(&[("a", Status::Pass, new)]);
            assert_eq!(compare(&old, &new).regressions.len(), 1, "{new:?}");
        }
        // Not lowered before: deciding nothing now is a change, not a regression.
        let old = run(&[("a", Status::Pass, Some(Verdict::NotLowered))]);
        let new = run(&[("a", Status::Pass, Some(Verdict::Undetermined))]);
        assert_eq!(compare(&old, &new).changes.len(), 1);
    }

    #[test]
    fn becoming_out_of_bounds_is_a_regression_even_with_the_same_status() {
        let old = run(&[("a", Status::Pass, Some(Verdict::Lowered))]);
        let new = run(&[("a", Status::Pass, Some(Verdict::OutOfBounds))]);
        assert_eq!(compare(&old, &new).regressions.len(), 1);
    }
}
