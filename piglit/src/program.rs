//! Shader sources as piglit hands them to the compiler: `[vertex shader passthrough]`
//! becomes piglit's pass-through vertex shader, and a shader without `#version` gets
//! `#version N[ es]` from the `GLSL ES` requirement.

use crate::shader_test::{Api, Requirement, ShaderSource, ShaderTest, SourceKind};

/// Attribute location piglit binds `piglit_vertex` to.
pub const ATTRIB_POS: u32 = 0;
/// Attribute location piglit binds `piglit_texcoord` to.
pub const ATTRIB_TEX: u32 = 1;

/// Piglit's pass-through vertex shader (it gets a `#version` like any other shader).
const PASSTHROUGH: &str = "#if __VERSION__ >= 130\n\
in vec4 piglit_vertex;\n\
#else\n\
attribute vec4 piglit_vertex;\n\
#endif\n\
void main() { gl_Position = piglit_vertex; }\n";

/// The `GLSL ES` version the test requires, as a number (100, 300, 310, 320).
pub fn glsl_es_version(test: &ShaderTest) -> Option<u32> {
    test.require.items.iter().find_map(|item| match item.value {
        Requirement::Version {
            api: Api::GlslEs,
            version,
            ..
        } => Some(version_number(version)),
        _ => None,
    })
}

/// `1.00` -> 100, `3.10` -> 310 (the minor number as written).
pub fn version_number(version: crate::shader_test::Version) -> u32 {
    let minor = if version.minor < 10 {
        version.minor * 10
    } else {
        version.minor
    };
    version.major * 100 + minor
}

/// A shader with no `#version` line, in a test that requires no GLSL version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("GLSL version requirement missing")]
pub struct NoVersion;

/// The text to compile for `section`, or why there is none.
pub fn source(section: &ShaderSource, version: Option<u32>) -> Result<String, NoVersion> {
    let text = match &section.kind {
        SourceKind::Passthrough => PASSTHROUGH.to_owned(),
        _ => section.text.clone(),
    };
    if text.contains("#version ") {
        return Ok(text);
    }
    match version {
        Some(100) => Ok(format!("#version 100\n{text}")),
        Some(n) => Ok(format!("#version {n} es\n{text}")),
        None => Err(NoVersion),
    }
}
