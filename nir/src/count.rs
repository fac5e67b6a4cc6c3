//! What each ALU instruction is (float or integer arithmetic, a conversion, a move) and the
//! bit size it works at; a shader's instructions counted by opcode at 16 and 32 bits.

use super::dump::Shader;
use super::line::{Instr, Kind};
use halfcheck_results::IrShader;
use std::collections::HashMap;

/// What an ALU opcode does, for counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Float arithmetic or comparison (`fadd`, `ffract`, `flt`).
    Float,
    /// Integer arithmetic or comparison (`iadd`, `ishl`, `ult`).
    Int,
    /// A conversion (`f2f16`, `f2fmp`, `f2f32`, `i2i16`, `u2f32`, `b2f16`).
    Conversion,
    /// A move or a vector built from components (`mov`, `vec4`): no arithmetic.
    Move,
    /// A float operation that only moves the sign or clamps (`fneg`, `fabs`, `fsat`): exact
    /// at any bit size, so it rounds nothing.
    Exact,
    /// Anything else (boolean logic, selections, packing).
    Other,
}

/// The class of an ALU opcode.
pub fn class(opcode: &str) -> Class {
    if is_conversion(opcode) {
        return Class::Conversion;
    }
    if matches!(opcode, "mov" | "fmov" | "imov") || vector_build(opcode).is_some() {
        return Class::Move;
    }
    if matches!(opcode, "fneg" | "fabs" | "fsat") {
        return Class::Exact;
    }
    match opcode.as_bytes().first() {
        Some(b'f') => Class::Float,
        Some(b'i' | b'u') => Class::Int,
        _ => Class::Other,
    }
}

/// For `vec2` ... `vec16`, how many components it builds.
pub fn vector_build(opcode: &str) -> Option<usize> {
    opcode
        .strip_prefix("vec")
        .and_then(|n| n.parse().ok())
        .filter(|n| (2..=16).contains(n))
}

/// Whether `opcode` converts between types or bit sizes: `<f|i|u|b>2<f|i|u|b><bits|mp>`
/// with an optional rounding suffix (`f2f16_rtne`).
fn is_conversion(opcode: &str) -> bool {
    let bytes = opcode.as_bytes();
    let kinds = b"fiub";
    bytes.len() >= 3
        && kinds.contains(&bytes[0])
        && bytes[1] == b'2'
        && kinds.contains(&bytes[2])
        && opcode[3..]
            .split('_')
            .next()
            .is_some_and(|size| size == "mp" || size.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether the opcode's result is a boolean or its sources' size tells its width: a
/// comparison (`flt`, `fge32`, `ieq`) or a selection (`bcsel`).
fn works_at_source_size(opcode: &str) -> bool {
    let base = opcode.trim_end_matches(|c: char| c.is_ascii_digit());
    matches!(
        base,
        "flt"
            | "fge"
            | "feq"
            | "fne"
            | "fneu"
            | "fequ"
            | "fltu"
            | "fgeu"
            | "fneo"
            | "ilt"
            | "ige"
            | "ieq"
            | "ine"
            | "ult"
            | "uge"
            | "fisnan"
            | "fisfinite"
            | "fisnormal"
    ) || base.ends_with("csel")
}

/// The bit sizes of a shader's values, by name.
pub struct Sizes<'a>(HashMap<&'a str, u8>);

impl<'a> Sizes<'a> {
    /// The sizes of every value `shader` defines.
    pub fn of(shader: &'a Shader) -> Self {
        Sizes(
            shader
                .instrs
                .iter()
                .filter_map(|i| i.def.as_ref())
                .filter_map(|d| Some((d.name.as_str(), d.bits?)))
                .collect(),
        )
    }

    /// The bit size an ALU instruction works at: its result's, or for a comparison or a
    /// selection the widest of its sources'. `None` when the dump gives no size.
    pub fn working(&self, instr: &Instr) -> Option<u8> {
        let def = instr.def.as_ref()?.bits;
        if works_at_source_size(&instr.opcode) {
            instr
                .sources
                .iter()
                .filter_map(|s| self.0.get(s.name.as_str()).copied())
                .filter(|&b| b > 1)
                .max()
                .or(def)
        } else {
            def
        }
    }
}

impl Sizes<'_> {
    /// Whether `instr` defines a 16-bit value, or is an ALU operation working at 16 bits.
    pub fn holds_16(&self, instr: &Instr) -> bool {
        instr.def.as_ref().and_then(|d| d.bits) == Some(16)
            || (instr.kind == Kind::Alu && self.working(instr) == Some(16))
    }
}

/// `shader`'s ALU instructions counted by class, bit size and opcode.
pub fn count(shader: &Shader) -> IrShader {
    let sizes = Sizes::of(shader);
    let mut out = IrShader {
        stage: shader.stage.clone(),
        complete: shader.complete,
        unknown_lines: u32::try_from(shader.unknown_lines).unwrap_or(u32::MAX),
        ..IrShader::default()
    };
    for instr in shader.instrs.iter().filter(|i| i.kind == Kind::Alu) {
        let map = match (class(&instr.opcode), sizes.working(instr)) {
            (Class::Conversion, _) => &mut out.conversions,
            (Class::Float | Class::Exact, Some(16)) => &mut out.float16,
            (Class::Float | Class::Exact, Some(32)) => &mut out.float32,
            (Class::Int, Some(16)) => &mut out.int16,
            (Class::Int, Some(32)) => &mut out.int32,
            _ => continue,
        };
        *map.entry(instr.opcode.clone()).or_default() += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcodes_are_classed_by_name() {
        for (op, want) in [
            ("fmul", Class::Float),
            ("ffract", Class::Float),
            ("fge32", Class::Float),
            ("iadd", Class::Int),
            ("ushr", Class::Int),
            ("f2f16", Class::Conversion),
            ("f2fmp", Class::Conversion),
            ("f2f16_rtne", Class::Conversion),
            ("i2i16", Class::Conversion),
            ("b2f32", Class::Conversion),
            ("vec4", Class::Move),
            ("mov", Class::Move),
            ("fneg", Class::Exact),
            ("bcsel", Class::Other),
            ("fsin", Class::Float),
            ("f2", Class::Float),
        ] {
            assert_eq!(class(op), want, "{op}");
        }
    }
}
