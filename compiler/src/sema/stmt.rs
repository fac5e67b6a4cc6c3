//! Statements: blocks (with their scopes), `if`, loops (all become Mesa's endless `loop`
//! with a conditional `break`; a `for` step runs before every `continue`), `switch`
//! (a loop around `if`s on a fall-through flag), `break`, `continue`, `return`, `discard`.

use super::expr::constant;
use super::operators::binary;
use super::{error, Analyzer, Result};
use crate::ast::{self, BinaryOp, Condition, StatementKind};
use crate::ir::{BaseType, Block, ConstValue, Expr, Op, Precision, Scalar, Stmt, Type};
use crate::span::Span;

fn bool_const(v: bool, span: Span) -> Expr {
    constant(
        ConstValue::Components(vec![Scalar::Bool(v)]),
        Type::bool(),
        span,
    )
}

fn not(e: Expr, span: Span) -> Expr {
    super::operators::op_node(Op::LogicNot, Type::bool(), vec![e], span)
}

impl Analyzer<'_> {
    /// Analyses one statement into `self.out`.
    pub(crate) fn statement(&mut self, s: &ast::Statement) -> Result<()> {
        let span = s.span;
        match &s.kind {
            StatementKind::Compound(b) => {
                self.scopes.push();
                let r = b.statements.iter().try_for_each(|s| self.statement(s));
                self.scopes.pop();
                r
            }
            StatementKind::Declaration(d) => self.declaration(d),
            StatementKind::Expression(e) => {
                if let Some(e) = e {
                    self.expr(e)?;
                }
                Ok(())
            }
            StatementKind::If {
                condition,
                then,
                otherwise,
            } => {
                let c = self.condition_expr(condition)?;
                let then = self.sub_block(then)?;
                let otherwise = match otherwise {
                    Some(o) => self.sub_block(o)?,
                    None => Vec::new(),
                };
                self.out.push(Stmt::If {
                    condition: c,
                    then,
                    otherwise,
                    span,
                });
                Ok(())
            }
            StatementKind::While { condition, body } => {
                self.scopes.push();
                let r = self.loop_stmt(Some(condition), None, body, false, span);
                self.scopes.pop();
                r
            }
            StatementKind::DoWhile { body, condition } => {
                let c = Condition::Expr(condition.clone());
                self.loop_stmt(Some(&c), None, body, true, span)
            }
            StatementKind::For {
                init,
                condition,
                step,
                body,
            } => {
                self.scopes.push();
                let r = self.statement(init).and_then(|()| {
                    self.loop_stmt(condition.as_deref(), step.as_ref(), body, false, span)
                });
                self.scopes.pop();
                r
            }
            StatementKind::Switch { selector, body } => self.switch(selector, body, span),
            StatementKind::Case(_) | StatementKind::Default => {
                error(span, "'case' or 'default' outside a switch")
            }
            StatementKind::Break => {
                if self.breakable == 0 {
                    return error(span, "'break' outside a loop or switch");
                }
                self.out.push(Stmt::Break);
                Ok(())
            }
            StatementKind::Continue => self.continue_statement(span),
            StatementKind::Return(value) => {
                let value = match value {
                    Some(e) => Some(self.return_value(e, span)?),
                    None => {
                        if self
                            .current_return
                            .as_ref()
                            .is_some_and(|(t, _)| *t != Type::Void)
                        {
                            return error(span, "expected a return value");
                        }
                        None
                    }
                };
                self.out.push(Stmt::Return { value, span });
                Ok(())
            }
            StatementKind::Discard => {
                if self.stage() != crate::Stage::Fragment {
                    return error(span, "'discard' is only allowed in a fragment shader");
                }
                self.out.push(Stmt::Discard { span });
                Ok(())
            }
        }
    }

    fn condition_expr(&mut self, e: &ast::Expr) -> Result<Expr> {
        let c = self.expr(e)?;
        if c.ty != Type::bool() {
            return error(
                e.span,
                format!("expected a bool condition, found '{}'", c.ty.name()),
            );
        }
        Ok(c)
    }

    /// A statement in its own scope, as a block.
    fn sub_block(&mut self, s: &ast::Statement) -> Result<Block> {
        self.scopes.push();
        let r = self.capture(|a| a.statement(s));
        self.scopes.pop();
        Ok(r?.1)
    }

    /// `if (!cond) break;` for a loop condition (which may declare a variable).
    fn loop_test(&mut self, c: &Condition, span: Span) -> Result<()> {
        let value = match c {
            Condition::Expr(e) => self.condition_expr(e)?,
            Condition::Declaration {
                ty,
                name,
                initializer,
            } => {
                let decl = ast::InitDeclarator {
                    declarator: ast::ArrayDeclarator {
                        name: name.clone(),
                        array: Vec::new(),
                        span: name.span,
                    },
                    initializer: Some(initializer.clone()),
                    span,
                };
                let d = ast::Declaration {
                    kind: ast::DeclarationKind::Variables {
                        ty: ty.clone(),
                        declarators: vec![decl],
                    },
                    span,
                };
                self.declaration(&d)?;
                let id = ast::Expr {
                    kind: ast::ExprKind::Ident(name.clone()),
                    span: name.span,
                };
                self.condition_expr(&id)?
            }
        };
        self.out.push(Stmt::If {
            condition: not(value, span),
            then: vec![Stmt::Break],
            otherwise: Vec::new(),
            span,
        });
        Ok(())
    }

    fn loop_stmt(
        &mut self,
        condition: Option<&Condition>,
        step: Option<&ast::Expr>,
        body: &ast::Statement,
        test_after: bool,
        span: Span,
    ) -> Result<()> {
        let (step_block, _) = {
            let (r, b) = self.capture(|a| match step {
                Some(e) => a.expr(e).map(|_| ()),
                None => Ok(()),
            })?;
            (b, r)
        };
        let (test_block, _) = {
            let (r, b) = self.capture(|a| match condition {
                Some(c) if test_after => a.loop_test(c, span),
                _ => Ok(()),
            })?;
            (b, r)
        };
        let prologue = if test_after {
            test_block.clone()
        } else {
            step_block.clone()
        };
        self.continue_prologue.push(prologue);
        self.breakable += 1;
        let body = self.capture(|a| {
            if let (Some(c), false) = (condition, test_after) {
                a.loop_test(c, span)?;
            }
            a.scopes.push();
            let r = a.statement(body);
            a.scopes.pop();
            r
        });
        self.breakable -= 1;
        self.continue_prologue.pop();
        let ((), mut body) = body?;
        if test_after {
            body.extend(test_block);
        } else {
            body.extend(step_block);
        }
        self.out.push(Stmt::Loop { body, span });
        Ok(())
    }

    /// `continue`: the step and a `Continue` of the innermost loop; inside a `switch` (whose
    /// own loop must not be continued) a flag set before a `Break`, tested after the switch.
    fn continue_statement(&mut self, span: Span) -> Result<()> {
        let loops = self.continue_prologue.len();
        if loops == 0 {
            return error(span, "'continue' outside a loop");
        }
        if let Some((depth, flag)) = self.switch_continue.last_mut() {
            if *depth == loops {
                let id = match flag {
                    Some(id) => *id,
                    None => {
                        self.temps += 1;
                        let id = self.module.add_var(crate::ir::Variable {
                            name: "switch_continue_tmp".to_owned(),
                            ty: Type::bool(),
                            mode: crate::ir::VarMode::Temporary,
                            declared_precision: None,
                            precision: Precision::None,
                            constant_value: None,
                            builtin: false,
                            flat: false,
                            location: None,
                            span,
                        });
                        *flag = Some(id);
                        id
                    }
                };
                self.out.push(Stmt::Assign {
                    lhs: self.var_ref(id, span),
                    write_mask: 1,
                    rhs: bool_const(true, span),
                    span,
                });
                self.out.push(Stmt::Break);
                return Ok(());
            }
        }
        let prologue = self.continue_prologue.last().cloned().unwrap_or_default();
        self.out.extend(prologue);
        self.out.push(Stmt::Continue);
        Ok(())
    }

    /// `switch`: `t = selector; ft = false; loop { ft = ft || t == c0; if (ft) {...} ...;
    /// break; }`, with `default` matching when no case does.
    fn switch(&mut self, selector: &ast::Expr, body: &ast::Block, span: Span) -> Result<()> {
        let sel = self.expr(selector)?;
        if !(sel.ty.is_scalar() && matches!(sel.ty.base(), Some(BaseType::Int | BaseType::Uint))) {
            return error(
                selector.span,
                format!(
                    "expected an int or uint switch selector, found '{}'",
                    sel.ty.name()
                ),
            );
        }
        let t = self.temp("switch_test_tmp", sel.ty.clone(), sel.precision, span);
        self.out.push(Stmt::Assign {
            lhs: self.var_ref(t, span),
            write_mask: 1,
            rhs: sel.clone(),
            span,
        });
        let ft = self.temp("switch_fallthru_tmp", Type::bool(), Precision::None, span);
        self.out.push(Stmt::Assign {
            lhs: self.var_ref(ft, span),
            write_mask: 1,
            rhs: bool_const(false, span),
            span,
        });
        // Whether any case label matches (for `default`).
        let starts_with_label = match body.statements.first() {
            Some(s) => matches!(s.kind, StatementKind::Case(_) | StatementKind::Default),
            None => true,
        };
        if !starts_with_label {
            return error(
                span,
                "expected 'case' or 'default' before the first statement of a switch",
            );
        }
        let mut labels = Vec::new();
        for s in &body.statements {
            if let StatementKind::Case(e) = &s.kind {
                let v = self.constant_expr(e)?;
                labels.push((v, e.span));
            }
        }
        let mut any = bool_const(false, span);
        for (v, lspan) in &labels {
            let c = constant(v.clone(), sel.ty.clone(), *lspan);
            if c.ty != sel.ty {
                return error(*lspan, "expected a case label of the selector's type");
            }
            let eq = binary(BinaryOp::Equal, self.var_ref(t, span), c, *lspan)?;
            any = binary(BinaryOp::LogicalOr, any, eq, *lspan)?;
        }
        self.breakable += 1;
        self.scopes.push();
        self.switch_continue
            .push((self.continue_prologue.len(), None));
        let result = self.capture(|a| {
            let mut group: Block = Vec::new();
            let flush = |a: &mut Self, group: &mut Block| {
                if !group.is_empty() {
                    let then = std::mem::take(group);
                    a.out.push(Stmt::If {
                        condition: a.var_ref(ft, span),
                        then,
                        otherwise: Vec::new(),
                        span,
                    });
                }
            };
            for s in &body.statements {
                match &s.kind {
                    StatementKind::Case(e) => {
                        flush(a, &mut group);
                        let v = a.constant_expr(e)?;
                        let c = constant(v, sel.ty.clone(), e.span);
                        let eq = binary(BinaryOp::Equal, a.var_ref(t, span), c, e.span)?;
                        let rhs = binary(BinaryOp::LogicalOr, a.var_ref(ft, span), eq, e.span)?;
                        a.out.push(Stmt::Assign {
                            lhs: a.var_ref(ft, span),
                            write_mask: 1,
                            rhs,
                            span,
                        });
                    }
                    StatementKind::Default => {
                        flush(a, &mut group);
                        let rhs = binary(
                            BinaryOp::LogicalOr,
                            a.var_ref(ft, span),
                            not(any.clone(), span),
                            s.span,
                        )?;
                        a.out.push(Stmt::Assign {
                            lhs: a.var_ref(ft, span),
                            write_mask: 1,
                            rhs,
                            span,
                        });
                    }
                    _ => {
                        let ((), b) = a.capture(|a| a.statement(s))?;
                        group.extend(b);
                    }
                }
            }
            flush(a, &mut group);
            a.out.push(Stmt::Break);
            Ok(())
        });
        let flag = self.switch_continue.pop().and_then(|(_, flag)| flag);
        self.scopes.pop();
        self.breakable -= 1;
        let ((), body) = result?;
        if let Some(flag) = flag {
            self.out.push(Stmt::Declare(flag));
            self.out.push(Stmt::Assign {
                lhs: self.var_ref(flag, span),
                write_mask: 1,
                rhs: bool_const(false, span),
                span,
            });
        }
        self.out.push(Stmt::Loop { body, span });
        if let Some(flag) = flag {
            let ((), then) = self.capture(|a| a.continue_statement(span))?;
            self.out.push(Stmt::If {
                condition: self.var_ref(flag, span),
                then,
                otherwise: Vec::new(),
                span,
            });
        }
        Ok(())
    }
}
