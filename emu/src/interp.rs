//! Varying interpolation as the profile's `raster.interpolation` says, so interpolated values
//! are bit-exact. Every step rounds to binary32.
//!
//! `plane_fma` (llvmpipe) sets each attribute up as a plane: with the vertices in window coordinates (the
//! first two swapped when `(x0 - x1)(y2 - y0) - (y0 - y1)(x2 - x0)` is negative),
//! `ooa = 1 / det`, the edge deltas scaled by `ooa`,
//! `dadx = (a0 - a1) dy20' - (a2 - a0) dy01'`, `dady = (a2 - a0) dx01' - (a0 - a1) dx20'` and
//! the value at the centre of pixel (0, 0), `a0 - (dadx (x0 - 0.5) + dady (y0 - 0.5))`. Pixel
//! (x, y) reads `fma(dady, y, fma(dadx, x, a00))`; a perspective-correct varying is the plane
//! of `a / w` times the reciprocal of the plane of `1 / w`.
//!
//! `sorted_quads` (softpipe) sorts the vertices by y (min, mid, max) and builds the plane from the bottom and
//! major edges: `dadx = (ebot.dy (a_max - a_min) - (a_mid - a_min) emaj.dy) / area`,
//! `dady = (emaj.dx (a_mid - a_min) - (a_max - a_min) ebot.dx) / area`. A quad at (x, y) starts
//! from `a00 + dadx x + dady y`, its other pixels add `dadx`, `dady` or both; a
//! perspective-correct varying divides by the plane of `1 / w`.
//!
//! For acceptance intervals, [`range_at`] gives every value a conforming driver may
//! interpolate: the exact (binary64) perspective-correct interpolation at the pixel centre of
//! the vertex values' ranges, widened by a stated allowance for vertices snapped to the
//! subpixel grid the spec requires and for binary32 plane arithmetic.

use crate::profile::Interpolation;

/// How far a conforming driver may move a vertex when it snaps it to its subpixel grid, in
/// pixels: half a step of the 4 subpixel bits GL ES requires at least (`SUBPIXEL_BITS`).
pub(crate) const SNAP_SLACK: f64 = 1.0 / 32.0;

/// How far binary32 plane setup and evaluation may move an interpolated value, relative to
/// the largest vertex value: `2^-18` (32 binary32 ulps).
pub(crate) const PLANE_ALLOWANCE: f64 = 1.0 / (1u64 << 18) as f64;

/// Every value a conforming driver may interpolate at the centre of pixel `(x, y)` for an
/// attribute whose vertex values lie in `ranges`, on a triangle with window positions
/// `window` (`[x, y, z, 1/w]` per vertex) known within `slack` pixels; `perspective`:
/// perspective-correct (else linear in window space). Moving vertices by `d` moves the value
/// at a pixel by at most the gradient times `d` (times the barycentric weights, at most 2 near
/// the triangle), hence `2 (|da/dx| + |da/dy|) (SNAP_SLACK + slack)`, plus
/// `PLANE_ALLOWANCE` of the largest vertex value.
pub(crate) fn range_at(
    window: &[[f32; 4]; 3],
    ranges: [[f64; 2]; 3],
    slack: f64,
    (x, y): (u32, u32),
    perspective: bool,
) -> [f64; 2] {
    let everything = [f64::NEG_INFINITY, f64::INFINITY];
    let finite = ranges.iter().flatten().all(|v| v.is_finite()) && slack.is_finite();
    if !finite {
        return everything;
    }
    let weights = |px: f64, py: f64| -> Option<[f64; 3]> {
        let p = window.map(|v| [f64::from(v[0]), f64::from(v[1]), f64::from(v[3])]);
        let area =
            (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
        if area == 0.0 || !area.is_finite() {
            return None;
        }
        let l1 =
            ((px - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (py - p[0][1])) / area;
        let l2 =
            ((p[1][0] - p[0][0]) * (py - p[0][1]) - (px - p[0][0]) * (p[1][1] - p[0][1])) / area;
        let l = [1.0 - l1 - l2, l1, l2];
        if !perspective {
            return Some(l);
        }
        let w = [0, 1, 2].map(|i| l[i] * p[i][2]);
        let total = w[0] + w[1] + w[2];
        (total != 0.0 && total.is_finite()).then(|| w.map(|wi| wi / total))
    };
    let (px, py) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
    let (Some(b), Some(bx), Some(by)) = (
        weights(px, py),
        weights(px + 1.0, py),
        weights(px, py + 1.0),
    ) else {
        return everything;
    };
    let mid = ranges.map(|[lo, hi]| lo * 0.5 + hi * 0.5);
    let at = |w: [f64; 3]| w[0] * mid[0] + w[1] * mid[1] + w[2] * mid[2];
    let gradient = (at(bx) - at(b)).abs() + (at(by) - at(b)).abs();
    let (mut lo, mut hi) = (0.0, 0.0);
    for (wi, [rlo, rhi]) in b.iter().zip(ranges) {
        let (a, c) = (wi * rlo, wi * rhi);
        lo += a.min(c);
        hi += a.max(c);
    }
    let largest = ranges.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs()));
    let allowance = 2.0 * gradient * (SNAP_SLACK + slack) + PLANE_ALLOWANCE * largest;
    [lo - allowance, hi + allowance]
}

/// A triangle's setup: the vertex order and the scaled edge deltas.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Setup {
    kind: Interpolation,
    /// Which of the caller's vertices is setup vertex 0, 1, 2.
    order: [usize; 3],
    /// Setup vertex 0 relative to the centre of pixel (0, 0).
    origin: [f32; 2],
    /// plane_fma: dx01, dy01, dx20, dy20 times `1 / det`; sorted_quads: the bottom edge (dx, dy),
    /// the major edge (dx, dy) and `1 / area` in the first five.
    deltas: [f32; 5],
}

/// One attribute's plane: its value at pixel (0, 0) and its gradients.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Plane {
    kind: Interpolation,
    a0: f32,
    dadx: f32,
    dady: f32,
}

impl Plane {
    /// The value at pixel `(x, y)`.
    pub(crate) fn at(&self, x: u32, y: u32) -> f32 {
        match self.kind {
            Interpolation::PlaneFma => self
                .dady
                .mul_add(y as f32, self.dadx.mul_add(x as f32, self.a0)),
            Interpolation::SortedQuads => {
                let (qx, qy) = (x & !1, y & !1);
                let base = (self.a0 + self.dadx * qx as f32) + self.dady * qy as f32;
                let right = if x > qx { base + self.dadx } else { base };
                if y > qy {
                    right + self.dady
                } else {
                    right
                }
            }
        }
    }
}

impl Plane {
    /// The value at pixel `(x, y)` computed at extended precision from the binary32 set-up
    /// (a shader whose binary32 arithmetic keeps x87 extended precision evaluates it so).
    pub(crate) fn at_extended(&self, x: u32, y: u32) -> f64 {
        let (a0, dadx, dady) = (
            f64::from(self.a0),
            f64::from(self.dadx),
            f64::from(self.dady),
        );
        match self.kind {
            Interpolation::PlaneFma => dady * f64::from(y) + (dadx * f64::from(x) + a0),
            Interpolation::SortedQuads => {
                let (qx, qy) = (x & !1, y & !1);
                let base = (a0 + dadx * f64::from(qx)) + dady * f64::from(qy);
                let right = if x > qx { base + dadx } else { base };
                if y > qy {
                    right + dady
                } else {
                    right
                }
            }
        }
    }
}

impl Setup {
    /// The setup of a triangle with these window positions (x, y).
    pub(crate) fn new(window: [[f32; 2]; 3], kind: Interpolation) -> Setup {
        match kind {
            Interpolation::PlaneFma => {
                let deltas = |w: [[f32; 2]; 3]| {
                    let (dx01, dy01) = (w[0][0] - w[1][0], w[0][1] - w[1][1]);
                    let (dx20, dy20) = (w[2][0] - w[0][0], w[2][1] - w[0][1]);
                    (dx01, dy01, dx20, dy20, dx01 * dy20 - dy01 * dx20)
                };
                let order = if deltas(window).4 < 0.0 {
                    [1, 0, 2]
                } else {
                    [0, 1, 2]
                };
                let w = order.map(|i| window[i]);
                let (dx01, dy01, dx20, dy20, det) = deltas(w);
                let ooa = 1.0 / det;
                Setup {
                    kind,
                    order,
                    origin: [w[0][0] - 0.5, w[0][1] - 0.5],
                    deltas: [dx01 * ooa, dy01 * ooa, dx20 * ooa, dy20 * ooa, 0.0],
                }
            }
            Interpolation::SortedQuads => {
                let order = sorted_by_y(window);
                let [min, mid, max] = order.map(|i| window[i]);
                let (maj_dx, maj_dy) = (max[0] - min[0], max[1] - min[1]);
                let (bot_dx, bot_dy) = (mid[0] - min[0], mid[1] - min[1]);
                let ooa = 1.0 / (maj_dx * bot_dy - bot_dx * maj_dy);
                Setup {
                    kind,
                    order,
                    origin: [min[0] - 0.5, min[1] - 0.5],
                    deltas: [bot_dx, bot_dy, maj_dx, maj_dy, ooa],
                }
            }
        }
    }

    /// The plane of an attribute with these values at the caller's three vertices.
    pub(crate) fn plane(&self, values: [f32; 3]) -> Plane {
        let a = self.order.map(|i| values[i]);
        let d = self.deltas;
        let (dadx, dady) = match self.kind {
            Interpolation::PlaneFma => {
                let (da01, da20) = (a[0] - a[1], a[2] - a[0]);
                (da01 * d[3] - da20 * d[1], da20 * d[0] - da01 * d[2])
            }
            Interpolation::SortedQuads => {
                let (bot, maj) = (a[1] - a[0], a[2] - a[0]);
                let x = d[1] * maj - bot * d[3];
                let y = d[2] * bot - maj * d[0];
                (x * d[4], y * d[4])
            }
        };
        Plane {
            kind: self.kind,
            a0: a[0] - (dadx * self.origin[0] + dady * self.origin[1]),
            dadx,
            dady,
        }
    }

    /// A perspective-correct attribute: `values` at the vertices, `oow` their `1 / w`.
    pub(crate) fn perspective(&self, values: [f32; 3], oow: [f32; 3]) -> Perspective {
        Perspective {
            over_w: self.plane([0, 1, 2].map(|i| values[i] * oow[i])),
            one_over_w: self.plane(oow),
        }
    }
}

/// softpipe's order: the vertices by increasing y, ties kept in the order its comparisons
/// leave them.
fn sorted_by_y(w: [[f32; 2]; 3]) -> [usize; 3] {
    let (y0, y1, y2) = (w[0][1], w[1][1], w[2][1]);
    if y0 <= y1 {
        if y1 <= y2 {
            [0, 1, 2]
        } else if y2 <= y0 {
            [2, 0, 1]
        } else {
            [0, 2, 1]
        }
    } else if y0 <= y2 {
        [1, 0, 2]
    } else if y2 <= y1 {
        [2, 1, 0]
    } else {
        [1, 2, 0]
    }
}

/// A perspective-correct attribute's two planes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Perspective {
    over_w: Plane,
    one_over_w: Plane,
}

impl Perspective {
    /// The value at pixel `(x, y)` at extended precision (see [`Plane::at_extended`]).
    pub(crate) fn at_extended(&self, x: u32, y: u32) -> f64 {
        let (a, w) = (
            self.over_w.at_extended(x, y),
            self.one_over_w.at_extended(x, y),
        );
        match self.over_w.kind {
            Interpolation::PlaneFma => a * (1.0 / w),
            Interpolation::SortedQuads => a / w,
        }
    }

    /// The value at pixel `(x, y)`.
    pub(crate) fn at(&self, x: u32, y: u32) -> f32 {
        let (a, w) = (self.over_w.at(x, y), self.one_over_w.at(x, y));
        match self.over_w.kind {
            Interpolation::PlaneFma => a * (1.0 / w),
            Interpolation::SortedQuads => a / w,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Measured: v = piglit_vertex.x * 0.37 + 0.1 over `draw rect -1 -1 2 2`, first triangle
    // of the strip, pixels (0, 0) and (17, 33).
    fn gradient(kind: Interpolation) -> [u32; 2] {
        let v = |x: f32| x * 0.37 + 0.1;
        let setup = Setup::new([[0.0, 0.0], [250.0, 0.0], [0.0, 250.0]], kind);
        let p = setup.perspective([v(-1.0), v(1.0), v(-1.0)], [1.0; 3]);
        [p.at(0, 0).to_bits(), p.at(17, 33).to_bits()]
    }

    #[test]
    fn llvmpipe_interpolates_a_gradient_bit_for_bit() {
        assert_eq!(
            gradient(Interpolation::PlaneFma),
            [0xbe89_7b75, 0xbe5f_6fd4]
        );
    }

    #[test]
    fn softpipe_interpolates_a_gradient_bit_for_bit() {
        assert_eq!(
            gradient(Interpolation::SortedQuads),
            [0xbe89_7b74, 0xbe5f_6fd2]
        );
    }

    #[test]
    fn conforming_interpolation_holds_both_drivers_values() {
        // v runs 1000 -> 1008 across a 250-pixel rect (varyings/interpolated_mediump): both
        // drivers' binary32 values at pixel (40, 10) lie inside, binary16's 1001.5 does not.
        let window = [
            [0.0, 0.0, 0.5, 1.0],
            [250.0, 0.0, 0.5, 1.0],
            [0.0, 250.0, 0.5, 1.0],
        ];
        let range = range_at(
            &window,
            [[1000.0; 2], [1008.0; 2], [1000.0; 2]],
            0.0,
            (40, 10),
            true,
        );
        for kind in [Interpolation::PlaneFma, Interpolation::SortedQuads] {
            let setup = Setup::new([[0.0, 0.0], [250.0, 0.0], [0.0, 250.0]], kind);
            let v = f64::from(
                setup
                    .perspective([1000.0, 1008.0, 1000.0], [1.0; 3])
                    .at(40, 10),
            );
            assert!(range[0] <= v && v <= range[1], "{kind:?} {v} {range:?}");
        }
        assert!(range[1] < 1001.5 && range[1] - range[0] < 0.02, "{range:?}");
    }
}
