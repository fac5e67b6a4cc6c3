//! Headless OpenGL ES context creation on any EGL platform (`platform`).
//!
//! One [`GlContext`] is an OpenGL ES context on an EGL display, current on the creating thread
//! with no surface. Mesa picks the Gallium driver (`GALLIUM_DRIVER`) when the display is first
//! initialised, so one process runs one driver. libEGL is loaded at run time (`egl`): when it
//! is missing, creation returns [`GlError::NoEgl`] instead of crashing.

use super::egl::{c_text, Egl};
use super::platform::{self, EglChoice, Platform};
use super::GlError;
use glow::HasContext;
use glutin_egl_sys::egl;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// One platform (or EGL device) as `halfcheck devices` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    /// The platform.
    pub platform: Platform,
    /// The device index on the `device` platform.
    pub index: Option<usize>,
    /// The library loaded (a path, or the system's `libEGL.so.1`), when one loaded.
    pub library: Option<String>,
    /// `EGL_VENDOR` of the display, when it opened.
    pub vendor: Option<String>,
    /// The DRM render node (`/dev/dri/renderD128`); `None` for software devices.
    pub render_node: Option<PathBuf>,
    /// `GL_RENDERER` of an ES context on it, or why none could be created.
    pub renderer: Result<String, String>,
    /// `GL_VERSION` of that context (empty when none could be created).
    pub gl_version: String,
}

/// What the context reports about itself, read once after creation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextInfo {
    /// `GL_VENDOR`.
    pub vendor: String,
    /// `GL_RENDERER`.
    pub renderer: String,
    /// `GL_VERSION`.
    pub version: String,
    /// `GL_SHADING_LANGUAGE_VERSION`.
    pub glsl_version: String,
    /// The ES version as `[require]` writes it: 3.2 is `(3, 20)`.
    pub es_version: (u32, u32),
    /// The GLSL ES version as an integer (`320`).
    pub glsl_es_version: u32,
    /// Every extension from `glGetStringi(GL_EXTENSIONS, i)`.
    pub extensions: BTreeSet<String>,
}

impl ContextInfo {
    /// Whether the context's ES version is at least `major.minor` (minor as written: 3.1 -> 1).
    pub fn es_at_least(&self, major: u32, minor: u32) -> bool {
        self.es_version >= (major, minor * 10)
    }

    /// Whether the extension is advertised.
    pub fn has(&self, extension: &str) -> bool {
        self.extensions.contains(extension)
    }
}

/// GL ES entry points glow does not wrap, loaded when the context advertises them.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct ExtraFunctions {
    /// `glFramebufferFetchBarrierEXT` (`GL_EXT_shader_framebuffer_fetch_non_coherent`).
    pub framebuffer_fetch_barrier: Option<unsafe extern "system" fn()>,
    /// Program pipelines (ES 3.1).
    pub pipelines: Option<PipelineFunctions>,
}

/// The separate-shader-object entry points of ES 3.1: `glGenProgramPipelines`,
/// `glDeleteProgramPipelines`, `glBindProgramPipeline`, `glUseProgramStages` and
/// `glProgramParameteri`, with their C signatures.
#[derive(Debug, Clone, Copy)]
pub(super) struct PipelineFunctions {
    /// `void glGenProgramPipelines(GLsizei n, GLuint *pipelines)`
    pub gen: unsafe extern "system" fn(i32, *mut u32),
    /// `void glDeleteProgramPipelines(GLsizei n, const GLuint *pipelines)`
    pub delete: unsafe extern "system" fn(i32, *const u32),
    /// `void glBindProgramPipeline(GLuint pipeline)`
    pub bind: unsafe extern "system" fn(u32),
    /// `void glUseProgramStages(GLuint pipeline, GLbitfield stages, GLuint program)`
    pub use_stages: unsafe extern "system" fn(u32, u32, u32),
    /// `void glProgramParameteri(GLuint program, GLenum pname, GLint value)`
    pub program_parameter: unsafe extern "system" fn(u32, u32, i32),
}

/// The address EGL gives for `name` as the function pointer type `$ty`, or `None`.
macro_rules! entry_point {
    ($egl:expr, $name:expr, $ty:ty) => {{
        let pointer = $egl.proc_address($name);
        // SAFETY: a non-null address EGL returns for this name is that entry point, and
        // `$ty` is its C signature (each use names the signature beside it).
        (!pointer.is_null())
            .then(|| unsafe { std::mem::transmute::<*const std::ffi::c_void, $ty>(pointer) })
    }};
}

impl ExtraFunctions {
    fn load(info: &ContextInfo, display: &Egl) -> ExtraFunctions {
        let framebuffer_fetch_barrier = if info.has("GL_EXT_shader_framebuffer_fetch_non_coherent")
        {
            entry_point!(
                display,
                c"glFramebufferFetchBarrierEXT",
                unsafe extern "system" fn()
            )
        } else {
            None
        };
        let pipelines = if info.es_at_least(3, 1) {
            (|| {
                Some(PipelineFunctions {
                    gen: entry_point!(
                        display,
                        c"glGenProgramPipelines",
                        unsafe extern "system" fn(i32, *mut u32)
                    )?,
                    delete: entry_point!(
                        display,
                        c"glDeleteProgramPipelines",
                        unsafe extern "system" fn(i32, *const u32)
                    )?,
                    bind: entry_point!(
                        display,
                        c"glBindProgramPipeline",
                        unsafe extern "system" fn(u32)
                    )?,
                    use_stages: entry_point!(
                        display,
                        c"glUseProgramStages",
                        unsafe extern "system" fn(u32, u32, u32)
                    )?,
                    program_parameter: entry_point!(
                        display,
                        c"glProgramParameteri",
                        unsafe extern "system" fn(u32, u32, i32)
                    )?,
                })
            })()
        } else {
            None
        };
        ExtraFunctions {
            framebuffer_fetch_barrier,
            pipelines,
        }
    }
}

/// A current, headless OpenGL ES context and the facts it reported.
pub(super) struct GlContext {
    /// The GL function table.
    pub gl: glow::Context,
    /// Version, renderer and extensions.
    pub info: ContextInfo,
    /// Entry points outside glow's table.
    pub extra: ExtraFunctions,
    /// The platform the display is on and the library that opened it.
    pub platform: Platform,
    /// The libEGL loaded.
    pub library: String,
    egl: &'static Egl,
    display: egl::types::EGLDisplay,
    context: egl::types::EGLContext,
}

impl GlContext {
    /// Creates an ES context on the display `choice` names.
    pub(super) fn new(choice: &EglChoice) -> Result<GlContext, GlError> {
        let opened = platform::open(choice)?;
        GlContext::on_display(&opened)
    }

    fn on_display(opened: &platform::Opened) -> Result<GlContext, GlError> {
        let (egl, display) = (opened.egl, opened.display);
        let api = &egl.api;
        // SAFETY: plain calls on an initialised display of this library; every attribute list
        // ends with EGL_NONE and every out pointer is valid.
        unsafe {
            if api.BindAPI(egl::OPENGL_ES_API) == 0 {
                return Err(GlError::Config(format!(
                    "eglBindAPI(OpenGL ES): {}",
                    egl.error()
                )));
            }
            let attributes = [
                egl::RENDERABLE_TYPE as i32,
                (egl::OPENGL_ES2_BIT | egl::OPENGL_ES3_BIT) as i32,
                egl::SURFACE_TYPE as i32,
                0,
                egl::NONE as i32,
            ];
            let mut config = std::ptr::null();
            let mut count = 0;
            if api.ChooseConfig(display, attributes.as_ptr(), &mut config, 1, &mut count) == 0 {
                return Err(GlError::Config(format!("eglChooseConfig: {}", egl.error())));
            }
            if count < 1 {
                return Err(GlError::Config("no EGL config supports OpenGL ES".into()));
            }
            // Mesa answers a request for ES 2.0 with its highest ES version; ask for 3.2 if not.
            let mut fallback = None;
            let mut last_error = String::new();
            for (major, minor) in [(2, 0), (3, 2)] {
                let attributes = [
                    egl::CONTEXT_MAJOR_VERSION as i32,
                    major,
                    egl::CONTEXT_MINOR_VERSION as i32,
                    minor,
                    egl::NONE as i32,
                ];
                let context =
                    api.CreateContext(display, config, egl::NO_CONTEXT, attributes.as_ptr());
                if context == egl::NO_CONTEXT {
                    last_error = format!("eglCreateContext(ES {major}.{minor}): {}", egl.error());
                    continue;
                }
                if api.MakeCurrent(display, egl::NO_SURFACE, egl::NO_SURFACE, context) == 0 {
                    last_error = format!("eglMakeCurrent (surfaceless): {}", egl.error());
                    api.DestroyContext(display, context);
                    continue;
                }
                let gl = glow::Context::from_loader_function_cstr(|name| egl.proc_address(name));
                let info = read_info(&gl);
                let extra = ExtraFunctions::load(&info, egl);
                let found = GlContext {
                    gl,
                    info,
                    extra,
                    platform: opened.platform,
                    library: egl.library.clone(),
                    egl,
                    display,
                    context,
                };
                if found.info.es_version >= (3, 0) {
                    return Ok(found);
                }
                fallback = Some(found);
            }
            match fallback {
                Some(found) => {
                    found.make_current()?;
                    Ok(found)
                }
                None => Err(GlError::Context(last_error)),
            }
        }
    }

    /// Makes the context current on the calling thread again (cheap when it already is).
    pub(super) fn make_current(&self) -> Result<(), GlError> {
        // SAFETY: the display and context are this library's and still alive.
        let made = unsafe {
            self.egl
                .api
                .MakeCurrent(self.display, egl::NO_SURFACE, egl::NO_SURFACE, self.context)
        };
        if made == 0 {
            return Err(GlError::Context(format!(
                "eglMakeCurrent: {}",
                self.egl.error()
            )));
        }
        Ok(())
    }
}

impl Drop for GlContext {
    fn drop(&mut self) {
        // SAFETY: releasing and destroying this context on its display; the display stays
        // initialised (another context of the process may share it).
        unsafe {
            self.egl.api.MakeCurrent(
                self.display,
                egl::NO_SURFACE,
                egl::NO_SURFACE,
                egl::NO_CONTEXT,
            );
            self.egl.api.DestroyContext(self.display, self.context);
        }
    }
}

/// What one platform of `choice`'s library opens (every device on the device platform).
pub(super) fn probe_platform(choice: &EglChoice, platform: Platform) -> Vec<DeviceInfo> {
    let mut choice = choice.clone();
    choice.platform = Some(platform);
    let failed = |library: Option<String>, index, why: String| DeviceInfo {
        platform,
        index,
        library,
        vendor: None,
        render_node: None,
        renderer: Err(why),
        gl_version: String::new(),
    };
    let indices: Vec<Option<usize>> = if platform == Platform::Device {
        let count = platform::library_for(&choice)
            .and_then(|library| Egl::load(library.as_deref()))
            .and_then(platform::enumerate);
        match count {
            Ok(devices) => (0..devices.len()).map(Some).collect(),
            Err(e) => return vec![failed(None, None, e.to_string())],
        }
    } else {
        vec![None]
    };
    indices
        .into_iter()
        .map(|index| {
            choice.device = index;
            let opened = match platform::open(&choice) {
                Ok(opened) => opened,
                Err(e) => return failed(None, index, e.to_string()),
            };
            // SAFETY: a plain query on an initialised display.
            let vendor = c_text(unsafe {
                opened
                    .egl
                    .api
                    .QueryString(opened.display, egl::VENDOR as i32)
            });
            let context = GlContext::on_display(&opened);
            DeviceInfo {
                platform,
                index,
                library: Some(opened.egl.library.clone()),
                vendor: (!vendor.is_empty()).then_some(vendor),
                render_node: opened.render_node.clone(),
                gl_version: context
                    .as_ref()
                    .map(|c| c.info.version.clone())
                    .unwrap_or_default(),
                renderer: context
                    .map(|c| c.info.renderer.clone())
                    .map_err(|e| e.to_string()),
            }
        })
        .collect()
}

fn read_info(gl: &glow::Context) -> ContextInfo {
    // SAFETY: plain queries on the current context.
    let (vendor, renderer, version, glsl_version, count) = unsafe {
        (
            gl.get_parameter_string(glow::VENDOR),
            gl.get_parameter_string(glow::RENDERER),
            gl.get_parameter_string(glow::VERSION),
            gl.get_parameter_string(glow::SHADING_LANGUAGE_VERSION),
            gl.get_parameter_i32(glow::NUM_EXTENSIONS),
        )
    };
    let extensions = (0..count.max(0) as u32)
        // SAFETY: the index is below GL_NUM_EXTENSIONS.
        .map(|i| unsafe { gl.get_parameter_indexed_string(glow::EXTENSIONS, i) })
        .collect();
    ContextInfo {
        es_version: parse_es_version(&version),
        glsl_es_version: parse_glsl_es_version(&glsl_version),
        vendor,
        renderer,
        version,
        glsl_version,
        extensions,
    }
}

/// `"OpenGL ES 3.2 Mesa 22.3.6"` -> `(3, 20)`.
fn parse_es_version(text: &str) -> (u32, u32) {
    let number = text
        .trim_start_matches("OpenGL ES ")
        .split_whitespace()
        .next();
    let mut parts = number.unwrap_or("").split('.');
    let major = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    let minor: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    (major, if minor < 10 { minor * 10 } else { minor })
}

/// `"OpenGL ES GLSL ES 3.20"` -> `320`.
fn parse_glsl_es_version(text: &str) -> u32 {
    let number = text
        .trim_start_matches("OpenGL ES GLSL ES ")
        .split_whitespace()
        .next();
    let mut parts = number.unwrap_or("").split('.');
    let major: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    let minor: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    major * 100 + if minor < 10 { minor * 10 } else { minor }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_strings_parse_as_require_writes_them() {
        assert_eq!(parse_es_version("OpenGL ES 3.2 Mesa 22.3.6"), (3, 20));
        assert_eq!(parse_es_version("OpenGL ES 3.1 Mesa 22.3.6"), (3, 10));
        assert_eq!(parse_glsl_es_version("OpenGL ES GLSL ES 3.20"), 320);
        assert_eq!(parse_glsl_es_version("OpenGL ES GLSL ES 1.00"), 100);
    }
}
