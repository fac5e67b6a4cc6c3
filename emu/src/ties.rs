//! Coverage a conforming driver may decide either way, for acceptance intervals.
//!
//! The rasteriser decides coverage as the modelled driver does (its snapping and tie rule).
//! GLSL ES asks for only 4 bits of subpixel precision, and leaves the tie rule to the driver,
//! so a pixel whose centre lies within [`EDGE_SLACK`] of a triangle's edge (or within the
//! vertices' own slack, where the vertex shader's bounds leave the position open) may be
//! covered or not by another driver. In a domain that tracks ranges, every such pixel some
//! probe reads takes the hull of every value it may end with: each triangle of the draw that
//! covers it or may cover it, shaded there, and the value it held before the draw, unless
//! the draw surely covers it: a triangle holds it well inside, or it lies only near edges two
//! triangles of the draw share (GL draws a pixel on a shared edge exactly once).

use super::raster::{Coverage, Quad, WindowVertex, BLOCK};
use std::collections::BTreeMap;

/// How far from an edge, in pixels, a pixel centre's coverage is left to the driver: the
/// spec's minimum of 4 subpixel bits snaps a vertex up to 1/32 of a pixel, and the tie rule
/// is the driver's.
pub(crate) const EDGE_SLACK: f64 = 1.0 / 16.0;

/// One triangle of a draw as the ties see it.
pub(crate) struct Triangle<'a> {
    /// Window vertices.
    pub vertices: [WindowVertex; 3],
    /// What the modelled driver covers (`None`: nothing).
    pub coverage: Option<&'a Coverage>,
    /// How far, in pixels, each vertex may lie from where it is drawn.
    pub slack: f64,
}

/// A pixel whose final value the ties leave open, and what it may end with.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Tie {
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
    /// The triangles (indices into the draw's list) that cover it or may.
    pub candidates: Vec<usize>,
    /// Whether it may keep the value it held before the draw.
    pub may_keep: bool,
}

/// The pixels of a draw that some probe reads (`needed`, `None`: all) whose coverage a
/// conforming driver may decide otherwise than the model, in row order.
pub(crate) fn ties(
    triangles: &[Triangle],
    width: u32,
    height: u32,
    needed: Option<&[bool]>,
) -> Vec<Tie> {
    let edges: Vec<[[u64; 4]; 3]> = triangles.iter().map(|t| edge_keys(&t.vertices)).collect();
    let shared = |t: usize, e: usize| {
        let key = edges[t][e];
        edges
            .iter()
            .enumerate()
            .any(|(u, keys)| u != t && keys.iter().any(|k| same_edge(*k, key)))
    };
    // Per pixel: (candidates, whether some triangle may leave it uncovered).
    let mut open: BTreeMap<(u32, u32), (Vec<usize>, bool)> = BTreeMap::new();
    for (t, triangle) in triangles.iter().enumerate() {
        let slack = EDGE_SLACK.max(triangle.slack);
        for (x, y, near) in near_edges(triangle.vertices, width, height, needed, slack) {
            let entry = open.entry((y, x)).or_default();
            entry.0.push(t);
            entry.1 |= (0..3).any(|e| near & (1 << e) != 0 && !shared(t, e));
        }
    }
    if open.is_empty() {
        return Vec::new();
    }
    let covered: Vec<Option<Covered>> = triangles
        .iter()
        .map(|t| t.coverage.map(Covered::new))
        .collect();
    open.into_iter()
        .map(|((y, x), (mut candidates, boundary))| {
            let mut held = false;
            for (t, coverage) in covered.iter().enumerate() {
                if coverage.as_ref().is_some_and(|c| c.holds(x, y)) && !candidates.contains(&t) {
                    candidates.push(t);
                    held = true;
                }
            }
            candidates.sort_unstable();
            Tie {
                x,
                y,
                candidates,
                may_keep: boundary && !held,
            }
        })
        .collect()
}

/// A triangle's modelled coverage, sorted for lookups: whether it holds a pixel costs two
/// binary searches, not a scan of every block and quad.
struct Covered {
    /// Lower-left corners of the whole blocks (multiples of `BLOCK`), sorted by row.
    blocks: Vec<(u32, u32)>,
    /// Each quad's lower-left corner (row first) and covered pixels, sorted, one per corner.
    quads: Vec<((u32, u32), [bool; 4])>,
}

impl Covered {
    fn new(coverage: &Coverage) -> Covered {
        let mut blocks: Vec<(u32, u32)> = coverage.blocks.iter().map(|&(x, y)| (y, x)).collect();
        blocks.sort_unstable();
        let mut quads: Vec<((u32, u32), [bool; 4])> = coverage
            .quads
            .iter()
            .map(|q| ((q.y, q.x), q.covered))
            .collect();
        quads.sort_unstable_by_key(|&(at, _)| at);
        // One entry per corner, holding what every quad there covers.
        quads.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                for (k, l) in kept.1.iter_mut().zip(later.1) {
                    *k |= l;
                }
            }
            same
        });
        Covered { blocks, quads }
    }

    /// Whether the coverage holds pixel `(x, y)`.
    fn holds(&self, x: u32, y: u32) -> bool {
        let block = (y / BLOCK * BLOCK, x / BLOCK * BLOCK);
        if self.blocks.binary_search(&block).is_ok() {
            return true;
        }
        let corner = (y & !1, x & !1);
        self.quads
            .binary_search_by_key(&corner, |&(at, _)| at)
            .is_ok_and(|i| self.quads[i].1[((y % 2) * 2 + x % 2) as usize])
    }
}

/// The quad holding pixel `(x, y)`, only that pixel covered.
pub(crate) fn quad_of(x: u32, y: u32) -> Quad {
    let mut covered = [false; 4];
    covered[((y % 2) * 2 + x % 2) as usize] = true;
    Quad {
        x: x & !1,
        y: y & !1,
        covered,
    }
}

/// The edges of a triangle, each as its two endpoints' bits in a canonical order (edge `i`
/// is opposite vertex `i`).
fn edge_keys(v: &[WindowVertex; 3]) -> [[u64; 4]; 3] {
    [0, 1, 2].map(|i| {
        let (a, b) = (v[(i + 1) % 3], v[(i + 2) % 3]);
        let (a, b) = (
            [a.x.to_bits(), a.y.to_bits()],
            [b.x.to_bits(), b.y.to_bits()],
        );
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        [a[0], a[1], b[0], b[1]]
    })
}

/// Whether two edge keys are one edge.
fn same_edge(a: [u64; 4], b: [u64; 4]) -> bool {
    a == b
}

/// The needed pixels whose centre lies within `slack` pixels of triangle `v`'s boundary,
/// inside or outside, each with the edges it lies near (bit `i`: the edge opposite vertex
/// `i`). A degenerate triangle has none; an unbounded slack takes every needed pixel.
pub(crate) fn near_edges(
    v: [WindowVertex; 3],
    width: u32,
    height: u32,
    needed: Option<&[bool]>,
    slack: f64,
) -> Vec<(u32, u32, u8)> {
    let is_needed = |x: u32, y: u32| {
        needed.is_none_or(|n| n.get(y as usize * width as usize + x as usize) == Some(&true))
    };
    if !slack.is_finite() {
        return (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .filter(|&(x, y)| is_needed(x, y))
            .map(|(x, y)| (x, y, 0b111))
            .collect();
    }
    let cross = |a: WindowVertex, b: WindowVertex, px: f64, py: f64| {
        (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x)
    };
    let area = cross(v[0], v[1], v[2].x, v[2].y);
    if area == 0.0 || !area.is_finite() {
        return Vec::new();
    }
    let sign = area.signum();
    // Each edge's length, once per triangle.
    let lengths = [0, 1, 2].map(|i| {
        let (a, b) = (v[(i + 1) % 3], v[(i + 2) % 3]);
        (b.x - a.x).hypot(b.y - a.y)
    });
    // Signed distance of a point to edge i, positive inside.
    let distance = |i: usize, px: f64, py: f64| {
        let (a, b) = (v[(i + 1) % 3], v[(i + 2) % 3]);
        sign * cross(a, b, px, py) / lengths[i]
    };
    let lo = |c: fn(&WindowVertex) -> f64| v.iter().map(c).fold(f64::INFINITY, f64::min);
    let hi = |c: fn(&WindowVertex) -> f64| v.iter().map(c).fold(f64::NEG_INFINITY, f64::max);
    let range = |lo: f64, hi: f64, size: u32| {
        let first = (lo - slack - 0.5).floor().max(0.0);
        let last = (hi + slack - 0.5).ceil().min(f64::from(size) - 1.0);
        (first as u32, last.max(first - 1.0) as i64)
    };
    let (x0, x1) = range(lo(|p| p.x), hi(|p| p.x), width);
    let (y0, y1) = range(lo(|p| p.y), hi(|p| p.y), height);
    let mut out = Vec::new();
    for y in (y0 as i64..=y1).filter_map(|y| u32::try_from(y).ok()) {
        let py = f64::from(y) + 0.5;
        for (first, last) in columns_near_edges(&v, &lengths, py, slack, (i64::from(x0), x1)) {
            for x in (first..=last).filter_map(|x| u32::try_from(x).ok()) {
                if !is_needed(x, y) {
                    continue;
                }
                let px = f64::from(x) + 0.5;
                let near = near_mask([0, 1, 2].map(|i| distance(i, px, py)), slack);
                if near != 0 {
                    out.push((x, y, near));
                }
            }
        }
    }
    out
}

/// The edges a pixel centre at signed distances `d` from them lies near (bit `i`: edge `i`):
/// none when it lies `slack` or more outside one, or that far inside all three.
fn near_mask(d: [f64; 3], slack: f64) -> u8 {
    if d.iter().any(|&e| e <= -slack) || d.iter().all(|&e| e >= slack) {
        return 0;
    }
    (0..3)
        .filter(|&i| d[i].abs() < slack)
        .fold(0u8, |m, i| m | (1 << i))
}

/// The columns of row `py` (pixel centres) that may lie within `slack` of an edge's line,
/// as ascending disjoint ranges within `columns`: along a row an edge's distance is linear,
/// so each edge leaves one range, a pixel wider either side than its line's for rounding.
/// Pixels outside them are near no edge; far from the origin, where rounding could pass a
/// pixel, the whole row.
fn columns_near_edges(
    v: &[WindowVertex; 3],
    lengths: &[f64; 3],
    py: f64,
    slack: f64,
    (x0, x1): (i64, i64),
) -> Vec<(i64, i64)> {
    const FAR: f64 = 1e6;
    if v.iter().any(|p| !(p.x.abs() < FAR && p.y.abs() < FAR)) {
        return vec![(x0, x1)];
    }
    let mut ranges: Vec<(i64, i64)> = Vec::with_capacity(3);
    for i in 0..3 {
        let (a, b) = (v[(i + 1) % 3], v[(i + 2) % 3]);
        let rise = b.y - a.y;
        if rise == 0.0 {
            // Parallel to the rows: its distance is the same along the row.
            let d = (py - a.y).abs();
            if d < slack + 1.0 {
                ranges.push((x0, x1));
            }
            continue;
        }
        // Where the line crosses the row, and how far along the row `slack` reaches.
        let cross = a.x + (b.x - a.x) * (py - a.y) / rise;
        let reach = slack * lengths[i] / rise.abs();
        let first = (cross - reach - 0.5).floor() - 1.0;
        let last = (cross + reach - 0.5).ceil() + 1.0;
        if !(first.is_finite() && last.is_finite()) {
            return vec![(x0, x1)];
        }
        let (first, last) = ((first as i64).max(x0), (last as i64).min(x1));
        if first <= last {
            ranges.push((first, last));
        }
    }
    ranges.sort_unstable();
    let mut merged: Vec<(i64, i64)> = Vec::with_capacity(ranges.len());
    for (first, last) in ranges {
        match merged.last_mut() {
            Some(previous) if first <= previous.1 + 1 => previous.1 = previous.1.max(last),
            _ => merged.push((first, last)),
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(x: f64, y: f64) -> WindowVertex {
        WindowVertex { x, y }
    }

    /// The two triangles of a full-window rectangle, as piglit's `draw rect -1 -1 2 2`.
    fn rectangle(size: f64) -> [[WindowVertex; 3]; 2] {
        let (a, b, c, d) = (
            vertex(0.0, 0.0),
            vertex(size, 0.0),
            vertex(size, size),
            vertex(0.0, size),
        );
        [[a, b, c], [a, c, d]]
    }

    fn triangle(vertices: [WindowVertex; 3]) -> Triangle<'static> {
        Triangle {
            vertices,
            coverage: None,
            slack: 0.0,
        }
    }

    #[test]
    fn a_rectangles_diagonal_is_a_shared_edge_drawn_once() {
        let [t0, t1] = rectangle(8.0);
        let found = ties(&[triangle(t0), triangle(t1)], 8, 8, None);
        // Pixel centres on the diagonal, and no others: the window's edges lie half a pixel
        // from every centre.
        let pixels: Vec<(u32, u32)> = found.iter().map(|t| (t.x, t.y)).collect();
        assert_eq!(pixels, (0..8).map(|i| (i, i)).collect::<Vec<_>>());
        for tie in &found {
            assert_eq!(tie.candidates, vec![0, 1]);
            assert!(!tie.may_keep, "a shared edge is drawn exactly once");
        }
    }

    #[test]
    fn a_lone_edge_through_pixel_centres_may_leave_them_as_they_were() {
        let [t0, _] = rectangle(8.0);
        let found = ties(&[triangle(t0)], 8, 8, None);
        assert_eq!(found.len(), 8);
        assert!(found.iter().all(|t| t.may_keep && t.candidates == vec![0]));
    }

    #[test]
    fn only_needed_pixels_and_only_near_edges() {
        let [t0, t1] = rectangle(8.0);
        let mut needed = vec![false; 64];
        needed[3 * 8 + 3] = true;
        needed[3 * 8 + 5] = true;
        let found = ties(&[triangle(t0), triangle(t1)], 8, 8, Some(&needed));
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].x, found[0].y), (3, 3));
        // Edges a sixteenth of a pixel and more from every centre leave nothing open.
        let clear = [vertex(0.0, -0.3), vertex(8.0, -0.3), vertex(8.0, 7.7)];
        assert!(near_edges(clear, 8, 8, None, EDGE_SLACK).is_empty());
    }

    /// Every pixel of the window near an edge, each tested: the definition the scan of the
    /// columns near each edge's line must match.
    fn near_by_every_pixel(v: [WindowVertex; 3], size: u32, slack: f64) -> Vec<(u32, u32, u8)> {
        let area = (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[1].y - v[0].y) * (v[2].x - v[0].x);
        let distance = |i: usize, px: f64, py: f64| {
            let (a, b) = (v[(i + 1) % 3], v[(i + 2) % 3]);
            let cross = (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x);
            area.signum() * cross / (b.x - a.x).hypot(b.y - a.y)
        };
        // The bounding box, `slack` wider, as the scan takes it.
        let span = |c: fn(&WindowVertex) -> f64| {
            let lo = v.iter().map(c).fold(f64::INFINITY, f64::min);
            let hi = v.iter().map(c).fold(f64::NEG_INFINITY, f64::max);
            move |p: u32| {
                let p = f64::from(p);
                (lo - slack - 0.5).floor() <= p && p <= (hi + slack - 0.5).ceil()
            }
        };
        let (in_x, in_y) = (span(|p| p.x), span(|p| p.y));
        let mut out = Vec::new();
        for y in (0..size).filter(|&y| in_y(y)) {
            for x in (0..size).filter(|&x| in_x(x)) {
                let (px, py) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
                let near = near_mask([0, 1, 2].map(|i| distance(i, px, py)), slack);
                if near != 0 {
                    out.push((x, y, near));
                }
            }
        }
        out
    }

    /// Scanning only the columns near each edge's line finds what testing every pixel finds,
    /// in the same order, for slanted, flat, thin and window-sized triangles.
    #[test]
    fn the_columns_near_edges_are_every_pixel_near_an_edge() {
        let triangles = [
            [vertex(0.3, 0.7), vertex(37.9, 5.2), vertex(11.4, 29.3)],
            [vertex(-5.0, 3.5), vertex(45.0, 3.5), vertex(20.0, 40.0)],
            [vertex(2.0, 1.0), vertex(2.01, 39.0), vertex(2.5, 20.0)],
            [vertex(0.0, 0.0), vertex(40.0, 0.0), vertex(40.0, 40.0)],
            [
                vertex(-80.0, 17.25),
                vertex(120.0, 18.0),
                vertex(19.5, -300.0),
            ],
        ];
        for v in triangles {
            for slack in [EDGE_SLACK, 0.7, 3.0] {
                let found = near_edges(v, 40, 40, None, slack);
                assert_eq!(found, near_by_every_pixel(v, 40, slack), "{v:?} {slack}");
            }
        }
    }
}
