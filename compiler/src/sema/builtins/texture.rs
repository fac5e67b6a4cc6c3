//! Texture built-ins (`texture2D`, `texture`, `textureProj`, `textureLod`, `texelFetch`,
//! `textureGrad`, `textureGather`, `textureSize`, their `Offset` forms and the ES 1.00
//! names) as [`Texture`] operations. The result takes the sampler's precision;
//! `textureSize` is highp.

use super::super::expr::constant;
use super::super::{error, Analyzer, Result};
use crate::ir::types::Dim;
use crate::ir::{BaseType, ConstValue, Expr, ExprKind, Precision, Scalar, TexOp, Texture, Type};
use crate::span::Span;

/// Components of a texture coordinate (or of `textureSize`'s result) for `dim`.
pub(crate) fn size_components(dim: Dim, coordinate: bool) -> u8 {
    match dim {
        Dim::D2 | Dim::D2Ms | Dim::External => 2,
        Dim::D3 | Dim::Cube if coordinate => 3,
        Dim::Cube => 2,
        Dim::D3 | Dim::D2Array | Dim::D2MsArray => 3,
        Dim::CubeArray if coordinate => 4,
        Dim::CubeArray => 3,
        Dim::Buffer => 1,
    }
}

struct Variant {
    op: TexOp,
    proj: bool,
    offset: bool,
}

fn variant(name: &str) -> Option<Variant> {
    let (op, proj, offset) = match name {
        "texture2D" | "textureCube" | "texture3D" | "texture" | "shadow2DEXT" => {
            (TexOp::Tex, false, false)
        }
        "texture2DProj" | "texture3DProj" | "textureProj" | "shadow2DProjEXT" => {
            (TexOp::Tex, true, false)
        }
        "texture2DLod" | "textureCubeLod" | "texture3DLod" | "textureLod" | "texture2DLodEXT"
        | "textureCubeLodEXT" => (TexOp::Txl, false, false),
        "texture2DProjLod" | "texture3DProjLod" | "textureProjLod" | "texture2DProjLodEXT" => {
            (TexOp::Txl, true, false)
        }
        "textureOffset" => (TexOp::Tex, false, true),
        "textureProjOffset" => (TexOp::Tex, true, true),
        "textureLodOffset" => (TexOp::Txl, false, true),
        "textureProjLodOffset" => (TexOp::Txl, true, true),
        "texelFetch" => (TexOp::Txf, false, false),
        "texelFetchOffset" => (TexOp::Txf, false, true),
        "textureGrad" | "texture2DGradEXT" | "textureCubeGradEXT" => (TexOp::Txd, false, false),
        "textureGradOffset" => (TexOp::Txd, false, true),
        "textureProjGrad" | "texture2DProjGradEXT" => (TexOp::Txd, true, false),
        "textureProjGradOffset" => (TexOp::Txd, true, true),
        "textureGather" => (TexOp::Tg4, false, false),
        "textureGatherOffset" | "textureGatherOffsets" => (TexOp::Tg4, false, true),
        "textureSize" => (TexOp::Txs, false, false),
        _ => return None,
    };
    Some(Variant { op, proj, offset })
}

fn swizzle(e: &Expr, comps: Vec<u8>, span: Span) -> Expr {
    let base = e.ty.base().unwrap_or(BaseType::Float);
    let ty = Type::vector(base, comps.len() as u8);
    crate::ir::fold::fold(Expr::new(
        ExprKind::Swizzle(Box::new(e.clone()), comps),
        ty,
        e.precision,
        span,
    ))
}

/// A texture built-in, or `None` when `name` is not one.
pub(crate) fn call(
    _a: &mut Analyzer<'_>,
    name: &str,
    args: &[Expr],
    span: Span,
) -> Result<Option<Expr>> {
    let Some(v) = variant(name) else {
        return Ok(None);
    };
    let Some(sampler) = args.first() else {
        return error(
            span,
            format!("expected a sampler as the first argument of '{name}'"),
        );
    };
    let Type::Sampler { kind, dim, shadow } = sampler.ty.clone() else {
        return error(
            span,
            format!(
                "expected a sampler as the first argument of '{name}', found '{}'",
                sampler.ty.name()
            ),
        );
    };
    let base = super::super::types::base_of(kind);
    let precision = sampler.precision;
    let rest = &args[1..];
    if v.op == TexOp::Txs {
        let n = size_components(dim, false);
        let ty = Type::vector(BaseType::Int, n);
        let lod = rest.first().cloned();
        let t = Texture {
            op: TexOp::Txs,
            sampler: sampler.clone(),
            coordinate: None,
            projector: None,
            shadow_comparator: None,
            offset: None,
            lod,
            gradient: None,
        };
        return Ok(Some(Expr::new(
            ExprKind::Texture(Box::new(t)),
            ty,
            Precision::High,
            span,
        )));
    }
    let Some(coord) = rest.first() else {
        return error(span, format!("expected a coordinate argument to '{name}'"));
    };
    let n = size_components(dim, true);
    let int_coord = v.op == TexOp::Txf || matches!(dim, Dim::D2Ms | Dim::D2MsArray);
    let want_base = if int_coord {
        BaseType::Int
    } else {
        BaseType::Float
    };
    if coord.ty.base() != Some(want_base) {
        return error(
            coord.span,
            format!(
                "expected a {} coordinate for '{name}', found '{}'",
                if int_coord { "int" } else { "float" },
                coord.ty.name()
            ),
        );
    }
    let size = coord.ty.vector_size().max(1);
    let mut coordinate = coord.clone();
    let mut projector = None;
    let mut comparator = None;
    let mut extra = 1;
    if v.proj {
        projector = Some(swizzle(coord, vec![size - 1], span));
        if shadow {
            comparator = Some(swizzle(coord, vec![2], span));
        }
        coordinate = swizzle(coord, (0..n).collect(), span);
    } else if shadow && dim != Dim::CubeArray && v.op != TexOp::Tg4 {
        if size != n + 1 {
            return error(
                coord.span,
                format!(
                    "expected a vec{} coordinate (with the depth reference) for '{name}'",
                    n + 1
                ),
            );
        }
        comparator = Some(swizzle(coord, vec![n], span));
        coordinate = swizzle(coord, (0..n).collect(), span);
    } else if size != n {
        return error(
            coord.span,
            format!(
                "expected a {}-component coordinate for '{name}', found '{}'",
                n,
                coord.ty.name()
            ),
        );
    }
    if shadow && (dim == Dim::CubeArray || v.op == TexOp::Tg4) {
        comparator = rest.get(extra).cloned();
        extra += 1;
    }
    let mut lod = None;
    let mut gradient = None;
    let mut op = v.op;
    match v.op {
        TexOp::Txl => {
            lod = rest.get(extra).cloned();
            extra += 1;
        }
        TexOp::Txf if !matches!(dim, Dim::Buffer) => {
            lod = rest.get(extra).cloned();
            extra += 1;
            if matches!(dim, Dim::D2Ms | Dim::D2MsArray) {
                op = TexOp::TxfMs;
            }
        }
        TexOp::Txd => {
            if let (Some(dx), Some(dy)) = (rest.get(extra), rest.get(extra + 1)) {
                gradient = Some((dx.clone(), dy.clone()));
            }
            extra += 2;
        }
        _ => {}
    }
    let offset = if v.offset {
        let o = rest.get(extra).cloned();
        extra += 1;
        o
    } else {
        None
    };
    if op == TexOp::Tg4 {
        lod = Some(rest.get(extra).cloned().unwrap_or_else(|| {
            constant(
                ConstValue::Components(vec![Scalar::Int(0)]),
                Type::int(),
                span,
            )
        }));
        if rest.get(extra).is_some() {
            extra += 1;
        }
    } else if op == TexOp::Tex && rest.len() > extra {
        op = TexOp::Txb;
        lod = rest.get(extra).cloned();
        extra += 1;
    }
    if rest.len() != extra && !(op == TexOp::Txf && matches!(dim, Dim::Buffer)) {
        return error(span, format!("wrong number of arguments to '{name}'"));
    }
    let ty = if shadow && op != TexOp::Tg4 {
        Type::float()
    } else {
        Type::vector(base, 4)
    };
    let t = Texture {
        op,
        sampler: sampler.clone(),
        coordinate: Some(coordinate),
        projector,
        shadow_comparator: comparator,
        offset,
        lod,
        gradient,
    };
    Ok(Some(Expr::new(
        ExprKind::Texture(Box::new(t)),
        ty,
        precision,
        span,
    )))
}
