//! The framebuffers a test draws into and probes read from.
//!
//! The window is an FBO the size piglit would use, with an RGBA32F colour attachment when
//! the context can render to one (`GL_EXT_color_buffer_float` or ES 3.2), so probes read the
//! exact floats the shader wrote; otherwise, or when the test's verdict needs no floats (it
//! holds nothing lowp or mediump), RGBA8 as piglit's. llvmpipe compiles a fragment shader
//! for an RGBA32F target in about 3 ms more (BENCHMARKS.md). It has a 24-bit depth / 8-bit stencil
//! buffer. The `fb` commands make FBOs of one colour attachment each, as piglit does: test
//! textures (`tex 2d`, a `tex slice` of one level and layer, all layers with `tex layered`)
//! or a new multisample renderbuffer (`ms`).

use super::context::ContextInfo;
use super::formats::{self, Readout};
use super::textures::Texture;
use super::Stop;
use glow::HasContext;

/// A framebuffer and what reading it gives.
pub(super) struct Target {
    /// The FBO.
    pub framebuffer: glow::Framebuffer,
    /// Width probes read (piglit's `read_width`) and blits copy.
    pub width: u32,
    /// Height probes read.
    pub height: u32,
    /// How its colour buffer reads back.
    pub readout: Readout,
    renderbuffers: Vec<glow::Renderbuffer>,
}

impl Target {
    /// The window FBO, bound, cleared to zero colour and depth 1, viewport set: RGBA32F when
    /// `exact` asks for the floats the shaders write and the context can render to it, else
    /// RGBA8 as piglit's window is.
    pub(super) fn window(
        gl: &glow::Context,
        info: &ContextInfo,
        width: u32,
        height: u32,
        exact: bool,
    ) -> Result<Target, Stop> {
        let formats: &[(u32, Readout)] = if exact && renders_to_float(info) {
            &[
                (glow::RGBA32F, Readout::Float),
                (glow::RGBA8, Readout::Unorm),
            ]
        } else {
            &[(glow::RGBA8, Readout::Unorm)]
        };
        let mut last = Stop::fail("no framebuffer format is complete");
        for &(format, readout) in formats {
            match window_with(gl, format, readout, width, height) {
                Ok(target) => return Ok(target),
                Err(stop) => last = stop,
            }
        }
        Err(last)
    }

    /// `fb tex 2d`: an FBO bound to `binding` drawing into `textures` (one colour attachment
    /// each); reads come from attachment 0, with the size of the last texture, as in piglit.
    pub(super) fn textures(
        gl: &glow::Context,
        binding: u32,
        textures: &[Texture],
    ) -> Result<Target, Stop> {
        let last = textures
            .last()
            .ok_or_else(|| Stop::fail("fb tex 2d names no texture"))?;
        let first = textures.first().unwrap_or(last);
        let target = Target::bound(gl, binding, last.width, last.height, first.readout)?;
        // SAFETY: attaching textures of this context to the FBO just bound.
        unsafe {
            let mut attachments = Vec::new();
            for (i, texture) in (0u32..).zip(textures) {
                let attachment = glow::COLOR_ATTACHMENT0 + i;
                gl.framebuffer_texture_2d(
                    binding,
                    attachment,
                    glow::TEXTURE_2D,
                    Some(texture.object),
                    0,
                );
                attachments.push(attachment);
            }
            if binding != glow::READ_FRAMEBUFFER {
                gl.draw_buffers(&attachments);
            }
        }
        target.complete(gl, binding, "glFramebufferTexture2D")
    }

    /// `fb tex slice`: level `level` and layer `layer` (a depth slice, array layer or cube
    /// face) of `texture`, bound to `binding`.
    pub(super) fn slice(
        gl: &glow::Context,
        binding: u32,
        texture: &Texture,
        level: u32,
        layer: u32,
    ) -> Result<Target, Stop> {
        let size = |v: u32| (v >> level.min(31)).max(1);
        let target = Target::bound(
            gl,
            binding,
            size(texture.width),
            size(texture.height),
            texture.readout,
        )?;
        let (level_i, layer_i) = (level as i32, layer as i32);
        let attachment = glow::COLOR_ATTACHMENT0;
        // SAFETY: attaching one image of a texture of this context to the FBO just bound.
        unsafe {
            match texture.target {
                glow::TEXTURE_2D if layer == 0 => gl.framebuffer_texture_2d(
                    binding,
                    attachment,
                    glow::TEXTURE_2D,
                    Some(texture.object),
                    level_i,
                ),
                glow::TEXTURE_CUBE_MAP if layer < 6 => gl.framebuffer_texture_2d(
                    binding,
                    attachment,
                    glow::TEXTURE_CUBE_MAP_POSITIVE_X + layer,
                    Some(texture.object),
                    level_i,
                ),
                glow::TEXTURE_2D | glow::TEXTURE_CUBE_MAP => {
                    target.delete(gl);
                    return Err(Stop::fail(format!(
                        "fb tex slice: invalid layer index {layer}"
                    )));
                }
                _ => gl.framebuffer_texture_layer(
                    binding,
                    attachment,
                    Some(texture.object),
                    level_i,
                    layer_i,
                ),
            }
        }
        target.complete(gl, binding, "fb tex slice")
    }

    /// `fb tex layered`: every layer of level 0 of `texture`, bound to `binding`.
    pub(super) fn layered(
        gl: &glow::Context,
        binding: u32,
        texture: &Texture,
    ) -> Result<Target, Stop> {
        let target = Target::bound(gl, binding, texture.width, texture.height, texture.readout)?;
        // SAFETY: attaching a texture of this context to the FBO just bound.
        unsafe {
            gl.framebuffer_texture(binding, glow::COLOR_ATTACHMENT0, Some(texture.object), 0);
        }
        target.complete(gl, binding, "glFramebufferTexture")
    }

    /// `fb ms FORMAT W H SAMPLES`: a new multisample colour renderbuffer bound to `binding`.
    /// It cannot be read by probes; tests blit it into a texture first.
    pub(super) fn multisample(
        gl: &glow::Context,
        binding: u32,
        format: &str,
        (width, height): (u32, u32),
        samples: u32,
    ) -> Result<Target, Stop> {
        let format = formats::known(format)?;
        let too_big = || Stop::fail("fb ms: size or sample count out of range");
        let (w, h) = (
            i32::try_from(width).map_err(|_| too_big())?,
            i32::try_from(height).map_err(|_| too_big())?,
        );
        let samples = i32::try_from(samples).map_err(|_| too_big())?;
        let mut target = Target::bound(gl, binding, width, height, format.readout)?;
        // SAFETY: a renderbuffer of this context, given storage and attached to the FBO
        // just bound; deleted with the target.
        unsafe {
            let renderbuffer = gl.create_renderbuffer().map_err(Stop::error)?;
            target.renderbuffers.push(renderbuffer);
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(renderbuffer));
            gl.renderbuffer_storage_multisample(glow::RENDERBUFFER, samples, format.internal, w, h);
            gl.framebuffer_renderbuffer(
                binding,
                glow::COLOR_ATTACHMENT0,
                glow::RENDERBUFFER,
                Some(renderbuffer),
            );
            gl.bind_renderbuffer(glow::RENDERBUFFER, None);
        }
        target.complete(gl, binding, "glFramebufferRenderbuffer")
    }

    /// A new FBO bound to `binding`, nothing attached yet; GL errors before are drained.
    fn bound(
        gl: &glow::Context,
        binding: u32,
        width: u32,
        height: u32,
        readout: Readout,
    ) -> Result<Target, Stop> {
        // SAFETY: creating and binding an FBO on the current context.
        unsafe {
            while gl.get_error() != glow::NO_ERROR {}
            let framebuffer = gl.create_framebuffer().map_err(Stop::error)?;
            gl.bind_framebuffer(binding, Some(framebuffer));
            Ok(Target {
                framebuffer,
                width,
                height,
                readout,
                renderbuffers: Vec::new(),
            })
        }
    }

    /// The target when attaching raised no GL error and it is complete at `binding`, else a
    /// failure (and the target deleted), as piglit fails the test.
    fn complete(self, gl: &glow::Context, binding: u32, call: &str) -> Result<Target, Stop> {
        // SAFETY: an error and a status query on the current context.
        let (error, status) = unsafe { (gl.get_error(), gl.check_framebuffer_status(binding)) };
        let why = if error != glow::NO_ERROR {
            format!("{call} error 0x{error:x}")
        } else if status != glow::FRAMEBUFFER_COMPLETE {
            format!("incomplete framebuffer (status 0x{status:x})")
        } else {
            return Ok(self);
        };
        self.delete(gl);
        Err(Stop::fail(why))
    }

    /// Deletes the FBO and its renderbuffers.
    pub(super) fn delete(self, gl: &glow::Context) {
        // SAFETY: the objects were created on this context.
        unsafe {
            gl.delete_framebuffer(self.framebuffer);
            for renderbuffer in self.renderbuffers {
                gl.delete_renderbuffer(renderbuffer);
            }
        }
    }
}

/// Whether the context can render to RGBA32F.
pub(super) fn renders_to_float(info: &ContextInfo) -> bool {
    info.has("GL_EXT_color_buffer_float") || info.es_at_least(3, 2)
}

fn window_with(
    gl: &glow::Context,
    format: u32,
    readout: Readout,
    width: u32,
    height: u32,
) -> Result<Target, Stop> {
    let (w, h) = (width as i32, height as i32);
    let mut target = Target::bound(gl, glow::FRAMEBUFFER, width, height, readout)?;
    // SAFETY: two renderbuffers of a checked size on this context, attached to the FBO
    // just bound; deleted with the target.
    unsafe {
        for (storage, attachment) in [
            (format, glow::COLOR_ATTACHMENT0),
            (glow::DEPTH24_STENCIL8, glow::DEPTH_STENCIL_ATTACHMENT),
        ] {
            let renderbuffer = gl.create_renderbuffer().map_err(Stop::error)?;
            target.renderbuffers.push(renderbuffer);
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
    }
    let target = target.complete(gl, glow::FRAMEBUFFER, "the window framebuffer")?;
    // SAFETY: setting the viewport and clearing the window FBO, which is bound.
    unsafe {
        gl.viewport(0, 0, w, h);
        gl.clear_color(0.0, 0.0, 0.0, 0.0);
        gl.clear_depth_f32(1.0);
        gl.clear_stencil(0);
        gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT | glow::STENCIL_BUFFER_BIT);
    }
    Ok(target)
}
