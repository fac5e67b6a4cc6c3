//! The GLSL ES preprocessor: `#version`, `#extension`, `#pragma`, `#define`/`#undef`, the
//! conditional directives, `#line` and `#error`, with the predefined macros `GL_ES`,
//! `__VERSION__`, `__LINE__`, `__FILE__` and the extension macros.
//!
//! Its output is plain text, the parser's tokens of that text (classified as they are
//! written, so the text is not scanned again) and a [`SourceMap`] back to the input. Tokens
//! that were not produced by a macro keep their column, so most output lines line up with
//! the input.

mod clean;
mod directives;
mod expr;
mod extensions;
mod macros;
mod tokens;

use crate::buffer::reuse;
use crate::front::diagnostic::Diagnostic;
use crate::front::lexer::{Punct, RawKind, RawToken, Scanner};
use crate::front::scratch::Scratch;
use crate::shader::{Stage, Version};
use crate::span::{LineIndex, Location, Origin, SourceMap, Span};

pub use crate::front::directive::{ExtensionBehavior, ExtensionDirective, Pragma};
use crate::front::token::{LexError, Token, TokenSink};
pub use extensions::{names as extension_names, predefined as extension_predefined};
use macros::{Expander, Expansion, MacroTable, More, PpError};
use tokens::PpTok;

/// The result of preprocessing one shader.
#[derive(Clone, Debug)]
pub struct Preprocessed {
    /// Text for the parser: directives removed, macros expanded.
    pub text: String,
    /// The parser's tokens of `text`, ending with [`TokenKind::Eof`](crate::front::token::TokenKind::Eof)
    /// (what [`tokenize`](crate::front::token::tokenize) finds there, classified as they
    /// were written), or the first of them that is no valid token (`$`, `#` outside a
    /// directive, a reserved word, a malformed number).
    pub tokens: Result<Vec<Token>, LexError>,
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
    Scratch::with(|scratch| preprocess_with(source, stage, file_name, scratch))
}

/// [`preprocess`] with the thread's reusable buffers: the input's raw tokens, lines and line
/// index are given back to `scratch`; the output's tokens are `scratch.tokens`, for the
/// caller to give back once it has parsed them.
pub(crate) fn preprocess_with(
    source: &str,
    stage: Stage,
    file_name: &str,
    scratch: &mut Scratch,
) -> Result<Preprocessed, Diagnostic> {
    let cleaned = clean::clean(source, file_name, &mut scratch.line_anchors)?;
    // Shaders average 3.7 bytes a token, newlines included: room for a third as many tokens
    // as bytes saves growing the vector (and copying it) a dozen times on the way.
    let mut tokens = reuse(&mut scratch.raw_tokens, cleaned.text.len() / 3 + 16);
    tokens.extend(Scanner::new(&cleaned.text));
    let newlines = tokens.iter().filter(|t| t.kind == RawKind::Newline).count();
    let mut lines = reuse(&mut scratch.lines, newlines + 1);
    let mut start = 0;
    for (i, tok) in tokens.iter().enumerate() {
        if tok.kind == RawKind::Newline {
            lines.push((start, i));
            start = i + 1;
        }
    }
    lines.push((start, tokens.len()));
    // The output has about as many tokens as the input has besides its newlines.
    let out_tokens = TokenSink::reusing(
        &mut scratch.tokens,
        (tokens.len() + 1).saturating_sub(lines.len()),
    );
    let mut pp = Preprocessor {
        source,
        file_name,
        clean: &cleaned.text,
        index: &cleaned.index,
        tokens,
        lines,
        macros: MacroTable::new(),
        conditions: Vec::new(),
        version: None,
        seen_content: false,
        line_delta: 0,
        source_string: 0,
        out: String::with_capacity(source.len()),
        out_tokens,
        map: SourceMap::with_capacity(newlines + 1),
        spaces_only: !has_other_whitespace(cleaned.text.as_bytes()),
        index_hint: 0,
        extensions: Vec::new(),
        pragmas: Vec::new(),
        stage,
    };
    let outcome = pp.run().map_err(|e| pp.diagnostic(e));
    let Preprocessor {
        tokens,
        lines,
        out,
        out_tokens,
        map,
        version,
        extensions,
        pragmas,
        ..
    } = pp;
    scratch.raw_tokens = tokens;
    scratch.lines = lines;
    scratch.line_anchors = cleaned.index.into_anchors();
    outcome?;
    let out_len = out.len();
    Ok(Preprocessed {
        text: out,
        tokens: out_tokens.finish(out_len),
        source_map: map,
        version: version.unwrap_or(Version::Es100),
        stage,
        extensions,
        pragmas,
    })
}

/// Whether `bytes` has whitespace other than spaces and newlines (tab, `\r`, vertical tab,
/// form feed). Tests 64 bytes at a time without stopping inside them, which the compiler
/// turns into vector instructions (a test per byte that stops at the first was a tenth of
/// the preprocessor's time).
fn has_other_whitespace(bytes: &[u8]) -> bool {
    let other = |b: u8| (b.wrapping_sub(b'\t') < 5) & (b != b'\n');
    bytes
        .chunks(64)
        .any(|chunk| chunk.iter().fold(false, |found, &b| found | other(b)))
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
    /// The parser's tokens of `out`, classified as they are written.
    out_tokens: TokenSink,
    map: SourceMap,
    /// The anchor of `index` that placed the last emitted token (see `position_near`).
    index_hint: usize,
    extensions: Vec<ExtensionDirective>,
    pragmas: Vec<Pragma>,
    /// The stage being preprocessed.
    stage: Stage,
    /// Whether the only whitespace of the cleaned text is spaces and newlines (then no line
    /// needs to be checked for other whitespace before it is copied as it is).
    spaces_only: bool,
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

    /// The version whose words the output's tokens are read with (fixed before the first
    /// token is written: `#version` must come first).
    fn token_version(&self) -> Version {
        self.version.unwrap_or(Version::Es100)
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
        self.macros.define_predefined(version);
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
        if !self.line_may_expand(first) {
            self.emit_source_line(first);
            return Ok(first + 1);
        }
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

    /// Whether some identifier on `line` is a macro: else expansion would leave it as it is.
    fn line_may_expand(&self, line: usize) -> bool {
        self.line_tokens(line).iter().any(|t| {
            t.kind == RawKind::Ident
                && self.macros.may_expand(
                    self.clean
                        .get(t.start as usize..t.end as usize)
                        .unwrap_or(""),
                )
        })
    }

    /// Writes the text line `line` as it is (no macro on it): what [`Self::emit`] writes for
    /// its tokens, without building preprocessing tokens.
    fn emit_source_line(&mut self, line: usize) {
        let clean = self.clean;
        let Some(&(start, end)) = self.lines.get(line) else {
            return;
        };
        // The line starts after the previous line's newline token.
        let line_start = start
            .checked_sub(1)
            .and_then(|i| self.tokens.get(i))
            .map_or(0, |t| t.end);
        if self.emit_verbatim(line, line_start) {
            return;
        }
        let mut state = EmitState::new(self.out.len());
        for i in start..end {
            let Some(&tok) = self.tokens.get(i) else {
                break;
            };
            let text = clean
                .get(tok.start as usize..tok.end as usize)
                .unwrap_or("");
            let source = Some((tok.start, tok.end));
            self.emit_token(&mut state, tok.kind, tok.start, text, source);
        }
        self.out.push('\n');
    }

    /// The common case of [`Self::emit_source_line`]: when the line's whitespace is spaces
    /// only and every token sits at its physical column (no comment or line continuation
    /// moved it), [`Self::emit_token`] would write the cleaned line itself, and only its
    /// first token needs an anchor in the source map (the others follow by column). Writes
    /// the line and returns `true` in that case; does nothing and returns `false` otherwise.
    fn emit_verbatim(&mut self, line: usize, line_start: u32) -> bool {
        let Some(tokens) = self
            .lines
            .get(line)
            .and_then(|&(start, end)| self.tokens.get(start..end))
        else {
            return false;
        };
        let (Some(first), Some(last)) = (tokens.first(), tokens.last()) else {
            return false;
        };
        let Some(text) = self.clean.get(line_start as usize..last.end as usize) else {
            return false;
        };
        if !self.spaces_only && has_other_whitespace(text.as_bytes()) {
            return false;
        }
        let (physical_line, column) = self.index.position_near(first.start, &mut self.index_hint);
        let in_place = column == first.start - line_start
            && last.start < self.index.anchor_end(self.index_hint);
        if !in_place {
            return false;
        }
        let origin = Origin {
            physical_line,
            column,
            source_string: self.source_string,
            line_delta: self.line_delta,
        };
        let out_start = self.out.len();
        self.map.push(out_start + column as usize, origin);
        self.out.push_str(text);
        self.out.push('\n');
        let shift = |offset: u32| {
            let moved = out_start + (offset - line_start) as usize;
            u32::try_from(moved).unwrap_or(u32::MAX)
        };
        let (clean, version) = (self.clean, self.token_version());
        for t in tokens {
            let spelling = || clean.get(t.start as usize..t.end as usize).unwrap_or("");
            let span = Span {
                start: shift(t.start),
                end: shift(t.end),
            };
            self.out_tokens.push(t.kind, spelling, span, version);
        }
        true
    }

    /// Writes one output line, padding so that source tokens keep their column.
    fn emit(&mut self, toks: &[PpTok]) {
        let clean = self.clean;
        let mut state = EmitState::new(self.out.len());
        for tok in toks {
            let source = match tok.text {
                tokens::TokText::Src(start, end) if !tok.from_macro => Some((start, end)),
                _ => None,
            };
            self.emit_token(&mut state, tok.kind, tok.origin, tok.text(clean), source);
        }
        self.out.push('\n');
    }

    /// Writes one token at `origin` in the cleaned source; `source` is its byte range there
    /// when it did not come out of a macro. A source token keeps its column (padded with
    /// spaces) or its adjacency to the previous source token; other tokens are separated by
    /// one space.
    fn emit_token(
        &mut self,
        state: &mut EmitState,
        kind: RawKind,
        origin: u32,
        text: &str,
        source: Option<(u32, u32)>,
    ) {
        let (line, column) = self.index.position_near(origin, &mut self.index_hint);
        let adjacent =
            matches!((source, state.prev_end), (Some((start, _)), Some(end)) if start == end);
        if !adjacent {
            let out_col = self.out.len() - state.line_start;
            let want = column as usize;
            if source.is_some() && want > out_col {
                self.out.extend(std::iter::repeat_n(' ', want - out_col));
            } else if state.tokens > 0 {
                self.out.push(' ');
            }
        }
        let origin = Origin {
            physical_line: line,
            column,
            source_string: self.source_string,
            line_delta: self.line_delta,
        };
        let start = self.out.len();
        self.map.push(start, origin);
        self.out.push_str(text);
        if kind != RawKind::Newline {
            let span = Span::new(start, self.out.len());
            let version = self.token_version();
            self.out_tokens.push(kind, || text, span, version);
        }
        state.prev_end = source.map(|(_, end)| end);
        state.tokens += 1;
    }
}

/// Where [`Preprocessor::emit_token`] is in the output line it writes.
struct EmitState {
    /// Offset of the line in the output.
    line_start: usize,
    /// End of the previous token in the cleaned source, when it was a source token.
    prev_end: Option<u32>,
    /// Tokens written so far on the line.
    tokens: usize,
}

impl EmitState {
    fn new(line_start: usize) -> Self {
        EmitState {
            line_start,
            prev_end: None,
            tokens: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn other_whitespace_is_found_wherever_it_is(text in "[a \n\t\r\u{b}\u{c}]{0,200}") {
            let expected = text.bytes().any(|b| matches!(b, b'\t' | b'\r' | 0x0b | 0x0c));
            proptest::prop_assert_eq!(has_other_whitespace(text.as_bytes()), expected);
        }
    }
}
