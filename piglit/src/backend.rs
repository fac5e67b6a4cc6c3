//! The contract between the runner and whatever runs a test: a driver or the emulator.

use crate::shader_test::ShaderTest;
use crate::WindowImage;
use halfcheck_results::{RunInfo, TestResult};

/// Something that runs shader tests.
///
/// One instance serves one worker thread; it may keep state (a GL context) between tests but
/// must leave none behind that changes the next test's result.
pub trait Backend {
    /// Facts about the driver for `results.json`'s `run` object (backend, renderer, versions).
    fn run_info(&self) -> RunInfo;
    /// Runs one test and reports its status and probes. Never panics on bad input.
    fn run_test(&mut self, test: &ShaderTest) -> TestResult;
    /// From now on, keep each test's final window framebuffer for [`Backend::take_window`]
    /// (the emulator then shades every pixel, not only the probed ones).
    fn keep_windows(&mut self) {}
    /// From now on, a test that [`Backend::exact_window`] says needs no exact floats may draw
    /// into an RGBA8 window as piglit's is (the GL backend; unless windows are kept).
    fn narrow_windows(&mut self) {}
    /// Whether the next tests need the exact floats their shaders write (the default).
    fn exact_window(&mut self, _exact: bool) {}
    /// The window framebuffer the last test left, when kept and the test ran.
    fn take_window(&mut self) -> Option<WindowImage> {
        None
    }
}
