//! Rasterisation: a triangle in window coordinates becomes the 2x2 quads it touches, each
//! pixel with its coverage and its screen-space barycentric coordinates.
//!
//! Pixel centres are at half-integers; a centre exactly on an edge belongs to the triangle
//! when the edge is a top or left edge (so pixels on a shared edge are drawn once). Quads
//! keep their uncovered pixels (helper invocations, for derivatives), with barycentrics
//! extrapolated. Only quads holding a pixel that some probe reads are kept (`needed`).

/// A vertex after the viewport transform.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WindowVertex {
    /// Window x (pixels from the left).
    pub x: f64,
    /// Window y (pixels from the bottom).
    pub y: f64,
    /// Window depth in [0, 1].
    pub z: f64,
    /// Clip-space w (for perspective correction).
    pub w: f64,
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
    /// Screen-space barycentric coordinates of each pixel centre.
    pub bary: [[f64; 3]; 4],
}

/// The quads of triangle `v` in a `width` x `height` framebuffer, and whether it faces front
/// (counter-clockwise). Degenerate triangles give no quads.
pub fn triangle(
    v: [WindowVertex; 3],
    width: u32,
    height: u32,
    needed: Option<&[bool]>,
) -> (Vec<Quad>, bool) {
    let edge = |a: WindowVertex, b: WindowVertex, px: f64, py: f64| {
        (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x)
    };
    let area = edge(v[0], v[1], v[2].x, v[2].y);
    let front = area > 0.0;
    if area == 0.0 || !area.is_finite() {
        return (Vec::new(), front);
    }
    // Counter-clockwise order from here on.
    let v = if front { v } else { [v[0], v[2], v[1]] };
    let area = area.abs();
    // Edge i is opposite vertex i: from v[i+1] to v[i+2].
    let edges = [(v[1], v[2]), (v[2], v[0]), (v[0], v[1])];
    let owns_ties = edges.map(|(a, b)| b.y < a.y || (a.y == b.y && b.x < a.x));
    let min = |f: fn(&WindowVertex) -> f64| v.iter().map(f).fold(f64::INFINITY, f64::min);
    let max = |f: fn(&WindowVertex) -> f64| v.iter().map(f).fold(f64::NEG_INFINITY, f64::max);
    let clamp = |x: f64, size: u32| x.floor().clamp(0.0, f64::from(size)) as u32;
    let (x0, x1) = (clamp(min(|p| p.x), width) & !1, clamp(max(|p| p.x), width));
    let (y0, y1) = (
        clamp(min(|p| p.y), height) & !1,
        clamp(max(|p| p.y), height),
    );
    let mut quads = Vec::new();
    for qy in (y0..=y1.min(height.saturating_sub(1))).step_by(2) {
        for qx in (x0..=x1.min(width.saturating_sub(1))).step_by(2) {
            let mut quad = Quad {
                x: qx,
                y: qy,
                covered: [false; 4],
                bary: [[0.0; 3]; 4],
            };
            let mut wanted = false;
            for k in 0..4u32 {
                let (px, py) = (qx + k % 2, qy + k / 2);
                let (cx, cy) = (f64::from(px) + 0.5, f64::from(py) + 0.5);
                let e = edges.map(|(a, b)| edge(a, b, cx, cy));
                let inside = (0..3).all(|i| e[i] > 0.0 || (e[i] == 0.0 && owns_ties[i]));
                let on_screen = px < width && py < height;
                let covered = inside && on_screen;
                quad.covered[k as usize] = covered;
                quad.bary[k as usize] = e.map(|x| x / area);
                let index = py as usize * width as usize + px as usize;
                wanted |= covered && needed.is_none_or(|n| n.get(index).copied().unwrap_or(false));
            }
            if wanted {
                if !front {
                    // Barycentrics follow the caller's vertex order.
                    for b in &mut quad.bary {
                        b.swap(1, 2);
                    }
                }
                quads.push(quad);
            }
        }
    }
    (quads, front)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f64, y: f64) -> WindowVertex {
        WindowVertex {
            x,
            y,
            z: 0.5,
            w: 1.0,
        }
    }

    #[test]
    fn two_triangles_of_a_rectangle_cover_every_pixel_once() {
        let (a, _) = triangle([at(0.0, 0.0), at(8.0, 0.0), at(0.0, 8.0)], 8, 8, None);
        let (b, _) = triangle([at(0.0, 8.0), at(8.0, 0.0), at(8.0, 8.0)], 8, 8, None);
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

    #[test]
    fn barycentrics_follow_the_vertex_order_whatever_the_winding() {
        let (q, front) = triangle([at(0.0, 0.0), at(0.0, 4.0), at(4.0, 0.0)], 4, 4, None);
        assert!(!front);
        let b = q[0].bary[0];
        // Pixel (0.5, 0.5): closest to vertex 0.
        assert!(
            (b[0] - 0.75).abs() < 1e-12 && (b[1] - 0.125).abs() < 1e-12,
            "{b:?}"
        );
    }
}
