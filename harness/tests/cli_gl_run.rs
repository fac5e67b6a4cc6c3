//! `halfcheck run --backend gl` end to end on a real driver. Skips with a printed reason
//! without EGL, unless `HALFCHECK_REQUIRE_GL=1`.

mod common;

use common::*;
use serde_json::Value;

/// Infinity and NaN read back from the float target survive the worker protocol and
/// results.json (JSON has no number for them): the test fails, it does not time out.
#[test]
fn infinity_and_nan_results_are_recorded_not_lost() {
    if !have_gl() {
        return;
    }
    let dir = temp_dir("nonfinite");
    std::fs::write(
        dir.join("nonfinite.shader_test"),
        "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n\n[vertex shader passthrough]\n\n\
         [fragment shader]\n#version 300 es\nprecision highp float;\nuniform float big, neg;\n\
         out vec4 color;\nvoid main() { color = vec4(big * big, sqrt(neg), -big * big, 1.0); }\n\n\
         [test]\nuniform float big 1e30\nuniform float neg -1.0\ndraw rect -1 -1 2 2\n\
         probe all rgba 0.0 0.0 0.0 1.0\n",
    )
    .expect("write");
    let output = halfcheck()
        .args(["run", "--backend", "gl", "--timeout", "30", "--results"])
        .arg(dir.join("out"))
        .arg(dir.join("nonfinite.shader_test"))
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let text = std::fs::read_to_string(dir.join("out/results.json")).expect("results");
    let results: Value = serde_json::from_str(&text).expect("json");
    let test = &results["tests"]["nonfinite.shader_test"];
    assert_eq!(test["status"], "fail", "{test}");
    let observed = &test["probes"][0]["observed"];
    assert_eq!(observed[0], "inf", "{observed}");
    assert_eq!(observed[1], "NaN", "{observed}");
    assert_eq!(observed[2], "-inf", "{observed}");
    assert_eq!(test["probes"][0]["observed_bits"][0], "0x7f800000");
}
