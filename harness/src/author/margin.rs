//! How far a probe's binary16 prediction lies from what a highp driver may give: the measure
//! `lint`, `suggest`, `bless` and `try` share.
//!
//! A channel *discriminates* when its binary16 value lies outside `H` (the highp acceptance
//! interval) both as floats and, beyond the probe's tolerance, in piglit's 8-bit view (any
//! driver's value then proves lowering), or lies apart from the binary32 value by more than
//! the tolerance in the 8-bit view (the driver's own highp reference run tells them apart).

use halfcheck_piglit::probe::unorm8;
use halfcheck_verdict::ChannelPrediction;

/// One channel's margins for a binary16 value `m`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Margin {
    /// How far `m` lies outside `H` as floats (negative: inside, by its distance to the
    /// nearer end).
    pub float: f64,
    /// How far `m` lies outside `H` in the 8-bit view, less the tolerance (positive: piglit
    /// sees it too).
    pub byte: f64,
    /// How far `m` and the binary32 value lie apart in the 8-bit view, less the tolerance.
    pub reference: f64,
    /// Whether `m` differs from the binary32 value at all.
    pub differs: bool,
}

impl Margin {
    /// The margins of `m` against `p`'s `H` and binary32 value, at `tolerance`.
    pub(crate) fn of(p: &ChannelPrediction, m: f32, tolerance: f64) -> Margin {
        let (float, byte) = outside(
            f64::from(m),
            p.highp_bounds.lo,
            p.highp_bounds.hi,
            tolerance,
        );
        let reference = (f64::from(unorm8(m)) - f64::from(unorm8(p.highp))).abs();
        Margin {
            float,
            byte,
            reference: reference - tolerance,
            differs: m.to_bits() != p.highp.to_bits(),
        }
    }

    /// Outside `H` in both views: any driver's value proves lowering.
    pub(crate) fn outside(&self) -> bool {
        self.float > 0.0 && self.byte > 0.0
    }

    /// Outside `H` in both views, or apart from the binary32 value in the 8-bit view.
    pub(crate) fn discriminates(&self) -> bool {
        self.outside() || self.reference > 0.0
    }

    /// Outside `H` as floats, or apart from the binary32 value in the 8-bit view: what
    /// halfcheck's exact readback tells, with or without piglit's view.
    pub(crate) fn exact_view(&self) -> bool {
        self.float > 0.0 || self.reference > 0.0
    }

    /// One number that orders margins, best last: outside `H` in both views ranks by the
    /// 8-bit margin (positive); outside only as floats by how near the 8-bit view comes
    /// (-tolerance..0); inside `H` from -2.5 to -1.6: higher where `m` differs from binary32
    /// at all, then by how near `H`'s end it lies (what a search can climb).
    pub(crate) fn score(&self) -> f64 {
        if self.float > 0.0 {
            self.byte
        } else {
            let differs = if self.differs { 0.5 } else { 0.0 };
            -2.5 + differs + 0.4 * (1.0 + self.float.max(-1.0))
        }
    }
}

/// The margins of `m` (picked from each channel by `value`) on every channel of a probe, at
/// the probe's tolerance per channel.
pub(crate) fn probe_margins(
    channels: &[ChannelPrediction],
    tolerance: impl Fn(usize) -> f64,
    value: impl Fn(&ChannelPrediction) -> f32,
) -> Vec<Margin> {
    channels
        .iter()
        .enumerate()
        .map(|(c, p)| Margin::of(p, value(p), tolerance(c)))
        .collect()
}

/// The probe's tolerance on channel `c`: its own, else piglit's default.
pub(crate) fn tolerance_of(tolerance: &[f64], c: usize) -> f64 {
    tolerance.get(c).copied().unwrap_or(0.01)
}

/// How far `value` lies outside `[lo, hi]`: as floats (negative inside, by its distance to the
/// nearer end) and in piglit's 8-bit view less `tolerance` (positive: piglit sees it).
pub(crate) fn outside(value: f64, lo: f64, hi: f64, tolerance: f64) -> (f64, f64) {
    let float = if value < lo {
        lo - value
    } else if value > hi {
        value - hi
    } else {
        -(value - lo).min(hi - value)
    };
    let view = |x: f64| f64::from(unorm8(x as f32));
    let (q, qlo, qhi) = (view(value), view(lo), view(hi));
    let byte = if q < qlo {
        qlo - q
    } else if q > qhi {
        q - qhi
    } else {
        0.0
    };
    (float, byte - tolerance)
}
