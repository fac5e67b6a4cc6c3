//! Probes as piglit judges them: the region a probe reads (piglit's float-to-int truncation),
//! the 8-bit view of a float, the pass/fail verdict with per-channel tolerance, integer
//! probes (exact) and buffer probes (a comparison).
//!
//! Piglit on GL ES reads `GL_UNSIGNED_BYTE`, turns each byte into `b / 255.0f` and fails a
//! pixel when `|observed - expected| > tolerance` for any probed channel (all in `float`),
//! with a default tolerance of 0.01 per channel. A backend with exact floats records them and
//! judges what an RGBA8 framebuffer would have held: clamp to [0, 1], round to nearest (even)
//! of `x * 255`. Rect and `all` probes report the first failing pixel, else the first pixel;
//! with exact floats they also keep every pixel's values for the verdict.

use crate::shader_test::{
    BufferProbe, BufferValue, Comparison, Probe, ProbeRegion, ProbedBuffer, Scalar,
};
use halfcheck_results::ProbeResult;

/// Piglit's default per-channel tolerance.
pub const DEFAULT_TOLERANCE: [f64; 4] = [0.01; 4];

/// A pixel rectangle `x y w h` inside the framebuffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// Left column.
    pub x: u32,
    /// Bottom row.
    pub y: u32,
    /// Width in pixels (at least 1).
    pub w: u32,
    /// Height in pixels (at least 1).
    pub h: u32,
}

/// Why a probe cannot run, in piglit's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegionError {
    /// The probe lists fewer expected values than it has channels.
    #[error("probe expects {expected} values, got {got}")]
    TooFewValues {
        /// The channels probed.
        expected: usize,
        /// The values given.
        got: usize,
    },
    /// The region is empty or reaches outside the framebuffer.
    #[error(
        "probe region ({}, {}, {}, {}) is outside the {width}x{height} framebuffer",
        rect[0], rect[1], rect[2], rect[3]
    )]
    Outside {
        /// x, y, width and height, as the probe names them in pixels.
        rect: [i64; 4],
        /// The framebuffer's width.
        width: u32,
        /// The framebuffer's height.
        height: u32,
    },
}

/// The region `probe` reads in a `width` x `height` framebuffer, or why it cannot run (too
/// few expected values, a region outside the framebuffer), in piglit's words.
pub fn region(probe: &Probe, width: u32, height: u32) -> Result<Region, RegionError> {
    let channels = usize::from(probe.channels).clamp(1, 4);
    if probe.expected.len() < channels {
        return Err(RegionError::TooFewValues {
            expected: channels,
            got: probe.expected.len(),
        });
    }
    let (x, y, w, h) = raw_region(probe, width, height);
    let inside = x >= 0
        && y >= 0
        && w > 0
        && h > 0
        && x + w <= i64::from(width)
        && y + h <= i64::from(height);
    if !inside {
        return Err(RegionError::Outside {
            rect: [x, y, w, h],
            width,
            height,
        });
    }
    Ok(Region {
        x: x as u32,
        y: y as u32,
        w: w as u32,
        h: h as u32,
    })
}

/// The pixel rectangle a probe names, with piglit's float-to-int truncation.
fn raw_region(probe: &Probe, width: u32, height: u32) -> (i64, i64, i64, i64) {
    let (fw, fh) = (width as f32, height as f32);
    match (probe.region, probe.relative) {
        (ProbeRegion::All, _) => (0, 0, i64::from(width), i64::from(height)),
        (ProbeRegion::Point([x, y]), false) => (x as f32 as i64, y as f32 as i64, 1, 1),
        (ProbeRegion::Point([x, y]), true) => {
            let px = ((x as f32 * fw) as i64).min(i64::from(width) - 1);
            let py = ((y as f32 * fh) as i64).min(i64::from(height) - 1);
            (px, py, 1, 1)
        }
        (ProbeRegion::Rect([x, y, w, h]), false) => (x as i64, y as i64, w as i64, h as i64),
        (ProbeRegion::Rect([x, y, w, h]), true) => (
            (x as f32 * fw) as i64,
            (y as f32 * fh) as i64,
            (w as f32 * fw) as i64,
            (h as f32 * fh) as i64,
        ),
    }
}

/// Judges the RGBA `pixels` (row by row, bottom row first) read from `region`. `float_target`
/// says they are exact floats (judged on their 8-bit view, and kept in the result) rather than
/// already 8-bit values.
pub fn judge(
    probe: &Probe,
    line: usize,
    tolerance: &[f64; 4],
    region: Region,
    pixels: Vec<f32>,
    float_target: bool,
) -> ProbeResult {
    let channels = usize::from(probe.channels).clamp(1, 4);
    let expected: Vec<f32> = probe
        .expected
        .iter()
        .take(channels)
        .map(|&e| e as f32)
        .collect();
    let shown = |v: f32| if float_target { unorm8(v) } else { v };
    let view = |p: &[f32]| -> Vec<f32> { p.iter().take(channels).map(|&v| shown(v)).collect() };
    let fails = |p: &[f32]| {
        p.iter()
            .zip(&expected)
            .zip(tolerance)
            .any(|((&o, e), t)| (shown(o) - e).abs() > *t as f32)
    };
    // A pixel equal to the one before it passes as that one did (the search stops at a
    // failure), so a region of one colour is judged at its first pixel.
    let mut previous: &[f32] = &[];
    let failing = pixels.chunks_exact(4).position(|p| {
        let same = p == previous;
        previous = p;
        !same && fails(p)
    });
    let index = failing.unwrap_or(0);
    let pixel = pixels.chunks_exact(4).nth(index).unwrap_or(&[0.0; 4]);
    let observed: Vec<f32> = pixel.iter().take(channels).copied().collect();
    let observed_unorm8 = view(pixel).into_iter().map(f64::from).collect();
    let w = region.w.max(1) as usize;
    ProbeResult {
        line,
        pixel: [region.x + (index % w) as u32, region.y + (index / w) as u32],
        expected: probe.expected.iter().take(channels).copied().collect(),
        tolerance: tolerance[..channels].to_vec(),
        observed_bits: observed
            .iter()
            .map(|v| format!("0x{:08x}", v.to_bits()))
            .collect(),
        observed_unorm8,
        observed,
        pass: failing.is_none(),
        region: Some([region.x, region.y, region.w, region.h]),
        region_observed: if float_target { pixels } else { Vec::new() },
        channels: Vec::new(),
        judged_pixel: None,
        pixels_judged: 0,
        pixels_lowered: 0,
    }
}

/// Judges the RGBA integer `pixels` of an integer framebuffer (`probe ... rgba int`):
/// every probed channel must equal the expected value exactly, as in piglit's
/// `piglit_probe_rect_rgba_int`. The result records the integers as floats (exact below
/// 2^24), their 32-bit two's complement bits, and the integers again as the judged view.
pub fn judge_integers(probe: &Probe, line: usize, region: Region, pixels: &[i64]) -> ProbeResult {
    let channels = usize::from(probe.channels).clamp(1, 4);
    let fails = |p: &[i64]| {
        p.iter()
            .zip(&probe.expected)
            .take(channels)
            .any(|(&o, &e)| o as f64 != e)
    };
    let failing = pixels.chunks_exact(4).position(fails);
    let index = failing.unwrap_or(0);
    let pixel = pixels.chunks_exact(4).nth(index).unwrap_or(&[0; 4]);
    let observed: Vec<i64> = pixel.iter().take(channels).copied().collect();
    let w = region.w.max(1) as usize;
    ProbeResult {
        line,
        pixel: [region.x + (index % w) as u32, region.y + (index / w) as u32],
        expected: probe.expected.iter().take(channels).copied().collect(),
        tolerance: vec![0.0; channels],
        observed_bits: observed
            .iter()
            .map(|&v| format!("0x{:08x}", v as u32))
            .collect(),
        observed_unorm8: observed.iter().map(|&v| v as f64).collect(),
        observed: observed.iter().map(|&v| v as f32).collect(),
        pass: failing.is_none(),
        region: Some([region.x, region.y, region.w, region.h]),
        region_observed: Vec::new(),
        channels: Vec::new(),
        judged_pixel: None,
        pixels_judged: 0,
        pixels_lowered: 0,
    }
}

/// Whether a buffer probe holds for the 4 `bytes` read, or why not. Comparisons are
/// piglit's (`parse_comparison_op`), which reads `!=` as `>`: observed greater than expected.
pub fn buffer_holds(probe: &BufferProbe, bytes: [u8; 4]) -> Result<(), String> {
    let (observed, expected, holds) = match (probe.buffer, probe.expected) {
        (
            ProbedBuffer::Ssbo {
                ty: BufferValue::Float,
                ..
            },
            Scalar::Float(e),
        ) => {
            let o = f32::from_ne_bytes(bytes);
            (o.to_string(), e.to_string(), compare(probe.op, o, e as f32))
        }
        (
            ProbedBuffer::Ssbo {
                ty: BufferValue::Int,
                ..
            },
            Scalar::Int(e),
        ) => {
            let o = i32::from_ne_bytes(bytes);
            (o.to_string(), e.to_string(), compare(probe.op, o, e as i32))
        }
        (_, Scalar::Uint(e)) => {
            let o = u32::from_ne_bytes(bytes);
            (o.to_string(), e.to_string(), compare(probe.op, o, e as u32))
        }
        (_, e) => {
            return Err(format!(
                "expected value {e:?} does not fit {:?}",
                probe.buffer
            ))
        }
    };
    if holds {
        return Ok(());
    }
    let what = match probe.buffer {
        ProbedBuffer::Ssbo {
            binding, offset, ..
        } => {
            format!("ssbo {binding} at byte {offset}")
        }
        ProbedBuffer::AtomicCounter { binding, offset } => {
            format!("atomic counter at binding {binding}, byte {offset}")
        }
    };
    Err(format!(
        "{what} is {observed}, expected {} {expected}",
        op_text(probe.op)
    ))
}

/// `observed OP expected` as piglit compares (`!=` meaning `>`).
fn compare<T: PartialOrd>(op: Comparison, observed: T, expected: T) -> bool {
    match op {
        Comparison::NotEqual => observed > expected,
        other => other.holds(observed, expected),
    }
}

fn op_text(op: Comparison) -> &'static str {
    match op {
        Comparison::Less => "<",
        Comparison::LessEqual => "<=",
        Comparison::Equal => "==",
        Comparison::NotEqual => "!= (piglit: >)",
        Comparison::GreaterEqual => ">=",
        Comparison::Greater => ">",
    }
}

/// The reason a failed probe gives, as the backends report it, in the words of
/// `results.json`: `observed` is the exact value read back, `8-bit view` what piglit's RGBA8
/// framebuffer would hold (left out where it is the observed value, as for integers).
pub fn failure_reason(result: &ProbeResult) -> String {
    let view: Vec<f32> = result.observed_unorm8.iter().map(|&v| v as f32).collect();
    let shown = if view == result.observed {
        String::new()
    } else {
        format!(" (8-bit view {view:?})")
    };
    format!(
        "probe at line {} failed at ({}, {}): expected {:?}, observed {:?}{shown}",
        result.line, result.pixel[0], result.pixel[1], result.expected, result.observed
    )
}

/// What an 8-bit UNORM channel holds after storing `value`, as piglit reads it back.
pub fn unorm8(value: f32) -> f32 {
    let clamped = if value.is_nan() {
        0.0
    } else {
        value.clamp(0.0, 1.0)
    };
    (clamped * 255.0).round_ties_even() / 255.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unorm8_clamps_and_rounds_like_an_rgba8_framebuffer() {
        assert_eq!(unorm8(0.25), 64.0 / 255.0);
        assert_eq!(unorm8(0.333_251_95), 85.0 / 255.0);
        assert_eq!(unorm8(-1.0), 0.0);
        assert_eq!(unorm8(7.0), 1.0);
        assert_eq!(unorm8(f32::NAN), 0.0);
    }

    #[test]
    fn relative_probes_truncate_and_clamp_like_piglit() {
        let probe = Probe {
            region: ProbeRegion::Point([1.0, 0.5]),
            relative: true,
            channels: 4,
            integer: false,
            warn_only: false,
            expected: vec![0.0; 4],
        };
        let r = region(&probe, 250, 250).unwrap();
        assert_eq!((r.x, r.y, r.w, r.h), (249, 125, 1, 1));
    }

    #[test]
    fn a_probe_outside_the_framebuffer_is_refused() {
        let probe = Probe {
            region: ProbeRegion::Rect([240.0, 0.0, 20.0, 1.0]),
            relative: false,
            channels: 3,
            integer: false,
            warn_only: false,
            expected: vec![0.0; 3],
        };
        assert!(region(&probe, 250, 250).is_err());
    }
}
