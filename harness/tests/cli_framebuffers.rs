//! `halfcheck run --framebuffers`: every test's final window framebuffer is kept as raw
//! little-endian RGBA binary32 (bottom row first), its size recorded in results.json. Runs
//! on the emulator everywhere and on the GL driver when there is one (else it says why).

mod common;

use common::*;
use halfcheck_piglit::WindowImage;
use serde_json::Value;
use std::path::Path;

/// An 8x4 window whose every pixel differs (its centre over the size); one probe reads (1, 1).
const GRADIENT: &str = "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\nSIZE 8 4\n\
    [vertex shader passthrough]\n\
    [fragment shader]\n#version 300 es\nprecision highp float;\nout vec4 color;\n\
    void main() { color = vec4(gl_FragCoord.x / 8.0, gl_FragCoord.y / 4.0, -1.5, 1.0); }\n\
    [test]\ndraw rect -1 -1 2 2\nprobe rgba 1 1 0.1875 0.375 0.0 1.0\n";

/// Runs `dir/tests/gradient/window.shader_test` on `backend` into `dir/out`; its results.
fn run_gradient(dir: &Path, backend: &str, keep: bool) -> Value {
    let tests = dir.join("tests/gradient");
    std::fs::create_dir_all(&tests).expect("mkdir");
    std::fs::write(tests.join("window.shader_test"), GRADIENT).expect("write");
    let mut command = halfcheck();
    command.args(["run", "--backend", backend, "--results"]);
    command.arg(dir.join("out")).arg(dir.join("tests"));
    if keep {
        command.arg("--framebuffers");
    }
    let output = command.output().expect("runs");
    assert!(output.status.success(), "{}", text(&output));
    let results = std::fs::read_to_string(dir.join("out/results.json")).expect("results");
    serde_json::from_str(&results).expect("json")
}

/// The kept image of the gradient test, checked against its results entry.
fn kept_image(dir: &Path, results: &Value) -> WindowImage {
    let test = &results["tests"]["tests/gradient/window.shader_test"];
    let entry = &test["framebuffer"];
    assert_eq!(
        entry["path"], "framebuffers/tests/gradient/window.shader_test.rgba32f",
        "{test}"
    );
    assert_eq!(
        (entry["width"].as_u64(), entry["height"].as_u64()),
        (Some(8), Some(4))
    );
    let path = entry["path"].as_str().unwrap_or_default();
    let bytes = std::fs::read(dir.join("out").join(path)).expect("framebuffer file");
    let image = WindowImage::from_bytes(8, 4, &bytes).expect("8 * 4 * 16 bytes");
    // The probe's exact bits are those of its pixel in the file.
    let probe = &test["probes"][0];
    assert_eq!(probe["pixel"], serde_json::json!([1, 1]));
    let pixel = image.pixel(1, 1).expect("inside");
    let bits: Vec<String> = pixel
        .iter()
        .map(|v| format!("0x{:08x}", v.to_bits()))
        .collect();
    assert_eq!(probe["observed_bits"], serde_json::json!(bits));
    image
}

#[test]
fn the_emulator_keeps_the_whole_window_not_only_the_probed_pixels() {
    let dir = temp_dir("framebuffers-emu");
    let image = kept_image(&dir, &run_gradient(&dir, "emu", true));
    // A pixel no probe reads was shaded too; row 3 is the top row.
    assert_eq!(image.pixel(6, 3), Some([6.5 / 8.0, 3.5 / 4.0, -1.5, 1.0]));
    // Without the flag nothing is kept.
    let dir = temp_dir("framebuffers-emu-off");
    let results = run_gradient(&dir, "emu", false);
    assert!(results["tests"]["tests/gradient/window.shader_test"]
        .get("framebuffer")
        .is_none());
    assert!(!dir.join("out/framebuffers").exists());
}

#[test]
fn the_gl_backend_keeps_the_exact_floats_of_its_window() {
    if !have_gl() {
        return;
    }
    let dir = temp_dir("framebuffers-gl");
    let image = kept_image(&dir, &run_gradient(&dir, "gl", true));
    // The window is RGBA32F: values outside [0, 1] survive.
    assert_eq!(image.pixel(6, 3), Some([6.5 / 8.0, 3.5 / 4.0, -1.5, 1.0]));
}

/// Issue 26: `--force` left the earlier run's `framebuffers/` behind, so two runs' windows
/// mixed; now the earlier run's windows go, and what is not halfcheck's stays.
#[test]
fn force_removes_the_earlier_runs_windows_and_keeps_what_is_not_halfchecks() {
    let dir = temp_dir("framebuffers-force");
    run_gradient(&dir, "emu", true);
    let earlier = dir.join("out/framebuffers/tests/gradient/window.shader_test.rgba32f");
    assert!(earlier.is_file());
    // The user's own file in the results directory's framebuffers/ is not the run's.
    std::fs::write(dir.join("out/framebuffers/notes.txt"), "mine").expect("write");
    // A second run of other tests replaces the first with --force.
    let other = dir.join("other");
    std::fs::create_dir_all(&other).expect("mkdir");
    std::fs::write(other.join("window.shader_test"), GRADIENT).expect("write");
    let output = halfcheck()
        .args([
            "run",
            "--backend",
            "emu",
            "--force",
            "--framebuffers",
            "--results",
        ])
        .arg(dir.join("out"))
        .arg(&other)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", text(&output));
    assert!(!earlier.exists(), "the earlier run's window is still there");
    assert!(!dir.join("out/framebuffers/tests").exists());
    assert!(dir.join("out/framebuffers/notes.txt").is_file());
    assert!(dir
        .join("out/framebuffers/other/window.shader_test.rgba32f")
        .is_file());
}
