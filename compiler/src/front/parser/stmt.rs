//! Statements and compound blocks.

use super::decl::{starts_declaration, DeclOrFunction};
use super::{PResult, Parser};
use crate::front::ast::{Block, BuiltinType, Condition, Declaration, Statement, StatementKind};
use crate::front::lexer::Punct;
use crate::front::token::{Keyword, TokenKind};

impl Parser<'_> {
    /// `{ statements }`.
    pub(super) fn block(&mut self) -> PResult<Block> {
        let start = self.expect(Punct::LBrace, "'{'")?.span;
        let first = self.statements.len();
        while !self.eat(Punct::RBrace) {
            if self.at_eof() {
                return self.expected("'}' to close the block");
            }
            let statement = self.statement()?;
            self.statements.push(statement);
        }
        let statements = self.statements.drain(first..).collect();
        Ok(Block {
            statements,
            span: self.span_from(start),
        })
    }

    /// Whether the next tokens start a declaration rather than an expression.
    fn at_declaration(&self) -> bool {
        match self.peek().kind {
            TokenKind::Keyword(k) => starts_declaration(k),
            TokenKind::Ident => {
                let after = self.skip_brackets(1);
                if BuiltinType::from_name(self.text(self.peek())).is_some() {
                    !self.is_at(after, Punct::LParen)
                } else {
                    self.peek_at(after).kind == TokenKind::Ident
                }
            }
            _ => false,
        }
    }

    fn local_declaration(&mut self) -> PResult<Declaration> {
        match self.declaration(false)? {
            DeclOrFunction::Declaration(d) => Ok(d),
            DeclOrFunction::Function(_) => self.expected("a declaration"),
        }
    }

    /// One statement.
    pub(super) fn statement(&mut self) -> PResult<Statement> {
        self.nested(|p| p.statement_inner())
    }

    fn statement_inner(&mut self) -> PResult<Statement> {
        let start = self.peek().span;
        let kind = match self.peek().kind {
            TokenKind::Punct(Punct::LBrace) => StatementKind::Compound(self.block()?),
            TokenKind::Punct(Punct::Semicolon) => {
                self.bump();
                StatementKind::Expression(None)
            }
            TokenKind::Keyword(Keyword::If) => {
                self.bump();
                let condition = self.parenthesized("'(' after 'if'")?;
                let then = Box::new(self.statement()?);
                let otherwise = if self.eat_kw(Keyword::Else) {
                    Some(Box::new(self.statement()?))
                } else {
                    None
                };
                StatementKind::If {
                    condition,
                    then,
                    otherwise,
                }
            }
            TokenKind::Keyword(Keyword::Switch) => {
                self.bump();
                let selector = self.parenthesized("'(' after 'switch'")?;
                let body = Box::new(self.block()?);
                StatementKind::Switch { selector, body }
            }
            TokenKind::Keyword(Keyword::Case) => {
                self.bump();
                let value = self.expression()?;
                self.expect(Punct::Colon, "':' after case label")?;
                StatementKind::Case(value)
            }
            TokenKind::Keyword(Keyword::Default) => {
                self.bump();
                self.expect(Punct::Colon, "':' after 'default'")?;
                StatementKind::Default
            }
            TokenKind::Keyword(Keyword::While) => {
                self.bump();
                self.expect(Punct::LParen, "'(' after 'while'")?;
                let condition = Box::new(self.condition()?);
                self.expect(Punct::RParen, "')' after loop condition")?;
                let body = Box::new(self.statement()?);
                StatementKind::While { condition, body }
            }
            TokenKind::Keyword(Keyword::Do) => {
                self.bump();
                let body = Box::new(self.statement()?);
                if !self.eat_kw(Keyword::While) {
                    return self.expected("'while' after do-loop body");
                }
                let condition = self.parenthesized("'(' after 'while'")?;
                self.expect(Punct::Semicolon, "';' after do-while loop")?;
                StatementKind::DoWhile { body, condition }
            }
            TokenKind::Keyword(Keyword::For) => self.for_loop()?,
            TokenKind::Keyword(Keyword::Break) => self.jump(StatementKind::Break)?,
            TokenKind::Keyword(Keyword::Continue) => self.jump(StatementKind::Continue)?,
            TokenKind::Keyword(Keyword::Discard) => self.jump(StatementKind::Discard)?,
            TokenKind::Keyword(Keyword::Return) => {
                self.bump();
                let value = if self.is(Punct::Semicolon) {
                    None
                } else {
                    Some(self.expression()?)
                };
                self.expect(Punct::Semicolon, "';' after return")?;
                StatementKind::Return(value)
            }
            _ if self.at_declaration() => {
                StatementKind::Declaration(Box::new(self.local_declaration()?))
            }
            _ => {
                let expr = self.expression()?;
                self.expect(Punct::Semicolon, "';' after expression")?;
                StatementKind::Expression(Some(expr))
            }
        };
        Ok(Statement {
            kind,
            span: self.span_from(start),
        })
    }

    fn jump(&mut self, kind: StatementKind) -> PResult<StatementKind> {
        let tok = self.bump();
        let what = format!("';' after '{}'", self.text(tok));
        self.expect(Punct::Semicolon, &what)?;
        Ok(kind)
    }

    fn parenthesized(&mut self, what: &str) -> PResult<crate::front::ast::Expr> {
        self.expect(Punct::LParen, what)?;
        let expr = self.expression()?;
        self.expect(Punct::RParen, "')' after condition")?;
        Ok(expr)
    }

    fn for_loop(&mut self) -> PResult<StatementKind> {
        self.bump();
        self.expect(Punct::LParen, "'(' after 'for'")?;
        let init_start = self.peek().span;
        let init_kind = if self.eat(Punct::Semicolon) {
            StatementKind::Expression(None)
        } else if self.at_declaration() {
            StatementKind::Declaration(Box::new(self.local_declaration()?))
        } else {
            let expr = self.expression()?;
            self.expect(Punct::Semicolon, "';' after loop initializer")?;
            StatementKind::Expression(Some(expr))
        };
        let init = Box::new(Statement {
            kind: init_kind,
            span: self.span_from(init_start),
        });
        let condition = if self.is(Punct::Semicolon) {
            None
        } else {
            Some(Box::new(self.condition()?))
        };
        self.expect(Punct::Semicolon, "';' after loop condition")?;
        let step = if self.is(Punct::RParen) {
            None
        } else {
            Some(self.expression()?)
        };
        self.expect(Punct::RParen, "')' after loop step")?;
        let body = Box::new(self.statement()?);
        Ok(StatementKind::For {
            init,
            condition,
            step,
            body,
        })
    }

    /// A loop condition: an expression, or `type name = initializer`.
    fn condition(&mut self) -> PResult<Condition> {
        if !self.at_declaration() {
            return Ok(Condition::Expr(self.expression()?));
        }
        let qualifiers = self.qualifiers()?;
        let ty = self.type_specifier()?;
        let name = self.ident("a variable name")?;
        self.expect(Punct::Assign, "'=' after the condition variable")?;
        let initializer = self.assignment()?;
        Ok(Condition::Declaration {
            ty: crate::front::ast::FullType { qualifiers, ty },
            name,
            initializer,
        })
    }
}
