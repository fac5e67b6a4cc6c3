//! The software framebuffer: four values per pixel in the run's numeric domain (binary32
//! values for the point modes, intervals for acceptance bounds), row 0 at the bottom as GL
//! windows are.
//!
//! It is kept in square tiles, each either one colour or a colour per pixel. A clear, or a
//! one-colour write that covers a whole tile, sets the tile without touching its pixels; a
//! tile whose pixels end up all alike becomes one colour again; and a region of one-colour
//! tiles reads back as one colour. With acceptance intervals a pixel is 128 bytes, so a
//! flat 250x250 window meant 8 MB drawn, copied and scanned per `probe all` and evaluation.

use super::raster::{Quad, BLOCK};

/// Tile side, in pixels: a tile is one of the rasteriser's blocks, so a block a triangle
/// covers whole is a tile.
const TILE: u32 = BLOCK;

/// An RGBA image of `T`.
#[derive(Debug, Clone)]
pub(crate) struct Framebuffer<T> {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Tiles per row.
    columns: u32,
    /// Tiles, bottom row first.
    tiles: Vec<Tile<T>>,
}

/// One tile's pixels.
#[derive(Debug, Clone)]
enum Tile<T> {
    /// Every pixel holds this colour.
    Fill([T; 4]),
    /// A colour per pixel, `TILE` by `TILE`, bottom row first (edge tiles too).
    Pixels(Box<[[T; 4]]>),
}

impl<T: Copy> Framebuffer<T> {
    /// A `width` x `height` framebuffer filled with `zero`.
    pub(crate) fn new(width: u32, height: u32, zero: T) -> Framebuffer<T> {
        let columns = width.div_ceil(TILE);
        let tiles = columns as usize * height.div_ceil(TILE) as usize;
        Framebuffer {
            width,
            height,
            columns,
            tiles: vec![Tile::Fill([zero; 4]); tiles],
        }
    }

    /// Sets every pixel to `color`.
    pub(crate) fn clear(&mut self, color: [T; 4]) {
        self.tiles.fill(Tile::Fill(color));
    }

    /// Replaces every pixel's colour `c` with `f(c)` (one-colour tiles stay one colour).
    pub(crate) fn map(&mut self, f: impl Fn([T; 4]) -> [T; 4]) {
        for tile in &mut self.tiles {
            match tile {
                Tile::Fill(color) => *color = f(*color),
                Tile::Pixels(pixels) => pixels.iter_mut().for_each(|p| *p = f(*p)),
            }
        }
    }

    /// Pixel `(x, y)` to write, if inside; its tile gets a colour per pixel.
    pub(crate) fn pixel_mut(&mut self, x: u32, y: u32) -> Option<&mut [T; 4]> {
        let (tile, at) = self.locate(x, y)?;
        let tile = self.tiles.get_mut(tile)?;
        if let Tile::Fill(color) = *tile {
            *tile = Tile::Pixels(vec![color; (TILE * TILE) as usize].into_boxed_slice());
        }
        match tile {
            Tile::Pixels(pixels) => pixels.get_mut(at),
            Tile::Fill(_) => None,
        }
    }

    /// Sets each whole tile whose lower-left corner `blocks` names to `color`.
    pub(crate) fn fill_blocks(&mut self, blocks: &[(u32, u32)], color: [T; 4]) {
        for &(x, y) in blocks {
            if let Some(tile) = self.locate(x, y).and_then(|(t, _)| self.tiles.get_mut(t)) {
                *tile = Tile::Fill(color);
            }
        }
    }

    /// Writes `color` to every covered pixel of `quads` (which may cover a pixel more than
    /// once: the triangles of one draw). A tile they cover whole becomes `color`; one they
    /// cover in part does too when its pixels then all hold the `same` values.
    pub(crate) fn fill(&mut self, quads: &[Quad], color: [T; 4], same: impl Fn(&T, &T) -> bool) {
        // A quad's pixels share a tile: quads start on even pixels, and tiles are even.
        let tile_of = |fb: &Self, quad: &Quad| fb.locate(quad.x, quad.y).map(|(t, _)| t);
        // Which pixels of each tile are covered, a bit each.
        let mut covered = vec![[0u64; (TILE * TILE / 64) as usize]; self.tiles.len()];
        for quad in quads {
            for k in (0..4u32).filter(|&k| quad.covered[k as usize]) {
                if let Some((t, at)) = self.locate(quad.x + k % 2, quad.y + k / 2) {
                    covered[t][at / 64] |= 1 << (at % 64);
                }
            }
        }
        let count = |bits: &[u64]| bits.iter().map(|b| b.count_ones() as usize).sum::<usize>();
        let mut whole = vec![false; self.tiles.len()];
        let mut partial = Vec::new();
        for (t, bits) in covered.iter().enumerate() {
            match count(bits) {
                0 => {}
                n if n == self.tile_size(t) => {
                    self.tiles[t] = Tile::Fill(color);
                    whole[t] = true;
                }
                _ => partial.push(t),
            }
        }
        if partial.is_empty() {
            return;
        }
        for quad in quads {
            if tile_of(self, quad).is_none_or(|t| whole[t]) {
                continue;
            }
            for k in (0..4u32).filter(|&k| quad.covered[k as usize]) {
                if let Some(pixel) = self.pixel_mut(quad.x + k % 2, quad.y + k / 2) {
                    *pixel = color;
                }
            }
        }
        for t in partial {
            self.collapse(t, color, &same);
        }
    }

    /// The colour every pixel of a rectangle holds, as `same` compares colours: a tile of one
    /// colour at once, a tile of a colour per pixel by its pixels inside the rectangle (a
    /// `probe all` whose draw left only the pixels along an edge apart); `None` otherwise,
    /// or when it reaches outside.
    pub(crate) fn uniform(
        &self,
        x: u32,
        y: u32,
        w: u32,
        h: u32,
        same: impl Fn(&T, &T) -> bool,
    ) -> Option<[T; 4]> {
        let inside = |start: u32, size: u32, limit: u32| {
            size > 0 && start.checked_add(size).is_some_and(|end| end <= limit)
        };
        if !(inside(x, w, self.width) && inside(y, h, self.height)) {
            return None;
        }
        let (last_x, last_y) = (x + w - 1, y + h - 1);
        let mut first: Option<[T; 4]> = None;
        // Whether `color` is the first colour seen (the first becomes it).
        let mut agrees = |color: &[T; 4]| match &first {
            None => {
                first = Some(*color);
                true
            }
            Some(f) => f.iter().zip(color).all(|(a, b)| same(a, b)),
        };
        for row in y / TILE..=last_y / TILE {
            for column in x / TILE..=last_x / TILE {
                let index = (row * self.columns + column) as usize;
                match self.tiles.get(index)? {
                    Tile::Fill(color) => {
                        if !agrees(color) {
                            return None;
                        }
                    }
                    Tile::Pixels(pixels) => {
                        let rows = y.max(row * TILE)..=last_y.min(row * TILE + TILE - 1);
                        let columns = x.max(column * TILE)..=last_x.min(column * TILE + TILE - 1);
                        for py in rows {
                            for px in columns.clone() {
                                let at = ((py % TILE) * TILE + px % TILE) as usize;
                                if !agrees(pixels.get(at)?) {
                                    return None;
                                }
                            }
                        }
                    }
                }
            }
        }
        first
    }

    /// The pixels of a rectangle, row by row from the bottom (as `glReadPixels`), each
    /// through `f` (once per run of a one-colour tile); pixels outside read as `outside`.
    pub(crate) fn read<U>(
        &self,
        x: u32,
        y: u32,
        w: u32,
        h: u32,
        f: impl Fn(T) -> U,
        outside: U,
    ) -> Vec<U>
    where
        U: Copy,
    {
        let mut out = Vec::with_capacity(w as usize * h as usize * 4);
        let end = x.saturating_add(w);
        for row in y..y.saturating_add(h) {
            let mut col = x;
            while col < end {
                let Some((tile, at)) = self.locate(col, row) else {
                    out.extend([outside; 4]);
                    col += 1;
                    continue;
                };
                // The run of this row inside this tile and the framebuffer.
                let run_end = end.min(self.width).min((col / TILE + 1) * TILE);
                match &self.tiles[tile] {
                    Tile::Fill(color) => {
                        let value = color.map(&f);
                        (col..run_end).for_each(|_| out.extend(value));
                    }
                    Tile::Pixels(pixels) => {
                        let run = &pixels[at..at + (run_end - col) as usize];
                        out.extend(run.iter().flat_map(|p| p.map(&f)));
                    }
                }
                col = run_end;
            }
        }
        out
    }

    /// The tile holding pixel `(x, y)` and the pixel's place in it, if inside.
    fn locate(&self, x: u32, y: u32) -> Option<(usize, usize)> {
        (x < self.width && y < self.height).then(|| {
            let tile = (y / TILE * self.columns + x / TILE) as usize;
            (tile, ((y % TILE) * TILE + x % TILE) as usize)
        })
    }

    /// Width and height of tile `t` inside the framebuffer.
    fn tile_extent(&self, t: usize) -> (u32, u32) {
        let (column, row) = (t as u32 % self.columns, t as u32 / self.columns);
        (
            TILE.min(self.width - column * TILE),
            TILE.min(self.height - row * TILE),
        )
    }

    /// Pixels of tile `t` inside the framebuffer.
    fn tile_size(&self, t: usize) -> usize {
        let (w, h) = self.tile_extent(t);
        w as usize * h as usize
    }

    /// Makes tile `t` one colour when every pixel of it inside the framebuffer holds `color`.
    fn collapse(&mut self, t: usize, color: [T; 4], same: &impl Fn(&T, &T) -> bool) {
        let (w, h) = self.tile_extent(t);
        let Some(Tile::Pixels(pixels)) = self.tiles.get(t) else {
            return;
        };
        let alike = (0..h).all(|row| {
            (0..w).all(|col| {
                let pixel = &pixels[(row * TILE + col) as usize];
                pixel.iter().zip(&color).all(|(a, b)| same(a, b))
            })
        });
        if alike {
            self.tiles[t] = Tile::Fill(color);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &f64, b: &f64) -> bool {
        a.to_bits() == b.to_bits()
    }

    impl Framebuffer<f64> {
        /// Pixel `(x, y)`, if inside.
        fn get(&self, x: u32, y: u32) -> Option<[f64; 4]> {
            let read = self.read(x, y, 1, 1, Some, None);
            read.iter()
                .copied()
                .collect::<Option<Vec<f64>>>()?
                .try_into()
                .ok()
        }
    }

    /// Quads covering every pixel of the rectangle `[x0, x1) x [y0, y1)` (even corners).
    fn rect(x0: u32, y0: u32, x1: u32, y1: u32) -> Vec<Quad> {
        (y0..y1)
            .step_by(2)
            .flat_map(|y| {
                (x0..x1).step_by(2).map(move |x| Quad {
                    x,
                    y,
                    covered: [true; 4],
                })
            })
            .collect()
    }

    #[test]
    fn a_fill_over_whole_tiles_reads_back_as_one_colour() {
        let mut fb = Framebuffer::new(40, 20, 0.0);
        fb.fill(&rect(0, 0, 40, 20), [1.0, 2.0, 3.0, 4.0], same);
        assert_eq!(fb.uniform(0, 0, 40, 20, same), Some([1.0, 2.0, 3.0, 4.0]));
        assert_eq!(fb.get(39, 19), Some([1.0, 2.0, 3.0, 4.0]));
        assert!(fb.tiles.iter().all(|t| matches!(t, Tile::Fill(_))));
    }

    #[test]
    fn a_block_sets_its_tile_and_no_other() {
        let mut fb = Framebuffer::new(40, 40, 0.0);
        fb.fill_blocks(&[(16, 16)], [2.0; 4]);
        assert_eq!(fb.uniform(16, 16, 16, 16, same), Some([2.0; 4]));
        assert_eq!(fb.get(15, 16), Some([0.0; 4]));
        assert_eq!(fb.get(32, 31), Some([0.0; 4]));
        assert_eq!(fb.get(31, 31), Some([2.0; 4]));
    }

    #[test]
    fn a_partial_fill_keeps_the_pixels_it_does_not_cover() {
        let mut fb = Framebuffer::new(40, 20, 0.0);
        fb.fill(&rect(0, 0, 6, 4), [1.0; 4], same);
        assert_eq!(fb.get(5, 3), Some([1.0; 4]));
        assert_eq!(fb.get(6, 3), Some([0.0; 4]));
        assert_eq!(fb.get(5, 4), Some([0.0; 4]));
        // The rectangle is one colour though its tile is not.
        assert_eq!(fb.uniform(0, 0, 6, 4, same), Some([1.0; 4]));
        assert_eq!(fb.uniform(0, 0, 7, 4, same), None);
        assert_eq!(fb.uniform(16, 0, 24, 20, same), Some([0.0; 4]));
        let read = fb.read(4, 3, 3, 1, |v| v, -1.0);
        assert_eq!(read, [[1.0; 4], [1.0; 4], [0.0; 4]].concat());
    }

    #[test]
    fn overlapping_quads_that_cover_a_tile_make_it_one_colour() {
        let mut fb = Framebuffer::new(16, 16, 0.0);
        // Rows 0-9 and 6-15: 320 covered pixels counted, 256 of them distinct.
        let quads = [rect(0, 0, 16, 10), rect(0, 6, 16, 16)].concat();
        fb.fill(&quads, [1.0; 4], same);
        assert!(matches!(fb.tiles[0], Tile::Fill(_)));
        // Two halves that overlap but leave a row out are not the whole tile.
        let mut fb = Framebuffer::new(16, 16, 0.0);
        let quads = [rect(0, 0, 16, 8), rect(0, 2, 16, 12), rect(0, 14, 16, 16)].concat();
        fb.fill(&quads, [1.0; 4], same);
        assert_eq!(fb.get(0, 12), Some([0.0; 4]));
        assert_eq!(fb.get(0, 14), Some([1.0; 4]));
        assert_eq!(fb.uniform(0, 0, 16, 16, same), None);
    }

    #[test]
    fn two_fills_that_complete_a_tile_make_it_one_colour() {
        let mut fb = Framebuffer::new(16, 16, 0.0);
        fb.fill(&rect(0, 0, 16, 8), [1.0; 4], same);
        assert_eq!(fb.uniform(0, 0, 16, 16, same), None);
        fb.fill(&rect(0, 8, 16, 16), [1.0; 4], same);
        assert_eq!(fb.uniform(0, 0, 16, 16, same), Some([1.0; 4]));
    }

    #[test]
    fn zeros_of_different_signs_are_not_one_colour() {
        let mut fb = Framebuffer::new(16, 16, 0.0);
        fb.fill(&rect(0, 0, 16, 8), [-0.0; 4], same);
        fb.fill(&rect(0, 8, 16, 16), [0.0; 4], same);
        assert_eq!(fb.uniform(0, 0, 16, 16, same), None);
        assert_eq!(
            fb.get(0, 0).map(|p| p[0].to_bits()),
            Some((-0.0f64).to_bits())
        );
    }

    #[test]
    fn a_pixel_written_alone_splits_its_tile() {
        let mut fb = Framebuffer::new(20, 20, 0.0);
        if let Some(pixel) = fb.pixel_mut(17, 2) {
            *pixel = [5.0; 4];
        }
        assert_eq!(fb.get(17, 2), Some([5.0; 4]));
        assert_eq!(fb.get(16, 2), Some([0.0; 4]));
        assert_eq!(fb.uniform(0, 0, 16, 16, same), Some([0.0; 4]));
        assert_eq!(fb.uniform(0, 0, 20, 20, same), None);
        // Around the pixel, its split tile still reads as one colour.
        assert_eq!(fb.uniform(16, 3, 4, 17, same), Some([0.0; 4]));
        assert_eq!(fb.uniform(17, 2, 1, 1, same), Some([5.0; 4]));
        assert_eq!(fb.uniform(0, 0, 21, 20, same), None);
        assert!(fb.pixel_mut(20, 0).is_none());
    }
}
