//! Lowering of mediump and lowp operations to 16 bits, after Mesa's `lower_precision`.
//!
//! The rule: an operation may run at 16 bits when its precision is mediump or lowp. A tree
//! is walked bottom-up and every node gets a state: *can't lower* (a highp source, a type
//! that cannot be 16-bit, a derivative with derivatives off), *should lower* (a mediump or
//! lowp source) or *unknown* (only constants and precision-less sources). A node takes the
//! strongest state among its children, *can't* beating *should*. Every maximal *should*
//! tree that is more than a bare variable read is then rewritten: its operations and
//! constants get 16-bit types, its variable reads (and its texture or fixed-precision
//! built-in results) are wrapped in `f2fmp`/`i2imp`/`u2ump`, and its root in
//! `f162f`/`i2i`/`u2u` back to 32 bits, so variables keep their types.
//!
//! Array indices, texture arguments and the arguments of built-ins whose precision the spec
//! fixes are separate trees. A temporary the compiler made without a precision takes
//! mediump when first assigned a lowered tree and highp when assigned anything else that is
//! not a constant (Mesa's rule for `?:` and constructor temporaries).
//!
//! The models differ in one place: in `mesa` a tree whose state stays *unknown* is never
//! lowered (the lvalue, parameter or return value never lends its precision), in `spec`
//! the precision that semantic analysis lent to such operations counts.

use super::Switches;
use crate::ir::build::{convert, placeholder};
use crate::ir::Model;
use crate::ir::{BaseType, ConstValue, Expr, ExprKind, Module, Op, Precision, Stmt, Type, VarMode};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Unknown,
    Cant,
    Should,
}

/// How a fixed-precision built-in relates to its arguments.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fixed {
    /// Not fixed: the operation's precision comes from its operands.
    No,
    /// The built-in computes at 32 bits; its result enters a 16-bit tree like a variable
    /// read; its arguments are separate trees (`findLSB`, `unpackHalf2x16`, `floatBitsToInt`).
    Leaf,
    /// The built-in is lowered with its arguments whatever their precision (`bitCount`,
    /// `bitfieldExtract`, `interpolateAt*`): Mesa lowers its inlined body with mediump
    /// parameters.
    Lowered,
}

fn fixed(op: Op) -> Fixed {
    match op {
        Op::BitCount
        | Op::BitfieldExtract
        | Op::BitfieldInsert
        | Op::InterpolateAtCentroid
        | Op::InterpolateAtOffset
        | Op::InterpolateAtSample => Fixed::Lowered,
        Op::FindLsb
        | Op::FindMsb
        | Op::BitcastF2i
        | Op::BitcastF2u
        | Op::BitcastI2f
        | Op::BitcastU2f
        | Op::PackSnorm2x16
        | Op::PackSnorm4x8
        | Op::PackUnorm2x16
        | Op::PackUnorm4x8
        | Op::PackHalf2x16
        | Op::UnpackSnorm2x16
        | Op::UnpackSnorm4x8
        | Op::UnpackUnorm2x16
        | Op::UnpackUnorm4x8
        | Op::UnpackHalf2x16
        | Op::FrexpSig
        | Op::FrexpExp
        | Op::I2i64
        | Op::U2u64 => Fixed::Leaf,
        _ => Fixed::No,
    }
}

/// Whether `op` is a built-in whose result precision the spec fixes and that Mesa computes at
/// 32 bits, its result entering a 16-bit tree like a variable read (`compile --why`).
pub(crate) fn fixed_at_32_bits(op: Op) -> bool {
    fixed(op) == Fixed::Leaf
}

/// Intrinsics that are plain math and lower like operations.
fn math_intrinsic(name: &str) -> bool {
    matches!(
        name,
        "asin"
            | "acos"
            | "sinh"
            | "cosh"
            | "tanh"
            | "asinh"
            | "acosh"
            | "atanh"
            | "isinf"
            | "normalize"
            | "refract"
            | "matrixCompMult"
            | "transpose"
            | "inverse"
            | "determinant"
            | "outerProduct"
    )
}

/// Lowers `module` in place.
pub fn run(module: &mut Module, model: Model, switches: &Switches) {
    let pass = Pass {
        model,
        switches: *switches,
    };
    let mut globals = std::mem::take(&mut module.globals);
    pass.block(&mut globals, module);
    module.globals = globals;
    for i in 0..module.functions.len() {
        let body = module.functions.get_mut(i).and_then(|f| f.body.take());
        if let Some(mut body) = body {
            pass.block(&mut body, module);
            if let Some(f) = module.functions.get_mut(i) {
                f.body = Some(body);
            }
        }
    }
}

struct Pass {
    model: Model,
    switches: Switches,
}

impl Pass {
    fn can_lower_type(&self, ty: &Type) -> bool {
        match ty.without_array() {
            Type::Numeric {
                base: BaseType::Bool,
                ..
            }
            | Type::Sampler { .. }
            | Type::Image { .. } => true,
            Type::Numeric {
                base: BaseType::Float,
                ..
            } => self.switches.float16,
            Type::Numeric {
                base: BaseType::Int | BaseType::Uint,
                ..
            } => self.switches.int16,
            _ => false,
        }
    }

    fn handle_precision(&self, ty: &Type, precision: Precision) -> State {
        if !self.can_lower_type(ty) {
            return State::Cant;
        }
        match precision {
            Precision::None => State::Unknown,
            Precision::High => State::Cant,
            Precision::Medium | Precision::Low => State::Should,
        }
    }

    fn block(&self, b: &mut [Stmt], m: &mut Module) {
        for stmt in b.iter_mut() {
            match stmt {
                Stmt::Assign { lhs, rhs, .. } => {
                    self.lvalue(lhs, m);
                    let lowered = self.root(rhs, m);
                    if let Some(var) = lhs.variable() {
                        let v = m.var_mut(var);
                        if v.mode == VarMode::Temporary && v.precision == Precision::None {
                            if lowered {
                                v.precision = Precision::Medium;
                            } else if rhs.constant().is_none() {
                                v.precision = Precision::High;
                            }
                        }
                    }
                }
                Stmt::If {
                    condition,
                    then,
                    otherwise,
                    ..
                } => {
                    self.root(condition, m);
                    self.block(then, m);
                    self.block(otherwise, m);
                }
                Stmt::Loop { body, .. } => self.block(body, m),
                Stmt::Return { value: Some(v), .. } => {
                    self.root(v, m);
                }
                Stmt::Call {
                    callee,
                    args,
                    result,
                    ..
                } => {
                    let params = m.function(*callee).params.clone();
                    for (arg, param) in args.iter_mut().zip(params) {
                        match m.var(param).mode {
                            VarMode::FunctionOut | VarMode::FunctionInOut => self.lvalue(arg, m),
                            _ => {
                                self.root(arg, m);
                            }
                        }
                    }
                    if let Some(r) = result {
                        self.lvalue(r, m);
                    }
                }
                Stmt::Intrinsic { args, .. } => {
                    for a in args {
                        self.root(a, m);
                    }
                }
                _ => {}
            }
        }
    }

    /// An lvalue is never lowered, but its array indices are trees of their own.
    fn lvalue(&self, e: &mut Expr, m: &mut Module) {
        match &mut e.kind {
            ExprKind::Index(base, index) => {
                self.lvalue(base, m);
                self.root(index, m);
            }
            ExprKind::Field(base, _) | ExprKind::Swizzle(base, _) => self.lvalue(base, m),
            _ => {}
        }
    }

    fn deref_precision(e: &Expr, m: &Module) -> Precision {
        match &e.kind {
            ExprKind::Var(v) => m.var(*v).precision,
            ExprKind::Index(base, _) if is_deref(base) => Self::deref_precision(base, m),
            _ => e.precision,
        }
    }

    /// The state of `e` (see the module comment).
    fn state(&self, e: &Expr, m: &Module) -> State {
        let combine = |mut s: State, child: State| {
            match child {
                State::Cant => s = State::Cant,
                State::Should if s == State::Unknown => s = State::Should,
                _ => {}
            }
            s
        };
        match &e.kind {
            ExprKind::Constant { .. } => {
                if !self.can_lower_type(&e.ty) {
                    State::Cant
                } else if self.model == Model::Spec && e.precision.is_lowerable() {
                    State::Should
                } else {
                    State::Unknown
                }
            }
            _ if is_deref(e) => self.handle_precision(&e.ty, Self::deref_precision(e, m)),
            ExprKind::Swizzle(base, _) => combine(State::Unknown, self.state(base, m)),
            // An element of a computed matrix or vector (`inverse(m)[0]`): in `spec` it has
            // the precision of the value it is taken from (its index is a tree of its own),
            // so `spec` lowers at least what `mesa` lowers inside it.
            ExprKind::Index(base, _) if self.model == Model::Spec => {
                combine(State::Unknown, self.state(base, m))
            }
            ExprKind::Texture(_) => self.handle_precision(&e.ty, e.precision),
            ExprKind::Intrinsic(name, args) if math_intrinsic(name) => {
                let start = if self.can_lower_type(&e.ty) {
                    State::Unknown
                } else {
                    State::Cant
                };
                let s = args.iter().fold(start, |s, a| combine(s, self.state(a, m)));
                self.spec_fallback(s, e)
            }
            ExprKind::Intrinsic(name, _) if name == "imageLoad" => {
                self.handle_precision(&e.ty, e.precision)
            }
            ExprKind::Intrinsic(..) => State::Cant,
            ExprKind::Op(op, operands) => {
                // A highp operation (a highp operand, or a built-in the spec makes highp).
                if fixed(*op) != Fixed::No || e.precision == Precision::High {
                    return self.handle_precision(&e.ty, e.precision);
                }
                let mut s = if self.can_lower_type(&e.ty) {
                    State::Unknown
                } else {
                    State::Cant
                };
                if op.is_derivative() && !self.switches.derivatives {
                    s = State::Cant;
                }
                // Mesa lowers a built-in call only when every non-constant argument is
                // lowerable (`handle_call`): `mix(x, y, b)` with a bool variable `b` (no
                // precision) is highp there, and so is its result. Measured on llvmpipe:
                // such a select and the operation that uses it stay binary32.
                if *op == Op::Csel && self.model == Model::Mesa {
                    if let Some(cond) = operands.first() {
                        if cond.constant().is_none() && self.state(cond, m) != State::Should {
                            return State::Cant;
                        }
                    }
                }
                let s = self
                    .precision_operands(*op, operands)
                    .fold(s, |s, o| combine(s, self.state(o, m)));
                self.spec_fallback(s, e)
            }
            _ => State::Unknown,
        }
    }

    /// The operands whose precision the operation takes. In `spec`, a selection's condition
    /// is not one: a bool has no precision, so `c ? a : b` has the precision of `a` and `b`
    /// (GLSL ES 3.00 4.5.2), and its condition is a tree of its own.
    fn precision_operands<'e>(&self, op: Op, operands: &'e [Expr]) -> std::slice::Iter<'e, Expr> {
        let condition = usize::from(op == Op::Csel && self.model == Model::Spec);
        operands.get(condition..).unwrap_or_default().iter()
    }

    fn spec_fallback(&self, s: State, e: &Expr) -> State {
        if s == State::Unknown && self.model == Model::Spec && e.precision.is_lowerable() {
            State::Should
        } else {
            s
        }
    }

    /// Handles `e` as the root of a tree; returns whether it was lowered.
    fn root(&self, e: &mut Expr, m: &mut Module) -> bool {
        let state = self.state(e, m);
        if state == State::Should && !is_deref(e) {
            self.lower(e, m);
            let bool_result = e.ty.base() == Some(BaseType::Bool);
            if !bool_result {
                let inner = std::mem::replace(e, placeholder());
                *e = convert(inner, true);
            }
            return true;
        }
        self.children_as_roots(e, m);
        false
    }

    /// Every sub-tree of `e` is a tree of its own (its parent is not lowered).
    fn children_as_roots(&self, e: &mut Expr, m: &mut Module) {
        match &mut e.kind {
            ExprKind::Op(_, operands) | ExprKind::Intrinsic(_, operands) => {
                for o in operands {
                    self.root(o, m);
                }
            }
            ExprKind::Swizzle(base, _) | ExprKind::Field(base, _) => {
                self.children_as_roots_or_root(base, m);
            }
            ExprKind::Index(base, index) => {
                self.children_as_roots_or_root(base, m);
                self.root(index, m);
            }
            ExprKind::Texture(t) => self.texture_args(t, m),
            ExprKind::Constant { .. } | ExprKind::Var(_) => {}
        }
    }

    fn children_as_roots_or_root(&self, base: &mut Expr, m: &mut Module) {
        if is_deref(base) {
            self.children_as_roots(base, m);
        } else {
            self.root(base, m);
        }
    }

    fn texture_args(&self, t: &mut crate::ir::Texture, m: &mut Module) {
        self.children_as_roots(&mut t.sampler, m);
        for e in [
            &mut t.coordinate,
            &mut t.projector,
            &mut t.shadow_comparator,
            &mut t.offset,
            &mut t.lod,
        ]
        .into_iter()
        .flatten()
        {
            self.root(e, m);
        }
        if let Some((dx, dy)) = &mut t.gradient {
            self.root(dx, m);
            self.root(dy, m);
        }
    }

    /// Rewrites a *should lower* tree to 16 bits (without the final conversion up).
    fn lower(&self, e: &mut Expr, m: &mut Module) {
        let leaf = is_deref(e)
            || matches!(&e.kind, ExprKind::Op(op, _) if fixed(*op) == Fixed::Leaf)
            || matches!(&e.kind, ExprKind::Intrinsic(n, _) if n == "imageLoad");
        if leaf {
            self.children_as_roots(e, m);
            if e.ty.base() != Some(BaseType::Bool) {
                let inner = std::mem::replace(e, placeholder());
                *e = convert(inner, false);
            }
            return;
        }
        match &mut e.kind {
            ExprKind::Texture(t) => self.texture_args(t, m),
            ExprKind::Swizzle(base, _) => self.lower(base, m),
            ExprKind::Index(base, index) if self.model == Model::Spec => {
                self.lower(base, m);
                self.root(index, m);
            }
            ExprKind::Op(op, operands) => {
                let lower_all = fixed(*op) == Fixed::Lowered;
                let own_condition = *op == Op::Csel && self.model == Model::Spec;
                for (k, o) in operands.iter_mut().enumerate() {
                    if own_condition && k == 0 && self.state(o, m) != State::Should {
                        self.root(o, m);
                    } else if lower_all && self.state(o, m) == State::Cant {
                        self.root(o, m);
                        let inner = std::mem::replace(o, placeholder());
                        *o = convert(inner, false);
                    } else {
                        self.lower(o, m);
                    }
                }
                *op = match *op {
                    Op::B2f => Op::B2f16,
                    Op::F2b => Op::F162b,
                    other => other,
                };
            }
            ExprKind::Intrinsic(_, args) => {
                for a in args {
                    self.lower(a, m);
                }
            }
            // A driver may fold the operation at the precision it lowers the constant to.
            ExprKind::Constant {
                folded: Some(operation),
                ..
            } => self.lower(operation, m),
            _ => {}
        }
        retype(e);
    }
}

/// Gives a 32-bit node its 16-bit type (constants get their values converted). A float
/// constant that binary16 does not hold keeps its binary32 self as `folded`: a driver may
/// convert it to either neighbour (NVIDIA gives 2049.0 as 2050, nearest-even 2048).
fn retype(e: &mut Expr) {
    let Some(new) = e.ty.base().and_then(BaseType::lowered) else {
        return;
    };
    let original =
        matches!(&e.kind, ExprKind::Constant { folded: None, .. }).then(|| Box::new(e.clone()));
    e.ty = e.ty.with_base(new);
    if let ExprKind::Constant { value, folded, .. } = &mut e.kind {
        let converted = lower_constant(value, new);
        if new.is_float() && converted != *value {
            *folded = folded.take().or(original);
        }
        *value = converted;
    }
}

/// A constant converted to 16-bit `base` the way Mesa does (float: binary32 to binary16,
/// nearest even; integers: low 16 bits).
pub(crate) fn lower_constant(value: &ConstValue, base: BaseType) -> ConstValue {
    value.convert(base)
}

/// Whether `e` is a dereference (a variable, a struct member, an array element or a matrix
/// column), which Mesa never lowers by itself.
pub(crate) fn is_deref(e: &Expr) -> bool {
    e.is_deref()
}
