#![warn(unreachable_pub)]
//! Reads the NIR Mesa's drivers print (`ST_DEBUG=nir`: the state tracker's "NIR before
//! handing off to driver") and says what it computes at 16 bits. No GL here: the GL back end
//! captures the text, the verdict, the report and `fingerprint` read it through this crate.
//!
//! NIR's text form is no stable format: [`line`] reads only what an instruction must hold
//! (its definition's bit size, its opcode, its sources) in the shapes Mesa has printed over
//! the years, and treats every other line as unknown, never as an error; [`dump`] splits a
//! capture into shaders; [`count`] counts each shader's ALU instructions at 16 and 32 bits by
//! opcode; [`trace`] follows a fragment shader's colour output back to what computed it.

pub mod count;
pub mod dump;
pub mod line;
pub mod trace;

pub use dump::{read, Dump, Shader, HANDOFF_HEADER};
pub use trace::Component;

use halfcheck_results::IrShader;

/// What a test's IR says, as the verdict reads it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Program {
    /// Each shader's counts, in the order printed.
    pub shaders: Vec<IrShader>,
    /// Whether any shader of the test holds a 16-bit value at all (an operation, a
    /// conversion, a load, a texel).
    pub any_16: bool,
    /// Per component of the colour output, what every fragment shader of the test says of
    /// it (a component is computed at 16 bits only if it is in each of them); `None` when
    /// some fragment shader does not show its output plainly, or there is none.
    pub colour: Option<Vec<Component>>,
    /// Whether every shader's text ended: a capture cut short proves nothing by absence.
    pub complete: bool,
}

/// Reads a test's capture: the shaders of its GL programs (`name: GLSL<n>`; where none is
/// named so, every shader), counted and traced.
pub fn program(text: &str) -> Program {
    program_of(&read(text))
}

/// [`program`] of a capture already read.
pub fn program_of(dump: &Dump) -> Program {
    let named: Vec<&Shader> = dump
        .shaders
        .iter()
        .filter(|s| s.name.as_deref().is_some_and(|n| n.starts_with("GLSL")))
        .collect();
    let shaders: Vec<&Shader> = if named.is_empty() {
        dump.shaders.iter().collect()
    } else {
        named
    };
    let any_16 = shaders.iter().any(|s| holds_16(s));
    let fragments: Vec<&&Shader> = shaders.iter().filter(|s| s.stage == "FRAGMENT").collect();
    let colour = if fragments.is_empty() {
        None
    } else {
        fragments
            .iter()
            .map(|s| trace::colour_output(s))
            .collect::<Option<Vec<_>>>()
            .map(agree)
    };
    Program {
        shaders: shaders.iter().map(|s| count::count(s)).collect(),
        any_16,
        colour,
        complete: !shaders.is_empty() && shaders.iter().all(|s| s.complete),
    }
}

/// Each line of `text` with whether it is an instruction that defines or works on a 16-bit
/// value, for showing a dump with those lines marked.
pub fn marked_lines(text: &str) -> Vec<(String, bool)> {
    let dump = read(text);
    let mut marked = std::collections::HashSet::new();
    for shader in &dump.shaders {
        let sizes = count::Sizes::of(shader);
        for instr in &shader.instrs {
            if sizes.holds_16(instr) {
                marked.insert(instr.line);
            }
        }
    }
    text.lines()
        .enumerate()
        .map(|(i, l)| (l.to_string(), marked.contains(&(i + 1))))
        .collect()
}

/// Whether a shader defines or works on any 16-bit value.
fn holds_16(shader: &Shader) -> bool {
    let sizes = count::Sizes::of(shader);
    shader.instrs.iter().any(|i| sizes.holds_16(i))
}

/// What several fragment shaders say together of each component: computed at 16 bits only
/// where all say so; touching 16 bits, computing at 32 or reading inputs where any does.
fn agree(each: Vec<Vec<Component>>) -> Vec<Component> {
    let n = each.iter().map(Vec::len).min().unwrap_or(0);
    (0..n)
        .map(|c| Component {
            computed_at_16: each.iter().all(|s| s[c].computed_at_16),
            touches_16: each.iter().any(|s| s[c].touches_16),
            computes_32: each.iter().any(|s| s[c].computes_32),
            reads_inputs: each.iter().any(|s| s[c].reads_inputs),
        })
        .collect()
}
