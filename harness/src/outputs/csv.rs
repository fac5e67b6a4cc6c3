//! `results.csv` and `failures.csv`: one line per test, `test,status,duration`, the shape of
//! deqp-runner's files, so tools that read those read these.
//!
//! `results.csv` has every test, `failures.csv` those the review found (unexpected results,
//! regressions, flakes; without expectations, the tests that failed). `status` is the piglit
//! status, extended with the lowering verdict when the test has one (`pass:lowered`,
//! `fail:not-lowered`, `skip`, `notrun`), and `flake` in its place for a test the review
//! calls a flake (`flake:lowered`), as deqp-runner writes `Flake`; `duration` is in seconds. Like deqp-runner's, the files have
//! no header line. Fields holding a comma, a quote or a line break are quoted as RFC 4180
//! says.

use crate::results::{ResultsFile, TestResult};
use crate::review::Review;

/// `results.csv`: every test in name order.
pub(crate) fn results_csv(results: &ResultsFile, review: &Review) -> String {
    results
        .tests
        .iter()
        .map(|(name, result)| line(name, result, review))
        .collect()
}

/// `failures.csv`: the tests the review found, in name order.
pub(crate) fn failures_csv(results: &ResultsFile, review: &Review) -> String {
    results
        .tests
        .iter()
        .filter(|(name, result)| review.finding(name, result).is_some())
        .map(|(name, result)| line(name, result, review))
        .collect()
}

/// `status` or `status:verdict`, e.g. `pass:lowered`; `flake` for the status of a test the
/// review calls a flake (`flake`: its attempts disagreed, or the expectations list it under
/// `flakes`).
pub(crate) fn status_with_verdict(result: &TestResult, flake: bool) -> String {
    let status = if flake {
        "flake"
    } else {
        result.status.as_str()
    };
    match result.verdict {
        Some(verdict) => format!("{status}:{verdict}"),
        None => status.to_string(),
    }
}

/// One `test,status,duration` line.
fn line(name: &str, result: &TestResult, review: &Review) -> String {
    format!(
        "{},{},{:.6}\n",
        field(name),
        status_with_verdict(result, review.is_flake(name, result)),
        result.duration_s
    )
}

/// A CSV field, quoted when it must be.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{RunInfo, Status, Verdict, FORMAT};

    fn results() -> ResultsFile {
        let mut lowered = TestResult::with_status(Status::Pass, "");
        lowered.verdict = Some(Verdict::Lowered);
        lowered.duration_s = 0.25;
        let mut failed = TestResult::with_status(Status::Fail, "probe");
        failed.verdict = Some(Verdict::NotApplicable);
        failed.duration_s = 1.5;
        ResultsFile {
            format: FORMAT.into(),
            run: RunInfo::default(),
            tests: [
                ("a/div.shader_test".to_string(), lowered),
                ("b/odd, \"name\".shader_test".to_string(), failed),
                (
                    "c/skip.shader_test".to_string(),
                    TestResult::with_status(Status::Skip, "no GL"),
                ),
            ]
            .into_iter()
            .collect(),
        }
    }

    #[test]
    fn results_csv_has_every_test_with_its_verdict_and_quotes_odd_names() {
        assert_eq!(
            results_csv(&results(), &Review::default()),
            "a/div.shader_test,pass:lowered,0.250000\n\
             \"b/odd, \"\"name\"\".shader_test\",fail:n/a,1.500000\n\
             c/skip.shader_test,skip,0.000000\n"
        );
    }

    #[test]
    fn a_flake_is_written_as_flake_in_place_of_its_status() {
        let mut flaky = TestResult::with_status(Status::Pass, "");
        flaky.verdict = Some(Verdict::Lowered);
        flaky.flake = true;
        assert_eq!(status_with_verdict(&flaky, true), "flake:lowered");
    }

    #[test]
    fn failures_csv_has_only_the_reviewed_tests() {
        let results = results();
        assert_eq!(
            failures_csv(&results, &Review::default()),
            "\"b/odd, \"\"name\"\".shader_test\",fail:n/a,1.500000\n"
        );
    }
}
