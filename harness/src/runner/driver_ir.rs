//! `run --driver-ir`: the worker's side of the driver's IR as a second witness.
//!
//! On a Mesa driver (its `GL_VERSION` says so) the worker asks Mesa's state
//! tracker to print the NIR it hands the driver (`ST_DEBUG=nir`), captures stderr around the
//! test and around its highp reference (`backend::gl::capture`), keeps each capture in
//! `DIR/ir/<test name>.nir` (`.reference.nir` for the reference), records its counts and the
//! model's match in the result (`driver_ir`), and lets `halfcheck_verdict::witness` weigh it
//! against the numbers. What the driver printed that is no shader goes on to stderr as before.

use crate::backend::gl::capture::{self, Captured};
use crate::results::{DriverIr, IrCapture, RunInfo, TestResult};
use halfcheck_emu::Choices;
use halfcheck_piglit::shader_test::ShaderTest;
use halfcheck_verdict as verdict;
use std::path::{Path, PathBuf};

/// Where a run keeps the captures, in a results directory.
pub(crate) const IR_DIR: &str = "ir";

/// The extension of a kept capture.
pub(crate) const EXTENSION: &str = "nir";

/// Asks Mesa for its IR, before the driver is loaded; the worker's capture is on from then.
pub(super) fn ask() {
    capture::ask_mesa_for_nir();
}

/// Whether the driver that opened is Mesa's GL, whose state tracker prints its NIR: its
/// `GL_VERSION` says `Mesa`. (ANGLE on lavapipe names Mesa in its renderer, but runs no
/// Mesa GL.)
pub(super) fn is_mesa(info: &RunInfo) -> bool {
    info.versions
        .get("GL_VERSION")
        .is_some_and(|v| v.contains("Mesa"))
}

/// Runs `f` with stderr captured when `on`.
pub(super) fn run<T>(on: bool, f: impl FnOnce() -> T) -> (T, Option<Result<Captured, String>>) {
    if on {
        let (value, captured) = capture::around(f);
        (value, Some(captured))
    } else {
        (f(), None)
    }
}

/// One test's captures, read and kept.
pub(super) struct Record<'a> {
    /// `DIR/ir`.
    pub dir: &'a Path,
    /// The test's name.
    pub name: &'a str,
    /// The test.
    pub test: &'a ShaderTest,
    /// The run's driver profile's choices (what the model lowers).
    pub driver: &'a Choices,
}

impl Record<'_> {
    /// Keeps the test's capture and its reference's, records their counts and the model's
    /// match in `result`, and lets the IR witness its verdict. A capture that failed or
    /// printed no shader leaves `driver_ir` out; why, in `logs["driver_ir"]`.
    pub(super) fn keep(
        &self,
        test: Option<Result<Captured, String>>,
        reference: Option<Result<Captured, String>>,
        result: &mut TestResult,
    ) {
        let Some(test) = test else { return };
        let Some((capture, program)) = self.read(test, "", result) else {
            return;
        };
        let reference = reference
            .and_then(|r| self.read(r, ".reference", result))
            .map(|(capture, _)| capture);
        // Matching costs a compile: only a judged test (not `--no-verdicts`) pays it.
        let model = result
            .verdict
            .and_then(|_| verdict::model_operations(self.test, self.driver))
            .map(|ops| verdict::match_model(&ops, &capture.shaders));
        verdict::witness(result, &program);
        result.driver_ir = Some(DriverIr {
            test: capture,
            reference,
            model,
        });
    }

    /// Reads one capture, writes it to `<name><suffix>.nir` and gives its summary and what
    /// the verdict reads; `None` when it failed or holds no shader.
    fn read(
        &self,
        captured: Result<Captured, String>,
        suffix: &str,
        result: &mut TestResult,
    ) -> Option<(IrCapture, halfcheck_nir::Program)> {
        let captured = match captured {
            Ok(captured) => captured,
            Err(why) => {
                result.logs.insert("driver_ir".into(), why);
                return None;
            }
        };
        let dump = halfcheck_nir::read(&captured.text);
        // Nothing the driver printed is lost: what is no shader goes on as it came.
        if !dump.other.is_empty() {
            eprint!("{}", dump.other);
        }
        if dump.shaders.is_empty() {
            return None;
        }
        let mut program = halfcheck_nir::program_of(&dump);
        // Shaders past the cap are missing: what is absent proves nothing.
        program.complete &= !captured.cut();
        let file = format!("{}{suffix}.{EXTENSION}", self.name);
        if let Err(why) = write(&self.dir.join(&file), &captured.text) {
            result.logs.insert("driver_ir".into(), why);
        }
        let summary = IrCapture {
            file: format!("{IR_DIR}/{file}"),
            bytes: captured.bytes,
            cut_at: captured.cut().then_some(captured.kept),
            shaders: program.shaders.clone(),
        };
        Some((summary, program))
    }
}

/// Writes `text` to `path`, its directories first.
fn write(path: &PathBuf, text: &str) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
