//! Built-in type names (`vec4`, `mat3x2`, `usampler2DArray`, ...), recognised by spelling.

use std::fmt;

pub use crate::ir::{Dim, ScalarKind};

const DIMS: &[(&str, Dim)] = &[
    ("2DMSArray", Dim::D2MsArray),
    ("2DArray", Dim::D2Array),
    ("2DMS", Dim::D2Ms),
    ("2D", Dim::D2),
    ("3D", Dim::D3),
    ("CubeArray", Dim::CubeArray),
    ("Cube", Dim::Cube),
    ("Buffer", Dim::Buffer),
    ("ExternalOES", Dim::External),
];

/// A built-in (non-struct) type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltinType {
    /// `void`
    Void,
    /// `bool`, `int`, `uint`, `float`
    Scalar(ScalarKind),
    /// `vecN`, `bvecN`, `ivecN`, `uvecN` (N = 2..4)
    Vector(ScalarKind, u8),
    /// `matC` / `matCxR`
    Matrix {
        /// Columns, 2..4.
        columns: u8,
        /// Rows, 2..4.
        rows: u8,
    },
    /// `[iu]samplerDIM[Shadow]`
    Sampler {
        /// Kind of the returned texel (float, int or uint).
        kind: ScalarKind,
        /// Dimensionality.
        dim: Dim,
        /// `Shadow` (depth comparison).
        shadow: bool,
    },
    /// `[iu]imageDIM`
    Image {
        /// Kind of the texel.
        kind: ScalarKind,
        /// Dimensionality.
        dim: Dim,
    },
    /// `atomic_uint`
    AtomicUint,
}

fn size(digit: &str) -> Option<u8> {
    match digit {
        "2" => Some(2),
        "3" => Some(3),
        "4" => Some(4),
        _ => None,
    }
}

impl BuiltinType {
    /// The built-in type spelled `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Self> {
        let scalar = match name {
            "void" => return Some(BuiltinType::Void),
            "atomic_uint" => return Some(BuiltinType::AtomicUint),
            "bool" => Some(ScalarKind::Bool),
            "int" => Some(ScalarKind::Int),
            "uint" => Some(ScalarKind::Uint),
            "float" => Some(ScalarKind::Float),
            _ => None,
        };
        if let Some(kind) = scalar {
            return Some(BuiltinType::Scalar(kind));
        }
        if let Some(rest) = name.strip_prefix("mat") {
            let (columns, rows) = match rest.split_once('x') {
                Some((c, r)) => (size(c)?, size(r)?),
                None => (size(rest)?, size(rest)?),
            };
            return Some(BuiltinType::Matrix { columns, rows });
        }
        let (kind, rest) = match name.as_bytes().first() {
            Some(b'b') => (ScalarKind::Bool, name.get(1..)?),
            Some(b'i') if !name.starts_with("image") => (ScalarKind::Int, name.get(1..)?),
            Some(b'u') => (ScalarKind::Uint, name.get(1..)?),
            _ => (ScalarKind::Float, name),
        };
        if let Some(n) = rest.strip_prefix("vec") {
            return Some(BuiltinType::Vector(kind, size(n)?));
        }
        if kind == ScalarKind::Bool {
            return None;
        }
        if let Some(dim) = rest.strip_prefix("sampler") {
            let (dim, shadow) = match dim.strip_suffix("Shadow") {
                Some(d) if kind == ScalarKind::Float => (d, true),
                Some(_) => return None,
                None => (dim, false),
            };
            let dim = DIMS.iter().find(|(s, _)| *s == dim)?.1;
            let shadow_ok = matches!(dim, Dim::D2 | Dim::Cube | Dim::D2Array | Dim::CubeArray);
            if shadow && !shadow_ok || dim == Dim::External && kind != ScalarKind::Float {
                return None;
            }
            return Some(BuiltinType::Sampler { kind, dim, shadow });
        }
        if let Some(dim) = rest.strip_prefix("image") {
            let dim = DIMS.iter().find(|(s, _)| *s == dim)?.1;
            if matches!(dim, Dim::D2Ms | Dim::D2MsArray | Dim::External) {
                return None;
            }
            return Some(BuiltinType::Image { kind, dim });
        }
        None
    }
}

fn prefix(kind: ScalarKind) -> &'static str {
    match kind {
        ScalarKind::Bool => "b",
        ScalarKind::Int => "i",
        ScalarKind::Uint => "u",
        ScalarKind::Float => "",
    }
}

fn dim_name(dim: Dim) -> &'static str {
    DIMS.iter().find(|(_, d)| *d == dim).map_or("", |(s, _)| s)
}

impl fmt::Display for BuiltinType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BuiltinType::Void => f.write_str("void"),
            BuiltinType::AtomicUint => f.write_str("atomic_uint"),
            BuiltinType::Scalar(kind) => f.write_str(match kind {
                ScalarKind::Bool => "bool",
                ScalarKind::Int => "int",
                ScalarKind::Uint => "uint",
                ScalarKind::Float => "float",
            }),
            BuiltinType::Vector(kind, n) => write!(f, "{}vec{n}", prefix(kind)),
            BuiltinType::Matrix { columns, rows } if columns == rows => write!(f, "mat{columns}"),
            BuiltinType::Matrix { columns, rows } => write!(f, "mat{columns}x{rows}"),
            BuiltinType::Sampler { kind, dim, shadow } => {
                let shadow = if shadow { "Shadow" } else { "" };
                write!(f, "{}sampler{}{shadow}", prefix(kind), dim_name(dim))
            }
            BuiltinType::Image { kind, dim } => write!(f, "{}image{}", prefix(kind), dim_name(dim)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_type_names_round_trip() {
        for name in [
            "void",
            "float",
            "uvec3",
            "bvec2",
            "mat3",
            "mat2x4",
            "sampler2DShadow",
            "usampler2DArray",
            "isampler2DMS",
            "samplerExternalOES",
            "image2D",
            "uimageBuffer",
            "atomic_uint",
            "samplerCubeArrayShadow",
        ] {
            let ty = BuiltinType::from_name(name).expect(name);
            assert_eq!(ty.to_string(), name);
        }
    }

    #[test]
    fn non_types_are_rejected() {
        for name in [
            "vec5",
            "isampler2DShadow",
            "bsampler2D",
            "mat",
            "image2DMS",
            "foo",
        ] {
            assert_eq!(BuiltinType::from_name(name), None, "{name}");
        }
    }
}
