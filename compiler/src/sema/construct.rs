//! Calls: constructors (scalars, vectors, matrices, structs, arrays), user functions with
//! overload resolution by exact parameter types, and the hand-off to built-ins.
//!
//! A constructor of constants is folded to a constant. Otherwise, like Mesa, a vector,
//! matrix, struct or array constructor fills a temporary (`vec_ctor`, `mat_ctor`, ...) one
//! argument at a time; a one-scalar vector constructor is a swizzle (`(swiz xxxx a)`).

use super::expr::{constant, int_const};
use super::operators::convert;
use super::precision::combine;
use super::{error, Analyzer, Result};
use crate::ast::{self, Callee};
use crate::ir::full_mask;
use crate::ir::{BaseType, ConstValue, Expr, ExprKind, Precision, Scalar, Stmt, Type, VarMode};
use crate::span::Span;

/// The scalar components of `value` as expressions (swizzles, columns of matrices).
fn components(value: &Expr, span: Span) -> Vec<Expr> {
    let base = value.ty.base().unwrap_or(BaseType::Float);
    let scalar = Type::scalar(base);
    let swiz = |v: &Expr, i: u8| {
        crate::ir::fold::fold(Expr::new(
            ExprKind::Swizzle(Box::new(v.clone()), vec![i]),
            scalar.clone(),
            v.precision,
            span,
        ))
    };
    match &value.ty {
        t if t.is_scalar() => vec![value.clone()],
        t if t.is_vector() => (0..t.vector_size()).map(|i| swiz(value, i)).collect(),
        Type::Numeric { rows, columns, .. } => {
            let mut out = Vec::new();
            for c in 0..*columns {
                let column = Expr::new(
                    ExprKind::Index(
                        Box::new(value.clone()),
                        Box::new(int_const(i32::from(c), span)),
                    ),
                    Type::vector(base, *rows),
                    value.precision,
                    span,
                );
                let column = match value.constant() {
                    Some(v) => constant(
                        ConstValue::Components(
                            v.components()
                                .iter()
                                .skip(usize::from(c) * usize::from(*rows))
                                .take(usize::from(*rows))
                                .copied()
                                .collect(),
                        ),
                        Type::vector(base, *rows),
                        span,
                    ),
                    None => column,
                };
                out.extend((0..*rows).map(|r| swiz(&column, r)));
            }
            out
        }
        _ => Vec::new(),
    }
}

impl Analyzer<'_> {
    /// Analyses a call expression.
    pub(crate) fn call(&mut self, callee: &Callee, args: &[ast::Expr], span: Span) -> Result<Expr> {
        let mut values = Vec::with_capacity(args.len());
        let name = match callee {
            Callee::Type(spec) => {
                for a in args {
                    values.push(self.expr(a)?);
                }
                let ty = self.resolve_type(spec)?;
                let ty = match (&ty, spec.array.iter().any(|d| d.size.is_none())) {
                    (Type::Array { element, .. }, true) => Type::Array {
                        element: element.clone(),
                        size: u32::try_from(values.len()).unwrap_or(0),
                    },
                    _ => ty,
                };
                return self.construct(ty, values, span);
            }
            Callee::Named(ident) => ident,
        };
        if let Some(id) = self.scopes.struct_type(&name.name) {
            for a in args {
                values.push(self.expr(a)?);
            }
            return self.construct(Type::Struct(id), values, span);
        }
        if self.functions.contains_key(name.name.as_str()) {
            return self.user_call(&name.name, args, span);
        }
        super::builtins::call(self, &name.name, args, span)
    }

    /// Builds a constructor of `ty` from `args`.
    pub(crate) fn construct(&mut self, ty: Type, args: Vec<Expr>, span: Span) -> Result<Expr> {
        if args.is_empty() {
            return error(
                span,
                format!(
                    "expected arguments to construct '{}'",
                    self.module.type_name(&ty)
                ),
            );
        }
        match &ty {
            Type::Numeric {
                base,
                rows,
                columns,
            } => self.numeric_ctor(ty.clone(), *base, *rows, *columns, args, span),
            Type::Array { element, size } => {
                if args.len() != *size as usize || args.iter().any(|a| a.ty != **element) {
                    return error(
                        span,
                        format!(
                            "expected {size} arguments of type '{}' to construct an array",
                            self.module.type_name(element)
                        ),
                    );
                }
                self.aggregate_ctor("array_ctor", ty.clone(), args, span)
            }
            Type::Struct(id) => {
                let members: Vec<Type> = self
                    .module
                    .struct_type(*id)
                    .members
                    .iter()
                    .map(|m| m.ty.clone())
                    .collect();
                if members.len() != args.len() || members.iter().zip(&args).any(|(m, a)| *m != a.ty)
                {
                    return error(
                        span,
                        format!(
                            "expected arguments matching the members of struct '{}'",
                            self.module.type_name(&ty)
                        ),
                    );
                }
                self.aggregate_ctor("struct_ctor", ty.clone(), args, span)
            }
            _ => error(
                span,
                format!(
                    "cannot construct a value of type '{}'",
                    self.module.type_name(&ty)
                ),
            ),
        }
    }

    fn aggregate_ctor(
        &mut self,
        name: &str,
        ty: Type,
        mut args: Vec<Expr>,
        span: Span,
    ) -> Result<Expr> {
        if args.iter().all(|a| a.constant().is_some()) {
            let values = args.iter().filter_map(|a| a.constant().cloned()).collect();
            return Ok(constant(ConstValue::Composite(values), ty, span));
        }
        let precision = combine(args.iter().map(|a| a.precision));
        let t = self.temp(name, ty.clone(), precision, span);
        if !matches!(ty, Type::Struct(_)) {
            self.constructor_precision(t, precision, &mut args);
        }
        for (i, mut arg) in args.into_iter().enumerate() {
            let target = match &ty {
                Type::Struct(id) => {
                    let p = self
                        .module
                        .struct_type(*id)
                        .members
                        .get(i)
                        .map_or(Precision::None, |m| m.precision);
                    // A member is the consumer of its argument, as an lvalue is.
                    self.lend_consumer(&mut arg, p);
                    Expr::new(
                        ExprKind::Field(Box::new(self.var_ref(t, span)), i as u32),
                        arg.ty.clone(),
                        p,
                        span,
                    )
                }
                _ => Expr::new(
                    ExprKind::Index(
                        Box::new(self.var_ref(t, span)),
                        Box::new(int_const(i as i32, span)),
                    ),
                    arg.ty.clone(),
                    precision,
                    span,
                ),
            };
            let mask = full_mask(&arg.ty);
            self.out.push(Stmt::Assign {
                lhs: target,
                write_mask: mask,
                rhs: arg,
                span,
            });
        }
        Ok(self.var_ref(t, span))
    }

    fn numeric_ctor(
        &mut self,
        ty: Type,
        base: BaseType,
        rows: u8,
        columns: u8,
        args: Vec<Expr>,
        span: Span,
    ) -> Result<Expr> {
        if args.iter().any(|a| !matches!(a.ty, Type::Numeric { .. })) {
            return error(
                span,
                "expected scalar, vector or matrix arguments to a constructor",
            );
        }
        let n = usize::from(rows) * usize::from(columns);
        // One argument: a scalar conversion, a vector splat, a diagonal matrix, or a matrix
        // from a matrix.
        if let [only] = args.as_slice() {
            if only.ty.is_scalar() || ty.is_scalar() {
                let first = components(only, span).into_iter().next();
                let scalar = convert(first.unwrap_or_else(|| only.clone()), base, span);
                if ty.is_scalar() {
                    return Ok(scalar);
                }
                if columns == 1 {
                    let precision = scalar.precision;
                    let splat = ExprKind::Swizzle(Box::new(scalar), vec![0; usize::from(rows)]);
                    return Ok(crate::ir::fold::fold(Expr::new(splat, ty, precision, span)));
                }
                return self.diagonal(ty, scalar, rows, columns, span);
            }
            if only.ty.is_matrix() && ty.is_matrix() {
                return self.matrix_from_matrix(ty, only.clone(), span);
            }
            if columns == 1 && only.ty.vector_size() == rows {
                return Ok(convert(only.clone(), base, span));
            }
        }
        let mut comps = Vec::with_capacity(n);
        for a in &args {
            if a.ty.is_matrix() && ty.is_matrix() {
                return error(
                    span,
                    "a matrix argument must be the only argument of a matrix constructor",
                );
            }
            comps.extend(components(a, span));
        }
        if comps.len() < n {
            return error(
                span,
                format!(
                    "expected at least {n} components to construct '{}', found {}",
                    ty.name(),
                    comps.len()
                ),
            );
        }
        let last_used = {
            let mut total = 0usize;
            let mut count = 0;
            for a in &args {
                if total >= n {
                    break;
                }
                total += a.ty.components() as usize;
                count += 1;
            }
            count
        };
        if last_used < args.len() {
            return error(
                span,
                format!("too many arguments to construct '{}'", ty.name()),
            );
        }
        comps.truncate(n);
        let mut comps: Vec<Expr> = comps.into_iter().map(|c| convert(c, base, span)).collect();
        if comps.iter().all(|c| c.constant().is_some()) {
            let values = comps
                .iter()
                .filter_map(|c| c.constant().and_then(|v| v.components().first().copied()))
                .collect();
            return Ok(constant(ConstValue::Components(values), ty, span));
        }
        let precision = combine(comps.iter().map(|c| c.precision));
        let name = if columns == 1 { "vec_ctor" } else { "mat_ctor" };
        let t = self.temp(name, ty.clone(), precision, span);
        self.constructor_precision(t, precision, &mut comps);
        if columns == 1 {
            // Consecutive arguments: constants together, then each variable part.
            for (i, c) in comps.into_iter().enumerate() {
                let target = self.var_ref(t, span);
                self.out.push(Stmt::Assign {
                    lhs: target,
                    write_mask: 1 << i,
                    rhs: c,
                    span,
                });
            }
        } else {
            for col in 0..columns {
                let column_ty = Type::vector(base, rows);
                let target = Expr::new(
                    ExprKind::Index(
                        Box::new(self.var_ref(t, span)),
                        Box::new(int_const(i32::from(col), span)),
                    ),
                    column_ty,
                    precision,
                    span,
                );
                for r in 0..rows {
                    let c = comps
                        .get(usize::from(col) * usize::from(rows) + usize::from(r))
                        .cloned();
                    if let Some(c) = c {
                        self.out.push(Stmt::Assign {
                            lhs: target.clone(),
                            write_mask: 1 << r,
                            rhs: c,
                            span,
                        });
                    }
                }
            }
        }
        Ok(self.var_ref(t, span))
    }

    fn diagonal(
        &mut self,
        ty: Type,
        mut scalar: Expr,
        rows: u8,
        columns: u8,
        span: Span,
    ) -> Result<Expr> {
        let base = ty.base().unwrap_or(BaseType::Float);
        if let Some(v) = scalar
            .constant()
            .and_then(|v| v.components().first().copied())
        {
            let zero = Scalar::Float(0.0).convert(base);
            let values = (0..columns)
                .flat_map(|c| (0..rows).map(move |r| if r == c { v } else { zero }))
                .collect();
            return Ok(constant(ConstValue::Components(values), ty, span));
        }
        let precision = scalar.precision;
        let t = self.temp("mat_ctor", ty.clone(), precision, span);
        self.constructor_precision(t, precision, std::slice::from_mut(&mut scalar));
        let zero = constant(
            ConstValue::Components(vec![
                Scalar::Float(0.0);
                usize::from(rows) * usize::from(columns)
            ]),
            ty.clone(),
            span,
        );
        self.out.push(Stmt::Assign {
            lhs: self.var_ref(t, span),
            write_mask: 0,
            rhs: zero,
            span,
        });
        for c in 0..columns.min(rows) {
            let column = Expr::new(
                ExprKind::Index(
                    Box::new(self.var_ref(t, span)),
                    Box::new(int_const(i32::from(c), span)),
                ),
                Type::vector(base, rows),
                precision,
                span,
            );
            self.out.push(Stmt::Assign {
                lhs: column,
                write_mask: 1 << c,
                rhs: scalar.clone(),
                span,
            });
        }
        Ok(self.var_ref(t, span))
    }

    fn matrix_from_matrix(&mut self, ty: Type, mut m: Expr, span: Span) -> Result<Expr> {
        let (
            Type::Numeric { rows, columns, .. },
            Type::Numeric {
                rows: mr,
                columns: mc,
                ..
            },
        ) = (&ty, &m.ty)
        else {
            return error(span, "expected a matrix");
        };
        let (rows, columns, mr, mc) = (*rows, *columns, *mr, *mc);
        let identity = self.diagonal(
            ty.clone(),
            constant(
                ConstValue::Components(vec![Scalar::Float(1.0)]),
                Type::float(),
                span,
            ),
            rows,
            columns,
            span,
        )?;
        let precision = m.precision;
        let t = self.temp("mat_ctor", ty.clone(), precision, span);
        self.constructor_precision(t, precision, std::slice::from_mut(&mut m));
        self.out.push(Stmt::Assign {
            lhs: self.var_ref(t, span),
            write_mask: 0,
            rhs: identity,
            span,
        });
        for c in 0..columns.min(mc) {
            let src = Expr::new(
                ExprKind::Index(Box::new(m.clone()), Box::new(int_const(i32::from(c), span))),
                Type::vector(BaseType::Float, mr),
                precision,
                span,
            );
            let n = rows.min(mr);
            let src = if n == mr {
                src
            } else {
                Expr::new(
                    ExprKind::Swizzle(Box::new(src), (0..n).collect()),
                    Type::vector(BaseType::Float, n),
                    precision,
                    span,
                )
            };
            let dst = Expr::new(
                ExprKind::Index(
                    Box::new(self.var_ref(t, span)),
                    Box::new(int_const(i32::from(c), span)),
                ),
                Type::vector(BaseType::Float, rows),
                precision,
                span,
            );
            self.out.push(Stmt::Assign {
                lhs: dst,
                write_mask: (1u8 << n) - 1,
                rhs: src,
                span,
            });
        }
        Ok(self.var_ref(t, span))
    }

    /// A call of a user function: the overload whose parameter types equal the argument
    /// types; the result goes through a temporary (`<name>_retval`).
    fn user_call(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Expr> {
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(self.expr(a)?);
        }
        let candidates = self.functions.get(name).cloned().unwrap_or_default();
        let Some(sig) = candidates.iter().find(|s| {
            s.params.len() == values.len()
                && s.params.iter().zip(&values).all(|((t, _), v)| *t == v.ty)
        }) else {
            let found: Vec<String> = values
                .iter()
                .map(|v| self.module.type_name(&v.ty))
                .collect();
            return error(
                span,
                format!("no overload of '{name}' takes ({})", found.join(", ")),
            );
        };
        let mut actual = Vec::with_capacity(values.len());
        let mut copy_back = Vec::new();
        for (i, (((_, mode), mut value), ast_arg)) in
            sig.params.iter().zip(values).zip(args).enumerate()
        {
            let param = self.module.function(sig.id).params.get(i).copied();
            let param_precision = param.map_or(Precision::None, |p| self.module.var(p).precision);
            if matches!(mode, VarMode::FunctionOut | VarMode::FunctionInOut) {
                let (target, mask) = self.lvalue(ast_arg)?;
                if mask.is_none() {
                    actual.push(target);
                } else {
                    let t = self.temp("param_tmp", value.ty.clone(), param_precision, span);
                    if *mode == VarMode::FunctionInOut {
                        let v = self.read_lvalue(&target, &mask);
                        self.out.push(Stmt::Assign {
                            lhs: self.var_ref(t, span),
                            write_mask: full_mask(&value.ty),
                            rhs: v,
                            span,
                        });
                    }
                    actual.push(self.var_ref(t, span));
                    copy_back.push((target, mask, t));
                }
            } else {
                self.lend_consumer(&mut value, param_precision);
                actual.push(value);
            }
        }
        let function = self.module.function(sig.id);
        let (ret_ty, ret_precision) = (function.return_type.clone(), function.return_precision);
        let result = if ret_ty == Type::Void {
            None
        } else {
            let t = self.temp(
                &format!("{name}_retval"),
                ret_ty.clone(),
                ret_precision,
                span,
            );
            Some(self.var_ref(t, span))
        };
        self.out.push(Stmt::Call {
            callee: sig.id,
            args: actual,
            result: result.clone(),
            span,
        });
        for (target, mask, t) in copy_back {
            let v = self.var_ref(t, span);
            self.store(target, mask, v, span);
        }
        Ok(result.unwrap_or_else(|| constant(ConstValue::Components(vec![]), Type::Void, span)))
    }
}
