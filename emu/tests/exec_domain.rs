//! binary16 `+ - * /` and `sqrt` through the emulator's mediump domain are correctly rounded:
//! equal to the exact binary64 result rounded once to binary16 (nearest even), over every
//! kind of operand (normals, subnormals, zeros, infinities, NaN).

use half::f16;
use halfcheck_emu::exec::{Binary, Domain, Mode, Rounding, Unary, Width};
use proptest::prelude::*;

fn value(bits: u16) -> f64 {
    f64::from(f16::from_bits(bits).to_f32())
}

fn reference(x: f64) -> f64 {
    f64::from(f16::from_f64(x).to_f32())
}

fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

/// Bit patterns weighted toward the interesting corners of binary16.
fn half_bits() -> impl Strategy<Value = u16> {
    prop_oneof![
        any::<u16>(),
        (0u16..0x0400).prop_map(|m| m),
        (0u16..0x0400).prop_map(|m| m | 0x8000),
        Just(0x7c00u16),
        Just(0xfc00u16),
        Just(0x7e00u16),
        Just(0x7bffu16),
        Just(0x0000u16),
        Just(0x8000u16),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn binary16_arithmetic_is_correctly_rounded(a in half_bits(), b in half_bits()) {
        let d = Rounding::new(Mode::Mediump);
        let (x, y) = (value(a), value(b));
        for (op, exact) in [
            (Binary::Add, x + y),
            (Binary::Sub, x - y),
            (Binary::Mul, x * y),
            (Binary::Div, x / y),
        ] {
            let got = d.binary(op, x, y, Width::Half);
            prop_assert!(same(got, reference(exact)), "{op:?} {x} {y}: {got} vs {}", reference(exact));
        }
    }

    #[test]
    fn binary16_sqrt_is_correctly_rounded(a in half_bits()) {
        let d = Rounding::new(Mode::Mediump);
        let x = value(a);
        let got = d.unary(Unary::Sqrt, x, Width::Half);
        prop_assert!(same(got, reference(x.sqrt())), "sqrt {x}: {got}");
    }
}

#[test]
fn every_binary16_square_root_is_correctly_rounded() {
    let d = Rounding::new(Mode::Mediump);
    for bits in 0..=u16::MAX {
        let x = value(bits);
        assert!(
            same(d.unary(Unary::Sqrt, x, Width::Half), reference(x.sqrt())),
            "{bits:#06x}"
        );
    }
}
