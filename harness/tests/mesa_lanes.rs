//! `cases/` on each real Mesa lane, each run once and checked for everything about it:
//! llvmpipe (lowers mediump to binary16), llvmpipe with `GALLIUM_NOSSE=1` (the same driver with
//! its binary16 float path off, mediump int still 16-bit: the regression lane), and softpipe
//! (lowers nothing). Without EGL these skip with a printed reason, unless
//! `HALFCHECK_REQUIRE_GL=1`.

mod common;

use common::*;
use halfcheck::expectations::Expectations;
use halfcheck::results::{read_results, ResultsFile, Status, TestResult, Verdict};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The integer cases: 16-bit integer arithmetic, which llvmpipe keeps without F16C.
const INT16_CASES: [&str; 11] = [
    "default_precision/es3_default_int_mediump.shader_test",
    "int16/es1_mul_wrap.shader_test",
    "int16/es3_add_wrap.shader_test",
    "int16/es3_mul_wrap.shader_test",
    "int16/es3_shift_wrap.shader_test",
    "int16/es3_sub_wrap.shader_test",
    "int16/es3_uint_add_wrap.shader_test",
    "int16/es3_uint_mul_wrap.shader_test",
    "lowp/es3_lowp_int_wrap.shader_test",
    "soundness/shift_past_sixteen_bits.shader_test",
    "varyings/es3_flat_mediump_int.shader_test",
];

/// Mesa's cases of integer built-ins (`cases/mesa/`): their 16-bit arithmetic is integer.
const MESA_INT_BUILTINS: [&str; 8] = [
    "bitcount",
    "bitfieldreverse",
    "findlsb",
    "findmsb",
    "imulextended",
    "uaddcarry",
    "umulextended",
    "usubborrow",
];

/// One lane's run of `cases/`: its exit code, console text and results.
struct Lane {
    code: Option<i32>,
    text: String,
    dir: Scratch,
    results: ResultsFile,
}

/// Runs `cases/` once on a lane: `env` picks the driver, `args` the rest.
fn run_lane(name: &str, env: &[(&str, &str)], args: &[String]) -> Lane {
    let dir = temp_dir(&format!("lane-{name}"));
    let mut command = halfcheck();
    command
        .args(["run", "--backend", "gl", "-j", "2", "--results"])
        .arg(&dir)
        .args(args)
        .arg(cases())
        .env_remove("GALLIUM_DRIVER")
        .env_remove("GALLIUM_NOSSE");
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().expect("runs");
    let results = read_results(&dir.join("results.json")).expect("results.json");
    Lane {
        code: output.status.code(),
        text: text(&output),
        dir,
        results,
    }
}

/// `cases/expectations/NAME` as an argument.
fn expectations(name: &str) -> String {
    cases()
        .join("expectations")
        .join(name)
        .to_str()
        .expect("utf-8 path")
        .to_string()
}

/// A lane's run, made once per test binary: `None` without EGL.
fn lane(
    cell: &'static OnceLock<Lane>,
    name: &str,
    env: &[(&str, &str)],
    args: &[&str],
) -> Option<&'static Lane> {
    have_gl().then(|| {
        cell.get_or_init(|| {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            run_lane(name, env, &args)
        })
    })
}

fn llvmpipe() -> Option<&'static Lane> {
    static LANE: OnceLock<Lane> = OnceLock::new();
    let expected = expectations("llvmpipe.yaml");
    let args = ["--reference", "always", "--expectations", &expected];
    lane(&LANE, "llvmpipe", &[], &args)
}

fn nosse() -> Option<&'static Lane> {
    static LANE: OnceLock<Lane> = OnceLock::new();
    let expected = expectations("llvmpipe-nosse.yaml");
    lane(
        &LANE,
        "nosse",
        &[("GALLIUM_NOSSE", "1")],
        &["--expectations", &expected],
    )
}

fn softpipe() -> Option<&'static Lane> {
    static LANE: OnceLock<Lane> = OnceLock::new();
    // Checked against llvmpipe's expectations: a simulated lowering regression, judged with
    // softpipe's own profile.
    let expected = expectations("llvmpipe.yaml");
    let args = [
        "--reference",
        "always",
        "--expectations",
        &expected,
        "--skip-renderer-check",
        "--emu-profile",
        "softpipe",
    ];
    lane(&LANE, "softpipe", &[("GALLIUM_DRIVER", "softpipe")], &args)
}

/// Each case's `# Expect:` line, by its path under `cases/`.
fn expected_verdicts() -> BTreeMap<String, String> {
    lane_verdicts("")
}

/// Each case's `# Expect LANE:` line (`lane` empty: the plain `# Expect:` line, llvmpipe's),
/// else its plain line, by its path under `cases/`.
fn lane_verdicts(lane: &str) -> BTreeMap<String, String> {
    let root = cases();
    let own = format!("# Expect {lane}: ");
    shader_tests(&root)
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("case file");
            let line = |prefix: &str| text.lines().find_map(|l| l.strip_prefix(prefix));
            let expect = (!lane.is_empty())
                .then(|| line(&own))
                .flatten()
                .or_else(|| line("# Expect: "))
                .unwrap_or_else(|| panic!("{path:?} has no # Expect: line"))
                .trim()
                .to_string();
            let name = path
                .strip_prefix(&root)
                .expect("under cases/")
                .to_string_lossy()
                .replace('\\', "/");
            (name, expect)
        })
        .collect()
}

/// The result of the case at `path` under `cases/` (test names may carry a prefix).
fn result<'a>(lane: &'a Lane, path: &str) -> &'a TestResult {
    lane.results
        .tests
        .iter()
        .find(|(name, _)| name.ends_with(path))
        .map(|(_, r)| r)
        .unwrap_or_else(|| panic!("no result for {path}"))
}

fn is_int16(path: &str) -> bool {
    INT16_CASES.contains(&path)
}

/// Mesa's integer cases (`cases/mesa/`): its `i32`/`u32` cases and the integer built-ins,
/// whose 16-bit integer arithmetic llvmpipe keeps without F16C.
fn is_mesa_int(path: &str) -> bool {
    path.strip_prefix("mesa/").is_some_and(|file| {
        file.starts_with("i32_")
            || file.starts_with("u32_")
            || MESA_INT_BUILTINS.contains(&file.trim_end_matches(".shader_test"))
    })
}

/// Whether a case tests a transcendental or exponential built-in.
fn is_transcendental(path: &str) -> bool {
    path.starts_with("builtins/trig/") || path.starts_with("builtins/exponential/")
}

/// The reference evidence on the channels where binary16 and binary32 differ.
fn reference_evidence(r: &TestResult) -> Vec<String> {
    r.probes
        .iter()
        .flat_map(|p| &p.channels)
        .filter(|c| c.discriminates_by_models)
        .map(|c| c.evidence.reference.as_str().to_string())
        .collect()
}

/// No result of a lane is out of bounds or inconsistent: the intervals hold the driver's values.
/// Only a case whose header expects it is unjudged (what the emulator does not model); a case
/// the lane skips (a GL ES version it lacks) has no verdict.
fn assert_sound(lane: &Lane) {
    let expected = expected_verdicts();
    for (name, r) in &lane.results.tests {
        if r.status == Status::Skip {
            continue;
        }
        let unjudged_expected = expected
            .iter()
            .any(|(path, v)| name.ends_with(path.as_str()) && v == "unjudged");
        assert!(
            !matches!(
                r.verdict,
                Some(Verdict::OutOfBounds | Verdict::Inconsistent)
            ),
            "{name}: {:?} ({:?})",
            r.verdict,
            r.verdict_reason
        );
        assert_eq!(
            r.verdict == Some(Verdict::Unjudged),
            unjudged_expected,
            "{name}: {:?} ({:?})",
            r.verdict,
            r.verdict_reason
        );
    }
}

#[test]
fn llvmpipe_lowers_every_lowered_case_and_every_transcendental_by_its_own_reference() {
    let Some(lane) = llvmpipe() else {
        return;
    };
    assert_eq!(lane.code, Some(0), "{}", lane.text);
    assert!(lane.text.contains("0 unexpected results"), "{}", lane.text);
    assert_sound(lane);
    let expected = expected_verdicts();
    // Every case llvmpipe lowers (by its header) is lowered or partial as the header says.
    for (path, expect) in &expected {
        if expect == "lowered" || expect == "partial" {
            let verdict = result(lane, path).verdict.map(Verdict::as_str);
            assert_eq!(verdict, Some(expect.as_str()), "{path}");
        }
    }
    let transcendental: Vec<&String> = expected.keys().filter(|p| is_transcendental(p)).collect();
    assert!(transcendental.len() >= 26, "{transcendental:?}");
    for path in transcendental {
        let r = result(lane, path);
        assert_eq!(r.verdict, Some(Verdict::Lowered), "{path}");
        let evidence = reference_evidence(r);
        assert!(
            !evidence.is_empty() && evidence.iter().all(|e| e == "lowered"),
            "{path}: reference evidence {evidence:?}"
        );
    }
}

#[test]
fn llvmpipe_without_f16c_lowers_no_float_case_and_every_int16_case() {
    let Some(lane) = nosse() else {
        return;
    };
    // The lane is what it says: mediump float 23 bits, mediump int 16 bits.
    let formats = &lane.results.run.context["shader_precision_format"]["fragment"];
    assert_eq!(formats["medium_float"]["precision"], 23, "{formats}");
    assert_eq!(formats["medium_int"]["range_min"], 15, "{formats}");
    assert_eq!(formats["medium_int"]["range_max"], 14, "{formats}");
    assert_eq!(lane.code, Some(0), "{}", lane.text);
    assert!(lane.text.contains("0 unexpected results"), "{}", lane.text);
    assert_sound(lane);
    let own = lane_verdicts("llvmpipe-nosse");
    let mesa_int_lowered = own
        .iter()
        .filter(|(path, v)| is_mesa_int(path) && v.as_str() == "lowered")
        .count();
    assert!(mesa_int_lowered >= 40, "{mesa_int_lowered}");
    for path in expected_verdicts().keys() {
        let verdict = result(lane, path).verdict;
        if is_int16(path) {
            assert_eq!(verdict, Some(Verdict::Lowered), "{path}");
        } else if is_mesa_int(path) {
            // Mesa's integer cases: 16-bit where their arithmetic wraps, as each header says.
            assert_eq!(
                verdict.map(Verdict::as_str),
                Some(own[path].as_str()),
                "{path}"
            );
        } else {
            assert!(
                !matches!(
                    verdict,
                    Some(Verdict::Lowered | Verdict::Partial | Verdict::OutOfBounds)
                ),
                "{path}: {verdict:?} on a driver that computes floats at binary32"
            );
        }
    }
}

#[test]
fn compare_llvmpipe_to_nosse_regresses_every_float_lowered_case_and_no_int16_case() {
    let (Some(llvm), Some(nosse)) = (llvmpipe(), nosse()) else {
        return;
    };
    let output = halfcheck()
        .arg("compare")
        .arg(llvm.dir.join("results.json"))
        .arg(nosse.dir.join("results.json"))
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let report = text(&output);
    let regressions: Vec<&str> = report
        .split("regressions (")
        .nth(1)
        .and_then(|s| s.split("\n\n").next())
        .unwrap_or("")
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    let regressed = |path: &str| regressions.iter().any(|l| l.contains(path));
    for (path, expect) in expected_verdicts() {
        if expect == "lowered" && !is_int16(&path) && !is_mesa_int(&path) {
            assert!(regressed(&path), "{path} is no regression:\n{report}");
        }
        if is_int16(&path) {
            assert!(!regressed(&path), "{path} regressed:\n{report}");
        }
    }
}

#[test]
fn softpipe_is_a_lowering_regression_against_llvmpipe_and_meets_its_own_expectations() {
    let Some(lane) = softpipe() else {
        return;
    };
    assert_eq!(lane.code, Some(1), "{}", lane.text);
    assert_sound(lane);
    // The console lists the first 20 results that need attention; failures.csv all of them.
    let failures = std::fs::read_to_string(lane.dir.join("failures.csv")).expect("failures.csv");
    let mut regressions = 0;
    for (path, expect) in expected_verdicts() {
        let r = result(lane, &path);
        if expect == "lowered" {
            regressions += 1;
            let name = lane
                .results
                .tests
                .keys()
                .find(|n| n.ends_with(&path))
                .expect("name");
            assert!(
                failures.contains(&format!("{name},fail:not-lowered,")),
                "{path} not listed as a regression"
            );
        }
        if is_transcendental(&path) {
            assert_eq!(r.verdict, Some(Verdict::NotLowered), "{path}");
            let evidence = reference_evidence(r);
            assert!(
                !evidence.is_empty() && evidence.iter().all(|e| e == "not-lowered"),
                "{path}: reference evidence {evidence:?}"
            );
        }
    }
    assert!(regressions > 150, "{regressions}");
    // `--emu-profile softpipe` reaches the judge: the predictions say so, and `h` is
    // softpipe's `exp2` bit for bit on every channel (llvmpipe's profile matches 2 of 4).
    let highp = &lane.results.run.predictions["highp"];
    assert!(
        highp.driver_model.starts_with("profile softpipe"),
        "{}",
        highp.driver_model
    );
    let exp2 = result(lane, "builtins/exponential/exp2.shader_test");
    let channels: Vec<bool> = exp2
        .probes
        .iter()
        .flat_map(|p| &p.channels)
        .map(|c| c.matches_highp)
        .collect();
    assert!(
        !channels.is_empty() && channels.iter().all(|&m| m),
        "{channels:?}"
    );
    // The same run meets softpipe's own expectations.
    let own = Expectations::load(&cases().join("expectations/softpipe.yaml")).expect("yaml");
    let unexpected = own.check(&lane.results);
    assert!(unexpected.is_empty(), "{unexpected:#?}");
}
