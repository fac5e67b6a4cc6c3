//! Helpers shared by the integration tests that run the real `halfcheck` binary.

#![allow(dead_code, unused_imports)] // Each test file uses its own subset.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The `halfcheck` binary under test, with its user cache (Mesa's shader cache) in a
/// directory of the test run's own, never the user's home.
pub fn halfcheck() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_halfcheck"));
    command.env("XDG_CACHE_HOME", test_cache());
    command
}

/// The user cache directory the tests' `halfcheck` runs use: one for every test run, in the
/// target directory Cargo keeps for tests' files (Mesa's cache keys make sharing it safe).
pub fn test_cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("user-cache")
}

pub use halfcheck_test_support::{anchors, igalia_mediump, piglit, skip};

/// The repository's own mediump corpus, `cases/`: always present, so tests of the runner use it.
pub fn cases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases")
}

/// The file of the test named `name` in results (`cases/...`).
pub fn case_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(name)
}

/// The `.shader_test` files under `dir`, sorted.
pub fn shader_tests(dir: &Path) -> Vec<PathBuf> {
    let mut files = files_under(dir);
    files.retain(|path| path.extension().is_some_and(|e| e == "shader_test"));
    files
}

/// Every file under `dir`, at any depth, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir:?}: {e}"));
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A fresh, empty directory under the system temp dir, named after `name`, removed when the
/// returned [`Scratch`] is dropped (at the end of the test that made it).
pub fn temp_dir(name: &str) -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix(&format!("halfcheck-test-{name}-"))
        .tempdir()
        .expect("temp dir");
    Scratch(dir)
}

/// A test's temporary directory: a `Path` while it lives, removed with everything in it when
/// dropped.
pub struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.path().as_os_str()
    }
}

/// stdout and stderr of a finished command, together.
pub fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// True when a GL driver answers `halfcheck devices`; otherwise prints why and returns false,
/// or panics when `HALFCHECK_REQUIRE_GL=1` says a driver must be there.
pub fn have_gl() -> bool {
    let output = halfcheck().arg("devices").output().expect("runs");
    if output.status.success() {
        return true;
    }
    assert!(
        std::env::var("HALFCHECK_REQUIRE_GL").as_deref() != Ok("1"),
        "HALFCHECK_REQUIRE_GL=1 but no GL driver: {}",
        text(&output)
    );
    skip(&format!("a GL test: no GL driver: {}", text(&output)));
    false
}

/// A GL backend on this process's driver, or `None` (with the reason on stderr) when the
/// machine has no EGL; panics instead when `HALFCHECK_REQUIRE_GL=1`. Mesa's shader cache is
/// pointed into the temp dir first, so tests never write to the user's home.
pub fn gl_backend() -> Option<halfcheck::backend::gl::GlBackend> {
    if std::env::var_os("MESA_SHADER_CACHE_DIR").is_none() {
        std::env::set_var(
            "MESA_SHADER_CACHE_DIR",
            test_cache().join("mesa_shader_cache"),
        );
    }
    match halfcheck::backend::gl::GlBackend::new(&halfcheck::backend::gl::EglChoice::default()) {
        Ok(backend) => Some(backend),
        Err(e) if std::env::var("HALFCHECK_REQUIRE_GL").as_deref() == Ok("1") => {
            panic!("HALFCHECK_REQUIRE_GL=1 but no GL context: {e}")
        }
        Err(e) => {
            skip(&format!("a GL test: no GL context: {e}"));
            None
        }
    }
}

/// Runs this test binary's test `name` again in a child process on softpipe (one Gallium
/// driver per process), asserting that it passed there and ran on softpipe; returns its stdout.
pub fn rerun_on_softpipe(name: &str) -> String {
    let exe = std::env::current_exe().expect("test binary");
    let output = Command::new(&exe)
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env("GALLIUM_DRIVER", "softpipe")
        .output()
        .expect("re-run the test binary");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{name} on softpipe:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("renderer: softpipe"),
        "{name} did not run on softpipe:\n{stdout}"
    );
    stdout
}

/// Lines in `dir`'s journal (the header included), 0 while it does not exist.
pub fn journal_lines(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("results.jsonl")).map_or(0, |t| t.lines().count())
}

/// Waits until `done` holds, or panics after a minute.
pub fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "gave up waiting: {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The pids of `parent`'s child processes, from /proc.
pub fn children(parent: u32) -> Vec<u32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid ...; comm may hold spaces, so read after the last ')'.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(parent) {
            pids.push(pid);
        }
    }
    pids
}

pub fn alive(pid: u32) -> bool {
    // A zombie still has a /proc entry; it is dead all the same.
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit_once(')')
            .is_some_and(|(_, s)| s.trim_start().starts_with('Z'))
    })
}

/// Starts `command` in the background, its output kept.
pub fn spawn(mut command: Command) -> Child {
    command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts")
}

/// Starts `command` (a `halfcheck run`), waits until `ready` holds, then kills it with a real
/// SIGKILL and waits until its orphaned workers are gone too.
pub fn kill_when(command: Command, what: &str, ready: impl FnMut() -> bool) {
    let mut parent = spawn(command);
    wait_until(what, ready);
    let workers = children(parent.id());
    parent.kill().expect("SIGKILL");
    parent.wait().expect("reaped");
    wait_until("the orphaned workers exit", || {
        workers.iter().all(|&w| !alive(w))
    });
}

/// Checks `junit` against `docs/junit.xsd`, the subset of JUnit XML GitLab reads, with
/// `xmllint` (skipped with a printed reason without it, unless `HALFCHECK_REQUIRE_XMLLINT=1`).
pub fn assert_valid_junit(junit: &Path) {
    let Some(xmllint) = halfcheck_test_support::xmllint() else {
        return;
    };
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/junit.xsd");
    let check = Command::new(xmllint)
        .arg("--noout")
        .arg("--schema")
        .arg(schema)
        .arg(junit)
        .output()
        .expect("xmllint runs");
    assert!(check.status.success(), "{}", text(&check));
    assert!(text(&check).contains("validates"), "{}", text(&check));
}

/// `halfcheck run --backend gl --no-report --no-verdict-cache` of `files` with `extra`
/// arguments and `env` into `out`: its results.json.
pub fn gl_results(
    out: &Path,
    extra: &[&str],
    env: &[(&str, &str)],
    files: &[PathBuf],
) -> serde_json::Value {
    let mut command = halfcheck();
    command
        .args([
            "run",
            "--backend",
            "gl",
            "--no-report",
            "--no-verdict-cache",
        ])
        .args(extra)
        .envs(env.iter().copied())
        .arg("--results")
        .arg(out)
        .args(files);
    results_of(command, out).0
}

/// Runs `command`, a `halfcheck run` that writes into `out`: its results.json, and the
/// command's output for messages.
pub fn results_of(mut command: Command, out: &Path) -> (serde_json::Value, Output) {
    let output = command.output().expect("runs");
    let text = std::fs::read_to_string(out.join("results.json"))
        .unwrap_or_else(|e| panic!("results: {e} {}", text(&output)));
    (serde_json::from_str(&text).expect("json"), output)
}
