//! What the emulator computed for a test: its result and each probe's values.

use halfcheck_piglit::probe::Region;
use halfcheck_results::TestResult;

/// What [`evaluate`] computed.
#[derive(Debug, Clone)]
pub struct Evaluation<F> {
    /// The test's result, judged by piglit's rules on the binary32 view of the values.
    pub result: TestResult,
    /// For each probe that ran, in order, its values in the domain.
    pub probes: Vec<ProbeValues<F>>,
}

/// One probe's values in a domain: every pixel of the region it reads.
#[derive(Debug, Clone)]
pub struct ProbeValues<F> {
    /// The pixels read.
    pub region: Region,
    /// RGBA per pixel, row by row from the bottom; one pixel's when `one_colour`.
    rgba: Vec<F>,
    /// Whether every pixel of the region holds the values `rgba` holds.
    one_colour: bool,
}

impl<F: Copy> ProbeValues<F> {
    /// `rgba` per pixel of `region`, row by row from the bottom.
    pub fn per_pixel(region: Region, rgba: Vec<F>) -> Self {
        ProbeValues {
            region,
            rgba,
            one_colour: false,
        }
    }

    /// `color` at every pixel of `region`.
    pub fn one_colour(region: Region, color: [F; 4]) -> Self {
        ProbeValues {
            region,
            rgba: color.to_vec(),
            one_colour: true,
        }
    }

    /// Channel `c` of pixel `(x, y)`, when the region holds it.
    pub fn at(&self, x: u32, y: u32, c: usize) -> Option<F> {
        let r = &self.region;
        if !((r.x..r.x + r.w).contains(&x) && (r.y..r.y + r.h).contains(&y) && c < 4) {
            return None;
        }
        let pixel = if self.one_colour {
            0
        } else {
            (y - r.y) as usize * r.w as usize + (x - r.x) as usize
        };
        self.rgba.get(pixel * 4 + c).copied()
    }

    /// The same pixels with `f` of each value.
    pub fn map<G>(&self, f: impl Fn(&F) -> G) -> ProbeValues<G> {
        ProbeValues {
            region: self.region,
            rgba: self.rgba.iter().map(f).collect(),
            one_colour: self.one_colour,
        }
    }

    /// Whether every pixel holds what the first one does, as `same` compares values.
    pub fn uniform(&self, same: impl Fn(&F, &F) -> bool) -> bool {
        self.one_colour || uniform_pixels(&self.rgba, same)
    }
}

/// Whether every RGBA pixel of `rgba` holds what the first one does, as `same` compares
/// values.
pub fn uniform_pixels<F>(rgba: &[F], same: impl Fn(&F, &F) -> bool) -> bool {
    let mut pixels = rgba.chunks_exact(4);
    let Some(first) = pixels.next() else {
        return true;
    };
    pixels.all(|p| p.iter().zip(first).all(|(a, b)| same(a, b)))
}
