//! The lowering verdicts as results record them: per test, per probed channel, and the
//! numbers each channel was judged from. How they are decided lives in the harness
//! (`verdict/`); these are only the recorded values.

use serde::{Deserialize, Serialize};

/// A closed interval of acceptable values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
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

/// The verdict for one probed channel, decided from its [`ChannelEvidence`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChannelVerdict {
    /// Evidence that reduced precision was used, and none against it.
    Lowered,
    /// Evidence that it was not, and none against it.
    NotLowered,
    /// Outside every conforming evaluation (`o` outside `H` and a bounded `M`, or the
    /// driver's own highp run `r` outside a bounded `H`): a driver bug.
    OutOfBounds,
    /// No evidence either way: nothing could tell.
    #[default]
    Undetermined,
    /// No evidence either way, and the rules keep this channel at highp (`M == H`,
    /// `m == h`): nothing reduced reaches it.
    KeptHighp,
    /// The lines of evidence disagree (one says lowered, another not lowered).
    Inconsistent,
}

/// A line of evidence a verdict can rest on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EvidenceLine {
    /// The acceptance intervals `H` and `M`, true of every conforming driver.
    Bounds,
    /// The driver's own highp run `r`.
    Reference,
    /// The driver's own compiler: the NIR Mesa hands the driver (`run --driver-ir`), which
    /// decides only where the numbers cannot, and is not final machine code.
    Ir,
}

/// What one line of evidence says about a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Evidence {
    /// Reduced precision was used.
    Lowered,
    /// It was not: the value is what full precision gives, on a channel where reduced
    /// precision would show.
    NotLowered,
    /// The value is outside what any conforming evaluation may return: a driver bug.
    OutOfBounds,
    /// Nothing either way: the channel cannot tell, or this evidence is missing.
    #[serde(rename = "none")]
    Silent,
}

impl Evidence {
    /// The name results use (`lowered`, `not-lowered`, `out-of-bounds`, `none`).
    pub fn as_str(self) -> &'static str {
        match self {
            Evidence::Lowered => "lowered",
            Evidence::NotLowered => "not-lowered",
            Evidence::OutOfBounds => "out-of-bounds",
            Evidence::Silent => "none",
        }
    }
}

/// The three lines of evidence about one channel, each recorded on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelEvidence {
    /// From the driver's own highp run `r` (the test promoted to highp, same device, same
    /// pixel): `lowered` when `o` differs from `r` and lies farther from the exact value;
    /// `not-lowered` when `o == r` bit for bit where the binary16 and binary32 predictions
    /// differ; `out-of-bounds` when `r` lies outside a bounded `H`; `none` without a
    /// reference or a channel that cannot tell.
    pub reference: Evidence,
    /// From the acceptance intervals, true of any conforming driver: `lowered` when `o` lies
    /// outside `H` and inside a bounded `M`, or outside a bounded `H` where `M` is unbounded;
    /// `not-lowered` when `o` lies inside `H` on a channel whose binary16 value lies outside
    /// `H` and whose `M` is bounded; `out-of-bounds` when `o` lies outside `H` and outside a
    /// bounded `M`; `none` otherwise.
    pub bounds: Evidence,
    /// From the emulator's driver models: `lowered` when `o` equals the lowering model's `m`
    /// bit for bit and `m != h`; `not-lowered` when it equals `h` and `m != h`. Recorded,
    /// and counted when it disagrees, but never enough alone for a verdict.
    pub model: Evidence,
    /// From the driver's own IR (`run --driver-ir`, `docs/driver-ir.md`): `lowered` when
    /// every value the colour output's component is given is the result of a 16-bit float
    /// operation; `not-lowered` when nothing on its way holds a 16-bit value; `none` without
    /// a capture, or where the IR does not show the output plainly.
    #[serde(default = "silent", skip_serializing_if = "is_silent")]
    pub ir: Evidence,
}

/// Serde helper: the `ir` line of results written before it existed says nothing.
fn silent() -> Evidence {
    Evidence::Silent
}

/// Serde helper: an `ir` line that says nothing is left out.
fn is_silent(e: &Evidence) -> bool {
    *e == Evidence::Silent
}

impl Default for ChannelEvidence {
    fn default() -> Self {
        ChannelEvidence {
            reference: Evidence::Silent,
            bounds: Evidence::Silent,
            model: Evidence::Silent,
            ir: Evidence::Silent,
        }
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
    /// On some channel the lines of evidence disagree (shown, never resolved silently).
    Inconsistent,
    /// The test ran but could not be judged; `verdict_reason` says why.
    Unjudged,
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
            Verdict::Inconsistent => "inconsistent",
            Verdict::Unjudged => "unjudged",
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
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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
    /// `m!`: every operation in binary16, the precision rules ignored (the shaders demoted to
    /// mediump): what a driver that lowers what it must not would give. Computed only where
    /// nothing else decides, to tell whether a negative control can catch such a driver.
    #[serde(
        default,
        with = "crate::json_float_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub mediump_forced: Option<f64>,
    /// The driver's own highp value `r` at this pixel (the test promoted to highp, run on the
    /// same device); absent when no reference ran.
    #[serde(
        default,
        with = "crate::json_float_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub reference: Option<f64>,
    /// The binary64 reference.
    #[serde(with = "crate::json_float")]
    pub exact: f64,
    /// `H`.
    pub highp_bounds: Interval,
    /// `M`.
    pub mediump_bounds: Interval,
    /// What the evidence says about lowering.
    pub verdict: ChannelVerdict,
    /// Each line of evidence, as found.
    #[serde(default)]
    pub evidence: ChannelEvidence,
    /// Whether acceptance intervals can decide here either way: the binary16 value (`spec`
    /// model) lies outside `H`, and `M` is bounded and reaches outside `H`; or, on a negative
    /// control the rules keep at highp, `mediump_forced` lies outside a bounded `H`. (Where
    /// `M` is unbounded, `o` outside a bounded `H` still proves lowering.)
    #[serde(default)]
    pub discriminates_by_bounds: bool,
    /// Whether a driver's own highp run can show lowering here: the binary16 predictions
    /// (`mediump` or `mediump_spec`) differ from the binary32 one (`highp`).
    #[serde(default)]
    pub discriminates_by_models: bool,
    /// Whether the value rests on something the shader never wrote (an uninitialised
    /// variable): two runs of one driver may differ, so the reference is no evidence here.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub indeterminate: bool,
    /// Whether `o` equals `m` bit for bit (the mediump prediction was exact).
    pub matches_mediump: bool,
    /// Whether `o` equals `h` bit for bit (the highp prediction was exact).
    #[serde(default)]
    pub matches_highp: bool,
    /// |o - exact| in binary16 ULPs at the exact value's magnitude.
    #[serde(with = "crate::json_float")]
    pub ulp16_error: f64,
    /// |o - exact| in binary32 ULPs at the exact value's magnitude.
    #[serde(with = "crate::json_float")]
    pub ulp32_error: f64,
    /// On a `lowered` channel, the largest error one binary16 operation on its way made in
    /// the emulator's binary16 run of Mesa's lowering (the run `mediump` comes from): the
    /// driver's arithmetic, without what the test amplifies. Absent on other channels, and
    /// where no binary16 operation reaches the channel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_error: Option<OperationError>,
}

/// The error of one binary16 operation on its own: against the exact result of the same
/// operation on the same binary16 operands.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OperationError {
    /// The operation (`mul`, `div`, `exp2`, `fma`, `conversion`, ...).
    pub operation: String,
    /// Its error, in binary16 ULPs at the exact result's magnitude (at most 0.5 for a
    /// correctly rounded `+ - * /` or conversion).
    #[serde(with = "crate::json_float")]
    pub ulp16: f64,
}
