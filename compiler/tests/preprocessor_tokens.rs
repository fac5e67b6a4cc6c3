//! The preprocessor hands the parser the tokens of its output, classified as it writes them,
//! instead of having them scanned again; those tokens must be exactly what the lexer finds in
//! that text, whatever mix of macros, comments, line continuations and whitespace produced it
//! (and the first invalid token the same error).

use halfcheck_compiler::front::token::tokenize;
use halfcheck_compiler::{preprocess, Stage};
use proptest::prelude::*;

/// Checks the recorded tokens of `source`'s preprocessed text against lexing that text.
fn recorded_tokens_match_a_scan(source: &str) {
    let Ok(pre) = preprocess(source, Stage::Fragment, "t.frag") else {
        return;
    };
    let lexed = tokenize(&pre.text, pre.version);
    assert_eq!(pre.tokens, lexed, "text:\n{}", pre.text);
}

#[test]
fn tokens_through_macros_comments_and_continuations_match_a_scan() {
    recorded_tokens_match_a_scan(
        "#version 300 es\n#define TWICE(x) ((x)+(x))\n#define ONE 1.0\nprecision mediump float;\n\
         out vec4 c; // comment\nvoid main() {\n\tfloat a = TWICE(ONE)/* c */*2.0;\n  float b = \
         TWICE(\n a);\n  c = vec4(a, b, __LINE__, a+++b); \\\n c.x += 1e-3;\n}\n",
    );
}

#[test]
fn text_without_tokens_preprocesses_to_no_tokens() {
    for source in ["", "//", "/* */", "  \n\t\n", "\\\n"] {
        recorded_tokens_match_a_scan(source);
    }
}

proptest! {
    #[test]
    fn tokens_of_random_token_soup_match_a_scan(
        words in proptest::collection::vec(
            prop::sample::select(vec![
                "#define F(a) a+a\n", "#define G 2.5e+1\n", "#define H F\n", "F", "G", "H", "(",
                ")", ",", "x", "y1", "1.0", "0x1E", "1e", "+", "++", "-", "=", ".", ";", "{", "}",
                "\n", "\t", " ", "   ", "\r\n", "/*", "*/", "// c\n", "\\\n", "__LINE__",
                "#if 1\n", "#else\n", "#endif\n", "#line 7\n", "é", "$",
            ]),
            0..120,
        )
    ) {
        recorded_tokens_match_a_scan(&words.concat());
    }
}
