//! Expression operations, named as Mesa's GLSL IR prints them (`ir_expression_operation`).
//!
//! Operations are component-wise unless their doc says otherwise; binary operations accept a
//! scalar beside a vector (the scalar is used for every component), like Mesa's.

use serde::{Deserialize, Serialize};

macro_rules! ops {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, $arity:literal; )*) => {
        /// An expression operation.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Op {
            $( $(#[$doc])* $variant, )*
        }

        impl Op {
            /// The name Mesa's IR printer uses.
            pub fn name(self) -> &'static str {
                match self {
                    $( Op::$variant => $name, )*
                }
            }

            /// Number of operands.
            pub fn arity(self) -> usize {
                match self {
                    $( Op::$variant => $arity, )*
                }
            }

            /// The operation Mesa prints as `name`.
            pub fn from_name(name: &str) -> Option<Op> {
                match name {
                    $( $name => Some(Op::$variant), )*
                    _ => None,
                }
            }
        }
    };
}

ops! {
    /// `~x`
    BitNot = "~", 1;
    /// `!x`
    LogicNot = "!", 1;
    /// `-x`
    Neg = "neg", 1;
    /// `abs(x)`
    Abs = "abs", 1;
    /// `sign(x)`
    Sign = "sign", 1;
    /// `1/x`
    Rcp = "rcp", 1;
    /// `inversesqrt(x)`
    Rsq = "rsq", 1;
    /// `sqrt(x)`
    Sqrt = "sqrt", 1;
    /// `e^x`
    Exp = "exp", 1;
    /// `ln x`
    Log = "log", 1;
    /// `2^x`
    Exp2 = "exp2", 1;
    /// `log2 x`
    Log2 = "log2", 1;
    /// float to int (truncating).
    F2i = "f2i", 1;
    /// float to uint (truncating).
    F2u = "f2u", 1;
    /// int to float.
    I2f = "i2f", 1;
    /// float to bool (`x != 0`).
    F2b = "f2b", 1;
    /// bool to float.
    B2f = "b2f", 1;
    /// bool to float16.
    B2f16 = "b2f16", 1;
    /// float16 to bool.
    F162b = "f162b", 1;
    /// int to bool.
    I2b = "i2b", 1;
    /// bool to int.
    B2i = "b2i", 1;
    /// uint to float.
    U2f = "u2f", 1;
    /// int to uint (bit pattern kept).
    I2u = "i2u", 1;
    /// uint to int (bit pattern kept).
    U2i = "u2i", 1;
    /// float bits as int.
    BitcastF2i = "bitcast_f2i", 1;
    /// int bits as float.
    BitcastI2f = "bitcast_i2f", 1;
    /// float bits as uint.
    BitcastF2u = "bitcast_f2u", 1;
    /// uint bits as float.
    BitcastU2f = "bitcast_u2f", 1;
    /// float to float16 for a mediump operation (rounding to nearest even); may be folded away.
    F2fmp = "f2fmp", 1;
    /// float to float16, never folded away.
    F2f16 = "f2f16", 1;
    /// float16 to float (exact).
    F162f = "f162f", 1;
    /// int to int16 for a mediump operation (keeps the low 16 bits).
    I2imp = "i2imp", 1;
    /// uint to uint16 for a mediump operation (keeps the low 16 bits).
    U2ump = "u2ump", 1;
    /// Integer size change, sign-extending (int16 <-> int, int <-> int64).
    I2i = "i2i", 1;
    /// Unsigned integer size change, zero-extending.
    U2u = "u2u", 1;
    /// int to int64.
    I2i64 = "i2i64", 1;
    /// uint to uint64.
    U2u64 = "u2u64", 1;
    /// Round toward zero.
    Trunc = "trunc", 1;
    /// Round up.
    Ceil = "ceil", 1;
    /// Round down.
    Floor = "floor", 1;
    /// `x - floor(x)`
    Fract = "fract", 1;
    /// Round to nearest even.
    RoundEven = "round_even", 1;
    /// Sine.
    Sin = "sin", 1;
    /// Cosine.
    Cos = "cos", 1;
    /// Arc tangent of one argument.
    Atan = "atan", 1;
    /// Screen-space x derivative.
    DFdx = "dFdx", 1;
    /// Screen-space y derivative.
    DFdy = "dFdy", 1;
    /// `packSnorm2x16`
    PackSnorm2x16 = "packSnorm2x16", 1;
    /// `packSnorm4x8`
    PackSnorm4x8 = "packSnorm4x8", 1;
    /// `packUnorm2x16`
    PackUnorm2x16 = "packUnorm2x16", 1;
    /// `packUnorm4x8`
    PackUnorm4x8 = "packUnorm4x8", 1;
    /// `packHalf2x16`
    PackHalf2x16 = "packHalf2x16", 1;
    /// `unpackSnorm2x16`
    UnpackSnorm2x16 = "unpackSnorm2x16", 1;
    /// `unpackSnorm4x8`
    UnpackSnorm4x8 = "unpackSnorm4x8", 1;
    /// `unpackUnorm2x16`
    UnpackUnorm2x16 = "unpackUnorm2x16", 1;
    /// `unpackUnorm4x8`
    UnpackUnorm4x8 = "unpackUnorm4x8", 1;
    /// `unpackHalf2x16`
    UnpackHalf2x16 = "unpackHalf2x16", 1;
    /// `bitfieldReverse`
    BitfieldReverse = "bitfield_reverse", 1;
    /// `bitCount`
    BitCount = "bit_count", 1;
    /// `findMSB`
    FindMsb = "find_msb", 1;
    /// `findLSB`
    FindLsb = "find_lsb", 1;
    /// Clamp to [0, 1].
    Saturate = "sat", 1;
    /// `frexp` significand.
    FrexpSig = "frexp_sig", 1;
    /// `frexp` exponent.
    FrexpExp = "frexp_exp", 1;
    /// `interpolateAtCentroid`
    InterpolateAtCentroid = "interpolate_at_centroid", 1;
    /// `a + b`
    Add = "+", 2;
    /// `a - b`
    Sub = "-", 2;
    /// `a * b` (component-wise, or matrix product when an operand is a matrix).
    Mul = "*", 2;
    /// High 32 bits of a 32x32 integer product.
    ImulHigh = "imul_high", 2;
    /// `a / b`
    Div = "/", 2;
    /// Carry of an unsigned add.
    Carry = "carry", 2;
    /// Borrow of an unsigned subtract.
    Borrow = "borrow", 2;
    /// `a % b` (float: `a - b * floor(a / b)`).
    Mod = "%", 2;
    /// `a < b` (component-wise).
    Less = "<", 2;
    /// `a > b` (component-wise; sema emits `b < a` as Mesa does).
    Greater = ">", 2;
    /// `a <= b` (component-wise; sema emits `b >= a` as Mesa does).
    LessEqual = "<=", 2;
    /// `a >= b` (component-wise).
    GreaterEqual = ">=", 2;
    /// `a == b` (component-wise).
    Equal = "==", 2;
    /// `a != b` (component-wise).
    NotEqual = "!=", 2;
    /// All components equal: one bool.
    AllEqual = "all_equal", 2;
    /// Any component differs: one bool.
    AnyNequal = "any_nequal", 2;
    /// `a << b`
    Lshift = "<<", 2;
    /// `a >> b`
    Rshift = ">>", 2;
    /// `a & b`
    BitAnd = "&", 2;
    /// `a ^ b`
    BitXor = "^", 2;
    /// `a | b`
    BitOr = "|", 2;
    /// `a && b`
    LogicAnd = "&&", 2;
    /// `a ^^ b`
    LogicXor = "^^", 2;
    /// `a || b`
    LogicOr = "||", 2;
    /// Dot product: one scalar.
    Dot = "dot", 2;
    /// Component-wise minimum.
    Min = "min", 2;
    /// Component-wise maximum.
    Max = "max", 2;
    /// `pow(a, b)`
    Pow = "pow", 2;
    /// `ldexp(a, b)`
    Ldexp = "ldexp", 2;
    /// Component `b` of vector `a` (dynamic index).
    VectorExtract = "vector_extract", 2;
    /// `interpolateAtOffset`
    InterpolateAtOffset = "interpolate_at_offset", 2;
    /// `interpolateAtSample`
    InterpolateAtSample = "interpolate_at_sample", 2;
    /// Two-argument arc tangent.
    Atan2 = "atan2", 2;
    /// `a * b + c`, fused.
    Fma = "fma", 3;
    /// `mix`: `a * (1 - c) + b * c`.
    Lrp = "lrp", 3;
    /// `a ? b : c` (component-wise on a bool vector).
    Csel = "csel", 3;
    /// `bitfieldExtract(value, offset, bits)`
    BitfieldExtract = "bitfield_extract", 3;
    /// Vector `a` with component `c` replaced by `b`.
    VectorInsert = "vector_insert", 3;
    /// `bitfieldInsert(base, insert, offset, bits)`
    BitfieldInsert = "bitfield_insert", 4;
}

impl Op {
    /// Whether this is one of the precision conversions the lowering pass inserts.
    pub fn is_precision_conversion(self) -> bool {
        matches!(
            self,
            Op::F2fmp | Op::F2f16 | Op::F162f | Op::I2imp | Op::U2ump | Op::I2i | Op::U2u
        )
    }

    /// Whether this is a screen-space derivative.
    pub fn is_derivative(self) -> bool {
        matches!(self, Op::DFdx | Op::DFdy)
    }
}
