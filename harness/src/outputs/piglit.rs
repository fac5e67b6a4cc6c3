//! `halfcheck export --piglit DIR`: a run as piglit's own results file (`DIR/results.json`,
//! piglit's JSON results format, version 10), so `piglit summary console|html` reads and
//! compares halfcheck runs beside piglit's.
//!
//! Each test becomes `folder@name` (piglit's separator, `.shader_test` dropped), its status
//! piglit's (`error`, which piglit lacks, becomes `fail`; `err` says it was an error). A test
//! with a lowering verdict (not `n/a`) gets two subtests, as piglit's multi-result tests do:
//! `probes`, its status, and `lowering`, its verdict as a status ([`lowering_status`]), so
//! `piglit summary` shows a lowering regression (`lowering: pass fail`) beside status
//! changes; piglit takes a test's result as the worst of its subtests. The numbers behind the
//! verdict go into the test's `out`, the reason and the compile logs into `err`.
//!
//! A run judged by expectations or a baseline is exported with its judgement instead
//! ([`judged_status`]): one result per test and no subtests, `pass` for what was expected,
//! `fail` (`crash`, `timeout`, `notrun` as they are) for what fails the halfcheck run, `warn`
//! for an unexpected improvement or a flake. Piglit's summary of a green night is then green,
//! and its regressions are halfcheck's.

use super::evidence;
use crate::results::{ResultsFile, Status, TestResult, Verdict};
use crate::review::{FindingKind, Review};
use serde_json::{json, Map, Value};

/// The results format version this writes (piglit's `CURRENT_JSON_VERSION`).
pub(crate) const PIGLIT_RESULTS_VERSION: u32 = 10;

/// Piglit's results JSON for `results`; `name` names the run in piglit's summaries; a
/// `review` that judges by expectations or a baseline gives each test its judgement.
pub(crate) fn piglit_results(results: &ResultsFile, name: &str, review: &Review) -> Value {
    let command = results.run.command_line.join(" ");
    let tests: Map<String, Value> = results
        .tests
        .iter()
        .map(|(test, result)| {
            let mut json = test_json(result, &command);
            if review.judges_by_checks() {
                let judged = judged_status(review.finding(test, result).map(|f| f.kind), result);
                json["result"] = judged.into();
                json["subtests"] = json!({"__type__": "Subtests"});
            }
            (piglit_name(test), json)
        })
        .collect();
    let mut info = Map::new();
    info.insert("backend".into(), results.run.backend.clone().into());
    info.insert("renderer".into(), results.run.renderer.clone().into());
    for (key, value) in &results.run.versions {
        info.insert(key.clone(), value.clone().into());
    }
    info.insert("command_line".into(), command.into());
    json!({
        "__type__": "TestrunResult",
        "results_version": PIGLIT_RESULTS_VERSION,
        "name": name,
        "info": {"halfcheck": info},
        "options": {},
        "time_elapsed": time(epoch(&results.run.started), epoch(&results.run.finished)),
        "tests": tests,
    })
}

/// `glsl-es-1.00/execution/foo.shader_test` -> `glsl-es-1.00@execution@foo`.
pub(crate) fn piglit_name(name: &str) -> String {
    name.strip_suffix(".shader_test")
        .unwrap_or(name)
        .replace('/', "@")
}

/// One test's `TestResult` object.
fn test_json(result: &TestResult, command: &str) -> Value {
    let status = match result.status {
        Status::Pass => "pass",
        Status::Warn => "warn",
        Status::Fail | Status::Error => "fail",
        Status::Skip => "skip",
        Status::Crash => "crash",
        Status::Timeout => "timeout",
        Status::NotRun => "notrun",
    };
    let subtests = match result.verdict {
        Some(verdict) if verdict != Verdict::NotApplicable => json!({
            "__type__": "Subtests",
            "probes": status,
            "lowering": lowering_status(verdict),
        }),
        _ => json!({"__type__": "Subtests"}),
    };
    let mut out = vec![match result.verdict {
        Some(verdict) => format!("halfcheck: {}, verdict {verdict}", result.status.as_str()),
        None => format!("halfcheck: {}", result.status.as_str()),
    }];
    out.extend(evidence::lines(result));
    let mut err = String::new();
    if result.status == Status::Error {
        err.push_str("halfcheck error (piglit has no such status; shown as fail)\n");
    }
    if let Some(reason) = &result.reason {
        err.push_str(reason);
        err.push('\n');
    }
    for (stage, log) in &result.logs {
        err.push_str(&format!("{stage} log:\n{log}\n"));
    }
    json!({
        "__type__": "TestResult",
        "result": status,
        "out": out.join("\n"),
        "err": err,
        "command": command,
        "environment": "",
        "returncode": null,
        "subtests": subtests,
        "time": time(0.0, result.duration_s),
        "exception": null,
        "traceback": null,
        "dmesg": "",
        "images": null,
        "pid": [],
    })
}

/// A judged test's piglit status, from the review's finding (`None`: as expected): what was
/// expected is `pass` (`skip` for a skipped test); what fails the run `fail`, or `crash`,
/// `timeout`, `notrun` as it ended; an unexpected improvement or a flake `warn`.
fn judged_status(finding: Option<FindingKind>, result: &TestResult) -> &'static str {
    match finding {
        None if result.status == Status::Skip => "skip",
        None => "pass",
        Some(FindingKind::Improvement | FindingKind::Flake) => "warn",
        Some(_) => match result.status {
            Status::Crash => "crash",
            Status::Timeout => "timeout",
            Status::NotRun => "notrun",
            _ => "fail",
        },
    }
}

/// A lowering verdict as piglit's status for the `lowering` subtest: whether lowering was
/// proven (`pass`), in part (`warn`), or not (`fail`: not lowered, or outside even mediump's
/// bounds); `skip` where nothing could be decided (undetermined, unjudged), `warn` where the
/// evidence disagreed (inconsistent). On a driver that rightly computes at highp (softpipe)
/// `fail` is its normal state: the subtest is for comparing runs of one lane.
pub(crate) fn lowering_status(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Lowered => "pass",
        Verdict::Partial | Verdict::Inconsistent => "warn",
        Verdict::NotLowered | Verdict::OutOfBounds => "fail",
        Verdict::Undetermined | Verdict::Unjudged | Verdict::NotApplicable => "skip",
    }
}

/// Piglit's `TimeAttribute`.
fn time(start: f64, end: f64) -> Value {
    json!({"__type__": "TimeAttribute", "start": start, "end": end})
}

/// Seconds since the Unix epoch of an RFC 3339 time, 0 when it cannot be read.
fn epoch(rfc3339: &str) -> f64 {
    humantime::parse_rfc3339(rfc3339)
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0.0, |d| d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{RunInfo, FORMAT};

    #[test]
    fn names_use_piglits_separator_and_statuses_its_words() {
        let mut lowered = TestResult::with_status(Status::Pass, "");
        lowered.reason = None;
        lowered.verdict = Some(Verdict::Lowered);
        let results = ResultsFile {
            format: FORMAT.into(),
            run: RunInfo {
                started: "2026-11-24T10:00:00Z".into(),
                finished: "2026-11-24T10:00:12Z".into(),
                ..RunInfo::default()
            },
            tests: [
                ("es/div.shader_test".to_string(), lowered),
                (
                    "es/bad.shader_test".to_string(),
                    TestResult::with_status(Status::Error, "cannot parse"),
                ),
            ]
            .into_iter()
            .collect(),
        };
        let json = piglit_results(&results, "run", &Review::default());
        assert_eq!(json["results_version"], 10);
        let elapsed = &json["time_elapsed"];
        assert_eq!(
            elapsed["end"].as_f64().unwrap() - elapsed["start"].as_f64().unwrap(),
            12.0
        );
        assert_eq!(json["tests"]["es@div"]["result"], "pass");
        assert_eq!(
            json["tests"]["es@div"]["out"],
            "halfcheck: pass, verdict lowered"
        );
        assert_eq!(json["tests"]["es@div"]["subtests"]["lowering"], "pass");
        assert_eq!(json["tests"]["es@div"]["subtests"]["probes"], "pass");
        assert_eq!(json["tests"]["es@bad"]["result"], "fail");
        assert_eq!(
            json["tests"]["es@bad"]["subtests"],
            json!({"__type__": "Subtests"})
        );
        assert!(json["tests"]["es@bad"]["err"]
            .as_str()
            .unwrap()
            .contains("halfcheck error"));
    }
}
