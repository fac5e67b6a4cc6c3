//! Piglit's textures (`texture rgbw`, `checkerboard`, `storage`, `integer`, `junk`),
//! `image texture` and `texparameter`.
//!
//! Texels of the generated ones come from `backend::piglit::textures` (8-bit RGBA, row 0 at
//! t = 0); NEAREST filtering, clamped to edge, no mipmaps. `texture storage` makes immutable
//! storage of any target and colour format, without texels and with GL's default sampling.
//! Each unit holds the last texture a command made for it.

use super::formats::{self, Readout};
use super::Stop;
use glow::{HasContext, PixelUnpackData};
use halfcheck_piglit::shader_test::{
    TextureCheckerboard, TextureInteger, TextureRgbw, TextureStorage, TextureTarget,
};
use halfcheck_piglit::textures as piglit;
use std::collections::BTreeMap;

/// A texture a command created, and what `fb` commands and probes need of it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Texture {
    /// The GL object.
    pub object: glow::Texture,
    /// Its target (`GL_TEXTURE_2D`, `GL_TEXTURE_2D_ARRAY`, ...).
    pub target: u32,
    /// Width of level 0 in texels.
    pub width: u32,
    /// Height of level 0 in texels.
    pub height: u32,
    /// How a framebuffer of its format reads back.
    pub readout: Readout,
}

/// The textures a test created, by unit.
#[derive(Default)]
pub(super) struct Textures {
    units: BTreeMap<u32, Texture>,
}

impl Textures {
    /// The texture last created for `unit`.
    pub(super) fn get(&self, unit: u32) -> Option<Texture> {
        self.units.get(&unit).copied()
    }

    /// The texture last created for `unit`, or a failure naming the command that needs it.
    pub(super) fn need(&self, unit: u32, command: &str) -> Result<Texture, Stop> {
        self.get(unit)
            .ok_or_else(|| Stop::fail(format!("no texture on unit {unit} for {command}")))
    }

    /// `texture rgbw UNIT (w, h) [FORMAT]`.
    pub(super) fn rgbw(&mut self, gl: &glow::Context, command: &TextureRgbw) -> Result<(), Stop> {
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
        let texture = self.create(gl, command.unit, glow::TEXTURE_2D, true)?;
        upload(gl, format, 0, command.width, command.height, &texels);
        self.keep(command.unit, texture, [command.width, command.height]);
        Ok(())
    }

    /// `texture checkerboard UNIT LEVEL (w, h) (color1) (color2)`: squares of w/2 by h/2.
    pub(super) fn checkerboard(
        &mut self,
        gl: &glow::Context,
        command: &TextureCheckerboard,
    ) -> Result<(), Stop> {
        checked_size(gl, command.width, command.height)?;
        let level = i32::try_from(command.level)
            .map_err(|_| Stop::fail(format!("bad texture level {}", command.level)))?;
        let texels = piglit::checkerboard(command);
        let texture = self.create(gl, command.unit, glow::TEXTURE_2D, true)?;
        upload(
            gl,
            glow::RGBA,
            level,
            command.width,
            command.height,
            &texels,
        );
        self.keep(command.unit, texture, [command.width, command.height]);
        Ok(())
    }

    /// `texture storage UNIT TARGET FORMAT (LEVELS W [H [D]])`: `glTexStorage1D/2D/3D` by
    /// the number of sizes given, as piglit does.
    pub(super) fn storage(
        &mut self,
        gl: &glow::Context,
        command: &TextureStorage,
    ) -> Result<(), Stop> {
        let target = texture_target(command.target)?;
        let format = formats::known(&command.format)?;
        let levels = i32::try_from(command.levels).map_err(|_| Stop::fail("too many levels"))?;
        let size = command
            .size
            .iter()
            .map(|&v| i32::try_from(v).map_err(|_| Stop::fail(format!("bad texture size {v}"))))
            .collect::<Result<Vec<_>, _>>()?;
        if size.len() < 2 {
            return Err(Stop::skip("one-dimensional textures need desktop GL"));
        }
        let mut texture = self.create(gl, command.unit, target, false)?;
        texture.readout = format.readout;
        // SAFETY: immutable storage for the texture bound to `target` on the active unit,
        // then an error query.
        let error = unsafe {
            while gl.get_error() != glow::NO_ERROR {}
            match size.as_slice() {
                [w, h, d, ..] => gl.tex_storage_3d(target, levels, format.internal, *w, *h, *d),
                [w, h, ..] => gl.tex_storage_2d(target, levels, format.internal, *w, *h),
                _ => {}
            }
            gl.get_error()
        };
        // Keep the texture even when storage failed, so the test's end deletes it.
        self.keep(command.unit, texture, [command.size[0], command.size[1]]);
        if error != glow::NO_ERROR {
            return Err(Stop::fail(format!("glTexStorage error 0x{error:x}")));
        }
        Ok(())
    }

    /// `texture integer UNIT (W, H) (B, A) FORMAT`: piglit's `piglit_integer_texture`, a 32-bit
    /// integer texture whose texel (x, y) holds x, y, b, a (with fewer channels: x + y * b + a
    /// for one, x + b and y + a for two, x, y, b + a for three). NEAREST, clamped to edge.
    pub(super) fn integer(
        &mut self,
        gl: &glow::Context,
        command: &TextureInteger,
    ) -> Result<(), Stop> {
        let (internal, format, channels) = match command.format.as_str() {
            "GL_R32I" => (glow::R32I, glow::RED_INTEGER, 1),
            "GL_RG32I" => (glow::RG32I, glow::RG_INTEGER, 2),
            "GL_RGB32I" => (glow::RGB32I, glow::RGB_INTEGER, 3),
            "GL_RGBA32I" => (glow::RGBA32I, glow::RGBA_INTEGER, 4),
            other => {
                return Err(Stop::fail(format!(
                    "texture integer takes a 32-bit integer format, not {other}"
                )))
            }
        };
        let (w, h) = checked_size(gl, command.width, command.height)?;
        if w * h > MAX_GENERATED_TEXELS {
            return Err(Stop::fail(format!(
                "texture integer of {w}x{h} texels is larger than halfcheck's limit of \
                 {MAX_GENERATED_TEXELS} texels"
            )));
        }
        let (b, a) = (command.b, command.a);
        let mut texels: Vec<i32> = Vec::with_capacity(w * h * channels);
        for y in 0..h as i32 {
            for x in 0..w as i32 {
                let texel: &[i32] = match channels {
                    1 => &[x.wrapping_add(y.wrapping_mul(b)).wrapping_add(a)],
                    2 => &[x.wrapping_add(b), y.wrapping_add(a)],
                    3 => &[x, y, b.wrapping_add(a)],
                    _ => &[x, y, b, a],
                };
                texels.extend_from_slice(texel);
            }
        }
        let bytes: Vec<u8> = texels.iter().flat_map(|v| v.to_ne_bytes()).collect();
        let mut texture = self.create(gl, command.unit, glow::TEXTURE_2D, true)?;
        texture.readout = Readout::Int;
        let (wi, hi) = (w as i32, h as i32);
        // SAFETY: storage of w x h texels, then exactly w * h texels of `channels` ints.
        unsafe {
            gl.tex_storage_2d(glow::TEXTURE_2D, 1, internal, wi, hi);
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
            gl.tex_sub_image_2d(
                glow::TEXTURE_2D,
                0,
                0,
                0,
                wi,
                hi,
                format,
                glow::INT,
                PixelUnpackData::Slice(Some(&bytes)),
            );
        }
        self.keep(command.unit, texture, [command.width, command.height]);
        Ok(())
    }

    /// `texture junk 2DArray UNIT (W, H, LAYERS)`: RGBA8 layers with undefined texels.
    pub(super) fn junk_2d_array(
        &mut self,
        gl: &glow::Context,
        unit: u32,
        [width, height, layers]: [u32; 3],
    ) -> Result<(), Stop> {
        checked_size(gl, width, height)?;
        let depth = i32::try_from(layers).map_err(|_| Stop::fail("too many layers"))?;
        let texture = self.create(gl, unit, glow::TEXTURE_2D_ARRAY, false)?;
        // SAFETY: storage without data for the array bound on the active unit.
        unsafe {
            gl.tex_image_3d(
                glow::TEXTURE_2D_ARRAY,
                0,
                glow::RGBA as i32,
                width as i32,
                height as i32,
                depth,
                0,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                PixelUnpackData::Slice(None),
            );
        }
        self.keep(unit, texture, [width, height]);
        Ok(())
    }

    /// `image texture UNIT FORMAT`: level 0 of the unit's texture as image unit UNIT,
    /// read-write.
    pub(super) fn image(&self, gl: &glow::Context, unit: u32, format: &str) -> Result<(), Stop> {
        let texture = self.need(unit, "image texture")?;
        let format = formats::known(format)?;
        // SAFETY: binding a texture of this context to an image unit, then an error query.
        let error = unsafe {
            gl.bind_image_texture(
                unit,
                Some(texture.object),
                0,
                false,
                0,
                glow::READ_WRITE,
                format.internal,
            );
            gl.get_error()
        };
        if error != glow::NO_ERROR {
            return Err(Stop::fail(format!("glBindImageTexture error 0x{error:x}")));
        }
        Ok(())
    }

    /// Creates a texture bound to `target` on `unit` (the active unit after), with piglit's
    /// NEAREST, clamp-to-edge sampling when `piglit_defaults`.
    fn create(
        &mut self,
        gl: &glow::Context,
        unit: u32,
        target: u32,
        piglit_defaults: bool,
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
            gl.bind_texture(target, Some(object));
            if piglit_defaults {
                for (parameter, value) in [
                    (glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE),
                    (glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE),
                    (glow::TEXTURE_MIN_FILTER, glow::NEAREST),
                    (glow::TEXTURE_MAG_FILTER, glow::NEAREST),
                ] {
                    gl.tex_parameter_i32(target, parameter, value as i32);
                }
            }
            Ok(Texture {
                object,
                target,
                width: 0,
                height: 0,
                readout: Readout::Unorm,
            })
        }
    }

    /// Records `texture` as `unit`'s, with its level-0 size.
    fn keep(&mut self, unit: u32, texture: Texture, [width, height]: [u32; 2]) {
        let texture = Texture {
            width,
            height,
            ..texture
        };
        self.units.insert(unit, texture);
    }

    /// Deletes every texture the test created.
    pub(super) fn delete_all(&mut self, gl: &glow::Context) {
        for texture in std::mem::take(&mut self.units).into_values() {
            // SAFETY: the texture was created on this context.
            unsafe { gl.delete_texture(texture.object) };
        }
    }
}

/// The most texels `texture integer` generates (64 MiB of RGBA32I), so a bad size fails the
/// test instead of exhausting memory.
const MAX_GENERATED_TEXELS: usize = 1 << 22;

/// The GL enum of a texture target GL ES has.
pub(super) fn texture_target(target: TextureTarget) -> Result<u32, Stop> {
    Ok(match target {
        TextureTarget::D2 => glow::TEXTURE_2D,
        TextureTarget::D3 => glow::TEXTURE_3D,
        TextureTarget::Cube => glow::TEXTURE_CUBE_MAP,
        TextureTarget::D2Array => glow::TEXTURE_2D_ARRAY,
        TextureTarget::CubeArray => glow::TEXTURE_CUBE_MAP_ARRAY,
        TextureTarget::D1 | TextureTarget::D1Array | TextureTarget::Rect => {
            return Err(Stop::skip(format!(
                "texture target {target:?} needs desktop GL"
            )))
        }
    })
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
pub(super) fn parameter(
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
