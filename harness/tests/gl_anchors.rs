//! The GL backend on Mesa with Igalia's mediump anchors: on llvmpipe (which lowers mediump
//! to binary16) all 28 pass and `fract(1/3 * 1024)` reads back exactly 0.25; on softpipe
//! (which computes mediump at fp32) exactly the 10 `*_lowered` tests fail.
//!
//! Mesa picks the Gallium driver once per process, so the softpipe run re-executes this
//! test binary with `GALLIUM_DRIVER=softpipe`. Without EGL, or without the anchors beside the
//! repository, the tests skip (they print why) unless `HALFCHECK_REQUIRE_GL=1` /
//! `HALFCHECK_REQUIRE_ANCHORS=1`.

mod common;

use common::{gl_backend, igalia_mediump, rerun_on_softpipe, shader_tests};
use halfcheck::results::Status;
use halfcheck_piglit::shader_test::parse_file;
use halfcheck_piglit::Backend;
use std::path::Path;

fn is_lowered(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.ends_with("_lowered.shader_test") && !name.ends_with("_not_lowered.shader_test")
}

/// Runs every anchor on the driver this process got and checks what that driver must do.
#[test]
fn mediump_anchors_pass_or_fail_as_the_driver_lowers() {
    let Some(anchors) = igalia_mediump() else {
        return;
    };
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let renderer = backend.run_info().renderer;
    println!("renderer: {renderer}");
    let lowers = if renderer.starts_with("llvmpipe") {
        true
    } else if renderer.starts_with("softpipe") {
        false
    } else {
        common::skip(&format!("mediump_anchors_pass_or_fail_as_the_driver_lowers: no expectations for renderer {renderer}"));
        return;
    };
    let files = shader_tests(&anchors);
    assert_eq!(files.len(), 28);
    let lowered = files.iter().filter(|f| is_lowered(f)).count();
    assert_eq!(lowered, 10);
    for file in &files {
        let test = parse_file(file).unwrap_or_else(|e| panic!("{e}"));
        let result = backend.run_test(&test);
        let expected = if is_lowered(file) && !lowers {
            Status::Fail
        } else {
            Status::Pass
        };
        // Its binary16 index is the undefined int(0 * inf): which element llvmpipe reads
        // depends on the code LLVM generates for the CPU (it reads 0.0 on an AMD EPYC).
        let undefined = lowers && file.ends_with("mediump_array_index_lowered.shader_test");
        if undefined {
            assert!(
                matches!(result.status, Status::Pass | Status::Fail),
                "{}: {:?}",
                file.display(),
                result.reason
            );
        } else {
            assert_eq!(
                result.status,
                expected,
                "{}: {:?}",
                file.display(),
                result.reason
            );
        }
        let execution = file.components().any(|c| c.as_os_str() == "execution");
        assert_eq!(!result.probes.is_empty(), execution, "{}", file.display());
    }
}

/// The exact green channel of `mediump_div_lowered`: fp16(1/3) * 1024 has fraction 0.25.
#[test]
fn mediump_div_lowered_reads_back_the_exact_float() {
    let Some(anchors) = igalia_mediump() else {
        return;
    };
    let Some(mut backend) = gl_backend() else {
        return;
    };
    let renderer = backend.run_info().renderer;
    let path = anchors.join("glsl-es-1.00/execution/mediump_div_lowered.shader_test");
    let test = parse_file(&path).unwrap_or_else(|e| panic!("{e}"));
    let result = backend.run_test(&test);
    let probe = &result.probes[0];
    let green = probe.observed[1];
    println!(
        "renderer: {renderer}; green = {green} ({})",
        probe.observed_bits[1]
    );
    if renderer.starts_with("llvmpipe") {
        assert_eq!(result.status, Status::Pass);
        assert_eq!(green, 0.25);
        assert_eq!(probe.observed_bits[1], "0x3e800000");
    } else if renderer.starts_with("softpipe") {
        assert_eq!(result.status, Status::Fail);
        assert!((green - 1.0 / 3.0).abs() < 1e-3, "green = {green}");
        assert_eq!(probe.observed_unorm8[1], f64::from(85.0f32 / 255.0));
    }
}

/// Both tests above again, on softpipe, in a child process (one Gallium driver per process).
#[test]
fn softpipe_runs_in_a_child_process() {
    if igalia_mediump().is_none() {
        return;
    }
    if std::env::var_os("GALLIUM_DRIVER").is_some() || gl_backend().is_none() {
        return;
    }
    for name in [
        "mediump_anchors_pass_or_fail_as_the_driver_lowers",
        "mediump_div_lowered_reads_back_the_exact_float",
    ] {
        println!("{}", rerun_on_softpipe(name));
    }
}
