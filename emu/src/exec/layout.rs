//! Where each component of a value sits once flattened: vectors in order, matrices
//! column-major, arrays element by element, structs member by member.

use super::value::{Lanes, Value};
use halfcheck_compiler::ir::{BaseType, Module, Type};

/// Number of flattened components of `ty` (0 for opaque types other than samplers, which
/// hold their texture unit in one integer component).
pub fn size(module: &Module, ty: &Type) -> usize {
    match ty {
        Type::Numeric { .. } => ty.components() as usize,
        Type::Sampler { .. } | Type::Image { .. } | Type::AtomicUint => 1,
        Type::Array { element, size: n } => size(module, element) * (*n as usize),
        Type::Struct(id) => module
            .structs
            .get(id.0 as usize)
            .map_or(0, |s| s.members.iter().map(|m| size(module, &m.ty)).sum()),
        Type::Void => 0,
    }
}

/// Offset of member `index` inside a value of struct type `ty`, and the member's type.
pub fn field(module: &Module, ty: &Type, index: u32) -> Option<(usize, Type)> {
    let Type::Struct(id) = ty else { return None };
    let members = &module.structs.get(id.0 as usize)?.members;
    let offset = members
        .iter()
        .take(index as usize)
        .map(|m| size(module, &m.ty))
        .sum();
    Some((offset, members.get(index as usize)?.ty.clone()))
}

/// The base type of every flattened component of `ty`, in order.
pub fn bases(module: &Module, ty: &Type, out: &mut Vec<BaseType>) {
    match ty {
        Type::Numeric { base, .. } => {
            out.extend(std::iter::repeat_n(*base, ty.components() as usize))
        }
        Type::Sampler { .. } | Type::Image { .. } | Type::AtomicUint => out.push(BaseType::Int),
        Type::Array { element, size: n } => {
            for _ in 0..*n {
                bases(module, element, out);
            }
        }
        Type::Struct(id) => {
            if let Some(s) = module.structs.get(id.0 as usize) {
                for m in &s.members {
                    bases(module, &m.ty, out);
                }
            }
        }
        Type::Void => {}
    }
}

/// A uniform zero of `ty` (what an uninitialised variable reads as here).
pub fn zero<F: Copy>(module: &Module, ty: &Type, zero_float: F) -> Value<F> {
    let mut b = Vec::new();
    bases(module, ty, &mut b);
    b.into_iter()
        .map(|base| match base {
            BaseType::Bool => Lanes::Bool(vec![false]),
            base if base.is_float() => Lanes::Float(vec![zero_float]),
            _ => Lanes::Int(vec![0]),
        })
        .collect()
}
