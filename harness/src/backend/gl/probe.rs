//! Probes: read pixels back exactly and judge them as piglit would on an 8-bit framebuffer.
//!
//! Piglit on GL ES reads `GL_UNSIGNED_BYTE`, turns each byte into `b / 255.0f` and fails a
//! pixel when `|observed - expected| > tolerance` for any probed channel (all in `float`),
//! with a default tolerance of 0.01 per channel. Here the window is RGBA32F, so the exact
//! float the shader wrote is recorded with its bits, and the verdict uses what an RGBA8
//! framebuffer would have held: clamp to [0, 1], round to nearest (even) of `x * 255`.
//! Rect and `all` probes report the first failing pixel, else the first pixel.

use super::target::Target;
use super::Stop;
use crate::results::ProbeResult;
use crate::shader_test::{Probe, ProbeRegion};
use glow::{HasContext, PixelPackData};

/// Piglit's default per-channel tolerance.
pub const DEFAULT_TOLERANCE: [f64; 4] = [0.01; 4];

/// Runs one probe against the current target.
pub fn run(
    gl: &glow::Context,
    target: &Target,
    probe: &Probe,
    line: usize,
    tolerance: &[f64; 4],
) -> Result<ProbeResult, Stop> {
    let channels = usize::from(probe.channels).clamp(1, 4);
    if probe.expected.len() < channels {
        return Err(Stop::fail(format!(
            "probe expects {channels} values, got {}",
            probe.expected.len()
        )));
    }
    let (x, y, w, h) = region(probe, target.width, target.height);
    let inside = x >= 0
        && y >= 0
        && w > 0
        && h > 0
        && x + w <= target.width as i64
        && y + h <= target.height as i64;
    if !inside {
        return Err(Stop::fail(format!(
            "probe region ({x}, {y}, {w}, {h}) is outside the {}x{} framebuffer",
            target.width, target.height
        )));
    }
    let pixels = read(gl, target, x as i32, y as i32, w as i32, h as i32);
    let expected: Vec<f32> = probe.expected[..channels]
        .iter()
        .map(|&e| e as f32)
        .collect();
    let view = |p: &[f32]| -> Vec<f32> {
        p[..channels]
            .iter()
            .map(|&v| if target.float { unorm8(v) } else { v })
            .collect()
    };
    let fails = |p: &[f32]| {
        view(p)
            .iter()
            .zip(&expected)
            .zip(tolerance)
            .any(|((o, e), t)| (o - e).abs() > *t as f32)
    };
    let chunks: Vec<&[f32]> = pixels.chunks_exact(4).collect();
    let failing = chunks.iter().position(|p| fails(p));
    let index = failing.unwrap_or(0);
    let pixel = chunks.get(index).copied().unwrap_or(&[0.0; 4]);
    let observed = pixel[..channels].to_vec();
    Ok(ProbeResult {
        line,
        pixel: [
            (x as usize + index % w as usize) as u32,
            (y as usize + index / w as usize) as u32,
        ],
        expected: probe.expected[..channels].to_vec(),
        tolerance: tolerance[..channels].to_vec(),
        observed_bits: observed
            .iter()
            .map(|v| format!("0x{:08x}", v.to_bits()))
            .collect(),
        observed_unorm8: view(pixel).into_iter().map(f64::from).collect(),
        observed,
        pass: failing.is_none(),
        channels: Vec::new(),
    })
}

/// The pixel rectangle a probe reads, with piglit's float-to-int truncation.
fn region(probe: &Probe, width: u32, height: u32) -> (i64, i64, i64, i64) {
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

/// Reads RGBA pixels as floats: exact for a float target, `b / 255` for an 8-bit one.
fn read(gl: &glow::Context, target: &Target, x: i32, y: i32, w: i32, h: i32) -> Vec<f32> {
    let count = w as usize * h as usize * 4;
    // SAFETY: the buffers hold exactly w * h RGBA pixels of the requested type, and the
    // region lies inside the bound framebuffer.
    unsafe {
        gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
        if target.float {
            let mut bytes = vec![0u8; count * 4];
            gl.read_pixels(
                x,
                y,
                w,
                h,
                glow::RGBA,
                glow::FLOAT,
                PixelPackData::Slice(Some(&mut bytes)),
            );
            bytes
                .chunks_exact(4)
                .map(|b| f32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        } else {
            let mut bytes = vec![0u8; count];
            gl.read_pixels(
                x,
                y,
                w,
                h,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                PixelPackData::Slice(Some(&mut bytes)),
            );
            bytes.iter().map(|&b| f32::from(b) / 255.0).collect()
        }
    }
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
        assert_eq!(region(&probe, 250, 250), (249, 125, 1, 1));
    }
}
