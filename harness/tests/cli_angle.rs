//! ANGLE, opened with no shim and no `LD_LIBRARY_PATH`: `halfcheck devices` finds its
//! SwiftShader and Vulkan back ends, and `cases/` runs on ANGLE/SwiftShader with its
//! expectations, lowering nothing. ANGLE's libEGL is the one halfcheck finds itself (Chromium's
//! directory), or `HALFCHECK_ANGLE_LIBRARY` (passed as `--gl-library`). Without one these skip
//! with a printed reason, unless `HALFCHECK_REQUIRE_ANGLE=1`.

mod common;

use common::*;
use halfcheck::results::{read_results, Verdict};
use std::process::Command;

/// `halfcheck ARGS` with `--gl-library $HALFCHECK_ANGLE_LIBRARY` when it is set.
fn with_angle(command: &mut Command) -> &mut Command {
    if let Some(library) = std::env::var_os("HALFCHECK_ANGLE_LIBRARY") {
        command.arg("--gl-library").arg(library);
    }
    command.env_remove("LD_LIBRARY_PATH")
}

/// `halfcheck devices --gl-platform PLATFORM`'s line, or `None` (with the reason printed)
/// when no ANGLE opens here; panics instead under `HALFCHECK_REQUIRE_ANGLE=1`.
fn angle_line(platform: &str) -> Option<String> {
    let mut command = halfcheck();
    command.args(["devices", "--gl-platform", platform]);
    let output = with_angle(&mut command).output().expect("runs");
    let line = String::from_utf8_lossy(&output.stdout).trim().to_string();
    if output.status.success() {
        return Some(line);
    }
    assert!(
        std::env::var("HALFCHECK_REQUIRE_ANGLE").as_deref() != Ok("1"),
        "HALFCHECK_REQUIRE_ANGLE=1 but ANGLE did not open: {}",
        text(&output)
    );
    skip(&format!("an ANGLE test: {line}"));
    None
}

#[test]
fn devices_lists_angle_on_swiftshader_and_on_vulkan() {
    let Some(swiftshader) = angle_line("angle-swiftshader") else {
        return;
    };
    assert!(
        swiftshader.starts_with("angle-swiftshader: ANGLE (Google, Vulkan")
            && swiftshader.contains("SwiftShader Device"),
        "{swiftshader}"
    );
    assert!(swiftshader.contains("(OpenGL ES 3."), "{swiftshader}");
    let vulkan = angle_line("angle-vulkan").unwrap_or_default();
    assert!(vulkan.starts_with("angle-vulkan: ANGLE ("), "{vulkan}");
    assert!(!vulkan.contains("SwiftShader"), "{vulkan}");
    // The listing of every platform names both, each from a process of its own.
    let mut command = halfcheck();
    command.arg("devices");
    let all = text(&with_angle(&mut command).output().expect("runs"));
    assert!(
        all.contains("angle-swiftshader: ANGLE (Google, Vulkan"),
        "{all}"
    );
    assert!(all.contains("angle-vulkan: ANGLE ("), "{all}");
}

#[test]
fn angle_swiftshader_runs_cases_with_its_expectations_and_lowers_nothing() {
    if angle_line("angle-swiftshader").is_none() {
        return;
    }
    let dir = temp_dir("lane-angle-swiftshader");
    let expectations = cases().join("expectations/angle-swiftshader.yaml");
    let mut command = halfcheck();
    command
        .args([
            "run",
            "--backend",
            "gl",
            "--lane",
            "angle-swiftshader",
            "-j",
            "2",
        ])
        .arg("--expectations")
        .arg(&expectations)
        .arg("--results")
        .arg(&dir)
        .arg(cases());
    let output = with_angle(&mut command).output().expect("runs");
    let console = text(&output);
    assert_eq!(output.status.code(), Some(0), "{console}");
    let results = read_results(&dir.join("results.json")).expect("results.json");
    assert_eq!(
        results.run.platform.as_deref(),
        Some("angle-swiftshader"),
        "{console}"
    );
    assert!(
        results.run.renderer.contains("SwiftShader"),
        "{}",
        results.run.renderer
    );
    let claims: Vec<String> = results
        .tests
        .iter()
        .filter(|(_, t)| {
            matches!(
                t.verdict,
                Some(Verdict::Lowered | Verdict::Partial | Verdict::OutOfBounds)
            )
        })
        .map(|(name, t)| format!("{name}: {:?}", t.verdict))
        .collect();
    // SwiftShader's mediump `asin` is a cheaper approximation (observed 0.24859619, highp
    // reference 0.25085449), but its reference is not the binary32 prediction, so nothing
    // sound tells it from a test compiled apart from its twin: `undetermined`. Every
    // lowering claim here would be false.
    assert_eq!(claims, Vec::<String>::new(), "{console}");
    assert_eq!(
        results
            .tests
            .get("cases/builtins/trig/es3_asin.shader_test")
            .and_then(|t| t.verdict),
        Some(Verdict::Undetermined),
        "{console}"
    );
    assert!(results.tests.len() > 190, "{}", results.tests.len());
}
