//! Expectations, baselines and `compare` on real drivers: llvmpipe lowers the Igalia
//! `*_lowered` tests' mediump arithmetic and passes them; softpipe does not and fails them.
//! Without EGL, or without the anchors beside the repository, these tests skip with a printed
//! reason, unless `HALFCHECK_REQUIRE_GL=1` / `HALFCHECK_REQUIRE_ANCHORS=1`.

mod common;

use common::*;
use std::path::Path;
use std::process::Output;

/// Runs the `anchors` directory on a Gallium driver, with results in `dir`.
fn run_anchors(anchors: &Path, driver: &str, dir: &Path, extra: &[&str]) -> Output {
    halfcheck()
        .args(["run", "--backend", "gl", "-j", "2", "--results"])
        .arg(dir)
        .args(extra)
        .arg(anchors)
        .env("GALLIUM_DRIVER", driver)
        .output()
        .expect("runs")
}

const LLVMPIPE_EXPECTATIONS: &str = r#"
renderer: "^llvmpipe"
default:
  status: pass
"#;

/// llvmpipe's own expectations on any CPU: `mediump_array_index_lowered` indexes with
/// `int(a * 10e7)`, where binary16 makes `10e7` infinite and `a` zero, so the index is the
/// undefined `int(NaN)`. Which element (if any) llvmpipe reads depends on the code LLVM
/// generates for the CPU: it passed on the machines this suite first ran on and reads 0.0 on
/// an AMD EPYC (AVX2, F16C). Its verdict stays `lowered` either way.
const LLVMPIPE_ANY_CPU: &str = r#"
renderer: "^llvmpipe"
default:
  status: pass
flakes: ["mediump_array_index_lowered"]
"#;

const SOFTPIPE_EXPECTATIONS: &str = r#"
renderer: "^softpipe"
default:
  status: pass
tests:
  - name: igalia-mediump/glsl-es-1.00/execution/mixed_precision_not_lowered.shader_test
    status: pass
    reason: mixed mediump*highp is highp on every driver
  - regex: "_lowered\\.shader_test$"
    status: fail
    reason: softpipe computes mediump at binary32, so the amplified binary16 error is absent
"#;

#[test]
/// The 10 `*_lowered` anchors fail on softpipe; with verdicts, 7 more tests that pass on both
/// drivers are lowering regressions too: `mediump_div`, `mediump_rsq` and `simple-dot3` by their
/// numbers, and `mediump_dot_vec3`, `mediump_exp2`, `mediump_log2` and `mediump_rcp`, which the
/// numbers leave undetermined, by each driver's own IR (16-bit on llvmpipe, 32 on softpipe). One of
/// the ten, `mediump_array_index_lowered`, is `lowered` on llvmpipe only where it reads the
/// element binary16 picks: its undefined `int(NaN)` index makes it `undetermined` elsewhere,
/// and no regression then.
fn softpipe_against_llvmpipe_is_seventeen_regressions_and_back_is_seventeen_fixes() {
    let Some(anchors) = igalia_mediump() else {
        return;
    };
    if !have_gl() {
        return;
    }
    let root = temp_dir("compare");
    let (llvm, soft) = (root.join("llvmpipe"), root.join("softpipe"));
    let any_cpu = root.join("llvmpipe-any-cpu.yaml");
    std::fs::write(&any_cpu, LLVMPIPE_ANY_CPU).expect("write");
    let expectations = any_cpu.to_str().expect("utf-8 path");
    let out = run_anchors(
        &anchors,
        "llvmpipe",
        &llvm,
        &["--expectations", expectations],
    );
    assert!(out.status.success(), "{}", text(&out));
    let out = run_anchors(&anchors, "softpipe", &soft, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));

    let compare = |old: &Path, new: &Path| {
        halfcheck()
            .arg("compare")
            .arg(old.join("results.json"))
            .arg(new.join("results.json"))
            .output()
            .expect("runs")
    };
    let results = std::fs::read_to_string(llvm.join("results.json")).expect("results.json");
    let index_lowered = serde_json::from_str::<serde_json::Value>(&results).expect("json")["tests"]
        ["igalia-mediump/glsl-es-1.00/execution/mediump_array_index_lowered.shader_test"]
        ["verdict"]
        == "lowered";
    let count = if index_lowered { 17 } else { 16 };
    let regressions = format!("regressions ({count}):");
    let worse = compare(&llvm, &soft);
    assert_eq!(worse.status.code(), Some(1), "{}", text(&worse));
    let report = text(&worse);
    assert!(report.contains(&regressions), "{report}");
    assert!(
        report.contains("mediump_div_lowered.shader_test: pass, partial -> fail, not-lowered")
            && report.contains("mediump_div.shader_test: pass, lowered -> pass, not-lowered")
            && report.contains("mediump_rcp.shader_test: pass, lowered -> pass, not-lowered"),
        "{report}"
    );
    let better = compare(&soft, &llvm);
    assert_eq!(better.status.code(), Some(0), "{}", text(&better));
    assert!(text(&better).contains(&format!("fixes ({count}):")));

    // The same in one step: --baseline on run.
    let again = run_anchors(
        &anchors,
        "softpipe",
        &root.join("again"),
        &[
            "--baseline",
            llvm.join("results.json").to_str().expect("utf-8 path"),
        ],
    );
    assert_eq!(again.status.code(), Some(1), "{}", text(&again));
    assert!(text(&again).contains(&regressions));
}

#[test]
fn each_driver_passes_its_own_expectations_and_the_guard_stops_the_other() {
    let Some(anchors) = igalia_mediump() else {
        return;
    };
    if !have_gl() {
        return;
    }
    let root = temp_dir("expectations");
    let soft_yaml = root.join("softpipe.yaml");
    let llvm_yaml = root.join("llvmpipe.yaml");
    std::fs::write(&soft_yaml, SOFTPIPE_EXPECTATIONS).expect("write");
    std::fs::write(&llvm_yaml, LLVMPIPE_EXPECTATIONS).expect("write");
    let arg = |p: &Path| p.to_str().expect("utf-8 path").to_string();

    let own = run_anchors(
        &anchors,
        "softpipe",
        &root.join("own"),
        &["--expectations", &arg(&soft_yaml)],
    );
    assert!(own.status.success(), "{}", text(&own));
    assert!(text(&own).contains("0 unexpected results"));

    let guarded = run_anchors(
        &anchors,
        "softpipe",
        &root.join("guarded"),
        &["--expectations", &arg(&llvm_yaml)],
    );
    assert_eq!(guarded.status.code(), Some(2), "{}", text(&guarded));
    assert!(
        text(&guarded).contains("the renderer is 'softpipe'"),
        "{}",
        text(&guarded)
    );

    let simulated = run_anchors(
        &anchors,
        "softpipe",
        &root.join("simulated"),
        &["--expectations", &arg(&llvm_yaml), "--skip-renderer-check"],
    );
    assert_eq!(simulated.status.code(), Some(1), "{}", text(&simulated));
    let report = text(&simulated);
    assert!(report.contains("10 unexpected results"), "{report}");
    assert!(report.contains("unexpected: igalia-mediump/glsl-es-1.00/execution/mediump_if_lowered.shader_test: expected pass, got fail"), "{report}");
}
