//! The raw scanner shared by the preprocessor, [`tokenize`](super::token::tokenize) and
//! `requalify`: it splits text (already free of comments and line continuations) into
//! identifiers, pp-numbers, punctuators and newlines.

/// Punctuators of GLSL ES, including the preprocessor's `#` and `##`.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Punct {
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Dot,
    Comma,
    Semicolon,
    Colon,
    Question,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Lt,
    Gt,
    Le,
    Ge,
    EqEq,
    Ne,
    Assign,
    Not,
    Tilde,
    Amp,
    Pipe,
    Caret,
    AndAnd,
    OrOr,
    XorXor,
    Shl,
    Shr,
    Inc,
    Dec,
    AddAssign,
    SubAssign,
    MulAssign,
    DivAssign,
    ModAssign,
    ShlAssign,
    ShrAssign,
    AndAssign,
    XorAssign,
    OrAssign,
    Hash,
    HashHash,
}

impl Punct {
    /// The punctuator's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Punct::LParen => "(",
            Punct::RParen => ")",
            Punct::LBracket => "[",
            Punct::RBracket => "]",
            Punct::LBrace => "{",
            Punct::RBrace => "}",
            Punct::Dot => ".",
            Punct::Comma => ",",
            Punct::Semicolon => ";",
            Punct::Colon => ":",
            Punct::Question => "?",
            Punct::Plus => "+",
            Punct::Minus => "-",
            Punct::Star => "*",
            Punct::Slash => "/",
            Punct::Percent => "%",
            Punct::Lt => "<",
            Punct::Gt => ">",
            Punct::Le => "<=",
            Punct::Ge => ">=",
            Punct::EqEq => "==",
            Punct::Ne => "!=",
            Punct::Assign => "=",
            Punct::Not => "!",
            Punct::Tilde => "~",
            Punct::Amp => "&",
            Punct::Pipe => "|",
            Punct::Caret => "^",
            Punct::AndAnd => "&&",
            Punct::OrOr => "||",
            Punct::XorXor => "^^",
            Punct::Shl => "<<",
            Punct::Shr => ">>",
            Punct::Inc => "++",
            Punct::Dec => "--",
            Punct::AddAssign => "+=",
            Punct::SubAssign => "-=",
            Punct::MulAssign => "*=",
            Punct::DivAssign => "/=",
            Punct::ModAssign => "%=",
            Punct::ShlAssign => "<<=",
            Punct::ShrAssign => ">>=",
            Punct::AndAssign => "&=",
            Punct::XorAssign => "^=",
            Punct::OrAssign => "|=",
            Punct::Hash => "#",
            Punct::HashHash => "##",
        }
    }

    /// The longest punctuator at the start of `bytes`, and its length.
    #[inline]
    fn scan(bytes: &[u8]) -> Option<(Punct, usize)> {
        use Punct as P;
        let first = *bytes.first()?;
        let second = bytes.get(1).copied().unwrap_or(0);
        // A punctuator whose second byte may be `=`, doubled, or both.
        let pick = |single, doubled: Option<Punct>, with_eq: Option<Punct>| match second {
            b'=' if with_eq.is_some() => with_eq.map(|p| (p, 2)),
            _ if second == first && doubled.is_some() => doubled.map(|p| (p, 2)),
            _ => Some((single, 1)),
        };
        match first {
            b'(' => Some((P::LParen, 1)),
            b')' => Some((P::RParen, 1)),
            b'[' => Some((P::LBracket, 1)),
            b']' => Some((P::RBracket, 1)),
            b'{' => Some((P::LBrace, 1)),
            b'}' => Some((P::RBrace, 1)),
            b'.' => Some((P::Dot, 1)),
            b',' => Some((P::Comma, 1)),
            b';' => Some((P::Semicolon, 1)),
            b':' => Some((P::Colon, 1)),
            b'?' => Some((P::Question, 1)),
            b'~' => Some((P::Tilde, 1)),
            b'+' => pick(P::Plus, Some(P::Inc), Some(P::AddAssign)),
            b'-' => pick(P::Minus, Some(P::Dec), Some(P::SubAssign)),
            b'*' => pick(P::Star, None, Some(P::MulAssign)),
            b'/' => pick(P::Slash, None, Some(P::DivAssign)),
            b'%' => pick(P::Percent, None, Some(P::ModAssign)),
            b'=' => pick(P::Assign, Some(P::EqEq), None),
            b'!' => pick(P::Not, None, Some(P::Ne)),
            b'&' => pick(P::Amp, Some(P::AndAnd), Some(P::AndAssign)),
            b'|' => pick(P::Pipe, Some(P::OrOr), Some(P::OrAssign)),
            b'^' => pick(P::Caret, Some(P::XorXor), Some(P::XorAssign)),
            b'#' => pick(P::Hash, Some(P::HashHash), None),
            b'<' | b'>' => {
                let (less, less_eq, shift, shift_eq) = if first == b'<' {
                    (P::Lt, P::Le, P::Shl, P::ShlAssign)
                } else {
                    (P::Gt, P::Ge, P::Shr, P::ShrAssign)
                };
                match (second == first, bytes.get(2) == Some(&b'=')) {
                    (true, true) => Some((shift_eq, 3)),
                    (true, false) => Some((shift, 2)),
                    _ if second == b'=' => Some((less_eq, 2)),
                    _ => Some((less, 1)),
                }
            }
            _ => None,
        }
    }
}

/// What a raw token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawKind {
    /// `[A-Za-z_][A-Za-z0-9_]*`
    Ident,
    /// A preprocessing number: a digit or `.digit`, then letters, digits, `_`, `.` and
    /// exponent signs. The parser's lexer checks that it is a valid literal.
    Number,
    /// A punctuator.
    Punct(Punct),
    /// Any other character (invalid outside skipped groups and `#error`).
    Other,
    /// End of a line.
    Newline,
}

/// One raw token: its kind and byte range in the scanned text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawToken {
    /// What it is.
    pub kind: RawKind,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
    /// Whether whitespace came right before it.
    pub space_before: bool,
}

/// Byte classes of the scanner, one bit each (see [`CLASSES`]).
const SPACE: u8 = 1;
/// `[A-Za-z_]`: starts and continues an identifier, continues a pp-number.
const LETTER: u8 = 2;
/// `[0-9]`.
const DIGIT: u8 = 4;
/// `.`: continues a pp-number.
const DOT: u8 = 8;

/// The class bits of every byte: one table lookup instead of a chain of comparisons per byte.
static CLASSES: [u8; 256] = {
    let mut classes = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        classes[b] = match c {
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => SPACE,
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => LETTER,
            b'0'..=b'9' => DIGIT,
            b'.' => DOT,
            _ => 0,
        };
        b += 1;
    }
    classes
};

/// Whether byte `b` is of one of the classes in `mask`.
#[inline]
fn is(b: u8, mask: u8) -> bool {
    CLASSES[usize::from(b)] & mask != 0
}

/// Splits `text` into raw tokens; never fails (unknown characters become [`RawKind::Other`]).
pub struct Scanner<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Scanner<'a> {
    /// A scanner over `text`.
    pub fn new(text: &'a str) -> Self {
        Scanner { text, pos: 0 }
    }

    /// The end of the pp-number starting at `start`: letters, digits, `_`, `.`, and a sign
    /// right after the exponent letter of a number that is not hexadecimal (`1e+5`, but
    /// `0xE` and `+1` are two tokens).
    fn number_end(&self, start: usize) -> usize {
        let bytes = self.text.as_bytes();
        let hex = matches!(bytes.get(start..start + 2), Some(b"0x" | b"0X"));
        let mut pos = start;
        while let Some(&b) = bytes.get(pos) {
            let sign_after_exponent = matches!(b, b'+' | b'-')
                && !hex
                && matches!(
                    pos.checked_sub(1).and_then(|p| bytes.get(p)),
                    Some(b'e' | b'E')
                );
            if is(b, LETTER | DIGIT | DOT) || sign_after_exponent {
                pos += 1;
            } else {
                break;
            }
        }
        pos
    }
}

impl Iterator for Scanner<'_> {
    type Item = RawToken;

    // Inlined into the loops that collect tokens (a call per token costs more than the
    // work for most tokens).
    #[inline(always)]
    fn next(&mut self) -> Option<RawToken> {
        let bytes = self.text.as_bytes();
        let mut pos = self.pos;
        while bytes.get(pos).is_some_and(|&b| is(b, SPACE)) {
            pos += 1;
        }
        let space_before = pos > self.pos;
        let start = pos;
        let first = *bytes.get(start)?;
        let kind = if is(first, LETTER) {
            pos += 1;
            while bytes.get(pos).is_some_and(|&b| is(b, LETTER | DIGIT)) {
                pos += 1;
            }
            RawKind::Ident
        } else if first == b'\n' {
            pos += 1;
            RawKind::Newline
        } else if is(first, DIGIT)
            || (first == b'.' && bytes.get(start + 1).is_some_and(|&b| is(b, DIGIT)))
        {
            pos = self.number_end(start);
            RawKind::Number
        } else {
            match Punct::scan(bytes.get(start..).unwrap_or(&[])) {
                Some((p, len)) => {
                    pos += len;
                    RawKind::Punct(p)
                }
                None => {
                    let other = self.text.get(start..).and_then(|rest| rest.chars().next());
                    pos += other.map_or(1, char::len_utf8);
                    RawKind::Other
                }
            }
        };
        self.pos = pos;
        Some(RawToken {
            kind,
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(pos).unwrap_or(u32::MAX),
            space_before,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(RawKind, &str)> {
        Scanner::new(text)
            .map(|t| (t.kind, &text[t.start as usize..t.end as usize]))
            .collect()
    }

    #[test]
    fn longest_punctuator_wins() {
        let toks = kinds("a<<=b>>c");
        assert_eq!(toks[1], (RawKind::Punct(Punct::ShlAssign), "<<="));
        assert_eq!(toks[3], (RawKind::Punct(Punct::Shr), ">>"));
    }

    #[test]
    fn pp_number_takes_exponent_sign_and_suffix() {
        assert_eq!(kinds("1.5e-3f+x")[0], (RawKind::Number, "1.5e-3f"));
        assert_eq!(kinds(".5")[0], (RawKind::Number, ".5"));
        assert_eq!(kinds("0xE+1")[0], (RawKind::Number, "0xE"));
    }

    #[test]
    fn every_punctuator_scans_back_to_itself() {
        let spellings = [
            "(", ")", "[", "]", "{", "}", ".", ",", ";", ":", "?", "+", "-", "*", "/", "%", "<",
            ">", "<=", ">=", "==", "!=", "=", "!", "~", "&", "|", "^", "&&", "||", "^^", "<<",
            ">>", "++", "--", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=", "#",
            "##",
        ];
        for spelling in spellings {
            let (punct, len) = Punct::scan(spelling.as_bytes()).expect(spelling);
            assert_eq!((punct.as_str(), len), (spelling, spelling.len()));
        }
    }

    #[test]
    fn non_ascii_character_is_one_other_token() {
        assert_eq!(kinds("é")[0], (RawKind::Other, "é"));
    }
}
