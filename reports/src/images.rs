//! PNG images of float framebuffers: the framebuffer as a person sees it (channels clamped to
//! [0, 1], alpha ignored so nothing turns invisible) and a heat map of the difference between
//! two framebuffers.
//!
//! The heat map shows, per pixel, the largest difference over the four channels on a log
//! scale from 2^-24 (binary16's smallest step near zero) to 1, with a colour map that runs from
//! dark blue through teal to yellow (after viridis): its lightness rises steadily, so it reads
//! without telling red from green and in grey. Pixels that do not differ are black; a NaN or
//! infinite difference is white.

use crate::model::FloatImage;
use crate::ReportError;
use image::{ImageFormat, Rgb, RgbImage};
use std::io::Cursor;

/// The smallest difference the heat map tells apart from zero, as a power of two.
pub const HEAT_MIN_LOG2: f64 = -24.0;

/// The framebuffer as a PNG, top row first as on screen.
pub fn framebuffer_png(image: &FloatImage) -> Result<Vec<u8>, ReportError> {
    let to_byte = |v: f32| {
        let clamped = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
        (clamped * 255.0 + 0.5) as u8
    };
    let colour = |p: [f32; 4]| Rgb([to_byte(p[0]), to_byte(p[1]), to_byte(p[2])]);
    let mut last = Remembered::default();
    let bits = |p: &[f32; 4]| p.map(f32::to_bits);
    let uniform = image.pixels.windows(2).all(|w| bits(&w[0]) == bits(&w[1]));
    encode(image.width, image.height, uniform, |x, y| {
        let p = pixel(image, x, y).unwrap_or([0.0; 4]);
        last.get(p.map(f32::to_bits), || colour(p))
    })
}

/// A heat map of |a - b| per pixel (largest over the channels), with the largest difference
/// found; `None` when the images differ in size.
pub fn difference_png(
    a: &FloatImage,
    b: &FloatImage,
) -> Option<Result<(Vec<u8>, f64), ReportError>> {
    if a.width != b.width || a.height != b.height || a.pixels.len() != b.pixels.len() {
        return None;
    }
    let differences: Vec<f64> = a
        .pixels
        .iter()
        .zip(&b.pixels)
        .map(|(p, q)| {
            p.iter().zip(q).fold(0.0, |largest: f64, (u, v)| {
                let d = if u.to_bits() == v.to_bits() {
                    0.0
                } else {
                    (f64::from(*u) - f64::from(*v)).abs()
                };
                if d.is_nan() {
                    f64::INFINITY
                } else {
                    largest.max(d)
                }
            })
        })
        .collect();
    let largest = differences.iter().copied().fold(0.0, f64::max);
    let at = |x: u32, y: u32| {
        let row = a.height.saturating_sub(1).saturating_sub(y) as usize;
        differences
            .get(row * a.width as usize + x as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let mut last = Remembered::default();
    let uniform = differences
        .windows(2)
        .all(|w| w[0].to_bits() == w[1].to_bits());
    let png = encode(a.width, a.height, uniform, |x, y| {
        let d = at(x, y);
        last.get(d.to_bits(), || heat(d))
    });
    Some(png.map(|png| (png, largest)))
}

/// The heat map's colour for a difference.
pub fn heat(difference: f64) -> Rgb<u8> {
    if difference == 0.0 {
        return Rgb([0, 0, 0]);
    }
    if !difference.is_finite() {
        return Rgb([255, 255, 255]);
    }
    let t = ((difference.log2() - HEAT_MIN_LOG2) / -HEAT_MIN_LOG2).clamp(0.0, 1.0);
    colour_map(t)
}

/// Viridis, sampled at five stops and interpolated linearly.
pub fn colour_map(t: f64) -> Rgb<u8> {
    const STOPS: [[f64; 3]; 5] = [
        [68.0, 1.0, 84.0],
        [59.0, 82.0, 139.0],
        [33.0, 145.0, 140.0],
        [94.0, 201.0, 98.0],
        [253.0, 231.0, 37.0],
    ];
    let scaled = t.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let i = (scaled.floor() as usize).min(STOPS.len() - 2);
    let f = scaled - i as f64;
    let (lo, hi) = (STOPS[i], STOPS[i + 1]);
    let mix = |c: usize| (lo[c] + (hi[c] - lo[c]) * f).round() as u8;
    Rgb([mix(0), mix(1), mix(2)])
}

/// The colour of the last value asked for: neighbouring pixels mostly hold the same value,
/// and a whole framebuffer often one, so each run of them is coloured once.
struct Remembered<K> {
    last: Option<(K, Rgb<u8>)>,
}

impl<K> Default for Remembered<K> {
    fn default() -> Self {
        Remembered { last: None }
    }
}

impl<K: PartialEq> Remembered<K> {
    /// The colour of `key`: the last one's when `key` is the last key, else `colour()`.
    fn get(&mut self, key: K, colour: impl FnOnce() -> Rgb<u8>) -> Rgb<u8> {
        match &self.last {
            Some((last, rgb)) if *last == key => *rgb,
            _ => {
                let rgb = colour();
                self.last = Some((key, rgb));
                rgb
            }
        }
    }
}

/// Pixel `(x, y)` counted from the top-left corner.
fn pixel(image: &FloatImage, x: u32, y: u32) -> Option<[f32; 4]> {
    let row = image.height.checked_sub(1)?.checked_sub(y)?;
    image
        .pixels
        .get(row as usize * image.width as usize + x as usize)
        .copied()
}

/// Encodes a `width` x `height` PNG whose pixel `(x, y)` (from the top left) is `f(x, y)`.
/// An image of one colour (`uniform`) is encoded at the smallest size of the same shape
/// (1x1 for a square window), which the page's pixelated scaling shows alike: most of a
/// suite's framebuffers are one colour, and a 250x250 PNG of each was most of a report's cost.
fn encode(
    width: u32,
    height: u32,
    uniform: bool,
    f: impl FnMut(u32, u32) -> Rgb<u8>,
) -> Result<Vec<u8>, ReportError> {
    let (width, height) = match (uniform, gcd(width, height)) {
        (true, g) if g > 0 => (width / g, height / g),
        _ => (width, height),
    };
    let img = RgbImage::from_fn(width, height, f);
    let mut bytes = Cursor::new(Vec::new());
    img.write_to(&mut bytes, ImageFormat::Png)?;
    Ok(bytes.into_inner())
}

/// Greatest common divisor (0 when both are 0).
fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(width: u32, height: u32, f: impl Fn(u32, u32) -> [f32; 4]) -> FloatImage {
        let mut pixels = Vec::new();
        for y in 0..height {
            for x in 0..width {
                pixels.push(f(x, y));
            }
        }
        FloatImage {
            width,
            height,
            pixels,
        }
    }

    #[test]
    fn framebuffer_png_puts_gl_row_zero_at_the_bottom() {
        let img = image(2, 2, |_, y| {
            if y == 0 {
                [1.0, 0.0, 0.0, 1.0]
            } else {
                [0.0; 4]
            }
        });
        let png = framebuffer_png(&img).expect("encodes");
        let decoded = image::load_from_memory(&png).expect("decodes").to_rgb8();
        assert_eq!(decoded.get_pixel(0, 1), &Rgb([255, 0, 0]));
        assert_eq!(decoded.get_pixel(0, 0), &Rgb([0, 0, 0]));
    }

    #[test]
    fn heat_map_is_black_where_equal_and_brighter_where_the_difference_grows() {
        let a = image(3, 1, |_, _| [0.5; 4]);
        let b = image(3, 1, |x, _| {
            [0.5 + [0.0, 1.0 / 4096.0, 0.25][x as usize], 0.5, 0.5, 0.5]
        });
        let (png, largest) = difference_png(&a, &b).expect("same size").expect("encodes");
        assert_eq!(largest, 0.25);
        let decoded = image::load_from_memory(&png).expect("decodes").to_rgb8();
        let lightness = |x: u32| {
            decoded
                .get_pixel(x, 0)
                .0
                .iter()
                .map(|&c| u32::from(c))
                .sum::<u32>()
        };
        assert_eq!(lightness(0), 0);
        assert!(lightness(1) > 0 && lightness(2) > lightness(1));
    }

    #[test]
    fn an_image_of_one_colour_is_encoded_at_the_smallest_size_of_its_shape() {
        let decode = |png: Vec<u8>| image::load_from_memory(&png).expect("decodes").to_rgb8();
        let square = decode(
            framebuffer_png(&image(250, 250, |_, _| [0.0, 1.0, 0.0, 1.0])).expect("encodes"),
        );
        assert_eq!(square.dimensions(), (1, 1));
        assert_eq!(square.get_pixel(0, 0), &Rgb([0, 255, 0]));
        let wide = decode(framebuffer_png(&image(250, 200, |_, _| [0.5; 4])).expect("encodes"));
        assert_eq!(wide.dimensions(), (5, 4));
        let a = image(6, 4, |_, _| [0.5; 4]);
        let (same, largest) = difference_png(&a, &a).expect("same size").expect("encodes");
        assert_eq!((decode(same).dimensions(), largest), ((3, 2), 0.0));
        // One pixel apart keeps every pixel.
        let b = image(6, 4, |x, y| {
            if (x, y) == (5, 3) {
                [0.25; 4]
            } else {
                [0.5; 4]
            }
        });
        assert_eq!(
            decode(framebuffer_png(&b).expect("encodes")).dimensions(),
            (6, 4)
        );
        let (map, _) = difference_png(&a, &b).expect("same size").expect("encodes");
        assert_eq!(decode(map).dimensions(), (6, 4));
    }

    #[test]
    fn images_of_different_sizes_have_no_difference_map() {
        assert!(
            difference_png(&image(1, 1, |_, _| [0.0; 4]), &image(2, 1, |_, _| [0.0; 4])).is_none()
        );
    }
}
