//! The lowering verdicts as results record them: per test, per probed channel, and the
//! numbers each channel was judged from. How they are decided lives in the harness
//! (`verdict/`); these are only the recorded values.

use serde::{Deserialize, Serialize};

/// A closed interval of acceptable values.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Lowest acceptable value (may be -inf).
    #[serde(with = "crate::json_float")]
    pub lo: f64,
    /// Highest acceptable value (may be inf).
    #[serde(with = "crate::json_float")]
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
    /// Inside `H` on a channel that does not discriminate: nothing could tell.
    Undetermined,
    /// Inside `H`, and `M == H`: the rules keep this channel at highp.
    KeptHighp,
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

/// The judged numbers of one probed channel, as `results.json` records them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChannelAnalysis {
    /// The observed value `o`.
    #[serde(with = "crate::json_float")]
    pub observed: f64,
    /// The highp prediction `h`.
    #[serde(with = "crate::json_float")]
    pub highp: f64,
    /// The mediump prediction `m` (the `mesa` model).
    #[serde(with = "crate::json_float")]
    pub mediump: f64,
    /// The mediump prediction of the `spec` model, which decides whether the channel
    /// discriminates.
    #[serde(with = "crate::json_float")]
    pub mediump_spec: f64,
    /// The binary64 reference.
    #[serde(with = "crate::json_float")]
    pub exact: f64,
    /// `H`.
    pub highp_bounds: Interval,
    /// `M`.
    pub mediump_bounds: Interval,
    /// What `o` says about lowering.
    pub verdict: ChannelVerdict,
    /// Whether `o` equals `m` bit for bit (the mediump prediction was exact).
    pub matches_mediump: bool,
    /// |o - exact| in binary16 ULPs at the exact value's magnitude.
    #[serde(with = "crate::json_float")]
    pub ulp16_error: f64,
    /// |o - exact| in binary32 ULPs at the exact value's magnitude.
    #[serde(with = "crate::json_float")]
    pub ulp32_error: f64,
}
