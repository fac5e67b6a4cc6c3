//! The summary printed at the end of a run (and of `merge`): what ran where (and why it
//! stopped early, if it did), counts by status and by verdict, every result the review found
//! with its numbers, the flakes apart, and the slowest tests.
//!
//! ```text
//! gl on llvmpipe (LLVM 15.0.6, 256 bits): 194 tests in 14 s
//!   status:  190 pass, 2 fail, 2 skip
//!   verdict: 150 lowered, 20 not-lowered, 3 partial, 0 out-of-bounds, 5 undetermined, 12 n/a; 4 without one
//! unexpected: cases/arithmetic/div_scalar.shader_test: expected pass, lowered, got pass, not-lowered
//!     probe line 32 at (0, 0) r: observed 0.33333334 (0x3eaaaaab); mediump (binary16) 0.25, ...
//! 1 unexpected results
//! 1 flakes, reported apart (a flake never fails a run):
//! flake: cases/lowp/mul_vec4.shader_test: crash, then pass (changed when run again)
//!     attempt 1: crash: the worker died (signal 9: SIGKILL)
//! slowest tests:
//!   1.234 s  cases/arithmetic/pow.shader_test
//! ```

use crate::outputs::evidence;
use crate::results::{ResultsFile, Status, TestResult, Verdict};
use crate::review::{Finding, Review};
use halfcheck_compiler::front::diagnostic::escape;
use std::collections::BTreeMap;

/// How many of the slowest tests the summary names.
pub const SLOWEST: usize = 5;

/// The verdicts in the order the summary counts them.
const VERDICTS: [Verdict; 8] = [
    Verdict::Lowered,
    Verdict::NotLowered,
    Verdict::Partial,
    Verdict::OutOfBounds,
    Verdict::Inconsistent,
    Verdict::Undetermined,
    Verdict::Unjudged,
    Verdict::NotApplicable,
];

/// The summary of `results` as reviewed, as lines of text.
pub fn summary(results: &ResultsFile, review: &Review) -> String {
    let fallback = results
        .run
        .fallback
        .as_deref()
        .map(|why| format!(" [fallback: {}]", escape(why)))
        .unwrap_or_default();
    let mut text = format!(
        "{} on {}: {} tests{}{fallback}\n",
        results.run.backend,
        escape(&results.run.renderer),
        results.tests.len(),
        elapsed(results).map_or(String::new(), |s| format!(" in {s} s"))
    );
    if let Some(why) = &results.run.incomplete {
        text.push_str(&format!("incomplete: {}\n", escape(why)));
    }
    text.push_str(&format!("  status:  {}\n", status_counts(results)));
    text.push_str(&format!("  verdict: {}\n", verdict_counts(results)));
    let (failing, flakes): (Vec<_>, Vec<_>) = review
        .findings(results)
        .into_iter()
        .partition(|(_, _, finding)| finding.kind.fails_run());
    for (name, result, finding) in &failing {
        text.push_str(&finding_lines(name, finding, result));
    }
    text.push_str(&format!("{} unexpected results\n", failing.len()));
    if !flakes.is_empty() {
        text.push_str(&format!(
            "{} flakes, reported apart (a flake never fails a run):\n",
            flakes.len()
        ));
        for (name, result, finding) in &flakes {
            text.push_str(&finding_lines(name, finding, result));
        }
    }
    let mut by_time: Vec<(&String, f64)> = results
        .tests
        .iter()
        .map(|(name, r)| (name, r.duration_s))
        .collect();
    by_time.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    if !by_time.is_empty() {
        text.push_str("slowest tests:\n");
        for (name, seconds) in by_time.into_iter().take(SLOWEST) {
            text.push_str(&format!("  {seconds:7.3} s  {}\n", escape(name)));
        }
    }
    text
}

/// A finding's line and, indented below it, the numbers behind the result.
fn finding_lines(name: &str, finding: &Finding, result: &TestResult) -> String {
    let mut text = format!("{}\n", escape(&finding.describe_test(Some(name))));
    for line in evidence::lines(result) {
        text.push_str(&format!("    {}\n", escape(&line)));
    }
    text
}

/// `190 pass, 2 fail, 2 skip`: the statuses that occur, in piglit's order.
fn status_counts(results: &ResultsFile) -> String {
    let mut counts: BTreeMap<Status, usize> = BTreeMap::new();
    for result in results.tests.values() {
        *counts.entry(result.status).or_default() += 1;
    }
    let list: Vec<String> = counts
        .iter()
        .map(|(status, n)| format!("{n} {}", status.as_str()))
        .collect();
    if list.is_empty() {
        "none".to_string()
    } else {
        list.join(", ")
    }
}

/// Every verdict's count, zeros included, then the tests without a verdict.
fn verdict_counts(results: &ResultsFile) -> String {
    let mut counts = [0usize; VERDICTS.len()];
    let mut without = 0;
    for result in results.tests.values() {
        match result.verdict {
            Some(verdict) => counts[position(verdict)] += 1,
            None => without += 1,
        }
    }
    let list: Vec<String> = VERDICTS
        .iter()
        .zip(counts)
        .map(|(verdict, n)| format!("{n} {verdict}"))
        .collect();
    format!("{}; {without} without one", list.join(", "))
}

/// Where `verdict` is in [`VERDICTS`] (a new verdict must be placed there to compile).
fn position(verdict: Verdict) -> usize {
    match verdict {
        Verdict::Lowered => 0,
        Verdict::NotLowered => 1,
        Verdict::Partial => 2,
        Verdict::OutOfBounds => 3,
        Verdict::Inconsistent => 4,
        Verdict::Undetermined => 5,
        Verdict::Unjudged => 6,
        Verdict::NotApplicable => 7,
    }
}

/// Whole seconds from the run's start to its finish, when both can be read.
fn elapsed(results: &ResultsFile) -> Option<u64> {
    let at = |t: &str| humantime::parse_rfc3339(t).ok();
    let (start, end) = (at(&results.run.started)?, at(&results.run.finished)?);
    end.duration_since(start).ok().map(|d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{RunInfo, TestResult, FORMAT};

    #[test]
    fn verdict_positions_match_the_order_printed() {
        for (i, verdict) in VERDICTS.iter().enumerate() {
            assert_eq!(position(*verdict), i, "{verdict}");
        }
    }

    #[test]
    fn the_summary_counts_every_verdict_and_lists_findings_and_the_slowest() {
        let mut lowered = TestResult::with_status(Status::Pass, "");
        lowered.verdict = Some(Verdict::Lowered);
        lowered.duration_s = 0.5;
        let mut failed = TestResult::with_status(Status::Fail, "probe at line 7 failed");
        failed.duration_s = 2.0;
        let results = ResultsFile {
            format: FORMAT.into(),
            run: RunInfo {
                backend: "emu".into(),
                renderer: "halfcheck f16 emulator (mediump)".into(),
                started: "2026-11-24T10:00:00Z".into(),
                finished: "2026-11-24T10:00:14Z".into(),
                ..RunInfo::default()
            },
            tests: [
                ("a.shader_test".to_string(), lowered),
                ("b.shader_test".to_string(), failed),
            ]
            .into_iter()
            .collect(),
        };
        let text = summary(&results, &Review::default());
        assert_eq!(
            text,
            "emu on halfcheck f16 emulator (mediump): 2 tests in 14 s\n  \
             status:  1 pass, 1 fail\n  \
             verdict: 1 lowered, 0 not-lowered, 0 partial, 0 out-of-bounds, 0 inconsistent, \
             0 undetermined, 0 unjudged, 0 n/a; 1 without one\n\
             failed: b.shader_test: fail\n    \
             probe at line 7 failed\n\
             1 unexpected results\n\
             slowest tests:\n    \
             2.000 s  b.shader_test\n    \
             0.500 s  a.shader_test\n"
        );
    }
}
