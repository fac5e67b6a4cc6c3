//! Parser for `.shader_test` files (work in progress).

use super::model::*;
use std::path::Path;

/// A parse error with the file, line and column it points at.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    /// The file.
    pub path: std::path::PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The offending line's text.
    pub source_line: String,
    /// What was wrong and what was expected.
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.path.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// Reads and parses a `.shader_test` file.
pub fn parse_file(path: &Path) -> Result<ShaderTest, ParseError> {
    let bytes = std::fs::read(path).map_err(|e| ParseError {
        path: path.to_path_buf(),
        line: 0,
        column: 0,
        source_line: String::new(),
        message: format!("cannot read file: {e}"),
    })?;
    parse_str(path, &String::from_utf8_lossy(&bytes))
}

/// Parses `.shader_test` text; `path` is used for errors and `[... shader file]` sections.
pub fn parse_str(path: &Path, _text: &str) -> Result<ShaderTest, ParseError> {
    Ok(ShaderTest {
        path: path.to_path_buf(),
        require: Require::default(),
        shaders: Vec::new(),
        other_sections: Vec::new(),
        vertex_data: None,
        commands: Vec::new(),
    })
}
