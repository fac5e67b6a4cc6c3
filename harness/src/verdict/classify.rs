//! Decides from numbers whether a driver lowered: per probed channel, then per test.
//!
//! For each channel the run knows the observed value `o`, and from the emulator the highp and
//! mediump predictions with their acceptance intervals `H` and `M` (what a conforming highp or
//! mediump evaluation may return). A channel *discriminates* when the binary16 evaluation of
//! everything the precision rules let a driver lower (`m`, the `spec` model) lies outside `H`
//! and `M` is not inside `H`. The rules:
//! - `o` inside `H`: not lowered, on a discriminating channel; kept highp when lowering
//!   changes nothing there (`M == H` and `m == h`: the rules keep the channel at highp, e.g. a
//!   constant); otherwise undetermined: no value could have told highp from mediump there.
//! - `o` outside `H`, inside `M`: lowered, proof that reduced precision was used.
//! - `o` outside both: out of bounds, too inaccurate even for mediump (a driver bug).
//!
//! A test is lowered when all its discriminating channels are, not lowered when none are,
//! partial otherwise; out of bounds wins over everything. A negative control has `M == H` on
//! every channel, so it comes out not lowered, or out of bounds when a driver lowered an
//! operation it must not.

pub use crate::results::{ChannelVerdict, Interval, Verdict};

/// Whether a channel can tell a lowering driver from one that does not: the mediump value
/// `m` lies outside `H`, and `M` reaches outside `H`.
pub fn discriminates(m: f64, highp: &Interval, mediump: &Interval) -> bool {
    !highp.contains(m) && !mediump.is_within(highp)
}

/// The values a channel is judged against: the highp and mediump (`spec` model) predictions
/// and their acceptance intervals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Expectation {
    /// `h`.
    pub highp: f64,
    /// `m` of the `spec` model.
    pub mediump: f64,
    /// `H`.
    pub highp_bounds: Interval,
    /// `M`.
    pub mediump_bounds: Interval,
}

/// Classifies observed value `o` against what a highp and a mediump evaluation give.
pub fn classify_channel(o: f64, e: &Expectation) -> ChannelVerdict {
    let (highp, mediump, m) = (&e.highp_bounds, &e.mediump_bounds, e.mediump);
    if highp.contains(o) {
        // Nothing the rules let a driver lower touches this channel.
        let kept_highp = highp == mediump && e.highp.to_bits() == m.to_bits();
        if kept_highp {
            ChannelVerdict::KeptHighp
        } else if discriminates(m, highp, mediump) {
            ChannelVerdict::NotLowered
        } else {
            ChannelVerdict::Undetermined
        }
    } else if mediump.contains(o) {
        ChannelVerdict::Lowered
    } else {
        ChannelVerdict::OutOfBounds
    }
}

/// Combines the channel verdicts of a test that declares reduced precision.
pub fn combine(channels: &[ChannelVerdict]) -> Verdict {
    if channels.contains(&ChannelVerdict::OutOfBounds) {
        return Verdict::OutOfBounds;
    }
    let lowered = channels
        .iter()
        .filter(|&&c| c == ChannelVerdict::Lowered)
        .count();
    let not_lowered = channels
        .iter()
        .filter(|&&c| c == ChannelVerdict::NotLowered)
        .count();
    let undetermined = channels.contains(&ChannelVerdict::Undetermined);
    match (lowered, not_lowered) {
        (0, 0) if undetermined => Verdict::Undetermined,
        // Every channel kept highp: a negative control.
        (0, 0) => Verdict::NotLowered,
        (_, 0) => Verdict::Lowered,
        (0, _) => Verdict::NotLowered,
        _ => Verdict::Partial,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An expectation whose highp value is the middle of `H`.
    fn expect(m: f64, highp_bounds: &Interval, mediump_bounds: &Interval) -> Expectation {
        Expectation {
            highp: (highp_bounds.lo + highp_bounds.hi) / 2.0,
            mediump: m,
            highp_bounds: *highp_bounds,
            mediump_bounds: *mediump_bounds,
        }
    }

    // fract(1/3 * 1024): binary32 gives 0.3333, binary16 gives exactly 0.25.
    fn highp() -> Interval {
        Interval::new(0.3330, 0.3337)
    }
    fn mediump() -> Interval {
        Interval::new(0.2, 0.45)
    }

    #[test]
    fn value_outside_highp_inside_mediump_is_lowered() {
        assert_eq!(
            classify_channel(0.25, &expect(0.25, &highp(), &mediump())),
            ChannelVerdict::Lowered
        );
    }

    #[test]
    fn value_inside_highp_is_not_lowered() {
        assert_eq!(
            classify_channel(0.33334, &expect(0.25, &highp(), &Interval::new(0.24, 0.26))),
            ChannelVerdict::NotLowered
        );
    }

    #[test]
    fn value_outside_both_intervals_is_out_of_bounds() {
        assert_eq!(
            classify_channel(0.9, &expect(0.25, &highp(), &mediump())),
            ChannelVerdict::OutOfBounds
        );
        assert_eq!(
            classify_channel(f64::NAN, &expect(0.25, &highp(), &mediump())),
            ChannelVerdict::OutOfBounds
        );
    }

    #[test]
    fn mediump_interval_inside_highp_cannot_tell_and_is_undetermined() {
        let wide = Interval::new(0.0, 1.0);
        assert_eq!(
            classify_channel(0.5, &expect(0.45, &wide, &Interval::new(0.4, 0.6))),
            ChannelVerdict::Undetermined
        );
    }

    #[test]
    fn mediump_value_inside_highp_cannot_tell_and_is_undetermined() {
        // sin(x): binary16 lands within highp's 2^-11 absolute allowance.
        let h = Interval::new(0.4990, 0.5010);
        let m = Interval::new(0.49, 0.51);
        assert!(!discriminates(0.5004, &h, &m));
        assert_eq!(
            classify_channel(0.5, &expect(0.5004, &h, &m)),
            ChannelVerdict::Undetermined
        );
    }

    #[test]
    fn negative_control_is_not_lowered_or_out_of_bounds() {
        let h = highp();
        let kept = Expectation {
            highp: 0.3334,
            mediump: 0.3334,
            highp_bounds: h,
            mediump_bounds: h,
        };
        assert_eq!(classify_channel(0.3334, &kept), ChannelVerdict::KeptHighp);
        assert_eq!(classify_channel(0.25, &kept), ChannelVerdict::OutOfBounds);
        // Equal intervals made whole by amplification are not a control.
        let whole = Interval::new(0.0, 1.0);
        assert_eq!(
            classify_channel(0.15, &expect(0.15, &whole, &whole)),
            ChannelVerdict::Undetermined
        );
        assert_eq!(
            combine(&[ChannelVerdict::KeptHighp; 3]),
            Verdict::NotLowered
        );
    }

    #[test]
    fn out_of_bounds_wins_and_mixed_channels_are_partial() {
        use ChannelVerdict::*;
        assert_eq!(
            combine(&[Lowered, OutOfBounds, NotLowered]),
            Verdict::OutOfBounds
        );
        assert_eq!(combine(&[Lowered, NotLowered]), Verdict::Partial);
        assert_eq!(combine(&[Lowered, Undetermined]), Verdict::Lowered);
        assert_eq!(combine(&[NotLowered, Undetermined]), Verdict::NotLowered);
        assert_eq!(combine(&[Undetermined]), Verdict::Undetermined);
        // Constant channels (alpha = 1.0) say nothing either way.
        assert_eq!(combine(&[Lowered, KeptHighp, KeptHighp]), Verdict::Lowered);
        assert_eq!(combine(&[NotLowered, KeptHighp]), Verdict::NotLowered);
    }

    #[test]
    fn verdict_names_round_trip_through_json() {
        for v in [
            Verdict::Lowered,
            Verdict::NotLowered,
            Verdict::NotApplicable,
            Verdict::OutOfBounds,
        ] {
            let json = serde_json::to_string(&v).unwrap();
            assert_eq!(json, format!("\"{}\"", v.as_str()));
            assert_eq!(serde_json::from_str::<Verdict>(&json).unwrap(), v);
        }
    }
}
