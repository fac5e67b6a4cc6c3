//! Writing the journal (`results.jsonl`, format in `halfcheck_results::read_journal`) and
//! reading back any kind of results: a `results.json`, a journal, or a directory holding them.

use crate::outputs::CI_FILES;
use crate::results::{read_journal, read_results, Journal, JournalHeader, ResultsFile, TestResult};
use halfcheck_piglit::WindowImage;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The journal's file name in a results directory.
pub(crate) const JOURNAL: &str = "results.jsonl";
/// The final results' file name in a results directory.
pub(crate) const RESULTS: &str = "results.json";
/// Where `run --framebuffers` keeps the windows, in a results directory.
pub(crate) const FRAMEBUFFERS: &str = "framebuffers";

/// An open journal, appended to as results arrive.
#[derive(Debug)]
pub(crate) struct JournalWriter {
    file: File,
    path: PathBuf,
}

impl JournalWriter {
    /// Creates `dir/results.jsonl` for a new run. A directory that already holds results is
    /// left alone unless `force`: then its results, CI files and kept windows are removed
    /// first.
    pub(crate) fn create(dir: &Path, force: bool) -> Result<Self, String> {
        let path = dir.join(JOURNAL);
        let old: Vec<PathBuf> = [RESULTS, JOURNAL]
            .iter()
            .map(|name| dir.join(name))
            .filter(|p| p.exists())
            .collect();
        if !old.is_empty() && !force {
            return Err(format!(
                "{} holds the results of an earlier run ({}): pass --force to replace them, \
                 or --resume {} to finish that run",
                dir.display(),
                old.iter()
                    .filter_map(|p| p.file_name())
                    .map(|n| n.to_string_lossy())
                    .collect::<Vec<_>>()
                    .join(", "),
                dir.display()
            ));
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create results directory {}: {e}", dir.display()))?;
        for file in old {
            std::fs::remove_file(&file)
                .map_err(|e| format!("cannot remove {}: {e}", file.display()))?;
        }
        if force {
            remove_earlier_outputs(dir)?;
        }
        let file =
            File::create(&path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(JournalWriter { file, path })
    }

    /// Rewrites `dir`'s journal with only the lines `journal` could read (so a damaged line is
    /// reported once, not at every resume), and opens it for appending.
    pub(crate) fn rewrite(dir: &Path, journal: &Journal) -> Result<Self, String> {
        let path = dir.join(JOURNAL);
        let fresh = dir.join(format!("{JOURNAL}.new"));
        let file =
            File::create(&fresh).map_err(|e| format!("cannot write {}: {e}", fresh.display()))?;
        let mut writer = JournalWriter {
            file,
            path: fresh.clone(),
        };
        writer.header(&journal.header)?;
        for (name, result) in &journal.tests {
            writer.append(name, result)?;
        }
        std::fs::rename(&fresh, &path)
            .map_err(|e| format!("cannot replace {}: {e}", path.display()))?;
        writer.path = path;
        Ok(writer)
    }

    /// Writes the header line.
    pub(crate) fn header(&mut self, header: &JournalHeader) -> Result<(), String> {
        self.line(&serde_json::to_value(header).map_err(|e| e.to_string())?)
    }

    /// Appends one finished test: a `JournalLine`, serialised from borrowed parts (a
    /// result with its verdicts can be megabytes).
    pub(crate) fn append(&mut self, name: &str, result: &TestResult) -> Result<(), String> {
        /// `JournalLine`'s shape.
        #[derive(serde::Serialize)]
        struct Line<'a> {
            name: &'a str,
            result: &'a TestResult,
        }
        self.write(serde_json::to_string(&Line { name, result }).map_err(|e| e.to_string())?)
    }

    /// One line in one write, so a kill leaves at most the last line cut short.
    fn line(&mut self, value: &serde_json::Value) -> Result<(), String> {
        self.write(value.to_string())
    }

    /// `text` and a newline, in one write.
    fn write(&mut self, mut text: String) -> Result<(), String> {
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}

/// What a run writes into its results directory, besides the CI files (`outputs::CI_FILES`):
/// the results, the journal, the report, the kept framebuffers, and Mesa's shader cache of
/// the runs that kept it there.
const RUN_ENTRIES: [&str; 6] = [
    RESULTS,
    JOURNAL,
    "report",
    "framebuffers",
    super::driver_ir::IR_DIR,
    "mesa_shader_cache",
];

/// Whether `dir` holds an earlier run and nothing but what halfcheck's runs write there:
/// the default results directory is replaced then (the README's first command works twice),
/// never a directory holding anything else.
pub(crate) fn holds_only_a_run(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    let names: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.file_name()))
        .collect();
    let own = |name: &std::ffi::OsStr| {
        RUN_ENTRIES
            .iter()
            .chain(crate::outputs::CI_FILES.iter())
            .any(|n| name == *n)
    };
    names.iter().any(|n| n == RESULTS || n == JOURNAL) && names.iter().all(|n| own(n))
}

/// Removes `dir`'s journal when no run began in it (still empty: the run was refused before
/// its first worker opened, e.g. a renderer that does not match the expectations), so the
/// directory does not block the next run, nor offer an empty journal to `--resume`.
pub(crate) fn remove_unstarted(dir: &Path) {
    let path = dir.join(JOURNAL);
    if std::fs::metadata(&path).is_ok_and(|m| m.len() == 0) {
        if let Err(e) = std::fs::remove_file(&path) {
            log::warn!("cannot remove the empty journal {}: {e}", path.display());
        }
    }
}

/// Removes what an earlier run into `dir` left beside its results, so two runs' files never
/// mix: the CI files, the kept windows (`framebuffers/`, only its `.rgba32f` files and
/// the directories they empty; anything else there is not halfcheck's and stays) and the
/// kept driver IR (`ir/`, its `.nir` files, likewise).
fn remove_earlier_outputs(dir: &Path) -> Result<(), String> {
    for name in CI_FILES {
        let path = dir.join(name);
        if path.is_file() {
            std::fs::remove_file(&path)
                .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
        }
    }
    for (sub, extension) in [
        (FRAMEBUFFERS, WindowImage::EXTENSION),
        (super::driver_ir::IR_DIR, super::driver_ir::EXTENSION),
    ] {
        let kept = dir.join(sub);
        if kept.is_dir() {
            remove_kept(&kept, extension)?;
        }
    }
    Ok(())
}

/// Removes the files under `dir` whose extension is `extension` (a run's kept windows or
/// IR), then `dir` itself if that left it empty.
fn remove_kept(dir: &Path, extension: &str) -> Result<(), String> {
    let cannot = |path: &Path, e: std::io::Error| format!("cannot remove {}: {e}", path.display());
    for entry in std::fs::read_dir(dir).map_err(|e| cannot(dir, e))? {
        let path = entry.map_err(|e| cannot(dir, e))?.path();
        let kind = std::fs::symlink_metadata(&path).map_err(|e| cannot(&path, e))?;
        if kind.is_dir() {
            remove_kept(&path, extension)?;
        } else if kind.is_file() && path.extension().is_some_and(|e| e == extension) {
            std::fs::remove_file(&path).map_err(|e| cannot(&path, e))?;
        }
    }
    // Not empty: it holds something else, which stays.
    let _ = std::fs::remove_dir(dir);
    Ok(())
}

/// Results read from `path`, with warnings about what could not be read.
#[derive(Debug)]
pub(crate) struct Loaded {
    /// The results.
    pub results: ResultsFile,
    /// Damaged journal lines, one message each.
    pub warnings: Vec<String>,
}

/// Reads `results.json`, a journal (`*.jsonl`), or a results directory (its `results.json`,
/// else its journal: the run did not finish).
pub(crate) fn load_results(path: &Path) -> Result<Loaded, String> {
    let file = if path.is_dir() {
        let finished = path.join(RESULTS);
        if finished.exists() {
            finished
        } else {
            path.join(JOURNAL)
        }
    } else {
        path.to_path_buf()
    };
    if file.extension().is_some_and(|e| e == "jsonl") {
        let journal = read_journal(&file).map_err(|e| e.to_string())?;
        let warnings = damaged_lines(&file, &journal, "its test counts as not run");
        Ok(Loaded {
            results: journal.into_results(),
            warnings,
        })
    } else {
        Ok(Loaded {
            results: read_results(&file).map_err(|e| e.to_string())?,
            warnings: Vec::new(),
        })
    }
}

/// One message per damaged line of `journal`, read from `path`, ending with `consequence`.
pub(crate) fn damaged_lines(path: &Path, journal: &Journal, consequence: &str) -> Vec<String> {
    journal
        .damaged
        .iter()
        .map(|d| {
            format!(
                "{}:{}: damaged journal line ({}): {consequence}",
                path.display(),
                d.line,
                d.error
            )
        })
        .collect()
}
