//! Built-in variables and constants of each stage, with the precisions the GLSL ES specs
//! give them (`gl_FragColor` mediump, `gl_FragCoord` mediump in 1.00 and highp in 3.x,
//! `gl_Position` highp, `gl_PointCoord` mediump, ...).

use super::Analyzer;
use crate::ir::{
    BaseType, ConstValue, Precision, Scalar, StructId, StructMember, StructType, Type, VarMode,
    Variable,
};
use crate::span::Span;
use crate::{Stage, Version};

fn vec(base: BaseType, n: u8) -> Type {
    Type::vector(base, n)
}

/// Every built-in variable and constant [`declare`] can give a shader, in any stage, version
/// or extension: the table the emulator's inventory classifies (`halfcheck features`).
pub const VARIABLES: &[&str] = &[
    "gl_FragCoord",
    "gl_FrontFacing",
    "gl_PointCoord",
    "gl_FragColor",
    "gl_FragData",
    "gl_LastFragData",
    "gl_FragDepth",
    "gl_FragDepthEXT",
    "gl_HelperInvocation",
    "gl_SampleID",
    "gl_SamplePosition",
    "gl_SampleMaskIn",
    "gl_SampleMask",
    "gl_PrimitiveID",
    "gl_Layer",
    "gl_ViewportIndex",
    "gl_Position",
    "gl_PointSize",
    "gl_VertexID",
    "gl_InstanceID",
    "gl_NumWorkGroups",
    "gl_WorkGroupID",
    "gl_LocalInvocationID",
    "gl_GlobalInvocationID",
    "gl_LocalInvocationIndex",
    "gl_PrimitiveIDIn",
    "gl_InvocationID",
    "gl_in",
    "gl_MaxVertexAttribs",
    "gl_MaxVertexUniformVectors",
    "gl_MaxFragmentUniformVectors",
    "gl_MaxVaryingVectors",
    "gl_MaxVertexTextureImageUnits",
    "gl_MaxCombinedTextureImageUnits",
    "gl_MaxTextureImageUnits",
    "gl_MaxDrawBuffers",
    "gl_MaxVertexOutputVectors",
    "gl_MaxFragmentInputVectors",
    "gl_MinProgramTexelOffset",
    "gl_MaxProgramTexelOffset",
    "gl_MaxImageUnits",
    "gl_MaxComputeImageUniforms",
    "gl_MaxComputeUniformComponents",
    "gl_MaxComputeTextureImageUnits",
    "gl_MaxComputeAtomicCounters",
    "gl_MaxComputeAtomicCounterBuffers",
    "gl_MaxVertexAtomicCounters",
    "gl_MaxFragmentAtomicCounters",
    "gl_MaxCombinedAtomicCounters",
    "gl_MaxAtomicCounterBindings",
    "gl_MaxVertexImageUniforms",
    "gl_MaxFragmentImageUniforms",
    "gl_MaxCombinedImageUniforms",
    "gl_MaxCombinedShaderOutputResources",
    "gl_MaxAtomicCounterBufferSize",
    "gl_MaxComputeWorkGroupCount",
    "gl_MaxComputeWorkGroupSize",
];

/// Declares the built-ins of the unit's stage and version in the global scope.
pub(crate) fn declare(a: &mut Analyzer<'_>) {
    use BaseType::{Float, Int, Uint};
    use Precision::{High, Low, Medium, None as NoP};
    let es1 = a.version() == Version::Es100;
    let es31 = a.version() >= Version::Es310;
    let mut vars: Vec<(&str, Type, VarMode, Precision)> = Vec::new();
    match a.stage() {
        Stage::Fragment => {
            let coord = if es1 { Medium } else { High };
            vars.push(("gl_FragCoord", vec(Float, 4), VarMode::SystemValue, coord));
            vars.push(("gl_FrontFacing", Type::bool(), VarMode::SystemValue, NoP));
            vars.push(("gl_PointCoord", vec(Float, 2), VarMode::ShaderIn, Medium));
            if es1 {
                vars.push(("gl_FragColor", vec(Float, 4), VarMode::ShaderOut, Medium));
                let data = Type::Array {
                    element: Box::new(vec(Float, 4)),
                    size: MAX_DRAW_BUFFERS,
                };
                vars.push(("gl_FragData", data.clone(), VarMode::ShaderOut, Medium));
                let fetch = a.extension("GL_EXT_shader_framebuffer_fetch")
                    || a.extension("GL_EXT_shader_framebuffer_fetch_non_coherent");
                if fetch {
                    vars.push(("gl_LastFragData", data, VarMode::ShaderIn, Medium));
                }
            } else {
                vars.push(("gl_FragDepth", Type::float(), VarMode::ShaderOut, High));
            }
            if a.extension("GL_EXT_frag_depth") {
                vars.push(("gl_FragDepthEXT", Type::float(), VarMode::ShaderOut, High));
            }
            if es31 {
                vars.push((
                    "gl_HelperInvocation",
                    Type::bool(),
                    VarMode::SystemValue,
                    NoP,
                ));
                vars.push(("gl_SampleID", Type::int(), VarMode::SystemValue, Low));
                vars.push((
                    "gl_SamplePosition",
                    vec(Float, 2),
                    VarMode::SystemValue,
                    Medium,
                ));
                let mask = Type::Array {
                    element: Box::new(Type::int()),
                    size: 1,
                };
                vars.push(("gl_SampleMaskIn", mask.clone(), VarMode::SystemValue, High));
                vars.push(("gl_SampleMask", mask, VarMode::ShaderOut, High));
                vars.push(("gl_PrimitiveID", Type::int(), VarMode::ShaderIn, High));
                vars.push(("gl_Layer", Type::int(), VarMode::ShaderIn, High));
                vars.push(("gl_ViewportIndex", Type::int(), VarMode::ShaderIn, High));
            }
        }
        Stage::Vertex => {
            vars.push(("gl_Position", vec(Float, 4), VarMode::ShaderOut, High));
            vars.push((
                "gl_PointSize",
                Type::float(),
                VarMode::ShaderOut,
                if es1 { Medium } else { High },
            ));
            if !es1 {
                vars.push(("gl_VertexID", Type::int(), VarMode::SystemValue, High));
                vars.push(("gl_InstanceID", Type::int(), VarMode::SystemValue, High));
            }
        }
        Stage::Compute => {
            let uvec3 = vec(Uint, 3);
            for name in [
                "gl_NumWorkGroups",
                "gl_WorkGroupID",
                "gl_LocalInvocationID",
                "gl_GlobalInvocationID",
            ] {
                vars.push((name, uvec3.clone(), VarMode::SystemValue, High));
            }
            vars.push((
                "gl_LocalInvocationIndex",
                Type::uint(),
                VarMode::SystemValue,
                High,
            ));
        }
        _ => {
            vars.push(("gl_PrimitiveIDIn", Type::int(), VarMode::ShaderIn, High));
            vars.push(("gl_PrimitiveID", Type::int(), VarMode::ShaderOut, High));
            vars.push(("gl_InvocationID", Type::int(), VarMode::SystemValue, High));
            vars.push(("gl_Position", vec(Float, 4), VarMode::ShaderOut, High));
            vars.push(("gl_PointSize", Type::float(), VarMode::ShaderOut, High));
            vars.push(("gl_Layer", Type::int(), VarMode::ShaderOut, High));
            vars.push(("gl_ViewportIndex", Type::int(), VarMode::ShaderOut, High));
            let per_vertex = per_vertex_struct(a);
            let gl_in = Type::Array {
                element: Box::new(per_vertex),
                size: 0,
            };
            vars.push(("gl_in", gl_in, VarMode::ShaderIn, NoP));
        }
    }
    for (name, ty, mode, precision) in vars {
        add(a, name, ty, mode, precision, None);
    }
    let max_draw = MAX_DRAW_BUFFERS as i32;
    let mut consts: Vec<(&str, i32)> = vec![
        ("gl_MaxVertexAttribs", 16),
        ("gl_MaxVertexUniformVectors", 256),
        ("gl_MaxFragmentUniformVectors", 224),
        ("gl_MaxVaryingVectors", 15),
        ("gl_MaxVertexTextureImageUnits", 16),
        ("gl_MaxCombinedTextureImageUnits", 48),
        ("gl_MaxTextureImageUnits", 16),
        ("gl_MaxDrawBuffers", max_draw),
    ];
    if !es1 {
        consts.extend([
            ("gl_MaxVertexOutputVectors", 16),
            ("gl_MaxFragmentInputVectors", 15),
            ("gl_MinProgramTexelOffset", -8),
            ("gl_MaxProgramTexelOffset", 7),
        ]);
    }
    if es31 {
        consts.extend([
            ("gl_MaxImageUnits", 4),
            ("gl_MaxComputeImageUniforms", 4),
            ("gl_MaxComputeUniformComponents", 1024),
            ("gl_MaxComputeTextureImageUnits", 16),
            ("gl_MaxComputeAtomicCounters", 8),
            ("gl_MaxComputeAtomicCounterBuffers", 1),
            ("gl_MaxVertexAtomicCounters", 0),
            ("gl_MaxFragmentAtomicCounters", 0),
            ("gl_MaxCombinedAtomicCounters", 8),
            ("gl_MaxAtomicCounterBindings", 1),
            ("gl_MaxVertexImageUniforms", 0),
            ("gl_MaxFragmentImageUniforms", 0),
            ("gl_MaxCombinedImageUniforms", 4),
            ("gl_MaxCombinedShaderOutputResources", 4),
            ("gl_MaxAtomicCounterBufferSize", 32),
        ]);
    }
    for (name, value) in consts {
        let c = ConstValue::Components(vec![Scalar::Int(value)]);
        add(a, name, Type::int(), VarMode::Auto, Medium, Some(c));
    }
    if es31 {
        for (name, v) in [
            ("gl_MaxComputeWorkGroupCount", [65535, 65535, 65535]),
            ("gl_MaxComputeWorkGroupSize", [128, 128, 64]),
        ] {
            let c = ConstValue::Components(v.iter().map(|&x| Scalar::Int(x)).collect());
            add(a, name, vec(Int, 3), VarMode::Auto, High, Some(c));
        }
    }
}

/// `gl_MaxDrawBuffers` as Mesa reports it.
const MAX_DRAW_BUFFERS: u32 = 8;

/// `gl_PerVertex { highp vec4 gl_Position; highp float gl_PointSize; }`.
fn per_vertex_struct(a: &mut Analyzer<'_>) -> Type {
    let members = vec![
        StructMember {
            name: "gl_Position".to_owned(),
            ty: vec(BaseType::Float, 4),
            precision: Precision::High,
        },
        StructMember {
            name: "gl_PointSize".to_owned(),
            ty: Type::float(),
            precision: Precision::High,
        },
    ];
    let id = StructId(u32::try_from(a.module.structs.len()).unwrap_or(u32::MAX));
    a.module.structs.push(StructType {
        name: "gl_PerVertex".to_owned(),
        members,
    });
    Type::Struct(id)
}

fn add(
    a: &mut Analyzer<'_>,
    name: &str,
    ty: Type,
    mode: VarMode,
    precision: Precision,
    constant: Option<ConstValue>,
) {
    let id = a.module.add_var(Variable {
        name: name.to_owned(),
        ty,
        mode,
        declared_precision: None,
        precision,
        constant_value: constant,
        builtin: true,
        flat: false,
        location: None,
        span: Span::default(),
    });
    a.scopes.add_var(name, id);
}

#[cfg(test)]
mod tests {
    use super::VARIABLES;
    use crate::ir::Module;
    use crate::{compile, CompileOptions, Stage};
    use std::collections::BTreeSet;

    fn builtins(module: &Module) -> impl Iterator<Item = &str> {
        module
            .variables
            .iter()
            .filter(|v| v.builtin)
            .map(|v| v.name.as_str())
    }

    /// The table is exactly what the stages, versions and extensions declare: a built-in
    /// variable added to `declare` and not to [`VARIABLES`] fails here.
    #[test]
    fn the_table_of_builtin_variables_is_what_the_stages_declare() {
        let versions = ["100", "300 es", "310 es", "320 es"];
        let extensions = "#extension GL_EXT_frag_depth : enable\n\
                          #extension GL_EXT_shader_framebuffer_fetch : enable\n";
        let stages = [
            (Stage::Vertex, ""),
            (Stage::Fragment, extensions),
            (Stage::Compute, "layout(local_size_x = 1) in;\n"),
            (Stage::Geometry, ""),
        ];
        let mut seen = BTreeSet::new();
        for version in versions {
            for (stage, extra) in stages {
                let text = format!("#version {version}\n{extra}void main() {{}}\n");
                let Ok(module) = compile(&text, stage, "t", &CompileOptions::default()) else {
                    continue;
                };
                for name in builtins(&module) {
                    assert!(VARIABLES.contains(&name), "{name} is not in VARIABLES");
                    seen.insert(name.to_owned());
                }
            }
        }
        let never: Vec<&&str> = VARIABLES.iter().filter(|v| !seen.contains(**v)).collect();
        assert!(never.is_empty(), "never declared: {never:?}");
    }
}
