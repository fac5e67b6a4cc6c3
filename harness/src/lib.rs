//! halfcheck: proves that a GPU shader compiler computes GLSL ES `mediump` at 16-bit precision.
//!
//! The flow is `.shader_test` file -> [`shader_test`] (parse) -> [`backend`] (run on a driver
//! or the emulator, by the [`runner`]) -> [`results`] (`results.json`) -> [`review`] (what
//! needs attention) -> [`outputs`] (`junit.xml`, CSV, piglit's format) and [`console`]
//! (progress, summary). `ARCHITECTURE.md` has the whole picture.

pub mod backend;
pub mod compare;
pub mod compile_cmd;
pub mod console;
pub mod discover;
pub mod expectations;
pub mod fingerprint;
pub mod lane;
pub mod lanes;
pub mod lint;
pub mod outputs;
pub mod report;
pub mod review;
pub mod runner;
pub mod time_limit;
pub mod validate;

/// The `results.json` contract, in its own crate so readers need none of the harness.
pub use halfcheck_results as results;
