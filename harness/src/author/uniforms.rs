//! The uniforms a test's shaders declare, as piglit's `uniform TYPE NAME VALUES` commands set
//! them: arrays by element (`thing[1][0]`), structs by member (`thing.x.v`), samplers left out
//! (a sampler's value is a texture unit, not a number to search).

use halfcheck_compiler::ir::{BaseType, Module, Type, VarMode};
use halfcheck_compiler::{compile, CompileOptions, Model};
use halfcheck_piglit::shader_test::{ShaderTest, SourceKind};
use halfcheck_verdict::compiler_stage;

/// The kind of a uniform's components.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `float` components.
    Float,
    /// `int` components.
    Int,
    /// `uint` components.
    Uint,
}

/// One uniform piglit can set with one command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Uniform {
    /// The name as piglit writes it (`a`, `thing[1][0]`, `s.x.v`).
    pub name: String,
    /// The type as piglit writes it (`float`, `vec3`, `ivec2`, `mat2`).
    pub type_name: String,
    /// The kind of its components.
    pub kind: Kind,
    /// How many numbers set it.
    pub components: usize,
}

/// Every settable uniform the GLSL shaders of `test` declare, once each, in declaration order.
pub(crate) fn declared(test: &ShaderTest) -> Vec<Uniform> {
    let options = CompileOptions {
        model: Model::Spec,
        lower: false,
        ..CompileOptions::default()
    };
    let mut found: Vec<Uniform> = Vec::new();
    for shader in test.shaders.iter().filter(|s| s.kind == SourceKind::Glsl) {
        let Ok(module) = compile(
            &shader.text,
            compiler_stage(shader.stage),
            "shader",
            &options,
        ) else {
            continue;
        };
        for variable in module
            .variables
            .iter()
            .filter(|v| v.mode == VarMode::Uniform && !v.builtin)
        {
            let mut flat = Vec::new();
            flatten(&module, &variable.name, &variable.ty, &mut flat);
            for uniform in flat {
                if !found.iter().any(|u| u.name == uniform.name) {
                    found.push(uniform);
                }
            }
        }
    }
    found
}

/// The settable parts of a uniform `name` of type `ty`, into `out`.
fn flatten(module: &Module, name: &str, ty: &Type, out: &mut Vec<Uniform>) {
    match ty {
        Type::Numeric {
            base,
            rows,
            columns,
        } => {
            let (kind, prefix, scalar) = match base {
                BaseType::Float | BaseType::Float16 => (Kind::Float, "", "float"),
                BaseType::Int | BaseType::Int16 => (Kind::Int, "i", "int"),
                BaseType::Uint | BaseType::Uint16 => (Kind::Uint, "u", "uint"),
                _ => return,
            };
            let type_name = match (rows, columns) {
                (1, 1) => scalar.to_string(),
                (r, 1) => format!("{prefix}vec{r}"),
                (r, c) if r == c => format!("mat{c}"),
                (r, c) => format!("mat{c}x{r}"),
            };
            out.push(Uniform {
                name: name.to_string(),
                type_name,
                kind,
                components: usize::from(*rows) * usize::from(*columns),
            });
        }
        Type::Array { element, size } => {
            for i in 0..*size {
                flatten(module, &format!("{name}[{i}]"), element, out);
            }
        }
        Type::Struct(id) => {
            if let Some(s) = module.structs.get(id.0 as usize) {
                for member in &s.members {
                    flatten(module, &format!("{name}.{}", member.name), &member.ty, out);
                }
            }
        }
        _ => {}
    }
}
