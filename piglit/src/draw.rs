//! `draw rect`'s geometry: four corners as a triangle strip, `ortho` mapping window pixels to
//! NDC with piglit's arithmetic, and the `tex` form's texture coordinates.

use crate::shader_test::RectMode;

/// The corners of a `draw rect` as a triangle strip: `vec4` positions for `piglit_vertex`
/// and, for `tex`, `vec2` coordinates for `piglit_texcoord`.
pub(crate) fn rect(rect: [f32; 4], mode: RectMode, window: (u32, u32)) -> Corners {
    let [x, y, w, h] = match mode {
        RectMode::Ortho => ortho(rect, window),
        RectMode::Plain | RectMode::Tex(_) => rect,
    };
    let positions =
        [[x, y], [x + w, y], [x, y + h], [x + w, y + h]].map(|[cx, cy]| [cx, cy, 0.0, 1.0]);
    let texcoords = match mode {
        RectMode::Tex([tx, ty, tw, th]) => {
            Some([[tx, ty], [tx + tw, ty], [tx, ty + th], [tx + tw, ty + th]])
        }
        _ => None,
    };
    Corners {
        positions,
        texcoords,
    }
}

/// A rectangle's four strip vertices.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Corners {
    /// Clip-space positions.
    pub positions: [[f32; 4]; 4],
    /// Texture coordinates (`draw rect tex` only).
    pub texcoords: Option<[[f32; 2]; 4]>,
}

/// Piglit's `draw rect ortho` conversion: `-1 + 2 * (x / width)` (the quotient in float).
fn ortho([x, y, w, h]: [f32; 4], (width, height): (u32, u32)) -> [f32; 4] {
    let scaled = |v: f32, size: u32| 2.0 * f64::from(v / size as f32);
    [
        (-1.0 + scaled(x, width)) as f32,
        (-1.0 + scaled(y, height)) as f32,
        scaled(w, width) as f32,
        scaled(h, height) as f32,
    ]
}
