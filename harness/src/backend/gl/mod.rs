//! The GL backend: runs `.shader_test` files on a real OpenGL ES driver, headless via EGL,
//! and reads back exactly the floats the shaders computed.
//!
//! [`GlBackend::new`] makes an ES context (the highest version the driver offers) with no
//! window on the EGL library and platform an [`EglChoice`] names (`egl`, `platform`, `gbm`);
//! [`list_devices`] lists what each platform opens. Each [`Backend::run_test`]
//! checks the `[require]` block (`require`), then runs the test on a `device::GlDevice`: the
//! shared piglit command loop (`backend::piglit`) drives it to compile and link (`program`),
//! draw (`draw`), set uniforms, textures and state (`uniforms`, `textures`, `state`) into an
//! RGBA32F window FBO (`target`), and read it back exactly for probes (`probe`). State is reset after each test; a context that is lost or keeps raising
//! errors is replaced. A `GlBackend` is not `Send`: create one on each worker thread.

pub(crate) mod capture;
mod context;
mod device;
mod draw;
mod egl;
mod formats;
mod gbm;
mod platform;
mod probe;
mod program;
mod require;
mod state;
mod target;
mod textures;
mod uniforms;

pub use context::{ContextInfo, DeviceInfo};
pub use platform::{AngleBackend, EglChoice, Platform, ANGLE_SEARCH};

use crate::results::{RunInfo, Status, TestResult};
use context::GlContext;
use glow::HasContext;
use halfcheck_piglit::shader_test::ShaderTest;
use halfcheck_piglit::{Backend, Stop, WindowImage};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::time::Instant;

/// Why no GL context could be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GlError {
    /// The system's libEGL could not be loaded.
    NoEgl,
    /// The libEGL asked for (`--gl-library`) could not be loaded, or is no EGL library.
    Library(String),
    /// No ANGLE libEGL was found for an ANGLE platform.
    NoAngle(String),
    /// The library does not offer the platform asked for, or the platform cannot open.
    Platform(String),
    /// EGL is there but lists no usable device.
    NoDevice(String),
    /// The device index asked for does not exist.
    NoSuchDevice {
        /// The index asked for.
        index: usize,
        /// How many devices there are.
        count: usize,
    },
    /// `eglGetPlatformDisplay` / `eglInitialize` on the device failed.
    Display(String),
    /// No EGL config offers OpenGL ES without a surface.
    Config(String),
    /// The context could not be created or made current.
    Context(String),
}

impl std::fmt::Display for GlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GlError::NoEgl => write!(
                f,
                "cannot load libEGL: is Mesa's libegl1 / libegl-mesa0 installed?"
            ),
            GlError::Library(why) | GlError::NoAngle(why) | GlError::Platform(why) => {
                f.write_str(why)
            }
            GlError::NoDevice(why) => write!(
                f,
                "no EGL device found ({why}): is Mesa's libegl-mesa0 installed?"
            ),
            GlError::NoSuchDevice { index, count } => {
                write!(
                    f,
                    "no EGL device {index}: there are {count} (see `halfcheck devices`)"
                )
            }
            GlError::Display(why) => write!(f, "cannot open an EGL display: {why}"),
            GlError::Config(why) => write!(f, "no EGL config for headless OpenGL ES: {why}"),
            GlError::Context(why) => write!(f, "cannot create an OpenGL ES context: {why}"),
        }
    }
}

impl std::error::Error for GlError {}

/// What `platform` opens with `choice`'s library (every device on the device platform), with
/// the renderer an ES context on each reports, or why it did not open.
pub(crate) fn list_devices(choice: &EglChoice, platform: Platform) -> Vec<DeviceInfo> {
    context::probe_platform(choice, platform)
}

/// Runs shader tests on an OpenGL ES context. One per worker thread.
pub struct GlBackend {
    choice: EglChoice,
    context: GlContext,
    /// Set when the context broke and could not be replaced.
    broken: Option<String>,
    /// Whether each test's final window framebuffer is kept.
    keep_windows: bool,
    /// The last test's window framebuffer, when kept.
    window: Option<WindowImage>,
    /// Whether the next tests need the exact floats their shaders write.
    exact_window: bool,
    /// Whether a test that needs no exact floats draws into RGBA8.
    narrow: bool,
}

impl GlBackend {
    /// Creates a headless ES context on the library, platform and device `choice` names.
    pub fn new(choice: &EglChoice) -> Result<GlBackend, GlError> {
        Ok(GlBackend {
            choice: choice.clone(),
            context: GlContext::new(choice)?,
            broken: None,
            keep_windows: false,
            window: None,
            exact_window: true,
            narrow: false,
        })
    }

    /// What the context reported about itself (versions, renderer, extensions).
    pub fn context_info(&self) -> &ContextInfo {
        &self.context.info
    }

    /// Whether a test that needs no exact floats draws into RGBA8: asked for, and no window kept.
    fn narrows(&self) -> bool {
        self.narrow && !self.keep_windows
    }

    /// Resets GL state after a test; replaces the context when it is lost or keeps erroring.
    fn reset(&mut self) {
        if reset_state(&self.context) {
            return;
        }
        match GlContext::new(&self.choice) {
            Ok(context) => self.context = context,
            Err(e) => {
                self.broken = Some(format!(
                    "the GL context broke and could not be recreated: {e}"
                ))
            }
        }
    }
}

impl Backend for GlBackend {
    fn run_info(&self) -> RunInfo {
        let info = &self.context.info;
        let versions = BTreeMap::from([
            ("GL_VENDOR".to_owned(), info.vendor.clone()),
            ("GL_VERSION".to_owned(), info.version.clone()),
            (
                "GL_SHADING_LANGUAGE_VERSION".to_owned(),
                info.glsl_version.clone(),
            ),
            ("halfcheck".to_owned(), env!("CARGO_PKG_VERSION").to_owned()),
            ("EGL_LIBRARY".to_owned(), self.context.library.clone()),
        ]);
        let render_target = match (target::renders_to_float(info), self.narrows()) {
            (false, _) => "RGBA8",
            (true, false) => "RGBA32F",
            (true, true) => {
                "RGBA32F for a test judged for its lowering; RGBA8, as piglit's, for the rest"
            }
        };
        RunInfo {
            backend: "gl".into(),
            renderer: info.renderer.clone(),
            platform: Some(self.context.platform.name().to_owned()),
            versions,
            context: json!({
                "shader_precision_format": precision_formats(&self.context.gl),
                "render_target": render_target,
                "extensions": info.extensions,
            }),
            ..RunInfo::default()
        }
    }

    fn run_test(&mut self, test: &ShaderTest) -> TestResult {
        let started = Instant::now();
        self.window = None;
        if let Some(why) = &self.broken {
            return TestResult::with_status(Status::Error, why.clone());
        }
        if let Err(e) = self.context.make_current() {
            return TestResult::with_status(Status::Error, e.to_string());
        }
        let gl = &self.context.gl;
        let limit = |name: u32| query_limit(gl, name);
        let mut result = match require::skip_reason(test, &self.context.info, &limit) {
            Some(reason) => TestResult::with_status(Status::Skip, reason),
            None => {
                let info = &self.context.info;
                let exact = self.exact_window || !self.narrows();
                let (result, window) = device::run(
                    gl,
                    info,
                    &self.context.extra,
                    test,
                    self.keep_windows,
                    exact,
                );
                self.window = window;
                self.reset();
                result
            }
        };
        result.duration_s = started.elapsed().as_secs_f64();
        result
    }

    fn keep_windows(&mut self) {
        self.keep_windows = true;
    }

    fn narrow_windows(&mut self) {
        self.narrow = true;
    }

    fn exact_window(&mut self, exact: bool) {
        self.exact_window = exact;
    }

    fn take_window(&mut self) -> Option<WindowImage> {
        self.window.take()
    }
}

/// `glGetIntegerv(name)`, or `None` when the driver rejects the enum.
fn query_limit(gl: &glow::Context, name: u32) -> Option<i64> {
    // SAFETY: a plain query followed by reading the error it may have raised.
    unsafe {
        while gl.get_error() != glow::NO_ERROR {}
        let value = gl.get_parameter_i32(name);
        (gl.get_error() == glow::NO_ERROR).then_some(i64::from(value))
    }
}

/// Puts back the default state a test may have changed; false when the context is unusable.
fn reset_state(context: &GlContext) -> bool {
    let (gl, info) = (&context.gl, &context.info);
    // SAFETY: resetting bindings and capabilities of the current context.
    unsafe {
        gl.use_program(None);
        gl.bind_vertex_array(None);
        gl.bind_buffer(glow::ARRAY_BUFFER, None);
        gl.bind_framebuffer(glow::FRAMEBUFFER, None);
        for cap in [
            glow::BLEND,
            glow::DEPTH_TEST,
            glow::CULL_FACE,
            glow::SCISSOR_TEST,
            glow::STENCIL_TEST,
            glow::POLYGON_OFFSET_FILL,
            glow::RASTERIZER_DISCARD,
            glow::SAMPLE_ALPHA_TO_COVERAGE,
            glow::SAMPLE_COVERAGE,
            glow::PRIMITIVE_RESTART_FIXED_INDEX,
        ] {
            gl.disable(cap);
        }
        gl.enable(glow::DITHER);
        if info.has("GL_EXT_clip_cull_distance") {
            (0..8).for_each(|plane| gl.disable(state::CLIP_DISTANCE0_EXT + plane));
        }
        gl.blend_func(glow::ONE, glow::ZERO);
        gl.clear_color(0.0, 0.0, 0.0, 0.0);
        gl.clear_depth_f32(1.0);
        gl.active_texture(glow::TEXTURE0);
        // Drain the errors the test left; a lost context or an endless stream is broken.
        for _ in 0..64 {
            match gl.get_error() {
                glow::NO_ERROR => return true,
                glow::CONTEXT_LOST => return false,
                _ => {}
            }
        }
        false
    }
}

/// `glGetShaderPrecisionFormat` for the vertex and fragment stages, every precision type.
fn precision_formats(gl: &glow::Context) -> Value {
    let types = [
        ("low_float", glow::LOW_FLOAT),
        ("medium_float", glow::MEDIUM_FLOAT),
        ("high_float", glow::HIGH_FLOAT),
        ("low_int", glow::LOW_INT),
        ("medium_int", glow::MEDIUM_INT),
        ("high_int", glow::HIGH_INT),
    ];
    let stage = |shader: u32| -> Value {
        let entries = types.iter().map(|&(name, kind)| {
            // SAFETY: a plain query on the current context.
            let format = unsafe { gl.get_shader_precision_format(shader, kind) };
            let value = format.map_or(Value::Null, |f| {
                json!({"range_min": f.range_min, "range_max": f.range_max, "precision": f.precision})
            });
            (name.to_owned(), value)
        });
        Value::Object(entries.collect::<Map<_, _>>())
    };
    json!({"vertex": stage(glow::VERTEX_SHADER), "fragment": stage(glow::FRAGMENT_SHADER)})
}
