//! Follows each component of a fragment shader's colour output back through its IR: is its
//! final value computed by a 16-bit float operation, and does anything on its way hold a
//! 16-bit value?
//!
//! Only what the dump shows for sure counts. The output must be stored whole through
//! `store_deref` of a `deref_var` of the colour output (`gl_FragColor`, or the output at
//! `FRAG_RESULT_DATA0`); anything else (an array element, lowered I/O, a second colour
//! output) leaves the component unknown.

use super::count::{class, vector_build, Class, Sizes};
use super::dump::Shader;
use super::line::{Instr, Kind, Source};
use std::collections::{HashMap, HashSet};

/// What a fragment shader's IR says of one component of its colour output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Component {
    /// Every value stored to it is the result of a 16-bit float operation (through moves,
    /// sign changes, clamps, `f2f32`, `b2f` of a comparison, and phis and selections whose
    /// every value is one): the probed value was computed at 16 bits.
    pub computed_at_16: bool,
    /// Some value on its way (an operation, a source, a load, a texel) is 16 bits wide.
    pub touches_16: bool,
    /// Some float operation on its way works at 32 bits: there was something to lower.
    pub computes_32: bool,
    /// Its way reads a shader input or a texture: what happens before (the vertex shader,
    /// the texture unit) counts too.
    pub reads_inputs: bool,
}

/// The colour output's components (up to 4), or `None` when the IR does not show them
/// plainly (see the module's comment).
pub fn colour_output(shader: &Shader) -> Option<Vec<Component>> {
    let colour: Vec<&str> = shader
        .outputs
        .iter()
        .filter(|(_, location)| location == "FRAG_RESULT_COLOR" || location == "FRAG_RESULT_DATA0")
        .map(|(name, _)| name.as_str())
        .collect();
    let [name] = colour.as_slice() else {
        return None;
    };
    let defs: HashMap<&str, &Instr> = shader
        .instrs
        .iter()
        .filter_map(|i| Some((i.def.as_ref()?.name.as_str(), i)))
        .collect();
    let walker = Walker {
        defs: &defs,
        sizes: Sizes::of(shader),
    };
    let mut components: Vec<Option<Component>> = vec![None; 4];
    for store in shader
        .instrs
        .iter()
        .filter(|i| i.kind == Kind::Intrinsic && i.opcode == "store_deref")
    {
        let [target, value] = store.sources.as_slice() else {
            return None;
        };
        let Kind::Deref { var, mode } = &defs.get(target.name.as_str())?.kind else {
            return None;
        };
        if mode.as_deref() != Some("shader_out") {
            continue;
        }
        if var.as_deref() != Some(name) {
            // Another output (depth): not the colour.
            continue;
        }
        let mask = store.write_mask.as_deref().unwrap_or("xyzw");
        for (c, slot) in components.iter_mut().enumerate() {
            if !mask.contains(b"xyzw"[c] as char) {
                continue;
            }
            let found = walker.component(&value.name, c);
            *slot = Some(match *slot {
                None => found,
                Some(before) => Component {
                    computed_at_16: before.computed_at_16 && found.computed_at_16,
                    touches_16: before.touches_16 || found.touches_16,
                    computes_32: before.computes_32 || found.computes_32,
                    reads_inputs: before.reads_inputs || found.reads_inputs,
                },
            });
        }
    }
    let written: Vec<Component> = components.into_iter().map_while(|c| c).collect();
    (!written.is_empty()).then_some(written)
}

/// Walks a shader's values backwards.
struct Walker<'a> {
    defs: &'a HashMap<&'a str, &'a Instr>,
    sizes: Sizes<'a>,
}

impl Walker<'_> {
    /// What the IR says of component `c` of the value `name`.
    fn component(&self, name: &str, c: usize) -> Component {
        let way = self.way(name, c);
        Component {
            computed_at_16: self.computed_at_16(name, c, &mut HashSet::new()),
            touches_16: way.touches_16,
            computes_32: way.computes_32,
            reads_inputs: way.reads_inputs,
        }
    }

    /// Whether component `c` of `name` is the result of a 16-bit float operation, through
    /// what only moves or widens it. A loop (a phi reached again) says no.
    fn computed_at_16<'n>(
        &'n self,
        name: &'n str,
        c: usize,
        seen: &mut HashSet<(&'n str, usize)>,
    ) -> bool {
        if !seen.insert((name, c)) {
            return false;
        }
        let Some(instr) = self.defs.get(name) else {
            return false;
        };
        match instr.kind {
            Kind::Phi => {
                !instr.sources.is_empty()
                    && instr
                        .sources
                        .iter()
                        .all(|s| self.computed_at_16(&s.name, c, seen))
            }
            Kind::Alu => match class(&instr.opcode) {
                Class::Float => self.sizes.working(instr) == Some(16),
                Class::Move | Class::Exact => match source_component(instr, c) {
                    Some((s, sc)) => self.computed_at_16(&s.name, sc, seen),
                    None => false,
                },
                // Widening a 16-bit float keeps its value exactly; a boolean made a float
                // is the comparison's.
                Class::Conversion if instr.opcode == "f2f32" || instr.opcode.starts_with("b2f") => {
                    match source_component(instr, c) {
                        Some((s, sc)) => self.computed_at_16(&s.name, sc, seen),
                        None => false,
                    }
                }
                // A selection between values each computed at 16 bits.
                Class::Other if instr.opcode.ends_with("csel") && instr.sources.len() == 3 => {
                    instr.sources[1..].iter().all(|s| {
                        swizzle_at(s, c).is_some_and(|sc| self.computed_at_16(&s.name, sc, seen))
                    })
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// Everything component `c` of `name` depends on: whether a 16-bit value lies on its
    /// way, whether a float operation works at 32 bits on it, and whether it reads an input
    /// or a texture (`computed_at_16` is left false).
    fn way(&self, name: &str, c: usize) -> Component {
        let mut seen: HashSet<(String, Option<usize>)> = HashSet::new();
        let mut work = vec![(name.to_string(), Some(c))];
        let mut way = Component::default();
        while let Some((name, c)) = work.pop() {
            if !seen.insert((name.clone(), c)) {
                continue;
            }
            let Some(instr) = self.defs.get(name.as_str()) else {
                continue;
            };
            let alu = instr.kind == Kind::Alu;
            way.touches_16 |= self.sizes.holds_16(instr);
            way.computes_32 |= alu
                && class(&instr.opcode) == Class::Float
                && self.sizes.working(instr) == Some(32);
            way.reads_inputs |= instr.kind == Kind::Texture
                || matches!(&instr.kind, Kind::Deref { mode: Some(m), .. } if m == "shader_in")
                || instr.opcode.contains("load_input")
                || instr.opcode.contains("load_interpolated_input");
            let precise = matches!(class(&instr.opcode), Class::Move) && instr.kind == Kind::Alu;
            match (precise, c) {
                (true, Some(c)) => {
                    if let Some((s, sc)) = source_component(instr, c) {
                        work.push((s.name.clone(), Some(sc)));
                    }
                }
                _ => work.extend(instr.sources.iter().map(|s| (s.name.clone(), None))),
            }
        }
        way
    }
}

/// The source and its component that give component `c` of a move-like instruction's
/// result: `vecN`'s `c`-th source, or the `c`-th letter of a one-source instruction's
/// swizzle.
fn source_component(instr: &Instr, c: usize) -> Option<(&Source, usize)> {
    if vector_build(&instr.opcode).is_some() {
        let s = instr.sources.get(c)?;
        return Some((s, swizzle_at(s, 0)?));
    }
    let s = instr.sources.first()?;
    Some((s, swizzle_at(s, c)?))
}

/// The component the swizzle of `s` reads for component `c` (`c` itself without one).
fn swizzle_at(s: &Source, c: usize) -> Option<usize> {
    match &s.swizzle {
        None => Some(c),
        Some(sw) => {
            let letter = sw.as_bytes().get(c)?;
            b"xyzw".iter().position(|l| l == letter)
        }
    }
}
