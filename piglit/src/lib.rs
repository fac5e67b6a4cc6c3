#![warn(unreachable_pub)]
//! Piglit's `.shader_test` files and `shader_runner`'s semantics, once for every backend.
//!
//! - [`shader_test`]: the format, its typed model and parser.
//! - [`run`] (`command_loop`): the `[test]` command loop over the [`Device`] trait that the GL
//!   backend and the emulator implement (`device`), and what it shares with them: probe
//!   regions and verdicts on the 8-bit view (`probe`), the generated textures' texels
//!   (`textures`), `draw rect` corners (`draw`) and shader sources as piglit hands them to the
//!   compiler (`program`).
//! - [`Backend`]: what the runner asks of a backend; [`Stop`] ends a test early and
//!   [`WindowImage`] is the framebuffer a test leaves.
//!
//! Nothing here depends on GL or on the emulator.

mod backend;
mod command_loop;
pub mod device;
mod draw;
pub mod probe;
pub mod program;
pub mod shader_test;
mod stop;
pub mod textures;
mod window;

pub use backend::Backend;
pub use command_loop::run;
pub use device::Device;
pub use stop::Stop;
pub use window::{WindowImage, WriteError};
