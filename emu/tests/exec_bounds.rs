//! The interval domain: soundness against binary16/32/64 arithmetic, discrimination between
//! `H` and `M`, and robustness on NaN and infinities.

use half::f16;
use halfcheck_emu::exec::{Binary, Bounds, Compare, Domain, Interval, Unary, Width};
use proptest::prelude::*;

/// The binary32 value of `x`, as an exact `f64`.
fn f32v(x: f32) -> f64 {
    f64::from(x)
}

/// The binary16 value of `x` (rounded to nearest even), as an exact `f64`.
fn f16v(x: f32) -> f64 {
    f64::from(f16::from_f32(x).to_f32())
}

/// Binary16 arithmetic on binary16 values: computed in binary32, rounded (correctly rounded
/// for these operations).
fn f16_op(op: Binary, a: f64, b: f64) -> f64 {
    let (a, b) = (a as f32, b as f32);
    f16v(match op {
        Binary::Add => a + b,
        Binary::Sub => a - b,
        Binary::Mul => a * b,
        _ => a / b,
    })
}

fn f32_op(op: Binary, a: f64, b: f64) -> f64 {
    let (a, b) = (a as f32, b as f32);
    f32v(match op {
        Binary::Add => a + b,
        Binary::Sub => a - b,
        Binary::Mul => a * b,
        _ => a / b,
    })
}

fn f64_op(op: Binary, a: f64, b: f64) -> f64 {
    match op {
        Binary::Add => a + b,
        Binary::Sub => a - b,
        Binary::Mul => a * b,
        _ => a / b,
    }
}

fn arith() -> impl Strategy<Value = Binary> {
    prop_oneof![
        Just(Binary::Add),
        Just(Binary::Sub),
        Just(Binary::Mul),
        Just(Binary::Div),
    ]
}

/// Finite binary32 values of many magnitudes.
fn float32() -> impl Strategy<Value = f32> {
    prop_oneof![
        -1.0e4f32..1.0e4f32,
        -4.0f32..4.0f32,
        any::<f32>().prop_filter("finite", |x| x.is_finite()),
    ]
}

/// Finite binary16 values (as `f32`).
fn float16() -> impl Strategy<Value = f32> {
    prop_oneof![
        (-100.0f32..100.0f32).prop_map(|x| f16::from_f32(x).to_f32()),
        any::<u16>()
            .prop_map(|b| f16::from_bits(b).to_f32())
            .prop_filter("finite", |x| x.is_finite()),
    ]
}

fn point(x: f64) -> Interval {
    Interval::point(x)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn binary32_and_exact_arithmetic_lie_in_h(op in arith(), a in float32(), b in float32()) {
        let h = Bounds::highp();
        let (a, b) = (f32v(a), f32v(b));
        for width in [Width::Single, Width::Half] {
            let i = h.binary(op, point(a), point(b), width);
            let single = f32_op(op, a, b);
            prop_assert!(i.contains(single), "{op:?} {a} {b}: {single} not in {i:?}");
            let exact = f64_op(op, a, b);
            prop_assert!(i.contains(exact), "{op:?} {a} {b}: {exact} not in {i:?}");
        }
    }

    #[test]
    fn binary16_and_exact_arithmetic_lie_in_m(op in arith(), a in float16(), b in float16()) {
        let m = Bounds::mediump();
        let (a, b) = (f64::from(a), f64::from(b));
        let i = m.binary(op, point(a), point(b), Width::Half);
        let half = f16_op(op, a, b);
        prop_assert!(i.contains(half), "{op:?} {a} {b}: {half} not in {i:?}");
        let exact = f64_op(op, a, b);
        prop_assert!(i.contains(exact), "{op:?} {a} {b}: {exact} not in {i:?}");
        // Single-width operations in M are highp ones.
        let single = m.binary(op, point(a), point(b), Width::Single);
        prop_assert!(single.contains(f32_op(op, a, b)));
    }

    #[test]
    fn square_roots_lie_in_h_and_m(a in float32(), b in float16()) {
        let a = f32v(a.abs());
        let h = Bounds::highp().unary(Unary::Sqrt, point(a), Width::Single);
        prop_assert!(h.contains(f32v((a as f32).sqrt())), "sqrt {a}: {h:?}");
        prop_assert!(h.contains(a.sqrt()));
        let b = f64::from(b.abs());
        let m = Bounds::mediump().unary(Unary::Sqrt, point(b), Width::Half);
        prop_assert!(m.contains(f16v((b as f32).sqrt())), "sqrt {b}: {m:?}");
        prop_assert!(m.contains(b.sqrt()));
    }

    #[test]
    fn binary32_transcendentals_lie_in_h(x in float32()) {
        let h = Bounds::highp();
        let x = f32v(x);
        let xf = x as f32;
        let cases = [
            (Unary::Sin, xf.sin()),
            (Unary::Cos, xf.cos()),
            (Unary::Exp2, xf.exp2()),
            (Unary::Log2, xf.abs().log2()),
        ];
        for (op, value) in cases {
            let arg = if op == Unary::Log2 { x.abs() } else { x };
            let i = h.unary(op, point(arg), Width::Single);
            prop_assert!(i.contains(f32v(value)), "{op:?}({arg}) = {value}: {i:?}");
        }
    }

    #[test]
    fn llvmpipe_binary16_transcendentals_lie_in_m(x in float16()) {
        // llvmpipe: the binary32 function of the binary16 argument, rounded to binary16.
        let m = Bounds::mediump();
        let x = f64::from(x);
        let xf = x as f32;
        let cases = [
            (Unary::Sin, xf, xf.sin()),
            (Unary::Cos, xf, xf.cos()),
            (Unary::Exp2, xf, xf.exp2()),
            (Unary::Log2, xf.abs(), xf.abs().log2()),
        ];
        for (op, arg, value) in cases {
            let i = m.unary(op, point(f64::from(arg)), Width::Half);
            let half = f16v(value);
            prop_assert!(i.contains(half), "{op:?}({arg}) = {half}: {i:?}");
        }
    }

    #[test]
    fn interval_operations_contain_every_point_result(
        op in arith(),
        a in -50.0f32..50.0,
        da in 0.0f32..3.0,
        b in -50.0f32..50.0,
        db in 0.0f32..3.0,
        ta in 0.0f64..=1.0,
        tb in 0.0f64..=1.0,
    ) {
        let (alo, ahi) = (f32v(a), f32v(a + da));
        let (blo, bhi) = (f32v(b), f32v(b + db));
        let x = f32v((alo + ta * (ahi - alo)) as f32).clamp(alo, ahi);
        let y = f32v((blo + tb * (bhi - blo)) as f32).clamp(blo, bhi);
        let inside = |narrow: Interval, wide: Interval| {
            wide.is_entire() || (wide.lo() <= narrow.lo() && narrow.hi() <= wide.hi())
        };
        let (ia, ib) = (Interval::new(alo, ahi), Interval::new(blo, bhi));
        for (d, width) in [(Bounds::highp(), Width::Single), (Bounds::mediump(), Width::Half)] {
            let wide = d.binary(op, ia, ib, width);
            let narrow = d.binary(op, point(x), point(y), width);
            prop_assert!(inside(narrow, wide), "{op:?}: {narrow:?} not inside {wide:?}");
            let unary = [
                Unary::Sin,
                Unary::Cos,
                Unary::Exp2,
                Unary::Log2,
                Unary::Sqrt,
                Unary::Fract,
                Unary::Tan,
                Unary::Atan,
            ];
            for f in unary {
                let wide = d.unary(f, ia, width);
                let narrow = d.unary(f, point(x), width);
                prop_assert!(inside(narrow, wide), "{f:?}: {narrow:?} not inside {wide:?}");
            }
        }
    }

    #[test]
    fn transcendentals_never_panic(x in any::<f64>(), y in any::<f64>(), e in any::<i64>()) {
        for d in [Bounds::highp(), Bounds::mediump()] {
            for width in [Width::Half, Width::Single] {
                let i = Interval::new(x.min(y), x.max(y));
                for op in ALL_UNARY {
                    let _ = d.unary(op, i, width);
                }
                for op in ALL_BINARY {
                    let _ = d.binary(op, i, point(y), width);
                }
                let _ = d.ldexp(i, e, width);
                let _ = d.fma(i, i, point(x), width);
                let _ = d.representative(i);
            }
        }
    }
}

const ALL_UNARY: [Unary; 28] = [
    Unary::Neg,
    Unary::Abs,
    Unary::Sign,
    Unary::Rcp,
    Unary::Rsq,
    Unary::Sqrt,
    Unary::Exp,
    Unary::Log,
    Unary::Exp2,
    Unary::Log2,
    Unary::Trunc,
    Unary::Ceil,
    Unary::Floor,
    Unary::Fract,
    Unary::RoundEven,
    Unary::Sin,
    Unary::Cos,
    Unary::Tan,
    Unary::Asin,
    Unary::Acos,
    Unary::Atan,
    Unary::Sinh,
    Unary::Cosh,
    Unary::Tanh,
    Unary::Asinh,
    Unary::Acosh,
    Unary::Atanh,
    Unary::Saturate,
];

const ALL_BINARY: [Binary; 9] = [
    Binary::Add,
    Binary::Sub,
    Binary::Mul,
    Binary::Div,
    Binary::Mod,
    Binary::Min,
    Binary::Max,
    Binary::Pow,
    Binary::Atan2,
];

/// `fract((a / b) * 1024.0)` with a = 1, b = 3, the operands converted (f2fmp) to `width`.
fn amplified_third<D: Domain>(d: &D, width: Width) -> D::F {
    let a = d.convert(d.constant(1.0), width);
    let b = d.convert(d.constant(3.0), width);
    let q = d.binary(Binary::Div, a, b, width);
    let p = d.binary(Binary::Mul, q, d.constant(1024.0), width);
    d.unary(Unary::Fract, p, width)
}

#[test]
fn amplified_division_error_separates_highp_from_mediump() {
    let h = amplified_third(&Bounds::highp(), Width::Half);
    assert!(!h.contains(0.25), "H = {h:?}");
    assert!(h.contains(0.33334), "H = {h:?}");
    assert!(h.hi() - h.lo() < 1e-3, "H = {h:?}");
    let m = amplified_third(&Bounds::mediump(), Width::Half);
    assert!(m.contains(0.25), "M = {m:?}");
    assert!(m.contains(0.33334), "M = {m:?}");
}

#[test]
fn mediump_single_width_operations_get_highp_allowances() {
    let m = amplified_third(&Bounds::mediump(), Width::Single);
    let h = amplified_third(&Bounds::highp(), Width::Single);
    assert_eq!(m, h);
    assert!(!m.contains(0.25));
}

#[test]
fn llvmpipe_fract_of_a_product_is_in_m_not_in_h() {
    // PRECISION_FACTS: fract(0.3001 * 1000.0) reads 0.0 lowered, 0.100006104 at highp.
    let run = |d: &Bounds| {
        let a = d.convert(d.constant(f64::from(0.3001f32)), Width::Half);
        let p = d.binary(Binary::Mul, a, d.constant(1000.0), Width::Half);
        d.unary(Unary::Fract, p, Width::Half)
    };
    let highp_read = f64::from(f32::from_bits(0x3dcc_d000));
    let h = run(&Bounds::highp());
    let m = run(&Bounds::mediump());
    assert!(h.contains(highp_read) && !h.contains(0.0), "H = {h:?}");
    assert!(m.contains(0.0) && m.contains(highp_read), "M = {m:?}");
}

#[test]
fn nan_and_infinity_give_unbounded_results() {
    for d in [Bounds::highp(), Bounds::mediump()] {
        let nan = d.constant(f64::NAN);
        assert!(nan.may_be_nan());
        let r = d.binary(Binary::Add, nan, d.constant(1.0), Width::Half);
        assert!(r.is_entire() && r.contains(f64::NAN) && r.contains(5.0));
        let inf = d.constant(f64::INFINITY);
        let r = d.binary(Binary::Mul, inf, d.constant(0.0), Width::Single);
        assert!(r.is_entire());
        assert!(d
            .unary(Unary::Log, d.constant(-1.0), Width::Half)
            .is_entire());
        assert!(d
            .unary(Unary::Sqrt, d.constant(-1.0), Width::Half)
            .is_entire());
        assert!(d
            .binary(Binary::Div, d.constant(1.0), d.constant(0.0), Width::Half)
            .is_entire());
        assert!(d.representative(nan).is_nan());
        assert!(!d.compare(Compare::Less, nan, d.constant(1.0)));
    }
}

#[test]
fn overflow_is_unbounded_in_the_format() {
    let m = Bounds::mediump();
    let big = m.binary(
        Binary::Mul,
        m.constant(200.0),
        m.constant(200.0),
        Width::Half,
    );
    assert!(big.is_entire(), "40000 is beyond mediump's 2^14: {big:?}");
    let h = Bounds::highp();
    let fine = h.binary(
        Binary::Mul,
        h.constant(200.0),
        h.constant(200.0),
        Width::Half,
    );
    assert_eq!((fine.lo(), fine.hi()), (40000.0, 40000.0));
}

#[test]
fn exact_results_stay_points_in_highp() {
    let h = Bounds::highp();
    let r = h.binary(
        Binary::Add,
        h.constant(1.5),
        h.constant(2.25),
        Width::Single,
    );
    assert_eq!((r.lo(), r.hi()), (3.75, 3.75));
    let f = h.unary(Unary::Floor, h.constant(-2.5), Width::Single);
    assert_eq!((f.lo(), f.hi()), (-3.0, -3.0));
}

#[test]
fn sine_allowances_follow_deqp() {
    let h = Bounds::highp().unary(Unary::Sin, point(1.0), Width::Single);
    let s = 1f64.sin();
    assert!(h.contains(s - 0.00048) && h.contains(s + 0.00048));
    assert!(!h.contains(s - 0.0005) && !h.contains(s + 0.0005));
    // Outside [-pi, pi]: |x| 2^-12 highp, |x| 2^-10 mediump.
    let h = Bounds::highp().unary(Unary::Sin, point(100.0), Width::Single);
    assert!(h.contains(100f64.sin() + 0.0243));
    let m = Bounds::mediump().unary(Unary::Sin, point(100.0), Width::Half);
    assert!(m.contains(100f64.sin() + 0.097));
    // A wide interval reaches both extrema.
    let w = Bounds::highp().unary(Unary::Cos, Interval::new(-1.0, 7.0), Width::Single);
    assert!(w.contains(1.0) && w.contains(-1.0));
}

#[test]
fn log_near_one_is_absolute() {
    let h = Bounds::highp().unary(Unary::Log2, point(1.0), Width::Single);
    assert!(h.contains(2f64.powi(-21)) && !h.contains(2f64.powi(-20)));
    let m = Bounds::mediump().unary(Unary::Log2, point(1.0), Width::Half);
    assert!(m.contains(2f64.powi(-7)) && !m.contains(2f64.powi(-6)));
}

#[test]
fn compare_uses_midpoints() {
    let d = Bounds::highp();
    let a = Interval::new(0.0, 2.0);
    assert!(d.compare(Compare::Less, a, d.constant(1.5)));
    assert!(d.compare(Compare::Equal, a, d.constant(1.0)));
    assert_eq!(d.representative(Interval::new(3.0, f64::INFINITY)), 3.0);
    assert!(!Bounds::highp().lowers_ints() && Bounds::mediump().lowers_ints());
}
