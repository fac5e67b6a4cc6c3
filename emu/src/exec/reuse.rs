//! Results computed once where an invocation would compute them again. Every domain's float
//! arithmetic is a pure function of the operation, its width and its operands, so the same
//! operation on operands equal bit for bit ([`Domain::same`]) gives the same result, and
//! reusing it changes no value. Two places repeat in shaders:
//!
//! - the components of one value that hold the same lanes (`vec4(x) * y`, `v.xxx`): each
//!   distinct component is computed once ([`componentwise`]);
//! - a costly built-in evaluated again on the same operand (`atan(v)` in a loop that does not
//!   change `v`): the last result of each such operation is kept ([`Recent`]).

use super::domain::{Domain, Unary, Width};
use super::value::{Lanes, Value};
use std::collections::HashMap;

/// Whether two components hold the same lanes, bit for bit.
pub(super) fn same_lanes<D: Domain>(d: &D, a: &Lanes<D::F>, b: &Lanes<D::F>) -> bool {
    if std::ptr::eq(a, b) {
        return true;
    }
    match (a, b) {
        (Lanes::Float(x), Lanes::Float(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| d.same(p, q))
        }
        (Lanes::Int(x), Lanes::Int(y)) => x == y,
        (Lanes::Bool(x), Lanes::Bool(y)) => x == y,
        _ => false,
    }
}

/// Whether two values hold the same components, bit for bit.
fn same_value<D: Domain>(d: &D, a: &Value<D::F>, b: &Value<D::F>) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_lanes(d, x, y))
}

/// `f` on each component of `operands` (a scalar standing for every component), where `f` is
/// a pure function of its operands' lanes: a component whose operands hold the same lanes as
/// an earlier component's takes that component's result. `None` when `f` gives `None` or an
/// operand lacks a component.
pub(super) fn componentwise<D: Domain>(
    d: &D,
    operands: &[&Value<D::F>],
    mut f: impl FnMut(&[&Lanes<D::F>]) -> Option<Lanes<D::F>>,
) -> Option<Value<D::F>> {
    let n = operands.iter().map(|v| v.len()).max().unwrap_or(0);
    let mut seen: Vec<Vec<&Lanes<D::F>>> = Vec::with_capacity(n);
    let mut out: Vec<Lanes<D::F>> = Vec::with_capacity(n);
    for i in 0..n {
        let lanes = operands
            .iter()
            .map(|v| super::ops::comp(v, i))
            .collect::<Option<Vec<_>>>()?;
        let earlier = seen
            .iter()
            .position(|other| other.iter().zip(&lanes).all(|(x, y)| same_lanes(d, x, y)));
        let result = match earlier {
            Some(j) => out[j].clone(),
            None => f(&lanes)?,
        };
        out.push(result);
        seen.push(lanes);
    }
    Some(out)
}

/// Whether a one-operand operation costs enough, in some domain, for its last result to be
/// kept: the transcendentals, a library of operations in the point domains and a range
/// analysis in the interval ones.
pub(super) fn costly(op: Unary) -> bool {
    matches!(
        op,
        Unary::Exp | Unary::Log | Unary::Exp2 | Unary::Log2 | Unary::Sin | Unary::Cos | Unary::Atan
    )
}

/// One kept result: the operation, its width, its operand and what it gave.
struct Kept<F> {
    op: Unary,
    width: Width,
    operand: Value<F>,
    result: Value<F>,
}

/// The last result of each costly one-operand operation of an invocation, by the expression
/// that computed it. The expression only finds the entry: the operation, width and operand
/// are compared before a result is reused, so a temporary expression at a reused address
/// finds nothing it should not.
pub(super) struct Recent<F> {
    kept: HashMap<usize, Kept<F>>,
}

impl<F: Copy> Recent<F> {
    /// Nothing kept.
    pub(super) fn new() -> Self {
        Recent {
            kept: HashMap::new(),
        }
    }

    /// The result `op` at `width` gave on `operand` when the expression at `key` last
    /// computed it, if it computed it on the same operand bit for bit.
    pub(super) fn find<D: Domain<F = F>>(
        &self,
        d: &D,
        key: usize,
        op: Unary,
        width: Width,
        operand: &Value<F>,
    ) -> Option<Value<F>> {
        let kept = self.kept.get(&key)?;
        (kept.op == op && kept.width == width && same_value(d, &kept.operand, operand))
            .then(|| kept.result.clone())
    }

    /// Keeps what the expression at `key` computed last.
    pub(super) fn keep(
        &mut self,
        key: usize,
        op: Unary,
        width: Width,
        operand: Value<F>,
        result: Value<F>,
    ) {
        self.kept.insert(
            key,
            Kept {
                op,
                width,
                operand,
                result,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::{Mode, Rounding};

    #[test]
    fn equal_components_are_computed_once_and_zeros_of_either_sign_apart() {
        let d = Rounding::new(Mode::Highp);
        let x = Lanes::Float(vec![1.0, 2.0]);
        let minus_zero = Lanes::Float(vec![-0.0, 2.0]);
        let zero = Lanes::Float(vec![0.0, 2.0]);
        let a: Value<f64> = vec![x.clone(), x, zero, minus_zero];
        let mut calls = 0;
        let out = componentwise(&d, &[&a], |l| {
            calls += 1;
            Some(l[0].clone())
        })
        .expect("floats");
        // The two equal components once, +0 and -0 apart: they are not the same operand.
        assert_eq!(calls, 3);
        assert_eq!(out, a);
    }

    #[test]
    fn a_kept_result_needs_the_same_operation_width_and_operand() {
        let d = Rounding::new(Mode::Highp);
        let operand: Value<f64> = vec![Lanes::Float(vec![0.5, 0.25])];
        let result: Value<f64> = vec![Lanes::Float(vec![0.46, 0.24])];
        let mut recent = Recent::new();
        recent.keep(
            7,
            Unary::Atan,
            Width::Single,
            operand.clone(),
            result.clone(),
        );
        assert_eq!(
            recent.find(&d, 7, Unary::Atan, Width::Single, &operand),
            Some(result)
        );
        assert_eq!(
            recent.find(&d, 7, Unary::Sin, Width::Single, &operand),
            None
        );
        assert_eq!(recent.find(&d, 7, Unary::Atan, Width::Half, &operand), None);
        let other: Value<f64> = vec![Lanes::Float(vec![0.5, -0.25])];
        assert_eq!(recent.find(&d, 7, Unary::Atan, Width::Single, &other), None);
        assert_eq!(
            recent.find(&d, 8, Unary::Atan, Width::Single, &operand),
            None
        );
    }
}
