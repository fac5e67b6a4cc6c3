//! The macro table (`#define`, `#undef`) and macro expansion.
//!
//! Expansion follows the C rules GLSL adopts: a function-like macro name is expanded only when
//! followed by `(`, arguments are fully expanded before substitution, and the result is
//! rescanned. Each token carries a hide set of the macros it came from, so a macro never
//! expands inside its own expansion (`#define X X + 1` terminates).

use std::collections::HashMap;

use super::extensions::extension_macros;
use super::tokens::PpTok;
use crate::front::lexer::{Punct, RawKind};
use crate::shader::Version;

/// A preprocessor error at a position of the cleaned source.
#[derive(Debug)]
pub(super) struct PpError {
    /// What went wrong.
    pub message: String,
    /// Offset in the cleaned source.
    pub origin: u32,
}

impl PpError {
    /// An error at `origin`.
    pub fn new(message: impl Into<String>, origin: u32) -> Self {
        PpError {
            message: message.into(),
            origin,
        }
    }
}

/// Names the preprocessor computes itself for each use.
const DYNAMIC: &[&str] = &["__LINE__", "__FILE__"];

/// Most tokens one line may produce through expansion before it is refused.
const EXPANSION_BUDGET: usize = 100_000;
/// Deepest nesting of macro invocations inside arguments.
const MAX_ARGUMENT_DEPTH: usize = 64;

struct Macro {
    id: u32,
    params: Option<Vec<String>>,
    body: Vec<PpTok>,
}

/// All macros currently defined.
pub(super) struct MacroTable {
    map: HashMap<String, Macro>,
    next_id: u32,
    /// First bytes (a 256-bit set) of every name ever defined, and of the dynamic names.
    first_bytes: [u64; 4],
    /// Lengths (bit `min(len, 63)`) of the same names.
    lengths: u64,
    /// The version whose predefined macros are defined (once the shader's content starts).
    predefined_for: Option<Version>,
}

impl MacroTable {
    /// A table with no macros yet.
    pub fn new() -> Self {
        let mut table = MacroTable {
            map: HashMap::new(),
            next_id: 0,
            first_bytes: [0; 4],
            lengths: 0,
            predefined_for: None,
        };
        for name in DYNAMIC {
            table.note_name(name);
        }
        table
    }

    /// Remembers `name`'s first byte and length for [`Self::may_expand`].
    fn note_name(&mut self, name: &str) {
        let (word, bit) = Self::first_byte_bit(name);
        if let Some(set) = self.first_bytes.get_mut(word) {
            *set |= bit;
        }
        self.lengths |= Self::length_bit(name);
    }

    fn first_byte_bit(name: &str) -> (usize, u64) {
        let first = name.as_bytes().first().copied().unwrap_or(0);
        (usize::from(first >> 6), 1 << (first & 63))
    }

    fn length_bit(name: &str) -> u64 {
        1 << name.len().min(63)
    }

    /// Whether the identifier `name` is a macro or a dynamic name (`__LINE__`), so that
    /// expansion may change it. Most identifiers are answered from the first byte and
    /// length alone, without hashing.
    pub fn may_expand(&self, name: &str) -> bool {
        let (word, bit) = Self::first_byte_bit(name);
        let maybe = self.first_bytes.get(word).is_some_and(|set| set & bit != 0)
            && self.lengths & Self::length_bit(name) != 0;
        maybe && self.is_defined(name)
    }

    /// Defines the predefined macros of `version`: `GL_ES`, `__VERSION__` and the extension
    /// macros. They can be neither redefined nor undefined, so they live outside the table
    /// and cost a shader nothing until it names one.
    pub fn define_predefined(&mut self, version: Version) {
        self.predefined_for = Some(version);
        let names = ["GL_ES", "__VERSION__"].into_iter();
        for name in names.chain(extension_macros(version)) {
            self.note_name(name);
        }
    }

    /// The value of `name` when it is a predefined macro.
    fn predefined_value(&self, name: &str) -> Option<u32> {
        let version = self.predefined_for?;
        match name {
            "GL_ES" => Some(1),
            "__VERSION__" => Some(version.number()),
            _ => extension_macros(version).any(|e| e == name).then_some(1),
        }
    }

    fn insert(&mut self, name: &str, params: Option<Vec<String>>, body: Vec<PpTok>) {
        self.note_name(name);
        self.next_id += 1;
        let id = self.next_id;
        self.map.insert(name.to_owned(), Macro { id, params, body });
    }

    /// Whether `name` is a macro (for `defined` and `#ifdef`).
    pub fn is_defined(&self, name: &str) -> bool {
        self.map.contains_key(name)
            || DYNAMIC.contains(&name)
            || self.predefined_value(name).is_some()
    }

    fn check_definable(&self, name: &str, origin: u32, verb: &str) -> Result<(), PpError> {
        if name == "defined" {
            return Err(PpError::new(format!("cannot {verb} 'defined'"), origin));
        }
        let predefined = self.predefined_value(name).is_some();
        if predefined || DYNAMIC.contains(&name) || name == "__VERSION__" {
            return Err(PpError::new(
                format!("cannot {verb} predefined macro '{name}'"),
                origin,
            ));
        }
        if name.starts_with("GL_") {
            return Err(PpError::new(
                format!("cannot {verb} '{name}': macro names starting with 'GL_' are reserved"),
                origin,
            ));
        }
        Ok(())
    }

    /// Handles `#define` given the tokens after `define`.
    pub fn define(&mut self, toks: &[PpTok], clean: &str, at: u32) -> Result<(), PpError> {
        let Some(name_tok) = toks.first().filter(|t| t.kind == RawKind::Ident) else {
            let origin = toks.first().map_or(at, |t| t.origin);
            return Err(PpError::new("expected macro name after '#define'", origin));
        };
        let name = name_tok.text(clean);
        self.check_definable(name, name_tok.origin, "define")?;
        let mut rest = toks.get(1..).unwrap_or(&[]);
        let mut params = None;
        if rest
            .first()
            .is_some_and(|t| t.is(Punct::LParen) && !t.space_before)
        {
            let (list, after) = parse_params(rest, clean, name_tok.origin)?;
            params = Some(list);
            rest = after;
        }
        let body = rest.to_vec();
        if let Some(old) = self.map.get(name) {
            if old.params == params && same_body(&old.body, &body, clean) {
                return Ok(());
            }
            return Err(PpError::new(
                format!("macro '{name}' redefined differently"),
                name_tok.origin,
            ));
        }
        self.insert(name, params, body);
        Ok(())
    }

    /// Handles `#undef` given the tokens after `undef`.
    pub fn undef(&mut self, toks: &[PpTok], clean: &str, at: u32) -> Result<(), PpError> {
        let Some(name_tok) = toks.first().filter(|t| t.kind == RawKind::Ident) else {
            return Err(PpError::new("expected macro name after '#undef'", at));
        };
        let name = name_tok.text(clean);
        self.check_definable(name, name_tok.origin, "undefine")?;
        self.map.remove(name);
        Ok(())
    }
}

/// Parses `(a, b, ...)` of a function-like macro; returns the names and the tokens after `)`.
fn parse_params<'t>(
    toks: &'t [PpTok],
    clean: &str,
    at: u32,
) -> Result<(Vec<String>, &'t [PpTok]), PpError> {
    let mut params: Vec<String> = Vec::new();
    let mut i = 1;
    if toks.get(i).is_some_and(|t| t.is(Punct::RParen)) {
        return Ok((params, toks.get(i + 1..).unwrap_or(&[])));
    }
    loop {
        let Some(tok) = toks.get(i).filter(|t| t.kind == RawKind::Ident) else {
            let origin = toks.get(i).map_or(at, |t| t.origin);
            return Err(PpError::new("expected macro parameter name", origin));
        };
        let name = tok.text(clean);
        if params.iter().any(|p| p == name) {
            return Err(PpError::new(
                format!("duplicate macro parameter '{name}'"),
                tok.origin,
            ));
        }
        params.push(name.to_owned());
        i += 1;
        match toks.get(i) {
            Some(t) if t.is(Punct::Comma) => i += 1,
            Some(t) if t.is(Punct::RParen) => {
                return Ok((params, toks.get(i + 1..).unwrap_or(&[])))
            }
            other => {
                let origin = other.map_or(at, |t| t.origin);
                return Err(PpError::new(
                    "expected ',' or ')' in macro parameter list",
                    origin,
                ));
            }
        }
    }
}

fn same_body(a: &[PpTok], b: &[PpTok], clean: &str) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).enumerate().all(|(i, (x, y))| {
            x.text(clean) == y.text(clean) && (i == 0 || x.space_before == y.space_before)
        })
}

/// The result of expanding one line.
pub(super) enum Expansion {
    /// The expanded tokens.
    Done(Vec<PpTok>),
    /// A function-like macro's arguments continue on the next line: join it and retry.
    NeedMore,
}

/// Whether the line being expanded may be joined with the following ones.
#[derive(Clone, Copy)]
pub(super) struct More {
    /// More text lines follow.
    pub lines: bool,
    /// The next line starts with `(`.
    pub next_is_paren: bool,
}

/// Expands macros in token lists.
pub(super) struct Expander<'a> {
    /// Defined macros.
    pub macros: &'a MacroTable,
    /// The cleaned source the tokens point into.
    pub clean: &'a str,
    /// Reported line of a cleaned-source offset, for `__LINE__`.
    pub line_of: &'a dyn Fn(u32) -> u32,
    /// Current source string number, for `__FILE__`.
    pub source_string: u32,
    /// Tokens that may still be produced.
    pub budget: usize,
}

impl Expander<'_> {
    /// A fresh budget.
    pub fn budget() -> usize {
        EXPANSION_BUDGET
    }

    /// Expands `input` completely.
    pub fn expand(
        &mut self,
        input: Vec<PpTok>,
        more: More,
        depth: usize,
    ) -> Result<Expansion, PpError> {
        let mut stack: Vec<PpTok> = input.into_iter().rev().collect();
        let mut out = Vec::with_capacity(stack.len());
        while let Some(tok) = stack.pop() {
            if tok.kind != RawKind::Ident {
                out.push(tok);
                continue;
            }
            let name = tok.text(self.clean);
            if name == "__LINE__" || name == "__FILE__" {
                let value = if name == "__LINE__" {
                    (self.line_of)(tok.origin)
                } else {
                    self.source_string
                };
                let mut number = PpTok::synthetic(RawKind::Number, &value.to_string(), tok.origin);
                number.space_before = tok.space_before;
                out.push(number);
                continue;
            }
            let Some(mac) = self
                .macros
                .map
                .get(name)
                .filter(|m| !tok.hide.contains(&m.id))
            else {
                match self.macros.predefined_value(name) {
                    Some(value) => {
                        // A predefined macro expands to one number (which never expands).
                        self.spend(1, tok.origin)?;
                        let mut number =
                            PpTok::synthetic(RawKind::Number, &value.to_string(), tok.origin);
                        number.space_before = tok.space_before;
                        number.hide = tok.hide;
                        out.push(number);
                    }
                    None => out.push(tok),
                }
                continue;
            };
            let replacement = match &mac.params {
                None => self.instantiate(mac, &tok, &[])?,
                Some(params) => {
                    match stack.last() {
                        Some(t) if t.is(Punct::LParen) => {}
                        None if more.next_is_paren => return Ok(Expansion::NeedMore),
                        _ => {
                            out.push(tok);
                            continue;
                        }
                    }
                    let Some(mut args) = collect_args(&mut stack) else {
                        if more.lines {
                            return Ok(Expansion::NeedMore);
                        }
                        return Err(PpError::new(
                            format!("unterminated argument list invoking macro '{name}'"),
                            tok.origin,
                        ));
                    };
                    if params.is_empty() && args.len() == 1 && args.iter().all(Vec::is_empty) {
                        args.clear();
                    }
                    if args.len() != params.len() {
                        return Err(PpError::new(
                            format!(
                                "macro '{name}' expects {} argument(s), found {}",
                                params.len(),
                                args.len()
                            ),
                            tok.origin,
                        ));
                    }
                    if depth >= MAX_ARGUMENT_DEPTH {
                        return Err(PpError::new(
                            "macro arguments nested too deeply",
                            tok.origin,
                        ));
                    }
                    let mut expanded = Vec::with_capacity(args.len());
                    let none = More {
                        lines: false,
                        next_is_paren: false,
                    };
                    for arg in args {
                        match self.expand(arg, none, depth + 1)? {
                            Expansion::Done(toks) => expanded.push(toks),
                            Expansion::NeedMore => expanded.push(Vec::new()),
                        }
                    }
                    self.instantiate(mac, &tok, &expanded)?
                }
            };
            stack.extend(replacement.into_iter().rev());
        }
        Ok(Expansion::Done(out))
    }

    /// The body of `mac` invoked at `at`, with parameters replaced by `args`.
    fn instantiate(
        &mut self,
        mac: &Macro,
        at: &PpTok,
        args: &[Vec<PpTok>],
    ) -> Result<Vec<PpTok>, PpError> {
        let mut hide = at.hide.clone();
        hide.push(mac.id);
        let params = mac.params.as_deref().unwrap_or(&[]);
        let mut out: Vec<PpTok> = Vec::with_capacity(mac.body.len());
        for body_tok in &mac.body {
            let param = (body_tok.kind == RawKind::Ident)
                .then(|| params.iter().position(|p| p == body_tok.text(self.clean)))
                .flatten();
            let pieces: &[PpTok] = match param.and_then(|k| args.get(k)) {
                Some(arg) => arg,
                None => std::slice::from_ref(body_tok),
            };
            for (k, piece) in pieces.iter().enumerate() {
                let mut tok = piece.clone();
                tok.origin = at.origin;
                tok.from_macro = true;
                if k == 0 {
                    tok.space_before = body_tok.space_before;
                }
                for id in &hide {
                    if !tok.hide.contains(id) {
                        tok.hide.push(*id);
                    }
                }
                out.push(tok);
            }
        }
        if let Some(first) = out.first_mut() {
            first.space_before = at.space_before;
        }
        self.spend(out.len().max(1), at.origin)?;
        Ok(out)
    }

    /// Takes `tokens` from the budget of tokens expansion may still produce.
    fn spend(&mut self, tokens: usize, origin: u32) -> Result<(), PpError> {
        self.budget = self
            .budget
            .checked_sub(tokens)
            .ok_or_else(|| PpError::new("macro expansion is too large", origin))?;
        Ok(())
    }
}

/// Pops `( a, b )` off the stack (top = next token); `None` when `)` never comes.
fn collect_args(stack: &mut Vec<PpTok>) -> Option<Vec<Vec<PpTok>>> {
    stack.pop();
    let mut args: Vec<Vec<PpTok>> = vec![Vec::new()];
    let mut depth = 0usize;
    loop {
        let tok = stack.pop()?;
        if tok.is(Punct::RParen) {
            if depth == 0 {
                break;
            }
            depth -= 1;
        } else if tok.is(Punct::LParen) {
            depth += 1;
        } else if tok.is(Punct::Comma) && depth == 0 {
            args.push(Vec::new());
            continue;
        }
        if let Some(last) = args.last_mut() {
            last.push(tok);
        }
    }
    Some(args)
}
