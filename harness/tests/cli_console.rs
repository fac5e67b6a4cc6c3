//! Issue 11: what a run shows on the terminal, on the real binary: a progress bar on a
//! terminal, plain lines in a CI log, and at the end the counts by verdict, every unexpected
//! result with its numbers and the slowest tests; `-v` for debugging logs. The log uses the
//! words of results.json: `observed` is the exact float, `8-bit view` piglit's RGBA8 value.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Two lowered cases, which the emulator in `highp` mode fails.
fn lowered_cases() -> [PathBuf; 2] {
    ["div_scalar", "mul_scalar"].map(|n| cases().join(format!("arithmetic/{n}.shader_test")))
}

#[test]
fn a_ci_log_gets_plain_lines_and_a_summary_with_verdicts_numbers_and_the_slowest() {
    let dir = temp_dir("console-plain");
    let output = halfcheck()
        .args([
            "run",
            "--backend",
            "emu",
            "--emu-mode",
            "highp",
            "-j",
            "1",
            "--results",
        ])
        .arg(&dir)
        .args(lowered_cases())
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        !stderr.contains('\u{1b}'),
        "no terminal codes in a log: {stderr:?}"
    );
    let numbers = "probe line 29 at (0, 0) r: observed 0.3333435 (0x3eaaac00); mediump \
                   (binary16) 0.25, highp (binary32) 0.3333435;";
    assert!(
        stderr.contains(&format!(
            "[1/2] failed: cases/arithmetic/div_scalar.shader_test: fail, not-lowered; {numbers}"
        )),
        "{stderr}"
    );
    // Both failures were run again (--retries 1) and failed alike: no flake.
    assert!(
        stderr.contains("[2/2] fail 2; not-lowered 2; retried 2, flake 0\n"),
        "{stderr}"
    );

    assert!(
        stdout.starts_with(
            "exit 1: 2 failed tests; 0 flakes\n\
             emu on halfcheck f16 emulator (profile llvmpipe, highp): 2 tests"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "  verdict: 0 lowered, 2 not-lowered, 0 partial, 0 out-of-bounds, 0 inconsistent, \
         0 undetermined, 0 unjudged, 0 n/a; 0 without one\n"
        ),
        "{stdout}"
    );
    // Issue 35: each failure once in the log: the progress named both, the summary does not.
    assert!(
        !stdout.contains("failed: cases/arithmetic/div_scalar.shader_test"),
        "{stdout}"
    );
    assert!(
        stdout.contains("2 failed tests: 2 listed above as they finished, all in "),
        "{stdout}"
    );
    let slowest: Vec<&str> = stdout
        .lines()
        .skip_while(|l| *l != "slowest tests:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert_eq!(slowest.len(), 2, "{stdout}");
    assert!(slowest
        .iter()
        .all(|l| l.contains(" s  ") && l.ends_with(".shader_test")));
}

#[test]
fn a_terminal_gets_a_progress_bar_with_counts_and_an_eta() {
    // `script` (util-linux) runs the command on a pseudo-terminal.
    let script = Command::new("script").arg("--version").output();
    if !script.is_ok_and(|o| o.status.success()) {
        skip("a_terminal_gets_a_progress_bar...: no `script` command to give it a terminal");
        return;
    }
    let dir = temp_dir("console-bar");
    let command = format!(
        "'{}' run --backend emu -j 2 --results '{}' '{}'",
        env!("CARGO_BIN_EXE_halfcheck"),
        dir.join("out").display(),
        cases().join("arithmetic").display()
    );
    let output = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        // A driver that prints to stdout mid-run: its line goes above the bar, not into it.
        .env("HALFCHECK_WORKER_FAULT", "chatter=/mul_scalar")
        .output()
        .expect("script runs");
    let shown = text(&output);
    assert!(output.status.success(), "{shown}");
    let total = shader_tests(&cases().join("arithmetic")).len();
    assert!(shown.contains(&format!("] {total}/{total} eta")), "{shown}");
    assert!(
        shown.contains(&format!("pass {total}; lowered {total}")),
        "{shown}"
    );
    assert!(
        shown.contains("\u{1b}[2K"),
        "the bar redraws in place: {shown:?}"
    );
    assert!(
        shown.contains(
            "\u{1b}[2Khalfcheck: warning: driver output on the worker's stdout: driver chatter \
             while running cases/arithmetic/mul_scalar.shader_test\r\n"
        ),
        "the bar is cleared for the driver's line: {shown:?}"
    );
    assert!(shown.contains("verdict: "), "{shown}");
}

#[test]
fn verbose_shows_debugging_logs_and_quiet_shows_none() {
    let dir = temp_dir("console-verbose");
    let run = |verbose: bool, out: &str| {
        let mut command = halfcheck();
        command
            .args(["run", "--backend", "mock", "--results"])
            .arg(dir.join(out));
        command.arg(cases().join("arithmetic"));
        if verbose {
            command.arg("-v");
        }
        command.output().expect("runs")
    };
    let loud = run(true, "loud");
    assert!(loud.status.success(), "{}", text(&loud));
    let stderr = String::from_utf8_lossy(&loud.stderr);
    assert!(
        stderr.contains("halfcheck: DEBUG|halfcheck: run ["),
        "{stderr}"
    );
    assert!(stderr.contains("tests to run"), "{stderr}");
    assert!(
        stderr.contains("wrote ") && stderr.contains("junit.xml"),
        "{stderr}"
    );
    let quiet = run(false, "quiet");
    assert!(!String::from_utf8_lossy(&quiet.stderr).contains("DEBUG"));
}

/// issue 25, item 7: `halfcheck run ... | head` panicked (`failed printing to stdout: Broken
/// pipe`, exit 101) before the report was written. A closed stdout now ends the output
/// quietly: the run exits with its own status and still writes its results and report.
#[test]
fn a_closed_stdout_ends_the_output_quietly_and_the_run_still_writes_its_files() {
    let dir = temp_dir("console-pipe");
    let mut child = halfcheck()
        .args(["run", "--backend", "mock", "-j", "1", "--results"])
        .arg(&dir)
        .arg(cases().join("lowp"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    // The reader goes away before the summary is printed, as `head` does once it has its lines.
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(dir.join("results.json").is_file());
    assert!(dir.join("report/index.html").is_file(), "{stderr}");
}

/// issue 25, item 3: the answer was at line 1201 of a regressed run's log. Now the summary's
/// first lines say how the run exits, the counts, the lane, what it was judged against and
/// where the full list is; each unexpected result takes one line (at most 20, the rest only in
/// failures.csv), and a result that met its expectation gets no progress line at all.
#[test]
fn a_regressed_run_says_what_regressed_first_one_line_each_and_bounds_the_list() {
    let dir = temp_dir("console-regressed");
    let expectations = dir.join("lowering.yaml");
    // The emulator at highp fails every lowered case: expected of all but div_scalar.
    std::fs::write(
        &expectations,
        "default: {status: fail}\ntests:\n  - name: cases/arithmetic/div_scalar.shader_test\n    \
         status: pass\n    reason: lowered on this lane\n",
    )
    .expect("write");
    let run = |results: &str, paths: &[PathBuf], expectations_file: &Path| {
        halfcheck()
            .args(["run", "--backend", "emu", "--emu-mode", "highp", "-j", "2"])
            .args(["--no-report", "--results"])
            .arg(dir.join(results))
            .arg("--expectations")
            .arg(expectations_file)
            .args(paths)
            .output()
            .expect("runs")
    };
    let one = run("one", &[cases().join("arithmetic")], &expectations);
    assert_eq!(one.status.code(), Some(1), "{}", text(&one));
    let stdout = String::from_utf8_lossy(&one.stdout);
    let stderr = String::from_utf8_lossy(&one.stderr);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "exit 1: 1 unexpected results (0 improvements); 0 flakes"
    );
    assert!(
        lines[1].ends_with(&format!(
            ", lane emu, judged against {}",
            expectations.display()
        )),
        "{stdout}"
    );
    let csv = dir.join("one/failures.csv");
    assert_eq!(
        lines[2],
        format!(
            "1 unexpected results: 1 listed above as they finished, all in {}",
            csv.display()
        )
    );
    assert!(
        stderr.contains(
            "unexpected: cases/arithmetic/div_scalar.shader_test: expected pass, got fail, \
             not-lowered (lowered on this lane); probe line 29"
        ),
        "{stderr}"
    );
    // 23 tests failed as expected: no progress line names them.
    let named: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(".shader_test"))
        .collect();
    assert_eq!(named.len(), 1, "{stderr}");

    // Every case expected to pass: far more unexpected results than the bound.
    let all_pass = dir.join("pass.yaml");
    std::fs::write(&all_pass, "default: {status: pass}\n").expect("write");
    let many = run("many", &[cases()], &all_pass);
    assert_eq!(many.status.code(), Some(1), "{}", text(&many));
    let stdout = String::from_utf8_lossy(&many.stdout);
    let failing = std::fs::read_to_string(dir.join("many/failures.csv"))
        .expect("failures.csv")
        .lines()
        .count();
    assert!(failing > 20, "{stdout}");
    assert!(
        stdout
            .lines()
            .nth(2)
            .is_some_and(|l| l.starts_with(&format!(
                "{failing} unexpected results: 20 listed above as they finished, 10 more below \
                 (all {failing} in "
            ))),
        "{stdout}"
    );
    // Issue 35: each result once in the log: 20 as they finish, 10 more in the summary.
    let listed = stdout
        .lines()
        .filter(|l| l.starts_with("unexpected: "))
        .count();
    assert_eq!(listed, 10, "{stdout}");
    let stderr = String::from_utf8_lossy(&many.stderr);
    let named = stderr
        .lines()
        .filter(|l| l.contains("unexpected: "))
        .count();
    assert_eq!(named, 20, "{stderr}");
}

/// Issue 25: the comparison printed after `run --baseline` lists at most
/// `console::summary::SUMMARY_LISTED` tests per section and says how to see the rest; `compare`
/// lists them all.
#[test]
fn the_comparison_after_a_run_is_bounded_and_compare_lists_every_test() {
    let arithmetic = cases().join("arithmetic");
    let old = temp_dir("console-baseline-old");
    let run = |dir: &Path, baseline: Option<&Path>| {
        let mut command = halfcheck();
        command
            .args([
                "run",
                "--backend",
                "emu",
                "--no-report",
                "--force",
                "--results",
            ])
            .arg(dir);
        if let Some(baseline) = baseline {
            command.arg("--baseline").arg(baseline);
        }
        command.arg(&arithmetic).output().expect("runs")
    };
    let first = run(&old, None);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first));
    // The baseline: the same run with every pass written as a fail, so each test is a fix.
    let results = old.join("results.json");
    let json = std::fs::read_to_string(&results).expect("results.json");
    let passes = json.matches("\"status\": \"pass\"").count();
    assert!(passes > 20, "{passes} passing tests in cases/arithmetic");
    std::fs::write(
        &results,
        json.replace("\"status\": \"pass\"", "\"status\": \"fail\""),
    )
    .expect("writes");
    let new = temp_dir("console-baseline-new");
    let again = run(&new, Some(&results));
    let shown = text(&again);
    assert_eq!(again.status.code(), Some(0), "{shown}");
    assert!(shown.contains(&format!("fixes ({passes}):")), "{shown}");
    let more = format!(
        "... and {} more (`halfcheck compare BASELINE RESULTS` lists them all)",
        passes - 10
    );
    assert!(shown.contains(&more), "{shown}");
    let listed = shown.lines().filter(|l| l.contains(": fail, ")).count();
    assert_eq!(listed, 10, "{shown}");
    // `compare` lists every fix.
    let compare = halfcheck()
        .arg("compare")
        .arg(&results)
        .arg(new.join("results.json"))
        .output()
        .expect("runs");
    let all = text(&compare);
    assert_eq!(
        all.lines().filter(|l| l.contains(": fail, ")).count(),
        passes,
        "{all}"
    );
    assert!(!all.contains("more (`halfcheck compare"), "{all}");
}
