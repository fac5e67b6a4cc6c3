//! Declarations: qualifiers, type specifiers, structs, blocks, variables, prototypes and
//! function definitions.

use super::{PResult, ParseError, Parser};
use crate::front::ast::{
    ArrayDeclarator, ArrayDim, Auxiliary, BuiltinType, Declaration, DeclarationKind,
    ExternalDeclaration, FullType, FunctionDefinition, FunctionPrototype, InitDeclarator,
    InterfaceBlock, Interpolation, LayoutQualifierId, MemberDeclaration, Memory, Parameter,
    Precision, Qualifier, QualifierKind, Storage, StructSpecifier, TypeName, TypeQualifiers,
    TypeSpecifier,
};
use crate::front::lexer::Punct;
use crate::front::token::{Keyword, TokenKind};
use crate::span::Span;

/// A declaration or, at global scope, a function definition.
pub(super) enum DeclOrFunction {
    Declaration(Declaration),
    Function(FunctionDefinition),
}

/// The qualifier a keyword stands for (`layout` is handled apart).
fn simple_qualifier(k: Keyword) -> Option<QualifierKind> {
    use QualifierKind as Q;
    Some(match k {
        Keyword::Const => Q::Storage(Storage::Const),
        Keyword::Attribute => Q::Storage(Storage::Attribute),
        Keyword::Varying => Q::Storage(Storage::Varying),
        Keyword::Uniform => Q::Storage(Storage::Uniform),
        Keyword::In => Q::Storage(Storage::In),
        Keyword::Out => Q::Storage(Storage::Out),
        Keyword::Inout => Q::Storage(Storage::InOut),
        Keyword::Buffer => Q::Storage(Storage::Buffer),
        Keyword::Shared => Q::Storage(Storage::Shared),
        Keyword::Centroid => Q::Auxiliary(Auxiliary::Centroid),
        Keyword::Sample => Q::Auxiliary(Auxiliary::Sample),
        Keyword::Patch => Q::Auxiliary(Auxiliary::Patch),
        Keyword::Flat => Q::Interpolation(Interpolation::Flat),
        Keyword::Smooth => Q::Interpolation(Interpolation::Smooth),
        Keyword::Lowp => Q::Precision(Precision::Low),
        Keyword::Mediump => Q::Precision(Precision::Medium),
        Keyword::Highp => Q::Precision(Precision::High),
        Keyword::Invariant => Q::Invariant,
        Keyword::Precise => Q::Precise,
        Keyword::Coherent => Q::Memory(Memory::Coherent),
        Keyword::Volatile => Q::Memory(Memory::Volatile),
        Keyword::Restrict => Q::Memory(Memory::Restrict),
        Keyword::Readonly => Q::Memory(Memory::Readonly),
        Keyword::Writeonly => Q::Memory(Memory::Writeonly),
        _ => return None,
    })
}

/// Whether a keyword starts a declaration.
pub(super) fn starts_declaration(k: Keyword) -> bool {
    matches!(k, Keyword::Layout | Keyword::Struct | Keyword::Precision)
        || simple_qualifier(k).is_some()
}

impl Parser<'_> {
    /// One top-level item; `None` for a stray `;`.
    pub(super) fn external_declaration(&mut self) -> PResult<Option<ExternalDeclaration>> {
        if self.eat(Punct::Semicolon) {
            return Ok(None);
        }
        Ok(Some(match self.declaration(true)? {
            DeclOrFunction::Declaration(d) => ExternalDeclaration::Declaration(d),
            DeclOrFunction::Function(f) => ExternalDeclaration::Function(f),
        }))
    }

    /// A declaration; function definitions are accepted only when `global`.
    pub(super) fn declaration(&mut self, global: bool) -> PResult<DeclOrFunction> {
        let start = self.peek().span;
        if self.eat_kw(Keyword::Precision) {
            return self
                .precision_statement(start)
                .map(DeclOrFunction::Declaration);
        }
        let qualifiers = self.qualifiers()?;
        let decl = |kind, p: &Self| {
            Ok(DeclOrFunction::Declaration(Declaration {
                kind,
                span: p.span_from(start),
            }))
        };
        if !qualifiers.is_empty() {
            if self.eat(Punct::Semicolon) {
                let names = Vec::new();
                return decl(DeclarationKind::Qualifiers { qualifiers, names }, self);
            }
            let is_name = self.peek().kind == TokenKind::Ident
                && BuiltinType::from_name(self.text(self.peek())).is_none();
            if is_name && self.is_at(1, Punct::LBrace) {
                let block = self.interface_block(qualifiers)?;
                return decl(DeclarationKind::Block(Box::new(block)), self);
            }
            if is_name && (self.is_at(1, Punct::Semicolon) || self.is_at(1, Punct::Comma)) {
                let mut names = vec![self.ident("a name")?];
                while self.eat(Punct::Comma) {
                    names.push(self.ident("a name after ','")?);
                }
                self.expect(Punct::Semicolon, "';' after declaration")?;
                return decl(DeclarationKind::Qualifiers { qualifiers, names }, self);
            }
        }
        let ty = self.type_specifier()?;
        let full = FullType { qualifiers, ty };
        if self.eat(Punct::Semicolon) {
            let declarators = Vec::new();
            return decl(
                DeclarationKind::Variables {
                    ty: full,
                    declarators,
                },
                self,
            );
        }
        let name = self.ident("a name after the type")?;
        if self.is(Punct::LParen) {
            let prototype = self.prototype(full, name, start)?;
            if self.is(Punct::LBrace) {
                if !global {
                    return self.expected("';' after function prototype (functions can only be defined at global scope)");
                }
                let body = self.block()?;
                let span = self.span_from(start);
                return Ok(DeclOrFunction::Function(FunctionDefinition {
                    prototype,
                    body,
                    span,
                }));
            }
            self.expect(Punct::Semicolon, "';' or '{' after function prototype")?;
            return decl(DeclarationKind::Prototype(Box::new(prototype)), self);
        }
        let declarators = self.init_declarators(name)?;
        decl(
            DeclarationKind::Variables {
                ty: full,
                declarators,
            },
            self,
        )
    }

    fn precision_statement(&mut self, start: Span) -> PResult<Declaration> {
        let precision = match self.peek().kind {
            TokenKind::Keyword(Keyword::Lowp) => Precision::Low,
            TokenKind::Keyword(Keyword::Mediump) => Precision::Medium,
            TokenKind::Keyword(Keyword::Highp) => Precision::High,
            _ => return self.expected("'lowp', 'mediump' or 'highp' after 'precision'"),
        };
        self.bump();
        let ty = self.type_specifier()?;
        self.expect(Punct::Semicolon, "';' after precision statement")?;
        Ok(Declaration {
            kind: DeclarationKind::Precision { precision, ty },
            span: self.span_from(start),
        })
    }

    /// Qualifiers in source order (possibly none).
    pub(super) fn qualifiers(&mut self) -> PResult<TypeQualifiers> {
        let mut list = Vec::new();
        loop {
            let tok = self.peek();
            let TokenKind::Keyword(k) = tok.kind else {
                break;
            };
            let kind = if k == Keyword::Layout {
                self.bump();
                QualifierKind::Layout(self.layout_ids()?)
            } else if let Some(kind) = simple_qualifier(k) {
                self.bump();
                kind
            } else {
                break;
            };
            list.push(Qualifier {
                kind,
                span: self.span_from(tok.span),
            });
        }
        Ok(TypeQualifiers { list })
    }

    fn layout_ids(&mut self) -> PResult<Vec<LayoutQualifierId>> {
        self.expect(Punct::LParen, "'(' after 'layout'")?;
        let mut ids = Vec::new();
        loop {
            let tok = self.peek();
            if !matches!(tok.kind, TokenKind::Ident | TokenKind::Keyword(_)) {
                return self.expected("a layout qualifier name");
            }
            self.bump();
            let name = crate::front::ast::Ident {
                name: self.name(tok),
                span: tok.span,
            };
            let value = if self.eat(Punct::Assign) {
                Some(self.assignment()?)
            } else {
                None
            };
            ids.push(LayoutQualifierId {
                name,
                value,
                span: self.span_from(tok.span),
            });
            if self.eat(Punct::RParen) {
                return Ok(ids);
            }
            self.expect(Punct::Comma, "',' or ')' in layout qualifier")?;
        }
    }

    /// A type name (built-in, struct definition or user type) and its array dimensions.
    pub(super) fn type_specifier(&mut self) -> PResult<TypeSpecifier> {
        let start = self.peek().span;
        let name = if self.is_kw(Keyword::Struct) {
            TypeName::Struct(Box::new(self.struct_specifier()?))
        } else if self.peek().kind == TokenKind::Ident {
            let ident = self.ident("a type")?;
            match BuiltinType::from_name(&ident.name) {
                Some(builtin) => TypeName::Builtin(builtin),
                None => TypeName::Named(ident),
            }
        } else {
            return self.expected("a type");
        };
        let array = self.array_dims()?;
        Ok(TypeSpecifier {
            name,
            array,
            span: self.span_from(start),
        })
    }

    fn struct_specifier(&mut self) -> PResult<StructSpecifier> {
        let start = self.bump().span;
        let name = if self.peek().kind == TokenKind::Ident {
            Some(self.ident("a struct name")?)
        } else {
            None
        };
        self.expect(Punct::LBrace, "'{' to start the struct's members")?;
        let members = self.nested(|p| p.members())?;
        Ok(StructSpecifier {
            name,
            members,
            span: self.span_from(start),
        })
    }

    /// Member declarations up to and including `}`.
    fn members(&mut self) -> PResult<Vec<MemberDeclaration>> {
        let mut members = Vec::new();
        while !self.eat(Punct::RBrace) {
            let start = self.peek().span;
            let qualifiers = self.qualifiers()?;
            if self.is(Punct::RBrace) || self.at_eof() {
                return self.expected("a member type");
            }
            let ty = self.type_specifier()?;
            let mut declarators = Vec::new();
            loop {
                let name = self.ident("a member name")?;
                declarators.push(self.array_declarator(name)?);
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            self.expect(Punct::Semicolon, "';' after member declaration")?;
            members.push(MemberDeclaration {
                qualifiers,
                ty,
                declarators,
                span: self.span_from(start),
            });
        }
        if members.is_empty() {
            return Err(ParseError {
                message: "a struct or block needs at least one member".to_owned(),
                span: Span {
                    start: self.prev_end.saturating_sub(1),
                    end: self.prev_end,
                },
            });
        }
        Ok(members)
    }

    fn interface_block(&mut self, qualifiers: TypeQualifiers) -> PResult<InterfaceBlock> {
        let name = self.ident("a block name")?;
        self.expect(Punct::LBrace, "'{' after block name")?;
        let members = self.nested(|p| p.members())?;
        let instance = if self.peek().kind == TokenKind::Ident {
            let name = self.ident("an instance name")?;
            Some(self.array_declarator(name)?)
        } else {
            None
        };
        self.expect(Punct::Semicolon, "';' after interface block")?;
        Ok(InterfaceBlock {
            qualifiers,
            name,
            members,
            instance,
        })
    }

    /// `[size]` / `[]` groups (possibly none).
    pub(super) fn array_dims(&mut self) -> PResult<Vec<ArrayDim>> {
        let mut dims = Vec::new();
        while self.is(Punct::LBracket) {
            let start = self.bump().span;
            let size = if self.is(Punct::RBracket) {
                None
            } else {
                Some(self.conditional()?)
            };
            self.expect(Punct::RBracket, "']' after array size")?;
            dims.push(ArrayDim {
                size,
                span: self.span_from(start),
            });
        }
        Ok(dims)
    }

    fn array_declarator(&mut self, name: crate::front::ast::Ident) -> PResult<ArrayDeclarator> {
        let start = name.span;
        let array = self.array_dims()?;
        Ok(ArrayDeclarator {
            name,
            array,
            span: self.span_from(start),
        })
    }

    /// `name[dims] = init, ... ;` given the first name.
    fn init_declarators(
        &mut self,
        first: crate::front::ast::Ident,
    ) -> PResult<Vec<InitDeclarator>> {
        let mut declarators = Vec::new();
        let mut name = first;
        loop {
            let start = name.span;
            let declarator = self.array_declarator(name)?;
            let initializer = if self.eat(Punct::Assign) {
                Some(self.assignment()?)
            } else {
                None
            };
            declarators.push(InitDeclarator {
                declarator,
                initializer,
                span: self.span_from(start),
            });
            if !self.eat(Punct::Comma) {
                break;
            }
            name = self.ident("a name after ','")?;
        }
        self.expect(Punct::Semicolon, "';' after declaration")?;
        Ok(declarators)
    }

    fn prototype(
        &mut self,
        return_type: FullType,
        name: crate::front::ast::Ident,
        start: Span,
    ) -> PResult<FunctionPrototype> {
        self.bump();
        let mut params = Vec::new();
        let void_only = self.peek().kind == TokenKind::Ident
            && self.text(self.peek()) == "void"
            && self.is_at(1, Punct::RParen);
        if void_only {
            self.bump();
        }
        if !self.eat(Punct::RParen) {
            loop {
                params.push(self.parameter()?);
                if self.eat(Punct::RParen) {
                    break;
                }
                self.expect(Punct::Comma, "',' or ')' in parameter list")?;
            }
        }
        Ok(FunctionPrototype {
            return_type,
            name,
            params,
            span: self.span_from(start),
        })
    }

    fn parameter(&mut self) -> PResult<Parameter> {
        let start = self.peek().span;
        let qualifiers = self.qualifiers()?;
        let ty = self.type_specifier()?;
        let declarator = if self.peek().kind == TokenKind::Ident {
            let name = self.ident("a parameter name")?;
            Some(self.array_declarator(name)?)
        } else {
            None
        };
        Ok(Parameter {
            qualifiers,
            ty,
            declarator,
            span: self.span_from(start),
        })
    }
}
