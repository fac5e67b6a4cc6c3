//! The raw scanner shared by the preprocessor and the parser: it splits text (already free of
//! comments and line continuations) into identifiers, pp-numbers, punctuators and newlines.

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

/// Three-, two- and one-byte punctuators, longest first.
const PUNCTS: &[(&str, Punct)] = &[
    ("<<=", Punct::ShlAssign),
    (">>=", Punct::ShrAssign),
    ("++", Punct::Inc),
    ("--", Punct::Dec),
    ("<<", Punct::Shl),
    (">>", Punct::Shr),
    ("<=", Punct::Le),
    (">=", Punct::Ge),
    ("==", Punct::EqEq),
    ("!=", Punct::Ne),
    ("&&", Punct::AndAnd),
    ("||", Punct::OrOr),
    ("^^", Punct::XorXor),
    ("+=", Punct::AddAssign),
    ("-=", Punct::SubAssign),
    ("*=", Punct::MulAssign),
    ("/=", Punct::DivAssign),
    ("%=", Punct::ModAssign),
    ("&=", Punct::AndAssign),
    ("^=", Punct::XorAssign),
    ("|=", Punct::OrAssign),
    ("##", Punct::HashHash),
    ("(", Punct::LParen),
    (")", Punct::RParen),
    ("[", Punct::LBracket),
    ("]", Punct::RBracket),
    ("{", Punct::LBrace),
    ("}", Punct::RBrace),
    (".", Punct::Dot),
    (",", Punct::Comma),
    (";", Punct::Semicolon),
    (":", Punct::Colon),
    ("?", Punct::Question),
    ("+", Punct::Plus),
    ("-", Punct::Minus),
    ("*", Punct::Star),
    ("/", Punct::Slash),
    ("%", Punct::Percent),
    ("<", Punct::Lt),
    (">", Punct::Gt),
    ("=", Punct::Assign),
    ("!", Punct::Not),
    ("~", Punct::Tilde),
    ("&", Punct::Amp),
    ("|", Punct::Pipe),
    ("^", Punct::Caret),
    ("#", Punct::Hash),
];

impl Punct {
    /// The punctuator's spelling.
    pub fn as_str(self) -> &'static str {
        PUNCTS
            .iter()
            .find(|(_, p)| *p == self)
            .map_or("", |(s, _)| s)
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

    fn byte(&self, at: usize) -> u8 {
        self.text.as_bytes().get(at).copied().unwrap_or(0)
    }

    fn scan_number(&mut self) {
        loop {
            let b = self.byte(self.pos);
            let prev = self.pos.checked_sub(1).map_or(0, |p| self.byte(p));
            let sign_after_exponent =
                (b == b'+' || b == b'-') && matches!(prev, b'e' | b'E') && !self.is_hex_number();
            if b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || sign_after_exponent {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn is_hex_number(&self) -> bool {
        let bytes = self.text.as_bytes();
        let mut start = self.pos;
        while start > 0
            && bytes
                .get(start - 1)
                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'.' || *b == b'_')
        {
            start -= 1;
        }
        matches!(bytes.get(start..start + 2), Some(b"0x") | Some(b"0X"))
    }
}

impl Iterator for Scanner<'_> {
    type Item = RawToken;

    fn next(&mut self) -> Option<RawToken> {
        let mut space_before = false;
        while matches!(self.byte(self.pos), b' ' | b'\t' | b'\r' | 0x0b | 0x0c) {
            self.pos += 1;
            space_before = true;
        }
        let start = self.pos;
        let rest = self.text.get(start..)?;
        let first = *rest.as_bytes().first()?;
        let kind = if first == b'\n' {
            self.pos += 1;
            RawKind::Newline
        } else if first.is_ascii_alphabetic() || first == b'_' {
            while matches!(self.byte(self.pos), b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_') {
                self.pos += 1;
            }
            RawKind::Ident
        } else if first.is_ascii_digit() || (first == b'.' && self.byte(start + 1).is_ascii_digit())
        {
            self.scan_number();
            RawKind::Number
        } else if let Some((s, p)) = PUNCTS.iter().find(|(s, _)| rest.starts_with(s)) {
            self.pos += s.len();
            RawKind::Punct(*p)
        } else {
            self.pos += rest.chars().next().map_or(1, char::len_utf8);
            RawKind::Other
        };
        Some(RawToken {
            kind,
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(self.pos).unwrap_or(u32::MAX),
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
    fn non_ascii_character_is_one_other_token() {
        assert_eq!(kinds("é")[0], (RawKind::Other, "é"));
    }
}
