//! Which precision rules an IR's precisions follow.

use serde::{Deserialize, Serialize};

/// Which precision rules to apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Model {
    /// Everything the spec allows is lowered (precision from the consumer included).
    Spec,
    /// What Mesa does: the consumer never lends its precision.
    #[default]
    Mesa,
}
