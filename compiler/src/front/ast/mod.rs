//! The abstract syntax tree of a GLSL ES shader.
//!
//! Every node carries a [`Span`] into the preprocessed text; map it back to the input with the
//! translation unit's [`SourceMap`]. Qualifiers are kept as written (in order), so semantic
//! analysis can check their order and resolve precision: default precision statements stay
//! in place as declarations in whatever scope they appear in. Float literals keep their text.

pub mod printer;
mod types;

use std::fmt;

pub use smol_str::SmolStr;
pub use types::{BuiltinType, Dim, ScalarKind};

use super::directive::{ExtensionDirective, Pragma};
use crate::shader::{Stage, Version};
use crate::span::{SourceMap, Span};

/// A parsed shader.
#[derive(Clone, Debug)]
pub struct TranslationUnit {
    /// The language version.
    pub version: Version,
    /// The stage it was parsed for.
    pub stage: Stage,
    /// `#extension` directives.
    pub extensions: Vec<ExtensionDirective>,
    /// `#pragma` directives.
    pub pragmas: Vec<Pragma>,
    /// Global declarations and function definitions, in order.
    pub items: Vec<ExternalDeclaration>,
    /// The preprocessed text that spans point into.
    pub source: String,
    /// Maps spans back to the original text.
    pub source_map: SourceMap,
}

/// A top-level item.
#[derive(Clone, Debug, PartialEq)]
pub enum ExternalDeclaration {
    /// A declaration (variables, prototype, block, precision statement, ...).
    Declaration(Declaration),
    /// A function definition.
    Function(FunctionDefinition),
}

/// A name and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The name (stored inline up to 23 bytes: building the tree allocates nothing for it).
    pub name: SmolStr,
    /// Where it is.
    pub span: Span,
}

/// A precision qualifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Precision {
    /// `lowp`
    Low,
    /// `mediump`
    Medium,
    /// `highp`
    High,
}

/// Storage qualifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Storage {
    /// `const`
    Const,
    /// `attribute` (ES 1.00 vertex input)
    Attribute,
    /// `varying` (ES 1.00)
    Varying,
    /// `uniform`
    Uniform,
    /// `in`
    In,
    /// `out`
    Out,
    /// `inout` (parameters)
    InOut,
    /// `buffer`
    Buffer,
    /// `shared`
    Shared,
}

/// Auxiliary storage qualifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Auxiliary {
    /// `centroid`
    Centroid,
    /// `sample`
    Sample,
    /// `patch`
    Patch,
}

/// Interpolation qualifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// `smooth`
    Smooth,
    /// `flat`
    Flat,
}

/// Memory qualifiers (ES 3.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Memory {
    /// `coherent`
    Coherent,
    /// `volatile`
    Volatile,
    /// `restrict`
    Restrict,
    /// `readonly`
    Readonly,
    /// `writeonly`
    Writeonly,
}

/// One `layout(...)` entry: `name` or `name = value`.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutQualifierId {
    /// The layout name (`location`, `std140`, `local_size_x`, ...).
    pub name: Ident,
    /// Its value, when given.
    pub value: Option<Expr>,
    /// Where it is.
    pub span: Span,
}

/// What one qualifier is.
#[derive(Clone, Debug, PartialEq)]
pub enum QualifierKind {
    /// Storage.
    Storage(Storage),
    /// Auxiliary storage.
    Auxiliary(Auxiliary),
    /// Interpolation.
    Interpolation(Interpolation),
    /// Precision.
    Precision(Precision),
    /// `invariant`
    Invariant,
    /// `precise`
    Precise,
    /// Memory.
    Memory(Memory),
    /// `layout(...)`
    Layout(Vec<LayoutQualifierId>),
}

/// One qualifier as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Qualifier {
    /// What it is.
    pub kind: QualifierKind,
    /// Where it is.
    pub span: Span,
}

/// The qualifiers of a declaration, in source order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TypeQualifiers {
    /// Qualifiers as written.
    pub list: Vec<Qualifier>,
}

impl TypeQualifiers {
    /// The precision qualifier written, if any (the last one, should there be several).
    pub fn precision(&self) -> Option<Precision> {
        self.list.iter().rev().find_map(|q| match q.kind {
            QualifierKind::Precision(p) => Some(p),
            _ => None,
        })
    }

    /// The storage qualifiers written.
    pub fn storage(&self) -> impl Iterator<Item = Storage> + '_ {
        self.list.iter().filter_map(|q| match q.kind {
            QualifierKind::Storage(s) => Some(s),
            _ => None,
        })
    }

    /// Whether no qualifier was written.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// One array dimension: `[]` or `[size]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayDim {
    /// The size expression, absent for `[]`.
    pub size: Option<Expr>,
    /// Where it is.
    pub span: Span,
}

/// What a type specifier names.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeName {
    /// A built-in type.
    Builtin(BuiltinType),
    /// A struct definition in place.
    Struct(Box<StructSpecifier>),
    /// A user type (struct) by name.
    Named(Ident),
}

/// A type specifier: a type name and array dimensions written on it (`float[3]`).
#[derive(Clone, Debug, PartialEq)]
pub struct TypeSpecifier {
    /// The type.
    pub name: TypeName,
    /// Array dimensions written right after the type name.
    pub array: Vec<ArrayDim>,
    /// Where it is.
    pub span: Span,
}

/// `struct [name] { members }`.
#[derive(Clone, Debug, PartialEq)]
pub struct StructSpecifier {
    /// The struct's name (absent for anonymous structs).
    pub name: Option<Ident>,
    /// Member declarations.
    pub members: Vec<MemberDeclaration>,
    /// Where it is.
    pub span: Span,
}

/// One member line of a struct or block: `qualifiers type a, b[2];`.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberDeclaration {
    /// Qualifiers (precision for struct members; layout/precision/memory in blocks).
    pub qualifiers: TypeQualifiers,
    /// Member type.
    pub ty: TypeSpecifier,
    /// Declared names.
    pub declarators: Vec<ArrayDeclarator>,
    /// Where it is.
    pub span: Span,
}

/// A name with optional array dimensions: `a[3][2]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayDeclarator {
    /// The name.
    pub name: Ident,
    /// Array dimensions after the name.
    pub array: Vec<ArrayDim>,
    /// Where it is.
    pub span: Span,
}

/// A type with its qualifiers.
#[derive(Clone, Debug, PartialEq)]
pub struct FullType {
    /// Qualifiers.
    pub qualifiers: TypeQualifiers,
    /// The type.
    pub ty: TypeSpecifier,
}

/// One declared variable: `name[dims] = initializer`.
#[derive(Clone, Debug, PartialEq)]
pub struct InitDeclarator {
    /// Name and array dimensions.
    pub declarator: ArrayDeclarator,
    /// Initializer.
    pub initializer: Option<Expr>,
    /// Where it is.
    pub span: Span,
}

/// A function parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    /// Qualifiers (`const`, `in`, `out`, `inout`, precision, memory).
    pub qualifiers: TypeQualifiers,
    /// Parameter type.
    pub ty: TypeSpecifier,
    /// Name and array dimensions, absent in prototypes that omit the name.
    pub declarator: Option<ArrayDeclarator>,
    /// Where it is.
    pub span: Span,
}

/// A function header.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionPrototype {
    /// Return type and its qualifiers.
    pub return_type: FullType,
    /// Function name.
    pub name: Ident,
    /// Parameters (`(void)` gives none).
    pub params: Vec<Parameter>,
    /// Where it is.
    pub span: Span,
}

/// A function definition.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDefinition {
    /// The header.
    pub prototype: FunctionPrototype,
    /// The body.
    pub body: Block,
    /// Where it is.
    pub span: Span,
}

/// An interface block: `uniform Name { members } instance[dims];`.
#[derive(Clone, Debug, PartialEq)]
pub struct InterfaceBlock {
    /// Qualifiers (storage `uniform`/`in`/`out`/`buffer`, layout, ...).
    pub qualifiers: TypeQualifiers,
    /// Block name.
    pub name: Ident,
    /// Members.
    pub members: Vec<MemberDeclaration>,
    /// Instance name and dimensions.
    pub instance: Option<ArrayDeclarator>,
}

/// What a declaration declares.
#[derive(Clone, Debug, PartialEq)]
pub enum DeclarationKind {
    /// `precision mediump float;` (a default precision for the current scope).
    Precision {
        /// The precision.
        precision: Precision,
        /// The type it applies to.
        ty: TypeSpecifier,
    },
    /// `qualifiers type a = 1, b[2];` (declarators may be empty: `struct S {...};`).
    Variables {
        /// Type of every declarator.
        ty: FullType,
        /// Declared variables.
        declarators: Vec<InitDeclarator>,
    },
    /// A function prototype.
    Prototype(Box<FunctionPrototype>),
    /// An interface block.
    Block(Box<InterfaceBlock>),
    /// Qualifiers alone, optionally on existing names: `invariant gl_Position;`,
    /// `layout(local_size_x = 8) in;`.
    Qualifiers {
        /// The qualifiers.
        qualifiers: TypeQualifiers,
        /// Names they apply to (empty for a default layout).
        names: Vec<Ident>,
    },
}

/// A declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    /// What it declares.
    pub kind: DeclarationKind,
    /// Where it is.
    pub span: Span,
}

/// `{ statements }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The statements.
    pub statements: Vec<Statement>,
    /// Where it is.
    pub span: Span,
}

/// A loop or `if`-like condition: an expression or `type name = init`.
#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    /// An expression.
    Expr(Expr),
    /// A declaration whose value is the condition (`while (bool b = f())`).
    Declaration {
        /// Type of the variable.
        ty: FullType,
        /// Variable name.
        name: Ident,
        /// Its initializer.
        initializer: Expr,
    },
}

/// What a statement is.
#[derive(Clone, Debug, PartialEq)]
pub enum StatementKind {
    /// `{ ... }`
    Compound(Block),
    /// A declaration (including `precision` statements), boxed: it is the largest kind of
    /// statement by far, and every statement would be its size.
    Declaration(Box<Declaration>),
    /// `expr;` or the empty statement `;`.
    Expression(Option<Expr>),
    /// `if (cond) then else otherwise`.
    If {
        /// Condition.
        condition: Expr,
        /// Taken branch.
        then: Box<Statement>,
        /// `else` branch.
        otherwise: Option<Box<Statement>>,
    },
    /// `switch (expr) { ... }`.
    Switch {
        /// Selector.
        selector: Expr,
        /// Body, including `case`/`default` labels (boxed, as a rare kind of statement).
        body: Box<Block>,
    },
    /// `case expr:`.
    Case(Expr),
    /// `default:`.
    Default,
    /// `while (cond) body`.
    While {
        /// Condition.
        condition: Box<Condition>,
        /// Body.
        body: Box<Statement>,
    },
    /// `do body while (cond);`.
    DoWhile {
        /// Body.
        body: Box<Statement>,
        /// Condition.
        condition: Expr,
    },
    /// `for (init; cond; step) body`.
    For {
        /// Declaration or expression statement.
        init: Box<Statement>,
        /// Condition (absent means true).
        condition: Option<Box<Condition>>,
        /// Step expression.
        step: Option<Expr>,
        /// Body.
        body: Box<Statement>,
    },
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `return [expr];`
    Return(Option<Expr>),
    /// `discard;`
    Discard,
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    /// What it is.
    pub kind: StatementKind,
    /// Where it is.
    pub span: Span,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `+x`
    Plus,
    /// `-x`
    Negate,
    /// `!x`
    Not,
    /// `~x`
    BitNot,
    /// `++x`
    PreIncrement,
    /// `--x`
    PreDecrement,
    /// `x++`
    PostIncrement,
    /// `x--`
    PostDecrement,
}

/// Binary operators.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Shl,
    Shr,
    Less,
    Greater,
    LessEqual,
    GreaterEqual,
    Equal,
    NotEqual,
    BitAnd,
    BitXor,
    BitOr,
    LogicalAnd,
    LogicalXor,
    LogicalOr,
}

impl BinaryOp {
    /// The operator as GLSL spells it (`+`, `<=`, `^^`, ...).
    pub fn symbol(self) -> &'static str {
        use BinaryOp as B;
        match self {
            B::Add => "+",
            B::Sub => "-",
            B::Mul => "*",
            B::Div => "/",
            B::Mod => "%",
            B::Shl => "<<",
            B::Shr => ">>",
            B::Less => "<",
            B::Greater => ">",
            B::LessEqual => "<=",
            B::GreaterEqual => ">=",
            B::Equal => "==",
            B::NotEqual => "!=",
            B::BitAnd => "&",
            B::BitXor => "^",
            B::BitOr => "|",
            B::LogicalAnd => "&&",
            B::LogicalXor => "^^",
            B::LogicalOr => "||",
        }
    }
}

/// A float literal: the value and the exact text written, so later stages can round the
/// decimal text once, straight to the target precision.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatLiteral {
    /// The value, rounded to the nearest `f64`.
    pub value: f64,
    /// The literal as written, suffix included (`3.141592`, `1e-3f`; inline up to 23 bytes).
    pub text: SmolStr,
}

/// What a call calls.
#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    /// A function or a struct constructor by name (semantic analysis decides which).
    Named(Ident),
    /// A constructor of a built-in type or an array (`vec4(...)`, `float[3](...)`,
    /// `S[2](...)`).
    Type(Box<TypeSpecifier>),
}

/// What an expression is.
///
/// The operands of a binary operator, an assignment, an index or a conditional share one
/// allocation (`[left, right]`, `[condition, then, otherwise]`): building and freeing the
/// tree is mostly allocation, and these are most of its nodes. `Debug` prints each operand
/// as its own field, as it would for operands boxed one by one.
#[derive(Clone, PartialEq)]
pub enum ExprKind {
    /// A variable name.
    Ident(Ident),
    /// An integer literal.
    Int(crate::front::token::IntLiteral),
    /// A float literal.
    Float(FloatLiteral),
    /// `true` / `false`.
    Bool(bool),
    /// Unary operation.
    Unary(UnaryOp, Box<Expr>),
    /// Binary operation: `[left, right]`.
    Binary(BinaryOp, Box<[Expr; 2]>),
    /// `lhs = rhs` (op `None`) or `lhs op= rhs`: `[lhs, rhs]`.
    Assign(Option<BinaryOp>, Box<[Expr; 2]>),
    /// `cond ? a : b`: `[cond, a, b]`.
    Ternary(Box<[Expr; 3]>),
    /// `a, b, c`.
    Sequence(Vec<Expr>),
    /// Function call or constructor.
    Call(Callee, Vec<Expr>),
    /// `base[index]`: `[base, index]`.
    Index(Box<[Expr; 2]>),
    /// `base.field` (also swizzles).
    Field(Box<Expr>, Ident),
    /// `base.length()`.
    Length(Box<Expr>),
}

impl fmt::Debug for ExprKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExprKind::Ident(i) => f.debug_tuple("Ident").field(i).finish(),
            ExprKind::Int(i) => f.debug_tuple("Int").field(i).finish(),
            ExprKind::Float(x) => f.debug_tuple("Float").field(x).finish(),
            ExprKind::Bool(b) => f.debug_tuple("Bool").field(b).finish(),
            ExprKind::Unary(op, a) => f.debug_tuple("Unary").field(op).field(a).finish(),
            ExprKind::Binary(op, operands) => {
                let [a, b] = &**operands;
                f.debug_tuple("Binary").field(op).field(a).field(b).finish()
            }
            ExprKind::Assign(op, operands) => {
                let [a, b] = &**operands;
                f.debug_tuple("Assign").field(op).field(a).field(b).finish()
            }
            ExprKind::Ternary(operands) => {
                let [c, a, b] = &**operands;
                f.debug_tuple("Ternary").field(c).field(a).field(b).finish()
            }
            ExprKind::Sequence(items) => f.debug_tuple("Sequence").field(items).finish(),
            ExprKind::Call(callee, args) => {
                f.debug_tuple("Call").field(callee).field(args).finish()
            }
            ExprKind::Index(operands) => {
                let [a, i] = &**operands;
                f.debug_tuple("Index").field(a).field(i).finish()
            }
            ExprKind::Field(a, name) => f.debug_tuple("Field").field(a).field(name).finish(),
            ExprKind::Length(a) => f.debug_tuple("Length").field(a).finish(),
        }
    }
}

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}
