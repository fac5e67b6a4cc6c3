//! Reads what `halfcheck report` is given: a `results.json`, a results directory (its
//! `results.json`, else its journal `results.jsonl`) or a journal of an interrupted run.
//!
//! A journal line is `{"name": ..., "result": ...}`; a line holding run information (`{"run":
//! {...}}` or the run information itself) names the run. Lines that are neither are counted
//! and reported, never fatal: a journal cut off mid-line still gives what it measured.

use crate::results::{read_results, ResultsFile, RunInfo, TestResult, FORMAT};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One run read from disk.
#[derive(Debug, Clone)]
pub struct Loaded {
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
pub fn load(path: &Path) -> Result<Loaded, String> {
    let file = if path.is_dir() {
        let json = path.join("results.json");
        let journal = path.join("results.jsonl");
        match (json.is_file(), journal.is_file()) {
            (true, _) => json,
            (false, true) => journal,
            _ => {
                return Err(format!(
                    "{}: neither results.json nor results.jsonl inside",
                    path.display()
                ))
            }
        }
    } else {
        path.to_path_buf()
    };
    let (results, warnings) = if file.extension().is_some_and(|e| e == "jsonl") {
        read_journal(&file)?
    } else {
        (read_results(&file)?, Vec::new())
    };
    Ok(Loaded {
        label: label_of(&file, &results.run.renderer),
        path: file,
        results,
        warnings,
    })
}

/// The name of the directory holding `file`; for `run`'s default directory (`results`),
/// the renderer's first word (`llvmpipe`, `softpipe`, ...) says more.
pub fn label_of(file: &Path, renderer: &str) -> String {
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

/// Reads a journal; a line that is not a result or run information becomes a warning.
fn read_journal(path: &Path) -> Result<(ResultsFile, Vec<String>), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut tests = BTreeMap::new();
    let mut run = RunInfo::default();
    let mut warnings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let parsed: Result<Value, _> = serde_json::from_str(line);
        let read = parsed.map_err(|e| e.to_string()).and_then(|value| {
            if let (Some(name), Some(result)) = (value.get("name"), value.get("result")) {
                let name = name.as_str().ok_or("the test name is not a string")?;
                let result: TestResult =
                    serde_json::from_value(result.clone()).map_err(|e| e.to_string())?;
                tests.insert(name.to_string(), result);
            } else if let Some(info) = value.get("run") {
                run = serde_json::from_value(info.clone()).map_err(|e| e.to_string())?;
            } else if value.get("backend").is_some() && value.get("renderer").is_some() {
                run = serde_json::from_value(value).map_err(|e| e.to_string())?;
            } else {
                return Err("neither a test result nor run information".to_string());
            }
            Ok(())
        });
        if let Err(e) = read {
            warnings.push(format!("{}:{}: skipped: {e}", path.display(), i + 1));
        }
    }
    if tests.is_empty() {
        return Err(format!(
            "{}: no test results in the journal",
            path.display()
        ));
    }
    if run.renderer.is_empty() {
        run.renderer = "unknown (journal without run information)".into();
    }
    Ok((
        ResultsFile {
            format: FORMAT.to_string(),
            run,
            tests,
        },
        warnings,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_cut_mid_line_keeps_its_complete_results_and_says_what_it_skipped() {
        let dir = std::env::temp_dir().join(format!("halfcheck-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let journal = dir.join("results.jsonl");
        let result = r#"{"status":"pass","verdict":"lowered","duration_s":0.1,"probes":[]}"#;
        std::fs::write(
            &journal,
            format!("{{\"name\":\"a.shader_test\",\"result\":{result}}}\n{{\"name\":\"b.sha"),
        )
        .expect("write");
        let loaded = load(&dir).expect("loads");
        assert_eq!(loaded.results.tests.len(), 1);
        assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
        assert!(
            loaded.warnings[0].contains("results.jsonl:2"),
            "{:?}",
            loaded.warnings
        );
        assert_eq!(loaded.label, dir.file_name().unwrap().to_string_lossy());
        std::fs::remove_dir_all(&dir).ok();
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
