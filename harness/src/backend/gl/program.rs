//! Compiles a test's shader sections and links them into one program, as piglit does, or
//! with `SSO ENABLED` into one separable program per stage in a program pipeline.
//!
//! A shader without `#version` gets `#version N[ es]` from the GLSL ES requirement;
//! `[vertex shader passthrough]` becomes piglit's pass-through vertex shader; `piglit_vertex`
//! and `piglit_texcoord` are bound to attribute 0 and 1 before linking so `draw rect` feeds
//! them. Compile and link logs go into the test's logs by stage (`vertex`, `fragment`, `link`).

use super::context::ExtraFunctions;
use super::Stop;
use glow::HasContext;
use halfcheck_piglit::program as piglit;
use halfcheck_piglit::shader_test::{ShaderSource, ShaderTest, Stage};
use std::collections::BTreeMap;

pub(super) use halfcheck_piglit::program::{ATTRIB_POS, ATTRIB_TEX};

/// The program object(s) a test's shaders built.
pub(super) struct Linked {
    /// The program in use when it linked; `None` with separate shader objects, where a
    /// program pipeline is bound instead and no program is current.
    pub in_use: Option<glow::Program>,
    /// The vertex stage's program (the only program without separate shader objects).
    vertex: Option<glow::Program>,
    /// Every program object made: one, or one per stage with separate shader objects.
    programs: Vec<glow::Program>,
    /// The program pipeline of separate shader objects.
    pipeline: Option<u32>,
    /// Whether linking succeeded.
    pub ok: bool,
    /// The first line of the link log, for reasons.
    pub log_first_line: String,
}

impl Linked {
    /// The program whose vertex inputs `[vertex data]` feeds.
    pub(super) fn vertex(&self) -> Option<glow::Program> {
        self.vertex
    }

    /// Deletes the program objects and the pipeline.
    pub(super) fn delete(self, gl: &glow::Context, extra: &ExtraFunctions) {
        // SAFETY: unbinding and deleting objects this test created on the current context.
        unsafe {
            gl.use_program(None);
            for program in self.programs {
                gl.delete_program(program);
            }
            if let (Some(pipeline), Some(f)) = (self.pipeline, extra.pipelines) {
                (f.bind)(0);
                (f.delete)(1, &pipeline);
            }
        }
    }
}

/// Compiles every shader and links them; `None` when the test has no shaders.
///
/// A compile failure stops the test as a failure (piglit reports fail whatever the test
/// expects); a link failure is reported in [`Linked::ok`] so `link error` can expect it.
/// With `SSO ENABLED` each stage becomes a separable program of its own in a program
/// pipeline, and a stage that does not link ends the test, as in piglit.
pub(super) fn build(
    gl: &glow::Context,
    extra: &ExtraFunctions,
    test: &ShaderTest,
    logs: &mut BTreeMap<String, String>,
) -> Result<Option<Linked>, Stop> {
    if test.shaders.is_empty() {
        return Ok(None);
    }
    let glsl_version = piglit::glsl_es_version(test);
    let mut shaders = Vec::new();
    let mut compiled = Ok(());
    for section in &test.shaders {
        match source(section, glsl_version).and_then(|text| compile(gl, section.stage, &text, logs))
        {
            Ok(shader) => shaders.push((section.stage, shader)),
            Err(stop) => {
                compiled = Err(stop);
                break;
            }
        }
    }
    let linked = compiled.and_then(|()| {
        if test.require.separate_shader_objects() {
            link_separable(gl, extra, &shaders, logs)
        } else {
            link(gl, &shaders, logs)
        }
    });
    for (_, shader) in shaders {
        // SAFETY: the shaders were created on this context; attached ones are only flagged.
        unsafe { gl.delete_shader(shader) };
    }
    linked.map(Some)
}

fn source(section: &ShaderSource, version: Option<u32>) -> Result<String, Stop> {
    piglit::source(section, version).map_err(|e| Stop::fail(e.to_string()))
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

/// Links every shader into one program, in use when it linked.
fn link(
    gl: &glow::Context,
    shaders: &[(Stage, glow::Shader)],
    logs: &mut BTreeMap<String, String>,
) -> Result<Linked, Stop> {
    // SAFETY: a program of this context gets the shaders, piglit's attribute locations and
    // is linked, then used when it linked.
    let (program, ok, log) = unsafe {
        let program = gl.create_program().map_err(Stop::error)?;
        for &(_, shader) in shaders {
            gl.attach_shader(program, shader);
        }
        gl.bind_attrib_location(program, ATTRIB_POS, "piglit_vertex");
        gl.bind_attrib_location(program, ATTRIB_TEX, "piglit_texcoord");
        gl.link_program(program);
        let ok = gl.get_program_link_status(program);
        if ok {
            gl.use_program(Some(program));
        }
        (program, ok, gl.get_program_info_log(program))
    };
    append_log(logs, "link", &log);
    Ok(Linked {
        in_use: Some(program),
        vertex: Some(program),
        programs: vec![program],
        pipeline: None,
        ok,
        log_first_line: first_line(&log).to_owned(),
    })
}

/// Links each stage's shaders into a separable program and puts them in a bound program
/// pipeline, as piglit's `SSO ENABLED` does.
fn link_separable(
    gl: &glow::Context,
    extra: &ExtraFunctions,
    shaders: &[(Stage, glow::Shader)],
    logs: &mut BTreeMap<String, String>,
) -> Result<Linked, Stop> {
    let f = extra
        .pipelines
        .ok_or_else(|| Stop::skip("separate shader objects need GL ES 3.1"))?;
    let mut pipeline = 0;
    // SAFETY: one pipeline name is written into `pipeline`.
    unsafe { (f.gen)(1, &mut pipeline) };
    let mut linked = Linked {
        in_use: None,
        vertex: None,
        programs: Vec::new(),
        pipeline: Some(pipeline),
        ok: true,
        log_first_line: String::new(),
    };
    let stages = [
        (Stage::Vertex, glow::VERTEX_SHADER_BIT),
        (Stage::TessControl, glow::TESS_CONTROL_SHADER_BIT),
        (Stage::TessEvaluation, glow::TESS_EVALUATION_SHADER_BIT),
        (Stage::Geometry, glow::GEOMETRY_SHADER_BIT),
        (Stage::Fragment, glow::FRAGMENT_SHADER_BIT),
        (Stage::Compute, glow::COMPUTE_SHADER_BIT),
    ];
    for (stage, bit) in stages {
        let of_stage: Vec<glow::Shader> = shaders
            .iter()
            .filter(|(s, _)| *s == stage)
            .map(|&(_, shader)| shader)
            .collect();
        if of_stage.is_empty() {
            continue;
        }
        // SAFETY: a separable program of this context gets the stage's shaders and
        // piglit's attribute locations, is linked, and joins the pipeline when it linked.
        let (program, ok, log) = unsafe {
            let program = gl.create_program().map_err(Stop::error)?;
            linked.programs.push(program);
            (f.program_parameter)(program.0.get(), glow::PROGRAM_SEPARABLE, 1);
            for &shader in &of_stage {
                gl.attach_shader(program, shader);
            }
            gl.bind_attrib_location(program, ATTRIB_POS, "piglit_vertex");
            gl.bind_attrib_location(program, ATTRIB_TEX, "piglit_texcoord");
            gl.link_program(program);
            let ok = gl.get_program_link_status(program);
            if ok {
                (f.use_stages)(pipeline, bit, program.0.get());
            }
            (program, ok, gl.get_program_info_log(program))
        };
        append_log(logs, "link", &log);
        if !ok {
            let stop = Stop::fail(format!(
                "separable {} program failed to link: {}",
                stage.section_name(),
                first_line(&log)
            ));
            linked.delete(gl, extra);
            return Err(stop);
        }
        if stage == Stage::Vertex {
            linked.vertex = Some(program);
        }
    }
    // SAFETY: binding the pipeline made above.
    unsafe { (f.bind)(pipeline) };
    Ok(linked)
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
