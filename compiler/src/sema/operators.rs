//! Unary and binary operators: GLSL ES type rules and the Mesa operation each becomes.
//!
//! Arithmetic takes two operands of the same base type: scalar with scalar, vector or matrix,
//! or equal shapes; `*` also multiplies matrices and vectors linearly. Comparisons `< > <= >=`
//! take scalars; `==`/`!=` any equal types (one bool, through `all_equal`/`any_nequal`).
//! `a > b` becomes `b < a` and `a <= b` becomes `b >= a`, as in Mesa.

use super::precision::combine;
use super::{error, Result};
use crate::ast::BinaryOp;
use crate::ir::fold::fold;
use crate::ir::{BaseType, Expr, ExprKind, Op, Type};
use crate::span::Span;

/// An operation node, folded when every operand is constant.
pub(crate) fn op_node(op: Op, ty: Type, operands: Vec<Expr>, span: Span) -> Expr {
    let precision = combine(operands.iter().map(|o| o.precision));
    let e = Expr::new(ExprKind::Op(op, operands), ty, precision, span);
    fold(e)
}

/// `value` converted to base type `to` (same shape), as a constructor converts.
pub(crate) fn convert(value: Expr, to: BaseType, span: Span) -> Expr {
    let Some(from) = value.ty.base() else {
        return value;
    };
    if from == to {
        return value;
    }
    let ty = value.ty.with_base(to);
    let op = match (from, to) {
        (BaseType::Int, BaseType::Float) => Op::I2f,
        (BaseType::Uint, BaseType::Float) => Op::U2f,
        (BaseType::Bool, BaseType::Float) => Op::B2f,
        (BaseType::Float, BaseType::Int) => Op::F2i,
        (BaseType::Uint, BaseType::Int) => Op::U2i,
        (BaseType::Bool, BaseType::Int) => Op::B2i,
        (BaseType::Float, BaseType::Uint) => Op::F2u,
        (BaseType::Int, BaseType::Uint) => Op::I2u,
        (BaseType::Bool, BaseType::Uint) => {
            let as_int = convert(value, BaseType::Int, span);
            return op_node(Op::I2u, ty, vec![as_int], span);
        }
        (BaseType::Float, BaseType::Bool) => Op::F2b,
        _ => Op::I2b,
    };
    op_node(op, ty, vec![value], span)
}

/// The shape of the result of an arithmetic operation, or `None` if the shapes do not match.
fn arithmetic_type(op: BinaryOp, a: &Type, b: &Type) -> Option<Type> {
    let (Type::Numeric { base: ba, .. }, Type::Numeric { base: bb, .. }) = (a, b) else {
        return None;
    };
    if ba != bb || *ba == BaseType::Bool {
        return None;
    }
    if op == BinaryOp::Mul && (a.is_matrix() || b.is_matrix()) {
        return matrix_product(a, b);
    }
    if a == b {
        Some(a.clone())
    } else if a.is_scalar() {
        Some(b.clone())
    } else if b.is_scalar() {
        Some(a.clone())
    } else {
        None
    }
}

fn matrix_product(a: &Type, b: &Type) -> Option<Type> {
    let (
        Type::Numeric {
            base,
            rows: ra,
            columns: ca,
        },
        Type::Numeric {
            rows: rb,
            columns: cb,
            ..
        },
    ) = (a, b)
    else {
        return None;
    };
    if a.is_scalar() {
        return Some(b.clone());
    }
    if b.is_scalar() {
        return Some(a.clone());
    }
    match (a.is_matrix(), b.is_matrix()) {
        // mat * mat: columns of a == rows of b.
        (true, true) if ca == rb => Some(Type::matrix(*base, *cb, *ra)),
        // mat * vec: vec has `columns of a` components.
        (true, false) if ca == rb => Some(Type::vector(*base, *ra)),
        // vec * mat: vec has `rows of b` components.
        (false, true) if ra == rb => Some(Type::vector(*base, *cb)),
        _ => None,
    }
}

/// Builds `a op b` with the type rules of GLSL ES.
pub(crate) fn binary(op: BinaryOp, a: Expr, b: Expr, span: Span) -> Result<Expr> {
    use BinaryOp as B;
    let mismatch = |what: &str| {
        error(
            span,
            format!(
                "expected {what} for '{}', found '{}' and '{}'",
                op.symbol(),
                a.ty.name(),
                b.ty.name()
            ),
        )
    };
    match op {
        B::Add | B::Sub | B::Mul | B::Div | B::Mod => {
            if a.ty.is_array() || b.ty.is_array() {
                return mismatch("non-array operands");
            }
            let Some(ty) = arithmetic_type(op, &a.ty, &b.ty) else {
                return mismatch("numeric operands of the same base type and matching sizes");
            };
            if op == B::Mod && !a.ty.base().is_some_and(BaseType::is_integer) {
                return mismatch("integer operands");
            }
            let mop = match op {
                B::Add => Op::Add,
                B::Sub => Op::Sub,
                B::Mul => Op::Mul,
                B::Div => Op::Div,
                _ => Op::Mod,
            };
            Ok(op_node(mop, ty, vec![a, b], span))
        }
        B::Less | B::Greater | B::LessEqual | B::GreaterEqual => {
            let numeric = a.ty.base().is_some_and(|t| t != BaseType::Bool);
            if !(a.ty.is_scalar() && a.ty == b.ty && numeric) {
                return mismatch("scalar int, uint or float operands of the same type");
            }
            let (mop, x, y) = match op {
                B::Less => (Op::Less, a, b),
                B::Greater => (Op::Less, b, a),
                B::LessEqual => (Op::GreaterEqual, b, a),
                _ => (Op::GreaterEqual, a, b),
            };
            Ok(op_node(mop, Type::bool(), vec![x, y], span))
        }
        B::Equal | B::NotEqual => {
            if a.ty != b.ty || a.ty.is_opaque() {
                return mismatch("operands of the same non-opaque type");
            }
            let mop = if a.ty.is_scalar() {
                if op == B::Equal {
                    Op::Equal
                } else {
                    Op::NotEqual
                }
            } else if op == B::Equal {
                Op::AllEqual
            } else {
                Op::AnyNequal
            };
            Ok(op_node(mop, Type::bool(), vec![a, b], span))
        }
        B::LogicalAnd | B::LogicalOr | B::LogicalXor => {
            if a.ty != Type::bool() || b.ty != Type::bool() {
                return mismatch("bool operands");
            }
            let mop = match op {
                B::LogicalAnd => Op::LogicAnd,
                B::LogicalOr => Op::LogicOr,
                _ => Op::LogicXor,
            };
            Ok(op_node(mop, Type::bool(), vec![a, b], span))
        }
        B::BitAnd | B::BitOr | B::BitXor => {
            let ints = a.ty.base().is_some_and(BaseType::is_integer) && a.ty.base() == b.ty.base();
            let ty = match (ints, a.ty.is_scalar(), b.ty.is_scalar()) {
                (true, _, true) => a.ty.clone(),
                (true, true, false) => b.ty.clone(),
                (true, false, false) if a.ty == b.ty => a.ty.clone(),
                _ => return mismatch("integer operands of the same base type"),
            };
            let mop = match op {
                B::BitAnd => Op::BitAnd,
                B::BitOr => Op::BitOr,
                _ => Op::BitXor,
            };
            Ok(op_node(mop, ty, vec![a, b], span))
        }
        B::Shl | B::Shr => {
            let ints = a.ty.base().is_some_and(BaseType::is_integer)
                && b.ty.base().is_some_and(BaseType::is_integer)
                && !a.ty.is_matrix()
                && (b.ty.is_scalar() || b.ty.components() == a.ty.components());
            if !ints {
                return mismatch("integer operands");
            }
            let mop = if op == B::Shl { Op::Lshift } else { Op::Rshift };
            let ty = a.ty.clone();
            Ok(op_node(mop, ty, vec![a, b], span))
        }
    }
}
