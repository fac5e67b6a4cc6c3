//! The extension macros the preprocessor predefines to 1 (`#ifdef GL_OES_texture_3D`).
//!
//! These are the GLSL ES extensions a Mesa-class driver exposes; each is listed with the
//! lowest language version it applies to (and the highest, for ES 1.00-only extensions whose
//! features became core in ES 3.00).

use crate::shader::Version;

/// (extension, first version, last version)
const EXTENSIONS: &[(&str, Version, Version)] = &[
    (
        "GL_OES_standard_derivatives",
        Version::Es100,
        Version::Es100,
    ),
    ("GL_EXT_shader_texture_lod", Version::Es100, Version::Es100),
    ("GL_OES_texture_3D", Version::Es100, Version::Es100),
    ("GL_EXT_frag_depth", Version::Es100, Version::Es100),
    ("GL_EXT_draw_buffers", Version::Es100, Version::Es100),
    ("GL_EXT_shadow_samplers", Version::Es100, Version::Es100),
    ("GL_OES_EGL_image_external", Version::Es100, Version::Es100),
    ("GL_EXT_blend_func_extended", Version::Es100, Version::Es320),
    (
        "GL_EXT_shader_framebuffer_fetch",
        Version::Es100,
        Version::Es320,
    ),
    (
        "GL_EXT_separate_shader_objects",
        Version::Es100,
        Version::Es320,
    ),
    (
        "GL_OES_EGL_image_external_essl3",
        Version::Es300,
        Version::Es320,
    ),
    ("GL_EXT_shader_integer_mix", Version::Es300, Version::Es320),
    ("GL_OES_sample_variables", Version::Es300, Version::Es320),
    (
        "GL_OES_shader_multisample_interpolation",
        Version::Es300,
        Version::Es320,
    ),
    ("GL_EXT_clip_cull_distance", Version::Es300, Version::Es320),
    ("GL_EXT_texture_shadow_lod", Version::Es300, Version::Es320),
    (
        "GL_KHR_blend_equation_advanced",
        Version::Es300,
        Version::Es320,
    ),
    (
        "GL_EXT_shader_implicit_conversions",
        Version::Es310,
        Version::Es320,
    ),
    (
        "GL_OES_texture_storage_multisample_2d_array",
        Version::Es310,
        Version::Es320,
    ),
    ("GL_OES_shader_image_atomic", Version::Es310, Version::Es320),
    ("GL_OES_geometry_shader", Version::Es310, Version::Es320),
    ("GL_EXT_geometry_shader", Version::Es310, Version::Es320),
    ("GL_OES_tessellation_shader", Version::Es310, Version::Es320),
    ("GL_EXT_tessellation_shader", Version::Es310, Version::Es320),
    ("GL_OES_gpu_shader5", Version::Es310, Version::Es320),
    ("GL_EXT_gpu_shader5", Version::Es310, Version::Es320),
    ("GL_OES_texture_buffer", Version::Es310, Version::Es320),
    ("GL_EXT_texture_buffer", Version::Es310, Version::Es320),
    (
        "GL_OES_texture_cube_map_array",
        Version::Es310,
        Version::Es320,
    ),
    (
        "GL_EXT_texture_cube_map_array",
        Version::Es310,
        Version::Es320,
    ),
    ("GL_OES_shader_io_blocks", Version::Es310, Version::Es320),
    ("GL_EXT_shader_io_blocks", Version::Es310, Version::Es320),
    (
        "GL_OES_primitive_bounding_box",
        Version::Es310,
        Version::Es320,
    ),
    (
        "GL_EXT_primitive_bounding_box",
        Version::Es310,
        Version::Es320,
    ),
    ("GL_OES_viewport_array", Version::Es310, Version::Es320),
];

/// Extension macros defined for `version`.
pub(super) fn extension_macros(version: Version) -> impl Iterator<Item = &'static str> {
    EXTENSIONS
        .iter()
        .filter(move |(_, first, last)| (*first..=*last).contains(&version))
        .map(|(name, _, _)| *name)
}

/// Every extension the preprocessor predefines in some version: the extensions the compiler
/// accepts, which the emulator's inventory classifies (`halfcheck features`).
pub fn names() -> impl Iterator<Item = &'static str> {
    EXTENSIONS.iter().map(|(name, _, _)| *name)
}

/// Whether the preprocessor predefines the macro of extension `name` in `version`.
pub fn predefined(name: &str, version: Version) -> bool {
    extension_macros(version).any(|e| e == name)
}
