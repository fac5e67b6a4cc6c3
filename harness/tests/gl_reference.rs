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
    let reference = gl.run_test(&promoted(&test));
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
