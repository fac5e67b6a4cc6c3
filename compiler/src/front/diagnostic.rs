//! Compile errors with a position, rendered as `file:line:col: error: what` plus the source
//! line and a caret under the column.

use std::fmt;

use super::span::Location;

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

    /// The caret line: spaces (tabs kept) up to the column, then `^`.
    fn caret(line: &str, column: u32) -> String {
        let mut caret: String = line
            .bytes()
            .take(column.saturating_sub(1) as usize)
            .map(|b| if b == b'\t' { '\t' } else { ' ' })
            .collect();
        caret.push('^');
        caret
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Some(loc) => write!(
                f,
                "{}:{}:{}: error: {}",
                self.file, loc.line, loc.column, self.message
            )?,
            None => write!(f, "{}: error: {}", self.file, self.message)?,
        }
        if let (Some(line), Some(loc)) = (&self.source_line, self.location) {
            write!(f, "\n{line}\n{}", Self::caret(line, loc.column))?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}
