//! Driver profiles: every choice the emulator makes about what the GLSL ES spec leaves to the
//! driver, as data.
//!
//! A [`Profile`] is one YAML file: a name, what it describes, the [`Choices`] (which
//! operations run at 16 bits, how binary16/binary32 arithmetic rounds and flushes, how
//! built-ins expand, how texels, rasterisation, interpolation, derivatives and the shader
//! interface behave), and for a profile that `halfcheck fingerprint` measured, the evidence
//! that decided each choice and why any stayed undetermined. [`CHOICES`] names every choice
//! with its meaning and values. A file must name every choice, and a key that is no choice is
//! an error: a profile cut short would otherwise run with llvmpipe's values under its own
//! name. `Default` still gives the default profile's values, `llvmpipe`'s. The profiles halfcheck ships live in `emu/profiles/`
//! and are built into the binary ([`Profile::builtin`]), so a fresh clone needs no files.
//!
//! The compiler's passes read [`Choices::lowering`] (through [`CompileOptions`]),
//! the evaluator reads the rest through its domain (`exec::Domain::driver`), and the
//! harness's emulator backend reads the raster, texture and interface choices.

use halfcheck_compiler::ir::Model;
use halfcheck_compiler::passes::Switches;
use halfcheck_compiler::CompileOptions;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A driver profile: the choices, and where they came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Short name (`llvmpipe`), shown in `results.json` and on the run line.
    pub name: String,
    /// The driver it describes and how it was measured.
    #[serde(default)]
    pub describes: String,
    /// The choices, every one named: a file that leaves one out is refused.
    pub choices: Choices,
    /// Per choice key, the probe and numbers that decided it (fingerprinted profiles).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub evidence: BTreeMap<String, String>,
    /// Per choice key, why the fingerprint could not decide it (the value is the default).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub undetermined: BTreeMap<String, String>,
}

/// Every choice the emulator makes. `Default` is the default profile's (llvmpipe's) value of
/// each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choices {
    /// Which precision rules decide what may be lowered.
    pub precision: Model,
    /// Which operations run at 16 bits: the lowering pass's switches and what the driver's
    /// later pipeline undoes.
    pub lowering: Switches,
    /// How the arithmetic rounds, flushes and expands built-ins.
    pub arithmetic: Arithmetic,
    /// Texel conversion and filtering.
    pub texture: Texture,
    /// Rasterisation, interpolation and derivatives.
    pub raster: Raster,
    /// The shader interface: varyings and fragment outputs.
    pub interface: Interface,
}

/// How the arithmetic rounds, flushes and expands built-ins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Arithmetic {
    /// What a binary32 operation's result holds.
    pub binary32: Binary32,
    /// binary32 subnormal results and operands become zero.
    pub flush_f32_subnormals: bool,
    /// binary16 subnormal results and operands become zero.
    pub flush_f16_subnormals: bool,
    /// The `fma()` built-in.
    pub fma: Fma,
    /// `a * b + c` and `a * b - c` at one width compute as one fused multiply-add.
    pub contract: bool,
    /// How `dot` (and a row vector times a matrix, a `dot` per column) adds its terms.
    pub dot: Dot,
    /// How a matrix times a vector or a matrix adds its columns.
    pub matrix: Dot,
    /// How binary32 `mix(x, y, t)` expands.
    pub mix: Mix,
    /// How binary16 (lowered) `mix(x, y, t)` expands: a driver may lower it apart from the
    /// binary32 one (zink on lavapipe: `weights`, its binary32 `mix` `delta`).
    pub mix16: Mix,
    /// How binary32 `log2` is computed.
    pub log2: Log2,
    /// How `exp` and `log` are computed.
    pub exp_log: ExpLog,
    /// How `pow` is computed.
    pub pow: Pow,
    /// How binary32 `exp2`, `log2`, `sin` and `cos` (and what is built from them) are
    /// evaluated.
    pub transcendentals: Transcendentals,
    /// How the multiply-adds inside the driver's own polynomial approximations round.
    pub polynomial_fma: Fma,
    /// Where a float variable assigned in masked control flow (a loop the driver keeps, an
    /// `if` on a varying condition) lives.
    pub control_flow_variables: ControlFlowVariables,
}

impl Default for Arithmetic {
    fn default() -> Self {
        Arithmetic {
            binary32: Binary32::Ieee,
            flush_f32_subnormals: true,
            flush_f16_subnormals: false,
            fma: Fma::Split,
            contract: false,
            dot: Dot::Reverse,
            matrix: Dot::Sequential,
            mix: Mix::Delta,
            mix16: Mix::Delta,
            log2: Log2::Direct,
            exp_log: ExpLog::Exp2Log2,
            pow: Pow::Exp2Log2,
            transcendentals: Transcendentals::Gallivm,
            polynomial_fma: Fma::Fused,
            control_flow_variables: ControlFlowVariables::Memory,
        }
    }
}

/// What a binary32 operation's result holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Binary32 {
    /// The result rounded to binary32.
    #[default]
    Ieee,
    /// The result kept at extended precision (x87 registers: llvmpipe without SSE), rounded
    /// to binary32 only where it leaves the shader (outputs, varyings).
    Extended,
}

/// How binary32 `exp2`, `log2`, `sin` and `cos` are evaluated (binary16 ones are the
/// binary32 function of the argument, rounded, on every driver measured).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transcendentals {
    /// The correctly rounded function (C's libm: softpipe).
    CorrectlyRounded,
    /// Mesa's gallivm polynomials (llvmpipe): `exp2` by a degree-5 polynomial of the
    /// fraction times a power of two, `log2` by a degree-4 polynomial in `((m-1)/(m+1))^2`
    /// of the significand plus the exponent, `sin`/`cos` by Cephes' reduction modulo pi/4
    /// and its two degree-3 polynomials; every step in the profile's binary32 arithmetic,
    /// its multiply-adds as [`Arithmetic::polynomial_fma`] says.
    #[default]
    Gallivm,
}

/// Where a float variable lives, when binary32 keeps extended precision, that is assigned
/// inside a loop that stays a loop (one NIR does not unroll: its trip count is no
/// compile-time constant, or too long) or inside an `if` whose condition varies per
/// invocation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ControlFlowVariables {
    /// In registers: it keeps extended precision.
    Registers,
    /// In memory: rounded to binary32 where it enters the loop, after every iteration and
    /// where the branches of the `if` join (llvmpipe without SSE).
    #[default]
    Memory,
}

/// How a multiply-add rounds (the `fma()` built-in, the multiply-adds of gallivm's
/// polynomials).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fma {
    /// A rounded multiply, then a rounded add (llvmpipe's `lower_ffma` for `fma()`).
    #[default]
    Split,
    /// One rounding.
    Fused,
}

/// How `dot` and matrix products sum their products.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dot {
    /// `((x0 y0 + x1 y1) + x2 y2) + x3 y3`, every step rounded.
    Sequential,
    /// `((x3 y3 + x2 y2) + x1 y1) + x0 y0`, every step rounded (NIR's scalar reduction,
    /// measured on llvmpipe).
    #[default]
    Reverse,
    /// `(x0 y0 + x1 y1) + (x2 y2 + x3 y3)`, every step rounded.
    Pairwise,
    /// `fma(x3, y3, fma(x2, y2, fma(x1, y1, x0 y0)))`.
    Fused,
}

/// How `mix(x, y, t)` expands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mix {
    /// `x + t (y - x)`, every step rounded (gallivm's lerp).
    #[default]
    Delta,
    /// `x (1 - t) + y t`, every step rounded.
    Weights,
    /// `fma(t, y - x, x)`.
    Fused,
}

/// How binary32 `log2` is computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Log2 {
    /// The binary32 `log2` of the argument.
    #[default]
    Direct,
    /// `ln(x) * 1.442695f` (softpipe's `LG2`).
    FromLn,
}

/// How `exp` and `log` are computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExpLog {
    /// `exp2(x * log2(e))` and `log2(x) * (1 / log2(e))`, every step rounded (NIR's builders).
    #[default]
    Exp2Log2,
    /// One function at the operation's width.
    Direct,
}

/// How `pow` is computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pow {
    /// One function at the operation's width.
    Direct,
    /// `exp2(y * log2(x))`, every step rounded (measured on llvmpipe).
    #[default]
    Exp2Log2,
}

/// Texel conversion and filtering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Texture {
    /// How a texel entering binary16 (a mediump or lowp sampler) is converted.
    pub texel_to_f16: TexelConversion,
    /// How 8-bit textures are filtered bilinearly.
    pub filtering: Filtering,
}

impl Default for Texture {
    fn default() -> Self {
        Texture {
            texel_to_f16: TexelConversion::Truncate,
            filtering: Filtering::FixedPoint,
        }
    }
}

/// How a texel entering binary16 is converted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TexelConversion {
    /// Toward zero (llvmpipe).
    #[default]
    Truncate,
    /// To nearest even.
    Round,
}

/// How 8-bit textures are filtered bilinearly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Filtering {
    /// Texel coordinates rounded to 1/256, 8-bit weights, `(a (256 - w) + b w + 128) >> 8`
    /// per lerp (llvmpipe).
    #[default]
    FixedPoint,
    /// Lerps in binary32 (softpipe).
    Binary32,
}

/// Rasterisation, interpolation and derivatives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Raster {
    /// Vertices snap to 1/256 pixel before coverage is decided.
    pub subpixel_snap: bool,
    /// How attributes are interpolated.
    pub interpolation: Interpolation,
    /// How derivatives pair the pixels of a 2x2 quad.
    pub derivatives: Derivatives,
}

impl Default for Raster {
    fn default() -> Self {
        Raster {
            subpixel_snap: true,
            interpolation: Interpolation::PlaneFma,
            derivatives: Derivatives::Fine,
        }
    }
}

/// How attributes are interpolated (every step in binary32).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Interpolation {
    /// Planes set up from the vertices in draw order, evaluated per pixel with fused
    /// multiply-adds; perspective as `a * (1 / w)` (llvmpipe).
    #[default]
    PlaneFma,
    /// Planes set up from the vertices sorted by y, stepped per quad; perspective as `a / w`
    /// (softpipe).
    SortedQuads,
}

/// How screen-space derivatives pair the pixels of a 2x2 quad.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Derivatives {
    /// Each row (`dFdx`) and column (`dFdy`) of the quad has its own difference.
    #[default]
    Fine,
    /// One difference per quad: `dFdx` from its upper row, `dFdy` from its left column.
    Coarse,
}

/// The shader interface.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Interface {
    /// mediump and lowp float fragment inputs are rounded to binary16 when read.
    pub round_varyings: bool,
    /// mediump and lowp float fragment outputs are rounded to binary16 when written.
    pub round_outputs: bool,
}

/// One choice: its key (`section.name`), what it means and the values it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// `arithmetic.fma`: the path in the YAML file under `choices:`.
    pub key: &'static str,
    /// One line on what it decides.
    pub meaning: &'static str,
    /// Every value it takes, as the YAML file writes it.
    pub values: &'static [&'static str],
}

const BOOL: &[&str] = &["true", "false"];

/// Every choice of [`Choices`], in file order.
pub const CHOICES: &[Choice] = &[
    Choice {
        key: "precision",
        meaning: "mesa: an operation whose operands have no precision stays highp (the lvalue never lends one); spec: it takes its consumer's (GLSL ES 4.5.2)",
        values: &["mesa", "spec"],
    },
    Choice {
        key: "lowering.float16",
        meaning: "mediump and lowp float operations run in binary16",
        values: BOOL,
    },
    Choice {
        key: "lowering.int16",
        meaning: "mediump and lowp int and uint operations run at 16 bits and wrap",
        values: BOOL,
    },
    Choice {
        key: "lowering.float16_uniforms",
        meaning: "mediump float uniforms are 16-bit: rounded at load, also where highp operations read them",
        values: BOOL,
    },
    Choice {
        key: "lowering.derivatives",
        meaning: "dFdx and dFdy of mediump values run at 16 bits",
        values: BOOL,
    },
    Choice {
        key: "lowering.fold_constructors",
        meaning: "the lone-operation and conversion-folding rules also apply to what a mediump vector or matrix constructor places when it goes whole into an output (false: it keeps binary16, zink: color = vec4(m, ...) of a mediump local holding a highp value is rounded)",
        values: BOOL,
    },
    Choice {
        key: "lowering.fold_conversions",
        meaning: "f2f32(f2f16(x)) folds to x through variables and swizzles: a 32-bit float kept in a mediump local keeps its 32 bits",
        values: BOOL,
    },
    Choice {
        key: "lowering.int_fold_conversions",
        meaning: "i2i32(i2i16(x)) folds to x through variables and swizzles: a 32-bit int kept in a mediump local keeps its 32 bits",
        values: BOOL,
    },
    Choice {
        key: "lowering.lone_op_uniform",
        meaning: "a lowered float tree of one operation whose sources are all uniforms runs in binary32 (the conversions fold away)",
        values: BOOL,
    },
    Choice {
        key: "lowering.lone_op_varying",
        meaning: "a lowered float tree of one operation whose sources are all shader inputs runs in binary32",
        values: BOOL,
    },
    Choice {
        key: "lowering.lone_op_temporary",
        meaning: "a lowered float tree of one operation whose sources are all 32-bit values the shader computed runs in binary32",
        values: BOOL,
    },
    Choice {
        key: "lowering.lone_op_derivative",
        meaning: "a lowered float tree of one operation on binary16 values (or a local assigned one) that dFdx or dFdy reads runs in binary32 on those values, the derivative at 32 bits (zink: SPIR-V derivatives are 32-bit)",
        values: BOOL,
    },
    Choice {
        key: "lowering.int_lone_op",
        meaning: "a lowered int or uint tree of one operation whose sources are all 32-bit values runs at 32 bits",
        values: BOOL,
    },
    Choice {
        key: "arithmetic.binary32",
        meaning: "ieee: a binary32 operation rounds its result to binary32; extended: it keeps x87 extended precision until the value leaves the shader (llvmpipe without SSE)",
        values: &["ieee", "extended"],
    },
    Choice {
        key: "arithmetic.flush_f32_subnormals",
        meaning: "binary32 subnormal results and operands become zero",
        values: BOOL,
    },
    Choice {
        key: "arithmetic.flush_f16_subnormals",
        meaning: "binary16 subnormal results and operands become zero",
        values: BOOL,
    },
    Choice {
        key: "arithmetic.fma",
        meaning: "the fma() built-in: split is a rounded multiply then a rounded add, fused rounds once",
        values: &["split", "fused"],
    },
    Choice {
        key: "arithmetic.contract",
        meaning: "a * b + c and a * b - c at one width compute as one fused multiply-add",
        values: BOOL,
    },
    Choice {
        key: "arithmetic.dot",
        meaning: "dot (and row vector * matrix): sequential ((x0y0 + x1y1) + x2y2) + x3y3, reverse from the last term, pairwise (x0y0 + x1y1) + (x2y2 + x3y3), fused (a chain of fma)",
        values: &["sequential", "reverse", "pairwise", "fused"],
    },
    Choice {
        key: "arithmetic.matrix",
        meaning: "matrix * vector and matrix * matrix, column by column: sequential m0v0 + m1v1 + ..., reverse, pairwise, fused (a chain of fma)",
        values: &["sequential", "reverse", "pairwise", "fused"],
    },
    Choice {
        key: "arithmetic.mix",
        meaning: "binary32 mix(x, y, t): delta x + t(y - x), weights x(1 - t) + yt, fused fma(t, y - x, x)",
        values: &["delta", "weights", "fused"],
    },
    Choice {
        key: "arithmetic.mix16",
        meaning: "binary16 (lowered) mix(x, y, t), the same forms: delta x + t(y - x), weights x(1 - t) + yt, fused fma(t, y - x, x)",
        values: &["delta", "weights", "fused"],
    },
    Choice {
        key: "arithmetic.log2",
        meaning: "binary32 log2: direct, or from_ln as ln(x) * 1.442695 (softpipe's LG2)",
        values: &["direct", "from_ln"],
    },
    Choice {
        key: "arithmetic.exp_log",
        meaning: "exp and log: exp2_log2 as exp2(x log2 e) and log2(x) ln 2, every step rounded, or direct",
        values: &["exp2_log2", "direct"],
    },
    Choice {
        key: "arithmetic.pow",
        meaning: "pow: direct, or exp2_log2 as exp2(y log2 x), every step rounded",
        values: &["direct", "exp2_log2"],
    },
    Choice {
        key: "arithmetic.transcendentals",
        meaning: "binary32 exp2, log2, sin, cos (and exp, log, pow, tan, the hyperbolic functions built from them): correctly_rounded, or gallivm's polynomials evaluated in the binary32 arithmetic above",
        values: &["correctly_rounded", "gallivm"],
    },
    Choice {
        key: "arithmetic.polynomial_fma",
        meaning: "the multiply-adds inside gallivm's polynomials (llvm.fmuladd): split rounds the product then the sum, fused rounds once (LLVM fuses them on a CPU with FMA)",
        values: &["split", "fused"],
    },
    Choice {
        key: "arithmetic.control_flow_variables",
        meaning: "with extended binary32, a float variable declared outside and assigned inside a loop NIR keeps (its trip count unknown or over 32) or an if on a varying condition: registers keeps extended precision, memory rounds it to binary32 entering the loop, after each iteration and after the if",
        values: &["registers", "memory"],
    },
    Choice {
        key: "texture.texel_to_f16",
        meaning: "a texel entering binary16 (mediump or lowp sampler) is truncated toward zero or rounded to nearest even",
        values: &["truncate", "round"],
    },
    Choice {
        key: "texture.filtering",
        meaning: "bilinear filtering of 8-bit textures: fixed_point (1/256 coordinates, 8-bit weights and lerps) or binary32 lerps",
        values: &["fixed_point", "binary32"],
    },
    Choice {
        key: "raster.subpixel_snap",
        meaning: "vertices snap to 1/256 pixel before coverage is decided",
        values: BOOL,
    },
    Choice {
        key: "raster.interpolation",
        meaning: "plane_fma: planes from the vertices in draw order, fma per pixel, a * (1/w); sorted_quads: vertices sorted by y, stepped per quad, a / w",
        values: &["plane_fma", "sorted_quads"],
    },
    Choice {
        key: "raster.derivatives",
        meaning: "fine: a difference per row and column of the 2x2 quad; coarse: dFdx from its upper row, dFdy from its left column",
        values: &["fine", "coarse"],
    },
    Choice {
        key: "interface.round_varyings",
        meaning: "mediump and lowp float fragment inputs are rounded to binary16 when read",
        values: BOOL,
    },
    Choice {
        key: "interface.round_outputs",
        meaning: "mediump and lowp float fragment outputs are rounded to binary16 when written",
        values: BOOL,
    },
];

/// The profiles halfcheck ships, by name: the YAML text built into the binary.
const BUILTIN: &[(&str, &str)] = &[
    ("llvmpipe", include_str!("../profiles/llvmpipe.yaml")),
    ("softpipe", include_str!("../profiles/softpipe.yaml")),
    (
        "llvmpipe-nosse",
        include_str!("../profiles/llvmpipe-nosse.yaml"),
    ),
    (
        "angle-swiftshader",
        include_str!("../profiles/angle-swiftshader.yaml"),
    ),
    (
        "angle-vulkan",
        include_str!("../profiles/angle-vulkan.yaml"),
    ),
    ("zink", include_str!("../profiles/zink.yaml")),
    ("virgl", include_str!("../profiles/virgl.yaml")),
];

impl Choices {
    /// The value of choice `key` as the YAML file writes it (`None` for an unknown key).
    pub fn get(&self, key: &str) -> Option<String> {
        let tree = serde_json::to_value(self).ok()?;
        match tree.pointer(&pointer(key))? {
            Value::Bool(b) => Some(b.to_string()),
            Value::String(s) => Some(s.clone()),
            _ => None,
        }
    }

    /// These choices with choice `key` set to `value` (as the YAML file writes it).
    pub fn with(&self, key: &str, value: &str) -> Result<Choices, ProfileError> {
        let unknown = || ProfileError::UnknownChoice {
            key: key.to_owned(),
        };
        let choice = CHOICES.iter().find(|c| c.key == key).ok_or_else(unknown)?;
        if !choice.values.contains(&value) {
            return Err(ProfileError::BadValue {
                key: key.to_owned(),
                value: value.to_owned(),
                values: choice.values.join(", "),
            });
        }
        let mut tree = serde_json::to_value(self).map_err(|_| unknown())?;
        let slot = tree.pointer_mut(&pointer(key)).ok_or_else(unknown)?;
        *slot = match value {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            other => Value::String(other.to_owned()),
        };
        serde_json::from_value(tree).map_err(|_| ProfileError::BadValue {
            key: key.to_owned(),
            value: value.to_owned(),
            values: choice.values.join(", "),
        })
    }
}

/// Why a profile or a choice could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    /// A key that names no choice.
    #[error("no choice named `{key}`")]
    UnknownChoice {
        /// The key (`section.name`).
        key: String,
    },
    /// A value the choice does not take.
    #[error("`{key}` takes {values}, not `{value}`")]
    BadValue {
        /// The key (`section.name`).
        key: String,
        /// The value given.
        value: String,
        /// The values it takes, comma-separated.
        values: String,
    },
    /// A YAML file that is not a profile, at a line and column where the parser knows one.
    #[error("{origin}{}: {message}", .at.map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default())]
    Yaml {
        /// What was read (a file's path, `built-in profile NAME`).
        origin: String,
        /// Line and column.
        at: Option<(usize, usize)>,
        /// What the YAML reader said.
        message: String,
    },
    /// Evidence or an undetermined entry for something that is no choice.
    #[error("{origin}: evidence for `{key}`, which is no choice")]
    EvidenceForNoChoice {
        /// What was read.
        origin: String,
        /// The key.
        key: String,
    },
}

/// The JSON pointer of a choice key.
fn pointer(key: &str) -> String {
    format!("/{}", key.replace('.', "/"))
}

impl Default for Profile {
    /// The default profile, llvmpipe.
    fn default() -> Self {
        Profile::llvmpipe().clone()
    }
}

impl Profile {
    /// A profile named `name` with these choices, no evidence.
    pub fn new(name: &str, describes: &str, choices: Choices) -> Profile {
        Profile {
            name: name.to_owned(),
            describes: describes.to_owned(),
            choices,
            evidence: BTreeMap::new(),
            undetermined: BTreeMap::new(),
        }
    }

    /// The names of the profiles halfcheck ships.
    pub fn builtin_names() -> Vec<&'static str> {
        BUILTIN.iter().map(|(name, _)| *name).collect()
    }

    /// The shipped profile `name`, if there is one.
    pub fn builtin(name: &str) -> Option<Profile> {
        let (_, text) = BUILTIN.iter().find(|(n, _)| *n == name)?;
        Profile::from_yaml(text, &format!("built-in profile {name}")).ok()
    }

    /// The default profile, llvmpipe (Mesa 22.3.6), the one halfcheck's corpus was measured on.
    pub fn llvmpipe() -> &'static Profile {
        static LLVMPIPE: OnceLock<Profile> = OnceLock::new();
        LLVMPIPE.get_or_init(|| {
            Profile::builtin("llvmpipe")
                .unwrap_or_else(|| Profile::new("llvmpipe", "", Choices::default()))
        })
    }

    /// Reads a profile from YAML; `origin` names the file in errors, with the line and column.
    pub fn from_yaml(text: &str, origin: &str) -> Result<Profile, ProfileError> {
        let profile: Profile = serde_norway::from_str(text).map_err(|e| ProfileError::Yaml {
            origin: origin.to_owned(),
            at: e.location().map(|at| (at.line(), at.column())),
            message: match e.location() {
                Some(_) => bounded(without_location(&e.to_string())),
                None => bounded(e.to_string()),
            },
        })?;
        for key in profile.evidence.keys().chain(profile.undetermined.keys()) {
            if !CHOICES.iter().any(|c| c.key == key) {
                return Err(ProfileError::EvidenceForNoChoice {
                    origin: origin.to_owned(),
                    key: key.clone(),
                });
            }
        }
        Ok(profile)
    }

    /// The profile as YAML: every choice with its meaning and default in a comment above it,
    /// then the evidence and what stayed undetermined.
    pub fn to_yaml(&self) -> String {
        let defaults = Choices::default();
        let mut out = String::from(
            "# halfcheck driver profile: every choice the emulator makes (docs/drivers.md).\n\
             # Use it with `halfcheck run --backend emu --emu-profile FILE`.\n",
        );
        out += &format!("name: {}\n", scalar(&self.name));
        out += &format!("describes: {}\n", scalar(&self.describes));
        out += "choices:\n";
        let mut section = "";
        for choice in CHOICES {
            let (head, leaf) = choice.key.split_once('.').unwrap_or(("", choice.key));
            let indent = if head.is_empty() { "  " } else { "    " };
            if head != section && !head.is_empty() {
                out += &format!("  {head}:\n");
            }
            section = head;
            let value = self.choices.get(choice.key).unwrap_or_default();
            let default = defaults.get(choice.key).unwrap_or_default();
            out += &format!(
                "{indent}# {} ({}; default {default})\n{indent}{leaf}: {value}\n",
                choice.meaning,
                choice.values.join(" | ")
            );
        }
        for (title, map) in [
            ("evidence", &self.evidence),
            ("undetermined", &self.undetermined),
        ] {
            if map.is_empty() {
                continue;
            }
            out += &format!("{title}:\n");
            for (key, text) in map {
                out += &format!("  {key}: {}\n", scalar(text));
            }
        }
        out
    }
}

/// A string as one YAML scalar (quoted when it must be).
fn scalar(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " _-.,()/".contains(c))
        && !text.starts_with([' ', '-'])
        && !text.ends_with(' ')
        && !matches!(
            text,
            "true" | "false" | "null" | "yes" | "no" | "on" | "off"
        )
        && text.parse::<f64>().is_err();
    if plain {
        text.to_owned()
    } else {
        serde_json::to_string(text).unwrap_or_default()
    }
}

/// The most characters of a YAML error message shown: serde_norway quotes the value it did not
/// expect, which for a file that is no profile (`--emu-profile /etc/passwd`) is the file.
const MESSAGE_CHARS: usize = 200;

/// `message` cut to [`MESSAGE_CHARS`] characters.
fn bounded(message: String) -> String {
    match message.char_indices().nth(MESSAGE_CHARS) {
        None => message,
        Some((end, _)) => format!("{}... (message cut)", &message[..end]),
    }
}

/// serde_norway's message without its own " at line L column C" (the caller prints it first).
fn without_location(message: &str) -> String {
    match message.find(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}

impl Choices {
    /// How the emulator compiles for these choices: with `lower`, by their precision rules
    /// and lowering switches, the later pipeline included; without, nothing lowered.
    pub fn compile_options(&self, lower: bool) -> CompileOptions {
        CompileOptions {
            model: self.precision,
            lower,
            final_pipeline: lower,
            switches: self.lowering,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_of_the_choices_is_in_the_table_and_back() {
        fn leaves(prefix: &str, v: &Value, out: &mut Vec<String>) {
            match v {
                Value::Object(map) => {
                    for (k, v) in map {
                        let key = if prefix.is_empty() {
                            k.clone()
                        } else {
                            format!("{prefix}.{k}")
                        };
                        leaves(&key, v, out);
                    }
                }
                _ => out.push(prefix.to_owned()),
            }
        }
        let mut found = Vec::new();
        let tree = serde_json::to_value(Choices::default()).expect("serialises");
        leaves("", &tree, &mut found);
        let mut table: Vec<String> = CHOICES.iter().map(|c| c.key.to_owned()).collect();
        found.sort();
        table.sort();
        assert_eq!(found, table);
        for choice in CHOICES {
            for value in choice.values {
                let set = Choices::default().with(choice.key, value).expect("sets");
                assert_eq!(
                    set.get(choice.key).as_deref(),
                    Some(*value),
                    "{}",
                    choice.key
                );
            }
        }
    }

    #[test]
    fn shipped_profiles_parse_and_are_written_in_canonical_form() {
        for (name, text) in BUILTIN {
            let profile = Profile::from_yaml(text, name).expect("parses");
            assert_eq!(profile.name, *name);
            assert_eq!(profile.to_yaml(), *text, "{name}.yaml is not canonical");
        }
    }

    #[test]
    fn defaults_are_the_llvmpipe_profile() {
        assert_eq!(Profile::llvmpipe().choices, Choices::default());
    }

    #[test]
    fn a_typo_is_an_error_naming_the_line() {
        let text = "name: x\nchoices:\n  arithmetic:\n    fmaa: fused\n";
        let e = Profile::from_yaml(text, "x.yaml")
            .expect_err("rejected")
            .to_string();
        assert!(e.starts_with("x.yaml:4:"), "{e}");
        assert!(e.contains("fmaa"), "{e}");
        let e = Choices::default()
            .with("arithmetic.fma", "maybe")
            .expect_err("rejected");
        assert!(matches!(e, ProfileError::BadValue { .. }), "{e:?}");
        assert!(e.to_string().contains("split, fused"), "{e}");
    }

    #[test]
    fn a_profile_round_trips_through_yaml() {
        let mut p = Profile::new("odd: one", "a \"quoted\" driver", Choices::default());
        p.choices = p
            .choices
            .with("raster.derivatives", "coarse")
            .expect("sets");
        p.evidence
            .insert("raster.derivatives".into(), "probe x: 0x3f800000".into());
        let back = Profile::from_yaml(&p.to_yaml(), "p").expect("parses");
        assert_eq!(back, p);
    }
}
