//! Decides from numbers whether a driver lowered: per probed channel, then per test.
//!
//! For each channel the run knows the observed value `o`, and from the emulator the highp and
//! mediump predictions with their acceptance intervals `H` and `M` (what a conforming highp or
//! mediump evaluation may return). The rules:
//! - `o` inside `H`: not lowered; unless `M` lies wholly inside a wider `H`, where no value
//!   could have told the two apart: undetermined.
//! - `o` outside `H`, inside `M`: lowered, proof that reduced precision was used.
//! - `o` outside both: out of bounds, too inaccurate even for mediump (a driver bug).
//!
//! A negative control has `M == H` (nothing may be lowered), so it comes out not lowered or out
//! of bounds. A test is lowered when all its discriminating channels are, not lowered when none
//! are, partial otherwise; out of bounds wins over everything.

use serde::{Deserialize, Serialize};

/// A closed interval of acceptable values.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Lowest acceptable value.
    pub lo: f64,
    /// Highest acceptable value.
    pub hi: f64,
}

impl Interval {
    /// The interval `[lo, hi]`.
    pub fn new(lo: f64, hi: f64) -> Self {
        Interval { lo, hi }
    }

    /// Whether `x` lies inside (NaN never does).
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }

    /// Whether every value of `self` lies inside `other`.
    pub fn is_within(&self, other: &Interval) -> bool {
        other.lo <= self.lo && self.hi <= other.hi
    }
}

/// The verdict for one probed channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChannelVerdict {
    /// Outside `H`, inside `M`.
    Lowered,
    /// Inside `H`.
    NotLowered,
    /// Outside both.
    OutOfBounds,
    /// Inside `H`, and `M` lies wholly inside `H`: nothing could tell.
    Undetermined,
}

/// Classifies observed value `o` against the highp and mediump intervals.
pub fn classify_channel(o: f64, highp: &Interval, mediump: &Interval) -> ChannelVerdict {
    let control = highp == mediump;
    if highp.contains(o) {
        if control || !mediump.is_within(highp) {
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

/// The verdict for a whole test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Every discriminating channel was lowered.
    Lowered,
    /// Some discriminating channels were lowered, some not.
    Partial,
    /// No channel was lowered.
    NotLowered,
    /// No channel could discriminate.
    Undetermined,
    /// Some channel was too inaccurate even for mediump.
    OutOfBounds,
    /// The shaders declare nothing lowp or mediump: judged by status alone.
    #[serde(rename = "n/a")]
    NotApplicable,
}

impl Verdict {
    /// The name used in results and expectations (`lowered`, `not-lowered`, `n/a`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Lowered => "lowered",
            Verdict::Partial => "partial",
            Verdict::NotLowered => "not-lowered",
            Verdict::Undetermined => "undetermined",
            Verdict::OutOfBounds => "out-of-bounds",
            Verdict::NotApplicable => "n/a",
        }
    }

    /// How much lowering the verdict shows, for telling regressions from fixes; `None` for
    /// verdicts that say nothing about lowering.
    pub fn lowering_rank(self) -> Option<u8> {
        match self {
            Verdict::Lowered => Some(2),
            Verdict::Partial => Some(1),
            Verdict::NotLowered => Some(0),
            _ => None,
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
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
    match (lowered, not_lowered) {
        (0, 0) => Verdict::Undetermined,
        (_, 0) => Verdict::Lowered,
        (0, _) => Verdict::NotLowered,
        _ => Verdict::Partial,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            classify_channel(0.25, &highp(), &mediump()),
            ChannelVerdict::Lowered
        );
    }

    #[test]
    fn value_inside_highp_is_not_lowered() {
        assert_eq!(
            classify_channel(0.33334, &highp(), &Interval::new(0.24, 0.26)),
            ChannelVerdict::NotLowered
        );
    }

    #[test]
    fn value_outside_both_intervals_is_out_of_bounds() {
        assert_eq!(
            classify_channel(0.9, &highp(), &mediump()),
            ChannelVerdict::OutOfBounds
        );
        assert_eq!(
            classify_channel(f64::NAN, &highp(), &mediump()),
            ChannelVerdict::OutOfBounds
        );
    }

    #[test]
    fn mediump_interval_inside_highp_cannot_tell_and_is_undetermined() {
        let wide = Interval::new(0.0, 1.0);
        assert_eq!(
            classify_channel(0.5, &wide, &Interval::new(0.4, 0.6)),
            ChannelVerdict::Undetermined
        );
    }

    #[test]
    fn negative_control_is_not_lowered_or_out_of_bounds() {
        let h = highp();
        assert_eq!(classify_channel(0.3334, &h, &h), ChannelVerdict::NotLowered);
        assert_eq!(classify_channel(0.25, &h, &h), ChannelVerdict::OutOfBounds);
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
