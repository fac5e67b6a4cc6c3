//! The emulator in `mediump` mode against llvmpipe, bit for bit, on what the corpus barely
//! touches: interpolated varyings (a gradient over `draw rect`, a perspective triangle from
//! `[vertex data]`), rasterisation ties on pixel centres, and bilinear filtering of 8-bit
//! textures. Without EGL (or on another driver) these skip, printing why.

mod common;

use common::gl_backend;
use halfcheck_emu::{predict, Mode};
use halfcheck_piglit::shader_test::parse_str;
use halfcheck_piglit::Backend;
use std::path::Path;

const GRADIENT: &str = r#"[require]
GL ES >= 3.0
GLSL ES >= 3.00

[vertex shader]
#version 300 es
in vec4 piglit_vertex;
out vec4 v;
void main() { gl_Position = piglit_vertex; v = piglit_vertex * 0.37 + vec4(0.1, 0.2, 0.3, 0.4); }

[fragment shader]
#version 300 es
precision highp float;
in vec4 v;
out vec4 color;
void main() { color = vec4(v.xy, gl_FragCoord.x / 250.0, dFdx(v.x) * 100.0); }

[test]
draw rect -1 -1 2 2
probe rgba 82 242 0 0 0 0
probe rgba 38 101 0 0 0 0
probe rgba 166 12 0 0 0 0
probe rgba 18 210 0 0 0 0
probe rgba 137 24 0 0 0 0
probe rgba 93 149 0 0 0 0
probe rgba 14 232 0 0 0 0
probe rgba 129 54 0 0 0 0
probe rgba 9 22 0 0 0 0
probe rgba 111 107 0 0 0 0
probe rgba 17 61 0 0 0 0
probe rgba 23 141 0 0 0 0
probe rgba 108 15 0 0 0 0
probe rgba 211 144 0 0 0 0
probe rgba 31 242 0 0 0 0
probe rgba 57 161 0 0 0 0
"#;

const PERSPECTIVE: &str = r#"[require]
GL ES >= 3.0
GLSL ES >= 3.00

[vertex shader]
#version 300 es
in vec4 vertex;
in vec4 c;
out vec4 v;
void main() { gl_Position = vertex; v = c; }

[fragment shader]
#version 300 es
precision mediump float;
in vec4 v;
out vec4 color;
void main() { color = v; }

[vertex data]
vertex/float/4 c/float/4
-1.0 -1.0 0.0 1.0   1.0 0.0 0.0 1.0
 2.0 -2.0 0.0 2.0   0.0 1.0 0.0 1.0
-0.5  0.5 0.0 0.5   0.0 0.0 1.0 1.0

[test]
draw arrays GL_TRIANGLES 0 3
probe rgba 16 15 0 0 0 0
probe rgba 29 126 0 0 0 0
probe rgba 15 55 0 0 0 0
probe rgba 63 101 0 0 0 0
probe rgba 20 42 0 0 0 0
probe rgba 59 38 0 0 0 0
probe rgba 21 45 0 0 0 0
probe rgba 38 59 0 0 0 0
probe rgba 46 67 0 0 0 0
probe rgba 37 107 0 0 0 0
"#;

const EDGE_TIES: &str = r#"[require]
GL ES >= 3.0
GLSL ES >= 3.00

[vertex shader passthrough]

[fragment shader]
#version 300 es
precision highp float;
uniform vec4 c;
out vec4 color;
void main() { color = c; }

[test]
uniform vec4 c 1 0 0 1
draw rect -1 -1 2 1.004
uniform vec4 c 0 1 0 1
draw rect -1 0.004 2 0.996
uniform vec4 c 0 0 1 1
draw rect -1 -1 1.004 2
uniform vec4 c 1 1 0 1
draw rect 0.004 -1 0.996 2
probe rgba 10 125 0 0 0 0
probe rgba 200 125 0 0 0 0
probe rgba 125 10 0 0 0 0
probe rgba 125 200 0 0 0 0
probe rgba 125 125 0 0 0 0
"#;

/// Bilinear filtering of an 8-bit checkerboard, the window sampled off its texel centres,
/// with `wrap` (`repeat`, `clamp_to_edge`) on both axes.
fn linear_filtering(wrap: &str) -> String {
    format!(
        r#"[require]
GL ES >= 3.0
GLSL ES >= 3.00

[vertex shader passthrough]

[fragment shader]
#version 300 es
precision highp float;
uniform highp sampler2D tex;
out vec4 color;
void main() {{ color = texture(tex, gl_FragCoord.xy * vec2(0.0071, 0.0093) - vec2(0.31, 0.17)); }}

[test]
uniform int tex 0
texture checkerboard 0 0 (16, 8) (0.2, 0.4, 0.6, 0.8) (0.9, 0.1, 0.5, 0.3)
texparameter 2D min linear
texparameter 2D mag linear
texparameter 2D wrap_s {wrap}
texparameter 2D wrap_t {wrap}
draw rect -1 -1 2 2
probe rgba 60 151 0 0 0 0
probe rgba 139 33 0 0 0 0
probe rgba 94 234 0 0 0 0
probe rgba 154 121 0 0 0 0
probe rgba 160 148 0 0 0 0
probe rgba 16 155 0 0 0 0
probe rgba 3 232 0 0 0 0
probe rgba 214 120 0 0 0 0
probe rgba 66 141 0 0 0 0
probe rgba 59 49 0 0 0 0
probe rgba 183 120 0 0 0 0
probe rgba 138 214 0 0 0 0
probe rgba 140 121 0 0 0 0
probe rgba 101 163 0 0 0 0
probe rgba 220 38 0 0 0 0
probe rgba 59 162 0 0 0 0
"#
    )
}

/// Asserts the emulator's `observed_bits` equal llvmpipe's on every probed channel.
fn agrees_with_llvmpipe(text: &str) {
    if std::env::var_os("GALLIUM_DRIVER").is_some() {
        common::skip(
            "an llvmpipe agreement test: GALLIUM_DRIVER picks another driver than llvmpipe",
        );
        return;
    }
    let Some(mut gl) = gl_backend() else {
        return;
    };
    let test = parse_str(Path::new("agreement.shader_test"), text).expect("parses");
    let observed = gl.run_test(&test);
    let predicted = predict(&test, Mode::Mediump);
    assert_eq!(
        observed.probes.len(),
        predicted.probes.len(),
        "{predicted:?}"
    );
    for (o, p) in observed.probes.iter().zip(&predicted.probes) {
        assert_eq!(o.pixel, p.pixel, "line {}", o.line);
        assert_eq!(
            o.observed_bits, p.observed_bits,
            "line {} at {:?}",
            o.line, o.pixel
        );
    }
}

#[test]
fn varyings_interpolate_like_llvmpipe() {
    agrees_with_llvmpipe(GRADIENT);
}

#[test]
fn perspective_correct_varyings_interpolate_like_llvmpipe() {
    agrees_with_llvmpipe(PERSPECTIVE);
}

#[test]
fn pixel_centres_on_shared_edges_go_where_llvmpipe_puts_them() {
    agrees_with_llvmpipe(EDGE_TIES);
}

#[test]
fn bilinear_filtering_of_8_bit_textures_matches_llvmpipe_with_repeat() {
    agrees_with_llvmpipe(&linear_filtering("repeat"));
}

#[test]
fn bilinear_filtering_of_8_bit_textures_matches_llvmpipe_with_clamp_to_edge() {
    agrees_with_llvmpipe(&linear_filtering("clamp_to_edge"));
}
