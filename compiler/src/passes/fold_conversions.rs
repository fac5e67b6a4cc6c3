//! Folding of redundant precision conversions, after the lowering pass.
//!
//! The rule: `f2fmp(f162f(x))` (and the integer forms) is `x`, exactly. `f162f(f2fmp(x))`
//! is `x` too in GLSL ES, where a mediump value may be kept at higher precision: this is
//! not lossless, and GLES is the only place it is allowed. A conversion of a constant is
//! the converted constant (binary32 to binary16 rounds to nearest even).

use super::walk;
use crate::ir::{Expr, ExprKind, Module, Op, Stmt};

/// Folds the conversions of `module` in place.
pub fn run(module: &mut Module) {
    walk::blocks(module, &mut |block, _| {
        for stmt in block.iter_mut() {
            stmt_exprs(stmt, &mut fold_tree);
        }
    });
}

/// Calls `f` on every expression tree of `stmt` (not of its nested blocks).
pub(crate) fn stmt_exprs(stmt: &mut Stmt, f: &mut dyn FnMut(&mut Expr)) {
    match stmt {
        Stmt::Assign { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        Stmt::If { condition, .. } => f(condition),
        Stmt::Return { value: Some(v), .. } => f(v),
        Stmt::Call { args, result, .. } => {
            args.iter_mut().for_each(&mut *f);
            if let Some(r) = result {
                f(r);
            }
        }
        Stmt::Intrinsic { args, .. } => args.iter_mut().for_each(f),
        _ => {}
    }
}

/// Calls `f` on every direct child expression of `e`.
pub(crate) fn children(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match &mut e.kind {
        ExprKind::Op(_, operands) | ExprKind::Intrinsic(_, operands) => {
            operands.iter_mut().for_each(f)
        }
        ExprKind::Swizzle(base, _) | ExprKind::Field(base, _) => f(base),
        ExprKind::Index(base, index) => {
            f(base);
            f(index);
        }
        ExprKind::Texture(t) => {
            f(&mut t.sampler);
            for x in [
                &mut t.coordinate,
                &mut t.projector,
                &mut t.shadow_comparator,
                &mut t.offset,
                &mut t.lod,
            ]
            .into_iter()
            .flatten()
            {
                f(x);
            }
            if let Some((dx, dy)) = &mut t.gradient {
                f(dx);
                f(dy);
            }
        }
        ExprKind::Constant { .. } | ExprKind::Var(_) => {}
    }
}

fn is_down(op: Op) -> bool {
    matches!(op, Op::F2fmp | Op::I2imp | Op::U2ump)
}

fn is_up(op: Op) -> bool {
    matches!(op, Op::F162f | Op::I2i | Op::U2u)
}

fn fold_tree(e: &mut Expr) {
    children(e, &mut fold_tree);
    let ExprKind::Op(op, operands) = &mut e.kind else {
        return;
    };
    let op = *op;
    if !(is_down(op) || is_up(op)) || operands.len() != 1 {
        return;
    }
    let Some(inner) = operands.pop() else {
        return;
    };
    let folded = match &inner.kind {
        ExprKind::Constant { value, .. } => match e.ty.base() {
            Some(base) if !e.ty.is_array() => Some(Expr {
                kind: ExprKind::Constant {
                    value: value.convert(base),
                    literal: None,
                    folded: None,
                },
                ..inner.clone()
            }),
            _ => None,
        },
        ExprKind::Op(inner_op, inner_operands)
            if (is_up(op) && is_down(*inner_op)) || (is_down(op) && is_up(*inner_op)) =>
        {
            inner_operands.first().filter(|x| x.ty == e.ty).cloned()
        }
        _ => None,
    };
    match folded {
        Some(mut f) => {
            f.ty = e.ty.clone();
            *e = f;
        }
        None => operands.push(inner),
    }
}
