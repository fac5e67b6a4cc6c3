//! Issue 26: bad input never hangs a command, never eats the machine, and never silently
//! becomes a default. Each test feeds the real binary a real hostile input: a named pipe
//! where a file should be, a profile cut in half, results with a test twice, a signal in the
//! report phase.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A passing highp test.
const GOOD: &str =
    "[require]\nGL ES >= 2.0\nGLSL ES >= 1.00\n[vertex shader passthrough]\n[fragment shader]\n\
    precision highp float;\nvoid main() { gl_FragColor = vec4(1.0); }\n[test]\n\
    draw rect -1 -1 2 2\nprobe all rgba 1 1 1 1\n";

/// Runs `command` and fails the test, killing it, if it takes longer than `limit`: a
/// command that waits on a named pipe would otherwise hang the test suite.
fn within(mut command: Command, limit: Duration) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let started = Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if started.elapsed() > limit {
            child.kill().ok();
            let out = child.wait_with_output().expect("killed");
            panic!("still running after {limit:?}: {}", text(&out));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("ended")
}

/// A named pipe at `path` that nobody writes to.
fn fifo(path: &Path) -> PathBuf {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success());
    path.to_path_buf()
}

/// A suite holding one good test and a named pipe that looks like one.
fn suite_with_a_pipe(name: &str) -> PathBuf {
    let dir = temp_dir(name).join("suite");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("good.shader_test"), GOOD).expect("write");
    fifo(&dir.join("pipe.shader_test"));
    dir
}

const LIMIT: Duration = Duration::from_secs(60);

#[test]
fn a_named_pipe_among_the_tests_is_reported_by_parse_lint_and_run_not_waited_on() {
    let suite = suite_with_a_pipe("fifo-suite");
    for command in ["parse", "lint"] {
        let mut c = halfcheck();
        c.arg(command).arg(&suite);
        let out = within(c, LIMIT);
        let all = text(&out);
        assert_ne!(out.status.code(), Some(0), "{command}: {all}");
        assert!(
            all.contains("a named pipe, not a regular file"),
            "{command}: {all}"
        );
    }
    let results = suite.parent().expect("parent").join("out");
    let mut c = halfcheck();
    c.args(["run", "--backend", "emu", "--no-report", "--results"])
        .arg(&results)
        .arg(&suite);
    let out = within(c, LIMIT);
    let written = std::fs::read_to_string(results.join("results.json")).expect("results");
    let json: serde_json::Value = serde_json::from_str(&written).expect("json");
    let pipe = &json["tests"]["suite/pipe.shader_test"];
    assert_eq!(pipe["status"], "error", "{}", text(&out));
    assert!(
        pipe["reason"]
            .as_str()
            .is_some_and(|r| r.contains("a named pipe")),
        "{pipe}"
    );
    assert_eq!(json["tests"]["suite/good.shader_test"]["status"], "pass");
}

#[test]
fn compile_refuses_a_named_pipe() {
    let dir = temp_dir("fifo-compile");
    let pipe = fifo(&dir.join("shader.frag"));
    let mut c = halfcheck();
    c.arg("compile").arg(&pipe);
    let out = within(c, LIMIT);
    assert_ne!(out.status.code(), Some(0));
    assert!(text(&out).contains("a named pipe"), "{}", text(&out));
}

#[test]
fn a_named_pipe_given_as_results_expectations_or_profile_is_an_error_at_once() {
    let dir = temp_dir("fifo-inputs");
    let suite = dir.join("suite");
    std::fs::create_dir_all(&suite).expect("mkdir");
    std::fs::write(suite.join("good.shader_test"), GOOD).expect("write");
    let pipe = fifo(&dir.join("results.json"));
    let out_dir = dir.join("out");
    let commands: Vec<(&str, Command)> = vec![
        ("report", {
            let mut c = halfcheck();
            c.arg("report").arg(&pipe).arg("-o").arg(dir.join("report"));
            c
        }),
        ("compare", {
            let mut c = halfcheck();
            c.arg("compare").arg(&pipe).arg(&pipe);
            c
        }),
        ("expectations", {
            let mut c = halfcheck();
            c.args(["run", "--backend", "emu", "--results"])
                .arg(&out_dir)
                .arg("--expectations")
                .arg(&pipe)
                .arg(&suite);
            c
        }),
        ("profile", {
            let mut c = halfcheck();
            c.args(["run", "--backend", "emu", "--force", "--results"])
                .arg(&out_dir)
                .arg("--emu-profile")
                .arg(&pipe)
                .arg(&suite);
            c
        }),
    ];
    for (what, command) in commands {
        let out = within(command, Duration::from_secs(20));
        assert_eq!(out.status.code(), Some(2), "{what}: {}", text(&out));
        assert!(
            text(&out).contains("a named pipe"),
            "{what}: {}",
            text(&out)
        );
    }
}

/// The shipped softpipe profile cut in half ran as "softpipe" with llvmpipe's values for
/// every choice it no longer named: a false proof from bad input.
#[test]
fn a_profile_cut_in_half_is_refused_naming_the_missing_key() {
    let dir = temp_dir("profile-cut");
    let softpipe = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../emu/profiles/softpipe.yaml"),
    )
    .expect("softpipe profile");
    let lines: Vec<&str> = softpipe.lines().collect();
    let half = lines[..lines.len() / 2].join("\n") + "\n";
    let profile = dir.join("softpipe-cut.yaml");
    std::fs::write(&profile, half).expect("write");
    std::fs::write(dir.join("good.shader_test"), GOOD).expect("write");
    let out = halfcheck()
        .args(["run", "--backend", "emu", "--results"])
        .arg(dir.join("out"))
        .arg("--emu-profile")
        .arg(&profile)
        .arg(dir.join("good.shader_test"))
        .output()
        .expect("runs");
    let all = text(&out);
    assert_eq!(out.status.code(), Some(2), "{all}");
    assert!(all.contains("softpipe-cut.yaml"), "{all}");
    assert!(all.contains("missing field"), "{all}");
    assert!(!dir.join("out/results.json").exists());
}

/// `--emu-profile /etc/passwd` printed the file.
#[test]
fn a_file_that_is_no_profile_is_not_printed_back() {
    let dir = temp_dir("profile-passwd");
    let big = dir.join("big.yaml");
    std::fs::write(&big, "x".repeat(100_000)).expect("write");
    std::fs::write(dir.join("good.shader_test"), GOOD).expect("write");
    let out = halfcheck()
        .args(["run", "--backend", "emu", "--results"])
        .arg(dir.join("out"))
        .arg("--emu-profile")
        .arg(&big)
        .arg(dir.join("good.shader_test"))
        .output()
        .expect("runs");
    let all = text(&out);
    assert_eq!(out.status.code(), Some(2), "{all}");
    assert!(all.len() < 1000, "{} bytes: {all}", all.len());
}

/// A results file with a test written twice kept the last; `report` and `compare` now say
/// which test, and read nothing.
#[test]
fn results_with_a_test_twice_are_refused_by_every_reader() {
    let dir = temp_dir("results-twice");
    let results = dir.join("results.json");
    std::fs::write(
        &results,
        r#"{"format":"halfcheck-results/1","run":{"backend":"emu","renderer":"r","versions":{},
        "started":"","finished":"","command_line":[]},"tests":{
        "a.shader_test":{"status":"fail","duration_s":1},
        "a.shader_test":{"status":"pass","duration_s":1}}}"#,
    )
    .expect("write");
    let piglit = dir.join("piglit");
    let readers: Vec<(&str, Command)> = vec![
        ("compare", {
            let mut c = halfcheck();
            c.arg("compare").arg(&results).arg(&results);
            c
        }),
        ("export", {
            let mut c = halfcheck();
            c.arg("export").arg(&results).arg("--piglit").arg(&piglit);
            c
        }),
        ("report", {
            let mut c = halfcheck();
            c.arg("report")
                .arg(&results)
                .arg("-o")
                .arg(dir.join("report"));
            c
        }),
    ];
    for (what, mut command) in readers {
        let out = command.output().expect("runs");
        let all = text(&out);
        assert_ne!(out.status.code(), Some(0), "{what}: {all}");
        assert!(
            all.contains("test 'a.shader_test' has two results"),
            "{what}: {all}"
        );
    }
}

/// Three draws of 65,536 instances: minutes on the emulator.
const ENDLESS: &str = "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n[vertex shader passthrough]\n\
    [fragment shader]\n#version 300 es\nprecision mediump float;\nout vec4 color;\n\
    void main() { color = vec4(0.5); }\n[test]\n\
    draw instanced rect 65536 -1 -1 2 2\ndraw instanced rect 65536 -1 -1 2 2\n\
    draw instanced rect 65536 -1 -1 2 2\nprobe all rgba 0.5 0.5 0.5 0.5\n";

/// A run whose test timed out went on to draw that test's emulator images for its report,
/// with no time limit: its results were written at 20 s and it was still going at 65 s.
/// Now a test that timed out gets no images, and `report` alone is as quick.
#[test]
fn a_test_that_timed_out_is_not_drawn_again_for_the_report() {
    let dir = temp_dir("report-timeout");
    let suite = dir.join("suite");
    std::fs::create_dir_all(&suite).expect("mkdir");
    std::fs::write(suite.join("endless.shader_test"), ENDLESS).expect("write");
    let out_dir = dir.join("out");
    let mut c = halfcheck();
    c.args(["run", "--backend", "mock", "--timeout", "1", "--results"])
        .arg(&out_dir)
        .arg(&suite)
        .env("HALFCHECK_WORKER_FAULT", "hang=endless");
    let out = within(c, Duration::from_secs(30));
    let results = std::fs::read_to_string(out_dir.join("results.json")).expect("results");
    assert!(results.contains("\"timeout\""), "{}", text(&out));
    let page = |dir: &Path| {
        std::fs::read_dir(dir.join("tests"))
            .expect("test pages")
            .flatten()
            .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
            .collect::<String>()
    };
    assert!(
        page(&out_dir.join("report")).contains("timed out or crashed in a run"),
        "{}",
        text(&out)
    );
    let mut c = halfcheck();
    c.arg("report")
        .arg(&out_dir)
        .arg("--tests")
        .arg(&suite)
        .arg("-o")
        .arg(dir.join("report"));
    let out = within(c, Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

/// A 2048x2048 window of a long loop: one probed pixel is quick for the run, the whole
/// window for the report's images is not. The probe fails, so the report draws it.
const SLOW_TO_DRAW: &str = "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\nSIZE 2048 2048\n\
    [vertex shader passthrough]\n[fragment shader]\n#version 300 es\nprecision mediump float;\n\
    out vec4 color;\nvoid main() {\n  float x = gl_FragCoord.x / 2048.0;\n\
    for (int i = 0; i < 3000; i++) { x = fract(x * 1.5 + 0.25); }\n\
    color = vec4(x, 0.0, 0.0, 1.0);\n}\n[test]\ndraw rect -1 -1 2 2\n\
    probe rgba 1 1 2.0 0.0 0.0 1.0\n";

/// SIGTERM while `run` draws its report: it was ignored; now the run ends at once, its
/// results already written.
#[test]
fn sigterm_in_the_report_phase_ends_the_run_within_5_s_with_its_results_written() {
    let dir = temp_dir("report-sigterm");
    let suite = dir.join("suite");
    std::fs::create_dir_all(&suite).expect("mkdir");
    std::fs::write(suite.join("slow.shader_test"), SLOW_TO_DRAW).expect("write");
    let out_dir = dir.join("out");
    let mut child = halfcheck()
        .args(["run", "--backend", "emu", "--results"])
        .arg(&out_dir)
        .arg(&suite)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let started = Instant::now();
    // results.json and the CI files are written before the report starts.
    while !out_dir.join("failures.csv").exists() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no results after 60 s"
        );
        assert!(child.try_wait().expect("waits").is_none(), "ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().expect("waits").is_none(),
        "the report ended too soon to test a signal in it"
    );
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let signalled = Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if signalled.elapsed() > Duration::from_secs(5) {
            child.kill().ok();
            panic!("still running 5 s after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("ended");
    assert_eq!(out.status.code(), Some(128 + 15), "{}", text(&out));
    let results = std::fs::read_to_string(out_dir.join("results.json")).expect("results");
    assert!(results.contains("suite/slow.shader_test"));
}

/// A 2048x2048 window in exact floats: hundreds of MiB of the emulator's framebuffers.
const BIG_WINDOW: &str = "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\nSIZE 2048 2048\n\
    [vertex shader passthrough]\n[fragment shader]\n#version 300 es\nprecision mediump float;\n\
    out vec4 color;\nvoid main() { color = vec4(gl_FragCoord.x / 2048.0, 0.5, 0.25, 1.0); }\n\
    [test]\ndraw rect -1 -1 2 2\nprobe all rgba 0.5 0.5 0.25 1.0\n";

/// Workers had no memory limit (a macro bomb took one to 6.4 GB). Under one, a test that
/// passes it is a crash that says so, and the run goes on.
#[test]
fn a_test_past_the_workers_memory_limit_is_a_crash_naming_the_limit_and_the_run_goes_on() {
    let dir = temp_dir("worker-memory");
    std::fs::write(dir.join("big.shader_test"), BIG_WINDOW).expect("write");
    std::fs::write(dir.join("good.shader_test"), GOOD).expect("write");
    let out_dir = dir.join("out");
    let mut c = halfcheck();
    c.args([
        "run",
        "--backend",
        "emu",
        "--no-report",
        "--worker-memory",
        "200",
    ])
    .arg("--results")
    .arg(&out_dir)
    .arg(dir.join("big.shader_test"))
    .arg(dir.join("good.shader_test"));
    let out = within(c, LIMIT);
    let written = std::fs::read_to_string(out_dir.join("results.json")).expect("results");
    let json: serde_json::Value = serde_json::from_str(&written).expect("json");
    let big = &json["tests"]["big.shader_test"];
    assert_eq!(big["status"], "crash", "{}", text(&out));
    assert!(
        big["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("memory limit: the worker passed its limit of 200 MiB")),
        "{big}"
    );
    assert_eq!(json["tests"]["good.shader_test"]["status"], "pass");
}

/// `lint` had no time limit: 43 s for one such draw. A file past `--timeout` is skipped with
/// the reason, and lint goes on to the next.
#[test]
fn lint_skips_a_file_past_its_time_limit_and_goes_on() {
    let dir = temp_dir("lint-timeout");
    std::fs::write(dir.join("endless.shader_test"), ENDLESS).expect("write");
    std::fs::write(dir.join("good.shader_test"), GOOD).expect("write");
    let mut c = halfcheck();
    c.args(["lint", "--timeout", "2"]).arg(&dir);
    let started = Instant::now();
    let out = within(c, Duration::from_secs(30));
    let all = text(&out);
    assert!(started.elapsed() < Duration::from_secs(20), "{all}");
    assert!(
        all.contains("the emulator took longer than 2 s, lint's limit per file"),
        "{all}"
    );
}
