//! The `uniform TYPE NAME VALUES...` command: values kept per uniform variable, by name, and
//! given to both stages before each draw.
//!
//! The name may reach into the variable (`arr[2]`, `s.m`, `s.a[1].b`); several values' worth
//! fill consecutive elements. Floats are stored as binary32 (what `glUniform*f` takes), ints
//! and samplers (their texture unit) as integers. A name neither stage declares fails the
//! test, as piglit does when it cannot get a location.

use super::program::Program;
use crate::exec::{find_var, layout, Domain, Invocation, Lanes, Value, Width};
use halfcheck_compiler::ir::{BaseType, Module, Precision, Type, VarMode};
use halfcheck_piglit::shader_test::{Scalar, UniformSet, UniformType};
use halfcheck_piglit::Stop;
use std::collections::BTreeMap;

/// Uniform values by variable name.
#[derive(Default)]
pub(crate) struct Uniforms {
    values: BTreeMap<String, Value<f64>>,
}

impl Uniforms {
    /// Applies one `uniform` command.
    pub(crate) fn set(&mut self, program: &Program, set: &UniformSet) -> Result<(), Stop> {
        let (base, path) = split_name(&set.name)
            .ok_or_else(|| Stop::fail(format!("bad uniform name \"{}\"", set.name)))?;
        let missing = || Stop::fail(format!("cannot get location of uniform \"{}\"", set.name));
        let (module, id) = [&program.fragment, &program.vertex]
            .into_iter()
            .find_map(|m| find_var(m, base, VarMode::Uniform).map(|id| (m, id)))
            .ok_or_else(missing)?;
        let ty = &module.var(id).ty;
        let start = offset(module, ty, &path).ok_or_else(missing)?;
        let mut bases = Vec::new();
        layout::bases(module, ty, &mut bases);
        if let Some(&declared) = bases.get(start) {
            if !accepts(declared, set.ty) {
                return Err(Stop::skip(format!(
                    "the emulator does not model uniform {} set by a {:?} command unlike its \
                     declaration (OpenGL ES 3.0 section 2.12.6: INVALID_OPERATION; what it \
                     then holds is the driver's)",
                    set.name, set.ty
                )));
            }
        }
        let value = self
            .values
            .entry(base.to_owned())
            .or_insert_with(|| layout::zero(module, ty, 0.0));
        let per_value = set.ty.components().max(1);
        let whole = set.values.len() / per_value * per_value;
        if whole == 0 {
            return Err(Stop::fail(format!(
                "uniform {} needs {per_value} values, got {}",
                set.name,
                set.values.len()
            )));
        }
        for (k, scalar) in set.values.iter().take(whole).enumerate() {
            let (Some(slot), Some(&component)) = (value.get_mut(start + k), bases.get(start + k))
            else {
                break;
            };
            *slot = lanes(*scalar, component);
        }
        Ok(())
    }

    /// Gives every uniform of `module` that a command set its value, as `domain` holds it.
    pub(crate) fn apply<D: Domain>(
        &self,
        module: &Module,
        invocation: &mut Invocation<'_, D>,
        domain: &D,
    ) {
        for (name, value) in &self.values {
            if let Some(id) = find_var(module, name, VarMode::Uniform) {
                let var = module.var(id);
                if layout::size(module, &var.ty) == value.len() {
                    let width = match var.precision {
                        Precision::Low => Width::Low,
                        Precision::Medium => Width::Half,
                        _ => Width::Single,
                    };
                    let value = in_domain(value, domain, width);
                    // A 16-bit uniform (the profile's `lowering.float16_uniforms`) holds the
                    // value rounded at load.
                    let value = if var.ty.base() == Some(BaseType::Float16) {
                        value
                            .into_iter()
                            .map(|lanes| match lanes {
                                Lanes::Float(v) => Lanes::Float(
                                    v.into_iter()
                                        .map(|x| domain.convert(x, Width::Half))
                                        .collect(),
                                ),
                                other => other,
                            })
                            .collect()
                    } else {
                        value
                    };
                    invocation.set(id, value);
                }
            }
        }
    }
}

/// A value of exact `f64` floats as `domain` holds it: entered in `width` (a lowp/mediump
/// uniform may be held in the mediump format by a conforming driver, which `M` allows).
fn in_domain<D: Domain>(value: &Value<f64>, domain: &D, width: Width) -> Value<D::F> {
    value
        .iter()
        .map(|lanes| match lanes {
            Lanes::Float(v) => {
                Lanes::Float(v.iter().map(|&x| domain.enter(x, x, x, width)).collect())
            }
            Lanes::Int(v) => Lanes::Int(v.clone()),
            Lanes::Bool(v) => Lanes::Bool(v.clone()),
        })
        .collect()
}

/// One uniform component of kind `base` holding `value`.
/// Whether a `uniform` command of type `command` may set a component declared `declared`:
/// a float command a float (or bool), an integer command an integer (or bool); GL refuses
/// the others (OpenGL ES 3.0 section 2.12.6).
fn accepts(declared: BaseType, command: UniformType) -> bool {
    let float_command = matches!(
        command,
        UniformType::Float(_)
            | UniformType::Mat(..)
            | UniformType::Double(_)
            | UniformType::DMat(..)
    );
    declared == BaseType::Bool || declared.is_float() == float_command
}

fn lanes(value: Scalar, base: BaseType) -> Lanes<f64> {
    let as_f64 = match value {
        Scalar::Float(f) => f,
        Scalar::Int(i) => i as f64,
        Scalar::Uint(u) => u as f64,
    };
    let as_i64 = match value {
        Scalar::Float(f) => f as i64,
        Scalar::Int(i) => i,
        Scalar::Uint(u) => u as i64,
    };
    match base {
        BaseType::Bool => Lanes::Bool(vec![as_i64 != 0]),
        b if b.is_float() => Lanes::Float(vec![f64::from(as_f64 as f32)]),
        BaseType::Uint | BaseType::Uint16 => Lanes::Int(vec![i64::from(as_i64 as u32)]),
        _ => Lanes::Int(vec![i64::from(as_i64 as i32)]),
    }
}

/// A step into a uniform: an element or a member.
enum Step<'a> {
    Index(u32),
    Member(&'a str),
}

/// `s.a[1].b` -> (`s`, [Member a, Index 1, Member b]).
fn split_name(name: &str) -> Option<(&str, Vec<Step<'_>>)> {
    let end = name.find(['.', '[']).unwrap_or(name.len());
    let (base, mut rest) = name.split_at(end);
    let mut path = Vec::new();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            let close = r.find(']')?;
            path.push(Step::Index(r[..close].trim().parse().ok()?));
            rest = &r[close + 1..];
        } else {
            let r = rest.strip_prefix('.')?;
            let end = r.find(['.', '[']).unwrap_or(r.len());
            path.push(Step::Member(&r[..end]));
            rest = &r[end..];
        }
    }
    (!base.is_empty()).then_some((base, path))
}

/// The flattened offset `path` reaches inside a value of `ty`.
fn offset(module: &Module, ty: &Type, path: &[Step<'_>]) -> Option<usize> {
    let Some((step, rest)) = path.split_first() else {
        return Some(0);
    };
    match (step, ty) {
        (Step::Index(i), Type::Array { element, size }) if i < size => {
            let inner = offset(module, element, rest)?;
            Some(*i as usize * layout::size(module, element) + inner)
        }
        (Step::Member(name), Type::Struct(id)) => {
            let members = &module.structs.get(id.0 as usize)?.members;
            let index = members.iter().position(|m| m.name == *name)?;
            let (start, member_ty) = layout::field(module, ty, index as u32)?;
            Some(start + offset(module, &member_ty, rest)?)
        }
        _ => None,
    }
}
