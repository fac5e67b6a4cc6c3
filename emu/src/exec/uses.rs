//! Which variables a module reads or writes anywhere, so a host sets only the inputs a shader
//! uses (building `gl_FragCoord` for every fragment of a shader that never reads it is waste).

use halfcheck_compiler::ir::{Block, Expr, ExprKind, Module, Stmt};

/// `used[i]` is true when variable `i` appears anywhere in `module`'s code.
pub fn used_variables(module: &Module) -> Vec<bool> {
    let mut used = vec![false; module.variables.len()];
    block(&module.globals, &mut used);
    for f in &module.functions {
        for p in &f.params {
            mark(p.0 as usize, &mut used);
        }
        if let Some(body) = &f.body {
            block(body, &mut used);
        }
    }
    used
}

fn mark(i: usize, used: &mut [bool]) {
    if let Some(slot) = used.get_mut(i) {
        *slot = true;
    }
}

fn block(b: &Block, used: &mut [bool]) {
    for s in b {
        match s {
            Stmt::Declare(_) | Stmt::Break | Stmt::Continue | Stmt::Discard { .. } => {}
            Stmt::Assign { lhs, rhs, .. } => {
                expr(lhs, used);
                expr(rhs, used);
            }
            Stmt::If {
                condition,
                then,
                otherwise,
                ..
            } => {
                expr(condition, used);
                block(then, used);
                block(otherwise, used);
            }
            Stmt::Loop { body, .. } => block(body, used),
            Stmt::Return { value, .. } => value.iter().for_each(|v| expr(v, used)),
            Stmt::Call { args, result, .. } => {
                args.iter().chain(result).for_each(|a| expr(a, used));
            }
            Stmt::Intrinsic { args, .. } => args.iter().for_each(|a| expr(a, used)),
        }
    }
}

fn expr(e: &Expr, used: &mut [bool]) {
    match &e.kind {
        ExprKind::Constant { .. } => {}
        ExprKind::Var(id) => mark(id.0 as usize, used),
        ExprKind::Index(a, b) => {
            expr(a, used);
            expr(b, used);
        }
        ExprKind::Field(a, _) | ExprKind::Swizzle(a, _) => expr(a, used),
        ExprKind::Op(_, operands) | ExprKind::Intrinsic(_, operands) => {
            operands.iter().for_each(|o| expr(o, used));
        }
        ExprKind::Texture(t) => t.operands().for_each(|p| expr(p, used)),
    }
}
