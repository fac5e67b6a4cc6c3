//! The GLSL ES preprocessor: `#version`, `#extension`, `#pragma`, `#define`/`#undef`, the
//! conditional directives, `#line` and `#error`, with the predefined macros `GL_ES`,
//! `__VERSION__`, `__LINE__`, `__FILE__` and the extension macros.
//!
//! Its output is plain text for the parser plus a [`SourceMap`] back to the input. Tokens that
//! were not produced by a macro keep their column, so most output lines line up with the input.

mod clean;
mod directives;
mod expr;
mod extensions;
mod macros;
mod tokens;

use crate::front::diagnostic::Diagnostic;
use crate::front::lexer::{Punct, RawKind, RawToken, Scanner};
use crate::front::shader::{Stage, Version};
use crate::front::span::{LineIndex, Location, Origin, SourceMap};
use macros::{Expander, Expansion, MacroTable, More, PpError};
use tokens::PpTok;

/// How an `#extension` directive asks for an extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtensionBehavior {
    /// `require`
    Require,
    /// `enable`
    Enable,
    /// `warn`
    Warn,
    /// `disable`
    Disable,
}

/// One `#extension name : behavior` directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtensionDirective {
    /// Extension name, or `all`.
    pub name: String,
    /// What the shader asked for.
    pub behavior: ExtensionBehavior,
    /// Where the directive is.
    pub location: Location,
}

/// One `#pragma` directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pragma {
    /// The tokens after `pragma`, joined by single spaces.
    pub text: String,
    /// Where the directive is.
    pub location: Location,
}

/// The result of preprocessing one shader.
#[derive(Clone, Debug)]
pub struct Preprocessed {
    /// Text for the parser: directives removed, macros expanded.
    pub text: String,
    /// Maps offsets of `text` back to the input.
    pub source_map: SourceMap,
    /// The language version (`#version`, or 1.00 without one).
    pub version: Version,
    /// The stage it was preprocessed for.
    pub stage: Stage,
    /// `#extension` directives, in order.
    pub extensions: Vec<ExtensionDirective>,
    /// `#pragma` directives, in order.
    pub pragmas: Vec<Pragma>,
}

/// Preprocesses `source`; `file_name` only names the file in diagnostics.
pub fn preprocess(source: &str, stage: Stage, file_name: &str) -> Result<Preprocessed, Diagnostic> {
    let cleaned = clean::clean(source, file_name)?;
    let tokens: Vec<RawToken> = Scanner::new(&cleaned.text).collect();
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, tok) in tokens.iter().enumerate() {
        if tok.kind == RawKind::Newline {
            lines.push((start, i));
            start = i + 1;
        }
    }
    lines.push((start, tokens.len()));
    let mut pp = Preprocessor {
        source,
        file_name,
        clean: &cleaned.text,
        index: &cleaned.index,
        tokens,
        lines,
        macros: MacroTable::default(),
        conditions: Vec::new(),
        version: None,
        seen_content: false,
        line_delta: 0,
        source_string: 0,
        out: String::with_capacity(source.len()),
        map: SourceMap::default(),
        extensions: Vec::new(),
        pragmas: Vec::new(),
        stage,
    };
    pp.run().map_err(|e| pp.diagnostic(e))?;
    Ok(Preprocessed {
        text: pp.out,
        source_map: pp.map,
        version: pp.version.unwrap_or(Version::Es100),
        stage,
        extensions: pp.extensions,
        pragmas: pp.pragmas,
    })
}

/// One open `#if` group.
struct Condition {
    /// Whether the enclosing text is active.
    parent_active: bool,
    /// Whether the current branch is active.
    active: bool,
    /// Whether some branch was taken already.
    taken: bool,
    /// Whether `#else` was seen.
    seen_else: bool,
    /// Where the `#if` is, for "unterminated" errors.
    origin: u32,
}

struct Preprocessor<'a> {
    source: &'a str,
    file_name: &'a str,
    clean: &'a str,
    index: &'a LineIndex,
    tokens: Vec<RawToken>,
    /// Token index ranges of each line, newline excluded.
    lines: Vec<(usize, usize)>,
    macros: MacroTable,
    conditions: Vec<Condition>,
    version: Option<Version>,
    /// Whether anything but `#version` was seen (then `#version` is too late).
    seen_content: bool,
    line_delta: i64,
    source_string: u32,
    out: String,
    map: SourceMap,
    extensions: Vec<ExtensionDirective>,
    pragmas: Vec<Pragma>,
    /// The stage being preprocessed.
    stage: Stage,
}

impl Preprocessor<'_> {
    fn location(&self, origin: u32) -> Location {
        let (line, column) = self.index.position(origin);
        let reported = i64::from(line) + self.line_delta;
        Location {
            source_string: self.source_string,
            line: u32::try_from(reported.max(0)).unwrap_or(u32::MAX),
            column: column.saturating_add(1),
            physical_line: line,
        }
    }

    fn diagnostic(&self, error: PpError) -> Diagnostic {
        let location = self.location(error.origin);
        Diagnostic::at(error.message, self.file_name, self.source, location)
    }

    fn active(&self) -> bool {
        !matches!(self.conditions.last(), Some(c) if !c.active)
    }

    fn line_tokens(&self, line: usize) -> &[RawToken] {
        self.lines
            .get(line)
            .and_then(|&(start, end)| self.tokens.get(start..end))
            .unwrap_or(&[])
    }

    fn is_directive(&self, line: usize) -> bool {
        self.line_tokens(line)
            .first()
            .is_some_and(|t| t.kind == RawKind::Punct(Punct::Hash))
    }

    /// Defines the predefined macros once the version is known.
    fn start_content(&mut self) {
        if self.seen_content {
            return;
        }
        self.seen_content = true;
        let version = self.version.unwrap_or(Version::Es100);
        self.macros.define_predefined("GL_ES", "1");
        self.macros
            .define_predefined("__VERSION__", &version.number().to_string());
        for name in extensions::extension_macros(version) {
            self.macros.define_predefined(name, "1");
        }
    }

    fn run(&mut self) -> Result<(), PpError> {
        let mut line = 0;
        while line < self.lines.len() {
            if self.is_directive(line) {
                self.directive(line)?;
                self.out.push('\n');
                line += 1;
                continue;
            }
            if !self.active() || self.line_tokens(line).is_empty() {
                self.out.push('\n');
                line += 1;
                continue;
            }
            self.start_content();
            line = self.text_lines(line)?;
        }
        match self.conditions.last() {
            Some(open) => Err(PpError::new("unterminated '#if'", open.origin)),
            None => Ok(()),
        }
    }

    /// Expands and emits the text line `first` (joined with the following lines when a macro's
    /// arguments continue there); returns the next line to process.
    fn text_lines(&mut self, first: usize) -> Result<usize, PpError> {
        let mut end = first + 1;
        loop {
            let input: Vec<PpTok> = (first..end)
                .flat_map(|l| self.line_tokens(l).iter().map(PpTok::from_raw))
                .collect();
            let joinable = end < self.lines.len() && !self.is_directive(end);
            let more = More {
                lines: joinable,
                next_is_paren: joinable
                    && self
                        .line_tokens(end)
                        .first()
                        .is_some_and(|t| t.kind == RawKind::Punct(Punct::LParen)),
            };
            match self.expand(input, more)? {
                Expansion::Done(toks) => {
                    self.emit(&toks);
                    for _ in first + 1..end {
                        self.out.push('\n');
                    }
                    return Ok(end);
                }
                Expansion::NeedMore => end += 1,
            }
        }
    }

    fn expand(&self, input: Vec<PpTok>, more: More) -> Result<Expansion, PpError> {
        let line_of = |origin: u32| self.location(origin).line;
        let mut expander = Expander {
            macros: &self.macros,
            clean: self.clean,
            line_of: &line_of,
            source_string: self.source_string,
            budget: Expander::budget(),
        };
        expander.expand(input, more, 0)
    }

    /// Expands a directive's operands (for `#if` and `#line`).
    fn expand_operands(&self, input: Vec<PpTok>) -> Result<Vec<PpTok>, PpError> {
        let more = More {
            lines: false,
            next_is_paren: false,
        };
        match self.expand(input, more)? {
            Expansion::Done(toks) => Ok(toks),
            Expansion::NeedMore => Ok(Vec::new()),
        }
    }

    /// Writes one output line, padding so that source tokens keep their column.
    fn emit(&mut self, toks: &[PpTok]) {
        let line_start = self.out.len();
        let mut prev_end: Option<u32> = None;
        for (i, tok) in toks.iter().enumerate() {
            let (line, column) = self.index.position(tok.origin);
            let adjacent = match (&tok.text, prev_end) {
                (tokens::TokText::Src(start, _), Some(end)) => !tok.from_macro && *start == end,
                _ => false,
            };
            if !adjacent {
                let out_col = self.out.len() - line_start;
                let want = column as usize;
                if !tok.from_macro && want > out_col {
                    for _ in out_col..want {
                        self.out.push(' ');
                    }
                } else if i > 0 {
                    self.out.push(' ');
                }
            }
            let origin = Origin {
                physical_line: line,
                column,
                source_string: self.source_string,
                line_delta: self.line_delta,
            };
            self.map.push(self.out.len(), origin);
            self.out.push_str(tok.text(self.clean));
            prev_end = match &tok.text {
                tokens::TokText::Src(_, end) if !tok.from_macro => Some(*end),
                _ => None,
            };
        }
        self.out.push('\n');
    }
}
