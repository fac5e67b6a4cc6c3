//! llvmpipe's binary32 transcendentals: the approximations Mesa's gallivm code generator
//! emits for `exp2`, `log2`, `sin` and `cos` (Mesa 22.3, `lp_bld_arit.c`), evaluated step by
//! step in the profile's binary32 arithmetic (`arithmetic.transcendentals: gallivm`).
//!
//! Each step is one LLVM operation. With `arithmetic.binary32: ieee` (SSE) it rounds to
//! binary32; with `extended` (x87, llvmpipe without SSE) it keeps extended precision, and a
//! value is rounded to binary32 only where gallivm reinterprets its bits as an integer (the
//! value goes through memory). gallivm's multiply-adds (`llvm.fmuladd`) round once where
//! LLVM fuses them (a CPU with FMA: measured on llvmpipe with SSE) and twice otherwise
//! (`arithmetic.polynomial_fma`).
//!
//! The constants are the published ones gallivm uses: a minimax polynomial of `2^x` on
//! [0, 1), one of `log2((1 + s) / (1 - s)) / s` in `s^2`, and Cephes' `sinf`/`cosf`
//! reduction (4/pi, pi/4 in three parts) and polynomials. Each is stored as binary32.

use super::domain::{Rounding, Unary, Width};
use crate::profile::{Binary32, Fma};

/// `2^x` on [0, 1): the coefficients of x^0 .. x^5.
const EXP2_POLYNOMIAL: [f64; 6] = [
    1.0,
    0.693_153_073_200_169,
    0.240_153_617_044_375_38,
    0.055_826_318_053_295_666,
    0.008_989_340_090_494_664,
    0.001_877_576_675_191_479,
];

/// `log2((1 + s) / (1 - s)) / s` as a polynomial in `s^2`: coefficients of (s^2)^0 .. ^4.
const LOG2_POLYNOMIAL: [f64; 5] = [
    2.885_390_093_433_091_6,
    0.961_791_550_404_184_2,
    0.577_440_339_438_736_4,
    0.403_343_858_251_329_9,
    0.406_718_052_498_846_24,
];

/// 4 / pi.
const FOUR_OVER_PI: f64 = 1.273_239_544_735_16;
/// -pi/4 in three parts (Cephes' "extended precision modular arithmetic").
const MINUS_QUARTER_PI: [f64; 3] = [
    -0.785_156_25,
    -2.418_756_484_985_351_6e-4,
    -3.774_894_977_445_941e-8,
];
/// The cosine polynomial of the reduced argument: coefficients of z^2, z^1, z^0 (z = x^2).
const COS_POLYNOMIAL: [f64; 3] = [
    2.443_315_711_809_948e-5,
    -1.388_731_625_493_765e-3,
    4.166_664_568_298_827e-2,
];
/// The sine polynomial: coefficients of z^2, z^1, z^0.
const SIN_POLYNOMIAL: [f64; 3] = [-1.951_529_589_1e-4, 8.332_160_873_6e-3, -1.666_665_461_1e-1];

/// The arithmetic one gallivm step computes in.
struct Steps<'a> {
    domain: &'a Rounding,
    /// Whether `llvm.fmuladd` rounds once (a CPU with FMA) or twice.
    fused: bool,
}

impl Steps<'_> {
    /// A step's result as the profile's binary32 holds it (extended: unrounded).
    fn r(&self, x: f64) -> f64 {
        self.domain.round(x, Some(Width::Single))
    }

    fn add(&self, a: f64, b: f64) -> f64 {
        self.r(a + b)
    }

    fn sub(&self, a: f64, b: f64) -> f64 {
        self.r(a - b)
    }

    fn mul(&self, a: f64, b: f64) -> f64 {
        self.r(a * b)
    }

    fn div(&self, a: f64, b: f64) -> f64 {
        self.r(a / b)
    }

    /// `llvm.fmuladd`: one rounding when fused, else a rounded multiply and a rounded add.
    fn mad(&self, a: f64, b: f64, c: f64) -> f64 {
        if !self.fused {
            return self.add(self.mul(a, b), c);
        }
        match self.domain.driver.arithmetic.binary32 {
            // binary32 operands: the binary32 fused multiply-add is exact before its rounding.
            Binary32::Ieee => {
                let [a, b, c] = [a, b, c].map(|x| self.domain.operand32(x));
                self.r(f64::from(a.mul_add(b, c)))
            }
            Binary32::Extended => self.r(a.mul_add(b, c)),
        }
    }

    /// A binary32 constant.
    fn k(&self, c: f64) -> f64 {
        f64::from(c as f32)
    }

    /// The binary32 bits of a value whose bits gallivm reads as an integer.
    fn bits(&self, x: f64) -> u32 {
        self.domain.operand32(x).to_bits()
    }

    /// `lp_build_polynomial`: even and odd coefficients in two chains of multiply-adds in
    /// `x^2`, joined by `odd * x + even`.
    fn polynomial(&self, x: f64, coefficients: &[f64]) -> f64 {
        let x2 = self.mul(x, x);
        let (mut even, mut odd) = (None, None);
        for (i, &c) in coefficients.iter().enumerate().rev() {
            let c = self.k(c);
            let chain = if i % 2 == 0 { &mut even } else { &mut odd };
            *chain = Some(match *chain {
                Some(acc) => self.mad(x2, acc, c),
                None => c,
            });
        }
        match (odd, even) {
            (Some(odd), Some(even)) => self.mad(odd, x, even),
            (None, Some(even)) => even,
            _ => f64::NAN,
        }
    }

    /// `lp_build_exp2`: x clamped to [-126.99999, 128], `2^floor(x)` built from its bits
    /// times the polynomial of the fraction.
    fn exp2(&self, x: f64) -> f64 {
        if x.is_nan() {
            return x;
        }
        let x = x.min(128.0).max(self.k(-126.99999));
        let whole = x.floor();
        let fraction = self.sub(x, whole);
        // (floor + 127) << 23: 2^floor as a binary32 value; 128 gives infinity, -127 zero.
        let power = f32::from_bits(((whole as i32 + 127) as u32) << 23);
        self.mul(
            f64::from(power),
            self.polynomial(fraction, &EXP2_POLYNOMIAL),
        )
    }

    /// `lp_build_log2_safe`: the exponent plus `s P(s^2)`, `s = (m - 1) / (m + 1)` of the
    /// significand `m` in [1, 2); negative gives NaN, zero -infinity, infinity infinity.
    fn log2(&self, x: f64) -> f64 {
        if x.is_nan() || x < 0.0 {
            return f64::NAN;
        }
        if x == 0.0 {
            return f64::NEG_INFINITY;
        }
        if x == f64::INFINITY {
            return x;
        }
        let bits = self.bits(x);
        let exponent = f64::from(((bits >> 23) & 0xff) as i32 - 127);
        let significand = f64::from(f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000));
        let s = self.div(self.sub(significand, 1.0), self.add(significand, 1.0));
        let p = self.polynomial(self.mul(s, s), &LOG2_POLYNOMIAL);
        self.mad(s, p, exponent)
    }

    /// `lp_build_sin_or_cos`: `|x|` times 4/pi truncated to the octant `j` (rounded up to
    /// even), `|x| - j pi/4` in three multiply-adds, then the sine or cosine polynomial of
    /// the reduced argument by the octant, its sign from the octant (and for `sin` from x),
    /// rounded to binary32 and clamped to [-1, 1]; NaN when x is not finite.
    fn sin_or_cos(&self, x: f64, cos: bool) -> f64 {
        let bits = self.bits(x);
        if !f32::from_bits(bits).is_finite() {
            return f64::NAN;
        }
        let magnitude = f64::from(f32::from_bits(bits & 0x7fff_ffff));
        let scaled = self.mul(magnitude, self.k(FOUR_OVER_PI));
        // fptosi: out of range gives the x86 "integer indefinite".
        let octant = if scaled < 2_147_483_648.0 {
            scaled as i32
        } else {
            i32::MIN
        };
        let up = octant.wrapping_add(1);
        let even = up & !1;
        let j = self.r(f64::from(even));
        let selector = if cos { even.wrapping_sub(2) } else { even };
        let sign = if cos {
            ((!selector & 4) as u32) << 29
        } else {
            (bits ^ ((up as u32) << 29)) & 0x8000_0000
        };
        let reduced = MINUS_QUARTER_PI
            .iter()
            .fold(magnitude, |acc, &part| self.mad(j, self.k(part), acc));
        let z = self.mul(reduced, reduced);
        let [c0, c1, c2] = COS_POLYNOMIAL.map(|c| self.k(c));
        let cosine = self.mul(self.mul(self.mad(self.mad(z, c0, c1), z, c2), z), z);
        let cosine = self.add(self.sub(cosine, self.mul(z, 0.5)), 1.0);
        let [s0, s1, s2] = SIN_POLYNOMIAL.map(|c| self.k(c));
        let sine = self.mul(self.mad(self.mad(z, s0, s1), z, s2), z);
        let sine = self.mad(sine, reduced, reduced);
        let chosen = if selector & 2 == 0 { sine } else { cosine };
        let signed = f32::from_bits(self.bits(chosen) ^ sign);
        f64::from(signed).clamp(-1.0, 1.0)
    }
}

impl Rounding {
    /// A binary32 `exp2`, `log2`, `sin`, `cos` or `tan` (`sin / cos`, as Mesa's built-in
    /// library writes it) as llvmpipe's gallivm evaluates it; `None` for other operations.
    pub(super) fn gallivm(&self, op: Unary, a: f64) -> Option<f64> {
        let steps = Steps {
            domain: self,
            fused: self.driver.arithmetic.polynomial_fma == Fma::Fused,
        };
        Some(match op {
            Unary::Exp2 => steps.exp2(a),
            Unary::Log2 => steps.log2(a),
            Unary::Sin => steps.sin_or_cos(a, false),
            Unary::Cos => steps.sin_or_cos(a, true),
            Unary::Tan => steps.div(steps.sin_or_cos(a, false), steps.sin_or_cos(a, true)),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::{Domain, Mode};
    use crate::profile::Choices;

    /// `exp2`, `log2`, `sin`, `cos` of these binary32 arguments under `choices`, as bits.
    fn four(choices: Choices, x: [f32; 4]) -> [u32; 4] {
        let d = Rounding::with(Mode::Mediump, choices);
        let ops = [Unary::Exp2, Unary::Log2, Unary::Sin, Unary::Cos];
        std::array::from_fn(|i| (d.unary(ops[i], f64::from(x[i]), Width::Single) as f32).to_bits())
    }

    fn with(key: &str, value: &str, choices: Choices) -> Choices {
        choices.with(key, value).expect("a valid value")
    }

    // The expected bits are what Mesa 22.3.6 read back (highp, exact float readback) on
    // this machine's three lanes for exp2(-1.057), log2(3.102), sin(0.906), cos(-2.565) and
    // exp2(-2.775), log2(8.73), sin(-2.581), cos(-2.456).
    const A: [f32; 4] = [-1.057, 3.102, 0.906, -2.565];
    const B: [f32; 4] = [-2.775, 8.73, -2.581, -2.456];

    #[test]
    fn llvmpipe_with_sse_is_gallivm_with_binary32_steps_and_fused_multiply_adds() {
        let llvmpipe = Choices::default();
        assert_eq!(
            four(llvmpipe, A),
            [0x3ef61533, 0x3fd10ca7, 0x3f497b9e, 0xbf569c7a]
        );
        assert_eq!(
            four(llvmpipe, B),
            [0x3e159a7d, 0x40481015, 0xbf081cb7, 0xbf4627bf]
        );
        // Split multiply-adds miss the driver's exp2.
        let split = with("arithmetic.polynomial_fma", "split", llvmpipe);
        assert_eq!(four(split, B)[0], 0x3e159a7e);
    }

    #[test]
    fn llvmpipe_without_sse_keeps_gallivms_steps_at_extended_precision() {
        let nosse = with(
            "arithmetic.polynomial_fma",
            "split",
            with("arithmetic.binary32", "extended", Choices::default()),
        );
        assert_eq!(
            four(nosse, A),
            [0x3ef61534, 0x3fd10ca7, 0x3f497b9d, 0xbf569c7a]
        );
        assert_eq!(
            four(nosse, B),
            [0x3e159a7d, 0x40481015, 0xbf081cb7, 0xbf4627c0]
        );
    }

    #[test]
    fn correctly_rounded_transcendentals_are_softpipes() {
        // softpipe: C's libm, log2 as ln(x) * log2(e).
        let softpipe = with(
            "arithmetic.log2",
            "from_ln",
            with(
                "arithmetic.transcendentals",
                "correctly_rounded",
                Choices::default(),
            ),
        );
        assert_eq!(
            four(softpipe, A),
            [0x3ef61532, 0x3fd10ca7, 0x3f497b9d, 0xbf569c7a]
        );
    }

    #[test]
    fn gallivm_edge_cases_follow_its_clamps_and_selects() {
        let d = Rounding::with(Mode::Mediump, Choices::default());
        let at = |op, x: f64| d.unary(op, x, Width::Single);
        assert_eq!(at(Unary::Exp2, 200.0), f64::INFINITY);
        assert_eq!(at(Unary::Exp2, -200.0), 0.0);
        assert_eq!(at(Unary::Exp2, 3.0), 8.0);
        assert_eq!(at(Unary::Log2, 0.0), f64::NEG_INFINITY);
        assert!(at(Unary::Log2, -1.0).is_nan());
        assert_eq!(at(Unary::Log2, 8.0), 3.0);
        assert!(at(Unary::Sin, f64::INFINITY).is_nan());
        assert_eq!(at(Unary::Cos, 0.0), 1.0);
    }
}
