//! Which loops a driver keeps as loops rather than unrolling them, so that the variables
//! they assign live in memory (`arithmetic.control_flow_variables: memory`).
//!
//! NIR unrolls a loop whose trip count it can compute, up to a limit: every condition that
//! breaks out of it compares induction variables (set from constants before the loop,
//! stepped by constants inside it) with constants, and it ends within
//! [`MAX_UNROLLED_ITERATIONS`]. Any other loop stays a loop, and the values its variables
//! carry into it, from one iteration to the next, or out of it, pass through memory (measured
//! on llvmpipe without SSE: a float accumulated in a loop of a uniform trip count, or of 33
//! iterations, is rounded to binary32 on entry and at every iteration; the same loop of 32
//! iterations keeps x87 extended precision, and a value assigned and read within one
//! iteration keeps it too).

use halfcheck_compiler::ir::fold::fold;
use halfcheck_compiler::ir::{
    visit, BaseType, Block, ConstValue, Expr, ExprKind, Module, Scalar, Stmt, Type, VarId, VarMode,
};
use halfcheck_compiler::span::Span;
use std::collections::HashMap;

/// The longest loop NIR unrolls for llvmpipe (measured: 32 iterations are unrolled, 33 kept).
const MAX_UNROLLED_ITERATIONS: usize = 32;

/// Per loop of `module` that stays a loop, the variables it carries: those assigned in it
/// and declared outside it.
pub(super) fn kept_loops(module: &Module) -> HashMap<Span, Vec<VarId>> {
    let mut kept = HashMap::new();
    for body in module.functions.iter().filter_map(|f| f.body.as_ref()) {
        let mut facts = Facts::default();
        facts.walk(body, &mut Vec::new());
        for (span, body, exits, start) in &facts.loops {
            let counted = !exits.is_empty()
                && exits
                    .iter()
                    .flat_map(|(c, _)| reads(c))
                    .all(|v| facts.is_induction(module, v, *span));
            let unrolled = counted
                && facts
                    .trip_count(exits, *span, *start)
                    .is_none_or(|n| n <= MAX_UNROLLED_ITERATIONS);
            if !unrolled {
                kept.insert(*span, carried(body));
            }
        }
    }
    kept
}

/// The variables `body` assigns and does not declare.
pub(super) fn carried(body: &Block) -> Vec<VarId> {
    let (mut assigned, mut declared) = (Vec::new(), Vec::new());
    statements(body, &mut |stmt| match stmt {
        Stmt::Assign { lhs, .. } => assigned.extend(lhs.variable()),
        Stmt::Declare(v) => declared.push(*v),
        _ => {}
    });
    assigned.sort();
    assigned.dedup();
    assigned.retain(|v| !declared.contains(v));
    assigned
}

/// Calls `f` on every statement of `block`, nested ones included.
pub(super) fn statements(block: &Block, f: &mut dyn FnMut(&Stmt)) {
    for stmt in block {
        f(stmt);
        match stmt {
            Stmt::If {
                then, otherwise, ..
            } => {
                statements(then, f);
                statements(otherwise, f);
            }
            Stmt::Loop { body, .. } => statements(body, f),
            _ => {}
        }
    }
}

/// One assignment: where in the body it comes, its right-hand side, the variables that
/// reads and the loops around it.
struct Assignment<'m> {
    order: usize,
    rhs: &'m Expr,
    reads: Vec<VarId>,
    within: Vec<Span>,
}

/// A condition that leaves a loop, and whether it leaves when the condition is true.
pub(super) type Exit<'m> = (&'m Expr, bool);

/// What one function body says about its loops.
#[derive(Default)]
struct Facts<'m> {
    /// Per variable, its assignments in statement order.
    assignments: HashMap<VarId, Vec<Assignment<'m>>>,
    /// Per loop, its body, the conditions of the `if`s that break out of it, and how many
    /// assignments come before it.
    loops: Vec<(Span, &'m Block, Vec<Exit<'m>>, usize)>,
    /// Assignments seen so far.
    seen: usize,
}

impl<'m> Facts<'m> {
    fn walk(&mut self, block: &'m Block, within: &mut Vec<Span>) {
        for stmt in block {
            match stmt {
                Stmt::Assign { lhs, rhs, .. } => {
                    if let Some(var) = lhs.variable() {
                        self.seen += 1;
                        self.assignments.entry(var).or_default().push(Assignment {
                            order: self.seen,
                            rhs,
                            reads: reads(rhs),
                            within: within.clone(),
                        });
                    }
                }
                Stmt::If {
                    then, otherwise, ..
                } => {
                    self.walk(then, within);
                    self.walk(otherwise, within);
                }
                Stmt::Loop { body, span } => {
                    let mut exits = Vec::new();
                    exits_of(body, &mut exits);
                    self.loops.push((*span, body, exits, self.seen));
                    within.push(*span);
                    self.walk(body, within);
                    within.pop();
                }
                _ => {}
            }
        }
    }

    /// Whether `var` is an induction variable of the loop at `span`: a local set only from
    /// constants outside it and only from itself and constants inside it.
    fn is_induction(&self, module: &Module, var: VarId, span: Span) -> bool {
        let local = module
            .variables
            .get(var.0 as usize)
            .is_some_and(|v| matches!(v.mode, VarMode::Auto | VarMode::Temporary));
        let Some(assignments) = self.assignments.get(&var) else {
            return false;
        };
        let (inside, outside): (Vec<_>, Vec<_>) =
            assignments.iter().partition(|a| a.within.contains(&span));
        local
            && !inside.is_empty()
            && !outside.is_empty()
            && outside.iter().all(|a| a.reads.is_empty())
            && inside.iter().all(|a| a.reads.iter().all(|&r| r == var))
    }

    /// The iterations of the loop at `span` (after the first `start` assignments) whose
    /// `exits` read only induction variables, counted by stepping them from their value
    /// before the loop; more than [`MAX_UNROLLED_ITERATIONS`] stops the count. `None` when a
    /// step or a condition does not fold to a constant.
    fn trip_count(&self, exits: &[Exit<'m>], span: Span, start: usize) -> Option<usize> {
        let mut values: HashMap<VarId, ConstValue> = HashMap::new();
        let mut steps = Vec::new();
        let mut variables: Vec<VarId> = exits.iter().flat_map(|(c, _)| reads(c)).collect();
        variables.sort();
        variables.dedup();
        for var in variables {
            let assignments = self.assignments.get(&var)?;
            let before = assignments
                .iter()
                .rfind(|a| a.order <= start && !a.within.contains(&span))?;
            values.insert(var, known(before.rhs, &values)?);
            steps.extend(
                assignments
                    .iter()
                    .filter(|a| a.within.contains(&span))
                    .map(|a| (var, a.rhs)),
            );
        }
        for count in 0..=MAX_UNROLLED_ITERATIONS {
            for (condition, leaves_when) in exits {
                if truth(&known(condition, &values)?)? == *leaves_when {
                    return Some(count);
                }
            }
            for (var, rhs) in &steps {
                let next = known(rhs, &values)?;
                values.insert(*var, next);
            }
        }
        Some(MAX_UNROLLED_ITERATIONS + 1)
    }
}

/// The exits of a loop body: the conditions of its `if`s (not in nested loops) with a
/// `break` in a branch, and whether the `break` is taken when the condition holds.
pub(super) fn exits_of<'m>(block: &'m Block, out: &mut Vec<Exit<'m>>) {
    for stmt in block {
        if let Stmt::If {
            condition,
            then,
            otherwise,
            ..
        } = stmt
        {
            if breaks(then) {
                out.push((condition, true));
            } else if breaks(otherwise) {
                out.push((condition, false));
            }
            exits_of(then, out);
            exits_of(otherwise, out);
        }
    }
}

/// Whether `block` breaks out of its loop (directly or in an `if`, not in a nested loop).
fn breaks(block: &Block) -> bool {
    block.iter().any(|stmt| match stmt {
        Stmt::Break => true,
        Stmt::If {
            then, otherwise, ..
        } => breaks(then) || breaks(otherwise),
        _ => false,
    })
}

/// The constant `e` is with the variables of `values` at those values, if it folds to one.
fn known(e: &Expr, values: &HashMap<VarId, ConstValue>) -> Option<ConstValue> {
    substituted(e, values).constant().cloned()
}

/// `e` with the variables of `values` replaced by their values, folded from the leaves up
/// in 32-bit types (16-bit counters count the same within the unrolling limit).
fn substituted(e: &Expr, values: &HashMap<VarId, ConstValue>) -> Expr {
    let ty = widened(&e.ty);
    let constant = |value: &ConstValue| ExprKind::Constant {
        value: ty
            .base()
            .map_or_else(|| value.clone(), |base| value.convert(base)),
        literal: None,
        folded: None,
    };
    let kind = match &e.kind {
        ExprKind::Var(v) => match values.get(v) {
            Some(value) => constant(value),
            None => e.kind.clone(),
        },
        ExprKind::Constant { value, .. } => constant(value),
        ExprKind::Op(op, operands) => ExprKind::Op(
            *op,
            operands.iter().map(|o| substituted(o, values)).collect(),
        ),
        ExprKind::Swizzle(base, components) => {
            ExprKind::Swizzle(Box::new(substituted(base, values)), components.clone())
        }
        other => other.clone(),
    };
    fold(Expr::new(kind, ty, e.precision, e.span))
}

/// `ty` with 16-bit components made 32-bit.
fn widened(ty: &Type) -> Type {
    match ty {
        Type::Numeric {
            base,
            rows,
            columns,
        } => Type::Numeric {
            base: match base {
                BaseType::Int16 => BaseType::Int,
                BaseType::Uint16 => BaseType::Uint,
                BaseType::Float16 => BaseType::Float,
                other => *other,
            },
            rows: *rows,
            columns: *columns,
        },
        other => other.clone(),
    }
}

/// A scalar boolean constant's value.
fn truth(value: &ConstValue) -> Option<bool> {
    match value.components() {
        [Scalar::Bool(b)] => Some(*b),
        _ => None,
    }
}

/// The variables `e` reads.
fn reads(e: &Expr) -> Vec<VarId> {
    let mut out = Vec::new();
    visit::expr(e, &mut |node| {
        if let ExprKind::Var(v) = node.kind {
            out.push(v);
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::test_support::names_per_construct;

    /// Per kept loop of a fragment shader whose `main` is `body`, the names of the variables
    /// it carries, sorted.
    fn kept(body: &str) -> Vec<Vec<String>> {
        names_per_construct("uniform float u;\nuniform int n;", body, kept_loops)
    }

    #[test]
    fn a_loop_nir_can_count_is_unrolled_and_carries_nothing_through_memory() {
        let none: Vec<Vec<String>> = Vec::new();
        assert_eq!(
            kept("float x = u; for (int i = 0; i < 4; i++) { x *= u; } c = vec4(x);"),
            none
        );
        assert_eq!(
            kept("float x = u; for (float i = 0.0; i < 4.0; i += 1.0) { x *= u; } c = vec4(x);"),
            none
        );
    }

    #[test]
    fn a_loop_longer_than_nir_unrolls_is_kept() {
        let none: Vec<Vec<String>> = Vec::new();
        assert_eq!(
            kept("float x = u; for (int i = 0; i < 32; i++) { x *= u; } c = vec4(x);"),
            none
        );
        assert_eq!(
            kept("float x = u; for (int i = 0; i < 33; i++) { x *= u; } c = vec4(x);"),
            [["i", "x"]]
        );
        assert_eq!(
            kept("float x = u; for (int i = 40; i > 0; i -= 2) { x *= u; } c = vec4(x);"),
            none
        );
    }

    #[test]
    fn a_loop_of_a_uniform_or_data_dependent_trip_count_is_kept() {
        assert_eq!(
            kept("float x = u; for (int i = 0; i < n; i++) { x *= u; } c = vec4(x);"),
            [["i", "x"]]
        );
        assert_eq!(
            kept("float x = u; int k = 0; while (x < 9.0 && k < 20) { x += u; k++; } c = vec4(x);"),
            [["k", "x"]]
        );
        // An induction variable that starts from a uniform: the trip count is unknown.
        assert_eq!(
            kept("float x = u; for (int i = n; i < 4; i++) { x *= u; } c = vec4(x);"),
            [["i", "x"]]
        );
    }

    #[test]
    fn a_variable_declared_inside_the_loop_is_not_carried() {
        assert_eq!(
            kept("float x = u; for (int i = 0; i < n; i++) { float t = x * u; x = t + u; } c = vec4(x);"),
            [["i", "x"]]
        );
    }
}
