#![warn(unreachable_pub)]
//! The emulator backend: runs `.shader_test` files with no GPU, on halfcheck's own compiler
//! and its software f16 emulator (`crate::exec`).
//!
//! Each test's shaders are compiled to the IR (`program`), its commands run by the shared
//! piglit command loop on a software RGBA32F framebuffer (`device`, `framebuffer`):
//! `draw rect`/`draw arrays` run the vertex shader on the
//! vertices, rasterise the triangles into 2x2 quads (`raster`) and run the fragment shader on
//! batches of quads in parallel (`shade`). Uniforms (`uniforms`), piglit's textures
//! (`textures`), clears and probes follow piglit, with the probe logic shared with the GL
//! backend (`halfcheck_piglit`). What the emulated driver does is its profile
//! ([`Profile`]: built in, or a YAML file, see [`load_profile`]); the arithmetic is the run's
//! [`Mode`]: `mediump` computes as the profile says, `highp` the same driver with nothing
//! lowered, `exact` the binary64 reference.
//!
//! [`predict`] runs one parsed test in a mode and returns its result: the verdict stage reads
//! each probe's computed value from it. [`evaluate`] does the same in any numeric domain (the
//! acceptance intervals of `crate::exec::Bounds` included) and keeps every
//! probe's values over its whole region.

mod device;
pub mod exec;
mod framebuffer;
mod interp;
mod link;
pub mod profile;
mod program;
mod raster;
mod require;
mod shade;
mod textures;
mod ties;
mod uniforms;

pub use crate::exec::Mode;
pub use program::Compiled;
pub use require::skip_reason;

use crate::exec::{Domain, Rounding};
pub use profile::{Choices, Profile, ProfileError};

use halfcheck_compiler::CompileOptions;

use halfcheck_piglit::probe::Region;
use halfcheck_piglit::shader_test::ShaderTest;
use halfcheck_piglit::{Backend, Stop, WindowImage};
use halfcheck_results::read::{check_yaml_nesting, read_regular_text, MAX_SETTINGS_BYTES};
use halfcheck_results::{RunInfo, Status, TestResult};
use serde_json::json;
use std::collections::BTreeMap;
use std::time::Instant;

/// The emulator backend: one driver profile, in one arithmetic mode.
#[derive(Debug, Clone, Default)]
pub struct EmuBackend {
    /// The arithmetic.
    pub mode: Mode,
    /// The emulated driver.
    pub profile: Profile,
    /// Whether each test's whole window is shaded and kept.
    keep_windows: bool,
    /// The last test's window framebuffer, when kept.
    window: Option<WindowImage>,
}

impl EmuBackend {
    /// The emulator in `mode` with `profile`, keeping no windows.
    pub fn new(mode: Mode, profile: Profile) -> EmuBackend {
        EmuBackend {
            mode,
            profile,
            ..EmuBackend::default()
        }
    }
}

impl Backend for EmuBackend {
    fn run_info(&self) -> RunInfo {
        RunInfo {
            backend: "emu".into(),
            renderer: format!(
                "halfcheck f16 emulator (profile {}, {})",
                self.profile.name,
                self.mode.name()
            ),
            versions: BTreeMap::from([
                (
                    "GL_VERSION".to_owned(),
                    "OpenGL ES 3.1 halfcheck-emu".to_owned(),
                ),
                ("halfcheck".to_owned(), env!("CARGO_PKG_VERSION").to_owned()),
            ]),
            context: json!({
                "mode": self.mode.name(),
                "profile": self.profile.name,
                "profile_describes": self.profile.describes,
                "profile_choices": self.profile.choices,
                "render_target": "RGBA32F",
            }),
            ..RunInfo::default()
        }
    }

    fn run_test(&mut self, test: &ShaderTest) -> TestResult {
        let choices = &self.profile.choices;
        let domain = Rounding::with(self.mode, *choices);
        let options = choices.compile_options(self.mode == Mode::Mediump);
        let (evaluation, window) = run(test, &domain, &options, self.keep_windows);
        self.window = window;
        evaluation.result
    }

    fn keep_windows(&mut self) {
        self.keep_windows = true;
    }

    fn take_window(&mut self) -> Option<WindowImage> {
        self.window.take()
    }
}

/// The mode `--emu-mode` names (`highp`, `mediump`, `exact`).
pub fn parse_mode(name: &str) -> Result<Mode, String> {
    [Mode::Highp, Mode::Mediump, Mode::Exact]
        .into_iter()
        .find(|m| m.name() == name)
        .ok_or_else(|| format!("unknown emulator mode '{name}': highp, mediump or exact"))
}

/// The profile `--emu-profile` names: a built-in profile's name, or a YAML file. Errors name
/// the file, line and column.
pub fn load_profile(spec: &str) -> Result<Profile, String> {
    if let Some(profile) = Profile::builtin(spec) {
        return Ok(profile);
    }
    let path = std::path::Path::new(spec);
    match read_regular_text(path, MAX_SETTINGS_BYTES) {
        Ok(text) => check_yaml_nesting(&text)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|()| {
                Profile::from_yaml(&text, &path.display().to_string()).map_err(|e| e.to_string())
            }),
        Err(e) => Err(format!(
            "no emulator profile '{spec}': not a built-in one ({}) and not a readable file ({e})",
            Profile::builtin_names().join(", ")
        )),
    }
}

/// The profile of a run's options: [`load_profile`] of `spec`, the default when empty.
pub fn profile_of(spec: &str) -> Result<Profile, String> {
    match spec {
        "" => Ok(Profile::default()),
        spec => load_profile(spec),
    }
}

/// `--emu-profile SPEC` checked before a run: the profile, and how workers name it (a
/// built-in name, or the file made absolute).
pub fn resolve_profile(spec: &str) -> Result<(String, Profile), String> {
    let profile = load_profile(spec)?;
    if Profile::builtin(spec).is_some() {
        return Ok((spec.to_owned(), profile));
    }
    let absolute = std::fs::canonicalize(spec)
        .map_err(|e| format!("{spec}: {e}"))?
        .display()
        .to_string();
    Ok((absolute, profile))
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

/// What [`evaluate`] computed.
#[derive(Debug, Clone)]
pub struct Evaluation<F> {
    /// The test's result, judged by piglit's rules on the binary32 view of the values.
    pub result: TestResult,
    /// For each probe that ran, in order, its values in the domain.
    pub probes: Vec<ProbeValues<F>>,
}

/// One probe's values in a domain: every pixel of the region it reads.
#[derive(Debug, Clone)]
pub struct ProbeValues<F> {
    /// The pixels read.
    pub region: Region,
    /// RGBA per pixel, row by row from the bottom; one pixel's when `one_colour`.
    rgba: Vec<F>,
    /// Whether every pixel of the region holds the values `rgba` holds.
    one_colour: bool,
}

impl<F: Copy> ProbeValues<F> {
    /// `rgba` per pixel of `region`, row by row from the bottom.
    pub fn per_pixel(region: Region, rgba: Vec<F>) -> Self {
        ProbeValues {
            region,
            rgba,
            one_colour: false,
        }
    }

    /// `color` at every pixel of `region`.
    pub fn one_colour(region: Region, color: [F; 4]) -> Self {
        ProbeValues {
            region,
            rgba: color.to_vec(),
            one_colour: true,
        }
    }

    /// Channel `c` of pixel `(x, y)`, when the region holds it.
    pub fn at(&self, x: u32, y: u32, c: usize) -> Option<F> {
        let r = &self.region;
        if !((r.x..r.x + r.w).contains(&x) && (r.y..r.y + r.h).contains(&y) && c < 4) {
            return None;
        }
        let pixel = if self.one_colour {
            0
        } else {
            (y - r.y) as usize * r.w as usize + (x - r.x) as usize
        };
        self.rgba.get(pixel * 4 + c).copied()
    }

    /// The same pixels with `f` of each value.
    pub fn map<G>(&self, f: impl Fn(&F) -> G) -> ProbeValues<G> {
        ProbeValues {
            region: self.region,
            rgba: self.rgba.iter().map(f).collect(),
            one_colour: self.one_colour,
        }
    }

    /// Whether every pixel holds what the first one does, as `same` compares values.
    pub fn uniform(&self, same: impl Fn(&F, &F) -> bool) -> bool {
        self.one_colour || uniform_pixels(&self.rgba, same)
    }
}

/// Whether every RGBA pixel of `rgba` holds what the first one does, as `same` compares
/// values.
pub fn uniform_pixels<F>(rgba: &[F], same: impl Fn(&F, &F) -> bool) -> bool {
    let mut pixels = rgba.chunks_exact(4);
    let Some(first) = pixels.next() else {
        return true;
    };
    pixels.all(|p| p.iter().zip(first).all(|(a, b)| same(a, b)))
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
fn run<D: Domain>(
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
pub fn render(test: &ShaderTest, mode: Mode) -> Result<WindowImage, String> {
    let domain = Rounding::new(mode);
    let (evaluation, window) = run(test, &domain, &compile_options(mode), true);
    match (evaluation.result.status, window) {
        (Status::Pass | Status::Warn | Status::Fail, Some(window)) => Ok(window),
        (status, _) => Err(format!(
            "the emulator could not run it ({}): {}",
            status.as_str(),
            evaluation.result.reason.unwrap_or_default()
        )),
    }
}
