//! 16-bit regions of an expression, as Mesa's late passes see them: which nodes are 16-bit,
//! how many operations a region holds, and the region rebuilt at 32 bits. Shared by
//! `mesa_pipeline` and `lone_derivative`.

use crate::ir::build::{convert, placeholder};
use crate::ir::{BaseType, Expr, ExprKind, Op};

/// Whether `e` has a 16-bit type.
pub(super) fn is_16(e: &Expr) -> bool {
    e.ty.base().is_some_and(|b| b.bit_size() == 16)
}

/// Whether `op` converts a 32-bit value down to 16 bits.
pub(super) fn is_down(op: Op) -> bool {
    matches!(op, Op::F2fmp | Op::I2imp | Op::U2ump)
}

/// How many operations Mesa makes of `op` on `operands`: a subtraction is an add and a
/// negate, `mod` several, a `dot` of vectors or a matrix product a sum of products, the
/// bool conversions none.
pub(super) fn operation_weight(op: Op, operands: &[Expr]) -> u32 {
    let matrix =
        operands.iter().any(|o| o.ty.is_matrix()) && operands.iter().all(|o| !o.ty.is_scalar());
    let vectors = operands.iter().any(|o| o.ty.vector_size() > 1);
    match op {
        Op::Sub | Op::Mod => 2,
        Op::Dot if vectors => 2,
        Op::Mul if matrix => 2,
        Op::B2f16 | Op::F162b => 0,
        _ => 1,
    }
}

/// The region rebuilt at 32 bits, types widened; its leaves (conversions down, 16-bit
/// variables) lose their conversion, or when `rounded` keep it and are converted back up.
pub(super) fn widen(e: Expr, rounded: bool) -> Expr {
    let leaf = match &e.kind {
        ExprKind::Op(op, _) => is_down(*op),
        ExprKind::Swizzle(..) | ExprKind::Var(_) => true,
        _ => false,
    };
    if rounded && leaf && is_16(&e) {
        return convert(e, true);
    }
    match e.kind {
        ExprKind::Op(op, mut operands) if is_down(op) => operands.pop().unwrap_or_else(placeholder),
        ExprKind::Op(op, operands) => {
            let operands: Vec<Expr> = operands.into_iter().map(|o| widen(o, rounded)).collect();
            let op = match op {
                Op::B2f16 => Op::B2f,
                Op::F162b => Op::F2b,
                other => other,
            };
            let ty = match e.ty.base().and_then(BaseType::widened) {
                Some(b) => e.ty.with_base(b),
                None => e.ty,
            };
            Expr::new(ExprKind::Op(op, operands), ty, e.precision, e.span)
        }
        ExprKind::Swizzle(base, comps) => {
            let base = widen(*base, rounded);
            let ty = match e.ty.base().and_then(BaseType::widened) {
                Some(b) => e.ty.with_base(b),
                None => e.ty,
            };
            Expr::new(
                ExprKind::Swizzle(Box::new(base), comps),
                ty,
                e.precision,
                e.span,
            )
        }
        kind => Expr { kind, ..e },
    }
}
