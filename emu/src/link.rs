//! The linker's checks between the vertex and the fragment shader that piglit's `link error`
//! tests exercise: a uniform declared in both stages must have the same type and precision
//! (in GLSL ES 1.00 the precision only when both stages use it),
//! and a uniform block (a struct type of the same name) the same members.

use crate::exec::used_variables;
use halfcheck_compiler::ir::{Module, Type, VarMode, Variable};

/// Why the two stages do not link, or `Ok` when they do.
pub(crate) fn check(vertex: &Module, fragment: &Module) -> Result<(), String> {
    // GLSL ES 1.00 compares precisions only of uniforms both stages use.
    let (vertex_uses, fragment_uses) = (used_variables(vertex), used_variables(fragment));
    let uniforms = |m: &Module, uses: &[bool]| -> Vec<(Variable, bool)> {
        m.variables
            .iter()
            .zip(uses)
            .filter(|(v, _)| v.mode == VarMode::Uniform && !v.builtin)
            .map(|(v, &used)| (v.clone(), used))
            .collect()
    };
    let (vs, fs) = (
        uniforms(vertex, &vertex_uses),
        uniforms(fragment, &fragment_uses),
    );
    let lenient = vertex.version == 100;
    for (v, v_used) in &vs {
        if let Some((f, f_used)) = fs.iter().find(|(f, _)| f.name == v.name) {
            if shape(vertex, &v.ty) != shape(fragment, &f.ty) {
                return Err(format!(
                    "uniform \"{}\" has type {} in the vertex shader and {} in the fragment shader",
                    v.name,
                    vertex.type_name(&v.ty),
                    fragment.type_name(&f.ty)
                ));
            }
            if v.precision != f.precision && (!lenient || (*v_used && *f_used)) {
                return Err(format!(
                    "uniform \"{}\" differs in precision between the vertex and fragment shaders",
                    v.name
                ));
            }
        }
        let block = struct_name(vertex, &v.ty);
        let other = fs
            .iter()
            .map(|(f, _)| f)
            .find(|f| block.is_some() && struct_name(fragment, &f.ty) == block);
        if let (Some(name), Some(f)) = (&block, other) {
            if shape(vertex, &v.ty) != shape(fragment, &f.ty) {
                return Err(format!(
                    "uniform block \"{name}\" has different members in the two shaders"
                ));
            }
        }
    }
    Ok(())
}

/// The struct name of a struct (or array of struct) type.
fn struct_name(module: &Module, ty: &Type) -> Option<String> {
    match ty.without_array() {
        Type::Struct(id) => module.structs.get(id.0 as usize).map(|s| s.name.clone()),
        _ => None,
    }
}

/// A type written out with its struct members (names, types, precisions), so types from two
/// modules compare.
fn shape(module: &Module, ty: &Type) -> String {
    match ty {
        Type::Struct(id) => match module.structs.get(id.0 as usize) {
            Some(s) => {
                let members: Vec<String> = s
                    .members
                    .iter()
                    .map(|m| format!("{} {:?} {}", shape(module, &m.ty), m.precision, m.name))
                    .collect();
                format!("struct {} {{{}}}", s.name, members.join("; "))
            }
            None => ty.name(),
        },
        Type::Array { element, size } => format!("{}[{size}]", shape(module, element)),
        other => other.name(),
    }
}
