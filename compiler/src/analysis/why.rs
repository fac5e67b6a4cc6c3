//! Why an operation is not computed at 16 bits: for each operation of a shader that the IR a
//! driver runs keeps at 32 bits, the rule of the GLSL ES spec or of Mesa's passes that decided
//! it (`halfcheck compile --dump-ir --why`).
//!
//! The shader is compiled three times with the same options: without lowering (each
//! operation's precision as semantic analysis resolved it), with Mesa's `lower_precision`
//! (and the conversion folding after it), and with Mesa's later pipeline as measured on
//! llvmpipe (`passes::mesa_pipeline`). An operation is matched across them by its span and
//! name; the first of them that leaves it at 32 bits names the rule.

use crate::ir::{visit, BaseType, Expr, ExprKind, Model, Op, Precision};
use crate::passes::lower_precision::fixed_at_32_bits;
use crate::{compile_mapped, CompileOptions, Diagnostic, Location, Stage};
use std::collections::HashMap;

/// One operation kept at 32 bits, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    /// Where it is in the source.
    pub location: Location,
    /// The operation, as Mesa names it (`fdiv` is `/`, `ffract`, ...).
    pub operation: String,
    /// The rule that kept it, in words, naming the spec's section or Mesa's pass.
    pub rule: String,
}

/// An operation's key across the three compiles: its span and name.
type Key = (u32, u32, &'static str);

/// Every operation of `source` that the IR a driver runs (`options`, with Mesa's later
/// pipeline) computes at 32 bits, in source order, with the rule that kept it there.
pub fn why(
    source: &str,
    stage: Stage,
    file_name: &str,
    options: &CompileOptions,
) -> Result<Vec<Kept>, Diagnostic> {
    let compile = |lower: bool, final_pipeline: bool| {
        let options = CompileOptions {
            lower,
            final_pipeline,
            ..*options
        };
        compile_mapped(source, stage, file_name, &options)
    };
    let resolved = compile(false, false)?;
    let pass = operations(&compile(true, false)?.module);
    let pipeline = operations(&compile(true, true)?.module);
    let mut kept = Vec::new();
    let mut seen = std::collections::HashSet::new();
    visit::exprs(&resolved.module, &mut |e| {
        let ExprKind::Op(op, operands) = &e.kind else {
            return;
        };
        let key = (e.span.start, e.span.end, op.name());
        if pipeline.get(&key) != Some(&false) || !seen.insert(key) {
            return;
        }
        let rule = if pass.get(&key) == Some(&true) {
            "Mesa's pipeline after lower_precision (measured on llvmpipe, passes::mesa_pipeline): \
             a lone operation whose sources are all 32-bit values runs at 32 bits, or its \
             conversions fold away through a variable"
                .to_string()
        } else {
            rule(*op, e, operands, options)
        };
        kept.push(Kept {
            location: resolved.source_map.locate(e.span.start),
            operation: op.name().to_string(),
            rule,
        });
    });
    kept.sort_by_key(|k| (k.location.physical_line, k.location.column));
    Ok(kept)
}

/// Per operation of `module` (inserted conversions aside), whether it computes at 16 bits.
fn operations(module: &crate::ir::Module) -> HashMap<Key, bool> {
    let mut found = HashMap::new();
    visit::exprs(module, &mut |e| {
        if let ExprKind::Op(op, operands) = &e.kind {
            let lowered = is_16(e) || operands.iter().any(is_16);
            found
                .entry((e.span.start, e.span.end, op.name()))
                .and_modify(|l: &mut bool| *l &= lowered)
                .or_insert(lowered);
        }
    });
    found
}

fn is_16(e: &Expr) -> bool {
    matches!(
        e.ty.base(),
        Some(BaseType::Float16 | BaseType::Int16 | BaseType::Uint16)
    )
}

/// The rule that keeps a resolved operation out of `lower_precision`'s 16-bit trees.
fn rule(op: Op, e: &Expr, operands: &[Expr], options: &CompileOptions) -> String {
    let switches = &options.switches;
    let float = matches!(e.ty.base(), Some(BaseType::Float))
        || operands
            .iter()
            .any(|o| matches!(o.ty.base(), Some(BaseType::Float)));
    if fixed_at_32_bits(op) {
        return "the spec fixes this built-in's precision, and Mesa's lower_precision computes it \
                at 32 bits (its result enters a 16-bit tree as a variable read would)"
            .to_string();
    }
    match e.precision {
        Precision::High => {
            "highp: an operand is highp, and an operation takes the highest precision of its \
             operands (GLSL ES 3.00 section 4.7.3)"
                .to_string()
        }
        Precision::None if options.model == Model::Mesa => {
            "no operand has a precision (only constants and precision-less values): the spec lets \
             the consumer lend one (GLSL ES 3.00 section 4.7.3), Mesa's lower_precision never \
             does"
                .to_string()
        }
        Precision::None => {
            "no operand has a precision and no consumer lends one: highp".to_string()
        }
        _ if float && !switches.float16 => {
            "the profile does not lower mediump floats (LowerPrecisionFloat16 off)".to_string()
        }
        _ if !float && !switches.int16 && e.ty.base() != Some(BaseType::Bool) => {
            "the profile does not lower mediump integers (LowerPrecisionInt16 off)".to_string()
        }
        _ if op.is_derivative() && !switches.derivatives => {
            "Mesa's lower_precision keeps derivatives at 32 bits (LowerPrecisionDerivatives off)"
                .to_string()
        }
        _ if op == Op::Csel => {
            "Mesa's lower_precision lowers a built-in call only when every non-constant argument \
             is lowerable (handle_call): the selector is a bool variable with no precision"
                .to_string()
        }
        _ => "Mesa's lower_precision: another operation of its tree is highp or cannot be 16-bit, \
              and a tree that cannot be lowered stays whole at 32 bits"
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_operation_and_a_highp_one_name_their_rules() {
        let source = "precision mediump float;\nuniform float a, b;\nuniform highp float h;\n\
                      void main() {\n  gl_FragColor = vec4(fract(a), a / h, fract(a / b * 1024.0), 1.0);\n}\n";
        let kept = why(
            source,
            Stage::Fragment,
            "t.frag",
            &CompileOptions::default(),
        )
        .expect("compiles");
        let has = |op: &str, rule: &str| {
            kept.iter()
                .any(|k| k.operation == op && k.rule.starts_with(rule))
        };
        assert!(
            has("fract", "Mesa's pipeline after lower_precision"),
            "{kept:?}"
        );
        assert!(has("/", "highp: an operand is highp"), "{kept:?}");
        // The amplified division is lowered whole: none of its operations is listed.
        assert_eq!(kept.len(), 2, "{kept:?}");
    }
}
