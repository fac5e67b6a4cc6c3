//! Precision of operations by the GLSL ES rules, and the two models halfcheck knows.
//!
//! GLSL ES 3.00 section 4.5.3: an operation's precision is the highest among its operands
//! that have one; constants have none. When no operand has one, the precision comes from the
//! consumer: the outer operation, or the lvalue of the assignment, the parameter it is passed
//! to, the function's return value. Mesa's `lower_precision` (and llvmpipe measurements)
//! never take the consumer's precision for a tree that has none: the `mesa` model.
//!
//! In the spec model the rule recurses through constructors: a constructor that is not a
//! constant fills a temporary, and when none of its arguments has a precision the temporary
//! waits (a *pending* temporary) for its own consumer (an outer operation, constructor,
//! lvalue, initialised variable, parameter or return value), whose precision it then takes
//! and lends to the arguments it was filled from.

use std::collections::HashSet;

use super::Analyzer;
use crate::ir::{Block, Expr, ExprKind, Model, Precision, Stmt, VarId};

/// The precision of an operation on operands of these precisions: the highest one.
pub fn combine(operands: impl IntoIterator<Item = Precision>) -> Precision {
    operands.into_iter().max().unwrap_or(Precision::None)
}

/// Gives `consumer` to every operation in `e` that has no precision (spec model). Index
/// expressions and texture arguments are separate trees with their own consumers; literals
/// keep none, but a constant folded from operations takes it (a driver may fold them at the
/// consumer's precision).
pub fn lend(e: &mut Expr, consumer: Precision) {
    if consumer == Precision::None || e.precision != Precision::None {
        return;
    }
    match &mut e.kind {
        ExprKind::Op(_, operands) => {
            e.precision = consumer;
            for o in operands {
                lend(o, consumer);
            }
        }
        // A component, column or element of a value: the value has the same consumer (its
        // index is a tree of its own).
        ExprKind::Swizzle(base, _) | ExprKind::Index(base, _) => {
            e.precision = consumer;
            lend(base, consumer);
        }
        ExprKind::Constant {
            folded: Some(operation),
            ..
        } => {
            e.precision = consumer;
            lend(operation, consumer);
        }
        _ => {}
    }
}

/// Finds the pending constructor temporaries that `e` reads where they are operands of its
/// tree (not index expressions or texture arguments), each with the precision of its consumer:
/// the operation that reads it when that has a precision, else `consumer`.
fn pending_reads(
    e: &mut Expr,
    consumer: Precision,
    pending: &HashSet<VarId>,
    found: &mut Vec<(VarId, Precision)>,
) {
    let here = if e.precision == Precision::None {
        consumer
    } else {
        e.precision
    };
    if here == Precision::None {
        return;
    }
    match &mut e.kind {
        ExprKind::Var(id) if pending.contains(id) => {
            e.precision = here;
            found.push((*id, here));
        }
        ExprKind::Op(_, operands) => {
            for o in operands {
                pending_reads(o, here, pending, found);
            }
        }
        ExprKind::Swizzle(base, _) | ExprKind::Index(base, _) => {
            pending_reads(base, here, pending, found);
            if e.precision == Precision::None {
                e.precision = here;
            }
        }
        _ => {}
    }
}

/// Gives precision `p` to the writes of temporary `id` in `block`: their destinations and,
/// by [`lend`], their values; collects the pending temporaries those values read.
fn resolve_writes(
    block: &mut Block,
    id: VarId,
    p: Precision,
    pending: &HashSet<VarId>,
    found: &mut Vec<(VarId, Precision)>,
) {
    for stmt in block.iter_mut() {
        match stmt {
            Stmt::Assign { lhs, rhs, .. } if lhs.variable() == Some(id) => {
                let mut target = Some(lhs);
                while let Some(t) = target {
                    if t.precision == Precision::None {
                        t.precision = p;
                    }
                    target = match &mut t.kind {
                        ExprKind::Index(base, _) | ExprKind::Swizzle(base, _) => Some(&mut **base),
                        _ => None,
                    };
                }
                lend(rhs, p);
                pending_reads(rhs, p, pending, found);
            }
            Stmt::If {
                then, otherwise, ..
            } => {
                resolve_writes(then, id, p, pending, found);
                resolve_writes(otherwise, id, p, pending, found);
            }
            Stmt::Loop { body, .. } => resolve_writes(body, id, p, pending, found),
            _ => {}
        }
    }
}

impl Analyzer<'_> {
    /// Spec model: gives `consumer` to `e` as [`lend`] does and, recursively, to the
    /// constructors `e` reads that are still waiting for a precision (and to their
    /// arguments). Does nothing in the mesa model.
    pub(crate) fn lend_consumer(&mut self, e: &mut Expr, consumer: Precision) {
        if self.model != Model::Spec {
            return;
        }
        lend(e, consumer);
        let mut found = Vec::new();
        pending_reads(e, consumer, &self.pending_ctors, &mut found);
        while let Some((id, p)) = found.pop() {
            if !self.pending_ctors.remove(&id) {
                continue;
            }
            self.module.var_mut(id).precision = p;
            resolve_writes(&mut self.out, id, p, &self.pending_ctors, &mut found);
        }
    }

    /// Spec model: a constructor temporary `id` of precision `precision` (from its
    /// arguments). With one, its arguments `args` take it; without, it waits for its consumer.
    pub(crate) fn constructor_precision(
        &mut self,
        id: VarId,
        precision: Precision,
        args: &mut [Expr],
    ) {
        if self.model != Model::Spec {
            return;
        }
        if precision == Precision::None {
            self.pending_ctors.insert(id);
        } else {
            for a in args {
                self.lend_consumer(a, precision);
            }
        }
    }
}
