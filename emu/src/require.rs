//! What the emulator can run: GL ES 3.1 and GLSL ES up to 3.10, vertex and fragment
//! shaders in GLSL, no extensions, the commands `exec` knows, and what fits halfcheck's
//! budget (`shader_test::limits`).

use halfcheck_piglit::program::version_number;
use halfcheck_piglit::shader_test::{over_budget, Api, Requirement, ShaderTest, SourceKind, Stage};

/// The GL ES version the emulator stands for (x100).
const ES_VERSION: u32 = 310;

/// Why the emulator cannot run `test`, or `None` when it can.
pub fn skip_reason(test: &ShaderTest) -> Option<String> {
    if let Some(over) = over_budget(test) {
        return Some(over.to_string());
    }
    if !test.require.is_es() {
        return Some("needs desktop GL".into());
    }
    for item in &test.require.items {
        match &item.value {
            Requirement::Version { api, op, version } => {
                let actual = match api {
                    Api::GlEs | Api::GlslEs => ES_VERSION,
                    _ => return Some("needs desktop GL".into()),
                };
                if !op.holds(actual, version_number(*version)) {
                    return Some(format!("needs {api:?} {version}; the emulator is ES 3.1"));
                }
            }
            Requirement::Extension {
                name,
                negated: false,
            } => return Some(format!("the emulator has no {name}")),
            _ => {}
        }
    }
    test.shaders.iter().find_map(|s| match (&s.kind, s.stage) {
        (SourceKind::Glsl | SourceKind::Passthrough, Stage::Vertex | Stage::Fragment) => None,
        (SourceKind::Glsl, stage) => Some(format!(
            "the emulator runs vertex and fragment shaders, not {} shaders",
            stage.section_name()
        )),
        (kind, _) => Some(format!("the emulator runs GLSL, not {kind:?} shaders")),
    })
}
