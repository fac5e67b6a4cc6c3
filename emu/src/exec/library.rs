//! The transcendental functions as Mesa builds them from simpler operations (its GLSL
//! built-in library and NIR's builders), so the [`Rounding`] domain rounds where the driver
//! rounds: `exp`/`log` through `exp2`/`log2`, the hyperbolic functions through `exp`/`log`,
//! `asin`/`acos` by a polynomial in `|x|` with a square root, `atan`/`atan2` by an odd
//! polynomial after range reduction. Every step computes at the width of the operation.
//!
//! The formulas are the published approximations those sources name (Abramowitz and Stegun
//! style minimax polynomials); the constants are theirs.

use super::domain::{Binary, Domain, Rounding, Unary, Width};
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, LOG2_E};

impl Rounding {
    /// A constant as an operation of width `w` sees it (binary32 first, as Mesa stores it).
    fn k(&self, c: f64, w: Width) -> f64 {
        self.round(f64::from(c as f32), Some(w))
    }

    fn b(&self, op: Binary, x: f64, y: f64, w: Width) -> f64 {
        self.binary(op, x, y, w)
    }

    fn u(&self, op: Unary, x: f64, w: Width) -> f64 {
        self.unary(op, x, w)
    }

    /// `exp` and `log` as NIR builds them from `exp2`/`log2`: `exp2(x * log2(e))` and
    /// `log2(x) * (1 / log2(e))`, the constant and every step at width `w`.
    pub(super) fn natural(&self, op: Unary, a: f64, w: Width) -> f64 {
        if op == Unary::Exp {
            let scaled = self.binary(Binary::Mul, a, self.k(LOG2_E, w), w);
            self.unary(Unary::Exp2, scaled, w)
        } else {
            let l = self.unary(Unary::Log2, a, w);
            self.binary(Binary::Mul, l, self.k(1.0 / LOG2_E, w), w)
        }
    }

    /// `sinh`, `cosh`, `tanh` as Mesa's built-in library writes them with `exp`:
    /// `0.5 * (e^x -+ e^-x)`, and for `tanh` the quotient with x clamped to [-10, 10].
    pub(super) fn hyperbolic(&self, op: Unary, a: f64, w: Width) -> f64 {
        let b = |op, x, y| self.binary(op, x, y, w);
        let t = if op == Unary::Tanh {
            b(Binary::Min, b(Binary::Max, a, -10.0), 10.0)
        } else {
            a
        };
        let up = self.unary(Unary::Exp, t, w);
        let down = self.unary(Unary::Exp, -t, w);
        match op {
            Unary::Sinh => b(Binary::Mul, 0.5, b(Binary::Sub, up, down)),
            Unary::Cosh => b(Binary::Mul, 0.5, b(Binary::Add, up, down)),
            _ => b(
                Binary::Div,
                b(Binary::Sub, up, down),
                b(Binary::Add, up, down),
            ),
        }
    }

    /// `asinh`, `acosh`, `atanh` as Mesa's built-in library writes them with `log` and
    /// `sqrt`.
    pub(super) fn inverse_hyperbolic(&self, op: Unary, a: f64, w: Width) -> f64 {
        let b = |op, x, y| self.binary(op, x, y, w);
        let u = |op, x| self.unary(op, x, w);
        match op {
            Unary::Asinh => {
                let root = u(Unary::Sqrt, b(Binary::Add, b(Binary::Mul, a, a), 1.0));
                let l = u(Unary::Log, b(Binary::Add, u(Unary::Abs, a), root));
                b(Binary::Mul, u(Unary::Sign, a), l)
            }
            Unary::Acosh => {
                let root = u(Unary::Sqrt, b(Binary::Sub, b(Binary::Mul, a, a), 1.0));
                u(Unary::Log, b(Binary::Add, a, root))
            }
            _ => {
                let q = b(Binary::Div, b(Binary::Add, 1.0, a), b(Binary::Sub, 1.0, a));
                b(Binary::Mul, 0.5, u(Unary::Log, q))
            }
        }
    }

    /// `asin` (and `acos = pi/2 - asin'` with its own coefficients):
    /// `sign(x) * (pi/2 - sqrt(1 - |x|) * (pi/2 + |x| * (pi/4 - 1 + |x| * (p0 + |x| * p1))))`.
    pub(super) fn arcsine(&self, op: Unary, x: f64, w: Width) -> f64 {
        let (p0, p1) = if op == Unary::Asin {
            (0.086_566_724, -0.031_029_55)
        } else {
            (0.081_324_63, -0.023_633_18)
        };
        let half_pi = self.k(FRAC_PI_2, w);
        let a = self.u(Unary::Abs, x, w);
        let inner = self.b(
            Binary::Add,
            self.k(p0, w),
            self.b(Binary::Mul, a, self.k(p1, w), w),
            w,
        );
        let quarter = self.k(f64::from(FRAC_PI_4 as f32 - 1.0), w);
        let mid = self.b(Binary::Add, quarter, self.b(Binary::Mul, a, inner, w), w);
        let outer = self.b(Binary::Add, half_pi, self.b(Binary::Mul, a, mid, w), w);
        let root = self.u(Unary::Sqrt, self.b(Binary::Sub, 1.0, a, w), w);
        let asin = self.b(
            Binary::Mul,
            self.u(Unary::Sign, x, w),
            self.b(Binary::Sub, half_pi, self.b(Binary::Mul, root, outer, w), w),
            w,
        );
        if op == Unary::Asin {
            asin
        } else {
            self.b(Binary::Sub, half_pi, asin, w)
        }
    }

    /// `atan`: `t = min(|x|, 1) / max(|x|, 1)`, the odd polynomial of degree 11 in `t` summed
    /// term by term, `pi/2 - 2 p + p` when `|x| > 1`, times `sign(x)`.
    pub(super) fn arctangent(&self, x: f64, w: Width) -> f64 {
        let a = self.u(Unary::Abs, x, w);
        let t = self.b(
            Binary::Div,
            self.b(Binary::Min, a, 1.0, w),
            self.b(Binary::Max, a, 1.0, w),
            w,
        );
        let t2 = self.b(Binary::Mul, t, t, w);
        let mut power = t;
        let mut sum = 0.0;
        for (i, c) in [
            0.999_979_312_831_035_5,
            -0.332_675_641_809_124_6,
            0.193_892_497_711_561,
            -0.117_350_319_478_685_1,
            0.053_681_378_431_040_6,
            -0.012_132_321_317_344_4,
        ]
        .into_iter()
        .enumerate()
        {
            if i == 1 {
                power = self.b(Binary::Mul, t2, t, w);
            } else if i > 1 {
                power = self.b(Binary::Mul, power, t2, w);
            }
            let term = self.b(Binary::Mul, power, self.k(c, w), w);
            sum = if i == 0 {
                term
            } else {
                self.b(Binary::Add, sum, term, w)
            };
        }
        if a > 1.0 {
            let flipped = self.b(
                Binary::Add,
                self.b(Binary::Mul, sum, -2.0, w),
                self.k(FRAC_PI_2, w),
                w,
            );
            sum = self.b(Binary::Add, flipped, sum, w);
        }
        self.b(Binary::Mul, sum, self.u(Unary::Sign, x, w), w)
    }

    /// `atan(y, x)`: rotated by pi/2 in the left half-plane (so the division never meets
    /// x = 0), arguments scaled down when huge, `atan` of the quotient, the sign from `y`.
    pub(super) fn arctangent2(&self, y: f64, x: f64, w: Width) -> f64 {
        let flip = x <= 0.0;
        let (s, t) = if flip {
            (self.u(Unary::Abs, x, w), y)
        } else {
            (y, self.u(Unary::Abs, x, w))
        };
        let huge = if w == Width::Half { 1e4 } else { 1e18 };
        let scale = if self.u(Unary::Abs, t, w) >= huge {
            0.25
        } else {
            1.0
        };
        let rcp = self.u(Unary::Rcp, self.b(Binary::Mul, t, scale, w), w);
        let quotient = self.b(Binary::Mul, self.b(Binary::Mul, s, scale, w), rcp, w);
        let tan = if self.u(Unary::Abs, x, w) == self.u(Unary::Abs, y, w) {
            1.0
        } else {
            self.u(Unary::Abs, quotient, w)
        };
        let offset = if flip { self.k(FRAC_PI_2, w) } else { 0.0 };
        let arc = self.b(Binary::Add, offset, self.arctangent(tan, w), w);
        if self.b(Binary::Min, y, rcp, w) < 0.0 {
            -arc
        } else {
            arc
        }
    }
}
