//! `halfcheck run`: finds the tests, runs them in worker processes, writes `results.json`.
//!
//! Each worker process opens one backend and runs tests one at a time ([`worker`]); the parent
//! ([`pool`]) gives each test a time limit and replaces a worker that crashed or hung, so a
//! driver fault costs one test, never the run. Every result is appended to
//! `results.jsonl` as it arrives, so an interrupted run keeps what it measured.

mod pool;
mod protocol;
mod worker;

pub use worker::worker_main;

use crate::backend::{BackendKind, BackendOptions};
use crate::discover::{find_tests, Filter};
use crate::results::{ResultsFile, RunInfo, TestResult, FORMAT};
use pool::{run_pool, Worker, WorkerCommand};
use protocol::Job;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// What `halfcheck run` was asked to do.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Files and directories to run.
    pub paths: Vec<PathBuf>,
    /// Which backend.
    pub backend: BackendKind,
    /// Backend settings (GL device).
    pub backend_options: BackendOptions,
    /// Where `results.json` goes.
    pub results_dir: PathBuf,
    /// `-t` regexes.
    pub include: Vec<String>,
    /// `-x` regexes.
    pub exclude: Vec<String>,
    /// Worker processes.
    pub jobs: usize,
    /// Time limit per test.
    pub timeout: Duration,
    /// The command line, for the results file.
    pub command_line: Vec<String>,
    /// When set, the run stops before any test unless `GL_RENDERER` matches.
    pub renderer_guard: Option<regex::Regex>,
}

/// A finished run.
#[derive(Debug)]
pub struct RunOutcome {
    /// Everything that was written to `results.json`.
    pub results: ResultsFile,
    /// Where it was written.
    pub results_path: PathBuf,
}

/// What a run reports as it goes (the terminal's progress display, `console::progress`).
/// Results arrive from several threads, in the order tests finish.
pub trait Progress: Sync {
    /// The run is about to start `total` tests.
    fn start(&self, total: usize);
    /// Test `name` finished with `result`.
    fn finished(&self, name: &str, result: &TestResult);
}

/// Runs the tests and writes the results, telling `progress` about each. Errors are problems
/// that stop the whole run.
pub fn run(options: &RunOptions, progress: &dyn Progress) -> Result<RunOutcome, String> {
    let filter = Filter::new(&options.include, &options.exclude)?;
    let (files, walk_errors) = find_tests(&options.paths);
    for e in &walk_errors {
        eprintln!("warning: {e}");
    }
    let jobs: Vec<Job> = files
        .into_iter()
        .filter(|f| filter.selects(&f.name))
        .map(|f| Job {
            name: f.name,
            path: f.path,
        })
        .collect();
    if jobs.is_empty() {
        return Err("no .shader_test files selected".to_string());
    }

    std::fs::create_dir_all(&options.results_dir).map_err(|e| {
        format!(
            "cannot create results directory {}: {e}",
            options.results_dir.display()
        )
    })?;
    let command = worker_command(options)?;
    let started = now_rfc3339();
    let (first, info) = Worker::start(&command)?;
    if let Some(guard) = &options.renderer_guard {
        if !guard.is_match(&info.renderer) {
            first.finish();
            return Err(format!(
                "the renderer is '{}', but the expectations are for renderers matching '{guard}' \
                 (pass --skip-renderer-check to run anyway)",
                info.renderer
            ));
        }
    }
    // Every later worker runs the backend the first one resolved `auto` to.
    let command = WorkerCommand {
        args: worker_args(
            resolved_kind(options.backend, &info),
            &options.backend_options,
        ),
        ..command
    };

    let stream_path = options.results_dir.join("results.jsonl");
    let stream = std::fs::File::create(&stream_path)
        .map_err(|e| format!("cannot write {}: {e}", stream_path.display()))?;
    progress.start(jobs.len());
    let collected = Mutex::new((BTreeMap::new(), stream));
    let on_result = |job: &Job, result: TestResult| {
        let Ok(mut guard) = collected.lock() else {
            return;
        };
        let (tests, stream) = &mut *guard;
        let line = serde_json::json!({ "name": job.name, "result": result });
        writeln!(stream, "{line}").ok();
        progress.finished(&job.name, &result);
        tests.insert(job.name.clone(), result);
    };
    run_pool(
        &command,
        first,
        jobs,
        options.jobs,
        options.timeout,
        &on_result,
    );

    let (tests, _) = collected
        .into_inner()
        .map_err(|_| "a worker thread panicked".to_string())?;
    let results = ResultsFile {
        format: FORMAT.to_string(),
        run: RunInfo {
            started,
            finished: now_rfc3339(),
            command_line: options.command_line.clone(),
            ..info
        },
        tests,
    };
    let results_path = options.results_dir.join("results.json");
    write_json(&results_path, &results)?;
    Ok(RunOutcome {
        results,
        results_path,
    })
}

/// The backend a worker actually opened.
fn resolved_kind(asked: BackendKind, info: &RunInfo) -> BackendKind {
    match (asked, info.backend.as_str()) {
        (BackendKind::Auto, "gl") => BackendKind::Gl,
        (BackendKind::Auto, _) => BackendKind::Emu,
        (kind, _) => kind,
    }
}

/// How to start a worker for this run, with Mesa's shader cache inside the results directory.
fn worker_command(options: &RunOptions) -> Result<WorkerCommand, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find halfcheck itself: {e}"))?;
    let mut env = Vec::new();
    if std::env::var_os("MESA_SHADER_CACHE_DIR").is_none() {
        let cache = absolute(&options.results_dir).join("mesa_shader_cache");
        env.push((
            "MESA_SHADER_CACHE_DIR".to_string(),
            cache.display().to_string(),
        ));
    }
    Ok(WorkerCommand {
        exe,
        args: worker_args(options.backend, &options.backend_options),
        env,
    })
}

/// `worker --backend KIND [--gl-device N] --emu-mode MODE [--emu-profile PROFILE]
/// --reference WHEN [--framebuffers DIR]`.
fn worker_args(kind: BackendKind, options: &BackendOptions) -> Vec<String> {
    let name = match kind {
        BackendKind::Auto => "auto",
        BackendKind::Gl => "gl",
        BackendKind::Emu => "emu",
        BackendKind::Mock => "mock",
    };
    let mut args = vec![
        "worker".to_string(),
        "--backend".to_string(),
        name.to_string(),
    ];
    if let Some(device) = options.gl_device {
        args.extend(["--gl-device".to_string(), device.to_string()]);
    }
    args.extend([
        "--emu-mode".to_string(),
        options.emu_mode.name().to_string(),
        "--reference".to_string(),
        options.reference.name().to_string(),
    ]);
    if let Some(dir) = &options.framebuffers {
        args.extend(["--framebuffers".to_string(), dir.display().to_string()]);
    }
    if !options.emu_profile.is_empty() {
        args.extend(["--emu-profile".to_string(), options.emu_profile.clone()]);
    }
    args
}

/// `path` made absolute against the current directory.
fn absolute(path: &Path) -> PathBuf {
    std::env::current_dir()
        .map(|cwd| cwd.join(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// Writes pretty JSON to `path`.
pub fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    std::fs::write(path, text + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The current UTC time as RFC 3339, to the second.
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}
