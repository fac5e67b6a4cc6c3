//! Backends run a parsed `.shader_test` and report what every probe saw.
//!
//! To add a backend: implement [`Backend`] in a module of its own under `backend/`, give it a
//! [`BackendKind`] variant and construct it in [`crate::runner`]. The GL backend and the
//! emulator both implement this trait; the runner, verdicts and reports never see which.

use crate::results::{RunInfo, TestResult};
use crate::shader_test::ShaderTest;

/// Which backend a run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendKind {
    /// The GL backend when an EGL driver is found, else the emulator.
    Auto,
    /// A real OpenGL ES driver through EGL, headless.
    Gl,
    /// halfcheck's own software f16 emulator.
    Emu,
}

/// Something that runs shader tests.
///
/// One instance serves one worker thread; it may keep state (a GL context) between tests but
/// must leave none behind that changes the next test's result.
pub trait Backend {
    /// Facts about the driver for `results.json`'s `run` object (backend, renderer, versions).
    fn run_info(&self) -> RunInfo;
    /// Runs one test and reports its status and probes. Never panics on bad input.
    fn run_test(&mut self, test: &ShaderTest) -> TestResult;
}
