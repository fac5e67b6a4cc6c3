//! halfcheck's model against the driver's IR: the operations the model lowers (the run's
//! profile's lowering, Mesa's later pipeline included, as `compile --final --dump-ir` shows
//! them) and those the driver's IR computes at 16 bits, by operation in NIR's names.
//!
//! Operations are matched by kind, not one by one: a driver vectorises, scalarises and
//! rewrites (`a - b` is `fadd` of an `fneg` on llvmpipe, `fsub` on zink; `exp` is `fexp2` of
//! a product), so counts differ between two IRs that agree. Operations that only move a sign or clamp (`neg`, `abs`,
//! `sat`) and conversions are left out on both sides. A model's `dot` meets a driver's
//! `fdot` or, where the driver was handed it expanded, its `fmul` and `fadd`.

use halfcheck_compiler::compile;
use halfcheck_compiler::ir::{visit, BaseType, ExprKind, Module, Op};
use halfcheck_emu::Choices;
use halfcheck_piglit::shader_test::{ShaderTest, SourceKind};
use halfcheck_results::{IrShader, ModelMatch};
use std::collections::BTreeMap;

/// The model's lowered operations of `test` (every GLSL shader, compiled with `driver`'s
/// choices), by NIR name; `None` when a shader does not compile.
pub fn model_operations(test: &ShaderTest, driver: &Choices) -> Option<BTreeMap<String, u32>> {
    let options = super::predict::lowering_model(driver).compile_options(true);
    let mut ops = BTreeMap::new();
    for shader in test.shaders.iter().filter(|s| s.kind == SourceKind::Glsl) {
        let stage = super::reduced::compiler_stage(shader.stage);
        let module = compile(&shader.text, stage, "shader", &options).ok()?;
        count_lowered(&module, &mut ops);
    }
    Some(ops)
}

/// Matches the model's operations with the 16-bit arithmetic of the driver's shaders.
pub fn match_model(model: &BTreeMap<String, u32>, shaders: &[IrShader]) -> ModelMatch {
    let mut driver: BTreeMap<String, u32> = BTreeMap::new();
    for shader in shaders {
        for (op, n) in shader.float16.iter().chain(&shader.int16) {
            if let Some(name) = driver_name(op) {
                *driver.entry(name).or_default() += n;
            }
        }
    }
    let mut out = ModelMatch::default();
    for (op, &n) in model {
        // A dot product the driver was handed expanded: its products and sums at 16 bits.
        let expanded = op == "fdot" && driver.contains_key("fmul") && driver.contains_key("fadd");
        match driver.get(op).or(expanded.then_some(&n)) {
            Some(&d) => out.agreed.insert(op.clone(), d.max(n)),
            None => out.model_only.insert(op.clone(), n),
        };
    }
    for (op, &n) in &driver {
        if !model.contains_key(op) {
            out.driver_only.insert(op.clone(), n);
        }
    }
    out
}

/// Counts `module`'s operations whose operands are 16 bits wide, by NIR name.
fn count_lowered(module: &Module, ops: &mut BTreeMap<String, u32>) {
    visit::exprs(module, &mut |e| {
        let ExprKind::Op(op, operands) = &e.kind else {
            return;
        };
        let Some(base) = operands.first().and_then(|o| o.ty.base()) else {
            return;
        };
        let name = match base {
            BaseType::Float16 => float_name(*op),
            BaseType::Int16 | BaseType::Uint16 => int_name(*op),
            _ => None,
        };
        if let Some(name) = name {
            *ops.entry(name.to_string()).or_default() += 1;
        }
    });
}

/// A driver opcode in the names the model's operations map to: comparisons without their
/// result size (`fge32` is `fge`), dot products without their width (`fdot3` is `fdot`);
/// `None` for what is left out (sign changes, clamps).
fn driver_name(op: &str) -> Option<String> {
    if matches!(op, "fneg" | "fabs" | "fsat" | "ineg" | "iabs") {
        return None;
    }
    let base = op.trim_end_matches(|c: char| c.is_ascii_digit());
    Some(match base {
        // zink keeps a subtraction whole; llvmpipe's is `fadd` of an `fneg`.
        "fsub" => "fadd".to_string(),
        "isub" => "iadd".to_string(),
        "flt" | "fge" | "feq" | "fneu" | "ilt" | "ige" | "ieq" | "ine" | "ult" | "uge" | "fdot" => {
            base.to_string()
        }
        _ => op.to_string(),
    })
}

/// The NIR opcode a float operation of the model becomes.
fn float_name(op: Op) -> Option<&'static str> {
    Some(match op {
        Op::Add | Op::Sub => "fadd",
        Op::Mul => "fmul",
        Op::Div => "fdiv",
        Op::Rcp => "frcp",
        Op::Rsq => "frsq",
        Op::Sqrt => "fsqrt",
        Op::Exp2 | Op::Exp => "fexp2",
        Op::Log2 | Op::Log => "flog2",
        Op::Floor => "ffloor",
        Op::Ceil => "fceil",
        Op::Trunc => "ftrunc",
        Op::Fract => "ffract",
        Op::RoundEven => "fround_even",
        Op::Sin => "fsin",
        Op::Cos => "fcos",
        Op::Sign => "fsign",
        Op::Min => "fmin",
        Op::Max => "fmax",
        Op::Pow => "fpow",
        Op::Dot => "fdot",
        Op::Fma => "ffma",
        Op::Lrp => "flrp",
        Op::Less | Op::Greater => "flt",
        Op::LessEqual | Op::GreaterEqual => "fge",
        Op::Equal => "feq",
        Op::NotEqual => "fneu",
        Op::DFdx => "fddx",
        Op::DFdy => "fddy",
        _ => return None,
    })
}

/// The NIR opcode an integer operation of the model becomes.
fn int_name(op: Op) -> Option<&'static str> {
    Some(match op {
        Op::Add | Op::Sub => "iadd",
        Op::Mul => "imul",
        Op::Div => "idiv",
        Op::Mod => "imod",
        Op::Less | Op::Greater => "ilt",
        Op::LessEqual | Op::GreaterEqual => "ige",
        Op::Equal => "ieq",
        Op::NotEqual => "ine",
        Op::Min => "imin",
        Op::Max => "imax",
        Op::Lshift => "ishl",
        Op::Rshift => "ishr",
        Op::BitAnd => "iand",
        Op::BitOr => "ior",
        Op::BitXor => "ixor",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, u32)]) -> BTreeMap<String, u32> {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn operations_match_by_kind_both_ways() {
        let shader = IrShader {
            float16: map(&[("fdiv", 1), ("fneg", 1), ("fge32", 1), ("fsin", 2)]),
            ..IrShader::default()
        };
        let m = match_model(&map(&[("fdiv", 1), ("fge", 1), ("fmul", 1)]), &[shader]);
        assert_eq!(m.agreed, map(&[("fdiv", 1), ("fge", 1)]));
        assert_eq!(m.model_only, map(&[("fmul", 1)]));
        assert_eq!(m.driver_only, map(&[("fsin", 2)]));
        let expanded = IrShader {
            float16: map(&[("fmul", 4), ("fadd", 3)]),
            ..IrShader::default()
        };
        let m = match_model(&map(&[("fdot", 1)]), &[expanded]);
        assert_eq!(m.agreed, map(&[("fdot", 1)]));
        assert!(m.model_only.is_empty());
    }
}
