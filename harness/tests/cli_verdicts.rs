//! Lowering verdicts on real drivers: llvmpipe lowers mediump to binary16, softpipe does not
//! (`cases/` on each lane is in `mesa_lanes.rs`). Without EGL these tests skip with a printed
//! reason, unless `HALFCHECK_REQUIRE_GL=1`; the test on the anchors beside the repository skips
//! without them, unless `HALFCHECK_REQUIRE_ANCHORS=1`.

mod common;

use common::*;
use serde_json::Value;
use std::path::Path;
use std::process::Output;

fn run_gl(driver: &str, target: &Path, results: &Path, extra: &[&str]) -> Output {
    halfcheck()
        .args(["run", "--backend", "gl", "-j", "2", "--results"])
        .arg(results)
        .args(extra)
        .arg(target)
        .env("GALLIUM_DRIVER", driver)
        .output()
        .expect("runs")
}

fn verdicts(results: &Path) -> Value {
    let text = std::fs::read_to_string(results.join("results.json")).expect("results.json");
    serde_json::from_str::<Value>(&text).expect("json")["tests"].clone()
}

const LOWERED: [&str; 10] = [
    "mediump_aoa_lowered",
    "mediump_array_index_lowered",
    "mediump_array_lowered",
    "mediump_div_lowered",
    "mediump_dot_lowered",
    "mediump_function_lowered",
    "mediump_if_lowered",
    "mediump_matrix_lowered",
    "mediump_struct_lowered",
    "mediump_tex_lowered",
];

#[test]
fn igalia_lowered_tests_are_lowered_on_llvmpipe_and_not_on_softpipe() {
    let Some(execution) = anchors("igalia-mediump/glsl-es-1.00/execution") else {
        return;
    };
    if !have_gl() {
        return;
    }
    let root = temp_dir("verdicts-anchors");
    run_gl("llvmpipe", &execution, &root.join("llvmpipe"), &[]);
    run_gl("softpipe", &execution, &root.join("softpipe"), &[]);
    let llvm = verdicts(&root.join("llvmpipe"));
    let soft = verdicts(&root.join("softpipe"));
    for name in LOWERED {
        let test = format!("execution/{name}.shader_test");
        // llvmpipe keeps the stored `result = a / b` of the red channel in binary32 (a lone
        // operation on 32-bit uniforms), so only the amplified green channel is lowered.
        let on_llvmpipe = if name == "mediump_div_lowered" {
            "partial"
        } else if name == "mediump_array_index_lowered"
            && llvm[&test]["probes"][0]["observed"][0] != 0.5
        {
            // Its binary16 index is the undefined int(0 * inf): where llvmpipe reads another
            // element than binary16's (0.0 on an AMD EPYC), nothing proves lowering.
            "undetermined"
        } else {
            "lowered"
        };
        assert_eq!(llvm[&test]["verdict"], on_llvmpipe, "{test} on llvmpipe");
        assert_eq!(soft[&test]["verdict"], "not-lowered", "{test} on softpipe");
    }
    let mixed = "execution/mixed_precision_not_lowered.shader_test";
    assert_eq!(llvm[mixed]["verdict"], "not-lowered");
    assert_eq!(soft[mixed]["verdict"], "not-lowered");
    // The exact float behind the verdict: fract(1/3 * 1024) in binary16 is 0.25.
    let channel = &llvm["execution/mediump_div_lowered.shader_test"]["probes"][0]["channels"][1];
    assert_eq!(channel["observed"], 0.25);
    assert_eq!(channel["verdict"], "lowered");
    assert_eq!(channel["matches_mediump"], true);
}
