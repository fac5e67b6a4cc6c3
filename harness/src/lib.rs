#![warn(unreachable_pub)]
//! halfcheck: proves that a GPU shader compiler computes GLSL ES `mediump` at 16-bit precision.
//!
//! The flow is `.shader_test` file -> [`shader_test`] (parse) -> [`backend`] (run on a driver
//! or the emulator, by the [`runner`]) -> [`results`] (`results.json`) -> [`review`] (what
//! needs attention) -> [`outputs`] (`junit.xml`, CSV, piglit's format) and [`console`]
//! (progress, summary). `ARCHITECTURE.md` has the whole picture.

pub(crate) mod author;
pub mod backend;
pub mod cli;
pub(crate) mod compare;
pub(crate) mod compile_cmd;
pub(crate) mod console;
pub(crate) mod discover;
pub mod expectations;
pub(crate) mod expectations_lists;
pub(crate) mod expectations_update;
pub(crate) mod features;
pub mod fingerprint;
pub(crate) mod lane;
pub(crate) mod lanes;
pub(crate) mod lint;
pub(crate) mod outputs;
pub(crate) mod report;
pub(crate) mod review;
pub(crate) mod runner;
pub(crate) mod time_limit;
pub mod validate;

/// The `results.json` contract, in its own crate so readers need none of the harness.
pub use halfcheck_results as results;
