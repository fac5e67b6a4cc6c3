//! Reading pixels back for probes: exactly from a float target, as piglit does from an 8-bit
//! one, and as integers from an integer one.
//!
//! The window is RGBA32F, so probes get the exact float the shader wrote; the region and the
//! verdict on the 8-bit view are the command loop's (`backend::piglit`).

use super::formats::Readout;
use super::target::Target;
use super::Stop;
use glow::{HasContext, PixelPackData};
use halfcheck_piglit::device::Readback;
use halfcheck_piglit::probe::Region;

/// Reads the RGBA pixels of `region` of the bound read framebuffer as floats: exact for a
/// float target, `b / 255` for a normalised one.
pub(super) fn read(gl: &glow::Context, target: &Target, region: Region) -> Result<Readback, Stop> {
    match target.readout {
        Readout::Float => Ok(Readback {
            values: pixels(gl, region, glow::RGBA, glow::FLOAT)
                .chunks_exact(4)
                .map(|b| f32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
            exact: true,
        }),
        Readout::Unorm => Ok(Readback {
            values: pixels(gl, region, glow::RGBA, glow::UNSIGNED_BYTE)
                .iter()
                .map(|&b| f32::from(b) / 255.0)
                .collect(),
            exact: false,
        }),
        Readout::Int | Readout::Uint => Err(Stop::fail(
            "a colour probe on an integer framebuffer (piglit reads it with 'probe ... int')",
        )),
    }
}

/// Reads the RGBA pixels of `region` of the bound integer read framebuffer.
pub(super) fn read_integers(
    gl: &glow::Context,
    target: &Target,
    region: Region,
) -> Result<Vec<i64>, Stop> {
    let words = |ty| {
        pixels(gl, region, glow::RGBA_INTEGER, ty)
            .chunks_exact(4)
            .map(|b| [b[0], b[1], b[2], b[3]])
            .collect::<Vec<_>>()
    };
    match target.readout {
        Readout::Int => Ok(words(glow::INT)
            .into_iter()
            .map(|b| i64::from(i32::from_ne_bytes(b)))
            .collect()),
        Readout::Uint => Ok(words(glow::UNSIGNED_INT)
            .into_iter()
            .map(|b| i64::from(u32::from_ne_bytes(b)))
            .collect()),
        Readout::Float | Readout::Unorm => Err(Stop::fail(
            "an integer probe on a framebuffer that does not hold integers",
        )),
    }
}

/// `glReadPixels` of `region` in `format`/`ty` (4 channels; 1 or 4 bytes each).
fn pixels(gl: &glow::Context, region: Region, format: u32, ty: u32) -> Vec<u8> {
    let size = if ty == glow::UNSIGNED_BYTE { 1 } else { 4 };
    let mut bytes = vec![0u8; region.w as usize * region.h as usize * 4 * size];
    // SAFETY: the buffer holds exactly w * h RGBA pixels of `ty`, and the region lies inside
    // the bound read framebuffer.
    unsafe {
        gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
        gl.read_pixels(
            region.x as i32,
            region.y as i32,
            region.w as i32,
            region.h as i32,
            format,
            ty,
            PixelPackData::Slice(Some(&mut bytes)),
        );
    }
    bytes
}
