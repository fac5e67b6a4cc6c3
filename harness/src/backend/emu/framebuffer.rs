//! The software framebuffer: four values per pixel in the run's numeric domain (binary32
//! values for the point modes, intervals for acceptance bounds), row 0 at the bottom as GL
//! windows are.

/// An RGBA image of `T`.
#[derive(Debug, Clone, PartialEq)]
pub struct Framebuffer<T> {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// RGBA per pixel, bottom row first.
    pub pixels: Vec<[T; 4]>,
}

impl<T: Copy> Framebuffer<T> {
    /// A `width` x `height` framebuffer filled with `zero`.
    pub fn new(width: u32, height: u32, zero: T) -> Framebuffer<T> {
        Framebuffer {
            width,
            height,
            pixels: vec![[zero; 4]; width as usize * height as usize],
        }
    }

    /// Index of pixel `(x, y)`.
    pub fn index(&self, x: u32, y: u32) -> usize {
        y as usize * self.width as usize + x as usize
    }

    /// Sets every pixel to `color`.
    pub fn clear(&mut self, color: [T; 4]) {
        self.pixels.fill(color);
    }

    /// Pixel `(x, y)`, if inside.
    pub fn get(&self, x: u32, y: u32) -> Option<[T; 4]> {
        (x < self.width && y < self.height)
            .then(|| self.pixels.get(self.index(x, y)).copied())
            .flatten()
    }

    /// The pixels of a rectangle, row by row from the bottom (as `glReadPixels`), each
    /// through `f`; pixels outside read as `outside`.
    pub fn read<U>(&self, x: u32, y: u32, w: u32, h: u32, f: impl Fn(T) -> U, outside: U) -> Vec<U>
    where
        U: Copy,
    {
        let mut out = Vec::with_capacity(w as usize * h as usize * 4);
        for row in y..y.saturating_add(h) {
            for col in x..x.saturating_add(w) {
                match self.get(col, row) {
                    Some(p) => out.extend(p.map(&f)),
                    None => out.extend([outside; 4]),
                }
            }
        }
        out
    }
}
