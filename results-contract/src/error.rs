//! Why a results file, a journal or a YAML text could not be read.

use std::path::PathBuf;

/// Why a results file (`results.json`) or a journal (`results.jsonl`) could not be read. Each
/// names the file, and the line where there is one.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be read: missing, not a regular file, too large or not UTF-8.
    #[error("{}: cannot read: {source}", .path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The text is not a file of this kind.
    #[error("{}{}: not a halfcheck {what}: {message}", .path.display(), line_suffix(*.line))]
    Malformed {
        /// The file.
        path: PathBuf,
        /// The line, where the error has one.
        line: Option<usize>,
        /// What it should have been (`results file`, `journal header`).
        what: &'static str,
        /// What the JSON reader said.
        message: String,
    },
    /// A journal without even its header.
    #[error("{}: empty journal", .path.display())]
    EmptyJournal {
        /// The file.
        path: PathBuf,
    },
    /// A file of another format or version.
    #[error("{}{}: format is '{found}', expected '{expected}'", .path.display(), line_suffix(*.line))]
    Format {
        /// The file.
        path: PathBuf,
        /// The line, where the error has one.
        line: Option<usize>,
        /// The format tag found (cut to a readable length).
        found: String,
        /// The format tag this reader reads.
        expected: &'static str,
    },
}

/// `:N` for line `N`, nothing without one.
fn line_suffix(line: Option<usize>) -> String {
    line.map(|n| format!(":{n}")).unwrap_or_default()
}

/// A YAML text nested deeper or indented wider than halfcheck reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NestingError {
    /// Indented wider than [`crate::read::MAX_INDENT`] columns.
    #[error(
        "line {line}: indented {columns} columns; halfcheck reads at most {}",
        crate::read::MAX_INDENT
    )]
    TooWide {
        /// The line (1-based).
        line: usize,
        /// Its indentation.
        columns: usize,
    },
    /// Flow brackets nested deeper than [`crate::read::MAX_NESTING`].
    #[error(
        "line {line}: nested more than {} deep; halfcheck reads no deeper",
        crate::read::MAX_NESTING
    )]
    TooDeep {
        /// The line (1-based).
        line: usize,
    },
}
