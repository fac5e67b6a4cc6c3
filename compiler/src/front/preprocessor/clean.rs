//! Phase one of preprocessing: removes line continuations (`\` + newline) and replaces each
//! comment with one space, remembering where every byte came from.

use std::borrow::Cow;

use crate::front::diagnostic::Diagnostic;
use crate::span::{LineIndex, Location};

/// Text ready for the scanner, and the way back to physical positions.
pub(super) struct Cleaned<'a> {
    /// The text without comments and continuations (the source itself when it has none).
    pub text: Cow<'a, str>,
    /// Maps offsets of `text` to physical line/column.
    pub index: LineIndex,
}

/// Length of a line break starting at `at` (`\n` or `\r\n`), if one starts there.
fn newline_len(bytes: &[u8], at: usize) -> Option<usize> {
    match (bytes.get(at), bytes.get(at + 1)) {
        (Some(b'\n'), _) => Some(1),
        (Some(b'\r'), Some(b'\n')) => Some(2),
        _ => None,
    }
}

/// Whether `b` may start a continuation (`\\`), a comment (`/`) or a line (`\n`).
fn is_special(b: u8) -> bool {
    matches!(b, b'\\' | b'/' | b'\n')
}

/// The index of the first [special](is_special) byte of `bytes` at or after `at`, or
/// `bytes.len()`. Tests eight bytes at a time as one `u64` (lines average 18 bytes, so most
/// take two or three steps instead of a test per byte).
fn next_special(bytes: &[u8], mut at: usize) -> usize {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    // The high bit of each byte of `word` equal to `byte` is set, and maybe of some bytes
    // after the first such byte (a borrow runs upwards), never of one before it.
    let equal = |word: u64, byte: u8| {
        let zero_where_equal = word ^ (ONES * u64::from(byte));
        zero_where_equal.wrapping_sub(ONES) & !zero_where_equal & HIGHS
    };
    while let Some(chunk) = bytes
        .get(at..at + 8)
        .and_then(|c| <[u8; 8]>::try_from(c).ok())
    {
        let word = u64::from_le_bytes(chunk);
        let found = equal(word, b'\n') | equal(word, b'/') | equal(word, b'\\');
        if found != 0 {
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    let rest = bytes.get(at..).unwrap_or(&[]);
    at + rest
        .iter()
        .position(|&b| is_special(b))
        .unwrap_or(rest.len())
}

/// Removes comments and line continuations from `source`.
///
/// Plain text is copied in runs, from one comment or continuation to the next (a source
/// without any is not copied at all); each newline only adds an anchor to the index.
/// `anchors` is a vector to build the line index in (emptied first).
pub(super) fn clean<'a>(
    source: &'a str,
    file_name: &str,
    anchors: &mut Vec<(u32, u32, u32)>,
) -> Result<Cleaned<'a>, Diagnostic> {
    let bytes = source.as_bytes();
    let mut text = String::new();
    // Lines average 18 bytes: room for most shaders' anchors without growing the index.
    let mut index = LineIndex::reusing(anchors, source.len() / 16 + 2);
    index.push(0, 1, 0);
    let mut line = 1u32;
    let mut line_start = 0; // where the current physical line starts in `source`
    let column = |at: usize, line_start: usize| u32::try_from(at - line_start).unwrap_or(u32::MAX);
    let mut i = 0;
    let mut run = 0; // start of the pending run of plain text to copy
    loop {
        i = next_special(bytes, i);
        let Some(&b) = bytes.get(i) else {
            break;
        };
        let next = bytes.get(i + 1).copied();
        if b == b'\\' && newline_len(bytes, i + 1).is_some() {
            text.push_str(source.get(run..i).unwrap_or(""));
            i += 1 + newline_len(bytes, i + 1).unwrap_or(1);
            line += 1;
            line_start = i;
            index.push(text.len(), line, 0);
            run = i;
        } else if b == b'/' && next == Some(b'/') {
            text.push_str(source.get(run..i).unwrap_or(""));
            while let Some(&c) = bytes.get(i) {
                if c == b'\n' {
                    break;
                }
                if c == b'\\' && newline_len(bytes, i + 1).is_some() {
                    i += 1 + newline_len(bytes, i + 1).unwrap_or(1);
                    line += 1;
                    line_start = i;
                } else {
                    i += 1;
                }
            }
            text.push(' ');
            index.push(text.len(), line, column(i, line_start));
            run = i;
        } else if b == b'/' && next == Some(b'*') {
            text.push_str(source.get(run..i).unwrap_or(""));
            let (start_line, start_col) = (line, column(i, line_start));
            i += 2;
            loop {
                match (bytes.get(i), bytes.get(i + 1)) {
                    (Some(b'*'), Some(b'/')) => {
                        i += 2;
                        break;
                    }
                    (Some(b'\n'), _) => {
                        i += 1;
                        line += 1;
                        line_start = i;
                    }
                    (Some(_), _) => i += 1,
                    (None, _) => {
                        let location = Location {
                            source_string: 0,
                            line: start_line,
                            column: start_col + 1,
                            physical_line: start_line,
                        };
                        let message = "unterminated comment".to_owned();
                        return Err(Diagnostic::at(message, file_name, source, location));
                    }
                }
            }
            text.push(' ');
            index.push(text.len(), line, column(i, line_start));
            run = i;
        } else if b == b'\n' {
            i += 1;
            line += 1;
            line_start = i;
            // The cleaned text has all that was copied and the pending run up to here.
            index.push(text.len() + (i - run), line, 0);
        } else {
            i += 1;
        }
    }
    // Every comment and continuation moved `run` past itself: none was found.
    let text = if run == 0 {
        Cow::Borrowed(source)
    } else {
        text.push_str(source.get(run..).unwrap_or(""));
        Cow::Owned(text)
    };
    Ok(Cleaned { text, index })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_become_one_space_and_continuations_vanish() {
        let cleaned = clean("a/* x\n y */b // c\nd\\\ne", "t", &mut Vec::new()).expect("cleans");
        assert_eq!(cleaned.text, "a b  \nde");
        assert_eq!(cleaned.index.position(2), (2, 5));
        assert_eq!(cleaned.index.position(6), (3, 0));
        assert_eq!(cleaned.index.position(7), (4, 0));
    }

    proptest::proptest! {
        #[test]
        fn next_special_finds_the_first_special_byte(text in "[a/\\\\\n é]{0,40}", at in 0usize..41) {
            let bytes = text.as_bytes();
            let at = at.min(bytes.len());
            let expected = bytes[at..]
                .iter()
                .position(|&b| is_special(b))
                .map_or(bytes.len(), |i| at + i);
            proptest::prop_assert_eq!(next_special(bytes, at), expected);
        }
    }

    #[test]
    fn source_without_comments_or_continuations_is_not_copied() {
        let cleaned = clean("a / b\nc\\d\n", "t", &mut Vec::new()).expect("cleans");
        assert!(matches!(cleaned.text, Cow::Borrowed(_)));
        assert_eq!(cleaned.index.position(6), (2, 0));
    }

    #[test]
    fn unterminated_block_comment_is_an_error() {
        let err = clean("x\n  /* never", "t.frag", &mut Vec::new())
            .err()
            .expect("error");
        assert_eq!(err.location.map(|l| (l.line, l.column)), Some((2, 3)));
    }
}
