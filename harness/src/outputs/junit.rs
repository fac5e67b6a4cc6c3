//! `junit.xml`: one `<testcase>` per test, in the subset of JUnit XML that GitLab reads
//! (`docs/junit.xsd` is that subset as a schema; the tests validate against it).
//!
//! GitLab shows a test case's `classname` as its suite and `name` as its name, and keeps only
//! the first of two cases with the same pair: `classname` is the test's folder, `name` its
//! file name, `file` its whole name, so every case is unique. A test the review found
//! (see [`crate::review`]) carries a `<failure>` (an `<error>` when it crashed, timed out or
//! errored) whose text is the finding and its numbers: each failed probe and the judged
//! channels with the observed float and the binary16 and binary32 predictions; a test the run
//! selected but never ran (`notrun`) carries a `<failure>` saying why. A flake (the review's
//! one count) is no pass: it is `<skipped message="flake: ...">`, its finding and attempts in
//! `<system-out>`, counted with the skipped and in no failure total; a skipped test has
//! `<skipped>` with the reason.

use super::evidence;
use crate::results::{ResultsFile, Status, TestResult};
use crate::review::{Finding, Review};

/// The most characters of text in one case's failure, so that a large run stays far below
/// GitLab's 30 MB per file.
const MAX_CASE_TEXT: usize = 16 * 1024;

/// The whole `junit.xml` document for a run.
pub(crate) fn junit_xml(results: &ResultsFile, review: &Review) -> String {
    let mut cases = String::new();
    let (mut failures, mut errors, mut skipped, mut time) = (0, 0, 0, 0.0);
    for (name, result) in &results.tests {
        let finding = review.finding(name, result);
        let outcome = Outcome::of(result, finding.as_ref());
        match outcome {
            Outcome::Failure(_) => failures += 1,
            Outcome::Error(_) => errors += 1,
            Outcome::Skipped | Outcome::Flake(_) => skipped += 1,
            Outcome::Passed => {}
        }
        time += result.duration_s;
        cases.push_str(&case(name, result, &outcome));
    }
    let tests = results.tests.len();
    let suite = format!(
        "halfcheck {}: {}",
        results.run.backend, results.run.renderer
    );
    let counts = format!(
        "tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" \
         time=\"{time:.6}\""
    );
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <testsuites name=\"halfcheck\" {counts}>\n\
         <testsuite name=\"{}\" {counts} timestamp=\"{}\">\n{cases}</testsuite>\n</testsuites>\n",
        attribute(&suite),
        attribute(&results.run.started),
    )
}

/// How one test appears in the file.
enum Outcome<'a> {
    /// Passed (or failed as expected).
    Passed,
    /// A flake: failing nothing, and no pass.
    Flake(&'a Finding),
    /// Skipped.
    Skipped,
    /// A finding on a test that ran to its end.
    Failure(&'a Finding),
    /// A finding on a test that crashed, timed out or errored.
    Error(&'a Finding),
}

impl<'a> Outcome<'a> {
    fn of(result: &TestResult, finding: Option<&'a Finding>) -> Outcome<'a> {
        match finding {
            Some(f) if !f.kind.fails_run() => Outcome::Flake(f),
            Some(f) => match result.status {
                Status::Crash | Status::Timeout | Status::Error => Outcome::Error(f),
                _ => Outcome::Failure(f),
            },
            None if result.status == Status::Skip => Outcome::Skipped,
            None => Outcome::Passed,
        }
    }
}

/// One `<testcase>` element.
fn case(name: &str, result: &TestResult, outcome: &Outcome<'_>) -> String {
    let (folder, file) = name.rsplit_once('/').unwrap_or(("halfcheck", name));
    let open = format!(
        "<testcase classname=\"{}\" name=\"{}\" file=\"{}\" time=\"{:.6}\"",
        attribute(folder),
        attribute(file),
        attribute(name),
        result.duration_s
    );
    let details = |finding: &Finding| {
        let mut lines = vec![finding.describe()];
        lines.extend(evidence::lines(result));
        cut(&lines.join("\n"))
    };
    let body = match outcome {
        Outcome::Passed => return format!("{open}/>\n"),
        Outcome::Flake(flake) => format!(
            "<skipped message=\"{}\"/><system-out>{}</system-out>",
            attribute(&cut(&flake.describe())),
            text(&details(flake))
        ),
        Outcome::Skipped => {
            let reason = result.reason.as_deref().unwrap_or("skipped");
            format!(
                "<skipped message=\"{}\">{}</skipped>",
                attribute(&cut(first_line(reason))),
                text(&cut(reason))
            )
        }
        Outcome::Failure(finding) | Outcome::Error(finding) => {
            let element = match outcome {
                Outcome::Error(_) => "error",
                _ => "failure",
            };
            format!(
                "<{element} message=\"{}\" type=\"{}\">{}</{element}>",
                attribute(&cut(&finding.describe())),
                attribute(finding.kind.as_str()),
                text(&details(finding))
            )
        }
    };
    format!("{open}>{body}</testcase>\n")
}

/// The first line of `text`.
fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

/// `text` cut to [`MAX_CASE_TEXT`] characters.
fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_CASE_TEXT) {
        Some((end, _)) => format!("{}... (cut; results.json has it all)", &text[..end]),
        None => text.to_string(),
    }
}

/// `text` as XML character data: markup escaped, characters XML 1.0 cannot hold (most
/// control characters, even as references) written as `\u{1b}`.
fn text(text: &str) -> String {
    escape_xml(text, false)
}

/// `text` as an XML attribute value (line breaks kept as references).
fn attribute(text: &str) -> String {
    escape_xml(text, true)
}

fn escape_xml(text: &str, in_attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if in_attribute => out.push_str("&quot;"),
            '\n' if in_attribute => out.push_str("&#10;"),
            '\t' if in_attribute => out.push_str("&#9;"),
            '\r' => out.push_str("&#13;"),
            '\n' | '\t' => out.push(c),
            c if c.is_control() || c == '\u{fffe}' || c == '\u{ffff}' => {
                out.push_str(&c.escape_unicode().to_string())
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{RunInfo, FORMAT};

    fn results(tests: Vec<(&str, TestResult)>) -> ResultsFile {
        ResultsFile {
            format: FORMAT.into(),
            run: RunInfo {
                backend: "emu".into(),
                renderer: "halfcheck f16 emulator (mediump)".into(),
                started: "2026-11-24T10:00:00Z".into(),
                ..RunInfo::default()
            },
            tests: tests.into_iter().map(|(n, r)| (n.to_string(), r)).collect(),
        }
    }

    #[test]
    fn each_test_is_one_case_named_by_folder_and_file() {
        let run = results(vec![
            (
                "a/b/pass.shader_test",
                TestResult::with_status(Status::Pass, ""),
            ),
            (
                "top.shader_test",
                TestResult::with_status(Status::Skip, "needs <GL 4>"),
            ),
            (
                "a/crash.shader_test",
                TestResult::with_status(Status::Crash, "SIGSEGV"),
            ),
        ]);
        let xml = junit_xml(&run, &Review::default());
        assert!(xml.contains(
            "<testcase classname=\"a/b\" name=\"pass.shader_test\" \
             file=\"a/b/pass.shader_test\" time=\"0.000000\"/>"
        ));
        assert!(
            xml.contains("<skipped message=\"needs &lt;GL 4&gt;\">needs &lt;GL 4&gt;</skipped>")
        );
        assert!(xml.contains(
            "<error message=\"failed: crash\" type=\"failed\">failed: crash\nSIGSEGV</error>"
        ));
        assert!(xml.contains("tests=\"3\" failures=\"0\" errors=\"1\" skipped=\"1\""));
    }

    #[test]
    fn control_characters_never_reach_the_xml() {
        let run = results(vec![(
            "t.shader_test",
            TestResult::with_status(Status::Fail, "bad \u{1b}[31m \u{0} \"x\" & more"),
        )]);
        let xml = junit_xml(&run, &Review::default());
        assert!(!xml.contains('\u{1b}') && !xml.contains('\u{0}'));
        assert!(
            xml.contains("bad \\u{1b}[31m \\u{0} \"x\" &amp; more"),
            "{xml}"
        );
    }
}
