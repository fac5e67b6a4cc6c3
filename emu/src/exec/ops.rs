//! Operations ([`Op`]) over batches: float arithmetic through the [`Domain`] at the width of
//! the result type, integers wrapped to their width, conversions, matrix products,
//! derivatives over 2x2 quads, packing and bit operations.
//!
//! How products and sums of several terms (`dot`, matrix products) add up, how `mix` expands,
//! whether `a * b + c` contracts into one fused operation, and how derivatives pair pixels
//! are the driver profile's choices (`Domain::driver`); a domain that tracks ranges also
//! takes every other order and form (see [`super::ranges`]).

use super::domain::{Binary, Compare, Unary, Width};
use super::reuse;
use super::value::{at, map1, map2, map3, Lanes, Value};
use super::{error, Arrangement, Domain, ExecResult, Invocation};
use crate::profile::{Derivatives, Dot, Mix};
use halfcheck_compiler::ir::{BaseType, Expr, ExprKind, Op, Precision, Type};

/// The width a float operation with result base `base` computes in.
pub(super) fn width_of(base: BaseType) -> Width {
    if base == BaseType::Float16 {
        Width::Half
    } else {
        Width::Single
    }
}

/// The width an operation computes in: from its result type, lowp where a lowered operation
/// is lowp.
pub(super) fn width_for(base: BaseType, precision: Precision) -> Width {
    match width_of(base) {
        Width::Half if precision == Precision::Low => Width::Low,
        other => other,
    }
}

/// `v` wrapped to the range of `base` (16-bit types only when `lowers`).
pub(super) fn wrap(v: i64, base: BaseType, lowers: bool) -> i64 {
    match base {
        BaseType::Int => i64::from(v as i32),
        BaseType::Uint => i64::from(v as u32),
        BaseType::Int16 if lowers => i64::from(v as i16),
        BaseType::Int16 => i64::from(v as i32),
        BaseType::Uint16 if lowers => i64::from(v as u16),
        BaseType::Uint16 => i64::from(v as u32),
        _ => v,
    }
}

fn unary_of(op: Op) -> Option<Unary> {
    Some(match op {
        Op::Neg => Unary::Neg,
        Op::Abs => Unary::Abs,
        Op::Sign => Unary::Sign,
        Op::Rcp => Unary::Rcp,
        Op::Rsq => Unary::Rsq,
        Op::Sqrt => Unary::Sqrt,
        Op::Exp => Unary::Exp,
        Op::Log => Unary::Log,
        Op::Exp2 => Unary::Exp2,
        Op::Log2 => Unary::Log2,
        Op::Trunc => Unary::Trunc,
        Op::Ceil => Unary::Ceil,
        Op::Floor => Unary::Floor,
        Op::Fract => Unary::Fract,
        Op::RoundEven => Unary::RoundEven,
        Op::Sin => Unary::Sin,
        Op::Cos => Unary::Cos,
        Op::Atan => Unary::Atan,
        Op::Saturate => Unary::Saturate,
        _ => return None,
    })
}

fn binary_of(op: Op) -> Option<Binary> {
    Some(match op {
        Op::Add => Binary::Add,
        Op::Sub => Binary::Sub,
        Op::Mul => Binary::Mul,
        Op::Div => Binary::Div,
        Op::Mod => Binary::Mod,
        Op::Min => Binary::Min,
        Op::Max => Binary::Max,
        Op::Pow => Binary::Pow,
        Op::Atan2 => Binary::Atan2,
        _ => return None,
    })
}

fn compare_of(op: Op) -> Option<Compare> {
    Some(match op {
        Op::Less => Compare::Less,
        Op::Greater => Compare::Greater,
        Op::LessEqual => Compare::LessEqual,
        Op::GreaterEqual => Compare::GreaterEqual,
        Op::Equal => Compare::Equal,
        Op::NotEqual => Compare::NotEqual,
        _ => return None,
    })
}

/// The error for an operation given operands it cannot take.
pub(super) fn bad<T>(e: &Expr, op: Op) -> ExecResult<T> {
    error(e.span, format!("{} on operands it cannot take", op.name()))
}

/// `f` lane by lane on the first three of `values`, all floats, component by component (a
/// scalar standing for every component); `None` when one is not a float.
fn zip3_floats<F: Copy>(values: &[Value<F>], f: impl Fn(F, F, F) -> F) -> Option<Value<F>> {
    let [a, b, c] = [values.first()?, values.get(1)?, values.get(2)?];
    let n = a.len().max(b.len()).max(c.len());
    (0..n)
        .map(|i| match (comp(a, i)?, comp(b, i)?, comp(c, i)?) {
            (Lanes::Float(a), Lanes::Float(b), Lanes::Float(c)) => {
                Some(Lanes::Float(map3(a, b, c, &f)))
            }
            _ => None,
        })
        .collect()
}

/// Component `i` of a value, a scalar standing for every component.
pub(super) fn comp<F>(v: &Value<F>, i: usize) -> Option<&Lanes<F>> {
    if v.len() == 1 {
        v.first()
    } else {
        v.get(i)
    }
}

fn int_binary(op: Binary, a: i64, b: i64) -> i64 {
    match op {
        Binary::Add => a.wrapping_add(b),
        Binary::Sub => a.wrapping_sub(b),
        Binary::Mul => a.wrapping_mul(b),
        Binary::Div => a.checked_div(b).unwrap_or(-1),
        Binary::Mod => a.checked_rem(b).unwrap_or(0),
        Binary::Min => a.min(b),
        Binary::Max => a.max(b),
        Binary::Pow | Binary::Atan2 => 0,
    }
}

impl<D: Domain> Invocation<'_, D> {
    /// Evaluates `e`, the operation `op` on `operands`.
    pub(super) fn op(&mut self, e: &Expr, op: Op, operands: &[Expr]) -> ExecResult<Value<D::F>> {
        if operands.len() != op.arity() {
            return error(
                e.span,
                format!("{} takes {} operands", op.name(), op.arity()),
            );
        }
        let ranges = self.domain.tracks_ranges();
        let before = (ranges && op == Op::Csel).then(|| self.state.uncertain.clone());
        let base = e.ty.base().unwrap_or(BaseType::Float);
        let width = width_for(base, e.precision);
        if let Some(b) = binary_of(op) {
            if let Some(fused) = self.contracted(e, b, operands, width)? {
                return Ok(fused);
            }
        }
        let mut values = Vec::with_capacity(operands.len());
        for o in operands {
            values.push(self.eval(o)?);
        }
        // The lanes whose select condition the ranges left open.
        let open_select: Option<Vec<bool>> = before.map(|before| {
            (0..self.lanes)
                .map(|i| self.state.uncertain[i] && !before[i])
                .collect()
        });
        let lowers = self.domain.lowers_ints();
        let d = self.domain;
        if let Some(u) = unary_of(op) {
            // A costly operation on an operand that varies: its last result, when the
            // operand is the same bit for bit (`reuse`).
            let key = e as *const Expr as usize;
            let kept = reuse::costly(u) && values[0].iter().any(|l| l.len() > 1);
            if kept {
                if let Some(result) = self.recent.find(d, key, u, width, &values[0]) {
                    return Ok(result);
                }
            }
            let out = reuse::componentwise(d, &[&values[0]], |lanes| match lanes[0] {
                Lanes::Float(a) => Some(Lanes::Float(map1(a, |x| d.unary(u, x, width)))),
                Lanes::Int(a) => Some(Lanes::Int(map1(a, |x| {
                    let r = match u {
                        Unary::Neg => x.wrapping_neg(),
                        Unary::Abs => x.wrapping_abs(),
                        Unary::Sign => x.signum(),
                        _ => x,
                    };
                    wrap(r, base, lowers)
                }))),
                Lanes::Bool(_) => None,
            })
            .map_or_else(|| bad(e, op), Ok)?;
            if kept {
                self.recent
                    .keep(key, u, width, values.swap_remove(0), out.clone());
            }
            return Ok(out);
        }
        if let Some(b) = binary_of(op) {
            let matrix = operands[0].ty.is_matrix() || operands[1].ty.is_matrix();
            let scalar = operands[0].ty.is_scalar() || operands[1].ty.is_scalar();
            if op == Op::Mul && matrix && !scalar {
                return self.matrix_product(e, &operands[0], &operands[1], &values, width);
            }
            let integers = matches!(values[0].first(), Some(Lanes::Int(_)));
            if integers && matches!(b, Binary::Div | Binary::Mod) {
                self.open_integer_division(b == Binary::Mod, &values[0], &values[1]);
            }
            if integers && ranges && matches!(base, BaseType::Int16 | BaseType::Uint16) {
                let exact = self.zip2(&values[0], &values[1], |x, y| match (x, y) {
                    (Lanes::Int(x), Lanes::Int(y)) => {
                        Some(Lanes::Int(map2(x, y, |p, q| int_binary(b, p, q))))
                    }
                    _ => None,
                });
                if let Some(exact) = exact {
                    self.open_integer_overflow(base, &exact);
                }
            }
            let alternative = if op == Op::Mul && ranges {
                self.normalize_form(&values[0], &operands[1], width)?
            } else {
                None
            };
            let product =
                reuse::componentwise(d, &[&values[0], &values[1]], |l| match (l[0], l[1]) {
                    (Lanes::Float(x), Lanes::Float(y)) => {
                        Some(Lanes::Float(map2(x, y, |p, q| d.binary(b, p, q, width))))
                    }
                    (Lanes::Int(x), Lanes::Int(y)) => Some(Lanes::Int(map2(x, y, |p, q| {
                        wrap(int_binary(b, p, q), base, lowers)
                    }))),
                    _ => None,
                })
                .map_or_else(|| bad(e, op), Ok)?;
            let alternative = match alternative {
                Some(other) => Some(other),
                None => match self.reassociated(b, operands, &values, width)? {
                    Some(other) => Some(other),
                    None => self.angle_conversion(b, operands, &values, width),
                },
            };
            return Ok(match alternative {
                Some(other) => self
                    .zip2(&product, &other, |x, y| match (x, y) {
                        (Lanes::Float(x), Lanes::Float(y)) => {
                            Some(Lanes::Float(map2(x, y, |p, q| d.either(p, q))))
                        }
                        _ => Some(x.clone()),
                    })
                    .unwrap_or(product),
                None => product,
            });
        }
        if let Some(c) = compare_of(op) {
            let out = self
                .zip2(&values[0], &values[1], |x, y| compare(d, c, x, y))
                .map_or_else(|| bad(e, op), Ok)?;
            if ranges {
                let same = operands[0] == operands[1];
                self.open_comparison(c, &values[0], &values[1], same);
            }
            return Ok(out);
        }
        match op {
            Op::AllEqual | Op::AnyNequal => {
                let c = if op == Op::AllEqual {
                    Compare::Equal
                } else {
                    Compare::NotEqual
                };
                let per = self
                    .zip2(&values[0], &values[1], |x, y| compare(d, c, x, y))
                    .map_or_else(|| bad(e, op), Ok)?;
                if ranges {
                    let same = operands[0] == operands[1];
                    self.open_comparison(c, &values[0], &values[1], same);
                }
                let mut acc = vec![op == Op::AllEqual];
                for lanes in &per {
                    if let Lanes::Bool(v) = lanes {
                        acc = map2(
                            &acc,
                            v,
                            |p, q| if op == Op::AllEqual { p && q } else { p || q },
                        );
                    }
                }
                Ok(vec![Lanes::Bool(acc)])
            }
            Op::LogicNot => self
                .map_bool(&values[0], |x| !x)
                .map_or_else(|| bad(e, op), Ok),
            Op::LogicAnd | Op::LogicOr | Op::LogicXor => self
                .zip2(&values[0], &values[1], |x, y| {
                    let (Lanes::Bool(x), Lanes::Bool(y)) = (x, y) else {
                        return None;
                    };
                    Some(Lanes::Bool(map2(x, y, |p, q| match op {
                        Op::LogicAnd => p && q,
                        Op::LogicOr => p || q,
                        _ => p != q,
                    })))
                })
                .map_or_else(|| bad(e, op), Ok),
            Op::BitNot => self
                .map_int(&values[0], |x| wrap(!x, base, lowers))
                .map_or_else(|| bad(e, op), Ok),
            Op::BitAnd | Op::BitOr | Op::BitXor | Op::Lshift | Op::Rshift => {
                // A lowered shift masks its count to the 16-bit width, as NIR's shifts do
                // (llvmpipe: `65535u >> 17` is 32767); the ranges leave it open.
                // A shift counts modulo the operand's width: 64 bits only inside
                // `imulExtended`/`umulExtended`, whose high word is the product >> 32.
                let sixteen = lowers && matches!(base, BaseType::Int16 | BaseType::Uint16);
                let mask = if matches!(base, BaseType::Int64 | BaseType::Uint64) {
                    63
                } else if sixteen {
                    15
                } else {
                    31
                };
                if ranges && matches!(op, Op::Lshift | Op::Rshift) {
                    self.open_shift(&values[1], mask + 1);
                }
                self.zip2(&values[0], &values[1], |x, y| {
                    let (Lanes::Int(x), Lanes::Int(y)) = (x, y) else {
                        return None;
                    };
                    Some(Lanes::Int(map2(x, y, |p, q| {
                        let r = match op {
                            Op::BitAnd => p & q,
                            Op::BitOr => p | q,
                            Op::BitXor => p ^ q,
                            Op::Lshift => p << (q & mask),
                            _ => p >> (q & mask),
                        };
                        wrap(r, base, lowers)
                    })))
                })
                .map_or_else(|| bad(e, op), Ok)
            }
            Op::Dot => {
                let terms = values[0].len().max(values[1].len());
                let pairs = (0..terms)
                    .map(|i| match (comp(&values[0], i), comp(&values[1], i)) {
                        (Some(Lanes::Float(x)), Some(Lanes::Float(y))) => Ok((x, y)),
                        _ => bad(e, op),
                    })
                    .collect::<ExecResult<Vec<_>>>()?;
                let order = d.driver().arithmetic.dot;
                Ok(vec![Lanes::Float(self.sum_any_order(order, &pairs, width))])
            }
            Op::Lrp => {
                let arithmetic = d.driver().arithmetic;
                let mix = match width {
                    Width::Single => arithmetic.mix,
                    Width::Half | Width::Low => arithmetic.mix16,
                };
                zip3_floats(&values, |a, b, c| self.lerp(mix, a, b, c, width))
                    .map_or_else(|| bad(e, op), Ok)
            }
            Op::Fma => {
                zip3_floats(&values, |a, b, c| d.fma(a, b, c, width)).map_or_else(|| bad(e, op), Ok)
            }
            Op::Csel => {
                let n = values[1].len().max(values[2].len());
                let selected = (0..n)
                    .map(|i| {
                        let Some(Lanes::Bool(c)) = comp(&values[0], i) else {
                            return bad(e, op);
                        };
                        select(c, comp(&values[1], i), comp(&values[2], i), self.lanes)
                            .map_or_else(|| bad(e, op), Ok)
                    })
                    .collect::<ExecResult<Value<D::F>>>()?;
                Ok(match open_select {
                    Some(open) if open.contains(&true) => {
                        self.select_open(selected, &values[1], &values[2], &open)
                    }
                    _ => selected,
                })
            }
            Op::Ldexp => self
                .zip2(&values[0], &values[1], |x, y| match (x, y) {
                    (Lanes::Float(x), Lanes::Int(y)) => {
                        Some(Lanes::Float(map2(x, y, |p, q| d.ldexp(p, q, width))))
                    }
                    _ => None,
                })
                .map_or_else(|| bad(e, op), Ok),
            Op::VectorExtract => {
                let Some(Lanes::Int(index)) = values[1].first() else {
                    return bad(e, op);
                };
                let count = values[0].len().max(1);
                self.open_out_of_range(index, count);
                let mut out = values[0]
                    .first()
                    .map_or_else(|| Lanes::Int(vec![0]), |l| l.clone());
                if index.len() == 1 {
                    let i = index[0].clamp(0, count as i64 - 1) as usize;
                    return Ok(values[0].get(i).cloned().into_iter().collect());
                }
                for (lane, &i) in index.iter().enumerate() {
                    let i = i.clamp(0, count as i64 - 1) as usize;
                    if let Some(src) = values[0].get(i) {
                        out.set_lane(lane, src, self.lanes);
                    }
                }
                Ok(vec![out])
            }
            Op::VectorInsert => {
                let Some(Lanes::Int(index)) = values[2].first() else {
                    return bad(e, op);
                };
                let Some(new) = values[1].first() else {
                    return bad(e, op);
                };
                let mut out = values[0].clone();
                self.open_out_of_range(index, out.len().max(1));
                let count = out.len().max(1) as i64;
                for (c, lanes) in out.iter_mut().enumerate() {
                    if index.len() == 1 {
                        if index[0].clamp(0, count - 1) as usize == c {
                            *lanes = new.clone();
                        }
                        continue;
                    }
                    for (lane, &i) in index.iter().enumerate() {
                        if i.clamp(0, count - 1) as usize == c {
                            lanes.set_lane(lane, new, self.lanes);
                        }
                    }
                }
                Ok(out)
            }
            Op::DFdx | Op::DFdy => {
                if self.arrangement == Arrangement::Quads {
                    self.open_partial_quads();
                }
                Ok(values[0]
                    .iter()
                    .map(|lanes| self.derivative(lanes, op == Op::DFdx, width))
                    .collect())
            }
            Op::InterpolateAtCentroid | Op::InterpolateAtOffset | Op::InterpolateAtSample => {
                Ok(values.swap_remove(0))
            }
            _ => {
                let out = self.convert_op(e, op, &values, base, width)?;
                if ranges && matches!(op, Op::I2imp | Op::U2ump | Op::I2i | Op::U2u) {
                    self.open_integer_overflow(base, &values[0]);
                }
                let from_float = matches!(values[0].first(), Some(Lanes::Float(_)));
                let to_float = matches!(out.first(), Some(Lanes::Float(_)));
                if ranges && from_float && !to_float {
                    // The operand's precision: a packing formula computes at it.
                    let operand = match &e.kind {
                        ExprKind::Op(_, operands) => operands.first(),
                        _ => None,
                    };
                    let width = match operand {
                        Some(o) if o.precision.is_lowerable() => {
                            width_for(BaseType::Float16, o.precision)
                        }
                        _ => Width::Single,
                    };
                    self.open_conversion(op, base, &values[0], width);
                }
                Ok(out)
            }
        }
    }

    /// Component-wise `f` over two values (a scalar stands for every component).
    pub(super) fn zip2(
        &self,
        a: &Value<D::F>,
        b: &Value<D::F>,
        mut f: impl FnMut(&Lanes<D::F>, &Lanes<D::F>) -> Option<Lanes<D::F>>,
    ) -> Option<Value<D::F>> {
        let n = a.len().max(b.len());
        (0..n).map(|i| f(comp(a, i)?, comp(b, i)?)).collect()
    }

    fn map_bool(&self, a: &Value<D::F>, f: impl Fn(bool) -> bool) -> Option<Value<D::F>> {
        a.iter()
            .map(|l| l.bools().map(|v| Lanes::Bool(map1(v, &f))))
            .collect()
    }

    pub(super) fn map_int(&self, a: &Value<D::F>, f: impl Fn(i64) -> i64) -> Option<Value<D::F>> {
        a.iter()
            .map(|l| l.ints().map(|v| Lanes::Int(map1(v, &f))))
            .collect()
    }

    /// `a * b` where one side is a matrix and the other a matrix or a vector.
    fn matrix_product(
        &self,
        e: &Expr,
        left: &Expr,
        right: &Expr,
        values: &[Value<D::F>],
        width: Width,
    ) -> ExecResult<Value<D::F>> {
        let shape = |ty: &halfcheck_compiler::ir::Type, as_row: bool| match ty {
            Type::Numeric { rows, columns, .. } if *columns > 1 => {
                (usize::from(*columns), usize::from(*rows))
            }
            Type::Numeric { rows, .. } if as_row => (usize::from(*rows), 1),
            Type::Numeric { rows, .. } => (1, usize::from(*rows)),
            _ => (0, 0),
        };
        let (a_cols, a_rows) = shape(&left.ty, true);
        let (b_cols, b_rows) = shape(&right.ty, false);
        if a_cols != b_rows || a_cols == 0 {
            return error(e.span, "a matrix product of mismatched shapes");
        }
        let d = self.domain;
        let float = |v: &Value<D::F>, i: usize| -> ExecResult<Vec<D::F>> {
            match v.get(i) {
                Some(Lanes::Float(x)) => Ok(x.clone()),
                _ => error(e.span, "a matrix product of non-floats"),
            }
        };
        // A row vector times a matrix is a dot per column (Mesa lowers it so); a matrix times
        // a vector or a matrix adds its columns.
        let order = if left.ty.is_matrix() {
            d.driver().arithmetic.matrix
        } else {
            d.driver().arithmetic.dot
        };
        let mut out = Vec::with_capacity(b_cols * a_rows);
        for c in 0..b_cols {
            for r in 0..a_rows {
                let mut columns = Vec::with_capacity(a_cols);
                for k in 0..a_cols {
                    columns.push((
                        float(&values[0], k * a_rows + r)?,
                        float(&values[1], c * b_rows + k)?,
                    ));
                }
                let pairs: Vec<Factors<'_, D::F>> = columns.iter().map(|(x, y)| (x, y)).collect();
                out.push(Lanes::Float(self.sum_any_order(order, &pairs, width)));
            }
        }
        Ok(out)
    }

    /// `a * b + c` (or `a * b - c`, `c + a * b`, `c - a * b`) as one fused operation, when
    /// the driver contracts and one operand of the addition `e` is a float multiplication
    /// of its width (not a matrix product).
    fn contracted(
        &mut self,
        e: &Expr,
        op: Binary,
        operands: &[Expr],
        width: Width,
    ) -> ExecResult<Option<Value<D::F>>> {
        if !matches!(op, Binary::Add | Binary::Sub) || !self.domain.driver().arithmetic.contract {
            return Ok(None);
        }
        let (factors, addend, product_first) = match (
            product_factors(&operands[0], width),
            product_factors(&operands[1], width),
        ) {
            (Some(f), _) => (f, &operands[1], true),
            (None, Some(f)) => (f, &operands[0], false),
            (None, None) => return Ok(None),
        };
        let (x, y, c) = (
            self.eval(&factors[0])?,
            self.eval(&factors[1])?,
            self.eval(addend)?,
        );
        let d = self.domain;
        let minus = |v: &Value<D::F>| -> Option<Value<D::F>> {
            v.iter()
                .map(|l| match l {
                    Lanes::Float(v) => {
                        Some(Lanes::Float(map1(v, |p| d.unary(Unary::Neg, p, width))))
                    }
                    _ => None,
                })
                .collect()
        };
        // a*b - c = fma(a, b, -c); c - a*b = fma(-a, b, c).
        let (x, c) = match (op, product_first) {
            (Binary::Sub, true) => (x, minus(&c)),
            (Binary::Sub, false) => (minus(&x).unwrap_or_default(), Some(c)),
            _ => (x, Some(c)),
        };
        let Some(c) = c else {
            return bad(e, Op::Fma);
        };
        reuse::componentwise(d, &[&x, &y, &c], |l| match (l[0], l[1], l[2]) {
            (Lanes::Float(a), Lanes::Float(b), Lanes::Float(c)) => {
                Some(Lanes::Float(map3(a, b, c, |a, b, c| {
                    d.fused(a, b, c, width)
                })))
            }
            _ => None,
        })
        .map_or_else(|| bad(e, Op::Fma), |v| Ok(Some(v)))
    }

    /// `dFdx`/`dFdy` over 2x2 quads (zero for independent lanes and uniform values).
    fn derivative(&self, lanes: &Lanes<D::F>, x: bool, width: Width) -> Lanes<D::F> {
        let d = self.domain;
        let zero = d.constant(0.0);
        let Lanes::Float(v) = lanes else {
            return lanes.clone();
        };
        if v.len() == 1 || self.arrangement == Arrangement::Independent {
            return Lanes::Float(vec![zero]);
        }
        let coarse = d.driver().raster.derivatives == Derivatives::Coarse;
        let out = (0..v.len())
            .map(|i| {
                let q = i - i % 4;
                let k = if coarse { 0 } else { i % 4 };
                // Lanes: 0 (x, y), 1 (x+1, y), 2 (x, y+1), 3 (x+1, y+1); softpipe's coarse
                // dFdx uses the upper row.
                let (from, to) = match (x, coarse) {
                    (true, true) => (q + 2, q + 3),
                    (true, false) => {
                        let row = q + (k / 2) * 2;
                        (row, row + 1)
                    }
                    (false, _) => {
                        let col = q + k % 2;
                        (col, col + 2)
                    }
                };
                let difference = |from: usize, to: usize| match (v.get(from), v.get(to)) {
                    (Some(&a), Some(&b)) => d.binary(Binary::Sub, b, a, width),
                    _ => zero,
                };
                let modelled = difference(from, to);
                if !d.tracks_ranges() {
                    return modelled;
                }
                // Any conforming driver may take the quad's other row (column) instead.
                let other = if x {
                    let row = if from - q >= 2 { q } else { q + 2 };
                    difference(row, row + 1)
                } else {
                    let col = if (from - q) % 2 == 1 { q } else { q + 1 };
                    difference(col, col + 2)
                };
                d.either(modelled, other)
            })
            .collect();
        Lanes::Float(out)
    }
}

fn compare<D: Domain>(d: &D, c: Compare, x: &Lanes<D::F>, y: &Lanes<D::F>) -> Option<Lanes<D::F>> {
    Some(Lanes::Bool(match (x, y) {
        (Lanes::Float(x), Lanes::Float(y)) => map2(x, y, |p, q| d.compare(c, p, q)),
        (Lanes::Int(x), Lanes::Int(y)) => map2(x, y, |p, q| c.holds(p, q)),
        (Lanes::Bool(x), Lanes::Bool(y)) => match c {
            Compare::Equal => map2(x, y, |p, q| p == q),
            Compare::NotEqual => map2(x, y, |p, q| p != q),
            _ => return None,
        },
        _ => return None,
    }))
}

/// `c ? a : b` per lane.
fn select<F: Copy>(
    c: &[bool],
    a: Option<&Lanes<F>>,
    b: Option<&Lanes<F>>,
    n: usize,
) -> Option<Lanes<F>> {
    let (a, b) = (a?, b?);
    if c.len() == 1 {
        return Some(if c[0] { a.clone() } else { b.clone() });
    }
    let mut out = b.expanded(n);
    for (i, _) in c.iter().enumerate().filter(|(_, &t)| t) {
        out.set_lane(i, a, n);
    }
    Some(out)
}

/// The factors of `o` when it is a float multiplication at `width` (not a matrix product).
fn product_factors(o: &Expr, width: Width) -> Option<&[Expr]> {
    match &o.kind {
        ExprKind::Op(Op::Mul, f)
            if o.ty
                .base()
                .is_some_and(|b| b.is_float() && width_of(b) == width)
                && f.iter().all(|x| !x.ty.is_matrix()) =>
        {
            Some(f)
        }
        _ => None,
    }
}

/// The two factors of one term of a sum of products, per lane.
pub(super) type Factors<'a, F> = (&'a Vec<F>, &'a Vec<F>);

/// `sum over k of x_k * y_k` per lane, in the order and with the fusing `order` says.
pub(super) fn sum_of_products<D: Domain>(
    d: &D,
    order: Dot,
    pairs: &[Factors<'_, D::F>],
    width: Width,
) -> Vec<D::F> {
    let Some((first, rest)) = pairs.split_first() else {
        return Vec::new();
    };
    if order != Dot::Fused {
        return sum_of_terms(d, order, &products(d, pairs, width), width);
    }
    let (x, y) = first;
    let product = map2(x, y, |p, q| d.binary(Binary::Mul, p, q, width));
    rest.iter().fold(product, |acc, (x, y)| {
        let xy = map2(x, y, |p, q| (p, q));
        map2(&xy, &acc, |(p, q), s| d.fused(p, q, s, width))
    })
}

/// Each term's product `x_k * y_k`, per lane.
pub(super) fn products<D: Domain>(
    d: &D,
    pairs: &[Factors<'_, D::F>],
    width: Width,
) -> Vec<Vec<D::F>> {
    pairs
        .iter()
        .map(|(x, y)| map2(x, y, |p, q| d.binary(Binary::Mul, p, q, width)))
        .collect()
}

/// The sum of `terms` per lane in the order `order` says; `Fused` has no products to sum
/// and adds in sequence.
pub(super) fn sum_of_terms<D: Domain>(
    d: &D,
    order: Dot,
    terms: &[Vec<D::F>],
    width: Width,
) -> Vec<D::F> {
    let add = |s: &Vec<D::F>, t: &Vec<D::F>| map2(s, t, |s, t| d.binary(Binary::Add, s, t, width));
    let Some((first, rest)) = terms.split_first() else {
        return Vec::new();
    };
    match order {
        Dot::Sequential | Dot::Fused => rest.iter().fold(first.clone(), |acc, t| add(&acc, t)),
        Dot::Reverse => {
            let mut reversed = terms.iter().rev();
            let last = reversed.next().cloned().unwrap_or_default();
            reversed.fold(last, |acc, t| add(&acc, t))
        }
        Dot::Pairwise => {
            let mut level = terms.to_vec();
            while level.len() > 1 {
                level = level
                    .chunks(2)
                    .map(|c| match c {
                        [s, t] => add(s, t),
                        [s] => s.clone(),
                        _ => Vec::new(),
                    })
                    .collect();
            }
            level.pop().unwrap_or_default()
        }
    }
}

/// `mix(a, b, t)` as the driver expands it.
pub(super) fn lerp<D: Domain>(d: &D, mix: Mix, a: D::F, b: D::F, t: D::F, width: Width) -> D::F {
    let bin = |op, x, y| d.binary(op, x, y, width);
    match mix {
        // a + t * (b - a), each operation rounded (gallivm's lerp).
        Mix::Delta => bin(Binary::Add, a, bin(Binary::Mul, t, bin(Binary::Sub, b, a))),
        Mix::Weights => {
            let one_minus_t = bin(Binary::Sub, d.constant(1.0), t);
            bin(
                Binary::Add,
                bin(Binary::Mul, a, one_minus_t),
                bin(Binary::Mul, b, t),
            )
        }
        Mix::Fused => d.fused(t, bin(Binary::Sub, b, a), a, width),
    }
}

/// Lane `i` of float lanes as a binary32 value.
pub(super) fn f32_at<D: Domain>(d: &D, v: &[D::F], i: usize) -> f32 {
    d.representative(at(v, i)) as f32
}
