//! Whether a test asks for reduced precision at all: a test whose shaders hold nothing lowp or
//! mediump gets the verdict `n/a`.
//!
//! Every precision source counts: a `lowp`/`mediump` qualifier or default precision
//! statement (a word outside comments and disabled `#if` blocks), and the defaults GLSL ES
//! predeclares below highp (a fragment shader's `int` is mediump, `sampler2D`/`samplerCube`
//! are lowp in every stage), which the compiler resolves: one of the shader's own (not
//! built-in) variables or functions resolving to lowp or mediump counts. When the compiler
//! cannot take the shader, a type whose implicit default is below highp, named in a GLSL ES
//! shader, counts instead.

use halfcheck_compiler::ir::Module;
use halfcheck_compiler::{compile, preprocess, CompileOptions, Model};
use halfcheck_piglit::program::glsl_es_version;
use halfcheck_piglit::shader_test::{ShaderTest, SourceKind, Stage};

/// True when some GLSL shader of `test` holds anything lowp or mediump, written or implicit.
pub fn declares_reduced_precision(test: &ShaderTest) -> bool {
    test.shaders
        .iter()
        .filter(|s| s.kind == SourceKind::Glsl)
        .any(|shader| {
            let stage = compiler_stage(shader.stage);
            let options = CompileOptions {
                model: Model::Spec,
                lower: false,
                ..CompileOptions::default()
            };
            text_has_reduced_precision(&shader.text, shader.stage, false)
                || match compile(&shader.text, stage, "shader", &options) {
                    Ok(module) => module_has_reduced_precision(&module),
                    Err(_) => text_has_reduced_precision(&shader.text, shader.stage, true),
                }
        })
}

/// Whether a variable or function the shader declares resolves to lowp or mediump.
fn module_has_reduced_precision(module: &Module) -> bool {
    module
        .variables
        .iter()
        .filter(|v| !v.builtin)
        .any(|v| v.precision.is_lowerable())
        || module
            .functions
            .iter()
            .filter(|f| f.body.is_some())
            .any(|f| f.return_precision.is_lowerable())
}

/// The text's answer: a `lowp`/`mediump` word outside comments and disabled `#if` blocks, or
/// (with `implicit`) in a GLSL ES shader a type whose predeclared default is below highp.
fn text_has_reduced_precision(text: &str, stage: Stage, implicit: bool) -> bool {
    let es = implicit && !is_desktop_glsl(text);
    let clean = preprocess(text, compiler_stage(stage), "shader")
        .map_or_else(|_| text.to_string(), |p| p.text);
    let found = words(&clean).any(|w| {
        w == "lowp"
            || w == "mediump"
            || (es && matches!(w, "sampler2D" | "samplerCube"))
            || (es
                && stage == Stage::Fragment
                && matches!(
                    w,
                    "int" | "ivec2" | "ivec3" | "ivec4" | "uint" | "uvec2" | "uvec3" | "uvec4"
                ))
    });
    found
}

/// The first implementation limit (`gl_MaxTextureImageUnits`, `gl_MinProgramTexelOffset`,
/// ...) a GLSL shader of `test` reads: its value is the driver's, which the emulator does not
/// know.
pub(crate) fn implementation_limit(test: &ShaderTest) -> Option<String> {
    glsl_words(test, |_, _, w| {
        w.starts_with("gl_Max") || w.starts_with("gl_Min")
    })
}

/// The first built-in whose precision GLSL ES fixes below highp that a shader of `test`
/// reads: `gl_FragCoord` in a GLSL ES 1.00 fragment shader (mediump), `gl_PointCoord`.
/// Promoting the shader to highp cannot change its precision.
pub(crate) fn fixed_reduced_builtin(test: &ShaderTest) -> Option<String> {
    let es100 = glsl_es_version(test) == Some(100);
    glsl_words(test, |stage, text, w| {
        let version_100 = !text.contains("#version") || text.contains("#version 100");
        w == "gl_PointCoord"
            || (w == "gl_FragCoord" && stage == Stage::Fragment && es100 && version_100)
    })
}

/// The first output whose precision GLSL ES fixes below highp that a shader of `test`
/// writes: `gl_FragColor` or `gl_FragData` in a GLSL ES 1.00 fragment shader (mediump).
/// Promoting the shader to highp cannot change its precision either.
pub(crate) fn fixed_reduced_output(test: &ShaderTest) -> Option<String> {
    glsl_words(test, |stage, text, w| {
        let version_100 = !text.contains("#version") || text.contains("#version 100");
        matches!(w, "gl_FragColor" | "gl_FragData") && stage == Stage::Fragment && version_100
    })
}

/// The first word, outside comments and disabled `#if` blocks, of a GLSL shader of `test`
/// for which `wanted(stage, source, word)` holds.
fn glsl_words(test: &ShaderTest, wanted: impl Fn(Stage, &str, &str) -> bool) -> Option<String> {
    test.shaders
        .iter()
        .filter(|s| s.kind == SourceKind::Glsl)
        .find_map(|shader| {
            let clean = preprocess(&shader.text, compiler_stage(shader.stage), "shader")
                .map_or_else(|_| shader.text.clone(), |p| p.text);
            let found = words(&clean)
                .find(|w| wanted(shader.stage, &shader.text, w))
                .map(str::to_string);
            found
        })
}

/// The words of `text` (runs of letters, digits and `_`).
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// Whether a `#version` line names a desktop GLSL version (a number other than 100, no `es`).
fn is_desktop_glsl(text: &str) -> bool {
    let version = text.lines().find_map(|line| {
        line.trim_start()
            .strip_prefix('#')
            .map(str::trim_start)
            .and_then(|rest| rest.strip_prefix("version"))
    });
    version.is_some_and(|rest| {
        let mut words = rest.split_whitespace();
        let number = words.next();
        number != Some("100") && words.next() != Some("es")
    })
}

/// The compiler's name for a shader_test stage.
pub fn compiler_stage(stage: Stage) -> halfcheck_compiler::Stage {
    match stage {
        Stage::Vertex => halfcheck_compiler::Stage::Vertex,
        Stage::TessControl => halfcheck_compiler::Stage::TessControl,
        Stage::TessEvaluation => halfcheck_compiler::Stage::TessEvaluation,
        Stage::Geometry => halfcheck_compiler::Stage::Geometry,
        Stage::Fragment => halfcheck_compiler::Stage::Fragment,
        Stage::Compute => halfcheck_compiler::Stage::Compute,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use halfcheck_piglit::shader_test::parse_str;
    use std::path::Path;

    fn declares(fragment: &str) -> bool {
        let text = format!(
            "[require]\nGL ES >= 2.0\n[vertex shader passthrough]\n[fragment shader]\n{fragment}\n[test]\n"
        );
        let test = parse_str(Path::new("t.shader_test"), &text).expect("parses");
        declares_reduced_precision(&test)
    }

    #[test]
    fn precision_statement_or_qualifier_counts() {
        assert!(declares("precision mediump float;\nvoid main() {}"));
        assert!(declares(
            "precision highp float;\nuniform lowp float a;\nvoid main() {}"
        ));
    }

    #[test]
    fn implicit_defaults_below_highp_count() {
        // A fragment shader's int is mediump, samplers are lowp, unless said otherwise.
        assert!(declares(
            "#version 300 es\nprecision highp float;\nuniform int i;\nout vec4 c;\n\
             void main() { c = vec4(float(i * i)); }"
        ));
        assert!(declares(
            "precision highp float;\nuniform sampler2D s;\n\
             void main() { gl_FragColor = texture2D(s, vec2(0.5)); }"
        ));
        assert!(!declares(
            "precision highp float;\nprecision highp int;\nuniform int i;\n\
             void main() { gl_FragColor = vec4(float(i)); }"
        ));
    }

    #[test]
    fn highp_only_shaders_and_comments_do_not_count() {
        assert!(!declares(
            "precision highp float;\n// mediump would be lowered\nvoid main() {}"
        ));
        assert!(!declares(
            "precision highp float;\n#if 0\nmediump float x;\n#endif\nvoid main() {}"
        ));
        assert!(!declares(
            "precision highp float;\nuniform float mediump_ish;\nvoid main() {}"
        ));
        // gl_FragColor is mediump, but it is the spec's, not the shader's.
        assert!(!declares(
            "precision highp float;\nuniform float a;\nvoid main() { gl_FragColor = vec4(a); }"
        ));
    }

    #[test]
    fn shaders_the_compiler_cannot_take_are_scanned() {
        assert!(text_has_reduced_precision(
            "#version 300 es\nlayout(unknown) mediump x;",
            Stage::Fragment,
            false
        ));
        assert!(text_has_reduced_precision(
            "#version 300 es\nuniform isampler3D s; uniform int i;",
            Stage::Fragment,
            true
        ));
        assert!(!text_has_reduced_precision(
            "#version 300 es\nuniform int i;",
            Stage::Vertex,
            true
        ));
        assert!(!text_has_reduced_precision(
            "#version 130\nuniform int i;",
            Stage::Fragment,
            true
        ));
    }

    /// GLSL ES 1.00 fixes gl_FragCoord at mediump; 3.00 makes it highp.
    #[test]
    fn gl_fragcoord_is_a_fixed_mediump_built_in_only_in_glsl_es_1_00() {
        let test = |version: &str, require: &str, body: &str| {
            let text = format!(
                "[require]\nGLSL ES >= {require}\n[vertex shader passthrough]\n\
                 [fragment shader]\n{version}precision mediump float;\n{body}\n[test]\n\
                 draw rect -1 -1 2 2\n"
            );
            parse_str(Path::new("t.shader_test"), &text).expect("parses")
        };
        let es1 = test(
            "",
            "1.00",
            "void main() { gl_FragColor = gl_FragCoord * 0.01; }",
        );
        assert_eq!(fixed_reduced_builtin(&es1).as_deref(), Some("gl_FragCoord"));
        let es3 = test(
            "#version 300 es\n",
            "3.00",
            "out vec4 c;\nvoid main() { c = gl_FragCoord * 0.01; }",
        );
        assert_eq!(fixed_reduced_builtin(&es3), None);
        let comment = test(
            "",
            "1.00",
            "// gl_FragCoord\nvoid main() { gl_FragColor = vec4(1.0); }",
        );
        assert_eq!(fixed_reduced_builtin(&comment), None);
    }
}
