//! Piglit's `shader_runner` semantics, once for every backend: the `[test]` command loop
//! ([`run`], `command_loop`) over the [`Device`] trait that the GL backend and the emulator
//! implement (`device`), and what it shares with them: probe regions and verdicts on the
//! 8-bit view (`probe`), the generated textures' texels (`textures`), `draw rect` corners
//! (`draw`) and shader sources as piglit hands them to the compiler (`program`). Nothing here
//! depends on GL or on the emulator.

mod command_loop;
pub mod device;
pub mod draw;
pub mod probe;
pub mod program;
pub mod textures;

pub use command_loop::run;
pub use device::Device;
