//! The precision corner cases of PRECISION_FACTS, one test per rule, under both models.

use halfcheck_compiler::{compile, ir, CompileOptions, Model, Stage};

fn dump(source: &str, model: Model, final_pipeline: bool) -> String {
    let options = CompileOptions {
        model,
        final_pipeline,
        ..CompileOptions::default()
    };
    let module =
        compile(source, Stage::Fragment, "rule.frag", &options).unwrap_or_else(|e| panic!("{e}"));
    ir::dump::to_sexpr(&module)
}

const MODELS: [Model; 2] = [Model::Spec, Model::Mesa];

#[test]
fn mixed_mediump_times_highp_is_highp() {
    let src = "uniform mediump float m;\nuniform highp float h;\n\
               void main() { gl_FragColor = vec4(m * h); }";
    for model in MODELS {
        let d = dump(src, model, false);
        assert!(
            d.contains("(expression float * (var_ref m) (var_ref h) )"),
            "{model:?}\n{d}"
        );
        assert!(!d.contains("float16_t"), "{model:?}\n{d}");
    }
}

#[test]
fn mediump_operand_times_literal_is_mediump_and_the_literal_rounds_to_binary16() {
    let src = "uniform mediump float diameter;\n\
               void main() { gl_FragColor = vec4(diameter * 3.141592); }";
    for model in MODELS {
        let d = dump(src, model, false);
        let want = "(expression float16_t * (expression float16_t f2fmp (var_ref diameter) ) \
                    (constant float16_t (3.140625)) )";
        assert!(d.contains(want), "{model:?}\n{d}");
    }
}

#[test]
fn precision_from_the_lvalue_lowers_by_the_spec_but_not_in_mesa() {
    let src = "precision highp float;\nuniform bool should_pi;\nvoid main() {\n\
               mediump float result = float(should_pi) * 3.141592;\n\
               gl_FragColor = vec4(result);\n}";
    let spec = dump(src, Model::Spec, false);
    assert!(
        spec.contains("(expression float16_t * (expression float16_t b2f16 (var_ref should_pi) ) (constant float16_t (3.140625)) )"),
        "{spec}"
    );
    let mesa = dump(src, Model::Mesa, false);
    assert!(
        mesa.contains("(expression float * (expression float b2f (var_ref should_pi) ) (constant float (3.141592)) )"),
        "{mesa}"
    );
}

#[test]
fn gl_frag_color_does_not_lend_its_precision_in_mesa() {
    let src = "precision highp float;\nuniform bool b;\n\
               void main() { gl_FragColor = vec4(float(b) * 0.5); }";
    assert!(dump(src, Model::Spec, false).contains("float16_t"));
    assert!(!dump(src, Model::Mesa, false).contains("float16_t"));
}

/// `float(bb) * 1000.3 - 1000.0`, lowered (the literal rounds to 1000.5) and not.
const NO_PRECISION_F16: &str = "(expression float16_t - (expression float16_t * \
    (expression float16_t b2f16 (var_ref bb) ) (constant float16_t (1000.500000)) ) \
    (constant float16_t (1000.000000)) )";
const NO_PRECISION_F32: &str = "(expression float - (expression float * \
    (expression float b2f (var_ref bb) ) (constant float (1000.299988)) ) \
    (constant float (1000.000000)) )";

#[test]
fn precision_from_the_consumer_recurses_through_a_constructor_to_the_lvalue() {
    // GLSL ES 3.00 section 4.5.2: the operands of `*` and `-` have no precision, nor do the
    // constructor's other arguments, so the rule recurses to the lvalue (mediump).
    let sources = [
        "precision mediump float;\nuniform bool bb;\n\
         void main() { gl_FragColor = vec4(float(bb) * 1000.3 - 1000.0, 0.0, 0.0, 1.0); }",
        "#version 300 es\nprecision mediump float;\nuniform bool bb;\nout mediump vec4 color;\n\
         void main() { color = vec4(float(bb) * 1000.3 - 1000.0, 0.0, 0.0, 1.0); }",
    ];
    for src in sources {
        let spec = dump(src, Model::Spec, false);
        assert!(spec.contains(NO_PRECISION_F16), "{spec}");
        let mesa = dump(src, Model::Mesa, false);
        assert!(mesa.contains(NO_PRECISION_F32), "{mesa}");
        assert!(!mesa.contains("float16_t"), "{mesa}");
    }
}

#[test]
fn precision_from_the_consumer_recurses_through_swizzles_indexing_and_nested_constructors() {
    let shapes = [
        "gl_FragColor = vec4(float(bb) * 1000.3 - 1000.0, 0.0, 0.0, 1.0).yxzw;",
        "gl_FragColor.x = vec2(float(bb) * 1000.3 - 1000.0, 0.0)[i];",
        "gl_FragColor = vec4(vec2(float(bb) * 1000.3 - 1000.0, 0.0), 0.0, 1.0);",
        // The constructor's other argument is mediump.
        "highp vec4 h = vec4(m, float(bb) * 1000.3 - 1000.0, 0.0, 1.0); gl_FragColor = h;",
        // The consumer of the constructor is a mediump operation.
        "gl_FragColor = m * vec4(float(bb) * 1000.3 - 1000.0, 0.0, 0.0, 1.0);",
        "mat2 x = mat2(float(bb) * 1000.3 - 1000.0); gl_FragColor = vec4(x[0], x[1]);",
    ];
    for body in shapes {
        let src = format!(
            "precision mediump float;\nuniform bool bb;\nuniform int i;\n\
             uniform mediump float m;\nvoid main() {{ {body} }}"
        );
        let spec = dump(&src, Model::Spec, false);
        assert!(spec.contains(NO_PRECISION_F16), "{body}\n{spec}");
        let mesa = dump(&src, Model::Mesa, false);
        assert!(mesa.contains(NO_PRECISION_F32), "{body}\n{mesa}");
    }
}

#[test]
fn a_highp_lvalue_keeps_operands_without_precision_highp() {
    let src = "precision mediump float;\nuniform bool bb;\nvoid main() {\n\
               highp float x = float(bb) * 1000.3 - 1000.0;\n\
               gl_FragColor = vec4(x, 0.0, 0.0, 1.0);\n}";
    let in_a_constructor = "precision mediump float;\nuniform bool bb;\nvoid main() {\n\
               highp vec4 x = vec4(float(bb) * 1000.3 - 1000.0, 0.0, 0.0, 1.0);\n\
               gl_FragColor = x;\n}";
    for src in [src, in_a_constructor] {
        for model in MODELS {
            let d = dump(src, model, false);
            assert!(d.contains(NO_PRECISION_F32), "{model:?}\n{d}");
            assert!(!d.contains("float16_t"), "{model:?}\n{d}");
        }
    }
}

#[test]
fn a_lone_operation_on_32_bit_sources_stays_32_bit_under_final() {
    let src = "precision mediump float;\nuniform float a, c;\nvoid main() {\n\
               gl_FragColor.x = fract(a);\ngl_FragColor.y = float(a > c);\n}";
    for model in MODELS {
        let lowered = dump(src, model, false);
        assert!(
            lowered.contains("(expression float16_t fract "),
            "{model:?}\n{lowered}"
        );
        let fin = dump(src, model, true);
        assert!(
            fin.contains("(expression float fract (var_ref a) )"),
            "{model:?}\n{fin}"
        );
        assert!(
            fin.contains("(expression bool < (var_ref c) (var_ref a) )"),
            "{model:?}\n{fin}"
        );
        assert!(!fin.contains("float16_t"), "{model:?}\n{fin}");
    }
}

#[test]
fn two_operations_or_a_literal_keep_the_tree_16_bit_under_final() {
    let src = "precision mediump float;\nuniform float a, b, big;\nvoid main() {\n\
               gl_FragColor = vec4(a - b, fract(a * big), a * 2.0, 1.0);\n}";
    for model in MODELS {
        let fin = dump(src, model, true);
        assert!(fin.contains("(expression float16_t - "), "{model:?}\n{fin}");
        assert!(
            fin.contains("(expression float16_t fract (expression float16_t * "),
            "{model:?}\n{fin}"
        );
        assert!(
            fin.contains("(constant float16_t (2.000000))"),
            "{model:?}\n{fin}"
        );
    }
}

#[test]
fn struct_members_keep_their_own_precision() {
    let src = "precision highp float;\nstruct S { mediump float m; highp float h; };\n\
               uniform S s;\nvoid main() { gl_FragColor = vec4(s.m * s.m, s.h * s.h, 0.0, 1.0); }";
    for model in MODELS {
        let d = dump(src, model, false);
        assert!(d.contains("(expression float16_t * "), "{model:?}\n{d}");
        assert!(
            d.contains("(expression float * (record_ref (var_ref s)  h) "),
            "{model:?}\n{d}"
        );
    }
}

#[test]
fn texture_results_take_the_sampler_precision() {
    let src = "precision highp float;\nuniform lowp sampler2D t;\nuniform highp vec2 c;\n\
               void main() { gl_FragColor = texture2D(t, c) * 0.5; }";
    for model in MODELS {
        let d = dump(src, model, false);
        assert!(
            d.contains("(tex f16vec4 (var_ref t)  (var_ref c)"),
            "{model:?}\n{d}"
        );
    }
}

#[test]
fn fragment_shaders_have_no_default_float_precision() {
    let err = compile(
        "uniform float a;\nvoid main() {}",
        Stage::Fragment,
        "t.frag",
        &CompileOptions::default(),
    )
    .expect_err("a float without precision in a fragment shader");
    assert!(
        err.to_string().contains("no default precision for float"),
        "{err}"
    );
    compile(
        "uniform float a;\nvoid main() { gl_Position = vec4(a); }",
        Stage::Vertex,
        "t.vert",
        &CompileOptions::default(),
    )
    .unwrap_or_else(|e| panic!("vertex shaders default to highp: {e}"));
}

#[test]
fn default_precision_statements_are_scoped() {
    let src = "precision highp float;\nuniform float u;\nvoid main() {\n\
               float hi = u * u;\n{ precision mediump float; float lo = u; gl_FragColor = vec4(lo * lo); }\n\
               gl_FragColor.x += hi; }";
    let d = dump(src, Model::Mesa, false);
    assert!(d.contains("(declare (highp ) float hi)"), "{d}");
    assert!(d.contains("(declare (mediump ) float16_t lo)"), "{d}");
}

#[test]
fn a_selection_takes_the_precision_of_its_values_not_of_its_bool_condition() {
    let src = "precision highp float;\nuniform mediump float m;\nuniform highp float h;\n\
               void main() { mediump float a = m * 2.0; \
               gl_FragColor = vec4(a * (h > 0.5 ? a : 1.3)); }";
    // The spec: `h > 0.5` is a bool with no precision, so the selection is mediump (and the
    // comparison, a tree of its own, stays highp).
    let spec = dump(src, Model::Spec, false);
    assert!(
        spec.contains(
            "(expression float16_t csel (expression bool < (constant float (0.500000)) (var_ref h) )"
        ),
        "{spec}"
    );
    // Mesa keeps a selection on a 32-bit condition at 32 bits (measured on llvmpipe).
    let mesa = dump(src, Model::Mesa, false);
    assert!(mesa.contains("(expression float csel"), "{mesa}");
}
