//! Rounding a binary64 value to binary16 in exact integer arithmetic, once: the point
//! domain's hot path (every binary16 operation rounds its operands and its result).
//!
//! The `half` crate's conversion from `f64`, where the CPU has F16C, goes through binary32
//! (two roundings); this one rounds the binary64 significand directly, ties to even, so it
//! is the correctly rounded value on every CPU, and needs no conversion back from binary16.

/// `x` rounded to the nearest binary16 value, ties to even, as an `f64`: ±inf past the
/// largest finite value (65504), subnormals kept, NaN and infinities as they are.
#[inline]
pub(super) fn nearest_f16(x: f64) -> f64 {
    let bits = x.to_bits();
    let magnitude = bits & !SIGN;
    if magnitude >= EXPONENT_MASK {
        return x;
    }
    let biased = (magnitude >> 52) as i32;
    let exponent = biased - 1023;
    if exponent < -25 {
        // Below half the smallest subnormal (2^-24), and binary64 subnormals: zero.
        return 0.0f64.copysign(x);
    }
    if exponent > 15 {
        return f64::INFINITY.copysign(x);
    }
    let significand = (magnitude & FRACTION_MASK) | (1 << 52);
    // binary16 keeps 11 significant bits at and above 2^-14, fewer below (subnormals).
    let dropped = 42 + (-14 - exponent).max(0);
    let kept = significand >> dropped;
    let rest = significand & ((1u64 << dropped) - 1);
    let half_way = 1u64 << (dropped - 1);
    let rounded = kept + u64::from(rest > half_way || (rest == half_way && kept & 1 == 1));
    // `rounded` has at most 12 bits and the scale is a power of two: exact.
    let value = rounded as f64 * power_of_two(exponent - 52 + dropped);
    if value > MAX {
        f64::INFINITY.copysign(x)
    } else {
        value.copysign(x)
    }
}

const SIGN: u64 = 1 << 63;
const EXPONENT_MASK: u64 = 0x7ff << 52;
const FRACTION_MASK: u64 = (1 << 52) - 1;
/// The largest finite binary16 value.
const MAX: f64 = 65504.0;

/// `2^e` for a normal binary64 exponent.
fn power_of_two(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::f16;

    /// The binary16 neighbours of `x` (finite, within range), by walking the bit patterns.
    fn reference(x: f64) -> f64 {
        let candidates = (0..=0x7bffu16)
            .flat_map(|b| [b, b | 0x8000])
            .map(|b| f64::from(f16::from_bits(b).to_f32()));
        let mut best = f64::NAN;
        let mut best_bits = 0u16;
        for (i, c) in candidates.enumerate() {
            let bits = (i / 2) as u16;
            let better = best.is_nan()
                || (c - x).abs() < (best - x).abs()
                || ((c - x).abs() == (best - x).abs() && bits & 1 == 0 && best_bits & 1 == 1);
            if better {
                best = c;
                best_bits = bits;
            }
        }
        best
    }

    #[test]
    fn every_binary32_value_rounds_as_the_hardware_conversion_does() {
        // A stride through every binary32 bit pattern, and each binary16 value's
        // neighbourhood: values, midpoints and one binary32 ulp either side.
        let mut values: Vec<f32> = (0..u32::MAX / 7919)
            .map(|i| f32::from_bits(i * 7919))
            .collect();
        for b in 0..=0xffffu16 {
            let v = f16::from_bits(b).to_f32();
            let next = f16::from_bits(b.wrapping_add(1)).to_f32();
            let mid = (f64::from(v) + f64::from(next)) / 2.0;
            for m in [v, mid as f32] {
                values.extend([
                    m,
                    f32::from_bits(m.to_bits() + 1),
                    f32::from_bits(m.to_bits().wrapping_sub(1)),
                ]);
            }
        }
        for v in values {
            let want = f64::from(f16::from_f32(v).to_f32());
            let got = nearest_f16(f64::from(v));
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "{v:e} ({:#x}): {got:e} != {want:e}",
                v.to_bits()
            );
        }
    }

    #[test]
    fn a_binary64_value_is_rounded_once_not_through_binary32() {
        // Just above the midpoint of 1 and 1 + 2^-10, by less than binary32 can hold: through
        // binary32 it becomes the midpoint, and ties to even give 1.
        let x = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
        assert_eq!(nearest_f16(x), 1.0 + 2f64.powi(-10));
        assert_eq!(nearest_f16(x), reference(x));
        for x in [
            1e-8f64,
            -3.0e-7,
            5.960_464_477_539_063e-8,
            2.9e-8,
            65519.99,
            -65520.0,
            0.1,
        ] {
            let want = if x.abs() >= 65520.0 {
                f64::INFINITY.copysign(x)
            } else {
                reference(x)
            };
            assert_eq!(nearest_f16(x).to_bits(), want.to_bits(), "{x:e}");
        }
    }
}
