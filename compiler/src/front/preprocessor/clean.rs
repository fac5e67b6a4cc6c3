//! Phase one of preprocessing: removes line continuations (`\` + newline) and replaces each
//! comment with one space, remembering where every byte came from.

use crate::front::diagnostic::Diagnostic;
use crate::front::span::{LineIndex, Location};

/// Text ready for the scanner, and the way back to physical positions.
pub(super) struct Cleaned {
    /// The text without comments and continuations.
    pub text: String,
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

/// Removes comments and line continuations from `source`.
pub(super) fn clean(source: &str, file_name: &str) -> Result<Cleaned, Diagnostic> {
    let bytes = source.as_bytes();
    let mut text = String::with_capacity(source.len());
    let mut index = LineIndex::default();
    index.push(0, 1, 0);
    let (mut line, mut col) = (1u32, 0u32);
    let mut i = 0;
    let mut run = 0; // start of the pending run of plain text to copy
    while let Some(&b) = bytes.get(i) {
        if !matches!(b, b'\\' | b'/' | b'\n') {
            // Plain text up to the next byte that may start a continuation, a comment or a line.
            let plain = bytes.get(i..).map_or(0, |rest| {
                rest.iter()
                    .position(|c| matches!(c, b'\\' | b'/' | b'\n'))
                    .unwrap_or(rest.len())
            });
            i += plain;
            col = col.saturating_add(u32::try_from(plain).unwrap_or(u32::MAX));
            continue;
        }
        let next = bytes.get(i + 1).copied();
        if b == b'\\' && newline_len(bytes, i + 1).is_some() {
            text.push_str(source.get(run..i).unwrap_or(""));
            i += 1 + newline_len(bytes, i + 1).unwrap_or(1);
            line += 1;
            col = 0;
            index.push(text.len(), line, col);
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
                    col = 0;
                } else {
                    i += 1;
                    col += 1;
                }
            }
            text.push(' ');
            index.push(text.len(), line, col);
            run = i;
        } else if b == b'/' && next == Some(b'*') {
            text.push_str(source.get(run..i).unwrap_or(""));
            let (start_line, start_col) = (line, col);
            i += 2;
            col += 2;
            loop {
                match (bytes.get(i), bytes.get(i + 1)) {
                    (Some(b'*'), Some(b'/')) => {
                        i += 2;
                        col += 2;
                        break;
                    }
                    (Some(b'\n'), _) => {
                        i += 1;
                        line += 1;
                        col = 0;
                    }
                    (Some(_), _) => {
                        i += 1;
                        col += 1;
                    }
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
            index.push(text.len(), line, col);
            run = i;
        } else if b == b'\n' {
            i += 1;
            line += 1;
            col = 0;
            text.push_str(source.get(run..i).unwrap_or(""));
            index.push(text.len(), line, col);
            run = i;
        } else {
            i += 1;
            col += 1;
        }
    }
    text.push_str(source.get(run..).unwrap_or(""));
    Ok(Cleaned { text, index })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_become_one_space_and_continuations_vanish() {
        let cleaned = clean("a/* x\n y */b // c\nd\\\ne", "t").expect("cleans");
        assert_eq!(cleaned.text, "a b  \nde");
        assert_eq!(cleaned.index.position(2), (2, 5));
        assert_eq!(cleaned.index.position(6), (3, 0));
        assert_eq!(cleaned.index.position(7), (4, 0));
    }

    #[test]
    fn unterminated_block_comment_is_an_error() {
        let err = clean("x\n  /* never", "t.frag").err().expect("error");
        assert_eq!(err.location.map(|l| (l.line, l.column)), Some((2, 3)));
    }
}
