//! Whether a test asks for reduced precision at all: a shader that declares nothing `lowp` or
//! `mediump` (no qualifier, no `precision` statement) gets the verdict `n/a`.

use crate::shader_test::{ShaderTest, SourceKind, Stage};
use halfcheck_compiler::preprocess;

/// True when some GLSL shader of `test` says `lowp` or `mediump` outside comments and
/// disabled `#if` blocks (the raw text is scanned when preprocessing fails).
pub fn declares_reduced_precision(test: &ShaderTest) -> bool {
    test.shaders
        .iter()
        .filter(|s| s.kind == SourceKind::Glsl)
        .any(|shader| {
            let stage = compiler_stage(shader.stage);
            let text = preprocess(&shader.text, stage, "shader")
                .map(|p| p.text)
                .unwrap_or_else(|_| shader.text.clone());
            has_reduced_qualifier(&text)
        })
}

/// Whether `lowp` or `mediump` stands in `text` as a word.
fn has_reduced_qualifier(text: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|word| word == "lowp" || word == "mediump")
}

/// The compiler's name for a shader_test stage.
pub fn compiler_stage(stage: Stage) -> halfcheck_compiler::Stage {
    match stage {
        Stage::Vertex => halfcheck_compiler::Stage::Vertex,
        Stage::TessControl => halfcheck_compiler::Stage::TessControl,
        Stage::TessEvaluation => halfcheck_compiler::Stage::TessEvaluation,
        Stage::Geometry => halfcheck_compiler::Stage::Geometry,
        Stage::Fragment => halfcheck_compiler::Stage::Fragment,
        Stage::Compute => halfcheck_compiler::Stage::Compute,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shader_test::parse_str;
    use std::path::Path;

    fn declares(fragment: &str) -> bool {
        let text = format!(
            "[require]\nGL ES >= 2.0\n[vertex shader passthrough]\n[fragment shader]\n{fragment}\n[test]\n"
        );
        let test = parse_str(Path::new("t.shader_test"), &text).expect("parses");
        declares_reduced_precision(&test)
    }

    #[test]
    fn precision_statement_or_qualifier_counts() {
        assert!(declares("precision mediump float;\nvoid main() {}"));
        assert!(declares(
            "precision highp float;\nuniform lowp float a;\nvoid main() {}"
        ));
    }

    #[test]
    fn highp_only_shaders_and_comments_do_not_count() {
        assert!(!declares(
            "precision highp float;\n// mediump would be lowered\nvoid main() {}"
        ));
        assert!(!declares(
            "precision highp float;\n#if 0\nmediump float x;\n#endif\nvoid main() {}"
        ));
        assert!(!declares(
            "precision highp float;\nuniform float mediump_ish;\nvoid main() {}"
        ));
    }
}
