//! Read-only analyses of the IR, for tools that judge a shader rather than run it.

pub mod foldable;
pub mod why;
