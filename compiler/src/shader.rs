//! What kind of shader is compiled: its pipeline stage and GLSL ES version.

use std::fmt;

/// A pipeline stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Vertex shader.
    Vertex,
    /// Fragment shader.
    Fragment,
    /// Compute shader (GLSL ES 3.10).
    Compute,
    /// Geometry shader (GLSL ES 3.20 or `GL_*_geometry_shader`).
    Geometry,
    /// Tessellation control shader.
    TessControl,
    /// Tessellation evaluation shader.
    TessEvaluation,
}

/// A GLSL ES language version, from `#version` (1.00 when there is none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Version {
    /// GLSL ES 1.00 (`#version 100`, or no `#version`).
    Es100,
    /// GLSL ES 3.00 (`#version 300 es`).
    Es300,
    /// GLSL ES 3.10 (`#version 310 es`).
    Es310,
    /// GLSL ES 3.20 (`#version 320 es`).
    Es320,
}

impl Version {
    /// The number `#version` and `__VERSION__` use (100, 300, 310, 320).
    pub fn number(self) -> u32 {
        match self {
            Version::Es100 => 100,
            Version::Es300 => 300,
            Version::Es310 => 310,
            Version::Es320 => 320,
        }
    }

    /// The version for a `#version` number and whether `es` followed it.
    pub fn from_directive(number: u32, es: bool) -> Option<Self> {
        match (number, es) {
            (100, false) => Some(Version::Es100),
            (300, true) => Some(Version::Es300),
            (310, true) => Some(Version::Es310),
            (320, true) => Some(Version::Es320),
            _ => None,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Version::Es100 => f.write_str("100"),
            other => write!(f, "{} es", other.number()),
        }
    }
}
