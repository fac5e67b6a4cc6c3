//! Why a report could not be written.

use std::path::PathBuf;

/// Why a report (or one of its images) could not be written; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A directory of the site could not be created.
    #[error("cannot create {}: {source}", .path.display())]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file of the site could not be written.
    #[error("cannot write {}: {source}", .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// An image could not be encoded as PNG.
    #[error("cannot encode PNG: {0}")]
    Png(#[from] image::ImageError),
}
