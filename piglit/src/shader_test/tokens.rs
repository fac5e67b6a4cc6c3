//! Word and number scanning shared by the `[require]`, `[vertex data]` and `[test]` parsers.
//!
//! Numbers follow piglit's readers: floats may be written as decimal, `inf`/`nan`, or `0x`
//! followed by the IEEE bit pattern (piglit's `strtof_hex`); integers accept C's base prefixes
//! (`0x1f`, `017`). Parentheses, commas and semicolons separate values like whitespace, so
//! `(1, 2)` and `1 2` read the same. Like piglit's readers, a command takes the values it
//! needs and ignores any that follow.

use super::model::Comparison;

/// An error inside one line, before the file and line number are attached.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct LineError {
    /// 0-based byte offset in the line where the problem starts.
    pub offset: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

impl LineError {
    /// An error at `offset` within the line.
    pub(super) fn at(offset: usize, message: impl Into<String>) -> Self {
        LineError {
            offset,
            message: message.into(),
        }
    }
}

/// A word of a line with its byte offset, for error columns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Word<'a> {
    /// The text.
    pub text: &'a str,
    /// Byte offset of the word in the line.
    pub offset: usize,
}

/// Splits `line` into words separated by whitespace, `(`, `)`, `,` and `;`.
pub(super) fn words(line: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        let separator = c.is_whitespace() || matches!(c, '(' | ')' | ',' | ';');
        match (separator, start) {
            (true, Some(s)) => {
                out.push(Word {
                    text: &line[s..i],
                    offset: s,
                });
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(Word {
            text: &line[s..],
            offset: s,
        });
    }
    out
}

/// Reads a float the way piglit's `strtof_hex` does: `0x` means raw binary32 bits.
pub(super) fn float32(word: Word<'_>) -> Result<f64, LineError> {
    if let Some(hex) = strip_hex(word.text) {
        return u32::from_str_radix(hex, 16)
            .map(|bits| f64::from(f32::from_bits(bits)))
            .map_err(|_| expected(word, "a 32-bit hex bit pattern such as 0x3f800000"));
    }
    decimal(word)
}

/// Reads a float like [`float32`] and refuses NaN and infinity (also a decimal too large for
/// binary32): a tolerance or an expected colour that is not finite makes every comparison
/// false, so a probe would pass whatever the driver drew.
pub(super) fn finite_float32(word: Word<'_>) -> Result<f64, LineError> {
    let value = float32(word)?;
    if (value as f32).is_finite() {
        Ok(value)
    } else {
        Err(expected(word, "a finite number (not NaN or infinity)"))
    }
}

/// Reads a double the way piglit's `strtod_hex` does: `0x` means raw binary64 bits.
pub(super) fn float64(word: Word<'_>) -> Result<f64, LineError> {
    if let Some(hex) = strip_hex(word.text) {
        return u64::from_str_radix(hex, 16)
            .map(f64::from_bits)
            .map_err(|_| expected(word, "a 64-bit hex bit pattern"));
    }
    decimal(word)
}

/// Reads a decimal float, `inf`, `-inf` or `nan`.
fn decimal(word: Word<'_>) -> Result<f64, LineError> {
    let text = word.text;
    text.parse::<f64>()
        .ok()
        .or_else(|| text.strip_suffix(['f', 'F'])?.parse().ok())
        .ok_or_else(|| expected(word, "a number"))
}

/// `0x`/`0X` followed by the rest, if present.
fn strip_hex(text: &str) -> Option<&str> {
    text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"))
}

/// Reads a signed integer with C's base prefixes (`0x`, leading `0` for octal).
pub(super) fn int(word: Word<'_>) -> Result<i64, LineError> {
    let (negative, digits) = match word.text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, word.text.strip_prefix('+').unwrap_or(word.text)),
    };
    let magnitude = unsigned_digits(digits).ok_or_else(|| expected(word, "an integer"))?;
    let value = i128::from(magnitude);
    let value = if negative { -value } else { value };
    // Like strtol into a 32- or 64-bit slot, values wrap rather than fail; keep 64 bits.
    Ok(value as i64)
}

/// Reads an unsigned integer with C's base prefixes; `-1` wraps as C's `strtoul` does.
pub(super) fn uint(word: Word<'_>) -> Result<u64, LineError> {
    match word.text.strip_prefix('-') {
        Some(rest) => unsigned_digits(rest)
            .map(|v| v.wrapping_neg())
            .ok_or_else(|| expected(word, "an unsigned integer")),
        None => unsigned_digits(word.text).ok_or_else(|| expected(word, "an unsigned integer")),
    }
}

/// A non-negative integer literal in C syntax (a GLSL `u` suffix allowed), or `None`.
fn unsigned_digits(text: &str) -> Option<u64> {
    let text = text.strip_suffix(['u', 'U']).unwrap_or(text);
    if let Some(hex) = strip_hex(text) {
        u64::from_str_radix(hex, 16).ok()
    } else if text.len() > 1 && text.starts_with('0') {
        u64::from_str_radix(&text[1..], 8).ok()
    } else {
        text.parse().ok()
    }
}

/// Reads a small non-negative count (texture unit, size, instance count).
pub(super) fn count(word: Word<'_>) -> Result<u32, LineError> {
    int(word)
        .ok()
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| expected(word, "a non-negative integer"))
}

/// Reads a 32-bit signed integer (vertex index, position).
pub(super) fn int32(word: Word<'_>) -> Result<i32, LineError> {
    int(word)
        .ok()
        .and_then(|v| i32::try_from(v).ok())
        .ok_or_else(|| expected(word, "a 32-bit integer"))
}

/// An error at `word` saying what was expected and what was found.
pub(super) fn expected(word: Word<'_>, what: &str) -> LineError {
    LineError::at(
        word.offset,
        format!("expected {what}, found '{}'", word.text),
    )
}

/// Reads the first `n` of `words` with `read`, erroring at the line's end when too few.
pub(super) fn take<'a, T>(
    words: &[Word<'a>],
    n: usize,
    end: usize,
    what: &str,
    read: impl Fn(Word<'a>) -> Result<T, LineError>,
) -> Result<Vec<T>, LineError> {
    if words.len() < n {
        let at = words
            .get(words.len().wrapping_sub(1))
            .map_or(end, |w| w.offset + w.text.len());
        return Err(LineError::at(
            at,
            format!("expected {n} {what}, found {}", words.len()),
        ));
    }
    words.iter().take(n).map(|&w| read(w)).collect()
}

/// Takes `N` floats into an array (see [`take`]).
pub(super) fn floats<const N: usize>(
    words: &[Word<'_>],
    end: usize,
) -> Result<[f32; N], LineError> {
    let values = take(words, N, end, "numbers", float32)?;
    let mut out = [0.0f32; N];
    for (slot, value) in out.iter_mut().zip(values) {
        *slot = value as f32;
    }
    Ok(out)
}

/// Reads a comparison operator.
pub(super) fn comparison(word: Word<'_>) -> Result<Comparison, LineError> {
    Ok(match word.text {
        "<" => Comparison::Less,
        "<=" => Comparison::LessEqual,
        "=" | "==" => Comparison::Equal,
        "!=" => Comparison::NotEqual,
        ">=" => Comparison::GreaterEqual,
        ">" => Comparison::Greater,
        _ => return Err(expected(word, "a comparison (<, <=, ==, !=, >=, >)")),
    })
}
