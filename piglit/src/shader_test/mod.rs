//! Piglit's `.shader_test` format: the typed model and its parser.

mod commands;
pub mod limits;
mod model;
mod parse;
mod require;
mod tokens;
mod vertex_data;

pub use commands::{COMMANDS, UNSUPPORTED};
pub use limits::{over_budget, OverBudget};
pub use model::*;
pub use parse::{parse_bytes, parse_file, parse_str, read_file, ParseError};
