//! Built-in functions of GLSL ES 1.00 to 3.20, expanded into IR operations the way Mesa's
//! built-in library defines them (`clamp` is `min(max(x, lo), hi)`, `mix` is `lrp`,
//! `length` is `sqrt(dot(x, x))`, ...).
//!
//! Precision (GLSL ES 3.10 section 8): a built-in's result has the highest precision of its
//! arguments, except where the spec fixes it: texture lookups take the sampler's precision,
//! `textureSize` and `floatBitsTo*` are highp, `bitCount`/`findLSB`/`findMSB` lowp, the
//! `unpack*` functions their documented precision, `interpolateAt*` the interpolant's, and
//! `bitfieldExtract`/`bitfieldInsert` that of the value arguments only.

use super::expr::constant;
use super::operators::{convert, op_node};
use super::precision::combine;
use super::{error, Analyzer, Result};
use crate::ast;
use crate::ir::full_mask;
use crate::ir::{BaseType, ConstValue, Expr, ExprKind, Op, Precision, Scalar, Stmt, Type};
use crate::span::Span;

mod names;
mod texture;

use names::ES300_FUNCTIONS;
pub use names::FUNCTIONS;

/// Whether `name` is a GLSL ES 3.00 built-in function available in `stage` (the
/// derivatives only in fragment shaders).
pub(crate) fn is_es300_function(name: &str, stage: crate::Stage) -> bool {
    ES300_FUNCTIONS.contains(&name)
        || (stage == crate::Stage::Fragment && matches!(name, "dFdx" | "dFdy" | "fwidth"))
}

/// Analyses a call of built-in `name`.
pub(crate) fn call(
    a: &mut Analyzer<'_>,
    name: &str,
    args: &[ast::Expr],
    span: Span,
) -> Result<Expr> {
    if !FUNCTIONS.contains(&name) {
        return error(span, format!("no function '{name}' is declared"));
    }
    if let Some(e) = with_out_params(a, name, args, span)? {
        return Ok(e);
    }
    let mut values = Vec::with_capacity(args.len());
    for arg in args {
        values.push(a.expr(arg)?);
    }
    if let Some(e) = texture::call(a, name, &values, span)? {
        return Ok(e);
    }
    if let Some(e) = math(name, &values, span)? {
        return Ok(e);
    }
    if let Some(e) = intrinsic(a, name, values, span)? {
        return Ok(e);
    }
    error(span, format!("no function '{name}' is declared"))
}

fn float_const(v: f32, ty: &Type, span: Span) -> Expr {
    let base = ty.base().unwrap_or(BaseType::Float);
    constant(
        ConstValue::Components(vec![Scalar::Float(v).convert(base)]),
        Type::scalar(base),
        span,
    )
}

fn arity(name: &str, args: &[Expr], n: usize, span: Span) -> Result<()> {
    if args.len() == n {
        Ok(())
    } else {
        error(
            span,
            format!("expected {n} argument(s) to '{name}', found {}", args.len()),
        )
    }
}

fn is_float(e: &Expr) -> bool {
    e.ty.base() == Some(BaseType::Float) && !e.ty.is_matrix()
}

fn is_int_kind(e: &Expr) -> bool {
    matches!(e.ty.base(), Some(BaseType::Int | BaseType::Uint)) && !e.ty.is_matrix()
}

fn expect(ok: bool, name: &str, what: &str, args: &[Expr], span: Span) -> Result<()> {
    if ok {
        return Ok(());
    }
    let found: Vec<String> = args.iter().map(|a| a.ty.name()).collect();
    error(
        span,
        format!("expected {what} for '{name}', found ({})", found.join(", ")),
    )
}

/// An operation whose type is that of its first operand.
fn same(op: Op, args: Vec<Expr>, span: Span) -> Expr {
    let ty = args.first().map(|a| a.ty.clone()).unwrap_or(Type::Void);
    op_node(op, ty, args, span)
}

/// Operands of a binary built-in where the second may be a scalar (`min(vec3, float)`).
fn pair_ok(args: &[Expr]) -> bool {
    match args {
        [x, y] => x.ty == y.ty || (y.ty.is_scalar() && x.ty.base() == y.ty.base()),
        _ => false,
    }
}

fn math(name: &str, args: &[Expr], span: Span) -> Result<Option<Expr>> {
    let unary_float = |op: Op| -> Result<Option<Expr>> {
        arity(name, args, 1, span)?;
        expect(
            args.iter().all(is_float),
            name,
            "a float scalar or vector",
            args,
            span,
        )?;
        Ok(Some(same(op, args.to_vec(), span)))
    };
    let x = || {
        args.first()
            .cloned()
            .unwrap_or_else(|| float_const(0.0, &Type::float(), span))
    };
    let arg = |i: usize| {
        args.get(i)
            .cloned()
            .unwrap_or_else(|| float_const(0.0, &Type::float(), span))
    };
    Ok(match name {
        "sin" => unary_float(Op::Sin)?,
        "cos" => unary_float(Op::Cos)?,
        "exp" => unary_float(Op::Exp)?,
        "log" => unary_float(Op::Log)?,
        "exp2" => unary_float(Op::Exp2)?,
        "log2" => unary_float(Op::Log2)?,
        "sqrt" => unary_float(Op::Sqrt)?,
        "inversesqrt" => unary_float(Op::Rsq)?,
        "floor" => unary_float(Op::Floor)?,
        "ceil" => unary_float(Op::Ceil)?,
        "fract" => unary_float(Op::Fract)?,
        "trunc" => unary_float(Op::Trunc)?,
        "round" | "roundEven" => unary_float(Op::RoundEven)?,
        "dFdx" => unary_float(Op::DFdx)?,
        "dFdy" => unary_float(Op::DFdy)?,
        "fwidth" => {
            unary_float(Op::DFdx)?;
            let dx = same(Op::Abs, vec![same(Op::DFdx, vec![x()], span)], span);
            let dy = same(Op::Abs, vec![same(Op::DFdy, vec![x()], span)], span);
            Some(same(Op::Add, vec![dx, dy], span))
        }
        "radians" | "degrees" => {
            unary_float(Op::Neg)?;
            let k = if name == "radians" {
                0.017_453_292
            } else {
                57.295_78
            };
            Some(same(
                Op::Mul,
                vec![x(), float_const(k, &x().ty, span)],
                span,
            ))
        }
        "tan" => {
            unary_float(Op::Sin)?;
            let s = same(Op::Sin, vec![x()], span);
            let c = same(Op::Cos, vec![x()], span);
            Some(same(Op::Div, vec![s, c], span))
        }
        "atan" if args.len() == 2 => {
            expect(
                args.iter().all(is_float) && pair_ok(args) && arg(0).ty == arg(1).ty,
                name,
                "two float operands of one type",
                args,
                span,
            )?;
            Some(same(Op::Atan2, args.to_vec(), span))
        }
        "atan" => unary_float(Op::Atan)?,
        "abs" | "sign" => {
            arity(name, args, 1, span)?;
            expect(
                is_float(&arg(0)) || arg(0).ty.base() == Some(BaseType::Int),
                name,
                "a float or int operand",
                args,
                span,
            )?;
            Some(same(
                if name == "abs" { Op::Abs } else { Op::Sign },
                args.to_vec(),
                span,
            ))
        }
        "pow" | "mod" | "min" | "max" => {
            arity(name, args, 2, span)?;
            let ints_ok = matches!(name, "min" | "max") && is_int_kind(&arg(0));
            expect(
                (args.iter().all(is_float) || ints_ok)
                    && pair_ok(args)
                    && (name != "pow" || arg(0).ty == arg(1).ty),
                name,
                "operands of one type (or a scalar second operand)",
                args,
                span,
            )?;
            let op = match name {
                "pow" => Op::Pow,
                "mod" => Op::Mod,
                "min" => Op::Min,
                _ => Op::Max,
            };
            Some(same(op, args.to_vec(), span))
        }
        "clamp" => {
            arity(name, args, 3, span)?;
            let ok = (is_float(&arg(0)) || is_int_kind(&arg(0)))
                && pair_ok(&args[..2])
                && arg(1).ty == arg(2).ty;
            expect(
                ok,
                name,
                "a value and two bounds of its type (or scalars)",
                args,
                span,
            )?;
            let m = same(Op::Max, vec![arg(0), arg(1)], span);
            Some(same(Op::Min, vec![m, arg(2)], span))
        }
        "mix" => {
            arity(name, args, 3, span)?;
            if arg(2).ty.base() == Some(BaseType::Bool) {
                expect(
                    arg(0).ty == arg(1).ty && arg(2).ty.components() == arg(0).ty.components(),
                    name,
                    "two values and a bool selector of their size",
                    args,
                    span,
                )?;
                Some(same_ty(
                    Op::Csel,
                    arg(0).ty.clone(),
                    vec![arg(2), arg(1), arg(0)],
                    span,
                ))
            } else {
                let ok = args.iter().all(is_float)
                    && arg(0).ty == arg(1).ty
                    && (arg(2).ty == arg(0).ty || arg(2).ty.is_scalar());
                expect(ok, name, "two floats of one type and a weight", args, span)?;
                Some(same(Op::Lrp, args.to_vec(), span))
            }
        }
        "step" => {
            arity(name, args, 2, span)?;
            let ok = args.iter().all(is_float) && (arg(0).ty == arg(1).ty || arg(0).ty.is_scalar());
            expect(ok, name, "an edge and a float value", args, span)?;
            let ty = arg(1).ty.clone();
            let ge = op_node(
                Op::GreaterEqual,
                ty.with_base(BaseType::Bool),
                vec![arg(1), arg(0)],
                span,
            );
            Some(convert(ge, BaseType::Float, span))
        }
        "smoothstep" => {
            arity(name, args, 3, span)?;
            let ok = args.iter().all(is_float)
                && arg(0).ty == arg(1).ty
                && (arg(0).ty == arg(2).ty || arg(0).ty.is_scalar());
            expect(ok, name, "two edges and a float value", args, span)?;
            let ty = arg(2).ty.clone();
            let num = op_node(Op::Sub, ty.clone(), vec![arg(2), arg(0)], span);
            let den = op_node(Op::Sub, arg(0).ty.clone(), vec![arg(1), arg(0)], span);
            let q = op_node(Op::Div, ty.clone(), vec![num, den], span);
            let t = same(
                Op::Min,
                vec![
                    same(Op::Max, vec![q, float_const(0.0, &ty, span)], span),
                    float_const(1.0, &ty, span),
                ],
                span,
            );
            let two_t = op_node(
                Op::Mul,
                ty.clone(),
                vec![float_const(2.0, &ty, span), t.clone()],
                span,
            );
            let three = op_node(
                Op::Sub,
                ty.clone(),
                vec![float_const(3.0, &ty, span), two_t],
                span,
            );
            let tt = op_node(Op::Mul, ty.clone(), vec![t.clone(), t], span);
            Some(op_node(Op::Mul, ty, vec![tt, three], span))
        }
        "fma" => {
            arity(name, args, 3, span)?;
            expect(
                args.iter().all(|a| is_float(a) && a.ty == arg(0).ty),
                name,
                "three floats of one type",
                args,
                span,
            )?;
            Some(same(Op::Fma, args.to_vec(), span))
        }
        "isnan" => {
            unary_float(Op::Neg)?;
            Some(op_node(
                Op::NotEqual,
                x().ty.with_base(BaseType::Bool),
                vec![x(), x()],
                span,
            ))
        }
        "floatBitsToInt" | "floatBitsToUint" => {
            unary_float(Op::Neg)?;
            let (op, base) = if name == "floatBitsToInt" {
                (Op::BitcastF2i, BaseType::Int)
            } else {
                (Op::BitcastF2u, BaseType::Uint)
            };
            Some(fixed(
                op_node(op, x().ty.with_base(base), vec![x()], span),
                Precision::High,
            ))
        }
        "intBitsToFloat" | "uintBitsToFloat" => {
            arity(name, args, 1, span)?;
            let want = if name == "intBitsToFloat" {
                BaseType::Int
            } else {
                BaseType::Uint
            };
            expect(
                x().ty.base() == Some(want) && !x().ty.is_matrix(),
                name,
                "an int or uint value",
                args,
                span,
            )?;
            let op = if name == "intBitsToFloat" {
                Op::BitcastI2f
            } else {
                Op::BitcastU2f
            };
            Some(fixed(
                op_node(op, x().ty.with_base(BaseType::Float), vec![x()], span),
                Precision::High,
            ))
        }
        "ldexp" => {
            arity(name, args, 2, span)?;
            expect(
                is_float(&arg(0)) && arg(1).ty == arg(0).ty.with_base(BaseType::Int),
                name,
                "a float and an int exponent of its size",
                args,
                span,
            )?;
            Some(fixed(same(Op::Ldexp, args.to_vec(), span), Precision::High))
        }
        "packSnorm2x16" | "packUnorm2x16" | "packHalf2x16" | "packUnorm4x8" | "packSnorm4x8" => {
            arity(name, args, 1, span)?;
            let n = if name.ends_with("4x8") { 4 } else { 2 };
            expect(
                x().ty == Type::vector(BaseType::Float, n),
                name,
                &format!("a vec{n}"),
                args,
                span,
            )?;
            let op = Op::from_name(name).unwrap_or(Op::PackHalf2x16);
            Some(fixed(
                op_node(op, Type::uint(), vec![x()], span),
                Precision::High,
            ))
        }
        "unpackSnorm2x16" | "unpackUnorm2x16" | "unpackHalf2x16" | "unpackUnorm4x8"
        | "unpackSnorm4x8" => {
            arity(name, args, 1, span)?;
            expect(x().ty == Type::uint(), name, "a uint", args, span)?;
            let n = if name.ends_with("4x8") { 4 } else { 2 };
            let p = if matches!(name, "unpackSnorm2x16" | "unpackUnorm2x16") {
                Precision::High
            } else {
                Precision::Medium
            };
            let op = Op::from_name(name).unwrap_or(Op::UnpackHalf2x16);
            Some(fixed(
                op_node(op, Type::vector(BaseType::Float, n), vec![x()], span),
                p,
            ))
        }
        "length" | "normalize" | "dot" | "distance" | "cross" | "reflect" | "faceforward" => {
            geometric(name, args, span)?
        }
        "lessThan" | "lessThanEqual" | "greaterThan" | "greaterThanEqual" | "equal"
        | "notEqual" => {
            arity(name, args, 2, span)?;
            let ok = arg(0).ty == arg(1).ty
                && arg(0).ty.is_vector()
                && (name.contains("qual") && name != "lessThanEqual" && name != "greaterThanEqual"
                    || arg(0).ty.base() != Some(BaseType::Bool));
            expect(ok, name, "two vectors of one type", args, span)?;
            let bty = arg(0).ty.with_base(BaseType::Bool);
            let (op, a, b) = match name {
                "lessThan" => (Op::Less, arg(0), arg(1)),
                "greaterThan" => (Op::Less, arg(1), arg(0)),
                "lessThanEqual" => (Op::GreaterEqual, arg(1), arg(0)),
                "greaterThanEqual" => (Op::GreaterEqual, arg(0), arg(1)),
                "equal" => (Op::Equal, arg(0), arg(1)),
                _ => (Op::NotEqual, arg(0), arg(1)),
            };
            Some(op_node(op, bty, vec![a, b], span))
        }
        "any" | "all" | "not" => {
            arity(name, args, 1, span)?;
            expect(
                x().ty.is_vector() && x().ty.base() == Some(BaseType::Bool),
                name,
                "a bool vector",
                args,
                span,
            )?;
            if name == "not" {
                return Ok(Some(same(Op::LogicNot, vec![x()], span)));
            }
            let n = usize::from(x().ty.vector_size());
            let fill = constant(
                ConstValue::Components(vec![Scalar::Bool(name == "all"); n]),
                x().ty.clone(),
                span,
            );
            let op = if name == "any" {
                Op::AnyNequal
            } else {
                Op::AllEqual
            };
            Some(op_node(op, Type::bool(), vec![x(), fill], span))
        }
        "bitfieldReverse" | "bitCount" | "findLSB" | "findMSB" => {
            arity(name, args, 1, span)?;
            expect(is_int_kind(&x()), name, "an int or uint value", args, span)?;
            let op = match name {
                "bitfieldReverse" => {
                    return Ok(Some(fixed(
                        same(Op::BitfieldReverse, vec![x()], span),
                        Precision::High,
                    )))
                }
                "bitCount" => Op::BitCount,
                "findLSB" => Op::FindLsb,
                _ => Op::FindMsb,
            };
            Some(fixed(
                op_node(op, x().ty.with_base(BaseType::Int), vec![x()], span),
                Precision::Low,
            ))
        }
        "bitfieldExtract" => {
            arity(name, args, 3, span)?;
            expect(
                is_int_kind(&arg(0)) && arg(1).ty == Type::int() && arg(2).ty == Type::int(),
                name,
                "a value and int offset and bits",
                args,
                span,
            )?;
            let p = arg(0).precision;
            Some(fixed(same(Op::BitfieldExtract, args.to_vec(), span), p))
        }
        "bitfieldInsert" => {
            arity(name, args, 4, span)?;
            expect(
                is_int_kind(&arg(0))
                    && arg(1).ty == arg(0).ty
                    && arg(2).ty == Type::int()
                    && arg(3).ty == Type::int(),
                name,
                "base, insert, int offset and bits",
                args,
                span,
            )?;
            let p = combine([arg(0).precision, arg(1).precision]);
            Some(fixed(same(Op::BitfieldInsert, args.to_vec(), span), p))
        }
        "interpolateAtCentroid" | "interpolateAtOffset" | "interpolateAtSample" => {
            let n = if name == "interpolateAtCentroid" {
                1
            } else {
                2
            };
            arity(name, args, n, span)?;
            expect(is_float(&x()), name, "a float interpolant", args, span)?;
            let op = match name {
                "interpolateAtCentroid" => Op::InterpolateAtCentroid,
                "interpolateAtOffset" => Op::InterpolateAtOffset,
                _ => Op::InterpolateAtSample,
            };
            let p = x().precision;
            Some(fixed(same(op, args.to_vec(), span), p))
        }
        _ => None,
    })
}

/// An operation with an explicit result type.
fn same_ty(op: Op, ty: Type, args: Vec<Expr>, span: Span) -> Expr {
    op_node(op, ty, args, span)
}

/// `e` with the precision the spec fixes for its built-in.
fn fixed(mut e: Expr, precision: Precision) -> Expr {
    if !matches!(e.kind, ExprKind::Constant { .. }) {
        e.precision = precision;
    }
    e
}

fn geometric(name: &str, args: &[Expr], span: Span) -> Result<Option<Expr>> {
    let n = match name {
        "length" | "normalize" => 1,
        "faceforward" => 3,
        _ => 2,
    };
    arity(name, args, n, span)?;
    let first = args.first().map(|a| a.ty.clone()).unwrap_or(Type::Void);
    expect(
        args.iter().all(|a| is_float(a) && a.ty == first),
        name,
        "float operands of one type",
        args,
        span,
    )?;
    let arg = |i: usize| {
        args.get(i)
            .cloned()
            .unwrap_or_else(|| float_const(0.0, &Type::float(), span))
    };
    let dot = |a: Expr, b: Expr| {
        if a.ty.is_scalar() {
            op_node(Op::Mul, Type::float(), vec![a, b], span)
        } else {
            op_node(Op::Dot, Type::float(), vec![a, b], span)
        }
    };
    let length = |v: Expr| {
        if v.ty.is_scalar() {
            same(Op::Abs, vec![v], span)
        } else {
            op_node(Op::Sqrt, Type::float(), vec![dot(v.clone(), v)], span)
        }
    };
    Ok(Some(match name {
        "dot" => dot(arg(0), arg(1)),
        "length" => length(arg(0)),
        "distance" => length(same(Op::Sub, vec![arg(0), arg(1)], span)),
        // Mesa builds it as `sign(x)`; the spec's formula, `x * inversesqrt(x * x)`, may
        // give 1 - 2^-24 (SwiftShader does): the emulator evaluates it as either.
        "normalize" if first.is_scalar() => {
            let sign = same(Op::Sign, vec![arg(0)], span);
            let (ty, precision) = (sign.ty.clone(), sign.precision);
            Expr::new(
                ExprKind::Intrinsic(name.to_owned(), vec![arg(0)]),
                ty,
                precision,
                span,
            )
        }
        "normalize" => {
            let rsq = op_node(Op::Rsq, Type::float(), vec![dot(arg(0), arg(0))], span);
            same(Op::Mul, vec![arg(0), rsq], span)
        }
        "cross" => {
            expect(
                first == Type::vector(BaseType::Float, 3),
                name,
                "two vec3",
                args,
                span,
            )?;
            let sw = |e: Expr, c: [u8; 3]| {
                let p = e.precision;
                crate::ir::fold::fold(Expr::new(
                    ExprKind::Swizzle(Box::new(e), c.to_vec()),
                    first.clone(),
                    p,
                    span,
                ))
            };
            let l = same(
                Op::Mul,
                vec![sw(arg(0), [1, 2, 0]), sw(arg(1), [2, 0, 1])],
                span,
            );
            let r = same(
                Op::Mul,
                vec![sw(arg(1), [1, 2, 0]), sw(arg(0), [2, 0, 1])],
                span,
            );
            same(Op::Sub, vec![l, r], span)
        }
        "reflect" => {
            let d = dot(arg(1), arg(0));
            let two_d = op_node(
                Op::Mul,
                Type::float(),
                vec![float_const(2.0, &Type::float(), span), d],
                span,
            );
            let scaled = same(Op::Mul, vec![arg(1), two_d], span);
            same(Op::Sub, vec![arg(0), scaled], span)
        }
        _ => {
            let d = dot(arg(2), arg(1));
            let less = op_node(
                Op::Less,
                Type::bool(),
                vec![d, float_const(0.0, &Type::float(), span)],
                span,
            );
            let neg = same(Op::Neg, vec![arg(0)], span);
            let cond = if first.is_scalar() {
                less
            } else {
                let k = first.vector_size();
                let p = less.precision;
                Expr::new(
                    ExprKind::Swizzle(Box::new(less), vec![0; usize::from(k)]),
                    Type::vector(BaseType::Bool, k),
                    p,
                    span,
                )
            };
            same_ty(Op::Csel, first.clone(), vec![cond, arg(0), neg], span)
        }
    }))
}

/// Built-ins with `out` parameters: the out arguments are lvalues written after the call.
fn with_out_params(
    a: &mut Analyzer<'_>,
    name: &str,
    args: &[ast::Expr],
    span: Span,
) -> Result<Option<Expr>> {
    let outs: &[usize] = match name {
        "modf" | "frexp" | "uaddCarry" | "usubBorrow" => match name {
            "modf" | "frexp" => &[1],
            _ => &[2],
        },
        "umulExtended" | "imulExtended" => &[2, 3],
        _ => return Ok(None),
    };
    let expected = match name {
        "modf" | "frexp" => 2,
        "uaddCarry" | "usubBorrow" => 3,
        _ => 4,
    };
    if args.len() != expected {
        return error(
            span,
            format!(
                "expected {expected} arguments to '{name}', found {}",
                args.len()
            ),
        );
    }
    let mut values = Vec::new();
    let mut targets = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        if outs.contains(&i) {
            targets.push(a.lvalue(arg)?);
        } else {
            values.push(a.expr(arg)?);
        }
    }
    let arg = |i: usize| {
        values
            .get(i)
            .cloned()
            .unwrap_or_else(|| float_const(0.0, &Type::float(), span))
    };
    let x = arg(0);
    let mut stores: Vec<Expr> = Vec::new();
    let result = match name {
        "modf" => {
            expect(is_float(&x), name, "a float value", &values, span)?;
            let whole = same(Op::Trunc, vec![x.clone()], span);
            stores.push(whole.clone());
            Some(same(Op::Sub, vec![x, whole], span))
        }
        "frexp" => {
            expect(is_float(&x), name, "a float value", &values, span)?;
            stores.push(fixed(
                op_node(
                    Op::FrexpExp,
                    x.ty.with_base(BaseType::Int),
                    vec![x.clone()],
                    span,
                ),
                Precision::High,
            ));
            Some(fixed(same(Op::FrexpSig, vec![x], span), Precision::High))
        }
        "uaddCarry" | "usubBorrow" => {
            expect(
                x.ty.base() == Some(BaseType::Uint) && arg(1).ty == x.ty,
                name,
                "two uint values of one type",
                &values,
                span,
            )?;
            let (flag, op) = if name == "uaddCarry" {
                (Op::Carry, Op::Add)
            } else {
                (Op::Borrow, Op::Sub)
            };
            stores.push(fixed(
                same(flag, vec![x.clone(), arg(1)], span),
                Precision::Low,
            ));
            Some(fixed(same(op, vec![x, arg(1)], span), Precision::High))
        }
        _ => {
            let (base, wide, widen) = if name == "umulExtended" {
                (BaseType::Uint, BaseType::Uint64, Op::U2u64)
            } else {
                (BaseType::Int, BaseType::Int64, Op::I2i64)
            };
            expect(
                x.ty.base() == Some(base) && arg(1).ty == x.ty,
                name,
                "two values of one 32-bit integer type",
                &values,
                span,
            )?;
            let wty = x.ty.with_base(wide);
            let wa = op_node(widen, wty.clone(), vec![x.clone()], span);
            let wb = op_node(widen, wty.clone(), vec![arg(1)], span);
            let product = fixed(
                op_node(Op::Mul, wty.clone(), vec![wa, wb], span),
                Precision::High,
            );
            let t = a.temp("mul", wty.clone(), Precision::High, span);
            a.out.push(Stmt::Assign {
                lhs: a.var_ref(t, span),
                write_mask: full_mask(&wty),
                rhs: product,
                span,
            });
            let shift = constant(
                ConstValue::Components(vec![Scalar::Int(32)]),
                Type::int(),
                span,
            );
            let high = op_node(
                Op::Rshift,
                wty.clone(),
                vec![a.var_ref(t, span), shift],
                span,
            );
            let narrow = if base == BaseType::Uint {
                Op::U2u
            } else {
                Op::I2i
            };
            stores.push(fixed(
                op_node(narrow, x.ty.clone(), vec![high], span),
                Precision::High,
            ));
            stores.push(fixed(
                op_node(narrow, x.ty.clone(), vec![a.var_ref(t, span)], span),
                Precision::High,
            ));
            None
        }
    };
    for ((target, mask), value) in targets.into_iter().zip(stores) {
        let value = convert_to_target(value, &a.read_lvalue(&target, &mask).ty, span);
        a.store(target, mask, value, span);
    }
    Ok(Some(result.unwrap_or_else(|| {
        constant(ConstValue::Components(vec![]), Type::Void, span)
    })))
}

fn convert_to_target(value: Expr, ty: &Type, span: Span) -> Expr {
    match ty.base() {
        Some(b) if value.ty.base() != Some(b) => convert(value, b, span),
        _ => value,
    }
}

/// Built-ins without an operation: image, atomic, barrier and the rarer math functions.
fn intrinsic(
    a: &mut Analyzer<'_>,
    name: &str,
    args: Vec<Expr>,
    span: Span,
) -> Result<Option<Expr>> {
    let first = args.first().map(|x| x.ty.clone()).unwrap_or(Type::Void);
    let (ty, precision) = match name {
        "asin" | "acos" | "sinh" | "cosh" | "tanh" | "asinh" | "acosh" | "atanh" | "isinf"
        | "refract" | "matrixCompMult" | "transpose" | "inverse" | "determinant"
        | "outerProduct" => {
            let ty = match name {
                "isinf" => first.with_base(BaseType::Bool),
                "determinant" => Type::float(),
                "transpose" => match first {
                    Type::Numeric {
                        base,
                        rows,
                        columns,
                    } => Type::matrix(base, rows, columns),
                    other => other,
                },
                "outerProduct" => {
                    let rows = first.vector_size();
                    let cols = args.get(1).map_or(0, |b| b.ty.vector_size());
                    Type::matrix(BaseType::Float, cols, rows)
                }
                _ => first.clone(),
            };
            if args.is_empty() || !args.iter().all(|x| x.ty.base() == Some(BaseType::Float)) {
                return error(span, format!("expected float arguments to '{name}'"));
            }
            (ty, combine(args.iter().map(|x| x.precision)))
        }
        "imageLoad" => {
            let Some(Type::Image { kind, .. }) = args.first().map(|x| x.ty.without_array().clone())
            else {
                return error(
                    span,
                    "expected an image as the first argument of 'imageLoad'",
                );
            };
            let precision = args.first().map_or(Precision::High, |x| x.precision);
            (Type::vector(super::types::base_of(kind), 4), precision)
        }
        "textureSamplesIdenticalEXT" => (Type::bool(), Precision::None),
        "imageSize" => {
            let Some(Type::Image { dim, .. }) = args.first().map(|x| x.ty.without_array().clone())
            else {
                return error(span, "expected an image as the argument of 'imageSize'");
            };
            (
                Type::vector(BaseType::Int, texture::size_components(dim, false)),
                Precision::High,
            )
        }
        n if n.starts_with("imageAtomic") || n.starts_with("atomic") => {
            let ty = args
                .get(if n.starts_with("atomicCounter") { 0 } else { 1 })
                .map_or(Type::uint(), |x| match x.ty {
                    Type::AtomicUint => Type::uint(),
                    _ => x.ty.clone(),
                });
            let ty = if n.starts_with("imageAtomic") {
                args.get(2).map_or(Type::uint(), |x| x.ty.clone())
            } else {
                ty
            };
            (ty, Precision::High)
        }
        "imageStore"
        | "barrier"
        | "memoryBarrier"
        | "memoryBarrierAtomicCounter"
        | "memoryBarrierBuffer"
        | "memoryBarrierImage"
        | "memoryBarrierShared"
        | "groupMemoryBarrier"
        | "EmitVertex"
        | "EndPrimitive" => {
            a.out.push(Stmt::Intrinsic {
                name: name.to_owned(),
                args,
                span,
            });
            return Ok(Some(constant(
                ConstValue::Components(vec![]),
                Type::Void,
                span,
            )));
        }
        _ => return Ok(None),
    };
    Ok(Some(Expr::new(
        ExprKind::Intrinsic(name.to_owned(), args),
        ty,
        precision,
        span,
    )))
}
