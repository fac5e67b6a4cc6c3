//! Attaches a lowering verdict to a test result, from the emulator's predictions.
//!
//! For every probed channel the result records the observed value `o`, the highp and mediump
//! predictions `h` and `m`, the exact (binary64) value, the acceptance intervals `H` and `M`,
//! the channel verdict, whether `o` equals `m` bit for bit, and the error of `o` in binary16
//! and binary32 ULPs against the exact value. A test whose shaders declare nothing lowp or
//! mediump gets `n/a` and is judged by its piglit status alone.

use super::classify::{classify_channel, combine, Expectation, Interval, Verdict};
use crate::results::{ChannelAnalysis, TestResult};

/// What the emulator predicts for one probed channel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChannelPrediction {
    /// The value at highp (binary32 throughout).
    pub highp: f32,
    /// The value with the operations Mesa lowers in binary16 (the `mesa` model).
    pub mediump: f32,
    /// The value with every operation the precision rules allow in binary16 (`spec` model).
    pub mediump_spec: f32,
    /// The binary64 reference.
    pub exact: f64,
    /// What a conforming highp evaluation may return.
    pub highp_bounds: Interval,
    /// What a conforming mediump evaluation may return.
    pub mediump_bounds: Interval,
}

/// Judges `result` given predictions per probe (in `result.probes` order) and per channel.
///
/// `reduced_precision` says whether the shaders declare anything lowp or mediump; when they
/// do not, the verdict is `n/a`. Probes without predictions are left unjudged.
pub fn judge(
    result: &mut TestResult,
    predictions: &[Vec<ChannelPrediction>],
    reduced_precision: bool,
) {
    if !reduced_precision {
        result.verdict = Some(Verdict::NotApplicable);
        return;
    }
    let mut verdicts = Vec::new();
    for (probe, channels) in result.probes.iter_mut().zip(predictions) {
        probe.channels = probe
            .observed
            .iter()
            .zip(channels)
            .map(|(&o, p)| analyse(o, p))
            .collect();
        verdicts.extend(probe.channels.iter().map(|c| c.verdict));
    }
    if !verdicts.is_empty() {
        result.verdict = Some(combine(&verdicts));
    }
}

/// The analysis of one channel.
fn analyse(observed: f32, p: &ChannelPrediction) -> ChannelAnalysis {
    let o = f64::from(observed);
    let error = (o - p.exact).abs();
    ChannelAnalysis {
        observed: o,
        highp: f64::from(p.highp),
        mediump: f64::from(p.mediump),
        mediump_spec: f64::from(p.mediump_spec),
        exact: p.exact,
        highp_bounds: p.highp_bounds,
        mediump_bounds: p.mediump_bounds,
        verdict: classify_channel(
            o,
            &Expectation {
                highp: f64::from(p.highp),
                mediump: f64::from(p.mediump_spec),
                highp_bounds: p.highp_bounds,
                mediump_bounds: p.mediump_bounds,
            },
        ),
        matches_mediump: observed.to_bits() == p.mediump.to_bits(),
        ulp16_error: error / ulp(p.exact, 10, -14),
        ulp32_error: error / ulp(p.exact, 23, -126),
    }
}

/// The ULP at `x`'s magnitude of a binary format with `mantissa` fraction bits and smallest
/// normal exponent `min_exp` (subnormals share the smallest normal's ULP).
fn ulp(x: f64, mantissa: i32, min_exp: i32) -> f64 {
    let exponent = if x == 0.0 || !x.is_finite() {
        min_exp
    } else {
        (x.abs().log2().floor() as i32).max(min_exp)
    };
    2f64.powi(exponent - mantissa)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{ChannelVerdict, ProbeResult, Status};

    fn probe(observed: Vec<f32>) -> ProbeResult {
        ProbeResult {
            line: 10,
            pixel: [0, 0],
            expected: vec![0.25; observed.len()],
            tolerance: vec![0.01; observed.len()],
            observed_bits: observed
                .iter()
                .map(|o| format!("{:#010x}", o.to_bits()))
                .collect(),
            observed_unorm8: vec![0.0; observed.len()],
            observed,
            pass: true,
            channels: Vec::new(),
        }
    }

    /// fract(1/3 * 1024): 0.3333 at binary32, exactly 0.25 in binary16.
    fn div_prediction() -> ChannelPrediction {
        ChannelPrediction {
            highp: 0.333_343_5,
            mediump: 0.25,
            mediump_spec: 0.25,
            exact: 1.0 / 3.0,
            highp_bounds: Interval::new(0.3330, 0.3337),
            mediump_bounds: Interval::new(0.0, 0.5),
        }
    }

    fn judged(observed: f32) -> TestResult {
        let mut result = TestResult::with_status(Status::Pass, "");
        result.probes = vec![probe(vec![observed])];
        judge(&mut result, &[vec![div_prediction()]], true);
        result
    }

    #[test]
    fn llvmpipe_value_is_lowered_and_matches_the_prediction_exactly() {
        let result = judged(0.25);
        assert_eq!(result.verdict, Some(Verdict::Lowered));
        let c = &result.probes[0].channels[0];
        assert!(c.matches_mediump);
        assert_eq!(c.verdict, ChannelVerdict::Lowered);
        // |0.25 - 1/3| is 0.0833; a binary16 ULP at 1/3 is 2^-12.
        assert!(
            (c.ulp16_error - 0.083_333_33 * 4096.0).abs() < 1e-3,
            "{}",
            c.ulp16_error
        );
    }

    #[test]
    fn softpipe_value_is_not_lowered() {
        let result = judged(0.333_343_5);
        assert_eq!(result.verdict, Some(Verdict::NotLowered));
        assert!(!result.probes[0].channels[0].matches_mediump);
    }

    #[test]
    fn a_value_outside_both_intervals_is_out_of_bounds() {
        let result = judged(0.9);
        assert_eq!(result.verdict, Some(Verdict::OutOfBounds));
    }

    #[test]
    fn a_test_without_reduced_precision_is_not_applicable() {
        let mut result = TestResult::with_status(Status::Pass, "");
        result.probes = vec![probe(vec![0.9])];
        judge(&mut result, &[vec![div_prediction()]], false);
        assert_eq!(result.verdict, Some(Verdict::NotApplicable));
        assert!(result.probes[0].channels.is_empty());
    }

    #[test]
    fn infinite_bounds_and_nan_values_round_trip_through_json() {
        let mut result = TestResult::with_status(Status::Fail, "");
        result.probes = vec![probe(vec![f32::NAN])];
        let unbounded = Interval::new(f64::NEG_INFINITY, f64::INFINITY);
        let p = ChannelPrediction {
            highp_bounds: unbounded,
            mediump_bounds: unbounded,
            exact: f64::INFINITY,
            ..div_prediction()
        };
        judge(&mut result, &[vec![p]], true);
        let json = serde_json::to_string(&result).unwrap();
        let back: TestResult = serde_json::from_str(&json).unwrap();
        let c = &back.probes[0].channels[0];
        assert!(c.observed.is_nan());
        assert_eq!(c.highp_bounds.lo, f64::NEG_INFINITY);
        assert_eq!(c.exact, f64::INFINITY);
    }

    #[test]
    fn ulps_follow_the_exponent_and_bottom_out_at_subnormals() {
        assert_eq!(ulp(1.0, 10, -14), 2f64.powi(-10));
        assert_eq!(ulp(1000.0, 10, -14), 0.5);
        assert_eq!(ulp(1e-9, 10, -14), 2f64.powi(-24));
        assert_eq!(ulp(1.0, 23, -126), 2f64.powi(-23));
    }
}
