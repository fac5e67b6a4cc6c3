//! The reader on NIR dumps of several Mesa versions, on junk and on dumps cut short.
//!
//! `mesa-22.3-*.txt` are captures of Debian's Mesa 22.3.6 (`ST_DEBUG=nir`, piglit's
//! `shader_runner_gles2`) on `add_overflow_inf` (llvmpipe) and the igalia
//! `mediump_div_lowered` anchor (zink on lavapipe, softpipe). The others are written for these
//! tests in the shapes `nir_print.c` printed in other eras: 2015 (no bit sizes), 2017
//! (`vec4 32 ssa_5`, source modifiers `-ssa_3`, `abs(...)`, `.sat`, `store_var`), and from
//! 2023 (`con 16x4 %11`, `@intrinsic`, constants inline in sources, `//` comments).

use halfcheck_nir::{program, read, Component};
use std::collections::BTreeMap;

fn dump(name: &str) -> String {
    let path = format!("{}/tests/dumps/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn counts(pairs: &[(&str, u32)]) -> BTreeMap<String, u32> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

const AT_16: Component = Component {
    computed_at_16: true,
    touches_16: true,
    computes_32: false,
    reads_inputs: false,
};

#[test]
fn llvmpipe_22_3_computes_the_sum_at_16_bits_and_widens_it_for_the_output() {
    let p = program(&dump("mesa-22.3-llvmpipe.txt"));
    assert_eq!(p.shaders.len(), 2);
    assert!(p.complete && p.any_16);
    let vertex = &p.shaders[0];
    assert_eq!(vertex.stage, "VERTEX");
    assert!(!vertex.any_16bit());
    let fragment = &p.shaders[1];
    assert_eq!(
        fragment.float16,
        counts(&[("fadd", 2), ("fdiv", 1), ("fmin", 1), ("fneg", 1)])
    );
    assert!(fragment.float32.is_empty(), "{:?}", fragment.float32);
    assert_eq!(fragment.conversions, counts(&[("f2f16", 4), ("f2f32", 1)]));
    let colour = p.colour.expect("gl_FragColor is stored whole");
    assert_eq!(colour[0], AT_16);
    // g and b are the constant 0, a is 1: no 16-bit operation on their way.
    for c in &colour[1..] {
        assert!(!c.computed_at_16 && !c.touches_16, "{c:?}");
    }
}

#[test]
fn zink_22_3_widens_a_16_bit_vector_whole() {
    let p = program(&dump("mesa-22.3-zink.txt"));
    let fragment = p.shaders.iter().find(|s| s.stage == "FRAGMENT").unwrap();
    assert_eq!(
        fragment.float16,
        counts(&[("fdiv", 1), ("ffract", 1), ("fmul", 1)])
    );
    let colour = p.colour.unwrap();
    assert!(colour[0].computed_at_16 && colour[1].computed_at_16);
    // b and a are 16-bit constants: 16 bits on their way, computed by nothing.
    assert!(!colour[2].computed_at_16 && colour[2].touches_16);
}

#[test]
fn softpipe_22_3_holds_no_16_bit_value() {
    let p = program(&dump("mesa-22.3-softpipe.txt"));
    assert!(!p.any_16);
    assert!(p.shaders.iter().all(|s| !s.any_16bit()));
    let fragment = p.shaders.iter().find(|s| s.stage == "FRAGMENT").unwrap();
    assert_eq!(
        fragment.float32,
        counts(&[("fdiv", 1), ("ffract", 1), ("fmul", 1)])
    );
    let colour = p.colour.unwrap();
    for c in &colour {
        assert!(!c.computed_at_16 && !c.touches_16, "{c:?}");
    }
    // r and g are computed at 32 bits; b and a are constants, computed by nothing.
    assert!(colour[0].computes_32 && colour[1].computes_32);
    assert!(!colour[2].computes_32 && !colour[3].computes_32);
}

#[test]
fn the_2023_syntax_reads_as_the_2022_one() {
    let p = program(&dump("mesa-24-syntax.txt"));
    assert!(p.complete);
    let fragment = &p.shaders[0];
    assert_eq!(
        fragment.float16,
        counts(&[("fdiv", 1), ("ffract", 1), ("fmul", 1)])
    );
    assert_eq!(fragment.conversions, counts(&[("f2f16", 2), ("f2f32", 1)]));
    let colour = p.colour.unwrap();
    assert_eq!(colour[0], AT_16);
    assert_eq!(colour[1], AT_16);
    assert!(!colour[3].computed_at_16);
}

#[test]
fn the_2017_syntax_counts_with_modifiers_but_its_store_var_is_not_traced() {
    let p = program(&dump("mesa-2017-syntax.txt"));
    let fragment = &p.shaders[0];
    assert_eq!(fragment.float32, counts(&[("fadd", 1), ("fmul", 1)]));
    assert!(!p.any_16);
    // `store_var` names no deref: the output is not shown plainly.
    assert_eq!(p.colour, None);
}

#[test]
fn the_2015_syntax_has_no_bit_sizes_and_claims_none() {
    let p = program(&dump("mesa-2015-syntax.txt"));
    assert_eq!(p.shaders.len(), 1);
    let fragment = &p.shaders[0];
    assert!(fragment.float16.is_empty() && fragment.float32.is_empty());
    assert!(!p.any_16);
    assert!(p.complete);
}

#[test]
fn a_dump_cut_short_keeps_what_it_read_and_says_it_is_incomplete() {
    let whole = dump("mesa-22.3-llvmpipe.txt");
    let cut_at = whole.find("fdiv").unwrap();
    let p = program(&whole[..cut_at]);
    assert!(!p.complete);
    let fragment = &p.shaders[1];
    assert!(!fragment.complete);
    assert_eq!(fragment.float16, counts(&[("fadd", 2), ("fneg", 1)]));
    // Every prefix reads without a panic.
    for end in (0..whole.len()).filter(|&i| whole.is_char_boundary(i)) {
        let _ = program(&whole[..end]);
    }
}

#[test]
fn junk_and_driver_chatter_are_kept_apart_never_read_as_shaders() {
    let chatter = "MESA: warning: something\nlibEGL warning: DRI2: failed\n";
    let whole = format!("{chatter}{}", dump("mesa-22.3-llvmpipe.txt"));
    let d = read(&whole);
    assert_eq!(d.shaders.len(), 2);
    assert!(d.other.starts_with(chatter), "{}", d.other);
    assert!(d.other.contains("PIGLIT: {\"result\": \"pass\" }"));
    let junk: String = (0u32..20_000)
        .map(|i| char::from_u32((i * 7919) % 0x2FFF).unwrap_or('?'))
        .collect();
    let p = program(&junk);
    assert!(p.shaders.is_empty() && !p.complete && !p.any_16);
    let p = program("shader: MESA_SHADER_FRAGMENT\nimpl main {\n{{{{\nvec1 16 = = =\n}\n");
    assert!(!p.complete && !p.any_16);
    let p = program(
        "shader: MESA_SHADER_FRAGMENT\nimpl main {\n\tvec1 16 ssa_1 = fadd ssa_1, ssa_1\n}\n",
    );
    assert!(
        p.any_16,
        "a value read before its definition is still 16 bits"
    );
}

/// llvmpipe 22.3 hands `step` and `refract` over as a comparison made a float and a selection
/// (`b2f32 (fge32 ...)`, `b32csel c, x, y`): what they give was computed at 16 bits only
/// where every value they choose from was.
#[test]
fn comparisons_and_selections_are_followed_to_what_they_choose_from() {
    let text = "shader: MESA_SHADER_FRAGMENT\nname: GLSL3\n\
        decl_var shader_out INTERP_MODE_NONE mediump vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
        impl main {\n\
        \tvec1 32 ssa_0 = load_const (0x00000000 = 0.000000)\n\
        \tvec1 32 ssa_1 = intrinsic load_ubo (ssa_0, ssa_0) (access=0)\n\
        \tvec1 16 ssa_2 = f2f16 ssa_1\n\
        \tvec1 16 ssa_3 = fadd ssa_2, ssa_2\n\
        \tvec1 16 ssa_4 = fmul ssa_2, ssa_2\n\
        \tvec1 16 ssa_5 = load_const (0x3c00 = 1.000000)\n\
        \tvec1 32 ssa_6 = fge32 ssa_3, ssa_4\n\
        \tvec1 32 ssa_7 = b2f32 ssa_6\n\
        \tvec1 16 ssa_8 = b32csel ssa_6, ssa_3, ssa_4\n\
        \tvec1 16 ssa_9 = b32csel ssa_6, ssa_5, ssa_4\n\
        \tvec1 32 ssa_10 = f2f32 ssa_8\n\
        \tvec1 32 ssa_11 = f2f32 ssa_9\n\
        \tvec1 32 ssa_12 = deref_var &gl_FragColor (shader_out vec4)\n\
        \tvec4 32 ssa_13 = vec4 ssa_7, ssa_10, ssa_11, ssa_0\n\
        \tintrinsic store_deref (ssa_12, ssa_13) (wrmask=xyzw /*15*/, access=0)\n\
        }\n";
    let colour = program(text).colour.unwrap();
    assert!(colour[0].computed_at_16, "a 16-bit comparison made a float");
    assert!(
        colour[1].computed_at_16,
        "a choice between two 16-bit results"
    );
    assert!(
        !colour[2].computed_at_16,
        "a choice with a constant among its values"
    );
    assert!(!colour[3].computed_at_16);
}
