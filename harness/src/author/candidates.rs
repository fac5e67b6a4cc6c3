//! The values `suggest` tries: a fixed list that makes binary16 rounding show, and values
//! taken from the other uniforms' current ones, moved by a fraction of a binary16 ulp, so
//! that two uniforms a shader compares (`val < max`) round to one binary16 value while their
//! binary32 values stay apart.

use super::uniforms::{Kind, Uniform};

/// Values a float component tries: each rounds visibly in binary16 somewhere it is used.
pub(crate) const FLOATS: [f32; 16] = [
    1.0, 3.0, 0.3001, 1000.3, 7.0, 0.1, 2.6, 1000.0, 0.7, 11.0, 300.0, 2.0, 0.45, 100.1, 2e-8, 0.0,
];
/// Values every float uniform takes at once before the search goes one uniform at a time.
pub(crate) const STARTS: [f32; 4] = [0.3001, 1000.3, 0.7, 2.6];
/// Values an integer component tries (300 * 300 overflows 16 bits).
pub(crate) const INTS: [f32; 9] = [1.0, 3.0, 300.0, 7.0, 1000.0, 2.0, 255.0, 0.0, 12345.0];

/// How far a nudge moves a value, relative: an eighth of binary16's ulp (2^-10 relative at
/// most), so that a value on the binary16 grid rounds back to itself, yet 6 significant
/// digits (how `suggest` writes values) still tell the binary32 values apart.
const NUDGE: f32 = 1.0 / 8192.0;

/// The other scalar float uniforms' current values (not uniform `skip`'s), each a nudge
/// above and below: values equal to another's in binary16 and apart from it in binary32.
pub(crate) fn nudges(uniforms: &[Uniform], values: &[Vec<f32>], skip: usize) -> Vec<f32> {
    let mut out: Vec<f32> = uniforms
        .iter()
        .zip(values)
        .enumerate()
        .filter(|(j, (u, v))| *j != skip && scalar_float(u) && v[0] != 0.0 && v[0].is_finite())
        .flat_map(|(_, (_, v))| [v[0] * (1.0 + NUDGE), v[0] * (1.0 - NUDGE)])
        .collect();
    out.sort_by(f32::total_cmp);
    out.dedup();
    out
}

/// Whether `u` is one float: the uniforms a pair move sets.
pub(crate) fn scalar_float(u: &Uniform) -> bool {
    u.kind == Kind::Float && u.components == 1
}

/// Every pair of scalar float uniforms (by index), each with the values a pair move gives it
/// at once: both move to nudges of the others, so that a shader comparing three uniforms
/// (`val < max && val > min`) flips only in binary16.
pub(crate) fn pair_moves(uniforms: &[Uniform], values: &[Vec<f32>]) -> Vec<[(usize, f32); 2]> {
    let scalars: Vec<usize> = (0..uniforms.len())
        .filter(|&i| scalar_float(&uniforms[i]))
        .collect();
    let mut moves = Vec::new();
    for (n, &i) in scalars.iter().enumerate() {
        for &k in &scalars[n + 1..] {
            for a in nudges(uniforms, values, i) {
                for b in nudges(uniforms, values, k) {
                    moves.push([(i, a), (k, b)]);
                }
            }
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    fn float(name: &str) -> Uniform {
        Uniform {
            name: name.to_string(),
            type_name: "float".to_string(),
            kind: Kind::Float,
            components: 1,
        }
    }

    /// A nudge of a value on the binary16 grid rounds back to it in binary16 and differs
    /// from it in binary32, also as `suggest` writes it (6 significant digits).
    #[test]
    fn a_nudge_keeps_the_binary16_value_and_moves_the_binary32_one() {
        let uniforms = [float("val"), float("max")];
        let values = [vec![0.75], vec![1.0]];
        let near = nudges(&uniforms, &values, 0);
        assert_eq!(near.len(), 2);
        for v in near {
            let written: f32 = super::super::numbers::format_value(v)
                .parse()
                .expect("number");
            assert_ne!(written, 1.0);
            assert_eq!(half::f16::from_f32(written).to_f32(), 1.0);
        }
    }

    /// Three scalar floats give three pairs, each with two nudges of the other two each.
    #[test]
    fn pair_moves_set_two_uniforms_to_nudges_of_the_others() {
        let uniforms = [float("val"), float("min"), float("max")];
        let values = [vec![0.5], vec![0.5], vec![0.5]];
        let moves = pair_moves(&uniforms, &values);
        // Each uniform's nudges dedup to 2 (the others share 0.5): 3 pairs x 2 x 2.
        assert_eq!(moves.len(), 12);
        assert!(moves
            .iter()
            .any(|[(i, a), (k, b)]| *i == 1 && *k == 2 && a < &0.5 && b > &0.5));
    }
}
