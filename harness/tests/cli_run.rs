//! `halfcheck run` and `halfcheck parse` as a user runs them: real binary, real files.
//!
//! The runner's own behaviour (crash and hang recovery, filters, results.json) is tested on
//! the mock backend over the repository's own `cases/`, so it runs anywhere; the GL tests are
//! in `gl_*.rs`.

mod common;

use common::*;
use serde_json::Value;
use std::path::Path;
use std::process::Output;

/// `halfcheck run --backend mock ARGS --results RESULTS TARGET`, with one extra env var.
fn run_mock(results: &Path, args: &[&str], target: &Path, env: Option<(&str, &str)>) -> Output {
    let mut command = halfcheck();
    command.args(["run", "--backend", "mock"]).args(args);
    command.arg("--results").arg(results).arg(target);
    if let Some((key, value)) = env {
        command.env(key, value);
    }
    command.output().expect("runs")
}

fn results(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("results.json")).expect("results.json written");
    serde_json::from_str(&text).expect("results.json is JSON")
}

#[test]
fn run_writes_the_results_contract() {
    let dir = temp_dir("contract");
    let output = run_mock(&dir, &["-j", "2"], &cases(), None);
    assert!(output.status.success(), "{}", text(&output));
    let r = results(&dir);
    assert_eq!(r["format"], "halfcheck-results/1");
    assert_eq!(r["run"]["backend"], "mock");
    assert!(r["run"]["started"]
        .as_str()
        .is_some_and(|s| s.ends_with('Z')));
    assert!(r["run"]["command_line"]
        .as_array()
        .is_some_and(|a| a.len() > 3));
    let total = shader_tests(&cases()).len();
    let tests = r["tests"].as_object().expect("tests object");
    assert_eq!(tests.len(), total);
    let div = &tests["cases/arithmetic/div_scalar.shader_test"];
    assert_eq!(div["status"], "pass");
    assert!(div["duration_s"].as_f64().is_some());
    let streamed = std::fs::read_to_string(dir.join("results.jsonl")).expect("journal");
    let header: Value =
        serde_json::from_str(streamed.lines().next().expect("header")).expect("json");
    assert_eq!(header["format"], "halfcheck-journal/1");
    assert_eq!(header["run"]["backend"], "mock");
    assert_eq!(streamed.lines().count(), 1 + total);
}

#[test]
fn include_and_exclude_filters_select_tests_by_name() {
    let dir = temp_dir("filters");
    let output = run_mock(
        &dir,
        &["-t", "^cases/arithmetic/", "-x", "div"],
        &cases(),
        None,
    );
    assert!(output.status.success(), "{}", text(&output));
    let r = results(&dir);
    let names: Vec<&String> = r["tests"].as_object().expect("tests").keys().collect();
    let expected = shader_tests(&cases().join("arithmetic"))
        .iter()
        .filter(|f| !f.to_string_lossy().contains("div"))
        .count();
    assert!(expected > 10, "cases/arithmetic has few tests: {expected}");
    assert_eq!(names.len(), expected, "{names:?}");
    assert!(names
        .iter()
        .all(|n| n.starts_with("cases/arithmetic/") && !n.contains("div")));
}

#[test]
fn a_crashing_worker_costs_one_test_and_the_run_goes_on() {
    let dir = temp_dir("crash");
    let output = run_mock(
        &dir,
        &["-j", "1"],
        &cases().join("arithmetic"),
        Some(("HALFCHECK_WORKER_FAULT", "crash=/div_scalar")),
    );
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let r = results(&dir);
    let tests = r["tests"].as_object().expect("tests");
    let total = shader_tests(&cases().join("arithmetic")).len();
    assert_eq!(tests.len(), total, "every test has a result");
    let crashed: Vec<_> = tests
        .iter()
        .filter(|(_, t)| t["status"] == "crash")
        .collect();
    assert_eq!(crashed.len(), 1);
    assert_eq!(crashed[0].0, "cases/arithmetic/div_scalar.shader_test");
    assert!(crashed[0].1["reason"]
        .as_str()
        .is_some_and(|s| s.contains("worker ended")));
    let passed = tests.values().filter(|t| t["status"] == "pass").count();
    assert_eq!(passed, total - 1);
}

#[test]
fn a_hanging_worker_times_out_and_is_replaced() {
    let dir = temp_dir("hang");
    let output = run_mock(
        &dir,
        &["-j", "2", "--timeout", "1"],
        &cases().join("arithmetic"),
        Some(("HALFCHECK_WORKER_FAULT", "hang=/mul_scalar")),
    );
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let r = results(&dir);
    let tests = r["tests"].as_object().expect("tests");
    assert_eq!(
        tests["cases/arithmetic/mul_scalar.shader_test"]["status"],
        "timeout"
    );
    assert_eq!(
        tests.values().filter(|t| t["status"] == "pass").count(),
        tests.len() - 1
    );
}

#[test]
fn a_malformed_file_is_an_error_result_and_the_others_still_run() {
    let dir = temp_dir("malformed");
    let corpus = dir.join("cases");
    std::fs::create_dir_all(&corpus).expect("dir");
    std::fs::write(
        corpus.join("bad.shader_test"),
        "[require]\nGL ES >= 2.0\n[test]\nprobe rgba 1\n",
    )
    .expect("write");
    std::fs::copy(
        cases().join("arithmetic/div_scalar.shader_test"),
        corpus.join("good.shader_test"),
    )
    .expect("copy");
    let output = run_mock(&dir.join("out"), &[], &corpus, None);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let r = results(&dir.join("out"));
    assert_eq!(r["tests"]["cases/good.shader_test"]["status"], "pass");
    let bad = &r["tests"]["cases/bad.shader_test"];
    assert_eq!(bad["status"], "error");
    let reason = bad["reason"].as_str().expect("reason");
    assert!(reason.contains("bad.shader_test:4:"), "{reason}");
    assert!(
        reason.contains("expected X Y then 4 expected colour values"),
        "{reason}"
    );
}

#[test]
fn run_with_nothing_selected_exits_2_with_a_message() {
    let dir = temp_dir("none");
    let output = run_mock(&dir, &["-t", "no-such-test"], &cases(), None);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output).contains("no .shader_test files selected"));
}

#[test]
fn parse_stats_counts_files_and_exit_code_follows_errors() {
    let output = halfcheck()
        .args(["parse", "--stats"])
        .arg(cases())
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", text(&output));
    let parsed = format!(
        "{} files parsed, 0 with errors",
        shader_tests(&cases()).len()
    );
    assert!(text(&output).contains(&parsed), "{}", text(&output));

    let dir = temp_dir("parse-bad");
    std::fs::write(dir.join("x.shader_test"), "[require]\n[tset]\n").expect("write");
    let output = halfcheck()
        .args(["parse"])
        .arg(&dir)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output).contains("x.shader_test:2:2: error: unknown section [tset]"),
        "{}",
        text(&output)
    );
}

/// The README's main job on a machine with no GL driver: `auto` falls back to the emulator,
/// and says so in the summary line and in results.json.
#[test]
fn auto_backend_falls_back_to_the_emulator_only_without_a_gl_driver_and_says_so() {
    let dir = temp_dir("auto");
    let output = halfcheck()
        .args(["run", "-t", "^cases/arithmetic/div_scalar", "--results"])
        .arg(&dir)
        .arg(cases())
        // glvnd finds no EGL vendor library here, so no driver answers.
        .env("__EGL_VENDOR_LIBRARY_DIRS", "/nonexistent")
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", text(&output));
    assert!(
        text(&output).contains("[fallback: no GL driver to load"),
        "{}",
        text(&output)
    );
    let r = results(&dir);
    assert_eq!(r["run"]["backend"], "emu");
    assert!(r["run"]["fallback"]
        .as_str()
        .is_some_and(|why| why.contains("no EGL device found")));
    let test = &r["tests"]["cases/arithmetic/div_scalar.shader_test"];
    assert_eq!(test["status"], "pass");
    // The emulator lowers as Mesa does: fract(fp16(1/3) * 1024) is exactly 0.25.
    assert_eq!(test["probes"][0]["observed"][0], 0.25);
}

/// issue 25, the second night: the verdicts persist in the user's cache directory
/// (`XDG_CACHE_HOME/halfcheck/verdicts`), one file per test and lane, and a second run of
/// the same tests gives the same results from them; `--verdict-cache DIR` moves them and
/// `--no-verdict-cache` keeps none. On the emulator, so it runs anywhere.
#[test]
fn verdicts_persist_in_the_user_cache_and_can_move_or_be_off() {
    let root = temp_dir("verdict-cache");
    let home = root.join("home");
    let files = [
        cases().join("arithmetic/div_scalar.shader_test"),
        cases().join("arithmetic/mul_scalar.shader_test"),
    ];
    let go = |results: &str, extra: &[&str]| {
        let output = halfcheck()
            .env("XDG_CACHE_HOME", &home)
            .args(["run", "--backend", "emu", "--no-report", "-j", "1"])
            .args(extra)
            .arg("--results")
            .arg(root.join(results))
            .args(&files)
            .output()
            .expect("runs");
        assert!(output.status.success(), "{}", text(&output));
        let mut tests = results_of(&root.join(results));
        for test in tests.values_mut() {
            test.as_object_mut().expect("a test").remove("duration_s");
        }
        tests
    };
    let entries = |dir: &Path| std::fs::read_dir(dir).map_or(0, |d| d.count());
    let first = go("first", &[]);
    let cache = home.join("halfcheck/verdicts");
    assert_eq!(entries(&cache), files.len(), "{}", cache.display());
    assert!(!root.join("first/verdicts").exists());
    let second = go("second", &[]);
    assert_eq!(first, second, "the second night's verdicts are the first's");
    assert_eq!(entries(&cache), files.len(), "rewritten, not grown");
    assert!(
        first.values().all(|t| t["verdict"] == "lowered"),
        "{first:?}"
    );
    let moved = root.join("moved");
    go(
        "elsewhere",
        &["--verdict-cache", moved.to_str().expect("utf-8")],
    );
    assert_eq!(entries(&moved), files.len());
    std::fs::remove_dir_all(&home).expect("rm");
    go("off", &["--no-verdict-cache", "--no-shader-cache"]);
    assert!(
        !home.exists(),
        "--no-verdict-cache wrote {}",
        home.display()
    );
}

/// The tests of `dir/results.json`.
fn results_of(dir: &Path) -> serde_json::Map<String, Value> {
    match results(dir)["tests"].take() {
        Value::Object(tests) => tests,
        other => panic!("no tests: {other}"),
    }
}
