//! Precision rewrites of a shader's text, token-exact (nothing else changes, comments and
//! layout included), and the pieces [`super::promote`] shares.
//!
//! **Demote to mediump** ([`demote_to_mediump`]): every `highp` token outside comments
//! becomes `mediump` and an ES shader gets `precision mediump float; precision mediump int;`
//! after the directives that open the shader (`#version`, `#extension`, ...) at the
//! outermost conditional level. Compiled and lowered, it is what a driver that lowers
//! everything, the rules ignored, would compute: a negative control whose value that changes
//! can tell a driver that kept it highp from one that did not. A shader that is not GLSL ES
//! (`#version 110`..`460` without `es`) gets only the token rewrite.
//!
//! ```
//! use halfcheck_compiler::front::requalify::demote_to_mediump;
//! use halfcheck_compiler::Stage;
//! let src = "#version 100\n// highp stays in comments\nuniform highp float a;\n";
//! assert_eq!(
//!     demote_to_mediump(src, Stage::Fragment),
//!     "#version 100\n\
//!      precision mediump float; precision mediump int;\n\
//!      // highp stays in comments\nuniform mediump float a;\n"
//! );
//! ```

use super::lexer::{Punct, RawKind, RawToken, Scanner};
use crate::shader::Stage;

/// The highp statements that replace a stage's implicit defaults below highp (GLSL ES 1.00
/// and 3.00, section 4.5.3/4.5.4 "Default Precision Qualifiers").
pub(super) fn implicit_defaults(stage: Stage) -> Option<&'static str> {
    match stage {
        Stage::Fragment => {
            Some("precision highp int; precision highp sampler2D; precision highp samplerCube;\n")
        }
        Stage::Vertex => Some("precision highp sampler2D; precision highp samplerCube;\n"),
        _ => None,
    }
}

/// `source` with every highp lowered to mediump (see the module's rule).
pub fn demote_to_mediump(source: &str, _stage: Stage) -> String {
    rewrite(
        source,
        &["highp"],
        "mediump",
        Some("precision mediump float; precision mediump int;\n"),
    )
}

/// `source` with every token in `from` replaced by `to`, and `defaults` inserted after the
/// opening directives of an ES shader.
pub(super) fn rewrite(
    source: &str,
    from: &[&str],
    to: &str,
    defaults: Option<&'static str>,
) -> String {
    let visible = blank_comments(source);
    let tokens: Vec<RawToken> = Scanner::new(&visible).collect();
    let text = |t: &RawToken| visible.get(t.start as usize..t.end as usize).unwrap_or("");
    let insert_at = if is_es(&tokens, &visible) {
        defaults.map(|defaults| (opening_end(&tokens, &visible), defaults))
    } else {
        None
    };
    let mut out = String::with_capacity(source.len() + 96);
    let mut copied = 0;
    let mut insert = insert_at;
    for t in &tokens {
        let start = t.start as usize;
        if let Some((at, defaults)) = insert.filter(|(at, _)| *at <= start) {
            out.push_str(source.get(copied..at).unwrap_or(""));
            out.push_str(defaults);
            copied = at;
            insert = None;
        }
        if t.kind == RawKind::Ident && from.contains(&text(t)) {
            out.push_str(source.get(copied..start).unwrap_or(""));
            out.push_str(to);
            copied = t.end as usize;
        }
    }
    if let Some((at, defaults)) = insert {
        out.push_str(source.get(copied..at).unwrap_or(""));
        out.push_str(defaults);
        copied = at;
    }
    out.push_str(source.get(copied..).unwrap_or(""));
    out
}

/// `source` with every comment byte replaced by a space (newlines kept), so byte offsets
/// into it are offsets into `source`.
pub(super) fn blank_comments(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1)) {
            (b'/', Some(b'/')) => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            (b'/', Some(b'*')) => {
                let end = source
                    .get(i + 2..)
                    .and_then(|rest| rest.find("*/"))
                    .map_or(bytes.len(), |k| i + 2 + k + 2);
                for slot in &mut out[i..end] {
                    if *slot != b'\n' {
                        *slot = b' ';
                    }
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    // Only ASCII spaces replaced whole comments (multi-byte characters included), so the
    // bytes stay valid UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| source.to_string())
}

/// The tokens of each line, without the newlines.
fn lines(tokens: &[RawToken]) -> Vec<&[RawToken]> {
    tokens
        .split(|t| t.kind == RawKind::Newline)
        .collect::<Vec<_>>()
}

/// Whether the shader is GLSL ES: no `#version` (1.00), `#version 100`, or `#version N es`.
fn is_es(tokens: &[RawToken], text: &str) -> bool {
    let word = |t: &RawToken| text.get(t.start as usize..t.end as usize).unwrap_or("");
    for line in lines(tokens) {
        match line {
            [hash, directive, rest @ ..]
                if hash.kind == RawKind::Punct(Punct::Hash) && word(directive) == "version" =>
            {
                let number = rest.first().map(word).unwrap_or("");
                let es = rest.get(1).map(word) == Some("es");
                return number == "100" || es;
            }
            [first, ..] if first.kind != RawKind::Punct(Punct::Hash) => return true,
            _ => {}
        }
    }
    true
}

/// Where the shader's opening directives end: the end of the last line, before the first line
/// of code, after which every `#if` is closed (byte offset; 0 when code comes first).
fn opening_end(tokens: &[RawToken], text: &str) -> usize {
    let word = |t: &RawToken| text.get(t.start as usize..t.end as usize).unwrap_or("");
    let mut depth = 0i32;
    let mut end = 0;
    for line in lines(tokens) {
        let Some(first) = line.first() else {
            continue;
        };
        if first.kind != RawKind::Punct(Punct::Hash) {
            break;
        }
        match line.get(1).map(word) {
            Some("if" | "ifdef" | "ifndef") => depth += 1,
            Some("endif") => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            end = line.last().map_or(end, |t| t.end as usize);
        }
    }
    if end == 0 {
        return 0;
    }
    // Past the line's newline, when there is one.
    match text.as_bytes().get(end..) {
        Some(rest) => {
            end + rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(rest.len(), |p| p + 1)
        }
        None => end,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_go_after_the_opening_directives_outside_conditionals() {
        let src = "// header\n#version 100\n#ifdef GL_ES\n#extension GL_OES_standard_derivatives : enable\n#endif\n\n#ifdef GL_ES\nprecision highp float;\n#endif\nvoid main() {}\n";
        let out = demote_to_mediump(src, Stage::Fragment);
        assert_eq!(
            out,
            "// header\n#version 100\n#ifdef GL_ES\n#extension GL_OES_standard_derivatives : enable\n#endif\n\
             precision mediump float; precision mediump int;\n\
             \n#ifdef GL_ES\nprecision mediump float;\n#endif\nvoid main() {}\n"
        );
    }

    #[test]
    fn code_first_gets_the_defaults_at_the_start() {
        assert_eq!(
            demote_to_mediump("uniform highp sampler2D s;", Stage::Vertex),
            "precision mediump float; precision mediump int;\nuniform mediump sampler2D s;"
        );
    }

    #[test]
    fn desktop_glsl_keeps_its_defaults() {
        let src = "#version 130\nhighp float x;\n";
        assert_eq!(
            demote_to_mediump(src, Stage::Fragment),
            "#version 130\nmediump float x;\n"
        );
    }

    #[test]
    fn demoting_lowers_every_highp_and_the_defaults() {
        let src = "#version 300 es\nprecision highp float;\nuniform highp float a; // highp\n";
        assert_eq!(
            demote_to_mediump(src, Stage::Fragment),
            "#version 300 es\nprecision mediump float; precision mediump int;\n\
             precision mediump float;\nuniform mediump float a; // highp\n"
        );
    }

    #[test]
    fn unterminated_comments_and_odd_text_never_panic() {
        for src in [
            "/* highp",
            "#",
            "#version",
            "é highp é",
            "#if\n#endif\n#endif\nx",
        ] {
            let _ = demote_to_mediump(src, Stage::Fragment);
        }
        assert_eq!(
            demote_to_mediump("#version 130\n/* highp", Stage::Compute),
            "#version 130\n/* highp".to_string()
        );
    }
}
