//! Evaluation of `#if`/`#elif` integer expressions (after `defined` and macro expansion).
//!
//! C precedence without `?:` and `,`. Values are 64-bit and wrap. An identifier that is still
//! there after expansion is an error, but only where it is evaluated (`0 && X` is fine).

use super::macros::PpError;
use super::tokens::PpTok;
use crate::front::lexer::{Punct, RawKind};

/// Deepest parenthesis/unary nesting accepted.
const MAX_DEPTH: usize = 64;

/// Evaluates a `#if` expression; `at` positions errors about a missing expression.
pub(super) fn evaluate(toks: &[PpTok], clean: &str, at: u32) -> Result<i64, PpError> {
    if toks.is_empty() {
        return Err(PpError::new("expected an expression after '#if'", at));
    }
    let mut eval = Evaluator {
        toks,
        clean,
        pos: 0,
        at,
    };
    let value = eval.binary(0, true, 0)?;
    match eval.toks.get(eval.pos) {
        None => Ok(value),
        Some(t) => Err(PpError::new(
            format!("unexpected '{}' in preprocessor expression", t.text(clean)),
            t.origin,
        )),
    }
}

struct Evaluator<'a> {
    toks: &'a [PpTok],
    clean: &'a str,
    pos: usize,
    at: u32,
}

/// Binary operators with their precedence (higher binds tighter).
fn binary_op(tok: &PpTok) -> Option<(Punct, u8)> {
    let RawKind::Punct(p) = tok.kind else {
        return None;
    };
    let prec = match p {
        Punct::OrOr => 1,
        Punct::AndAnd => 2,
        Punct::Pipe => 3,
        Punct::Caret => 4,
        Punct::Amp => 5,
        Punct::EqEq | Punct::Ne => 6,
        Punct::Lt | Punct::Gt | Punct::Le | Punct::Ge => 7,
        Punct::Shl | Punct::Shr => 8,
        Punct::Plus | Punct::Minus => 9,
        Punct::Star | Punct::Slash | Punct::Percent => 10,
        _ => return None,
    };
    Some((p, prec))
}

impl Evaluator<'_> {
    fn here(&self) -> u32 {
        self.toks
            .get(self.pos)
            .or_else(|| self.toks.last())
            .map_or(self.at, |t| t.origin)
    }

    fn binary(&mut self, min_prec: u8, live: bool, depth: usize) -> Result<i64, PpError> {
        let mut lhs = self.unary(live, depth)?;
        while let Some((op, prec)) = self.toks.get(self.pos).and_then(binary_op) {
            if prec <= min_prec {
                break;
            }
            let origin = self.here();
            self.pos += 1;
            let rhs_live = match op {
                Punct::AndAnd => live && lhs != 0,
                Punct::OrOr => live && lhs == 0,
                _ => live,
            };
            let rhs = self.binary(prec, rhs_live, depth + 1)?;
            lhs = apply(op, lhs, rhs, live, origin)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self, live: bool, depth: usize) -> Result<i64, PpError> {
        if depth > MAX_DEPTH {
            return Err(PpError::new(
                "preprocessor expression nested too deeply",
                self.here(),
            ));
        }
        let Some(tok) = self.toks.get(self.pos) else {
            return Err(PpError::new(
                "expected a value in preprocessor expression",
                self.here(),
            ));
        };
        self.pos += 1;
        match tok.kind {
            RawKind::Punct(Punct::Plus) => self.unary(live, depth + 1),
            RawKind::Punct(Punct::Minus) => Ok(self.unary(live, depth + 1)?.wrapping_neg()),
            RawKind::Punct(Punct::Tilde) => Ok(!self.unary(live, depth + 1)?),
            RawKind::Punct(Punct::Not) => Ok(i64::from(self.unary(live, depth + 1)? == 0)),
            RawKind::Punct(Punct::LParen) => {
                let value = self.binary(0, live, depth + 1)?;
                match self.toks.get(self.pos) {
                    Some(t) if t.is(Punct::RParen) => {
                        self.pos += 1;
                        Ok(value)
                    }
                    _ => Err(PpError::new(
                        "expected ')' in preprocessor expression",
                        self.here(),
                    )),
                }
            }
            RawKind::Number => parse_int(tok.text(self.clean)).ok_or_else(|| {
                PpError::new(
                    format!(
                        "invalid integer '{}' in preprocessor expression",
                        tok.text(self.clean)
                    ),
                    tok.origin,
                )
            }),
            RawKind::Ident if !live => Ok(0),
            RawKind::Ident => Err(PpError::new(
                format!(
                    "undefined macro '{}' in preprocessor expression",
                    tok.text(self.clean)
                ),
                tok.origin,
            )),
            _ => Err(PpError::new(
                format!(
                    "unexpected '{}' in preprocessor expression",
                    tok.text(self.clean)
                ),
                tok.origin,
            )),
        }
    }
}

fn apply(op: Punct, a: i64, b: i64, live: bool, origin: u32) -> Result<i64, PpError> {
    let shift = |b: i64| u32::try_from(b.rem_euclid(64)).unwrap_or(0);
    Ok(match op {
        Punct::OrOr => i64::from(a != 0 || b != 0),
        Punct::AndAnd => i64::from(a != 0 && b != 0),
        Punct::Pipe => a | b,
        Punct::Caret => a ^ b,
        Punct::Amp => a & b,
        Punct::EqEq => i64::from(a == b),
        Punct::Ne => i64::from(a != b),
        Punct::Lt => i64::from(a < b),
        Punct::Gt => i64::from(a > b),
        Punct::Le => i64::from(a <= b),
        Punct::Ge => i64::from(a >= b),
        Punct::Shl => a.wrapping_shl(shift(b)),
        Punct::Shr => a.wrapping_shr(shift(b)),
        Punct::Plus => a.wrapping_add(b),
        Punct::Minus => a.wrapping_sub(b),
        Punct::Star => a.wrapping_mul(b),
        Punct::Slash | Punct::Percent if b == 0 => {
            if live {
                return Err(PpError::new(
                    "division by zero in preprocessor expression",
                    origin,
                ));
            }
            0
        }
        Punct::Slash => a.wrapping_div(b),
        Punct::Percent => a.wrapping_rem(b),
        _ => 0,
    })
}

/// Parses a decimal, octal (`0` prefix) or hex (`0x`) integer with an optional `u`/`U` suffix.
pub(super) fn parse_int(text: &str) -> Option<i64> {
    let digits = text
        .strip_suffix('u')
        .or_else(|| text.strip_suffix('U'))
        .unwrap_or(text);
    let (radix, digits) = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        (16, hex)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, digits.get(1..)?)
    } else {
        (10, digits)
    };
    u64::from_str_radix(digits, radix).ok().map(|v| v as i64)
}
