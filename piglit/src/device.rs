//! What a backend must do for piglit's `[test]` commands: the [`Device`] trait.
//!
//! The command loop (`command_loop`) owns piglit's semantics: tolerance, probes and their
//! verdicts, expected link errors, the program that must be in use, which errors end a test
//! and which only fail it, and the final status. A device only does things: clear, draw, set
//! uniforms, make textures, bind framebuffers, read pixels back. Every operation returns
//! `Err(Stop)` to end the test (a fatal error, or a skip when the device cannot do it); the
//! operations a device does not override skip with [`Device::cannot`]'s reason, so "this
//! backend does not run X" is written once.

use super::draw::Corners;
use super::probe::Region;
use crate::shader_test::{
    BlitBuffer, FbBinding, FbTarget, ProbedBuffer, ShaderTest, TextureCheckerboard, TextureInteger,
    TextureRgbw, TextureStorage, UniformSet,
};
use crate::{Stop, WindowImage};
use halfcheck_results::ProbeResult;
use std::collections::BTreeMap;

/// What building a test's program gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Program {
    /// The test has no shaders.
    Missing,
    /// Every stage compiled and the program linked; it is in use.
    Linked,
    /// The stages compiled but do not link: why (the first line of the link log).
    NotLinked(String),
}

/// A `draw rect` (or `draw instanced rect`) as the device draws it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RectDraw {
    /// The four corners (a triangle strip), and texture coordinates for `draw rect tex`.
    pub corners: Corners,
    /// Draw as `GL_PATCHES` of 4 vertices (`patch`).
    pub patch: bool,
    /// Instance count (1 for `draw rect`).
    pub instances: u32,
}

/// A primitive mode of `draw arrays`, named as in GL without its `GL_` prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Primitive {
    /// `POINTS`
    Points,
    /// `LINES`
    Lines,
    /// `LINE_LOOP`
    LineLoop,
    /// `LINE_STRIP`
    LineStrip,
    /// `TRIANGLES`
    Triangles,
    /// `TRIANGLE_STRIP`
    TriangleStrip,
    /// `TRIANGLE_FAN`
    TriangleFan,
    /// `LINES_ADJACENCY`
    LinesAdjacency,
    /// `LINE_STRIP_ADJACENCY`
    LineStripAdjacency,
    /// `TRIANGLES_ADJACENCY`
    TrianglesAdjacency,
    /// `TRIANGLE_STRIP_ADJACENCY`
    TriangleStripAdjacency,
    /// `PATCHES`
    Patches,
}

impl Primitive {
    /// The mode `name` (with or without `GL_`): a skip for desktop-only modes, a failure for
    /// names piglit does not know.
    pub fn from_name(name: &str) -> Result<Primitive, Stop> {
        Ok(match name.strip_prefix("GL_").unwrap_or(name) {
            "POINTS" => Primitive::Points,
            "LINES" => Primitive::Lines,
            "LINE_LOOP" => Primitive::LineLoop,
            "LINE_STRIP" => Primitive::LineStrip,
            "TRIANGLES" => Primitive::Triangles,
            "TRIANGLE_STRIP" => Primitive::TriangleStrip,
            "TRIANGLE_FAN" => Primitive::TriangleFan,
            "LINES_ADJACENCY" => Primitive::LinesAdjacency,
            "LINE_STRIP_ADJACENCY" => Primitive::LineStripAdjacency,
            "TRIANGLES_ADJACENCY" => Primitive::TrianglesAdjacency,
            "TRIANGLE_STRIP_ADJACENCY" => Primitive::TriangleStripAdjacency,
            "PATCHES" => Primitive::Patches,
            "QUADS" | "QUAD_STRIP" | "POLYGON" => {
                return Err(Stop::skip(format!("drawing mode {name} needs desktop GL")))
            }
            _ => return Err(Stop::fail(format!("unknown drawing mode \"{name}\""))),
        })
    }
}

/// A `draw arrays` whose range the loop has checked against `[vertex data]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArraysDraw {
    /// The primitive mode.
    pub primitive: Primitive,
    /// First vertex (row of `[vertex data]`).
    pub first: usize,
    /// Vertex count (at least 1).
    pub count: usize,
    /// Instance count for `draw arrays instanced`.
    pub instances: Option<u32>,
}

/// Pixels read back for a probe: RGBA per pixel, row by row from the bottom.
#[derive(Debug, Clone, PartialEq)]
pub struct Readback {
    /// The values, 4 per pixel.
    pub values: Vec<f32>,
    /// True when they are the exact floats of a float target, judged on their 8-bit view;
    /// false when they already are an 8-bit framebuffer's `b / 255`.
    pub exact: bool,
}

/// Something that runs piglit's `[test]` commands: a GL context or the emulator.
///
/// The loop calls [`Device::start`] once, then one method per command. Methods with a
/// default body are commands a device may lack: the default skips the test with
/// [`Device::cannot`].
pub trait Device {
    /// Who the device is in a skip reason: "the emulator".
    fn name(&self) -> &'static str;

    /// A skip saying the device does not run `what`.
    fn cannot(&self, what: &str) -> Stop {
        Stop::skip(format!("{} does not run {what}", self.name()))
    }

    /// Compiles and links the test's shaders (their logs go into `logs`, by stage or `link`)
    /// and prepares its `[vertex data]`. A shader that does not compile ends the test
    /// (piglit fails it whatever it expects); a program that does not link is reported so
    /// `link error` can expect it.
    fn start(
        &mut self,
        test: &ShaderTest,
        logs: &mut BTreeMap<String, String>,
    ) -> Result<Program, Stop>;

    /// The size of the framebuffer probes read (piglit's `read_width`, `read_height`).
    fn read_size(&self) -> (u32, u32);

    /// `clear`: clears to `color` when a `clear color` was given, and to `depth` when a
    /// `clear depth` was (piglit's accumulated clear bits).
    fn clear(&mut self, color: Option<[f32; 4]>, depth: Option<f64>) -> Result<(), Stop>;

    /// `draw rect` and `draw instanced rect`, with the linked program.
    fn draw_rect(&mut self, draw: &RectDraw) -> Result<(), Stop>;

    /// `draw arrays` over `[vertex data]`, with the linked program.
    fn draw_arrays(&mut self, draw: &ArraysDraw) -> Result<(), Stop>;

    /// `uniform TYPE NAME VALUES...` on the linked program.
    fn set_uniform(&mut self, set: &UniformSet) -> Result<(), Stop>;

    /// Reads the RGBA pixels of `region` of the read framebuffer.
    fn read(&mut self, region: Region) -> Result<Readback, Stop>;

    /// Called with each probe's result once it is judged (in probe order).
    fn probed(&mut self, _result: &ProbeResult) {}

    /// The whole window framebuffer as exact floats (the backend asks once the loop ends).
    fn window(&mut self) -> Result<WindowImage, Stop> {
        Err(self.cannot("window readback"))
    }

    /// `texture rgbw UNIT (W, H) [FORMAT]`.
    fn texture_rgbw(&mut self, texture: &TextureRgbw) -> Result<(), Stop>;

    /// `texture checkerboard UNIT LEVEL (W, H) (COLOR) (COLOR)`.
    fn texture_checkerboard(&mut self, texture: &TextureCheckerboard) -> Result<(), Stop>;

    /// `texparameter TARGET PARAMETER VALUE` on the active unit's texture.
    fn tex_parameter(&mut self, target: &str, parameter: &str, value: &str) -> Result<(), Stop>;

    /// `enable CAP` (`on`) or `disable CAP`.
    fn enable(&mut self, capability: &str, on: bool) -> Result<(), Stop>;

    /// `blend func SRC DST`.
    fn blend_func(&mut self, src: &str, dst: &str) -> Result<(), Stop>;

    /// `fb [draw|read] ...`: binds a new framebuffer (or the window) for drawing, reading
    /// or both; probes then read the read framebuffer.
    fn fb(&mut self, _target: FbTarget, binding: &FbBinding) -> Result<(), Stop> {
        Err(self.cannot(&format!("fb {}", binding.name())))
    }

    /// `blit BUFFER FILTER`: the whole read framebuffer onto the whole draw framebuffer.
    fn blit(&mut self, _buffer: BlitBuffer, _linear: bool) -> Result<(), Stop> {
        Err(self.cannot("blit"))
    }

    /// `atomic counter buffer BINDING COUNT`: a new buffer of zeroed counters.
    fn atomic_counter_buffer(&mut self, _binding: u32, _count: u32) -> Result<(), Stop> {
        Err(self.cannot("atomic counters"))
    }

    /// `atomic counter BINDING INDEX VALUE`.
    fn atomic_counter(&mut self, _binding: u32, _index: u32, _value: u32) -> Result<(), Stop> {
        Err(self.cannot("atomic counters"))
    }

    /// `fbfetch barrier`.
    fn fbfetch_barrier(&mut self) -> Result<(), Stop> {
        Err(self.cannot("fbfetch barrier"))
    }

    /// Reads the RGBA pixels of `region` of an integer read framebuffer.
    fn read_integers(&mut self, _region: Region) -> Result<Vec<i64>, Stop> {
        Err(self.cannot("integer probes"))
    }

    /// `texture storage ...`: immutable storage without texels.
    fn texture_storage(&mut self, _texture: &TextureStorage) -> Result<(), Stop> {
        Err(self.cannot("texture storage"))
    }

    /// `texture integer ...`: piglit's integer texture.
    fn texture_integer(&mut self, _texture: &TextureInteger) -> Result<(), Stop> {
        Err(self.cannot("texture integer"))
    }

    /// `texture junk 2DArray UNIT (W, H, LAYERS)`: a 2D array texture of undefined texels.
    fn texture_junk_2d_array(&mut self, _unit: u32, _size: [u32; 3]) -> Result<(), Stop> {
        Err(self.cannot("texture junk"))
    }

    /// `image texture UNIT FORMAT`.
    fn image_texture(&mut self, _unit: u32, _format: &str) -> Result<(), Stop> {
        Err(self.cannot("image texture"))
    }

    /// `ssbo BINDING SIZE`: a zeroed shader storage buffer.
    fn ssbo(&mut self, _binding: u32, _size: u32) -> Result<(), Stop> {
        Err(self.cannot("ssbo"))
    }

    /// `ssbo BINDING subdata TYPE OFFSET VALUE`: the value's 4 bytes into the buffer.
    fn ssbo_subdata(&mut self, _binding: u32, _offset: u32, _bytes: [u8; 4]) -> Result<(), Stop> {
        Err(self.cannot("ssbo"))
    }

    /// `compute X Y Z` with the linked program, between full memory barriers.
    fn compute(&mut self, _groups: [u32; 3]) -> Result<(), Stop> {
        Err(self.cannot("compute shaders"))
    }

    /// `memory barrier BITS`.
    fn memory_barrier(&mut self, _bits: &str) -> Result<(), Stop> {
        Err(self.cannot("memory barrier"))
    }

    /// The 4 bytes a buffer probe reads (native byte order).
    fn read_buffer(&mut self, _buffer: &ProbedBuffer) -> Result<[u8; 4], Stop> {
        Err(self.cannot("buffer probes"))
    }
}
