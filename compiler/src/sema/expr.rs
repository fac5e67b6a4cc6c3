//! Expressions: names, literals, operators, assignments, `?:`, indexing, fields, swizzles
//! and `.length()`. Calls are in [`super::construct`] and [`super::builtins`].

use super::operators::{binary, op_node};
use super::{error, Analyzer, Result};
use crate::ast::{self, BinaryOp, ExprKind as A, UnaryOp};
use crate::ir::{
    full_mask, BaseType, ConstValue, Expr, ExprKind, Op, Precision, Scalar, Stmt, Type, VarMode,
};
use crate::span::Span;

/// A constant expression node.
pub(crate) fn constant(value: ConstValue, ty: Type, span: Span) -> Expr {
    Expr::new(
        ExprKind::Constant {
            value,
            literal: None,
            folded: None,
        },
        ty,
        Precision::None,
        span,
    )
}

/// An `int` constant.
pub(crate) fn int_const(v: i32, span: Span) -> Expr {
    constant(
        ConstValue::Components(vec![Scalar::Int(v)]),
        Type::int(),
        span,
    )
}

/// Components of a scalar or vector (1 for others).
fn component_count(ty: &Type) -> u8 {
    ty.vector_size().max(1)
}

impl Analyzer<'_> {
    /// Analyses an rvalue expression; side effects are appended to `self.out`.
    pub(crate) fn expr(&mut self, e: &ast::Expr) -> Result<Expr> {
        let span = e.span;
        match &e.kind {
            A::Ident(id) => self.ident(id),
            A::Int(lit) => Ok(if lit.unsigned {
                constant(
                    ConstValue::Components(vec![Scalar::Uint(lit.bits)]),
                    Type::uint(),
                    span,
                )
            } else {
                int_const(lit.bits as i32, span)
            }),
            A::Float(lit) => Ok(Expr::new(
                ExprKind::Constant {
                    value: ConstValue::Components(vec![Scalar::Float(lit.value as f32)]),
                    literal: Some(lit.text.to_string()),
                    folded: None,
                },
                Type::float(),
                Precision::None,
                span,
            )),
            A::Bool(b) => Ok(constant(
                ConstValue::Components(vec![Scalar::Bool(*b)]),
                Type::bool(),
                span,
            )),
            A::Unary(op, operand) => self.unary(*op, operand, span),
            A::Binary(op, operands) => {
                let [a, b] = &**operands;
                self.binary_expr(*op, a, b, span)
            }
            A::Assign(op, operands) => {
                let [lhs, rhs] = &**operands;
                self.assign(*op, lhs, rhs, span)
            }
            A::Ternary(operands) => {
                let [c, a, b] = &**operands;
                self.ternary(c, a, b, span)
            }
            A::Sequence(items) => {
                let mut last = None;
                for item in items {
                    last = Some(self.expr(item)?);
                }
                match last {
                    Some(l) => Ok(l),
                    None => error(span, "expected an expression"),
                }
            }
            A::Call(callee, args) => self.call(callee, args, span),
            A::Index(operands) => {
                let [base, index] = &**operands;
                let base = self.expr(base)?;
                let index = self.expr(index)?;
                self.index(base, index, span)
            }
            A::Field(base, field) => {
                let base = self.expr(base)?;
                self.field(base, field)
            }
            A::Length(base) => {
                let base = self.expr(base)?;
                let n = match &base.ty {
                    Type::Array { size, .. } => *size,
                    Type::Numeric { columns, .. } if *columns > 1 => u32::from(*columns),
                    Type::Numeric { rows, .. } if *rows > 1 => u32::from(*rows),
                    other => {
                        return error(
                            span,
                            format!(
                                "expected an array, vector or matrix before '.length()', \
                                 found '{}'",
                                other.name()
                            ),
                        )
                    }
                };
                Ok(int_const(i32::try_from(n).unwrap_or(i32::MAX), span))
            }
        }
    }

    fn ident(&mut self, id: &ast::Ident) -> Result<Expr> {
        let Some(var) = self.scopes.var(&id.name) else {
            return error(id.span, format!("undeclared identifier '{}'", id.name));
        };
        let v = self.module.var(var);
        if let Some(value) = &v.constant_value {
            let mut c = constant(value.clone(), v.ty.clone(), id.span);
            c.precision = v.precision;
            return Ok(c);
        }
        Ok(self.var_ref(var, id.span))
    }

    fn unary(&mut self, op: UnaryOp, operand: &ast::Expr, span: Span) -> Result<Expr> {
        match op {
            UnaryOp::PreIncrement
            | UnaryOp::PreDecrement
            | UnaryOp::PostIncrement
            | UnaryOp::PostDecrement => return self.increment(op, operand, span),
            _ => {}
        }
        let x = self.expr(operand)?;
        let base = x.ty.base();
        match op {
            UnaryOp::Plus if base.is_some_and(|b| b != BaseType::Bool) => Ok(x),
            UnaryOp::Negate if base.is_some_and(|b| b != BaseType::Bool) => {
                let ty = x.ty.clone();
                Ok(op_node(Op::Neg, ty, vec![x], span))
            }
            UnaryOp::Not if x.ty == Type::bool() => {
                Ok(op_node(Op::LogicNot, Type::bool(), vec![x], span))
            }
            UnaryOp::BitNot if base.is_some_and(BaseType::is_integer) && !x.ty.is_matrix() => {
                let ty = x.ty.clone();
                Ok(op_node(Op::BitNot, ty, vec![x], span))
            }
            _ => error(
                span,
                format!(
                    "expected an operand of a suitable type, found '{}'",
                    x.ty.name()
                ),
            ),
        }
    }

    fn increment(&mut self, op: UnaryOp, operand: &ast::Expr, span: Span) -> Result<Expr> {
        let (lhs, mask) = self.lvalue(operand)?;
        let value = self.read_lvalue(&lhs, &mask);
        let Some(base) = value.ty.base().filter(|b| *b != BaseType::Bool) else {
            return error(span, "expected a numeric operand for '++' or '--'");
        };
        let one = constant(
            ConstValue::Components(vec![Scalar::Int(1)]).convert(base),
            Type::scalar(base),
            span,
        );
        let bop = match op {
            UnaryOp::PreIncrement | UnaryOp::PostIncrement => BinaryOp::Add,
            _ => BinaryOp::Sub,
        };
        let post = matches!(op, UnaryOp::PostIncrement | UnaryOp::PostDecrement);
        let old = if post {
            let t = self.temp("compiler_temp", value.ty.clone(), value.precision, span);
            let r = self.var_ref(t, span);
            self.out.push(Stmt::Assign {
                lhs: r.clone(),
                write_mask: full_mask(&r.ty),
                rhs: value.clone(),
                span,
            });
            Some(r)
        } else {
            None
        };
        let new = binary(bop, value, one, span)?;
        self.store(lhs.clone(), mask.clone(), new, span);
        Ok(match old {
            Some(o) => o,
            None => self.read_lvalue(&lhs, &mask),
        })
    }

    fn binary_expr(
        &mut self,
        op: BinaryOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> Result<Expr> {
        if op == BinaryOp::Mod && self.version() == crate::Version::Es100 {
            return error(span, "'%' is reserved in GLSL ES 1.00");
        }
        let a = self.expr(a)?;
        if matches!(op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr) {
            let (b, effects) = self.capture(|s| s.expr(b))?;
            if !effects.is_empty() {
                return self.short_circuit(op, a, b, effects, span);
            }
            return binary(op, a, b, span);
        }
        let b = self.expr(b)?;
        binary(op, a, b, span)
    }

    /// `a && b` / `a || b` where `b` has side effects: `b` runs only when needed.
    fn short_circuit(
        &mut self,
        op: BinaryOp,
        a: Expr,
        b: Expr,
        effects: Vec<Stmt>,
        span: Span,
    ) -> Result<Expr> {
        if a.ty != Type::bool() || b.ty != Type::bool() {
            return error(span, "expected bool operands");
        }
        let t = self.temp("and_tmp", Type::bool(), Precision::None, span);
        let r = self.var_ref(t, span);
        let mut then = effects;
        then.push(Stmt::Assign {
            lhs: r.clone(),
            write_mask: 1,
            rhs: b,
            span,
        });
        let other = vec![Stmt::Assign {
            lhs: r.clone(),
            write_mask: 1,
            rhs: constant(
                ConstValue::Components(vec![Scalar::Bool(op == BinaryOp::LogicalOr)]),
                Type::bool(),
                span,
            ),
            span,
        }];
        let (then, otherwise) = if op == BinaryOp::LogicalAnd {
            (then, other)
        } else {
            (other, then)
        };
        self.out.push(Stmt::If {
            condition: a,
            then,
            otherwise,
            span,
        });
        Ok(r)
    }

    fn assign(
        &mut self,
        op: Option<BinaryOp>,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
    ) -> Result<Expr> {
        if op == Some(BinaryOp::Mod) && self.version() == crate::Version::Es100 {
            return error(span, "'%=' is reserved in GLSL ES 1.00");
        }
        let rhs = self.expr(rhs)?;
        let (target, mask) = self.lvalue(lhs)?;
        if target.ty.is_array() && self.version() == crate::Version::Es100 {
            return error(span, "GLSL ES 1.00 does not allow assigning whole arrays");
        }
        let value = match op {
            None => rhs,
            Some(op) => {
                let current = self.read_lvalue(&target, &mask);
                binary(op, current, rhs, span)?
            }
        };
        let expected = self.read_lvalue(&target, &mask).ty;
        if value.ty != expected {
            return error(
                span,
                format!(
                    "expected a value of type '{}' to assign, found '{}'",
                    self.module.type_name(&expected),
                    self.module.type_name(&value.ty)
                ),
            );
        }
        self.store(target.clone(), mask.clone(), value, span);
        Ok(self.read_lvalue(&target, &mask))
    }

    /// Emits `target.mask = value`, lending the target's precision in the spec model.
    pub(crate) fn store(
        &mut self,
        target: Expr,
        mask: Option<Vec<u8>>,
        mut value: Expr,
        span: Span,
    ) {
        self.lend_consumer(&mut value, target.precision);
        let (write_mask, rhs) = match mask {
            None => (full_mask(&target.ty), value),
            Some(comps) => {
                let mut write_mask = 0u8;
                for &c in &comps {
                    write_mask |= 1 << c;
                }
                // Components of the rhs, in the order of the set bits.
                let order: Vec<u8> = (0..4u8)
                    .filter(|b| write_mask & (1 << b) != 0)
                    .filter_map(|b| comps.iter().position(|&c| c == b))
                    .filter_map(|i| u8::try_from(i).ok())
                    .collect();
                let identity = order.iter().enumerate().all(|(i, &o)| usize::from(o) == i)
                    && order.len() == usize::from(component_count(&value.ty));
                let rhs = if identity {
                    value
                } else {
                    let ty = Type::vector(
                        value.ty.base().unwrap_or(BaseType::Float),
                        order.len() as u8,
                    );
                    let precision = value.precision;
                    Expr::new(
                        ExprKind::Swizzle(Box::new(value), order),
                        ty,
                        precision,
                        span,
                    )
                };
                (write_mask, rhs)
            }
        };
        self.out.push(Stmt::Assign {
            lhs: target,
            write_mask,
            rhs,
            span,
        });
    }

    /// The value an lvalue holds (through its swizzle).
    pub(crate) fn read_lvalue(&self, target: &Expr, mask: &Option<Vec<u8>>) -> Expr {
        match mask {
            None => target.clone(),
            Some(comps) => {
                let base = target.ty.base().unwrap_or(BaseType::Float);
                let ty = Type::vector(base, comps.len() as u8);
                Expr::new(
                    ExprKind::Swizzle(Box::new(target.clone()), comps.clone()),
                    ty,
                    target.precision,
                    target.span,
                )
            }
        }
    }

    /// Analyses an lvalue: the dereference written, and the components when a swizzle
    /// selects some.
    pub(crate) fn lvalue(&mut self, e: &ast::Expr) -> Result<(Expr, Option<Vec<u8>>)> {
        match &e.kind {
            A::Ident(id) => {
                let Some(var) = self.scopes.var(&id.name) else {
                    return error(id.span, format!("undeclared identifier '{}'", id.name));
                };
                let v = self.module.var(var);
                let read_only = v.constant_value.is_some()
                    || matches!(
                        v.mode,
                        VarMode::Uniform
                            | VarMode::ShaderIn
                            | VarMode::SystemValue
                            | VarMode::ConstIn
                    );
                if read_only {
                    return error(
                        id.span,
                        format!(
                            "expected an assignable variable, '{}' is read-only",
                            id.name
                        ),
                    );
                }
                Ok((self.var_ref(var, id.span), None))
            }
            A::Index(operands) => {
                let [base, index] = &**operands;
                let (base, mask) = self.lvalue(base)?;
                if mask.is_some() {
                    return error(e.span, "cannot index a swizzle in an lvalue");
                }
                let index = self.expr(index)?;
                if base.ty.is_vector() {
                    if let Some(c) = index
                        .constant()
                        .and_then(|c| c.components().first().copied())
                    {
                        let i = c.to_f64() as i64;
                        if i < 0 || i >= i64::from(base.ty.vector_size()) {
                            return error(e.span, format!("vector index {i} out of range"));
                        }
                        return Ok((base, Some(vec![i as u8])));
                    }
                }
                Ok((self.index(base, index, e.span)?, None))
            }
            A::Field(base, field) => {
                let (base, mask) = self.lvalue(base)?;
                match (&base.ty, mask) {
                    (Type::Struct(_), None) => Ok((self.field(base, field)?, None)),
                    (ty, mask) if ty.is_vector() || ty.is_scalar() => {
                        let comps = swizzle_components(&field.name, component_count(ty))
                            .ok_or_else(|| bad_swizzle(field))?;
                        let comps = match mask {
                            Some(outer) => comps
                                .iter()
                                .map(|&c| outer.get(usize::from(c)).copied())
                                .collect::<Option<Vec<u8>>>()
                                .ok_or_else(|| bad_swizzle(field))?,
                            None => comps,
                        };
                        let mut seen = 0u8;
                        for &c in &comps {
                            if seen & (1 << c) != 0 {
                                return error(
                                    field.span,
                                    format!(
                                        "swizzle '{}' repeats a component in an lvalue",
                                        field.name
                                    ),
                                );
                            }
                            seen |= 1 << c;
                        }
                        Ok((base, Some(comps)))
                    }
                    _ => error(field.span, format!("no field '{}' here", field.name)),
                }
            }
            _ => error(
                e.span,
                "expected an lvalue (a variable, element, field or swizzle)",
            ),
        }
    }

    fn ternary(&mut self, c: &ast::Expr, a: &ast::Expr, b: &ast::Expr, span: Span) -> Result<Expr> {
        let c = self.expr(c)?;
        if c.ty != Type::bool() {
            return error(
                span,
                format!(
                    "expected a bool condition for '?:', found '{}'",
                    c.ty.name()
                ),
            );
        }
        let (a, ea) = self.capture(|s| s.expr(a))?;
        let (b, eb) = self.capture(|s| s.expr(b))?;
        if a.ty != b.ty {
            return error(
                span,
                format!(
                    "expected both branches of '?:' to have one type, found '{}' and '{}'",
                    a.ty.name(),
                    b.ty.name()
                ),
            );
        }
        let ty = a.ty.clone();
        if ea.is_empty() && eb.is_empty() && matches!(ty, Type::Numeric { .. }) && !ty.is_matrix() {
            let cond = if ty.is_scalar() {
                c
            } else {
                let n = ty.vector_size();
                let precision = c.precision;
                Expr::new(
                    ExprKind::Swizzle(Box::new(c), vec![0; usize::from(n)]),
                    Type::vector(BaseType::Bool, n),
                    precision,
                    span,
                )
            };
            let precision = super::precision::combine([a.precision, b.precision]);
            let mut e = op_node(Op::Csel, ty, vec![cond, a, b], span);
            if !matches!(e.kind, ExprKind::Constant { .. }) {
                e.precision = precision;
            }
            return Ok(e);
        }
        let precision = super::precision::combine([a.precision, b.precision]);
        let t = self.temp("conditional_tmp", ty.clone(), precision, span);
        let r = self.var_ref(t, span);
        let mut then = ea;
        then.push(Stmt::Assign {
            lhs: r.clone(),
            write_mask: full_mask(&ty),
            rhs: a,
            span,
        });
        let mut otherwise = eb;
        otherwise.push(Stmt::Assign {
            lhs: r.clone(),
            write_mask: full_mask(&ty),
            rhs: b,
            span,
        });
        self.out.push(Stmt::If {
            condition: c,
            then,
            otherwise,
            span,
        });
        Ok(r)
    }

    /// `base[index]` on an array, matrix or vector.
    pub(crate) fn index(&mut self, base: Expr, index: Expr, span: Span) -> Result<Expr> {
        if !(index.ty.is_scalar()
            && index
                .ty
                .base()
                .is_some_and(|b| matches!(b, BaseType::Int | BaseType::Uint)))
        {
            return error(
                index.span,
                format!("expected an int or uint index, found '{}'", index.ty.name()),
            );
        }
        if let ExprKind::Var(id) = &base.kind {
            if self.uniform_block_arrays.contains(id)
                && index.constant().is_none()
                && self.version() < crate::Version::Es320
                && !self.extension("GL_EXT_gpu_shader5")
                && !self.extension("GL_OES_gpu_shader5")
            {
                return error(
                    index.span,
                    format!(
                        "expected a constant integral expression to index uniform block array \
                         '{}'",
                        self.module.var(*id).name
                    ),
                );
            }
        }
        let Some(element) = base.ty.element() else {
            return error(
                span,
                format!(
                    "expected an array, matrix or vector to index, found '{}'",
                    self.module.type_name(&base.ty)
                ),
            );
        };
        let bound = match &base.ty {
            Type::Array { size, .. } => *size,
            Type::Numeric { columns, .. } if *columns > 1 => u32::from(*columns),
            t => u32::from(t.vector_size()),
        };
        if let Some(c) = index
            .constant()
            .and_then(|c| c.components().first().copied())
        {
            let i = c.to_f64() as i64;
            if i < 0 || (bound > 0 && i >= i64::from(bound)) {
                return error(
                    index.span,
                    format!("index {i} out of range for a size of {bound}"),
                );
            }
            if let Some(ConstValue::Composite(items)) = base.constant() {
                if let Some(v) = items.get(i as usize) {
                    return Ok(constant(v.clone(), element, span));
                }
            }
            if base.ty.is_vector() {
                let precision = base.precision;
                return Ok(Expr::new(
                    ExprKind::Swizzle(Box::new(base), vec![i as u8]),
                    element,
                    precision,
                    span,
                ));
            }
        }
        let precision = base.precision;
        Ok(Expr::new(
            ExprKind::Index(Box::new(base), Box::new(index)),
            element,
            precision,
            span,
        ))
    }

    /// `base.name`: a struct member or a swizzle.
    pub(crate) fn field(&mut self, base: Expr, field: &ast::Ident) -> Result<Expr> {
        if let Type::Struct(id) = &base.ty {
            let st = self.module.struct_type(*id);
            let Some((i, m)) = st
                .members
                .iter()
                .enumerate()
                .find(|(_, m)| m.name == field.name)
            else {
                return error(
                    field.span,
                    format!(
                        "expected a member of struct '{}', found '{}'",
                        st.name, field.name
                    ),
                );
            };
            let (ty, precision) = (m.ty.clone(), m.precision);
            if let Some(ConstValue::Composite(items)) = base.constant() {
                if let Some(v) = items.get(i) {
                    return Ok(constant(v.clone(), ty, field.span));
                }
            }
            return Ok(Expr::new(
                ExprKind::Field(Box::new(base), i as u32),
                ty,
                precision,
                field.span,
            ));
        }
        if base.ty.is_vector() || base.ty.is_scalar() {
            let comps = swizzle_components(&field.name, component_count(&base.ty))
                .ok_or_else(|| bad_swizzle(field))?;
            let ty = Type::vector(base.ty.base().unwrap_or(BaseType::Float), comps.len() as u8);
            let precision = base.precision;
            return Ok(crate::ir::fold::fold(Expr::new(
                ExprKind::Swizzle(Box::new(base), comps),
                ty,
                precision,
                field.span,
            )));
        }
        error(
            field.span,
            format!(
                "expected a struct or vector before '.{}', found '{}'",
                field.name,
                self.module.type_name(&base.ty)
            ),
        )
    }
}

fn bad_swizzle(field: &ast::Ident) -> super::SemaError {
    super::SemaError {
        message: format!("invalid swizzle or field '{}'", field.name),
        span: field.span,
    }
}

/// The component indices of a swizzle (`xyzw`, `rgba` or `stpq`, one set, at most 4, each
/// below `size`).
fn swizzle_components(name: &str, size: u8) -> Option<Vec<u8>> {
    const SETS: [&str; 3] = ["xyzw", "rgba", "stpq"];
    if name.is_empty() || name.len() > 4 {
        return None;
    }
    let first = name.chars().next()?;
    let set = SETS.iter().find(|s| s.contains(first))?;
    name.chars()
        .map(|c| {
            set.find(c)
                .and_then(|i| u8::try_from(i).ok())
                .filter(|&i| i < size)
        })
        .collect()
}
