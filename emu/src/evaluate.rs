//! The emulator's API for the verdicts, lint and reports: a test run in a mode or in any
//! numeric domain, each probe's values, and whole framebuffers.

use crate::exec::{Domain, Mode, Rounding};
use crate::profile::Choices;
use crate::program::Compiled;
use crate::values::Evaluation;
use crate::{device, require};
use halfcheck_compiler::CompileOptions;
use halfcheck_piglit::shader_test::ShaderTest;
use halfcheck_piglit::WindowImage;
use halfcheck_results::{Status, TestResult};
use std::time::Instant;

/// Why [`render`] has no framebuffer: the emulator could not run the test.
#[derive(Debug, thiserror::Error)]
#[error("the emulator could not run it ({}): {reason}", status.as_str())]
pub struct RenderError {
    /// The status the test ended with.
    pub status: Status,
    /// Why.
    pub reason: String,
}

/// Runs `test` on the emulator in `mode` with the default profile (llvmpipe). Every probe
/// that ran is in the result's `probes`, with the value the emulator computed per channel in
/// `observed` (and its bits).
pub fn predict(test: &ShaderTest, mode: Mode) -> TestResult {
    predict_with(test, mode, &Choices::default())
}

/// Runs `test` on the emulator in `mode` with a profile's `choices`.
pub fn predict_with(test: &ShaderTest, mode: Mode, choices: &Choices) -> TestResult {
    let domain = Rounding::with(mode, *choices);
    evaluate(
        test,
        &domain,
        &choices.compile_options(mode == Mode::Mediump),
    )
    .result
}

/// How the emulator compiles a test's shaders for `mode` with the default profile
/// (`mediump`: lowered, with Mesa's later pipeline; `highp`, `exact`: not lowered).
pub fn compile_options(mode: Mode) -> CompileOptions {
    Choices::default().compile_options(mode == Mode::Mediump)
}

/// Runs `test` with its arithmetic in any numeric `domain` (the point modes, or acceptance
/// intervals), its shaders compiled with `options`.
pub fn evaluate<D: Domain>(
    test: &ShaderTest,
    domain: &D,
    options: &CompileOptions,
) -> Evaluation<D::F> {
    run(test, domain, options, false).0
}

/// For the verdicts' predictions: `test` in `domain` with its shaders as `compiled` (several
/// domains share one compile), reading each probe's values and no more: the probes are not
/// judged (each passes), which spares reading every probed region a second time as binary32.
pub fn probe_values<D: Domain>(
    test: &ShaderTest,
    domain: &D,
    compiled: &Compiled,
) -> Evaluation<D::F> {
    match require::skip_reason(test) {
        Some(reason) => skipped(reason),
        None => device::run(test, domain, compiled, false, false).0,
    }
}

/// [`evaluate`], timed, shading every pixel and returning the window's binary32 view too
/// when `keep_window` asks for it (else only the pixels probes read are shaded).
pub(crate) fn run<D: Domain>(
    test: &ShaderTest,
    domain: &D,
    options: &CompileOptions,
    keep_window: bool,
) -> (Evaluation<D::F>, Option<WindowImage>) {
    let started = Instant::now();
    let (mut evaluation, window) = match require::skip_reason(test) {
        Some(reason) => (skipped(reason), None),
        None => {
            let compiled = Compiled::new(test, options);
            device::run(test, domain, &compiled, keep_window, true)
        }
    };
    evaluation.result.duration_s = started.elapsed().as_secs_f64();
    (evaluation, window)
}

/// A test the emulator skips, and why.
fn skipped<F>(reason: String) -> Evaluation<F> {
    Evaluation {
        result: TestResult::with_status(Status::Skip, reason),
        probes: Vec::new(),
    }
}

/// The whole framebuffer after `test`'s commands ran on the emulator in `mode` (every pixel
/// shaded), for reports; an error says why the emulator could not run it.
pub fn render(test: &ShaderTest, mode: Mode) -> Result<WindowImage, RenderError> {
    let domain = Rounding::new(mode);
    let (evaluation, window) = run(test, &domain, &compile_options(mode), true);
    match (evaluation.result.status, window) {
        (Status::Pass | Status::Warn | Status::Fail, Some(window)) => Ok(window),
        (status, _) => Err(RenderError {
            status,
            reason: evaluation.result.reason.unwrap_or_default(),
        }),
    }
}
