//! What a run leaves for CI systems and other tools beside `results.json`: `junit.xml`
//! ([`junit`]), `results.csv` and `failures.csv` ([`csv`]), and on request piglit's results
//! format ([`piglit`], `halfcheck export --piglit`).
//!
//! Pure functions over the `halfcheck-results` types: each takes a finished run and the
//! [`Review`] it was checked by (which tests need attention, the rule the exit code and the
//! terminal follow too) and returns text. [`write_ci_files`] writes them into the results
//! directory; `runner::write_results`, through which every `results.json` is written, calls
//! it. [`evidence`] renders the numbers behind a result the same way for all of them and for
//! the terminal.

pub(crate) mod csv;
pub(crate) mod evidence;
pub(crate) mod junit;
pub(crate) mod piglit;

use crate::results::ResultsFile;
use crate::review::Review;
use std::path::{Path, PathBuf};

/// The file that lists the tests that need attention (`csv::failures_csv`).
pub(crate) const FAILURES_CSV: &str = "failures.csv";

/// The CI files every run writes into its results directory.
pub(crate) const CI_FILES: [&str; 3] = ["junit.xml", "results.csv", FAILURES_CSV];

/// Writes `junit.xml`, `results.csv` and `failures.csv` into `dir`; returns their paths.
pub(crate) fn write_ci_files(
    dir: &Path,
    results: &ResultsFile,
    review: &Review,
) -> Result<Vec<PathBuf>, String> {
    let contents = [
        junit::junit_xml(results, review),
        csv::results_csv(results, review),
        csv::failures_csv(results, review),
    ];
    CI_FILES
        .iter()
        .zip(contents)
        .map(|(name, text)| {
            let path = dir.join(name);
            std::fs::write(&path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            log::debug!("wrote {}", path.display());
            Ok(path)
        })
        .collect()
}

/// Writes pretty JSON to `path`.
pub(crate) fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    std::fs::write(path, text + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `halfcheck export --piglit DIR`: writes `DIR/results.json` in piglit's format, naming the
/// run after `DIR` as `piglit run` does, judged by `review`; returns the file's path.
pub(crate) fn export_piglit(
    results: &ResultsFile,
    dir: &Path,
    review: &Review,
) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "halfcheck".to_string());
    let path = dir.join("results.json");
    let json = piglit::piglit_results(results, &name, review);
    write_json(&path, &json)?;
    Ok(path)
}
