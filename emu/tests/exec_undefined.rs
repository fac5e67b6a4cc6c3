//! The acceptance intervals never rest on the modelled driver's value where GLSL ES leaves
//! the result undefined or to the driver: each test names the rule it pins down, and checks
//! that the point evaluation (the modelled driver) is unchanged.

use halfcheck_compiler::ir::{Module, VarMode};
use halfcheck_compiler::{compile, CompileOptions, Stage};
use halfcheck_emu::exec::{
    find_var, Arrangement, Bounds, Domain, Interval, Invocation, Lanes, Mode, NoTextures, Rounding,
};

/// A GLSL ES 3.00 fragment shader with highp default precision, `body` in `main`, writing
/// `vec4 c`.
fn shader(declarations: &str, body: &str) -> Module {
    let src = format!(
        "#version 300 es\nprecision highp float;\n{declarations}\nout vec4 c;\n\
         void main() {{ {body} }}"
    );
    compile(&src, Stage::Fragment, "t.frag", &CompileOptions::default()).expect("compiles")
}

/// What one run over a quad gives: the output's four components per lane, which lanes the
/// run left open, and which rest on something never written.
struct Run<F> {
    color: Vec<Vec<F>>,
    open: Vec<bool>,
    indeterminate: Vec<bool>,
}

/// Runs `module` over one quad in `domain`, with integer uniforms `ints`, float uniforms
/// `floats` (every lane alike) and float input `v` per lane, when the shader has one.
fn run<D: Domain>(
    module: &Module,
    domain: &D,
    ints: &[(&str, i64)],
    floats: &[(&str, f64)],
) -> Run<D::F> {
    let mut inv = Invocation::new(module, domain, &NoTextures, 4, Arrangement::Quads);
    for (name, value) in ints {
        let id = find_var(module, name, VarMode::Uniform).expect("uniform");
        inv.set(id, vec![Lanes::Int(vec![*value])]);
    }
    for (name, value) in floats {
        let id = find_var(module, name, VarMode::Uniform).expect("uniform");
        inv.set(id, vec![Lanes::Float(vec![domain.constant(*value)])]);
    }
    if let Some(id) = find_var(module, "v", VarMode::ShaderIn) {
        let lanes = (0..4).map(|i| domain.constant(f64::from(i))).collect();
        inv.set(id, vec![Lanes::Float(lanes)]);
    }
    inv.run(1_000_000).expect("runs");
    let out = find_var(module, "c", VarMode::ShaderOut).expect("output");
    let color = inv
        .get(out)
        .expect("written")
        .iter()
        .map(|l| {
            let v = l.floats().expect("floats");
            (0..4)
                .map(|i| v[if v.len() == 1 { 0 } else { i }])
                .collect()
        })
        .collect();
    Run {
        color,
        open: inv.uncertain().to_vec(),
        indeterminate: inv.indeterminate().to_vec(),
    }
}

/// The highp interval run and the binary32 point run of one shader.
fn both(
    module: &Module,
    ints: &[(&str, i64)],
    floats: &[(&str, f64)],
) -> (Run<Interval>, Run<f64>) {
    (
        run(module, &Bounds::highp(), ints, floats),
        run(module, &Rounding::new(Mode::Highp), ints, floats),
    )
}

#[test]
fn integer_division_by_zero_is_undefined_and_leaves_the_lane_open() {
    let module = shader(
        "uniform int n, d;",
        "int q = n / d; c = vec4(float(q), 0.0, 0.0, 1.0);",
    );
    let (bounds, point) = both(&module, &[("n", 7), ("d", 0)], &[]);
    assert_eq!(bounds.open, vec![true; 4]);
    assert_eq!(
        bounds.indeterminate,
        vec![false; 4],
        "undefined, but the same in every run of one driver"
    );
    assert_eq!(
        point.open,
        vec![false; 4],
        "the point model is the driver's"
    );
    // A defined quotient leaves nothing open.
    let (bounds, _) = both(&module, &[("n", 7), ("d", 2)], &[]);
    assert_eq!(bounds.open, vec![false; 4]);
}

#[test]
fn a_remainder_by_zero_or_with_a_negative_operand_is_undefined() {
    let module = shader(
        "uniform int n, d;",
        "int r = n % d; c = vec4(float(r), 0.0, 0.0, 1.0);",
    );
    for (n, d) in [(-7, 3), (7, -3), (7, 0)] {
        let (bounds, _) = both(&module, &[("n", n), ("d", d)], &[]);
        assert_eq!(bounds.open, vec![true; 4], "{n} % {d}");
    }
    let (bounds, _) = both(&module, &[("n", 7), ("d", 3)], &[]);
    assert_eq!(bounds.open, vec![false; 4]);
}

#[test]
fn a_float_outside_the_integer_types_range_converts_to_an_undefined_value() {
    let signed = shader(
        "uniform float x;",
        "highp int i = int(x); c = vec4(float(i & 255), 0.0, 0.0, 1.0);",
    );
    let unsigned = shader(
        "uniform float x;",
        "highp uint u = uint(x); c = vec4(float(u & 255u), 0.0, 0.0, 1.0);",
    );
    assert_eq!(both(&signed, &[], &[("x", 3.0e9)]).0.open, vec![true; 4]);
    assert_eq!(both(&signed, &[], &[("x", -2.5)]).0.open, vec![false; 4]);
    assert_eq!(both(&unsigned, &[], &[("x", -2.5)]).0.open, vec![true; 4]);
    assert_eq!(both(&unsigned, &[], &[("x", 3.0e9)]).0.open, vec![false; 4]);
}

#[test]
fn an_index_outside_the_array_is_undefined() {
    let module = shader(
        "uniform int i;",
        "float v[4] = float[4](0.1, 0.2, 0.3, 0.4); c = vec4(v[i], 0.0, 0.0, 1.0);",
    );
    assert_eq!(both(&module, &[("i", 5)], &[]).0.open, vec![true; 4]);
    assert_eq!(both(&module, &[("i", -1)], &[]).0.open, vec![true; 4]);
    assert_eq!(both(&module, &[("i", 3)], &[]).0.open, vec![false; 4]);
}

#[test]
fn an_uninitialised_float_is_unbounded_and_only_what_it_reaches() {
    let module = shader(
        "uniform float a;",
        "float acc; acc += a; c = vec4(acc, a, 0.0, 1.0);",
    );
    let (bounds, point) = both(&module, &[], &[("a", 0.5)]);
    assert!(bounds.color[0][0].is_entire(), "{:?}", bounds.color[0][0]);
    assert!(bounds.color[0][0].is_indeterminate(), "two runs may differ");
    assert_eq!(bounds.color[1][0], Interval::point(0.5));
    assert_eq!(bounds.open, vec![false; 4]);
    assert_eq!(bounds.indeterminate, vec![false; 4], "only the value is");
    assert_eq!(point.color[0][0], 0.5, "the point model starts at zero");
    // Written before it is read, nothing is indeterminate.
    let written = shader(
        "uniform float a;",
        "float acc; acc = a; acc += a; c = vec4(acc, a, 0.0, 1.0);",
    );
    let (bounds, _) = both(&written, &[], &[("a", 0.5)]);
    assert_eq!(bounds.color[0][0], Interval::point(1.0));
}

#[test]
fn a_lane_deciding_on_an_uninitialised_value_is_indeterminate() {
    // Clamped, the value is bounded; the branch it decides is what differs between runs.
    let branch = shader(
        "uniform float a;",
        "float u; float x = 0.25; if (u > a) x = 0.5; c = vec4(x, a, 0.0, 1.0);",
    );
    let (bounds, point) = both(&branch, &[], &[("a", 0.5)]);
    assert_eq!(bounds.indeterminate, vec![true; 4]);
    assert_eq!(
        point.indeterminate,
        vec![false; 4],
        "point domains never mark"
    );
    let index = shader(
        "uniform float a;",
        "float u; float v[2] = float[2](0.1, 0.2); \
         c = vec4(v[int(clamp(u, 0.0, 1.0))], a, 0.0, 1.0);",
    );
    assert_eq!(
        both(&index, &[], &[("a", 0.5)]).0.indeterminate,
        vec![true; 4]
    );
    // A defined comparison marks nothing.
    let defined = shader(
        "uniform float a;",
        "float x = 0.25; if (a > 0.0) x = 0.5; c = vec4(x, a, 0.0, 1.0);",
    );
    assert_eq!(
        both(&defined, &[], &[("a", 0.5)]).0.indeterminate,
        vec![false; 4]
    );
}

#[test]
fn an_integer_read_before_it_is_written_is_undefined_but_not_after() {
    let unwritten = shader(
        "uniform int n;",
        "int k; k += n; c = vec4(float(k), 0.0, 0.0, 1.0);",
    );
    assert_eq!(both(&unwritten, &[("n", 2)], &[]).0.open, vec![true; 4]);
    assert_eq!(
        both(&unwritten, &[("n", 2)], &[]).0.indeterminate,
        vec![true; 4]
    );
    let written = shader(
        "uniform int n;",
        "int k; k = n; k += n; c = vec4(float(k), 0.0, 0.0, 1.0);",
    );
    assert_eq!(both(&written, &[("n", 2)], &[]).0.open, vec![false; 4]);
}

#[test]
fn a_derivative_in_non_uniform_control_flow_is_undefined() {
    let module = shader(
        "in float v;",
        "float d = 0.0; if (v < 1.5) d = dFdx(v * v); c = vec4(d, 0.0, 0.0, 1.0);",
    );
    // Lanes 0 and 1 take the branch, 2 and 3 do not: the quad is split there.
    assert_eq!(
        both(&module, &[], &[]).0.open,
        vec![true, true, false, false]
    );
    let uniform = shader("in float v;", "c = vec4(dFdx(v * v), 0.0, 0.0, 1.0);");
    assert_eq!(both(&uniform, &[], &[]).0.open, vec![false; 4]);
}

#[test]
fn round_may_take_a_half_either_way() {
    let module = shader(
        "uniform float x;",
        "c = vec4(round(x), round(x + 1.0), 0.0, 1.0);",
    );
    let (bounds, point) = both(&module, &[], &[("x", 2.5)]);
    assert_eq!(bounds.color[0][0], Interval::new(2.0, 3.0));
    assert_eq!(bounds.color[1][0], Interval::new(3.0, 4.0));
    assert_eq!(
        point.color[0][0], 2.0,
        "the point model rounds half to even"
    );
}

#[test]
fn a_chain_of_additions_may_be_added_in_any_order() {
    let module = shader(
        "uniform float u;",
        "c = vec4((u - 100000000.0) + 1.0, 0.0, 0.0, 1.0);",
    );
    let (bounds, point) = both(&module, &[], &[("u", 1.0e8)]);
    // As written: 1.0; as Mesa folds it, u + (1.0 - 1e8): 0.0.
    assert_eq!(point.color[0][0], 1.0);
    assert!(bounds.color[0][0].contains(1.0) && bounds.color[0][0].contains(0.0));
}

#[test]
fn a_product_held_in_a_variable_read_from_a_struct_may_be_reassociated() {
    // As llvmpipe did in binary16 (seed 2611, test 732): `p = s.x * s.y; max(p, p) * k` may
    // multiply `s.y * k` first, which overflows, and `0 * inf` is NaN.
    let module = shader(
        "uniform float z;\nuniform float big;\nstruct S { float x; float y; };",
        "S s = S(z, big);\n\
         float p = s.x * s.y;\n\
         c = vec4(max(p, p) * 1.0e30, 0.0, 0.0, 1.0);",
    );
    let (bounds, point) = both(&module, &[], &[("z", 0.0), ("big", 1.0e20)]);
    assert_eq!(point.color[0][0], 0.0, "the written order");
    assert!(bounds.color[0][0].is_entire(), "{:?}", bounds.color[0][0]);
}

#[test]
fn a_sum_held_in_a_variable_may_be_reassociated_with_the_sum_that_reads_it() {
    let module = shader(
        "uniform float u;\nuniform float a;",
        "float h = (u + 65536.0) - 65536.0;\n\
         c = vec4(h + a + 1.2247449, 0.0, 0.0, 1.0);",
    );
    let (bounds, point) = both(&module, &[], &[("u", 9.0), ("a", -1023.9)]);
    // As written: (9 - 1023.9) + 1.2247449. As llvmpipe computed it (seed 2311, test 292):
    // the constants first, 1.2247449 rounded at 65536's scale to 1.2265625.
    let (u, a, k) = (9.0f32, -1023.9f32, 1.224_744_9_f32);
    let written = (u + a) + k;
    let folded = (u + a) + ((65536.0f32 + k) - 65536.0);
    assert_eq!(point.color[0][0], f64::from(written));
    assert_ne!(written, folded);
    for v in [written, folded] {
        assert!(
            bounds.color[0][0].contains(f64::from(v)),
            "{v}: {:?}",
            bounds.color[0][0]
        );
    }
    // One binary32 ulp of the terms' magnitudes (2^17: 1/64) per addition, not unbounded.
    let width = bounds.color[0][0].hi() - bounds.color[0][0].lo();
    assert!(width <= 4.0 * 2.0 / 64.0 + 1e-3, "{width}");
}

#[test]
fn a_chain_of_products_may_be_multiplied_in_any_order() {
    let module = shader(
        "uniform float u;",
        "c = vec4((u * 1.0e30) * 1.0e30, 0.0, 0.0, 1.0);",
    );
    let (bounds, point) = both(&module, &[], &[("u", 1.0e-30)]);
    // As written: about 1e30; as Mesa folds it, u * (1e30 * 1e30) = u * inf: inf.
    let written = point.color[0][0];
    assert!(written.is_finite() && written > 1.0e29, "{written}");
    assert!(bounds.color[0][0].contains(written));
    assert!(bounds.color[0][0].contains(f64::INFINITY));
}

#[test]
fn a_product_of_a_selection_of_a_doubled_product_may_be_multiplied_in_any_order() {
    // As llvmpipe did in binary16 (seed 2611, test 5743): `(c ? k : d + d) * 4096` with
    // `d = degrees(g)`. NIR moves the product into the selection, rewrites `d + d` as
    // `d * 2` and multiplies the constants first: `g * (57.3 * 2 * 4096)`, whose constant
    // overflows. Here in binary32: `g * (1e20 * 2 * 1e19)` is `g * inf`.
    let module = shader(
        "uniform float g;\nuniform float s;",
        "float d = g * 1.0e20;\n\
         c = vec4((s > 1.0 ? 1.0 : d + d) * 1.0e19, 0.0, 0.0, 1.0);",
    );
    let (bounds, point) = both(&module, &[], &[("g", 1.0e-20), ("s", 0.0)]);
    let written = point.color[0][0];
    assert!(written.is_finite() && written > 1.0e19, "{written}");
    assert!(bounds.color[0][0].contains(written));
    assert!(
        bounds.color[0][0].contains(f64::INFINITY),
        "{:?}",
        bounds.color[0][0]
    );
}

#[test]
fn a_mediump_int_holding_more_than_16_bits_is_undefined_where_ints_are_lowered() {
    // llvmpipe narrowed a mediump `int` uniform set to 40000 where a highp copy of it was
    // read (seed 2611, test 9064): its precision promises 16 bits, no more.
    let module = shader(
        "uniform mediump int k;",
        "highp int j = k;\nc = vec4(float(j), 0.0, 0.0, 1.0);",
    );
    let m = run(&module, &Bounds::mediump(), &[("k", 40_000)], &[]);
    assert!(m.open.iter().all(|&o| o), "{:?}", m.open);
    let h = run(&module, &Bounds::highp(), &[("k", 40_000)], &[]);
    assert!(h.open.iter().all(|&o| !o), "highp keeps 32 bits");
    assert!(h.color[0][0].contains(40_000.0));
    let within = run(&module, &Bounds::mediump(), &[("k", 30_000)], &[]);
    assert!(within.open.iter().all(|&o| !o), "16 bits hold 30000");
}

#[test]
fn a_scalar_normalize_may_be_the_specs_formula_not_only_mesas_sign() {
    let module = shader("uniform float x;", "c = vec4(normalize(x), 0.0, 0.0, 1.0);");
    let (bounds, point) = both(&module, &[], &[("x", 3.0)]);
    // Mesa: sign(x), exactly 1. SwiftShader: x * inversesqrt(x * x), 1 - 2^-24 (seed 23,
    // test 103 on angle-swiftshader).
    assert_eq!(point.color[0][0], 1.0);
    let below = f64::from(1.0f32 - f32::EPSILON / 2.0);
    for v in [1.0, below] {
        assert!(
            bounds.color[0][0].contains(v),
            "{v}: {:?}",
            bounds.color[0][0]
        );
    }
}

#[test]
fn degrees_allow_a_driver_that_builds_the_constant_otherwise() {
    let module = shader("uniform float x;", "c = vec4(degrees(x), 0.0, 0.0, 1.0);");
    let (bounds, point) = both(&module, &[], &[("x", 1.0)]);
    let modelled = point.color[0][0] as f32;
    let next = f32::from_bits(modelled.to_bits() + 1);
    let previous = f32::from_bits(modelled.to_bits() - 1);
    for v in [modelled, next, previous] {
        assert!(bounds.color[0][0].contains(f64::from(v)), "{v}");
    }
}

#[test]
fn the_bits_of_a_zero_depend_on_a_sign_a_compiler_may_drop() {
    let module = shader(
        "uniform float a;",
        "float z = a * 0.0; c = vec4(float(floatBitsToInt(z) < 0), 0.0, 0.0, 1.0);",
    );
    assert_eq!(both(&module, &[], &[("a", -2.0)]).0.open, vec![true; 4]);
    let nonzero = shader(
        "uniform float a;",
        "c = vec4(float(floatBitsToInt(a) < 0), 0.0, 0.0, 1.0);",
    );
    assert_eq!(both(&nonzero, &[], &[("a", -2.0)]).0.open, vec![false; 4]);
}

#[test]
fn a_lowered_mediump_integer_that_overflows_16_bits_is_undefined() {
    let src = "#version 300 es\nprecision highp float;\nprecision mediump int;\nuniform int a;\n\
               out vec4 c;\nvoid main() { int s = a * a; c = vec4(float(s), 0.0, 0.0, 1.0); }";
    let options = CompileOptions {
        model: halfcheck_compiler::Model::Spec,
        lower: true,
        ..CompileOptions::default()
    };
    let module = compile(src, Stage::Fragment, "t.frag", &options).expect("compiles");
    // 300 * 300 = 90000 does not fit 16 bits: a driver may wrap it (llvmpipe: 24464) or not.
    let wrapped = run(&module, &Bounds::mediump(), &[("a", 300)], &[]);
    assert_eq!(wrapped.open, vec![true; 4]);
    let fits = run(&module, &Bounds::mediump(), &[("a", 100)], &[]);
    assert_eq!(fits.open, vec![false; 4]);
}
