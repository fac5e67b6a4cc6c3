//! No input may panic the compiler: random bytes, and real shaders with random edits, through
//! the front end and through the whole pipeline (sema, lowering under both models, the final
//! pipeline, both dumps).

use halfcheck_compiler::{compile, ir, parse_shader, CompileOptions, Model, Stage};
use proptest::prelude::*;

const SHADER: &str = r#"#version 300 es
#define SCALE(x) ((x) * 2.0)
#if defined(GL_ES) && __VERSION__ >= 300
precision mediump float;
#endif
uniform mediump float a, b;
struct S { lowp vec2 p[2]; highp float q; };
layout(location = 0) out vec4 color;
float f(in float x, out int k) { k = int(x) << 1u; return x > 0.5 ? x : -x; }
void main() {
    S s = S(vec2[2](vec2(1.0), vec2(0.0)), 3.141592);
    int k;
    for (int i = 0; i < 4; ++i) { if (i == 2) continue; s.q += SCALE(f(a / b, k)); }
    switch (k) { case 0: break; default: discard; }
    color = vec4(fract(s.q * 1024.0), s.p[0].x, float(k), s.p.length());
}
"#;

/// Runs the whole pipeline every way it can run.
fn compile_all_ways(text: &str, stage: Stage) {
    for model in [Model::Spec, Model::Mesa] {
        for final_pipeline in [false, true] {
            let options = CompileOptions {
                model,
                final_pipeline,
                ..CompileOptions::default()
            };
            if let Ok(module) = compile(text, stage, "fuzz", &options) {
                let _ = ir::dump::to_sexpr(&module);
                let _ = ir::dump::to_json(&module);
            }
        }
    }
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_shader(&text, Stage::Fragment, "fuzz");
        compile_all_ways(&text, Stage::Fragment);
    }

    #[test]
    fn random_glsl_tokens_never_panic(
        words in proptest::collection::vec(
            prop::sample::select(vec![
                "#", "define", "if", "(", ")", "[", "]", "{", "}", ";", ",", "float", "x", "1.0",
                "0x", "1u", "=", "+", "?", ":", ".", "length", "struct", "uniform", "\n",
                "#version 300 es\n", "#if", "#endif", "#define F(a) a a\n", "F", "defined",
                "precision", "mediump", "layout", "for", "switch", "case", "/*", "*/", "//",
                "\\\n", "__LINE__", "#line 0 4\n",
            ]),
            0..200,
        )
    ) {
        let text = words.join(" ");
        let _ = parse_shader(&text, Stage::Vertex, "fuzz");
        compile_all_ways(&text, Stage::Vertex);
    }

    #[test]
    fn mutated_real_shader_never_panics(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0usize..4, any::<u8>()), 1..8)
    ) {
        let mut bytes = SHADER.as_bytes().to_vec();
        for (at, action, byte) in edits {
            if bytes.is_empty() {
                break;
            }
            let i = at.index(bytes.len());
            match action {
                0 => { bytes.remove(i); }
                1 => bytes.insert(i, byte),
                2 => bytes[i] = byte,
                _ => { bytes.truncate(i); }
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_shader(&text, Stage::Fragment, "fuzz");
        compile_all_ways(&text, Stage::Fragment);
    }
}

#[test]
fn the_fuzzing_seed_shader_parses() {
    parse_shader(SHADER, Stage::Fragment, "seed").unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn the_fuzzing_seed_shader_compiles() {
    compile(SHADER, Stage::Fragment, "seed", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
}
