//! The emulator runs compiled shaders: each test names the precision rule it pins down.

use halfcheck_compiler::ir::{Module, VarMode};
use halfcheck_compiler::{compile, CompileOptions, Stage};
use halfcheck_emu::exec::{find_var, Arrangement, Invocation, Lanes, Mode, NoTextures, Rounding};

fn fragment(source: &str, lower: bool) -> Module {
    let options = CompileOptions {
        lower,
        final_pipeline: lower,
        ..CompileOptions::default()
    };
    compile(source, Stage::Fragment, "t.frag", &options).expect("compiles")
}

/// Runs `module` with float uniforms and returns gl_FragColor.
fn run(module: &Module, mode: Mode, uniforms: &[(&str, f64)]) -> Vec<f64> {
    run_output(module, mode, uniforms, "gl_FragColor")
}

/// Runs `module` with float uniforms and returns its float output `output`.
fn run_output(module: &Module, mode: Mode, uniforms: &[(&str, f64)], output: &str) -> Vec<f64> {
    let domain = Rounding::new(mode);
    let mut inv = Invocation::new(module, &domain, &NoTextures, 4, Arrangement::Quads);
    for (name, value) in uniforms {
        let id = find_var(module, name, VarMode::Uniform).expect("uniform");
        inv.set(id, vec![Lanes::Float(vec![f64::from(*value as f32)])]);
    }
    inv.run(1_000_000).expect("runs");
    let out = find_var(module, output, VarMode::ShaderOut).expect("output");
    inv.get(out)
        .expect("written")
        .iter()
        .map(|l| l.floats().expect("floats")[0])
        .collect()
}

const DIV: &str = "#version 100\nprecision mediump float;\nuniform float a, b;\n\
void main() { float r = a / b; gl_FragColor = vec4(r, fract(r * 1024.0), 0.0, 1.0); }";

#[test]
fn mediump_division_rounds_to_binary16_and_the_amplifier_shows_it() {
    let module = fragment(DIV, true);
    let c = run(&module, Mode::Mediump, &[("a", 1.0), ("b", 3.0)]);
    assert_eq!(c, vec![0.333251953125, 0.25, 0.0, 1.0]);
}

#[test]
fn continue_inside_a_switch_continues_the_users_loop() {
    let src = "#version 300 es\nprecision highp float;\nuniform float a;\nout vec4 c;\n\
void main() { float s = 0.0; for (int i = 0; i < 4; i++) { switch (i) { case 1: continue; \
default: s += 1.0; } s += 10.0; } c = vec4(s, a, 0.0, 1.0); }";
    let c = run_output(&fragment(src, true), Mode::Highp, &[("a", 0.0)], "c");
    // i = 1 skips both additions; the other three iterations add 11.
    assert_eq!(c[0], 33.0);
}

#[test]
fn highp_mode_computes_the_same_shader_in_binary32() {
    let module = fragment(DIV, false);
    let c = run(&module, Mode::Highp, &[("a", 1.0), ("b", 3.0)]);
    let third = 1.0f32 / 3.0;
    assert_eq!(c[0], f64::from(third));
    assert_eq!(c[1], f64::from((third * 1024.0).fract()));
}

#[test]
fn mediump_int_arithmetic_wraps_at_16_bits() {
    let src = "#version 100\nprecision mediump float;\nprecision mediump int;\nuniform float a;\n\
void main() { int i = int(a); int p = i * i; gl_FragColor = vec4(float(p), 0.0, 0.0, 1.0); }";
    let module = fragment(src, true);
    let c = run(&module, Mode::Mediump, &[("a", 300.0)]);
    assert_eq!(c[0], f64::from(90000i32 as i16));
}

#[test]
fn loops_and_branches_run_per_lane_masks() {
    let src = "#version 100\nprecision highp float;\nuniform float n;\n\
void main() { float s = 0.0; for (int i = 0; i < 10; i++) { if (float(i) >= n) break; s += 1.0; }\n\
gl_FragColor = vec4(s, 0.0, 0.0, 1.0); }";
    let module = fragment(src, true);
    assert_eq!(run(&module, Mode::Mediump, &[("n", 4.0)])[0], 4.0);
}

/// `c` of a shader that accumulates `x += 0.3` from `x = start` in a loop of `trip_count`
/// iterations (`n` is a uniform 10, `x0` 1000), with llvmpipe without SSE's binary32 (x87
/// extended) and loop variables in `place`: `(x - 1003, fract(x * 1024))`.
fn accumulated(start: &str, trip_count: &str, place: &str) -> (f64, f64) {
    let src = format!(
        "#version 300 es\nprecision highp float;\nuniform float x0, stp;\nuniform int n;\n\
         out vec4 c;\nvoid main() {{ float x = {start};\n\
         for (int i = 0; i < {trip_count}; i++) {{ x += stp; }}\n\
         c = vec4(x - 1003.0, fract(x * 1024.0), 0.0, 1.0); }}"
    );
    let module = fragment(&src, false);
    let choices = halfcheck_emu::Choices::default()
        .with("arithmetic.binary32", "extended")
        .and_then(|c| c.with("arithmetic.control_flow_variables", place))
        .expect("valid choices");
    let domain = Rounding::with(Mode::Highp, choices);
    let mut inv = Invocation::new(&module, &domain, &NoTextures, 4, Arrangement::Quads);
    for (name, value) in [("x0", 1000.0f32), ("stp", 0.3)] {
        let id = find_var(&module, name, VarMode::Uniform).expect("uniform");
        inv.set(id, vec![Lanes::Float(vec![f64::from(value)])]);
    }
    let n = find_var(&module, "n", VarMode::Uniform).expect("uniform");
    inv.set(n, vec![Lanes::Int(vec![10])]);
    inv.run(1_000_000).expect("runs");
    let out = find_var(&module, "c", VarMode::ShaderOut).expect("output");
    let c = inv.get(out).expect("written");
    let at = |i: usize| c[i].floats().expect("floats")[0];
    (at(0), at(1))
}

#[test]
fn a_kept_loop_carries_its_variables_through_memory_at_binary32() {
    // Measured on llvmpipe with GALLIUM_NOSSE=1: 1000 + 10 x 0.3 rounded to binary32 every
    // iteration ends 2^-13 below 1003; in x87 registers 2^-23 above (0.3 is 0.3 + 2^-23/10).
    assert_eq!(accumulated("x0", "n", "memory").0, -f64::powi(2.0, -13));
    assert_eq!(accumulated("x0", "n", "registers").0, f64::powi(2.0, -23));
    // A constant trip count: NIR unrolls the loop, nothing goes through memory.
    assert_eq!(accumulated("x0", "10", "memory").0, f64::powi(2.0, -23));
}

#[test]
fn a_kept_loop_stores_the_value_entering_it() {
    // x0 * 0.3 is 300.0000119 at extended precision, 300 once stored: after three steps
    // fract(x * 1024) is 0.5625 (measured on the driver, 0x3f100000); entering unrounded it
    // would be 0.59375, and in registers throughout 0.61224365234375.
    assert_eq!(accumulated("x0 * stp", "n - 7", "memory").1, 0.5625);
    assert_eq!(
        accumulated("x0 * stp", "n - 7", "registers").1,
        0.61224365234375
    );
}

#[test]
fn mul_extended_returns_the_high_word_of_the_64_bit_product() {
    // 65536 * 65536 = 2^32: msb 1, lsb 0; 32768 * 2 = 65536: msb 0, lsb 65536.
    let src = "#version 310 es\nprecision highp float;\nprecision highp int;\nuniform float a;\n\
out vec4 c;\nvoid main() { uint um, ul; int im, il; uint u = uint(a);\n\
umulExtended(u, u, um, ul); imulExtended(int(a) / 2, 2, im, il);\n\
c = vec4(float(um), float(ul), float(im), float(il)); }";
    let c = run_output(&fragment(src, false), Mode::Highp, &[("a", 65536.0)], "c");
    assert_eq!(c, vec![1.0, 0.0, 0.0, 65536.0]);
}
