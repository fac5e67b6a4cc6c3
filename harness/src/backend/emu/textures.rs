//! Piglit's generated textures in software, and sampling them.
//!
//! Texels are piglit's 8-bit RGBA (shared with the GL backend), read as `b * (1/255)` in
//! binary32.
//! Bilinear filtering is in binary32 or in 8-bit fixed point (llvmpipe's), as the profile's
//! `texture.filtering` says.
//! `texture rgbw`/`checkerboard` set piglit's defaults (NEAREST, clamp to edge) and make their
//! unit the active one, which `texparameter` then changes. Filtering: nearest or bilinear on
//! the level the level of detail picks (a mipmapped minification filter with missing levels
//! makes the texture incomplete: black). Wrap modes: clamp to edge, repeat, mirrored repeat.

use super::Stop;
use crate::backend::piglit::textures as piglit;
use crate::shader_test::{TextureCheckerboard, TextureRgbw};
use halfcheck_compiler::profile::Filtering;
use std::collections::BTreeMap;

/// How a coordinate outside [0, 1] wraps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wrap {
    ClampToEdge,
    Repeat,
    MirroredRepeat,
}

/// A texture filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Filter {
    Nearest,
    Linear,
    /// A mipmapped filter: the filter within a level.
    Mipmap(bool),
}

/// One level: 8-bit RGBA texels, row 0 at t = 0.
#[derive(Debug, Clone)]
struct Level {
    width: u32,
    height: u32,
    texels: Vec<[u8; 4]>,
}

/// A 2D texture and its sampler state.
#[derive(Debug, Clone)]
struct Texture {
    levels: BTreeMap<u32, Level>,
    min: Filter,
    mag: Filter,
    wrap_s: Wrap,
    wrap_t: Wrap,
}

/// The textures a test created, by unit, and the unit `texparameter` changes.
#[derive(Default)]
pub struct Units {
    units: BTreeMap<u32, Texture>,
    active: u32,
    /// Bilinear filtering in fixed point (llvmpipe's) rather than in binary32.
    fixed_point: bool,
}

fn texels(bytes: &[u8]) -> Vec<[u8; 4]> {
    bytes
        .chunks_exact(4)
        .map(|b| [b[0], b[1], b[2], b[3]])
        .collect()
}

/// An 8-bit texel as a binary32 RGBA value: `b * (1.0f / 255.0f)`, Mesa's conversion (one
/// binary32 ulp above `b / 255` for some bytes).
fn unorm(texel: [u8; 4]) -> [f32; 4] {
    texel.map(|b| f32::from(b) * (1.0 / 255.0))
}

/// llvmpipe's 8-bit lerp with an 8-bit weight: `(a (256 - w) + b w + 128) >> 8`.
fn lerp8(a: u8, b: u8, w: i64) -> u8 {
    let v = (i64::from(a) * (256 - w) + i64::from(b) * w + 128) >> 8;
    v.clamp(0, 255) as u8
}

fn checked(width: u32, height: u32) -> Result<(), Stop> {
    let fits = |v: u32| (1..=16384).contains(&v);
    if fits(width) && fits(height) {
        Ok(())
    } else {
        Err(Stop::fail(format!(
            "texture size {width}x{height} is out of range"
        )))
    }
}

impl Units {
    /// No textures yet, filtered as the profile's `filtering` says.
    pub fn new(filtering: Filtering) -> Units {
        Units {
            fixed_point: filtering == Filtering::FixedPoint,
            ..Units::default()
        }
    }

    /// `texture rgbw UNIT (w, h) [FORMAT]`.
    pub fn rgbw(&mut self, command: &TextureRgbw) -> Result<(), Stop> {
        match command.format.as_deref() {
            None | Some("GL_RGBA") | Some("GL_RGBA8") => {}
            Some(other) => {
                return Err(Stop::skip(format!(
                    "the emulator has no texture format {other}"
                )))
            }
        }
        checked(command.width, command.height)?;
        let (w, h) = (command.width as usize, command.height as usize);
        let level = Level {
            width: command.width,
            height: command.height,
            texels: texels(&piglit::rgbw(w, h)),
        };
        self.create(command.unit, 0, level);
        Ok(())
    }

    /// `texture checkerboard UNIT LEVEL (w, h) (color1) (color2)`.
    pub fn checkerboard(&mut self, command: &TextureCheckerboard) -> Result<(), Stop> {
        checked(command.width, command.height)?;
        let level = Level {
            width: command.width,
            height: command.height,
            texels: texels(&piglit::checkerboard(command)),
        };
        self.create(command.unit, command.level, level);
        Ok(())
    }

    fn create(&mut self, unit: u32, level: u32, image: Level) {
        let texture = Texture {
            levels: BTreeMap::from([(level, image)]),
            min: Filter::Nearest,
            mag: Filter::Nearest,
            wrap_s: Wrap::ClampToEdge,
            wrap_t: Wrap::ClampToEdge,
        };
        self.units.insert(unit, texture);
        self.active = unit;
    }

    /// `texparameter 2D PARAMETER VALUE` on the active unit's texture.
    pub fn parameter(&mut self, target: &str, parameter: &str, value: &str) -> Result<(), Stop> {
        if target != "2D" {
            return Err(Stop::skip(format!("the emulator has no {target} textures")));
        }
        let bad = || Stop::fail(format!("bad {parameter} value: {value}"));
        let Some(texture) = self.units.get_mut(&self.active) else {
            return Ok(());
        };
        let wrap = |v: &str| match v {
            "clamp_to_edge" => Ok(Wrap::ClampToEdge),
            "repeat" => Ok(Wrap::Repeat),
            "mirrored_repeat" => Ok(Wrap::MirroredRepeat),
            "clamp_to_border" => Err(Stop::skip("the emulator has no border colour")),
            _ => Err(bad()),
        };
        match parameter {
            "min" | "mag" => {
                let filter = match value {
                    "nearest" => Filter::Nearest,
                    "linear" => Filter::Linear,
                    "nearest_mipmap_nearest" | "nearest_mipmap_linear" if parameter == "min" => {
                        Filter::Mipmap(false)
                    }
                    "linear_mipmap_nearest" | "linear_mipmap_linear" if parameter == "min" => {
                        Filter::Mipmap(true)
                    }
                    _ => return Err(bad()),
                };
                if parameter == "min" {
                    texture.min = filter;
                } else {
                    texture.mag = filter;
                }
            }
            "wrap_s" => texture.wrap_s = wrap(value)?,
            "wrap_t" => texture.wrap_t = wrap(value)?,
            "max_level" | "base_level" => {}
            other => {
                return Err(Stop::skip(format!(
                    "the emulator has no texture parameter {other}"
                )))
            }
        }
        Ok(())
    }
}

fn wrap_index(i: i64, size: u32, wrap: Wrap) -> usize {
    let n = i64::from(size.max(1));
    let w = match wrap {
        Wrap::ClampToEdge => i.clamp(0, n - 1),
        Wrap::Repeat => i.rem_euclid(n),
        Wrap::MirroredRepeat => {
            let m = i.rem_euclid(2 * n);
            if m < n {
                m
            } else {
                2 * n - 1 - m
            }
        }
    };
    w as usize
}

impl Level {
    fn texel(&self, x: i64, y: i64, texture: &Texture) -> [u8; 4] {
        let x = wrap_index(x, self.width, texture.wrap_s);
        let y = wrap_index(y, self.height, texture.wrap_t);
        self.texels
            .get(y * self.width as usize + x)
            .copied()
            .unwrap_or([0, 0, 0, 255])
    }

    fn sample(&self, coord: [f32; 2], linear: bool, fixed: bool, texture: &Texture) -> [f32; 4] {
        let u = coord[0] * self.width as f32;
        let v = coord[1] * self.height as f32;
        if !linear {
            return unorm(self.texel(u.floor() as i64, v.floor() as i64, texture));
        }
        // llvmpipe's 8-bit path takes only repeat and clamp-to-edge; mirrored repeat goes
        // through its binary32 path.
        let simple_wrap = |w: Wrap| matches!(w, Wrap::Repeat | Wrap::ClampToEdge);
        if fixed && simple_wrap(texture.wrap_s) && simple_wrap(texture.wrap_t) {
            return self.sample_fixed(u, v, texture);
        }
        let (u, v) = (u - 0.5, v - 0.5);
        let (x0, y0) = (u.floor(), v.floor());
        let (a, b) = (u - x0, v - y0);
        let (x0, y0) = (x0 as i64, y0 as i64);
        let t00 = unorm(self.texel(x0, y0, texture));
        let t10 = unorm(self.texel(x0 + 1, y0, texture));
        let t01 = unorm(self.texel(x0, y0 + 1, texture));
        let t11 = unorm(self.texel(x0 + 1, y0 + 1, texture));
        [0, 1, 2, 3].map(|c| {
            let bottom = t00[c] + a * (t10[c] - t00[c]);
            let top = t01[c] + a * (t11[c] - t01[c]);
            bottom + b * (top - bottom)
        })
    }

    /// Bilinear filtering as llvmpipe does it on 8-bit textures: texel-space coordinates
    /// rounded to 1/256, 8-bit weights, 8-bit lerps (rows first), then to binary32.
    fn sample_fixed(&self, u: f32, v: f32, texture: &Texture) -> [f32; 4] {
        let fixed = |x: f32| (x * 256.0).round() as i64 - 128;
        let (fu, fv) = (fixed(u), fixed(v));
        let (x0, y0) = (fu >> 8, fv >> 8);
        let (wx, wy) = (fu & 255, fv & 255);
        let t00 = self.texel(x0, y0, texture);
        let t10 = self.texel(x0 + 1, y0, texture);
        let t01 = self.texel(x0, y0 + 1, texture);
        let t11 = self.texel(x0 + 1, y0 + 1, texture);
        unorm([0, 1, 2, 3].map(|c| {
            let bottom = lerp8(t00[c], t10[c], wx);
            let top = lerp8(t01[c], t11[c], wx);
            lerp8(bottom, top, wy)
        }))
    }
}

impl halfcheck_compiler::exec::Textures for Units {
    fn sample(&self, unit: i64, coord: [f32; 2], lod: f32) -> Option<[f32; 4]> {
        let texture = self.units.get(&u32::try_from(unit).ok()?)?;
        let minifying = lod > 0.0;
        let filter = if minifying { texture.min } else { texture.mag };
        let level = match filter {
            Filter::Mipmap(_) if texture.levels.len() < 2 => {
                // Mipmapped filtering with one level: the texture is incomplete.
                return Some([0.0, 0.0, 0.0, 1.0]);
            }
            Filter::Mipmap(_) => lod.max(0.0).round() as u32,
            _ => 0,
        };
        let image = texture
            .levels
            .range(..=level)
            .next_back()
            .or_else(|| texture.levels.iter().next())
            .map(|(_, image)| image)?;
        let linear = matches!(filter, Filter::Linear | Filter::Mipmap(true));
        Some(image.sample(coord, linear, self.fixed_point, texture))
    }

    fn fetch(&self, unit: i64, texel: [i64; 2], level: i64) -> Option<[f32; 4]> {
        let texture = self.units.get(&u32::try_from(unit).ok()?)?;
        let image = texture.levels.get(&u32::try_from(level).ok()?)?;
        let inside = (0..i64::from(image.width)).contains(&texel[0])
            && (0..i64::from(image.height)).contains(&texel[1]);
        inside.then(|| unorm(image.texel(texel[0], texel[1], texture)))
    }

    fn size(&self, unit: i64, level: i64) -> Option<[i64; 2]> {
        let texture = self.units.get(&u32::try_from(unit).ok()?)?;
        let image = texture.levels.get(&u32::try_from(level).ok()?)?;
        Some([i64::from(image.width), i64::from(image.height)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use halfcheck_compiler::exec::Textures;

    fn rgbw(filtering: Filtering) -> Units {
        let mut units = Units::new(filtering);
        let command = TextureRgbw {
            unit: 0,
            width: 8,
            height: 8,
            format: None,
        };
        units.rgbw(&command).expect("texture");
        units.parameter("2D", "mag", "linear").expect("linear");
        units
    }

    #[test]
    fn fixed_point_filtering_matches_llvmpipe() {
        // Measured on llvmpipe: s = 110.5 / 250 on an 8-texel red|green row gives weight
        // round((3.536 * 256)) - 128 & 255 = 9, so green = (255 * 9 + 128) >> 8 = 9 / 255.
        let units = rgbw(Filtering::FixedPoint);
        let texel = units.sample(0, [110.5 / 250.0, 60.5 / 250.0], 0.0);
        let bytes = texel.map(|t| t.map(|v| (v * 255.0).round() as u8));
        assert_eq!(bytes, Some([246, 9, 0, 255]));
    }

    #[test]
    fn binary32_filtering_lerps_in_binary32() {
        let units = rgbw(Filtering::Binary32);
        let green = units
            .sample(0, [110.5 / 250.0, 60.5 / 250.0], 0.0)
            .map(|t| t[1]);
        assert!(green.is_some_and(|g| (g - 0.036).abs() < 1e-5), "{green:?}");
    }
}
