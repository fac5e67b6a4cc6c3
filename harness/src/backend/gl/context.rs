//! EGL device enumeration and headless OpenGL ES context creation.
//!
//! One [`GlContext`] is an OpenGL ES context on an EGL device, current on the creating thread
//! with no surface. Mesa picks the Gallium driver (`GALLIUM_DRIVER`) when the display is first
//! initialised, so one process runs one driver. libEGL is loaded at run time: when it is
//! missing, creation returns [`GlError::NoEgl`] instead of crashing.

use super::GlError;
use glow::HasContext;
use glutin::api::egl::context::PossiblyCurrentContext;
use glutin::api::egl::device::Device;
use glutin::api::egl::display::Display;
use glutin::config::{Api, ConfigSurfaceTypes, ConfigTemplateBuilder};
use glutin::context::{ContextApi, ContextAttributesBuilder, Version};
use glutin::prelude::*;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// One EGL device, as `halfcheck devices` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    /// Index to pass to [`super::GlBackend::new`].
    pub index: usize,
    /// `EGL_VENDOR` of the device, when the driver reports it.
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
pub struct ExtraFunctions {
    /// `glFramebufferFetchBarrierEXT` (`GL_EXT_shader_framebuffer_fetch_non_coherent`).
    pub framebuffer_fetch_barrier: Option<unsafe extern "system" fn()>,
    /// Program pipelines (ES 3.1).
    pub pipelines: Option<PipelineFunctions>,
}

/// The separate-shader-object entry points of ES 3.1: `glGenProgramPipelines`,
/// `glDeleteProgramPipelines`, `glBindProgramPipeline`, `glUseProgramStages` and
/// `glProgramParameteri`, with their C signatures.
#[derive(Debug, Clone, Copy)]
pub struct PipelineFunctions {
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
    ($display:expr, $name:expr, $ty:ty) => {{
        let pointer = $display.get_proc_address($name);
        // SAFETY: a non-null address EGL returns for this name is that entry point, and
        // `$ty` is its C signature (each use names the signature beside it).
        (!pointer.is_null())
            .then(|| unsafe { std::mem::transmute::<*const std::ffi::c_void, $ty>(pointer) })
    }};
}

impl ExtraFunctions {
    fn load(info: &ContextInfo, display: &Display) -> ExtraFunctions {
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
pub struct GlContext {
    /// The GL function table.
    pub gl: glow::Context,
    /// Version, renderer and extensions.
    pub info: ContextInfo,
    /// Entry points outside glow's table.
    pub extra: ExtraFunctions,
    context: PossiblyCurrentContext,
}

impl GlContext {
    /// Creates an ES context on device `device_index` (the first device when `None`).
    pub fn new(device_index: Option<usize>) -> Result<GlContext, GlError> {
        let devices = query_devices()?;
        let index = device_index.unwrap_or(0);
        let device = devices.get(index).ok_or(GlError::NoSuchDevice {
            index,
            count: devices.len(),
        })?;
        GlContext::on_device(device)
    }

    fn on_device(device: &Device) -> Result<GlContext, GlError> {
        // SAFETY: no native display handle is passed; glutin creates the display itself.
        let display = unsafe { Display::with_device(device, None) }
            .map_err(|e| GlError::Display(e.to_string()))?;
        let template = ConfigTemplateBuilder::new()
            .with_surface_type(ConfigSurfaceTypes::empty())
            .with_api(Api::GLES2 | Api::GLES3)
            .build();
        // SAFETY: the template names no window.
        let config = unsafe { display.find_configs(template) }
            .map_err(|e| GlError::Config(e.to_string()))?
            .next()
            .ok_or_else(|| GlError::Config("no EGL config supports OpenGL ES".into()))?;
        // Mesa answers a request for ES 2.0 with its highest ES version; ask for 3.2 if not.
        let mut fallback = None;
        let mut last_error = String::new();
        for version in [Version::new(2, 0), Version::new(3, 2)] {
            let attributes = ContextAttributesBuilder::new()
                .with_context_api(ContextApi::Gles(Some(version)))
                .build(None);
            // SAFETY: the attributes name no window and the config comes from this display.
            let created = unsafe { display.create_context(&config, &attributes) };
            let context = match created.and_then(|c| c.make_current_surfaceless()) {
                Ok(context) => context,
                Err(e) => {
                    last_error = e.to_string();
                    continue;
                }
            };
            // SAFETY: the context is current on this thread; glow only stores the pointers.
            let gl = unsafe {
                glow::Context::from_loader_function_cstr(|name| display.get_proc_address(name))
            };
            let info = read_info(&gl);
            let extra = ExtraFunctions::load(&info, &display);
            let found = GlContext {
                gl,
                info,
                extra,
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

    /// Makes the context current on the calling thread again (cheap when it already is).
    pub fn make_current(&self) -> Result<(), GlError> {
        self.context
            .make_current_surfaceless()
            .map_err(|e| GlError::Context(e.to_string()))
    }
}

/// Lists the EGL devices with the renderer an ES context on each reports.
pub fn list_devices() -> Result<Vec<DeviceInfo>, GlError> {
    let devices = query_devices()?;
    Ok(devices
        .iter()
        .enumerate()
        .map(|(index, device)| {
            let context = GlContext::on_device(device);
            DeviceInfo {
                index,
                vendor: device.vendor().map(str::to_owned),
                render_node: device.drm_render_device_node_path().map(PathBuf::from),
                gl_version: context
                    .as_ref()
                    .map(|c| c.info.version.clone())
                    .unwrap_or_default(),
                renderer: context.map(|c| c.info.renderer).map_err(|e| e.to_string()),
            }
        })
        .collect())
}

fn query_devices() -> Result<Vec<Device>, GlError> {
    let devices: Vec<Device> = Device::query_devices()
        .map_err(|e| match e.error_kind() {
            glutin::error::ErrorKind::NotFound => GlError::NoEgl,
            _ => GlError::NoDevice(e.to_string()),
        })?
        .collect();
    if devices.is_empty() {
        return Err(GlError::NoDevice("the EGL library lists no device".into()));
    }
    Ok(devices)
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
