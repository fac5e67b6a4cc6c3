//! Piglit's generated textures in software, and sampling them.
//!
//! Texels are piglit's 8-bit RGBA (shared with the GL backend), read as `b * (1/255)` in
//! binary32.
//! Bilinear filtering is in binary32 or in 8-bit fixed point (llvmpipe's), as the profile's
//! `texture.filtering` says.
//! `texture rgbw`/`checkerboard` set piglit's defaults (NEAREST, clamp to edge) and make their
//! unit the active one, which `texparameter` then changes. Filtering: nearest or bilinear on
//! the level the level of detail picks. A texture without level 0, or with a mipmapped
//! minification filter and levels missing, is incomplete: every lookup reads (0, 0, 0, 1),
//! magnified or not. Wrap modes: clamp to edge, repeat, mirrored repeat.
//!
//! For acceptance intervals, [`Units`] also gives every value a conforming driver may return
//! ([`Textures::sample_range`]): the hull of every texel of every footprint the coordinate
//! ranges reach, under each filter and level the level-of-detail range may pick (a filtered
//! value is a convex combination of its footprint, whatever the weights' precision), widened
//! by [`TEXEL_ALLOWANCE`].

use crate::profile::Filtering;
use halfcheck_piglit::shader_test::{TextureCheckerboard, TextureRgbw};
use halfcheck_piglit::textures as piglit;
use halfcheck_piglit::Stop;
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

/// What a shader reads from an incomplete texture (OpenGL ES 3.0 section 3.9.2).
const INCOMPLETE: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

impl Texture {
    /// Whether the texture is complete (OpenGL ES 3.0 section 3.8.13): level 0 is there and,
    /// under a mipmapped minification filter, every level down to 1x1, each half the size of
    /// the one above. Completeness belongs to the texture, not to one lookup: a magnified
    /// lookup of an incomplete texture reads (0, 0, 0, 1) too.
    fn complete(&self) -> bool {
        let Some(base) = self.levels.get(&0) else {
            return false;
        };
        if !matches!(self.min, Filter::Mipmap(_)) {
            return true;
        }
        let (mut width, mut height, mut level) = (base.width, base.height, 0);
        while width > 1 || height > 1 {
            (width, height, level) = ((width / 2).max(1), (height / 2).max(1), level + 1);
            match self.levels.get(&level) {
                Some(l) if l.width == width && l.height == height => {}
                _ => return false,
            }
        }
        true
    }
}

/// The textures a test created, by unit, and the unit `texparameter` changes.
#[derive(Default)]
pub(crate) struct Units {
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

/// How far from `b / 255` a conforming driver's 8-bit texel conversion may land: `2^-20`
/// (32 binary32 ulps at 0.3; llvmpipe without F16C was measured one ulp off).
pub(crate) const TEXEL_ALLOWANCE: f64 = 1.0 / (1u64 << 20) as f64;

/// How far, in texels, a conforming driver's texel-space coordinate may land from the exact
/// one when it picks texels (nearest) or pairs of texels (bilinear): a coordinate that close
/// to a boundary may select either side. 1/256 of a texel, the subtexel precision of an 8-bit
/// fixed-point sampler, and far more than binary32 rounding of the coordinate.
const SELECTION_SLACK: f64 = 1.0 / 256.0;

/// Texel spans wider than this many texels are taken as the whole level.
const MAX_SPAN: i64 = 4096;

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
    pub(crate) fn new(filtering: Filtering) -> Units {
        Units {
            fixed_point: filtering == Filtering::FixedPoint,
            ..Units::default()
        }
    }

    /// `texture rgbw UNIT (w, h) [FORMAT]`.
    pub(crate) fn rgbw(&mut self, command: &TextureRgbw) -> Result<(), Stop> {
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
    pub(crate) fn checkerboard(&mut self, command: &TextureCheckerboard) -> Result<(), Stop> {
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
    pub(crate) fn parameter(
        &mut self,
        target: &str,
        parameter: &str,
        value: &str,
    ) -> Result<(), Stop> {
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
            // GL's defaults change nothing; any other level range is not modelled.
            "base_level" if value == "0" => {}
            "max_level" if value == "1000" => {}
            "max_level" | "base_level" => {
                return Err(Stop::skip(format!(
                    "the emulator does not model texture {parameter} {value}"
                )))
            }
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

impl Level {
    /// The hull, per channel, of the texels a lookup anywhere in `s` x `t` may read with
    /// `linear` filtering or not (`None`: no texel).
    fn footprint(
        &self,
        s: [f64; 2],
        t: [f64; 2],
        linear: bool,
        texture: &Texture,
    ) -> Option<[[f64; 2]; 4]> {
        let span = |range: [f64; 2], size: u32| -> (i64, i64) {
            let n = f64::from(size);
            let shift = if linear { 0.5 } else { 0.0 };
            let lo = (range[0] * n - shift - SELECTION_SLACK).floor();
            let hi =
                (range[1] * n - shift + SELECTION_SLACK).floor() + if linear { 1.0 } else { 0.0 };
            if !(lo.is_finite() && hi.is_finite()) || hi - lo > MAX_SPAN as f64 {
                (0, i64::from(size) - 1)
            } else {
                (lo as i64, hi as i64)
            }
        };
        let (x0, x1) = span(s, self.width);
        let (y0, y1) = span(t, self.height);
        let mut out: Option<[[f64; 2]; 4]> = None;
        for y in y0..=y1 {
            for x in x0..=x1 {
                let texel = unorm(self.texel(x, y, texture)).map(f64::from);
                out = Some(match out {
                    None => texel.map(|v| [v, v]),
                    Some(hull) => {
                        [0, 1, 2, 3].map(|c| [hull[c][0].min(texel[c]), hull[c][1].max(texel[c])])
                    }
                });
            }
        }
        out
    }
}

/// `range` widened by the texel conversion allowance.
fn converted(range: [[f64; 2]; 4]) -> [[f64; 2]; 4] {
    range.map(|[lo, hi]| [lo - TEXEL_ALLOWANCE, hi + TEXEL_ALLOWANCE])
}

impl crate::exec::Textures for Units {
    fn sample(&self, unit: i64, coord: [f32; 2], lod: f32) -> Option<[f32; 4]> {
        let texture = self.units.get(&u32::try_from(unit).ok()?)?;
        if !texture.complete() {
            return Some(INCOMPLETE);
        }
        let minifying = lod > 0.0;
        let filter = if minifying { texture.min } else { texture.mag };
        let level = match filter {
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
        if !texture.complete() {
            return Some(INCOMPLETE);
        }
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

    fn sample_range(
        &self,
        unit: i64,
        s: [f64; 2],
        t: [f64; 2],
        lod: [f32; 2],
    ) -> Option<[[f64; 2]; 4]> {
        let texture = self.units.get(&u32::try_from(unit).ok()?)?;
        let black = INCOMPLETE.map(|v| [f64::from(v); 2]);
        if !texture.complete() {
            return Some(converted(black));
        }
        let mut filters = Vec::new();
        // A NaN level of detail may pick either filter.
        let nan = lod[0].is_nan() || lod[1].is_nan();
        if nan || lod[0] <= 0.0 {
            filters.push((texture.mag, 0.0f32, 0.0f32));
        }
        if nan || lod[1] > 0.0 {
            let top = if nan { f32::INFINITY } else { lod[1] };
            filters.push((texture.min, lod[0].max(0.0), top.max(0.0)));
        }
        let mut hull: Option<[[f64; 2]; 4]> = None;
        let mut join = |range: [[f64; 2]; 4]| {
            hull = Some(match hull {
                None => range,
                Some(h) => {
                    [0, 1, 2, 3].map(|c| [h[c][0].min(range[c][0]), h[c][1].max(range[c][1])])
                }
            });
        };
        for (filter, lo, hi) in filters {
            let levels: Vec<&Level> = match filter {
                Filter::Mipmap(_) => {
                    let (first, last) = (lo.floor().max(0.0) as u32, hi.ceil().max(0.0) as u32);
                    let picked: Vec<&Level> =
                        texture.levels.range(first..=last).map(|(_, l)| l).collect();
                    if picked.is_empty() {
                        texture
                            .levels
                            .range(..=last)
                            .next_back()
                            .map(|(_, l)| l)
                            .into_iter()
                            .collect()
                    } else {
                        picked
                    }
                }
                _ => texture
                    .levels
                    .iter()
                    .next()
                    .map(|(_, l)| l)
                    .into_iter()
                    .collect(),
            };
            let linear = matches!(filter, Filter::Linear | Filter::Mipmap(true));
            for level in levels {
                if let Some(range) = level.footprint(s, t, linear, texture) {
                    join(range);
                }
            }
        }
        Some(converted(hull.unwrap_or(black)))
    }

    fn fetch_range(&self, unit: i64, texel: [i64; 2], level: i64) -> Option<[[f64; 2]; 4]> {
        let value = self.fetch(unit, texel, level)?;
        Some(converted(value.map(|v| [f64::from(v); 2])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::Textures;

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

    /// The 8 x 8 rgbw texture with piglit's defaults (nearest filtering).
    fn nearest_rgbw() -> Units {
        let mut units = Units::new(Filtering::FixedPoint);
        units
            .rgbw(&TextureRgbw {
                unit: 0,
                width: 8,
                height: 8,
                format: None,
            })
            .expect("texture");
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
    fn sample_ranges_hold_every_texel_the_coordinates_may_reach() {
        let units = rgbw(Filtering::FixedPoint);
        // Red | green on the bottom row of the 8 x 8 rgbw texture: a range across the
        // boundary between them holds both.
        let range = units
            .sample_range(0, [0.49, 0.51], [0.1, 0.1], [-1.0, -1.0])
            .expect("texture");
        assert!(
            range[0][0] < 0.0 + 1e-5 && range[0][1] > 1.0 - 1e-5,
            "{range:?}"
        );
        assert!(range[1][0] < 1e-5 && range[1][1] > 1.0 - 1e-5, "{range:?}");
        // Well inside one texel, nearest filtering: that texel, converted within the
        // allowance.
        let nearest = nearest_rgbw();
        let range = nearest
            .sample_range(0, [0.06, 0.07], [0.06, 0.07], [-1.0, 1.0])
            .expect("texture");
        let point = nearest.sample(0, [0.065, 0.065], 0.0).expect("texture");
        for c in 0..4 {
            let v = f64::from(point[c]);
            assert!(range[c][0] <= v && v <= range[c][1]);
            assert!(range[c][1] - range[c][0] <= 2.0 * TEXEL_ALLOWANCE);
        }
    }

    #[test]
    fn a_coordinate_exactly_on_a_nearest_boundary_may_select_either_texel() {
        let nearest = nearest_rgbw();
        // s = 0.5 is texel 4 (green) as binary32 computes it, yet a driver whose texel-space
        // coordinate lands a hair lower reads texel 3 (red): both are conforming.
        let point = nearest.sample(0, [0.5, 0.1], 0.0).expect("texture");
        assert_eq!(point[0], 0.0, "the model picks green");
        let range = nearest
            .sample_range(0, [0.5, 0.5], [0.1, 0.1], [-1.0, -1.0])
            .expect("texture");
        assert!(range[0][0] <= 0.0 && range[0][1] >= 1.0, "{range:?}");
        assert!(range[1][0] <= 0.0 && range[1][1] >= 1.0, "{range:?}");
    }

    #[test]
    fn a_one_level_texture_under_a_mipmap_filter_reads_black_even_magnified() {
        // OpenGL ES 3.0 sections 3.8.13 and 3.9.2: the texture is incomplete, whatever the
        // level of detail of one lookup (found by issue 34's campaign: the emulator read
        // level 0 when magnifying).
        let mut units = rgbw(Filtering::FixedPoint);
        let red = units.sample(0, [0.1, 0.1], -2.0);
        units
            .parameter("2D", "min", "linear_mipmap_linear")
            .expect("mipmap filter");
        assert_eq!(red, Some([1.0, 0.0, 0.0, 1.0]), "complete before");
        for lod in [-2.0, 0.0, 1.5] {
            assert_eq!(
                units.sample(0, [0.1, 0.1], lod),
                Some(INCOMPLETE),
                "lod {lod}"
            );
        }
        let range = units
            .sample_range(0, [0.1, 0.1], [0.1, 0.1], [-2.0, -1.0])
            .expect("texture");
        assert!(range[0][1] < 1e-5 && range[3][0] > 1.0 - 1e-5, "{range:?}");
        assert_eq!(units.fetch(0, [1, 1], 0), Some(INCOMPLETE));
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
