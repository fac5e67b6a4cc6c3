//! Precision of operations by the GLSL ES rules, and the two models halfcheck knows.
//!
//! GLSL ES 3.00 section 4.5.3: an operation's precision is the highest among its operands
//! that have one; constants have none. When no operand has one, the precision comes from the
//! consumer: the outer operation, or the lvalue of the assignment, the parameter it is passed
//! to, the function's return value. Mesa's `lower_precision` (and llvmpipe measurements)
//! never take the consumer's precision for a tree that has none: the `mesa` model.

use serde::{Deserialize, Serialize};

use crate::ir::{Expr, ExprKind, Precision};

/// Which precision rules to apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Model {
    /// Everything the spec allows is lowered (precision from the consumer included).
    Spec,
    /// What Mesa does: the consumer never lends its precision.
    #[default]
    Mesa,
}

/// The precision of an operation on operands of these precisions: the highest one.
pub fn combine(operands: impl IntoIterator<Item = Precision>) -> Precision {
    operands.into_iter().max().unwrap_or(Precision::None)
}

/// Gives `consumer` to every operation in `e` that has no precision (spec model). Index
/// expressions and texture arguments are separate trees with their own consumers; constants
/// keep none.
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
        ExprKind::Swizzle(base, _) => {
            e.precision = consumer;
            lend(base, consumer);
        }
        _ => {}
    }
}
