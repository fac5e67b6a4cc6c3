//! The framebuffers a test draws into and probes read from.
//!
//! The window is an FBO the size piglit would use, with an RGBA32F colour attachment when
//! the context can render to one (`GL_EXT_color_buffer_float` or ES 3.2), so probes read the
//! exact floats the shader wrote; otherwise RGBA8. It has a 24-bit depth / 8-bit stencil
//! buffer. `fb tex 2d` switches to an FBO around a test texture.

use super::context::ContextInfo;
use super::textures::Texture;
use super::Stop;
use glow::HasContext;

/// A bound framebuffer and what reading it gives.
pub struct Target {
    /// The FBO, bound to `GL_FRAMEBUFFER` while it is current.
    pub framebuffer: glow::Framebuffer,
    /// Width probes read (piglit's `read_width`).
    pub width: u32,
    /// Height probes read.
    pub height: u32,
    /// True when the colour attachment is RGBA32F (read back as floats).
    pub float: bool,
    renderbuffers: Vec<glow::Renderbuffer>,
}

impl Target {
    /// The window FBO, bound, cleared to zero colour and depth 1, viewport set.
    pub fn window(
        gl: &glow::Context,
        info: &ContextInfo,
        width: u32,
        height: u32,
    ) -> Result<Target, Stop> {
        let float_ok = info.has("GL_EXT_color_buffer_float") || info.es_at_least(3, 2);
        let formats: &[(u32, bool)] = if float_ok {
            &[(glow::RGBA32F, true), (glow::RGBA8, false)]
        } else {
            &[(glow::RGBA8, false)]
        };
        let mut last = Stop::fail("no framebuffer format is complete");
        for &(format, float) in formats {
            match window_with(gl, format, float, width, height) {
                Ok(target) => return Ok(target),
                Err(stop) => last = stop,
            }
        }
        Err(last)
    }

    /// `fb tex 2d`: an FBO drawing into `textures` (one colour attachment each), bound;
    /// reads then come from attachment 0, with the size of the last texture, as in piglit.
    pub fn textures(gl: &glow::Context, textures: &[Texture]) -> Result<Target, Stop> {
        let last = textures
            .last()
            .ok_or_else(|| Stop::fail("fb tex 2d names no texture"))?;
        // SAFETY: creating and binding an FBO around a texture of this context.
        unsafe {
            let framebuffer = gl.create_framebuffer().map_err(Stop::error)?;
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
            let mut attachments = Vec::new();
            for (i, texture) in (0u32..).zip(textures) {
                let attachment = glow::COLOR_ATTACHMENT0 + i;
                gl.framebuffer_texture_2d(
                    glow::FRAMEBUFFER,
                    attachment,
                    glow::TEXTURE_2D,
                    Some(texture.object),
                    0,
                );
                attachments.push(attachment);
            }
            gl.draw_buffers(&attachments);
            let target = Target {
                framebuffer,
                width: last.width,
                height: last.height,
                float: false,
                renderbuffers: Vec::new(),
            };
            complete(gl, target)
        }
    }

    /// Deletes the FBO and its renderbuffers.
    pub fn delete(self, gl: &glow::Context) {
        // SAFETY: the objects were created on this context.
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            gl.delete_framebuffer(self.framebuffer);
            for renderbuffer in self.renderbuffers {
                gl.delete_renderbuffer(renderbuffer);
            }
        }
    }
}

fn window_with(
    gl: &glow::Context,
    format: u32,
    float: bool,
    width: u32,
    height: u32,
) -> Result<Target, Stop> {
    let (w, h) = (width as i32, height as i32);
    // SAFETY: creating an FBO with two renderbuffers of a checked size on this context.
    unsafe {
        let framebuffer = gl.create_framebuffer().map_err(Stop::error)?;
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
        let mut renderbuffers = Vec::new();
        for (storage, attachment) in [
            (format, glow::COLOR_ATTACHMENT0),
            (glow::DEPTH24_STENCIL8, glow::DEPTH_STENCIL_ATTACHMENT),
        ] {
            let renderbuffer = gl.create_renderbuffer().map_err(Stop::error)?;
            renderbuffers.push(renderbuffer);
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(renderbuffer));
            gl.renderbuffer_storage(glow::RENDERBUFFER, storage, w, h);
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                attachment,
                glow::RENDERBUFFER,
                Some(renderbuffer),
            );
        }
        gl.bind_renderbuffer(glow::RENDERBUFFER, None);
        let target = Target {
            framebuffer,
            width,
            height,
            float,
            renderbuffers,
        };
        let target = complete(gl, target)?;
        gl.viewport(0, 0, w, h);
        gl.clear_color(0.0, 0.0, 0.0, 0.0);
        gl.clear_depth_f32(1.0);
        gl.clear_stencil(0);
        gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT | glow::STENCIL_BUFFER_BIT);
        Ok(target)
    }
}

fn complete(gl: &glow::Context, target: Target) -> Result<Target, Stop> {
    // SAFETY: a status query on the bound FBO.
    let status = unsafe { gl.check_framebuffer_status(glow::FRAMEBUFFER) };
    if status == glow::FRAMEBUFFER_COMPLETE {
        return Ok(target);
    }
    target.delete(gl);
    Err(Stop::fail(format!(
        "incomplete framebuffer (status 0x{status:x})"
    )))
}
