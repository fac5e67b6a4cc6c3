//! GLSL ES front end, precision resolution and mediump lowering for halfcheck.
//!
//! Today this crate holds the front end (`front/`): a preprocessor, a lexer and a
//! recursive-descent parser for GLSL ES 1.00, 3.00, 3.10 and 3.20 producing an AST whose nodes
//! carry spans. Start with [`parse_shader`]:
//!
//! ```
//! use halfcheck_compiler::{parse_shader, Stage};
//! let unit = parse_shader("precision mediump float;\nvoid main() {}", Stage::Fragment, "a.frag")
//!     .expect("parses");
//! assert_eq!(unit.items.len(), 2);
//! ```

pub mod front;
pub mod ir;

pub use front::ast::{self, TranslationUnit};
pub use front::diagnostic::Diagnostic;
pub use front::preprocessor::{preprocess, Preprocessed};
pub use front::shader::{Stage, Version};
pub use front::span::{Location, SourceMap, Span};

/// Preprocesses, lexes and parses one shader. `file_name` only names the file in diagnostics.
///
/// The first error is returned as a [`Diagnostic`] rendering as
/// `file:line:col: error: what`, the source line and a caret.
pub fn parse_shader(
    source: &str,
    stage: Stage,
    file_name: &str,
) -> Result<TranslationUnit, Diagnostic> {
    let pre = preprocess(source, stage, file_name)?;
    let error = |message: String, span: Span| {
        let location = pre.source_map.locate(span.start);
        Diagnostic::at(message, file_name, source, location)
    };
    let tokens =
        front::token::tokenize(&pre.text, pre.version).map_err(|e| error(e.message, e.span))?;
    let items = front::parser::parse(&tokens, &pre.text).map_err(|e| error(e.message, e.span))?;
    Ok(TranslationUnit {
        version: pre.version,
        stage,
        extensions: pre.extensions,
        pragmas: pre.pragmas,
        items,
        source: pre.text,
        source_map: pre.source_map,
    })
}
