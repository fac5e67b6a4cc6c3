//! Decides from numbers whether a driver lowered: per probed channel, then per test.
//!
//! For each channel the run knows the observed value `o`, often the driver's own highp value
//! `r` at the same pixel (the test promoted to highp, run on the same device), and from the
//! emulator the highp and mediump predictions `h`, `m` (Mesa's lowering), `m'` (everything
//! the precision rules let a driver lower), the exact value `e`, and the acceptance intervals
//! `H` and `M` of any conforming highp and mediump evaluation. Three lines of evidence are
//! read from them, each on its own ([`ChannelEvidence`]):
//!
//! - **reference**: `r` outside a bounded `H` is a driver bug (`out-of-bounds`); `o == r` bit
//!   for bit where the binary16 and binary32 predictions differ is `not-lowered`; `o != r`
//!   on such a channel, with `r` the binary32 prediction `h` bit for bit (the driver computes
//!   the channel as modelled; a test and its promoted twin may otherwise compile apart by a
//!   few binary32 ulps) and `o` farther from `e` than `r` and nearer a binary16 prediction
//!   (`m`, `m'`) than `r` is, is `lowered` (`o` equal to a binary16 prediction is not enough
//!   alone: a quantised output lands on it by chance); where `H` is unbounded (the value may
//!   rest on one the spec leaves undefined), only `o` a binary16 prediction and `r` the
//!   binary32 one, bit for bit, is. Where the value rests on something never written
//!   (`indeterminate`: two runs may read different garbage), the reference says nothing;
//!   nor on a channel where it says `lowered` at some pixels of a test and `not-lowered` at
//!   others (the test and its twin compiled apart; [`super::judge::judge`] sets it aside).
//! - **bounds**, true of any conforming driver: `o` outside `H` and inside a bounded `M` is
//!   `lowered`, and so is `o` outside a bounded `H` where `M` is unbounded (overflow, a
//!   comparison binary16 may turn: every value is a conforming mediump result, none outside
//!   `H` a conforming highp one); outside `H` and a bounded `M` is `out-of-bounds`; inside `H`
//!   on a channel whose `m'` lies outside `H` and whose `M` is bounded is `not-lowered`, and
//!   so on a negative control (the rules keep the channel highp) whose value lowering
//!   everything, the rules ignored, would move outside `H` (`m!`,
//!   [`ChannelPrediction::forced`]). Inside `H`, an unbounded `M` is no evidence.
//! - **model**: `o` equal bit for bit to `m` (`lowered`) or to `h` (`not-lowered`) where the
//!   two differ. It never decides alone; it only makes a disagreement visible.
//!
//! The channel verdict: `out-of-bounds` when the reference or the bounds say so; otherwise
//! `inconsistent` when the lines disagree: the reference against the bounds, the model's
//! `not-lowered` against any `lowered`, the model's `lowered` against the bounds' `not-lowered`
//! (unless the driver's own highp run gave `o` bit for bit: then the model matched by chance);
//! otherwise what the reference and bounds say; with neither saying anything, `kept-highp` (the
//! rules keep the channel at highp) or `undetermined`.
//!
//! A test is out of bounds when any channel is, inconsistent when any channel is, lowered
//! when every deciding channel is lowered, not lowered when none is, partial otherwise, and
//! undetermined when no channel decides (a negative control whose every channel the rules keep
//! at highp included: nothing there can tell a lowering driver from one that does not; a
//! driver that lowers it anyway is out of bounds).

pub(crate) use halfcheck_results::{ChannelEvidence, Evidence};
pub use halfcheck_results::{ChannelVerdict, Interval, Verdict};

/// What the emulator predicts for one probed channel at one pixel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChannelPrediction {
    /// `h`: every operation at binary32 (a driver that does not lower).
    pub highp: f32,
    /// `m`: the operations Mesa lowers in binary16 (the `mesa` model, llvmpipe's switches).
    pub mediump: f32,
    /// `m'`: every operation the precision rules allow in binary16 (`spec` model).
    pub mediump_spec: f32,
    /// `e`: the binary64 value.
    pub exact: f64,
    /// `H`: what a conforming highp evaluation may return.
    pub highp_bounds: Interval,
    /// `M`: what a conforming mediump evaluation may return.
    pub mediump_bounds: Interval,
    /// `m!`: every operation in binary16, the rules ignored (the shaders demoted to mediump);
    /// computed only where nothing else decides (negative controls).
    pub forced: Option<f32>,
    /// Whether the value rests on something never written (an uninitialised variable), so
    /// that two runs of one driver may give it differently: the driver's own highp run is no
    /// evidence here.
    pub indeterminate: bool,
}

impl ChannelPrediction {
    /// Whether `other` holds the same numbers, bit for bit (`-0` and `0` differ, a NaN
    /// equals the same NaN).
    pub fn same_bits(&self, other: &ChannelPrediction) -> bool {
        let f64s = |x: f64, y: f64| x.to_bits() == y.to_bits();
        let intervals = |x: Interval, y: Interval| f64s(x.lo, y.lo) && f64s(x.hi, y.hi);
        self.highp.to_bits() == other.highp.to_bits()
            && self.mediump.to_bits() == other.mediump.to_bits()
            && self.mediump_spec.to_bits() == other.mediump_spec.to_bits()
            && f64s(self.exact, other.exact)
            && intervals(self.highp_bounds, other.highp_bounds)
            && intervals(self.mediump_bounds, other.mediump_bounds)
            && self.forced.map(f32::to_bits) == other.forced.map(f32::to_bits)
            && self.indeterminate == other.indeterminate
    }

    /// Whether acceptance intervals can prove lowering here: `m'` lies outside `H`, and `M`
    /// is bounded and reaches outside `H`.
    pub fn discriminates_by_bounds(&self) -> bool {
        let m = f64::from(self.mediump_spec);
        bounded(&self.mediump_bounds)
            && !self.highp_bounds.contains(m)
            && !self.mediump_bounds.is_within(&self.highp_bounds)
    }

    /// Whether this is a negative control that can catch a driver lowering what it must not:
    /// the rules keep the channel highp, and lowering everything would move it outside a
    /// bounded `H`.
    pub fn discriminates_as_control(&self) -> bool {
        self.kept_highp()
            && bounded(&self.highp_bounds)
            && self
                .forced
                .is_some_and(|f| !self.highp_bounds.contains(f64::from(f)))
    }

    /// Whether the binary16 predictions differ from the binary32 one, so that a driver's own
    /// highp run can show lowering here.
    pub fn discriminates_by_models(&self) -> bool {
        !same_prediction(self.mediump, self.highp)
            || !same_prediction(self.mediump_spec, self.highp)
    }

    /// Whether the rules keep this channel at highp: `M == H` and `m' == h`.
    pub fn kept_highp(&self) -> bool {
        self.highp_bounds == self.mediump_bounds && same_prediction(self.highp, self.mediump_spec)
    }
}

/// Whether two predictions are the same value: the same bits, or both NaN. Which NaN an
/// operation on NaNs gives (its sign, its payload) is the machine's choice, the emulator's
/// as much as a driver's, so two NaNs tell no precision apart.
fn same_prediction(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// Whether both ends of `i` are finite.
fn bounded(i: &Interval) -> bool {
    i.lo.is_finite() && i.hi.is_finite()
}

/// The bounds evidence for observed value `o`.
pub(crate) fn bounds_evidence(o: f32, p: &ChannelPrediction) -> Evidence {
    let modelled = || model_evidence(o, p) == Evidence::Lowered;
    let o = f64::from(o);
    if p.highp_bounds.contains(o) {
        if p.discriminates_by_bounds() || p.discriminates_as_control() {
            Evidence::NotLowered
        } else {
            Evidence::Silent
        }
    } else if !bounded(&p.mediump_bounds) {
        // Any value is a conforming mediump result, but none outside a bounded `H` is a
        // conforming highp one: a conforming driver did not keep this channel at highp. A
        // driver's bug lands there too (NOSSE's x87 `fract` returned 1.4e17), so only the
        // modelled binary16 value bit for bit says lowered; any other value is for the
        // driver's own highp run to tell.
        if bounded(&p.highp_bounds) && p.mediump_bounds.contains(o) && modelled() {
            Evidence::Lowered
        } else {
            Evidence::Silent
        }
    } else if p.mediump_bounds.contains(o) {
        Evidence::Lowered
    } else {
        Evidence::OutOfBounds
    }
}

/// The reference evidence for observed value `o` and the driver's own highp value `r`.
pub(crate) fn reference_evidence(o: f32, r: Option<f32>, p: &ChannelPrediction) -> Evidence {
    let Some(r) = r else {
        return Evidence::Silent;
    };
    if p.indeterminate {
        // The test and its reference may have read different garbage.
        return Evidence::Silent;
    }
    let r64 = f64::from(r);
    if bounded(&p.highp_bounds) && !p.highp_bounds.contains(r64) {
        return Evidence::OutOfBounds;
    }
    if !p.discriminates_by_models() {
        return Evidence::Silent;
    }
    if o.to_bits() == r.to_bits() {
        return Evidence::NotLowered;
    }
    // The test and its promoted twin are two programs: a driver may compile them apart
    // (another interpolation, order or contraction) and differ by a few binary32 ulps, which
    // an amplifying test makes large. Only a reference that is the binary32 prediction bit
    // for bit shows this driver computes the channel as modelled, so that a test run
    // departing from it was lowered.
    if r.to_bits() != p.highp.to_bits() {
        return Evidence::Silent;
    }
    // Where `H` is unbounded, the value may rest on what the spec leaves undefined (an
    // uninitialised value, an out-of-range index), which two runs of a driver that never
    // lowers may give differently: only `o` a binary16 prediction bit for bit as well proves
    // lowering there.
    if !bounded(&p.highp_bounds) {
        let binary16 = [p.mediump, p.mediump_spec]
            .iter()
            .any(|m| m.to_bits() == o.to_bits());
        return if binary16 {
            Evidence::Lowered
        } else {
            Evidence::Silent
        };
    }
    let o64 = f64::from(o);
    let (o_error, r_error) = ((o64 - p.exact).abs(), (r64 - p.exact).abs());
    // Nearer a binary16 prediction than the binary32 one: not a few ulps from `h`.
    let towards_binary16 = [p.mediump, p.mediump_spec]
        .iter()
        .any(|&m| (o64 - f64::from(m)).abs() < (o64 - r64).abs());
    // `o` equal to a binary16 prediction alone is no proof: where the output is quantised
    // (`fract(x * 1024)`), a binary32 value one ulp off lands on it by chance.
    if o_error > r_error && towards_binary16 {
        Evidence::Lowered
    } else {
        Evidence::Silent
    }
}

/// The model evidence for observed value `o`.
pub(crate) fn model_evidence(o: f32, p: &ChannelPrediction) -> Evidence {
    if same_prediction(p.mediump, p.highp) {
        Evidence::Silent
    } else if o.to_bits() == p.mediump.to_bits() {
        Evidence::Lowered
    } else if o.to_bits() == p.highp.to_bits() {
        Evidence::NotLowered
    } else {
        Evidence::Silent
    }
}

/// Every line of evidence for one channel.
pub(crate) fn evidence(o: f32, r: Option<f32>, p: &ChannelPrediction) -> ChannelEvidence {
    ChannelEvidence {
        reference: reference_evidence(o, r, p),
        bounds: bounds_evidence(o, p),
        model: model_evidence(o, p),
        ir: Evidence::Silent,
    }
}

/// The channel verdict the evidence gives (`kept_highp`: the rules keep the channel at highp).
pub(crate) fn verdict_from(evidence: &ChannelEvidence, kept_highp: bool) -> ChannelVerdict {
    let deciding = [evidence.reference, evidence.bounds];
    if deciding.contains(&Evidence::OutOfBounds) {
        return ChannelVerdict::OutOfBounds;
    }
    let lowered = deciding.contains(&Evidence::Lowered);
    let not_lowered = deciding.contains(&Evidence::NotLowered);
    let disagree = (lowered && (not_lowered || evidence.model == Evidence::NotLowered))
        || (evidence.bounds == Evidence::NotLowered
            && evidence.model == Evidence::Lowered
            && evidence.reference != Evidence::NotLowered);
    if disagree {
        return ChannelVerdict::Inconsistent;
    }
    if lowered {
        ChannelVerdict::Lowered
    } else if deciding.contains(&Evidence::NotLowered) {
        ChannelVerdict::NotLowered
    } else if kept_highp {
        ChannelVerdict::KeptHighp
    } else {
        ChannelVerdict::Undetermined
    }
}

/// Classifies one channel: its evidence and verdict.
pub(crate) fn classify_channel(
    o: f32,
    r: Option<f32>,
    p: &ChannelPrediction,
) -> (ChannelEvidence, ChannelVerdict) {
    let found = evidence(o, r, p);
    (found, verdict_from(&found, p.kept_highp()))
}

/// Combines the channel verdicts of a test (or of one pixel) that declares reduced precision.
pub(crate) fn combine(channels: &[ChannelVerdict]) -> Verdict {
    if channels.contains(&ChannelVerdict::OutOfBounds) {
        return Verdict::OutOfBounds;
    }
    if channels.contains(&ChannelVerdict::Inconsistent) {
        return Verdict::Inconsistent;
    }
    let count = |v: ChannelVerdict| channels.iter().filter(|&&c| c == v).count();
    match (
        count(ChannelVerdict::Lowered),
        count(ChannelVerdict::NotLowered),
    ) {
        (0, 0) => Verdict::Undetermined,
        (_, 0) => Verdict::Lowered,
        (0, _) => Verdict::NotLowered,
        _ => Verdict::Partial,
    }
}

/// How little a verdict says for lowering: 0 for out-of-bounds, rising to lowered. The pixel
/// of a probe with the smallest rank is the one it records.
pub(crate) fn severity(v: Verdict) -> u8 {
    match v {
        Verdict::OutOfBounds => 0,
        Verdict::Inconsistent => 1,
        Verdict::NotLowered => 2,
        Verdict::Partial => 3,
        Verdict::Undetermined | Verdict::Unjudged | Verdict::NotApplicable => 4,
        Verdict::Lowered => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ChannelVerdict as C;
    use Evidence::{Lowered, NotLowered, OutOfBounds, Silent};

    // fract(1/3 * 1024): binary32 gives 0.333343505859375, binary16 exactly 0.25.
    const H_VALUE: f32 = 0.333_343_5;
    const EXACT: f64 = 1.0 / 3.0;

    fn div() -> ChannelPrediction {
        ChannelPrediction {
            highp: H_VALUE,
            mediump: 0.25,
            mediump_spec: 0.25,
            exact: EXACT,
            highp_bounds: Interval::new(0.3330, 0.3337),
            mediump_bounds: Interval::new(0.2, 0.45),
            forced: None,
            indeterminate: false,
        }
    }

    /// sin(x) near 0.5: binary16 lands inside highp's loose allowance, so only a reference
    /// can tell.
    fn sine() -> ChannelPrediction {
        ChannelPrediction {
            highp: 0.479_425_55,
            mediump: 0.479_492_2,
            mediump_spec: 0.479_492_2,
            exact: 0.479_425_538_604_203,
            highp_bounds: Interval::new(0.4789, 0.4799),
            mediump_bounds: Interval::new(0.478, 0.481),
            forced: None,
            indeterminate: false,
        }
    }

    /// fract(x * 4096.0) on a driver whose `fract` is broken (NOSSE's x87 one): the value is
    /// outside `H`, and with `M` unbounded only the reference can tell a bug from lowering.
    #[test]
    fn a_value_outside_h_where_m_is_unbounded_is_lowered_only_at_the_modelled_value() {
        let mut p = ChannelPrediction {
            highp: 0.25,
            mediump: 0.5,
            mediump_spec: 0.5,
            exact: 0.25,
            highp_bounds: Interval::new(0.0, 1.0),
            mediump_bounds: Interval::new(f64::NEG_INFINITY, f64::INFINITY),
            forced: None,
            indeterminate: false,
        };
        assert_eq!(
            bounds_evidence(1.379e17, &p),
            Silent,
            "outside H: a bug or lowering"
        );
        assert_eq!(bounds_evidence(0.25, &p), Silent, "inside H");
        p.highp_bounds = Interval::new(0.0, 0.3);
        assert_eq!(bounds_evidence(0.5, &p), Lowered, "the modelled value");
        assert_eq!(bounds_evidence(0.75, &p), Silent, "not the modelled value");
        p.mediump_bounds = Interval::new(0.45, 0.6);
        assert_eq!(bounds_evidence(0.5, &p), Lowered, "inside a bounded M");
        assert_eq!(bounds_evidence(0.25, &p), NotLowered, "inside H, outside M");
    }

    /// An uninitialised value in a sum: each evaluation gives NaN, and which NaN (its sign)
    /// is the machine's choice. Found by the soundness campaign (seed 23, test 178 on NOSSE):
    /// a build whose `min` picked the other NaN saw the binary16 and binary32 predictions
    /// "differ" and judged the channel on the IR alone.
    #[test]
    fn two_nans_of_other_signs_are_the_same_prediction() {
        let nan = f32::NAN;
        let p = ChannelPrediction {
            highp: nan,
            mediump: -nan,
            mediump_spec: -nan,
            exact: f64::NAN,
            highp_bounds: Interval::new(f64::NEG_INFINITY, f64::INFINITY),
            mediump_bounds: Interval::new(f64::NEG_INFINITY, f64::INFINITY),
            forced: None,
            indeterminate: true,
        };
        assert_ne!(p.highp.to_bits(), p.mediump.to_bits());
        assert!(!p.discriminates_by_models());
        assert!(p.kept_highp());
        assert_eq!(model_evidence(-nan, &p), Silent);
        assert_eq!(reference_evidence(-nan, Some(nan), &p), Silent);
    }

    fn verdict(o: f32, r: Option<f32>, p: &ChannelPrediction) -> (ChannelEvidence, C) {
        classify_channel(o, r, p)
    }

    fn ev(reference: Evidence, bounds: Evidence, model: Evidence) -> ChannelEvidence {
        ChannelEvidence {
            reference,
            bounds,
            model,
            ir: Evidence::Silent,
        }
    }

    #[test]
    fn a_lowering_driver_is_lowered_by_every_line_of_evidence() {
        let (found, v) = verdict(0.25, Some(H_VALUE), &div());
        assert_eq!(found, ev(Lowered, Lowered, Lowered));
        assert_eq!(v, C::Lowered);
    }

    #[test]
    fn a_driver_that_does_not_lower_is_not_lowered_by_every_line_of_evidence() {
        let (found, v) = verdict(H_VALUE, Some(H_VALUE), &div());
        assert_eq!(found, ev(NotLowered, NotLowered, NotLowered));
        assert_eq!(v, C::NotLowered);
    }

    #[test]
    fn bounds_alone_decide_without_a_reference() {
        assert_eq!(verdict(0.25, None, &div()).1, C::Lowered);
        // Another driver's rounding inside H: no model matches, bounds still decide.
        let (found, v) = verdict(0.333_35, None, &div());
        assert_eq!(found, ev(Silent, NotLowered, Silent));
        assert_eq!(v, C::NotLowered);
    }

    #[test]
    fn the_reference_decides_where_the_bounds_cannot() {
        // llvmpipe: binary16 sine, its own highp run is binary32.
        let (found, v) = verdict(0.479_492_2, Some(0.479_425_55), &sine());
        assert_eq!(found, ev(Lowered, Silent, Lowered));
        assert_eq!(v, C::Lowered);
        // softpipe: both runs binary32, bit for bit.
        let (found, v) = verdict(0.479_425_55, Some(0.479_425_55), &sine());
        assert_eq!(found, ev(NotLowered, Silent, NotLowered));
        assert_eq!(v, C::NotLowered);
        // No reference: nothing can tell.
        assert_eq!(verdict(0.479_492_2, None, &sine()).1, C::Undetermined);
    }

    #[test]
    fn a_value_closer_to_exact_than_the_reference_is_no_evidence_of_lowering() {
        let (found, v) = verdict(0.479_43, Some(0.479_45), &sine());
        assert_eq!(found.reference, Silent);
        assert_eq!(v, C::Undetermined);
    }

    #[test]
    fn a_reference_that_is_not_the_binary32_prediction_proves_nothing() {
        // NOSSE (seed 2611, test 3318 of scripts/soundness): the test and its promoted twin
        // compiled apart and differ by 6 binary32 ulps; neither is lowered.
        let sum = ChannelPrediction {
            highp: -422.652_8,
            mediump: -422.75,
            mediump_spec: -422.75,
            exact: -422.652_78,
            highp_bounds: Interval::new(-423.082_9, -422.222_7),
            mediump_bounds: Interval::new(-423.5, -422.0),
            forced: None,
            indeterminate: false,
        };
        let (found, v) = verdict(-422.652_56, Some(-422.652_74), &sum);
        assert_eq!(found.reference, Silent);
        assert_eq!(v, C::Undetermined);
        // Nor does a departure of a few ulps from a reference that is `h` bit for bit: it
        // stays nearer `h` than any binary16 prediction.
        let (found, _) = verdict(-422.652_56, Some(-422.652_8), &sum);
        assert_eq!(found.reference, Silent);
        // One that moved towards binary16 is lowering.
        let (found, _) = verdict(-422.72, Some(-422.652_8), &sum);
        assert_eq!(found.reference, Lowered);
    }

    #[test]
    fn binary16_that_lands_nearer_exact_is_shown_by_the_bounds_not_the_reference() {
        // values[int(a * 1e8)] with a = 1e-8: binary16 flushes a to 0 and reads values[0],
        // which the exact product (0.99999999) also picks; binary32 rounds it to 1.0. Equal
        // to `m` bit for bit proves nothing by itself (a quantised output lands on it by
        // chance), but outside a bounded `H` where `M` is unbounded, the bounds prove it.
        let index = ChannelPrediction {
            highp: 0.9,
            mediump: 0.5,
            mediump_spec: 0.5,
            exact: 0.5,
            highp_bounds: Interval::new(0.85, 0.95),
            mediump_bounds: Interval::new(f64::NEG_INFINITY, f64::INFINITY),
            forced: None,
            indeterminate: false,
        };
        let (found, v) = verdict(0.5, Some(0.9), &index);
        assert_eq!(found.reference, Silent);
        assert_eq!(found.bounds, Lowered);
        assert_eq!(v, C::Lowered);
        assert_eq!(verdict(0.9, Some(0.9), &index).1, C::NotLowered);
    }

    /// A channel reading an uninitialised value: `H` and `M` unbounded.
    fn garbage() -> ChannelPrediction {
        ChannelPrediction {
            highp: 0.6015625,
            mediump: 0.0,
            mediump_spec: 0.0,
            exact: 0.6,
            highp_bounds: Interval::new(f64::NEG_INFINITY, f64::INFINITY),
            mediump_bounds: Interval::new(f64::NEG_INFINITY, f64::INFINITY),
            forced: None,
            indeterminate: false,
        }
    }

    #[test]
    fn where_h_is_unbounded_two_runs_that_differ_prove_nothing() {
        // An uninitialised value read by both runs: softpipe gave 0.117 in one and 0.602 in
        // the other (seed 2311, test 376 of scripts/soundness), though it never lowers.
        let garbage = garbage();
        let (found, v) = verdict(0.117_187_5, Some(0.601_562_5), &garbage);
        assert_eq!(found.reference, Silent);
        assert_eq!(v, C::Undetermined);
        // The same value in both runs still says the driver computed it alike.
        assert_eq!(
            verdict(0.601_562_5, Some(0.601_562_5), &garbage).1,
            C::NotLowered
        );
    }

    #[test]
    fn an_indeterminate_value_gets_no_reference_evidence() {
        // An uninitialised value: the test read garbage that clamped to the binary16
        // prediction and its reference garbage that gave the binary32 one (softpipe, seed 29,
        // test 2003 of scripts/soundness). Bit-exact matches prove nothing there.
        let garbage = garbage();
        assert_eq!(
            verdict(0.0, Some(0.601_562_5), &garbage).0.reference,
            Lowered
        );
        let indeterminate = ChannelPrediction {
            indeterminate: true,
            ..garbage
        };
        let (found, v) = verdict(0.0, Some(0.601_562_5), &indeterminate);
        assert_eq!(found.reference, Silent);
        assert_eq!(v, C::Undetermined);
        assert_eq!(verdict(0.5, Some(0.5), &indeterminate).1, C::Undetermined);
    }

    #[test]
    fn disagreeing_evidence_is_inconsistent_never_resolved() {
        // The driver's own highp run is closer to exact, yet o lies inside H, a few ulps from
        // it, where binary16 would not: the reference says nothing, the bounds say not.
        let (found, v) = verdict(0.3336, Some(H_VALUE), &div());
        assert_eq!(found, ev(Silent, NotLowered, Silent));
        assert_eq!(v, C::NotLowered);
        // Bounds say lowered (o outside a too-narrow H) but o equals the driver's own highp
        // run: the false proof an unsound H gave on llvmpipe with GALLIUM_NOSSE=1 cannot be
        // lowered; r outside H is reported instead.
        let narrow = ChannelPrediction {
            highp_bounds: Interval::new(0.3333, 0.33336),
            ..div()
        };
        let (found, v) = verdict(0.3334, Some(0.3334), &narrow);
        assert_eq!(found, ev(OutOfBounds, Lowered, Silent));
        assert_ne!(v, C::Lowered);
        // The model alone disagreeing is enough to show it.
        assert_eq!(
            verdict_from(&ev(Lowered, Silent, NotLowered), false),
            C::Inconsistent
        );
        assert_eq!(
            verdict_from(&ev(Silent, NotLowered, Lowered), false),
            C::Inconsistent
        );
        // The driver's own highp run gave o bit for bit: a model match is chance (llvmpipe
        // without F16C rounds an index product to binary16's side).
        assert_eq!(
            verdict_from(&ev(NotLowered, Silent, Lowered), false),
            C::NotLowered
        );
        assert_eq!(
            verdict_from(&ev(NotLowered, NotLowered, Lowered), false),
            C::NotLowered
        );
    }

    #[test]
    fn every_combination_of_evidence_has_its_verdict() {
        use Evidence as E;
        let all = [E::Lowered, E::NotLowered, E::OutOfBounds, E::Silent];
        let mut seen = Vec::new();
        for reference in all {
            for bounds in all {
                for model in [E::Lowered, E::NotLowered, E::Silent] {
                    let v = verdict_from(&ev(reference, bounds, model), false);
                    if !seen.contains(&v) {
                        seen.push(v);
                    }
                    let says = |e: E| reference == e || bounds == e;
                    let expected = if says(E::OutOfBounds) {
                        C::OutOfBounds
                    } else if says(E::Lowered) && (says(E::NotLowered) || model == E::NotLowered) {
                        C::Inconsistent
                    } else if says(E::Lowered) {
                        C::Lowered
                    } else if bounds == E::NotLowered
                        && model == E::Lowered
                        && reference == E::Silent
                    {
                        C::Inconsistent
                    } else if says(E::NotLowered) {
                        C::NotLowered
                    } else {
                        C::Undetermined
                    };
                    assert_eq!(v, expected, "{reference:?} {bounds:?} {model:?}");
                    // A model alone never decides.
                    if reference == E::Silent && bounds == E::Silent {
                        assert_eq!(v, C::Undetermined);
                    }
                }
            }
        }
        assert_eq!(seen.len(), 5, "{seen:?}");
    }

    #[test]
    fn an_unbounded_mediump_interval_proves_lowering_only_outside_a_bounded_highp_one() {
        let p = ChannelPrediction {
            mediump_bounds: Interval::new(f64::NEG_INFINITY, f64::INFINITY),
            ..div()
        };
        assert!(!p.discriminates_by_bounds());
        // Outside a bounded H, at the modelled binary16 value: no conforming highp evaluation
        // gives 0.25.
        let (found, v) = verdict(0.25, None, &p);
        assert_eq!(found.bounds, Lowered);
        assert_eq!(v, C::Lowered);
        // Outside H at another value (0.9): lowering or a driver's bug, left to the reference.
        let (found, v) = verdict(0.9, None, &p);
        assert_eq!(found.bounds, Silent);
        assert_eq!(v, C::Undetermined);
        // Inside H it proves nothing: a mediump evaluation may land there too.
        let (found, v) = verdict(H_VALUE, None, &p);
        assert_eq!(found.bounds, Silent);
        assert_eq!(v, C::Undetermined);
        // A NaN lies in no interval: left to the reference.
        assert_eq!(verdict(f32::NAN, None, &p).0.bounds, Silent);
        // The driver's own highp run giving the same value outside H is a driver bug.
        assert_eq!(verdict(0.9, Some(0.9), &p).1, C::OutOfBounds);
        // With H unbounded on one side, nothing outside it is proof.
        let open_h = ChannelPrediction {
            highp_bounds: Interval::new(0.3330, f64::INFINITY),
            ..p
        };
        assert_eq!(verdict(0.1, None, &open_h).0.bounds, Silent);
    }

    #[test]
    fn a_value_outside_both_intervals_is_out_of_bounds() {
        assert_eq!(verdict(0.9, Some(H_VALUE), &div()).1, C::OutOfBounds);
        assert_eq!(verdict(f32::NAN, None, &div()).1, C::OutOfBounds);
    }

    #[test]
    fn a_reference_outside_highp_bounds_is_an_out_of_bounds_driver() {
        // The driver's highp run itself is wrong: reported even though o looks lowered.
        let (found, v) = verdict(0.25, Some(0.5), &div());
        assert_eq!(found.reference, OutOfBounds);
        assert_eq!(v, C::OutOfBounds);
        let (found, _) = verdict(0.25, Some(f32::NAN), &div());
        assert_eq!(found.reference, OutOfBounds);
    }

    #[test]
    fn a_negative_control_is_kept_highp_and_out_of_bounds_when_lowered() {
        let h = div().highp_bounds;
        let kept = ChannelPrediction {
            mediump: H_VALUE,
            mediump_spec: H_VALUE,
            mediump_bounds: h,
            ..div()
        };
        assert_eq!(verdict(H_VALUE, Some(H_VALUE), &kept).1, C::KeptHighp);
        assert_eq!(verdict(0.25, Some(H_VALUE), &kept).1, C::OutOfBounds);
        // Lowering everything would show: staying inside H is not lowering.
        let control = ChannelPrediction {
            forced: Some(0.25),
            ..kept
        };
        assert!(control.discriminates_as_control());
        assert_eq!(verdict(H_VALUE, None, &control).1, C::NotLowered);
        // Constants (piglit's sanity test): lowering changes nothing.
        let constant = ChannelPrediction {
            forced: Some(H_VALUE),
            ..kept
        };
        assert_eq!(verdict(H_VALUE, None, &constant).1, C::KeptHighp);
    }

    #[test]
    fn tests_combine_their_channels() {
        assert_eq!(
            combine(&[C::Lowered, C::OutOfBounds, C::Inconsistent]),
            Verdict::OutOfBounds
        );
        assert_eq!(
            combine(&[C::Lowered, C::Inconsistent]),
            Verdict::Inconsistent
        );
        assert_eq!(combine(&[C::Lowered, C::NotLowered]), Verdict::Partial);
        assert_eq!(combine(&[C::Lowered, C::Undetermined]), Verdict::Lowered);
        assert_eq!(combine(&[C::NotLowered, C::KeptHighp]), Verdict::NotLowered);
        // Nothing decides: constants (piglit's sanity test) and highp-only controls alike.
        assert_eq!(combine(&[C::KeptHighp; 4]), Verdict::Undetermined);
        assert_eq!(combine(&[C::Undetermined]), Verdict::Undetermined);
        assert_eq!(combine(&[]), Verdict::Undetermined);
    }

    #[test]
    fn verdict_names_round_trip_through_json() {
        for v in [
            Verdict::Lowered,
            Verdict::NotLowered,
            Verdict::NotApplicable,
            Verdict::OutOfBounds,
            Verdict::Inconsistent,
            Verdict::Unjudged,
        ] {
            let json = serde_json::to_string(&v).unwrap();
            assert_eq!(json, format!("\"{}\"", v.as_str()));
            assert_eq!(serde_json::from_str::<Verdict>(&json).unwrap(), v);
        }
        for e in [Lowered, NotLowered, OutOfBounds, Silent] {
            let json = serde_json::to_string(&e).unwrap();
            assert_eq!(json, format!("\"{}\"", e.as_str()));
        }
    }
}
