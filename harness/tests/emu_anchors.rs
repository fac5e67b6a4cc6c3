//! The emulator on the Igalia mediump anchors: in `mediump` mode it passes all 28, as
//! llvmpipe (which lowers) does; in `highp` mode exactly the 10 `*_lowered` tests fail, as on
//! softpipe (which does not lower). Also the backend through the real binary. Without the
//! anchors beside the repository these skip with a printed reason, unless
//! `HALFCHECK_REQUIRE_ANCHORS=1`.

mod common;

use halfcheck::results::Status;
use halfcheck_emu::{predict, Mode};
use halfcheck_piglit::shader_test::parse_file;

/// The amplified division anchor: `fract(a / b * 1024.0)`.
const DIV_LOWERED: &str = "igalia-mediump/glsl-es-1.00/execution/mediump_div_lowered.shader_test";

/// Every anchor's status in `mode`, by file name; `None` when the anchors are absent.
fn statuses(mode: Mode) -> Option<Vec<(String, Status, Option<String>)>> {
    let paths = common::shader_tests(&common::igalia_mediump()?);
    assert_eq!(paths.len(), 28, "the Igalia anchors are 28 files");
    let statuses = paths
        .iter()
        .map(|p| {
            let test = parse_file(p).expect("anchor parses");
            let result = predict(&test, mode);
            let name = p
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            (name, result.status, result.reason)
        })
        .collect();
    Some(statuses)
}

#[test]
fn mediump_mode_passes_every_anchor_like_llvmpipe() {
    let Some(statuses) = statuses(Mode::Mediump) else {
        return;
    };
    for (name, status, reason) in statuses {
        assert_eq!(status, Status::Pass, "{name}: {reason:?}");
    }
}

#[test]
fn highp_mode_fails_exactly_the_lowered_anchors_like_softpipe() {
    let Some(statuses) = statuses(Mode::Highp) else {
        return;
    };
    for (name, status, reason) in statuses {
        let lowered = name.ends_with("_lowered.shader_test") && !name.contains("not_lowered");
        let expected = if lowered { Status::Fail } else { Status::Pass };
        assert_eq!(status, expected, "{name}: {reason:?}");
    }
}

#[test]
fn the_emulator_predicts_the_binary16_value_of_every_probed_channel() {
    let Some(path) = common::anchors(DIV_LOWERED) else {
        return;
    };
    let test = parse_file(&path).expect("parses");
    let mediump = predict(&test, Mode::Mediump);
    let highp = predict(&test, Mode::Highp);
    // fract(a / b * 1024.0) with a = 1, b = 3: 0.25 in binary16, 0.333... in binary32.
    assert_eq!(mediump.probes[0].observed[1], 0.25);
    assert_eq!(highp.probes[0].observed[1], (1.0f32 / 3.0 * 1024.0).fract());
}

#[test]
fn acceptance_intervals_plug_into_the_same_emulator() {
    use halfcheck_compiler::sema::Model;
    use halfcheck_emu::exec::Bounds;
    use halfcheck_emu::{compile_options, evaluate};
    let Some(path) = common::anchors(DIV_LOWERED) else {
        return;
    };
    let test = parse_file(&path).expect("parses");
    let spec = halfcheck_compiler::CompileOptions {
        model: Model::Spec,
        ..compile_options(Mode::Mediump)
    };
    let h = evaluate(&test, &Bounds::highp(), &compile_options(Mode::Highp));
    let m = evaluate(&test, &Bounds::mediump(), &spec);
    // fract(1/3 * 1024): 0.25 when lowered, which highp may never return.
    let (h, m) = (h.probes[0].at(0, 0, 1), m.probes[0].at(0, 0, 1));
    assert!(m.is_some_and(|m| m.contains(0.25)), "{m:?}");
    assert!(h.is_some_and(|h| !h.contains(0.25)), "{h:?}");
}

#[test]
fn run_backend_emu_writes_results_with_the_emulator_backend() {
    let Some(anchors) = common::igalia_mediump() else {
        return;
    };
    let dir = common::temp_dir("emu-run");
    let output = common::halfcheck()
        .args([
            "run",
            &anchors.to_string_lossy(),
            "--backend",
            "emu",
            "--emu-mode",
            "highp",
            "-j",
            "2",
        ])
        .arg("--results")
        .arg(&dir)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1), "{}", common::text(&output));
    let results = halfcheck::results::read_results(&dir.join("results.json")).expect("results");
    assert_eq!(results.run.backend, "emu");
    let failed = results
        .tests
        .values()
        .filter(|t| t.status == Status::Fail)
        .count();
    assert_eq!(failed, 10);
}
