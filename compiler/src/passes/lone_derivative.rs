//! The derivative of a lone operation, as zink on lavapipe computes it (Mesa 22.3, measured).
//!
//! SPIR-V's derivatives take 32-bit operands only, so zink differentiates a 16-bit value at
//! 32 bits. Where the value is a 16-bit tree of one operation whose sources are 16-bit
//! values (32-bit values converted down, or 16-bit variables), the operation itself runs in
//! binary32 on those binary16 sources: its result is never rounded to binary16 before the
//! derivative reads it. Measured: with `mediump float c = gl_FragCoord.x` and a uniform `a`
//! of 0.3001, `dFdx(c * a)` is 0.30004883 (`a` rounded to binary16, times 1) on zink where
//! llvmpipe differentiates the binary16 products (0.3125); `dFdx(c * a + 0.5)` and
//! `dFdx(c * c * a)`, trees of two operations, are the same on both; the product written
//! out beside the derivative stays binary16.
//!
//! The operand may be a variable (`float p = c * a; dFdx(p)`): NIR differentiates the SSA
//! value the variable holds, so a local assigned once, from a lone operation whose variables
//! are themselves assigned at most once, is differentiated as that operation.
//!
//! A derivative that runs at 16 bits (`lowering.derivatives`) then reads the binary32
//! result and is rounded to binary16 after it. Profile choice `lowering.lone_op_derivative`.

use super::fold_conversions::{children, stmt_exprs};
use super::region::{is_16, is_down, operation_weight, widen};
use super::walk;
use crate::ir::build::{convert, placeholder};
use crate::ir::{BaseType, Expr, ExprKind, Module, Op, Stmt, VarId, VarMode};
use std::collections::HashMap;

/// The locals assigned exactly once as a whole, with that value, and how often every
/// variable is assigned.
#[derive(Default)]
struct Definitions {
    single: HashMap<VarId, Expr>,
    stores: HashMap<VarId, u32>,
}

impl Definitions {
    fn of(module: &mut Module) -> Definitions {
        let mut defs = Definitions::default();
        let mut values: HashMap<VarId, Expr> = HashMap::new();
        walk::blocks(module, &mut |block, _| {
            for stmt in block.iter() {
                match stmt {
                    Stmt::Assign { lhs, rhs, .. } => {
                        if let Some(v) = lhs.variable() {
                            // A partial store (a component, an element) counts twice: the
                            // variable then holds no one value.
                            let whole = matches!(lhs.kind, ExprKind::Var(_));
                            *defs.stores.entry(v).or_default() += if whole { 1 } else { 2 };
                            if whole {
                                values.insert(v, rhs.clone());
                            }
                        }
                    }
                    Stmt::Call { args, result, .. } => {
                        for a in args.iter().chain(result.iter()) {
                            if let Some(v) = a.variable() {
                                *defs.stores.entry(v).or_default() += 2;
                            }
                        }
                    }
                    _ => {}
                }
            }
        });
        for (v, value) in values {
            let local = matches!(module.var(v).mode, VarMode::Auto | VarMode::Temporary);
            if local && defs.stores.get(&v) == Some(&1) {
                defs.single.insert(v, value);
            }
        }
        defs
    }

    /// The lone operation `e` stands for: `e` itself, or the value of the local it reads.
    fn lone(&self, e: &Expr) -> Option<Expr> {
        let value = match &e.kind {
            ExprKind::Var(v) => self.single.get(v)?,
            _ => e,
        };
        let floats = value.ty.base().is_some_and(|b| b.is_float()) && is_16(value);
        (floats && self.operations(value) == Some(1)).then(|| value.clone())
    }

    /// The operations of a 16-bit tree whose leaves are 32-bit values converted down or
    /// 16-bit variables assigned at most once (through swizzles); `None` when another leaf
    /// (a constant, a texel, a variable assigned more often) is in it.
    fn operations(&self, e: &Expr) -> Option<u32> {
        match &e.kind {
            ExprKind::Op(op, operands) if is_down(*op) => {
                operands.first().filter(|x| !is_16(x)).map(|_| 0)
            }
            ExprKind::Op(op, operands) if is_16(e) => {
                let mut n = operation_weight(*op, operands);
                for o in operands {
                    n += self.operations(o)?;
                }
                Some(n)
            }
            ExprKind::Swizzle(base, _) => self.operations(base),
            ExprKind::Var(v) if is_16(e) && self.stores.get(v).copied().unwrap_or(0) <= 1 => {
                Some(0)
            }
            _ => None,
        }
    }
}

/// Rewrites the derivatives of lone operations in `module`.
pub fn run(module: &mut Module) {
    let defs = Definitions::of(module);
    walk::blocks(module, &mut |block, _| {
        for stmt in block.iter_mut() {
            stmt_exprs(stmt, &mut |e| rewrite(e, &defs));
        }
    });
}

fn rewrite(e: &mut Expr, defs: &Definitions) {
    children(e, &mut |c| rewrite(c, defs));
    let wide = !is_16(e);
    let ExprKind::Op(op, operands) = &mut e.kind else {
        return;
    };
    let op = *op;
    if !op.is_derivative() || operands.len() != 1 {
        return;
    }
    let Some(operand) = operands.first_mut() else {
        return;
    };
    // The 16-bit tree: under a conversion up for a 32-bit derivative, the operand itself
    // for a 16-bit one.
    let tree = if wide {
        match &operand.kind {
            ExprKind::Op(Op::F162f, inner) => inner.first().filter(|x| is_16(x)),
            _ => None,
        }
    } else {
        Some(&*operand)
    };
    let Some(value) = tree.and_then(|t| defs.lone(t)) else {
        return;
    };
    *operand = widen(value, true);
    if wide {
        return;
    }
    let taken = std::mem::replace(operand, placeholder());
    let derivative = Expr::new(
        ExprKind::Op(op, vec![taken]),
        e.ty.with_base(BaseType::Float),
        e.precision,
        e.span,
    );
    *e = convert(derivative, false);
}
