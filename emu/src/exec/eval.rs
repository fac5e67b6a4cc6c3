//! Expressions: constants, variable reads, indexing, fields, swizzles, and where an lvalue
//! points ([`Invocation::place`]). Operations are in [`super::ops`], textures in
//! [`super::texture`].

use super::layout;
use super::value::{at, Lanes, Value};
use super::{error, Domain, ExecResult, Invocation};
use halfcheck_compiler::ir::{ConstValue, Expr, ExprKind, Scalar, Type, VarId};

/// Where one component of an lvalue sits in its variable's flattened value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Offset {
    /// The same component in every lane.
    Fixed(usize),
    /// A component chosen per lane by a dynamic index (one entry, or one per lane).
    PerLane(Vec<usize>),
}

impl Offset {
    fn at(&self, lane: usize) -> usize {
        match self {
            Offset::Fixed(o) => *o,
            Offset::PerLane(v) => at(v, lane),
        }
    }
}

impl<D: Domain> Invocation<'_, D> {
    /// The value of `e` in every lane.
    pub(super) fn eval(&mut self, e: &Expr) -> ExecResult<Value<D::F>> {
        match &e.kind {
            ExprKind::Constant {
                value,
                folded: Some(operation),
                ..
            } if self.domain.tracks_ranges() => self.folded_constant(e, value, operation),
            ExprKind::Constant { value, .. } => Ok(self.constant(value)),
            ExprKind::Var(id) => {
                self.open_unwritten_read(*id);
                let value = self.read(*id);
                self.open_narrow_int_read(*id, &value);
                Ok(value)
            }
            ExprKind::Field(base, index) => {
                let v = self.eval(base)?;
                match layout::field(self.module, &base.ty, *index) {
                    Some((offset, ty)) => {
                        let n = layout::size(self.module, &ty);
                        Ok(v.into_iter().skip(offset).take(n).collect())
                    }
                    None => error(e.span, "a field of something that is not a struct"),
                }
            }
            ExprKind::Swizzle(base, components) => {
                let v = self.eval(base)?;
                components
                    .iter()
                    .map(|&c| v.get(usize::from(c)).cloned())
                    .collect::<Option<Value<D::F>>>()
                    .map_or_else(|| error(e.span, "a swizzle past the vector's end"), Ok)
            }
            ExprKind::Index(base, index) => {
                let v = self.eval(base)?;
                let i = self.eval(index)?;
                let (stride, count) = self.stride(&base.ty);
                let Some(Lanes::Int(i)) = i.first() else {
                    return error(index.span, "an index that is not an integer");
                };
                self.open_out_of_range(i, count);
                let clamp = |x: i64| x.clamp(0, count.saturating_sub(1) as i64) as usize;
                if i.len() == 1 {
                    let start = clamp(i[0]) * stride;
                    return Ok(v.into_iter().skip(start).take(stride).collect());
                }
                let mut out = Vec::with_capacity(stride);
                for c in 0..stride {
                    let mut lanes = v
                        .get(c)
                        .map_or_else(|| Lanes::Int(vec![0]), |l| l.expanded(self.lanes));
                    for (lane, &x) in i.iter().enumerate() {
                        if let Some(src) = v.get(clamp(x) * stride + c) {
                            lanes.set_lane(lane, src, self.lanes);
                        }
                    }
                    out.push(lanes);
                }
                Ok(out)
            }
            ExprKind::Op(op, operands) => self.op(e, *op, operands),
            ExprKind::Texture(t) => self.texture(e, t),
            ExprKind::Intrinsic(name, args) => self.intrinsic(e, name, args),
        }
    }

    /// The current value of variable `id` (zero, or its constant, before any write).
    pub(super) fn read(&self, id: VarId) -> Value<D::F> {
        if let Some(Some(v)) = self.vars.get(id.0 as usize) {
            return v.clone();
        }
        let var = self.module.var(id);
        match &var.constant_value {
            Some(c) => self.constant(c),
            None => layout::zero(self.module, &var.ty, self.domain.constant(0.0)),
        }
    }

    /// A constant as a uniform value.
    pub(super) fn constant(&self, c: &ConstValue) -> Value<D::F> {
        let mut out = Vec::new();
        self.flatten(c, &mut out);
        out
    }

    fn flatten(&self, c: &ConstValue, out: &mut Value<D::F>) {
        match c {
            ConstValue::Components(scalars) => {
                out.extend(scalars.iter().map(|&s| self.scalar(s)));
            }
            ConstValue::Composite(items) => items.iter().for_each(|i| self.flatten(i, out)),
        }
    }

    /// One constant component as uniform lanes.
    pub(super) fn scalar(&self, s: Scalar) -> Lanes<D::F> {
        match s {
            Scalar::Bool(b) => Lanes::Bool(vec![b]),
            Scalar::Float(_) | Scalar::Float16(_) => {
                Lanes::Float(vec![self.domain.constant(s.to_f64())])
            }
            Scalar::Int(v) => Lanes::Int(vec![i64::from(v)]),
            Scalar::Uint(v) => Lanes::Int(vec![i64::from(v)]),
            Scalar::Int16(v) => Lanes::Int(vec![i64::from(v)]),
            Scalar::Uint16(v) => Lanes::Int(vec![i64::from(v)]),
            Scalar::Int64(v) => Lanes::Int(vec![v]),
            Scalar::Uint64(v) => Lanes::Int(vec![v as i64]),
        }
    }

    /// Components per element and number of elements when indexing a value of `ty`.
    fn stride(&self, ty: &Type) -> (usize, usize) {
        match ty {
            Type::Array { element, size } => (layout::size(self.module, element), *size as usize),
            Type::Numeric { rows, columns, .. } if *columns > 1 => {
                (usize::from(*rows), usize::from(*columns))
            }
            Type::Numeric { rows, .. } => (1, usize::from(*rows)),
            _ => (1, 1),
        }
    }

    /// The variable an lvalue writes and the offset of each of its components.
    pub(super) fn place(&mut self, lhs: &Expr) -> ExecResult<(VarId, Vec<Offset>)> {
        match &lhs.kind {
            ExprKind::Var(id) => {
                let n = layout::size(self.module, &lhs.ty);
                Ok((*id, (0..n).map(Offset::Fixed).collect()))
            }
            ExprKind::Field(base, index) => {
                let (var, offsets) = self.place(base)?;
                let Some((start, ty)) = layout::field(self.module, &base.ty, *index) else {
                    return error(lhs.span, "a field of something that is not a struct");
                };
                let n = layout::size(self.module, &ty);
                Ok((var, offsets.into_iter().skip(start).take(n).collect()))
            }
            ExprKind::Swizzle(base, components) => {
                let (var, offsets) = self.place(base)?;
                let picked = components
                    .iter()
                    .map(|&c| offsets.get(usize::from(c)).cloned())
                    .collect::<Option<Vec<_>>>();
                match picked {
                    Some(p) => Ok((var, p)),
                    None => error(lhs.span, "a swizzle past the vector's end"),
                }
            }
            ExprKind::Index(base, index) => {
                let (var, offsets) = self.place(base)?;
                let i = self.eval(index)?;
                let (stride, count) = self.stride(&base.ty);
                let Some(Lanes::Int(i)) = i.first() else {
                    return error(index.span, "an index that is not an integer");
                };
                self.open_out_of_range(i, count);
                let clamp = |x: i64| x.clamp(0, count.saturating_sub(1) as i64) as usize;
                if i.len() == 1 {
                    let start = clamp(i[0]) * stride;
                    return Ok((var, offsets.into_iter().skip(start).take(stride).collect()));
                }
                let picked = (0..stride)
                    .map(|c| {
                        let per_lane = i
                            .iter()
                            .enumerate()
                            .map(|(lane, &x)| {
                                offsets.get(clamp(x) * stride + c).map_or(0, |o| o.at(lane))
                            })
                            .collect();
                        Offset::PerLane(per_lane)
                    })
                    .collect();
                Ok((var, picked))
            }
            _ => error(
                lhs.span,
                "an assignment to something that is not a variable",
            ),
        }
    }
}
