//! Front-end behaviour pinned down through the public API and the S-expression printer.

use halfcheck_compiler::ast::printer::{expr_to_string, items_to_string, statement_to_string};
use halfcheck_compiler::ast::{
    DeclarationKind, ExprKind, ExternalDeclaration, Precision, StatementKind, TypeName,
};
use halfcheck_compiler::{parse_shader, preprocess, Stage, TranslationUnit, Version};

fn parse(source: &str) -> TranslationUnit {
    parse_shader(source, Stage::Fragment, "t.frag").unwrap_or_else(|e| panic!("{e}"))
}

fn error(source: &str) -> String {
    match parse_shader(source, Stage::Fragment, "t.frag") {
        Ok(_) => panic!("expected an error for:\n{source}"),
        Err(e) => e.to_string(),
    }
}

fn printed(source: &str) -> String {
    items_to_string(&parse(source).items)
}

/// The expression of `float x = <expr>;` inside `main`.
fn expr(text: &str) -> String {
    let unit = parse(&format!("void main() {{ {text}; }}"));
    let Some(ExternalDeclaration::Function(f)) = unit.items.first() else {
        panic!("no function");
    };
    let stmt = f.body.statements.first().expect("one statement");
    statement_to_string(stmt)
}

#[test]
fn missing_version_means_es100_and_version_directive_is_read() {
    assert_eq!(parse("void main(){}").version, Version::Es100);
    assert_eq!(
        parse("#version 300 es\nvoid main(){}").version,
        Version::Es300
    );
    assert_eq!(
        parse("#version 310 es\nvoid main(){}").version,
        Version::Es310
    );
}

#[test]
fn desktop_or_profileless_versions_are_rejected() {
    assert!(error("#version 130\nvoid main(){}").contains("unsupported GLSL ES version"));
    assert!(error("#version 300\nvoid main(){}").contains("'300'"));
}

#[test]
fn float_literal_keeps_its_text() {
    let unit = parse("#version 300 es\nconst float pi = 3.140625; const float e = 2.5e-3f;");
    let texts: Vec<(String, f64)> = unit
        .items
        .iter()
        .filter_map(|item| match item {
            ExternalDeclaration::Declaration(d) => match &d.kind {
                DeclarationKind::Variables { declarators, .. } => {
                    declarators[0].initializer.clone()
                }
                _ => None,
            },
            _ => None,
        })
        .filter_map(|e| match e.kind {
            ExprKind::Float(f) => Some((f.text.to_string(), f.value)),
            _ => None,
        })
        .collect();
    assert_eq!(
        texts,
        vec![
            ("3.140625".to_owned(), 3.140625),
            ("2.5e-3f".to_owned(), 2.5e-3)
        ]
    );
}

#[test]
fn precedence_and_associativity_follow_glsl() {
    assert_eq!(
        expr("a = b = c + d * e - f"),
        "(= a (= b (- (+ c (* d e)) f)))"
    );
    assert_eq!(
        expr("x = a || b ^^ c && d | e ^ f & g == h < i << j"),
        "(= x (|| a (^^ b (&& c (| d (^ e (& f (== g (< h (<< i j))))))))))"
    );
    assert_eq!(expr("x = c ? a : b ? d : e"), "(= x (? c a (? b d e)))");
    assert_eq!(expr("a += -b++ * ~c"), "(+= a (* (neg (post++ b)) (~ c)))");
    assert_eq!(expr("a, b = 1"), "(, a (= b 1))");
}

#[test]
fn postfix_chains_index_fields_and_length() {
    assert_eq!(
        expr("x = s.a[2].xyz.length()"),
        "(= x (length (. ([] (. s a) 2) xyz)))"
    );
}

#[test]
fn constructors_include_array_and_struct_forms() {
    assert_eq!(
        expr("x = float[3](1.0, 2.0, 3.0)"),
        "(= x (float[3] 1.0 2.0 3.0))"
    );
    assert_eq!(
        expr("x = S[](S(1), S(2))"),
        "(= x (S[] (call S 1) (call S 2)))"
    );
    assert_eq!(expr("x = vec4(f(void))"), "(= x (vec4 (call f)))");
}

#[test]
fn precision_statement_in_nested_scope_is_kept() {
    let out =
        printed("precision mediump float;\nvoid main() { { precision highp float; float x; } }");
    assert_eq!(
        out,
        "(precision mediump float)\n(fn void main () {{(precision highp float) (var float x)}})\n"
    );
}

#[test]
fn qualifiers_are_kept_in_order_with_layout_values() {
    let out = printed("#version 310 es\nlayout(location = 1 + 1, std140) flat in highp ivec2 v;");
    assert_eq!(
        out,
        "(var layout(location=(+ 1 1),std140) flat in highp ivec2 v)\n"
    );
}

#[test]
fn struct_members_keep_their_own_precision() {
    let unit = parse("struct S { lowp float a; highp vec2 b[2], c; S2 d; } s;");
    let Some(ExternalDeclaration::Declaration(d)) = unit.items.first() else {
        panic!("declaration");
    };
    let DeclarationKind::Variables { ty, .. } = &d.kind else {
        panic!("variables");
    };
    let TypeName::Struct(s) = &ty.ty.name else {
        panic!("struct");
    };
    let precisions: Vec<Option<Precision>> =
        s.members.iter().map(|m| m.qualifiers.precision()).collect();
    assert_eq!(
        precisions,
        vec![Some(Precision::Low), Some(Precision::High), None]
    );
}

#[test]
fn interface_blocks_with_instances_and_arrays() {
    let out = printed(
        "#version 310 es\nlayout(std140) uniform B { mediump vec4 c; } b[2];\nbuffer D { float x[]; };",
    );
    assert_eq!(
        out,
        "(interface layout(std140) uniform B (mediump vec4 c) as b[2])\n(interface buffer D (float x[]))\n"
    );
}

#[test]
fn arrays_of_arrays_and_unsized_arrays_with_initialisers() {
    let out =
        printed("#version 310 es\nfloat a[2][3]; float[2] b[3]; const int c[] = int[](1, 2);");
    assert_eq!(
        out,
        "(var float a[2][3])\n(var float[2] b[3])\n(var const int (c[] (int[] 1 2)))\n"
    );
}

#[test]
fn every_statement_kind_parses() {
    let unit = parse(
        "#version 300 es\nvoid main() {\n for (int i = 0; i < 4; ++i) { if (i == 1) continue; else break; }\n \
         while (bool b = f()) {}\n do { discard; } while (false);\n \
         switch (k) { case 1: case 2: x = 1; break; default: return; }\n ;\n}",
    );
    let Some(ExternalDeclaration::Function(f)) = unit.items.first() else {
        panic!("function");
    };
    let kinds: Vec<String> = f.body.statements.iter().map(statement_to_string).collect();
    assert_eq!(
        kinds,
        vec![
            "(for (var int (i 0)) (< i 4) (pre++ i) {(if (== i 1) (continue) (break))})",
            "(while (var bool (b (call f))) {})",
            "(do {(discard)} false)",
            "(switch k {(case 1) (case 2) (= x 1) (break) (default) (return)})",
            ";",
        ]
    );
}

#[test]
fn prototypes_parameters_and_invariant_redeclarations() {
    let out = printed(
        "float f(const in mediump float a, out vec2 b[2], sampler2D);\nvoid g(void);\ninvariant gl_Position;",
    );
    assert_eq!(
        out,
        "(proto float f (const in mediump float a, out vec2 b[2], sampler2D))\n(proto void g ())\n(qualify invariant gl_Position)\n"
    );
}

#[test]
fn error_points_at_line_and_column_with_caret() {
    let message = error("uniform float a\nfloat b;");
    assert_eq!(
        message,
        "t.frag:2:1: error: expected ';' after declaration, found 'float'\nfloat b;\n^"
    );
}

#[test]
fn line_directive_renumbers_errors() {
    let message = error("#line 100\nvoid main() { x = ; }");
    assert!(
        message.starts_with("t.frag:100:19: error: expected an expression, found ';'"),
        "{message}"
    );
}

#[test]
fn error_after_macro_expansion_points_at_the_invocation() {
    let message = error("#define BAD 1 ]\nvoid main() { float x = BAD; }");
    assert!(
        message.starts_with("t.frag:2:25: error: expected ';' after declaration, found ']'"),
        "{message}"
    );
}

#[test]
fn object_like_macros_expand_and_undef_stops_them() {
    let out = printed("#define N 4\nfloat a[N];\n#undef N\nfloat b[N];");
    assert_eq!(out, "(var float a[4])\n(var float b[N])\n");
}

#[test]
fn function_like_macro_expands_arguments() {
    let out = printed(
        "#define SQ(x) ((x) * (x))\n#define TWO 2.0\nfloat a = SQ(TWO + SQ(1.0));\n#define F (1)\nfloat b = F;",
    );
    assert_eq!(
        out,
        "(var float (a (* (+ 2.0 (* 1.0 1.0)) (+ 2.0 (* 1.0 1.0)))))\n(var float (b 1))\n"
    );
}

#[test]
fn function_like_macro_arguments_may_span_lines() {
    let out = printed("#define ADD(a, b) a + b\nfloat x = ADD(1.0,\n  2.0);");
    assert_eq!(out, "(var float (x (+ 1.0 2.0)))\n");
}

#[test]
fn self_referential_macros_do_not_recurse_forever() {
    let out = printed("#define X X + 1\n#define A B\n#define B A\nint y = X; int z = A;");
    assert_eq!(out, "(var int (y (+ X 1)))\n(var int (z A))\n");
}

#[test]
fn conditionals_with_defined_and_integer_expressions() {
    let source = "#define V 3\n#if defined(V) && V * 2 == 6 && !defined W && (1 << 3) == 8\nint a;\n\
                  #elif 1\nint b;\n#else\nint c;\n#endif\n#ifdef W\nint d;\n#elif V > 2\nint e;\n#endif\n\
                  #ifndef GL_ES\nint f;\n#endif\n#if 0\n#garbage directive\n#endif";
    assert_eq!(printed(source), "(var int a)\n(var int e)\n");
}

#[test]
fn undefined_macro_in_if_is_an_error_only_when_evaluated() {
    assert_eq!(
        printed("#if 0 && FOO\nint a;\n#endif\nint b;"),
        "(var int b)\n"
    );
    assert!(error("#if FOO\n#endif").contains("undefined macro 'FOO'"));
}

#[test]
fn predefined_macros_have_their_values() {
    let out = printed(
        "#version 300 es\nint v = __VERSION__; int e = GL_ES;\nint l = __LINE__; int f = __FILE__;",
    );
    assert_eq!(
        out,
        "(var int (v 300))\n(var int (e 1))\n(var int (l 3))\n(var int (f 0))\n"
    );
}

#[test]
fn extension_macros_depend_on_version() {
    let es100 = preprocess(
        "#ifdef GL_OES_standard_derivatives\nint a;\n#endif",
        Stage::Fragment,
        "t",
    )
    .expect("preprocesses");
    assert!(es100.text.contains("int a"));
    let es300 = preprocess(
        "#version 300 es\n#ifdef GL_OES_standard_derivatives\nint a;\n#endif",
        Stage::Fragment,
        "t",
    )
    .expect("preprocesses");
    assert!(!es300.text.contains("int a"));
}

#[test]
fn extension_and_pragma_directives_are_recorded() {
    let unit = parse(
        "#extension GL_OES_standard_derivatives : enable\n#pragma optimize(off)\nvoid main(){}",
    );
    assert_eq!(unit.extensions[0].name, "GL_OES_standard_derivatives");
    assert_eq!(unit.pragmas[0].text, "optimize ( off )");
}

#[test]
fn error_directive_is_an_error() {
    let message = error("#if 1\n#error this is bad\n#endif");
    assert!(
        message.starts_with("t.frag:2:1: error: #error this is bad"),
        "{message}"
    );
}

#[test]
fn version_after_other_content_is_an_error() {
    assert!(error("int a;\n#version 300 es").contains("must come before"));
}

#[test]
fn defining_gl_prefixed_macros_is_an_error() {
    assert!(error("#define GL_FOO 1").contains("reserved"));
    assert!(error("#undef GL_ES").contains("predefined"));
}

#[test]
fn unbalanced_conditionals_are_errors() {
    assert!(error("#if 1\nint a;").contains("unterminated '#if'"));
    assert!(error("#endif").contains("without '#if'"));
    assert!(error("#if 1\n#else\n#else\n#endif").contains("after '#else'"));
}

#[test]
fn deeply_nested_parentheses_give_an_error_not_a_stack_overflow() {
    let depth = 100_000;
    let source = format!("float x = {}1.0{};", "(".repeat(depth), ")".repeat(depth));
    assert!(error(&source).contains("nesting deeper"));
    let chain = format!("float x = 1.0{};", " + 1.0".repeat(depth));
    assert!(error(&chain).contains("expression nesting deeper"));
    let fields = format!("float x = a{};", ".x".repeat(depth));
    assert!(error(&fields).contains("expression nesting deeper"));
    let unary = format!("float x = {}1.0;", "-".repeat(depth));
    assert!(error(&unary).contains("nesting deeper"));
    let blocks = format!("void main() {}{}", "{".repeat(depth), "}".repeat(depth));
    assert!(error(&blocks).contains("nesting deeper"));
}

#[test]
fn nesting_just_under_the_limits_parses() {
    let depth = 60;
    parse(&format!(
        "float x = {}1.0{};",
        "(".repeat(depth),
        ")".repeat(depth)
    ));
    parse(&format!("float x = 1.0{};", " + 1.0".repeat(1000)));
    parse(&format!(
        "void main() {}{}",
        "{".repeat(depth),
        "}".repeat(depth)
    ));
}

#[test]
fn exponential_macro_expansion_is_refused() {
    let mut source = String::from("#define A0 x\n");
    for i in 1..40 {
        source.push_str(&format!("#define A{i} A{p} A{p}\n", p = i - 1));
    }
    source.push_str("int y = A39;");
    assert!(error(&source).contains("too large"));
}

#[test]
fn spans_cover_the_expression_text() {
    let unit = parse("float x = a + b * c;");
    let Some(ExternalDeclaration::Declaration(d)) = unit.items.first() else {
        panic!("declaration");
    };
    let DeclarationKind::Variables { declarators, .. } = &d.kind else {
        panic!("variables");
    };
    let init = declarators[0].initializer.as_ref().expect("initializer");
    assert_eq!(&unit.source[init.span.range()], "a + b * c");
    assert_eq!(expr_to_string(init), "(+ a (* b c))");
    let location = unit.source_map.locate(init.span.start);
    assert_eq!((location.line, location.column), (1, 11));
}

#[test]
fn local_function_definition_is_rejected() {
    assert!(error("void main() { void f() {} }").contains("global scope"));
}

#[test]
fn statements_parse_into_the_right_kind() {
    let unit = parse("void main() { vec4 v; v = vec4(1.0); S s; a[0] = 1; S[2] t; }");
    let Some(ExternalDeclaration::Function(f)) = unit.items.first() else {
        panic!("function");
    };
    let decl: Vec<bool> = f
        .body
        .statements
        .iter()
        .map(|s| matches!(s.kind, StatementKind::Declaration(_)))
        .collect();
    assert_eq!(decl, vec![true, false, true, false, true]);
}
