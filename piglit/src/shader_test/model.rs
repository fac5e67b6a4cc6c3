//! The typed form of a piglit `.shader_test` file.
//!
//! Everything a backend needs to run a test lives here as plain data: the `[require]` block,
//! the shader sources per stage, the `[vertex data]` table and the `[test]` commands. Parsing
//! is in [`super::parse`]; nothing here does I/O.

use std::path::PathBuf;

/// A parsed `.shader_test` file.
#[derive(Debug, Clone, PartialEq)]
pub struct ShaderTest {
    /// Where the file was read from.
    pub path: PathBuf,
    /// The `[require]` section.
    pub require: Require,
    /// Shader sections in file order (`[vertex shader]`, `[fragment shader]`, ...).
    pub shaders: Vec<ShaderSource>,
    /// `[shader include]` sections and other sections kept as raw text.
    pub other_sections: Vec<RawSection>,
    /// The `[vertex data]` section, if any.
    pub vertex_data: Option<VertexData>,
    /// The `[test]` commands in order.
    pub commands: Vec<Located<Command>>,
}

/// A value with the 1-based line of the file it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Located<T> {
    /// 1-based line number in the `.shader_test` file.
    pub line: usize,
    /// The parsed value.
    pub value: T,
}

/// A pipeline stage a shader section belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// `[vertex shader]`
    Vertex,
    /// `[tessellation control shader]`
    TessControl,
    /// `[tessellation evaluation shader]`
    TessEvaluation,
    /// `[geometry shader]`
    Geometry,
    /// `[fragment shader]`
    Fragment,
    /// `[compute shader]`
    Compute,
}

impl Stage {
    /// The stage's name as piglit writes it in section headers.
    pub fn section_name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::TessControl => "tessellation control",
            Stage::TessEvaluation => "tessellation evaluation",
            Stage::Geometry => "geometry",
            Stage::Fragment => "fragment",
            Stage::Compute => "compute",
        }
    }
}

/// How a shader section gives its code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceKind {
    /// GLSL text written inline (`[fragment shader]`).
    Glsl,
    /// `[vertex shader passthrough]`: piglit generates a pass-through vertex shader.
    Passthrough,
    /// `[... shader spirv]`: SPIR-V assembly text.
    Spirv,
    /// `[... shader specializations]`: SPIR-V specialization constants.
    Specializations,
    /// `[vertex program]` / `[fragment program]`: ARB assembly.
    ArbProgram,
}

/// One shader section.
#[derive(Debug, Clone, PartialEq)]
pub struct ShaderSource {
    /// The stage it is for.
    pub stage: Stage,
    /// What kind of code it holds.
    pub kind: SourceKind,
    /// The section body, verbatim.
    pub text: String,
    /// 1-based line in the file of the body's first line (the line after the header).
    pub first_line: usize,
}

/// A section kept as raw text (`[shader include]`, `[geometry layout]`, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct RawSection {
    /// The header without brackets.
    pub name: String,
    /// The body, verbatim.
    pub text: String,
    /// 1-based line of the body's first line.
    pub first_line: usize,
}

/// A comparison operator in a `[require]` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    /// `<`
    Less,
    /// `<=`
    LessEqual,
    /// `=` or `==`
    Equal,
    /// `!=`
    NotEqual,
    /// `>=`
    GreaterEqual,
    /// `>`
    Greater,
}

impl Comparison {
    /// Whether `actual <op> required` holds.
    pub fn holds<T: PartialOrd>(self, actual: T, required: T) -> bool {
        match self {
            Comparison::Less => actual < required,
            Comparison::LessEqual => actual <= required,
            Comparison::Equal => actual == required,
            Comparison::NotEqual => actual != required,
            Comparison::GreaterEqual => actual >= required,
            Comparison::Greater => actual > required,
        }
    }
}

/// Which API a `[require]` version line is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// `GL` (any desktop profile).
    Gl,
    /// `GL CORE`.
    GlCore,
    /// `GL COMPAT`.
    GlCompat,
    /// `GL ES`.
    GlEs,
    /// `GLSL` (desktop).
    Glsl,
    /// `GLSL ES`.
    GlslEs,
}

/// A `major.minor` version as written in `[require]`.
///
/// The minor number is kept as written, the way piglit compares them: GL versions have one
/// digit (`3.1`), GLSL versions two (`3.10`), and each is only compared with its own kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// Major version.
    pub major: u32,
    /// Minor version as written (`3.1` -> 1, `1.50` -> 50, `3.00` -> 0).
    pub minor: u32,
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// One line of the `[require]` section.
#[derive(Debug, Clone, PartialEq)]
pub enum Requirement {
    /// `GL ES >= 3.0`, `GLSL >= 1.50`, ...
    Version {
        /// Which API.
        api: Api,
        /// The operator.
        op: Comparison,
        /// The version on the right.
        version: Version,
    },
    /// `GL_ARB_foo` (present) or `!GL_ARB_foo` (must be absent).
    Extension {
        /// Extension name.
        name: String,
        /// True for `!GL_ARB_foo`.
        negated: bool,
    },
    /// `GL_MAX_VERTEX_UNIFORM_COMPONENTS >= 1024`: an implementation limit.
    Limit {
        /// The `GL_MAX_*` name.
        name: String,
        /// The operator.
        op: Comparison,
        /// The number on the right.
        value: i64,
    },
    /// `SIZE w h`: the window size.
    Size {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// Any other directive (`depthbuffer`, `fbo`, `rlimit`, `SPIRV YES`, ...), kept verbatim.
    Other(String),
}

/// The `[require]` section.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Require {
    /// Requirement lines in file order.
    pub items: Vec<Located<Requirement>>,
}

impl Require {
    /// The window size: the `SIZE` line, or piglit's default of 250x250.
    pub fn window_size(&self) -> (u32, u32) {
        self.items
            .iter()
            .find_map(|item| match item.value {
                Requirement::Size { width, height } => Some((width, height)),
                _ => None,
            })
            .unwrap_or((250, 250))
    }

    /// Whether the test asks for separate shader objects (`SSO ENABLED`): one separable
    /// program per stage, in a program pipeline.
    pub fn separate_shader_objects(&self) -> bool {
        self.items.iter().any(|item| match &item.value {
            Requirement::Other(text) => text
                .split_whitespace()
                .eq(["SSO", "ENABLED"].iter().copied()),
            _ => false,
        })
    }

    /// Whether the test runs on OpenGL ES (it names `GL ES` or `GLSL ES` versions).
    pub fn is_es(&self) -> bool {
        self.items.iter().any(|item| {
            matches!(
                item.value,
                Requirement::Version {
                    api: Api::GlEs | Api::GlslEs,
                    ..
                }
            )
        })
    }
}

/// The `[vertex data]` table: a header of attribute columns and rows of numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct VertexData {
    /// Column groups in header order.
    pub columns: Vec<VertexColumn>,
    /// Each row's numbers, flattened in column order (ints kept exactly as f64).
    pub rows: Vec<Located<Vec<f64>>>,
}

/// The component type of a vertex attribute column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttribType {
    /// `float`
    Float,
    /// `int`
    Int,
    /// `uint`
    Uint,
    /// `double`
    Double,
    /// `half`
    Half,
    /// `byte`
    Byte,
    /// `ubyte`
    Ubyte,
    /// `short`
    Short,
    /// `ushort`
    Ushort,
}

/// One column of `[vertex data]`: `NAME[INDEX]/GL_TYPE/GLSL_TYPE[/MATRIX_COLUMN]`.
///
/// `GLSL_TYPE` is a GLSL type (`vec3`, `mat2x3`, `uint`) or, in the older form, a component
/// count (`vertex/float/2`). A matrix takes one column per matrix column (`m/float/mat2x3/0`).
#[derive(Debug, Clone, PartialEq)]
pub struct VertexColumn {
    /// The attribute name in the shader, without an array index.
    pub name: String,
    /// The attribute array index (`bar[1]/int/int`), 0 when there is none.
    pub array_index: u32,
    /// Component type of the data in the table.
    pub ty: AttribType,
    /// The GLSL type as written (`vec3`, `mat2x3`, or a count such as `2`).
    pub glsl_type: String,
    /// Values per vertex in this column (3 for `vec3`, 3 for one column of `mat2x3`).
    pub components: u32,
    /// Which matrix column this is (0 for non-matrices).
    pub matrix_column: u32,
}

/// A GLSL type named by a `uniform` command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UniformType {
    /// `float`, `vec2`..`vec4`: size 1..4.
    Float(u8),
    /// `double`, `dvec2`..`dvec4`.
    Double(u8),
    /// `int`, `ivec2`..`ivec4`.
    Int(u8),
    /// `uint`, `uvec2`..`uvec4`.
    Uint(u8),
    /// `bool`, `bvec2`..`bvec4`.
    Bool(u8),
    /// `int64_t`, `i64vec2`..`i64vec4`.
    Int64(u8),
    /// `uint64_t`, `u64vec2`..`u64vec4`.
    Uint64(u8),
    /// `matCxR` (`mat3` is 3x3): columns, rows.
    Mat(u8, u8),
    /// `dmatCxR`.
    DMat(u8, u8),
    /// `handle` (bindless texture handle).
    Handle,
}

impl UniformType {
    /// How many numbers one value of this type takes.
    pub fn components(self) -> usize {
        match self {
            UniformType::Float(n)
            | UniformType::Double(n)
            | UniformType::Int(n)
            | UniformType::Uint(n)
            | UniformType::Bool(n)
            | UniformType::Int64(n)
            | UniformType::Uint64(n) => n as usize,
            UniformType::Mat(c, r) | UniformType::DMat(c, r) => c as usize * r as usize,
            UniformType::Handle => 1,
        }
    }
}

/// A number from a `uniform` command, kept in the form its type needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    /// A float or double value (hex `0x` bit patterns already decoded).
    Float(f64),
    /// A signed integer (also used for bool: 0 or 1).
    Int(i64),
    /// An unsigned integer.
    Uint(u64),
}

/// A `uniform TYPE NAME VALUES...` command.
#[derive(Debug, Clone, PartialEq)]
pub struct UniformSet {
    /// The declared type.
    pub ty: UniformType,
    /// The uniform name as written (`a`, `arr[2]`, `s.member`, `aoa[1][0]`).
    pub name: String,
    /// The values as written: at most `ty.components()`. Piglit leaves missing trailing
    /// components undefined; backends set them to 0.
    pub values: Vec<Scalar>,
}

/// How `draw rect` maps its coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RectMode {
    /// Normalised device coordinates.
    Plain,
    /// `ortho`: window pixel coordinates.
    Ortho,
    /// `tex`: with a texture-coordinate rectangle `tx ty tw th`.
    Tex([f32; 4]),
}

/// The region a probe reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ProbeRegion {
    /// One pixel `x y`.
    Point([f64; 2]),
    /// A rectangle `x y w h`.
    Rect([f64; 4]),
    /// The whole framebuffer (`probe all`).
    All,
}

/// A `probe` command.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// What to read.
    pub region: ProbeRegion,
    /// True for `relative probe`: coordinates are fractions of the window size.
    pub relative: bool,
    /// 3 for `rgb`, 4 for `rgba`.
    pub channels: u8,
    /// True for the integer forms (`probe rgba int`): the framebuffer holds integers.
    pub integer: bool,
    /// True for `probe warn`: a mismatch warns instead of failing.
    pub warn_only: bool,
    /// The expected colour, `channels` values.
    pub expected: Vec<f64>,
}

/// A `texture rgbw` command: piglit's red/green/blue/white quadrant texture.
#[derive(Debug, Clone, PartialEq)]
pub struct TextureRgbw {
    /// Texture unit.
    pub unit: u32,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// Optional internal format name (e.g. `GL_RGBA8`).
    pub format: Option<String>,
}

/// A `texture checkerboard` command.
#[derive(Debug, Clone, PartialEq)]
pub struct TextureCheckerboard {
    /// Texture unit.
    pub unit: u32,
    /// Mipmap level.
    pub level: u32,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// Colour of the first squares.
    pub color1: [f32; 4],
    /// Colour of the other squares.
    pub color2: [f32; 4],
}

/// Which framebuffer binding an `fb` command changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FbTarget {
    /// `fb ...`: both (`GL_FRAMEBUFFER`).
    Both,
    /// `fb draw ...`: `GL_DRAW_FRAMEBUFFER`.
    Draw,
    /// `fb read ...`: `GL_READ_FRAMEBUFFER`.
    Read,
}

/// A texture target as piglit names it (`parse_tex_target`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextureTarget {
    /// `1D`
    D1,
    /// `2D`
    D2,
    /// `3D`
    D3,
    /// `Rect`
    Rect,
    /// `Cube`
    Cube,
    /// `1DArray`
    D1Array,
    /// `2DArray`
    D2Array,
    /// `CubeArray`
    CubeArray,
}

impl TextureTarget {
    /// The target piglit writes as `name`.
    pub fn from_name(name: &str) -> Option<TextureTarget> {
        Some(match name {
            "1D" => TextureTarget::D1,
            "2D" => TextureTarget::D2,
            "3D" => TextureTarget::D3,
            "Rect" => TextureTarget::Rect,
            "Cube" => TextureTarget::Cube,
            "1DArray" => TextureTarget::D1Array,
            "2DArray" => TextureTarget::D2Array,
            "CubeArray" => TextureTarget::CubeArray,
            _ => return None,
        })
    }
}

/// What an `fb` command binds.
#[derive(Debug, Clone, PartialEq)]
pub enum FbBinding {
    /// `tex 2d UNIT...`: the 2D textures of these units, one colour attachment each.
    Tex2d(Vec<u32>),
    /// `tex slice TARGET UNIT LEVEL LAYER`: one level and layer (or cube face) of a texture.
    TexSlice {
        /// The texture's target.
        target: TextureTarget,
        /// Texture unit.
        unit: u32,
        /// Mipmap level.
        level: u32,
        /// Layer, depth slice or cube face.
        layer: u32,
    },
    /// `tex layered UNIT`: every layer of the unit's texture (layered rendering).
    TexLayered(u32),
    /// `ms FORMAT W H SAMPLES`: a new multisample colour renderbuffer.
    Multisample {
        /// Internal format name (`GL_RGBA8`).
        format: String,
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// Sample count.
        samples: u32,
    },
    /// `winsys`: the window framebuffer.
    Winsys,
}

impl FbBinding {
    /// The command's words, for messages: `tex 2d`, `ms`, `winsys`, ...
    pub fn name(&self) -> &'static str {
        match self {
            FbBinding::Tex2d(_) => "tex 2d",
            FbBinding::TexSlice { .. } => "tex slice",
            FbBinding::TexLayered(_) => "tex layered",
            FbBinding::Multisample { .. } => "ms",
            FbBinding::Winsys => "winsys",
        }
    }
}

/// `texture storage UNIT TARGET FORMAT (LEVELS W [H [D]])`: immutable storage, no texels.
#[derive(Debug, Clone, PartialEq)]
pub struct TextureStorage {
    /// Texture unit.
    pub unit: u32,
    /// Target.
    pub target: TextureTarget,
    /// Internal format name (`GL_RGBA8I`).
    pub format: String,
    /// Mipmap levels.
    pub levels: u32,
    /// Width, then height and depth (or layers) when given: 1 to 3 values.
    pub size: Vec<u32>,
}

/// `texture integer UNIT (W, H) (B, A) FORMAT`: piglit's integer texture, texel (x, y) made
/// of x, y, `b` and `a` (`piglit_integer_texture`).
#[derive(Debug, Clone, PartialEq)]
pub struct TextureInteger {
    /// Texture unit.
    pub unit: u32,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// The `b` term.
    pub b: i32,
    /// The `a` term.
    pub a: i32,
    /// A 32-bit integer format name (`GL_R32I`, `GL_RGBA32I`).
    pub format: String,
}

/// The type of a value `probe ssbo` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufferValue {
    /// `int`: a 32-bit signed integer.
    Int,
    /// `uint`: a 32-bit unsigned integer.
    Uint,
    /// `float`: a binary32 float.
    Float,
}

/// The 32-bit value a buffer probe reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbedBuffer {
    /// `probe ssbo TYPE BINDING OFFSET ...`: the shader storage buffer made at `binding`.
    Ssbo {
        /// The `ssbo` command's binding.
        binding: u32,
        /// Byte offset.
        offset: u32,
        /// How the bytes are read.
        ty: BufferValue,
    },
    /// `probe atomic counter INDEX ...` (binding 0, offset 4 * INDEX) or `probe atomic
    /// counter buffer BINDING OFFSET ...`: an unsigned counter.
    AtomicCounter {
        /// The buffer's binding.
        binding: u32,
        /// Byte offset.
        offset: u32,
    },
}

/// A probe of a value in a buffer: `probe ssbo ...` or `probe atomic counter ...`.
#[derive(Debug, Clone, PartialEq)]
pub struct BufferProbe {
    /// What to read.
    pub buffer: ProbedBuffer,
    /// How the observed value must compare with `expected` (as written; `!=` keeps piglit's
    /// meaning, see the command loop).
    pub op: Comparison,
    /// The reference value (an integer or a float, by the buffer value's type).
    pub expected: Scalar,
}

/// The buffer a `blit` copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlitBuffer {
    /// `color`
    Color,
    /// `depth`
    Depth,
    /// `stencil`
    Stencil,
}

/// A `[test]` command.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `clear`
    Clear,
    /// `clear color r g b a`
    ClearColor([f32; 4]),
    /// `clear depth d`
    ClearDepth(f64),
    /// `draw rect [ortho|tex] [patch] x y w h [tx ty tw th]`
    DrawRect {
        /// Coordinate mode.
        mode: RectMode,
        /// True for `patch` (draw as GL_PATCHES).
        patch: bool,
        /// `x y w h`.
        rect: [f32; 4],
    },
    /// `draw instanced rect [ortho] [patch] N x y w h`
    DrawInstancedRect {
        /// True for `ortho`.
        ortho: bool,
        /// True for `patch`.
        patch: bool,
        /// Instance count.
        instances: u32,
        /// `x y w h`.
        rect: [f32; 4],
    },
    /// `draw arrays [instanced] MODE first count [instances]`
    DrawArrays {
        /// Primitive mode, e.g. `GL_TRIANGLES` (the `GL_` prefix is optional in files).
        mode: String,
        /// First vertex.
        first: i32,
        /// Vertex count.
        count: i32,
        /// Instance count for `draw arrays instanced`.
        instances: Option<u32>,
    },
    /// `uniform TYPE NAME VALUES...`
    Uniform(UniformSet),
    /// `tolerance r [g [b [a]]]`: like piglit, sets the first 1-4 channel tolerances.
    Tolerance(Vec<f64>),
    /// Any `probe` form.
    Probe(Probe),
    /// `texture rgbw UNIT (w, h) [FORMAT]`
    TextureRgbw(TextureRgbw),
    /// `texture checkerboard UNIT LEVEL (w, h) (r, g, b, a) (r, g, b, a)`
    TextureCheckerboard(TextureCheckerboard),
    /// `texparameter TARGET PARAM VALUE`
    TexParameter {
        /// `2D`, `Rect`, `1D`, `2DArray`, ...
        target: String,
        /// `min`, `mag`, `wrap_s`, `compare_func`, ...
        parameter: String,
        /// `nearest`, `linear`, `clamp_to_edge`, ...
        value: String,
    },
    /// `fb [draw|read] BINDING`: bind a framebuffer for drawing, reading or both.
    Fb {
        /// Which bindings change.
        target: FbTarget,
        /// What gets bound.
        binding: FbBinding,
    },
    /// `blit color|depth|stencil linear|nearest`: piglit's `glBlitFramebuffer` from the
    /// whole read framebuffer to the whole draw framebuffer.
    Blit {
        /// Which buffer to copy.
        buffer: BlitBuffer,
        /// True for `linear`, false for `nearest`.
        linear: bool,
    },
    /// `atomic counter buffer BINDING COUNT`, or `atomic counters COUNT` (binding 0): a new
    /// buffer of COUNT zeroed atomic counters bound at BINDING.
    AtomicCounterBuffer {
        /// `GL_ATOMIC_COUNTER_BUFFER` binding point.
        binding: u32,
        /// Number of 32-bit counters.
        count: u32,
    },
    /// `atomic counter BINDING INDEX VALUE`: sets one counter of a buffer made before.
    AtomicCounter {
        /// Binding point of the buffer.
        binding: u32,
        /// Counter index in the buffer.
        index: u32,
        /// New value.
        value: u32,
    },
    /// `fbfetch barrier`: `glFramebufferFetchBarrierEXT`.
    FbfetchBarrier,
    /// `texture storage UNIT TARGET FORMAT (LEVELS W [H [D]])`.
    TextureStorage(TextureStorage),
    /// `texture integer UNIT (W, H) (B, A) FORMAT`.
    TextureInteger(TextureInteger),
    /// `texture junk 2DArray UNIT (W, H, LAYERS)`: an RGBA 2D array texture with undefined
    /// texels.
    TextureJunk2dArray {
        /// Texture unit.
        unit: u32,
        /// Width in texels.
        width: u32,
        /// Height in texels.
        height: u32,
        /// Layers.
        layers: u32,
    },
    /// `image texture UNIT FORMAT`: the unit's texture (level 0) as image unit UNIT.
    ImageTexture {
        /// Texture and image unit.
        unit: u32,
        /// Image format name (`GL_R32I`).
        format: String,
    },
    /// `ssbo BINDING SIZE`: a zeroed shader storage buffer of SIZE bytes at BINDING.
    Ssbo {
        /// Binding point.
        binding: u32,
        /// Size in bytes.
        size: u32,
    },
    /// `ssbo BINDING subdata float|int OFFSET VALUE`: writes 4 bytes of that buffer.
    SsboSubdata {
        /// The buffer's binding.
        binding: u32,
        /// Byte offset.
        offset: u32,
        /// A float (stored as binary32) or an int (stored as 32 bits).
        value: Scalar,
    },
    /// `compute X Y Z`: dispatches the compute shader, with full memory barriers around.
    Compute([u32; 3]),
    /// `memory barrier BITS`: `glMemoryBarrier` with the named bit (`GL_ALL_BARRIER_BITS`).
    MemoryBarrier(String),
    /// `probe ssbo ...` and `probe atomic counter ...`.
    BufferProbe(BufferProbe),
    /// `link success`
    LinkSuccess,
    /// `link error`
    LinkError,
    /// `enable CAP`
    Enable(String),
    /// `disable CAP`
    Disable(String),
    /// `blend func SRC DST`
    BlendFunc {
        /// Source factor, e.g. `GL_SRC_ALPHA`.
        src: String,
        /// Destination factor.
        dst: String,
    },
    /// A command piglit knows but halfcheck does not run; a backend skips the test with this.
    Unsupported {
        /// The command's name (its leading words).
        name: String,
    },
}
