//! Compile errors with a position, rendered as `file:line:col: error: what` plus the source
//! line and a caret under the column.
//!
//! What a message shows of the input is made safe to print first ([`escape`], [`Excerpt`]):
//! control characters (an escape sequence in a file would drive the terminal) and bidi
//! overrides are written as `\u{1b}`, and a long line is cut to a window around the column.
//! The harness shows its own parse errors the same way.

use std::borrow::Cow;
use std::fmt;

use crate::span::Location;

/// One compile error of the front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// What went wrong, e.g. `expected ';' after declaration, found 'float'`.
    pub message: String,
    /// File name given by the caller (or the `#line` source string number when not 0).
    pub file: String,
    /// Where it went wrong, when known.
    pub location: Option<Location>,
    /// The physical source line at `location`, shown under the message.
    pub source_line: Option<String>,
}

impl Diagnostic {
    /// An error at `location` in `source` (the text given to the preprocessor).
    pub(crate) fn at(message: String, file_name: &str, source: &str, location: Location) -> Self {
        let file = if location.source_string == 0 {
            file_name.to_owned()
        } else {
            location.source_string.to_string()
        };
        let index = (location.physical_line as usize).saturating_sub(1);
        let source_line = source
            .split('\n')
            .nth(index)
            .map(|line| line.trim_end_matches('\r').to_owned());
        Diagnostic {
            message,
            file,
            location: Some(location),
            source_line,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (file, message) = (escape(&self.file), escape(&self.message));
        match self.location {
            Some(loc) => write!(f, "{file}:{}:{}: error: {message}", loc.line, loc.column)?,
            None => write!(f, "{file}: error: {message}")?,
        }
        if let (Some(line), Some(loc)) = (&self.source_line, self.location) {
            // The column counts bytes; the excerpt counts characters.
            let before = (loc.column as usize).saturating_sub(1);
            let at = line.char_indices().take_while(|&(i, _)| i < before).count();
            let excerpt = Excerpt::new(line, at);
            write!(f, "\n{}\n{}", excerpt.text, excerpt.caret_line())?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// How many characters of a source line an error shows at most.
pub const EXCERPT_WIDTH: usize = 100;

/// `text` safe to print on a terminal: control characters (newlines and tabs included) and
/// bidi overrides written as `\n`, `\t`, `\u{1b}`, every other character as it is.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().map(escaped).collect())
}

/// Whether `c` must not reach a terminal as it is.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `c` as [`escape`] shows it.
fn escaped(c: char) -> String {
    match c {
        '\n' => "\\n".to_owned(),
        '\r' => "\\r".to_owned(),
        '\t' => "\\t".to_owned(),
        c if needs_escape(c) => c.escape_unicode().to_string(),
        c => c.to_string(),
    }
}

/// A source line as an error shows it under its message: escaped like [`escape`] (tabs kept,
/// so the caret lines up), and when longer than [`EXCERPT_WIDTH`], cut to a window around the
/// column with `...` where text was left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt {
    /// The line as shown.
    pub text: String,
    /// Characters of `text` before the caret.
    pub caret: usize,
}

impl Excerpt {
    /// The excerpt of `line` with the caret before its `at`-th character (0-based).
    pub fn new(line: &str, at: usize) -> Excerpt {
        let pieces: Vec<String> = line
            .chars()
            .map(|c| {
                if c == '\t' {
                    "\t".to_owned()
                } else {
                    escaped(c)
                }
            })
            .collect();
        let width = |range: &[String]| range.iter().map(|p| p.chars().count()).sum::<usize>();
        let at = at.min(pieces.len());
        let (mut start, mut end, mut used) = (at, at, 0);
        // Grow the window from the caret, one character each side in turn, while it fits.
        loop {
            let mut grew = false;
            if let Some(next) = pieces.get(end) {
                if used + next.chars().count() <= EXCERPT_WIDTH {
                    used += next.chars().count();
                    end += 1;
                    grew = true;
                }
            }
            if let Some(previous) = start.checked_sub(1).and_then(|i| pieces.get(i)) {
                if used + previous.chars().count() <= EXCERPT_WIDTH {
                    used += previous.chars().count();
                    start -= 1;
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        let mut text = String::new();
        if start > 0 {
            text.push_str("...");
        }
        let caret = text.chars().count() + width(&pieces[start..at]);
        text.extend(pieces[start..end].iter().map(String::as_str));
        if end < pieces.len() {
            text.push_str("...");
        }
        Excerpt { text, caret }
    }

    /// The line under the excerpt: spaces (tabs where the text has tabs) up to the caret,
    /// then `^`.
    pub fn caret_line(&self) -> String {
        let mut line: String = self
            .text
            .chars()
            .take(self.caret)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        line.push('^');
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_never_printed() {
        assert_eq!(escape("red\u{1b}[31m\u{7}"), "red\\u{1b}[31m\\u{7}");
        assert_eq!(escape("a\nb\tc"), "a\\nb\\tc");
        assert_eq!(escape("\u{202e}evil"), "\\u{202e}evil");
        assert!(matches!(escape("plain ∂ text"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_long_line_is_cut_around_the_caret() {
        let line = format!("{}BAD{}", "x".repeat(500), "y".repeat(500));
        let excerpt = Excerpt::new(&line, 500);
        assert!(excerpt.text.starts_with("...x") && excerpt.text.ends_with("y..."));
        assert!(
            excerpt.text.chars().count() <= EXCERPT_WIDTH + 6,
            "{}",
            excerpt.text
        );
        let shown: String = excerpt.text.chars().skip(excerpt.caret).take(3).collect();
        assert_eq!(shown, "BAD");
    }

    #[test]
    fn the_caret_follows_escapes_and_keeps_tabs() {
        let excerpt = Excerpt::new("\tx = \u{1b}y;", 5);
        assert_eq!(excerpt.text, "\tx = \\u{1b}y;");
        assert_eq!(excerpt.caret_line(), "\t    ^");
        let short = Excerpt::new("ab", 2);
        assert_eq!((short.text.as_str(), short.caret), ("ab", 2));
    }
}
