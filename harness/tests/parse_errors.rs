//! Malformed `.shader_test` inputs each give one clear error naming file, line and column.

use halfcheck_piglit::shader_test::{parse_file, parse_str, ParseError};
use std::path::Path;

fn error_for(text: &str) -> ParseError {
    match parse_str(Path::new("case.shader_test"), text) {
        Ok(test) => panic!("expected an error, parsed {test:?}"),
        Err(e) => e,
    }
}

const GOOD_HEAD: &str = "[require]\nGL ES >= 2.0\n\n[vertex shader passthrough]\n\n[fragment shader]\nvoid main() {}\n\n[test]\n";

#[test]
fn empty_file_says_require_is_missing() {
    let e = error_for("");
    assert_eq!((e.line, e.column), (1, 1));
    assert!(e.message.contains("no [require] section"), "{e}");
}

#[test]
fn truncated_section_header_points_past_its_end() {
    let e = error_for("[require]\nGL ES >= 2.0\n[fragment shad");
    assert_eq!((e.line, e.column), (3, 15));
    assert!(e.message.contains("expected ']'"), "{e}");
}

#[test]
fn unknown_section_is_named() {
    let e = error_for("[require]\n[fragment shaders]\n");
    assert_eq!(e.line, 2);
    assert!(
        e.message.contains("unknown section [fragment shaders]"),
        "{e}"
    );
}

#[test]
fn bad_number_points_at_the_number() {
    let e = error_for(&format!("{GOOD_HEAD}uniform float a 1.0x\n"));
    assert_eq!((e.line, e.column), (10, 17));
    assert!(e.message.contains("expected a number, found '1.0x'"), "{e}");
}

#[test]
fn unknown_command_is_an_error_not_unsupported() {
    let e = error_for(&format!(
        "{GOOD_HEAD}draw rect -1 -1 2 2\nfrobnicate the pixels\n"
    ));
    assert_eq!((e.line, e.column), (11, 1));
    assert!(
        e.message
            .contains("unknown command 'frobnicate the pixels'"),
        "{e}"
    );
}

#[test]
fn probe_with_too_few_values_says_what_it_wanted() {
    let e = error_for(&format!("{GOOD_HEAD}probe rgba 1 2 0.5\n"));
    assert_eq!(e.line, 10);
    assert!(
        e.message
            .contains("expected X Y then 4 expected colour values, found 3"),
        "{e}"
    );
}

#[test]
fn bad_require_version_is_an_error() {
    let e = error_for("[require]\nGLSL ES >= three\n");
    assert_eq!((e.line, e.column), (2, 12));
    assert!(e.message.contains("expected a version"), "{e}");
}

#[test]
fn short_vertex_data_row_is_an_error() {
    let e = error_for("[require]\nGL ES >= 2.0\n[vertex data]\nvertex/float/vec2\n1.0\n");
    assert_eq!(e.line, 5);
    assert!(e.message.contains("expected 2 values per row"), "{e}");
}

#[test]
fn binary_junk_is_reported_as_not_text() {
    let dir = std::env::temp_dir().join(format!("halfcheck-junk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("junk.shader_test");
    std::fs::write(&path, b"[require]\nGL ES >= 2.0\n\x00\xff\xfe\x80junk").unwrap();
    let e = parse_file(&path).unwrap_err();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!((e.line, e.column), (3, 2));
    assert!(e.message.contains("expected UTF-8 text"), "{e}");
}

#[test]
fn error_display_shows_the_line_and_a_caret() {
    let e = error_for(&format!("{GOOD_HEAD}uniform float a 1.0x\n"));
    let shown = e.to_string();
    assert_eq!(
        shown,
        "case.shader_test:10:17: error: expected a number, found '1.0x'\n  \
         | uniform float a 1.0x\n  |                 ^"
    );
}

/// Issue 11: an error shows the bad line escaped and cut short, never raw bytes.
#[test]
fn error_display_escapes_invalid_bytes_and_control_characters() {
    let dir = std::env::temp_dir().join(format!("halfcheck-escape-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("junk.shader_test");
    std::fs::write(&path, b"[require]\nGL ES >= 2.0\n\x1b[2J\xff\xfe\x80junk\n").unwrap();
    let shown = parse_file(&path).unwrap_err().to_string();
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        shown.ends_with("  | \\u{1b}[2J\\xff\\xfe\\x80junk\n  |          ^"),
        "{shown}"
    );
    assert!(
        !shown.chars().any(|c| c == '\u{1b}' || c == '\u{fffd}'),
        "{shown:?}"
    );
}

#[test]
fn error_display_cuts_a_long_line_around_the_column() {
    let long = format!(
        "[require]\nGL ES >= 2.0\n[fragment shader {}",
        "x".repeat(3000)
    );
    let shown = error_for(&long).to_string();
    let excerpt = shown.lines().nth(1).expect("the line");
    assert!(excerpt.chars().count() < 120, "{excerpt}");
    assert!(
        excerpt.starts_with("  | ...xxx") && excerpt.ends_with("xxx"),
        "{excerpt}"
    );
    let caret = shown.lines().nth(2).expect("the caret").len() - 1;
    assert_eq!(caret, excerpt.len(), "the caret sits past the end: {shown}");
}

/// Issue 26: a NaN tolerance reached the worker, which wrote it as JSON `null`, and every
/// such test "crashed"; a NaN expected value made the probe pass against any colour.
#[test]
fn non_finite_tolerance_and_probe_values_are_refused_where_written() {
    for (line, column) in [
        ("tolerance nan nan nan nan", 11),
        ("tolerance 0.01 inf", 16),
        ("probe all rgba nan 0 0 1", 16),
        ("probe rgba 1 1 0.5 -inf 0 1", 20),
        ("probe all rgb 0x7fc00000 0 0", 15),
        ("probe all rgba 1e39 0 0 1", 16),
    ] {
        let e = error_for(&format!("{GOOD_HEAD}draw rect -1 -1 2 2\n{line}\n"));
        assert_eq!((e.line, e.column), (11, column), "{line}: {e}");
        assert!(
            e.message
                .contains("expected a finite number (not NaN or infinity)"),
            "{line}: {e}"
        );
    }
}
