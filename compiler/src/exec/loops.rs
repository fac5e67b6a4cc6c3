//! Which loops a driver keeps as loops rather than unrolling them, so that the variables
//! they assign live in memory (`arithmetic.loop_variables: memory`).
//!
//! NIR unrolls a loop whose trip count it can compute: every condition that breaks out of it
//! compares induction variables (set from constants before the loop, stepped by constants
//! inside it) with constants. Any other loop stays a loop, and the values its variables carry
//! from one iteration to the next, or out of it, pass through memory (measured on llvmpipe
//! without SSE: a float accumulated in a loop of a uniform trip count is rounded to binary32
//! at every iteration, the same loop with a constant trip count keeps x87 extended
//! precision, and a value assigned and read within one iteration keeps it too).

use crate::front::span::Span;
use crate::ir::{visit, Block, Expr, ExprKind, Module, Stmt, VarId, VarMode};
use std::collections::HashMap;

/// Per loop of `module` that stays a loop, the variables it carries: those assigned in it
/// and declared outside it.
pub(super) fn kept_loops(module: &Module) -> HashMap<Span, Vec<VarId>> {
    let mut kept = HashMap::new();
    for body in module.functions.iter().filter_map(|f| f.body.as_ref()) {
        let mut facts = Facts::default();
        facts.walk(body, &mut Vec::new());
        for (span, body, conditions) in &facts.loops {
            let unrollable = !conditions.is_empty()
                && conditions
                    .iter()
                    .flat_map(|c| reads(c))
                    .all(|v| facts.is_induction(module, v, *span));
            if !unrollable {
                kept.insert(*span, carried(body));
            }
        }
    }
    kept
}

/// The variables `body` assigns and does not declare.
fn carried(body: &Block) -> Vec<VarId> {
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
fn statements(block: &Block, f: &mut dyn FnMut(&Stmt)) {
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

/// One assignment: the variables its right-hand side reads and the loops around it.
struct Assignment {
    reads: Vec<VarId>,
    within: Vec<Span>,
}

/// What one function body says about its loops.
#[derive(Default)]
struct Facts<'m> {
    /// Per variable, its assignments.
    assignments: HashMap<VarId, Vec<Assignment>>,
    /// Per loop, its body and the conditions of the `if`s that break out of it.
    loops: Vec<(Span, &'m Block, Vec<&'m Expr>)>,
}

impl<'m> Facts<'m> {
    fn walk(&mut self, block: &'m Block, within: &mut Vec<Span>) {
        for stmt in block {
            match stmt {
                Stmt::Assign { lhs, rhs, .. } => {
                    if let Some(var) = lhs.variable() {
                        self.assignments.entry(var).or_default().push(Assignment {
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
                    let mut conditions = Vec::new();
                    breaking_conditions(body, &mut conditions);
                    self.loops.push((*span, body, conditions));
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
}

/// The conditions of the `if`s in `block` (not in nested loops) with a `break` in a branch.
fn breaking_conditions<'m>(block: &'m Block, out: &mut Vec<&'m Expr>) {
    for stmt in block {
        if let Stmt::If {
            condition,
            then,
            otherwise,
            ..
        } = stmt
        {
            if breaks(then) || breaks(otherwise) {
                out.push(condition);
            }
            breaking_conditions(then, out);
            breaking_conditions(otherwise, out);
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
