//! Issue 35: a nightly that holds up in a real CI. Each test replays one finding of the trial
//! (`cases/` on llvmpipe, shards, a SIGKILL, `--resume`, flakes, `export --piglit`, stale
//! expectations) on the mock backend or the emulator where the driver adds nothing, and on
//! llvmpipe where it does (skipped without EGL unless `HALFCHECK_REQUIRE_GL=1`).

mod common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `halfcheck run --results DIR ARGS...`.
fn run(dir: &Path, args: &[&str]) -> Command {
    let mut command = halfcheck();
    command.arg("run").arg("--results").arg(dir).args(args);
    command
}

fn output(mut command: Command) -> Output {
    command.output().expect("runs")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn results(dir: &Path) -> Value {
    serde_json::from_str(&read(&dir.join("results.json"))).expect("results.json is JSON")
}

/// The status of each test in `results.csv` (`test,status,duration`), by name.
fn csv_statuses(dir: &Path) -> Vec<(String, String)> {
    read(&dir.join("results.csv"))
        .lines()
        .map(|line| {
            let mut fields = line.split(',');
            let name = fields.next().expect("a name").to_string();
            (name, fields.next().expect("a status").to_string())
        })
        .collect()
}

/// `cases/arithmetic`: two dozen tests, enough for shards and retries.
fn arithmetic() -> PathBuf {
    cases().join("arithmetic")
}

/// Starts `command`, waits until its journal in `dir` holds `lines` lines (the header
/// included), then kills it with a real SIGKILL and waits until its workers are gone.
fn kill_when_journal_holds(mut command: Command, dir: &Path, lines: usize) {
    command.env("HALFCHECK_WORKER_FAULT", "hang=.");
    kill_when(command, "the journal fills", || journal_lines(dir) >= lines);
}

/// `halfcheck run --resume DIR ARGS...` without `GALLIUM_NOSSE` in its environment.
fn resume(dir: &Path, args: &[&str]) -> Output {
    output({
        let mut c = halfcheck();
        c.args(["run", "--resume"])
            .arg(dir)
            .args(args)
            .env_remove("GALLIUM_NOSSE");
        c
    })
}

/// [`resume`]'s output, which must say that the journal's `GALLIUM_NOSSE=1` was set, and
/// exit 1.
fn resume_without_nosse(dir: &Path, args: &[&str]) -> String {
    let resumed = resume(dir, args);
    let shown = text(&resumed);
    assert_eq!(resumed.status.code(), Some(1), "{shown}");
    assert!(
        shown.contains("resume: GALLIUM_NOSSE=1 set from the journal (it is unset here)"),
        "{shown}"
    );
    shown
}

/// Expectations in `root` that expect the `add_` cases to fail (the mock passes them: each
/// is an unexpected improvement), listed under `flakes` too when `flaky`; and how many
/// `add_` cases there are.
fn add_cases_expected_to_fail(root: &Path, flaky: bool) -> (PathBuf, usize) {
    let path = root.join("expect.yaml");
    let flakes = if flaky {
        "flakes: ['^cases/arithmetic/add_']\n"
    } else {
        ""
    };
    std::fs::write(
        &path,
        format!(
            "default: {{status: pass}}\ntests:\n  - regex: '^cases/arithmetic/add_'\n    \
             status: fail\n    reason: known\n{flakes}"
        ),
    )
    .expect("writes");
    let add = shader_tests(&arithmetic())
        .iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("add_"))
        })
        .count();
    assert!(add > 1, "{add} add_ cases");
    (path, add)
}

/// Item 1: shard 2 of 2 killed by SIGKILL before it ran a test merged green, its tests
/// vanished from junit.xml. Now the merge exits 1, and each of its tests is `notrun` in
/// results.json, results.csv, failures.csv, junit.xml (a failure) and the report `merge`
/// writes, as `run` does.
#[test]
fn a_killed_shard_merges_red_with_each_missing_test_written_as_not_run() {
    let root = temp_dir("nightly-killed-shard");
    let whole = shader_tests(&arithmetic()).len();
    let first = output({
        let mut c = run(
            &root.join("kg-1"),
            &["--backend", "mock", "--shard", "1/2", "--no-report"],
        );
        c.arg(arithmetic());
        c
    });
    assert!(first.status.success(), "{}", text(&first));
    let mut second = run(
        &root.join("kg-2"),
        &[
            "--backend",
            "mock",
            "--shard",
            "2/2",
            "-j",
            "1",
            "--no-report",
        ],
    );
    second.arg(arithmetic());
    // The header only: the worker hangs on its first test.
    kill_when_journal_holds(second, &root.join("kg-2"), 1);
    let ran = results(&root.join("kg-1"))["tests"]
        .as_object()
        .expect("tests")
        .len();
    let missing = whole - ran;
    assert!(missing > 0 && ran > 0, "{ran} of {whole} in shard 1");

    let out = root.join("merged");
    let merged = output({
        let mut c = halfcheck();
        c.arg("merge")
            .arg(root.join("kg-1"))
            .arg(root.join("kg-2"))
            .arg("-o")
            .arg(&out);
        c
    });
    let shown = text(&merged);
    assert_eq!(merged.status.code(), Some(1), "{shown}");
    assert!(
        shown.starts_with(&format!(
            "exit 1: 0 failed tests; {missing} not run; 0 flakes\n"
        )),
        "{shown}"
    );
    assert!(
        shown.contains(&format!("\n{missing} results that fail the run: ")),
        "{shown}"
    );
    let r = results(&out);
    let not_run: Vec<&String> = r["tests"]
        .as_object()
        .expect("tests")
        .iter()
        .filter(|(_, t)| t["status"] == "notrun")
        .map(|(name, _)| name)
        .collect();
    assert_eq!(not_run.len(), missing, "{r}");
    let reason = r["tests"][not_run[0]]["reason"].as_str().expect("a reason");
    assert!(
        reason.starts_with("not run: no shard holds it (") && reason.contains("kg-2"),
        "{reason}"
    );
    let csv = csv_statuses(&out);
    assert_eq!(csv.len(), whole);
    assert_eq!(csv.iter().filter(|(_, s)| s == "notrun").count(), missing);
    assert_eq!(read(&out.join("failures.csv")).lines().count(), missing);
    let junit = read(&out.join("junit.xml"));
    assert_eq!(junit.matches("<testcase ").count(), whole, "{junit}");
    assert_eq!(
        junit.matches("<failure message=\"not run: ").count(),
        missing,
        "{junit}"
    );
    assert!(
        junit.contains(&format!("failures=\"{missing}\"")),
        "{junit}"
    );
    assert_valid_junit(&out.join("junit.xml"));
    let index = read(&out.join("report/index.html"));
    assert!(index.contains(&format!("{missing} not run")), "{index}");
}

/// Item 2: `--resume` forgot how the run was judged: it refused `-j`, refused to run
/// without the run's `GALLIUM_NOSSE=1`, and, given it, judged by status alone. Now the
/// journal records the judge and the environment: the resumed run sets the variable from
/// the journal (saying so), is judged by the run's expectations, accepts `-j` and
/// `--timeout`, and refuses a judging flag given again with another value, naming both.
#[test]
fn a_resumed_run_is_judged_as_the_run_it_continues() {
    let root = temp_dir("nightly-resume");
    let (expectations, add) = add_cases_expected_to_fail(&root, false);
    let dir = root.join("night");
    let mut first = run(
        &dir,
        &[
            "--backend",
            "mock",
            "-j",
            "1",
            "--retries",
            "0",
            "--no-report",
            "--expectations",
            expectations.to_str().expect("utf-8"),
        ],
    );
    first.arg(arithmetic()).env("GALLIUM_NOSSE", "1");
    kill_when_journal_holds(first, &dir, 1);

    let refused = resume(&dir, &["--retries", "2"]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(
        text(&refused).contains(&format!(
            "--retries 2 was given, but the run in {} recorded 0",
            dir.display()
        )),
        "{}",
        text(&refused)
    );
    let other = root.join("other.yaml");
    std::fs::write(&other, "default: {status: pass}\n").expect("writes");
    let refused = resume(&dir, &["--expectations", other.to_str().expect("utf-8")]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(
        text(&refused).contains(&format!(
            "--expectations {} was given, but the run in {} recorded {}",
            other.display(),
            dir.display(),
            expectations.display()
        )),
        "{}",
        text(&refused)
    );

    let shown = resume_without_nosse(&dir, &["-j", "2", "--timeout", "30"]);
    assert!(
        shown.starts_with(&format!(
            "exit 1: {add} unexpected results ({add} improvements)"
        )),
        "{shown}"
    );
    assert!(
        shown.contains(&format!("judged against {}", expectations.display())),
        "{shown}"
    );
}

/// Item 2 on llvmpipe: `GALLIUM_NOSSE=1` changes the renderer (`128 bits`), so a resumed
/// NOSSE night whose workers did not get the variable is refused. Set from the journal, the
/// workers inherit it: the resumed run opens the same renderer and is the NOSSE lane.
#[test]
fn a_resumed_nosse_night_gives_its_workers_the_recorded_variable_on_llvmpipe() {
    if !have_gl() {
        return;
    }
    let dir = temp_dir("nightly-resume-gl").join("night");
    let mut first = run(
        &dir,
        &["--backend", "gl", "-j", "1", "--no-report", "-t", "/add_"],
    );
    first.arg(arithmetic()).env("GALLIUM_NOSSE", "1");
    kill_when_journal_holds(first, &dir, 1);
    // On NOSSE the cases' binary16 expected values fail: it ran, on the NOSSE lane.
    let shown = resume_without_nosse(&dir, &[]);
    assert!(
        shown.starts_with("exit 1: 5 failed tests; 0 flakes\n"),
        "{shown}"
    );
    assert!(shown.contains(", lane llvmpipe-nosse, "), "{shown}");
    let r = results(&dir);
    assert_eq!(r["run"]["environment"]["GALLIUM_NOSSE"], "1", "{r}");
}

/// Item 3: with expectations and a baseline, the console said `192 unexpected results (192
/// regressions, 0 fixes)` and then, against the baseline, `no differences`; a run without a
/// baseline reported regressions. The two questions are counted apart now, in the console
/// and the report.
#[test]
fn unexpected_results_and_regressions_are_counted_apart() {
    let root = temp_dir("nightly-two-counts");
    let first = output({
        let mut c = run(&root.join("base"), &["--backend", "emu", "--no-report"]);
        c.arg(arithmetic());
        c
    });
    assert!(first.status.success(), "{}", text(&first));
    let base = results(&root.join("base"));
    let (name, test) = base["tests"]
        .as_object()
        .expect("tests")
        .iter()
        .find(|(_, t)| t["verdict"] == "lowered")
        .expect("a lowered test");
    assert_eq!(test["status"], "pass");
    let expectations = root.join("expect.yaml");
    std::fs::write(
        &expectations,
        format!("tests:\n  - name: {name}\n    verdict: not-lowered\n    reason: a stale guess\n"),
    )
    .expect("writes");
    let night = |dir: &str, baseline: bool| {
        output({
            let mut c = run(&root.join(dir), &["--backend", "emu", "--expectations"]);
            c.arg(&expectations);
            if baseline {
                c.arg("--baseline").arg(root.join("base"));
            }
            c.arg(arithmetic());
            c
        })
    };
    let both = night("both", true);
    let stdout = String::from_utf8_lossy(&both.stdout);
    assert_eq!(both.status.code(), Some(1), "{}", text(&both));
    assert_eq!(
        stdout.lines().next(),
        Some(
            "exit 1: 1 unexpected results (1 improvements); against the baseline 0 \
             regressions, 0 fixes; 0 flakes"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("\nno differences\n"), "{stdout}");
    let index = read(&root.join("both/report/index.html"));
    assert!(
        index.contains("1 unexpected results (1 improvements); against the baseline 0 regressions"),
        "{index}"
    );
    let alone = night("alone", false);
    let stdout = String::from_utf8_lossy(&alone.stdout);
    assert_eq!(
        stdout.lines().next(),
        Some("exit 1: 1 unexpected results (1 improvements); 0 flakes"),
        "{stdout}"
    );
    assert!(!stdout.contains("regression"), "{stdout}");
}

/// Item 4: with `flakes: [...]` excusing unexpected results, the progress said `flake 0`,
/// the summary `5 flakes`, results.csv the status and junit.xml a pass. One count now: the
/// review's.
#[test]
fn a_flake_the_expectations_excuse_is_counted_once_and_shown_as_a_flake_everywhere() {
    let root = temp_dir("nightly-flakes");
    let (expectations, add) = add_cases_expected_to_fail(&root, true);
    let dir = root.join("night");
    let night = output({
        let mut c = run(
            &dir,
            &["--backend", "mock", "--no-report", "--expectations"],
        );
        c.arg(&expectations).arg(arithmetic());
        c
    });
    let shown = text(&night);
    assert!(night.status.success(), "{shown}");
    let stderr = String::from_utf8_lossy(&night.stderr);
    let last_progress = stderr
        .lines()
        .rfind(|l| l.starts_with('['))
        .expect("a progress line");
    assert!(
        last_progress.contains(&format!("retried 0, flake {add}")),
        "{stderr}"
    );
    assert!(
        shown.starts_with(&format!(
            "exit 0: 0 unexpected results (0 improvements); {add} flakes"
        )),
        "{shown}"
    );
    let flakes: Vec<String> = csv_statuses(&dir)
        .into_iter()
        .filter(|(_, s)| s == "flake")
        .map(|(n, _)| n)
        .collect();
    assert_eq!(flakes.len(), add, "{flakes:?}");
    assert!(flakes
        .iter()
        .all(|n| n.starts_with("cases/arithmetic/add_")));
    let junit = read(&dir.join("junit.xml"));
    assert_eq!(
        junit.matches("<skipped message=\"flake: ").count(),
        add,
        "{junit}"
    );
    assert!(junit.contains(&format!("skipped=\"{add}\"")), "{junit}");
    assert_valid_junit(&dir.join("junit.xml"));
}

/// A suite marked at `root/name`, with the first `count` cases of `cases/arithmetic` copied
/// into each of `folders`; returns its path.
fn small_suite(root: &Path, name: &str, folders: &[&str], count: usize) -> PathBuf {
    let suite = root.join(name);
    std::fs::create_dir_all(&suite).expect("mkdir");
    std::fs::write(suite.join(".halfcheck-suite"), "").expect("writes");
    for folder in folders {
        std::fs::create_dir_all(suite.join(folder)).expect("mkdir");
        for test in shader_tests(&arithmetic()).iter().take(count) {
            let file = test.file_name().expect("a file name");
            std::fs::copy(test, suite.join(folder).join(file)).expect("copies");
        }
    }
    suite
}

/// `halfcheck run --backend mock --no-report --expectations FILE ARGS... PATH` into
/// `dir`, `--strict-expectations` when `strict`.
fn judged_night(
    dir: &Path,
    expectations: &Path,
    strict: bool,
    args: &[&str],
    path: &Path,
) -> Output {
    output({
        let mut c = run(dir, &["--backend", "mock", "--no-report", "--expectations"]);
        c.arg(expectations).args(args);
        if strict {
            c.arg("--strict-expectations");
        }
        c.arg(path);
        c
    })
}

/// Asserts that a command was refused: exit 2, `message` in its output, `unwritten` absent.
fn assert_refused(refused: &Output, message: &str, unwritten: &Path) {
    assert_eq!(refused.status.code(), Some(2), "{}", text(refused));
    assert!(text(refused).contains(message), "{}", text(refused));
    assert!(!unwritten.exists(), "{}", unwritten.display());
}

/// `text` written to `root/file`; returns its path.
fn write_file(root: &Path, file: &str, text: &str) -> PathBuf {
    let path = root.join(file);
    std::fs::write(&path, text).expect("writes");
    path
}

/// Item 5: expectations written for another suite root are no test of the run: the summary
/// lists the glob that matches nothing and names both roots, and `--strict-expectations`
/// refuses to run. The name outside the run's paths is not listed.
#[test]
fn stale_expectations_are_listed_and_refused_when_strict() {
    let root = temp_dir("nightly-stale");
    let copy = small_suite(&root, "nightly-copy", &["arithmetic"], 3);
    let expectations = write_file(
        &root,
        "expect.yaml",
        "tests:\n  - glob: 'cases/arithmetic/*'\n    status: pass\n    reason: all pass\n  \
         - name: cases/arithmetic/gone.shader_test\n    status: fail\n    reason: removed\n",
    );
    let lenient = judged_night(&root.join("lenient"), &expectations, false, &[], &copy);
    let stdout = String::from_utf8_lossy(&lenient.stdout);
    assert!(lenient.status.success(), "{}", text(&lenient));
    assert!(
        stdout.contains(
            "stale expectations: 1 entry matches no test of the run's suites: tests[0]: \
             glob 'cases/arithmetic/*'\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "the tests' names start with their suite root's folder, 'nightly-copy/', the \
             expectations' entries with 'cases/'"
        ),
        "{stdout}"
    );
    let strict = judged_night(&root.join("strict"), &expectations, true, &[], &copy);
    assert_refused(
        &strict,
        "stale expectations: 1 entry matches",
        &root.join("strict/results.jsonl"),
    );
}

/// Running one folder of a suite listed the expectations of the rest as stale, and
/// `--strict-expectations` refused it. Now stale is judged against the run's selection: a
/// name outside its paths or left out by `-x`, and a glob or flakes pattern matching only
/// tests of the rest of the suite, are for tests outside the run; a name inside it that is
/// no test and patterns that match no test of the suite are stale.
#[test]
fn stale_expectations_are_judged_against_the_runs_selection() {
    let root = temp_dir("nightly-stale-selection");
    let suite = small_suite(&root, "suite", &["lowp", "highp"], 3);
    let outside = "tests:\n  - name: suite/highp/gone.shader_test\n    status: fail\n    \
                   reason: r\n  - glob: 'suite/highp/*'\n    status: pass\n    reason: r\n  \
                   - name: suite/lowp/left_out_gone.shader_test\n    status: fail\n    \
                   reason: r\n";
    let stale = write_file(
        &root,
        "stale.yaml",
        &format!(
            "{outside}  - name: suite/lowp/gone.shader_test\n    status: fail\n    reason: r\n  \
             - regex: '^suite/lowp/nothing_'\n    status: fail\n    reason: r\n\
             flakes: ['^suite/highp/', '^suite/elsewhere/']\n"
        ),
    );
    let lowp = suite.join("lowp");
    let lenient = judged_night(
        &root.join("lenient"),
        &stale,
        false,
        &["-x", "left_out"],
        &lowp,
    );
    let stdout = String::from_utf8_lossy(&lenient.stdout);
    assert!(lenient.status.success(), "{}", text(&lenient));
    assert!(
        stdout.contains(
            "stale expectations: 3 entries match no test of the run's suites: tests[3]: name \
             'suite/lowp/gone.shader_test'; tests[4]: regex '^suite/lowp/nothing_'; \
             flakes[1]: '^suite/elsewhere/'\n"
        ),
        "{stdout}"
    );
    let fresh = write_file(
        &root,
        "fresh.yaml",
        &format!("{outside}flakes: ['^suite/highp/']\n"),
    );
    let strict = judged_night(
        &root.join("strict"),
        &fresh,
        true,
        &["-x", "left_out"],
        &lowp,
    );
    assert!(strict.status.success(), "{}", text(&strict));
    assert!(
        !text(&strict).contains("stale expectations"),
        "{}",
        text(&strict)
    );
}

/// The stale check covers `skips` too, in the YAML and in a deqp-runner `*-skips.txt` read
/// beside its `*-fails.txt`: a pattern matching no test of the suite is listed (the one
/// that skips a folder the run has is not), and refused with `--strict-expectations`.
#[test]
fn stale_skips_are_listed_from_the_yaml_and_from_a_deqp_runner_list() {
    let root = temp_dir("nightly-stale-skips");
    let suite = small_suite(&root, "suite", &["lowp", "highp"], 2);
    let yaml = write_file(
        &root,
        "skips.yaml",
        "skips: ['^suite/lowp/', '^suite/gone/']\n",
    );
    let night = judged_night(&root.join("yaml"), &yaml, false, &[], &suite);
    assert!(night.status.success(), "{}", text(&night));
    let stdout = String::from_utf8_lossy(&night.stdout);
    assert!(
        stdout.contains(
            "stale expectations: 1 entry matches no test of the run's suites: skips[1]: \
             '^suite/gone/'\n"
        ),
        "{stdout}"
    );
    let fails = write_file(&root, "llvmpipe-fails.txt", "# nothing fails\n");
    write_file(&root, "llvmpipe-skips.txt", "^suite/highp/\n^suite/gone/\n");
    let strict = judged_night(&root.join("deqp"), &fails, true, &[], &suite);
    assert_refused(
        &strict,
        "stale expectations: 1 entry matches no test of the run's suites: skips[1]: \
         '^suite/gone/' (--strict-expectations)",
        &root.join("deqp/results.jsonl"),
    );
}

/// `merge --strict-expectations` (unknown to `merge` before) refuses stale expectations for
/// the merged run, exit 2 and nothing written, as `run` does; without it the merge lists
/// them, and fresh ones merge.
#[test]
fn merge_refuses_stale_expectations_when_strict() {
    let root = temp_dir("nightly-merge-strict");
    for shard in ["1", "2"] {
        let night = output({
            let mut c = run(
                &root.join(format!("shard{shard}")),
                &[
                    "--backend",
                    "mock",
                    "--no-report",
                    "--shard",
                    &format!("{shard}/2"),
                ],
            );
            c.arg(arithmetic());
            c
        });
        assert!(night.status.success(), "{}", text(&night));
    }
    let outside = "tests:\n  - name: cases/controls/gone.shader_test\n    status: fail\n    \
                   reason: r\n";
    let stale = write_file(
        &root,
        "stale.yaml",
        &format!("{outside}  - name: cases/arithmetic/gone.shader_test\n    status: fail\n    reason: r\n"),
    );
    let fresh = write_file(&root, "fresh.yaml", outside);
    let merge = |out: &str, expectations: &Path, strict: bool| {
        output({
            let mut c = halfcheck();
            c.arg("merge")
                .arg(root.join("shard1"))
                .arg(root.join("shard2"))
                .arg("-o")
                .arg(root.join(out))
                .arg("--expectations")
                .arg(expectations);
            if strict {
                c.arg("--strict-expectations");
            }
            c
        })
    };
    let line = "stale expectations: 1 entry matches no test of the run's suites: tests[1]: \
                name 'cases/arithmetic/gone.shader_test'";
    assert_refused(
        &merge("refused", &stale, true),
        &format!("{line} (--strict-expectations)"),
        &root.join("refused/results.json"),
    );
    let lenient = merge("lenient", &stale, false);
    assert!(lenient.status.success(), "{}", text(&lenient));
    assert!(text(&lenient).contains(line), "{}", text(&lenient));
    let strict = merge("strict", &fresh, true);
    assert!(strict.status.success(), "{}", text(&strict));
    assert!(root.join("strict/results.json").is_file());
}

/// Item 6: `export --piglit` ignored the expectations, so piglit's summary of a green night
/// was red. Judged, an expected result is piglit's `pass` and an unexpected one `fail`, and
/// `piglit summary console` (Debian's piglit) counts what halfcheck counts.
#[test]
fn export_piglit_carries_the_judgement_of_the_expectations() {
    let root = temp_dir("nightly-piglit");
    let dir = root.join("night");
    let night = output({
        let mut c = run(&dir, &["--backend", "emu", "--no-report"]);
        c.arg(arithmetic());
        c
    });
    assert!(night.status.success(), "{}", text(&night));
    // Expectations that hold for every test but one (expected n/a, it lowers).
    let r = results(&dir);
    let tests = r["tests"].as_object().expect("tests");
    let mut yaml = String::from("tests:\n");
    let mut flipped = None;
    for (name, test) in tests {
        let mut verdict = test["verdict"].as_str().unwrap_or("n/a").to_string();
        if flipped.is_none() && verdict == "lowered" {
            flipped = Some(name.clone());
            verdict = "n/a".into();
        }
        yaml.push_str(&format!(
            "  - name: {name}\n    status: {}\n    verdict: {verdict}\n    reason: measured\n",
            test["status"].as_str().expect("a status")
        ));
    }
    let flipped = flipped.expect("a lowered test");
    let expectations = root.join("expect.yaml");
    std::fs::write(&expectations, yaml).expect("writes");
    let piglit_dir = root.join("piglit");
    let export = output({
        let mut c = halfcheck();
        c.arg("export")
            .arg(&dir)
            .arg("--piglit")
            .arg(&piglit_dir)
            .arg("--expectations")
            .arg(&expectations);
        c
    });
    assert!(export.status.success(), "{}", text(&export));
    let json: Value =
        serde_json::from_str(&read(&piglit_dir.join("results.json"))).expect("piglit JSON");
    let piglit_tests = json["tests"].as_object().expect("tests");
    assert_eq!(piglit_tests.len(), tests.len());
    let flipped_name = flipped.trim_end_matches(".shader_test").replace('/', "@");
    for (name, test) in piglit_tests {
        let want = if *name == flipped_name {
            "fail"
        } else {
            "pass"
        };
        assert_eq!(test["result"], want, "{name}: {test}");
        assert_eq!(
            test["subtests"],
            serde_json::json!({"__type__": "Subtests"})
        );
    }
    let Some(piglit) = halfcheck_test_support::piglit_command() else {
        return;
    };
    let summary = output({
        let mut c = Command::new(piglit);
        c.args(["summary", "console", "-s"])
            .arg(&piglit_dir)
            .env("HOME", &root);
        c
    });
    let shown = text(&summary);
    assert!(summary.status.success(), "{shown}");
    let count = |status: &str| {
        shown
            .lines()
            .find_map(|l| l.trim().strip_prefix(&format!("{status}:")))
            .and_then(|n| n.trim().parse::<usize>().ok())
            .unwrap_or_else(|| panic!("no {status} row: {shown}"))
    };
    assert_eq!(count("fail"), 1, "{shown}");
    assert_eq!(count("pass"), tests.len() - 1, "{shown}");
}

/// Item 8: the log printed each of the first 20 failures twice (progress and summary), and
/// the summary grew with the failures. Each failure appears once in the log now, and the
/// summary stays within about 30 lines, pointing to failures.csv for the rest.
#[test]
fn each_failure_appears_once_in_the_log_and_the_summary_stays_short() {
    let root = temp_dir("nightly-quiet");
    let expectations = root.join("fail.yaml");
    // The mock passes every test: each is an unexpected improvement.
    std::fs::write(&expectations, "default: {status: fail}\n").expect("writes");
    let dir = root.join("night");
    let night = output({
        let mut c = run(
            &dir,
            &["--backend", "mock", "--no-report", "--expectations"],
        );
        c.arg(&expectations).arg(cases());
        c
    });
    assert_eq!(night.status.code(), Some(1), "{}", text(&night));
    let failing = read(&dir.join("failures.csv")).lines().count();
    assert!(failing > 40, "{failing}");
    let log = text(&night);
    for line in read(&dir.join("failures.csv")).lines().take(40) {
        let name = line.split(',').next().expect("a name");
        let times = log.matches(&format!(": {name}: ")).count();
        assert!(times <= 1, "{name} {times} times in the log:\n{log}");
    }
    let stdout = String::from_utf8_lossy(&night.stdout);
    assert!(stdout.lines().count() <= 32, "{stdout}");
    assert!(
        stdout.contains(&format!(
            "{failing} unexpected results: 20 listed above as they finished, 10 more \
             below (all {failing} in {})",
            dir.join("failures.csv").display()
        )),
        "{stdout}"
    );
}

/// Item 7: no command wrote expectations from a run, and Mesa CI's lists were refused. Now
/// `expectations update` writes them from a night (keeping the reasons written by hand), the
/// night judged by them exits 0, and a deqp-runner `*-fails.txt` with its `*-skips.txt` (or
/// a `failures.csv` given as `--baseline`) judges a run too.
#[test]
fn expectations_regenerated_from_a_night_make_it_green_and_mesa_ci_lists_are_read() {
    let root = temp_dir("nightly-update");
    let night = |dir: &str, args: &[&str]| {
        output({
            let mut c = run(&root.join(dir), &["--backend", "emu", "--no-report"]);
            c.args(args).arg(arithmetic());
            c
        })
    };
    let first = night("night1", &[]);
    assert!(first.status.success(), "{}", text(&first));
    let r = results(&root.join("night1"));
    let lowered = r["tests"]
        .as_object()
        .expect("tests")
        .iter()
        .find(|(_, t)| t["verdict"] == "lowered")
        .map(|(name, _)| name.clone())
        .expect("a lowered test");
    let file = root.join("emu.yaml");
    std::fs::write(
        &file,
        format!(
            "default: {{status: pass, verdict: lowered}}\ntests:\n  - name: {lowered}\n    \
             verdict: not-lowered\n    reason: kept by hand\n"
        ),
    )
    .expect("writes");
    let before = night("before", &["--expectations", file.to_str().expect("utf-8")]);
    assert_eq!(before.status.code(), Some(1), "{}", text(&before));
    let update = output({
        let mut c = halfcheck();
        c.args(["expectations", "update"])
            .arg(root.join("night1"))
            .arg("-o")
            .arg(&file);
        c
    });
    assert!(update.status.success(), "{}", text(&update));
    let yaml = read(&file);
    assert!(yaml.contains("reason: kept by hand"), "{yaml}");
    let after = night("after", &["--expectations", file.to_str().expect("utf-8")]);
    assert!(after.status.success(), "{}\n{yaml}", text(&after));

    // Mesa CI's lists: what is not `pass:lowered`, in deqp-runner's case, and a skip list.
    let fails: String = csv_statuses(&root.join("night1"))
        .into_iter()
        .filter(|(_, status)| status != "pass:lowered")
        .map(|(name, status)| format!("{name},{}{}\n", status[..1].to_uppercase(), &status[1..]))
        .collect();
    std::fs::write(root.join("emu-fails.txt"), format!("# emu\n{fails}")).expect("writes");
    std::fs::write(root.join("emu-skips.txt"), "^cases/arithmetic/add_\n").expect("writes");
    let fails_txt = root.join("emu-fails.txt");
    let listed = night(
        "listed",
        &["--expectations", fails_txt.to_str().expect("utf-8")],
    );
    assert!(listed.status.success(), "{}", text(&listed));
    let names = results(&root.join("listed"))["tests"]
        .as_object()
        .expect("tests")
        .keys()
        .cloned()
        .collect::<Vec<_>>();
    assert!(
        !names.is_empty() && names.iter().all(|n| !n.contains("/add_")),
        "{names:?}"
    );
    // A run's failures.csv as --baseline, as deqp-runner takes it: the lowered test, listed
    // as not lowering, is an unexpected improvement.
    std::fs::write(
        root.join("failures.csv"),
        format!("{lowered},Pass:not-lowered,0.1\n{fails}"),
    )
    .expect("writes");
    let csv = root.join("failures.csv");
    let baseline = night("baseline", &["--baseline", csv.to_str().expect("utf-8")]);
    let shown = text(&baseline);
    assert_eq!(baseline.status.code(), Some(1), "{shown}");
    assert!(
        shown.starts_with("exit 1: 1 unexpected results (1 improvements); 0 flakes"),
        "{shown}"
    );
}
