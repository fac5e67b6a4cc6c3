//! Lowering of mediump and lowp variables to 16-bit types, after the second half of Mesa's
//! `lower_precision` (`lower_variables_visitor`).
//!
//! The rule: lowering operations alone leaves 32-bit temporaries between blocks (loops,
//! `if`, `?:`), so mediump/lowp locals and compiler temporaries (and, with the
//! `float16_uniforms` switch, default-block float uniforms) get 16-bit types. Their reads
//! inside 16-bit trees lose their `f2fmp`, reads in 32-bit places get an `f162f`, and
//! writes of 32-bit values get an `f2fmp` (or lose a redundant `f162f`). Arrays are
//! converted element by element through a temporary (`lowerp`), as are `out` arguments
//! and call results whose function stays 32-bit.

use std::collections::HashSet;

use super::Switches;
use crate::ir::build::{convert, placeholder, up_op};
use crate::ir::{
    BaseType, Block, Expr, ExprKind, Module, Op, Precision, Stmt, Type, VarId, VarMode, Variable,
};

/// Lowers the variables of `module` in place.
pub fn run(module: &mut Module, switches: &Switches) {
    let mut lowered = HashSet::new();
    for (i, var) in module.variables.iter_mut().enumerate() {
        if should_lower(var, switches) {
            if let Some(new) = var.ty.base().and_then(BaseType::lowered) {
                var.ty = var.ty.with_base(new);
                if let Some(c) = &var.constant_value {
                    var.constant_value = Some(c.convert(new));
                }
                lowered.insert(VarId(i as u32));
            }
        }
    }
    if lowered.is_empty() {
        return;
    }
    let pass = Pass { lowered };
    let mut globals = std::mem::take(&mut module.globals);
    globals = pass.block(globals, module);
    module.globals = globals;
    for i in 0..module.functions.len() {
        let body = module.functions.get_mut(i).and_then(|f| f.body.take());
        if let Some(body) = body {
            let body = pass.block(body, module);
            if let Some(f) = module.functions.get_mut(i) {
                f.body = Some(body);
            }
        }
    }
}

fn should_lower(var: &Variable, switches: &Switches) -> bool {
    let base = var.ty.base();
    let mode_ok = match var.mode {
        VarMode::Temporary | VarMode::Auto => !var.builtin,
        VarMode::Uniform => {
            switches.float16_uniforms
                && base == Some(BaseType::Float)
                && !matches!(var.ty.without_array(), Type::Struct(_))
        }
        _ => false,
    };
    let type_ok = match base {
        Some(BaseType::Float) => switches.float16,
        Some(BaseType::Int | BaseType::Uint) => switches.int16,
        _ => false,
    };
    mode_ok
        && type_ok
        && matches!(var.ty.without_array(), Type::Numeric { .. })
        && var.precision.is_lowerable()
        && (var.constant_value.is_none() || switches.constants)
}

struct Pass {
    lowered: HashSet<VarId>,
}

fn is_16(ty: &Type) -> bool {
    ty.base().is_some_and(|b| b.bit_size() == 16)
}

fn is_32(ty: &Type) -> bool {
    ty.base().is_some_and(|b| b.bit_size() == 32)
}

impl Pass {
    fn is_lowered_deref(&self, e: &Expr) -> bool {
        e.is_deref() && e.variable().is_some_and(|v| self.lowered.contains(&v))
    }

    /// Gives every node of a dereference chain of a lowered variable its 16-bit type and
    /// fixes the index expressions inside it.
    fn fix_deref(&self, e: &mut Expr, m: &mut Module, pre: &mut Block) {
        match &mut e.kind {
            ExprKind::Index(base, index) => {
                self.fix_deref(base, m, pre);
                let idx = std::mem::replace(&mut **index, placeholder());
                **index = self.rvalue(idx, m, pre);
            }
            ExprKind::Field(base, _) | ExprKind::Swizzle(base, _) => self.fix_deref(base, m, pre),
            _ => {}
        }
        if e.variable().is_some_and(|v| self.lowered.contains(&v))
            && is_32(&e.ty)
            && !matches!(e.ty.without_array(), Type::Struct(_))
        {
            if let Some(new) = e.ty.base().and_then(BaseType::lowered) {
                e.ty = e.ty.with_base(new);
            }
        }
    }

    /// Fixes an rvalue: reads of lowered variables become 16-bit, converted up where a
    /// 32-bit value is wanted; `f2fmp` of such a read disappears.
    fn rvalue(&self, e: Expr, m: &mut Module, pre: &mut Block) -> Expr {
        let mut e = e;
        if let ExprKind::Op(op, operands) = &mut e.kind {
            let is_down = matches!(op, Op::F2fmp | Op::I2imp | Op::U2ump | Op::F2f16);
            if let [inner] = operands.as_mut_slice() {
                if is_down && self.is_lowered_deref(inner) && !inner.ty.is_array() {
                    let mut d = std::mem::replace(inner, placeholder());
                    self.fix_deref(&mut d, m, pre);
                    return d;
                }
            }
        }
        if self.is_lowered_deref(&e) {
            self.fix_deref(&mut e, m, pre);
            if e.ty.is_array() {
                return self.array_up(e, m, pre);
            }
            return convert(e, true);
        }
        match &mut e.kind {
            ExprKind::Op(_, operands) | ExprKind::Intrinsic(_, operands) => {
                for o in operands.iter_mut() {
                    let x = std::mem::replace(o, placeholder());
                    *o = self.rvalue(x, m, pre);
                }
            }
            ExprKind::Swizzle(base, _) | ExprKind::Field(base, _) => {
                let x = std::mem::replace(&mut **base, placeholder());
                **base = self.rvalue(x, m, pre);
            }
            ExprKind::Index(base, index) => {
                let x = std::mem::replace(&mut **base, placeholder());
                **base = if x.is_deref() {
                    self.fixed_in_place(x, m, pre)
                } else {
                    self.rvalue(x, m, pre)
                };
                let i = std::mem::replace(&mut **index, placeholder());
                **index = self.rvalue(i, m, pre);
            }
            ExprKind::Texture(t) => {
                for slot in [
                    &mut t.coordinate,
                    &mut t.projector,
                    &mut t.shadow_comparator,
                    &mut t.offset,
                    &mut t.lod,
                ] {
                    if let Some(x) = slot.take() {
                        *slot = Some(self.rvalue(x, m, pre));
                    }
                }
                if let Some((dx, dy)) = t.gradient.take() {
                    t.gradient = Some((self.rvalue(dx, m, pre), self.rvalue(dy, m, pre)));
                }
            }
            ExprKind::Constant { .. } | ExprKind::Var(_) => {}
        }
        e
    }

    /// A dereference of a non-lowered variable: only its indices need fixing.
    fn fixed_in_place(&self, mut e: Expr, m: &mut Module, pre: &mut Block) -> Expr {
        self.fix_deref(&mut e, m, pre);
        e
    }

    /// A 32-bit copy (`lowerp`) of a lowered array, converted element by element.
    fn array_up(&self, e: Expr, m: &mut Module, pre: &mut Block) -> Expr {
        let ty = e.ty.with_base(
            e.ty.base()
                .and_then(BaseType::widened)
                .unwrap_or(BaseType::Float),
        );
        let t = temp(m, ty, e.span, pre);
        split_assign(var_ref(m, t, e.span), e, true, pre);
        var_ref(m, t, placeholder().span)
    }

    fn block(&self, b: Block, m: &mut Module) -> Block {
        let mut out = Vec::with_capacity(b.len());
        for stmt in b {
            let mut pre = Vec::new();
            let mut post = Vec::new();
            let stmt = match stmt {
                Stmt::Assign {
                    lhs,
                    write_mask,
                    rhs,
                    span,
                } => self.assign(lhs, write_mask, rhs, span, m, &mut pre),
                Stmt::If {
                    condition,
                    then,
                    otherwise,
                    span,
                } => Some(Stmt::If {
                    condition: self.rvalue(condition, m, &mut pre),
                    then: self.block(then, m),
                    otherwise: self.block(otherwise, m),
                    span,
                }),
                Stmt::Loop { body, span } => Some(Stmt::Loop {
                    body: self.block(body, m),
                    span,
                }),
                Stmt::Return {
                    value: Some(v),
                    span,
                } => Some(Stmt::Return {
                    value: Some(self.rvalue(v, m, &mut pre)),
                    span,
                }),
                Stmt::Call {
                    callee,
                    args,
                    result,
                    span,
                } => Some(self.call(callee, args, result, span, m, &mut pre, &mut post)),
                Stmt::Intrinsic { name, args, span } => Some(Stmt::Intrinsic {
                    name,
                    args: args
                        .into_iter()
                        .map(|a| self.rvalue(a, m, &mut pre))
                        .collect(),
                    span,
                }),
                other => Some(other),
            };
            out.extend(pre);
            out.extend(stmt);
            out.extend(post);
        }
        out
    }

    fn assign(
        &self,
        mut lhs: Expr,
        write_mask: u8,
        rhs: Expr,
        span: crate::Span,
        m: &mut Module,
        pre: &mut Block,
    ) -> Option<Stmt> {
        let lhs_lowered = self.is_lowered_deref(&lhs);
        let rhs_lowered_array = rhs.ty.is_array() && self.is_lowered_deref(&rhs);
        if lhs.ty.is_array()
            && (lhs_lowered != rhs_lowered_array
                || (lhs_lowered && rhs.constant().is_some() && is_32(&rhs.ty)))
        {
            self.fix_deref(&mut lhs, m, pre);
            let mut rhs = rhs;
            if rhs.is_deref() {
                self.fix_deref(&mut rhs, m, pre);
            } else {
                rhs = self.rvalue(rhs, m, pre);
            }
            split_assign(lhs, rhs, !lhs_lowered, pre);
            return None;
        }
        self.fix_deref(&mut lhs, m, pre);
        let mut rhs = if rhs.ty.is_array() && rhs.is_deref() {
            let mut r = rhs;
            self.fix_deref(&mut r, m, pre);
            r
        } else {
            self.rvalue(rhs, m, pre)
        };
        if lhs_lowered && is_32(&rhs.ty) && !rhs.ty.is_array() {
            rhs = match rhs.kind {
                ExprKind::Op(op, mut operands)
                    if up_op_of(op)
                        && operands.len() == 1
                        && operands.first().is_some_and(|o| is_16(&o.ty)) =>
                {
                    operands.pop().unwrap_or_else(placeholder)
                }
                kind => convert(Expr { kind, ..rhs }, false),
            };
        }
        Some(Stmt::Assign {
            lhs,
            write_mask,
            rhs,
            span,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn call(
        &self,
        callee: crate::ir::FuncId,
        args: Vec<Expr>,
        result: Option<Expr>,
        span: crate::Span,
        m: &mut Module,
        pre: &mut Block,
        post: &mut Block,
    ) -> Stmt {
        let params = m.function(callee).params.clone();
        let mut new_args = Vec::with_capacity(args.len());
        for (arg, param) in args.into_iter().zip(params) {
            let (mode, pty) = (m.var(param).mode, m.var(param).ty.clone());
            let is_out = matches!(mode, VarMode::FunctionOut | VarMode::FunctionInOut);
            if self.is_lowered_deref(&arg) && is_32(&pty) && (is_out || arg.ty.is_array()) {
                let mut d = arg;
                self.fix_deref(&mut d, m, pre);
                let t = temp(m, pty, span, pre);
                if mode != VarMode::FunctionOut {
                    split_assign(var_ref(m, t, span), d.clone(), true, pre);
                }
                if is_out {
                    split_assign(d, var_ref(m, t, span), false, post);
                }
                new_args.push(var_ref(m, t, span));
            } else if is_out {
                let mut d = arg;
                self.fix_deref(&mut d, m, pre);
                new_args.push(d);
            } else {
                new_args.push(self.rvalue(arg, m, pre));
            }
        }
        let result = result.map(|r| {
            if self.is_lowered_deref(&r) {
                let mut d = r;
                self.fix_deref(&mut d, m, pre);
                let rty = m.function(callee).return_type.clone();
                let t = temp(m, rty, span, pre);
                split_assign(d, var_ref(m, t, span), false, post);
                var_ref(m, t, span)
            } else {
                r
            }
        });
        Stmt::Call {
            callee,
            args: new_args,
            result,
            span,
        }
    }
}

fn up_op_of(op: Op) -> bool {
    [BaseType::Float16, BaseType::Int16, BaseType::Uint16]
        .iter()
        .any(|b| up_op(*b) == Some(op))
}

fn temp(m: &mut Module, ty: Type, span: crate::Span, pre: &mut Block) -> VarId {
    let id = m.add_var(Variable {
        name: "lowerp".to_owned(),
        ty,
        mode: VarMode::Temporary,
        declared_precision: None,
        precision: Precision::None,
        constant_value: None,
        builtin: false,
        flat: false,
        location: None,
        span,
    });
    pre.push(Stmt::Declare(id));
    id
}

fn var_ref(m: &Module, id: VarId, span: crate::Span) -> Expr {
    let v = m.var(id);
    Expr::new(ExprKind::Var(id), v.ty.clone(), v.precision, span)
}

/// `lhs = rhs` between a 16-bit and a 32-bit value, element by element for arrays;
/// `up` converts 16 to 32 bits.
fn split_assign(lhs: Expr, rhs: Expr, up: bool, out: &mut Block) {
    if let Type::Array { element, size } = &lhs.ty {
        for i in 0..*size {
            let idx = || crate::ir::build::index_const(i);
            let l = Expr::new(
                ExprKind::Index(Box::new(lhs.clone()), Box::new(idx())),
                (**element).clone(),
                lhs.precision,
                lhs.span,
            );
            let r_el = rhs.ty.element().unwrap_or_else(|| (**element).clone());
            let r = match rhs.constant() {
                Some(crate::ir::ConstValue::Composite(items)) => Expr::new(
                    ExprKind::Constant {
                        value: items
                            .get(i as usize)
                            .cloned()
                            .unwrap_or(crate::ir::ConstValue::Composite(Vec::new())),
                        literal: None,
                        folded: None,
                    },
                    r_el,
                    rhs.precision,
                    rhs.span,
                ),
                _ => Expr::new(
                    ExprKind::Index(Box::new(rhs.clone()), Box::new(idx())),
                    r_el,
                    rhs.precision,
                    rhs.span,
                ),
            };
            split_assign(l, r, up, out);
        }
        return;
    }
    let write_mask = crate::ir::full_mask(&lhs.ty);
    let span = lhs.span;
    let rhs = if is_16(&lhs.ty) == is_16(&rhs.ty) {
        rhs
    } else {
        convert(rhs, up)
    };
    out.push(Stmt::Assign {
        lhs,
        write_mask,
        rhs,
        span,
    });
}
