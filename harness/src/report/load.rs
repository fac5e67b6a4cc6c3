//! Reads what `halfcheck report` is given: a `results.json`, a results directory (its
//! `results.json`, else its journal `results.jsonl`) or a journal of an interrupted run.
//!
//! It reads them as every other command does (`runner::journal::load_results`): a journal
//! needs its header, and a damaged line is a warning, never fatal, so a journal cut off
//! mid-line still gives what it measured.

use crate::results::ResultsFile;
use crate::runner::journal::{load_results, JOURNAL, RESULTS};
use std::path::{Path, PathBuf};

/// One run read from disk.
#[derive(Debug, Clone)]
pub(crate) struct Loaded {
    /// The file read.
    pub path: PathBuf,
    /// A short name: the results directory's name.
    pub label: String,
    /// Its contents.
    pub results: ResultsFile,
    /// What could not be read (journal lines), for the user.
    pub warnings: Vec<String>,
}

/// Reads `path` (a results file, a results directory or a journal).
pub(crate) fn load(path: &Path) -> Result<Loaded, String> {
    let file = if path.is_dir() {
        let json = path.join(RESULTS);
        let journal = path.join(JOURNAL);
        match (json.exists(), journal.exists()) {
            (true, _) => json,
            (false, true) => journal,
            _ => {
                return Err(format!(
                    "{}: neither {RESULTS} nor {JOURNAL} inside",
                    path.display()
                ))
            }
        }
    } else {
        path.to_path_buf()
    };
    let loaded = load_results(&file)?;
    Ok(Loaded {
        label: label_of(&file, &loaded.results.run.renderer),
        path: file,
        results: loaded.results,
        warnings: loaded.warnings,
    })
}

/// The name of the directory holding `file`; for `run`'s default directory (`results`),
/// the renderer's first word (`llvmpipe`, `softpipe`, ...) says more.
pub(super) fn label_of(file: &Path, renderer: &str) -> String {
    let dir = file
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|d| !d.is_empty() && d != "results");
    let driver = renderer
        .split_whitespace()
        .next()
        .filter(|w| !w.is_empty())
        .map(str::to_string);
    dir.or(driver).unwrap_or_else(|| "run".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = r#"{"format":"halfcheck-journal/1","run":{"backend":"emu","renderer":"r","versions":{},"started":"","finished":"","command_line":[]}}"#;
    const RESULT: &str = r#"{"status":"pass","verdict":"lowered","duration_s":0.1,"probes":[]}"#;

    #[test]
    fn a_journal_cut_mid_line_keeps_its_complete_results_and_says_what_it_skipped() {
        let scratch = tempfile::tempdir().expect("dir");
        let dir = scratch.path();
        let journal = dir.join("results.jsonl");
        std::fs::write(
            &journal,
            format!(
                "{HEADER}\n{{\"name\":\"a.shader_test\",\"result\":{RESULT}}}\n{{\"name\":\"b.sha"
            ),
        )
        .expect("write");
        let loaded = load(dir).expect("loads");
        assert_eq!(loaded.results.tests.len(), 1);
        assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
        assert!(
            loaded.warnings[0].contains("results.jsonl:3"),
            "{:?}",
            loaded.warnings
        );
        assert_eq!(loaded.label, dir.file_name().unwrap().to_string_lossy());
    }

    /// Issue 26: `report` read a journal with a missing or junk header, which `compare`,
    /// `export`, `--baseline` and `--resume` refuse; it reads them the same way now.
    #[test]
    fn a_journal_without_its_header_is_refused_as_everywhere_else() {
        let scratch = tempfile::tempdir().expect("dir");
        let dir = scratch.path();
        let journal = dir.join("results.jsonl");
        let line = format!("{{\"name\":\"a.shader_test\",\"result\":{RESULT}}}\n");
        for head in ["", "junk\n", "{\"format\":\"other/1\"}\n"] {
            std::fs::write(&journal, format!("{head}{line}")).expect("write");
            let e = load(dir).expect_err("refused");
            assert!(e.contains("results.jsonl:1:"), "{head:?}: {e}");
        }
    }

    #[test]
    fn runs_are_named_by_their_directory_or_for_the_default_one_by_their_driver() {
        let renderer = "llvmpipe (LLVM 15.0.6, 256 bits)";
        assert_eq!(
            label_of(Path::new("nightly/2026-11-24/results.json"), renderer),
            "2026-11-24"
        );
        assert_eq!(
            label_of(Path::new("results/results.json"), renderer),
            "llvmpipe"
        );
        assert_eq!(label_of(Path::new("results.json"), ""), "run");
    }

    #[test]
    fn a_directory_without_results_is_an_error_naming_it() {
        let e = load(Path::new("/nonexistent-halfcheck-dir")).unwrap_err();
        assert!(e.contains("/nonexistent-halfcheck-dir"), "{e}");
    }
}
