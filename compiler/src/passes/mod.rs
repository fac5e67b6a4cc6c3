//! Passes over the IR: precision lowering as Mesa does it, folding of conversion pairs, and
//! the later Mesa pipeline effects measured on llvmpipe.

pub mod fold_conversions;
pub mod lone_derivative;
pub mod lower_precision;
pub mod lower_variables;
pub mod mesa_pipeline;
mod region;
mod walk;

use serde::{Deserialize, Serialize};

/// The lowering switches: Mesa's `gl_shader_compiler_options` for `lower_precision`, and
/// what the driver's later pipeline undoes (`mesa_pipeline`). A driver profile's `lowering`
/// section, which must name every field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Switches {
    /// `LowerPrecisionFloat16`: lower mediump float operations.
    pub float16: bool,
    /// `LowerPrecisionInt16`: lower mediump int and uint operations.
    pub int16: bool,
    /// `LowerPrecisionConstants`: lower the constant initializers of lowered variables. Not
    /// a profile choice: halfcheck's front end folds constant variables into their uses, so
    /// it changes declarations only, never a value.
    #[serde(skip, default = "lower_constants")]
    pub constants: bool,
    /// `LowerPrecisionFloat16Uniforms`: mediump float uniforms become 16-bit variables.
    pub float16_uniforms: bool,
    /// `LowerPrecisionDerivatives`: lower `dFdx`/`dFdy`.
    pub derivatives: bool,
    /// Conversion pairs fold away through variables and swizzles (`mesa_pipeline`).
    pub fold_conversions: bool,
    /// Integer conversion pairs fold away through variables and swizzles.
    pub int_fold_conversions: bool,
    /// A 16-bit int or uint tree of one operation on 32-bit values runs at 32 bits.
    pub int_lone_op: bool,
    /// A 16-bit tree of one operation on uniforms only runs at 32 bits (`mesa_pipeline`).
    pub lone_op_uniform: bool,
    /// A 16-bit tree of one operation on shader inputs only runs at 32 bits.
    pub lone_op_varying: bool,
    /// A 16-bit tree of one operation on 32-bit values the shader computed runs at 32 bits.
    pub lone_op_temporary: bool,
    /// A 16-bit tree of one operation that a derivative reads runs at 32 bits on its
    /// 16-bit sources, and the derivative at 32 bits (zink: `lone_derivative`).
    pub lone_op_derivative: bool,
    /// The rules above also fold the conversions around what a mediump vector or matrix
    /// constructor places when it goes whole into an output (zink: no, it stays 16-bit).
    pub fold_constructors: bool,
}

/// `Switches::constants` as every profile has it (not a choice a file names).
fn lower_constants() -> bool {
    Switches::default().constants
}

impl Switches {
    /// What `glsl_compiler --lower-precision` enables: every lowering switch.
    pub fn all() -> Self {
        Switches {
            float16_uniforms: true,
            ..Switches::default()
        }
    }
}

impl Default for Switches {
    /// The default profile's (llvmpipe's) switches.
    fn default() -> Self {
        Switches {
            float16: true,
            int16: true,
            constants: true,
            float16_uniforms: false,
            derivatives: true,
            fold_conversions: true,
            int_fold_conversions: false,
            int_lone_op: false,
            lone_op_uniform: true,
            lone_op_varying: true,
            lone_op_temporary: true,
            lone_op_derivative: false,
            fold_constructors: true,
        }
    }
}
