//! A stderr capture split into the shaders Mesa printed, and the lines that were none.
//!
//! A shader starts at `shader: MESA_SHADER_<STAGE>` and ends with the closing brace of its
//! last `impl`; `NIR before handing off to driver:` (Mesa's state tracker's header) belongs
//! to no shader. Whatever lies outside a shader (a driver's warnings, piglit's lines) is kept
//! apart, so it can be shown as the driver printed it. A shader the text cuts off before its
//! last brace is kept, marked incomplete.

use super::line::{self, Instr};

/// The header Mesa's state tracker prints before each shader with `ST_DEBUG=nir`.
pub const HANDOFF_HEADER: &str = "NIR before handing off to driver:";

/// One shader of a dump.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Shader {
    /// Its stage as Mesa names it, without the prefix (`FRAGMENT`, `VERTEX`).
    pub stage: String,
    /// Its `name:` line (`GLSL3` for the GL program 3), if it has one.
    pub name: Option<String>,
    /// The line its `shader:` line is on, from 1.
    pub first_line: usize,
    /// Its instructions, in order.
    pub instrs: Vec<Instr>,
    /// Its output variables (`decl_var shader_out`): name and location
    /// (`FRAG_RESULT_COLOR`, `FRAG_RESULT_DATA0`, ...).
    pub outputs: Vec<(String, String)>,
    /// Whether its text ended (the closing brace of its function came).
    pub complete: bool,
    /// Lines inside its function that were no instruction this reader knows (blocks and
    /// control flow included).
    pub unknown_lines: usize,
}

/// A capture read: its shaders and the text outside them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dump {
    /// The shaders, in the order printed.
    pub shaders: Vec<Shader>,
    /// The lines that belong to no shader, each ending in a newline.
    pub other: String,
}

/// Where the reader is.
#[derive(Clone, Copy, PartialEq)]
enum State {
    /// Outside any shader.
    Outside,
    /// In a shader's header and declarations, before its functions.
    Header,
    /// Inside a function, `depth` braces deep.
    Body(usize),
    /// After a function's closing brace: another function may follow.
    Between,
}

/// Splits `text` into its shaders.
pub fn read(text: &str) -> Dump {
    let mut dump = Dump::default();
    let mut state = State::Outside;
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = raw.trim();
        if let Some(stage) = trimmed.strip_prefix("shader: ") {
            let stage = stage.trim();
            dump.shaders.push(Shader {
                stage: stage
                    .strip_prefix("MESA_SHADER_")
                    .unwrap_or(stage)
                    .to_string(),
                first_line: number,
                ..Shader::default()
            });
            state = State::Header;
            continue;
        }
        if trimmed == HANDOFF_HEADER {
            state = State::Outside;
            continue;
        }
        let Some(shader) = dump.shaders.last_mut() else {
            keep(&mut dump.other, raw);
            continue;
        };
        state = match state {
            State::Outside => {
                keep(&mut dump.other, raw);
                State::Outside
            }
            State::Header | State::Between if trimmed.starts_with("impl ") => {
                shader.complete = false;
                State::Body(usize::from(trimmed.ends_with('{')))
            }
            State::Header => {
                header_line(shader, trimmed);
                State::Header
            }
            State::Between if trimmed.is_empty() => State::Between,
            State::Between => {
                keep(&mut dump.other, raw);
                State::Outside
            }
            State::Body(depth) => body_line(shader, trimmed, number, depth),
        };
    }
    dump
}

/// One line of a function's body, `depth` braces deep: the state after it.
fn body_line(shader: &mut Shader, trimmed: &str, number: usize, depth: usize) -> State {
    let mut depth = depth;
    if trimmed.starts_with('}') {
        depth = depth.saturating_sub(1);
    }
    if trimmed.ends_with('{') {
        depth += 1;
    }
    if depth == 0 {
        shader.complete = true;
        return State::Between;
    }
    match line::parse(trimmed, number) {
        Some(instr) => shader.instrs.push(instr),
        None => shader.unknown_lines += 1,
    }
    State::Body(depth)
}

/// A line of a shader's header: its name, or an output variable's declaration.
fn header_line(shader: &mut Shader, trimmed: &str) {
    if let Some(name) = trimmed.strip_prefix("name: ") {
        shader.name = Some(name.trim().to_string());
    } else if let Some(decl) = trimmed.strip_prefix("decl_var shader_out ") {
        if let Some((before, after)) = decl.split_once('(') {
            let name = before.split_whitespace().last().unwrap_or("");
            let location = after
                .split(['.', ',', ')'])
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
            shader.outputs.push((name.to_string(), location));
        }
    }
}

/// Keeps a line that belongs to no shader.
fn keep(other: &mut String, raw: &str) {
    other.push_str(raw);
    other.push('\n');
}
