#![warn(unreachable_pub)]
//! The emulator backend: runs `.shader_test` files with no GPU, on halfcheck's own compiler
//! and its software f16 emulator (`crate::exec`).
//!
//! Each test's shaders are compiled to the IR (`program`), its commands run by the shared
//! piglit command loop on a software RGBA32F framebuffer (`device`, `framebuffer`):
//! `draw rect`/`draw arrays` run the vertex shader on the
//! vertices, rasterise the triangles into 2x2 quads (`raster`) and run the fragment shader on
//! batches of quads in parallel (`shade`). Uniforms (`uniforms`), piglit's textures
//! (`textures`), clears and probes follow piglit, with the probe logic shared with the GL
//! backend (`halfcheck_piglit`). What the emulated driver does is its profile
//! ([`Profile`]: built in, or a YAML file, see [`load_profile`]); the arithmetic is the run's
//! [`Mode`]: `mediump` computes as the profile says, `highp` the same driver with nothing
//! lowered, `exact` the binary64 reference.
//!
//! [`predict`] runs one parsed test in a mode and returns its result: the verdict stage reads
//! each probe's computed value from it. [`evaluate`] does the same in any numeric domain (the
//! acceptance intervals of `crate::exec::Bounds` included) and keeps every
//! probe's values over its whole region.

mod backend;
mod device;
mod evaluate;
pub mod exec;
mod framebuffer;
mod interp;
pub mod inventory;
mod link;
mod load;
pub mod profile;
mod program;
mod raster;
mod require;
mod shade;
mod textures;
mod ties;
mod uniforms;
mod values;

pub use backend::EmuBackend;
pub use evaluate::{
    compile_options, evaluate, predict, predict_with, probe_values, render, RenderError,
};
pub use exec::Mode;
pub use load::{
    load_profile, parse_mode, profile_of, resolve_profile, LoadProfileError, UnknownMode,
};
pub use profile::{Choices, Profile, ProfileError};
pub use program::Compiled;
pub use require::skip_reason;
pub use values::{uniform_pixels, Evaluation, ProbeValues};
