//! The emulator never panics and never hangs: shaders that loop forever, index out of range,
//! divide integers by zero, sample units that hold nothing, discard everything, or draw
//! degenerate and off-screen geometry give a result with a reason.

use halfcheck::results::Status;
use halfcheck_emu::{predict, Mode};
use halfcheck_piglit::shader_test::parse_str;
use std::path::Path;

fn run(fragment: &str, commands: &str) -> halfcheck::results::TestResult {
    let text = format!(
        "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n\n[vertex shader passthrough]\n\n\
         [fragment shader]\n#version 300 es\nprecision mediump float;\nout vec4 color;\n\
         {fragment}\n\n[test]\n{commands}\n"
    );
    let test = parse_str(Path::new("robustness.shader_test"), &text).expect("parses");
    predict(&test, Mode::Mediump)
}

#[test]
fn an_endless_loop_is_an_error_not_a_hang() {
    let r = run(
        "uniform float a;\nvoid main() { float x = 0.0; while (a >= 0.0) { x += 1.0; } color = vec4(x); }",
        "uniform float a 1.0\ndraw rect -1 -1 2 2\nprobe rgba 0 0 0 0 0 0",
    );
    assert_eq!(r.status, Status::Error, "{:?}", r.reason);
    assert!(r.reason.unwrap_or_default().contains("too long"));
}

#[test]
fn out_of_range_indices_and_integer_division_by_zero_give_values() {
    let r = run(
        "uniform int i;\nuniform int z;\nvoid main() { float v[3] = float[3](0.25, 0.5, 0.75);\n\
         int q = 7 / z; color = vec4(v[i], v[-i], float(q) * 0.0, 1.0); }",
        "uniform int i 9\nuniform int z 0\ndraw rect -1 -1 2 2\nprobe rgba 1 1 0.75 0.25 0.0 1.0",
    );
    assert!(matches!(r.status, Status::Pass | Status::Fail), "{r:?}");
    assert_eq!(r.probes.len(), 1);
}

#[test]
fn sampling_a_unit_without_texture_reads_black() {
    let r = run(
        "uniform sampler2D s;\nvoid main() { color = texture(s, gl_FragCoord.xy / 250.0); }",
        "uniform int s 7\ndraw rect -1 -1 2 2\nprobe rgba 5 5 0.0 0.0 0.0 1.0",
    );
    assert_eq!(r.status, Status::Pass, "{:?}", r.reason);
}

#[test]
fn discarding_every_fragment_leaves_the_clear_colour() {
    let r = run(
        "void main() { discard; }",
        "clear color 0.0 1.0 0.0 1.0\nclear\ndraw rect -1 -1 2 2\nprobe all rgba 0.0 1.0 0.0 1.0",
    );
    assert_eq!(r.status, Status::Pass, "{:?}", r.reason);
}

#[test]
fn derivatives_and_divergent_branches_run_per_quad() {
    let r = run(
        "void main() { float x = gl_FragCoord.x; if (x > 125.0) { color = vec4(dFdx(x), 0.0, 0.0, 1.0); }\n\
         else { color = vec4(0.0, dFdy(gl_FragCoord.y), 0.0, 1.0); } }",
        "draw rect -1 -1 2 2\nprobe rgba 200 10 1.0 0.0 0.0 1.0\nprobe rgba 10 10 0.0 1.0 0.0 1.0",
    );
    assert_eq!(r.status, Status::Pass, "{:?}", r.reason);
}

#[test]
fn degenerate_and_off_screen_rectangles_draw_nothing() {
    let r = run(
        "void main() { color = vec4(1.0); }",
        "draw rect -1 -1 0 2\ndraw rect 5 5 1 1\ndraw rect ortho 300 300 10 10\nprobe all rgba 0 0 0 0",
    );
    assert_eq!(r.status, Status::Pass, "{:?}", r.reason);
}

#[test]
fn a_shader_the_compiler_rejects_fails_with_its_log() {
    let r = run(
        "void main() { color = undefined_thing; }",
        "draw rect -1 -1 2 2",
    );
    assert_eq!(r.status, Status::Fail, "{:?}", r.reason);
    assert!(r.logs.contains_key("fragment"));
}

/// The verdicts' predictions read each probe's values without judging the probe: a probe that
/// fails on the emulator passes there, with the same values the judged run keeps.
#[test]
fn probe_values_keep_the_values_without_judging() {
    use halfcheck_emu::exec::Rounding;
    use halfcheck_emu::{compile_options, evaluate, probe_values, Compiled};
    let text = "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n\n[vertex shader passthrough]\n\n\
         [fragment shader]\n#version 300 es\nprecision highp float;\nout vec4 color;\n\
         void main() { color = vec4(0.25, 0.5, 0.75, 1.0); }\n\n[test]\ndraw rect -1 -1 2 2\n\
         probe all rgba 1.0 0.0 0.0 1.0\n";
    let test = parse_str(Path::new("values.shader_test"), text).expect("parses");
    let (domain, options) = (Rounding::new(Mode::Highp), compile_options(Mode::Highp));
    let judged = evaluate(&test, &domain, &options);
    let values = probe_values(&test, &domain, &Compiled::new(&test, &options));
    assert_eq!(judged.result.status, Status::Fail, "{:?}", judged.result);
    assert_eq!(values.result.status, Status::Pass, "{:?}", values.result);
    for evaluation in [&judged, &values] {
        assert_eq!(evaluation.probes.len(), 1);
        let at = |c| evaluation.probes[0].at(249, 249, c);
        assert_eq!([0, 1, 2, 3].map(at), [0.25, 0.5, 0.75, 1.0].map(Some));
    }
}

#[test]
fn texel_offsets_are_not_modelled_and_say_so() {
    let r = run(
        "uniform sampler2D s;\nvoid main() { color = textureOffset(s, vec2(0.5), ivec2(1, 0)); }",
        "uniform int s 0\ntexture rgbw 0 (8, 8)\ndraw rect -1 -1 2 2\nprobe rgba 5 5 0.0 1.0 0.0 1.0",
    );
    assert_eq!(r.status, Status::Error, "{r:?}");
    assert!(
        r.reason.unwrap_or_default().contains("texel offsets"),
        "the emulator never guesses an offset away"
    );
}

#[test]
fn a_triangle_crossing_the_near_plane_is_skipped_not_drawn_unclipped() {
    let r = run(
        "void main() { color = vec4(0.0, 1.0, 0.0, 1.0); }",
        "draw rect -1 -1 2 2\nprobe rgba 5 5 0.0 1.0 0.0 1.0",
    );
    assert_eq!(r.status, Status::Pass, "{r:?}");
    let text = "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n\n[vertex shader]\n#version 300 es\n\
                in vec4 piglit_vertex;\nvoid main() { gl_Position = vec4(piglit_vertex.xy, \
                piglit_vertex.x * 2.0, 1.0); }\n\n[fragment shader]\n#version 300 es\n\
                precision mediump float;\nout vec4 color;\nvoid main() { color = vec4(1.0); }\n\n\
                [test]\ndraw rect -1 -1 2 2\nprobe rgba 5 5 1.0 1.0 1.0 1.0\n";
    let test = parse_str(Path::new("near.shader_test"), text).expect("parses");
    let r = predict(&test, Mode::Mediump);
    assert_eq!(r.status, Status::Skip, "{r:?}");
    assert!(r.reason.unwrap_or_default().contains("does not clip"));
}
