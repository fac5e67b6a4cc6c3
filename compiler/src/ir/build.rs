//! Builders the passes share: the width conversions Mesa's lowering inserts, array
//! indices, and a placeholder for moving a node into a wrapper.

use super::{BaseType, ConstValue, Expr, ExprKind, Op, Precision, Scalar, Type};

/// The conversion to 16 bits of a 32-bit value of base `base`.
pub fn down_op(base: BaseType) -> Option<Op> {
    match base {
        BaseType::Float => Some(Op::F2fmp),
        BaseType::Int => Some(Op::I2imp),
        BaseType::Uint => Some(Op::U2ump),
        _ => None,
    }
}

/// The conversion back to 32 bits of a 16-bit value of base `base`.
pub fn up_op(base: BaseType) -> Option<Op> {
    match base {
        BaseType::Float16 => Some(Op::F162f),
        BaseType::Int16 => Some(Op::I2i),
        BaseType::Uint16 => Some(Op::U2u),
        _ => None,
    }
}

/// `e` wrapped in a conversion to 16 bits (or back to 32 when `up`), if its type has one.
pub fn convert(e: Expr, up: bool) -> Expr {
    let Some(base) = e.ty.base().filter(|_| !e.ty.is_array()) else {
        return e;
    };
    let (op, new) = if up {
        match (up_op(base), base.widened()) {
            (Some(op), Some(new)) => (op, new),
            _ => return e,
        }
    } else {
        match (down_op(base), base.lowered()) {
            (Some(op), Some(new)) => (op, new),
            _ => return e,
        }
    };
    let ty = e.ty.with_base(new);
    let (precision, span) = (e.precision, e.span);
    Expr::new(ExprKind::Op(op, vec![e]), ty, precision, span)
}

/// A throwaway expression used while moving a node into a wrapper.
pub fn placeholder() -> Expr {
    Expr::new(
        ExprKind::Constant {
            value: ConstValue::Components(Vec::new()),
            literal: None,
            folded: None,
        },
        Type::Void,
        Precision::None,
        crate::Span::default(),
    )
}

/// An `int` constant `i` (an array index made by a pass).
pub fn index_const(i: u32) -> Expr {
    Expr::new(
        ExprKind::Constant {
            value: ConstValue::Components(vec![Scalar::Int(i32::try_from(i).unwrap_or(i32::MAX))]),
            literal: None,
            folded: None,
        },
        Type::int(),
        Precision::None,
        crate::Span::default(),
    )
}
