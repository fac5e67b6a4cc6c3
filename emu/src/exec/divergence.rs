//! Which `if`s branch on a value that varies per invocation (NIR's divergence), so that the
//! variables they assign live in memory (`arithmetic.control_flow_variables: memory`).
//!
//! A value varies when it reads a shader input, a system value (`gl_FragCoord`), a buffer, a
//! derivative or a texel fetched at a varying coordinate, or a variable assigned such a value
//! or assigned under such a branch or in such a loop. gallivm runs a varying branch under an
//! execution mask, and the variables it assigns pass through memory where the branches join
//! (measured on llvmpipe without SSE: a float assigned under `gl_FragCoord.x > 0.0` or under
//! a comparison of a varying is rounded to binary32 after the `if`, also where no invocation
//! took the branch; under a uniform condition it keeps x87 extended precision, and a value
//! assigned and read inside the branch keeps it too).

use halfcheck_compiler::ir::{visit, Block, Expr, ExprKind, Module, Stmt, VarId, VarMode};
use halfcheck_compiler::span::Span;
use std::collections::{HashMap, HashSet};

/// Per `if` of `module` whose condition varies, the variables it assigns and does not
/// declare (compiler temporaries aside: a `?:` the front end spelled as an `if` is a select
/// for NIR).
pub(super) fn varying_ifs(module: &Module) -> HashMap<Span, Vec<VarId>> {
    let varying = varying_variables(module);
    let mut ifs = HashMap::new();
    for body in module.functions.iter().filter_map(|f| f.body.as_ref()) {
        super::loops::statements(body, &mut |stmt| {
            if let Stmt::If {
                condition,
                then,
                otherwise,
                span,
            } = stmt
            {
                if varies(condition, &varying) {
                    let mut assigned = super::loops::carried(then);
                    assigned.extend(super::loops::carried(otherwise));
                    assigned.retain(|v| {
                        module
                            .variables
                            .get(v.0 as usize)
                            .is_some_and(|var| var.mode != VarMode::Temporary)
                    });
                    assigned.sort();
                    assigned.dedup();
                    ifs.insert(*span, assigned);
                }
            }
        });
    }
    ifs
}

/// The variables whose value may differ between invocations.
fn varying_variables(module: &Module) -> HashSet<VarId> {
    let mut varying: HashSet<VarId> = module
        .variables
        .iter()
        .enumerate()
        .filter(|(_, v)| {
            matches!(
                v.mode,
                VarMode::ShaderIn | VarMode::SystemValue | VarMode::ShaderStorage | VarMode::Shared
            )
        })
        .map(|(i, _)| VarId(i as u32))
        .collect();
    // Assignments and calls only add to the set: repeat until it stops growing.
    loop {
        let before = varying.len();
        for function in &module.functions {
            if let Some(body) = &function.body {
                spread(body, false, module, &mut varying);
            }
        }
        if varying.len() == before {
            return varying;
        }
    }
}

/// Adds to `varying` what `block` assigns from varying values or under varying control.
fn spread(block: &Block, under_varying: bool, module: &Module, varying: &mut HashSet<VarId>) {
    for stmt in block {
        match stmt {
            Stmt::Assign { lhs, rhs, .. }
                if under_varying || varies(rhs, varying) || varies(lhs, varying) =>
            {
                varying.extend(lhs.variable());
            }
            Stmt::If {
                condition,
                then,
                otherwise,
                ..
            } => {
                let inner = under_varying || varies(condition, varying);
                spread(then, inner, module, varying);
                spread(otherwise, inner, module, varying);
            }
            Stmt::Loop { body, .. } => {
                let mut exits = Vec::new();
                super::loops::exits_of(body, &mut exits);
                let inner = under_varying || exits.iter().any(|(c, _)| varies(c, varying));
                spread(body, inner, module, varying);
            }
            Stmt::Call {
                callee,
                args,
                result,
                ..
            } => {
                let Some(function) = module.functions.get(callee.0 as usize) else {
                    continue;
                };
                let reads_varying = function.body.as_ref().is_some_and(|body| {
                    let mut found = false;
                    visit::block(body, &mut |node| found |= varies_here(node, varying));
                    found
                });
                if under_varying || reads_varying || args.iter().any(|a| varies(a, varying)) {
                    varying.extend(function.params.iter().copied());
                    varying.extend(result.as_ref().and_then(Expr::variable));
                    for (param, arg) in function.params.iter().zip(args) {
                        let out = module.variables.get(param.0 as usize).is_some_and(|v| {
                            matches!(v.mode, VarMode::FunctionOut | VarMode::FunctionInOut)
                        });
                        if out {
                            varying.extend(arg.variable());
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// Whether `e` may differ between invocations.
fn varies(e: &Expr, varying: &HashSet<VarId>) -> bool {
    let mut found = false;
    visit::expr(e, &mut |node| found |= varies_here(node, varying));
    found
}

/// Whether expression node `node` itself (not its operands) may differ between invocations.
fn varies_here(node: &Expr, varying: &HashSet<VarId>) -> bool {
    match &node.kind {
        ExprKind::Var(v) => varying.contains(v),
        ExprKind::Op(op, _) => op.is_derivative(),
        ExprKind::Intrinsic(..) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::test_support::names_per_construct;

    /// Per `if` on a varying condition in a fragment shader whose `main` is `body`, the
    /// names of the variables it assigns, sorted.
    fn varying(body: &str) -> Vec<Vec<String>> {
        names_per_construct("uniform float u;\nin float v;", body, varying_ifs)
    }

    #[test]
    fn an_if_on_an_input_or_the_fragment_position_varies() {
        assert_eq!(
            varying("float x = u; if (gl_FragCoord.x > 0.0) { x += u; } c = vec4(x);"),
            [["x"]]
        );
        assert_eq!(
            varying("float x = u; float k = v * 2.0; if (k < 1.0) { x += u; } c = vec4(x);"),
            [["x"]]
        );
    }

    #[test]
    fn an_if_on_uniforms_does_not_vary() {
        let none: Vec<Vec<String>> = Vec::new();
        assert_eq!(
            varying("float x = u; float k = u * 2.0; if (k < 1.0) { x += u; } c = vec4(x + v);"),
            none
        );
    }

    #[test]
    fn a_variable_assigned_under_a_varying_branch_varies() {
        // k is set under the first, varying if: the second if on k varies too.
        assert_eq!(
            varying(
                "float x = u; float k = 0.0; if (v > 0.5) { k = 1.0; } \
                 if (k > 0.5) { x += u; } c = vec4(x);"
            ),
            [vec!["k".to_owned()], vec!["x".to_owned()]]
        );
    }
}
