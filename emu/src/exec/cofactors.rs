//! Every form of `determinant` and `inverse` a conforming driver may compute, for domains
//! that track ranges. Both are formulas of products and sums (GLSL ES 3.20 section 4.7.1:
//! built-ins defined by a formula inherit the allowance of its operations), and a driver may
//! expand a 3x3 determinant along any row or column and add its three terms in any order, or
//! add the six triple products of the rule of Sarrus (SwiftShader does) in any order;
//! an inverse divides the adjugate by the determinant or multiplies it by the determinant's
//! reciprocal (Mesa's built-in library does the latter). Each form is evaluated with its
//! operations' allowances and the hull of all is kept, so the interval holds whichever a
//! driver picks. Point domains keep the modelled driver's one form (`intrinsic.rs`).

use super::domain::{Binary, Unary, Width};
use super::ranges::sequential_orders;
use super::value::{at as value_at, map1, map2};
use super::{Domain, Invocation};

/// Float lanes of one component.
type Component<F> = Vec<F>;

impl<D: Domain> Invocation<'_, D> {
    /// The hull of `modelled` and every cofactor expansion of the column-major 3x3 `m`,
    /// each term order included.
    pub(super) fn determinant_any_form(
        &self,
        m: &[Component<D::F>],
        width: Width,
        modelled: Component<D::F>,
    ) -> Option<Component<D::F>> {
        let d = self.domain;
        let op = |o, a: &Component<D::F>, b: &Component<D::F>| {
            map2(a, b, |x, y| d.binary(o, x, y, width))
        };
        let at = |c: usize, r: usize| m.get(c * 3 + r);
        // The 2x2 minor left by removing column `c` and row `r`.
        let minor = |c: usize, r: usize| -> Option<Component<D::F>> {
            let (c0, c1) = ((c + 1) % 3, (c + 2) % 3);
            let (c0, c1) = (c0.min(c1), c0.max(c1));
            let (r0, r1) = ((r + 1) % 3, (r + 2) % 3);
            let (r0, r1) = (r0.min(r1), r0.max(r1));
            Some(op(
                Binary::Sub,
                &op(Binary::Mul, at(c0, r0)?, at(c1, r1)?),
                &op(Binary::Mul, at(c1, r0)?, at(c0, r1)?),
            ))
        };
        // The signed term of element (c, r) in an expansion through it.
        let term = |c: usize, r: usize| -> Option<Component<D::F>> {
            let t = op(Binary::Mul, at(c, r)?, &minor(c, r)?);
            Some(if (c + r) % 2 == 1 {
                map1(&t, |x| d.unary(Unary::Neg, x, width))
            } else {
                t
            })
        };
        let mut hull = modelled;
        for line in 0..3 {
            for by_column in [true, false] {
                let cell = |k: usize| if by_column { (line, k) } else { (k, line) };
                let terms = (0..3)
                    .map(|k| {
                        let (c, r) = cell(k);
                        term(c, r)
                    })
                    .collect::<Option<Vec<_>>>()?;
                for order in sequential_orders(3) {
                    let first = op(Binary::Add, &terms[order[0]], &terms[order[1]]);
                    let sum = op(Binary::Add, &first, &terms[order[2]]);
                    hull = map2(&hull, &sum, |a, b| d.either(a, b));
                }
            }
        }
        let leibniz = self.leibniz(m, width)?;
        Some(map2(&hull, &leibniz, |a, b| d.either(a, b)))
    }

    /// The rule of Sarrus (Leibniz's formula): six triple products, each multiplied in any
    /// grouping, added in any order; the sum's range widened by one rounding per addition
    /// at the largest magnitude a partial sum may reach.
    fn leibniz(&self, m: &[Component<D::F>], width: Width) -> Option<Component<D::F>> {
        let d = self.domain;
        // (the column of rows 0, 1, 2; whether the permutation is odd).
        const PERMUTATIONS: [([usize; 3], bool); 6] = [
            ([0, 1, 2], false),
            ([1, 2, 0], false),
            ([2, 0, 1], false),
            ([0, 2, 1], true),
            ([1, 0, 2], true),
            ([2, 1, 0], true),
        ];
        let lanes = m.iter().map(Vec::len).max().unwrap_or(1);
        let at = |c: usize, r: usize, i: usize| m.get(c * 3 + r).map(|v| value_at(v, i));
        (0..lanes)
            .map(|i| {
                let (mut lo, mut hi, mut magnitude) = (0.0f64, 0.0f64, 0.0f64);
                for (columns, odd) in PERMUTATIONS {
                    let [a, b, c] = [
                        at(columns[0], 0, i)?,
                        at(columns[1], 1, i)?,
                        at(columns[2], 2, i)?,
                    ];
                    let times = |x, y| d.binary(Binary::Mul, x, y, width);
                    let product = d.either(
                        times(times(a, b), c),
                        d.either(times(times(a, c), b), times(times(b, c), a)),
                    );
                    let (x, y) = d.range(product);
                    let (x, y) = if odd { (-y, -x) } else { (x, y) };
                    lo += x;
                    hi += y;
                    magnitude += x.abs().max(y.abs());
                }
                // The binary64 sums' own rounding, far below any format's.
                let slack =
                    d.reassociation_slack(magnitude, 6, width) + magnitude * 6.0 * f64::EPSILON;
                Some(if lo.is_finite() && hi.is_finite() && slack.is_finite() {
                    d.enter(lo, lo - slack, hi + slack, width)
                } else {
                    d.enter(lo, f64::NAN, f64::NAN, width)
                })
            })
            .collect()
    }

    /// `adjugate / det` and `adjugate * (1 / det)`, each element the hull of both.
    pub(super) fn inverse_any_form(
        &self,
        adjugate: &[Component<D::F>],
        det: &Component<D::F>,
        width: Width,
    ) -> Vec<Component<D::F>> {
        let d = self.domain;
        let reciprocal = map1(det, |x| d.unary(Unary::Rcp, x, width));
        adjugate
            .iter()
            .map(|a| {
                let divided = map2(a, det, |x, y| d.binary(Binary::Div, x, y, width));
                let multiplied = map2(a, &reciprocal, |x, r| d.binary(Binary::Mul, x, r, width));
                map2(&divided, &multiplied, |x, y| d.either(x, y))
            })
            .collect()
    }
}
