//! `halfcheck run --backend gl` end to end on a real driver. Skips with a printed reason
//! without EGL, unless `HALFCHECK_REQUIRE_GL=1`.

mod common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

/// `halfcheck run --backend gl --no-report` of `files`, with `extra` arguments, into `out`:
/// its results.json, and the command's output for messages.
fn run_gl(out: &Path, extra: &[&str], files: &[PathBuf]) -> (Value, Output) {
    let mut command = halfcheck();
    command
        .args(["run", "--backend", "gl", "--no-report"])
        .args(extra)
        .arg("--results")
        .arg(out)
        .args(files);
    results_of(command, out)
}

/// Whether every value is a multiple of 1/255, as an 8-bit window reads back.
fn eight_bit(values: &[f64]) -> bool {
    values
        .iter()
        .all(|x| (x * 255.0 - (x * 255.0).round()).abs() < 1e-4)
}

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
         [fragment shader]\n#version 300 es\nprecision mediump float;\n\
         uniform highp float big, neg;\n\
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

/// A test whose shaders hold nothing lowp or mediump needs no exact floats (its verdict is
/// n/a): it draws into an RGBA8 window, as piglit's, and reads back multiples of 1/255; so
/// does a mediump test the emulator cannot predict (it requires an extension), which stays
/// unjudged. The same shader at mediump, or any with `--exact-windows`, reads back the float
/// it wrote.
#[test]
fn only_a_test_with_reduced_precision_draws_into_a_float_window() {
    if !have_gl() {
        return;
    }
    let dir = temp_dir("window_format");
    for (name, precision, extension) in [
        ("highp", "highp", ""),
        ("mediump", "mediump", ""),
        ("unpredictable", "mediump", "GL_EXT_color_buffer_float\n"),
    ] {
        std::fs::write(
            dir.join(format!("{name}.shader_test")),
            format!(
                "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n{extension}\n\
                 [vertex shader passthrough]\n\n\
                 [fragment shader]\n#version 300 es\nprecision {precision} float;\n\
                 precision highp int;\nout vec4 color;\n\
                 void main() {{ color = vec4(0.3, 0.6, 0.1, 1.0); }}\n\n\
                 [test]\ndraw rect -1 -1 2 2\nprobe all rgba 0.3 0.6 0.1 1.0\n"
            ),
        )
        .expect("write");
    }
    let files = ["highp", "mediump", "unpredictable"].map(|p| dir.join(format!("{p}.shader_test")));
    let (results, output) = run_gl(&dir.join("out"), &["--timeout", "30"], &files);
    let observed = |name: &str| -> Vec<f64> {
        let test = &results["tests"][name];
        assert_eq!(test["status"], "pass", "{test} {output:?}");
        let values = test["probes"][0]["observed"].as_array().expect("observed");
        values.iter().filter_map(Value::as_f64).collect()
    };
    let highp = observed("highp.shader_test");
    assert_eq!(results["tests"]["highp.shader_test"]["verdict"], "n/a");
    assert!(
        eight_bit(&highp),
        "an 8-bit window reads multiples of 1/255: {highp:?}"
    );
    let mediump = observed("mediump.shader_test");
    assert!(
        !eight_bit(&mediump),
        "a float window reads the floats written: {mediump:?}"
    );
    assert_eq!(mediump[3], 1.0);
    let unpredictable = observed("unpredictable.shader_test");
    let test = &results["tests"]["unpredictable.shader_test"];
    assert_eq!(test["verdict"], "unjudged", "{test}");
    assert!(
        eight_bit(&unpredictable),
        "no prediction, no float window: {unpredictable:?}"
    );
    // `--exact-windows` gives the highp test a float window too.
    let (results, output) = run_gl(
        &dir.join("exact"),
        &["--exact-windows"],
        &[dir.join("highp.shader_test")],
    );
    let exact = &results["tests"]["highp.shader_test"]["probes"][0]["observed"];
    assert_eq!(
        exact[0].as_f64(),
        Some(f64::from(0.3f32)),
        "{exact} {output:?}"
    );
}

/// `--no-verdicts` runs a mediump test as piglit does: the same status, no verdict, no
/// highp reference run, no predictions, and an RGBA8 window (multiples of 1/255 read back).
#[test]
fn without_verdicts_a_mediump_test_runs_as_in_piglit() {
    if !have_gl() {
        return;
    }
    let dir = temp_dir("no_verdicts");
    let file = dir.join("mediump.shader_test");
    std::fs::write(
        &file,
        "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n\n[vertex shader passthrough]\n\n\
         [fragment shader]\n#version 300 es\nprecision mediump float;\nout vec4 color;\n\
         uniform float a;\nvoid main() { color = vec4(a * 3.0, 0.6, 0.1, 1.0); }\n\n\
         [test]\nuniform float a 0.1\ndraw rect -1 -1 2 2\nprobe all rgba 0.3 0.6 0.1 1.0\n",
    )
    .expect("write");
    let files = [file];
    let (judged, _) = run_gl(&dir.join("judged"), &[], &files);
    let (plain, _) = run_gl(&dir.join("plain"), &["--no-verdicts"], &files);
    let (judged_test, plain_test) = (
        &judged["tests"]["mediump.shader_test"],
        &plain["tests"]["mediump.shader_test"],
    );
    assert_eq!(judged_test["status"], "pass", "{judged_test}");
    assert_eq!(plain_test["status"], "pass", "{plain_test}");
    assert!(judged_test["verdict"].is_string(), "{judged_test}");
    assert!(plain_test["verdict"].is_null(), "{plain_test}");
    assert!(plain_test["reference"].is_null(), "{plain_test}");
    assert!(
        plain_test["probes"][0]["channels"].is_null(),
        "{plain_test}"
    );
    assert!(plain["run"]["reference"].is_null(), "{}", plain["run"]);
    let observed: Vec<f64> = plain_test["probes"][0]["observed"]
        .as_array()
        .expect("observed")
        .iter()
        .filter_map(Value::as_f64)
        .collect();
    assert!(
        eight_bit(&observed),
        "an 8-bit window reads multiples of 1/255: {observed:?}"
    );
    let judged_red = judged_test["probes"][0]["observed"][0].as_f64();
    assert!(
        !judged_red.is_some_and(|x| eight_bit(&[x])),
        "the judged run reads the float written: {judged_test}"
    );
}

/// Verdicts off cannot check expectations or a baseline, which hold verdicts: the command line
/// says so before anything runs.
#[test]
fn no_verdicts_refuses_expectations_and_baselines() {
    for (flag, value) in [
        ("--expectations", "cases/expectations/llvmpipe.yaml"),
        ("--baseline", "results"),
        ("--reference", "always"),
    ] {
        let output = halfcheck()
            .args(["run", "--no-verdicts", flag, value, "cases"])
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{flag}: {stderr}");
        assert!(
            stderr.contains("cannot be used with") && stderr.contains(flag),
            "{flag}: {stderr}"
        );
    }
}

/// Mesa's shader cache goes into the user's cache directory (without `XDG_CACHE_HOME`,
/// `~/.cache/halfcheck/mesa_shader_cache`, here a temporary home), nowhere else in the home
/// directory and not into the results directory, in one file rather than one per compiled
/// shader.
#[test]
fn the_shader_cache_is_one_file_in_the_users_cache_directory() {
    if !have_gl() {
        return;
    }
    let dir = temp_dir("shader_cache");
    let home = dir.join("home");
    std::fs::create_dir_all(&home).expect("home");
    for (name, colour) in [("a", "0.25"), ("b", "0.5")] {
        std::fs::write(
            dir.join(format!("{name}.shader_test")),
            format!(
                "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n\n[vertex shader passthrough]\n\n\
                 [fragment shader]\n#version 300 es\nprecision mediump float;\nout vec4 color;\n\
                 void main() {{ color = vec4({colour}); }}\n\n\
                 [test]\ndraw rect -1 -1 2 2\nprobe all rgba {colour} {colour} {colour} {colour}\n"
            ),
        )
        .expect("write");
    }
    let output = halfcheck()
        .env_remove("MESA_SHADER_CACHE_DIR")
        .env_remove("MESA_DISK_CACHE_SINGLE_FILE")
        .env_remove("XDG_CACHE_HOME")
        .env("HOME", &home)
        .args([
            "run",
            "--backend",
            "gl",
            "-j",
            "1",
            "--no-report",
            "--results",
        ])
        .arg(dir.join("out"))
        .args(["a", "b"].map(|n| dir.join(format!("{n}.shader_test"))))
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(!dir.join("out/mesa_shader_cache").exists());
    let files = files_under(&home.join(".cache/halfcheck/mesa_shader_cache"));
    let names: Vec<String> = files
        .iter()
        .filter_map(|f| Some(f.file_name()?.to_str()?.to_string()))
        .collect();
    assert!(names.iter().any(|n| n == "foz_cache.foz"), "{names:?}");
    assert!(files.len() <= 4, "one cache file and its index: {names:?}");
    let in_home: Vec<_> = std::fs::read_dir(&home)
        .expect("home")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(
        in_home,
        [".cache"],
        "nothing else written to the home directory"
    );
}

/// issue 25, item 13: Mesa's shader cache persists in the user's cache directory (here the
/// tests' own `XDG_CACHE_HOME`), one subdirectory per driver environment, not in the results
/// directory; `--shader-cache DIR` moves it and `--no-shader-cache` writes none.
#[test]
fn the_shader_cache_persists_in_the_user_cache_and_can_move_or_be_off() {
    if !have_gl() {
        return;
    }
    let root = temp_dir("shader-cache");
    let file = [cases().join("arithmetic/div_scalar.shader_test")];
    let home = root.join("home");
    let go = |results: &str, extra: &[&str]| {
        let output = halfcheck()
            .env("XDG_CACHE_HOME", &home)
            .env_remove("MESA_SHADER_CACHE_DIR")
            .env_remove("GALLIUM_NOSSE")
            .args(["run", "--backend", "gl", "--no-report", "-j", "1"])
            .args(extra)
            .arg("--results")
            .arg(root.join(results))
            .args(&file)
            .output()
            .expect("runs");
        assert!(output.status.success(), "{}", text(&output));
    };
    let entries = |dir: &Path| std::fs::read_dir(dir).map_or(0, |d| d.count());
    go("default", &[]);
    let cache = home.join("halfcheck/mesa_shader_cache");
    assert!(entries(&cache) > 0, "nothing cached in {}", cache.display());
    assert!(!root.join("default/mesa_shader_cache").exists());
    let moved = root.join("moved");
    go("elsewhere", &["--shader-cache", arg_of(&moved)]);
    assert!(entries(&moved) > 0, "nothing cached in {}", moved.display());
    std::fs::remove_dir_all(&home).expect("rm");
    // The verdicts persist in the same user cache unless told not to (`cli_run`).
    go("off", &["--no-shader-cache", "--no-verdict-cache"]);
    assert!(!home.exists(), "--no-shader-cache wrote {}", home.display());
}

fn arg_of(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// The system's EGL opens on its device and surfaceless platforms; GBM names the missing
/// render node when there is none; a run on the surfaceless platform runs there (its workers
/// get the platform) and says so in results.json and on its first line.
#[test]
fn each_egl_platform_is_listed_and_a_run_names_the_one_it_used() {
    if !have_gl() {
        return;
    }
    let devices = text(&halfcheck().arg("devices").output().expect("runs"));
    assert!(
        devices.contains("\ndevice 0: ") || devices.starts_with("device 0: "),
        "{devices}"
    );
    assert!(devices.contains("\nsurfaceless: "), "{devices}");
    let has_node = std::fs::read_dir("/dev/dri").is_ok_and(|d| {
        d.filter_map(Result::ok)
            .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
    });
    if !has_node {
        assert!(
            devices.contains("gbm: not opened: no render node (no /dev/dri/renderD*)"),
            "{devices}"
        );
    }
    for platform in ["angle-swiftshader", "angle-vulkan", "angle-gles"] {
        assert!(devices.contains(&format!("\n{platform}: ")), "{devices}");
    }
    let out = temp_dir("platform-surfaceless");
    let (results, output) = run_gl(
        &out,
        &["--gl-platform", "surfaceless", "-j", "1"],
        &[cases().join("arithmetic/add_scalar.shader_test")],
    );
    assert_eq!(
        results["run"]["platform"],
        "surfaceless",
        "{}",
        text(&output)
    );
    assert_eq!(
        results["run"]["versions"]["EGL_LIBRARY"],
        "libEGL.so.1",
        "{}",
        text(&output)
    );
    assert!(
        text(&output).contains("(EGL platform surfaceless)"),
        "{}",
        text(&output)
    );
    assert_eq!(results["tests"].as_object().map(|t| t.len()), Some(1));
}
