//! Recursive-descent parser from tokens to the [`ast`](crate::front::ast).
//!
//! Declarations are told from expression statements by lookahead instead of a symbol table: a
//! statement is a declaration when it starts with a qualifier, `struct`, `precision`, a
//! built-in type name not followed by `(`, or a name (with optional `[...]`) followed by a
//! name. Recursion is bounded ([`MAX_DEPTH`]) and so is the height of the trees that loops
//! build (`a + b + ...`, [`MAX_HEIGHT`]), so hostile input gets an error, not a stack overflow
//! here or in later passes that walk the tree.

mod decl;
mod expr;
mod stmt;

use super::ast::{Expr, ExternalDeclaration, Ident, SmolStr, Statement};
use super::lexer::Punct;
use super::scratch::Scratch;
use super::token::{Keyword, Token, TokenKind};
use crate::span::Span;

/// Deepest recursive nesting (parentheses, unary operators, statements) accepted.
pub const MAX_DEPTH: usize = 64;
/// Highest expression tree accepted, counting each link of an operator chain as a level.
pub const MAX_HEIGHT: usize = 1024;

/// A parse error: what was expected and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What went wrong.
    pub message: String,
    /// Where.
    pub span: Span,
}

type PResult<T> = Result<T, ParseError>;

/// Parses a whole translation unit from `tokens` (ending with `Eof`) of `text`.
pub fn parse(tokens: &[Token], text: &str) -> PResult<Vec<ExternalDeclaration>> {
    Scratch::with(|scratch| parse_with(tokens, text, scratch))
}

/// [`parse`] with the thread's reusable buffers for the parser's stacks.
pub(crate) fn parse_with(
    tokens: &[Token],
    text: &str,
    scratch: &mut Scratch,
) -> PResult<Vec<ExternalDeclaration>> {
    let mut parser = Parser {
        tokens,
        text,
        pos: 0,
        prev_end: 0,
        depth: 0,
        chain: 0,
        statements: std::mem::take(&mut scratch.statements),
        arguments: std::mem::take(&mut scratch.arguments),
    };
    let mut items = Vec::new();
    let outcome = loop {
        if parser.at_eof() {
            break Ok(());
        }
        match parser.external_declaration() {
            Ok(Some(item)) => items.push(item),
            Ok(None) => {}
            Err(e) => break Err(e),
        }
    };
    scratch.statements = parser.statements;
    scratch.arguments = parser.arguments;
    outcome.map(|()| items)
}

/// `text` as a [`SmolStr`], built in place when it fits inline (nearly every name and
/// literal does); `SmolStr::new` copies through a zeroed buffer and a call to `memcpy`.
fn small_string(text: &str) -> SmolStr {
    if text.len() <= SmolStr::INLINE_CAP {
        SmolStr::new_inline(text)
    } else {
        SmolStr::new(text)
    }
}

const EOF: Token = Token {
    kind: TokenKind::Eof,
    span: Span { start: 0, end: 0 },
};

struct Parser<'a> {
    tokens: &'a [Token],
    text: &'a str,
    pos: usize,
    /// End of the last consumed token, for node spans.
    prev_end: u32,
    /// Current recursion depth.
    depth: usize,
    /// Links of the operator chains currently being built (levels of tree without recursion).
    chain: usize,
    /// The statements of the blocks being parsed, innermost last: a block takes its own off
    /// the end into a vector of exactly their number (one allocation, none to grow or shrink).
    statements: Vec<Statement>,
    /// The arguments of the calls being parsed, innermost last, taken off the same way.
    arguments: Vec<Expr>,
}

impl Parser<'_> {
    fn peek(&self) -> Token {
        self.peek_at(0)
    }

    fn peek_at(&self, n: usize) -> Token {
        self.tokens
            .get(self.pos + n)
            .or_else(|| self.tokens.last())
            .copied()
            .unwrap_or(EOF)
    }

    fn at_eof(&self) -> bool {
        self.peek().kind == TokenKind::Eof
    }

    fn bump(&mut self) -> Token {
        let tok = self.peek();
        if tok.kind != TokenKind::Eof {
            self.pos += 1;
            self.prev_end = tok.span.end;
        }
        tok
    }

    fn text(&self, tok: Token) -> &str {
        self.text.get(tok.span.range()).unwrap_or("")
    }

    /// The text of `tok` as a name of the tree.
    fn name(&self, tok: Token) -> SmolStr {
        small_string(self.text(tok))
    }

    /// Span from `start` to the end of the last consumed token.
    fn span_from(&self, start: Span) -> Span {
        Span {
            start: start.start,
            end: self.prev_end.max(start.start),
        }
    }

    fn is(&self, p: Punct) -> bool {
        self.peek().kind == TokenKind::Punct(p)
    }

    fn is_at(&self, n: usize, p: Punct) -> bool {
        self.peek_at(n).kind == TokenKind::Punct(p)
    }

    fn eat(&mut self, p: Punct) -> bool {
        let found = self.is(p);
        if found {
            self.bump();
        }
        found
    }

    fn is_kw(&self, k: Keyword) -> bool {
        self.peek().kind == TokenKind::Keyword(k)
    }

    fn eat_kw(&mut self, k: Keyword) -> bool {
        let found = self.is_kw(k);
        if found {
            self.bump();
        }
        found
    }

    /// An error at the next token: `expected {what}, found '{token}'`.
    fn expected<T>(&self, what: &str) -> PResult<T> {
        let tok = self.peek();
        let found = match tok.kind {
            TokenKind::Eof => "end of input".to_owned(),
            _ => format!("'{}'", self.text(tok)),
        };
        Err(ParseError {
            message: format!("expected {what}, found {found}"),
            span: tok.span,
        })
    }

    fn expect(&mut self, p: Punct, what: &str) -> PResult<Token> {
        if self.is(p) {
            Ok(self.bump())
        } else {
            self.expected(what)
        }
    }

    fn ident(&mut self, what: &str) -> PResult<Ident> {
        let tok = self.peek();
        if tok.kind != TokenKind::Ident {
            return self.expected(what);
        }
        self.bump();
        Ok(Ident {
            name: self.name(tok),
            span: tok.span,
        })
    }

    /// Enters one level of recursion, failing past [`MAX_DEPTH`]; pair with [`Self::leave`].
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ParseError {
                message: format!("nesting deeper than {MAX_DEPTH} levels"),
                span: self.peek().span,
            });
        }
        Ok(())
    }

    /// Counts one more link of an operator chain, failing past [`MAX_HEIGHT`].
    fn link(&mut self) -> PResult<()> {
        self.chain += 1;
        if self.depth + self.chain > MAX_HEIGHT {
            return Err(ParseError {
                message: format!("expression nesting deeper than {MAX_HEIGHT} levels"),
                span: self.peek().span,
            });
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Runs `f` one nesting level deeper.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.enter()?;
        let result = f(self);
        self.leave();
        result
    }

    /// Index of the token after the balanced `[...]` groups starting at `pos + n`.
    fn skip_brackets(&self, mut n: usize) -> usize {
        while self.is_at(n, Punct::LBracket) {
            let mut depth = 0usize;
            loop {
                match self.peek_at(n).kind {
                    TokenKind::Punct(Punct::LBracket) => depth += 1,
                    TokenKind::Punct(Punct::RBracket) => depth = depth.saturating_sub(1),
                    TokenKind::Eof => return n,
                    _ => {}
                }
                n += 1;
                if depth == 0 {
                    break;
                }
            }
        }
        n
    }
}
