//! Issue 11: a test that asks for more than halfcheck's budget (or the device's) is a skip
//! with the reason in every command, never an abort: `SIZE 100000 100000` made the emulator
//! worker abort on a 320 GB allocation and killed `halfcheck lint` outright.

mod common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `cases/arithmetic/div_scalar.shader_test` with `SIZE width height` in its `[require]`.
fn sized_case(dir: &Path, width: u32, height: u32) -> PathBuf {
    let original = std::fs::read_to_string(cases().join("arithmetic/div_scalar.shader_test"))
        .expect("the case");
    let sized = original.replacen(
        "[require]\n",
        &format!("[require]\nSIZE {width} {height}\n"),
        1,
    );
    let path = dir.join(format!("size_{width}x{height}.shader_test"));
    std::fs::write(&path, sized).expect("write");
    path
}

/// The same case with a local array far too large to hold.
fn huge_array_case(dir: &Path) -> PathBuf {
    let original = std::fs::read_to_string(cases().join("arithmetic/div_scalar.shader_test"))
        .expect("the case");
    let huge = original.replacen(
        "\tfloat q = a / b;",
        "\tfloat big[2000000000];\n\tbig[0] = a / b;\n\tfloat q = big[0];",
        1,
    );
    assert_ne!(huge, original);
    let path = dir.join("huge_array.shader_test");
    std::fs::write(&path, huge).expect("write");
    path
}

fn results(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("results.json")).expect("results.json");
    serde_json::from_str(&text).expect("JSON")
}

#[test]
fn a_window_or_array_over_the_budget_is_a_skip_with_the_reason_on_the_emulator() {
    let dir = temp_dir("limits-emu");
    let suite = dir.join("suite");
    std::fs::create_dir_all(&suite).expect("suite dir");
    sized_case(&suite, 100_000, 100_000);
    sized_case(&suite, 4096, 4096);
    huge_array_case(&suite);
    let output = halfcheck()
        .args(["run", "--backend", "emu", "--results"])
        .arg(dir.join("out"))
        .arg(&suite)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", text(&output));
    let tests = results(&dir.join("out"))["tests"].clone();
    let reason = |name: &str| {
        assert_eq!(tests[name]["status"], "skip", "{name}: {}", tests[name]);
        tests[name]["reason"]
            .as_str()
            .expect("a reason")
            .to_string()
    };
    let huge_window = reason("suite/size_100000x100000.shader_test");
    assert!(
        huge_window.starts_with("line 8: SIZE asks for a 100000x100000 window"),
        "{huge_window}"
    );
    assert!(
        huge_window.contains("at most 16384 pixels"),
        "{huge_window}"
    );
    let many_pixels = reason("suite/size_4096x4096.shader_test");
    assert!(many_pixels.contains("16777216 pixels"), "{many_pixels}");
    let array = reason("suite/huge_array.shader_test");
    assert!(array.contains("'big' 2000000000"), "{array}");
}

#[test]
fn lint_compile_and_parse_say_why_instead_of_aborting() {
    let dir = temp_dir("limits-commands");
    let big = sized_case(&dir, 100_000, 100_000);
    let array = huge_array_case(&dir);

    let lint = halfcheck()
        .arg("lint")
        .arg(&dir)
        .output()
        .expect("lint runs");
    let out = text(&lint);
    assert!(lint.status.success(), "{out}");
    assert!(
        out.contains("size_100000x100000.shader_test: skipped: the emulator ran no probe: line 8: SIZE asks for a 100000x100000 window"),
        "{out}"
    );
    assert!(out.contains("huge_array.shader_test: skipped:"), "{out}");
    assert!(
        out.contains("0 tests checked, 2 skipped, 0 findings"),
        "{out}"
    );

    // compile needs no window: it compiles, and warns that runs will skip the test.
    let compile = halfcheck()
        .arg("compile")
        .arg(&big)
        .arg("--dump-ir")
        .output()
        .expect("compile runs");
    assert!(compile.status.success(), "{}", text(&compile));
    assert!(String::from_utf8_lossy(&compile.stdout).contains("function main"));
    let warning = String::from_utf8_lossy(&compile.stderr);
    assert!(
        warning.contains("halfcheck: warning:")
            && warning.contains("line 8: SIZE asks for a 100000x100000 window")
            && warning.contains("`run` and `lint` skip this test"),
        "{warning}"
    );
    let compile_array = halfcheck()
        .arg("compile")
        .arg(&array)
        .arg("--dump-ir")
        .output()
        .expect("compile runs");
    assert!(compile_array.status.success(), "{}", text(&compile_array));

    let parse = halfcheck()
        .arg("parse")
        .arg(&dir)
        .output()
        .expect("parse runs");
    assert!(parse.status.success(), "{}", text(&parse));
    assert!(
        text(&parse).contains("SIZE asks for a 100000x100000 window"),
        "{}",
        text(&parse)
    );
}

#[test]
fn the_gl_backend_skips_what_the_device_or_the_budget_cannot_hold() {
    if !have_gl() {
        return;
    }
    let dir = temp_dir("limits-gl");
    let suite = dir.join("suite");
    std::fs::create_dir_all(&suite).expect("suite dir");
    sized_case(&suite, 100_000, 100_000);
    sized_case(&suite, 4096, 4096);
    let output = halfcheck()
        .args(["run", "--backend", "gl", "--timeout", "60", "--results"])
        .arg(dir.join("out"))
        .arg(&suite)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", text(&output));
    let tests = results(&dir.join("out"))["tests"].clone();
    let device = &tests["suite/size_100000x100000.shader_test"];
    assert_eq!(device["status"], "skip", "{device}");
    assert!(
        device["reason"]
            .as_str()
            .is_some_and(|r| r.contains("larger than the context's")),
        "{device}"
    );
    let budget = &tests["suite/size_4096x4096.shader_test"];
    assert_eq!(budget["status"], "skip", "{budget}");
    assert!(
        budget["reason"]
            .as_str()
            .is_some_and(|r| r.contains("16777216 pixels")),
        "{budget}"
    );
}
