//! Parser for one line of a `[require]` section.
//!
//! Forms, as piglit's shader_runner reads them: `GL [CORE|COMPAT|ES] OP X.Y`,
//! `GLSL [ES] OP X.YY`, `GL_EXT_foo`, `!GL_EXT_foo`, `GL_MAX_... OP N`, `INT GL_... OP N`,
//! `SIZE W H`. Anything else (`depthbuffer`, `fbo`, `rlimit N`, `SPIRV YES`, `SSO ENABLED`, ...)
//! is kept verbatim for the backend to judge.

use super::model::{Api, Requirement, Version};
use super::tokens::{comparison, count, expected, int, words, LineError, Word};

/// Parses a non-empty, comment-free `[require]` line.
pub(super) fn parse_requirement(line: &str) -> Result<Requirement, LineError> {
    let words = words(line);
    let Some(first) = words.first() else {
        return Ok(Requirement::Other(String::new()));
    };
    match first.text {
        "GL" | "GLSL" => parse_version(&words, line.len()),
        "SIZE" => {
            let [w, h] = exactly::<2>(&words[1..], line.len(), "a width and a height")?;
            Ok(Requirement::Size {
                width: count(w)?,
                height: count(h)?,
            })
        }
        "INT" => parse_limit(&words[1..], line.len()),
        name if name.starts_with("GL_") => {
            if words.len() == 1 {
                Ok(Requirement::Extension {
                    name: name.to_string(),
                    negated: false,
                })
            } else {
                parse_limit(&words, line.len())
            }
        }
        name if name.starts_with("!GL_") => match words.get(1) {
            None => Ok(Requirement::Extension {
                name: name[1..].to_string(),
                negated: true,
            }),
            Some(extra) => Err(expected(
                *extra,
                "the end of the line after an extension name",
            )),
        },
        _ => Ok(Requirement::Other(line.trim().to_string())),
    }
}

/// `GL [CORE|COMPAT|ES] OP X.Y` or `GLSL [ES] OP X.YY`.
fn parse_version(words: &[Word<'_>], end: usize) -> Result<Requirement, LineError> {
    let glsl = words[0].text == "GLSL";
    let mut rest = &words[1..];
    let qualifier = rest.first().map(|w| w.text);
    let api = match (glsl, qualifier) {
        (false, Some("CORE")) => Api::GlCore,
        (false, Some("COMPAT")) => Api::GlCompat,
        (false, Some("ES")) => Api::GlEs,
        (true, Some("ES")) => Api::GlslEs,
        (false, _) => Api::Gl,
        (true, _) => Api::Glsl,
    };
    if !matches!(api, Api::Gl | Api::Glsl) {
        rest = &rest[1..];
    }
    let [op, version] = exactly::<2>(rest, end, "a comparison and a version such as '>= 3.0'")?;
    Ok(Requirement::Version {
        api,
        op: comparison(op)?,
        version: parse_version_number(version)?,
    })
}

/// `NAME OP N` for an implementation limit.
fn parse_limit(words: &[Word<'_>], end: usize) -> Result<Requirement, LineError> {
    let [name, op, value] =
        exactly::<3>(words, end, "a GL_ limit name, a comparison and a number")?;
    if !name.text.starts_with("GL_") {
        return Err(expected(name, "a GL_ limit name"));
    }
    Ok(Requirement::Limit {
        name: name.text.to_string(),
        op: comparison(op)?,
        value: int(value)?,
    })
}

/// Reads `X.Y` keeping the minor number as written.
fn parse_version_number(word: Word<'_>) -> Result<Version, LineError> {
    let (major, minor) = word
        .text
        .split_once('.')
        .ok_or_else(|| expected(word, "a version such as 3.0 or 1.50"))?;
    let number = |s: &str| {
        s.parse::<u32>()
            .ok()
            .filter(|_| s.bytes().all(|b| b.is_ascii_digit()))
    };
    match (number(major), number(minor)) {
        (Some(major), Some(minor)) => Ok(Version { major, minor }),
        _ => Err(expected(word, "a version such as 3.0 or 1.50")),
    }
}

/// Exactly `N` words, or an error saying what was expected.
fn exactly<'a, const N: usize>(
    words: &[Word<'a>],
    end: usize,
    what: &str,
) -> Result<[Word<'a>; N], LineError> {
    if let Some(extra) = words.get(N) {
        return Err(expected(*extra, "the end of the line"));
    }
    words.try_into().map_err(|_| {
        let at = words.last().map_or(end, |w| w.offset + w.text.len());
        LineError::at(at, format!("expected {what}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shader_test::Comparison;

    #[test]
    fn gl_es_version_keeps_minor_as_written() {
        assert_eq!(
            parse_requirement("GL ES >= 3.0"),
            Ok(Requirement::Version {
                api: Api::GlEs,
                op: Comparison::GreaterEqual,
                version: Version { major: 3, minor: 0 }
            })
        );
        assert_eq!(
            parse_requirement("GLSL >= 1.50"),
            Ok(Requirement::Version {
                api: Api::Glsl,
                op: Comparison::GreaterEqual,
                version: Version {
                    major: 1,
                    minor: 50
                }
            })
        );
    }

    #[test]
    fn negated_extension_and_limit() {
        assert_eq!(
            parse_requirement("!GL_ARB_foo"),
            Ok(Requirement::Extension {
                name: "GL_ARB_foo".into(),
                negated: true
            })
        );
        assert_eq!(
            parse_requirement("GL_MAX_VERTEX_UNIFORM_COMPONENTS >= 1024"),
            Ok(Requirement::Limit {
                name: "GL_MAX_VERTEX_UNIFORM_COMPONENTS".into(),
                op: Comparison::GreaterEqual,
                value: 1024
            })
        );
        assert_eq!(
            parse_requirement("INT GL_MAX_SAMPLES >= 4"),
            Ok(Requirement::Limit {
                name: "GL_MAX_SAMPLES".into(),
                op: Comparison::GreaterEqual,
                value: 4
            })
        );
    }

    #[test]
    fn unknown_directive_is_kept_verbatim() {
        assert_eq!(
            parse_requirement("depthbuffer"),
            Ok(Requirement::Other("depthbuffer".into()))
        );
    }

    #[test]
    fn bad_version_points_at_the_number() {
        let e = parse_requirement("GL ES >= three").unwrap_err();
        assert_eq!(e.offset, 9);
        assert!(e.message.contains("expected a version"), "{}", e.message);
    }
}
