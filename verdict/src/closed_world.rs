//! Judging only inside the closed world: a test whose shaders use a feature the emulator's
//! inventory (`halfcheck_emu::inventory`) says it does not model gets no `H` and no `M` on
//! any channel, since every value the emulator gives there may rest on its guess. Only the
//! driver's own highp reference can decide such a test; without it the test is
//! `undetermined`, and its reason names the features ("not modelled: ...").
//!
//! The features are found in each GLSL shader's preprocessed text: a built-in function
//! called, a built-in variable named, a qualifier keyword written, an extension enabled.
//! Every channel counts as depending on them (the emulator's value tracking does not follow
//! them yet), which is sound: a channel that did not depend on them only loses its bounds.

use super::reduced::compiler_stage;
use halfcheck_compiler::preprocess;
use halfcheck_emu::inventory::{self, Kind, UNMODELLED_QUALIFIERS};
use halfcheck_piglit::shader_test::{ShaderTest, SourceKind};

/// The features of `test`'s shaders the emulator does not model, each once, in the order
/// first met.
pub(crate) fn not_modelled(test: &ShaderTest) -> Vec<&'static str> {
    let mut found: Vec<&'static str> = Vec::new();
    let mut add = |name: &'static str| {
        if !found.contains(&name) {
            found.push(name);
        }
    };
    for shader in test.shaders.iter().filter(|s| s.kind == SourceKind::Glsl) {
        let Ok(pre) = preprocess(&shader.text, compiler_stage(shader.stage), "shader") else {
            continue;
        };
        for directive in &pre.extensions {
            if let Some(feature) = unmodelled(Kind::Extension, &directive.name) {
                add(feature);
            }
        }
        for (word, called) in identifiers(&pre.text) {
            let kind = if called {
                Kind::Function
            } else {
                Kind::Variable
            };
            if let Some(feature) = unmodelled(kind, word) {
                add(feature);
            }
            if let Some((_, line)) = UNMODELLED_QUALIFIERS.iter().find(|(w, _)| *w == word) {
                add(line);
            }
        }
    }
    found
}

/// The inventory's name for `name` of `kind` when it is not modelled.
fn unmodelled(kind: Kind, name: &str) -> Option<&'static str> {
    let feature = inventory::find(kind, name)?;
    let name = feature.names.iter().find(|n| **n == name)?;
    inventory::not_modelled(kind, name).then_some(*name)
}

/// The identifiers of `text`, each with whether a `(` follows it (a call).
fn identifiers(text: &str) -> impl Iterator<Item = (&str, bool)> {
    let bytes = text.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            if !is_word(bytes[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && is_word(bytes[i]) {
                i += 1;
            }
            let word = &text[start..i];
            if bytes[start].is_ascii_digit() {
                continue;
            }
            let called = bytes[i..]
                .iter()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|&b| b == b'(');
            return Some((word, called));
        }
        None
    })
}

/// The reason of a test left `undetermined` that uses `features`.
pub(crate) fn reason(features: &[&str]) -> String {
    format!(
        "not modelled: {}; the emulator gives no acceptance intervals there and only the \
         driver's own highp reference could decide",
        features.join(", ")
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use halfcheck_piglit::shader_test::parse_str;

    /// A GLSL ES 3.00 test drawing one rectangle with `fragment`.
    pub(crate) fn test_with(fragment: &str) -> ShaderTest {
        let text = format!(
            "[require]\nGLSL ES >= 3.00\n\n[vertex shader passthrough]\n\n\
             [fragment shader]\n{fragment}\n[test]\ndraw rect -1 -1 2 2\n"
        );
        parse_str(std::path::Path::new("t.shader_test"), &text).expect("a valid test")
    }

    #[test]
    fn an_interpolation_function_is_not_modelled() {
        let test = test_with(
            "#version 320 es\nprecision mediump float;\nin vec2 v;\nout vec4 c;\n\
             void main() { c = vec4(interpolateAtOffset(v, vec2(0.4)), 0.0, 1.0); }\n",
        );
        assert_eq!(not_modelled(&test), ["interpolateAtOffset"]);
    }

    #[test]
    fn a_builtin_variable_never_fed_is_not_modelled_and_a_comment_is_no_use() {
        let test = test_with(
            "#version 300 es\nprecision mediump float;\nout vec4 c;\n\
             // interpolateAtSample(x)\n\
             void main() { c = vec4(gl_PointCoord, 0.0, 1.0); }\n",
        );
        assert_eq!(not_modelled(&test), ["gl_PointCoord"]);
    }

    #[test]
    fn modelled_and_bounded_features_are_not_listed() {
        let test = test_with(
            "#version 300 es\nprecision mediump float;\nuniform float a;\nout vec4 c;\n\
             void main() { c = vec4(sin(a), fract(gl_FragCoord.x), float(lessThan(vec2(a), vec2(1.0)).x), 1.0); }\n",
        );
        assert!(not_modelled(&test).is_empty());
    }
}
