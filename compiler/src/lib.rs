//! GLSL ES front end, precision resolution and mediump lowering for halfcheck.
//!
//! The pipeline, one module per step: `front/` (preprocessor, lexer, parser: an AST with
//! spans), `sema/` (scopes, types, built-ins, precision by the GLSL ES rules: the typed
//! [`ir`]), `passes/` (`lower_precision` as Mesa does it, `fold_conversions`, and
//! `mesa_pipeline` for what Mesa does later on llvmpipe). [`compile`] runs them all;
//! [`ir::dump::to_sexpr`] prints the IR the way Mesa's `glsl_compiler --dump-lir` does.
//! Start with [`parse_shader`] for the AST alone:
//!
//! ```
//! use halfcheck_compiler::{parse_shader, Stage};
//! let unit = parse_shader("precision mediump float;\nvoid main() {}", Stage::Fragment, "a.frag")
//!     .expect("parses");
//! assert_eq!(unit.items.len(), 2);
//! ```

pub mod analysis;
mod buffer;
pub mod front;
pub mod ir;
pub mod sema;
pub mod shader;
pub mod span;

pub use front::ast::{self, TranslationUnit};
pub use front::diagnostic::Diagnostic;
pub use front::preprocessor::{preprocess, Preprocessed};
pub use shader::{Stage, Version};
pub use span::{Location, SourceMap, Span};

/// Preprocesses, lexes and parses one shader. `file_name` only names the file in diagnostics.
///
/// The first error is returned as a [`Diagnostic`] rendering as
/// `file:line:col: error: what`, the source line and a caret.
pub fn parse_shader(
    source: &str,
    stage: Stage,
    file_name: &str,
) -> Result<TranslationUnit, Diagnostic> {
    front::scratch::Scratch::with(|scratch| {
        let pre = front::preprocessor::preprocess_with(source, stage, file_name, scratch)?;
        let error = |message: String, span: Span| {
            let location = pre.source_map.locate(span.start);
            Diagnostic::at(message, file_name, source, location)
        };
        let tokens = match pre.tokens {
            Ok(tokens) => tokens,
            Err(e) => return Err(error(e.message, e.span)),
        };
        let items = front::parser::parse_with(&tokens, &pre.text, scratch);
        scratch.tokens = tokens;
        Ok(TranslationUnit {
            version: pre.version,
            stage,
            extensions: pre.extensions,
            pragmas: pre.pragmas,
            items: items.map_err(|e| error(e.message, e.span))?,
            source: pre.text,
            source_map: pre.source_map,
        })
    })
}

pub mod passes;

pub use passes::Switches;
pub use sema::Model;

/// How [`compile`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompileOptions {
    /// Which precision rules to apply (`mesa` by default).
    pub model: Model,
    /// Run the lowering pass (`lower_precision`, then `fold_conversions`).
    pub lower: bool,
    /// Also apply what Mesa's later pipeline does (the lone-operation rule measured on
    /// llvmpipe): the IR the emulator runs.
    pub final_pipeline: bool,
    /// The lowering pass's switches (llvmpipe's by default).
    pub switches: Switches,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            model: Model::Mesa,
            lower: true,
            final_pipeline: false,
            switches: Switches::default(),
        }
    }
}

/// Parses, checks and (by `options`) lowers one shader to the IR.
///
/// ```
/// use halfcheck_compiler::{compile, ir, CompileOptions, Stage};
/// let src = "precision mediump float;\nuniform float a, b;\nvoid main() { gl_FragColor = vec4(a / b); }";
/// let module = compile(src, Stage::Fragment, "a.frag", &CompileOptions::default()).expect("compiles");
/// assert!(ir::dump::to_sexpr(&module).contains("(expression float16_t / "));
/// ```
pub fn compile(
    source: &str,
    stage: Stage,
    file_name: &str,
    options: &CompileOptions,
) -> Result<ir::Module, Diagnostic> {
    compile_mapped(source, stage, file_name, options).map(|compiled| compiled.module)
}

/// A compiled shader with what its spans point into.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The IR.
    pub module: ir::Module,
    /// The preprocessed text the IR's spans are byte ranges of.
    pub text: String,
    /// Maps those bytes back to lines and columns of the source given.
    pub source_map: SourceMap,
}

/// [`compile`], keeping the preprocessed text and its source map, so that each IR node's
/// span can be shown in the source (reports annotate operations this way).
pub fn compile_mapped(
    source: &str,
    stage: Stage,
    file_name: &str,
    options: &CompileOptions,
) -> Result<Compiled, Diagnostic> {
    let unit = parse_shader(source, stage, file_name)?;
    let mut module = sema::analyze(&unit, options.model).map_err(|e| {
        let location = unit.source_map.locate(e.span.start);
        Diagnostic::at(e.message, file_name, source, location)
    })?;
    if options.lower {
        passes::lower_precision::run(&mut module, options.model, &options.switches);
        passes::lower_variables::run(&mut module, &options.switches);
        passes::fold_conversions::run(&mut module);
        if options.final_pipeline {
            passes::mesa_pipeline::run(&mut module, &options.switches);
        }
    }
    Ok(Compiled {
        module,
        text: unit.source,
        source_map: unit.source_map,
    })
}
