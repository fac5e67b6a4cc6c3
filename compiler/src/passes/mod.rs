//! Passes over the IR: precision lowering as Mesa does it, folding of conversion pairs, and
//! the later Mesa pipeline effects measured on llvmpipe.

pub mod fold_conversions;
pub mod lower_precision;
pub mod lower_variables;
pub mod mesa_pipeline;
mod walk;

use serde::{Deserialize, Serialize};

/// The lowering switches, mirroring Mesa's `gl_shader_compiler_options`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Switches {
    /// `LowerPrecisionFloat16`: lower mediump float operations.
    pub float16: bool,
    /// `LowerPrecisionInt16`: lower mediump int and uint operations.
    pub int16: bool,
    /// `LowerPrecisionConstants`: lower the constant initializers of lowered variables.
    pub constants: bool,
    /// `LowerPrecisionFloat16Uniforms`: mediump float uniforms become 16-bit variables.
    pub float16_uniforms: bool,
    /// `LowerPrecisionDerivatives`: lower `dFdx`/`dFdy`.
    pub derivatives: bool,
}

impl Switches {
    /// What llvmpipe (Mesa 22.3) enables: 16-bit float, int, constants and derivatives;
    /// uniforms stay 32-bit (measured: they are rounded only when entering an operation).
    pub fn llvmpipe() -> Self {
        Switches {
            float16: true,
            int16: true,
            constants: true,
            float16_uniforms: false,
            derivatives: true,
        }
    }

    /// What `glsl_compiler --lower-precision` enables: everything.
    pub fn all() -> Self {
        Switches {
            float16: true,
            int16: true,
            constants: true,
            float16_uniforms: true,
            derivatives: true,
        }
    }
}

impl Default for Switches {
    fn default() -> Self {
        Switches::llvmpipe()
    }
}
