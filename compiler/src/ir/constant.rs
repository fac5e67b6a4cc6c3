//! Constant values: the exact value of every component.
//!
//! Floats are kept as binary32 (`Float`) or as binary16 bit patterns (`Float16`), the way Mesa
//! stores them: a literal is rounded to binary32 first, and a lowered constant is that binary32
//! value rounded to binary16 (nearest even).

use serde::{Deserialize, Serialize};

use super::types::BaseType;

/// One component.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scalar {
    /// A bool.
    Bool(bool),
    /// A 32-bit int.
    Int(i32),
    /// A 32-bit uint.
    Uint(u32),
    /// A binary32 float.
    Float(f32),
    /// A binary16 float, as its bit pattern.
    Float16(u16),
    /// A 16-bit int.
    Int16(i16),
    /// A 16-bit uint.
    Uint16(u16),
    /// A 64-bit int.
    Int64(i64),
    /// A 64-bit uint.
    Uint64(u64),
}

impl Scalar {
    /// The base type of this component.
    pub fn base(self) -> BaseType {
        match self {
            Scalar::Bool(_) => BaseType::Bool,
            Scalar::Int(_) => BaseType::Int,
            Scalar::Uint(_) => BaseType::Uint,
            Scalar::Float(_) => BaseType::Float,
            Scalar::Float16(_) => BaseType::Float16,
            Scalar::Int16(_) => BaseType::Int16,
            Scalar::Uint16(_) => BaseType::Uint16,
            Scalar::Int64(_) => BaseType::Int64,
            Scalar::Uint64(_) => BaseType::Uint64,
        }
    }

    /// The value as an `f64` (exact for every variant but the 64-bit integers).
    pub fn to_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => f64::from(u8::from(b)),
            Scalar::Int(v) => f64::from(v),
            Scalar::Uint(v) => f64::from(v),
            Scalar::Float(v) => f64::from(v),
            Scalar::Float16(bits) => f64::from(half::f16::from_bits(bits).to_f32()),
            Scalar::Int16(v) => f64::from(v),
            Scalar::Uint16(v) => f64::from(v),
            Scalar::Int64(v) => v as f64,
            Scalar::Uint64(v) => v as f64,
        }
    }

    /// The value converted to `base` the way a GLSL constructor converts (float to int
    /// truncates, anything to bool is `!= 0`).
    pub fn convert(self, base: BaseType) -> Scalar {
        let as_i64 = || match self {
            Scalar::Int(v) => i64::from(v),
            Scalar::Uint(v) => i64::from(v),
            Scalar::Int16(v) => i64::from(v),
            Scalar::Uint16(v) => i64::from(v),
            Scalar::Int64(v) => v,
            Scalar::Uint64(v) => v as i64,
            Scalar::Bool(b) => i64::from(b),
            Scalar::Float(_) | Scalar::Float16(_) => self.to_f64() as i64,
        };
        match base {
            BaseType::Bool => Scalar::Bool(self.to_f64() != 0.0),
            BaseType::Int => Scalar::Int(as_i64() as i32),
            BaseType::Uint => Scalar::Uint(as_i64() as u32),
            BaseType::Int16 => Scalar::Int16(as_i64() as i16),
            BaseType::Uint16 => Scalar::Uint16(as_i64() as u16),
            BaseType::Int64 => Scalar::Int64(as_i64()),
            BaseType::Uint64 => Scalar::Uint64(as_i64() as u64),
            BaseType::Float => Scalar::Float(match self {
                Scalar::Float(v) => v,
                Scalar::Int(v) => v as f32,
                Scalar::Uint(v) => v as f32,
                other => other.to_f64() as f32,
            }),
            BaseType::Float16 => Scalar::Float16(match self {
                Scalar::Float16(bits) => bits,
                other => {
                    half::f16::from_f32(other.convert(BaseType::Float).to_f64() as f32).to_bits()
                }
            }),
        }
    }
}

/// A constant value of any type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConstValue {
    /// A scalar, vector or matrix: components in column-major order.
    Components(Vec<Scalar>),
    /// An array or a struct: one value per element or member.
    Composite(Vec<ConstValue>),
}

impl ConstValue {
    /// The components of a numeric constant (empty for composites).
    pub fn components(&self) -> &[Scalar] {
        match self {
            ConstValue::Components(c) => c,
            ConstValue::Composite(_) => &[],
        }
    }

    /// Every component converted to `base` (composites element by element).
    pub fn convert(&self, base: BaseType) -> ConstValue {
        match self {
            ConstValue::Components(c) => {
                ConstValue::Components(c.iter().map(|s| s.convert(base)).collect())
            }
            ConstValue::Composite(items) => {
                ConstValue::Composite(items.iter().map(|v| v.convert(base)).collect())
            }
        }
    }
}
