//! Finds expressions a compiler may simplify away with inexact algebra.
//!
//! GLES lets a compiler apply algebraic identities that are exact over the reals but not in
//! floating point, and Mesa does: measured on llvmpipe, `(a + big) - big` was folded to `a` and
//! the uniform `big` vanished. A precision test built on such a pattern measures nothing, so
//! `halfcheck lint` reports these:
//!
//! - `(a + b) - b`, `(a + b) - a`, `(a - b) + b`, `b + (a - b)`: the addition cancels;
//! - `(a * b) / b`: the multiplication cancels;
//! - `a - a`: zero whatever `a` is.
//!
//! Operands are compared as trees, ignoring where they were written.

use crate::ir::ops::Op;
use crate::ir::{Block, Expr, ExprKind, Module, Stmt};
use crate::span::Span;

/// One foldable expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Foldable {
    /// Where the whole expression is.
    pub span: Span,
    /// The pattern, e.g. `(a + b) - b`.
    pub pattern: &'static str,
}

/// Every foldable expression of `module`, in source order.
pub fn foldable_patterns(module: &Module) -> Vec<Foldable> {
    let mut found = Vec::new();
    block(&module.globals, &mut found);
    for function in &module.functions {
        if let Some(body) = &function.body {
            block(body, &mut found);
        }
    }
    found.sort_by_key(|f| (f.span.start, f.span.end));
    found.dedup();
    found
}

/// Visits every expression of a block.
fn block(b: &Block, found: &mut Vec<Foldable>) {
    for stmt in b {
        match stmt {
            Stmt::Assign { lhs, rhs, .. } => {
                expr(lhs, found);
                expr(rhs, found);
            }
            Stmt::If {
                condition,
                then,
                otherwise,
                ..
            } => {
                expr(condition, found);
                block(then, found);
                block(otherwise, found);
            }
            Stmt::Loop { body, .. } => block(body, found),
            Stmt::Return {
                value: Some(value), ..
            } => expr(value, found),
            Stmt::Call { args, result, .. } => {
                args.iter().for_each(|a| expr(a, found));
                if let Some(r) = result {
                    expr(r, found);
                }
            }
            Stmt::Intrinsic { args, .. } => args.iter().for_each(|a| expr(a, found)),
            Stmt::Declare(_)
            | Stmt::Break
            | Stmt::Continue
            | Stmt::Return { value: None, .. }
            | Stmt::Discard { .. } => {}
        }
    }
}

/// Checks `e` and everything below it.
fn expr(e: &Expr, found: &mut Vec<Foldable>) {
    if let Some(pattern) = pattern(e) {
        found.push(Foldable {
            span: e.span,
            pattern,
        });
    }
    match &e.kind {
        ExprKind::Constant { .. } | ExprKind::Var(_) => {}
        ExprKind::Index(a, b) => {
            expr(a, found);
            expr(b, found);
        }
        ExprKind::Field(a, _) | ExprKind::Swizzle(a, _) => expr(a, found),
        ExprKind::Op(_, args) | ExprKind::Intrinsic(_, args) => {
            args.iter().for_each(|a| expr(a, found))
        }
        ExprKind::Texture(t) => t.operands().for_each(|e| expr(e, found)),
    }
}

/// The foldable pattern `e` is, if any.
fn pattern(e: &Expr) -> Option<&'static str> {
    let ExprKind::Op(op, args) = &e.kind else {
        return None;
    };
    let [left, right] = args.as_slice() else {
        return None;
    };
    match op {
        Op::Sub if same(left, right) => Some("a - a"),
        Op::Sub => {
            let (a, b) = operands(left, Op::Add)?;
            if same(b, right) {
                Some("(a + b) - b")
            } else if same(a, right) {
                Some("(a + b) - a")
            } else {
                None
            }
        }
        Op::Add => {
            if let Some((_, b)) = operands(left, Op::Sub) {
                if same(b, right) {
                    return Some("(a - b) + b");
                }
            }
            let (_, b) = operands(right, Op::Sub)?;
            same(b, left).then_some("b + (a - b)")
        }
        Op::Div => {
            let (a, b) = operands(left, Op::Mul)?;
            (same(b, right) || same(a, right)).then_some("(a * b) / b")
        }
        _ => None,
    }
}

/// The two operands of `e` when it is the binary operation `wanted`.
fn operands(e: &Expr, wanted: Op) -> Option<(&Expr, &Expr)> {
    match &e.kind {
        ExprKind::Op(op, args) if *op == wanted => match args.as_slice() {
            [a, b] => Some((a, b)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether two expressions compute the same thing (same tree, spans ignored).
fn same(a: &Expr, b: &Expr) -> bool {
    if a.ty != b.ty {
        return false;
    }
    match (&a.kind, &b.kind) {
        (ExprKind::Constant { value: x, .. }, ExprKind::Constant { value: y, .. }) => x == y,
        (ExprKind::Var(x), ExprKind::Var(y)) => x == y,
        (ExprKind::Index(a1, a2), ExprKind::Index(b1, b2)) => same(a1, b1) && same(a2, b2),
        (ExprKind::Field(x, i), ExprKind::Field(y, j)) => i == j && same(x, y),
        (ExprKind::Swizzle(x, i), ExprKind::Swizzle(y, j)) => i == j && same(x, y),
        (ExprKind::Op(p, xs), ExprKind::Op(q, ys)) => {
            p == q && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{compile, CompileOptions, Stage};

    fn patterns(body: &str) -> Vec<&'static str> {
        let source = format!(
            "precision mediump float;\nuniform float a, big;\nuniform vec2 v;\nvoid main() {{\n{body}\n}}\n"
        );
        let options = CompileOptions {
            lower: false,
            ..CompileOptions::default()
        };
        let module = compile(&source, Stage::Fragment, "t.frag", &options).expect("compiles");
        foldable_patterns(&module)
            .into_iter()
            .map(|f| f.pattern)
            .collect()
    }

    #[test]
    fn cancelling_addition_is_foldable() {
        assert_eq!(
            patterns("gl_FragColor = vec4((a + big) - big);"),
            ["(a + b) - b"]
        );
        assert_eq!(
            patterns("gl_FragColor = vec4((big + a) - big);"),
            ["(a + b) - a"]
        );
        assert_eq!(
            patterns("gl_FragColor = vec4((a - big) + big);"),
            ["(a - b) + b"]
        );
        assert_eq!(
            patterns("gl_FragColor = vec4(big + (a - big));"),
            ["b + (a - b)"]
        );
    }

    #[test]
    fn cancelling_multiplication_and_self_subtraction_are_foldable() {
        assert_eq!(
            patterns("gl_FragColor = vec4((a * big) / big);"),
            ["(a * b) / b"]
        );
        assert_eq!(patterns("gl_FragColor = vec4(v.x - v.x);"), ["a - a"]);
    }

    #[test]
    fn amplified_division_is_not_foldable() {
        assert!(patterns("gl_FragColor = vec4(fract(a / big * 1024.0));").is_empty());
        assert!(patterns("gl_FragColor = vec4((a + big) - a * big);").is_empty());
        assert!(patterns("gl_FragColor = vec4(v.x - v.y);").is_empty());
    }
}
