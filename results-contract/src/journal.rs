//! The journal, `results.jsonl`: what a run has measured so far, one JSON object per line.
//!
//! The first line is a [`JournalHeader`] (the run info, and what `run --resume` needs to go
//! on); every later line is a [`JournalLine`], appended as each test finishes. A killed run
//! leaves a journal and no `results.json`; [`read_journal`] turns it into a [`ResultsFile`]
//! whose `run.incomplete` says so, and reports every line it could not read.

use crate::{ReadError, ResultsFile, RunInfo, TestResult, FORMAT};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The format tag of a journal's header.
pub const JOURNAL_FORMAT: &str = "halfcheck-journal/1";

/// The first line of a journal.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct JournalHeader {
    /// Always [`JOURNAL_FORMAT`].
    pub format: String,
    /// The run, as its first worker described it (`finished` still empty).
    pub run: RunInfo,
    /// The runner's settings, as the harness wrote them, for `run --resume`.
    #[serde(default)]
    pub settings: serde_json::Value,
}

/// One finished test.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct JournalLine {
    /// The test's name.
    pub name: String,
    /// Its result.
    pub result: TestResult,
}

/// A line of the journal that could not be read; its test counts as not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damaged {
    /// 1-based line number.
    pub line: usize,
    /// What was wrong with it.
    pub error: String,
}

/// A journal as read.
#[derive(Debug, Clone, PartialEq)]
pub struct Journal {
    /// Its first line.
    pub header: JournalHeader,
    /// Results by name. A name written on two lines has neither result: both lines are in
    /// `damaged`, and the test counts as not run.
    pub tests: BTreeMap<String, TestResult>,
    /// Lines that could not be read.
    pub damaged: Vec<Damaged>,
}

impl Journal {
    /// The journal as a results file, marked incomplete.
    pub fn into_results(self) -> ResultsFile {
        let mut run = self.header.run;
        if run.incomplete.is_none() {
            run.incomplete = Some("read from the journal of a run that did not finish".into());
        }
        ResultsFile {
            format: FORMAT.to_string(),
            run,
            tests: self.tests,
        }
    }
}

/// Reads a journal. A header that cannot be read is an error (nothing can be trusted); a later
/// line that cannot be read (a run killed mid-write, a damaged disk) is listed in `damaged`.
///
/// A run writes each test once, and `--resume` rewrites the journal without repeats, so a
/// test on two lines means two journals were pasted together or a line was copied: which
/// result is true cannot be known. Rather than let the last line win, both lines are listed
/// in `damaged` (a warning: the rest of the journal is still good) and the test counts as not
/// run, so `--resume` runs it again.
pub fn read_journal(path: &Path) -> Result<Journal, ReadError> {
    let text =
        crate::read::read_regular(path, crate::read::MAX_RESULTS_BYTES).map_err(|source| {
            ReadError::Unreadable {
                path: path.to_path_buf(),
                source,
            }
        })?;
    let text = String::from_utf8_lossy(&text);
    let mut lines = text.lines().enumerate();
    let header: JournalHeader = match lines.next() {
        Some((_, first)) => serde_json::from_str(first).map_err(|e| ReadError::Malformed {
            path: path.to_path_buf(),
            line: Some(1),
            what: "journal header",
            message: crate::quote::cut_message(&e.to_string()).into_owned(),
        })?,
        None => {
            return Err(ReadError::EmptyJournal {
                path: path.to_path_buf(),
            })
        }
    };
    if header.format != JOURNAL_FORMAT {
        return Err(ReadError::Format {
            path: path.to_path_buf(),
            line: Some(1),
            found: crate::quote::cut(&header.format).into_owned(),
            expected: JOURNAL_FORMAT,
        });
    }
    let mut tests = BTreeMap::new();
    let mut first_line = BTreeMap::new();
    let mut repeated = BTreeMap::new();
    let mut damaged = Vec::new();
    for (index, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<JournalLine>(line) {
            Ok(entry) => match first_line.get(&entry.name) {
                Some(&first) => {
                    repeated.insert(entry.name.clone(), first);
                    damaged.push(Damaged {
                        line: index + 1,
                        error: format!(
                            "a second result for '{}', whose first is on line {first}",
                            crate::quote::cut(&entry.name)
                        ),
                    });
                }
                None => {
                    first_line.insert(entry.name.clone(), index + 1);
                    tests.insert(entry.name, entry.result);
                }
            },
            Err(e) => damaged.push(Damaged {
                line: index + 1,
                error: crate::quote::cut_message(&e.to_string()).into_owned(),
            }),
        }
    }
    for (name, first) in repeated {
        tests.remove(&name);
        damaged.push(Damaged {
            line: first,
            error: format!(
                "'{}' has another result further on",
                crate::quote::cut(&name)
            ),
        });
    }
    damaged.sort_by_key(|d| d.line);
    Ok(Journal {
        header,
        tests,
        damaged,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Status;

    #[test]
    fn a_damaged_line_is_reported_and_the_others_are_kept() {
        let dir = std::env::temp_dir().join(format!("journal-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let header = JournalHeader {
            format: JOURNAL_FORMAT.into(),
            run: RunInfo::default(),
            settings: serde_json::Value::Null,
        };
        let line = |name: &str| {
            serde_json::to_string(&JournalLine {
                name: name.into(),
                result: TestResult::with_status(Status::Pass, ""),
            })
            .unwrap()
        };
        let text = format!(
            "{}\n{}\n{{\"name\": \"b\", \"res\n{}\n",
            serde_json::to_string(&header).unwrap(),
            line("a"),
            line("c")
        );
        let path = dir.join("results.jsonl");
        std::fs::write(&path, text).unwrap();
        let journal = read_journal(&path).unwrap();
        assert_eq!(journal.tests.keys().collect::<Vec<_>>(), ["a", "c"]);
        assert_eq!(journal.damaged.len(), 1);
        assert_eq!(journal.damaged[0].line, 3);
        let results = journal.into_results();
        assert!(results.run.incomplete.is_some());

        std::fs::write(&path, "{\"format\": \"nope\"\n").unwrap();
        let error = read_journal(&path).unwrap_err();
        assert!(
            matches!(error, ReadError::Malformed { line: Some(1), .. }),
            "{error:?}"
        );
        assert!(
            error
                .to_string()
                .contains("results.jsonl:1: not a halfcheck journal header"),
            "{error}"
        );
    }

    /// Issue 26: a journal with a test on two lines kept the last; now neither counts.
    #[test]
    fn a_test_on_two_lines_has_neither_result_and_both_lines_are_reported() {
        let dir = std::env::temp_dir().join(format!("journal-twice-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let header = r#"{"format":"halfcheck-journal/1","run":{"backend":"emu","renderer":"r","versions":{},"started":"","finished":"","command_line":[]}}"#;
        let line = |name: &str, status: &str| {
            format!(r#"{{"name":"{name}","result":{{"status":"{status}","duration_s":0.5}}}}"#)
        };
        let text = [
            header.to_string(),
            line("a", "fail"),
            line("b", "pass"),
            line("a", "pass"),
        ]
        .join("\n");
        let path = dir.join("results.jsonl");
        std::fs::write(&path, text).unwrap();
        let journal = read_journal(&path).unwrap();
        assert_eq!(journal.tests.keys().collect::<Vec<_>>(), ["b"]);
        let lines: Vec<_> = journal.damaged.iter().map(|d| d.line).collect();
        assert_eq!(lines, [2, 4]);
        assert!(
            journal.damaged[1].error.contains("a second result for 'a'"),
            "{:?}",
            journal.damaged
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
