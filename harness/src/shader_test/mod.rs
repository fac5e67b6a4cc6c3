//! Piglit's `.shader_test` format: the typed model and its parser.

mod model;
mod parse;

pub use model::*;
pub use parse::{parse_file, parse_str, ParseError};
