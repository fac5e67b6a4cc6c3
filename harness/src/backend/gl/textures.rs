//! Piglit's generated textures (`texture rgbw`, `texture checkerboard`) and `texparameter`.
//!
//! Texels come from `backend::piglit::textures` (8-bit RGBA, row 0 at t = 0); NEAREST
//! filtering, clamped to edge, no mipmaps. Each unit holds the last texture a command made for it.

use super::Stop;
use crate::backend::piglit::textures as piglit;
use crate::shader_test::{TextureCheckerboard, TextureRgbw};
use glow::{HasContext, PixelUnpackData};
use std::collections::BTreeMap;

/// A texture a command created, and its size (for `fb tex 2d`).
#[derive(Debug, Clone, Copy)]
pub struct Texture {
    /// The GL object.
    pub object: glow::Texture,
    /// Width of level 0 in texels.
    pub width: u32,
    /// Height of level 0 in texels.
    pub height: u32,
}

/// The textures a test created, by unit.
#[derive(Default)]
pub struct Textures {
    units: BTreeMap<u32, Texture>,
}

impl Textures {
    /// The texture last created for `unit`.
    pub fn get(&self, unit: u32) -> Option<Texture> {
        self.units.get(&unit).copied()
    }

    /// `texture rgbw UNIT (w, h) [FORMAT]`.
    pub fn rgbw(&mut self, gl: &glow::Context, command: &TextureRgbw) -> Result<(), Stop> {
        let format = match command.format.as_deref() {
            None | Some("GL_RGBA") => glow::RGBA,
            Some("GL_RGBA8") => glow::RGBA8,
            Some("GL_SRGB8_ALPHA8") => glow::SRGB8_ALPHA8,
            Some(other) => {
                return Err(Stop::skip(format!(
                    "texture format {other} is not supported"
                )))
            }
        };
        let (w, h) = checked_size(gl, command.width, command.height)?;
        let texels = piglit::rgbw(w, h);
        let texture = self.create(gl, command.unit, command.width, command.height)?;
        upload(gl, format, 0, command.width, command.height, &texels);
        self.units.insert(command.unit, texture);
        Ok(())
    }

    /// `texture checkerboard UNIT LEVEL (w, h) (color1) (color2)`: squares of w/2 by h/2.
    pub fn checkerboard(
        &mut self,
        gl: &glow::Context,
        command: &TextureCheckerboard,
    ) -> Result<(), Stop> {
        checked_size(gl, command.width, command.height)?;
        let level = i32::try_from(command.level)
            .map_err(|_| Stop::fail(format!("bad texture level {}", command.level)))?;
        let texels = piglit::checkerboard(command);
        let texture = self.create(gl, command.unit, command.width, command.height)?;
        upload(
            gl,
            glow::RGBA,
            level,
            command.width,
            command.height,
            &texels,
        );
        self.units.insert(command.unit, texture);
        Ok(())
    }

    /// Creates a texture on `unit` with piglit's sampling defaults, replacing the old one.
    fn create(
        &mut self,
        gl: &glow::Context,
        unit: u32,
        width: u32,
        height: u32,
    ) -> Result<Texture, Stop> {
        // SAFETY: plain queries and object creation on the current context.
        unsafe {
            let units = gl.get_parameter_i32(glow::MAX_COMBINED_TEXTURE_IMAGE_UNITS);
            if i64::from(unit) >= i64::from(units) {
                return Err(Stop::fail(format!("texture unit {unit} is out of range")));
            }
            if let Some(old) = self.units.remove(&unit) {
                gl.delete_texture(old.object);
            }
            let object = gl.create_texture().map_err(Stop::error)?;
            gl.active_texture(glow::TEXTURE0 + unit);
            gl.bind_texture(glow::TEXTURE_2D, Some(object));
            for (parameter, value) in [
                (glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE),
                (glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE),
                (glow::TEXTURE_MIN_FILTER, glow::NEAREST),
                (glow::TEXTURE_MAG_FILTER, glow::NEAREST),
            ] {
                gl.tex_parameter_i32(glow::TEXTURE_2D, parameter, value as i32);
            }
            Ok(Texture {
                object,
                width,
                height,
            })
        }
    }

    /// Deletes every texture the test created.
    pub fn delete_all(&mut self, gl: &glow::Context) {
        for texture in std::mem::take(&mut self.units).into_values() {
            // SAFETY: the texture was created on this context.
            unsafe { gl.delete_texture(texture.object) };
        }
    }
}

fn checked_size(gl: &glow::Context, width: u32, height: u32) -> Result<(usize, usize), Stop> {
    // SAFETY: a plain query.
    let max = unsafe { gl.get_parameter_i32(glow::MAX_TEXTURE_SIZE) };
    let fits = |v: u32| v >= 1 && i64::from(v) <= i64::from(max);
    if !fits(width) || !fits(height) {
        return Err(Stop::fail(format!(
            "texture size {width}x{height} is out of range"
        )));
    }
    Ok((width as usize, height as usize))
}

fn upload(gl: &glow::Context, format: u32, level: i32, width: u32, height: u32, texels: &[u8]) {
    // SAFETY: `texels` holds width * height RGBA8 texels (sizes checked against GL's maximum).
    unsafe {
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
        gl.tex_image_2d(
            glow::TEXTURE_2D,
            level,
            format as i32,
            width as i32,
            height as i32,
            0,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            PixelUnpackData::Slice(Some(texels)),
        );
    }
}

/// `texparameter TARGET PARAMETER VALUE` on the texture bound to the active unit.
pub fn parameter(
    gl: &glow::Context,
    target: &str,
    parameter: &str,
    value: &str,
) -> Result<(), Stop> {
    let target = match target {
        "2D" => glow::TEXTURE_2D,
        "3D" => glow::TEXTURE_3D,
        "2DArray" => glow::TEXTURE_2D_ARRAY,
        "Cube" => glow::TEXTURE_CUBE_MAP,
        "CubeArray" => glow::TEXTURE_CUBE_MAP_ARRAY,
        other => {
            return Err(Stop::skip(format!(
                "texture target {other} is not supported on GL ES"
            )))
        }
    };
    let bad = || Stop::fail(format!("bad {parameter} value: {value}"));
    let (name, enum_value) = match parameter {
        "min" => (
            glow::TEXTURE_MIN_FILTER,
            filter(value, true).ok_or_else(bad)?,
        ),
        "mag" => (
            glow::TEXTURE_MAG_FILTER,
            filter(value, false).ok_or_else(bad)?,
        ),
        "wrap_s" => (glow::TEXTURE_WRAP_S, wrap(value).ok_or_else(bad)?),
        "wrap_t" => (glow::TEXTURE_WRAP_T, wrap(value).ok_or_else(bad)?),
        "wrap_r" => (glow::TEXTURE_WRAP_R, wrap(value).ok_or_else(bad)?),
        "compare_func" => (glow::TEXTURE_COMPARE_FUNC, compare(value).ok_or_else(bad)?),
        "swizzle_r" => (glow::TEXTURE_SWIZZLE_R, swizzle(value).ok_or_else(bad)?),
        "max_level" | "base_level" => {
            let level: i32 = value.trim().parse().map_err(|_| bad())?;
            let name = if parameter == "max_level" {
                glow::TEXTURE_MAX_LEVEL
            } else {
                glow::TEXTURE_BASE_LEVEL
            };
            // SAFETY: setting a parameter of the bound texture.
            unsafe { gl.tex_parameter_i32(target, name, level) };
            return Ok(());
        }
        "border_color" => {
            let color: Vec<f32> = value
                .split_whitespace()
                .filter_map(|v| v.parse().ok())
                .collect();
            if color.len() != 4 {
                return Err(bad());
            }
            // SAFETY: four floats for GL_TEXTURE_BORDER_COLOR.
            unsafe { gl.tex_parameter_f32_slice(target, glow::TEXTURE_BORDER_COLOR, &color) };
            return Ok(());
        }
        "lod_bias" | "depth_mode" => {
            return Err(Stop::skip(format!(
                "texparameter {parameter} is only available in desktop GL"
            )))
        }
        other => return Err(Stop::fail(format!("unknown texture parameter {other}"))),
    };
    // SAFETY: setting a parameter of the bound texture.
    unsafe { gl.tex_parameter_i32(target, name, enum_value as i32) };
    Ok(())
}

fn filter(value: &str, min: bool) -> Option<u32> {
    Some(match value {
        "nearest" => glow::NEAREST,
        "linear" => glow::LINEAR,
        "nearest_mipmap_nearest" if min => glow::NEAREST_MIPMAP_NEAREST,
        "linear_mipmap_nearest" if min => glow::LINEAR_MIPMAP_NEAREST,
        "nearest_mipmap_linear" if min => glow::NEAREST_MIPMAP_LINEAR,
        "linear_mipmap_linear" if min => glow::LINEAR_MIPMAP_LINEAR,
        _ => return None,
    })
}

fn wrap(value: &str) -> Option<u32> {
    Some(match value {
        "repeat" => glow::REPEAT,
        "clamp_to_edge" => glow::CLAMP_TO_EDGE,
        "clamp_to_border" => glow::CLAMP_TO_BORDER,
        "mirrored_repeat" => glow::MIRRORED_REPEAT,
        _ => return None,
    })
}

fn compare(value: &str) -> Option<u32> {
    Some(match value {
        "greater" => glow::GREATER,
        "gequal" => glow::GEQUAL,
        "less" => glow::LESS,
        "lequal" => glow::LEQUAL,
        "equal" => glow::EQUAL,
        "notequal" => glow::NOTEQUAL,
        "never" => glow::NEVER,
        "always" => glow::ALWAYS,
        _ => return None,
    })
}

fn swizzle(value: &str) -> Option<u32> {
    Some(match value {
        "red" => glow::RED,
        "green" => glow::GREEN,
        "blue" => glow::BLUE,
        "alpha" => glow::ALPHA,
        _ => return None,
    })
}
