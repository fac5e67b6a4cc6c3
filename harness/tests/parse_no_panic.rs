//! No input makes the reader panic: random bytes and mutated real files only give errors.

use halfcheck_piglit::shader_test::parse_str;
use proptest::prelude::*;
use std::path::Path;

/// Real files to mutate: the repository's arithmetic cases.
fn seeds() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases/arithmetic");
    let mut out: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    assert!(!out.is_empty(), "no seed files under {}", dir.display());
    out
}

/// Piglit-flavoured fragments to splice into files.
const FRAGMENTS: &[&str] = &[
    "[",
    "]",
    "[test]",
    "[require]",
    "[vertex data]",
    "probe",
    "rgba",
    "(",
    ")",
    ",",
    "0x",
    "-",
    "uniform",
    "vec4",
    "mat2x3",
    "draw rect",
    "\n",
    " ",
    "#",
    "1e99999",
    "nan",
    "inf",
    "/",
    "texture rgbw",
    "relative",
    "GL ES >=",
    "\u{0}",
    "é",
    "4294967296",
    "-9999999999999999999",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_str(Path::new("fuzz.shader_test"), &text);
    }

    #[test]
    fn mutated_real_files_never_panic(
        seed in 0usize..64,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0usize..FRAGMENTS.len(), 0usize..8), 1..12),
    ) {
        let seeds = seeds();
        let mut text = seeds[seed % seeds.len()].clone();
        for (at, fragment, cut) in edits {
            let mut pos = at.index(text.len() + 1);
            while !text.is_char_boundary(pos) {
                pos -= 1;
            }
            let mut end = (pos + cut).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.replace_range(pos..end, FRAGMENTS[fragment]);
        }
        let _ = parse_str(Path::new("mutated.shader_test"), &text);
    }
}
