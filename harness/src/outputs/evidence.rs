//! The numbers behind a result, as lines a person reads: how earlier attempts ended
//! (`--retries`), what each failed probe expected and observed, and for each judged channel
//! the observed float beside the binary16 (mediump) and binary32 (highp) predictions and
//! their acceptance intervals.
//!
//! The words are those of `results.json`: `observed` is the exact float the shader wrote,
//! `8-bit view` what piglit's RGBA8 framebuffer would hold, `mediump`/`highp` the emulator's
//! predictions, `H`/`M` the highp and mediump acceptance intervals.

use crate::results::{Attempt, ChannelAnalysis, ChannelVerdict, ProbeResult, TestResult};

/// At most this many channel lines per test; the rest are counted.
pub(crate) const MAX_CHANNEL_LINES: usize = 8;

/// The channel names, by index.
const CHANNELS: [&str; 4] = ["r", "g", "b", "a"];

/// The lines for `result`: each earlier attempt, each failed probe (else the first line of
/// its reason), then its judged channels (those that decided the verdict first), at most
/// [`MAX_CHANNEL_LINES`].
pub(crate) fn lines(result: &TestResult) -> Vec<String> {
    let mut lines: Vec<String> = result
        .attempts
        .iter()
        .enumerate()
        .map(|(i, a)| attempt(i + 1, a))
        .collect();
    let failed: Vec<String> = result
        .probes
        .iter()
        .filter(|p| !p.pass)
        .map(failed_probe)
        .collect();
    if failed.is_empty() {
        if let Some(reason) = result.reason.as_deref().and_then(|r| r.lines().next()) {
            lines.push(reason.to_string());
        }
    }
    lines.extend(failed);
    let mut channels: Vec<(&ProbeResult, usize, &ChannelAnalysis)> = result
        .probes
        .iter()
        .flat_map(|p| p.channels.iter().enumerate().map(move |(c, a)| (p, c, a)))
        .collect();
    // Channels that say something about lowering first, each group in probe order.
    channels.sort_by_key(|(_, _, a)| !decides(a.verdict));
    let shown = channels.len().min(MAX_CHANNEL_LINES);
    lines.extend(
        channels[..shown]
            .iter()
            .map(|(probe, c, analysis)| channel(probe, *c, analysis)),
    );
    if channels.len() > shown {
        lines.push(format!(
            "... and {} more channels in results.json",
            channels.len() - shown
        ));
    }
    lines
}

/// The one line that says most about `result`: the first channel that decided its verdict
/// (the observed float beside both predictions), else its first failed probe, else the first
/// line of its reason; `None` when it has none of them.
pub(crate) fn headline(result: &TestResult) -> Option<String> {
    let decided = result.probes.iter().find_map(|p| {
        p.channels
            .iter()
            .enumerate()
            .find(|(_, a)| decides(a.verdict))
            .map(|(c, a)| channel(p, c, a))
    });
    decided
        .or_else(|| result.probes.iter().find(|p| !p.pass).map(failed_probe))
        .or_else(|| {
            result
                .reason
                .as_deref()
                .and_then(|r| r.lines().next())
                .filter(|r| !r.is_empty())
                .map(str::to_string)
        })
}

/// `attempt 1: crash: the worker died (signal 9: SIGKILL)`.
fn attempt(number: usize, attempt: &Attempt) -> String {
    let verdict = attempt
        .verdict
        .map(|v| format!(", {v}"))
        .unwrap_or_default();
    let reason = attempt
        .reason
        .as_deref()
        .and_then(|r| r.lines().next())
        .map(|r| format!(": {r}"))
        .unwrap_or_default();
    format!(
        "attempt {number}: {}{verdict}{reason}",
        attempt.status.as_str()
    )
}

/// Whether a channel verdict takes part in the test's verdict.
fn decides(verdict: ChannelVerdict) -> bool {
    matches!(
        verdict,
        ChannelVerdict::Lowered
            | ChannelVerdict::NotLowered
            | ChannelVerdict::OutOfBounds
            | ChannelVerdict::Inconsistent
    )
}

/// `probe line 32 at (0, 0) failed: expected [...], observed [...] (8-bit view [...])`, the
/// view left out where it is the observed value (integer probes).
fn failed_probe(probe: &ProbeResult) -> String {
    let list = |values: &mut dyn Iterator<Item = String>| values.collect::<Vec<_>>().join(", ");
    let observed = list(&mut probe.observed.iter().map(|&x| number(x.into())));
    let view = list(&mut probe.observed_unorm8.iter().map(|&x| number(x)));
    let view = if view == observed {
        String::new()
    } else {
        format!(" (8-bit view [{view}])")
    };
    format!(
        "probe line {} at ({}, {}) failed: expected [{}], observed [{observed}]{view}, \
         tolerance [{}]",
        probe.line,
        probe.pixel[0],
        probe.pixel[1],
        list(&mut probe.expected.iter().map(|&x| number(x))),
        list(&mut probe.tolerance.iter().map(|&x| number(x))),
    )
}

/// `probe line 32 at (0, 0) r: observed 0.25 (0x3e800000); mediump (binary16) 0.25, highp
/// (binary32) 0.33333334; H [..], M [..]: lowered`, with the driver's own highp value
/// (`reference 0.33333334`) after `observed` when a reference ran. The pixel is the one the
/// channels were judged at.
fn channel(probe: &ProbeResult, index: usize, a: &ChannelAnalysis) -> String {
    let pixel = probe.judged_pixel.unwrap_or(probe.pixel);
    let bits = probe
        .observed_bits
        .get(index)
        .filter(|_| pixel == probe.pixel)
        .map(|b| format!(" ({b})"))
        .unwrap_or_default();
    let reference = a
        .reference
        .map(|r| format!(", reference {}", number(r)))
        .unwrap_or_default();
    format!(
        "probe line {} at ({}, {}) {}: observed {}{bits}{reference}; mediump (binary16) {}, \
         highp (binary32) {}; H [{}, {}], M [{}, {}]: {}",
        probe.line,
        pixel[0],
        pixel[1],
        CHANNELS.get(index).copied().unwrap_or("?"),
        number(a.observed),
        number(a.mediump),
        number(a.highp),
        number(a.highp_bounds.lo),
        number(a.highp_bounds.hi),
        number(a.mediump_bounds.lo),
        number(a.mediump_bounds.hi),
        channel_verdict(a.verdict),
    )
}

/// The name `results.json` gives a channel verdict.
fn channel_verdict(verdict: ChannelVerdict) -> String {
    serde_json::to_value(verdict)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{verdict:?}"))
}

/// A float as short as it reads back exactly: a value that is a binary32 prints as one
/// (`0.33333334`, not `0.3333333432674408`), `1.0` not `1`.
pub(crate) fn number(x: f64) -> String {
    let single = x as f32;
    if f64::from(single) == x || x.is_nan() {
        format!("{single:?}")
    } else {
        format!("{x:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Interval, Status};

    fn analysis(observed: f64, verdict: ChannelVerdict) -> ChannelAnalysis {
        ChannelAnalysis {
            observed,
            highp: f64::from(1.0f32 / 3.0),
            mediump: 0.25,
            mediump_spec: 0.25,
            exact: 1.0 / 3.0,
            highp_bounds: Interval::new(0.3333, 0.3334),
            mediump_bounds: Interval::new(0.2, 0.4),
            verdict,
            matches_mediump: observed == 0.25,
            ulp16_error: 0.0,
            ulp32_error: 0.0,
            operation_error: None,
            ..ChannelAnalysis::default()
        }
    }

    #[test]
    fn a_channel_line_shows_the_observed_float_and_both_predictions() {
        let mut result = TestResult::with_status(Status::Pass, "");
        result.reason = None;
        result.probes.push(ProbeResult {
            line: 32,
            pixel: [0, 0],
            expected: vec![1.0, 0.25],
            tolerance: vec![0.01, 0.01],
            observed: vec![1.0, 0.25],
            observed_bits: vec!["0x3f800000".into(), "0x3e800000".into()],
            observed_unorm8: vec![1.0, f64::from(64.0f32 / 255.0)],
            pass: true,
            channels: vec![
                analysis(1.0, ChannelVerdict::KeptHighp),
                analysis(0.25, ChannelVerdict::Lowered),
            ],
            ..ProbeResult::default()
        });
        let lines = lines(&result);
        assert_eq!(
            lines[0],
            "probe line 32 at (0, 0) g: observed 0.25 (0x3e800000); mediump (binary16) 0.25, \
             highp (binary32) 0.33333334; H [0.3333, 0.3334], M [0.2, 0.4]: lowered"
        );
        assert!(lines[1].ends_with("kept-highp"), "{}", lines[1]);
    }

    #[test]
    fn a_failed_probe_shows_expected_observed_and_the_8_bit_view() {
        let mut result = TestResult::with_status(Status::Fail, "probe at line 9 failed\nmore");
        result.probes.push(ProbeResult {
            line: 9,
            pixel: [3, 4],
            expected: vec![0.5],
            tolerance: vec![0.01],
            observed: vec![0.25],
            observed_bits: vec!["0x3e800000".into()],
            observed_unorm8: vec![f64::from(64.0f32 / 255.0)],
            pass: false,
            ..ProbeResult::default()
        });
        assert_eq!(
            lines(&result),
            [
                "probe line 9 at (3, 4) failed: expected [0.5], observed [0.25] (8-bit view \
              [0.2509804]), tolerance [0.01]"
            ]
        );
    }
}
