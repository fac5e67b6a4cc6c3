//! Colour formats by the names piglit's commands use (`GL_RGBA8`, `GL_RGBA8I`, `GL_R32F`),
//! and how a framebuffer of each is read back.

/// How `glReadPixels` reads a colour buffer of a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Readout {
    /// Floating point: `GL_RGBA`/`GL_FLOAT`, the exact values.
    Float,
    /// Normalised fixed point: `GL_RGBA`/`GL_UNSIGNED_BYTE`, as piglit reads it on GL ES.
    Unorm,
    /// Signed integer: `GL_RGBA_INTEGER`/`GL_INT`.
    Int,
    /// Unsigned integer: `GL_RGBA_INTEGER`/`GL_UNSIGNED_INT`.
    Uint,
}

/// A colour format: its GL enum and how it reads back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Format {
    /// The internal format enum.
    pub internal: u32,
    /// How a framebuffer of it is read.
    pub readout: Readout,
}

/// The colour format piglit names `name`, or `None` for names this backend does not know.
pub(super) fn format(name: &str) -> Option<Format> {
    use Readout::*;
    let (internal, readout) = match name {
        "GL_RGBA" => (glow::RGBA, Unorm),
        "GL_RGB" => (glow::RGB, Unorm),
        "GL_R8" => (glow::R8, Unorm),
        "GL_RG8" => (glow::RG8, Unorm),
        "GL_RGB8" => (glow::RGB8, Unorm),
        "GL_RGBA8" => (glow::RGBA8, Unorm),
        "GL_SRGB8_ALPHA8" => (glow::SRGB8_ALPHA8, Unorm),
        "GL_RGBA4" => (glow::RGBA4, Unorm),
        "GL_RGB5_A1" => (glow::RGB5_A1, Unorm),
        "GL_RGB565" => (glow::RGB565, Unorm),
        "GL_RGB10_A2" => (glow::RGB10_A2, Unorm),
        "GL_R16F" => (glow::R16F, Float),
        "GL_RG16F" => (glow::RG16F, Float),
        "GL_RGBA16F" => (glow::RGBA16F, Float),
        "GL_R32F" => (glow::R32F, Float),
        "GL_RG32F" => (glow::RG32F, Float),
        "GL_RGBA32F" => (glow::RGBA32F, Float),
        "GL_R11F_G11F_B10F" => (glow::R11F_G11F_B10F, Float),
        "GL_R8I" => (glow::R8I, Int),
        "GL_RG8I" => (glow::RG8I, Int),
        "GL_RGBA8I" => (glow::RGBA8I, Int),
        "GL_R16I" => (glow::R16I, Int),
        "GL_RG16I" => (glow::RG16I, Int),
        "GL_RGBA16I" => (glow::RGBA16I, Int),
        "GL_R32I" => (glow::R32I, Int),
        "GL_RG32I" => (glow::RG32I, Int),
        "GL_RGB32I" => (glow::RGB32I, Int),
        "GL_RGBA32I" => (glow::RGBA32I, Int),
        "GL_R8UI" => (glow::R8UI, Uint),
        "GL_RG8UI" => (glow::RG8UI, Uint),
        "GL_RGBA8UI" => (glow::RGBA8UI, Uint),
        "GL_R16UI" => (glow::R16UI, Uint),
        "GL_RG16UI" => (glow::RG16UI, Uint),
        "GL_RGBA16UI" => (glow::RGBA16UI, Uint),
        "GL_R32UI" => (glow::R32UI, Uint),
        "GL_RG32UI" => (glow::RG32UI, Uint),
        "GL_RGB32UI" => (glow::RGB32UI, Uint),
        "GL_RGBA32UI" => (glow::RGBA32UI, Uint),
        "GL_RGB10_A2UI" => (glow::RGB10_A2UI, Uint),
        _ => return None,
    };
    Some(Format { internal, readout })
}

/// [`format`], or a skip naming the format.
pub(super) fn known(name: &str) -> Result<Format, super::Stop> {
    format(name).ok_or_else(|| super::Stop::skip(format!("colour format {name} is not supported")))
}
