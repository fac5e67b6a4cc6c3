//! The error of each lowered operation on its own: a point domain that computes as
//! [`Rounding`] does and carries, with every value, the largest error that one binary16
//! operation on its way made, in binary16 ULPs, and which operation made it.
//!
//! A test amplifies the error of its lowered operations on purpose (`fract(x * 4096.0)`), so
//! the output's distance from the exact value measures the test; this measures the driver's
//! arithmetic: each binary16 operation against the exact result of the same operation on the
//! same binary16 operands (0.5 ULP at most for a correctly rounded `+ - * /`).

use super::domain::{Binary, Compare, Domain, Mode, Rounding, Unary, Width};
use crate::profile::Choices;

/// A lowered operation, as a channel's largest own error names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// A one-operand operation or built-in.
    Unary(Unary),
    /// A two-operand operation or built-in.
    Binary(Binary),
    /// A multiply-add (the `fma()` built-in, or a contracted or fused one).
    MultiplyAdd,
    /// `a * 2^e`.
    Ldexp,
    /// A value converted to binary16.
    Conversion,
}

impl Operation {
    /// The operation's name, as GLSL or NIR would say it (`mul`, `exp2`, `conversion`).
    pub fn name(self) -> String {
        match self {
            Operation::Unary(op) => format!("{op:?}").to_lowercase(),
            Operation::Binary(op) => format!("{op:?}").to_lowercase(),
            Operation::MultiplyAdd => "fma".into(),
            Operation::Ldexp => "ldexp".into(),
            Operation::Conversion => "conversion".into(),
        }
    }
}

/// A value, and the largest own error of one binary16 operation it was computed through.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attributed {
    /// The value, as [`Rounding`] computes it.
    pub value: f64,
    /// The largest own error on the way, in binary16 ULPs at the exact result's magnitude,
    /// and the operation that made it; `None` where no binary16 operation was on the way.
    pub worst: Option<(f32, Operation)>,
}

/// [`Rounding`] in mediump mode, each value [`Attributed`].
#[derive(Clone, Copy, Debug)]
pub struct OwnErrors {
    point: Rounding,
    exact: Rounding,
}

impl OwnErrors {
    /// The binary16 run of a driver with `driver`'s choices.
    pub fn with(driver: Choices) -> OwnErrors {
        OwnErrors {
            point: Rounding::with(Mode::Mediump, driver),
            exact: Rounding::with(Mode::Exact, driver),
        }
    }

    /// Whether an operation at `width` computes in binary16 here.
    fn lowered(width: Width) -> bool {
        matches!(width, Width::Half | Width::Low)
    }

    /// `operands` as a binary16 operation sees them.
    fn entering<const N: usize>(&self, width: Width, operands: [f64; N]) -> [f64; N] {
        operands.map(|x| self.point.round(x, Some(width)))
    }

    /// `value`, computed as `a * b + c` from `operands` at `width`.
    fn multiply_add(&self, value: f64, operands: [Attributed; 3], width: Width) -> Attributed {
        let exact = Self::lowered(width).then(|| {
            let x = self.entering(width, operands.map(|o| o.value));
            x[0].mul_add(x[1], x[2])
        });
        Self::attribute(value, exact, Operation::MultiplyAdd, &operands)
    }

    /// `value`, computed by `operation` from `from` (the operands' own attributions), whose
    /// exact result is `exact`: the largest of the operands' errors and its own.
    fn attribute(
        value: f64,
        exact: Option<f64>,
        operation: Operation,
        from: &[Attributed],
    ) -> Attributed {
        let own = exact.map(|exact| (ulps16(value, exact), operation));
        let worst = from
            .iter()
            .filter_map(|a| a.worst)
            .chain(own)
            .filter(|(ulps, _)| !ulps.is_nan())
            .max_by(|a, b| a.0.total_cmp(&b.0));
        Attributed { value, worst }
    }
}

/// |value - exact| in binary16 ULPs at `exact`'s magnitude (subnormals share the smallest
/// normal's ULP); 0 where both are the same infinity or NaN.
fn ulps16(value: f64, exact: f64) -> f32 {
    if value == exact || (value.is_nan() && exact.is_nan()) {
        return 0.0;
    }
    let exponent = if exact == 0.0 || !exact.is_finite() {
        -14
    } else {
        (exact.abs().log2().floor() as i32).max(-14)
    };
    ((value - exact).abs() / 2f64.powi(exponent - 10)) as f32
}

impl Domain for OwnErrors {
    type F = Attributed;

    fn lowers_ints(&self) -> bool {
        self.point.lowers_ints()
    }

    fn constant(&self, x: f64) -> Attributed {
        Attributed {
            value: self.point.constant(x),
            worst: None,
        }
    }

    fn representative(&self, x: Attributed) -> f64 {
        x.value
    }

    fn same(&self, a: &Attributed, b: &Attributed) -> bool {
        self.point.same(&a.value, &b.value) && a.worst == b.worst
    }

    fn convert(&self, x: Attributed, width: Width) -> Attributed {
        let value = self.point.convert(x.value, width);
        let exact = Self::lowered(width).then_some(x.value);
        Self::attribute(value, exact, Operation::Conversion, &[x])
    }

    fn truncate(&self, x: Attributed, width: Width) -> Attributed {
        let value = self.point.truncate(x.value, width);
        let exact = Self::lowered(width).then_some(x.value);
        Self::attribute(value, exact, Operation::Conversion, &[x])
    }

    fn unary(&self, op: Unary, a: Attributed, width: Width) -> Attributed {
        let value = self.point.unary(op, a.value, width);
        let exact = Self::lowered(width).then(|| {
            let a = self.entering(width, [a.value])[0];
            self.exact.unary(op, a, width)
        });
        Self::attribute(value, exact, Operation::Unary(op), &[a])
    }

    fn binary(&self, op: Binary, a: Attributed, b: Attributed, width: Width) -> Attributed {
        let value = self.point.binary(op, a.value, b.value, width);
        let exact = Self::lowered(width).then(|| {
            let x = self.entering(width, [a.value, b.value]);
            self.exact.binary(op, x[0], x[1], width)
        });
        Self::attribute(value, exact, Operation::Binary(op), &[a, b])
    }

    fn fma(&self, a: Attributed, b: Attributed, c: Attributed, width: Width) -> Attributed {
        let value = self.point.fma(a.value, b.value, c.value, width);
        self.multiply_add(value, [a, b, c], width)
    }

    fn fused(&self, a: Attributed, b: Attributed, c: Attributed, width: Width) -> Attributed {
        let value = self.point.fused(a.value, b.value, c.value, width);
        self.multiply_add(value, [a, b, c], width)
    }

    fn ldexp(&self, a: Attributed, e: i64, width: Width) -> Attributed {
        let value = self.point.ldexp(a.value, e, width);
        let exact = Self::lowered(width).then(|| self.exact.ldexp(a.value, e, width));
        Self::attribute(value, exact, Operation::Ldexp, &[a])
    }

    fn compare(&self, op: Compare, a: Attributed, b: Attributed) -> bool {
        self.point.compare(op, a.value, b.value)
    }

    fn driver(&self) -> Choices {
        self.point.driver()
    }

    fn keeps_control_flow_variables_in_memory(&self) -> bool {
        self.point.keeps_control_flow_variables_in_memory()
    }

    fn stored(&self, x: Attributed) -> Attributed {
        Attributed {
            value: self.point.stored(x.value),
            ..x
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// fract(1/3 * 1024) in binary16 is 0.25 against 0.3333 exact: the output is 0.08 off,
    /// 340 binary16 ULPs at its magnitude, yet each operation on the way erred by at most
    /// half a ULP (the division), and the value is the mediump point domain's.
    #[test]
    fn each_operation_is_measured_against_its_own_exact_result() {
        let d = OwnErrors::with(Choices::default());
        let point = Rounding::new(Mode::Mediump);
        let low = Width::Half;
        let third = d.binary(Binary::Div, d.constant(1.0), d.constant(3.0), low);
        let scaled = d.binary(Binary::Mul, third, d.constant(1024.0), low);
        let f = d.unary(Unary::Fract, scaled, low);
        let expected = point.unary(
            Unary::Fract,
            point.binary(
                Binary::Mul,
                point.binary(Binary::Div, 1.0, 3.0, low),
                1024.0,
                low,
            ),
            low,
        );
        assert_eq!(f.value.to_bits(), expected.to_bits());
        assert_eq!(f.value, 0.25);
        let (ulps, operation) = f.worst.expect("binary16 operations on the way");
        assert_eq!(operation, Operation::Binary(Binary::Div));
        assert!(ulps > 0.0 && ulps <= 0.5, "{ulps}");
        // At highp width nothing is lowered, and nothing is attributed.
        let single = d.binary(Binary::Div, d.constant(1.0), d.constant(3.0), Width::Single);
        assert_eq!(single.worst, None);
    }

    /// A binary16 `exp2` as the profile computes it is measured against the exact `exp2` of
    /// the same binary16 argument.
    #[test]
    fn a_built_in_is_one_operation() {
        let d = OwnErrors::with(Choices::default());
        let x = d.convert(d.constant(0.7), Width::Half);
        let (conversion, _) = x.worst.expect("converted");
        assert!(conversion > 0.0 && conversion <= 0.5, "{conversion}");
        let e = d.unary(Unary::Exp2, x, Width::Half);
        let own = ulps16(e.value, x.value.exp2());
        let (worst, operation) = e.worst.expect("attributed");
        assert_eq!(worst, own.max(conversion));
        if own > conversion {
            assert_eq!(operation, Operation::Unary(Unary::Exp2));
        }
    }
}
