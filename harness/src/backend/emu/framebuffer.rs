//! The software RGBA32F framebuffer: row 0 at the bottom, as GL windows are.

/// An RGBA32F image.
#[derive(Debug, Clone, PartialEq)]
pub struct Framebuffer {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// RGBA per pixel, bottom row first.
    pub pixels: Vec<[f32; 4]>,
}

impl Framebuffer {
    /// A `width` x `height` framebuffer of zeros.
    pub fn new(width: u32, height: u32) -> Framebuffer {
        Framebuffer {
            width,
            height,
            pixels: vec![[0.0; 4]; width as usize * height as usize],
        }
    }

    /// Index of pixel `(x, y)`.
    pub fn index(&self, x: u32, y: u32) -> usize {
        y as usize * self.width as usize + x as usize
    }

    /// Sets every pixel to `color`.
    pub fn clear(&mut self, color: [f32; 4]) {
        self.pixels.fill(color);
    }

    /// The RGBA floats of a rectangle, row by row from the bottom (as `glReadPixels`).
    pub fn read(&self, x: u32, y: u32, w: u32, h: u32) -> Vec<f32> {
        let mut out = Vec::with_capacity(w as usize * h as usize * 4);
        for row in y..y + h {
            for col in x..x + w {
                let p = self
                    .pixels
                    .get(self.index(col, row))
                    .copied()
                    .unwrap_or_default();
                out.extend_from_slice(&p);
            }
        }
        out
    }
}
