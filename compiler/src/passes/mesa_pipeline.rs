//! What Mesa's pipeline does after `lower_precision`, as measured on llvmpipe (Mesa 22.3).
//!
//! The rule (the "lone operation" rule): a 16-bit tree that holds a single operation, all of
//! whose sources are 32-bit values converted down (uniforms, varyings, highp results: not
//! literals, texels or 16-bit variables), runs in binary32. `fract(a)`, `a > c` and
//! `sin(x) * k` with highp `k` stay 32-bit; `a - b` does not, because Mesa splits it into
//! an add and a negate, two operations. NIR folds the `f2f16`/`f2f32` pair around such an
//! operation away, leaving a 32-bit operation.

use super::fold_conversions::{children, stmt_exprs};
use super::walk;
use crate::ir::{BaseType, Expr, ExprKind, Module, Op, Stmt};

/// Applies the rule to `module` in place.
pub fn run(module: &mut Module) {
    walk::blocks(module, &mut |block, _| {
        for stmt in block.iter_mut() {
            // A lone operation stored straight into a 16-bit variable: computed at 32 bits,
            // rounded once by the store.
            if let Stmt::Assign { rhs, .. } = stmt {
                if is_16(rhs) && region(rhs) == Some(1) {
                    let taken = std::mem::replace(rhs, super::lower_precision::placeholder());
                    *rhs = super::lower_precision::convert(widen(taken), false);
                    continue;
                }
            }
            stmt_exprs(stmt, &mut rewrite);
        }
    });
}

fn is_16(e: &Expr) -> bool {
    e.ty.base().is_some_and(|b| b.bit_size() == 16)
}

fn is_down(op: Op) -> bool {
    matches!(op, Op::F2fmp | Op::I2imp | Op::U2ump)
}

/// Counts the operations of a 16-bit region and whether every leaf is a converted 32-bit
/// value; `None` when something else (a constant, a texel, a 16-bit variable) is a leaf.
fn region(e: &Expr) -> Option<u32> {
    match &e.kind {
        ExprKind::Op(op, operands) if is_down(*op) => {
            operands.first().filter(|x| !is_16(x)).map(|_| 0)
        }
        ExprKind::Op(op, operands) => {
            let mut n = match op {
                Op::Sub => 2,
                Op::B2f16 | Op::F162b => 0,
                _ => 1,
            };
            for o in operands {
                n += region(o)?;
            }
            Some(n)
        }
        ExprKind::Swizzle(base, _) => region(base),
        _ => None,
    }
}

/// The region rebuilt at 32 bits: conversions down removed, types widened.
fn widen(e: Expr) -> Expr {
    match e.kind {
        ExprKind::Op(op, mut operands) if is_down(op) => operands
            .pop()
            .unwrap_or_else(super::lower_precision::placeholder),
        ExprKind::Op(op, operands) => {
            let operands: Vec<Expr> = operands.into_iter().map(widen).collect();
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
            let base = widen(*base);
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

fn rewrite(e: &mut Expr) {
    // The root of a region: a conversion up, or a comparison of 16-bit values.
    let lone = match &e.kind {
        ExprKind::Op(Op::F162f | Op::I2i | Op::U2u, operands) => {
            operands.first().filter(|x| is_16(x)).and_then(region) == Some(1)
        }
        ExprKind::Op(_, operands)
            if e.ty.base() == Some(BaseType::Bool) && operands.iter().any(is_16) =>
        {
            region(e) == Some(1)
        }
        _ => false,
    };
    if lone {
        let taken = std::mem::replace(e, super::lower_precision::placeholder());
        *e = match taken.kind {
            ExprKind::Op(Op::F162f | Op::I2i | Op::U2u, mut operands) => widen(
                operands
                    .pop()
                    .unwrap_or_else(super::lower_precision::placeholder),
            ),
            kind => widen(Expr { kind, ..taken }),
        };
        return;
    }
    children(e, &mut rewrite);
}
