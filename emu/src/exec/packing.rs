//! The packing built-ins as GLSL ES 3.20 section 8.4 defines them, by formula, each
//! operation of the formula with its allowance (the acceptance intervals' part; point
//! domains compute them in `convert.rs` as the modelled driver does).
//!
//! - `packUnorm2x16`/`packUnorm4x8`: `round(clamp(c, 0, +1) * 65535.0)` (`255.0`);
//!   `packSnorm2x16`/`packSnorm4x8`: `round(clamp(c, -1, +1) * 32767.0)` (`127.0`). The
//!   product is correctly rounded (GLSL ES 3.20 section 4.7.1: `a * b` correctly rounded)
//!   at the operand's precision (highp in `H`, the operand's in `M`), at mediump for the
//!   `4x8` forms in both, whose parameter the spec declares `mediump vec4`; `round` takes 0.5
//!   "in a direction chosen by the implementation" (section 8.3). The packed value is decided when every value of the
//!   operand's interval gives one integer, else the lane is left open.
//! - `packHalf2x16`: the conversion to binary16 "as specified by the OpenGL ES
//!   Specification", whose rounding it leaves to the implementation: decided only for an
//!   operand that is one binary16 value, normal and not zero (a zero's sign and a
//!   subnormal's flush are the driver's).
//! - `unpackUnorm2x16`/`unpackUnorm4x8`: `f / 65535.0` (`255.0`); `unpackSnorm2x16`/
//!   `unpackSnorm4x8`: `clamp(f / 32767.0, -1, +1)` (`127.0`): a division, 2.5 ulp (section
//!   4.7.1), at the result's precision, which the spec fixes at mediump for the `4x8` forms.
//! - `unpackHalf2x16`: the binary16 value exactly, as a mediump result (the spec fixes its
//!   precision): on mediump's grid, a value below its smallest normal may flush.

use super::bounds::{Bounds, FloatFormat, Interval};
use super::domain::{Binary, Domain, Width};
use halfcheck_compiler::ir::Op;

/// The interval domain and width of an operation computed at mediump (`reduced`) or highp.
fn at(reduced: bool) -> (Bounds, Width) {
    if reduced {
        (Bounds::mediump(), Width::Half)
    } else {
        (Bounds::highp(), Width::Single)
    }
}

/// `clamp(x, min, 1) * scale` in `d` at `width`.
fn scaled<E: Domain>(d: &E, x: E::F, min: f64, scale: f64, width: Width) -> (f64, f64) {
    let clamped = d.binary(
        Binary::Min,
        d.binary(Binary::Max, x, d.constant(min), width),
        d.constant(1.0),
        width,
    );
    d.range(d.binary(Binary::Mul, clamped, d.constant(scale), width))
}

/// Whether every conforming driver packs every value `x` of `d` stands for into one
/// integer with `op` (a `pack*` operation); `width`: the operand's (its precision, which the
/// unfixed `2x16` forms compute at: highp in `H`, mediump or lowp in `M` where the operand
/// is).
pub(super) fn pack_decided<D: Domain>(d: &D, op: Op, x: D::F, width: Width) -> bool {
    let (lo, hi) = d.range(x);
    if !(lo.is_finite() && hi.is_finite()) {
        return false;
    }
    let (y_lo, y_hi) = match op {
        Op::PackUnorm2x16 => scaled(d, x, 0.0, 65535.0, width),
        Op::PackSnorm2x16 => scaled(d, x, -1.0, 32767.0, width),
        // The parameter is mediump whatever the operand: mediump's allowances in `H` too.
        Op::PackUnorm4x8 | Op::PackSnorm4x8 => {
            let (b, half) = at(true);
            let (min, scale) = if op == Op::PackUnorm4x8 {
                (0.0, 255.0)
            } else {
                (-1.0, 127.0)
            };
            scaled(&b, Interval::new(lo, hi), min, scale, half)
        }
        Op::PackHalf2x16 => return half_decided(lo, hi),
        _ => return false,
    };
    // `round` sends y to n when n - 0.5 <= y <= n + 0.5 (a tie either way).
    y_lo.is_finite() && y_hi.is_finite() && (y_lo - 0.5).ceil() == (y_hi + 0.5).floor()
}

/// Whether `[lo, hi]` is one binary16 value, normal and not zero, which the mediump
/// parameter holds as it is.
fn half_decided(lo: f64, hi: f64) -> bool {
    let on_grid = FloatFormat::MEDIUMP.convert(Interval::point(lo)) == Interval::point(lo);
    lo == hi
        && on_grid
        && lo.abs() >= f64::powi(2.0, -14)
        && lo.abs() <= 65504.0
        && f64::from(half::f16::from_f64(lo).to_f32()) == lo
}

/// Every value a conforming driver may give for the component `value` of an `unpack*`
/// operation `op` computed from the integer `part`.
pub(super) fn unpacked_range(op: Op, part: u32, value: f64) -> (f64, f64) {
    let k = Interval::point;
    let divided = |scale: f64, mediump: bool, min: f64| {
        let (d, width) = at(mediump);
        let signed = if min < 0.0 {
            // The part is a two's complement integer of the field's width.
            let bits = if scale > 255.0 { 16 } else { 8 };
            f64::from(((part << (32 - bits)) as i32) >> (32 - bits))
        } else {
            f64::from(part)
        };
        let q = d.binary(Binary::Div, k(signed), k(scale), width);
        let q = d.binary(Binary::Max, q, k(min), width);
        d.range(d.binary(Binary::Min, q, k(1.0), width))
    };
    match op {
        Op::UnpackUnorm2x16 => divided(65535.0, false, 0.0),
        Op::UnpackSnorm2x16 => divided(32767.0, false, -1.0),
        Op::UnpackUnorm4x8 => divided(255.0, true, 0.0),
        Op::UnpackSnorm4x8 => divided(127.0, true, -1.0),
        _ => Bounds::mediump().range(FloatFormat::MEDIUMP.convert(k(value))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pack_decided` of `[lo, hi]` in `H` (`reduced`: in `M` with a mediump operand).
    fn decided(op: Op, lo: f64, hi: f64, reduced: bool) -> bool {
        let (d, width) = if reduced {
            (Bounds::mediump(), Width::Half)
        } else {
            (Bounds::highp(), Width::Single)
        };
        pack_decided(&d, op, Interval::new(lo, hi), width)
    }

    #[test]
    fn a_product_on_a_tie_may_round_either_way() {
        // 0.5 * 255 = 127.5: 127 or 128, as the implementation chooses.
        assert!(!decided(Op::PackUnorm4x8, 0.5, 0.5, false));
        // 0.25 * 255 = 63.75: 64 whatever the rounding of the product.
        assert!(decided(Op::PackUnorm4x8, 0.25, 0.25, false));
        // Clamped: every value above 1 packs to 255.
        assert!(decided(Op::PackUnorm4x8, 1.5, 3.0, false));
        assert!(!decided(Op::PackSnorm2x16, 0.0, 0.5, false));
        assert!(!decided(Op::PackUnorm2x16, f64::NEG_INFINITY, 0.0, false));
    }

    #[test]
    fn a_mediump_operand_makes_more_products_ambiguous_in_m_only() {
        // 0.25 * 65535 = 16383.75, exact at highp; mediump holds nothing that large.
        assert!(decided(Op::PackUnorm2x16, 0.25, 0.25, false));
        assert!(!decided(Op::PackUnorm2x16, 0.25, 0.25, true));
        // H computes a mediump operand's product at highp.
        let h = Bounds::highp();
        assert!(pack_decided(
            &h,
            Op::PackUnorm2x16,
            Interval::point(0.25),
            Width::Half
        ));
    }

    #[test]
    fn pack_half_is_decided_only_for_one_normal_binary16_value() {
        assert!(decided(Op::PackHalf2x16, 0.5, 0.5, true));
        assert!(!decided(Op::PackHalf2x16, 0.1, 0.1, true));
        assert!(!decided(Op::PackHalf2x16, 0.0, 0.0, true));
        assert!(!decided(Op::PackHalf2x16, 1e-6, 1e-6, true));
        assert!(!decided(Op::PackHalf2x16, 0.5, 0.75, true));
    }

    #[test]
    fn unpacking_divides_with_its_allowance() {
        let (lo, hi) = unpacked_range(Op::UnpackUnorm4x8, 128, 128.0 / 255.0);
        assert!(lo < 128.0 / 255.0 && 128.0 / 255.0 < hi, "{lo} {hi}");
        assert!(hi - lo > 2.0 * f64::powi(2.0, -11), "mediump: {lo} {hi}");
        let (lo, hi) = unpacked_range(Op::UnpackUnorm2x16, 1, 1.0 / 65535.0);
        assert!(hi - lo < 1e-10, "highp: {lo} {hi}");
        // -128 / 127 is below -1: clamped.
        assert_eq!(unpacked_range(Op::UnpackSnorm4x8, 0x80, -1.0), (-1.0, -1.0));
        let (lo, hi) = unpacked_range(Op::UnpackHalf2x16, 0x7c00, f64::INFINITY);
        assert!(lo.is_infinite() && hi.is_infinite());
    }
}
