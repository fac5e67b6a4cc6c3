//! Printing a module: Mesa's s-expression style, and JSON.

use super::Module;

/// The module as JSON (the serde form of the IR).
pub fn to_json(module: &Module) -> String {
    serde_json::to_string_pretty(module).unwrap_or_default()
}
