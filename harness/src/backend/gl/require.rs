//! Decides, before anything runs, whether a test can run on this context, and why not.
//!
//! A test is skipped when its `[require]` block asks for more than the context has (ES and
//! GLSL ES versions, extensions, `GL_MAX_*` limits, window size), when it needs desktop GL,
//! or when it uses a shader kind, stage, uniform type or probe this backend does not run,
//! or asks for more than halfcheck's budget (`shader_test::limits`). (Commands halfcheck runs
//! nowhere skip in the shared command loop.)

use super::context::ContextInfo;
use halfcheck_piglit::program::version_number;
use halfcheck_piglit::shader_test::{
    over_budget, Api, AttribType, Command, Requirement, ShaderTest, SourceKind, Stage, UniformType,
};

/// Reads an integer limit (`glGetIntegerv`); `None` when the driver rejects the enum.
pub(super) type LimitQuery<'a> = &'a dyn Fn(u32) -> Option<i64>;

/// Why `test` cannot run on this context, or `None` when it can.
pub(super) fn skip_reason(
    test: &ShaderTest,
    info: &ContextInfo,
    limit: LimitQuery,
) -> Option<String> {
    if !test.require.is_es() {
        return Some("needs desktop GL".into());
    }
    let checks = test
        .require
        .items
        .iter()
        .filter_map(|item| requirement(&item.value, info, limit));
    checks
        .chain(
            test.shaders
                .iter()
                .filter_map(|s| shader(&s.kind, s.stage, info)),
        )
        .chain(test.commands.iter().filter_map(|c| command(&c.value)))
        .chain(vertex_data(test))
        .chain(over_budget(test).map(|over| over.to_string()))
        .next()
}

fn requirement(item: &Requirement, info: &ContextInfo, limit: LimitQuery) -> Option<String> {
    match item {
        Requirement::Version { api, op, version } => {
            let actual = match api {
                Api::GlEs => info.es_version.0 * 100 + info.es_version.1,
                Api::GlslEs => info.glsl_es_version,
                Api::Gl | Api::GlCore | Api::GlCompat | Api::Glsl => {
                    return Some("needs desktop GL".into())
                }
            };
            let name = if *api == Api::GlEs {
                "GL ES"
            } else {
                "GLSL ES"
            };
            (!op.holds(actual, version_number(*version))).then(|| {
                format!(
                    "needs {name} {} {version}, the context has {}.{:02}",
                    op_text(*op),
                    actual / 100,
                    actual % 100
                )
            })
        }
        Requirement::Extension { name, negated } => match (info.has(name), negated) {
            (false, false) => Some(format!("needs {name}")),
            (true, true) => Some(format!("needs {name} to be absent")),
            _ => None,
        },
        Requirement::Limit { name, op, value } => {
            let Some(actual) = limit_enum(name).and_then(limit) else {
                return Some(format!("cannot query limit {name}"));
            };
            (!op.holds(actual, *value)).then(|| {
                format!(
                    "needs {name} {} {value}, the context has {actual}",
                    op_text(*op)
                )
            })
        }
        Requirement::Size { width, height } => {
            let largest = [glow::MAX_RENDERBUFFER_SIZE, glow::MAX_TEXTURE_SIZE]
                .into_iter()
                .filter_map(limit)
                .min()
                .unwrap_or(0);
            (i64::from(*width.max(height)) > largest)
                .then(|| format!("SIZE {width} {height} is larger than the context's {largest}"))
        }
        Requirement::Other(text) => other(text, info),
    }
}

/// `[require]` lines that change nothing for a headless FBO run, `SSO ENABLED` (which
/// `program` runs on ES 3.1), or lines that skip.
fn other(text: &str, info: &ContextInfo) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["depthbuffer"] | ["fbo"] | ["rlimit", ..] | ["SPIRV", "YES"] | ["SPIRV", "NO"] => None,
        ["SSO", "ENABLED"] if info.es_at_least(3, 1) => None,
        ["SSO", "ENABLED"] => Some("SSO ENABLED needs GL ES 3.1".into()),
        ["SPIRV", "ONLY"] => Some("needs SPIR-V shaders, which GL ES cannot load".into()),
        _ => Some(format!("unsupported requirement: {text}")),
    }
}

fn shader(kind: &SourceKind, stage: Stage, info: &ContextInfo) -> Option<String> {
    match kind {
        SourceKind::Spirv | SourceKind::Specializations => {
            return Some("SPIR-V shaders need desktop GL".into())
        }
        SourceKind::ArbProgram => return Some("ARB assembly programs need desktop GL".into()),
        SourceKind::Glsl | SourceKind::Passthrough => {}
    }
    let supported = match stage {
        Stage::Vertex | Stage::Fragment => true,
        Stage::Geometry => {
            info.es_at_least(3, 2)
                || info.has("GL_OES_geometry_shader")
                || info.has("GL_EXT_geometry_shader")
        }
        Stage::TessControl | Stage::TessEvaluation => {
            info.es_at_least(3, 2)
                || info.has("GL_OES_tessellation_shader")
                || info.has("GL_EXT_tessellation_shader")
        }
        Stage::Compute => info.es_at_least(3, 1),
    };
    (!supported).then(|| format!("{} shaders are not supported", stage.section_name()))
}

fn command(command: &Command) -> Option<String> {
    match command {
        Command::Uniform(set) => match set.ty {
            UniformType::Double(_) | UniformType::DMat(..) => {
                Some("double uniforms need desktop GL".into())
            }
            UniformType::Int64(_) | UniformType::Uint64(_) => {
                Some("64-bit integer uniforms need desktop GL".into())
            }
            UniformType::Handle => Some("bindless texture handles need desktop GL".into()),
            _ => None,
        },
        _ => None,
    }
}

fn vertex_data(test: &ShaderTest) -> Option<String> {
    let data = test.vertex_data.as_ref()?;
    data.columns
        .iter()
        .any(|c| c.ty == AttribType::Double)
        .then(|| "double vertex attributes need desktop GL".into())
}

fn op_text(op: halfcheck_piglit::shader_test::Comparison) -> &'static str {
    use halfcheck_piglit::shader_test::Comparison::*;
    match op {
        Less => "<",
        LessEqual => "<=",
        Equal => "==",
        NotEqual => "!=",
        GreaterEqual => ">=",
        Greater => ">",
    }
}

/// The enum of a `GL_MAX_*` (or `GL_MIN_*`) limit name.
fn limit_enum(name: &str) -> Option<u32> {
    LIMITS
        .iter()
        .find(|(known, _)| *known == name)
        .map(|&(_, value)| value)
}

const LIMITS: &[(&str, u32)] = &[
    ("GL_MAX_VERTEX_ATTRIBS", glow::MAX_VERTEX_ATTRIBS),
    (
        "GL_MAX_VERTEX_UNIFORM_VECTORS",
        glow::MAX_VERTEX_UNIFORM_VECTORS,
    ),
    (
        "GL_MAX_VERTEX_UNIFORM_COMPONENTS",
        glow::MAX_VERTEX_UNIFORM_COMPONENTS,
    ),
    (
        "GL_MAX_FRAGMENT_UNIFORM_VECTORS",
        glow::MAX_FRAGMENT_UNIFORM_VECTORS,
    ),
    (
        "GL_MAX_FRAGMENT_UNIFORM_COMPONENTS",
        glow::MAX_FRAGMENT_UNIFORM_COMPONENTS,
    ),
    ("GL_MAX_VARYING_VECTORS", glow::MAX_VARYING_VECTORS),
    ("GL_MAX_VARYING_COMPONENTS", glow::MAX_VARYING_COMPONENTS),
    (
        "GL_MAX_VERTEX_OUTPUT_COMPONENTS",
        glow::MAX_VERTEX_OUTPUT_COMPONENTS,
    ),
    (
        "GL_MAX_FRAGMENT_INPUT_COMPONENTS",
        glow::MAX_FRAGMENT_INPUT_COMPONENTS,
    ),
    ("GL_MAX_TEXTURE_IMAGE_UNITS", glow::MAX_TEXTURE_IMAGE_UNITS),
    (
        "GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS",
        glow::MAX_VERTEX_TEXTURE_IMAGE_UNITS,
    ),
    (
        "GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS",
        glow::MAX_COMBINED_TEXTURE_IMAGE_UNITS,
    ),
    ("GL_MAX_TEXTURE_SIZE", glow::MAX_TEXTURE_SIZE),
    ("GL_MAX_3D_TEXTURE_SIZE", glow::MAX_3D_TEXTURE_SIZE),
    (
        "GL_MAX_CUBE_MAP_TEXTURE_SIZE",
        glow::MAX_CUBE_MAP_TEXTURE_SIZE,
    ),
    (
        "GL_MAX_ARRAY_TEXTURE_LAYERS",
        glow::MAX_ARRAY_TEXTURE_LAYERS,
    ),
    ("GL_MAX_RENDERBUFFER_SIZE", glow::MAX_RENDERBUFFER_SIZE),
    ("GL_MAX_DRAW_BUFFERS", glow::MAX_DRAW_BUFFERS),
    ("GL_MAX_COLOR_ATTACHMENTS", glow::MAX_COLOR_ATTACHMENTS),
    ("GL_MAX_SAMPLES", glow::MAX_SAMPLES),
    ("GL_MAX_UNIFORM_BLOCK_SIZE", glow::MAX_UNIFORM_BLOCK_SIZE),
    (
        "GL_MAX_UNIFORM_BUFFER_BINDINGS",
        glow::MAX_UNIFORM_BUFFER_BINDINGS,
    ),
    (
        "GL_MAX_VERTEX_UNIFORM_BLOCKS",
        glow::MAX_VERTEX_UNIFORM_BLOCKS,
    ),
    (
        "GL_MAX_FRAGMENT_UNIFORM_BLOCKS",
        glow::MAX_FRAGMENT_UNIFORM_BLOCKS,
    ),
    (
        "GL_MAX_COMBINED_UNIFORM_BLOCKS",
        glow::MAX_COMBINED_UNIFORM_BLOCKS,
    ),
    (
        "GL_MAX_PROGRAM_TEXEL_OFFSET",
        glow::MAX_PROGRAM_TEXEL_OFFSET,
    ),
    (
        "GL_MIN_PROGRAM_TEXEL_OFFSET",
        glow::MIN_PROGRAM_TEXEL_OFFSET,
    ),
    ("GL_MAX_ELEMENTS_VERTICES", glow::MAX_ELEMENTS_VERTICES),
    ("GL_MAX_ELEMENTS_INDICES", glow::MAX_ELEMENTS_INDICES),
    (
        "GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS",
        glow::MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS,
    ),
    (
        "GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS",
        glow::MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS,
    ),
    (
        "GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS",
        glow::MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS,
    ),
    (
        "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS",
        glow::MAX_SHADER_STORAGE_BUFFER_BINDINGS,
    ),
    (
        "GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS",
        glow::MAX_VERTEX_SHADER_STORAGE_BLOCKS,
    ),
    (
        "GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS",
        glow::MAX_FRAGMENT_SHADER_STORAGE_BLOCKS,
    ),
    (
        "GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS",
        glow::MAX_COMBINED_SHADER_STORAGE_BLOCKS,
    ),
    (
        "GL_MAX_VERTEX_ATOMIC_COUNTERS",
        glow::MAX_VERTEX_ATOMIC_COUNTERS,
    ),
    (
        "GL_MAX_FRAGMENT_ATOMIC_COUNTERS",
        glow::MAX_FRAGMENT_ATOMIC_COUNTERS,
    ),
    (
        "GL_MAX_COMBINED_ATOMIC_COUNTERS",
        glow::MAX_COMBINED_ATOMIC_COUNTERS,
    ),
    (
        "GL_MAX_VERTEX_ATOMIC_COUNTER_BUFFERS",
        glow::MAX_VERTEX_ATOMIC_COUNTER_BUFFERS,
    ),
    (
        "GL_MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS",
        glow::MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS,
    ),
    (
        "GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS",
        glow::MAX_COMBINED_ATOMIC_COUNTER_BUFFERS,
    ),
    ("GL_MAX_IMAGE_UNITS", glow::MAX_IMAGE_UNITS),
    (
        "GL_MAX_VERTEX_IMAGE_UNIFORMS",
        glow::MAX_VERTEX_IMAGE_UNIFORMS,
    ),
    (
        "GL_MAX_FRAGMENT_IMAGE_UNIFORMS",
        glow::MAX_FRAGMENT_IMAGE_UNIFORMS,
    ),
    (
        "GL_MAX_GEOMETRY_OUTPUT_VERTICES",
        glow::MAX_GEOMETRY_OUTPUT_VERTICES,
    ),
    (
        "GL_MAX_GEOMETRY_UNIFORM_COMPONENTS",
        glow::MAX_GEOMETRY_UNIFORM_COMPONENTS,
    ),
    (
        "GL_MAX_GEOMETRY_INPUT_COMPONENTS",
        glow::MAX_GEOMETRY_INPUT_COMPONENTS,
    ),
    (
        "GL_MAX_GEOMETRY_OUTPUT_COMPONENTS",
        glow::MAX_GEOMETRY_OUTPUT_COMPONENTS,
    ),
    ("GL_MAX_TESS_GEN_LEVEL", glow::MAX_TESS_GEN_LEVEL),
    ("GL_MAX_PATCH_VERTICES", glow::MAX_PATCH_VERTICES),
    ("GL_MAX_CLIP_DISTANCES", glow::MAX_CLIP_DISTANCES),
    // GL_EXT_shader_framebuffer_fetch: a boolean read with glGetIntegerv.
    ("GL_FRAGMENT_SHADER_DISCARDS_SAMPLES_EXT", 0x8A52),
];
