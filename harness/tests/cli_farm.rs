//! The runner as a nightly farm uses it, with real faults: real signals to real processes, a
//! shader that keeps llvmpipe busy past the timeout, a damaged journal, a read-only directory.
//! Names, resume, shards, retries and selections run on the mock backend or the emulator
//! where a driver adds nothing; the GL tests skip without EGL unless `HALFCHECK_REQUIRE_GL=1`,
//! the piglit test without Debian's piglit unless `HALFCHECK_REQUIRE_PIGLIT=1`.

mod common;

use common::*;
use serde_json::Value;
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// `halfcheck run --results DIR ARGS...`.
fn run(dir: &Path, args: &[&str]) -> Command {
    let mut command = halfcheck();
    command.arg("run").arg("--results").arg(dir).args(args);
    command
}

/// `halfcheck run --results DIR ARGS... SUITE` with a worker fault (`HALFCHECK_WORKER_FAULT`).
fn faulty(dir: &Path, args: &[&str], suite: &Path, fault: &str) -> Command {
    let mut command = run(dir, args);
    command.arg(suite).env("HALFCHECK_WORKER_FAULT", fault);
    command
}

fn output(mut command: Command) -> Output {
    command.output().expect("runs")
}

fn results(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("results.json")).expect("results.json written");
    serde_json::from_str(&text).expect("results.json is JSON")
}

fn names(results: &Value) -> Vec<String> {
    results["tests"]
        .as_object()
        .expect("tests")
        .keys()
        .cloned()
        .collect()
}

/// The tests of a results file without what may differ between two runs of them (timings,
/// the reference run's included).
fn measured(results: &Value) -> Value {
    let mut tests = results["tests"].clone();
    for test in tests.as_object_mut().expect("tests").values_mut() {
        let test = test.as_object_mut().expect("test");
        test.remove("duration_s");
        if let Some(reference) = test.get_mut("reference").and_then(Value::as_object_mut) {
            reference.remove("duration_s");
        }
    }
    tests
}

/// `junit.xml`, `results.csv` and `failures.csv` of a results directory.
fn ci_files(dir: &Path) -> (String, String, String) {
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    (read("junit.xml"), read("results.csv"), read("failures.csv"))
}

/// The test names of a CSV file (`test,status,duration`; the names here need no quoting).
fn csv_names(csv: &str) -> Vec<&str> {
    csv.lines()
        .map(|line| line.split(',').next().expect("a name"))
        .collect()
}

/// The `<testcase>` element of test `name` in `junit`.
fn junit_case<'a>(junit: &'a str, name: &str) -> &'a str {
    let start = junit
        .find(&format!("file=\"{name}\""))
        .unwrap_or_else(|| panic!("no testcase for {name}: {junit}"));
    let rest = &junit[start..];
    // A case ends with its start tag (`/>`) or its end tag, whichever comes first; text in
    // it escapes `>`, so neither occurs inside.
    let end = ["/>", "</testcase>"]
        .iter()
        .filter_map(|tag| rest.find(tag))
        .min()
        .unwrap_or(rest.len());
    &rest[..end]
}

fn arg(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// Sends a real signal with kill(1).
fn kill(signal: &str, pid: u32) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -{signal} {pid}");
}

/// `cases/arithmetic` in name order; the index of `mul_scalar`, where a fault holds the run.
fn arithmetic() -> (PathBuf, usize) {
    let dir = cases().join("arithmetic");
    let index = shader_tests(&dir)
        .iter()
        .position(|p| p.ends_with("mul_scalar.shader_test"))
        .expect("cases/arithmetic/mul_scalar.shader_test");
    (dir, index)
}

#[test]
fn names_do_not_depend_on_how_the_suite_was_given() {
    let root = temp_dir("names");
    let repo = cases().parent().expect("repo").to_path_buf();
    let whole = output({
        let mut c = run(&root.join("whole"), &["--backend", "mock"]);
        c.arg("cases").current_dir(&repo);
        c
    });
    assert!(whole.status.success(), "{}", text(&whole));
    let whole = results(&root.join("whole"));
    assert!(names(&whole).contains(&"cases/lowp/mul_vec4.shader_test".to_string()));
    for (i, spelling) in ["./cases/lowp/", "../cases/lowp", "cases/lowp/../lowp"]
        .iter()
        .enumerate()
    {
        let dir = root.join(format!("part{i}"));
        let mut c = run(&dir, &["--backend", "mock"]);
        let cwd = if spelling.starts_with("..") {
            repo.join("harness")
        } else {
            repo.clone()
        };
        c.arg(spelling).current_dir(cwd);
        let out = output(c);
        assert!(out.status.success(), "{spelling}: {}", text(&out));
        let part = names(&results(&dir));
        assert_eq!(part.len(), shader_tests(&cases().join("lowp")).len());
        assert!(
            part.iter().all(|n| n.starts_with("cases/lowp/")),
            "{part:?}"
        );
    }
    // A part of the suite against the whole: the rest was left out, not removed.
    let compare = output({
        let mut c = halfcheck();
        c.arg("compare")
            .arg(root.join("whole"))
            .arg(root.join("part0"));
        c
    });
    assert!(compare.status.success(), "{}", text(&compare));
    let report = text(&compare);
    assert!(report.contains("no differences"), "{report}");
    assert!(!report.contains("removed"), "{report}");
    assert!(report.contains("not compared: "), "{report}");
}

#[test]
fn tests_left_out_by_filters_are_not_removed_but_a_deleted_file_is() {
    let root = temp_dir("removed");
    let suite = root.join("suite");
    std::fs::create_dir_all(suite.join("a")).expect("dir");
    std::fs::write(suite.join(".halfcheck-suite"), "").expect("marker");
    for name in ["a/one", "a/two", "three"] {
        std::fs::copy(
            cases().join("arithmetic/div_scalar.shader_test"),
            suite.join(format!("{name}.shader_test")),
        )
        .expect("copy");
    }
    let all = output({
        let mut c = run(&root.join("all"), &["--backend", "mock"]);
        c.arg(&suite);
        c
    });
    assert!(all.status.success(), "{}", text(&all));
    let filtered = output({
        let mut c = run(&root.join("filtered"), &["--backend", "mock", "-x", "two"]);
        c.arg(&suite);
        c
    });
    assert!(filtered.status.success(), "{}", text(&filtered));
    let compare = |old: &str, new: &str| {
        let mut c = halfcheck();
        c.arg("compare").arg(root.join(old)).arg(root.join(new));
        text(&output(c))
    };
    let report = compare("all", "filtered");
    assert!(!report.contains("removed"), "{report}");
    assert!(report.contains("not compared: 1 tests"), "{report}");

    std::fs::remove_file(suite.join("a/two.shader_test")).expect("delete");
    let after = output({
        let mut c = run(&root.join("after"), &["--backend", "mock"]);
        c.arg(&suite);
        c
    });
    assert!(after.status.success(), "{}", text(&after));
    let report = compare("all", "after");
    assert!(
        report.contains("removed tests (1):\n  suite/a/two.shader_test"),
        "{report}"
    );
}

#[test]
fn two_files_that_would_share_a_name_stop_the_run_before_it_starts() {
    let root = temp_dir("collision");
    for side in ["left", "right"] {
        let dir = root.join(side).join("mrt");
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::copy(
            cases().join("arithmetic/div_scalar.shader_test"),
            dir.join("mrt.shader_test"),
        )
        .expect("copy");
    }
    let out = output({
        let mut c = run(&root.join("out"), &["--backend", "mock"]);
        c.arg(root.join("left/mrt")).arg(root.join("right/mrt"));
        c
    });
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("would both be named 'mrt/mrt.shader_test'"),
        "{}",
        text(&out)
    );
    assert!(!root.join("out").exists(), "nothing ran, nothing written");
}

#[test]
fn a_path_that_does_not_exist_or_is_a_device_is_an_error_even_beside_a_good_one() {
    let root = temp_dir("missing");
    let out = output({
        let mut c = run(&root.join("out"), &["--backend", "mock"]);
        c.arg(cases().join("lowp"))
            .arg(root.join("no-such-dir"))
            .arg("/dev/null");
        c
    });
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("no-such-dir: no such file or directory"));
    assert!(
        text(&out)
            .contains("/dev/null: a character device, not a .shader_test file or a directory"),
        "{}",
        text(&out)
    );
    assert!(!root.join("out").exists(), "nothing ran");
}

/// Issue 11: the 105 GL ES files of Debian's piglit, given as files, several sharing a file
/// name (`mrt.shader_test` x4), each get their own result on a real driver.
#[test]
fn piglit_gl_es_files_given_as_files_each_get_their_own_result() {
    let (Some(tests), Some(generated)) = (piglit("tests"), piglit("generated_tests")) else {
        return;
    };
    if !have_gl() {
        return;
    }
    let mut files: Vec<PathBuf> = shader_tests(&tests)
        .into_iter()
        .chain(shader_tests(&generated))
        .filter(|p| requires_gl_es(p))
        .collect();
    files.sort();
    let mut file_names: Vec<_> = files.iter().filter_map(|p| p.file_name()).collect();
    file_names.sort();
    file_names.dedup();
    assert!(file_names.len() < files.len(), "some files share a name");
    let dir = temp_dir("piglit-files");
    let out = output({
        let mut c = run(&dir, &["--backend", "gl", "-j", "2"]);
        c.args(&files);
        c
    });
    assert!(out.status.code().is_some_and(|c| c <= 1), "{}", text(&out));
    let r = results(&dir);
    let names = names(&r);
    assert_eq!(names.len(), files.len(), "one result per file");
    assert_eq!(files.len(), 105, "Debian piglit's GL ES shader_tests");
    assert!(names
        .iter()
        .any(|n| n == "spec/EXT_shader_framebuffer_fetch/execution/gles3/mrt.shader_test"));
    assert!(names.iter().all(|n| n.starts_with("spec/")), "{names:?}");
}

/// A `[require]` line of piglit's GL ES forms (`GL ES >= 3.0`, `GLSL ES >= 1.00`).
fn requires_gl_es(path: &Path) -> bool {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let Some(start) = text.find("[require]") else {
        return false;
    };
    text[start + "[require]".len()..]
        .lines()
        .map(str::trim_start)
        .take_while(|l| !l.starts_with('['))
        .any(|l| {
            let rest = l
                .strip_prefix("GL ES")
                .or_else(|| l.strip_prefix("GLSL ES"));
            rest.is_some_and(|r| r.trim_start().starts_with(['<', '>', '=']))
        })
}

#[test]
fn a_gl_driver_or_device_that_fails_to_open_is_exit_2_not_the_emulator() {
    if !have_gl() {
        return;
    }
    let root = temp_dir("no-fallback");
    let bogus = output({
        let mut c = run(&root.join("bogus"), &[]);
        c.arg(cases().join("lowp")).env("GALLIUM_DRIVER", "bogus");
        c
    });
    assert_eq!(bogus.status.code(), Some(2), "{}", text(&bogus));
    assert!(
        text(&bogus).contains("cannot open an EGL display"),
        "{}",
        text(&bogus)
    );
    let device = output({
        let mut c = run(&root.join("device"), &["--gl-device", "5"]);
        c.arg(cases().join("lowp"));
        c
    });
    assert_eq!(device.status.code(), Some(2), "{}", text(&device));
    assert!(
        text(&device).contains("no EGL device 5"),
        "{}",
        text(&device)
    );
}

#[test]
fn compare_says_when_the_backend_or_renderer_differ() {
    let root = temp_dir("differ");
    for backend in ["mock", "emu"] {
        let out = output({
            let mut c = run(&root.join(backend), &["--backend", backend]);
            c.arg(cases().join("lowp"));
            c
        });
        assert!(out.status.code().is_some_and(|c| c <= 1), "{}", text(&out));
    }
    let out = output({
        let mut c = run(
            &root.join("again"),
            &[
                "--backend",
                "emu",
                "--baseline",
                arg(&root.join("mock/results.json")),
            ],
        );
        c.arg(cases().join("lowp"));
        c
    });
    let report = text(&out);
    assert!(report.contains("the runs differ:\n  backend: mock -> emu\n  renderer: 'halfcheck mock backend' -> 'halfcheck f16 emulator (profile llvmpipe, mediump)'"), "{report}");
}

/// A worker killed by a real SIGKILL while it holds a test: that test is a crash, every other
/// test is measured.
#[test]
fn a_worker_killed_by_a_signal_mid_test_costs_that_test_only() {
    let (dir, index) = arithmetic();
    let root = temp_dir("worker-kill");
    let out_dir = root.join("out");
    // The fault only holds the worker at this test, so the kill lands mid-test.
    let parent = spawn(faulty(
        &out_dir,
        &[
            "--backend",
            "emu",
            "-j",
            "1",
            "--retries",
            "0",
            "--timeout",
            "120",
        ],
        &dir,
        "hang=/mul_scalar",
    ));
    wait_until("the run reaches mul_scalar", || {
        journal_lines(&out_dir) == 1 + index
    });
    std::thread::sleep(Duration::from_millis(300));
    let workers = children(parent.id());
    assert_eq!(workers.len(), 1, "one worker: {workers:?}");
    kill("KILL", workers[0]);
    let out = parent.wait_with_output().expect("parent ends");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let r = results(&out_dir);
    let tests = r["tests"].as_object().expect("tests");
    assert_eq!(tests.len(), shader_tests(&dir).len());
    let killed = &tests["cases/arithmetic/mul_scalar.shader_test"];
    assert_eq!(killed["status"], "crash");
    assert!(
        killed["reason"]
            .as_str()
            .is_some_and(|r| r.contains("SIGKILL")),
        "{killed}"
    );
    for (name, test) in tests {
        if !name.ends_with("/mul_scalar.shader_test") {
            assert_eq!(test["status"], "pass", "{name}: {test}");
            assert!(test["probes"][0]["observed"].is_array(), "{name} measured");
        }
    }
}

/// A fragment shader that loops forever. llvmpipe ends the loops of one invocation after
/// 65535 iterations in all (gallivm's loop limiter: one draw of this shader on 250x250 takes
/// about 2 s here), so the test draws it 100 times to keep the driver busy for minutes; the
/// worker is killed at the 2 s timeout and the other tests are measured.
#[test]
fn a_shader_that_loops_forever_on_llvmpipe_times_out_and_the_others_are_measured() {
    if !have_gl() {
        return;
    }
    let root = temp_dir("forever");
    let suite = root.join("suite");
    std::fs::create_dir_all(&suite).expect("dir");
    let draws = "draw rect -1 -1 2 2\n".repeat(100);
    std::fs::write(
        suite.join("forever.shader_test"),
        format!(
            "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n\n[vertex shader passthrough]\n\n\
             [fragment shader]\n#version 300 es\nprecision highp float;\n\
             uniform float step_size;\nout vec4 color;\nvoid main()\n{{\n\
             \tfloat x = 0.0;\n\twhile (x >= 0.0)\n\t\tx += step_size;\n\
             \tcolor = vec4(x, 0.0, 0.0, 1.0);\n}}\n\n\
             [test]\nuniform float step_size 0.0\n{draws}probe all rgba 0.0 0.0 0.0 1.0\n"
        ),
    )
    .expect("write");
    for name in ["div_scalar", "mul_scalar"] {
        std::fs::copy(
            cases().join(format!("arithmetic/{name}.shader_test")),
            suite.join(format!("{name}.shader_test")),
        )
        .expect("copy");
    }
    let out = output({
        let mut c = run(
            &root.join("out"),
            &[
                "--backend",
                "gl",
                "-j",
                "1",
                "--timeout",
                "2",
                "--retries",
                "0",
            ],
        );
        c.arg(&suite);
        c
    });
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let r = results(&root.join("out"));
    assert_eq!(r["tests"]["suite/forever.shader_test"]["status"], "timeout");
    for name in ["div_scalar", "mul_scalar"] {
        let test = &r["tests"][format!("suite/{name}.shader_test")];
        assert_eq!(test["status"], "pass", "{test}");
        assert_eq!(test["verdict"], "lowered", "{test}");
    }
}

/// Starts a run of `dir` into `results` whose worker hangs at `mul_scalar` (test `index`),
/// waits until the journal holds every test before it, then kills the parent with a real
/// SIGKILL and waits until its orphaned workers are gone too.
fn kill_at_mul_scalar(results: &Path, args: &[&str], dir: &Path, index: usize) {
    kill_when(
        faulty(results, args, dir, "hang=/mul_scalar"),
        "the run reaches mul_scalar",
        || journal_lines(results) == 1 + index,
    );
}

/// The parent killed with a real SIGKILL mid-run: its workers go too, `compare` reads its
/// journal, and `--resume` gives what an uninterrupted run gives (timings aside).
#[test]
fn a_run_killed_mid_run_resumes_to_the_results_of_an_uninterrupted_run() {
    let (dir, index) = arithmetic();
    let root = temp_dir("resume");
    let whole = output({
        let mut c = run(&root.join("whole"), &["--backend", "emu", "-j", "2"]);
        c.arg(&dir);
        c
    });
    assert!(whole.status.success(), "{}", text(&whole));

    let killed = root.join("killed");
    kill_at_mul_scalar(&killed, &["--backend", "emu", "-j", "1"], &dir, index);
    assert!(!killed.join("results.json").exists());

    let compare = output({
        let mut c = halfcheck();
        c.arg("compare").arg(root.join("whole")).arg(&killed);
        c
    });
    assert!(compare.status.success(), "{}", text(&compare));
    let report = text(&compare);
    assert!(report.contains("no differences"), "{report}");
    let left = shader_tests(&dir).len() - index;
    assert!(
        report.contains(&format!("not compared: {left} tests")),
        "{report}"
    );

    let resumed = output({
        let mut c = halfcheck();
        c.args(["run", "--resume"]).arg(&killed);
        c
    });
    assert!(resumed.status.success(), "{}", text(&resumed));
    assert!(
        text(&resumed).contains(&format!(
            "resuming: {index} of {} tests are in the journal",
            shader_tests(&dir).len()
        )),
        "{}",
        text(&resumed)
    );
    let (whole, resumed) = (results(&root.join("whole")), results(&killed));
    assert_eq!(measured(&whole), measured(&resumed));
    assert!(resumed["run"]["incomplete"].is_null());
    assert_eq!(journal_lines(&killed), 1 + shader_tests(&dir).len());
    // The resumed run writes the CI files of the whole run, as an uninterrupted run does.
    let ((junit, csv, failures), (whole_junit, whole_csv, _)) =
        (ci_files(&killed), ci_files(&root.join("whole")));
    assert_eq!(csv_names(&csv), csv_names(&whole_csv));
    assert_eq!(
        junit.matches("<testcase ").count(),
        whole_junit.matches("<testcase ").count()
    );
    assert_eq!(failures, "");
}

/// issue 25, item 10: a resumed run reported its wall time with the idle gap between the kill
/// and the resume (150 s for 28 s of work), and a resumed `--no-report` run wrote a report.
/// The run's time is now the work of its sessions, and `--no-report` is recorded with the
/// run's settings.
#[test]
fn a_resumed_run_reports_its_work_not_the_gap_and_keeps_no_report() {
    let (dir, index) = arithmetic();
    let killed = temp_dir("resume-times").join("killed");
    kill_at_mul_scalar(
        &killed,
        &["--backend", "mock", "-j", "1", "--no-report"],
        &dir,
        index,
    );
    // The night's idle gap: nothing runs.
    let gap = Duration::from_secs(4);
    std::thread::sleep(gap);
    let resumed = output({
        let mut c = halfcheck();
        c.args(["run", "--resume"]).arg(&killed);
        c
    });
    assert!(resumed.status.success(), "{}", text(&resumed));
    let r = results(&killed);
    let work = r["run"]["work_s"].as_f64().expect("work_s");
    assert!(work < gap.as_secs_f64() - 1.0, "{work} s of work: {r}");
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    // `mock on halfcheck mock backend: 24 tests in 1 s, lane mock, ...`
    let seconds: u64 = stdout
        .lines()
        .find_map(|line| line.split_once(" tests in "))
        .and_then(|(_, rest)| rest.split_once(" s,"))
        .and_then(|(s, _)| s.parse().ok())
        .unwrap_or_else(|| panic!("no time in the summary: {stdout}"));
    assert!(seconds < gap.as_secs() - 1, "{stdout}");
    assert!(!killed.join("report").exists(), "{}", text(&resumed));
}

/// SIGTERM (as a CI job's timeout sends it): no new test starts, results.json is written from
/// what finished, and the test in flight is left for `--resume`.
#[test]
fn sigterm_writes_results_json_from_what_finished() {
    let (dir, index) = arithmetic();
    let out_dir = temp_dir("sigterm").join("out");
    let parent = spawn(faulty(
        &out_dir,
        &["--backend", "mock", "-j", "1"],
        &dir,
        "hang=/mul_scalar",
    ));
    wait_until("the run reaches mul_scalar", || {
        journal_lines(&out_dir) == 1 + index
    });
    kill("TERM", parent.id());
    let out = parent.wait_with_output().expect("parent ends");
    assert_eq!(out.status.code(), Some(128 + 15), "{}", text(&out));
    let r = results(&out_dir);
    assert_eq!(r["run"]["incomplete"], "interrupted by SIGTERM");
    // Issue 35: nothing vanishes: what did not finish, the test in flight included, is
    // `notrun` in every output.
    let total = shader_tests(&dir).len();
    assert_eq!(names(&r).len(), total, "{r}");
    let not_run = r["tests"]
        .as_object()
        .expect("tests")
        .values()
        .filter(|t| t["status"] == "notrun")
        .count();
    assert_eq!(
        not_run,
        total - index,
        "what finished, and not the test in flight"
    );
    let (junit, csv, _) = ci_files(&out_dir);
    assert_eq!(csv.matches(",notrun,").count(), total - index, "{csv}");
    assert_eq!(junit.matches("<testcase ").count(), total, "{junit}");
    let resumed = output({
        let mut c = halfcheck();
        c.args(["run", "--resume"]).arg(&out_dir);
        c
    });
    assert!(resumed.status.success(), "{}", text(&resumed));
    assert_eq!(names(&results(&out_dir)).len(), shader_tests(&dir).len());
}

/// SIGTERM while the workers hang opening their backend (a driver stuck in its
/// initialisation): the run stops at once, says why, and leaves no worker behind.
#[test]
fn a_signal_while_the_workers_hang_opening_their_backend_stops_the_run_at_once() {
    let (dir, _) = arithmetic();
    let out_dir = temp_dir("hang-start").join("out");
    let parent = spawn(faulty(
        &out_dir,
        &["--backend", "mock", "-j", "2"],
        &dir,
        "hang-start=mock",
    ));
    let pid = parent.id();
    wait_until("both workers started", || children(pid).len() == 2);
    let workers = children(pid);
    kill("TERM", pid);
    // Without the interrupt, the parent would wait for the 60 s start timeout.
    let out = parent.wait_with_output().expect("parent ends");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("the run was interrupted while a worker opened its backend"),
        "{}",
        text(&out)
    );
    for worker in workers {
        assert!(!alive(worker), "worker {worker} left behind");
    }
    assert!(!out_dir.join("results.json").exists());
}

#[test]
fn a_damaged_journal_line_is_reported_and_its_test_runs_again() {
    let dir = cases().join("lowp");
    let out_dir = temp_dir("damaged").join("out");
    let first = output({
        let mut c = run(&out_dir, &["--backend", "mock"]);
        c.arg(&dir);
        c
    });
    assert!(first.status.success(), "{}", text(&first));
    let journal = out_dir.join("results.jsonl");
    let text_before = std::fs::read_to_string(&journal).expect("journal");
    let mut lines: Vec<String> = text_before.lines().map(str::to_string).collect();
    let damaged_name = serde_json::from_str::<Value>(&lines[2]).expect("line")["name"]
        .as_str()
        .expect("name")
        .to_string();
    let half = lines[2].len() / 2;
    lines[2].truncate(half);
    std::fs::write(&journal, lines.join("\n") + "\n").expect("damage");
    std::fs::remove_file(out_dir.join("results.json")).expect("as if killed");

    let compare = output({
        let mut c = halfcheck();
        c.arg("compare").arg(&journal).arg(&journal);
        c
    });
    assert!(
        text(&compare).contains("results.jsonl:3: damaged journal line ("),
        "{}",
        text(&compare)
    );
    let resumed = output({
        let mut c = halfcheck();
        c.args(["run", "--resume"]).arg(&out_dir);
        c
    });
    assert!(resumed.status.success(), "{}", text(&resumed));
    assert!(
        text(&resumed).contains("results.jsonl:3: damaged journal line (")
            && text(&resumed).contains("its test runs again"),
        "{}",
        text(&resumed)
    );
    let r = results(&out_dir);
    assert_eq!(names(&r).len(), shader_tests(&dir).len());
    assert_eq!(r["tests"][&damaged_name]["status"], "pass");

    let mut header = std::fs::read_to_string(&journal).expect("journal");
    header.replace_range(0..1, "[");
    std::fs::write(&journal, header).expect("damage the header");
    std::fs::remove_file(out_dir.join("results.json")).expect("as if killed");
    let broken = output({
        let mut c = halfcheck();
        c.args(["run", "--resume"]).arg(&out_dir);
        c
    });
    assert_eq!(broken.status.code(), Some(2), "{}", text(&broken));
    assert!(
        text(&broken).contains("cannot resume: ")
            && text(&broken).contains("results.jsonl:1: not a halfcheck journal header"),
        "{}",
        text(&broken)
    );
}

#[test]
fn an_existing_results_directory_is_not_overwritten_without_force() {
    let out_dir = temp_dir("force").join("out");
    let go = |extra: &[&str]| {
        let mut args = vec!["--backend", "mock"];
        args.extend(extra);
        let mut c = run(&out_dir, &args);
        c.arg(cases().join("lowp"));
        output(c)
    };
    assert!(go(&[]).status.success());
    let again = go(&[]);
    assert_eq!(again.status.code(), Some(2), "{}", text(&again));
    assert!(text(&again).contains("pass --force to replace them"));
    assert!(go(&["--force"]).status.success());
}

/// A results directory the user cannot write: a clear error before any test runs. As root
/// (who may write anywhere) the run is made as `nobody`, with the binary and the tests linked
/// or copied where `nobody` can reach them (a fresh clone may sit in a private directory).
#[test]
fn a_read_only_results_directory_is_a_clear_error() {
    let root = temp_dir("read-only");
    let out_dir = root.join("out");
    std::fs::create_dir_all(&out_dir).expect("dir");
    let mode = |path: &Path, mode: u32| {
        let mut permissions = std::fs::metadata(path).expect("meta").permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, mode);
        std::fs::set_permissions(path, permissions).expect("chmod");
    };
    mode(&root, 0o755);
    mode(&out_dir, 0o555);
    let exe = root.join("halfcheck");
    let built = Path::new(env!("CARGO_BIN_EXE_halfcheck"));
    std::fs::hard_link(built, &exe)
        .or_else(|_| std::fs::copy(built, &exe).map(|_| ()))
        .expect("binary");
    let test = root.join("div_scalar.shader_test");
    std::fs::copy(cases().join("lowp/div_scalar.shader_test"), &test).expect("test");
    let mut c = Command::new(&exe);
    c.args(["run", "--backend", "mock", "--results"])
        .arg(&out_dir)
        .arg(&test);
    if std::fs::metadata("/proc/self").expect("/proc").uid() == 0 {
        c.uid(65534).gid(65534);
    }
    let out = output(c);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains(&format!(
            "cannot write {}: Permission denied",
            out_dir.join("results.jsonl").display()
        )),
        "{}",
        text(&out)
    );
}

#[test]
fn shards_merged_equal_an_unsharded_run() {
    let dir = cases().join("arithmetic");
    let root = temp_dir("shards");
    let go = |out: &str, extra: &[&str]| {
        let mut args = vec!["--backend", "emu", "-j", "2"];
        args.extend(extra);
        let mut c = run(&root.join(out), &args);
        c.arg(&dir);
        let o = output(c);
        assert!(o.status.success(), "{}", text(&o));
    };
    go("whole", &[]);
    let mut sizes = Vec::new();
    for k in 1..=3 {
        go(&format!("shard{k}"), &["--shard", &format!("{k}/3")]);
        sizes.push(names(&results(&root.join(format!("shard{k}")))).len());
    }
    assert!(sizes.iter().all(|&n| n > 0), "{sizes:?}");
    // A shard alone compared with the whole: the other shards' tests are not removed.
    let compare = output({
        let mut c = halfcheck();
        c.arg("compare")
            .arg(root.join("whole"))
            .arg(root.join("shard2"));
        c
    });
    assert!(!text(&compare).contains("removed"), "{}", text(&compare));

    let merged = output({
        let mut c = halfcheck();
        c.arg("merge")
            .arg(root.join("shard3"))
            .arg(root.join("shard1"))
            .arg(root.join("shard2"))
            .arg("-o")
            .arg(root.join("merged"));
        c
    });
    assert!(merged.status.success(), "{}", text(&merged));
    let (whole, merged) = (results(&root.join("whole")), results(&root.join("merged")));
    assert_eq!(sizes.iter().sum::<usize>(), names(&whole).len());
    assert_eq!(measured(&whole), measured(&merged));
    assert_eq!(whole["run"]["selection"], merged["run"]["selection"]);
    // The merged run writes the CI files of the whole run.
    let ((junit, csv, _), (whole_junit, whole_csv, _)) = (
        ci_files(&root.join("merged")),
        ci_files(&root.join("whole")),
    );
    assert_eq!(csv_names(&csv), csv_names(&whole_csv));
    assert_eq!(
        junit.matches("<testcase ").count(),
        whole_junit.matches("<testcase ").count()
    );
    // A merge is judged as a run is: here against the whole run as its baseline.
    let judged = output({
        let mut c = halfcheck();
        c.arg("merge")
            .arg(root.join("shard1"))
            .arg(root.join("shard2"))
            .arg(root.join("shard3"))
            .arg("-o")
            .arg(root.join("judged"))
            .arg("--baseline")
            .arg(root.join("whole"));
        c
    });
    assert!(judged.status.success(), "{}", text(&judged));
    assert!(
        text(&judged)
            .starts_with("exit 0: against the baseline 0 regressions, 0 fixes; 0 flakes\n"),
        "{}",
        text(&judged)
    );
    assert!(
        text(&judged).contains("no differences\n"),
        "{}",
        text(&judged)
    );

    let twice = output({
        let mut c = halfcheck();
        c.arg("merge")
            .arg(root.join("shard1"))
            .arg(root.join("shard1"))
            .arg("-o")
            .arg(root.join("twice"));
        c
    });
    assert_eq!(twice.status.code(), Some(2), "{}", text(&twice));
}

/// A result that changes when run again is a flake: reported apart in the summary, in
/// junit.xml no pass but `<skipped message="flake: ...">` with its attempts in `<system-out>`
/// (issue 35), `flake` in results.csv, and never failing the run. A steady failure is run again too and stays a failure.
#[test]
fn a_result_that_changes_when_rerun_is_a_flake_reported_apart_and_a_steady_failure_is_not() {
    let root = temp_dir("flake");
    let go = |name: &str, fault: &str| {
        let state = root.join(format!("{name}-state"));
        std::fs::create_dir_all(&state).expect("dir");
        let mut c = faulty(
            &root.join(name),
            &["--backend", "mock", "-j", "1"],
            &cases().join("lowp"),
            fault,
        );
        c.env("HALFCHECK_WORKER_FAULT_STATE", &state);
        output(c)
    };
    let flaky_run = go("flaky", "crash-once=/div_scalar");
    assert!(flaky_run.status.success(), "{}", text(&flaky_run));
    let r = results(&root.join("flaky"));
    let flaky = &r["tests"]["cases/lowp/div_scalar.shader_test"];
    assert_eq!(flaky["status"], "pass");
    assert_eq!(flaky["flake"], true);
    assert_eq!(flaky["attempts"][0]["status"], "crash");
    let summary = text(&flaky_run);
    assert!(
        summary.contains(
            "1 flakes, reported apart (a flake never fails a run):\n\
             flake: cases/lowp/div_scalar.shader_test: crash, then pass (changed when run again); \
             attempt 1: crash: "
        ),
        "{summary}"
    );
    let (junit, results_csv, failures_csv) = ci_files(&root.join("flaky"));
    assert!(
        junit.contains("tests=\"5\" failures=\"0\" errors=\"0\""),
        "{junit}"
    );
    let case = junit_case(&junit, "cases/lowp/div_scalar.shader_test");
    assert!(
        case.contains("<skipped message=\"flake: crash, then pass (changed when run again)\"")
            && !case.contains("<failure")
            && !case.contains("<error"),
        "{case}"
    );
    assert!(
        junit.contains(
            "<system-out>flake: crash, then pass (changed when run again)\nattempt 1: crash: "
        ),
        "{junit}"
    );
    assert!(results_csv.contains("cases/lowp/div_scalar.shader_test,flake,"));
    assert_eq!(
        csv_names(&failures_csv),
        ["cases/lowp/div_scalar.shader_test"]
    );

    let steady_run = go("steady", "crash=/mul_vec4");
    assert_eq!(steady_run.status.code(), Some(1), "{}", text(&steady_run));
    let r = results(&root.join("steady"));
    let steady = &r["tests"]["cases/lowp/mul_vec4.shader_test"];
    assert_eq!(steady["status"], "crash");
    assert!(steady["flake"].is_null(), "{steady}");
    assert_eq!(steady["attempts"].as_array().map(Vec::len), Some(1));
    assert!(text(&steady_run).starts_with("exit 1: 1 failed tests; 0 flakes\n"));
    let (junit, _, _) = ci_files(&root.join("steady"));
    let case = junit_case(&junit, "cases/lowp/mul_vec4.shader_test");
    assert!(
        case.contains("<error message=\"failed: crash\" type=\"failed\">"),
        "{case}"
    );
}

/// issue 25, item 8: a run refused before it starts (here a renderer that does not match the
/// expectations, exit 2) left an empty journal, so the next run refused the directory and
/// `--resume` found an empty journal. It leaves none now. And the README's first command
/// works twice: the default `results/` is replaced when it holds only an earlier run's files,
/// never when it holds anything else.
#[test]
fn a_refused_run_leaves_no_journal_and_the_default_results_directory_is_rerun() {
    let root = temp_dir("refused");
    let expectations = root.join("llvmpipe.yaml");
    std::fs::write(
        &expectations,
        "renderer: '^llvmpipe'
",
    )
    .expect("write");
    let refused = output({
        let mut c = run(
            &root.join("out"),
            &["--backend", "mock", "--expectations", arg(&expectations)],
        );
        c.arg(cases().join("lowp"));
        c
    });
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(text(&refused).contains("the renderer is 'halfcheck mock backend'"));
    assert!(!root.join("out/results.jsonl").exists());
    let next = output({
        let mut c = run(&root.join("out"), &["--backend", "mock"]);
        c.arg(cases().join("lowp"));
        c
    });
    assert!(next.status.success(), "{}", text(&next));

    let first_command = || {
        let mut c = halfcheck();
        c.current_dir(&root)
            .args(["run", "--backend", "mock", "--no-report"])
            .arg(cases().join("lowp"));
        output(c)
    };
    for _ in 0..2 {
        let o = first_command();
        assert!(o.status.success(), "{}", text(&o));
        assert!(root.join("results/results.json").is_file());
    }
    std::fs::write(root.join("results/notes.txt"), "mine\n").expect("write");
    let kept = first_command();
    assert_eq!(kept.status.code(), Some(2), "{}", text(&kept));
    assert!(root.join("results/notes.txt").is_file());
}

/// issue 25, item 2: a shard job that dies before uploading must not turn the nightly green on
/// part of the corpus. Each shard's journal records `--shard K/N`, so `merge` fails (exit 2)
/// on a missing shard or one given twice, and says which.
#[test]
fn merge_fails_on_a_missing_or_duplicate_shard_and_names_it() {
    let root = temp_dir("merge-missing");
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let o = output({
            let mut c = run(
                &root.join(format!("shard{k}")),
                &["--backend", "mock", "--shard", &shard],
            );
            c.arg(cases());
            c
        });
        assert!(o.status.success(), "{}", text(&o));
    }
    let merge = |inputs: &[&str], out: &str| {
        output({
            let mut c = halfcheck();
            c.arg("merge");
            for input in inputs {
                c.arg(root.join(input));
            }
            c.arg("-o").arg(root.join(out));
            c
        })
    };
    let missing = merge(&["shard1", "shard3"], "missing");
    assert_eq!(missing.status.code(), Some(2), "{}", text(&missing));
    assert!(
        text(&missing).contains("shard 2/3 missing: the inputs hold 2 of 3 shards"),
        "{}",
        text(&missing)
    );
    assert!(!root.join("missing/results.json").exists());
    let twice = merge(&["shard1", "shard2", "shard2", "shard3"], "twice");
    assert_eq!(twice.status.code(), Some(2), "{}", text(&twice));
    assert!(
        text(&twice).contains("shard 2/3 is given twice"),
        "{}",
        text(&twice)
    );
    let whole = merge(&["shard2", "shard3", "shard1"], "whole");
    assert!(whole.status.success(), "{}", text(&whole));
}

/// issue 25, item 1: deqp-runner calls a test a flake only when one attempt met its
/// expectation. Attempts that differ but all miss (a crash, then an unexpected pass where the
/// expectations say `fail`) are the worst of them, and they fail the run and junit.xml.
#[test]
fn attempts_that_differ_but_all_miss_are_the_worst_of_them_and_fail_the_run() {
    let root = temp_dir("all-miss");
    let state = root.join("state");
    std::fs::create_dir_all(&state).expect("dir");
    let expectations = root.join("expectations.yaml");
    std::fs::write(
        &expectations,
        "default: {status: pass}\ntests:\n  - name: cases/lowp/div_scalar.shader_test\n    \
         status: fail\n    reason: a driver bug\n",
    )
    .expect("write");
    let mut c = faulty(
        &root.join("run"),
        &[
            "--backend",
            "mock",
            "-j",
            "1",
            "--retries",
            "2",
            "--expectations",
            arg(&expectations),
        ],
        &cases().join("lowp"),
        "crash-once=/div_scalar",
    );
    c.env("HALFCHECK_WORKER_FAULT_STATE", &state);
    let out = output(c);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let r = results(&root.join("run"));
    let test = &r["tests"]["cases/lowp/div_scalar.shader_test"];
    assert_eq!(test["status"], "crash", "{test}");
    assert!(test["flake"].is_null(), "{test}");
    let attempts: Vec<&Value> = test["attempts"]
        .as_array()
        .expect("attempts")
        .iter()
        .collect();
    assert_eq!(
        attempts
            .iter()
            .map(|a| a["status"].clone())
            .collect::<Vec<_>>(),
        ["pass", "pass"]
    );
    let (junit, results_csv, failures_csv) = ci_files(&root.join("run"));
    assert!(
        junit.contains("tests=\"5\" failures=\"0\" errors=\"1\""),
        "{junit}"
    );
    assert!(results_csv.contains("cases/lowp/div_scalar.shader_test,crash,"));
    assert_eq!(
        csv_names(&failures_csv),
        ["cases/lowp/div_scalar.shader_test"]
    );
}

#[test]
fn a_test_list_runs_the_tests_it_names_and_max_fails_stops_the_run() {
    let root = temp_dir("list");
    let list = root.join("list.txt");
    std::fs::write(
        &list,
        "# two of cases/lowp\ncases/lowp/div_scalar.shader_test\n\ncases/lowp/mul_vec4.shader_test\n",
    )
    .expect("write");
    let out = output({
        let mut c = run(
            &root.join("listed"),
            &["--backend", "mock", "--test-list", arg(&list)],
        );
        c.arg(cases());
        c
    });
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        names(&results(&root.join("listed"))),
        [
            "cases/lowp/div_scalar.shader_test",
            "cases/lowp/mul_vec4.shader_test"
        ]
    );
    std::fs::write(&list, "cases/lowp/no_such.shader_test\n").expect("write");
    let unknown = output({
        let mut c = run(
            &root.join("unknown"),
            &["--backend", "mock", "--test-list", arg(&list)],
        );
        c.arg(cases());
        c
    });
    assert_eq!(unknown.status.code(), Some(2), "{}", text(&unknown));
    assert!(text(&unknown).contains("1 names match no test under the paths given"));

    let stopped = output(faulty(
        &root.join("stopped"),
        &[
            "--backend",
            "mock",
            "-j",
            "1",
            "--retries",
            "0",
            "--max-fails",
            "1",
        ],
        &cases().join("arithmetic"),
        "crash=/add_",
    ));
    assert_eq!(stopped.status.code(), Some(1), "{}", text(&stopped));
    let r = results(&root.join("stopped"));
    // Issue 35: the tests it did not get to are `notrun`, not gone.
    let ran: Vec<&String> = r["tests"]
        .as_object()
        .expect("tests")
        .iter()
        .filter(|(_, t)| t["status"] != "notrun")
        .map(|(name, _)| name)
        .collect();
    assert_eq!(ran, ["cases/arithmetic/add_overflow_inf.shader_test"]);
    assert_eq!(
        names(&r).len(),
        shader_tests(&cases().join("arithmetic")).len()
    );
    assert_eq!(
        r["run"]["incomplete"],
        "stopped after 1 unexpected results (--max-fails)"
    );
}
