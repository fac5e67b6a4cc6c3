//! IR types: Mesa's `glsl_type` in small, with the 16-bit base types that lowering produces.
//!
//! A numeric type is a base type with a column count and a row count (`vector_elements`):
//! a scalar is 1x1, a `vec3` 1 column of 3 rows, a `mat2x3` 2 columns of 3 rows. Names follow
//! Mesa's printer (`float16_t`, `f16vec4`, `i16vec2`, `u16vec3`, `f16mat2`).

use serde::{Deserialize, Serialize};

/// The kind of one component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BaseType {
    /// `bool`
    Bool,
    /// 32-bit signed integer.
    Int,
    /// 32-bit unsigned integer.
    Uint,
    /// binary32.
    Float,
    /// 16-bit signed integer (lowered `mediump`/`lowp` int).
    Int16,
    /// 16-bit unsigned integer (lowered `mediump`/`lowp` uint).
    Uint16,
    /// binary16 (lowered `mediump`/`lowp` float).
    Float16,
    /// 64-bit signed integer (only inside `imulExtended`).
    Int64,
    /// 64-bit unsigned integer (only inside `umulExtended`).
    Uint64,
}

impl BaseType {
    /// Bits per component (1 for bool).
    pub fn bit_size(self) -> u32 {
        match self {
            BaseType::Bool => 1,
            BaseType::Int16 | BaseType::Uint16 | BaseType::Float16 => 16,
            BaseType::Int | BaseType::Uint | BaseType::Float => 32,
            BaseType::Int64 | BaseType::Uint64 => 64,
        }
    }

    /// Whether this is a float type of any size.
    pub fn is_float(self) -> bool {
        matches!(self, BaseType::Float | BaseType::Float16)
    }

    /// Whether this is a signed integer type of any size.
    pub fn is_signed_int(self) -> bool {
        matches!(self, BaseType::Int | BaseType::Int16 | BaseType::Int64)
    }

    /// Whether this is an unsigned integer type of any size.
    pub fn is_unsigned_int(self) -> bool {
        matches!(self, BaseType::Uint | BaseType::Uint16 | BaseType::Uint64)
    }

    /// Whether this is an integer type of any size or signedness.
    pub fn is_integer(self) -> bool {
        self.is_signed_int() || self.is_unsigned_int()
    }

    /// The 16-bit type a 32-bit float/int/uint lowers to; `None` for the others.
    pub fn lowered(self) -> Option<BaseType> {
        match self {
            BaseType::Float => Some(BaseType::Float16),
            BaseType::Int => Some(BaseType::Int16),
            BaseType::Uint => Some(BaseType::Uint16),
            _ => None,
        }
    }

    /// The 32-bit type a 16-bit float/int/uint widens to; `None` for the others.
    pub fn widened(self) -> Option<BaseType> {
        match self {
            BaseType::Float16 => Some(BaseType::Float),
            BaseType::Int16 => Some(BaseType::Int),
            BaseType::Uint16 => Some(BaseType::Uint),
            _ => None,
        }
    }

    /// Mesa's scalar type name.
    pub fn scalar_name(self) -> &'static str {
        match self {
            BaseType::Bool => "bool",
            BaseType::Int => "int",
            BaseType::Uint => "uint",
            BaseType::Float => "float",
            BaseType::Int16 => "int16_t",
            BaseType::Uint16 => "uint16_t",
            BaseType::Float16 => "float16_t",
            BaseType::Int64 => "int64_t",
            BaseType::Uint64 => "uint64_t",
        }
    }

    /// Mesa's vector name prefix (`vec`, `f16vec`, `ivec`, ...).
    fn vector_prefix(self) -> &'static str {
        match self {
            BaseType::Bool => "bvec",
            BaseType::Int => "ivec",
            BaseType::Uint => "uvec",
            BaseType::Float => "vec",
            BaseType::Int16 => "i16vec",
            BaseType::Uint16 => "u16vec",
            BaseType::Float16 => "f16vec",
            BaseType::Int64 => "i64vec",
            BaseType::Uint64 => "u64vec",
        }
    }
}

/// The kind of a sampler or image (re-exported from the AST).
/// Scalar component kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ScalarKind {
    /// `bool`
    Bool,
    /// `int`
    Int,
    /// `uint`
    Uint,
    /// `float`
    Float,
}

/// Dimensionality of a sampler or image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dim {
    /// `2D`
    D2,
    /// `3D`
    D3,
    /// `Cube`
    Cube,
    /// `2DArray`
    D2Array,
    /// `CubeArray`
    CubeArray,
    /// `2DMS`
    D2Ms,
    /// `2DMSArray`
    D2MsArray,
    /// `Buffer`
    Buffer,
    /// `ExternalOES`
    External,
}

/// Index of a struct type in [`super::Module::structs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StructId(pub u32);

/// A type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Type {
    /// `void` (function returns only).
    Void,
    /// Scalar, vector or matrix.
    Numeric {
        /// Component kind.
        base: BaseType,
        /// Rows: the vector size (1 for scalars).
        rows: u8,
        /// Columns (1 unless a matrix).
        columns: u8,
    },
    /// `[iu]samplerDIM[Shadow]`.
    Sampler {
        /// Kind of the texel.
        kind: ScalarKind,
        /// Dimensionality.
        dim: Dim,
        /// Depth comparison.
        shadow: bool,
    },
    /// `[iu]imageDIM`.
    Image {
        /// Kind of the texel.
        kind: ScalarKind,
        /// Dimensionality.
        dim: Dim,
    },
    /// `atomic_uint`.
    AtomicUint,
    /// A struct, by index into the module's struct table.
    Struct(StructId),
    /// An array (`size` 0 for an unsized SSBO array).
    Array {
        /// Element type.
        element: Box<Type>,
        /// Number of elements.
        size: u32,
    },
}

impl Type {
    /// A scalar of `base`.
    pub fn scalar(base: BaseType) -> Type {
        Type::Numeric {
            base,
            rows: 1,
            columns: 1,
        }
    }

    /// A vector of `n` components (a scalar when `n` is 1).
    pub fn vector(base: BaseType, n: u8) -> Type {
        Type::Numeric {
            base,
            rows: n,
            columns: 1,
        }
    }

    /// A matrix of `columns` columns of `rows` rows.
    pub fn matrix(base: BaseType, columns: u8, rows: u8) -> Type {
        Type::Numeric {
            base,
            rows,
            columns,
        }
    }

    /// `float`.
    pub fn float() -> Type {
        Type::scalar(BaseType::Float)
    }

    /// `int`.
    pub fn int() -> Type {
        Type::scalar(BaseType::Int)
    }

    /// `uint`.
    pub fn uint() -> Type {
        Type::scalar(BaseType::Uint)
    }

    /// `bool`.
    pub fn bool() -> Type {
        Type::scalar(BaseType::Bool)
    }

    /// The component kind of a numeric type (of the innermost element for arrays).
    pub fn base(&self) -> Option<BaseType> {
        match self {
            Type::Numeric { base, .. } => Some(*base),
            Type::Array { element, .. } => element.base(),
            _ => None,
        }
    }

    /// The innermost element type of an array, or the type itself.
    pub fn without_array(&self) -> &Type {
        match self {
            Type::Array { element, .. } => element.without_array(),
            other => other,
        }
    }

    /// Components of a numeric type (rows x columns); 0 for other types.
    pub fn components(&self) -> u32 {
        match self {
            Type::Numeric { rows, columns, .. } => u32::from(*rows) * u32::from(*columns),
            _ => 0,
        }
    }

    /// Vector size of a scalar or vector (rows); 0 for others.
    pub fn vector_size(&self) -> u8 {
        match self {
            Type::Numeric {
                rows, columns: 1, ..
            } => *rows,
            _ => 0,
        }
    }

    /// Whether this is a scalar.
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            Type::Numeric {
                rows: 1,
                columns: 1,
                ..
            }
        )
    }

    /// Whether this is a vector (2 to 4 components).
    pub fn is_vector(&self) -> bool {
        matches!(self, Type::Numeric { rows, columns: 1, .. } if *rows > 1)
    }

    /// Whether this is a matrix.
    pub fn is_matrix(&self) -> bool {
        matches!(self, Type::Numeric { columns, .. } if *columns > 1)
    }

    /// Whether this is an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Type::Array { .. })
    }

    /// Whether this is a sampler (or an array of them), image or atomic counter: an opaque
    /// type.
    pub fn is_opaque(&self) -> bool {
        matches!(
            self.without_array(),
            Type::Sampler { .. } | Type::Image { .. } | Type::AtomicUint
        )
    }

    /// The same shape with another component kind (arrays keep their sizes).
    pub fn with_base(&self, new: BaseType) -> Type {
        match self {
            Type::Numeric { rows, columns, .. } => Type::Numeric {
                base: new,
                rows: *rows,
                columns: *columns,
            },
            Type::Array { element, size } => Type::Array {
                element: Box::new(element.with_base(new)),
                size: *size,
            },
            other => other.clone(),
        }
    }

    /// A column of a matrix, an element of an array or a component of a vector.
    pub fn element(&self) -> Option<Type> {
        match self {
            Type::Array { element, .. } => Some((**element).clone()),
            Type::Numeric {
                base,
                rows,
                columns,
            } if *columns > 1 => Some(Type::vector(*base, *rows)),
            Type::Numeric { base, rows, .. } if *rows > 1 => Some(Type::scalar(*base)),
            _ => None,
        }
    }

    /// Mesa's name for a non-struct, non-array type (`f16vec4`, `mat2x3`, `sampler2D`).
    pub fn name(&self) -> String {
        match self {
            Type::Void => "void".to_owned(),
            Type::AtomicUint => "atomic_uint".to_owned(),
            Type::Numeric {
                base,
                rows,
                columns,
            } => numeric_name(*base, *rows, *columns),
            Type::Sampler { kind, dim, shadow } => crate::ast::BuiltinType::Sampler {
                kind: *kind,
                dim: *dim,
                shadow: *shadow,
            }
            .to_string(),
            Type::Image { kind, dim } => crate::ast::BuiltinType::Image {
                kind: *kind,
                dim: *dim,
            }
            .to_string(),
            Type::Struct(id) => format!("struct@{}", id.0),
            Type::Array { element, size } => format!("{}[{size}]", element.name()),
        }
    }
}

fn numeric_name(base: BaseType, rows: u8, columns: u8) -> String {
    if columns > 1 {
        let prefix = match base {
            BaseType::Float16 => "f16mat",
            BaseType::Float => "mat",
            _ => return format!("{}{columns}x{rows}", base.scalar_name()),
        };
        return if rows == columns {
            format!("{prefix}{columns}")
        } else {
            format!("{prefix}{columns}x{rows}")
        };
    }
    if rows == 1 {
        base.scalar_name().to_owned()
    } else {
        format!("{}{rows}", base.vector_prefix())
    }
}

/// A struct type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StructType {
    /// The name (`#anon_struct@N` for anonymous structs).
    pub name: String,
    /// Members in order.
    pub members: Vec<StructMember>,
}

/// One struct member: it keeps its own precision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StructMember {
    /// Member name.
    pub name: String,
    /// Member type.
    pub ty: Type,
    /// Declared (or default) precision.
    pub precision: super::Precision,
}

/// The write mask covering a whole value of `ty` (Mesa's: 0 for non-vectors that are not
/// scalars).
pub fn full_mask(ty: &Type) -> u8 {
    if ty.is_vector() {
        (1u8 << ty.vector_size()) - 1
    } else if ty.is_scalar() {
        1
    } else {
        0
    }
}
