//! The promoted (all-highp) run is the driver's own highp reference: on llvmpipe it links with
//! uniforms both stages declare, and computes at binary32 what the test as written computes at
//! binary16. Without EGL (or on another driver) this skips, printing why.

mod common;

use common::gl_backend;
use halfcheck_piglit::shader_test::parse_str;
use halfcheck_piglit::Backend;
use halfcheck_verdict::promoted;
use std::path::Path;

/// `fract(a / b * 1024)` in mediump, with a mediump uniform and an int (implicitly mediump in
/// the fragment shader) that both stages declare.
const SHARED_UNIFORMS: &str = r#"[require]
GL ES >= 2.0
GLSL ES >= 1.00

[vertex shader]
#version 100
attribute vec4 piglit_vertex;
uniform mediump float b;
uniform mediump int n;
void main() { gl_Position = piglit_vertex * (b / 3.0) + vec4(float(n - 300)); }

[fragment shader]
#version 100
precision mediump float;
uniform float a;
uniform float b;
uniform int n;
void main() { gl_FragColor = vec4(fract(a / b * 1024.0), float(n * n) / 90000.0, 0.0, 1.0); }

[test]
uniform float a 1.0
uniform float b 3.0
uniform int n 300
draw rect -1 -1 2 2
probe all rgba 0.25 0.27 0.0 1.0
"#;

#[test]
fn the_promoted_test_links_and_computes_at_highp_what_llvmpipe_lowers() {
    if std::env::var_os("GALLIUM_DRIVER").is_some() || std::env::var_os("GALLIUM_NOSSE").is_some() {
        common::skip("an llvmpipe test: GALLIUM_DRIVER or GALLIUM_NOSSE picks another driver");
        return;
    }
    let Some(mut gl) = gl_backend() else {
        return;
    };
    let test = parse_str(Path::new("shared.shader_test"), SHARED_UNIFORMS).expect("parses");
    let as_written = gl.run_test(&test);
    let reference = gl.run_test(&promoted(&test).expect("promotes"));
    assert!(
        as_written.probes.len() == 1 && reference.probes.len() == 1,
        "{as_written:?}\n{reference:?}"
    );
    let (o, r) = (
        &as_written.probes[0].observed,
        &reference.probes[0].observed,
    );
    // binary16: fp16(1/3) * 1024 is exactly 341.25; 300 * 300 wraps at 16 bits.
    assert_eq!(o[0], 0.25, "{as_written:?}");
    assert_ne!(o[1], 1.0);
    // The promoted run: binary32 division, 32-bit int.
    assert_eq!(r[0], (1.0f32 / 3.0 * 1024.0).fract(), "{reference:?}");
    assert_eq!(r[1], 1.0, "{reference:?}");
}

/// A fragment shader whose precisions the text of the source does not show: a mediump made
/// by a macro split with a line continuation, a default statement spelt across one, comments
/// between tokens, the implicit mediump `int` under a macro whose continued (empty) body
/// swallowed the defaults the text promotion inserted, a `lowp` made by a function-like
/// macro. Preprocessed, every one is a token the promotion raises.
const HIDDEN_PRECISIONS: &str = r#"[require]
GL ES >= 3.0
GLSL ES >= 3.00

[vertex shader passthrough]

[fragment shader]
#version 300 es
#define EMPTY \

#define P medi\
ump
#define LOW(t) lowp t
precision /* highp */ P/**/float;
uniform float a;
uniform float b;
uniform LOW(float) k;
uniform int n;
out vec4 color;
void main()
{
	prec\
ision   P   float;
	color = vec4(fract(a / b * 1024.0), float(n * n) / 90000.0, k, 1.0);
}

[test]
uniform float a 1.0
uniform float b 3.0
uniform float k 0.5
uniform int n 300
draw rect -1 -1 2 2
tolerance 2.0 2.0 2.0 2.0
probe rgba 10 10 0.25 1.0 0.5 1.0
"#;

/// Issue 34: promoted through the preprocessor, the test above is highp throughout, so
/// llvmpipe's reference runs and its IR holds no 16-bit arithmetic, while the test's own IR
/// does. The text promotion missed the qualifiers the source does not spell, and halfcheck's
/// highp proof refused its reference.
#[test]
fn precisions_hidden_from_the_text_are_promoted_and_the_reference_is_highp() {
    if std::env::var_os("GALLIUM_DRIVER").is_some() || std::env::var_os("GALLIUM_NOSSE").is_some() {
        common::skip("an llvmpipe test: GALLIUM_DRIVER or GALLIUM_NOSSE picks another driver");
        return;
    }
    if !common::have_gl() {
        return;
    }
    let dir = common::temp_dir("hidden-precisions");
    let file = dir.join("hidden_precisions.shader_test");
    std::fs::write(&file, HIDDEN_PRECISIONS).expect("writes");
    let out = dir.join("out");
    let results = common::gl_results(
        &out,
        &["--reference", "always", "--driver-ir"],
        &[],
        &[file.to_path_buf()],
    );
    let test = &results["tests"]["hidden_precisions.shader_test"];
    assert_eq!(test["reference"]["outcome"], "ran", "{test}");
    let float16 = |which: &str| -> usize {
        let shaders = test["driver_ir"][which]["shaders"]
            .as_array()
            .unwrap_or_else(|| panic!("no {which} IR: {test}"));
        shaders
            .iter()
            .filter(|s| s.get("float16").is_some())
            .count()
    };
    assert_eq!(float16("reference"), 0, "{test}");
    assert!(float16("test") > 0, "{test}");
    let kept = std::fs::read_to_string(out.join("ir/hidden_precisions.shader_test.reference.nir"))
        .expect("the reference's IR is kept");
    assert!(!kept.contains("vec1 16 ssa_"), "{kept}");
    let red = &test["probes"][0]["channels"][0]["evidence"];
    assert_eq!(red["reference"], "lowered", "{test}");
    let green = &test["probes"][0]["channels"][1]["evidence"];
    assert_eq!(green["reference"], "lowered", "{test}");
    assert_eq!(test["verdict"], "lowered", "{test}");
}
