//! Reading pixels back for probes: exactly from a float target.
//!
//! The window is RGBA32F, so probes get the exact float the shader wrote; the region and the
//! verdict on the 8-bit view are the command loop's (`backend::piglit`).

use super::target::Target;
use crate::backend::piglit::device::Readback;
use crate::backend::piglit::probe::Region;
use glow::{HasContext, PixelPackData};

/// Reads the RGBA pixels of `region` as floats: exact for a float target, `b / 255` for an
/// 8-bit one.
pub fn read(gl: &glow::Context, target: &Target, region: Region) -> Readback {
    let (x, y, w, h) = (
        region.x as i32,
        region.y as i32,
        region.w as i32,
        region.h as i32,
    );
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
            let values = bytes
                .chunks_exact(4)
                .map(|b| f32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            Readback {
                values,
                exact: true,
            }
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
            Readback {
                values: bytes.iter().map(|&b| f32::from(b) / 255.0).collect(),
                exact: false,
            }
        }
    }
}
