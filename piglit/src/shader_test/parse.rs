//! Splits a `.shader_test` file into sections and hands each to its parser.
//!
//! A section runs from a `[name]` header line to the next line that starts with `[`. As in
//! piglit, text before the first section is commentary. Section bodies that hold code
//! are kept verbatim; `[require]`, `[vertex data]` and `[test]` are parsed into typed values.

use super::commands::parse_command;
use super::model::*;
use super::require::parse_requirement;
use super::tokens::LineError;
use super::vertex_data::VertexDataBuilder;
use halfcheck_compiler::front::diagnostic::{escape, Excerpt};
use std::path::{Path, PathBuf};

/// A parse error with the file, line and column it points at.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    /// The file.
    pub path: PathBuf,
    /// 1-based line (0 when the file could not be read at all).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The offending line's text (bytes that are not UTF-8 written as `\xff`). Shown escaped
    /// and cut to a window around the column, never as raw bytes.
    pub source_line: String,
    /// What was wrong and what was expected.
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: error: {}",
            escape(&self.path.display().to_string()),
            self.line,
            self.column,
            escape(&self.message)
        )?;
        if self.line > 0 {
            let excerpt = Excerpt::new(&self.source_line, self.column.saturating_sub(1));
            write!(f, "\n  | {}\n  | {}", excerpt.text, excerpt.caret_line())?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseError {}

/// Reads and parses a `.shader_test` file.
pub fn parse_file(path: &Path) -> Result<ShaderTest, ParseError> {
    parse_bytes(path, &read_file(path)?)
}

/// Reads a `.shader_test` file's bytes as [`parse_file`] does ([`super::limits::read_bounded`]),
/// for a caller that also needs them ([`parse_bytes`] parses them).
pub fn read_file(path: &Path) -> Result<Vec<u8>, ParseError> {
    super::limits::read_bounded(path).map_err(|e| ParseError {
        path: path.to_path_buf(),
        line: 0,
        column: 0,
        source_line: String::new(),
        message: format!("cannot read file: {e}"),
    })
}

/// Parses the bytes of the `.shader_test` file at `path`; bytes that are not UTF-8 are an
/// error naming their line.
pub fn parse_bytes(path: &Path, bytes: &[u8]) -> Result<ShaderTest, ParseError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_str(path, text),
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
            let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            let line_end = bytes[line_start..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |p| line_start + p);
            let before = String::from_utf8_lossy(&bytes[line_start..e.valid_up_to()]);
            Err(ParseError {
                path: path.to_path_buf(),
                line,
                column: before.chars().count() + 1,
                source_line: escape_invalid_bytes(&bytes[line_start..line_end]),
                message: "expected UTF-8 text, found invalid bytes (is this a binary file?)"
                    .to_string(),
            })
        }
    }
}

/// `bytes` as text, each byte that is not part of valid UTF-8 written as `\xNN`.
fn escape_invalid_bytes(mut bytes: &[u8]) -> String {
    let mut text = String::new();
    loop {
        match std::str::from_utf8(bytes) {
            Ok(valid) => {
                text.push_str(valid);
                return text;
            }
            Err(e) => {
                let (valid, rest) = bytes.split_at(e.valid_up_to());
                text.push_str(&String::from_utf8_lossy(valid));
                let bad = e.error_len().unwrap_or(rest.len()).max(1);
                for b in &rest[..bad] {
                    text.push_str(&format!("\\x{b:02x}"));
                }
                bytes = &rest[bad..];
            }
        }
    }
}

/// The section a line belongs to while scanning.
enum Section {
    /// Before the first header.
    Preamble,
    Require,
    Shader(usize),
    Raw(usize),
    VertexData,
    Test,
}

/// Parses `.shader_test` text; `path` names the file in errors.
pub fn parse_str(path: &Path, text: &str) -> Result<ShaderTest, ParseError> {
    let error = |line_no: usize, line: &str, e: LineError| ParseError {
        path: path.to_path_buf(),
        line: line_no,
        column: line[..e.offset.min(line.len())].chars().count() + 1,
        source_line: line.to_string(),
        message: e.message,
    };

    let mut test = ShaderTest {
        path: path.to_path_buf(),
        require: Require::default(),
        shaders: Vec::new(),
        other_sections: Vec::new(),
        vertex_data: None,
        commands: Vec::new(),
    };
    let mut section = Section::Preamble;
    let mut seen_require = false;
    let mut seen_test = false;
    let mut vertex_data: Option<VertexDataBuilder> = None;

    for (index, raw_line) in text.split('\n').enumerate() {
        let line_no = index + 1;
        let line = raw_line.strip_suffix('\r').unwrap_or(raw_line);
        if line.starts_with('[') {
            let header = parse_header(line).map_err(|e| error(line_no, line, e))?;
            section = match header {
                Header::Require => {
                    if seen_require {
                        return Err(error(
                            line_no,
                            line,
                            LineError::at(0, "a second [require] section; expected only one"),
                        ));
                    }
                    seen_require = true;
                    Section::Require
                }
                Header::Shader(stage, kind) => {
                    test.shaders.push(ShaderSource {
                        stage,
                        kind,
                        text: String::new(),
                        first_line: line_no + 1,
                    });
                    Section::Shader(test.shaders.len() - 1)
                }
                Header::Raw(name) => {
                    test.other_sections.push(RawSection {
                        name,
                        text: String::new(),
                        first_line: line_no + 1,
                    });
                    Section::Raw(test.other_sections.len() - 1)
                }
                Header::VertexData => {
                    if vertex_data.is_some() {
                        return Err(error(
                            line_no,
                            line,
                            LineError::at(0, "a second [vertex data] section; expected only one"),
                        ));
                    }
                    vertex_data = Some(VertexDataBuilder::default());
                    Section::VertexData
                }
                Header::Test => {
                    if seen_test {
                        return Err(error(
                            line_no,
                            line,
                            LineError::at(0, "a second [test] section; expected only one"),
                        ));
                    }
                    seen_test = true;
                    Section::Test
                }
            };
            continue;
        }
        match section {
            // Like piglit, text before the first section is commentary.
            Section::Preamble => {}
            Section::Require => {
                let content = strip_comment(line);
                if !content.trim().is_empty() {
                    let value = parse_requirement(content).map_err(|e| error(line_no, line, e))?;
                    test.require.items.push(Located {
                        line: line_no,
                        value,
                    });
                }
            }
            Section::Shader(i) => append_line(&mut test.shaders[i].text, line),
            Section::Raw(i) => append_line(&mut test.other_sections[i].text, line),
            Section::VertexData => {
                if let Some(builder) = vertex_data.as_mut() {
                    builder
                        .add_line(line_no, strip_comment(line))
                        .map_err(|e| error(line_no, line, e))?;
                }
            }
            Section::Test => {
                let content = strip_comment(line);
                let leading = content.len() - content.trim_start().len();
                if !content.trim().is_empty() {
                    let value = parse_command(content.trim())
                        .map_err(|e| error(line_no, line, shift(e, leading)))?;
                    test.commands.push(Located {
                        line: line_no,
                        value,
                    });
                }
            }
        }
    }

    if !seen_require {
        return Err(ParseError {
            path: path.to_path_buf(),
            line: 1,
            column: 1,
            source_line: text.lines().next().unwrap_or("").to_string(),
            message: "no [require] section; every shader_test needs one".to_string(),
        });
    }
    if let Some(builder) = vertex_data {
        test.vertex_data = Some(builder.finish());
    }
    Ok(test)
}

/// Moves an error's offset right by `by` bytes (for text that was trimmed).
fn shift(mut e: LineError, by: usize) -> LineError {
    e.offset += by;
    e
}

/// Appends a line and its newline to a section body.
fn append_line(body: &mut String, line: &str) {
    body.push_str(line);
    body.push('\n');
}

/// Drops a `#` comment: a whole-line one, or one that follows whitespace.
pub(super) fn strip_comment(line: &str) -> &str {
    if line.trim_start().starts_with('#') {
        return "";
    }
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'#' && i > 0 && bytes[i - 1].is_ascii_whitespace() {
            return &line[..i];
        }
    }
    line
}

/// A recognised section header.
enum Header {
    Require,
    Shader(Stage, SourceKind),
    Raw(String),
    VertexData,
    Test,
}

/// Parses a `[...]` header line.
fn parse_header(line: &str) -> Result<Header, LineError> {
    let close = line
        .find(']')
        .ok_or_else(|| LineError::at(line.len(), "expected ']' to close the section header"))?;
    let rest = line[close + 1..].trim();
    if !rest.is_empty() && !rest.starts_with('#') {
        return Err(LineError::at(
            close + 1,
            "unexpected text after the section header; expected the end of the line",
        ));
    }
    let name = line[1..close].trim();
    let stages = [
        Stage::Vertex,
        Stage::TessControl,
        Stage::TessEvaluation,
        Stage::Geometry,
        Stage::Fragment,
        Stage::Compute,
    ];
    match name {
        "require" => return Ok(Header::Require),
        "vertex data" => return Ok(Header::VertexData),
        "test" => return Ok(Header::Test),
        "vertex shader passthrough" => {
            return Ok(Header::Shader(Stage::Vertex, SourceKind::Passthrough))
        }
        "vertex program" => return Ok(Header::Shader(Stage::Vertex, SourceKind::ArbProgram)),
        "fragment program" => return Ok(Header::Shader(Stage::Fragment, SourceKind::ArbProgram)),
        "geometry layout" | "shader include" | "shader include paths" => {
            return Ok(Header::Raw(name.to_string()))
        }
        _ => {}
    }
    for stage in stages {
        let Some(rest) = name
            .strip_prefix(stage.section_name())
            .and_then(|r| r.strip_prefix(" shader"))
        else {
            continue;
        };
        let kind = match rest.trim() {
            "" => Some(SourceKind::Glsl),
            "spirv" => Some(SourceKind::Spirv),
            "specializations" => Some(SourceKind::Specializations),
            _ => None,
        };
        if let Some(kind) = kind {
            return Ok(Header::Shader(stage, kind));
        }
    }
    Err(LineError::at(
        1,
        format!(
            "unknown section [{name}]; expected one of [require], [vertex shader], \
             [fragment shader], [vertex data], [test], ..."
        ),
    ))
}
