//! Whether the promoted test is a highp reference at all: compiled by halfcheck's own
//! compiler (the `spec` model, unlowered), it must hold no variable, function result,
//! operation or built-in value below highp. Promotion rewrites tokens; what it cannot reach
//! (a built-in whose precision the spec fixes, a precision a rewrite missed) stays reduced,
//! the driver's run of it rounds as the test does, and it is no evidence: the reference is
//! then not run, and the verdict says why. Built-in outputs the shader writes
//! (`gl_FragColor` is mediump) hold no operation and do not count here.

use super::reduced::compiler_stage;
use halfcheck_compiler::ir::{visit, ExprKind, Module, Op, VarMode};
use halfcheck_compiler::{compile, CompileOptions, Model};
use halfcheck_piglit::shader_test::{ShaderTest, SourceKind};

/// Why `promoted` is not proven highp: the first thing below highp a GLSL shader still
/// holds, or a shader halfcheck's compiler does not take (nothing proven); `None` when every
/// shader is highp throughout.
pub(crate) fn reduced_left(promoted: &ShaderTest) -> Option<String> {
    let options = CompileOptions {
        model: Model::Spec,
        lower: false,
        ..CompileOptions::default()
    };
    promoted
        .shaders
        .iter()
        .filter(|s| s.kind == SourceKind::Glsl)
        .find_map(|shader| {
            match compile(
                &shader.text,
                compiler_stage(shader.stage),
                "shader",
                &options,
            ) {
                Ok(module) => {
                    reduced_in(&module).map(|left| format!("it still holds {left} below highp"))
                }
                // Not compiled, nothing proven.
                Err(_) => Some(format!(
                    "halfcheck's compiler does not take its {} shader",
                    shader.stage.section_name()
                )),
            }
        })
}

/// The built-ins whose parameter GLSL ES 3.10 section 8.4 declares mediump (`highp uint
/// packHalf2x16(mediump vec2 v)`, `packUnorm4x8`, `packSnorm4x8`): a driver may round a
/// highp operand there, promoted or not.
const MEDIUMP_PARAMETER: &[Op] = &[Op::PackHalf2x16, Op::PackUnorm4x8, Op::PackSnorm4x8];

/// The first variable, function result or expression of `module` below highp, or operand
/// of a built-in whose parameter is mediump.
fn reduced_in(module: &Module) -> Option<String> {
    // A compiler temporary takes its consumer's precision; what it holds is an operation,
    // judged below.
    if let Some(var) = module
        .variables
        .iter()
        .find(|v| !v.builtin && v.mode != VarMode::Temporary && v.precision.is_lowerable())
    {
        return Some(format!("variable {}", var.name));
    }
    if let Some(function) = module
        .functions
        .iter()
        .find(|f| f.body.is_some() && f.return_precision.is_lowerable())
    {
        return Some(format!("the result of {}", function.name));
    }
    let mut found = None;
    visit::exprs(module, &mut |e| {
        if found.is_some() {
            return;
        }
        if let ExprKind::Op(op, _) = &e.kind {
            if MEDIUMP_PARAMETER.contains(op) {
                found = Some(format!(
                    "the operand of {op:?} (a parameter GLSL ES fixes at mediump)"
                ));
                return;
            }
        }
        if !e.precision.is_lowerable() {
            return;
        }
        found = match &e.kind {
            ExprKind::Var(id) => module
                .variables
                .get(id.0 as usize)
                .filter(|v| v.mode != VarMode::ShaderOut)
                .map(|v| format!("built-in {}", v.name)),
            ExprKind::Intrinsic(name, _) => Some(format!("the result of {name}")),
            ExprKind::Texture(_) => Some("a texture lookup".to_string()),
            ExprKind::Op(op, _) => Some(format!("an operation ({op:?})")),
            _ => None,
        };
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::closed_world::tests::test_with;
    use crate::reference::promoted;

    fn promoted_test(fragment: &str) -> ShaderTest {
        promoted(&test_with(fragment)).expect("promotes")
    }

    #[test]
    fn a_promoted_mediump_test_is_highp_throughout() {
        let test = promoted_test(
            "#version 300 es\nprecision mediump float;\nuniform float a, b;\nout vec4 c;\n\
             void main() { mediump float x = fract(a / b * 1024.0); c = vec4(x); }\n",
        );
        assert_eq!(reduced_left(&test), None);
    }

    /// GLSL ES 3.10 section 8.4 declares packUnorm4x8's parameter mediump: a highp operand
    /// may be rounded there in the promoted test too.
    #[test]
    fn a_builtin_whose_parameter_the_spec_fixes_at_mediump_is_left_after_promotion() {
        let test = promoted_test(
            "#version 310 es\nprecision mediump float;\nuniform float a;\nout vec4 c;\n\
             void main() { c = vec4(float(packUnorm4x8(vec4(a)) & 255u) / 255.0); }\n",
        );
        let left = reduced_left(&test).unwrap_or_default();
        assert!(left.contains("PackUnorm4x8"), "{left}");
        let unorm2x16 = promoted_test(
            "#version 300 es\nprecision mediump float;\nuniform float a;\nout vec4 c;\n\
             void main() { c = vec4(unpackUnorm2x16(packUnorm2x16(vec2(a))), 0.0, 1.0); }\n",
        );
        assert_eq!(reduced_left(&unorm2x16), None);
    }

    /// GLSL ES 3.00 section 8.8 fixes `bitCount`'s result at lowp: promotion cannot reach it,
    /// and the driver's run of the promoted test may round there as the test does.
    #[test]
    fn a_builtin_whose_result_the_spec_fixes_below_highp_is_left_after_promotion() {
        let test = promoted_test(
            "#version 310 es\nprecision mediump float;\nuniform highp uint u;\nout vec4 c;\n\
             void main() { c = vec4(float(bitCount(u)) / 3.0); }\n",
        );
        let left = reduced_left(&test);
        assert!(
            left.is_some(),
            "bitCount's lowp result should be left: {left:?}"
        );
    }
}
