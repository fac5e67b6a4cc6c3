//! The GLSL ES front end: preprocessing, lexing and parsing into an AST.

pub mod ast;
pub mod diagnostic;
pub mod directive;
pub mod lexer;
pub mod parser;
pub mod preprocessor;
pub mod promote;
pub mod requalify;
pub(crate) mod scratch;
pub mod token;
