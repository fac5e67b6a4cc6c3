//! Messages between `halfcheck run` and its worker processes: one JSON object per line.
//!
//! The parent writes a [`Job`] per test on the worker's stdin; the worker answers with one
//! [`Reply`] per job on stdout, after a first `Ready` (or `Fatal`) once its backend is open.

use crate::results::{RunInfo, TestResult};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// A test for a worker to run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Job {
    /// The test's name in results.
    pub name: String,
    /// The `.shader_test` file.
    pub path: PathBuf,
}

/// What a worker says.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Reply {
    /// The backend is open: here is what it runs on.
    Ready(Box<RunInfo>),
    /// The backend could not be opened; the worker exits.
    Fatal(String),
    /// The result of the last job.
    Result(Box<TestResult>),
}
