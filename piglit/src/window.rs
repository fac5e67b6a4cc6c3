//! A test's final window framebuffer as exact floats, which `halfcheck run --framebuffers`
//! keeps for reports.
//!
//! On disk (`DIR/framebuffers/<test name>.rgba32f`) it is raw little-endian binary32, four
//! values per pixel (R, G, B, A), `width * height` pixels, rows from the bottom of the window
//! up (OpenGL's order), no header: `width * height * 16` bytes. The width and height are in
//! the test's `framebuffer` entry of `results.json`.

use std::path::{Path, PathBuf};

/// Why [`WindowImage::write`] failed: the folder or the file could not be made.
#[derive(Debug, thiserror::Error)]
#[error("cannot {verb} {}: {source}", path.display())]
pub struct WriteError {
    /// The folder or file.
    pub path: PathBuf,
    /// What failed: `create` (the folder) or `write` (the file).
    pub verb: &'static str,
    /// Why.
    pub source: std::io::Error,
}

/// RGBA binary32 pixels of a window framebuffer, bottom row first.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` values: R, G, B, A per pixel, row by row from the bottom.
    pub rgba: Vec<f32>,
}

impl WindowImage {
    /// The file name extension of the raw format.
    pub const EXTENSION: &'static str = "rgba32f";

    /// The raw little-endian bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.rgba.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    /// Reads raw bytes back; `None` when their length is not `width * height * 16`.
    pub fn from_bytes(width: u32, height: u32, bytes: &[u8]) -> Option<WindowImage> {
        let expected = (width as usize)
            .checked_mul(height as usize)?
            .checked_mul(16)?;
        (bytes.len() == expected).then(|| WindowImage {
            width,
            height,
            rgba: bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
        })
    }

    /// The RGBA value of pixel `(x, y)` (y from the bottom).
    pub fn pixel(&self, x: u32, y: u32) -> Option<[f32; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let start = (y as usize * self.width as usize + x as usize) * 4;
        let p = self.rgba.get(start..start + 4)?;
        Some([p[0], p[1], p[2], p[3]])
    }

    /// Writes the raw bytes to `path`, making its folder.
    pub fn write(&self, path: &Path) -> Result<(), WriteError> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|source| WriteError {
                path: parent.to_owned(),
                verb: "create",
                source,
            })?;
        }
        std::fs::write(path, self.to_bytes()).map_err(|source| WriteError {
            path: path.to_owned(),
            verb: "write",
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_raw_format_is_little_endian_rgba_bottom_row_first() {
        let image = WindowImage {
            width: 2,
            height: 1,
            rgba: vec![1.0, 0.5, 0.25, 0.0, -2.0, f32::INFINITY, 0.1, 1.0],
        };
        let bytes = image.to_bytes();
        assert_eq!(bytes.len(), 2 * 16);
        assert_eq!(&bytes[0..4], &[0x00, 0x00, 0x80, 0x3f]);
        assert_eq!(WindowImage::from_bytes(2, 1, &bytes), Some(image.clone()));
        assert_eq!(image.pixel(1, 0), Some([-2.0, f32::INFINITY, 0.1, 1.0]));
        assert_eq!(WindowImage::from_bytes(3, 1, &bytes), None);
    }
}
