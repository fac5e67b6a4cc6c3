//! Backends run a parsed `.shader_test` and report what every probe saw.
//!
//! To add a backend: implement [`Backend`] in a module of its own under `backend/`, give it a
//! [`BackendKind`] variant and construct it in [`open_backend`]. The GL backend and the
//! emulator both implement this trait; the runner, verdicts and reports never see which.
//! A backend that runs piglit's `[test]` commands implements [`halfcheck_piglit::Device`] (clear, draw,
//! uniforms, textures, framebuffers, readback) and hands it to [`halfcheck_piglit::run`], which holds
//! piglit's semantics once for every backend.

use halfcheck_emu as emu;
use halfcheck_piglit::Backend;

pub mod gl;
mod mock;

/// Which backend a run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum BackendKind {
    /// The GL backend; the emulator only where no EGL driver can be loaded at all.
    Auto,
    /// A real OpenGL ES driver through EGL, headless.
    Gl,
    /// halfcheck's own software f16 emulator.
    Emu,
    /// Runs nothing and passes every test: for testing the runner itself.
    #[value(hide = true)]
    Mock,
}

/// Settings a backend is opened with (a worker receives them as one JSON object).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct BackendOptions {
    /// Which EGL library, platform and device the GL backend opens.
    pub gl: gl::EglChoice,
    /// The emulator's arithmetic (`--emu-mode`).
    #[serde(with = "crate::runner::mode_name")]
    pub emu_mode: emu::Mode,
    /// Where the worker writes each test's final window framebuffer (`--framebuffers`:
    /// `RESULTS/framebuffers`); `None` keeps none.
    pub framebuffers: Option<std::path::PathBuf>,
    /// Whether the worker also runs each lowp/mediump test promoted to highp on the same
    /// backend, as the verdict's reference (`--reference`).
    pub reference: halfcheck_verdict::ReferenceMode,
    /// The emulator's driver profile (`--emu-profile`): a built-in name or a YAML file
    /// (made absolute, for the workers); the default profile when empty.
    pub emu_profile: String,
    /// Whether every test draws into a window of exact floats; else only a test whose verdict
    /// needs them (one holding lowp or mediump), the rest into RGBA8 as piglit's window.
    pub exact_windows: bool,
    /// Whether the worker judges each test (computes predictions and verdicts); off, tests
    /// that need no exact floats for anything else draw into RGBA8.
    pub verdicts: bool,
    /// Where the worker keeps its verdicts between runs (`runner::verdict_cache`); `None`
    /// keeps none.
    #[serde(default)]
    pub verdict_cache: Option<std::path::PathBuf>,
    /// Where the worker keeps the driver's IR of each test (`--driver-ir`: `RESULTS/ir`), on
    /// a Mesa driver; `None` captures none.
    #[serde(default)]
    pub driver_ir: Option<std::path::PathBuf>,
}

/// Why a backend could not be opened.
#[derive(Debug, thiserror::Error)]
pub(crate) enum OpenError {
    /// The GL backend could not open its driver.
    #[error("{0}")]
    Gl(gl::GlError),
    /// `auto` found a GL driver that failed to open (it never switches to the emulator then).
    #[error(
        "{0} (--backend auto runs the emulator only where no GL driver can be loaded; pass \
         --backend emu to run it anyway)"
    )]
    AutoGl(gl::GlError),
}

/// A backend opened for a worker.
pub(crate) struct Opened {
    /// The backend.
    pub backend: Box<dyn Backend>,
    /// Set when `auto` found no GL driver to load and opened the emulator: why.
    pub fallback: Option<String>,
}

/// Opens a backend of `kind`. `Auto` takes the GL backend, and the emulator only when no EGL
/// implementation can be loaded at all (no libEGL, or one with no vendor library and so no
/// device to list); a driver or device that is there but fails to open is an error, never a
/// silent switch to the emulator, which runs `profile` (the run's `--emu-profile`).
pub(crate) fn open_backend(
    kind: BackendKind,
    options: &BackendOptions,
    profile: &emu::Profile,
) -> Result<Opened, OpenError> {
    let opened = |backend: Box<dyn Backend>| Opened {
        backend,
        fallback: None,
    };
    match kind {
        BackendKind::Gl => gl::GlBackend::new(&options.gl)
            .map(|b| opened(Box::new(b)))
            .map_err(OpenError::Gl),
        BackendKind::Auto => match gl::GlBackend::new(&options.gl) {
            Ok(b) => Ok(opened(Box::new(b))),
            Err(e @ (gl::GlError::NoEgl | gl::GlError::NoDevice(_))) => {
                let mut emu = open_backend(BackendKind::Emu, options, profile)?;
                emu.fallback = Some(format!("no GL driver to load ({e}): ran the emulator"));
                Ok(emu)
            }
            Err(e) => Err(OpenError::AutoGl(e)),
        },
        BackendKind::Emu => Ok(opened(Box::new(emu::EmuBackend::new(
            options.emu_mode,
            profile.clone(),
        )))),
        BackendKind::Mock => Ok(opened(Box::new(mock::MockBackend))),
    }
}
