//! Probes: read pixels back exactly and judge them as piglit would on an 8-bit framebuffer.
//!
//! The window is RGBA32F, so the exact float the shader wrote is recorded with its bits; the
//! region and the verdict on the 8-bit view are piglit's (`backend::piglit::probe`).

use super::target::Target;
use super::Stop;
use crate::backend::piglit::probe::{judge, region};
use crate::results::ProbeResult;
use crate::shader_test::Probe;
use glow::{HasContext, PixelPackData};

/// Runs one probe against the current target.
pub fn run(
    gl: &glow::Context,
    target: &Target,
    probe: &Probe,
    line: usize,
    tolerance: &[f64; 4],
) -> Result<ProbeResult, Stop> {
    let r = region(probe, target.width, target.height).map_err(Stop::fail)?;
    let pixels = read(gl, target, r.x as i32, r.y as i32, r.w as i32, r.h as i32);
    Ok(judge(probe, line, tolerance, r, &pixels, target.float))
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
