//! Compiles a test's vertex and fragment shaders to the IR the emulator runs.
//!
//! `mediump` compiles with the lowering pass and Mesa's later pipeline (the IR whose 16-bit
//! operations llvmpipe computes in binary16); `highp` and `exact` compile without lowering.
//! A shader the compiler rejects fails the test, as a driver's compile error does in piglit.

use super::{Mode, Stop};
use crate::backend::piglit::program as piglit;
use crate::shader_test::{ShaderTest, Stage};
use halfcheck_compiler::exec::used_variables;
use halfcheck_compiler::ir::Module;
use halfcheck_compiler::{compile, CompileOptions};
use std::collections::BTreeMap;

/// The compiled stages of one test.
pub struct Program {
    /// The vertex shader.
    pub vertex: Module,
    /// The fragment shader.
    pub fragment: Module,
    /// Which of the fragment shader's variables its code mentions.
    pub fragment_uses: Vec<bool>,
}

/// Compiles `test`'s shaders; `None` when it has none. Compile errors go into `logs`.
pub fn build(
    test: &ShaderTest,
    mode: Mode,
    logs: &mut BTreeMap<String, String>,
) -> Result<Option<Program>, Stop> {
    if test.shaders.is_empty() {
        return Ok(None);
    }
    let version = piglit::glsl_es_version(test);
    let lower = mode == Mode::Mediump;
    let options = CompileOptions {
        lower,
        final_pipeline: lower,
        ..CompileOptions::default()
    };
    let mut vertex = None;
    let mut fragment = None;
    for section in &test.shaders {
        let text = piglit::source(section, version).map_err(Stop::fail)?;
        let (stage, slot) = match section.stage {
            Stage::Vertex => (halfcheck_compiler::Stage::Vertex, &mut vertex),
            Stage::Fragment => (halfcheck_compiler::Stage::Fragment, &mut fragment),
            other => {
                return Err(Stop::skip(format!(
                    "the emulator runs no {} shaders",
                    other.section_name()
                )))
            }
        };
        let name = format!("{}:{}", test.path.display(), section.first_line);
        match compile(&text, stage, &name, &options) {
            Ok(module) => *slot = Some(module),
            Err(diagnostic) => {
                let log = diagnostic.to_string();
                let first = log.lines().next().unwrap_or_default().to_owned();
                logs.insert(section.stage.section_name().to_owned(), log);
                return Err(Stop::fail(format!(
                    "{} shader failed to compile: {first}",
                    section.stage.section_name()
                )));
            }
        }
    }
    match (vertex, fragment) {
        (Some(vertex), Some(fragment)) => Ok(Some(Program {
            fragment_uses: used_variables(&fragment),
            vertex,
            fragment,
        })),
        _ => Err(Stop::fail(
            "Failed to link: the program needs a vertex and a fragment shader",
        )),
    }
}
