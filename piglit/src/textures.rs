//! The texels of piglit's generated textures, as 8-bit RGBA rows (row 0 at t = 0).
//!
//! `texture rgbw`: red where x < w/2 and y < h/2, green for x >= w/2 in that bottom half,
//! blue for x < w/2 in the top half, white elsewhere, all opaque. `texture checkerboard`:
//! squares of w/2 by h/2, the first colour at the origin, colours converted with piglit's
//! plain cast (0.5 -> 127).

use crate::shader_test::TextureCheckerboard;

/// `texture rgbw`'s texels.
pub fn rgbw(width: usize, height: usize) -> Vec<u8> {
    let mut texels = Vec::with_capacity(width * height * 4);
    for y in 0..height {
        for x in 0..width {
            let texel: [u8; 4] = match (x < width / 2, y < height / 2) {
                (true, true) => [255, 0, 0, 255],
                (false, true) => [0, 255, 0, 255],
                (true, false) => [0, 0, 255, 255],
                (false, false) => [255, 255, 255, 255],
            };
            texels.extend_from_slice(&texel);
        }
    }
    texels
}

/// `texture checkerboard`'s texels.
pub fn checkerboard(command: &TextureCheckerboard) -> Vec<u8> {
    let (width, height) = (command.width as usize, command.height as usize);
    let to_bytes = |c: [f32; 4]| c.map(|v| (v * 255.0) as u8);
    let (first, second) = (to_bytes(command.color1), to_bytes(command.color2));
    let (square_w, square_h) = ((width / 2).max(1), (height / 2).max(1));
    let mut texels = Vec::with_capacity(width * height * 4);
    for y in 0..height {
        for x in 0..width {
            let odd = (x / square_w + y / square_h) % 2 == 1;
            texels.extend_from_slice(if odd { &second } else { &first });
        }
    }
    texels
}
