//! Texture operations: the host's textures behind [`Textures`], implicit level of detail from
//! the coordinates' derivatives over 2x2 quads, and the texel entering binary16 (truncated or
//! rounded, by the driver's profile) when the sampler is lowered. A domain that tracks ranges
//! gets every texel a conforming driver may return for the coordinates' ranges
//! ([`Textures::sample_range`]), entering binary16 both ways.

use super::domain::Width;
use super::ops::f32_at;
use super::value::{at, Lanes, Value};
use super::{error, Arrangement, Domain, ExecResult, Invocation};
use crate::profile::{Binary32, TexelConversion};
use halfcheck_compiler::ir::types::Dim;
use halfcheck_compiler::ir::{BaseType, Expr, TexOp, Texture, Type};

/// The textures bound to units, as the host (the emulator backend) holds them.
pub trait Textures: Sync {
    /// Filtered RGBA at normalised 2D coordinates and level of detail `lod` (log2 of the
    /// texel-to-pixel ratio; `-inf` when the coordinates do not vary); `None` when the unit has
    /// no texture (GL then returns black).
    fn sample(&self, unit: i64, coord: [f32; 2], lod: f32) -> Option<[f32; 4]>;
    /// The texel at integer coordinates of a level (`texelFetch`).
    fn fetch(&self, unit: i64, texel: [i64; 2], level: i64) -> Option<[f32; 4]>;
    /// Width and height of a level (`textureSize`).
    fn size(&self, unit: i64, level: i64) -> Option<[i64; 2]>;
    /// Every value a conforming driver may return, per channel `[lo, hi]`, for a filtered
    /// lookup with normalised coordinates anywhere in `s` and `t` and a level of detail
    /// anywhere in `lod`; `None` when the unit has no texture.
    fn sample_range(
        &self,
        unit: i64,
        s: [f64; 2],
        t: [f64; 2],
        lod: [f32; 2],
    ) -> Option<[[f64; 2]; 4]>;
    /// Every value a conforming driver may return for `texelFetch` of a texel, per channel.
    fn fetch_range(&self, unit: i64, texel: [i64; 2], level: i64) -> Option<[[f64; 2]; 4]>;
}

/// No textures at all: every sample is black (for vertex batches and tests).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTextures;

impl Textures for NoTextures {
    fn sample(&self, _: i64, _: [f32; 2], _: f32) -> Option<[f32; 4]> {
        None
    }

    fn fetch(&self, _: i64, _: [i64; 2], _: i64) -> Option<[f32; 4]> {
        None
    }

    fn size(&self, _: i64, _: i64) -> Option<[i64; 2]> {
        None
    }

    fn sample_range(&self, _: i64, _: [f64; 2], _: [f64; 2], _: [f32; 2]) -> Option<[[f64; 2]; 4]> {
        None
    }

    fn fetch_range(&self, _: i64, _: [i64; 2], _: i64) -> Option<[[f64; 2]; 4]> {
        None
    }
}

const BLACK: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

/// A texel as the modelled driver returns it, and every value a conforming one may.
type Texel = ([f32; 4], [[f64; 2]; 4]);

/// The range of exactly `texel`.
fn exactly(texel: [f32; 4]) -> Texel {
    (texel, texel.map(|v| [f64::from(v); 2]))
}

impl<D: Domain> Invocation<'_, D> {
    /// Evaluates a texture operation.
    pub(super) fn texture(&mut self, e: &Expr, t: &Texture) -> ExecResult<Value<D::F>> {
        match &t.sampler.ty {
            Type::Sampler {
                dim: Dim::D2,
                shadow: false,
                ..
            } => {}
            other => {
                return error(
                    e.span,
                    format!(
                        "the emulator samples only 2D textures, not {}",
                        other.name()
                    ),
                )
            }
        }
        if e.ty.base().is_some_and(|b| !b.is_float()) && t.op != TexOp::Txs {
            return error(e.span, "the emulator samples only float textures");
        }
        let unit = match self.eval(&t.sampler)?.first() {
            Some(Lanes::Int(u)) => u.clone(),
            _ => return error(t.sampler.span, "a sampler without a unit"),
        };
        let lod = match &t.lod {
            Some(l) => Some(self.eval(l)?),
            None => None,
        };
        if t.op == TexOp::Txs {
            let level = lod.as_ref().and_then(|v| v.first()).and_then(|l| l.ints());
            let n = unit.len().max(level.map_or(1, <[i64]>::len));
            let sizes: Vec<[i64; 2]> = (0..n)
                .map(|i| {
                    let level = level.map_or(0, |l| at(l, i));
                    self.textures.size(at(&unit, i), level).unwrap_or([0, 0])
                })
                .collect();
            let count = e.ty.vector_size().clamp(1, 2) as usize;
            return Ok((0..count)
                .map(|c| Lanes::Int(sizes.iter().map(|s| s[c]).collect()))
                .collect());
        }
        if !matches!(t.op, TexOp::Tex | TexOp::Txb | TexOp::Txl | TexOp::Txf) {
            return error(
                e.span,
                format!(
                    "the emulator does not model the `{}` texture operation",
                    t.op.name()
                ),
            );
        }
        if let Some(offset) = &t.offset {
            return error(
                offset.span,
                "the emulator does not apply texel offsets (the `textureOffset` family)",
            );
        }
        let Some(coordinate) = &t.coordinate else {
            return error(e.span, "a texture lookup without coordinates");
        };
        let coord = self.eval(coordinate)?;
        let projector = match &t.projector {
            Some(p) if t.op != TexOp::Txf => Some(self.eval(p)?),
            _ => None,
        };
        let decisive = [Some(&coord), projector.as_ref(), lod.as_ref()];
        self.note_indeterminate(&decisive.into_iter().flatten().collect::<Vec<_>>());
        let texels = if t.op == TexOp::Txf {
            self.fetch(e, &unit, &coord, lod.as_ref())?
        } else {
            self.sample(e, t.op, &unit, &coord, projector.as_ref(), lod.as_ref())?
        };
        let d = self.domain;
        let lowered = e.ty.base() == Some(BaseType::Float16);
        let width = super::ops::width_for(BaseType::Float16, e.precision);
        let extended = d.driver().arithmetic.binary32 == Binary32::Extended;
        let count = (e.ty.components() as usize).clamp(1, 4);
        Ok((0..count)
            .map(|c| {
                Lanes::Float(
                    texels
                        .iter()
                        .map(|(point, range)| {
                            let [lo, hi] = range[c];
                            let modelled = if extended {
                                unorm8_extended(point[c])
                            } else {
                                f64::from(point[c])
                            };
                            let x = d.enter(modelled, lo, hi, Width::Single);
                            if lowered {
                                reduced_texel(d, x, width)
                            } else {
                                x
                            }
                        })
                        .collect(),
                )
            })
            .collect())
    }

    fn fetch(
        &self,
        e: &Expr,
        unit: &[i64],
        coord: &Value<D::F>,
        level: Option<&Value<D::F>>,
    ) -> ExecResult<Vec<Texel>> {
        let (Some(Lanes::Int(s)), Some(Lanes::Int(t))) = (coord.first(), coord.get(1)) else {
            return error(e.span, "texelFetch needs integer coordinates");
        };
        let level = level.and_then(|v| v.first()).and_then(|l| l.ints());
        let n = s.len().max(t.len()).max(unit.len());
        let ranges = self.domain.tracks_ranges();
        Ok((0..n)
            .map(|i| {
                let l = level.map_or(0, |l| at(l, i));
                let texel = [at(s, i), at(t, i)];
                let unit = at(unit, i);
                let point = self.textures.fetch(unit, texel, l).unwrap_or(BLACK);
                match self.textures.fetch_range(unit, texel, l) {
                    Some(range) if ranges => (point, range),
                    // A texel outside the level, or a level the texture lacks: undefined.
                    None if ranges && self.textures.size(unit, 0).is_some() => {
                        (point, [[f64::NEG_INFINITY, f64::INFINITY]; 4])
                    }
                    _ => exactly(point),
                }
            })
            .collect())
    }

    fn sample(
        &self,
        e: &Expr,
        op: TexOp,
        unit: &[i64],
        coord: &Value<D::F>,
        projector: Option<&Value<D::F>>,
        lod: Option<&Value<D::F>>,
    ) -> ExecResult<Vec<Texel>> {
        let d = self.domain;
        let (Some(Lanes::Float(s)), Some(Lanes::Float(t))) = (coord.first(), coord.get(1)) else {
            return error(e.span, "a texture lookup needs float coordinates");
        };
        let q = match projector.and_then(|p| p.first()) {
            Some(Lanes::Float(q)) => Some(q.as_slice()),
            Some(_) => return error(e.span, "a projective lookup needs a float divisor"),
            None => None,
        };
        let lod = match lod.and_then(|l| l.first()) {
            Some(Lanes::Float(l)) => Some(l.as_slice()),
            _ => None,
        };
        let n = [s.len(), t.len(), unit.len(), q.map_or(1, <[_]>::len)]
            .into_iter()
            .max()
            .unwrap_or(1);
        let coords: Vec<[f32; 2]> = (0..n)
            .map(|i| {
                let div = q.map_or(1.0, |q| f32_at(d, q, i));
                [f32_at(d, s, i) / div, f32_at(d, t, i) / div]
            })
            .collect();
        let implicit = matches!(op, TexOp::Tex | TexOp::Txb);
        let ranges = d.tracks_ranges();
        Ok((0..n)
            .map(|i| {
                let unit = at(unit, i);
                let explicit = lod.map_or(0.0, |l| f32_at(d, l, i));
                let level = match op {
                    TexOp::Txl => explicit,
                    _ if implicit => self.implicit_lod(unit, &coords, i) + explicit,
                    _ => 0.0,
                };
                let point = self
                    .textures
                    .sample(unit, coords[i], level)
                    .unwrap_or(BLACK);
                if !ranges {
                    return exactly(point);
                }
                let range_of = |v: &[D::F]| d.range(at(v, i));
                let divisor = q.map_or((1.0, 1.0), range_of);
                let (s_range, t_range) = (
                    quotient(range_of(s), divisor),
                    quotient(range_of(t), divisor),
                );
                // The level of detail is an approximation any driver may make within one
                // level either way (the spec's allowed scale-factor approximations).
                let slack = if implicit { 1.0 } else { 0.0 };
                let explicit_range = lod.map_or((0.0, 0.0), range_of);
                let lod_range = match op {
                    TexOp::Txl => [explicit_range.0 as f32, explicit_range.1 as f32],
                    _ => [level - slack, level + slack],
                };
                match self
                    .textures
                    .sample_range(unit, s_range, t_range, lod_range)
                {
                    Some(range) => (point, range),
                    None => exactly(point),
                }
            })
            .collect())
    }

    /// log2 of the larger screen-space footprint of the quad holding lane `i`.
    fn implicit_lod(&self, unit: i64, coords: &[[f32; 2]], i: usize) -> f32 {
        if coords.len() == 1 || self.arrangement == Arrangement::Independent {
            return f32::NEG_INFINITY;
        }
        let [w, h] = self.textures.size(unit, 0).unwrap_or([1, 1]);
        let q = i - i % 4;
        let (Some(a), Some(b), Some(c)) = (coords.get(q), coords.get(q + 1), coords.get(q + 2))
        else {
            return f32::NEG_INFINITY;
        };
        let scale = |v: [f32; 2]| [v[0] * w as f32, v[1] * h as f32];
        let (a, b, c) = (scale(*a), scale(*b), scale(*c));
        let dx = (b[0] - a[0]).hypot(b[1] - a[1]);
        let dy = (c[0] - a[0]).hypot(c[1] - a[1]);
        dx.max(dy).log2()
    }
}

/// Every quotient `a / b` for `a` and `b` in the ranges (everything when `b` may be 0).
fn quotient(a: (f64, f64), b: (f64, f64)) -> [f64; 2] {
    if b.0 <= 0.0 && b.1 >= 0.0 {
        return [f64::NEG_INFINITY, f64::INFINITY];
    }
    let corners = [a.0 / b.0, a.0 / b.1, a.1 / b.0, a.1 / b.1];
    let lo = corners.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = corners.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if lo.is_nan() || hi.is_nan() {
        [f64::NEG_INFINITY, f64::INFINITY]
    } else {
        [lo, hi]
    }
}

/// An 8-bit texel channel (the host gives `b * (1.0f / 255.0f)` in binary32) as a driver
/// whose binary32 keeps extended precision computes it: the product not rounded. A value
/// that is no such product (filtered in binary32) stays as it is.
fn unorm8_extended(texel: f32) -> f64 {
    let byte = (texel * 255.0).round();
    if byte * (1.0f32 / 255.0) == texel {
        f64::from(byte) * f64::from(1.0f32 / 255.0)
    } else {
        f64::from(texel)
    }
}

/// A texel entering the format of `width` (binary16, or lowp's), converted as the driver's
/// profile says; a domain that tracks ranges takes both conversions, as the spec allows.
pub(super) fn reduced_texel<D: Domain>(d: &D, x: D::F, width: Width) -> D::F {
    let truncated = || d.truncate(x, width);
    let rounded = || d.convert(x, width);
    if d.tracks_ranges() {
        return d.either(truncated(), rounded());
    }
    match d.driver().texture.texel_to_f16 {
        TexelConversion::Truncate => truncated(),
        TexelConversion::Round => rounded(),
    }
}
