//! Constant folding: operations whose operands are all constants become constants, computed
//! in binary32 (and 32-bit integers) as Mesa folds them. Only what the language needs
//! (array sizes, `const` initializers) and what Mesa folds before printing is covered; an
//! operation this module does not know stays an operation.

use crate::ir::{BaseType, ConstValue, Expr, ExprKind, Op, Scalar, Type};

/// `e` with its operation folded when every operand is a constant. A float constant folded
/// from an operation keeps it (`folded`): a driver may fold it otherwise, at the precision the
/// rules give its context (mediump rounds even `+ - *`), or with another allowance.
pub fn fold(e: Expr) -> Expr {
    let keeps_operation = match &e.kind {
        ExprKind::Op(_, operands) => {
            e.ty.base().is_some_and(|b| b.is_float()) || operands.iter().any(has_folded_operation)
        }
        ExprKind::Swizzle(base, _) => has_folded_operation(base),
        _ => false,
    };
    let value = match &e.kind {
        ExprKind::Op(op, operands) => {
            let values: Option<Vec<&ConstValue>> = operands.iter().map(Expr::constant).collect();
            values.and_then(|v| fold_op(*op, &e.ty, &v, operands))
        }
        ExprKind::Swizzle(base, comps) => base.constant().and_then(|v| {
            let c = v.components();
            comps
                .iter()
                .map(|&i| c.get(usize::from(i)).copied())
                .collect::<Option<Vec<_>>>()
                .map(ConstValue::Components)
        }),
        _ => None,
    };
    match value {
        Some(value) => {
            let folded = keeps_operation.then(|| Box::new(e.clone()));
            Expr {
                kind: ExprKind::Constant {
                    value,
                    literal: None,
                    folded,
                },
                ..e
            }
        }
        None => e,
    }
}

/// Whether `e` is a constant folded from an operation.
fn has_folded_operation(e: &Expr) -> bool {
    matches!(
        &e.kind,
        ExprKind::Constant {
            folded: Some(_),
            ..
        }
    )
}

/// Component `i` of a numeric constant, repeating a scalar.
fn comp(v: &ConstValue, i: usize) -> Option<Scalar> {
    let c = v.components();
    if c.len() == 1 {
        c.first().copied()
    } else {
        c.get(i).copied()
    }
}

fn fold_op(op: Op, ty: &Type, values: &[&ConstValue], operands: &[Expr]) -> Option<ConstValue> {
    let base = ty.base()?;
    if op == Op::Mul && operands.iter().any(|o| o.ty.is_matrix()) {
        return None;
    }
    match op {
        Op::Dot => {
            let (a, b) = (values.first()?, values.get(1)?);
            let n = a.components().len();
            let mut sum = 0.0f32;
            for i in 0..n {
                sum += comp(a, i)?.to_f64() as f32 * comp(b, i)?.to_f64() as f32;
            }
            return Some(ConstValue::Components(vec![Scalar::Float(sum)]));
        }
        Op::AllEqual | Op::AnyNequal => {
            let equal = values.first()? == values.get(1)?;
            let r = if op == Op::AllEqual { equal } else { !equal };
            return Some(ConstValue::Components(vec![Scalar::Bool(r)]));
        }
        _ => {}
    }
    let n = ty.components() as usize;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let args: Option<Vec<Scalar>> = values.iter().map(|v| comp(v, i)).collect();
        out.push(component(op, base, &args?)?);
    }
    Some(ConstValue::Components(out))
}

fn component(op: Op, base: BaseType, args: &[Scalar]) -> Option<Scalar> {
    use Scalar as S;
    let a = *args.first()?;
    if op.arity() == 1 {
        return Some(match (op, a) {
            (Op::Neg, S::Float(x)) => S::Float(-x),
            (Op::Neg, S::Int(x)) => S::Int(x.wrapping_neg()),
            (Op::Neg, S::Uint(x)) => S::Uint(x.wrapping_neg()),
            (Op::LogicNot, S::Bool(x)) => S::Bool(!x),
            (Op::BitNot, S::Int(x)) => S::Int(!x),
            (Op::BitNot, S::Uint(x)) => S::Uint(!x),
            (Op::Abs, S::Float(x)) => S::Float(x.abs()),
            (Op::Abs, S::Int(x)) => S::Int(x.wrapping_abs()),
            (Op::Sqrt, S::Float(x)) => S::Float(x.sqrt()),
            (Op::Floor, S::Float(x)) => S::Float(x.floor()),
            (Op::Ceil, S::Float(x)) => S::Float(x.ceil()),
            (Op::Trunc, S::Float(x)) => S::Float(x.trunc()),
            (Op::Fract, S::Float(x)) => S::Float(x - x.floor()),
            (Op::Rcp, S::Float(x)) => S::Float(1.0 / x),
            (Op::Rsq, S::Float(x)) => S::Float(1.0 / x.sqrt()),
            (Op::Sin, S::Float(x)) => S::Float(x.sin()),
            (Op::Cos, S::Float(x)) => S::Float(x.cos()),
            (Op::Atan, S::Float(x)) => S::Float(x.atan()),
            (Op::Exp, S::Float(x)) => S::Float(x.exp()),
            (Op::Log, S::Float(x)) => S::Float(x.ln()),
            (Op::Exp2, S::Float(x)) => S::Float(x.exp2()),
            (Op::Log2, S::Float(x)) => S::Float(x.log2()),
            (Op::RoundEven, S::Float(x)) => S::Float(x.round_ties_even()),
            (Op::Sign, S::Float(x)) => S::Float(if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                0.0
            }),
            (Op::Sign, S::Int(x)) => S::Int(x.signum()),
            (
                Op::F2i
                | Op::F2u
                | Op::I2f
                | Op::U2f
                | Op::B2f
                | Op::B2i
                | Op::I2b
                | Op::F2b
                | Op::I2u
                | Op::U2i,
                _,
            ) => a.convert(base),
            _ => return None,
        });
    }
    let b = *args.get(1)?;
    if op.arity() == 3 {
        let c = *args.get(2)?;
        return match (op, a) {
            (Op::Csel, S::Bool(x)) => Some(if x { b } else { c }),
            _ => None,
        };
    }
    Some(match (a, b) {
        (S::Float(x), S::Float(y)) => match op {
            Op::Add => S::Float(x + y),
            Op::Sub => S::Float(x - y),
            Op::Mul => S::Float(x * y),
            Op::Div => S::Float(x / y),
            Op::Min => S::Float(x.min(y)),
            Op::Max => S::Float(x.max(y)),
            Op::Pow => S::Float(x.powf(y)),
            Op::Atan2 => S::Float(x.atan2(y)),
            Op::Mod => S::Float(x - y * (x / y).floor()),
            Op::Less => S::Bool(x < y),
            Op::GreaterEqual => S::Bool(x >= y),
            Op::Equal => S::Bool(x == y),
            Op::NotEqual => S::Bool(x != y),
            _ => return None,
        },
        (S::Int(x), S::Int(y)) => int_op(op, i64::from(x), i64::from(y)).map(|r| match r {
            IntResult::Value(v) => S::Int(v as i32),
            IntResult::Bool(v) => S::Bool(v),
        })?,
        (S::Uint(x), S::Uint(y)) => int_op(op, i64::from(x), i64::from(y)).map(|r| match r {
            IntResult::Value(v) => S::Uint(v as u32),
            IntResult::Bool(v) => S::Bool(v),
        })?,
        (S::Int(x), S::Uint(y)) if matches!(op, Op::Lshift | Op::Rshift) => {
            shift(op, i64::from(x), y).map(|v| S::Int(v as i32))?
        }
        (S::Uint(x), S::Int(y)) if matches!(op, Op::Lshift | Op::Rshift) => {
            shift(op, i64::from(x), y as u32).map(|v| S::Uint(v as u32))?
        }
        (S::Bool(x), S::Bool(y)) => S::Bool(match op {
            Op::LogicAnd => x && y,
            Op::LogicOr => x || y,
            Op::LogicXor | Op::NotEqual => x != y,
            Op::Equal => x == y,
            _ => return None,
        }),
        _ => return None,
    })
}

enum IntResult {
    Value(i64),
    Bool(bool),
}

fn shift(op: Op, x: i64, y: u32) -> Option<i64> {
    if y >= 32 {
        return None;
    }
    Some(if op == Op::Lshift { x << y } else { x >> y })
}

fn int_op(op: Op, x: i64, y: i64) -> Option<IntResult> {
    use IntResult::{Bool, Value};
    Some(match op {
        Op::Add => Value(x.wrapping_add(y)),
        Op::Sub => Value(x.wrapping_sub(y)),
        Op::Mul => Value(x.wrapping_mul(y)),
        Op::Div if y != 0 => Value(x / y),
        Op::Mod if y != 0 => Value(x % y),
        Op::Min => Value(x.min(y)),
        Op::Max => Value(x.max(y)),
        Op::BitAnd => Value(x & y),
        Op::BitOr => Value(x | y),
        Op::BitXor => Value(x ^ y),
        Op::Lshift | Op::Rshift => Value(shift(op, x, u32::try_from(y).ok()?)?),
        Op::Less => Bool(x < y),
        Op::GreaterEqual => Bool(x >= y),
        Op::Equal => Bool(x == y),
        Op::NotEqual => Bool(x != y),
        _ => return None,
    })
}
