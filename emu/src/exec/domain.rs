//! The numeric domain the evaluator computes in: the scalar float operations, parameterised
//! by the width the IR gives each operation.
//!
//! The evaluator never does float arithmetic itself; it asks a [`Domain`]. [`Rounding`] is
//! the domain of the three modes halfcheck predicts with ([`Mode`]): every value is an `f64`
//! that holds the binary16, binary32 or binary64 result exactly. A later interval domain (the
//! acceptance intervals of a verdict) implements the same trait with an interval type.

use super::binary16::nearest_f16;
use crate::profile::{
    Binary32, Choices, ControlFlowVariables, ExpLog, Fma, Log2, Pow, Transcendentals,
};
use half::f16;

/// The width an operation computes in, from its IR result type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    /// binary16 (`float16_t`: a lowered mediump operation).
    Half,
    /// binary32 (`float`).
    Single,
    /// A lowered lowp operation: binary16 for the point modes (llvmpipe computes lowp as
    /// mediump); acceptance intervals give it lowp's own format.
    Low,
}

/// A one-operand float operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unary {
    /// `-x`
    Neg,
    /// `|x|`
    Abs,
    /// -1, 0 or 1.
    Sign,
    /// `1/x`
    Rcp,
    /// `1/sqrt(x)`
    Rsq,
    /// `sqrt(x)`
    Sqrt,
    /// `e^x`
    Exp,
    /// `ln x`
    Log,
    /// `2^x`
    Exp2,
    /// `log2 x`
    Log2,
    /// Round toward zero.
    Trunc,
    /// Round up.
    Ceil,
    /// Round down.
    Floor,
    /// `x - floor(x)`
    Fract,
    /// Round to nearest even.
    RoundEven,
    /// Sine.
    Sin,
    /// Cosine.
    Cos,
    /// Tangent.
    Tan,
    /// Arc sine.
    Asin,
    /// Arc cosine.
    Acos,
    /// Arc tangent.
    Atan,
    /// Hyperbolic sine.
    Sinh,
    /// Hyperbolic cosine.
    Cosh,
    /// Hyperbolic tangent.
    Tanh,
    /// Inverse hyperbolic sine.
    Asinh,
    /// Inverse hyperbolic cosine.
    Acosh,
    /// Inverse hyperbolic tangent.
    Atanh,
    /// Clamp to [0, 1].
    Saturate,
}

/// A two-operand float operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Binary {
    /// `a + b`
    Add,
    /// `a - b`
    Sub,
    /// `a * b`
    Mul,
    /// `a / b`
    Div,
    /// `a - b * floor(a / b)`, each step rounded.
    Mod,
    /// Minimum.
    Min,
    /// Maximum.
    Max,
    /// `a^b`
    Pow,
    /// Two-argument arc tangent.
    Atan2,
}

/// A float comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compare {
    /// `<`
    Less,
    /// `<=`
    LessEqual,
    /// `>`
    Greater,
    /// `>=`
    GreaterEqual,
    /// `==`
    Equal,
    /// `!=`
    NotEqual,
}

impl Compare {
    /// Whether `a op b` holds (false for NaN, except `!=`).
    pub fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Compare::Less => a < b,
            Compare::LessEqual => a <= b,
            Compare::Greater => a > b,
            Compare::GreaterEqual => a >= b,
            Compare::Equal => a == b,
            Compare::NotEqual => a != b,
        }
    }
}

/// The scalar float operations of one numeric domain.
///
/// Every operation gets the [`Width`] of its IR result type; what a width means is the
/// domain's business (the `highp` mode computes both in binary32). Values enter as exact
/// `f64`s ([`Domain::constant`]) and leave as a representative `f64` ([`Domain::representative`]).
pub trait Domain: Sync {
    /// One float value.
    type F: Copy + Send + Sync + std::fmt::Debug + PartialEq;

    /// Whether 16-bit integer types wrap at 16 bits (false: they behave as 32-bit).
    fn lowers_ints(&self) -> bool;
    /// The value `x` (exactly representable: a binary32 or binary16 value).
    fn constant(&self, x: f64) -> Self::F;
    /// A representative value (the value itself for point domains).
    fn representative(&self, x: Self::F) -> f64;
    /// Whether `a` and `b` are the same value bit for bit (`-0` is not `+0`, a NaN is itself).
    fn same(&self, a: &Self::F, b: &Self::F) -> bool;
    /// `x` converted to `width`, rounding to nearest even (`f2fmp`, `f162f`).
    fn convert(&self, x: Self::F, width: Width) -> Self::F;
    /// `x` converted to `width`, rounding toward zero (texels entering binary16).
    fn truncate(&self, x: Self::F, width: Width) -> Self::F;
    /// A one-operand operation computed at `width`.
    fn unary(&self, op: Unary, a: Self::F, width: Width) -> Self::F;
    /// A two-operand operation computed at `width`.
    fn binary(&self, op: Binary, a: Self::F, b: Self::F, width: Width) -> Self::F;
    /// The `fma()` built-in, `a * b + c` at `width`, as the driver computes it.
    fn fma(&self, a: Self::F, b: Self::F, c: Self::F, width: Width) -> Self::F;
    /// `a * b + c` with one rounding at `width` (a contracted multiply-add, a fused `dot` or
    /// `mix`); the `fma()` built-in's value unless the domain says otherwise.
    fn fused(&self, a: Self::F, b: Self::F, c: Self::F, width: Width) -> Self::F {
        self.fma(a, b, c, width)
    }
    /// `a * 2^e` at `width`.
    fn ldexp(&self, a: Self::F, e: i64, width: Width) -> Self::F;
    /// A comparison.
    fn compare(&self, op: Compare, a: Self::F, b: Self::F) -> bool;
    /// The driver choices this domain predicts (built-in expansions, derivatives, texels,
    /// and for the host rasterisation and filtering); the default profile's unless the domain
    /// says otherwise.
    fn driver(&self) -> Choices {
        Choices::default()
    }
    /// Whether values stand for ranges (an interval domain): hosts then give ranges where
    /// values enter, and the evaluator follows every way a range leaves a decision open.
    fn tracks_ranges(&self) -> bool {
        false
    }
    /// The range `x` stands for (`[x, x]` for a point; `[-inf, inf]` when it may be NaN).
    fn range(&self, x: Self::F) -> (f64, f64) {
        let r = self.representative(x);
        (r, r)
    }
    /// A value entering from outside the arithmetic (interpolation, texture filtering):
    /// `point` as the modelled driver computes it, `[lo, hi]` what any conforming driver may;
    /// `width` is the precision declared for it (mediump: [`Width::Half`], lowp:
    /// [`Width::Low`]), in which a domain may hold it.
    fn enter(&self, point: f64, lo: f64, hi: f64, width: Width) -> Self::F {
        let _ = (lo, hi, width);
        self.constant(point)
    }
    /// `x` computed where something never written was read (an uninitialised variable):
    /// a domain that tracks ranges marks it indeterminate, since two runs of one driver may
    /// give different values there; a point domain keeps the modelled driver's `x`.
    fn indeterminate(&self, x: Self::F) -> Self::F {
        x
    }
    /// Whether `x` is marked [`Domain::indeterminate`] (never in point domains).
    fn is_indeterminate(&self, x: Self::F) -> bool {
        let _ = x;
        false
    }
    /// Whether float variables assigned in masked control flow (loops the driver keeps, `if`s
    /// on varying conditions) live in memory, where [`Domain::stored`] holds them (false:
    /// they keep what the arithmetic gives).
    fn keeps_control_flow_variables_in_memory(&self) -> bool {
        false
    }
    /// A float as a variable in memory holds it.
    fn stored(&self, x: Self::F) -> Self::F {
        x
    }
    /// How far from the exact sum any order of adding `terms` values may end, when no partial
    /// sum passes `magnitude`: one rounding per addition in `width`'s format. Zero in point
    /// domains, which follow the written order.
    fn reassociation_slack(&self, magnitude: f64, terms: usize, width: Width) -> f64 {
        let _ = (magnitude, terms, width);
        0.0
    }
    /// `a`, or `b`: two values a conforming driver may compute for one thing (two forms of a
    /// built-in, two ways of a branch). Point domains keep `a`, the modelled driver's.
    fn either(&self, a: Self::F, b: Self::F) -> Self::F {
        let _ = b;
        a
    }
}

/// Which arithmetic a prediction uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Every float operation in binary32 (lowering ignored): a driver that does not lower.
    Highp,
    /// Lowered operations in binary16, the rest in binary32: a driver that lowers.
    #[default]
    Mediump,
    /// Every operation in binary64: the reference.
    Exact,
}

impl Mode {
    /// The mode's name as the command line writes it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Highp => "highp",
            Mode::Mediump => "mediump",
            Mode::Exact => "exact",
        }
    }
}

/// The point domain of [`Mode`]: values are `f64`s holding binary16/32/64 values exactly.
///
/// binary16 operations compute in binary32 and round to binary16 (nearest even), which is
/// correctly rounded for `+ - * /` and `sqrt` (binary32 has more than 2 x 11 + 2 bits);
/// transcendentals are the binary32 function of the argument, rounded. Where a driver
/// departs from that (flushing, fused multiply-add, built-in expansions) its profile's
/// [`Choices`] say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rounding {
    /// The arithmetic.
    pub mode: Mode,
    /// The driver's choices (a profile's).
    pub driver: Choices,
}

impl Rounding {
    /// The domain of `mode` with the default profile's (llvmpipe's) choices.
    pub fn new(mode: Mode) -> Rounding {
        Rounding::with(mode, Choices::default())
    }

    /// The domain of `mode` with a profile's choices.
    pub fn with(mode: Mode, driver: Choices) -> Rounding {
        Rounding { mode, driver }
    }

    /// The width an operation really computes in under this mode (`None`: binary64).
    fn effective(&self, width: Width) -> Option<Width> {
        match self.mode {
            Mode::Exact => None,
            Mode::Highp => Some(Width::Single),
            Mode::Mediump => Some(match width {
                Width::Low => Width::Half,
                other => other,
            }),
        }
    }

    /// Whether binary32 operations keep extended precision (then binary64 stands for the
    /// x87's 64-bit significand).
    fn extended(&self, width: Width) -> bool {
        width == Width::Single && self.driver.arithmetic.binary32 == Binary32::Extended
    }

    /// `x` rounded to what `width` holds.
    #[inline]
    pub(super) fn round(&self, x: f64, width: Option<Width>) -> f64 {
        match width {
            None => x,
            Some(Width::Single) if self.extended(Width::Single) => x,
            Some(Width::Single) => self.flush(f64::from(x as f32)),
            // Straight from binary64, once: no double rounding.
            Some(Width::Half | Width::Low) => self.flush16(nearest_f16(x)),
        }
    }

    /// A binary32 value with subnormals flushed when the driver does.
    #[inline]
    fn flush(&self, x: f64) -> f64 {
        let flush = self.driver.arithmetic.flush_f32_subnormals;
        if flush && x != 0.0 && x.abs() < f64::from(f32::MIN_POSITIVE) {
            0.0f64.copysign(x)
        } else {
            x
        }
    }

    /// A binary16 value with subnormals flushed when the driver does.
    #[inline]
    fn flush16(&self, x: f64) -> f64 {
        let flush = self.driver.arithmetic.flush_f16_subnormals;
        if flush && x != 0.0 && x.abs() < F16_MIN_POSITIVE {
            0.0f64.copysign(x)
        } else {
            x
        }
    }

    /// An operand as the binary32 unit sees it.
    pub(super) fn operand32(&self, x: f64) -> f32 {
        self.flush(x) as f32
    }

    /// [`Domain::binary`] past its inline common case, computing in `effective`: a value
    /// entering a binary16 operation is rounded to binary16 first.
    fn other_binary(&self, op: Binary, a: f64, b: f64, effective: Option<Width>) -> f64 {
        let (a, b) = (self.round(a, effective), self.round(b, effective));
        match effective {
            None => binary64(op, a, b),
            Some(Width::Half) if op == Binary::Mod => {
                // mod(a, b) = a - b * floor(a / b), each operation in binary16.
                let h = |x: f64| self.round(x, Some(Width::Half));
                let q = h(binary64(Binary::Div, a, b)).floor();
                h(a - h(b * q))
            }
            Some(w) if op == Binary::Atan2 => self.arctangent2(a, b, w),
            Some(w) if op == Binary::Pow && self.driver.arithmetic.pow == Pow::Exp2Log2 => {
                let log = self.unary(Unary::Log2, a, w);
                let scaled = self.binary(Binary::Mul, b, log, w);
                self.unary(Unary::Exp2, scaled, w)
            }
            Some(w) if self.extended(w) => binary64(op, a, b),
            Some(w) => self.on_binary32_unit(op, a, b, w),
        }
    }

    /// `op` on the binary32 unit, its operands as the unit sees them, the result rounded to
    /// what `width` holds.
    #[inline(always)]
    fn on_binary32_unit(&self, op: Binary, a: f64, b: f64, width: Width) -> f64 {
        let r = binary32(op, self.operand32(a), self.operand32(b));
        self.round(f64::from(r), Some(width))
    }
}

impl Domain for Rounding {
    type F = f64;

    fn lowers_ints(&self) -> bool {
        self.mode == Mode::Mediump
    }

    fn constant(&self, x: f64) -> f64 {
        x
    }

    fn representative(&self, x: f64) -> f64 {
        x
    }

    fn same(&self, a: &f64, b: &f64) -> bool {
        a.to_bits() == b.to_bits()
    }

    fn convert(&self, x: f64, width: Width) -> f64 {
        match self.effective(width) {
            Some(Width::Half) => {
                let x = self.flush16(x);
                self.flush16(nearest_f16(f64::from(self.operand32(x))))
            }
            other => self.round(x, other),
        }
    }

    fn truncate(&self, x: f64, width: Width) -> f64 {
        match self.effective(width) {
            Some(Width::Half) => self.flush16(truncate_to_f16(x)),
            other => self.round(x, other),
        }
    }

    fn unary(&self, op: Unary, a: f64, width: Width) -> f64 {
        let Some(w) = self.effective(width) else {
            return unary64(op, a);
        };
        let a = self.round(a, Some(w));
        if w == Width::Single && self.driver.arithmetic.transcendentals == Transcendentals::Gallivm
        {
            if let Some(value) = self.gallivm(op, a) {
                return value;
            }
        }
        match op {
            Unary::Exp | Unary::Log if self.driver.arithmetic.exp_log == ExpLog::Exp2Log2 => {
                self.natural(op, a, w)
            }
            Unary::Sinh | Unary::Cosh | Unary::Tanh => self.hyperbolic(op, a, w),
            Unary::Asinh | Unary::Acosh | Unary::Atanh => self.inverse_hyperbolic(op, a, w),
            Unary::Asin | Unary::Acos => self.arcsine(op, a, w),
            Unary::Atan => self.arctangent(a, w),
            _ if self.extended(w) => unary64(op, a),
            Unary::Log2 if w == Width::Single && self.driver.arithmetic.log2 == Log2::FromLn => {
                let x = self.operand32(a);
                // softpipe's `1.442695f` is `log2(e)` rounded to binary32.
                self.round(f64::from(x.ln() * std::f32::consts::LOG2_E), Some(w))
            }
            _ => self.round(f64::from(unary32(op, self.operand32(a))), Some(w)),
        }
    }

    /// The common case inline: one binary32 operation of the binary32 unit.
    #[inline(always)]
    fn binary(&self, op: Binary, a: f64, b: f64, width: Width) -> f64 {
        let effective = self.effective(width);
        if effective == Some(Width::Single)
            && !self.extended(Width::Single)
            && matches!(
                op,
                Binary::Add | Binary::Sub | Binary::Mul | Binary::Div | Binary::Min | Binary::Max
            )
        {
            let (a, b) = (self.round(a, effective), self.round(b, effective));
            return self.on_binary32_unit(op, a, b, Width::Single);
        }
        self.other_binary(op, a, b, effective)
    }

    fn fma(&self, a: f64, b: f64, c: f64, width: Width) -> f64 {
        match self.effective(width) {
            None => a.mul_add(b, c),
            Some(_) if self.driver.arithmetic.fma == Fma::Fused => self.fused(a, b, c, width),
            Some(_) => {
                let product = self.binary(Binary::Mul, a, b, width);
                self.binary(Binary::Add, product, c, width)
            }
        }
    }

    fn fused(&self, a: f64, b: f64, c: f64, width: Width) -> f64 {
        match self.effective(width) {
            None => a.mul_add(b, c),
            Some(w) => {
                let [a, b, c] = [a, b, c].map(|x| self.round(x, Some(w)));
                self.round(a.mul_add(b, c), Some(w))
            }
        }
    }

    fn ldexp(&self, a: f64, e: i64, width: Width) -> f64 {
        let e = e.clamp(-2000, 2000) as i32;
        self.round(a * 2f64.powi(e), self.effective(width))
    }

    fn driver(&self) -> Choices {
        self.driver
    }

    fn keeps_control_flow_variables_in_memory(&self) -> bool {
        self.mode != Mode::Exact
            && self.extended(Width::Single)
            && self.driver.arithmetic.control_flow_variables == ControlFlowVariables::Memory
    }

    fn stored(&self, x: f64) -> f64 {
        self.flush(f64::from(x as f32))
    }

    fn compare(&self, op: Compare, a: f64, b: f64) -> bool {
        op.holds(a, b)
    }
}

/// The smallest normal binary16 value, `2^-14`.
const F16_MIN_POSITIVE: f64 = 6.103_515_625e-5;

/// `x` rounded toward zero to a binary16 value (overflow gives the largest finite value).
pub fn truncate_to_f16(x: f64) -> f64 {
    let nearest = f16::from_f64(x);
    let value = f64::from(nearest.to_f32());
    if x.is_nan() || value.abs() <= x.abs() {
        return value;
    }
    // Rounded away from zero: step one binary16 value toward zero.
    let bits = nearest.to_bits();
    let toward_zero = if bits & 0x7fff == 0x7c00 {
        (bits & 0x8000) | 0x7bff
    } else {
        bits - 1
    };
    f64::from(f16::from_bits(toward_zero).to_f32())
}
/// Defines a one-operand float operation at one width; the two widths differ only in type.
macro_rules! unary_at_width {
    ($name:ident, $float:ty) => {
        /// A one-operand operation, computed at this width.
        fn $name(op: Unary, a: $float) -> $float {
            match op {
                Unary::Neg => -a,
                Unary::Abs => a.abs(),
                Unary::Sign => sign(a),
                Unary::Rcp => 1.0 / a,
                Unary::Rsq => 1.0 / a.sqrt(),
                Unary::Sqrt => a.sqrt(),
                Unary::Exp => a.exp(),
                Unary::Log => a.ln(),
                Unary::Exp2 => a.exp2(),
                Unary::Log2 => a.log2(),
                Unary::Trunc => a.trunc(),
                Unary::Ceil => a.ceil(),
                Unary::Floor => a.floor(),
                Unary::Fract => a - a.floor(),
                Unary::RoundEven => a.round_ties_even(),
                Unary::Sin => a.sin(),
                Unary::Cos => a.cos(),
                Unary::Tan => a.tan(),
                Unary::Asin => a.asin(),
                Unary::Acos => a.acos(),
                Unary::Atan => a.atan(),
                Unary::Sinh => a.sinh(),
                Unary::Cosh => a.cosh(),
                Unary::Tanh => a.tanh(),
                Unary::Asinh => a.asinh(),
                Unary::Acosh => a.acosh(),
                Unary::Atanh => a.atanh(),
                Unary::Saturate => a.clamp(0.0, 1.0),
            }
        }
    };
}

unary_at_width!(unary32, f32);
unary_at_width!(unary64, f64);

/// GLSL's `sign` (NaN gives 0, like Mesa's `fsign`).
fn sign<F: PartialOrd + From<i8>>(a: F) -> F {
    if a > F::from(0) {
        F::from(1)
    } else if a < F::from(0) {
        F::from(-1)
    } else {
        F::from(0)
    }
}

fn binary32(op: Binary, a: f32, b: f32) -> f32 {
    match op {
        Binary::Add => a + b,
        Binary::Sub => a - b,
        Binary::Mul => a * b,
        Binary::Div => a / b,
        Binary::Mod => a - b * (a / b).floor(),
        Binary::Min => a.min(b),
        Binary::Max => a.max(b),
        Binary::Pow => a.powf(b),
        Binary::Atan2 => a.atan2(b),
    }
}

fn binary64(op: Binary, a: f64, b: f64) -> f64 {
    match op {
        Binary::Add => a + b,
        Binary::Sub => a - b,
        Binary::Mul => a * b,
        Binary::Div => a / b,
        Binary::Mod => a - b * (a / b).floor(),
        Binary::Min => a.min(b),
        Binary::Max => a.max(b),
        Binary::Pow => a.powf(b),
        Binary::Atan2 => a.atan2(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mediump_fract_of_a_product_rounds_each_operation_to_binary16() {
        let d = Rounding::new(Mode::Mediump);
        let a = d.convert(f64::from(0.3001f32), Width::Half);
        let p = d.binary(Binary::Mul, a, 1000.0, Width::Half);
        assert_eq!(p, 300.0);
        assert_eq!(d.unary(Unary::Fract, p, Width::Half), 0.0);
    }

    #[test]
    fn highp_mode_ignores_binary16_widths() {
        let d = Rounding::new(Mode::Highp);
        let third = d.binary(Binary::Div, 1.0, 3.0, Width::Half);
        assert_eq!(third, f64::from(1.0f32 / 3.0));
    }

    #[test]
    fn texels_entering_binary16_are_truncated() {
        let x = f64::from(1.0f32 / 255.0);
        let t = truncate_to_f16(x);
        assert!(t <= x && f64::from(f16::from_f64(x).to_f32()) >= t);
        assert_eq!(truncate_to_f16(70000.0), 65504.0);
        assert_eq!(
            truncate_to_f16(-0.1),
            -f64::from(f16::from_bits(0x2e66).to_f32())
        );
    }

    #[test]
    fn llvmpipe_flushes_binary32_subnormals() {
        let d = Rounding::new(Mode::Mediump);
        let tiny = f64::from(f32::MIN_POSITIVE);
        assert_eq!(d.binary(Binary::Mul, tiny, 0.5, Width::Single), 0.0);
    }
}
