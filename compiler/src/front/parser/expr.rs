//! Expressions, by precedence climbing: comma < assignment < `?:` < `||` < `^^` < `&&` < `|`
//! < `^` < `&` < equality < relational < shift < additive < multiplicative < unary < postfix.

use super::{small_string, PResult, Parser};
use crate::front::ast::{
    BinaryOp, BuiltinType, Callee, Expr, ExprKind, FloatLiteral, Ident, UnaryOp,
};
use crate::front::lexer::Punct;
use crate::front::token::{float_value, TokenKind};
use crate::span::Span;

/// A binary operator and its precedence (higher binds tighter).
fn binary_op(kind: TokenKind) -> Option<(BinaryOp, u8)> {
    let TokenKind::Punct(p) = kind else {
        return None;
    };
    Some(match p {
        Punct::OrOr => (BinaryOp::LogicalOr, 1),
        Punct::XorXor => (BinaryOp::LogicalXor, 2),
        Punct::AndAnd => (BinaryOp::LogicalAnd, 3),
        Punct::Pipe => (BinaryOp::BitOr, 4),
        Punct::Caret => (BinaryOp::BitXor, 5),
        Punct::Amp => (BinaryOp::BitAnd, 6),
        Punct::EqEq => (BinaryOp::Equal, 7),
        Punct::Ne => (BinaryOp::NotEqual, 7),
        Punct::Lt => (BinaryOp::Less, 8),
        Punct::Gt => (BinaryOp::Greater, 8),
        Punct::Le => (BinaryOp::LessEqual, 8),
        Punct::Ge => (BinaryOp::GreaterEqual, 8),
        Punct::Shl => (BinaryOp::Shl, 9),
        Punct::Shr => (BinaryOp::Shr, 9),
        Punct::Plus => (BinaryOp::Add, 10),
        Punct::Minus => (BinaryOp::Sub, 10),
        Punct::Star => (BinaryOp::Mul, 11),
        Punct::Slash => (BinaryOp::Div, 11),
        Punct::Percent => (BinaryOp::Mod, 11),
        _ => return None,
    })
}

/// An assignment operator: `None` for `=`, `Some(op)` for `op=`.
fn assign_op(kind: TokenKind) -> Option<Option<BinaryOp>> {
    let TokenKind::Punct(p) = kind else {
        return None;
    };
    Some(Some(match p {
        Punct::Assign => return Some(None),
        Punct::AddAssign => BinaryOp::Add,
        Punct::SubAssign => BinaryOp::Sub,
        Punct::MulAssign => BinaryOp::Mul,
        Punct::DivAssign => BinaryOp::Div,
        Punct::ModAssign => BinaryOp::Mod,
        Punct::ShlAssign => BinaryOp::Shl,
        Punct::ShrAssign => BinaryOp::Shr,
        Punct::AndAssign => BinaryOp::BitAnd,
        Punct::XorAssign => BinaryOp::BitXor,
        Punct::OrAssign => BinaryOp::BitOr,
        _ => return None,
    }))
}

fn prefix_op(kind: TokenKind) -> Option<UnaryOp> {
    match kind {
        TokenKind::Punct(Punct::Plus) => Some(UnaryOp::Plus),
        TokenKind::Punct(Punct::Minus) => Some(UnaryOp::Negate),
        TokenKind::Punct(Punct::Not) => Some(UnaryOp::Not),
        TokenKind::Punct(Punct::Tilde) => Some(UnaryOp::BitNot),
        TokenKind::Punct(Punct::Inc) => Some(UnaryOp::PreIncrement),
        TokenKind::Punct(Punct::Dec) => Some(UnaryOp::PreDecrement),
        _ => None,
    }
}

fn node(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

impl Parser<'_> {
    /// A full expression, including the comma operator.
    pub(super) fn expression(&mut self) -> PResult<Expr> {
        let first = self.assignment()?;
        if !self.is(Punct::Comma) {
            return Ok(first);
        }
        let start = first.span;
        let mut items = vec![first];
        while self.eat(Punct::Comma) {
            items.push(self.assignment()?);
        }
        Ok(node(ExprKind::Sequence(items), self.span_from(start)))
    }

    /// An assignment expression (no top-level comma).
    pub(super) fn assignment(&mut self) -> PResult<Expr> {
        self.nested(|p| {
            let lhs = p.conditional()?;
            let Some(op) = assign_op(p.peek().kind) else {
                return Ok(lhs);
            };
            p.bump();
            let rhs = p.assignment()?;
            let span = p.span_from(lhs.span);
            Ok(node(ExprKind::Assign(op, Box::new([lhs, rhs])), span))
        })
    }

    /// A conditional (`?:`) expression: what constant expressions and array sizes use.
    pub(super) fn conditional(&mut self) -> PResult<Expr> {
        let condition = self.binary(0)?;
        if !self.eat(Punct::Question) {
            return Ok(condition);
        }
        let then = self.expression()?;
        self.expect(Punct::Colon, "':' in conditional expression")?;
        let otherwise = self.assignment()?;
        let span = self.span_from(condition.span);
        let kind = ExprKind::Ternary(Box::new([condition, then, otherwise]));
        Ok(node(kind, span))
    }

    /// Binary operators binding tighter than `min_prec`, left-associative.
    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        let mut chain = 0;
        let result = loop {
            let Some((op, prec)) = binary_op(self.peek().kind).filter(|(_, p)| *p > min_prec)
            else {
                break Ok(lhs);
            };
            // Each link of a chain deepens the tree: count it against the height limit.
            if let Err(e) = self.link() {
                break Err(e);
            }
            chain += 1;
            self.bump();
            let rhs = match self.binary(prec) {
                Ok(rhs) => rhs,
                Err(e) => break Err(e),
            };
            let span = self.span_from(lhs.span);
            lhs = node(ExprKind::Binary(op, Box::new([lhs, rhs])), span);
        };
        self.chain -= chain;
        result
    }

    fn unary(&mut self) -> PResult<Expr> {
        let Some(op) = prefix_op(self.peek().kind) else {
            return self.postfix();
        };
        self.nested(|p| {
            let start = p.bump().span;
            let operand = p.unary()?;
            Ok(node(
                ExprKind::Unary(op, Box::new(operand)),
                p.span_from(start),
            ))
        })
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut expr = self.primary()?;
        let mut chain = 0;
        let result = loop {
            if !matches!(
                self.peek().kind,
                TokenKind::Punct(Punct::LBracket | Punct::Dot | Punct::Inc | Punct::Dec)
            ) {
                break Ok(expr);
            }
            if let Err(e) = self.link() {
                break Err(e);
            }
            chain += 1;
            match self.postfix_op(expr) {
                Ok(next) => expr = next,
                Err(e) => break Err(e),
            }
        };
        self.chain -= chain;
        result
    }

    /// Applies one postfix operator (`[i]`, `.name`, `.length()`, `++`, `--`) to `base`.
    fn postfix_op(&mut self, base: Expr) -> PResult<Expr> {
        let start = base.span;
        let tok = self.bump();
        let kind = match tok.kind {
            TokenKind::Punct(Punct::LBracket) => {
                let index = self.expression()?;
                self.expect(Punct::RBracket, "']' after index")?;
                ExprKind::Index(Box::new([base, index]))
            }
            TokenKind::Punct(Punct::Dot) => {
                let field = self.field_name()?;
                if self.eat(Punct::LParen) {
                    if field.name != "length" {
                        return Err(super::ParseError {
                            message: format!(
                                "only '.length()' can be called as a method, not '.{}()'",
                                field.name
                            ),
                            span: field.span,
                        });
                    }
                    self.expect(Punct::RParen, "')' after '.length('")?;
                    ExprKind::Length(Box::new(base))
                } else {
                    ExprKind::Field(Box::new(base), field)
                }
            }
            TokenKind::Punct(Punct::Inc) => ExprKind::Unary(UnaryOp::PostIncrement, Box::new(base)),
            _ => ExprKind::Unary(UnaryOp::PostDecrement, Box::new(base)),
        };
        Ok(node(kind, self.span_from(start)))
    }

    /// A field or swizzle name after `.` (keywords such as `sample` are valid field names).
    fn field_name(&mut self) -> PResult<Ident> {
        let tok = self.peek();
        if !matches!(tok.kind, TokenKind::Ident | TokenKind::Keyword(_)) {
            return self.expected("a field name after '.'");
        }
        self.bump();
        Ok(Ident {
            name: self.name(tok),
            span: tok.span,
        })
    }

    fn primary(&mut self) -> PResult<Expr> {
        let tok = self.peek();
        let kind = match tok.kind {
            TokenKind::Int(value) => {
                self.bump();
                ExprKind::Int(value)
            }
            TokenKind::Float => {
                self.bump();
                let text = self.text(tok);
                let Some(value) = float_value(text) else {
                    return Err(super::ParseError {
                        message: format!("invalid number '{text}'"),
                        span: tok.span,
                    });
                };
                let text = small_string(text);
                ExprKind::Float(FloatLiteral { value, text })
            }
            TokenKind::Bool(value) => {
                self.bump();
                ExprKind::Bool(value)
            }
            TokenKind::Punct(Punct::LParen) => {
                self.bump();
                let inner = self.expression()?;
                self.expect(Punct::RParen, "')' to close '('")?;
                return Ok(node(inner.kind, self.span_from(tok.span)));
            }
            TokenKind::Ident => return self.name_or_call(),
            _ => return self.expected("an expression"),
        };
        Ok(node(kind, tok.span))
    }

    /// A variable, a function call, or a constructor (`vec4(...)`, `float[2](...)`).
    fn name_or_call(&mut self) -> PResult<Expr> {
        let start = self.peek().span;
        let builtin = BuiltinType::from_name(self.text(self.peek())).is_some();
        let after_dims = self.skip_brackets(1);
        let array_ctor = after_dims > 1 && self.is_at(after_dims, Punct::LParen);
        let callee = if builtin || array_ctor {
            let ty = self.type_specifier()?;
            if !self.is(Punct::LParen) {
                return self.expected("'(' after a type name in an expression");
            }
            Callee::Type(Box::new(ty))
        } else {
            let ident = self.ident("a name")?;
            if !self.is(Punct::LParen) {
                return Ok(node(ExprKind::Ident(ident), start));
            }
            Callee::Named(ident)
        };
        let args = self.arguments()?;
        Ok(node(ExprKind::Call(callee, args), self.span_from(start)))
    }

    /// `( args )`, where `(void)` and `()` give no arguments.
    fn arguments(&mut self) -> PResult<Vec<Expr>> {
        self.expect(Punct::LParen, "'('")?;
        let void_only = self.peek().kind == TokenKind::Ident
            && self.text(self.peek()) == "void"
            && self.is_at(1, Punct::RParen);
        if void_only {
            self.bump();
        }
        if self.eat(Punct::RParen) {
            return Ok(Vec::new());
        }
        let first = self.arguments.len();
        loop {
            let argument = self.assignment()?;
            self.arguments.push(argument);
            if self.eat(Punct::RParen) {
                return Ok(self.arguments.drain(first..).collect());
            }
            self.expect(Punct::Comma, "',' or ')' in argument list")?;
        }
    }
}
