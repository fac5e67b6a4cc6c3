//! Issue 11: every run writes `junit.xml`, `results.csv` and `failures.csv`, and `halfcheck
//! export --piglit` writes piglit's results format. Checked on the real binary with the real
//! readers: `xmllint` against the schema of what GitLab reads (`docs/junit.xsd`), and Debian
//! piglit's own `piglit summary console`.

mod common;

use common::*;
use halfcheck_test_support::piglit_command;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The lowered cases the emulator in `highp` mode fails (its arithmetic does not lower).
const LOWERED: [&str; 2] = ["div_scalar.shader_test", "mul_scalar.shader_test"];

/// A suite with every kind of result: two lowered cases, one over the budget (a skip), one
/// malformed (an error), one whose name needs escaping in XML and CSV.
fn mixed_suite(dir: &Path) -> PathBuf {
    let suite = dir.join("suite");
    std::fs::create_dir_all(suite.join("arithmetic")).expect("suite dir");
    for name in LOWERED {
        std::fs::copy(
            cases().join("arithmetic").join(name),
            suite.join("arithmetic").join(name),
        )
        .expect("copy a case");
    }
    let div = std::fs::read_to_string(cases().join("arithmetic/div_scalar.shader_test"))
        .expect("the case");
    std::fs::write(
        suite.join("too_big.shader_test"),
        div.replacen("[require]\n", "[require]\nSIZE 100000 100000\n", 1),
    )
    .expect("write");
    std::fs::write(suite.join("malformed.shader_test"), "[require]\n[tset]\n").expect("write");
    std::fs::write(
        suite.join("odd, \"name\" <&>.shader_test"),
        div.replace("probe all rgba 0.25", "probe all rgba 0.5"),
    )
    .expect("write");
    suite
}

/// `halfcheck run --backend emu --emu-mode MODE --results OUT SUITE`.
fn run_emu(mode: &str, out: &Path, suite: &Path) -> std::process::Output {
    halfcheck()
        .args([
            "run",
            "--backend",
            "emu",
            "--emu-mode",
            mode,
            "-j",
            "2",
            "--results",
        ])
        .arg(out)
        .arg(suite)
        .output()
        .expect("runs")
}

#[test]
fn junit_xml_validates_against_the_schema_gitlab_reads_and_carries_the_numbers() {
    let dir = temp_dir("junit");
    let suite = mixed_suite(&dir);
    let out = dir.join("highp");
    let run = run_emu("highp", &out, &suite);
    assert_eq!(run.status.code(), Some(1), "{}", text(&run));
    let junit = std::fs::read_to_string(out.join("junit.xml")).expect("junit.xml written");

    assert!(
        junit.contains(
            "<testsuite name=\"halfcheck emu: halfcheck f16 emulator (profile llvmpipe, highp)\" tests=\"5\" \
         failures=\"3\" errors=\"1\" skipped=\"1\""
        ),
        "{junit}"
    );
    assert!(junit.contains(
        "<testcase classname=\"suite/arithmetic\" name=\"div_scalar.shader_test\" \
         file=\"suite/arithmetic/div_scalar.shader_test\""
    ));
    // The failure carries the probe and the numbers: observed float, binary16, binary32.
    assert!(
        junit.contains(
            "probe line 29 at (0, 0) r: observed 0.3333435 (0x3eaaac00); mediump (binary16) 0.25, \
         highp (binary32) 0.3333435; H [0.33325195, 0.3334961], M [0.0, 1.0]: not-lowered"
        ),
        "{junit}"
    );
    assert!(junit.contains("name=\"odd, &quot;name&quot; &lt;&amp;&gt;.shader_test\""));
    assert!(junit.contains("<skipped message=\"line 8: SIZE asks for a 100000x100000 window"));
    assert!(junit.contains("<error message=\"failed: error\" type=\"failed\">"));

    assert_valid_junit(&out.join("junit.xml"));
}

#[test]
fn results_and_failures_csv_have_deqp_runners_shape_with_the_verdict() {
    let dir = temp_dir("csv");
    let suite = mixed_suite(&dir);
    let out = dir.join("highp");
    run_emu("highp", &out, &suite);
    let read = |name: &str| std::fs::read_to_string(out.join(name)).expect(name);
    let results = read("results.csv");
    let statuses: Vec<(String, String)> = results
        .lines()
        .map(|line| {
            let (rest, duration) = line.rsplit_once(',').expect("three fields");
            let (name, status) = rest.rsplit_once(',').expect("three fields");
            assert!(duration.parse::<f64>().is_ok_and(|d| d >= 0.0), "{line}");
            (name.to_string(), status.to_string())
        })
        .collect();
    assert_eq!(
        statuses,
        [
            (
                "suite/arithmetic/div_scalar.shader_test",
                "fail:not-lowered"
            ),
            (
                "suite/arithmetic/mul_scalar.shader_test",
                "fail:not-lowered"
            ),
            ("suite/malformed.shader_test", "error"),
            (
                "\"suite/odd, \"\"name\"\" <&>.shader_test\"",
                "fail:not-lowered"
            ),
            ("suite/too_big.shader_test", "skip"),
        ]
        .map(|(n, s)| (n.to_string(), s.to_string()))
    );
    let failures = read("failures.csv");
    assert_eq!(failures.lines().count(), 4, "{failures}");
    assert!(!failures.contains("too_big"), "{failures}");

    // A run that meets its expectations has an empty failures.csv.
    let good = dir.join("mediump");
    let run = halfcheck()
        .args(["run", "--backend", "emu", "--results"])
        .arg(&good)
        .arg(cases().join("arithmetic/div_scalar.shader_test"))
        .output()
        .expect("runs");
    assert!(run.status.success(), "{}", text(&run));
    assert_eq!(
        std::fs::read_to_string(good.join("failures.csv")).expect("written"),
        ""
    );
    assert!(std::fs::read_to_string(good.join("results.csv"))
        .expect("written")
        .starts_with("cases/arithmetic/div_scalar.shader_test,pass:lowered,"));
}

#[test]
fn piglit_summary_reads_an_export_and_sees_the_regressions() {
    let Some(piglit) = piglit_command() else {
        return;
    };
    let dir = temp_dir("piglit-export");
    let arithmetic = cases().join("arithmetic");
    for (mode, name) in [("mediump", "lowering"), ("highp", "not-lowering")] {
        let out = dir.join(mode);
        run_emu(mode, &out, &arithmetic);
        let export = halfcheck()
            .arg("export")
            .arg(&out)
            .arg("--piglit")
            .arg(dir.join(name))
            .output()
            .expect("export runs");
        assert!(export.status.success(), "{}", text(&export));
    }
    let total = shader_tests(&arithmetic).len();
    let summary = Command::new(&piglit)
        .args(["summary", "console"])
        .arg(dir.join("lowering"))
        .arg(dir.join("not-lowering"))
        .env("HOME", &dir)
        .output()
        .expect("piglit runs");
    let report = text(&summary);
    assert!(summary.status.success(), "{report}");
    // Each judged test is two subtests: its probes and its lowering.
    assert!(report.contains("div_scalar/probes: pass fail"), "{report}");
    assert!(
        report.contains("div_scalar/lowering: pass fail"),
        "{report}"
    );
    let row = |label: &str| {
        report
            .lines()
            .find(|l| l.trim_start().starts_with(label))
            .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>())
            .unwrap_or_else(|| panic!("no {label} row: {report}"))
    };
    assert_eq!(row("name:"), ["lowering", "not-lowering"]);
    let subtests = (2 * total).to_string();
    assert_eq!(row("pass:"), [subtests.clone(), "0".to_string()]);
    assert_eq!(row("fail:"), ["0".to_string(), subtests.clone()]);
    assert_eq!(row("regressions:"), ["0".to_string(), subtests]);
}

/// issue 25, item 12: the export carried the status only, so `piglit summary` saw nothing when
/// lowering regressed and the probes still passed. Each judged test now carries its verdict as
/// a `lowering` subtest beside its `probes` status, and piglit counts the regression.
#[test]
fn piglit_summary_sees_a_lowering_regression_whose_probes_still_pass() {
    let Some(piglit) = piglit_command() else {
        return;
    };
    let dir = temp_dir("piglit-lowering");
    let ran = halfcheck()
        .args(["run", "--backend", "mock", "--no-report", "--results"])
        .arg(dir.join("mock"))
        .arg(cases().join("arithmetic/div_scalar.shader_test"))
        .output()
        .expect("runs");
    assert!(ran.status.success(), "{}", text(&ran));
    let mock: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("mock/results.json")).expect("results.json"),
    )
    .expect("JSON");
    for (night, verdict) in [("before", "lowered"), ("after", "not-lowered")] {
        let mut results = mock.clone();
        results["tests"]["cases/arithmetic/div_scalar.shader_test"]["verdict"] = verdict.into();
        let file = dir.join(format!("{night}.json"));
        std::fs::write(&file, results.to_string()).expect("write");
        let export = halfcheck()
            .arg("export")
            .arg(&file)
            .arg("--piglit")
            .arg(dir.join(night))
            .output()
            .expect("export runs");
        assert!(export.status.success(), "{}", text(&export));
    }
    let summary = Command::new(&piglit)
        .args(["summary", "console"])
        .arg(dir.join("before"))
        .arg(dir.join("after"))
        .env("HOME", &dir)
        .output()
        .expect("piglit runs");
    let report = text(&summary);
    assert!(summary.status.success(), "{report}");
    assert!(
        report.contains("div_scalar/lowering: pass fail"),
        "{report}"
    );
    assert!(report.contains("div_scalar/probes: pass pass"), "{report}");
    let regressions = report
        .lines()
        .find(|l| l.trim_start().starts_with("regressions:"))
        .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>());
    assert_eq!(regressions, Some(vec!["0", "1"]), "{report}");
}

#[test]
fn export_of_a_missing_run_says_so() {
    let dir = temp_dir("export-missing");
    let export = halfcheck()
        .arg("export")
        .arg(dir.join("nothing"))
        .arg("--piglit")
        .arg(dir.join("out"))
        .output()
        .expect("export runs");
    assert_eq!(export.status.code(), Some(2));
    assert!(
        text(&export).contains("halfcheck: error:"),
        "{}",
        text(&export)
    );
}

/// issue 25, item 9: the README's `results.json` example was no JSON (two `"tests"` keys,
/// `{...}` placeholders). Every ```json block of the README parses.
#[test]
fn the_readmes_json_examples_are_json() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .expect("README.md");
    let blocks: Vec<&str> = readme
        .split("```json\n")
        .skip(1)
        .filter_map(|rest| rest.split("\n```").next())
        .collect();
    assert!(!blocks.is_empty(), "no ```json block in README.md");
    for block in blocks {
        let parsed: Result<serde_json::Value, _> = serde_json::from_str(block);
        assert!(parsed.is_ok(), "{parsed:?}:\n{block}");
    }
}
