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
//! Mesa CI's lists (`*-fails.txt`, `failures.csv`, `*-flakes.txt`, `*-skips.txt`) read too
//! (`expectations_lists`). Every entry carries a reason. Anything unexpected, an unexpected improvement included, is
//! reported and makes the run exit 1, the way Mesa CI's deqp-runner treats its baselines.
//!
//! A verdict is expected of every test that ran (status pass, warn or fail): a missing,
//! `unjudged`, `undetermined` or `inconsistent` verdict where `lowered` was expected is
//! unexpected, and `n/a` matches only an expected `n/a`. Tests that were skipped or broke are
//! judged by their status alone.

use crate::discover::Suites;
use crate::results::read::{check_yaml_nesting, read_regular_text, MAX_SETTINGS_BYTES};
use crate::results::Verdict;
use crate::results::{quote, ResultsFile, Status, TestResult};
use globset::{GlobBuilder, GlobMatcher};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The YAML file as written (and as `expectations update` writes it).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExpectationsFile {
    /// The renderer regex.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renderer: Option<String>,
    /// What a test no entry matches is expected to give.
    #[serde(default)]
    pub default: Expected,
    /// The entries, the first matching one wins.
    #[serde(default)]
    pub tests: Vec<EntryFile>,
    /// Regexes of tests whose unexpected results are flakes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flakes: Vec<String>,
    /// Regexes of tests not run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skips: Vec<String>,
}

impl ExpectationsFile {
    /// A file with no entries that expects `pass, lowered` of every test.
    pub(crate) fn lowered_by_default(renderer: Option<String>) -> Self {
        ExpectationsFile {
            renderer,
            default: Expected {
                status: Status::Pass,
                verdict: Some(Verdict::Lowered),
            },
            tests: Vec::new(),
            flakes: Vec::new(),
            skips: Vec::new(),
        }
    }

    /// Reads the YAML as written, without checking its entries ([`Expectations::parse`] does).
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        check_yaml_nesting(text).map_err(|e| e.to_string())?;
        serde_norway::from_str(text).map_err(|e| quote::cut_message(&e.to_string()).into_owned())
    }
}

/// An expected status and verdict.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// The expected piglit status.
    #[serde(default = "pass")]
    pub status: Status,
    /// The expected lowering verdict, for tests that have one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EntryFile {
    /// The test's exact name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A glob over names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub glob: Option<String>,
    /// A regex over names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regex: Option<String>,
    /// The expected status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// The expected verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// Why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
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

impl Selector {
    /// The selector as written: `name 'cases/a.shader_test'`, `glob 'cases/controls/**'`.
    fn describe(&self) -> String {
        match self {
            Selector::Name(n) => format!("name '{}'", quote::cut(n)),
            Selector::Glob(g) => format!("glob '{}'", quote::cut(g.glob().glob())),
            Selector::Regex(r) => format!("regex '{}'", quote::cut(r.as_str())),
        }
    }

    /// The first folder of the names it selects, when it says one literally (`cases` for
    /// `cases/controls/**` or `^cases/`): the suite root the file was written for.
    fn root(&self) -> Option<String> {
        let text = match self {
            Selector::Name(n) => n.as_str(),
            Selector::Glob(g) => g.glob().glob(),
            Selector::Regex(r) => r.as_str().trim_start_matches('^'),
        };
        let (first, _) = text.split_once('/')?;
        let literal = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | '.');
        (!first.is_empty() && first.chars().all(literal)).then(|| first.to_string())
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
    skips: Vec<Regex>,
}

/// The patterns of `list` (`flakes`, `skips`) that match no test of `suites`, as
/// `flakes[0]: '^gone/'`.
fn stale_patterns<'a>(
    list: &'a str,
    patterns: &'a [Regex],
    suites: &'a Suites,
) -> impl Iterator<Item = String> + 'a {
    patterns
        .iter()
        .enumerate()
        .filter(|(_, r)| !suites.names().any(|n| r.is_match(n)))
        .map(move |(i, r)| format!("{list}[{i}]: '{}'", quote::cut(r.as_str())))
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
        let invalid = |problem| ExpectationsError::Invalid {
            file: Some(path.to_owned()),
            problem,
        };
        if !crate::expectations_lists::is_list(path) {
            return Self::parse_text(&text).map_err(invalid);
        }
        let mut file = crate::expectations_lists::parse_list(path, &text).map_err(invalid)?;
        for sibling in crate::expectations_lists::siblings(path) {
            let text = read_regular_text(&sibling, MAX_SETTINGS_BYTES).map_err(|source| {
                ExpectationsError::Read {
                    path: sibling.clone(),
                    source,
                }
            })?;
            let list = crate::expectations_lists::parse_list(&sibling, &text).map_err(invalid)?;
            file.flakes.extend(list.flakes);
            file.skips.extend(list.skips);
        }
        Self::from_file(file).map_err(invalid)
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
        Self::from_file(ExpectationsFile::parse(text)?)
    }

    /// Checks the file as written: selectors, reasons, regexes.
    pub(crate) fn from_file(file: ExpectationsFile) -> Result<Self, String> {
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
            skips: regexes(file.skips, "skips")?,
        })
    }

    /// The entries, `flakes` and `skips` stale for a run, as `tests[3]: name
    /// 'cases/gone.shader_test'`: a `name:` the run selects that is no test, a pattern that
    /// matches no test of the run's suites. A name the run does not select, or a pattern that
    /// matches only tests the run left out, is for tests outside the run: not stale.
    pub(crate) fn stale(&self, suites: &Suites) -> Vec<String> {
        let entries = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| match &e.selector {
                Selector::Name(name) => suites.selects(name) && !suites.has(name),
                selector => !suites.names().any(|n| selector.matches(n)),
            })
            .map(|(i, e)| format!("tests[{i}]: {}", e.selector.describe()));
        entries
            .chain(stale_patterns("flakes", &self.flakes, suites))
            .chain(stale_patterns("skips", &self.skips, suites))
            .collect()
    }

    /// The indices of the `tests:` entries and of the `flakes` that match none of `names`.
    pub(crate) fn unmatched_indices(&self, names: &[String]) -> (Vec<usize>, Vec<usize>) {
        let none = |matches: &dyn Fn(&str) -> bool| !names.iter().any(|n| matches(n));
        let entries = (0..self.entries.len())
            .filter(|&i| none(&|n| self.entries[i].selector.matches(n)))
            .collect();
        let flakes = (0..self.flakes.len())
            .filter(|&i| none(&|n| self.flakes[i].is_match(n)))
            .collect();
        (entries, flakes)
    }

    /// The suite roots the entries name literally (`cases`), sorted.
    pub(crate) fn roots(&self) -> std::collections::BTreeSet<String> {
        self.entries
            .iter()
            .filter_map(|e| e.selector.root())
            .collect()
    }

    /// The `skips` patterns: tests matching them are not run.
    pub(crate) fn skip_patterns(&self) -> Vec<String> {
        self.skips.iter().map(|r| r.as_str().to_string()).collect()
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
        Status::NotRun => 6,
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
