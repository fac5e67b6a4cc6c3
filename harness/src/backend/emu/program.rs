//! Compiles a test's vertex and fragment shaders to the IR the emulator runs.
//!
//! `mediump` compiles with the lowering pass and Mesa's later pipeline (the IR whose 16-bit
//! operations llvmpipe computes in binary16); `highp` and `exact` compile without lowering.
//! A shader the compiler rejects fails the test, as a driver's compile error does in piglit;
//! stages that do not link (`link`) give a program that `link error` expects.

use super::{link, Mode, Stop};
use crate::backend::piglit::program as piglit;
use crate::shader_test::{ShaderTest, Stage};
use halfcheck_compiler::exec::used_variables;
use halfcheck_compiler::ir::Module;
use halfcheck_compiler::{compile, CompileOptions};
use std::collections::BTreeMap;

/// How the emulator compiles for `mode`: `mediump` with the lowering pass and Mesa's later
/// pipeline, `highp` and `exact` without lowering.
pub fn options(mode: Mode) -> CompileOptions {
    let lower = mode == Mode::Mediump;
    CompileOptions {
        lower,
        final_pipeline: lower,
        ..CompileOptions::default()
    }
}

/// What building a test's program gave.
pub enum Built {
    /// The test has no shaders.
    Nothing,
    /// Both stages compiled and linked.
    Linked(Box<Program>),
    /// Both stages compiled but do not link: why.
    LinkFailed(String),
}

/// The compiled stages of one test.
pub struct Program {
    /// The vertex shader.
    pub vertex: Module,
    /// The fragment shader.
    pub fragment: Module,
    /// Which of the fragment shader's variables its code mentions.
    pub fragment_uses: Vec<bool>,
}

/// Compiles and links `test`'s shaders. Compile errors stop the test (their log goes into
/// `logs`); a link failure is reported so `link error` can expect it.
pub fn build(
    test: &ShaderTest,
    options: &CompileOptions,
    logs: &mut BTreeMap<String, String>,
) -> Result<Built, Stop> {
    if test.shaders.is_empty() {
        return Ok(Built::Nothing);
    }
    let version = piglit::glsl_es_version(test);
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
        match compile(&text, stage, &name, options) {
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
    let (Some(vertex), Some(fragment)) = (vertex, fragment) else {
        let why = "the program needs a vertex and a fragment shader".to_owned();
        logs.insert("link".into(), why.clone());
        return Ok(Built::LinkFailed(why));
    };
    if let Err(why) = link::check(&vertex, &fragment) {
        logs.insert("link".into(), why.clone());
        return Ok(Built::LinkFailed(why));
    }
    Ok(Built::Linked(Box::new(Program {
        fragment_uses: used_variables(&fragment),
        vertex,
        fragment,
    })))
}
