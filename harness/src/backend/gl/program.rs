//! Compiles a test's shader sections and links them into one program, as piglit does.
//!
//! A shader without `#version` gets `#version N[ es]` from the GLSL ES requirement;
//! `[vertex shader passthrough]` becomes piglit's pass-through vertex shader; `piglit_vertex`
//! and `piglit_texcoord` are bound to attribute 0 and 1 before linking so `draw rect` feeds
//! them. Compile and link logs go into the test's logs by stage (`vertex`, `fragment`, `link`).

use super::Stop;
use crate::backend::piglit::program as piglit;
use crate::shader_test::{ShaderSource, ShaderTest, Stage};
use glow::HasContext;
use std::collections::BTreeMap;

pub use crate::backend::piglit::program::{ATTRIB_POS, ATTRIB_TEX};

/// A linked (or failed) program.
pub struct Linked {
    /// The program object; in use when `ok`.
    pub program: glow::Program,
    /// Whether linking succeeded.
    pub ok: bool,
    /// The first line of the link log, for reasons.
    pub log_first_line: String,
}

/// Compiles every shader and links them; `None` when the test has no shaders.
///
/// A compile failure stops the test as a failure (piglit reports fail whatever the test
/// expects); a link failure is reported in [`Linked::ok`] so `link error` can expect it.
pub fn build(
    gl: &glow::Context,
    test: &ShaderTest,
    logs: &mut BTreeMap<String, String>,
) -> Result<Option<Linked>, Stop> {
    if test.shaders.is_empty() {
        return Ok(None);
    }
    let glsl_version = piglit::glsl_es_version(test);
    // SAFETY: creating a program object on the current context.
    let program = unsafe { gl.create_program() }.map_err(Stop::error)?;
    let mut shaders = Vec::new();
    let mut result = Ok(());
    for section in &test.shaders {
        let compiled =
            source(section, glsl_version).and_then(|text| compile(gl, section.stage, &text, logs));
        match compiled {
            Ok(shader) => {
                // SAFETY: both objects were created on this context.
                unsafe { gl.attach_shader(program, shader) };
                shaders.push(shader);
            }
            Err(stop) => {
                result = Err(stop);
                break;
            }
        }
    }
    let linked = result.map(|()| link(gl, program, logs));
    for shader in shaders {
        // SAFETY: the shaders are attached to `program`; deleting only flags them.
        unsafe { gl.delete_shader(shader) };
    }
    match linked {
        Ok(linked) => Ok(Some(linked)),
        Err(stop) => {
            // SAFETY: the program is ours and no longer needed.
            unsafe { gl.delete_program(program) };
            Err(stop)
        }
    }
}

fn source(section: &ShaderSource, version: Option<u32>) -> Result<String, Stop> {
    piglit::source(section, version).map_err(Stop::fail)
}

fn compile(
    gl: &glow::Context,
    stage: Stage,
    text: &str,
    logs: &mut BTreeMap<String, String>,
) -> Result<glow::Shader, Stop> {
    let kind = match stage {
        Stage::Vertex => glow::VERTEX_SHADER,
        Stage::Fragment => glow::FRAGMENT_SHADER,
        Stage::Geometry => glow::GEOMETRY_SHADER,
        Stage::TessControl => glow::TESS_CONTROL_SHADER,
        Stage::TessEvaluation => glow::TESS_EVALUATION_SHADER,
        Stage::Compute => glow::COMPUTE_SHADER,
    };
    let name = stage.section_name();
    // SAFETY: a shader object is created, given source and compiled on the current context.
    let (shader, ok, log) = unsafe {
        let shader = gl.create_shader(kind).map_err(Stop::error)?;
        gl.shader_source(shader, text);
        gl.compile_shader(shader);
        let ok = gl.get_shader_compile_status(shader);
        (shader, ok, gl.get_shader_info_log(shader))
    };
    append_log(logs, name, &log);
    if ok {
        return Ok(shader);
    }
    // SAFETY: the shader is ours and failed.
    unsafe { gl.delete_shader(shader) };
    Err(Stop::fail(format!(
        "{name} shader failed to compile: {}",
        first_line(&log)
    )))
}

fn link(gl: &glow::Context, program: glow::Program, logs: &mut BTreeMap<String, String>) -> Linked {
    // SAFETY: binding attribute names and linking a program of this context.
    let (ok, log) = unsafe {
        gl.bind_attrib_location(program, ATTRIB_POS, "piglit_vertex");
        gl.bind_attrib_location(program, ATTRIB_TEX, "piglit_texcoord");
        gl.link_program(program);
        let ok = gl.get_program_link_status(program);
        if ok {
            gl.use_program(Some(program));
        }
        (ok, gl.get_program_info_log(program))
    };
    append_log(logs, "link", &log);
    Linked {
        program,
        ok,
        log_first_line: first_line(&log).to_owned(),
    }
}

fn append_log(logs: &mut BTreeMap<String, String>, key: &str, log: &str) {
    if log.trim().is_empty() {
        return;
    }
    let entry = logs.entry(key.to_owned()).or_default();
    entry.push_str(log);
}

/// The first non-empty line of a log (empty when the driver gave none).
fn first_line(log: &str) -> &str {
    log.lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or("")
}
