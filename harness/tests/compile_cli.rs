//! `halfcheck compile` run as a binary on real files: `.shader_test` and `.frag` inputs,
//! both dump formats, `--final`, `--model`, and errors with a position. The test on the anchors
//! beside the repository skips without them, unless `HALFCHECK_REQUIRE_ANCHORS=1`.

use halfcheck_test_support::anchors;
use std::path::PathBuf;
use std::process::Command;

fn halfcheck(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_halfcheck"))
        .args(args)
        .output()
        .expect("halfcheck runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    // Cargo's directory for tests' files, inside the target directory.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("compile-cli");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

#[test]
fn a_shader_test_fragment_section_is_lowered() {
    let Some(path) = anchors("igalia-mediump/glsl-es-1.00/linker/mediump/simple-mult.shader_test")
    else {
        return;
    };
    let file = path.to_string_lossy();
    let (ok, out, err) = halfcheck(&["compile", &file, "--dump-ir"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("(expression float16_t * (expression float16_t f2fmp (var_ref thing_x) )"),
        "{out}"
    );
    let (ok, fin, err) = halfcheck(&["compile", &file, "--dump-ir", "--final"]);
    assert!(ok, "{err}");
    assert!(
        fin.contains("(expression float * (var_ref thing_x) (var_ref thing_y) )"),
        "{fin}"
    );
    let (ok, plain, err) = halfcheck(&["compile", &file, "--dump-ir", "--no-lower"]);
    assert!(ok, "{err}");
    assert!(!plain.contains("float16_t"), "{plain}");
}

#[test]
fn the_lvalue_lends_precision_only_in_the_spec_model() {
    let file = temp_file(
        "lvalue.frag",
        "precision highp float;\nuniform bool b;\nvoid main() {\n  mediump float r = float(b) * 3.141592;\n  gl_FragColor = vec4(r);\n}\n",
    );
    let file = file.to_string_lossy().into_owned();
    let (ok, spec, err) = halfcheck(&["compile", &file, "--model", "spec", "--dump-ir"]);
    assert!(ok, "{err}");
    assert!(spec.contains("(expression float16_t * "), "{spec}");
    let (ok, mesa, err) = halfcheck(&["compile", &file, "--dump-ir"]);
    assert!(ok, "{err}");
    assert!(mesa.contains("(expression float * "), "{mesa}");
}

#[test]
fn a_shader_test_without_version_gets_the_required_one_and_json_parses() {
    let file = temp_file(
        "noversion.shader_test",
        "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n\n[vertex shader passthrough]\n\n[fragment shader]\nprecision mediump float;\nuniform float a;\nout vec4 color;\nvoid main() { color = vec4(a * 2.0); }\n\n[test]\ndraw rect -1 -1 2 2\n",
    );
    let file = file.to_string_lossy().into_owned();
    let (ok, out, err) = halfcheck(&["compile", &file, "--dump-ir", "--format", "json"]);
    assert!(ok, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json["version"], 300);
    assert_eq!(json["stage"], "fragment");
}

#[test]
fn errors_name_the_line_of_the_shader_test_file() {
    let file = temp_file(
        "bad.shader_test",
        "[require]\nGLSL ES >= 3.00\n\n[fragment shader]\n#version 300 es\nprecision mediump float;\nout vec4 color;\nvoid main() { color = vec4(missing); }\n",
    );
    let file = file.to_string_lossy().into_owned();
    let (ok, _, err) = halfcheck(&["compile", &file, "--dump-ir"]);
    assert!(!ok);
    assert!(
        err.contains(":8:28: error: undeclared identifier 'missing'"),
        "{err}"
    );
}
