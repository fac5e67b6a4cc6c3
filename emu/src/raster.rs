//! Rasterisation: a triangle in window coordinates becomes the 2x2 quads it touches, each
//! pixel with its coverage, and the blocks of pixels it covers whole.
//!
//! When the profile's `raster.subpixel_snap` says so (llvmpipe), vertices snap to 1/256 of a
//! pixel (softpipe: no snapping); coverage is
//! exact; a pixel centre exactly on an edge belongs to the triangle for which it is a left
//! edge, or a bottom edge (the top-left rule with rows counted from the bottom). Quads keep their
//! uncovered pixels (helper invocations, for derivatives). Only quads holding a pixel that
//! some probe reads are kept (`needed`). Snapped, a 16x16 block of pixels wholly inside or
//! outside the triangle is decided from its corners instead of pixel by pixel (one an edge
//! crosses, by its 4x4 sub-blocks the same way, before pixel by pixel), and a block
//! wholly inside (and inside the framebuffer, every pixel of it needed) is kept as a block,
//! not as its 64 quads.

/// A vertex after the viewport transform.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct WindowVertex {
    /// Window x (pixels from the left).
    pub x: f64,
    /// Window y (pixels from the bottom).
    pub y: f64,
}

/// A 2x2 block of pixels: (x, y), (x+1, y), (x, y+1), (x+1, y+1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Quad {
    /// Left column (even).
    pub x: u32,
    /// Bottom row (even).
    pub y: u32,
    /// Which pixels the triangle covers (and lie in the framebuffer).
    pub covered: [bool; 4],
}

/// The pixels a triangle covers: the blocks it covers whole and the quads elsewhere.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Coverage {
    /// Lower-left corners of the `BLOCK` x `BLOCK` blocks covered whole: each inside the
    /// framebuffer, every pixel of it one some probe reads.
    pub blocks: Vec<(u32, u32)>,
    /// The quads outside those blocks holding a covered pixel some probe reads.
    pub quads: Vec<Quad>,
}

impl Coverage {
    /// Whether it covers nothing.
    pub(crate) fn is_empty(&self) -> bool {
        self.blocks.is_empty() && self.quads.is_empty()
    }

    /// The first `n` quads of [`Coverage::all_quads`], expanding no more blocks than that.
    pub(crate) fn first_quads(&self, n: usize) -> Vec<Quad> {
        let mut quads: Vec<Quad> = self.quads.iter().take(n).copied().collect();
        for &block in &self.blocks {
            if quads.len() >= n {
                break;
            }
            quads.extend(block_quads(block).take(n - quads.len()));
        }
        quads
    }

    /// Every quad: those outside whole blocks, then each block's, row by row.
    pub(crate) fn all_quads(&self) -> Vec<Quad> {
        let per_block = (BLOCK / 2 * BLOCK / 2) as usize;
        let mut quads = Vec::with_capacity(self.quads.len() + self.blocks.len() * per_block);
        quads.extend_from_slice(&self.quads);
        for &block in &self.blocks {
            quads.extend(block_quads(block));
        }
        quads
    }
}

/// The quads of the block at `(bx, by)`, every pixel covered, row by row from the bottom.
fn block_quads((bx, by): (u32, u32)) -> impl Iterator<Item = Quad> {
    (by..by + BLOCK).step_by(2).flat_map(move |y| {
        (bx..bx + BLOCK).step_by(2).map(move |x| Quad {
            x,
            y,
            covered: [true; 4],
        })
    })
}

/// What triangle `v` covers in a `width` x `height` framebuffer, and whether it faces front
/// (counter-clockwise). Degenerate triangles cover nothing.
pub(crate) fn triangle(
    v: [WindowVertex; 3],
    width: u32,
    height: u32,
    needed: Option<&[bool]>,
    snap: bool,
) -> (Coverage, bool) {
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
        return (Coverage::default(), false);
    }
    let edge = |a: [f64; 2], b: [f64; 2], p: [f64; 2]| {
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    };
    let area = edge(fixed[0], fixed[1], fixed[2]);
    let front = area > 0.0;
    if area == 0.0 {
        return (Coverage::default(), front);
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
    // Whether the triangle covers every pixel centre of the `size` x `size` block at (bx, by)
    // (`Some(true)`), none (`Some(false)`), or some (`None`, pixel by pixel). Snapped, the
    // edge functions are integers and affine, so over a block they are least and greatest at
    // its corners.
    let classify = |bx: u32, by: u32, size: u32| {
        let last = size - 1;
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
    // How many pixels of the block at (bx, by) some probe reads: all, none or some.
    let needed_in = |bx: u32, by: u32| -> Option<bool> {
        let Some(needed) = needed else {
            return Some(true);
        };
        let row = |y: u32| {
            let start = y as usize * width as usize + bx as usize;
            needed.get(start..start + BLOCK as usize).unwrap_or(&[])
        };
        let count: usize = (by..by + BLOCK)
            .map(|y| row(y).iter().filter(|&&n| n).count())
            .sum();
        match count {
            0 => Some(false),
            c if c == (BLOCK * BLOCK) as usize => Some(true),
            _ => None,
        }
    };
    let mut coverage = Coverage::default();
    if x0 > x1 || y0 > y1 {
        return (coverage, front);
    }
    for by in (y0 / BLOCK * BLOCK..=y1).step_by(BLOCK as usize) {
        for bx in (x0 / BLOCK * BLOCK..=x1).step_by(BLOCK as usize) {
            let class = classify(bx, by, BLOCK);
            if class == Some(false) {
                continue;
            }
            let inside = bx + BLOCK <= width && by + BLOCK <= height;
            if class == Some(true) && inside {
                match needed_in(bx, by) {
                    Some(true) => {
                        coverage.blocks.push((bx, by));
                        continue;
                    }
                    Some(false) => continue,
                    None => {}
                }
            }
            // The block's quads inside the bounding box, by sub-blocks decided at their
            // corners as the block is, the rest pixel by pixel.
            for sy in (by..by + BLOCK).step_by(SUB_BLOCK as usize) {
                for sx in (bx..bx + BLOCK).step_by(SUB_BLOCK as usize) {
                    let class = class.or_else(|| classify(sx, sy, SUB_BLOCK));
                    if class == Some(false) {
                        continue;
                    }
                    for qy in (sy.max(y0)..=(sy + SUB_BLOCK - 1).min(y1)).step_by(2) {
                        for qx in (sx.max(x0)..=(sx + SUB_BLOCK - 1).min(x1)).step_by(2) {
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
                                wanted |= covered
                                    && needed
                                        .is_none_or(|n| n.get(index).copied().unwrap_or(false));
                            }
                            if wanted {
                                coverage.quads.push(quad);
                            }
                        }
                    }
                }
            }
        }
    }
    (coverage, front)
}

/// Subpixel steps per pixel (llvmpipe's `FIXED_ONE`).
const SUBPIXELS: i64 = 256;

/// Side of the blocks of pixels whose coverage is decided from their corners (even, so a
/// quad never straddles two).
pub(crate) const BLOCK: u32 = 16;

/// Side of the sub-blocks a block the triangle's edge crosses is decided by, again from
/// their corners (even, dividing `BLOCK`).
const SUB_BLOCK: u32 = 4;

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
        for q in a.all_quads().iter().chain(&b.all_quads()) {
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
            let (coverage, _) = triangle(window, width, height, None, true);
            let quads = coverage.all_quads();
            assert_eq!(coverage.first_quads(50), quads[..quads.len().min(50)]);
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
        let a = a.all_quads();
        let covers = |quads: &[Quad], x: u32, y: u32| {
            quads.iter().any(|q| {
                (0..4u32).any(|k| q.covered[k as usize] && q.x + k % 2 == x && q.y + k / 2 == y)
            })
        };
        assert!(covers(&a, 3, 4));
    }

    #[test]
    fn a_block_covered_whole_is_kept_as_a_block_unless_a_probe_reads_part_of_it() {
        // A 48x40 window under one triangle that covers all of it: blocks where they fit
        // (three columns, two rows), quads along the top 8 rows.
        let big = [at(-10.0, -10.0), at(200.0, -10.0), at(-10.0, 200.0)];
        let (coverage, _) = triangle(big, 48, 40, None, true);
        let blocks = [(0, 0), (16, 0), (32, 0), (0, 16), (16, 16), (32, 16)];
        assert_eq!(coverage.blocks, blocks);
        assert_eq!(coverage.quads.len(), 24 * 4);
        // A probe that reads one pixel of the first block: that block becomes the one quad
        // holding the pixel; the blocks no probe reads are dropped.
        let mut needed = vec![false; 48 * 40];
        needed[3 * 48 + 5] = true;
        let (coverage, _) = triangle(big, 48, 40, Some(&needed), true);
        assert!(coverage.blocks.is_empty());
        assert_eq!(
            coverage.quads,
            [Quad {
                x: 4,
                y: 2,
                covered: [true; 4]
            }]
        );
        // Every pixel of the first block read: it is a block again.
        for y in 0..16 {
            needed[y * 48..y * 48 + 16].fill(true);
        }
        let (coverage, _) = triangle(big, 48, 40, Some(&needed), true);
        assert_eq!(coverage.blocks, [(0, 0)]);
        assert!(coverage.quads.is_empty());
    }
}
