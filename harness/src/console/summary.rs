//! The summary printed at the end of a run (and of `merge`), on stdout, the answer first: how
//! the run exits and why (the counts of unexpected results, regressions, fixes and flakes),
//! what ran where (the lane) and what it was judged against, where the full list is, then one
//! line per result that fails the run (at most [`LISTED`]; all of them are in
//! `failures.csv`), why it stopped early if it did, counts by status and by verdict, the flakes
//! apart, and the slowest tests. Without expectations or a baseline, a test that failed is
//! called `failed`, not unexpected.
//!
//! ```text
//! exit 1: 1 unexpected results (1 regressions, 0 fixes), 1 flakes
//! gl on llvmpipe (LLVM 15.0.6, 128 bits): 194 tests in 14 s, lane llvmpipe-nosse, judged against cases/expectations/llvmpipe.yaml
//! 1 unexpected results, one a line (all in results/failures.csv):
//! unexpected: cases/arithmetic/div_scalar.shader_test: expected pass, lowered, got pass, not-lowered; probe line 32 at (0, 0) r: observed ...
//!   status:  190 pass, 2 fail, 2 skip
//!   verdict: 150 lowered, 20 not-lowered, 3 partial, 0 out-of-bounds, 5 undetermined, 12 n/a; 4 without one
//! 1 flakes, reported apart (a flake never fails a run):
//! flake: cases/lowp/mul_vec4.shader_test: crash, then pass (changed when run again)
//! slowest tests:
//!   1.234 s  cases/arithmetic/pow.shader_test
//! ```

use crate::lane::lane;
use crate::outputs::evidence;
use crate::results::{ResultsFile, Status, TestResult, Verdict};
use crate::review::{Finding, FindingKind, Review};
use halfcheck_compiler::front::diagnostic::escape;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// How many of the slowest tests the summary names.
pub(crate) const SLOWEST: usize = 5;

/// At most this many results that fail the run get a line each in the progress, as they
/// finish; the rest are counted, and all are in `failures.csv`.
pub(crate) const LISTED: usize = 20;

/// At most this many results get a line in the end summary, of those the progress did not
/// already show (each result once in a log), and as many flakes: the summary stays within
/// about 30 lines whatever the number of failures.
pub(crate) const SUMMARY_LISTED: usize = 10;

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

/// How a run ends, for the summary's first lines.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ending<'a> {
    /// The exit status the command ends with.
    pub exit: u8,
    /// Where the full list of the results that need attention is (`DIR/failures.csv`).
    pub failures_csv: &'a Path,
    /// The tests the progress already gave a line: the summary does not list them again.
    pub shown: &'a BTreeSet<String>,
    /// Lines on the expectations themselves (`Review::stale`), after the run's line.
    pub notes: &'a [String],
}

/// The summary of `results` as reviewed, as lines of text.
pub(crate) fn summary(results: &ResultsFile, review: &Review, ending: &Ending) -> String {
    let tally = review.tally(results);
    let judged = review.judges_by_checks();
    let (one, many) = match (review.has_expectations(), review.baseline().is_some()) {
        _ if tally.not_run > 0 => ("result that fails the run", "results that fail the run"),
        (true, false) => ("unexpected result", "unexpected results"),
        (false, true) => ("regression", "regressions"),
        (true, true) => ("result that fails the run", "results that fail the run"),
        (false, false) => ("failed test", "failed tests"),
    };
    let counts = tally.words(judged, review.has_expectations());
    let mut text = format!("exit {}: {counts}\n", ending.exit);
    let fallback = results
        .run
        .fallback
        .as_deref()
        .map(|why| format!(" [fallback: {}]", escape(why)))
        .unwrap_or_default();
    text.push_str(&format!(
        "{} on {}{fallback}: {} tests{}, lane {}, judged against {}\n",
        results.run.backend,
        escape(&results.run.renderer),
        results.tests.len(),
        elapsed(results).map_or(String::new(), |s| format!(" in {s} s")),
        escape(&lane(&results.run)),
        escape(&review.against())
    ));
    for note in ending.notes {
        text.push_str(&format!("{}\n", escape(note)));
    }
    let (failing, flakes): (Vec<_>, Vec<_>) = review
        .findings(results)
        .into_iter()
        .partition(|(_, _, finding)| finding.kind.fails_run());
    let csv = ending.failures_csv.display();
    let unshown: Vec<_> = failing
        .iter()
        .filter(|(name, _, _)| !ending.shown.contains(*name))
        .collect();
    let above = failing.len() - unshown.len();
    let above = match above {
        0 => String::new(),
        n => format!("{n} listed above as they finished, "),
    };
    text.push_str(&match (failing.len(), unshown.len()) {
        (0, _) => format!("0 {many}\n"),
        (n, 0) => format!("{n} {many}: {above}all in {csv}\n"),
        (n, m) if m <= SUMMARY_LISTED => format!("{n} {many}: {above}{m} below (all in {csv}):\n"),
        (n, m) if m == n => {
            format!("{n} {many}: the first {SUMMARY_LISTED} below (all {n} in {csv}):\n")
        }
        (n, _) => format!("{n} {many}: {above}{SUMMARY_LISTED} more below (all {n} in {csv}):\n"),
    });
    for (name, result, finding) in unshown.iter().take(SUMMARY_LISTED) {
        text.push_str(&finding_line(name, finding, result));
    }
    if unshown.len() > SUMMARY_LISTED {
        text.push_str(&format!(
            "... and {} more {}: {csv}\n",
            unshown.len() - SUMMARY_LISTED,
            if unshown.len() - SUMMARY_LISTED == 1 {
                one
            } else {
                many
            }
        ));
    }
    if let Some(why) = &results.run.incomplete {
        text.push_str(&format!("incomplete: {}\n", escape(why)));
    }
    text.push_str(&format!("  status:  {}\n", status_counts(results)));
    text.push_str(&format!("  verdict: {}\n", verdict_counts(results)));
    if !flakes.is_empty() {
        text.push_str(&format!(
            "{} flakes, reported apart (a flake never fails a run):\n",
            flakes.len()
        ));
        for (name, result, finding) in flakes.iter().take(SUMMARY_LISTED) {
            text.push_str(&finding_line(name, finding, result));
        }
        if flakes.len() > SUMMARY_LISTED {
            text.push_str(&format!(
                "... and {} more flakes: {csv}\n",
                flakes.len() - SUMMARY_LISTED
            ));
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

/// A finding on one line: what it is, and the numbers that say most about the result
/// (`evidence::headline`; for a flake, how its first attempt ended); the rest are in
/// `junit.xml`.
pub(crate) fn finding_line(name: &str, finding: &Finding, result: &TestResult) -> String {
    let numbers = match finding.kind {
        FindingKind::Flake => evidence::lines(result).into_iter().next(),
        // Its reason is the finding's already.
        FindingKind::NotRun => None,
        _ => evidence::headline(result),
    };
    let numbers = numbers.map(|line| format!("; {line}")).unwrap_or_default();
    format!(
        "{}{}\n",
        escape(&finding.describe_test(Some(name))),
        escape(&numbers)
    )
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

/// Whole seconds the run worked (`work_s`: a resumed run's idle gap left out), else from its
/// start to its finish, when both can be read.
fn elapsed(results: &ResultsFile) -> Option<u64> {
    if let Some(work) = results.run.work_s {
        return Some(work.round() as u64);
    }
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
        let ending = Ending {
            exit: 1,
            failures_csv: Path::new("results/failures.csv"),
            shown: &BTreeSet::new(),
            notes: &[],
        };
        let text = summary(&results, &Review::default(), &ending);
        assert_eq!(
            text,
            "exit 1: 1 failed tests; 0 flakes\n\
             emu on halfcheck f16 emulator (mediump): 2 tests in 14 s, lane emu, judged against \
             its statuses (no expectations or baseline)\n\
             1 failed tests: 1 below (all in results/failures.csv):\n\
             failed: b.shader_test: fail; probe at line 7 failed\n  \
             status:  1 pass, 1 fail\n  \
             verdict: 1 lowered, 0 not-lowered, 0 partial, 0 out-of-bounds, 0 inconsistent, \
             0 undetermined, 0 unjudged, 0 n/a; 1 without one\n\
             slowest tests:\n    \
             2.000 s  b.shader_test\n    \
             0.500 s  a.shader_test\n"
        );
    }
}
