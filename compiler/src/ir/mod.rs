//! IR status: stable v1
//!
//! The typed tree IR that semantic analysis produces, the precision passes rewrite and the
//! emulator evaluates. It follows Mesa's GLSL IR: a module holds variables, struct types and
//! functions; a function body is a list of statements; expressions are trees.
//!
//! * Variables live in one arena, [`Module::variables`], addressed by [`VarId`]; every
//!   declaration gets its own variable, so scopes are already resolved. Each has a
//!   [`VarMode`] and its resolved [`Precision`].
//! * Every expression node ([`Expr`]) carries its [`Type`] (whose [`BaseType`] includes the
//!   16-bit variants after lowering), its resolved precision and its source span.
//! * Calls to user functions are statements ([`Stmt::Call`]) writing a temporary, as in
//!   Mesa. Built-in functions are expanded by semantic analysis into [`Op`] expressions,
//!   [`Texture`] operations, or [`ExprKind::Intrinsic`] calls for the few that have no
//!   operation (image and atomic access, barriers).
//! * Lowering changes types, never values: a mediump sub-tree becomes 16-bit, its variable
//!   reads are wrapped in `f2fmp`/`i2imp`/`u2ump` and its root in `f162f`/`i2i`/`u2u`.
//!
//! Evaluation rules for an emulator: an operation computes in the width of its result type
//! (`float16_t` operations round to binary16 after every operation, nearest even); the
//! conversions are the only operations that change width. Arrays, structs and matrices are
//! values (copied on assignment).

pub mod build;
pub mod constant;
pub mod dump;
pub mod fold;
mod model;
pub mod ops;
pub mod types;
pub mod visit;

use serde::{Deserialize, Serialize};

pub use constant::{ConstValue, Scalar};
pub use model::Model;
pub use ops::Op;
pub use types::{full_mask, BaseType, Dim, ScalarKind, StructId, StructMember, StructType, Type};

use crate::shader::{Stage, Version};
use crate::span::Span;

/// A resolved precision. `None` is what constants and operations on constants have, and what
/// remains where no rule gives one.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    /// No precision.
    #[default]
    None,
    /// `lowp`
    Low,
    /// `mediump`
    Medium,
    /// `highp`
    High,
}

impl Precision {
    /// Whether an operation at this precision may be computed at 16 bits.
    pub fn is_lowerable(self) -> bool {
        matches!(self, Precision::Low | Precision::Medium)
    }

    /// The qualifier as written (`""` for none).
    pub fn keyword(self) -> &'static str {
        match self {
            Precision::None => "",
            Precision::Low => "lowp",
            Precision::Medium => "mediump",
            Precision::High => "highp",
        }
    }
}

impl From<crate::ast::Precision> for Precision {
    fn from(p: crate::ast::Precision) -> Self {
        match p {
            crate::ast::Precision::Low => Precision::Low,
            crate::ast::Precision::Medium => Precision::Medium,
            crate::ast::Precision::High => Precision::High,
        }
    }
}

/// Index of a variable in [`Module::variables`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct VarId(pub u32);

/// Index of a function in [`Module::functions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct FuncId(pub u32);

/// Where a variable lives (Mesa's `ir_variable_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VarMode {
    /// A local or global variable declared by the shader (`auto` in Mesa).
    Auto,
    /// A `uniform` (default block or a uniform block member).
    Uniform,
    /// A `buffer` block member.
    ShaderStorage,
    /// A compute `shared` variable.
    Shared,
    /// A stage input (`in`, `attribute`, `varying` in a fragment shader).
    ShaderIn,
    /// A stage output (`out`, `varying` in a vertex shader, `gl_FragColor`).
    ShaderOut,
    /// A function `in` parameter.
    FunctionIn,
    /// A function `out` parameter.
    FunctionOut,
    /// A function `inout` parameter.
    FunctionInOut,
    /// A function `const in` parameter.
    ConstIn,
    /// A system value (`gl_FragCoord`, `gl_VertexID`, ...).
    SystemValue,
    /// A temporary the compiler made (call results, `?:`, lowering).
    Temporary,
}

impl VarMode {
    /// Mesa's printed mode qualifier (`uniform `, `temporary `, `` for auto).
    pub fn mesa_name(self) -> &'static str {
        match self {
            VarMode::Auto => "",
            VarMode::Uniform => "uniform ",
            VarMode::ShaderStorage => "shader_storage ",
            VarMode::Shared => "shader_shared ",
            VarMode::ShaderIn => "shader_in ",
            VarMode::ShaderOut => "shader_out ",
            VarMode::FunctionIn => "in ",
            VarMode::FunctionOut => "out ",
            VarMode::FunctionInOut => "inout ",
            VarMode::ConstIn => "const_in ",
            VarMode::SystemValue => "sys ",
            VarMode::Temporary => "temporary ",
        }
    }
}

/// A variable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Variable {
    /// The name as declared (temporaries: `compiler_temp`, `lowerp`, ...).
    pub name: String,
    /// Its type (changed to a 16-bit type when lowering lowers the variable).
    pub ty: Type,
    /// Where it lives.
    pub mode: VarMode,
    /// The precision qualifier written on the declaration, if any.
    pub declared_precision: Option<Precision>,
    /// The resolved precision (written, default for the scope, or built-in).
    pub precision: Precision,
    /// `const` variables: their value.
    pub constant_value: Option<ConstValue>,
    /// Whether this is a built-in variable (`gl_FragColor`, ...).
    pub builtin: bool,
    /// Whether it is declared `flat` (not interpolated: the provoking vertex's value).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flat: bool,
    /// `layout(location = N)` when given.
    pub location: Option<i32>,
    /// Where it was declared.
    pub span: Span,
}

/// A function with one signature (overloads are separate functions with the same name).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Function {
    /// The name.
    pub name: String,
    /// Return type (`Void` for none).
    pub return_type: Type,
    /// Precision of the returned value.
    pub return_precision: Precision,
    /// Parameters, in order (variables of mode `FunctionIn`/`Out`/`InOut`/`ConstIn`).
    pub params: Vec<VarId>,
    /// The body; `None` for a prototype that is never defined.
    pub body: Option<Block>,
    /// Where it was defined.
    pub span: Span,
}

/// A list of statements.
pub type Block = Vec<Stmt>;

/// A statement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stmt {
    /// A variable comes into scope here (uninitialised).
    Declare(VarId),
    /// `lhs.mask = rhs`. `write_mask` has bit `i` set for component `i` written: a scalar
    /// destination has mask 1; arrays, matrices and structs have 0 (the whole value, as in
    /// Mesa). The right-hand side has as many components as bits set, taken in order.
    Assign {
        /// The destination: a variable reference, possibly indexed or a struct field.
        lhs: Expr,
        /// Components written (bit 0 = x).
        write_mask: u8,
        /// The value.
        rhs: Expr,
        /// Where it was written.
        span: Span,
    },
    /// `if (condition) then else otherwise`.
    If {
        /// A scalar bool.
        condition: Expr,
        /// Taken when true.
        then: Block,
        /// Taken when false.
        otherwise: Block,
        /// Where it was written.
        span: Span,
    },
    /// An endless loop left by `Break` or `Return` (`for`/`while` become this, as in Mesa).
    Loop {
        /// The body.
        body: Block,
        /// Where it was written.
        span: Span,
    },
    /// Leave the innermost loop.
    Break,
    /// Go to the next iteration of the innermost loop.
    Continue,
    /// Return from the function.
    Return {
        /// The value, for non-void functions.
        value: Option<Expr>,
        /// Where it was written.
        span: Span,
    },
    /// `discard` (a fragment dies).
    Discard {
        /// Where it was written.
        span: Span,
    },
    /// A call of a user function: `in`/`inout` arguments are read before the call, `out`/
    /// `inout` arguments (which are lvalues) written after it, the result stored in `result`.
    Call {
        /// The function.
        callee: FuncId,
        /// Arguments, one per parameter.
        args: Vec<Expr>,
        /// Where the return value goes (a temporary), for non-void functions.
        result: Option<Expr>,
        /// Where it was written.
        span: Span,
    },
    /// A built-in with side effects and no value (`barrier()`, `imageStore`, `EmitVertex`).
    Intrinsic {
        /// The built-in's GLSL name.
        name: String,
        /// Its arguments.
        args: Vec<Expr>,
        /// Where it was written.
        span: Span,
    },
}

/// An expression: what it is, its type, its precision and where it came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// The type of its value.
    pub ty: Type,
    /// Its resolved precision (for variable references, the variable's; for operations, the
    /// precision the chosen model gives it).
    pub precision: Precision,
    /// Where it came from.
    pub span: Span,
}

/// What an expression is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExprKind {
    /// A constant; `literal` keeps the text of a float literal it came from.
    Constant {
        /// The value.
        value: ConstValue,
        /// The literal text (`3.141592`) when the constant is one float literal.
        literal: Option<String>,
        /// The operation a float constant was folded from (or one of whose operands was),
        /// or the binary32 constant a 16-bit one was converted from: the acceptance
        /// intervals evaluate it with the operation's allowance (lowered with the constant
        /// where the rules let a driver fold it at mediump) and convert it outward; every
        /// other evaluation uses `value`, binary32 folding as Mesa's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        folded: Option<Box<Expr>>,
    },
    /// A whole variable.
    Var(VarId),
    /// An element of an array, a column of a matrix or a component of a vector.
    Index(Box<Expr>, Box<Expr>),
    /// A struct member by index.
    Field(Box<Expr>, u32),
    /// Components of a vector or scalar: up to 4 indices (0 = x).
    Swizzle(Box<Expr>, Vec<u8>),
    /// An operation on one to four operands.
    Op(Op, Vec<Expr>),
    /// A texture operation.
    Texture(Box<Texture>),
    /// A built-in without an operation (`imageLoad`, atomics): name and arguments.
    Intrinsic(String, Vec<Expr>),
}

impl Expr {
    /// A new expression node.
    pub fn new(kind: ExprKind, ty: Type, precision: Precision, span: Span) -> Expr {
        Expr {
            kind,
            ty,
            precision,
            span,
        }
    }

    /// The variable this lvalue or dereference chain starts from, if any.
    pub fn variable(&self) -> Option<VarId> {
        match &self.kind {
            ExprKind::Var(v) => Some(*v),
            ExprKind::Index(base, _) | ExprKind::Field(base, _) | ExprKind::Swizzle(base, _) => {
                base.variable()
            }
            _ => None,
        }
    }

    /// Whether this is a dereference (a variable, or an element, column, component or
    /// member of one), like Mesa's `ir_dereference`.
    pub fn is_deref(&self) -> bool {
        match &self.kind {
            ExprKind::Var(_) => true,
            ExprKind::Field(base, _) | ExprKind::Index(base, _) => base.is_deref(),
            _ => false,
        }
    }

    /// The constant value, when this is a constant.
    pub fn constant(&self) -> Option<&ConstValue> {
        match &self.kind {
            ExprKind::Constant { value, .. } => Some(value),
            _ => None,
        }
    }
}

/// Which texture operation (Mesa's `ir_texture_opcode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TexOp {
    /// Sample with implicit derivatives.
    Tex,
    /// Sample with a bias.
    Txb,
    /// Sample at a level.
    Txl,
    /// Sample with explicit gradients.
    Txd,
    /// Fetch a texel.
    Txf,
    /// Fetch a sample of a multisample texture.
    TxfMs,
    /// Size of a level.
    Txs,
    /// Level of detail (`textureQueryLod`).
    Lod,
    /// Gather four texels.
    Tg4,
    /// Number of levels.
    QueryLevels,
    /// Number of samples.
    TextureSamples,
}

impl TexOp {
    /// Mesa's name for the operation.
    pub fn name(self) -> &'static str {
        match self {
            TexOp::Tex => "tex",
            TexOp::Txb => "txb",
            TexOp::Txl => "txl",
            TexOp::Txd => "txd",
            TexOp::Txf => "txf",
            TexOp::TxfMs => "txf_ms",
            TexOp::Txs => "txs",
            TexOp::Lod => "lod",
            TexOp::Tg4 => "tg4",
            TexOp::QueryLevels => "query_levels",
            TexOp::TextureSamples => "samples",
        }
    }
}

/// A texture operation. The result takes the sampler's precision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Texture {
    /// Which operation.
    pub op: TexOp,
    /// The sampler (a dereference).
    pub sampler: Expr,
    /// Coordinate (absent for `Txs`, `QueryLevels`, `TextureSamples`).
    pub coordinate: Option<Expr>,
    /// Projective divisor (`textureProj`).
    pub projector: Option<Expr>,
    /// Depth reference for shadow samplers.
    pub shadow_comparator: Option<Expr>,
    /// Texel offset.
    pub offset: Option<Expr>,
    /// Bias (`Txb`), level (`Txl`, `Txf`, `Txs`), sample index (`TxfMs`) or component
    /// (`Tg4`).
    pub lod: Option<Expr>,
    /// Gradients (`Txd`): d/dx and d/dy.
    pub gradient: Option<(Expr, Expr)>,
}

impl Texture {
    /// Every operand expression, in field order (sampler first, then gradients last).
    pub fn operands(&self) -> impl Iterator<Item = &Expr> {
        [
            Some(&self.sampler),
            self.coordinate.as_ref(),
            self.projector.as_ref(),
            self.shadow_comparator.as_ref(),
            self.offset.as_ref(),
            self.lod.as_ref(),
            self.gradient.as_ref().map(|g| &g.0),
            self.gradient.as_ref().map(|g| &g.1),
        ]
        .into_iter()
        .flatten()
    }
}

/// A compiled shader.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Module {
    /// GLSL ES version number (100, 300, 310, 320).
    pub version: u32,
    /// The stage, as a word (`vertex`, `fragment`, ...).
    pub stage: String,
    /// Every variable: globals, built-ins, locals, parameters and temporaries.
    pub variables: Vec<Variable>,
    /// Struct types.
    pub structs: Vec<StructType>,
    /// Global declarations and initialisers, in order (run before `main`).
    pub globals: Block,
    /// Functions (user-defined only).
    pub functions: Vec<Function>,
}

impl Module {
    /// An empty module for `stage` and `version`.
    pub fn new(stage: Stage, version: Version) -> Module {
        let stage = match stage {
            Stage::Vertex => "vertex",
            Stage::Fragment => "fragment",
            Stage::Compute => "compute",
            Stage::Geometry => "geometry",
            Stage::TessControl => "tess_ctrl",
            Stage::TessEvaluation => "tess_eval",
        };
        Module {
            version: version.number(),
            stage: stage.to_owned(),
            variables: Vec::new(),
            structs: Vec::new(),
            globals: Vec::new(),
            functions: Vec::new(),
        }
    }

    /// The variable `id`.
    ///
    /// # Panics
    /// When `id` does not come from this module.
    pub fn var(&self, id: VarId) -> &Variable {
        &self.variables[id.0 as usize]
    }

    /// The variable `id`, mutably.
    ///
    /// # Panics
    /// When `id` does not come from this module.
    pub fn var_mut(&mut self, id: VarId) -> &mut Variable {
        &mut self.variables[id.0 as usize]
    }

    /// Adds a variable and returns its handle.
    pub fn add_var(&mut self, var: Variable) -> VarId {
        let id = VarId(u32::try_from(self.variables.len()).unwrap_or(u32::MAX));
        self.variables.push(var);
        id
    }

    /// The function `id`.
    ///
    /// # Panics
    /// When `id` does not come from this module.
    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.0 as usize]
    }

    /// The function called `main`, if defined.
    pub fn main(&self) -> Option<FuncId> {
        self.functions
            .iter()
            .position(|f| f.name == "main" && f.body.is_some())
            .and_then(|i| u32::try_from(i).ok())
            .map(FuncId)
    }

    /// The struct `id`.
    ///
    /// # Panics
    /// When `id` does not come from this module.
    pub fn struct_type(&self, id: StructId) -> &StructType {
        &self.structs[id.0 as usize]
    }

    /// Mesa's printed name of `ty` (struct names resolved, arrays as `(array T N)`).
    pub fn type_name(&self, ty: &Type) -> String {
        match ty {
            Type::Struct(id) => self
                .structs
                .get(id.0 as usize)
                .map_or_else(|| ty.name(), |s| s.name.clone()),
            Type::Array { element, size } => {
                format!("(array {} {size})", self.type_name(element))
            }
            other => other.name(),
        }
    }
}
