//! Semantic checks that reject invalid GLSL ES: each test names the rule, shows a shader
//! that breaks it (rejected with a located diagnostic) and a close valid one (accepted).

use halfcheck_compiler::{compile, CompileOptions, Stage};

fn check(source: &str, stage: Stage) -> Result<(), String> {
    compile(source, stage, "t.glsl", &CompileOptions::default())
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The diagnostic for `source`, which must be rejected at `line:col` with `needle`.
fn rejected(source: &str, stage: Stage, at: &str, needle: &str) {
    let e = check(source, stage).expect_err("expected a diagnostic");
    assert!(e.contains(&format!("t.glsl:{at}:")), "wrong place: {e}");
    assert!(e.contains(needle), "wrong message: {e}");
}

fn accepted(source: &str, stage: Stage) {
    if let Err(e) = check(source, stage) {
        panic!("rejected a valid shader: {e}");
    }
}

#[test]
fn precision_qualifier_cannot_apply_to_a_struct() {
    rejected(
        "#version 100\nlowp struct s {\n  lowp float a;\n};\nvoid main() {}\n",
        Stage::Vertex,
        "2:1",
        "precision qualifiers cannot apply to structs",
    );
    accepted(
        "#version 100\nstruct s {\n  lowp float a;\n};\nvoid main() {}\n",
        Stage::Vertex,
    );
}

#[test]
fn es100_allows_one_prototype_per_function() {
    rejected(
        "#version 100\nint f(int a);\nint f(int a);\nvoid main() {}\n",
        Stage::Vertex,
        "3:5",
        "at most one prototype of 'f'",
    );
    accepted(
        "#version 100\nint f(int a);\nint f(int a) { return a; }\nint f(float a);\nvoid main() {}\n",
        Stage::Vertex,
    );
    accepted(
        "#version 300 es\nint f(int a);\nint f(int a);\nint f(int a) { return a; }\nvoid main() {}\n",
        Stage::Vertex,
    );
}

#[test]
fn struct_and_function_names_share_the_global_name_space() {
    rejected(
        "#version 100\nint f(int a);\nstruct f { int x; };\nvoid main() {}\n",
        Stage::Vertex,
        "3:8",
        "already declared as a function",
    );
    rejected(
        "#version 100\nstruct f { int x; };\nint f(int a);\nvoid main() {}\n",
        Stage::Vertex,
        "3:5",
        "already declared as a struct",
    );
    accepted(
        "#version 100\nint f(int a) { return a; }\nvoid main() { struct f { int x; }; f s = f(1); }\n",
        Stage::Vertex,
    );
}

#[test]
fn embedded_struct_definitions_are_not_supported() {
    rejected(
        "#version 100\nstruct S {\n  struct T { int a; } t;\n  int b;\n};\nvoid main() {}\n",
        Stage::Vertex,
        "3:3",
        "embedded structure definitions are not supported",
    );
    accepted(
        "#version 100\nstruct T { int a; };\nstruct S {\n  T t;\n  int b;\n};\nvoid main() {}\n",
        Stage::Vertex,
    );
}

#[test]
fn es300_global_initializer_cannot_use_the_comma_operator() {
    rejected(
        "#version 300 es\nconst float cf = 2.0;\nfloat g = (cf, 3.0);\nvoid main() { gl_Position = vec4(g); }\n",
        Stage::Vertex,
        "3:11",
        "comma operator",
    );
    accepted(
        "#version 100\nconst float cf = 2.0;\nfloat g = (cf, 3.0);\nvoid main() { gl_Position = vec4(g); }\n",
        Stage::Vertex,
    );
}

#[test]
fn es300_invariant_all_pragma_not_in_fragment_shaders() {
    rejected(
        "#version 300 es\n#pragma STDGL invariant(all)\nvoid main() {}\n",
        Stage::Fragment,
        "2:1",
        "invariant(all)",
    );
    accepted(
        "#version 300 es\n#pragma STDGL invariant(all)\nvoid main() { gl_Position = vec4(0.0); }\n",
        Stage::Vertex,
    );
    accepted(
        "#version 100\n#pragma STDGL invariant(all)\nvoid main() {}\n",
        Stage::Fragment,
    );
}

#[test]
fn array_without_size_needs_an_initializer() {
    rejected(
        "#version 300 es\nvoid main() {\n  float a[];\n  gl_Position = vec4(0.);\n}\n",
        Stage::Vertex,
        "3:9",
        "expected an array size for 'a'",
    );
    accepted(
        "#version 300 es\nvoid main() {\n  float a[] = float[](1.0, 2.0);\n  gl_Position = vec4(a[1]);\n}\n",
        Stage::Vertex,
    );
}

#[test]
fn uniform_block_array_needs_a_size() {
    rejected(
        "#version 300 es\nuniform B { mat4 m; } cam[];\nvoid main() { gl_Position = cam[0].m[0]; }\n",
        Stage::Vertex,
        "2:23",
        "array size for uniform block array 'cam'",
    );
}

#[test]
fn uniform_block_array_index_must_be_constant_before_es320() {
    let shader = |version: &str| {
        format!(
            "#version {version}\nuniform B {{ mat4 m; }} cam[2];\nuniform int idx;\n\
             void main() {{ gl_Position = cam[idx].m[0] + cam[1].m[0]; }}\n"
        )
    };
    rejected(
        &shader("300 es"),
        Stage::Vertex,
        "4:33",
        "constant integral expression to index uniform block array 'cam'",
    );
    accepted(&shader("320 es"), Stage::Vertex);
    accepted(
        "#version 300 es\nstruct S { mat4 m; };\nuniform S s[2];\nuniform int idx;\n\
         void main() { gl_Position = s[idx].m[0]; }\n",
        Stage::Vertex,
    );
}

#[test]
fn only_the_last_buffer_block_member_may_be_unsized() {
    rejected(
        "#version 310 es\nlayout(local_size_x = 1) in;\nbuffer ssbo {\n  int c[];\n  vec4 d;\n};\nvoid main() {}\n",
        Stage::Compute,
        "4:7",
        "only the last member of a buffer block may be unsized",
    );
    accepted(
        "#version 310 es\nlayout(local_size_x = 1) in;\nbuffer ssbo {\n  vec4 d;\n  int c[];\n};\nvoid main() {}\n",
        Stage::Compute,
    );
}

#[test]
fn es300_cannot_overload_builtin_functions() {
    rejected(
        "#version 300 es\nint sqrt(int x) { return x; }\nvoid main() {}\n",
        Stage::Fragment,
        "2:5",
        "cannot redefine or overload built-in functions",
    );
    // `texture2D` is no built-in of GLSL ES 3.00; ES 1.00 is not checked.
    accepted(
        "#version 300 es\nprecision mediump float;\nuniform sampler2D s;\n\
         vec4 texture2D(sampler2D t, vec2 c) { return texture(t, c); }\nout vec4 o;\n\
         void main() { o = texture2D(s, vec2(0.0)); }\n",
        Stage::Fragment,
    );
}
