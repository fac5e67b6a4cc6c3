//! The directives: one method per directive, called with the tokens after its name.

use super::expr::{evaluate, parse_int};
use super::macros::PpError;
use super::tokens::PpTok;
use super::{Condition, ExtensionBehavior, ExtensionDirective, Pragma, Preprocessor};
use crate::front::lexer::{Punct, RawKind};
use crate::shader::Version;

impl Preprocessor<'_> {
    /// Handles the directive on `line` (whose first token is `#`).
    pub(super) fn directive(&mut self, line: usize) -> Result<(), PpError> {
        let raw = self.line_tokens(line);
        let at = raw.first().map_or(0, |t| t.start);
        let toks: Vec<PpTok> = raw.iter().skip(1).map(PpTok::from_raw).collect();
        let Some(name_tok) = toks.first() else {
            return Ok(());
        };
        let name = if name_tok.kind == RawKind::Ident {
            name_tok.text(self.clean)
        } else {
            ""
        };
        let args = toks.get(1..).unwrap_or(&[]);
        match name {
            "if" | "ifdef" | "ifndef" => return self.open_condition(name, args, at),
            "elif" => return self.elif(args, at),
            "else" => return self.else_(at),
            "endif" => {
                return match self.conditions.pop() {
                    Some(_) => Ok(()),
                    None => Err(PpError::new("'#endif' without '#if'", at)),
                }
            }
            _ if !self.active() => return Ok(()),
            "version" => return self.version_directive(args, at),
            _ => {}
        }
        self.start_content();
        match name {
            "define" => self.macros.define(args, self.clean, at),
            "undef" => self.macros.undef(args, self.clean, at),
            "extension" => self.extension(args, at),
            "pragma" => {
                let text: Vec<&str> = args.iter().map(|t| t.text(self.clean)).collect();
                let compact: String = text.concat();
                if compact == "STDGLinvariant(all)"
                    && self.stage == crate::Stage::Fragment
                    && self.version.is_some_and(|v| v >= crate::Version::Es300)
                {
                    return Err(PpError::new(
                        "expected '#pragma STDGL invariant(all)' only outside fragment shaders \
                         (GLSL ES 3.00 section 4.6.1)"
                            .to_owned(),
                        at,
                    ));
                }
                let pragma = Pragma {
                    text: text.join(" "),
                    location: self.location(at),
                };
                self.pragmas.push(pragma);
                Ok(())
            }
            "line" => self.line_directive(args, at),
            "error" => {
                let message = match (args.first(), args.last()) {
                    (Some(first), Some(last)) => self
                        .clean
                        .get(first.origin as usize..last_end(last) as usize)
                        .unwrap_or(""),
                    _ => "",
                };
                Err(PpError::new(format!("#error {message}"), at))
            }
            _ => Err(PpError::new(
                format!(
                    "invalid preprocessor directive '#{}'",
                    name_tok.text(self.clean)
                ),
                name_tok.origin,
            )),
        }
    }

    fn open_condition(&mut self, name: &str, args: &[PpTok], at: u32) -> Result<(), PpError> {
        self.start_content();
        let parent_active = self.active();
        let active = if !parent_active {
            false
        } else if name == "if" {
            self.condition_value(args, at)?
        } else {
            let Some(tok) = args.first().filter(|t| t.kind == RawKind::Ident) else {
                return Err(PpError::new(
                    format!("expected macro name after '#{name}'"),
                    at,
                ));
            };
            self.macros.is_defined(tok.text(self.clean)) == (name == "ifdef")
        };
        self.conditions.push(Condition {
            parent_active,
            active,
            taken: active || !parent_active,
            seen_else: false,
            origin: at,
        });
        Ok(())
    }

    fn elif(&mut self, args: &[PpTok], at: u32) -> Result<(), PpError> {
        let evaluate_it = match self.conditions.last() {
            None => return Err(PpError::new("'#elif' without '#if'", at)),
            Some(c) if c.seen_else => return Err(PpError::new("'#elif' after '#else'", at)),
            Some(c) => c.parent_active && !c.taken,
        };
        let active = evaluate_it && self.condition_value(args, at)?;
        if let Some(c) = self.conditions.last_mut() {
            c.active = active;
            c.taken |= active;
        }
        Ok(())
    }

    fn else_(&mut self, at: u32) -> Result<(), PpError> {
        match self.conditions.last_mut() {
            None => Err(PpError::new("'#else' without '#if'", at)),
            Some(c) if c.seen_else => Err(PpError::new("'#else' after '#else'", at)),
            Some(c) => {
                c.active = c.parent_active && !c.taken;
                c.taken = true;
                c.seen_else = true;
                Ok(())
            }
        }
    }

    /// Evaluates a `#if`/`#elif` expression.
    fn condition_value(&self, args: &[PpTok], at: u32) -> Result<bool, PpError> {
        let mut replaced = Vec::with_capacity(args.len());
        let mut i = 0;
        while let Some(tok) = args.get(i) {
            if tok.kind != RawKind::Ident || tok.text(self.clean) != "defined" {
                replaced.push(tok.clone());
                i += 1;
                continue;
            }
            let parenthesized = args.get(i + 1).is_some_and(|t| t.is(Punct::LParen));
            let name_at = if parenthesized { i + 2 } else { i + 1 };
            let name = args
                .get(name_at)
                .filter(|t| t.kind == RawKind::Ident)
                .ok_or_else(|| PpError::new("expected macro name after 'defined'", tok.origin))?;
            if parenthesized && !args.get(name_at + 1).is_some_and(|t| t.is(Punct::RParen)) {
                return Err(PpError::new(
                    "expected ')' after 'defined(NAME'",
                    name.origin,
                ));
            }
            let value = if self.macros.is_defined(name.text(self.clean)) {
                "1"
            } else {
                "0"
            };
            replaced.push(PpTok::synthetic(RawKind::Number, value, tok.origin));
            i = name_at + if parenthesized { 2 } else { 1 };
        }
        let expanded = self.expand_operands(replaced)?;
        Ok(evaluate(&expanded, self.clean, at)? != 0)
    }

    fn version_directive(&mut self, args: &[PpTok], at: u32) -> Result<(), PpError> {
        if self.seen_content || self.version.is_some() {
            return Err(PpError::new(
                "'#version' must come before anything else in the shader",
                at,
            ));
        }
        let number = args
            .first()
            .filter(|t| t.kind == RawKind::Number)
            .and_then(|t| parse_int(t.text(self.clean)))
            .ok_or_else(|| PpError::new("expected a version number after '#version'", at))?;
        let profile = args.get(1).map(|t| (t.text(self.clean), t.origin));
        if let Some((other, origin)) = profile.filter(|(p, _)| *p != "es") {
            return Err(PpError::new(
                format!("unsupported profile '{other}': GLSL ES shaders use 'es'"),
                origin,
            ));
        }
        if let Some(extra) = args.get(2) {
            return Err(PpError::new(
                "unexpected text after '#version'",
                extra.origin,
            ));
        }
        let number32 = u32::try_from(number).unwrap_or(0);
        let version = Version::from_directive(number32, profile.is_some()).ok_or_else(|| {
            let es = if profile.is_some() { " es" } else { "" };
            PpError::new(
                format!("unsupported GLSL ES version '{number}{es}' (expected 100, 300 es, 310 es or 320 es)"),
                at,
            )
        })?;
        self.version = Some(version);
        Ok(())
    }

    fn extension(&mut self, args: &[PpTok], at: u32) -> Result<(), PpError> {
        let ident = |i: usize| {
            args.get(i)
                .filter(|t| t.kind == RawKind::Ident)
                .map(|t| t.text(self.clean))
        };
        let (Some(name), true, Some(behavior)) = (
            ident(0),
            args.get(1).is_some_and(|t| t.is(Punct::Colon)),
            ident(2),
        ) else {
            return Err(PpError::new("expected '#extension name : behavior'", at));
        };
        let behavior = match behavior {
            "require" => ExtensionBehavior::Require,
            "enable" => ExtensionBehavior::Enable,
            "warn" => ExtensionBehavior::Warn,
            "disable" => ExtensionBehavior::Disable,
            other => {
                return Err(PpError::new(
                    format!("unknown extension behavior '{other}' (expected require, enable, warn or disable)"),
                    args.get(2).map_or(at, |t| t.origin),
                ))
            }
        };
        if name == "all"
            && matches!(
                behavior,
                ExtensionBehavior::Require | ExtensionBehavior::Enable
            )
        {
            return Err(PpError::new(
                "'#extension all' may only be 'warn' or 'disable'",
                at,
            ));
        }
        self.extensions.push(ExtensionDirective {
            name: name.to_owned(),
            behavior,
            location: self.location(at),
        });
        Ok(())
    }

    fn line_directive(&mut self, args: &[PpTok], at: u32) -> Result<(), PpError> {
        let expanded = self.expand_operands(args.to_vec())?;
        let number = |i: usize| {
            expanded
                .get(i)
                .filter(|t| t.kind == RawKind::Number)
                .and_then(|t| parse_int(t.text(self.clean)))
        };
        let Some(line) = number(0) else {
            return Err(PpError::new("expected a line number after '#line'", at));
        };
        if expanded.len() > 1 {
            let source = number(1).ok_or_else(|| {
                PpError::new("expected a source string number after the line", at)
            })?;
            self.source_string = u32::try_from(source).unwrap_or(u32::MAX);
        }
        if expanded.len() > 2 {
            return Err(PpError::new("unexpected text after '#line'", at));
        }
        let (physical, _) = self.index.position(at);
        self.line_delta = line.saturating_sub(i64::from(physical) + 1);
        Ok(())
    }
}

/// End offset of a token in the cleaned source (its origin for synthetic tokens).
fn last_end(tok: &PpTok) -> u32 {
    match tok.text {
        super::tokens::TokText::Src(_, end) => end,
        super::tokens::TokText::Owned(_) => tok.origin,
    }
}
