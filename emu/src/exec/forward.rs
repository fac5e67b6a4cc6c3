//! Local float scalars and vectors assigned once, at the top level of `main`, from values
//! that cannot change afterwards (uniforms, inputs, and locals of any type written once
//! before). A driver's compiler sees through them (its IR is SSA), so a sum or product that
//! reads one may be reassociated with the one the variable holds: `h = (u + 65536.0) -
//! 65536.0; (h + a) + b` may add `b` to `65536.0` first, and `p = s.x * s.y; p * k` may
//! multiply `s.y * k` first. [`ranges`](super::ranges) expands them in sums and products.

use halfcheck_compiler::ir::{BaseType, Block, Expr, ExprKind, Module, Stmt, VarId, VarMode};
use std::collections::{HashMap, HashSet};

/// The expression each such variable holds.
pub(super) fn single_assignments(module: &Module) -> HashMap<VarId, Expr> {
    let mut writes = vec![0u32; module.variables.len()];
    count_writes(&module.globals, &mut writes);
    for function in &module.functions {
        if let Some(body) = &function.body {
            count_writes(body, &mut writes);
        }
    }
    let mut held = HashMap::new();
    // Locals of any type written once, by a statement already passed: their value stays.
    let mut settled = HashSet::new();
    let Some(body) = module.main().and_then(|f| module.function(f).body.as_ref()) else {
        return held;
    };
    for stmt in body {
        let Stmt::Assign { lhs, rhs, .. } = stmt else {
            continue;
        };
        let ExprKind::Var(id) = lhs.kind else {
            continue;
        };
        let var = module.var(id);
        let local = matches!(var.mode, VarMode::Auto | VarMode::Temporary);
        let float = (lhs.ty.is_scalar() || lhs.ty.is_vector())
            && lhs.ty.base().is_some_and(BaseType::is_float);
        let once = writes.get(id.0 as usize) == Some(&1);
        let fixed = Fixed {
            module,
            held: &held,
            settled: &settled,
        };
        if local && float && once && fixed.reads_only_fixed(rhs) {
            held.insert(id, rhs.clone());
        }
        if local && once {
            settled.insert(id);
        }
    }
    held
}

/// What holds one value for the rest of the run once `main` has passed its statement.
struct Fixed<'a> {
    module: &'a Module,
    /// The variables forwarded so far.
    held: &'a HashMap<VarId, Expr>,
    /// Locals written once, already.
    settled: &'a HashSet<VarId>,
}

impl Fixed<'_> {
    /// Whether every variable `e` reads holds one value for the rest of the run: a uniform,
    /// an input, a system value, a variable already forwarded, or a local written once
    /// already.
    fn reads_only_fixed(&self, e: &Expr) -> bool {
        let fixed = |id: VarId| {
            self.held.contains_key(&id)
                || self.settled.contains(&id)
                || matches!(
                    self.module.var(id).mode,
                    VarMode::Uniform | VarMode::ShaderIn | VarMode::SystemValue
                )
        };
        match &e.kind {
            ExprKind::Var(id) => fixed(*id),
            ExprKind::Constant { .. } => true,
            ExprKind::Field(base, _) | ExprKind::Swizzle(base, _) => self.reads_only_fixed(base),
            ExprKind::Index(base, index) => {
                self.reads_only_fixed(base) && self.reads_only_fixed(index)
            }
            ExprKind::Op(_, operands) => operands.iter().all(|o| self.reads_only_fixed(o)),
            // Built-ins with `out` arguments, images, atomics and textures: never forwarded.
            ExprKind::Intrinsic(..) | ExprKind::Texture(_) => false,
        }
    }
}

/// Counts, per variable, the statements that may write it: assignments, and every variable
/// passed to a function or a built-in (an `out` argument, conservatively).
fn count_writes(block: &Block, writes: &mut [u32]) {
    for stmt in block {
        match stmt {
            Stmt::Assign { lhs, rhs, .. } => {
                mark(lhs, writes);
                passed(rhs, writes);
            }
            Stmt::If {
                condition,
                then,
                otherwise,
                ..
            } => {
                passed(condition, writes);
                count_writes(then, writes);
                count_writes(otherwise, writes);
            }
            Stmt::Loop { body, .. } => count_writes(body, writes),
            Stmt::Call { args, result, .. } => {
                for arg in args {
                    mark(arg, writes);
                    passed(arg, writes);
                }
                if let Some(result) = result {
                    mark(result, writes);
                }
            }
            Stmt::Return {
                value: Some(value), ..
            } => passed(value, writes),
            Stmt::Intrinsic { args, .. } => {
                for arg in args {
                    mark(arg, writes);
                    passed(arg, writes);
                }
            }
            _ => {}
        }
    }
}

/// Marks the variable an lvalue (or an argument) names, through indices, fields and swizzles.
fn mark(e: &Expr, writes: &mut [u32]) {
    match &e.kind {
        ExprKind::Var(id) => {
            if let Some(count) = writes.get_mut(id.0 as usize) {
                *count = count.saturating_add(1);
            }
        }
        ExprKind::Field(base, _) | ExprKind::Swizzle(base, _) | ExprKind::Index(base, _) => {
            mark(base, writes)
        }
        _ => {}
    }
}

/// Marks every variable passed to a built-in inside `e`.
fn passed(e: &Expr, writes: &mut [u32]) {
    match &e.kind {
        ExprKind::Intrinsic(_, args) => {
            for arg in args {
                mark(arg, writes);
                passed(arg, writes);
            }
        }
        ExprKind::Field(base, _) | ExprKind::Swizzle(base, _) => passed(base, writes),
        ExprKind::Index(base, index) => {
            passed(base, writes);
            passed(index, writes);
        }
        ExprKind::Op(_, operands) => operands.iter().for_each(|o| passed(o, writes)),
        ExprKind::Texture(t) => t.operands().for_each(|o| passed(o, writes)),
        ExprKind::Var(_) | ExprKind::Constant { .. } => {}
    }
}
