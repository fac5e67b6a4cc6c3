//! Per-driver expectations (`--expectations FILE.yaml`): what a run on that driver should give.
//!
//! ```yaml
//! renderer: "^llvmpipe"          # regex the driver's GL_RENDERER must match
//! default:                       # what every test is expected to give...
//!   status: pass
//!   verdict: lowered             # ...when it has a lowering verdict (not n/a)
//! tests:                         # ...unless the first entry matching its name says otherwise
//!   - glob: "controls/**"        # or `name:` (exact) or `regex:`; `*` stays within a folder
//!     verdict: not-lowered
//!     reason: negative controls must stay highp
//! flakes: ["regex"]              # unexpected results here are reported, not failed
//! skips: ["regex"]               # not run at all
//! ```
//!
//! Every entry carries a reason. Anything unexpected, an unexpected improvement included, is
//! reported and makes the run exit 1, the way Mesa CI's deqp-runner treats its baselines.
//!
//! A verdict is expected of every test that ran (status pass, warn or fail): a missing,
//! `unjudged`, `undetermined` or `inconsistent` verdict where `lowered` was expected is
//! unexpected, and `n/a` matches only an expected `n/a`. Tests that were skipped or broke are
//! judged by their status alone.

use crate::results::read::{check_yaml_nesting, read_regular_text, MAX_SETTINGS_BYTES};
use crate::results::Verdict;
use crate::results::{quote, ResultsFile, Status, TestResult};
use globset::{GlobBuilder, GlobMatcher};
use regex::Regex;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The YAML file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectationsFile {
    renderer: Option<String>,
    #[serde(default)]
    default: Expected,
    #[serde(default)]
    tests: Vec<EntryFile>,
    #[serde(default)]
    flakes: Vec<String>,
    #[serde(default)]
    skips: Vec<String>,
}

/// An expected status and verdict.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// The expected piglit status.
    #[serde(default = "pass")]
    pub status: Status,
    /// The expected lowering verdict, for tests that have one.
    #[serde(default)]
    pub verdict: Option<Verdict>,
}

impl Default for Expected {
    fn default() -> Self {
        Expected {
            status: Status::Pass,
            verdict: None,
        }
    }
}

/// Serde default for `status`.
fn pass() -> Status {
    Status::Pass
}

/// One `tests:` entry as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryFile {
    name: Option<String>,
    glob: Option<String>,
    regex: Option<String>,
    status: Option<Status>,
    verdict: Option<Verdict>,
    reason: Option<String>,
}

/// How an entry selects tests.
#[derive(Debug)]
enum Selector {
    Name(String),
    Glob(GlobMatcher),
    Regex(Regex),
}

impl Selector {
    fn matches(&self, name: &str) -> bool {
        match self {
            Selector::Name(n) => n == name,
            Selector::Glob(g) => g.is_match(name),
            Selector::Regex(r) => r.is_match(name),
        }
    }
}

/// A checked `tests:` entry.
#[derive(Debug)]
struct Entry {
    selector: Selector,
    expected: Expected,
    reason: String,
}

/// Loaded expectations for one driver.
#[derive(Debug)]
pub struct Expectations {
    /// The renderer guard.
    pub renderer: Option<Regex>,
    default: Expected,
    entries: Vec<Entry>,
    flakes: Vec<Regex>,
    skip_patterns: Vec<String>,
}

/// A result that differs from its expectation.
#[derive(Debug, Clone, PartialEq)]
pub struct Unexpected {
    /// The test.
    pub name: String,
    /// True when the result is better than expected (an unexpected pass or more lowering).
    pub improvement: bool,
    /// True when the test is listed under `flakes`.
    pub flake: bool,
    /// What was expected, e.g. `pass, lowered`.
    pub expected: String,
    /// What happened, e.g. `fail, not-lowered`.
    pub actual: String,
    /// The expectation entry's reason, if one matched.
    pub reason: Option<String>,
}

/// Why an expectations file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ExpectationsError {
    /// The file could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The YAML is no valid expectations file.
    #[error("{}{problem}", file.as_ref().map(|f| format!("{}: ", f.display())).unwrap_or_default())]
    Invalid {
        /// The file, when it was read from one.
        file: Option<PathBuf>,
        /// What is wrong, and where in the YAML.
        problem: String,
    },
}

impl Expectations {
    /// Reads and checks an expectations file; errors name the file and what is wrong.
    pub fn load(path: &Path) -> Result<Self, ExpectationsError> {
        let text = read_regular_text(path, MAX_SETTINGS_BYTES).map_err(|source| {
            ExpectationsError::Read {
                path: path.to_owned(),
                source,
            }
        })?;
        Self::parse_text(&text).map_err(|problem| ExpectationsError::Invalid {
            file: Some(path.to_owned()),
            problem,
        })
    }

    /// Parses expectations YAML.
    pub fn parse(text: &str) -> Result<Self, ExpectationsError> {
        Self::parse_text(text).map_err(|problem| ExpectationsError::Invalid {
            file: None,
            problem,
        })
    }

    /// Parses expectations YAML; the error says what is wrong and where in the YAML.
    fn parse_text(text: &str) -> Result<Self, String> {
        check_yaml_nesting(text).map_err(|e| e.to_string())?;
        let file: ExpectationsFile = serde_norway::from_str(text)
            .map_err(|e| quote::cut_message(&e.to_string()).into_owned())?;
        let regex = |pattern: &str| crate::discover::regex(pattern);
        let mut entries = Vec::new();
        for (i, entry) in file.tests.into_iter().enumerate() {
            let at = format!("tests[{i}]");
            let selector = match (entry.name, entry.glob, entry.regex) {
                (Some(name), None, None) => Selector::Name(name),
                (None, Some(glob), None) => Selector::Glob(
                    GlobBuilder::new(&glob)
                        .literal_separator(true)
                        .build()
                        .map_err(|e| {
                            format!(
                                "{at}: invalid glob '{}': {}",
                                quote::cut(&glob),
                                quote::cut(&e.kind().to_string())
                            )
                        })?
                        .compile_matcher(),
                ),
                (None, None, Some(pattern)) => {
                    Selector::Regex(regex(&pattern).map_err(|e| format!("{at}: {e}"))?)
                }
                _ => return Err(format!("{at}: expected exactly one of name, glob or regex")),
            };
            let reason = entry
                .reason
                .filter(|r| !r.trim().is_empty())
                .ok_or_else(|| format!("{at}: expected a reason for this expectation"))?;
            if entry.status.is_none() && entry.verdict.is_none() {
                return Err(format!("{at}: expected a status or a verdict"));
            }
            entries.push(Entry {
                selector,
                expected: Expected {
                    status: entry.status.unwrap_or(file.default.status),
                    verdict: entry.verdict.or(file.default.verdict),
                },
                reason,
            });
        }
        let regexes = |patterns: Vec<String>, what: &str| {
            patterns
                .iter()
                .map(|p| regex(p).map_err(|e| format!("{what}: {e}")))
                .collect::<Result<Vec<_>, _>>()
        };
        Ok(Expectations {
            renderer: file
                .renderer
                .as_deref()
                .map(regex)
                .transpose()
                .map_err(|e| format!("renderer: {e}"))?,
            default: file.default,
            entries,
            flakes: regexes(file.flakes, "flakes")?,
            skip_patterns: {
                regexes(file.skips.clone(), "skips")?;
                file.skips
            },
        })
    }

    /// The `skips` patterns: tests matching them are not run.
    pub(crate) fn skip_patterns(&self) -> &[String] {
        &self.skip_patterns
    }

    /// What `name` is expected to give, and the matching entry's reason.
    pub fn expected(&self, name: &str) -> (&Expected, Option<&str>) {
        self.entries
            .iter()
            .find(|e| e.selector.matches(name))
            .map_or((&self.default, None), |e| {
                (&e.expected, Some(e.reason.as_str()))
            })
    }

    /// Every result that differs from its expectation, in name order.
    pub fn check(&self, results: &ResultsFile) -> Vec<Unexpected> {
        results
            .tests
            .iter()
            .filter_map(|(name, result)| self.check_one(name, result))
            .collect()
    }

    /// The difference for one test, if any.
    pub(crate) fn check_one(&self, name: &str, result: &TestResult) -> Option<Unexpected> {
        let (expected, reason) = self.expected(name);
        let status_differs = result.status != expected.status;
        let ran = matches!(result.status, Status::Pass | Status::Warn | Status::Fail);
        let verdict_differs = match expected.verdict {
            Some(want) if ran => result.verdict != Some(want),
            _ => false,
        };
        if !status_differs && !verdict_differs {
            return None;
        }
        let status_better =
            status_differs && status_rank(result.status) < status_rank(expected.status);
        let verdict_better = verdict_differs
            && matches!(
                (expected.verdict.and_then(Verdict::lowering_rank), result.verdict.and_then(Verdict::lowering_rank)),
                (Some(want), Some(got)) if got > want
            );
        let improvement =
            (!status_differs || status_better) && (!verdict_differs || verdict_better);
        let describe = |status: Status, verdict: Option<Verdict>| match verdict {
            Some(v) => format!("{}, {v}", status.as_str()),
            None => status.as_str().to_string(),
        };
        Some(Unexpected {
            name: name.to_string(),
            improvement,
            flake: self.flakes.iter().any(|r| r.is_match(name)),
            expected: describe(expected.status, expected.verdict),
            actual: describe(result.status, result.verdict),
            reason: reason.map(str::to_string),
        })
    }
}

/// Piglit's order of statuses, best first (skip sorts with pass: it never counts as worse).
pub(crate) fn status_rank(status: Status) -> u8 {
    match status {
        Status::Pass | Status::Skip => 0,
        Status::Warn => 1,
        Status::Fail => 2,
        Status::Timeout => 3,
        Status::Crash => 4,
        Status::Error => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::RunInfo;
    use std::collections::BTreeMap;

    const YAML: &str = r#"
renderer: "^llvmpipe"
default:
  status: pass
  verdict: lowered
tests:
  - glob: "controls/**"
    verdict: not-lowered
    reason: negative controls stay highp
  - name: "lvalue/from_lvalue.shader_test"
    verdict: not-lowered
    reason: Mesa never takes precision from the lvalue
  - regex: "^int16/"
    status: fail
    reason: known bug
flakes: ["^flaky/"]
skips: ["^slow/"]
"#;

    fn result(status: Status, verdict: Option<Verdict>) -> TestResult {
        let mut r = TestResult::with_status(status, "");
        r.verdict = verdict;
        r
    }

    fn results(tests: &[(&str, TestResult)]) -> ResultsFile {
        ResultsFile {
            format: crate::results::FORMAT.into(),
            run: RunInfo::default(),
            tests: tests
                .iter()
                .map(|(n, r)| (n.to_string(), r.clone()))
                .collect::<BTreeMap<_, _>>(),
        }
    }

    #[test]
    fn first_matching_entry_wins_over_the_default() {
        let e = Expectations::parse(YAML).unwrap();
        assert_eq!(
            e.expected("controls/a/b.shader_test").0.verdict,
            Some(Verdict::NotLowered)
        );
        assert_eq!(
            e.expected("arithmetic/div.shader_test").0.verdict,
            Some(Verdict::Lowered)
        );
        assert_eq!(e.expected("int16/wrap.shader_test").0.status, Status::Fail);
        assert_eq!(
            e.expected("int16/wrap.shader_test").0.verdict,
            Some(Verdict::Lowered)
        );
        assert_eq!(e.skip_patterns(), ["^slow/"]);
        assert!(e
            .renderer
            .as_ref()
            .unwrap()
            .is_match("llvmpipe (LLVM 15.0.6, 256 bits)"));
    }

    #[test]
    fn lost_lowering_is_a_regression_and_an_unexpected_pass_an_improvement() {
        let e = Expectations::parse(YAML).unwrap();
        let found = e.check(&results(&[
            (
                "arithmetic/div.shader_test",
                result(Status::Pass, Some(Verdict::NotLowered)),
            ),
            (
                "int16/wrap.shader_test",
                result(Status::Pass, Some(Verdict::Lowered)),
            ),
            (
                "controls/x.shader_test",
                result(Status::Pass, Some(Verdict::NotLowered)),
            ),
            ("flaky/y.shader_test", result(Status::Crash, None)),
        ]));
        let summary: Vec<_> = found
            .iter()
            .map(|u| (u.name.as_str(), u.improvement, u.flake, u.actual.as_str()))
            .collect();
        assert_eq!(
            summary,
            vec![
                (
                    "arithmetic/div.shader_test",
                    false,
                    false,
                    "pass, not-lowered"
                ),
                ("flaky/y.shader_test", false, true, "crash"),
                ("int16/wrap.shader_test", true, false, "pass, lowered"),
            ]
        );
    }

    #[test]
    fn a_lost_or_undecided_verdict_where_lowering_was_expected_is_unexpected() {
        let e = Expectations::parse(YAML).unwrap();
        let expected_lowered = [
            None,
            Some(Verdict::Unjudged),
            Some(Verdict::Undetermined),
            Some(Verdict::Inconsistent),
            Some(Verdict::NotApplicable),
        ];
        for verdict in expected_lowered {
            let found = e.check(&results(&[(
                "arithmetic/div.shader_test",
                result(Status::Pass, verdict),
            )]));
            assert_eq!(found.len(), 1, "{verdict:?} passed for lowered");
            assert!(!found[0].improvement);
        }
        // n/a matches only n/a.
        let e = Expectations::parse(
            "tests:\n  - name: plain\n    verdict: n/a\n    reason: highp only\n",
        )
        .unwrap();
        let ok = result(Status::Pass, Some(Verdict::NotApplicable));
        assert!(e.check(&results(&[("plain", ok)])).is_empty());
        let judged = result(Status::Pass, Some(Verdict::Undetermined));
        assert_eq!(e.check(&results(&[("plain", judged)])).len(), 1);
    }

    #[test]
    fn entries_without_reason_or_with_two_selectors_are_rejected() {
        let e = Expectations::parse("tests:\n  - name: a\n    status: fail\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("tests[0]: expected a reason"), "{e}");
        let e = Expectations::parse(
            "tests:\n  - name: a\n    glob: b\n    status: fail\n    reason: r\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("exactly one of name, glob or regex"), "{e}");
        let e = Expectations::parse("default:\n  verdict: sideways\n").unwrap_err();
        assert!(
            matches!(&e, ExpectationsError::Invalid { file: None, .. }),
            "{e:?}"
        );
        assert!(e.to_string().contains("sideways"), "{e}");
    }
}
