//! `halfcheck lint` on real files: the corpus must pass; fixtures show each kind of finding.

mod common;

use common::*;
use std::path::Path;

const HEAD: &str = "[require]\nGL ES >= 2.0\nGLSL ES >= 1.00\n\n[vertex shader passthrough]\n\n\
                    [fragment shader]\n#version 100\nprecision mediump float;\nuniform float a, b;\n";

fn lint(dir: &Path) -> (Option<i32>, String) {
    let output = halfcheck().arg("lint").arg(dir).output().expect("runs");
    (output.status.code(), text(&output))
}

#[test]
fn amplified_division_passes_lint() {
    let dir = temp_dir("lint-good");
    std::fs::write(
        dir.join("div.shader_test"),
        format!(
            "{HEAD}void main() {{ gl_FragColor = vec4(fract(a / b * 1024.0), 0.0, 0.0, 1.0); }}\n\n\
             [test]\nuniform float a 1.0\nuniform float b 3.0\ndraw rect -1 -1 2 2\n\
             probe all rgba 0.25 0.0 0.0 1.0\n"
        ),
    )
    .expect("write");
    let (code, out) = lint(&dir);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("1 tests checked, 0 skipped, 0 findings"),
        "{out}"
    );
}

#[test]
fn unamplified_foldable_and_wrong_expectation_are_each_reported() {
    let dir = temp_dir("lint-bad");
    std::fs::write(
        dir.join("bad.shader_test"),
        format!(
            "{HEAD}void main() {{\n  gl_FragColor = vec4((a + b) - b, a / b, 0.0, 1.0);\n}}\n\n\
             [test]\nuniform float a 0.5\nuniform float b 3.0\ndraw rect -1 -1 2 2\n\
             probe all rgba 0.5 0.9 0.0 1.0\n"
        ),
    )
    .expect("write");
    let (code, out) = lint(&dir);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("bad.shader_test:12: `(a + b) - b` can be folded away"),
        "{out}"
    );
    assert!(
        out.contains("bad.shader_test:19: probe does not discriminate"),
        "{out}"
    );
    assert!(
        out.contains("expected 0.9 on channel 1 matches neither prediction"),
        "{out}"
    );
}

#[test]
fn highp_only_tests_are_skipped() {
    let dir = temp_dir("lint-highp");
    std::fs::write(
        dir.join("highp.shader_test"),
        "[require]\nGL ES >= 2.0\n[vertex shader passthrough]\n[fragment shader]\n\
         precision highp float;\nvoid main() { gl_FragColor = vec4(1.0); }\n[test]\n\
         draw rect -1 -1 2 2\nprobe all rgba 1 1 1 1\n",
    )
    .expect("write");
    let (code, out) = lint(&dir);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("0 tests checked, 1 skipped, 0 findings"),
        "{out}"
    );
}

/// Issue 26: `lint` accepted `tolerance nan` and judged the probe with it; it is a parse error
/// naming the file and line.
#[test]
fn non_finite_tolerance_is_a_parse_error_naming_file_and_line() {
    let dir = temp_dir("lint-nan");
    std::fs::write(
        dir.join("nan.shader_test"),
        format!(
            "{HEAD}void main() {{ gl_FragColor = vec4(fract(a / b * 1024.0), 0.0, 0.0, 1.0); }}\n\n\
             [test]\nuniform float a 1.0\nuniform float b 3.0\ndraw rect -1 -1 2 2\n\
             tolerance nan nan nan nan\nprobe all rgba 0.25 0.0 0.0 1.0\n"
        ),
    )
    .expect("write");
    let (code, out) = lint(&dir);
    assert_ne!(code, Some(0), "{out}");
    assert!(out.contains("nan.shader_test:17:"), "{out}");
    assert!(out.contains("expected a finite number"), "{out}");
}

/// The corpus's own must-have: every mediump probe of cases/ discriminates.
#[test]
fn the_cases_corpus_passes_lint() {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases");
    let (code, out) = lint(&cases);
    assert_eq!(code, Some(0), "{out}");
}
