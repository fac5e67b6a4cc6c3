//! Acceptance intervals: the [`Domain`] of every value a conforming GLSL ES evaluation may
//! return.
//!
//! A verdict needs two intervals per probed value: `H`, every value a conforming **highp**
//! evaluation may return ([`Bounds::highp`]), and `M`, every value a conforming **mediump**
//! evaluation may return ([`Bounds::mediump`], run over the `spec`-model lowered IR, where
//! [`Width::Half`] marks every operation the precision rules let a driver lower). A value
//! outside `H` but inside `M` proves lowering; a value outside both is a driver bug.
//!
//! # The model
//!
//! It is the acceptance model of dEQP / VK-GL-CTS (`framework/common/tcuFloatFormat.cpp`,
//! `modules/glshared/glsBuiltinPrecisionTests.cpp`), re-implemented here from its description,
//! with the GLSL ES 3.00 precision table (`/work/shared/PRECISION_FACTS.md`, "Numbers"):
//!
//! - Formats ([`FloatFormat`], dEQP's `FloatFormat(minExp, maxExp, fractionBits, exact)`):
//!   highp = (-126, 127, 23, exact), mediump = (-13, 13, 9, inexact), lowp = (0, 0, 7,
//!   inexact, no flush to zero: a fixed point of `2^-7` in `(-2, 2)`), lowp operations taking
//!   mediump's allowances on that grid. Converting an interval
//!   to a format rounds its ends outward to the format's grid (the grid below `2^minExp` is
//!   that of subnormals). A value of magnitude below `2^minExp` may flush to zero (0 joins the
//!   interval; this also covers llvmpipe's DAZ/FTZ), and operands are converted to the
//!   operation's format before it (flush-to-zero on input). dEQP's "inexact" only adds the
//!   unrounded value to the result, which outward rounding already contains. A result beyond
//!   the format's range (`|x| >= 2^(maxExp+1)`, as dEQP's `clampValue`) is *unbounded*: any
//!   value, ±inf and NaN included ([`Interval::entire`]; dEQP keeps the sign, halfcheck
//!   allows more).
//! - `ulp(x)` is Harrison's, relative to the exact value (at `2^k` the distance to the next
//!   lower value; never below `2^(minExp - fractionBits)`).
//! - Allowances per operation, `ulp` in the operation's format:
//!
//! | operation | highp | mediump |
//! |---|---|---|
//! | `+ - *`, `neg`, `abs`, `sign`, `floor`, `ceil`, `trunc`, `roundEven`, `min`, `max`, `saturate` | correctly rounded (outward to the grid) | same, on the mediump grid |
//! | `/` (and `rcp` = `1/x`) | 2.5 ulp if `2^minExp <= abs(divisor) <= 2^(maxExp-1)`, else any value | same |
//! | `inversesqrt` | 2 ulp, `x <= 0` undefined | same |
//! | `sqrt` | `1/inversesqrt(x)`; `sqrt(0) = 0` | same |
//! | `exp`, `exp2` | `(3 + 2 abs(x))` ulp | `(2 + 2 abs(x))` ulp |
//! | `log`, `log2` | `2^-21` absolute in `[0.5, 2]`, else 4 ulp (dEQP fails above 3, warns up to 4: OpenGL API issue 57 allows 4) | `2^-7` absolute in `[0.5, 2]`, else 2 ulp |
//! | `sin`, `cos` | `2^-11` absolute in `[-pi, pi]`, else `abs(x) 2^-12` | 2 ulp in `[-pi, pi]`, else `abs(x) 2^-10` |
//! | `asin` | `2^-11` absolute | `2^-8` absolute |
//! | `acos`, `atan`, `atan(y, x)` | 4096 ulp | 2 ulp |
//! | `tan` | `sin(x) * (1 / cos(x))` | same |
//! | `pow` | `exp2(y * log2(x))` | same |
//! | `sinh`, `cosh` | `(exp(x) -+ exp(-x)) / 2` | same |
//! | `tanh` | `sinh(x) / cosh(x)` | same |
//! | `asinh`, `acosh`, `atanh` | `log(x + sqrt(x*x + 1))`, `log(x + sqrt((x+1)(x-1) or x*x-1))`, `0.5 * log((1+x)/(1-x))` | same |
//! | `mod` | `x - y * floor(x / y)` | same |
//! | `fract` | `x - floor(x)` (correlated: exact when `floor` is constant on the interval) | same |
//! | `fma` | `a * b + c`, two roundings (contains the fused result) | same |
//! | `ldexp(a, e)` | `a * exp2(e)` (dEQP; undefined when `exp2(e)` overflows) | same |
//!
//! Interval evaluation is sound, not dEQP's endpoint evaluation: monotone functions use the
//! endpoints; `*` and `/` the four endpoint combinations (a divisor interval containing 0 is
//! unbounded); `sin`/`cos` include the extrema inside the interval (width `>= 2 pi`: all of
//! `[-1, 1]`); an allowance in ulps is taken at the largest magnitude of the interval's
//! results (dEQP evaluates it per endpoint, which can miss a wider allowance just above a
//! power of two inside the interval); compositions are evaluated as interval expressions
//! (uncorrelated operands, so wider than the truth for wide intervals, equal to dEQP for
//! points). Exact parts are computed in `f64`: `+ - * /` with error-free transformations
//! (the result is widened one `f64` ulp only when the `f64` operation was inexact), libm
//! results are widened by `2^-50` relative before the allowance is added.
//!
//! A possible NaN (undefined results: `log` of `x <= 0`, `0 * inf`, ...) makes an interval
//! [`Interval::entire`] with its NaN flag set. Operands are converted to the operation's
//! format first, so an infinite end (overflow) becomes `entire` too, and an operation with an
//! `entire` operand is `entire`. [`Domain::compare`] compares [`Domain::representative`]s
//! (the midpoints): `H` and `M` assume every branch goes the way the representative value
//! takes it.
//!
//! `M` follows dEQP's mediump allowances, which are not all wider than highp's (`sin` near
//! `pi`: 2 mediump ulps of a tiny result against highp's `2^-11`), so `M` need not contain
//! `H`; a verdict treats a value inside either as conforming.

use super::domain::{Binary, Compare, Domain, Unary, Width};
use std::cmp::Ordering;
use std::f64::consts::{FRAC_PI_2, PI, TAU};

/// A closed interval of reals, possibly unbounded, with a flag for "may be NaN" and one for
/// "indeterminate".
///
/// Invariant: `lo <= hi`, neither is NaN. An interval that may be NaN is always
/// [`Interval::entire`] (an undefined value may be anything). An indeterminate one is
/// entire too, and everything computed from it is indeterminate.
#[derive(Clone, Copy, Debug)]
pub struct Interval {
    lo: f64,
    hi: f64,
    nan: bool,
    indeterminate: bool,
    /// The format whose grid [`FloatFormat::convert`] put both ends on, if it did: converting
    /// again to that format gives the same interval, so an operand converted by the
    /// operation that made it is not converted again.
    grid: Grid,
}

/// Two intervals are equal when they hold the same values: the grid they are known to lie on
/// only saves work.
impl PartialEq for Interval {
    fn eq(&self, other: &Interval) -> bool {
        self.lo == other.lo
            && self.hi == other.hi
            && self.nan == other.nan
            && self.indeterminate == other.indeterminate
    }
}

/// Which of the precisions' formats an interval's ends are known to lie on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Grid {
    /// Not known (not the output of [`FloatFormat::convert`] to one of the three).
    Unknown,
    /// [`FloatFormat::HIGHP`].
    Highp,
    /// [`FloatFormat::MEDIUMP`].
    Mediump,
    /// [`FloatFormat::LOWP`].
    Lowp,
}

impl Interval {
    /// Every value, ±inf and NaN included: an undefined or overflowed result.
    pub const fn entire() -> Interval {
        Interval {
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
            nan: true,
            indeterminate: false,
            grid: Grid::Unknown,
        }
    }

    /// Every value, and one that may differ from run to run of the same driver: what a read
    /// of something never written (an uninitialised variable) reaches.
    pub const fn indeterminate() -> Interval {
        Interval {
            indeterminate: true,
            ..Interval::entire()
        }
    }

    /// Whether this is [`Interval::indeterminate`]: two runs may give different values.
    pub fn is_indeterminate(&self) -> bool {
        self.indeterminate
    }

    /// This interval, or [`Interval::indeterminate`] when any of `operands` is (the mark
    /// they pass on).
    #[inline(always)]
    fn marked_by(self, operands: &[Interval]) -> Interval {
        if operands.iter().any(|x| x.indeterminate) {
            Interval::indeterminate()
        } else {
            self
        }
    }

    /// `[lo, hi]` (ends in either order); a NaN end gives [`Interval::entire`].
    pub fn new(lo: f64, hi: f64) -> Interval {
        if lo.is_nan() || hi.is_nan() {
            return Interval::entire();
        }
        Interval {
            lo: lo.min(hi),
            hi: lo.max(hi),
            nan: false,
            indeterminate: false,
            grid: Grid::Unknown,
        }
    }

    /// The single value `x` (NaN gives [`Interval::entire`]).
    pub fn point(x: f64) -> Interval {
        Interval::new(x, x)
    }

    /// The lower end (may be -inf).
    pub fn lo(&self) -> f64 {
        self.lo
    }

    /// The upper end (may be +inf).
    pub fn hi(&self) -> f64 {
        self.hi
    }

    /// Whether NaN is among the values (then the interval is [`Interval::entire`]).
    pub fn may_be_nan(&self) -> bool {
        self.nan
    }

    /// Whether `x` is one of the values (NaN: when the interval may be NaN).
    pub fn contains(&self, x: f64) -> bool {
        if x.is_nan() {
            self.nan
        } else {
            self.lo <= x && x <= self.hi
        }
    }

    /// Whether both ends are finite.
    pub fn is_bounded(&self) -> bool {
        self.lo.is_finite() && self.hi.is_finite()
    }

    /// Whether this is [`Interval::entire`].
    pub fn is_entire(&self) -> bool {
        self.nan
    }

    /// The smallest interval holding both.
    pub fn hull(self, other: Interval) -> Interval {
        if self.nan || other.nan {
            return Interval::entire().marked_by(&[self, other]);
        }
        Interval {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
            nan: false,
            indeterminate: false,
            grid: Grid::Unknown,
        }
    }

    /// A value inside: the midpoint, the finite end when one end is infinite, 0 for
    /// `[-inf, inf]`, NaN when the interval may be NaN.
    pub fn midpoint(&self) -> f64 {
        match (self.lo.is_finite(), self.hi.is_finite()) {
            _ if self.nan => f64::NAN,
            (true, true) => self.lo * 0.5 + self.hi * 0.5,
            (true, false) => self.lo,
            (false, true) => self.hi,
            (false, false) => 0.0,
        }
    }
}

/// A floating-point format as dEQP describes one: `minExp`, `maxExp`, fraction bits and
/// whether results must be correctly rounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatFormat {
    /// The smallest normal exponent.
    pub min_exp: i32,
    /// The largest exponent.
    pub max_exp: i32,
    /// Bits after the binary point.
    pub fraction_bits: i32,
    /// Correctly rounded (false: any rounding direction, dEQP's "inexact").
    pub exact: bool,
    /// Whether a value below `2^min_exp` may flush to zero (false: the grid goes on down to
    /// zero, lowp's fixed point).
    pub flushes: bool,
    /// Which precision's format this is, if one ([`Grid::Unknown`] for any other).
    grid: Grid,
}

impl FloatFormat {
    /// GLSL ES highp as dEQP models it: binary32.
    pub const HIGHP: FloatFormat = FloatFormat {
        min_exp: -126,
        max_exp: 127,
        fraction_bits: 23,
        exact: true,
        flushes: true,
        grid: Grid::Highp,
    };

    /// GLSL ES mediump as dEQP models it: range `2^±13`, 9 fraction bits, inexact.
    pub const MEDIUMP: FloatFormat = FloatFormat {
        min_exp: -13,
        max_exp: 13,
        fraction_bits: 9,
        exact: false,
        flushes: true,
        grid: Grid::Mediump,
    };

    /// GLSL ES lowp as dEQP models it: range `(-2, 2)`, 7 fraction bits down to zero (an
    /// absolute precision of `2^-7`, looser than the spec's `2^-8`), inexact.
    pub const LOWP: FloatFormat = FloatFormat {
        min_exp: 0,
        max_exp: 0,
        fraction_bits: 7,
        exact: false,
        flushes: false,
        grid: Grid::Lowp,
    };

    /// The largest finite value.
    pub fn max_value(&self) -> f64 {
        pow2(self.max_exp) * (2.0 - pow2(-self.fraction_bits))
    }

    /// `count` ulps of the exact value `x` (Harrison's ulp: at a power of two, the distance
    /// to the next lower value).
    pub fn ulp(&self, x: f64, count: f64) -> f64 {
        if x.is_nan() {
            return f64::NAN;
        }
        if x.is_infinite() {
            return pow2(self.max_exp - self.fraction_bits) * count;
        }
        let e = if x == 0.0 {
            self.min_exp
        } else {
            let (e, power_of_two) = exponent(x);
            if power_of_two {
                e - 1
            } else {
                e
            }
        };
        pow2(e.max(self.min_exp) - self.fraction_bits) * count
    }

    /// `log2` of the distance between neighbouring values of the grid around `x` (finite,
    /// nonzero).
    #[inline]
    fn quantum_exponent(&self, x: f64) -> i32 {
        let (e, _) = exponent(x);
        e.max(self.min_exp) - self.fraction_bits
    }

    /// The largest grid value `<= x` (no range limit; ±inf and 0 stay).
    #[inline]
    pub fn round_down(&self, x: f64) -> f64 {
        if !x.is_finite() || x == 0.0 {
            return x;
        }
        to_grid(x, self.quantum_exponent(x), x < 0.0)
    }

    /// The smallest grid value `>= x` (no range limit; ±inf and 0 stay).
    #[inline]
    pub fn round_up(&self, x: f64) -> f64 {
        if !x.is_finite() || x == 0.0 {
            return x;
        }
        to_grid(x, self.quantum_exponent(x), x > 0.0)
    }

    /// Every value this format may hold for a value in `x`: the ends rounded outward to the
    /// grid, 0 where a value may flush, unbounded where a value overflows.
    #[inline(always)]
    pub fn convert(&self, x: Interval) -> Interval {
        if self.grid != Grid::Unknown && x.grid == self.grid {
            // Converted to this format already: converting is idempotent.
            return x;
        }
        self.round_outward(x)
    }

    /// [`FloatFormat::convert`] of an interval not known to be in this format already.
    fn round_outward(&self, x: Interval) -> Interval {
        if x.nan {
            return Interval::entire();
        }
        let (lo, hi) = if self.grid == Grid::Highp {
            (round_down_binary32(x.lo), round_up_binary32(x.hi))
        } else {
            (self.round_down(x.lo), self.round_up(x.hi))
        };
        let overflow = pow2(self.max_exp + 1);
        if lo <= -overflow || hi >= overflow {
            return Interval::entire();
        }
        let normal = pow2(self.min_exp);
        let (lo, hi) = if self.flushes && lo < normal && hi > -normal {
            (lo.min(0.0), hi.max(0.0))
        } else {
            (lo, hi)
        };
        // An inexact format also allows the unrounded value, which is inside already.
        Interval {
            grid: self.grid,
            ..Interval::new(lo, hi)
        }
    }
}

/// Which allowances an operation gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Precision {
    /// GLSL ES highp.
    Highp,
    /// GLSL ES mediump.
    Mediump,
    /// GLSL ES lowp: mediump's allowances on lowp's grid.
    Lowp,
}

impl Precision {
    /// The precision's format.
    pub fn format(self) -> FloatFormat {
        match self {
            Precision::Highp => FloatFormat::HIGHP,
            Precision::Mediump => FloatFormat::MEDIUMP,
            Precision::Lowp => FloatFormat::LOWP,
        }
    }
}

/// The interval domain: acceptance intervals of conforming evaluations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Whether [`Width::Half`] operations get mediump allowances.
    mediump: bool,
}

impl Bounds {
    /// `H`: every operation, whatever its width, gets highp allowances; integers are 32-bit.
    pub fn highp() -> Bounds {
        Bounds { mediump: false }
    }

    /// `M`: [`Width::Half`] operations get the mediump format and allowances, [`Width::Low`]
    /// ones the lowp format with mediump's allowances, [`Width::Single`] ones highp; 16-bit
    /// integers wrap at 16 bits (as the lowered IR says).
    pub fn mediump() -> Bounds {
        Bounds { mediump: true }
    }

    /// The allowances an operation of `width` gets.
    pub fn precision(&self, width: Width) -> Precision {
        match width {
            Width::Half if self.mediump => Precision::Mediump,
            Width::Low if self.mediump => Precision::Lowp,
            _ => Precision::Highp,
        }
    }

    /// [`Domain::binary`] without the indeterminate flag of its operands.
    fn binary_at(&self, op: Binary, a: Interval, b: Interval, width: Width) -> Interval {
        let p = self.precision(width);
        let fmt = p.format();
        let (a, b) = (fmt.convert(a), fmt.convert(b));
        if a.nan || b.nan || !a.is_bounded() || !b.is_bounded() {
            return Interval::entire();
        }
        let exact = |lo: f64, hi: f64| fmt.convert(Interval::new(lo, hi));
        match op {
            Binary::Add => exact(add_directed(a.lo, b.lo).0, add_directed(a.hi, b.hi).1),
            Binary::Sub => exact(sub_directed(a.lo, b.hi).0, sub_directed(a.hi, b.lo).1),
            Binary::Mul => {
                let (lo, hi) = product_range(a, b);
                exact(lo, hi)
            }
            Binary::Div => self.divide(p, a, b),
            Binary::Mod => {
                let q = self.unary(Unary::Floor, self.divide(p, a, b), width);
                let m = self.binary(Binary::Mul, b, q, width);
                self.binary(Binary::Sub, a, m, width)
            }
            Binary::Min => exact(a.lo.min(b.lo), a.hi.min(b.hi)),
            Binary::Max => exact(a.lo.max(b.lo), a.hi.max(b.hi)),
            Binary::Pow => {
                let l = self.unary(Unary::Log2, a, width);
                self.unary(Unary::Exp2, self.binary(Binary::Mul, b, l, width), width)
            }
            Binary::Atan2 => self.atan2(p, a, b),
        }
    }

    /// `a / b` at precision `p`, operands already in the format.
    fn divide(&self, p: Precision, a: Interval, b: Interval) -> Interval {
        let fmt = p.format();
        if a.nan || b.nan || !a.is_bounded() || !b.is_bounded() || b.contains(0.0) {
            return Interval::entire();
        }
        // dEQP allows 2.5 ulp only for divisors in [2^minExp, 2^(maxExp-1)]; any value else.
        let small = pow2(fmt.min_exp);
        let large = pow2(fmt.max_exp - 1);
        let magnitude = |x: f64| x.abs();
        if magnitude(b.lo).min(magnitude(b.hi)) < small
            || magnitude(b.lo).max(magnitude(b.hi)) > large
        {
            return Interval::entire();
        }
        let (lo, hi) = every_end_range(a, b, div_directed);
        let allowance = fmt.ulp(lo.abs().max(hi.abs()), 2.5);
        widen(
            p,
            (lo, hi),
            allowance,
            false,
            (f64::NEG_INFINITY, f64::INFINITY),
        )
    }

    /// A unary operation at precision `p`, the operand already converted and bounded.
    fn unary_at(&self, op: Unary, a: Interval, width: Width) -> Interval {
        let p = self.precision(width);
        let fmt = p.format();
        let highp = p == Precision::Highp;
        let any = (f64::NEG_INFINITY, f64::INFINITY);
        let exact = |lo: f64, hi: f64| fmt.convert(Interval::new(lo, hi));
        let k = Interval::point;
        let u = |op, x| self.unary(op, x, width);
        let b = |op, x, y| self.binary(op, x, y, width);
        let (lo, hi) = (a.lo, a.hi);
        let magnitude = lo.abs().max(hi.abs());
        match op {
            Unary::Neg => exact(-hi, -lo),
            Unary::Abs => {
                if lo >= 0.0 {
                    a
                } else if hi <= 0.0 {
                    exact(-hi, -lo)
                } else {
                    exact(0.0, magnitude)
                }
            }
            Unary::Sign => exact(sign(lo), sign(hi)),
            Unary::Rcp => self.divide(p, k(1.0), a),
            Unary::Rsq => {
                if lo <= 0.0 {
                    return Interval::entire();
                }
                let r = |x: f64| 1.0 / x.sqrt();
                let range = (r(hi), r(lo));
                let allowance = fmt.ulp(range.1, 2.0);
                widen(p, range, allowance, true, (0.0, f64::INFINITY))
            }
            Unary::Sqrt => {
                if lo < 0.0 {
                    return Interval::entire();
                }
                if hi == 0.0 {
                    return k(0.0);
                }
                if lo == 0.0 {
                    // sqrt is monotone and never negative; the upper end's allowance is the
                    // widest (v + c ulp(v) grows with v). dEQP's composition leaves
                    // 1/inversesqrt(0) unconstrained; halfcheck takes sqrt(0) = 0.
                    let top = self.divide(p, k(1.0), u(Unary::Rsq, k(hi)));
                    return k(0.0).hull(top);
                }
                self.divide(p, k(1.0), u(Unary::Rsq, a))
            }
            Unary::Exp | Unary::Exp2 => {
                let f = if op == Unary::Exp {
                    f64::exp
                } else {
                    f64::exp2
                };
                let range = (f(lo), f(hi));
                let count = if highp { 3.0 } else { 2.0 } + 2.0 * magnitude;
                let allowance = fmt.ulp(range.1, count);
                widen(p, range, allowance, true, (0.0, f64::INFINITY))
            }
            Unary::Log | Unary::Log2 => {
                if lo <= 0.0 {
                    return Interval::entire();
                }
                let f = if op == Unary::Log { f64::ln } else { f64::log2 };
                let range = (f(lo), f(hi));
                let mut allowance: f64 = 0.0;
                if lo <= 2.0 && hi >= 0.5 {
                    allowance = pow2(if highp { -21 } else { -7 });
                }
                if lo < 0.5 || hi > 2.0 {
                    let count = if highp { 4.0 } else { 2.0 };
                    allowance = allowance.max(fmt.ulp(range.0.abs().max(range.1.abs()), count));
                }
                widen(p, range, allowance, true, any)
            }
            Unary::Trunc => exact(lo.trunc(), hi.trunc()),
            Unary::Ceil => exact(lo.ceil(), hi.ceil()),
            Unary::Floor => exact(lo.floor(), hi.floor()),
            // `round()` shares this operation, and the spec lets it take a `.5` either way:
            // the interval holds both (wider than `roundEven` needs, never narrower).
            Unary::RoundEven => {
                let tie = |x: f64| x - x.floor() == 0.5;
                let down = if tie(lo) { lo.floor() } else { lo.round() };
                let up = if tie(hi) { hi.ceil() } else { hi.round() };
                exact(down, up)
            }
            Unary::Fract => {
                let f = lo.floor();
                if f == hi.floor() {
                    // x - floor(x) with floor constant: one correctly rounded subtraction.
                    let (d, _) = sub_directed(lo, f);
                    let (_, up) = sub_directed(hi, f);
                    exact(d, up)
                } else {
                    exact(0.0, 1.0)
                }
            }
            Unary::Sin | Unary::Cos => {
                let range = if op == Unary::Sin {
                    trig_range(f64::sin, FRAC_PI_2, lo, hi)
                } else {
                    trig_range(f64::cos, 0.0, lo, hi)
                };
                let mut allowance: f64 = 0.0;
                if lo <= PI && hi >= -PI {
                    allowance = if highp {
                        pow2(-11)
                    } else {
                        fmt.ulp(range.0.abs().max(range.1.abs()), 2.0)
                    };
                }
                if lo < -PI || hi > PI {
                    allowance = allowance.max(magnitude * pow2(if highp { -12 } else { -10 }));
                }
                widen(p, range, allowance, true, (-1.0, 1.0))
            }
            Unary::Tan => {
                let s = u(Unary::Sin, a);
                let c = u(Unary::Cos, a);
                b(Binary::Mul, s, self.divide(p, k(1.0), c))
            }
            Unary::Asin => {
                if lo < -1.0 || hi > 1.0 {
                    return Interval::entire();
                }
                let allowance = pow2(if highp { -11 } else { -8 });
                widen(p, (lo.asin(), hi.asin()), allowance, true, any)
            }
            Unary::Acos | Unary::Atan => {
                let range = if op == Unary::Acos {
                    if lo < -1.0 || hi > 1.0 {
                        return Interval::entire();
                    }
                    (hi.acos(), lo.acos())
                } else {
                    (lo.atan(), hi.atan())
                };
                let count = if highp { 4096.0 } else { 2.0 };
                let allowance = fmt.ulp(range.0.abs().max(range.1.abs()), count);
                widen(p, range, allowance, true, any)
            }
            Unary::Sinh | Unary::Cosh => {
                let up = u(Unary::Exp, a);
                let down = u(Unary::Exp, u(Unary::Neg, a));
                let join = if op == Unary::Sinh {
                    Binary::Sub
                } else {
                    Binary::Add
                };
                b(Binary::Div, b(join, up, down), k(2.0))
            }
            Unary::Tanh => b(Binary::Div, u(Unary::Sinh, a), u(Unary::Cosh, a)),
            Unary::Asinh => {
                let root = u(Unary::Sqrt, b(Binary::Add, b(Binary::Mul, a, a), k(1.0)));
                u(Unary::Log, b(Binary::Add, a, root))
            }
            Unary::Acosh => {
                let product = b(
                    Binary::Mul,
                    b(Binary::Add, a, k(1.0)),
                    b(Binary::Sub, a, k(1.0)),
                );
                let square = b(Binary::Sub, b(Binary::Mul, a, a), k(1.0));
                let root = u(Unary::Sqrt, product.hull(square));
                u(Unary::Log, b(Binary::Add, a, root))
            }
            Unary::Atanh => {
                let q = b(
                    Binary::Div,
                    b(Binary::Add, k(1.0), a),
                    b(Binary::Sub, k(1.0), a),
                );
                b(Binary::Mul, k(0.5), u(Unary::Log, q))
            }
            Unary::Saturate => exact(lo.clamp(0.0, 1.0), hi.clamp(0.0, 1.0)),
        }
    }

    /// `atan(y, x)` at precision `p`, operands converted and bounded.
    fn atan2(&self, p: Precision, y: Interval, x: Interval) -> Interval {
        let fmt = p.format();
        if y.contains(0.0) && x.contains(0.0) {
            return Interval::entire();
        }
        let range = if y.contains(0.0) && x.lo < 0.0 {
            // The branch cut (and the sign of zero) lies inside: every angle.
            (-PI, PI)
        } else {
            // Continuous on the box, which does not hold the origin: extremes at corners.
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for v in [y.lo, y.hi] {
                for w in [x.lo, x.hi] {
                    let t = v.atan2(w);
                    lo = lo.min(t);
                    hi = hi.max(t);
                }
            }
            (lo, hi)
        };
        let count = if p == Precision::Highp { 4096.0 } else { 2.0 };
        let allowance = fmt.ulp(range.0.abs().max(range.1.abs()), count);
        let any = (f64::NEG_INFINITY, f64::INFINITY);
        widen(p, range, allowance, true, any)
    }
}

impl Domain for Bounds {
    type F = Interval;

    /// 16-bit integers wrap in `M` (the lowered IR's 16-bit types, as llvmpipe does), not in
    /// `H`. Integers are exact values either way.
    fn lowers_ints(&self) -> bool {
        self.mediump
    }

    fn constant(&self, x: f64) -> Interval {
        Interval::point(x)
    }

    fn representative(&self, x: Interval) -> f64 {
        x.midpoint()
    }

    fn same(&self, a: &Interval, b: &Interval) -> bool {
        a.lo.to_bits() == b.lo.to_bits()
            && a.hi.to_bits() == b.hi.to_bits()
            && a.nan == b.nan
            && a.indeterminate == b.indeterminate
    }

    fn convert(&self, x: Interval, width: Width) -> Interval {
        self.precision(width).format().convert(x).marked_by(&[x])
    }

    /// Rounding toward zero gives one of the two neighbours too: the same interval.
    fn truncate(&self, x: Interval, width: Width) -> Interval {
        self.convert(x, width)
    }

    fn unary(&self, op: Unary, a: Interval, width: Width) -> Interval {
        let a = self.convert(a, width);
        if a.nan || !a.is_bounded() {
            return Interval::entire().marked_by(&[a]);
        }
        self.unary_at(op, a, width)
    }

    fn binary(&self, op: Binary, a: Interval, b: Interval, width: Width) -> Interval {
        self.binary_at(op, a, b, width).marked_by(&[a, b])
    }

    /// `a * b + c` with two roundings (dEQP's derivation), which contains the fused result.
    fn fma(&self, a: Interval, b: Interval, c: Interval, width: Width) -> Interval {
        let product = self.binary(Binary::Mul, a, b, width);
        self.binary(Binary::Add, product, c, width)
    }

    /// `a * exp2(e)`, dEQP's derivation (undefined when `exp2(e)` overflows).
    fn ldexp(&self, a: Interval, e: i64, width: Width) -> Interval {
        let e = e.clamp(-2000, 2000) as f64;
        let scale = self.unary(Unary::Exp2, Interval::point(e), width);
        self.binary(Binary::Mul, a, scale, width)
    }

    /// Compares the midpoints: `H` and `M` follow the branch the representative takes (the
    /// evaluator also follows the other where the intervals leave it open).
    fn compare(&self, op: Compare, a: Interval, b: Interval) -> bool {
        op.holds(a.midpoint(), b.midpoint())
    }

    fn tracks_ranges(&self) -> bool {
        true
    }

    fn range(&self, x: Interval) -> (f64, f64) {
        (x.lo, x.hi)
    }

    /// `[lo, hi]` in the format of `width`'s precision (outward): a lowp/mediump value may
    /// be held in the mediump format in `M`.
    fn enter(&self, _point: f64, lo: f64, hi: f64, width: Width) -> Interval {
        self.convert(Interval::new(lo, hi), width)
    }

    fn indeterminate(&self, _x: Interval) -> Interval {
        Interval::indeterminate()
    }

    fn is_indeterminate(&self, x: Interval) -> bool {
        x.indeterminate
    }

    /// Both: the hull.
    fn either(&self, a: Interval, b: Interval) -> Interval {
        a.hull(b)
    }

    /// An addition's allowance (one ulp, two in an inexact format, plus the smallest normal
    /// where subnormals flush) at `magnitude`, once per addition; unbounded past the format's
    /// largest value.
    fn reassociation_slack(&self, magnitude: f64, terms: usize, width: Width) -> f64 {
        let fmt = self.precision(width).format();
        if magnitude.is_nan() || magnitude > fmt.max_value() {
            return f64::INFINITY;
        }
        let ulps = if fmt.exact { 1.0 } else { 2.0 };
        let flushed = if fmt.flushes { pow2(fmt.min_exp) } else { 0.0 };
        terms.saturating_sub(1) as f64 * (fmt.ulp(magnitude, ulps) + flushed)
    }
}

/// The result of a function whose exact range over the operand is `range` (libm values when
/// `libm`, then widened by a few `f64` ulps), widened by `allowance`, clamped to `codomain`,
/// converted to the format of `p`. A non-finite end (overflow) or allowance is unbounded.
fn widen(
    p: Precision,
    range: (f64, f64),
    allowance: f64,
    libm: bool,
    codomain: (f64, f64),
) -> Interval {
    let (lo, hi) = range;
    if !(lo.is_finite() && hi.is_finite() && allowance.is_finite()) {
        return Interval::entire();
    }
    let slop = |v: f64| {
        if libm {
            v.abs() * pow2(-50) + pow2(-1070)
        } else {
            0.0
        }
    };
    let lo = next_down(next_down(lo - slop(lo)) - allowance);
    let hi = next_up(next_up(hi + slop(hi)) + allowance);
    let lo = lo.max(codomain.0);
    let hi = hi.min(codomain.1);
    p.format().convert(Interval::new(lo, hi.max(lo)))
}

/// The exact range of `sin` (`peak` = pi/2) or `cos` (`peak` = 0) over `[lo, hi]`: the
/// endpoints' values and any extremum inside (found with a margin, so possibly one more).
fn trig_range(f: fn(f64) -> f64, peak: f64, lo: f64, hi: f64) -> (f64, f64) {
    if lo == hi {
        let v = f(lo);
        return (v, v);
    }
    if hi - lo >= TAU || lo.abs().max(hi.abs()) > pow2(20) {
        return (-1.0, 1.0);
    }
    let (a, b) = (f(lo), f(hi));
    let (mut min, mut max) = (a.min(b), a.max(b));
    let margin = pow2(-30);
    for (extremum, value) in [(peak, 1.0), (peak + PI, -1.0)] {
        let first = ((lo - extremum) / TAU).floor();
        for k in 0..3 {
            let x = extremum + TAU * (first + f64::from(k));
            if x >= lo - margin && x <= hi + margin {
                min = min.min(value);
                max = max.max(value);
            }
        }
    }
    (min, max)
}

/// `2^e` exactly (0 or inf beyond `f64`).
fn pow2(e: i32) -> f64 {
    if e > 1023 {
        f64::INFINITY
    } else if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else if e >= -1074 {
        f64::from_bits(1u64 << (e + 1074))
    } else {
        0.0
    }
}

/// Finite nonzero `x` on the grid of multiples of `2^k`: the neighbour away from zero when
/// `away`, else toward zero (a zero keeping `x`'s sign, as `floor` and `ceil` do), in exact
/// integer arithmetic on the bits: below `|x|`'s exponent the grid clears low significand
/// bits, and a step away from zero adds one grid step (carrying into the exponent).
#[inline]
fn to_grid(x: f64, k: i32, away: bool) -> f64 {
    let bits = x.to_bits();
    let sign = bits & (1 << 63);
    let magnitude = bits & !(1 << 63);
    let biased = (magnitude >> 52) as i32;
    // The exponent of the last significand bit (subnormals: the smallest).
    let last = if biased == 0 { -1074 } else { biased - 1075 };
    let dropped = k - last;
    if dropped <= 0 {
        return x;
    }
    let (leading, _) = exponent(x);
    if leading < k {
        // Between zero and one grid step.
        return if away {
            pow2(k).copysign(x)
        } else {
            0.0f64.copysign(x)
        };
    }
    // `leading >= k` keeps the leading bit: at most the 52 fraction bits are dropped.
    let mask = (1u64 << dropped) - 1;
    if magnitude & mask == 0 {
        return x;
    }
    let toward_zero = magnitude & !mask;
    let magnitude = if away {
        toward_zero + (1u64 << dropped)
    } else {
        toward_zero
    };
    f64::from_bits(sign | magnitude)
}

/// The largest binary32 value `<= x` (binary32's grid, subnormals included, is
/// [`FloatFormat::HIGHP`]'s; beyond binary32's range, ±inf or its largest value), from the
/// nearest one the hardware gives.
#[inline]
fn round_down_binary32(x: f64) -> f64 {
    let nearest = x as f32;
    if f64::from(nearest) > x {
        // The binary32 value below `nearest` (never -inf: `x` is above it).
        let below = if nearest == 0.0 {
            -f32::from_bits(1)
        } else if nearest > 0.0 {
            f32::from_bits(nearest.to_bits() - 1)
        } else {
            f32::from_bits(nearest.to_bits() + 1)
        };
        f64::from(below)
    } else {
        f64::from(nearest)
    }
}

/// The smallest binary32 value `>= x`, as [`round_down_binary32`].
#[inline]
fn round_up_binary32(x: f64) -> f64 {
    -round_down_binary32(-x)
}

/// `floor(log2 |x|)` of a finite nonzero `x`, and whether `|x|` is a power of two.
fn exponent(x: f64) -> (i32, bool) {
    let bits = x.abs().to_bits();
    let biased = (bits >> 52) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    if biased == 0 {
        // Subnormal: the leading one is in the fraction.
        let lead = 63 - fraction.leading_zeros() as i32;
        (lead - 1074, fraction.count_ones() == 1)
    } else {
        (biased - 1023, fraction == 0)
    }
}

/// The next `f64` above `x` (NaN and +inf stay).
fn next_up(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let bits = x.to_bits();
    f64::from_bits(if x > 0.0 { bits + 1 } else { bits - 1 })
}

/// The next `f64` below `x` (NaN and -inf stay).
fn next_down(x: f64) -> f64 {
    -next_up(-x)
}

/// The `f64` neighbours `(down, up)` of the exact value whose nearest `f64` is `r`, given the
/// sign of the rounding error `exact - r` (`None`: unknown).
fn directed(r: f64, error: Option<f64>) -> (f64, f64) {
    if r.is_nan() {
        return (f64::NEG_INFINITY, f64::INFINITY);
    }
    match error.and_then(|e| e.partial_cmp(&0.0)) {
        Some(Ordering::Equal) => (r, r),
        Some(Ordering::Greater) => (r, next_up(r)),
        Some(Ordering::Less) => (next_down(r), r),
        None => (next_down(r), next_up(r)),
    }
}

/// Whether an `f64` result is safely away from underflow and overflow, so that an
/// error-free transformation gives its exact rounding error.
fn safe(r: f64) -> bool {
    r.is_finite() && (r == 0.0 || r.abs() > pow2(-960))
}

/// Lower and upper `f64` bounds of the exact `a + b` (TwoSum).
fn add_directed(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    if !s.is_finite() {
        return directed(s, None);
    }
    let bb = s - a;
    let error = (a - (s - bb)) + (b - bb);
    directed(s, Some(error))
}

/// Lower and upper `f64` bounds of the exact `a - b`.
fn sub_directed(a: f64, b: f64) -> (f64, f64) {
    add_directed(a, -b)
}

/// Lower and upper `f64` bounds of every exact product of a value in `a` and one in `b`,
/// both bounded and converted to a format (no product of their ends underflows or overflows
/// in `f64`, so the bounds order as the exact products do): the least and greatest of the
/// four products of their ends, computing only those the ends' signs can make least or
/// greatest.
fn product_range(a: Interval, b: Interval) -> (f64, f64) {
    let low = |x: f64, y: f64| mul_directed(x, y).0;
    let high = |x: f64, y: f64| mul_directed(x, y).1;
    if a.lo >= 0.0 && b.lo >= 0.0 {
        (low(a.lo, b.lo), high(a.hi, b.hi))
    } else if a.hi <= 0.0 && b.hi <= 0.0 {
        (low(a.hi, b.hi), high(a.lo, b.lo))
    } else if a.lo >= 0.0 && b.hi <= 0.0 {
        (low(a.hi, b.lo), high(a.lo, b.hi))
    } else if a.hi <= 0.0 && b.lo >= 0.0 {
        (low(a.lo, b.hi), high(a.hi, b.lo))
    } else {
        every_end_range(a, b, mul_directed)
    }
}

/// The least lower bound and the greatest upper bound `directed` gives for the four pairs
/// of an end of `a` and an end of `b`.
fn every_end_range(a: Interval, b: Interval, directed: fn(f64, f64) -> (f64, f64)) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for x in [a.lo, a.hi] {
        for y in [b.lo, b.hi] {
            let (d, u) = directed(x, y);
            lo = lo.min(d);
            hi = hi.max(u);
        }
    }
    (lo, hi)
}

/// Lower and upper `f64` bounds of the exact `a * b`.
fn mul_directed(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    if p == 0.0 && (a == 0.0 || b == 0.0) {
        return (0.0, 0.0);
    }
    if !safe(p) || p == 0.0 {
        return directed(p, None);
    }
    directed(p, Some(a.mul_add(b, -p)))
}

/// Lower and upper `f64` bounds of the exact `a / b` (`b` nonzero, finite).
fn div_directed(a: f64, b: f64) -> (f64, f64) {
    let q = a / b;
    if a == 0.0 {
        return (0.0, 0.0);
    }
    if !safe(q) || q == 0.0 || !safe(a) {
        return directed(q, None);
    }
    // a - q b exactly; the exact quotient lies on its side of q times the sign of b.
    let remainder = (-q).mul_add(b, a);
    directed(q, Some(remainder * b.signum()))
}

/// GLSL's `sign`.
fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interval_converted_once_is_converted_again_only_to_another_format() {
        let x = Interval::new(0.1, 0.3);
        let highp = FloatFormat::HIGHP.convert(x);
        assert_eq!(FloatFormat::HIGHP.convert(highp), highp);
        // On binary32's grid, not on lowp's (steps of 2^-7): lowp still rounds it outward.
        let lowp = FloatFormat::LOWP.convert(highp);
        assert_eq!((lowp.lo(), lowp.hi()), (0.09375, 0.3046875));
        assert_eq!(lowp, FloatFormat::LOWP.convert(x));
        // A format that is none of the three precisions' is always converted.
        let coarse = FloatFormat {
            fraction_bits: 2,
            grid: Grid::Unknown,
            ..FloatFormat::HIGHP
        };
        assert_eq!(coarse.convert(highp).hi(), 0.3125);
    }

    #[test]
    fn highp_grid_rounds_outward() {
        let f = FloatFormat::HIGHP;
        let third = 1.0 / 3.0;
        // binary32's nearest 1/3 is above it.
        assert_eq!(f.round_up(third), f64::from(1.0f32 / 3.0));
        assert!(f.round_down(third) < third);
        assert_eq!(f.round_down(1.0), 1.0);
        assert_eq!(f.round_up(1.0), 1.0);
        assert_eq!(f.round_up(pow2(-200)), pow2(-149));
    }

    /// Converting to highp on the hardware's binary32 rounding gives what the grid gives, at
    /// the edges (zeros, subnormals, the largest values, overflow) and at random ends.
    #[test]
    fn converting_to_highp_on_binary32_is_converting_on_the_grid() {
        let grid = FloatFormat {
            grid: Grid::Unknown,
            ..FloatFormat::HIGHP
        };
        let max = f64::from(f32::MAX);
        let mut ends = vec![
            0.0,
            -0.0,
            pow2(-200),
            pow2(-150),
            pow2(-149) * 1.5,
            pow2(-126) * (1.0 - pow2(-30)),
            pow2(-126),
            1.0 / 3.0,
            max,
            max * (1.0 + pow2(-30)),
            max + pow2(103),
            pow2(128),
            f64::INFINITY,
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // A binary32 value, and one near it off the grid: every exponent binary32 has.
            let on_grid = f64::from(f32::from_bits((state >> 32) as u32));
            let off_grid = on_grid * (1.0 + (state & 0xffff) as f64 * pow2(-40));
            ends.extend([on_grid, off_grid].into_iter().filter(|x| x.is_finite()));
        }
        let ends: Vec<f64> = ends.iter().flat_map(|&x| [x, -x]).collect();
        for pair in ends.chunks(2).chain(ends.windows(2)) {
            let x = Interval::new(pair[0], pair[pair.len() - 1]);
            let (fast, slow) = (FloatFormat::HIGHP.convert(x), grid.convert(x));
            assert_eq!(fast, slow, "{x:?}");
            assert_eq!(
                (fast.lo.to_bits(), fast.hi.to_bits()),
                (slow.lo.to_bits(), slow.hi.to_bits()),
                "{x:?}"
            );
        }
    }

    /// The products the ends' signs pick give the bounds all four products give, bit for bit,
    /// for intervals on either side of zero, across it, and with a zero end.
    #[test]
    fn the_products_the_signs_pick_bound_as_all_four_do() {
        let ends = [
            -3.7,
            -1.0 / 3.0,
            -pow2(-140),
            -0.0,
            0.0,
            pow2(-149),
            0.1,
            1.0,
            2.5e30,
        ];
        for (a, b) in ends.iter().flat_map(|&p| ends.iter().map(move |&q| (p, q))) {
            for (c, d) in ends.iter().flat_map(|&p| ends.iter().map(move |&q| (p, q))) {
                let x = FloatFormat::HIGHP.convert(Interval::new(a, b));
                let y = FloatFormat::HIGHP.convert(Interval::new(c, d));
                let (fast, all) = (product_range(x, y), every_end_range(x, y, mul_directed));
                assert_eq!(
                    (fast.0.to_bits(), fast.1.to_bits()),
                    (all.0.to_bits(), all.1.to_bits()),
                    "{x:?} * {y:?}"
                );
            }
        }
    }

    #[test]
    fn ulp_is_harrisons() {
        let f = FloatFormat::HIGHP;
        assert_eq!(f.ulp(1.0, 1.0), pow2(-24));
        assert_eq!(f.ulp(1.0 + pow2(-23), 1.0), pow2(-23));
        assert_eq!(f.ulp(pow2(-130), 1.0), pow2(-149));
        assert_eq!(f.ulp(0.0, 1.0), pow2(-149));
        assert_eq!(FloatFormat::MEDIUMP.ulp(1.5, 2.0), pow2(-8));
    }

    #[test]
    fn mediump_max_value_and_overflow() {
        let m = FloatFormat::MEDIUMP;
        assert_eq!(m.max_value(), 16368.0);
        assert!(m.convert(Interval::point(20000.0)).is_entire());
        assert!(!m.convert(Interval::point(16000.0)).is_entire());
    }

    #[test]
    fn lowp_is_a_fixed_point_below_two() {
        let l = FloatFormat::LOWP;
        let i = l.convert(Interval::point(0.3));
        assert_eq!((i.lo(), i.hi()), (0.296875, 0.3046875));
        assert!(l.convert(Interval::point(2.5)).is_entire());
        assert!(!l.convert(Interval::point(0.01)).contains(0.0));
    }

    #[test]
    fn subnormal_values_may_flush() {
        let i = FloatFormat::MEDIUMP.convert(Interval::point(pow2(-14)));
        assert!(i.contains(0.0) && i.contains(pow2(-14)));
    }

    #[test]
    fn directed_products_bracket_the_exact_value() {
        let (d, u) = mul_directed(0.1, 0.3);
        assert!(d < u);
        assert_eq!(mul_directed(1.5, 2.0), (3.0, 3.0));
        let (d, u) = div_directed(1.0, 3.0);
        assert!(d == 1.0 / 3.0 && u == next_up(d));
        assert_eq!(add_directed(1.0, 2.0), (3.0, 3.0));
        let (d, u) = add_directed(1.0, pow2(-60));
        assert_eq!((d, u), (1.0, next_up(1.0)));
    }

    #[test]
    fn exponent_handles_subnormals() {
        assert_eq!(exponent(pow2(-1074)), (-1074, true));
        assert_eq!(exponent(3.0), (1, false));
        assert_eq!(exponent(0.5), (-1, true));
    }

    #[test]
    fn sine_over_a_peak_reaches_one() {
        let (lo, hi) = trig_range(f64::sin, FRAC_PI_2, 1.0, 2.0);
        assert_eq!(hi, 1.0);
        assert!(lo > 0.8);
        let (lo, hi) = trig_range(f64::cos, 0.0, 3.0, 3.5);
        assert_eq!(lo, -1.0);
        assert!(hi < -0.9);
    }

    /// The grid by its definition: `x / 2^k` rounded down or up, times `2^k`.
    fn by_division(format: &FloatFormat, x: f64, up: bool) -> f64 {
        let (e, _) = exponent(x);
        let q = pow2(e.max(format.min_exp) - format.fraction_bits);
        let steps = if up { (x / q).ceil() } else { (x / q).floor() };
        steps * q
    }

    #[test]
    fn rounding_to_the_grid_on_the_bits_is_the_division_bit_for_bit() {
        let formats = [FloatFormat::HIGHP, FloatFormat::MEDIUMP, FloatFormat::LOWP];
        // Every exponent from subnormal to the largest, each with varied significands, both
        // signs, and the values at and beside each format's grid.
        let mut values = Vec::new();
        for bits in (0..0x7ff0_0000_0000_0000u64).step_by(0x0003_1f5c_28f5_c28f) {
            values.extend([
                bits,
                bits | 0x000f_ffff_ffff_ffff,
                bits & !0x000f_ffff_ffff_ffff,
            ]);
        }
        for x in [
            1.0f64,
            0.333_251_953_125,
            65504.0,
            2f64.powi(-14),
            2f64.powi(-24),
            1e-45,
        ] {
            let b = x.to_bits();
            values.extend([b, b + 1, b - 1]);
        }
        for format in &formats {
            for &bits in &values {
                for x in [f64::from_bits(bits), -f64::from_bits(bits)] {
                    if x == 0.0 {
                        continue;
                    }
                    for (got, up) in [(format.round_down(x), false), (format.round_up(x), true)] {
                        let want = by_division(format, x, up);
                        assert_eq!(got.to_bits(), want.to_bits(), "{format:?} {x:e} up {up}");
                    }
                }
            }
        }
    }
}
