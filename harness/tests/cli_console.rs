//! Issue 11: what a run shows on the terminal, on the real binary: a progress bar on a
//! terminal, plain lines in a CI log, and at the end the counts by verdict, every unexpected
//! result with its numbers and the slowest tests; `-v` for debugging logs. The log uses the
//! words of results.json: `observed` is the exact float, `8-bit view` piglit's RGBA8 value.

mod common;

use common::*;
use std::path::PathBuf;
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
    assert!(
        stderr.contains(
            "[1/2] fail: cases/arithmetic/div_scalar.shader_test: probe at line 29 failed at (0, 0): expected \
             [0.25, 0.0, 0.0, 1.0], observed [0.3333435, 0.0, 0.0, 1.0] (8-bit view \
             [0.33333334, 0.0, 0.0, 1.0])"
        ),
        "{stderr}"
    );
    // Both failures were run again (--retries 1) and failed alike: no flake.
    assert!(
        stderr.contains("[2/2] fail 2; not-lowered 2; retried 2, flake 0\n"),
        "{stderr}"
    );

    assert!(
        stdout.starts_with("emu on halfcheck f16 emulator (profile llvmpipe, highp): 2 tests"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "  verdict: 0 lowered, 2 not-lowered, 0 partial, 0 out-of-bounds, 0 undetermined, \
         0 n/a; 0 without one\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("failed: cases/arithmetic/div_scalar.shader_test: fail, not-lowered\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "    probe line 29 at (0, 0) r: observed 0.3333435 (0x3eaaac00); mediump (binary16) \
         0.25, highp (binary32) 0.3333435;"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("2 unexpected results\n"), "{stdout}");
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
