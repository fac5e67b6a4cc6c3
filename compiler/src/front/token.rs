//! The parser's tokens: raw tokens of the preprocessed text turned into keywords, identifiers,
//! checked literals and punctuators, with the version deciding which words are keywords.

use super::lexer::{Punct, RawKind, Scanner};
use crate::shader::Version;
use crate::span::Span;

/// Keywords of GLSL ES (built-in type names are identifiers the parser recognises).
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keyword {
    Attribute,
    Const,
    Uniform,
    Varying,
    Buffer,
    Shared,
    Coherent,
    Volatile,
    Restrict,
    Readonly,
    Writeonly,
    Layout,
    Centroid,
    Flat,
    Smooth,
    Sample,
    Patch,
    Precise,
    Invariant,
    Break,
    Continue,
    Do,
    For,
    While,
    Switch,
    Case,
    Default,
    If,
    Else,
    In,
    Out,
    Inout,
    Lowp,
    Mediump,
    Highp,
    Precision,
    Discard,
    Return,
    Struct,
}

/// What a word that is no plain identifier means.
#[derive(Clone, Copy, Debug)]
enum Word {
    /// A keyword from the given version on (an identifier before it).
    Keyword(Keyword, Version),
    /// Reserved for future use in every GLSL ES version: using it is an error.
    Reserved,
    /// `true` or `false`.
    Bool(bool),
}

/// Keywords, reserved words and the boolean literals, sorted by spelling.
const WORDS: &[(&str, Word)] = &[
    ("asm", Word::Reserved),
    (
        "attribute",
        Word::Keyword(Keyword::Attribute, Version::Es100),
    ),
    ("break", Word::Keyword(Keyword::Break, Version::Es100)),
    ("buffer", Word::Keyword(Keyword::Buffer, Version::Es310)),
    ("case", Word::Keyword(Keyword::Case, Version::Es100)),
    ("cast", Word::Reserved),
    ("centroid", Word::Keyword(Keyword::Centroid, Version::Es100)),
    ("class", Word::Reserved),
    ("coherent", Word::Keyword(Keyword::Coherent, Version::Es310)),
    ("const", Word::Keyword(Keyword::Const, Version::Es100)),
    ("continue", Word::Keyword(Keyword::Continue, Version::Es100)),
    ("default", Word::Keyword(Keyword::Default, Version::Es100)),
    ("discard", Word::Keyword(Keyword::Discard, Version::Es100)),
    ("do", Word::Keyword(Keyword::Do, Version::Es100)),
    ("double", Word::Reserved),
    ("dvec2", Word::Reserved),
    ("dvec3", Word::Reserved),
    ("dvec4", Word::Reserved),
    ("else", Word::Keyword(Keyword::Else, Version::Es100)),
    ("enum", Word::Reserved),
    ("extern", Word::Reserved),
    ("external", Word::Reserved),
    ("false", Word::Bool(false)),
    ("fixed", Word::Reserved),
    ("flat", Word::Keyword(Keyword::Flat, Version::Es100)),
    ("for", Word::Keyword(Keyword::For, Version::Es100)),
    ("fvec2", Word::Reserved),
    ("fvec3", Word::Reserved),
    ("fvec4", Word::Reserved),
    ("goto", Word::Reserved),
    ("half", Word::Reserved),
    ("highp", Word::Keyword(Keyword::Highp, Version::Es100)),
    ("hvec2", Word::Reserved),
    ("hvec3", Word::Reserved),
    ("hvec4", Word::Reserved),
    ("if", Word::Keyword(Keyword::If, Version::Es100)),
    ("in", Word::Keyword(Keyword::In, Version::Es100)),
    ("inline", Word::Reserved),
    ("inout", Word::Keyword(Keyword::Inout, Version::Es100)),
    ("input", Word::Reserved),
    ("interface", Word::Reserved),
    (
        "invariant",
        Word::Keyword(Keyword::Invariant, Version::Es100),
    ),
    ("layout", Word::Keyword(Keyword::Layout, Version::Es100)),
    ("long", Word::Reserved),
    ("lowp", Word::Keyword(Keyword::Lowp, Version::Es100)),
    ("mediump", Word::Keyword(Keyword::Mediump, Version::Es100)),
    ("namespace", Word::Reserved),
    ("noinline", Word::Reserved),
    ("out", Word::Keyword(Keyword::Out, Version::Es100)),
    ("output", Word::Reserved),
    ("patch", Word::Keyword(Keyword::Patch, Version::Es310)),
    ("precise", Word::Keyword(Keyword::Precise, Version::Es310)),
    (
        "precision",
        Word::Keyword(Keyword::Precision, Version::Es100),
    ),
    ("public", Word::Reserved),
    ("readonly", Word::Keyword(Keyword::Readonly, Version::Es310)),
    ("restrict", Word::Keyword(Keyword::Restrict, Version::Es310)),
    ("return", Word::Keyword(Keyword::Return, Version::Es100)),
    ("sample", Word::Keyword(Keyword::Sample, Version::Es310)),
    ("shared", Word::Keyword(Keyword::Shared, Version::Es310)),
    ("short", Word::Reserved),
    ("sizeof", Word::Reserved),
    ("smooth", Word::Keyword(Keyword::Smooth, Version::Es100)),
    ("static", Word::Reserved),
    ("struct", Word::Keyword(Keyword::Struct, Version::Es100)),
    ("superp", Word::Reserved),
    ("switch", Word::Keyword(Keyword::Switch, Version::Es100)),
    ("template", Word::Reserved),
    ("this", Word::Reserved),
    ("true", Word::Bool(true)),
    ("typedef", Word::Reserved),
    ("uniform", Word::Keyword(Keyword::Uniform, Version::Es100)),
    ("union", Word::Reserved),
    ("unsigned", Word::Reserved),
    ("using", Word::Reserved),
    ("varying", Word::Keyword(Keyword::Varying, Version::Es100)),
    ("volatile", Word::Keyword(Keyword::Volatile, Version::Es100)),
    ("while", Word::Keyword(Keyword::While, Version::Es100)),
    (
        "writeonly",
        Word::Keyword(Keyword::Writeonly, Version::Es310),
    ),
];

impl Keyword {
    /// The keyword's spelling.
    pub fn as_str(self) -> &'static str {
        WORDS
            .iter()
            .find(|(_, w)| matches!(w, Word::Keyword(k, _) if *k == self))
            .map_or("", |(s, _)| s)
    }
}

/// An integer literal: its 32-bit pattern and whether it had a `u` suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntLiteral {
    /// The bit pattern (a signed literal above `i32::MAX` wraps to a negative value).
    pub bits: u32,
    /// `u`/`U` suffix.
    pub unsigned: bool,
}

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TokenKind {
    /// An identifier (including built-in type names).
    Ident,
    /// A keyword.
    Keyword(Keyword),
    /// An integer literal.
    Int(IntLiteral),
    /// A float literal; its text is the token's span and its value [`float_value`] of it
    /// (kept out of the token so that tokens stay 16 bytes).
    Float,
    /// `true` or `false`.
    Bool(bool),
    /// A punctuator.
    Punct(Punct),
    /// End of input.
    Eof,
}

/// A token and its place in the preprocessed text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Where it is.
    pub span: Span,
}

/// A lexing error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    /// What is wrong.
    pub message: String,
    /// Where.
    pub span: Span,
}

/// Splits preprocessed `text` into tokens, ending with [`TokenKind::Eof`].
///
/// The preprocessor classifies the tokens of its output as it writes them
/// ([`Preprocessed::tokens`](crate::Preprocessed::tokens)); this is the same for a text
/// given as it is.
pub fn tokenize(text: &str, version: Version) -> Result<Vec<Token>, LexError> {
    let mut tokens = TokenSink::reusing(&mut Vec::new(), text.len() / 3 + 1);
    for raw in Scanner::new(text).filter(|raw| raw.kind != RawKind::Newline) {
        let span = Span {
            start: raw.start,
            end: raw.end,
        };
        tokens.push(
            raw.kind,
            || text.get(span.range()).unwrap_or(""),
            span,
            version,
        );
    }
    tokens.finish(text.len())
}

/// What the raw token `kind` spelt `spelling` is to the parser of a `version` shader, or
/// what is wrong with it. Newlines are no tokens of the parser: callers leave them out.
fn classify(kind: RawKind, spelling: &str, version: Version) -> Result<TokenKind, String> {
    match kind {
        RawKind::Punct(Punct::Hash | Punct::HashHash) => Err(format!(
            "unexpected '{spelling}' outside a preprocessor directive"
        )),
        RawKind::Punct(p) => Ok(TokenKind::Punct(p)),
        RawKind::Ident => word(spelling, version),
        RawKind::Number => number(spelling, version),
        RawKind::Other | RawKind::Newline => Err(format!("unexpected character '{spelling}'")),
    }
}

/// The parser's tokens, classified one by one as they are found, and the first error among
/// them (the tokens after it are not kept: the text is rejected).
#[derive(Debug, Default)]
pub(crate) struct TokenSink {
    tokens: Vec<Token>,
    error: Option<LexError>,
}

impl TokenSink {
    /// An empty sink in the (emptied) vector `tokens`, with room for `additional` tokens.
    pub fn reusing(tokens: &mut Vec<Token>, additional: usize) -> Self {
        TokenSink {
            tokens: crate::buffer::reuse(tokens, additional),
            error: None,
        }
    }

    /// Classifies the raw token `kind` at `span` of the text, for a `version` shader;
    /// `spelling` gives its text (asked for only when a punctuator is not enough).
    #[inline]
    pub fn push<'t>(
        &mut self,
        kind: RawKind,
        spelling: impl FnOnce() -> &'t str,
        span: Span,
        version: Version,
    ) {
        let kind = match kind {
            RawKind::Punct(p) if !matches!(p, Punct::Hash | Punct::HashHash) => TokenKind::Punct(p),
            kind => match classify(kind, spelling(), version) {
                Ok(kind) => kind,
                Err(message) => {
                    // Only the first error is reported; the tokens are not used then.
                    self.error.get_or_insert(LexError { message, span });
                    return;
                }
            },
        };
        self.tokens.push(Token { kind, span });
    }

    /// The tokens of a text of `len` bytes, ending with [`TokenKind::Eof`], or the first
    /// error.
    pub fn finish(mut self, len: usize) -> Result<Vec<Token>, LexError> {
        if let Some(error) = self.error {
            return Err(error);
        }
        self.tokens.push(Token {
            kind: TokenKind::Eof,
            span: Span::new(len, len),
        });
        Ok(self.tokens)
    }
}

/// A word of up to 16 bytes as one number, zero-padded: two words are equal when their
/// numbers are, without a string comparison (words are identifiers, which never contain a
/// zero byte). `None` for longer words (no entry of [`WORDS`] is that long).
const fn packed(word: &str) -> Option<u128> {
    let bytes = word.as_bytes();
    if bytes.len() > 16 {
        return None;
    }
    let mut key = 0u128;
    let mut i = 0;
    while i < bytes.len() {
        key = (key << 8) | bytes[i] as u128;
        i += 1;
    }
    Some(key << (8 * (16 - bytes.len())))
}

/// [`packed`] spelling of every entry of [`WORDS`], in the same order.
const KEYS: [u128; WORDS.len()] = {
    let mut keys = [0; WORDS.len()];
    let mut i = 0;
    while i < WORDS.len() {
        keys[i] = match packed(WORDS[i].0) {
            Some(key) => key,
            None => panic!("a word longer than 16 bytes"),
        };
        i += 1;
    }
    keys
};

/// [`KEYS`] where lookups read them (a `static`: indexing a `const` array may copy it).
static WORD_KEYS: [u128; WORDS.len()] = KEYS;

/// The length of the longest entry of [`WORDS`]: a longer identifier is no word.
const LONGEST_WORD: usize = {
    let mut longest = 0;
    let mut i = 0;
    while i < WORDS.len() {
        if WORDS[i].0.len() > longest {
            longest = WORDS[i].0.len();
        }
        i += 1;
    }
    longest
};

/// Slots of [`WORD_TABLE`]: a power of two, under a third of it filled.
const WORD_SLOTS: usize = 256;

/// The first slot of [`WORD_TABLE`] to try for a [`packed`] key.
const fn slot(key: u128) -> usize {
    let folded = (key as u64) ^ ((key >> 64) as u64);
    (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize % WORD_SLOTS
}

/// An open-addressing hash table of [`WORDS`]: 1 + the index of the entry whose key is
/// there, 0 for an empty slot; a key sits at [`slot`] or in the first free slot after it.
/// Most identifiers are no word and are told so by one empty slot, without a search.
static WORD_TABLE: [u8; WORD_SLOTS] = {
    assert!(WORDS.len() < 255 && WORDS.len() * 3 < WORD_SLOTS);
    let mut table = [0u8; WORD_SLOTS];
    let mut i = 0;
    while i < WORDS.len() {
        let mut at = slot(KEYS[i]);
        while table[at] != 0 {
            at = (at + 1) % WORD_SLOTS;
        }
        table[at] = i as u8 + 1;
        i += 1;
    }
    table
};

/// The entry of [`WORDS`] spelt `spelling`, if any.
fn find_word(spelling: &str) -> Option<Word> {
    if spelling.len() > LONGEST_WORD {
        return None;
    }
    let key = packed(spelling)?;
    let mut at = slot(key);
    loop {
        let index = usize::from(*WORD_TABLE.get(at)?).checked_sub(1)?;
        if WORD_KEYS.get(index) == Some(&key) {
            return WORDS.get(index).map(|(_, w)| *w);
        }
        at = (at + 1) % WORD_SLOTS;
    }
}

fn word(spelling: &str, version: Version) -> Result<TokenKind, String> {
    match find_word(spelling) {
        Some(Word::Keyword(keyword, since)) if version >= since => Ok(TokenKind::Keyword(keyword)),
        Some(Word::Bool(value)) => Ok(TokenKind::Bool(value)),
        Some(Word::Reserved) => Err(format!(
            "'{spelling}' is a reserved word and may not be used"
        )),
        _ => Ok(TokenKind::Ident),
    }
}

/// Checks a pp-number and turns it into an integer or float literal.
fn number(text: &str, version: Version) -> Result<TokenKind, String> {
    let invalid = || format!("invalid number '{text}'");
    let bytes = text.as_bytes();
    if let Some(hex) = bytes
        .strip_prefix(b"0x")
        .or_else(|| bytes.strip_prefix(b"0X"))
    {
        let (digits, unsigned) = strip_unsigned(hex, text, version)?;
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_hexdigit) {
            return Err(invalid());
        }
        return int(digits, 16, unsigned, text);
    }
    if bytes.iter().any(|&b| matches!(b, b'.' | b'e' | b'E')) {
        let body = match bytes.split_last() {
            Some((b'f' | b'F', _)) if version < Version::Es300 => {
                return Err(format!(
                    "float suffix in '{text}' needs GLSL ES 3.00 or later"
                ))
            }
            Some((b'f' | b'F', body)) => body,
            _ => bytes,
        };
        // Every body of that form is a valid `f64` for `str::parse` (the parser takes the
        // value then), so the text is checked, not converted, here.
        if !is_float_body(body) {
            return Err(invalid());
        }
        return Ok(TokenKind::Float);
    }
    let (digits, unsigned) = strip_unsigned(bytes, text, version)?;
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(invalid());
    }
    match digits.strip_prefix(b"0").filter(|rest| !rest.is_empty()) {
        Some(octal) if octal.iter().all(|b| (b'0'..=b'7').contains(b)) => {
            int(octal, 8, unsigned, text)
        }
        Some(_) => Err(format!("invalid octal number '{text}'")),
        None => int(digits, 10, unsigned, text),
    }
}

/// The value of a float literal's text (`1.5e-3`, `2.0f`), once [`tokenize`] accepted it.
pub fn float_value(text: &str) -> Option<f64> {
    let body = text.strip_suffix(['f', 'F']).unwrap_or(text);
    body.parse().ok()
}

/// `digits` without a `u`/`U` suffix, and whether it had one (an error before ES 3.00).
fn strip_unsigned<'t>(
    digits: &'t [u8],
    text: &str,
    version: Version,
) -> Result<(&'t [u8], bool), String> {
    match digits.split_last() {
        Some((b'u' | b'U', _)) if version < Version::Es300 => Err(format!(
            "unsigned integer '{text}' needs GLSL ES 3.00 or later"
        )),
        Some((b'u' | b'U', rest)) => Ok((rest, true)),
        _ => Ok((digits, false)),
    }
}

/// The value of `digits` (checked to be digits of `radix`), an error when it needs more
/// than 32 bits.
fn int(digits: &[u8], radix: u32, unsigned: bool, text: &str) -> Result<TokenKind, String> {
    let too_large = || format!("integer '{text}' does not fit in 32 bits");
    let mut bits = 0u32;
    for &b in digits {
        let digit = char::from(b).to_digit(radix).ok_or_else(too_large)?;
        bits = bits
            .checked_mul(radix)
            .and_then(|v| v.checked_add(digit))
            .ok_or_else(too_large)?;
    }
    Ok(TokenKind::Int(IntLiteral { bits, unsigned }))
}

/// `digits [. digits] [e [+-] digits]` with at least one mantissa digit and a dot or exponent.
fn is_float_body(body: &[u8]) -> bool {
    let (mantissa, exponent) = match body.iter().position(|&b| b == b'e' || b == b'E') {
        Some(at) => (body.get(..at).unwrap_or(&[]), body.get(at + 1..)),
        None => (body, None),
    };
    let (whole, frac) = match mantissa.iter().position(|&b| b == b'.') {
        Some(at) => (
            mantissa.get(..at).unwrap_or(&[]),
            mantissa.get(at + 1..).unwrap_or(&[]),
        ),
        None => (mantissa, &[][..]),
    };
    let digits_ok = |s: &[u8]| s.iter().all(u8::is_ascii_digit);
    let mantissa_ok = digits_ok(whole) && digits_ok(frac) && !(whole.is_empty() && frac.is_empty());
    let exponent_ok = match exponent {
        None => true,
        Some(e) => {
            let e = match e.split_first() {
                Some((b'+' | b'-', rest)) => rest,
                _ => e,
            };
            !e.is_empty() && digits_ok(e)
        }
    };
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str, version: Version) -> Result<Vec<TokenKind>, LexError> {
        tokenize(text, version).map(|t| t.into_iter().map(|t| t.kind).collect())
    }

    #[test]
    fn integer_literals_in_every_radix() {
        let toks = kinds("10 010 0x1F 4294967295u", Version::Es300).expect("lexes");
        let bits: Vec<u32> = toks
            .iter()
            .filter_map(|k| match k {
                TokenKind::Int(i) => Some(i.bits),
                _ => None,
            })
            .collect();
        assert_eq!(bits, vec![10, 8, 31, u32::MAX]);
    }

    #[test]
    fn float_suffix_needs_es300() {
        assert!(kinds("1.5f", Version::Es300).is_ok());
        assert!(kinds("1.5f", Version::Es100).is_err());
    }

    #[test]
    fn integer_too_large_is_an_error() {
        assert!(kinds("4294967296", Version::Es300).is_err());
    }

    #[test]
    fn buffer_is_a_keyword_only_from_es310() {
        assert_eq!(
            kinds("buffer", Version::Es300).expect("lexes")[0],
            TokenKind::Ident
        );
        assert_eq!(
            kinds("buffer", Version::Es310).expect("lexes")[0],
            TokenKind::Keyword(Keyword::Buffer)
        );
    }

    #[test]
    fn words_are_listed_once() {
        assert!(WORDS.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn decimal_integers_of_every_length_read_their_value() {
        for n in [1u32, 7, 10, 99, 12345, 999_999_999, 1_000_000_000, u32::MAX] {
            let toks = kinds(&n.to_string(), Version::Es300).expect("lexes");
            assert_eq!(
                toks[0],
                TokenKind::Int(IntLiteral {
                    bits: n,
                    unsigned: false
                })
            );
        }
    }

    #[test]
    fn every_word_is_found_and_a_word_one_letter_longer_or_shorter_is_not() {
        for (spelling, _) in WORDS {
            let found = word(spelling, Version::Es320);
            assert!(!matches!(found, Ok(TokenKind::Ident)), "{spelling}");
            let shorter = spelling[1..].to_owned();
            for other in [shorter, format!("{spelling}_"), format!("{spelling}s")] {
                let listed = WORDS.iter().any(|(s, _)| *s == other);
                assert!(listed || word(&other, Version::Es320) == Ok(TokenKind::Ident));
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn every_accepted_float_body_has_a_value(body in "[0-9.eE+-]{1,12}") {
            if is_float_body(body.as_bytes()) {
                proptest::prop_assert!(float_value(&body).is_some(), "{}", body);
            }
        }
    }

    #[test]
    fn reserved_word_is_an_error() {
        assert!(kinds("goto", Version::Es100).is_err());
    }

    #[test]
    fn malformed_numbers_are_errors() {
        for bad in ["1f", "1e", "09", "0x", "1.0lf", "1..2"] {
            assert!(kinds(bad, Version::Es300).is_err(), "{bad}");
        }
    }
}
