//! Rasterisation: a triangle in window coordinates becomes the 2x2 quads it touches, each
//! pixel with its coverage.
//!
//! When the profile's `raster.subpixel_snap` says so (llvmpipe), vertices snap to 1/256 of a
//! pixel (softpipe: no snapping); coverage is
//! exact; a pixel centre exactly on an edge belongs to the triangle for which it is a left
//! edge, or a bottom edge (the top-left rule with rows counted from the bottom). Quads keep their
//! uncovered pixels (helper invocations, for derivatives). Only quads holding a pixel that
//! some probe reads are kept (`needed`). Snapped, a 16x16 block of pixels wholly inside or
//! outside the triangle is decided from its corners instead of pixel by pixel.

/// A vertex after the viewport transform.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WindowVertex {
    /// Window x (pixels from the left).
    pub x: f64,
    /// Window y (pixels from the bottom).
    pub y: f64,
}

/// A 2x2 block of pixels: (x, y), (x+1, y), (x, y+1), (x+1, y+1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quad {
    /// Left column (even).
    pub x: u32,
    /// Bottom row (even).
    pub y: u32,
    /// Which pixels the triangle covers (and lie in the framebuffer).
    pub covered: [bool; 4],
}

/// The quads of triangle `v` in a `width` x `height` framebuffer, and whether it faces front
/// (counter-clockwise). Degenerate triangles give no quads.
pub fn triangle(
    v: [WindowVertex; 3],
    width: u32,
    height: u32,
    needed: Option<&[bool]>,
    snap: bool,
) -> (Vec<Quad>, bool) {
    // Positions relative to pixel centres in 1/256 of a pixel, rounded to that grid when
    // `snap`, else the exact binary32 coordinates scaled by 256: either
    // way the edge functions below are exact.
    let to_grid = |x: f64| {
        let scaled = (x - 0.5) * SUBPIXELS as f64;
        if snap {
            scaled.round()
        } else {
            scaled
        }
    };
    let limit = (i64::from(width.max(height)) + 1) * SUBPIXELS * 64;
    let fixed = v.map(|p| [to_grid(p.x), to_grid(p.y)]);
    if fixed
        .iter()
        .flatten()
        .any(|c| !c.is_finite() || c.abs() > limit as f64)
    {
        return (Vec::new(), false);
    }
    let edge = |a: [f64; 2], b: [f64; 2], p: [f64; 2]| {
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    };
    let area = edge(fixed[0], fixed[1], fixed[2]);
    let front = area > 0.0;
    if area == 0.0 {
        return (Vec::new(), front);
    }
    // Counter-clockwise order from here on.
    let f = if front {
        fixed
    } else {
        [fixed[0], fixed[2], fixed[1]]
    };
    // Edge i is opposite vertex i: from f[i+1] to f[i+2]. A centre on an edge is inside for
    // left edges (going down) and bottom edges (going right).
    let edges = [(f[1], f[2]), (f[2], f[0]), (f[0], f[1])];
    let owns_ties = edges.map(|(a, b)| b[1] < a[1] || (a[1] == b[1] && b[0] > a[0]));
    let bound = |c: usize, size: u32| {
        let grid = SUBPIXELS as f64;
        let lo = f.iter().map(|p| p[c]).fold(f64::INFINITY, f64::min);
        let hi = f.iter().map(|p| p[c]).fold(f64::NEG_INFINITY, f64::max);
        let clamp = |x: f64| x.clamp(0.0, f64::from(size)) as u32;
        let (lo, hi) = (clamp((lo / grid).floor()), clamp((hi / grid).floor() + 1.0));
        (lo & !1, hi.min(size.saturating_sub(1)))
    };
    let ((x0, x1), (y0, y1)) = (bound(0, width), bound(1, height));
    let centre = |px: u32, py: u32| [f64::from(px), f64::from(py)].map(|c| c * SUBPIXELS as f64);
    // Whether the triangle covers every pixel centre of the block at (bx, by) (`Some(true)`),
    // none (`Some(false)`), or some (`None`, pixel by pixel). Snapped, the edge functions
    // are integers and affine, so over a block they are least and greatest at its corners.
    let classify = |bx: u32, by: u32| {
        let last = BLOCK - 1;
        let corners =
            [(0, 0), (last, 0), (0, last), (last, last)].map(|(dx, dy)| centre(bx + dx, by + dy));
        let values = edges.map(|(a, b)| corners.map(|c| edge(a, b, c)));
        if !snap {
            None
        } else if values.iter().flatten().all(|&e| e > 0.0) {
            Some(true)
        } else if values.iter().any(|v| v.iter().all(|&e| e < 0.0)) {
            Some(false)
        } else {
            None
        }
    };
    let mut quads = Vec::new();
    let mut blocks: Vec<Option<Option<bool>>> = Vec::new();
    for qy in (y0..=y1).step_by(2) {
        if qy == y0 || qy % BLOCK == 0 {
            blocks = vec![None; (x1 / BLOCK + 1) as usize];
        }
        for qx in (x0..=x1).step_by(2) {
            let block = &mut blocks[(qx / BLOCK) as usize];
            let class =
                *block.get_or_insert_with(|| classify(qx / BLOCK * BLOCK, qy / BLOCK * BLOCK));
            if class == Some(false) {
                continue;
            }
            let mut quad = Quad {
                x: qx,
                y: qy,
                covered: [false; 4],
            };
            let mut wanted = false;
            for k in 0..4u32 {
                let (px, py) = (qx + k % 2, qy + k / 2);
                let inside = class.unwrap_or_else(|| {
                    let e = edges.map(|(a, b)| edge(a, b, centre(px, py)));
                    (0..3).all(|i| e[i] > 0.0 || (e[i] == 0.0 && owns_ties[i]))
                });
                let covered = inside && px < width && py < height;
                quad.covered[k as usize] = covered;
                let index = py as usize * width as usize + px as usize;
                wanted |= covered && needed.is_none_or(|n| n.get(index).copied().unwrap_or(false));
            }
            if wanted {
                quads.push(quad);
            }
        }
    }
    (quads, front)
}

/// Subpixel steps per pixel (llvmpipe's `FIXED_ONE`).
const SUBPIXELS: i64 = 256;

/// Side of the blocks of pixels whose coverage is decided from their corners (even, so a
/// quad never straddles two).
const BLOCK: u32 = 16;

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f64, y: f64) -> WindowVertex {
        WindowVertex { x, y }
    }

    #[test]
    fn two_triangles_of_a_rectangle_cover_every_pixel_once() {
        let (a, _) = triangle([at(0.0, 0.0), at(8.0, 0.0), at(0.0, 8.0)], 8, 8, None, true);
        let (b, _) = triangle([at(0.0, 8.0), at(8.0, 0.0), at(8.0, 8.0)], 8, 8, None, true);
        let mut count = [0u32; 64];
        for q in a.iter().chain(&b) {
            for k in 0..4u32 {
                if q.covered[k as usize] {
                    count[((q.y + k / 2) * 8 + q.x + k % 2) as usize] += 1;
                }
            }
        }
        assert!(count.iter().all(|&c| c == 1), "{count:?}");
    }

    /// Coverage of pixel `(px, py)` by the snapped triangle `v` (in 1/256 pixel), from
    /// integer edge functions and the top-left rule (rows counted from the bottom).
    fn covers_exactly(v: [[i64; 2]; 3], px: i64, py: i64) -> bool {
        let edge = |a: [i64; 2], b: [i64; 2], p: [i64; 2]| {
            (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
        };
        let area = edge(v[0], v[1], v[2]);
        let f = if area > 0 { v } else { [v[0], v[2], v[1]] };
        let p = [px * 256 + 128, py * 256 + 128];
        [(f[1], f[2]), (f[2], f[0]), (f[0], f[1])]
            .iter()
            .all(|&(a, b)| {
                let e = edge(a, b, p);
                e > 0 || (e == 0 && (b[1] < a[1] || (a[1] == b[1] && b[0] > a[0])))
            })
    }

    #[test]
    fn coverage_decided_by_blocks_matches_every_pixel_centre() {
        let (width, height) = (100u32, 90u32);
        let mut seed = 12345u64;
        let mut next = |range: i64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as i64 % range
        };
        for round in 0..120 {
            // Every other triangle has its corners on the centres of pixels at the sides of
            // blocks, so that edges run along block sides and through block corners.
            let mut coordinate = |range: i64| match round % 2 {
                0 => next(range * 256) - 20 * 256,
                _ => (next(range / 16) * 16 + 15 * next(2) - 16) * 256 + 128,
            };
            let v = [0; 3].map(|_| [coordinate(140), coordinate(130)]);
            let window = v.map(|p| at(p[0] as f64 / 256.0, p[1] as f64 / 256.0));
            let (quads, _) = triangle(window, width, height, None, true);
            let mut covered = vec![false; (width * height) as usize];
            for q in &quads {
                for k in (0..4u32).filter(|&k| q.covered[k as usize]) {
                    covered[((q.y + k / 2) * width + q.x + k % 2) as usize] = true;
                }
            }
            let area = (v[1][0] - v[0][0]) * (v[2][1] - v[0][1])
                - (v[1][1] - v[0][1]) * (v[2][0] - v[0][0]);
            for (i, &c) in covered.iter().enumerate() {
                let (px, py) = (i as i64 % width as i64, i as i64 / width as i64);
                assert_eq!(
                    c,
                    area != 0 && covers_exactly(v, px, py),
                    "{v:?} at ({px}, {py})"
                );
            }
        }
    }

    #[test]
    fn the_shared_diagonal_of_a_rectangle_belongs_to_its_second_triangle() {
        // Pixel (3, 4) has its centre on the diagonal of an 8x8 rectangle.
        let (a, _) = triangle([at(0.0, 8.0), at(8.0, 0.0), at(8.0, 8.0)], 8, 8, None, true);
        let covers = |quads: &[Quad], x: u32, y: u32| {
            quads.iter().any(|q| {
                (0..4u32).any(|k| q.covered[k as usize] && q.x + k % 2 == x && q.y + k / 2 == y)
            })
        };
        assert!(covers(&a, 3, 4));
    }
}
