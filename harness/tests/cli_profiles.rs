//! Driver profiles and `halfcheck fingerprint` as a user runs them: `--emu-profile` names the
//! profile in the run line and `results.json`, a bad profile stops the run naming file and
//! line, and the fingerprint of each real Mesa lane (llvmpipe, softpipe, llvmpipe with
//! `GALLIUM_NOSSE=1`) is the profile halfcheck ships for it, choice for choice. Each lane is
//! fingerprinted once (a few seconds); without EGL those tests skip, printing why.

mod common;

use common::*;
use halfcheck_emu::Profile;
use serde_json::Value;
use std::path::Path;

/// `halfcheck fingerprint ARGS -o DIR/NAME.yaml` with `env`, and the profile it wrote.
fn fingerprint(dir: &Path, name: &str, args: &[&str], env: &[(&str, &str)]) -> Profile {
    let out = dir.join(format!("{name}.yaml"));
    let mut command = halfcheck();
    command.arg("fingerprint").args(args).arg("-o").arg(&out);
    command.env("MESA_SHADER_CACHE_DIR", dir.join("cache"));
    for (k, v) in env {
        command.env(k, v);
    }
    let output = command.output().expect("runs");
    assert!(output.status.success(), "{}", text(&output));
    assert!(
        text(&output).contains("choices measured"),
        "{}",
        text(&output)
    );
    let yaml = std::fs::read_to_string(&out).expect("profile written");
    let profile =
        Profile::from_yaml(&yaml, &out.display().to_string()).expect("the profile it wrote parses");
    // issue 25, item 11: the evidence cites no probe file (the battery's scratch directory is
    // gone), and every choice left undetermined says so on its line in `choices:`.
    assert!(!yaml.contains(".shader_test"), "{yaml}");
    assert_eq!(
        yaml.matches("# undetermined: the default, not measured")
            .count(),
        profile.undetermined.len(),
        "{yaml}"
    );
    profile
}

/// The fingerprint decides what the shipped profile decides, to the same values, and leaves
/// the same choices undetermined.
fn assert_is_shipped(fingerprinted: &Profile, shipped: &str) {
    let mut expected = Profile::builtin(shipped).expect("a shipped profile");
    if shipped == "llvmpipe" && !host_has_fma() {
        // llvmpipe fuses its polynomials' multiply-adds only on a CPU that has FMA.
        println!("this CPU has no FMA: llvmpipe's polynomials are expected split");
        expected.choices.arithmetic.polynomial_fma = halfcheck_emu::profile::Fma::Split;
    }
    let undetermined = |p: &Profile| p.undetermined.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        undetermined(fingerprinted),
        undetermined(&expected),
        "{}",
        fingerprinted.to_yaml()
    );
    assert_eq!(
        fingerprinted.choices,
        expected.choices,
        "{}",
        fingerprinted.to_yaml()
    );
}

/// Whether this CPU has fused multiply-add instructions (which llvmpipe then uses).
fn host_has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::is_x86_feature_detected!("fma");
    #[cfg(not(target_arch = "x86_64"))]
    return true;
}

#[test]
fn emu_profile_is_named_in_the_run_line_and_results() {
    let dir = temp_dir("emu-profile");
    let output = halfcheck()
        .args(["run", "--backend", "emu", "--emu-profile", "softpipe", "-t"])
        .arg("^cases/arithmetic/add_scalar")
        .arg("--results")
        .arg(&dir)
        .arg(cases())
        .output()
        .expect("runs");
    let out = text(&output);
    assert!(
        out.contains("emu on halfcheck f16 emulator (profile softpipe, mediump)"),
        "{out}"
    );
    let results: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("results.json")).expect("results.json"),
    )
    .expect("JSON");
    let context = &results["run"]["context"];
    assert_eq!(context["profile"], "softpipe");
    assert_eq!(context["profile_choices"]["lowering"]["float16"], false);
    // softpipe does not lower: add_scalar's binary16 expectation fails.
    let add = &results["tests"]["cases/arithmetic/add_scalar.shader_test"];
    assert_eq!(add["status"], "fail", "{add}");
}

#[test]
fn a_profile_with_a_typo_stops_the_run_naming_file_and_line() {
    let dir = temp_dir("bad-profile");
    let file = dir.join("bad.yaml");
    std::fs::write(
        &file,
        "name: bad\nchoices:\n  raster:\n    derivative: coarse\n",
    )
    .expect("written");
    let output = halfcheck()
        .args(["run", "--backend", "emu", "--emu-profile"])
        .arg(&file)
        .arg("--results")
        .arg(dir.join("results"))
        .arg(cases())
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let out = text(&output);
    assert!(out.contains("bad.yaml:4:"), "{out}");
    assert!(out.contains("unknown field `derivative`"), "{out}");
}

#[test]
fn fingerprint_of_the_emulator_through_the_runner_reads_its_profile_back() {
    let dir = temp_dir("fingerprint-emu");
    let profile = fingerprint(
        &dir,
        "softpipe-emulated",
        &["--backend", "emu", "--emu-profile", "softpipe", "-j", "2"],
        &[],
    );
    assert_is_shipped(&profile, "softpipe");
    assert!(profile.evidence["raster.derivatives"].contains("coarse predicts"));
}

#[test]
fn fingerprint_of_llvmpipe_is_the_shipped_llvmpipe_profile() {
    if !have_gl() {
        return;
    }
    let dir = temp_dir("fingerprint-llvmpipe");
    let profile = fingerprint(&dir, "llvmpipe", &["--backend", "gl"], &[]);
    if !profile.describes.starts_with("llvmpipe") {
        skip(&format!(
            "the GL driver is not llvmpipe: {}",
            profile.describes
        ));
        return;
    }
    assert_is_shipped(&profile, "llvmpipe");
}

#[test]
fn fingerprint_of_softpipe_is_the_shipped_softpipe_profile() {
    if !have_gl() {
        return;
    }
    let dir = temp_dir("fingerprint-softpipe");
    let env = [("GALLIUM_DRIVER", "softpipe")];
    let profile = fingerprint(&dir, "softpipe", &["--backend", "gl"], &env);
    if !profile.describes.starts_with("softpipe") {
        skip(&format!("no softpipe here: {}", profile.describes));
        return;
    }
    assert_is_shipped(&profile, "softpipe");
}

#[test]
fn fingerprint_of_llvmpipe_without_sse_is_the_shipped_nosse_profile() {
    if !have_gl() {
        return;
    }
    let dir = temp_dir("fingerprint-nosse");
    let env = [("GALLIUM_NOSSE", "1")];
    let profile = fingerprint(&dir, "llvmpipe-nosse", &["--backend", "gl"], &env);
    if !profile.describes.starts_with("llvmpipe") {
        skip(&format!(
            "the GL driver is not llvmpipe: {}",
            profile.describes
        ));
        return;
    }
    assert_is_shipped(&profile, "llvmpipe-nosse");
    // Named by its lane, not `llvmpipe`.
    assert_eq!(profile.name, "llvmpipe-nosse");
    // A lane that lowers mediump ints but not floats, neither of the other two profiles.
    assert!(!profile.choices.lowering.float16 && profile.choices.lowering.int16);
}

/// A mediump output may hold its value in binary16 on any conforming driver (zink rounds ES
/// 1.00's `gl_FragColor`): a device that stores a highp result so is not out of bounds.
#[test]
fn a_highp_result_stored_in_a_mediump_output_as_binary16_is_within_bounds() {
    let dir = temp_dir("stored-output");
    let profile = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../emu/profiles/llvmpipe.yaml"),
    )
    .expect("llvmpipe profile")
    .replace("round_outputs: false", "round_outputs: true")
    .replace("name: llvmpipe", "name: rounds-outputs");
    let profile_path = dir.join("rounds-outputs.yaml");
    std::fs::write(&profile_path, profile).expect("writes");
    let test = dir.join("highp_into_fragcolor.shader_test");
    std::fs::write(
        &test,
        "[require]\nGLSL ES >= 1.00\n\n[vertex shader passthrough]\n\n[fragment shader]\n\
         precision highp float;\nuniform float a;\nuniform float b;\nuniform mediump float m;\n\
         void main() { highp float r = a / b; gl_FragColor = vec4(r, m * 0.5, 0.0, 1.0); }\n\n\
         [test]\nuniform float a 1.0\nuniform float b 3.0\nuniform float m 0.5\n\
         draw rect -1 -1 2 2\ntolerance 0.01 0.01 0.01 0.01\nprobe all rgba 0.333 0.25 0.0 1.0\n",
    )
    .expect("writes");
    let output = halfcheck()
        .args(["run", "--backend", "emu", "--no-report", "--emu-profile"])
        .arg(&profile_path)
        .arg("--results")
        .arg(dir.join("results"))
        .arg(&test)
        .output()
        .expect("runs");
    let shown = text(&output);
    let results: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("results/results.json")).expect("results.json"),
    )
    .expect("json");
    let (_, result) = results["tests"]
        .as_object()
        .and_then(|tests| tests.iter().next())
        .expect("one test");
    // The device read 0x3eaaa000, binary16's 1/3; the intervals hold it as a stored value,
    // and since no operation is lowered, nothing discriminates. The verdicts follow the run's
    // profile, whose `m` rounds the output; the promoted test writes the same mediump
    // `gl_FragColor`, so it is no highp reference and does not run.
    let observed = result["probes"][0]["observed"][0].as_f64();
    assert_eq!(
        observed,
        Some(f64::from(f32::from_bits(0x3eaa_a000))),
        "{shown}"
    );
    assert_eq!(result["verdict"], "undetermined", "{shown}");
    assert_eq!(result["reference"]["outcome"], "skipped", "{shown}");
    let why = result["reference"]["reason"].as_str().unwrap_or_default();
    assert!(why.contains("gl_FragColor"), "{why}");
}
