//! Fixed-function state commands: `enable`, `disable`, `blend func`, and the bits of
//! `memory barrier`.
//!
//! Names are GL enum names as piglit writes them. Capabilities GL ES lacks (user clip
//! planes without `GL_EXT_clip_cull_distance`, depth clamp without `GL_EXT_depth_clamp`,
//! two-sided vertex programs) skip the test; `GL_PROGRAM_POINT_SIZE` is always on in ES.

use super::context::ContextInfo;
use super::Stop;
use glow::HasContext;

/// `GL_CLIP_DISTANCE0_EXT` from `GL_EXT_clip_cull_distance` (`GL_CLIP_PLANE0`'s value).
pub(super) const CLIP_DISTANCE0_EXT: u32 = 0x3000;

/// `GL_DEPTH_CLAMP_EXT` from `GL_EXT_depth_clamp`.
const DEPTH_CLAMP_EXT: u32 = 0x864F;

/// `enable CAP` (`on` true) or `disable CAP`.
pub(super) fn enable(
    gl: &glow::Context,
    info: &ContextInfo,
    name: &str,
    on: bool,
) -> Result<(), Stop> {
    let cap = match name {
        "GL_PROGRAM_POINT_SIZE" => return Ok(()),
        "GL_DEPTH_CLAMP" if info.has("GL_EXT_depth_clamp") => DEPTH_CLAMP_EXT,
        "GL_DEPTH_CLAMP" | "GL_VERTEX_PROGRAM_TWO_SIDE" => {
            return Err(Stop::skip(format!(
                "{name} is not available on this GL ES context"
            )))
        }
        _ => match clip_plane(name) {
            Some(_) if !info.has("GL_EXT_clip_cull_distance") => {
                return Err(Stop::skip(format!(
                    "{name} needs GL_EXT_clip_cull_distance"
                )))
            }
            Some(plane) => CLIP_DISTANCE0_EXT + plane,
            None => capability(name)
                .ok_or_else(|| Stop::fail(format!("Bad enable/disable enum at: {name}")))?,
        },
    };
    // SAFETY: toggling a capability of the current context.
    unsafe {
        if on {
            gl.enable(cap);
        } else {
            gl.disable(cap);
        }
    }
    Ok(())
}

fn clip_plane(name: &str) -> Option<u32> {
    let plane: u32 = name.strip_prefix("GL_CLIP_PLANE")?.parse().ok()?;
    (plane < 8).then_some(plane)
}

fn capability(name: &str) -> Option<u32> {
    Some(match name {
        "GL_DEPTH_TEST" => glow::DEPTH_TEST,
        "GL_BLEND" => glow::BLEND,
        "GL_CULL_FACE" => glow::CULL_FACE,
        "GL_SCISSOR_TEST" => glow::SCISSOR_TEST,
        "GL_STENCIL_TEST" => glow::STENCIL_TEST,
        "GL_DITHER" => glow::DITHER,
        "GL_POLYGON_OFFSET_FILL" => glow::POLYGON_OFFSET_FILL,
        "GL_RASTERIZER_DISCARD" => glow::RASTERIZER_DISCARD,
        "GL_SAMPLE_ALPHA_TO_COVERAGE" => glow::SAMPLE_ALPHA_TO_COVERAGE,
        "GL_SAMPLE_COVERAGE" => glow::SAMPLE_COVERAGE,
        "GL_PRIMITIVE_RESTART_FIXED_INDEX" => glow::PRIMITIVE_RESTART_FIXED_INDEX,
        _ => return None,
    })
}

/// `blend func SRC DST`.
pub(super) fn blend_func(gl: &glow::Context, src: &str, dst: &str) -> Result<(), Stop> {
    let factor = |name: &str| {
        blend_factor(name).ok_or_else(|| Stop::fail(format!("bad blend factor {name}")))
    };
    let (src, dst) = (factor(src)?, factor(dst)?);
    // SAFETY: setting blend factors of the current context.
    unsafe { gl.blend_func(src, dst) };
    Ok(())
}

fn blend_factor(name: &str) -> Option<u32> {
    Some(match name.strip_prefix("GL_").unwrap_or(name) {
        "ZERO" => glow::ZERO,
        "ONE" => glow::ONE,
        "SRC_COLOR" => glow::SRC_COLOR,
        "ONE_MINUS_SRC_COLOR" => glow::ONE_MINUS_SRC_COLOR,
        "DST_COLOR" => glow::DST_COLOR,
        "ONE_MINUS_DST_COLOR" => glow::ONE_MINUS_DST_COLOR,
        "SRC_ALPHA" => glow::SRC_ALPHA,
        "ONE_MINUS_SRC_ALPHA" => glow::ONE_MINUS_SRC_ALPHA,
        "DST_ALPHA" => glow::DST_ALPHA,
        "ONE_MINUS_DST_ALPHA" => glow::ONE_MINUS_DST_ALPHA,
        "CONSTANT_COLOR" => glow::CONSTANT_COLOR,
        "ONE_MINUS_CONSTANT_COLOR" => glow::ONE_MINUS_CONSTANT_COLOR,
        "CONSTANT_ALPHA" => glow::CONSTANT_ALPHA,
        "ONE_MINUS_CONSTANT_ALPHA" => glow::ONE_MINUS_CONSTANT_ALPHA,
        "SRC_ALPHA_SATURATE" => glow::SRC_ALPHA_SATURATE,
        _ => return None,
    })
}

/// The `glMemoryBarrier` bits piglit names (`GL_SHADER_STORAGE_BARRIER_BIT`, ...).
pub(super) fn barrier_bits(name: &str) -> Option<u32> {
    Some(match name {
        "GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT" => glow::VERTEX_ATTRIB_ARRAY_BARRIER_BIT,
        "GL_ELEMENT_ARRAY_BARRIER_BIT" => glow::ELEMENT_ARRAY_BARRIER_BIT,
        "GL_UNIFORM_BARRIER_BIT" => glow::UNIFORM_BARRIER_BIT,
        "GL_TEXTURE_FETCH_BARRIER_BIT" => glow::TEXTURE_FETCH_BARRIER_BIT,
        "GL_SHADER_IMAGE_ACCESS_BARRIER_BIT" => glow::SHADER_IMAGE_ACCESS_BARRIER_BIT,
        "GL_COMMAND_BARRIER_BIT" => glow::COMMAND_BARRIER_BIT,
        "GL_PIXEL_BUFFER_BARRIER_BIT" => glow::PIXEL_BUFFER_BARRIER_BIT,
        "GL_TEXTURE_UPDATE_BARRIER_BIT" => glow::TEXTURE_UPDATE_BARRIER_BIT,
        "GL_BUFFER_UPDATE_BARRIER_BIT" => glow::BUFFER_UPDATE_BARRIER_BIT,
        "GL_FRAMEBUFFER_BARRIER_BIT" => glow::FRAMEBUFFER_BARRIER_BIT,
        "GL_TRANSFORM_FEEDBACK_BARRIER_BIT" => glow::TRANSFORM_FEEDBACK_BARRIER_BIT,
        "GL_ATOMIC_COUNTER_BARRIER_BIT" => glow::ATOMIC_COUNTER_BARRIER_BIT,
        "GL_SHADER_STORAGE_BARRIER_BIT" => glow::SHADER_STORAGE_BARRIER_BIT,
        "GL_ALL_BARRIER_BITS" => glow::ALL_BARRIER_BITS,
        _ => return None,
    })
}
