//! A domain that computes two others side by side, the first steering the control flow.
//!
//! An interval can straddle a branch condition; then the interval domain alone must guess a
//! branch, and a shader like `if (fract(a / b * 1024.0) < 0.31)` gets bounds for the wrong
//! one. Pairing the interval with a point evaluation of the same IR makes every comparison,
//! and every float that becomes an index or an integer, follow the point value: the bounds
//! are those of the evaluations that take the point evaluation's path.

use super::domain::{Binary, Compare, Domain, Unary, Width};
use crate::profile::Choices;

/// `guide` decides comparisons and representative values; `follower` is computed alongside.
#[derive(Clone, Copy, Debug)]
pub struct Guided<G, B> {
    /// The point domain that steers.
    pub guide: G,
    /// The domain computed along the guide's path (the bounds).
    pub follower: B,
}

impl<G: Domain, B: Domain> Domain for Guided<G, B> {
    type F = (G::F, B::F);

    fn lowers_ints(&self) -> bool {
        self.guide.lowers_ints()
    }

    fn constant(&self, x: f64) -> Self::F {
        (self.guide.constant(x), self.follower.constant(x))
    }

    fn representative(&self, x: Self::F) -> f64 {
        self.guide.representative(x.0)
    }

    fn same(&self, a: &Self::F, b: &Self::F) -> bool {
        self.guide.same(&a.0, &b.0) && self.follower.same(&a.1, &b.1)
    }

    fn convert(&self, x: Self::F, width: Width) -> Self::F {
        (
            self.guide.convert(x.0, width),
            self.follower.convert(x.1, width),
        )
    }

    fn truncate(&self, x: Self::F, width: Width) -> Self::F {
        (
            self.guide.truncate(x.0, width),
            self.follower.truncate(x.1, width),
        )
    }

    fn unary(&self, op: Unary, a: Self::F, width: Width) -> Self::F {
        (
            self.guide.unary(op, a.0, width),
            self.follower.unary(op, a.1, width),
        )
    }

    fn binary(&self, op: Binary, a: Self::F, b: Self::F, width: Width) -> Self::F {
        (
            self.guide.binary(op, a.0, b.0, width),
            self.follower.binary(op, a.1, b.1, width),
        )
    }

    fn fma(&self, a: Self::F, b: Self::F, c: Self::F, width: Width) -> Self::F {
        (
            self.guide.fma(a.0, b.0, c.0, width),
            self.follower.fma(a.1, b.1, c.1, width),
        )
    }

    fn fused(&self, a: Self::F, b: Self::F, c: Self::F, width: Width) -> Self::F {
        (
            self.guide.fused(a.0, b.0, c.0, width),
            self.follower.fused(a.1, b.1, c.1, width),
        )
    }

    fn ldexp(&self, a: Self::F, e: i64, width: Width) -> Self::F {
        (
            self.guide.ldexp(a.0, e, width),
            self.follower.ldexp(a.1, e, width),
        )
    }

    fn compare(&self, op: Compare, a: Self::F, b: Self::F) -> bool {
        self.guide.compare(op, a.0, b.0)
    }

    fn driver(&self) -> Choices {
        self.guide.driver()
    }

    fn tracks_ranges(&self) -> bool {
        self.follower.tracks_ranges()
    }

    /// The follower's range: what the bounds leave open.
    fn range(&self, x: Self::F) -> (f64, f64) {
        self.follower.range(x.1)
    }

    fn enter(&self, point: f64, lo: f64, hi: f64, width: Width) -> Self::F {
        (
            self.guide.enter(point, lo, hi, width),
            self.follower.enter(point, lo, hi, width),
        )
    }

    fn indeterminate(&self, x: Self::F) -> Self::F {
        (
            self.guide.indeterminate(x.0),
            self.follower.indeterminate(x.1),
        )
    }

    fn is_indeterminate(&self, x: Self::F) -> bool {
        self.follower.is_indeterminate(x.1)
    }

    fn keeps_control_flow_variables_in_memory(&self) -> bool {
        self.guide.keeps_control_flow_variables_in_memory()
    }

    /// The guide's value as its driver stores it; the bounds hold any driver's.
    fn stored(&self, x: Self::F) -> Self::F {
        (self.guide.stored(x.0), x.1)
    }

    fn either(&self, a: Self::F, b: Self::F) -> Self::F {
        (self.guide.either(a.0, b.0), self.follower.either(a.1, b.1))
    }

    /// The follower's: what the bounds allow.
    fn reassociation_slack(&self, magnitude: f64, terms: usize, width: Width) -> f64 {
        self.follower.reassociation_slack(magnitude, terms, width)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::{Bounds, Mode, Rounding};
    use crate::profile::{Binary32, Choices};

    /// fract(1/3 * 1024) < 0.31 is true in binary16 (0.25) though the mediump interval of
    /// the fract straddles 0.31: the guide's binary16 value decides.
    #[test]
    fn comparisons_follow_the_guide_not_the_interval_midpoint() {
        let d = Guided {
            guide: Rounding::new(Mode::Mediump),
            follower: Bounds::mediump(),
        };
        let h = Width::Half;
        let third = d.binary(Binary::Div, d.constant(1.0), d.constant(3.0), h);
        let scaled = d.binary(Binary::Mul, third, d.constant(1024.0), h);
        let f = d.unary(Unary::Fract, scaled, h);
        assert_eq!(f.0, 0.25);
        assert!(f.1.contains(0.25) && f.1.contains(0.5), "{:?}", f.1);
        assert!(d.compare(Compare::Less, f, d.constant(0.31)));
        assert_eq!(d.representative(f), 0.25);
    }

    /// A guide on an x87 driver (binary32 results kept in 64-bit significands) keeps
    /// control-flow variables in memory as it would alone, rounding its value to binary32
    /// there, so the guided run's points are the guide's own run; the bounds are left alone.
    #[test]
    fn the_guide_stores_variables_as_its_driver_does() {
        let mut driver = Choices::default();
        driver.arithmetic.binary32 = Binary32::Extended;
        let guide = Rounding::with(Mode::Highp, driver);
        let d = Guided {
            guide,
            follower: Bounds::highp(),
        };
        assert!(guide.keeps_control_flow_variables_in_memory());
        assert!(d.keeps_control_flow_variables_in_memory());
        let third = d.binary(Binary::Div, d.constant(1.0), d.constant(3.0), Width::Single);
        assert_ne!(third.0, f64::from(third.0 as f32), "kept beyond binary32");
        let stored = d.stored(third);
        assert_eq!(stored.0, guide.stored(third.0));
        assert_eq!(stored.0, f64::from(third.0 as f32));
        assert_eq!(stored.1, third.1);
    }
}
