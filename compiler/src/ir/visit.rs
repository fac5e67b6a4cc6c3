//! Read-only traversal of every expression of a module, parents before their operands.

use super::{Block, Expr, ExprKind, Module, Stmt};

/// Calls `f` on every expression node of `module` (global initialisers and function bodies),
/// each node before its operands.
pub fn exprs(module: &Module, f: &mut dyn FnMut(&Expr)) {
    block(&module.globals, f);
    for function in &module.functions {
        if let Some(body) = &function.body {
            block(body, f);
        }
    }
}

/// Calls `f` on every expression node of block `b`, nested blocks included, each node before
/// its operands.
pub fn block(b: &Block, f: &mut dyn FnMut(&Expr)) {
    for stmt in b {
        match stmt {
            Stmt::Declare(_) | Stmt::Break | Stmt::Continue | Stmt::Discard { .. } => {}
            Stmt::Assign { lhs, rhs, .. } => {
                expr(lhs, f);
                expr(rhs, f);
            }
            Stmt::If {
                condition,
                then,
                otherwise,
                ..
            } => {
                expr(condition, f);
                block(then, f);
                block(otherwise, f);
            }
            Stmt::Loop { body, .. } => block(body, f),
            Stmt::Return { value, .. } => value.iter().for_each(|v| expr(v, f)),
            Stmt::Call { args, result, .. } => args.iter().chain(result).for_each(|a| expr(a, f)),
            Stmt::Intrinsic { args, .. } => args.iter().for_each(|a| expr(a, f)),
        }
    }
}

/// Calls `f` on `e` and every expression node below it, each node before its operands.
pub fn expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Constant { .. } | ExprKind::Var(_) => {}
        ExprKind::Index(a, b) => {
            expr(a, f);
            expr(b, f);
        }
        ExprKind::Field(a, _) | ExprKind::Swizzle(a, _) => expr(a, f),
        ExprKind::Op(_, operands) | ExprKind::Intrinsic(_, operands) => {
            operands.iter().for_each(|o| expr(o, f));
        }
        ExprKind::Texture(t) => t.operands().for_each(|p| expr(p, f)),
    }
}
