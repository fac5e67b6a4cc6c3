//! `halfcheck expectations update RUN [-o FILE] [--prune]`: writes or updates a driver's
//! expectations from a run, as Mesa CI regenerates its `*-fails.txt` from a run's
//! `failures.csv`.
//!
//! Every test the run met as the file expects keeps what matched it. A test that differs gets
//! a `name:` entry with its status and verdict: an existing entry for that name is changed
//! and keeps its `reason`; a new one says `measured on DATE, RENDERER`. Changed and new
//! entries go first, since the first matching entry wins. Entries and `flakes` that match no
//! test of the run stay, unless `--prune` drops them. A test that did not run (`notrun`) is
//! left as the file says. Without a file, the new one expects the renderer's first word and
//! `pass, lowered` by default. Comments in the file are not kept.

use crate::expectations::{EntryFile, Expectations, ExpectationsFile};
use crate::results::{ResultsFile, Status, Verdict};

/// What an update did.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Updated {
    /// The new file's YAML.
    pub yaml: String,
    /// Entries added.
    pub added: usize,
    /// Existing entries whose status or verdict changed.
    pub changed: usize,
    /// Entries and flakes dropped by `--prune`.
    pub pruned: usize,
}

/// Updates `existing` (the file's text, `None` for a new file) from `results`; `today` is
/// the date new entries are marked with (`2026-11-27`).
pub(crate) fn update(
    results: &ResultsFile,
    existing: Option<&str>,
    prune: bool,
    today: &str,
) -> Result<Updated, String> {
    let mut file = match existing {
        Some(text) => ExpectationsFile::parse(text)?,
        None => fresh(&results.run.renderer),
    };
    let names: Vec<String> = results.tests.keys().cloned().collect();
    let mut pruned = 0;
    if prune {
        let checked = Expectations::from_file(file.clone())?;
        let (entries, flakes) = checked.unmatched_indices(&names);
        pruned = entries.len() + flakes.len();
        file.tests = drop_indices(std::mem::take(&mut file.tests), &entries);
        file.flakes = drop_indices(std::mem::take(&mut file.flakes), &flakes);
    }
    let checked = Expectations::from_file(file.clone())?;
    let reason = format!("measured on {today}, {}", results.run.renderer);
    let (mut first, mut added, mut changed) = (Vec::new(), 0, 0);
    for (name, result) in &results.tests {
        let differs = checked.check_one(name, result).is_some_and(|u| !u.flake);
        if result.status == Status::NotRun || !differs {
            continue;
        }
        let ran = matches!(result.status, Status::Pass | Status::Warn | Status::Fail);
        let mut entry = match file
            .tests
            .iter()
            .position(|e| e.name.as_deref() == Some(name))
        {
            Some(i) => {
                changed += 1;
                file.tests.remove(i)
            }
            None => {
                added += 1;
                EntryFile {
                    name: Some(name.clone()),
                    reason: Some(reason.clone()),
                    ..EntryFile::default()
                }
            }
        };
        entry.status = Some(result.status);
        entry.verdict = if ran {
            Some(result.verdict.unwrap_or(Verdict::Unjudged))
        } else {
            None
        };
        first.push(entry);
    }
    first.append(&mut file.tests);
    file.tests = first;
    // What is written must read back.
    let yaml = serde_norway::to_string(&file).map_err(|e| e.to_string())?;
    Expectations::parse(&yaml).map_err(|e| format!("the updated file does not read back: {e}"))?;
    Ok(Updated {
        yaml,
        added,
        changed,
        pruned,
    })
}

/// A new file for `renderer`: its first word as the renderer regex, `pass, lowered` by
/// default.
fn fresh(renderer: &str) -> ExpectationsFile {
    let word = renderer.split_whitespace().next().unwrap_or(renderer);
    ExpectationsFile::lowered_by_default(
        (!word.is_empty()).then(|| format!("^{}", regex::escape(word))),
    )
}

/// `items` without those at `drop` (sorted indices).
fn drop_indices<T>(items: Vec<T>, drop: &[usize]) -> Vec<T> {
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| drop.binary_search(i).is_err())
        .map(|(_, item)| item)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{RunInfo, TestResult, FORMAT};

    fn run(tests: &[(&str, Status, Option<Verdict>)]) -> ResultsFile {
        ResultsFile {
            format: FORMAT.into(),
            run: RunInfo {
                renderer: "llvmpipe (LLVM 15.0.6, 256 bits)".into(),
                ..RunInfo::default()
            },
            tests: tests
                .iter()
                .map(|&(name, status, verdict)| {
                    let mut r = TestResult::with_status(status, "");
                    r.verdict = verdict;
                    (name.to_string(), r)
                })
                .collect(),
        }
    }

    #[test]
    fn a_changed_entry_keeps_its_reason_a_new_one_is_dated_and_prune_drops_the_stale() {
        let existing = "renderer: '^llvmpipe'\ndefault: {status: pass, verdict: lowered}\n\
                        tests:\n  - name: a\n    verdict: not-lowered\n    reason: kept highp\n  \
                        - name: gone\n    status: fail\n    reason: removed test\n";
        let results = run(&[
            ("a", Status::Pass, Some(Verdict::Lowered)),
            ("b", Status::Pass, Some(Verdict::NotLowered)),
            ("c", Status::Pass, Some(Verdict::Lowered)),
        ]);
        let kept = update(&results, Some(existing), false, "2026-11-27").expect("updates");
        assert_eq!((kept.added, kept.changed, kept.pruned), (1, 1, 0));
        let file = ExpectationsFile::parse(&kept.yaml).expect("reads back");
        let entries: Vec<_> = file
            .tests
            .iter()
            .map(|e| {
                (
                    e.name.clone().unwrap_or_default(),
                    e.reason.clone().unwrap_or_default(),
                )
            })
            .collect();
        assert_eq!(
            entries,
            [
                ("a".to_string(), "kept highp".to_string()),
                (
                    "b".to_string(),
                    "measured on 2026-11-27, llvmpipe (LLVM 15.0.6, 256 bits)".to_string()
                ),
                ("gone".to_string(), "removed test".to_string()),
            ]
        );
        let checked = Expectations::parse(&kept.yaml).expect("valid");
        assert!(checked.check(&results).is_empty());
        let pruned = update(&results, Some(existing), true, "2026-11-27").expect("updates");
        assert_eq!(pruned.pruned, 1);
        assert!(!pruned.yaml.contains("gone"), "{}", pruned.yaml);
    }
}
