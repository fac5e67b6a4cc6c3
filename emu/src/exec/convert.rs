//! Conversions between kinds and widths (the lowering pass's `f2fmp`/`f162f`/`i2imp`
//! included), bit casts, packing built-ins and integer bit operations.
//!
//! A value entering binary16 rounds to nearest even, except a texel, which the driver's
//! profile may truncate (llvmpipe does).

use super::domain::Width;
use super::ops::{bad, wrap};
use super::packing::unpacked_range;
use super::value::{map1, map2, map3, Lanes, Value};
use super::{error, Domain, ExecResult, Invocation};
use half::f16;
use halfcheck_compiler::ir::{BaseType, Expr, ExprKind, Op};

impl<D: Domain> Invocation<'_, D> {
    /// Evaluates a conversion, packing or bit operation.
    pub(super) fn convert_op(
        &self,
        e: &Expr,
        op: Op,
        values: &[Value<D::F>],
        base: BaseType,
        width: Width,
    ) -> ExecResult<Value<D::F>> {
        let d = self.domain;
        let lowers = d.lowers_ints();
        let a = &values[0];
        let floats = |f: &dyn Fn(D::F) -> One<D::F>| -> ExecResult<Value<D::F>> {
            a.iter()
                .map(|l| match l {
                    Lanes::Float(v) => Ok(lanes_of(v.iter().map(|&x| f(x)))),
                    _ => bad(e, op),
                })
                .collect()
        };
        let ints = |f: &dyn Fn(i64) -> One<D::F>| -> ExecResult<Value<D::F>> {
            a.iter()
                .map(|l| match l {
                    Lanes::Int(v) => Ok(lanes_of(v.iter().map(|&x| f(x)))),
                    _ => bad(e, op),
                })
                .collect()
        };
        let bools = |f: &dyn Fn(bool) -> One<D::F>| -> ExecResult<Value<D::F>> {
            a.iter()
                .map(|l| match l {
                    Lanes::Bool(v) => Ok(lanes_of(v.iter().map(|&x| f(x)))),
                    _ => bad(e, op),
                })
                .collect()
        };
        let float = |x: f64| One::F(d.convert(d.constant(x), width));
        let int = |x: i64| One::I(wrap(x, base, lowers));
        match op {
            Op::F2i | Op::F2u => floats(&|x| {
                let t = d.representative(x).trunc();
                int(if op == Op::F2i {
                    i64::from(t as i32)
                } else {
                    i64::from(t as u32)
                })
            }),
            Op::I2f | Op::U2f => ints(&|x| float(x as f64)),
            Op::F2b | Op::F162b => floats(&|x| One::B(d.representative(x) != 0.0)),
            Op::B2f | Op::B2f16 => bools(&|x| float(f64::from(u8::from(x)))),
            Op::I2b => ints(&|x| One::B(x != 0)),
            Op::B2i => bools(&|x| int(i64::from(x))),
            Op::I2u | Op::U2i | Op::I2imp | Op::U2ump | Op::I2i | Op::U2u => ints(&|x| int(x)),
            Op::I2i64 | Op::U2u64 => ints(&|x| One::I(x)),
            Op::BitcastF2i | Op::BitcastF2u => floats(&|x| {
                let bits = (d.representative(x) as f32).to_bits();
                int(i64::from(bits))
            }),
            Op::BitcastI2f | Op::BitcastU2f => {
                ints(&|x| float(f64::from(f32::from_bits(x as u32))))
            }
            Op::F2fmp | Op::F2f16 => {
                let texel = matches!(&e.kind, ExprKind::Op(_, o)
                    if o.first().is_some_and(|o| matches!(o.kind, ExprKind::Texture(_))));
                floats(&|x| {
                    One::F(if texel {
                        super::texture::reduced_texel(d, x, width)
                    } else {
                        d.convert(x, width)
                    })
                })
            }
            Op::F162f => floats(&|x| One::F(d.convert(x, Width::Single))),
            Op::PackHalf2x16 | Op::PackSnorm2x16 | Op::PackUnorm2x16 => {
                let parts: Vec<Vec<f32>> = a
                    .iter()
                    .map(|l| l.floats().map(|v| map1(v, |x| d.representative(x) as f32)))
                    .collect::<Option<_>>()
                    .map_or_else(|| bad(e, op), Ok)?;
                let [x, y] = parts.as_slice() else {
                    return bad(e, op);
                };
                let half = |v: f32| -> u32 {
                    match op {
                        Op::PackHalf2x16 => u32::from(f16::from_f32(v).to_bits()),
                        Op::PackSnorm2x16 => {
                            u32::from((v.clamp(-1.0, 1.0) * 32767.0).round_ties_even() as i16 as u16)
                        }
                        _ => u32::from((v.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u16),
                    }
                };
                let packed = map2(x, y, |p, q| i64::from(half(p) | (half(q) << 16)));
                Ok(vec![Lanes::Int(packed)])
            }
            Op::PackSnorm4x8 | Op::PackUnorm4x8 => {
                let parts: Vec<Vec<f32>> = a
                    .iter()
                    .map(|l| l.floats().map(|v| map1(v, |x| d.representative(x) as f32)))
                    .collect::<Option<_>>()
                    .map_or_else(|| bad(e, op), Ok)?;
                if parts.len() != 4 {
                    return bad(e, op);
                }
                let byte = |v: f32| -> u32 {
                    if op == Op::PackSnorm4x8 {
                        u32::from((v.clamp(-1.0, 1.0) * 127.0).round_ties_even() as i8 as u8)
                    } else {
                        u32::from((v.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8)
                    }
                };
                let n = parts.iter().map(Vec::len).max().unwrap_or(1);
                let packed = (0..n)
                    .map(|i| {
                        (0..4).fold(0u32, |acc, c| {
                            acc | (byte(super::value::at(&parts[c], i)) << (8 * c))
                        })
                    })
                    .map(i64::from)
                    .collect();
                Ok(vec![Lanes::Int(packed)])
            }
            Op::UnpackHalf2x16
            | Op::UnpackSnorm2x16
            | Op::UnpackUnorm2x16
            | Op::UnpackSnorm4x8
            | Op::UnpackUnorm4x8 => {
                let Some(Lanes::Int(v)) = a.first() else {
                    return bad(e, op);
                };
                let (count, bits) = match op {
                    Op::UnpackSnorm4x8 | Op::UnpackUnorm4x8 => (4, 8),
                    _ => (2, 16),
                };
                Ok((0..count)
                    .map(|c| {
                        Lanes::Float(map1(v, |x| {
                            let part = ((x as u32) >> (bits * c)) & ((1u32 << bits) - 1);
                            let value = match op {
                                Op::UnpackHalf2x16 => f16::from_bits(part as u16).to_f32(),
                                Op::UnpackSnorm2x16 => {
                                    (f32::from(part as u16 as i16) / 32767.0).clamp(-1.0, 1.0)
                                }
                                Op::UnpackUnorm2x16 => f32::from(part as u16) / 65535.0,
                                Op::UnpackSnorm4x8 => {
                                    (f32::from(part as u8 as i8) / 127.0).clamp(-1.0, 1.0)
                                }
                                _ => f32::from(part as u8) / 255.0,
                            };
                            // The modelled driver's value; what any conforming driver
                            // may give where ranges are tracked.
                            let value = f64::from(value);
                            let (lo, hi) = unpacked_range(op, part, value);
                            d.enter(value, lo, hi, Width::Single)
                        }))
                    })
                    .collect())
            }
            Op::BitfieldReverse => ints(&|x| int(i64::from((x as u32).reverse_bits()))),
            Op::BitCount => ints(&|x| int(i64::from((x as u32).count_ones()))),
            Op::FindLsb => ints(&|x| {
                let v = x as u32;
                int(if v == 0 {
                    -1
                } else {
                    i64::from(v.trailing_zeros())
                })
            }),
            Op::FindMsb => ints(&|x| {
                let v = x as i32;
                let v = if v < 0 { !v } else { v } as u32;
                int(if v == 0 {
                    -1
                } else {
                    31 - i64::from(v.leading_zeros())
                })
            }),
            Op::FrexpSig | Op::FrexpExp => floats(&|x| {
                let v = d.representative(x);
                let (sig, exp) = frexp(v);
                if op == Op::FrexpSig {
                    float(sig)
                } else {
                    int(exp)
                }
            }),
            Op::ImulHigh | Op::Carry | Op::Borrow => {
                let (Some(Lanes::Int(x)), Some(Lanes::Int(y))) =
                    (values[0].first(), values.get(1).and_then(|v| v.first()))
                else {
                    return bad(e, op);
                };
                Ok(vec![Lanes::Int(map2(x, y, |p, q| match op {
                    Op::ImulHigh if base == BaseType::Uint => wrap(
                        ((p as u32 as u64 * q as u32 as u64) >> 32) as i64,
                        base,
                        lowers,
                    ),
                    Op::ImulHigh => wrap((p * q) >> 32, base, lowers),
                    Op::Carry => i64::from((p as u32).checked_add(q as u32).is_none()),
                    _ => i64::from((p as u32) < (q as u32)),
                }))])
            }
            Op::BitfieldExtract | Op::BitfieldInsert => self.bitfield(e, op, values, base),
            _ => error(e.span, format!("the emulator does not run {}", op.name())),
        }
    }

    /// `bitfieldExtract(value, offset, bits)` and `bitfieldInsert(base, insert, offset, bits)`.
    fn bitfield(
        &self,
        e: &Expr,
        op: Op,
        values: &[Value<D::F>],
        base: BaseType,
    ) -> ExecResult<Value<D::F>> {
        let lowers = self.domain.lowers_ints();
        let scalar_int = |v: &Value<D::F>| match v.first() {
            Some(Lanes::Int(x)) => Some(x.clone()),
            _ => None,
        };
        let signed = base.is_signed_int();
        let mask_of = |bits: i64| -> u32 {
            if bits >= 32 {
                u32::MAX
            } else {
                (1u32 << bits.clamp(0, 31)) - 1
            }
        };
        if op == Op::BitfieldExtract {
            let (Some(offset), Some(bits)) = (scalar_int(&values[1]), scalar_int(&values[2]))
            else {
                return error(e.span, "bitfieldExtract needs integer offset and bits");
            };
            return values[0]
                .iter()
                .map(|l| {
                    let Lanes::Int(v) = l else {
                        return error(e.span, "bitfieldExtract of a non-integer");
                    };
                    Ok(Lanes::Int(map3(v, &offset, &bits, |v, o, b| {
                        if b == 0 {
                            return 0;
                        }
                        let field = ((v as u32) >> o.clamp(0, 31)) & mask_of(b);
                        let r = if signed && b < 32 && field & (1 << (b - 1)) != 0 {
                            i64::from(field | !mask_of(b))
                        } else {
                            i64::from(field)
                        };
                        wrap(r, base, lowers)
                    })))
                })
                .collect();
        }
        let (Some(offset), Some(bits)) = (scalar_int(&values[2]), scalar_int(&values[3])) else {
            return error(e.span, "bitfieldInsert needs integer offset and bits");
        };
        values[0]
            .iter()
            .zip(values[1].iter())
            .map(|(b, i)| {
                let (Lanes::Int(b), Lanes::Int(i)) = (b, i) else {
                    return error(e.span, "bitfieldInsert of non-integers");
                };
                let merged = map3(b, i, &offset, |b, i, o| (b, i, o));
                Ok(Lanes::Int(map2(&merged, &bits, |(b, i, o), n| {
                    let o = o.clamp(0, 31) as u32;
                    let m = mask_of(n).checked_shl(o).unwrap_or(0);
                    let r = ((b as u32) & !m) | (((i as u32) << o) & m);
                    wrap(i64::from(r), base, lowers)
                })))
            })
            .collect()
    }
}

/// One lane's result of a conversion.
enum One<F> {
    F(F),
    I(i64),
    B(bool),
}

/// Lanes made of one result per lane (all of one kind).
fn lanes_of<F: Copy>(pieces: impl Iterator<Item = One<F>>) -> Lanes<F> {
    let mut out: Option<Lanes<F>> = None;
    for piece in pieces {
        match (&mut out, piece) {
            (Some(Lanes::Float(v)), One::F(p)) => v.push(p),
            (Some(Lanes::Int(v)), One::I(p)) => v.push(p),
            (Some(Lanes::Bool(v)), One::B(p)) => v.push(p),
            (None, One::F(p)) => out = Some(Lanes::Float(vec![p])),
            (None, One::I(p)) => out = Some(Lanes::Int(vec![p])),
            (None, One::B(p)) => out = Some(Lanes::Bool(vec![p])),
            (Some(_), _) => {}
        }
    }
    out.unwrap_or(Lanes::Bool(vec![false]))
}

/// `x = sig * 2^exp` with `sig` in [0.5, 1).
fn frexp(x: f64) -> (f64, i64) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let exp = x.abs().log2().floor() as i64 + 1;
    let sig = x / 2f64.powi(exp as i32);
    if sig.abs() >= 1.0 {
        (sig / 2.0, exp + 1)
    } else if sig.abs() < 0.5 {
        (sig * 2.0, exp - 1)
    } else {
        (sig, exp)
    }
}
