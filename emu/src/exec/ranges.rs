//! What the evaluator does for a domain that tracks ranges ([`Domain::tracks_ranges`], the
//! acceptance intervals) beyond the arithmetic, so that an interval holds every value a
//! conforming driver may compute, not only the modelled driver's:
//!
//! - **Open decisions.** A comparison whose operands' ranges allow both outcomes, a float
//!   turned into an integer or a bool whose range spans several results: the lane is marked
//!   uncertain ([`Invocation::leave_open`]). An `if` on such a condition runs both ways (in
//!   `run`); a select keeps either operand ([`Invocation::select_open`]).
//! - **Every form of a built-in.** Sums of products (`dot`, matrix products) in any order,
//!   `mix` as `x + (y - x) a` and as `x (1 - a) + y a`, `normalize` as `x * inversesqrt(dot)`
//!   and as `x / sqrt(dot)` (dEQP's), derivatives from either row or column of the quad; each
//!   kept through [`Domain::either`].
//!
//! Point domains skip all of it: their value is the modelled driver's.

use super::domain::{Binary, Compare, Unary, Width};
use super::ops::{comp, lerp, products, sum_of_products, sum_of_terms, width_for, Factors};
use super::packing::pack_decided;
use super::undefined::conversion_out_of_range;
use super::value::{at, map2, Lanes, Value};
use super::{Domain, ExecResult, Invocation};
use crate::profile::{Dot, Mix};
use halfcheck_compiler::ir::{BaseType, ConstValue, Expr, ExprKind, Op};

/// Whether `op` holds for every pair of values in ranges `a` and `b`, or for none.
fn decided(op: Compare, a: (f64, f64), b: (f64, f64)) -> bool {
    let finite = a.0.is_finite() && a.1.is_finite() && b.0.is_finite() && b.1.is_finite();
    if !finite {
        // An unbounded value may be NaN: no comparison is decided.
        return false;
    }
    match op {
        Compare::Less => a.1 < b.0 || a.0 >= b.1,
        Compare::LessEqual => a.1 <= b.0 || a.0 > b.1,
        Compare::Greater => a.0 > b.1 || a.1 <= b.0,
        Compare::GreaterEqual => a.0 >= b.1 || a.1 < b.0,
        Compare::Equal | Compare::NotEqual => {
            (a.0 == a.1 && b.0 == b.1 && a.0 == b.0) || a.1 < b.0 || b.1 < a.0
        }
    }
}

/// How many expression nodes the terms of a reassociated sum may hold: their values are
/// computed again, so a long chain reassociates only near its leaves and its cost stays
/// linear.
const REASSOCIATED_NODES: usize = 16;

/// How many terms a reassociated sum is followed into: each is a range to add, so the cost
/// stays linear.
const SUM_TERMS: usize = 8;

/// How many factors one operand of a reassociated product is followed into; every order of
/// the factors of both (at most 5, so 120 orders) is computed.
const PRODUCT_FACTORS: usize = 4;

/// A factor of a product a driver may reorder: an expression, or the 2 of `x + x`.
#[derive(Clone)]
enum Factor {
    Of(Expr),
    Two,
}

/// Whether `a` and `b` compute the same value from the same variables, wherever written
/// (spans aside).
fn same_value(a: &Expr, b: &Expr) -> bool {
    match (&a.kind, &b.kind) {
        (ExprKind::Var(x), ExprKind::Var(y)) => x == y,
        (ExprKind::Constant { value: x, .. }, ExprKind::Constant { value: y, .. }) => x == y,
        (ExprKind::Field(x, i), ExprKind::Field(y, j)) => i == j && same_value(x, y),
        (ExprKind::Swizzle(x, i), ExprKind::Swizzle(y, j)) => i == j && same_value(x, y),
        (ExprKind::Index(x, i), ExprKind::Index(y, j)) => same_value(x, y) && same_value(i, j),
        (ExprKind::Op(p, xs), ExprKind::Op(q, ys)) => {
            p == q && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_value(x, y))
        }
        _ => false,
    }
}

/// Whether `e` has at most [`REASSOCIATED_NODES`] nodes.
fn small(e: &Expr) -> bool {
    let mut budget = REASSOCIATED_NODES;
    within(e, &mut budget)
}

/// Whether `e` has at most `budget` nodes (counting stops when it runs out).
fn within(e: &Expr, budget: &mut usize) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    match &e.kind {
        ExprKind::Constant { .. } | ExprKind::Var(_) => true,
        ExprKind::Field(base, _) | ExprKind::Swizzle(base, _) => within(base, budget),
        ExprKind::Index(base, index) => within(base, budget) && within(index, budget),
        ExprKind::Op(_, operands) | ExprKind::Intrinsic(_, operands) => {
            operands.iter().all(|o| within(o, budget))
        }
        ExprKind::Texture(t) => t.operands().all(|o| within(o, budget)),
    }
}

/// Component `i` of a vector sum, difference or `mod` (the operations
/// [`Invocation::sum_parts`] takes apart), as the same operation on the operands' component
/// `i` (a scalar operand stays whole). `None` for any other expression.
fn component_of(e: &Expr, i: u8) -> Option<Expr> {
    let ExprKind::Op(op @ (Op::Add | Op::Sub | Op::Mod), operands) = &e.kind else {
        return None;
    };
    if !e.ty.is_vector() || operands.iter().any(|o| o.ty.is_matrix()) {
        return None;
    }
    let scalar = e.ty.element()?;
    let pick = |o: &Expr| {
        if o.ty.is_scalar() {
            return o.clone();
        }
        let ty = o.ty.element().unwrap_or_else(|| scalar.clone());
        Expr::new(
            ExprKind::Swizzle(Box::new(o.clone()), vec![i]),
            ty,
            o.precision,
            o.span,
        )
    };
    let operands = operands.iter().map(pick).collect();
    Some(Expr::new(
        ExprKind::Op(*op, operands),
        scalar,
        e.precision,
        e.span,
    ))
}

/// The width an operation computes in, from its IR result type.
fn width_of_expr(e: &Expr) -> Width {
    super::ops::width_for(e.ty.base().unwrap_or(BaseType::Float), e.precision)
}

/// Every order in which a chain of one commutative operation (`+` or `*`) over `n` operands
/// may take them, one at a time: the orderings of `0..n` whose first two are ascending. An
/// ordering whose first two are swapped computes the same first operation on swapped
/// operands: an interval domain computes it bit for bit alike, and a point domain's hull
/// keeps the first ordering's value anyway, so it adds nothing to a hull.
pub(super) fn sequential_orders(n: usize) -> Vec<Vec<usize>> {
    orders(n)
        .into_iter()
        .filter(|order| order.len() < 2 || order[0] < order[1])
        .collect()
}

/// Every ordering of `0..n` (n <= 4 in practice).
fn orders(n: usize) -> Vec<Vec<usize>> {
    if n <= 1 {
        return vec![(0..n).collect()];
    }
    let mut out = Vec::new();
    for first in 0..n {
        for rest in orders(n - 1) {
            let mut order = vec![first];
            order.extend(rest.into_iter().map(|i| if i >= first { i + 1 } else { i }));
            out.push(order);
        }
    }
    out
}

impl<D: Domain> Invocation<'_, D> {
    /// Leaves open the lanes whose shift count is negative or at least `bits`, the width the
    /// shift computes in: GLSL ES 3.00 section 5.9 leaves such a shift of a 32-bit value
    /// undefined, and a driver that shifts a lowered (16-bit) value by 16 or more does what
    /// its hardware does (llvmpipe masks the count to 4 bits: `65535u >> 17` is 32767 there).
    pub(super) fn open_shift(&mut self, count: &Value<D::F>, bits: i64) {
        let counts: Vec<&Vec<i64>> = count
            .iter()
            .filter_map(|l| match l {
                Lanes::Int(v) => Some(v),
                _ => None,
            })
            .collect();
        self.leave_open(|i| {
            counts
                .iter()
                .any(|v| v.get(i).or(v.first()).is_some_and(|&c| c < 0 || c >= bits))
        });
    }

    /// Marks the lanes where `a op b` is left open by the ranges (`same`: both operands are
    /// one expression, as `isnan`'s `x != x`, decided unless the value may be NaN).
    pub(super) fn open_comparison(
        &mut self,
        op: Compare,
        a: &Value<D::F>,
        b: &Value<D::F>,
        same: bool,
    ) {
        self.note_indeterminate(&[a, b]);
        let d = self.domain;
        let n = a.len().max(b.len());
        let mut open = Vec::new();
        for c in 0..n {
            let (Some(Lanes::Float(x)), Some(Lanes::Float(y))) = (comp(a, c), comp(b, c)) else {
                continue;
            };
            let stored = x.len().max(y.len());
            open.resize(open.len().max(stored), false);
            for (i, slot) in open.iter_mut().enumerate().take(stored) {
                let (rx, ry) = (d.range(at(x, i)), d.range(at(y, i)));
                *slot |= if same {
                    !(rx.0.is_finite() && rx.1.is_finite())
                } else {
                    !decided(op, rx, ry)
                };
            }
        }
        self.leave_open_where(&open);
    }

    /// Marks the lanes where a float-to-integer or float-to-bool operation's result (of
    /// `base`) is left open by its operand's range, or undefined somewhere in it (a value out
    /// of the integer type's range; a bit cast of a zero, whose sign a driver may not keep;
    /// a packing built-in's formula, `packing.rs`, on an operand of `width`).
    pub(super) fn open_conversion(
        &mut self,
        op: Op,
        base: BaseType,
        a: &Value<D::F>,
        width: Width,
    ) {
        self.note_indeterminate(&[a]);
        let d = self.domain;
        let mut open = Vec::new();
        for lanes in a {
            let Lanes::Float(x) = lanes else {
                continue;
            };
            open.resize(open.len().max(x.len()), false);
            for (i, slot) in open.iter_mut().enumerate().take(x.len()) {
                let (lo, hi) = x.get(i).map_or((0.0, 0.0), |&v| d.range(v));
                let finite = lo.is_finite() && hi.is_finite();
                *slot |= match op {
                    Op::F2i | Op::F2u => {
                        !finite || lo.trunc() != hi.trunc() || conversion_out_of_range(base, lo, hi)
                    }
                    Op::F2b | Op::F162b => !finite || (lo <= 0.0 && hi >= 0.0 && lo != hi),
                    Op::PackUnorm2x16
                    | Op::PackSnorm2x16
                    | Op::PackUnorm4x8
                    | Op::PackSnorm4x8
                    | Op::PackHalf2x16 => !x.get(i).is_some_and(|&v| pack_decided(d, op, v, width)),
                    _ => lo != hi || (lo <= 0.0 && hi >= 0.0),
                };
            }
        }
        self.leave_open_where(&open);
    }

    /// Marks the lanes whose value may be infinite or NaN (for `isinf`).
    pub(super) fn open_finiteness(&mut self, a: &Value<D::F>) {
        self.note_indeterminate(&[a]);
        let d = self.domain;
        let mut open = Vec::new();
        for lanes in a {
            if let Lanes::Float(x) = lanes {
                open.resize(open.len().max(x.len()), false);
                for (slot, &v) in open.iter_mut().zip(x) {
                    let (lo, hi) = d.range(v);
                    *slot |= !(lo.is_finite() && hi.is_finite());
                }
            }
        }
        self.leave_open_where(&open);
    }

    /// Constant `e` (`value`), folded from `operation`: its value, or any a driver folding the
    /// operation its own way may give (the operation's allowance).
    pub(super) fn folded_constant(
        &mut self,
        e: &Expr,
        value: &ConstValue,
        operation: &Expr,
    ) -> ExecResult<Value<D::F>> {
        let d = self.domain;
        let folded = self.constant(value);
        let computed = self.eval(operation)?;
        let width =
            e.ty.base()
                .map_or(Width::Single, |b| width_for(b, e.precision));
        Ok(folded
            .into_iter()
            .zip(computed)
            .map(|(c, x)| match (c, x) {
                (Lanes::Float(c), Lanes::Float(x)) if c.len() == x.len() => Lanes::Float(
                    c.iter()
                        .zip(&x)
                        .map(|(&c, &x)| d.either(c, d.convert(x, width)))
                        .collect(),
                ),
                (c, _) => c,
            })
            .collect())
    }

    /// [`Invocation::leave_open`] for flags stored once (uniform) or per lane.
    fn leave_open_where(&mut self, open: &[bool]) {
        match open {
            [] | [false] => {}
            [true] => self.leave_open(|_| true),
            _ if open.contains(&true) => self.leave_open(|i| open.get(i).copied().unwrap_or(false)),
            _ => {}
        }
    }

    /// `c ? a : b` per component, where the select's condition left the `open` lanes
    /// undecided: those keep either operand and are followed both ways.
    pub(super) fn select_open(
        &mut self,
        selected: Value<D::F>,
        a: &Value<D::F>,
        b: &Value<D::F>,
        open: &[bool],
    ) -> Value<D::F> {
        let d = self.domain;
        let n = self.lanes;
        let mut diverged = vec![false; n];
        let out = selected
            .into_iter()
            .enumerate()
            .map(|(c, lanes)| {
                let (Some(x), Some(y)) = (comp(a, c), comp(b, c)) else {
                    return lanes;
                };
                let mut merged = lanes.expanded(n);
                for i in (0..n).filter(|&i| open[i]) {
                    match (&mut merged, x, y) {
                        (Lanes::Float(m), Lanes::Float(x), Lanes::Float(y)) => {
                            if let Some(slot) = m.get_mut(i) {
                                let other = if *slot == at(x, i) {
                                    at(y, i)
                                } else {
                                    at(x, i)
                                };
                                *slot = d.either(*slot, other);
                            }
                        }
                        (_, x, y) => diverged[i] |= x.lane(i) != y.lane(i),
                    }
                }
                merged
            })
            .collect();
        for i in (0..n).filter(|&i| open[i] && !diverged[i]) {
            self.state.uncertain[i] = false;
        }
        out
    }

    /// `sum over k of x_k * y_k` as the driver's profile orders it; in a domain that tracks
    /// ranges, also every sequential order (dEQP accepts any).
    pub(super) fn sum_any_order(
        &self,
        order: Dot,
        pairs: &[Factors<'_, D::F>],
        width: Width,
    ) -> Vec<D::F> {
        let d = self.domain;
        if !d.tracks_ranges() {
            return sum_of_products(d, order, pairs, width);
        }
        if pairs.len() < 3 {
            // Two terms: addition commutes, but the factor they share may still be taken
            // out (llvmpipe computes `dot(vec2(w), v)` as `w * (v.x + v.y)`).
            let sum = sum_of_products(d, order, pairs, width);
            return self.factored(pairs, sum, width);
        }
        let terms = products(d, pairs, width);
        let modelled = match order {
            Dot::Fused => sum_of_products(d, order, pairs, width),
            _ => sum_of_terms(d, order, &terms, width),
        };
        let sum = |order: &[usize]| -> Vec<D::F> {
            let mut acc = terms[order[0]].clone();
            for &k in &order[1..] {
                acc = map2(&acc, &terms[k], |s, t| d.binary(Binary::Add, s, t, width));
            }
            acc
        };
        let every_order = sequential_orders(terms.len())
            .iter()
            .fold(modelled, |acc, order| {
                map2(&acc, &sum(order), |a, b| d.either(a, b))
            });
        self.factored(pairs, every_order, width)
    }

    /// `sum` widened, at the lanes where two products share a factor, to every value the
    /// sum may take once a driver factors it out (`x*a + x*b` as `x*(a + b)`: NIR does for
    /// `dot(v.xxx, w)` on llvmpipe): the exact sum's range, plus one rounding per operation
    /// (the products' and the additions') at the largest magnitude the terms reach.
    fn factored(&self, pairs: &[Factors<'_, D::F>], sum: Vec<D::F>, width: Width) -> Vec<D::F> {
        let d = self.domain;
        let lanes = pairs
            .iter()
            .map(|(x, y)| x.len().max(y.len()))
            .max()
            .unwrap_or(1)
            .max(sum.len());
        let factors = |k: usize, i: usize| [at(pairs[k].0, i), at(pairs[k].1, i)];
        let shared = |i: usize| {
            (0..pairs.len()).any(|j| {
                let a = factors(j, i);
                (j + 1..pairs.len()).any(|k| {
                    let b = factors(k, i);
                    a.iter().any(|p| b.iter().any(|q| d.same(p, q)))
                })
            })
        };
        (0..lanes)
            .map(|i| {
                let kept = at(&sum, i);
                if !shared(i) {
                    return kept;
                }
                let (mut lo, mut hi, mut magnitude) = (0.0f64, 0.0f64, 0.0f64);
                for (x, y) in pairs {
                    let ((a, b), (c, e)) = (d.range(at(x, i)), d.range(at(y, i)));
                    let corners = [a * c, a * e, b * c, b * e];
                    lo += corners.iter().copied().fold(f64::INFINITY, f64::min);
                    hi += corners.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    magnitude += corners.iter().fold(0.0f64, |m, p| m.max(p.abs()));
                }
                let n = pairs.len();
                let slack = d.reassociation_slack(magnitude, n + 1, width)
                    + magnitude * n as f64 * f64::EPSILON;
                if lo.is_finite() && hi.is_finite() && slack.is_finite() {
                    d.either(kept, d.enter(lo, lo - slack, hi + slack, width))
                } else {
                    d.either(kept, d.enter(lo, f64::NAN, f64::NAN, width))
                }
            })
            .collect()
    }

    /// Every value another order of the same operations may give, when the domain tracks
    /// ranges: for a sum or difference with a sum or difference as a term
    /// ([`Invocation::reassociated_sum`]), and for a product of a product, `(x * y) * z`
    /// (Mesa folds `(a * #b) * #c` into `a * (#b * #c)`, which overflows binary16 where the
    /// written order does not). `None` for any other operation.
    pub(super) fn reassociated(
        &mut self,
        op: Binary,
        operands: &[Expr],
        values: &[Value<D::F>],
        width: Width,
    ) -> ExecResult<Option<Value<D::F>>> {
        let floats = values
            .iter()
            .all(|v| matches!(v.first(), Some(Lanes::Float(_))));
        if !self.domain.tracks_ranges() || !floats {
            return Ok(None);
        }
        match op {
            Binary::Add | Binary::Sub => self.reassociated_sum(op, operands, values, width),
            Binary::Mul => self.reassociated_product(operands, values, width),
            _ => Ok(None),
        }
    }

    /// `(x ± y) ± z` and longer: the terms are found through nested sums and differences of
    /// `width` and through the variables a driver sees through ([`forward`](super::forward)),
    /// up to [`SUM_TERMS`]. Any order of adding them (compilers reassociate: Mesa folds
    /// `(a + #b) + #c` into `a + (#b + #c)`) ends within one rounding per addition, at the
    /// largest magnitude a partial sum may reach, of the exact sum's range.
    fn reassociated_sum(
        &mut self,
        op: Binary,
        operands: &[Expr],
        values: &[Value<D::F>],
        width: Width,
    ) -> ExecResult<Option<Value<D::F>>> {
        let d = self.domain;
        // Signed terms: (value, negated).
        let mut terms: Vec<(Value<D::F>, bool)> = Vec::new();
        let mut expanded = false;
        for (k, (operand, value)) in operands.iter().zip(values).enumerate() {
            let negated = k == 1 && op == Binary::Sub;
            match self.sum_parts(operand, width) {
                Some((a, b, minus)) => {
                    expanded = true;
                    self.sum_terms(&a, negated, width, &mut terms)?;
                    self.sum_terms(&b, negated != minus, width, &mut terms)?;
                }
                None if self.bool_to_float(operand) => {
                    expanded = true;
                    self.push_complemented(value, negated, width, &mut terms);
                }
                None => terms.push((value.clone(), negated)),
            }
        }
        if !expanded {
            return Ok(None);
        }
        let n = terms.len();
        let components = terms.iter().map(|(v, _)| v.len()).max().unwrap_or(0);
        let mut out = Vec::with_capacity(components);
        for c in 0..components {
            let lanes: Vec<(&Vec<D::F>, bool)> = terms
                .iter()
                .filter_map(|(v, negated)| match comp(v, c) {
                    Some(Lanes::Float(x)) => Some((x, *negated)),
                    _ => None,
                })
                .collect();
            if lanes.len() != n {
                return Ok(None);
            }
            let count = lanes.iter().map(|(x, _)| x.len()).max().unwrap_or(1);
            let sums = (0..count)
                .map(|i| {
                    let (mut lo, mut hi, mut magnitude) = (0.0f64, 0.0f64, 0.0f64);
                    for (x, negated) in &lanes {
                        let (a, b) = d.range(at(x, i));
                        let (a, b) = if *negated { (-b, -a) } else { (a, b) };
                        lo += a;
                        hi += b;
                        magnitude += a.abs().max(b.abs());
                    }
                    // The binary64 sums' own rounding, far below any format's.
                    let slack = d.reassociation_slack(magnitude, n, width)
                        + magnitude * n as f64 * f64::EPSILON;
                    if lo.is_finite() && hi.is_finite() && slack.is_finite() {
                        d.enter(lo, lo - slack, hi + slack, width)
                    } else {
                        d.enter(lo, f64::NAN, f64::NAN, width)
                    }
                })
                .collect();
            out.push(Lanes::Float(sums));
        }
        Ok(Some(out))
    }

    /// The two operands of `e` as a sum of `width` whose parts are small enough to compute
    /// again, and whether the second is subtracted; `e` may be a variable that holds such a
    /// sum, or one component of a vector variable that holds one
    /// ([`forward`](super::forward)). `mod(x, y)` is the sum `x - y * floor(x / y)`, its
    /// definition: a driver that writes it so may add `x` to the other terms first (llvmpipe
    /// computes `a + mod(x, y)` as `(a + x) - y * floor(x / y)`).
    fn sum_parts(&self, e: &Expr, width: Width) -> Option<(Expr, Expr, bool)> {
        let component;
        let held = match &e.kind {
            ExprKind::Swizzle(base, picked) if picked.len() == 1 => {
                let ExprKind::Var(id) = &base.kind else {
                    return None;
                };
                component = component_of(self.forwarded.get(id)?, picked[0])?;
                &component
            }
            _ => self.held(e)?,
        };
        if width_of_expr(held) != width {
            return None;
        }
        match &held.kind {
            ExprKind::Op(inner @ (Op::Add | Op::Sub), parts)
                if parts.len() == 2 && parts.iter().all(small) =>
            {
                Some((parts[0].clone(), parts[1].clone(), *inner == Op::Sub))
            }
            ExprKind::Op(Op::Mod, parts)
                if parts.len() == 2
                    && held.ty.base() == Some(BaseType::Float)
                    && parts.iter().all(small) =>
            {
                let (x, y) = (&parts[0], &parts[1]);
                let node = |op, operands| {
                    Expr::new(
                        ExprKind::Op(op, operands),
                        held.ty.clone(),
                        held.precision,
                        held.span,
                    )
                };
                let quotient = node(Op::Floor, vec![node(Op::Div, vec![x.clone(), y.clone()])]);
                Some((x.clone(), node(Op::Mul, vec![y.clone(), quotient]), true))
            }
            _ => None,
        }
    }

    /// Pushes the signed terms of `e` (itself, or those of the sum it is, while there is room
    /// under [`SUM_TERMS`]).
    fn sum_terms(
        &mut self,
        e: &Expr,
        negated: bool,
        width: Width,
        terms: &mut Vec<(Value<D::F>, bool)>,
    ) -> ExecResult<()> {
        if terms.len() + 2 < SUM_TERMS {
            if let Some((a, b, minus)) = self.sum_parts(e, width) {
                self.sum_terms(&a, negated, width, terms)?;
                return self.sum_terms(&b, negated != minus, width, terms);
            }
            if self.bool_to_float(e) {
                let value = self.eval(e)?;
                self.push_complemented(&value, negated, width, terms);
                return Ok(());
            }
        }
        terms.push((self.eval(e)?, negated));
        Ok(())
    }

    /// Whether `e` (or the value the variable `e` holds) is a bool turned into a float:
    /// `float(b)` or `step`, which the compiler writes as one.
    fn bool_to_float(&self, e: &Expr) -> bool {
        self.held(e)
            .is_some_and(|held| matches!(&held.kind, ExprKind::Op(Op::B2f, _)))
    }

    /// What `e` computes: the expression a forwarded variable holds
    /// ([`forward`](super::forward)), `e` itself where it is no variable, `None` for a
    /// variable a driver cannot see through.
    fn held<'e>(&'e self, e: &'e Expr) -> Option<&'e Expr> {
        match &e.kind {
            ExprKind::Var(id) => self.forwarded.get(id),
            _ => Some(e),
        }
    }

    /// Pushes a bool turned into a float, `t`, as the two terms `1 - (1 - t)`: a driver may
    /// write it so and add its 1 to the other terms first (lavapipe, under zink and ANGLE,
    /// computes `0.04 + step(e, x)` with step 0 as `(0.04 + 1) - 1`), so the sum's rounding is
    /// that of a magnitude one larger. Both terms are exact: `t` is 0 or 1.
    fn push_complemented(
        &self,
        value: &Value<D::F>,
        negated: bool,
        width: Width,
        terms: &mut Vec<(Value<D::F>, bool)>,
    ) {
        let d = self.domain;
        let (mut ones, mut complements) = (Vec::new(), Vec::new());
        for lanes in value {
            let (one, complement) = match lanes {
                Lanes::Float(x) => (
                    Lanes::Float(x.iter().map(|_| d.constant(1.0)).collect()),
                    Lanes::Float(
                        x.iter()
                            .map(|&t| d.binary(Binary::Sub, d.constant(1.0), t, width))
                            .collect(),
                    ),
                ),
                other => (other.clone(), other.clone()),
            };
            ones.push(one);
            complements.push(complement);
        }
        terms.push((ones, negated));
        terms.push((complements, !negated));
    }

    /// The factors of `e` as a product of `width` whose factors are small enough to compute
    /// again, followed through nested products, the variables a driver sees through
    /// ([`forward`](super::forward)), `max`/`min` of one operand twice (which a driver folds
    /// to it) and `x + x` (which NIR rewrites as `x * 2`); at most [`PRODUCT_FACTORS`].
    /// `None` where `e` is no such product.
    fn product_factors(&self, e: &Expr, width: Width) -> Option<Vec<Factor>> {
        let e = match &e.kind {
            ExprKind::Op(Op::Max | Op::Min, operands)
                if operands.len() == 2 && same_value(&operands[0], &operands[1]) =>
            {
                &operands[0]
            }
            _ => e,
        };
        let held = self.held(e)?;
        let (parts, doubled) = match &held.kind {
            ExprKind::Op(Op::Mul, parts) if parts.len() == 2 => (&parts[..], false),
            ExprKind::Op(Op::Add, parts)
                if parts.len() == 2 && same_value(&parts[0], &parts[1]) =>
            {
                (&parts[..1], true)
            }
            _ => return None,
        };
        if width_of_expr(held) != width || !parts.iter().all(small) {
            return None;
        }
        let two = doubled.then_some(Factor::Two);
        let deep: Vec<Factor> = parts
            .iter()
            .flat_map(|part| {
                self.product_factors(part, width)
                    .unwrap_or_else(|| vec![Factor::Of(part.clone())])
            })
            .chain(two.clone())
            .collect();
        if deep.len() <= PRODUCT_FACTORS {
            return Some(deep);
        }
        // Too many to order: the first level alone.
        Some(parts.iter().cloned().map(Factor::Of).chain(two).collect())
    }

    /// `(c ? a : b) * k` as `c ? a * k : b * k`: a driver may move a product into a
    /// selection (NIR does), and then reorder each branch's product. `None` where neither
    /// operand is such a selection.
    fn distributed_select(
        &mut self,
        operands: &[Expr],
        width: Width,
    ) -> ExecResult<Option<Value<D::F>>> {
        let [x, y] = operands else {
            return Ok(None);
        };
        for (select, other) in [(x, y), (y, x)] {
            let ExprKind::Op(Op::Csel, parts) = &select.kind else {
                continue;
            };
            if parts.len() != 3 || width_of_expr(select) != width || !small(other) {
                continue;
            }
            if !parts.iter().all(small) || other.ty.is_matrix() || select.ty.is_matrix() {
                continue;
            }
            let ty = if other.ty.is_scalar() {
                select.ty.clone()
            } else {
                other.ty.clone()
            };
            let times = |branch: &Expr| {
                let product = vec![branch.clone(), other.clone()];
                Expr::new(
                    ExprKind::Op(Op::Mul, product),
                    ty.clone(),
                    select.precision,
                    select.span,
                )
            };
            let distributed = Expr::new(
                ExprKind::Op(
                    Op::Csel,
                    vec![parts[0].clone(), times(&parts[1]), times(&parts[2])],
                ),
                ty.clone(),
                select.precision,
                select.span,
            );
            return self.eval(&distributed).map(Some);
        }
        Ok(None)
    }

    /// `(x * y) * z` and longer ([`Invocation::product_factors`]): the product in every order
    /// of its factors; and a product of a selection, in each branch
    /// ([`Invocation::distributed_select`]).
    fn reassociated_product(
        &mut self,
        operands: &[Expr],
        values: &[Value<D::F>],
        width: Width,
    ) -> ExecResult<Option<Value<D::F>>> {
        if let Some(distributed) = self.distributed_select(operands, width)? {
            return Ok(Some(distributed));
        }
        let d = self.domain;
        let mut factors: Vec<Value<D::F>> = Vec::new();
        let mut expanded = false;
        for (operand, value) in operands.iter().zip(values) {
            match self.product_factors(operand, width) {
                Some(parts) if factors.len() + parts.len() < PRODUCT_FACTORS + 2 => {
                    expanded = true;
                    for part in parts {
                        factors.push(match part {
                            Factor::Of(e) => self.eval(&e)?,
                            Factor::Two => vec![Lanes::Float(vec![d.constant(2.0)])],
                        });
                    }
                }
                _ => factors.push(value.clone()),
            }
        }
        if !expanded {
            return Ok(None);
        }
        let lanewise = |a: &Value<D::F>, b: &Value<D::F>, f: &dyn Fn(D::F, D::F) -> D::F| {
            let n = a.len().max(b.len());
            (0..n)
                .filter_map(|c| match (comp(a, c), comp(b, c)) {
                    (Some(Lanes::Float(x)), Some(Lanes::Float(y))) => {
                        Some(Lanes::Float(map2(x, y, f)))
                    }
                    _ => None,
                })
                .collect::<Value<D::F>>()
        };
        let multiply = |p: D::F, q: D::F| d.binary(Binary::Mul, p, q, width);
        let either = |p: D::F, q: D::F| d.either(p, q);
        let mut hull: Option<Value<D::F>> = None;
        for order in sequential_orders(factors.len()) {
            let product = order[1..]
                .iter()
                .fold(factors[order[0]].clone(), |acc, &k| {
                    lanewise(&acc, &factors[k], &multiply)
                });
            hull = Some(match hull {
                None => product,
                Some(h) => lanewise(&h, &product, &either),
            });
        }
        Ok(hull)
    }

    /// For a product by the binary32 value of `180/pi` or `pi/180` (how `degrees()` and
    /// `radians()` are built), the product by any value near the real constant, when the
    /// domain tracks ranges: a driver may build the constant or the product otherwise (one
    /// binary32 ulp off was measured). `None` for any other operation.
    pub(super) fn angle_conversion(
        &self,
        op: Binary,
        operands: &[Expr],
        values: &[Value<D::F>],
        width: Width,
    ) -> Option<Value<D::F>> {
        let d = self.domain;
        if !d.tracks_ranges() || op != Binary::Mul {
            return None;
        }
        let factor = |e: &Expr| -> Option<f64> {
            let components = e.constant()?.components();
            let x = components.first()?.to_f64();
            if components.iter().any(|s| s.to_f64() != x) {
                return None;
            }
            let real = [180.0 / std::f64::consts::PI, std::f64::consts::PI / 180.0]
                .into_iter()
                .find(|&k| x == f64::from(k as f32))?;
            Some(real)
        };
        let (k, real) = (0..2).find_map(|k| factor(&operands[k]).map(|real| (k, real)))?;
        let other = values.get(1 - k)?;
        // 2^-20 relative: eight binary32 ulps either way.
        let slack = real * (1.0 / f64::from(1u32 << 20));
        let constant = d.enter(real as f32 as f64, real - slack, real + slack, width);
        Some(
            other
                .iter()
                .map(|lanes| match lanes {
                    Lanes::Float(v) => Lanes::Float(
                        v.iter()
                            .map(|&x| d.binary(Binary::Mul, x, constant, width))
                            .collect(),
                    ),
                    other => other.clone(),
                })
                .collect(),
        )
    }

    /// `mix(a, b, c)` as the driver's profile expands it; in a domain that tracks ranges, also
    /// `a + c (b - a)` and dEQP's `a (1 - c) + b c`.
    pub(super) fn lerp(&self, mix: Mix, a: D::F, b: D::F, c: D::F, width: Width) -> D::F {
        let d = self.domain;
        let modelled = lerp(d, mix, a, b, c, width);
        if !d.tracks_ranges() {
            return modelled;
        }
        [Mix::Delta, Mix::Weights]
            .into_iter()
            .fold(modelled, |acc, form| {
                d.either(acc, lerp(d, form, a, b, c, width))
            })
    }

    /// For `x * inversesqrt(dot(..))` (how `normalize` is built), the other form dEQP accepts,
    /// `x / sqrt(dot(..))`, when the domain tracks ranges and `factor` is that inverse square
    /// root.
    pub(super) fn normalize_form(
        &mut self,
        x: &Value<D::F>,
        factor: &Expr,
        width: Width,
    ) -> ExecResult<Option<Value<D::F>>> {
        let d = self.domain;
        let ExprKind::Op(Op::Rsq, inner) = &factor.kind else {
            return Ok(None);
        };
        let Some(dot) = inner
            .first()
            .filter(|e| matches!(e.kind, ExprKind::Op(Op::Dot, _)))
        else {
            return Ok(None);
        };
        if !d.tracks_ranges() {
            return Ok(None);
        }
        let dot_width = width_of_expr(dot);
        let value = self.eval(dot)?;
        let Some(Lanes::Float(squared)) = value.first() else {
            return Ok(None);
        };
        let length: Vec<D::F> = squared
            .iter()
            .map(|&s| d.unary(Unary::Sqrt, s, dot_width))
            .collect();
        Ok(Some(
            x.iter()
                .map(|lanes| match lanes {
                    Lanes::Float(v) => {
                        Lanes::Float(map2(v, &length, |a, l| d.binary(Binary::Div, a, l, width)))
                    }
                    other => other.clone(),
                })
                .collect(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_order_is_listed_once() {
        let all = orders(4);
        assert_eq!(all.len(), 24);
        assert_eq!(all[0], vec![0, 1, 2, 3]);
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 24);
        let chains = sequential_orders(4);
        assert_eq!(chains.len(), 12);
        assert!(chains.iter().all(|o| o[0] < o[1]));
        assert_eq!(sequential_orders(1), vec![vec![0]]);
    }

    #[test]
    fn overlapping_ranges_leave_comparisons_open() {
        assert!(decided(Compare::Less, (0.0, 1.0), (2.0, 3.0)));
        assert!(decided(Compare::Less, (2.0, 3.0), (0.0, 1.0)));
        assert!(!decided(Compare::Less, (0.0, 2.5), (2.0, 3.0)));
        assert!(decided(Compare::Equal, (1.0, 1.0), (1.0, 1.0)));
        assert!(!decided(Compare::Equal, (0.5, 1.0), (1.0, 1.0)));
        assert!(!decided(
            Compare::Less,
            (f64::NEG_INFINITY, f64::INFINITY),
            (0.0, 0.0)
        ));
    }
}
