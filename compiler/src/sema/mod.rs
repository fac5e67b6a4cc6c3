//! Semantic analysis: checks a parsed shader and turns it into the IR.
//!
//! Names are resolved through nested scopes (`scope`), types are checked with GLSL ES's
//! rules (no implicit conversions in ES 1.00 and 3.00; 3.10 neither, unless
//! `GL_EXT_shader_implicit_conversions`), built-in variables and functions come from
//! `builtin_vars` and `builtins`, and every value gets its precision by the spec's rules
//! ([`precision`]): declared, default for the scope, from the operands, or (in the `spec`
//! model) from the consumer.

mod builtin_vars;
mod builtins;
mod construct;
mod decl;
mod expr;
mod operators;
pub mod precision;
mod scope;
mod stmt;
mod types;

use std::collections::HashMap;

use crate::front::ast::TranslationUnit;
use crate::ir::{Block, Expr, FuncId, Module, Precision, Stmt, Type, VarId, VarMode, Variable};
use crate::span::Span;
use crate::{Stage, Version};

pub use crate::ir::Model;
pub use builtin_vars::VARIABLES as BUILTIN_VARIABLES;
pub use builtins::FUNCTIONS as BUILTIN_FUNCTIONS;

/// A semantic error: what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SemaError {
    /// What went wrong, naming what was expected.
    pub message: String,
    /// Where.
    pub span: Span,
}

/// Result of one analysis step.
pub(crate) type Result<T> = std::result::Result<T, SemaError>;

/// An error at `span`.
pub(crate) fn error<T>(span: Span, message: impl Into<String>) -> Result<T> {
    Err(SemaError {
        message: message.into(),
        span,
    })
}

/// Checks `unit` and builds its IR, resolving precision by `model`.
pub fn analyze(unit: &TranslationUnit, model: Model) -> Result<Module> {
    let mut a = Analyzer::new(unit, model);
    builtin_vars::declare(&mut a);
    for item in &unit.items {
        a.external(item)?;
    }
    Ok(a.module)
}

/// A user function known by name, with its parameter types (for overload resolution).
#[derive(Clone, Debug)]
pub(crate) struct Signature {
    pub id: FuncId,
    pub params: Vec<(Type, VarMode)>,
    pub defined: bool,
}

/// The state of one analysis.
pub(crate) struct Analyzer<'u> {
    pub unit: &'u TranslationUnit,
    pub module: Module,
    pub model: Model,
    pub scopes: scope::Scopes,
    pub functions: HashMap<String, Vec<Signature>>,
    /// Statements of the block being built; expressions append side effects here.
    pub out: Block,
    /// Return type and precision of the function being analysed.
    pub current_return: Option<(Type, Precision)>,
    /// For each enclosing loop, statements to run before `continue` (a `for` step).
    pub continue_prologue: Vec<Block>,
    /// Depth of enclosing loops and switches (`break` is allowed inside).
    pub breakable: u32,
    /// For each enclosing `switch`: how many loops enclosed it, and the flag a `continue`
    /// inside it sets before leaving the loop the switch becomes (made on first use).
    pub switch_continue: Vec<(usize, Option<VarId>)>,
    /// Names of temporaries made so far, for unique printing.
    pub temps: u32,
    /// Spec model: constructor temporaries whose arguments have no precision, waiting for
    /// the precision of their consumer (see [`precision`]).
    pub pending_ctors: std::collections::HashSet<VarId>,
    /// Instances of uniform block arrays (indexed only by constant expressions before
    /// ES 3.20).
    pub uniform_block_arrays: std::collections::HashSet<VarId>,
}

impl<'u> Analyzer<'u> {
    fn new(unit: &'u TranslationUnit, model: Model) -> Self {
        Analyzer {
            unit,
            module: Module::new(unit.stage, unit.version),
            model,
            scopes: scope::Scopes::new(unit.stage),
            functions: HashMap::new(),
            out: Vec::new(),
            current_return: None,
            continue_prologue: Vec::new(),
            breakable: 0,
            switch_continue: Vec::new(),
            temps: 0,
            pending_ctors: std::collections::HashSet::new(),
            uniform_block_arrays: std::collections::HashSet::new(),
        }
    }

    /// The stage being compiled.
    pub fn stage(&self) -> Stage {
        self.unit.stage
    }

    /// The language version.
    pub fn version(&self) -> Version {
        self.unit.version
    }

    /// Whether `#extension name` enabled an extension.
    pub fn extension(&self, name: &str) -> bool {
        self.unit.extensions.iter().any(|e| e.name == name)
    }

    /// A new temporary of `ty` (declared in the current block).
    pub fn temp(&mut self, name: &str, ty: Type, precision: Precision, span: Span) -> VarId {
        self.temps += 1;
        let id = self.module.add_var(Variable {
            name: name.to_owned(),
            ty,
            mode: VarMode::Temporary,
            declared_precision: None,
            precision,
            constant_value: None,
            builtin: false,
            flat: false,
            location: None,
            span,
        });
        self.out.push(Stmt::Declare(id));
        id
    }

    /// A reference to variable `id`.
    pub fn var_ref(&self, id: VarId, span: Span) -> Expr {
        let var = self.module.var(id);
        Expr::new(
            crate::ir::ExprKind::Var(id),
            var.ty.clone(),
            var.precision,
            span,
        )
    }

    /// Runs `f` with a fresh statement buffer and returns what it emitted.
    pub fn capture<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<(T, Block)> {
        let saved = std::mem::take(&mut self.out);
        let result = f(self);
        let emitted = std::mem::replace(&mut self.out, saved);
        Ok((result?, emitted))
    }
}

/// Whether `e` uses the comma operator, which constant expressions may not in GLSL ES 3.x
/// (1.00 allows it).
pub(crate) fn contains_sequence(e: &crate::ast::Expr) -> bool {
    use crate::ast::ExprKind as A;
    match &e.kind {
        A::Sequence(_) => true,
        A::Unary(_, x) | A::Field(x, _) | A::Length(x) => contains_sequence(x),
        A::Binary(_, operands) | A::Assign(_, operands) | A::Index(operands) => {
            operands.iter().any(contains_sequence)
        }
        A::Ternary(operands) => operands.iter().any(contains_sequence),
        A::Call(_, args) => args.iter().any(contains_sequence),
        _ => false,
    }
}
