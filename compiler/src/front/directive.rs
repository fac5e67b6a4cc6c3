//! The directives a shader's preprocessing reports to what comes after it: `#extension`
//! and `#pragma`, with where they stand.

use crate::span::Location;

/// How an `#extension` directive asks for an extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtensionBehavior {
    /// `require`
    Require,
    /// `enable`
    Enable,
    /// `warn`
    Warn,
    /// `disable`
    Disable,
}

/// One `#extension name : behavior` directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtensionDirective {
    /// Extension name, or `all`.
    pub name: String,
    /// What the shader asked for.
    pub behavior: ExtensionBehavior,
    /// Where the directive is.
    pub location: Location,
}

/// One `#pragma` directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pragma {
    /// The tokens after `pragma`, joined by single spaces.
    pub text: String,
    /// Where the directive is.
    pub location: Location,
}
