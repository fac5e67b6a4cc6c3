//! Mesa CI's expectation lists, as deqp-runner reads them, for `--expectations`:
//! `*-fails.txt` or a run's `failures.csv` (`test,status` a line), `*-flakes.txt` and
//! `*-skips.txt` (a regex a line). `#` starts a comment; blank lines are skipped.
//!
//! A status carries the verdict as `results.csv` writes it, its first letter in either case:
//! `Fail`, `Crash`, `Pass:not-lowered`, `fail:n/a`; `Flake` (or `flake:lowered`) lists the
//! test under `flakes`. A test no line names is expected to give `pass, lowered`, so a list
//! holds what a driver does not do well, as Mesa's do. Given `X-fails.txt`, the lists
//! `X-flakes.txt` and `X-skips.txt` beside it are read too, when they are there.

use crate::expectations::{EntryFile, ExpectationsFile};
use crate::results::{Status, Verdict};
use std::path::{Path, PathBuf};

/// Whether `path` names a deqp-runner list rather than an expectations YAML.
pub(crate) fn is_list(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "txt" || e == "csv")
}

/// The list at `path`, with its text, as an expectations file; the error names the file and
/// line and what was expected.
pub(crate) fn parse_list(path: &Path, text: &str) -> Result<ExpectationsFile, String> {
    let mut file = ExpectationsFile::lowered_by_default(None);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.ends_with("flakes.txt") {
        file.flakes = patterns(text);
    } else if name.ends_with("skips.txt") {
        file.skips = patterns(text);
    } else {
        read_fails(path, text, &mut file)?;
    }
    Ok(file)
}

/// The lists beside `X-fails.txt`: `X-flakes.txt`, `X-skips.txt`, those that exist.
pub(crate) fn siblings(path: &Path) -> Vec<PathBuf> {
    let Some(prefix) = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix("-fails.txt"))
    else {
        return Vec::new();
    };
    ["flakes", "skips"]
        .iter()
        .map(|kind| path.with_file_name(format!("{prefix}-{kind}.txt")))
        .filter(|p| p.is_file())
        .collect()
}

/// The lines that are neither blank nor comments.
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// A regex a line.
fn patterns(text: &str) -> Vec<String> {
    lines(text).map(|(_, line)| line.to_string()).collect()
}

/// `test,status[,duration]` lines into entries and flakes.
fn read_fails(path: &Path, text: &str, file: &mut ExpectationsFile) -> Result<(), String> {
    for (number, line) in lines(text) {
        let at = || format!("{}:{number}", path.display());
        let mut fields = line.split(',');
        let (Some(test), Some(status)) = (fields.next(), fields.next()) else {
            return Err(format!(
                "{}: expected 'test,status' (as Fail or Pass:not-lowered), got '{}'",
                at(),
                crate::results::quote::cut(line)
            ));
        };
        let (word, verdict) = match status.split_once(':') {
            Some((word, verdict)) => (word, Some(verdict)),
            None => (status, None),
        };
        let verdict = verdict
            .map(|v| serde_json::from_value::<Verdict>(serde_json::Value::from(v)))
            .transpose()
            .map_err(|_| {
                format!(
                    "{}: unknown verdict in '{}' (lowered, not-lowered, partial, n/a, ...)",
                    at(),
                    crate::results::quote::cut(status)
                )
            })?;
        if word.eq_ignore_ascii_case("flake") {
            file.flakes.push(format!("^{}$", regex::escape(test)));
            continue;
        }
        let status =
            serde_json::from_value::<Status>(word.to_ascii_lowercase().into()).map_err(|_| {
                format!(
                    "{}: unknown status '{}' (Pass, Warn, Fail, Skip, Crash, Timeout, Error)",
                    at(),
                    crate::results::quote::cut(word)
                )
            })?;
        file.tests.push(EntryFile {
            name: Some(test.to_string()),
            status: Some(status),
            verdict,
            reason: Some(format!("listed in {}", at())),
            ..EntryFile::default()
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fails_list_reads_statuses_with_verdicts_and_names_a_bad_line() {
        let path = Path::new("llvmpipe-fails.txt");
        let file = parse_list(
            path,
            "# known\ncases/a.shader_test,Fail\ncases/b.shader_test,Pass:not-lowered,0.1\n\
             cases/c.shader_test,Flake\n",
        )
        .expect("reads");
        assert_eq!(file.tests.len(), 2);
        assert_eq!(file.tests[1].verdict, Some(Verdict::NotLowered));
        assert_eq!(file.flakes, ["^cases/c\\.shader_test$"]);
        let e = parse_list(path, "cases/a.shader_test,Sideways\n").unwrap_err();
        assert!(
            e.starts_with("llvmpipe-fails.txt:1: unknown status 'Sideways'"),
            "{e}"
        );
        let e = parse_list(path, "\ncases/a.shader_test\n").unwrap_err();
        assert!(
            e.starts_with("llvmpipe-fails.txt:2: expected 'test,status'"),
            "{e}"
        );
    }
}
