//! Promotion to highp of the preprocessor's output: the shader a driver runs as its own highp
//! reference.
//!
//! The shader is preprocessed first (comments gone, line continuations joined, conditionals
//! decided, macros expanded), so a precision the source spells through a macro, split by a
//! line continuation, or hides between comments is a token like any other. Then:
//! 1. every `lowp` and `mediump` token of the output becomes `highp` (qualifiers on
//!    declarations, parameters, return types and struct members, default precision
//!    statements in any scope);
//! 2. the stage's implicit default precisions below highp become explicit `highp`
//!    statements at the top (GLSL ES 1.00 and 3.00, section 4.5.3/4.5.4 "Default Precision
//!    Qualifiers": a fragment shader's `int`, `sampler2D` and `samplerCube`, a vertex
//!    shader's samplers);
//! 3. the result is written as `#version`, the `#extension` and `#pragma` directives in
//!    their order, those statements, and the output's text.
//!
//! The output is what halfcheck's preprocessor made of the shader; a driver must make the
//! same of it. It does unless the shader reads a macro the driver defines for itself
//! (`GL_FRAGMENT_PRECISION_HIGH`, an extension's macro): then the promotion is refused
//! ([`Unpromotable::DriverMacro`]), except for an extension the shader `require`s, which
//! the driver then defines as halfcheck does, or the test would not have compiled.
//!
//! Built-in variables and built-in results keep the precision the spec fixes for them
//! (`gl_FragColor` is mediump, `unpackUnorm4x8` returns mediump): the verdict's highp proof
//! compiles the promoted shader and finds those.

use super::lexer::{RawKind, Scanner};
use super::preprocessor::{extension_predefined, preprocess, ExtensionBehavior};
use super::requalify::{blank_comments, implicit_defaults, rewrite};
use crate::front::diagnostic::Diagnostic;
use crate::shader::{Stage, Version};
use std::fmt::{self, Write};

/// Why a shader has no promotion that stands for the driver's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unpromotable {
    /// halfcheck's preprocessor refuses the shader.
    Preprocess(Box<Diagnostic>),
    /// The shader reads a macro the driver defines for itself, which halfcheck's
    /// preprocessor may have decided otherwise.
    DriverMacro(String),
}

impl fmt::Display for Unpromotable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unpromotable::Preprocess(e) => write!(f, "halfcheck's preprocessor refuses it: {e}"),
            Unpromotable::DriverMacro(name) => {
                write!(f, "it reads {name}, a macro the driver defines for itself")
            }
        }
    }
}

impl std::error::Error for Unpromotable {}

/// `source` preprocessed, with every reduced precision raised to highp (see the module's
/// rule).
pub fn promote_to_highp(source: &str, stage: Stage) -> Result<String, Unpromotable> {
    let pre =
        preprocess(source, stage, "shader").map_err(|e| Unpromotable::Preprocess(Box::new(e)))?;
    let required: Vec<&str> = pre
        .extensions
        .iter()
        .filter(|e| e.behavior == ExtensionBehavior::Require)
        .map(|e| e.name.as_str())
        .collect();
    if let Some(name) = driver_macros(source).into_iter().find(|name| {
        !(required.contains(&name.as_str()) && extension_predefined(name, pre.version))
    }) {
        return Err(Unpromotable::DriverMacro(name));
    }
    let mut out = String::with_capacity(pre.text.len() + 160);
    let _ = match pre.version {
        Version::Es100 => writeln!(out, "#version 100"),
        v => writeln!(out, "#version {} es", v.number()),
    };
    for e in &pre.extensions {
        let behavior = match e.behavior {
            ExtensionBehavior::Require => "require",
            ExtensionBehavior::Enable => "enable",
            ExtensionBehavior::Warn => "warn",
            ExtensionBehavior::Disable => "disable",
        };
        let _ = writeln!(out, "#extension {} : {behavior}", e.name);
    }
    for p in &pre.pragmas {
        let _ = writeln!(out, "#pragma {}", p.text);
    }
    out.push_str(implicit_defaults(stage).unwrap_or(""));
    out.push_str(&rewrite(&pre.text, &["lowp", "mediump"], "highp", None));
    Ok(out)
}

/// The macros a driver defines for itself that `source` names outside `#extension` lines:
/// every identifier with GLSL's reserved `GL_` prefix but `GL_ES`.
fn driver_macros(source: &str) -> Vec<String> {
    // Comments blanked and line continuations joined: a name split by either still counts.
    let text = blank_comments(source)
        .replace("\\\r\n", "")
        .replace("\\\n", "");
    let mut names = Vec::new();
    let mut extension_line = false;
    let mut previous = RawKind::Newline;
    let mut hash = false;
    for t in Scanner::new(&text) {
        let word = text.get(t.start as usize..t.end as usize).unwrap_or("");
        match t.kind {
            RawKind::Newline => extension_line = false,
            RawKind::Ident if hash && word == "extension" => extension_line = true,
            RawKind::Ident
                if word.starts_with("GL_")
                    && word != "GL_ES"
                    && !extension_line
                    && !names.iter().any(|n| n == word) =>
            {
                names.push(word.to_owned());
            }
            _ => {}
        }
        hash = previous == RawKind::Newline && word == "#";
        previous = t.kind;
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn promoted(src: &str) -> String {
        promote_to_highp(src, Stage::Fragment).expect("promotes")
    }

    /// The body of a promotion, past its header lines, with its whitespace collapsed.
    fn words(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn qualifiers_made_by_macros_and_split_by_continuations_become_highp() {
        let src = "#version 300 es\n#define P medi\\\nump\n#define Q(t) lowp t\n\
                   precision P float;\nuniform Q(int) n;\nout vec4 c;\n\
                   void main() { prec\\\nision mediump float; c = vec4(float(n)); }\n";
        let out = promoted(src);
        assert!(!out.contains("mediump") && !out.contains("lowp"), "{out}");
        assert_eq!(
            words(&out),
            "#version 300 es precision highp int; precision highp sampler2D; \
             precision highp samplerCube; precision highp float; uniform highp int n; \
             out vec4 c; void main() { precision highp float; c = vec4(float(n)); }"
        );
    }

    #[test]
    fn a_continuation_that_swallows_a_line_keeps_the_defaults_out_of_the_macro() {
        // The text promotion put its default statements after the opening directives, into
        // the continued (empty) body of EMPTY.
        let src = "#version 300 es\n#define EMPTY \\\n\nuniform sampler2D s;\nuniform int n;\n";
        let out = promoted(src);
        assert!(
            out.starts_with(
                "#version 300 es\nprecision highp int; precision highp sampler2D; \
                 precision highp samplerCube;\n"
            ),
            "{out}"
        );
        assert!(!out.contains("define"), "{out}");
    }

    #[test]
    fn directives_are_kept_in_order_and_comments_dropped() {
        let src = "#version 100\n#extension GL_OES_standard_derivatives : enable\n\
                   #pragma optimize(off)\nprecision /* lowp */ mediump // x\n float;\n";
        assert_eq!(
            words(&promoted(src)),
            "#version 100 #extension GL_OES_standard_derivatives : enable \
             #pragma optimize ( off ) precision highp int; precision highp sampler2D; \
             precision highp samplerCube; precision highp float;"
        );
    }

    #[test]
    fn a_macro_the_driver_defines_refuses_the_promotion_unless_required() {
        let src = "#ifdef GL_FRAGMENT_PRECISION_HIGH\nprecision highp float;\n#else\n\
                   precision mediump float;\n#endif\n";
        assert_eq!(
            promote_to_highp(src, Stage::Fragment),
            Err(Unpromotable::DriverMacro(
                "GL_FRAGMENT_PRECISION_HIGH".to_string()
            ))
        );
        let required = "#version 300 es\n#extension GL_OES_sample_variables : require\n\
                        #ifdef GL_OES_sample_variables\nprecision mediump float;\n#endif\n";
        assert!(promoted(required).contains("precision highp float;"));
        let enabled = required.replace("require", "enable");
        assert!(matches!(
            promote_to_highp(&enabled, Stage::Fragment),
            Err(Unpromotable::DriverMacro(_))
        ));
        // GL_ES is the same for every ES driver.
        assert!(promoted("#ifdef GL_ES\nprecision mediump float;\n#endif\n").contains("highp"));
    }

    #[test]
    fn what_the_preprocessor_refuses_is_not_promoted() {
        for src in ["#version 130\nfloat x;\n", "#if\n", "#endif\n", "/* lowp"] {
            assert!(
                matches!(
                    promote_to_highp(src, Stage::Fragment),
                    Err(Unpromotable::Preprocess(_))
                ),
                "{src}"
            );
        }
    }

    #[test]
    fn vertex_shaders_get_only_the_sampler_defaults() {
        assert_eq!(
            words(&promote_to_highp("uniform lowp sampler2D s;", Stage::Vertex).unwrap()),
            "#version 100 precision highp sampler2D; precision highp samplerCube; \
             uniform highp sampler2D s;"
        );
    }
}
