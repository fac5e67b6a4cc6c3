//! `halfcheck compare OLD NEW`: what changed between two runs, and which changes are regressions.
//!
//! A regression is a test whose status got worse in piglit's order (pass, warn, fail, timeout,
//! crash, error), that shows less lowering (any step down from `lowered` or `partial`: to
//! less lowering, or to a verdict that shows none, `undetermined`, `inconsistent`, `unjudged`
//! and no verdict at all included), or that became out of bounds. The reverse of the first
//! and the last, and more lowering, are fixes. Other differences (e.g. pass -> skip) are
//! changes; a new result that flaked (`--retries`) is neither, and is listed apart.
//!
//! A test in one run only is `new` or `removed` only when the other run would have run it: a
//! test the other run's selection left out (paths, `-t`/`-x`, `--test-list`, `--shard`), or
//! that it did not get to (it stopped early), is not compared. The report starts with how the
//! runs' drivers differ, if they do.

use crate::discover::Selected;
use crate::expectations::status_rank;
use crate::results::Verdict;
use crate::results::{ResultsFile, Status, TestResult};

/// One test's difference between two runs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Change {
    /// The test.
    pub name: String,
    /// `status, verdict` before.
    pub old: String,
    /// `status, verdict` after.
    pub new: String,
}

/// Everything that differs between two runs.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Comparison {
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
    /// Different in the new run, whose attempts at it disagreed: neither better nor worse.
    pub flakes: Vec<Change>,
    /// In one run only, which the other did not select or did not get to.
    pub not_compared: Vec<String>,
    /// How the two runs' drivers differ (backend, renderer, emulator fallback).
    pub run_differences: Vec<String>,
}

/// Whether `new` is worse than `old` (see the module's rules).
pub(crate) fn is_regression(old: &TestResult, new: &TestResult) -> bool {
    direction(old, new) < 0
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
pub(crate) fn compare(old: &ResultsFile, new: &ResultsFile) -> Comparison {
    let mut out = Comparison {
        run_differences: run_differences(old, new),
        ..Comparison::default()
    };
    let (old_would_run, new_would_run) = (would_run(old), would_run(new));
    let ran = |r: &&TestResult| r.status != Status::NotRun;
    for (name, new_result) in &new.tests {
        // A test the new run selected but never ran is not compared, as one it left out.
        if new_result.status == Status::NotRun {
            out.not_compared.push(name.clone());
            continue;
        }
        let Some(old_result) = old.tests.get(name).filter(ran) else {
            if old_would_run(name) {
                out.new_tests.push(name.clone());
            } else {
                out.not_compared.push(name.clone());
            }
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
            _ if new_result.flake => out.flakes.push(change),
            d if d < 0 => out.regressions.push(change),
            d if d > 0 => out.fixes.push(change),
            _ => out.changes.push(change),
        }
    }
    for (name, _) in old
        .tests
        .iter()
        .filter(|(name, r)| ran(r) && !new.tests.contains_key(*name))
    {
        if new_would_run(name) {
            out.removed_tests.push(name.clone());
        } else {
            out.not_compared.push(name.clone());
        }
    }
    out.not_compared.sort();
    out
}

/// Whether `run` would have a result for a test of a given name: it selected the test and
/// ran to the end. A run that records no selection (an older results file) selected all.
fn would_run(run: &ResultsFile) -> impl Fn(&str) -> bool {
    let complete = run.run.incomplete.is_none();
    let selected = run
        .run
        .selection
        .as_ref()
        .map(Selected::new)
        .and_then(Result::ok);
    move |name| complete && selected.as_ref().is_none_or(|s| s.selects(name))
}

/// One line per way the two runs' drivers differ.
fn run_differences(old: &ResultsFile, new: &ResultsFile) -> Vec<String> {
    let mut lines = Vec::new();
    let (a, b) = (&old.run, &new.run);
    if a.backend != b.backend {
        lines.push(format!("backend: {} -> {}", a.backend, b.backend));
    }
    if a.renderer != b.renderer {
        lines.push(format!("renderer: '{}' -> '{}'", a.renderer, b.renderer));
    }
    for (which, run) in [("old", a), ("new", b)] {
        if let Some(why) = &run.fallback {
            lines.push(format!("the {which} run fell back to the emulator: {why}"));
        }
    }
    lines
}

impl Comparison {
    /// A human-readable report, one section per kind of change, every test listed
    /// (`halfcheck compare`).
    pub(crate) fn report(&self) -> String {
        self.report_listing(usize::MAX)
    }

    /// The report with at most `listed` tests per section, each cut section ending in how many
    /// more there are and the command that lists them all (the console after a run).
    pub(crate) fn report_listing(&self, listed: usize) -> String {
        let mut text = String::new();
        let mut section = |title: &str, lines: Vec<String>| {
            if !lines.is_empty() {
                text.push_str(&format!("{title} ({}):\n", lines.len()));
                let more = lines.len().saturating_sub(listed);
                for line in lines.into_iter().take(listed) {
                    text.push_str(&format!("  {line}\n"));
                }
                if more > 0 {
                    text.push_str(&format!(
                        "  ... and {more} more (`halfcheck compare BASELINE RESULTS` lists them all)\n"
                    ));
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
        section("flakes", changes(&self.flakes));
        section("new tests", self.new_tests.clone());
        section("removed tests", self.removed_tests.clone());
        if text.is_empty() {
            text.push_str("no differences\n");
        }
        if !self.not_compared.is_empty() {
            text.push_str(&format!(
                "not compared: {} tests in one run only, which the other did not select or \
                 did not get to\n",
                self.not_compared.len()
            ));
        }
        if !self.run_differences.is_empty() {
            let mut header = String::from("the runs differ:\n");
            for line in &self.run_differences {
                header.push_str(&format!("  {line}\n"));
            }
            text.insert_str(0, &header);
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
        let cut = c.report_listing(1);
        assert!(cut.contains(
            "regressions (2):\n  a: pass, lowered -> fail, not-lowered\n  ... and 1 more"
        ));
        assert!(!cut.contains("b: pass -> crash"), "{cut}");
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
