//! Piglit's `shader_runner` semantics that do not depend on GL, shared by the GL backend and
//! the emulator: probe regions and verdicts on the 8-bit view (`probe`), the generated
//! textures' texels (`textures`), `draw rect` corners (`draw`) and shader sources as piglit
//! hands them to the compiler (`program`).

pub mod draw;
pub mod probe;
pub mod program;
pub mod textures;
