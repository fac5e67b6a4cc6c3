//! `halfcheck run`: finds the tests, runs them in worker processes, writes `results.json` and
//! the CI files beside it.
//!
//! Each worker process opens one backend and runs tests one at a time (`worker`); the parent
//! (`pool`) gives each test a time limit, replaces a worker that crashed or hung, so a
//! driver fault costs one test, never the run, and reruns unexpected results (`--retries`).
//! Every result is appended to the journal `results.jsonl` (`journal`) as it arrives, after
//! a header with the run's info and settings, so a killed run keeps what it measured and
//! `run --resume DIR` runs only what it lacks. SIGINT and SIGTERM (`interrupt`) stop the
//! run and still write `results.json` from what finished.
//!
//! The seams for the terminal and the CI outputs: [`Progress`] sees every result as it
//! arrives; the run's [`Review`] says which results fail it (those are rerun and counted by
//! `--max-fails`); every finished run's `results.json` and CI files are written by
//! [`write_results`].

pub(crate) mod cache;
pub(crate) mod driver_ir;
mod interrupt;
pub(crate) mod journal;
pub(crate) mod judge;
pub(crate) mod merge;
mod pool;
mod protocol;
mod verdict_cache;
mod worker;

pub(crate) use verdict_cache::default_dir as verdict_cache_dir;
pub(crate) use worker::worker_main;

use crate::backend::{BackendKind, BackendOptions};
use crate::discover::{absolute, find, read_test_list, Selected, TestFile};
use crate::results::{
    read_journal, JournalHeader, ResultsFile, RunInfo, Selection, Shard, Status, TestResult,
    FORMAT, JOURNAL_FORMAT,
};
use crate::review::{Finding, Review};
use halfcheck_emu::{parse_mode, Mode};
use halfcheck_verdict::ReferenceMode;
use interrupt::Interrupt;
use journal::{damaged_lines, JournalWriter, JOURNAL, RESULTS};
use pool::{run_pool, PoolSettings, Starting, Worker, WorkerCommand};
use protocol::Job;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// What `halfcheck run` was asked to do.
#[derive(Debug, Clone)]
pub(crate) struct RunOptions {
    /// Files and directories to run.
    pub paths: Vec<PathBuf>,
    /// `-t` regexes.
    pub include: Vec<String>,
    /// `-x` regexes.
    pub exclude: Vec<String>,
    /// `--test-list`: only the tests it names.
    pub test_list: Option<PathBuf>,
    /// `--shard K/N`: only the tests whose name hashes to K (1-based) of N.
    pub shard: Option<(u32, u32)>,
    /// How the tests run.
    pub settings: Settings,
    /// Where `results.json` goes.
    pub results_dir: PathBuf,
    /// Replace the results already in `results_dir`.
    pub force: bool,
}

/// How the tests run; kept in the journal's header, so `--resume` goes on the same way.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Settings {
    /// Which backend.
    #[serde(with = "backend_name")]
    pub backend: BackendKind,
    /// Which EGL device.
    pub gl_device: Option<usize>,
    /// The libEGL the GL backend loads (`--gl-library`), when not the usual one.
    #[serde(default)]
    pub gl_library: Option<PathBuf>,
    /// The EGL platform (`--gl-platform`); the first the library offers when `None`.
    #[serde(default)]
    pub gl_platform: Option<crate::backend::gl::Platform>,
    /// The emulator's arithmetic.
    #[serde(with = "mode_name")]
    pub emu_mode: Mode,
    /// The emulator's driver profile: a built-in name or an absolute path to a YAML file.
    #[serde(default)]
    pub emu_profile: String,
    /// Worker processes.
    pub jobs: usize,
    /// Time limit per test, in seconds.
    pub timeout_s: f64,
    /// How many times an unexpected result is run again.
    pub retries: u32,
    /// Stop after this many unexpected results.
    pub max_fails: Option<usize>,
    /// Keep each test's final window framebuffer in `RESULTS/framebuffers`.
    #[serde(default)]
    pub framebuffers: bool,
    /// When each lowp/mediump test also runs promoted to highp, as the verdicts' reference.
    #[serde(default)]
    pub reference: ReferenceMode,
    /// Every test draws into a window of exact floats, not only those a verdict needs them
    /// for (`fingerprint` reads exact floats from highp probes too).
    #[serde(default)]
    pub exact_windows: bool,
    /// Whether each test gets a lowering verdict (`--no-verdicts` turns them off: the tests
    /// run as in piglit, into RGBA8 windows, with no predictions and no reference runs).
    #[serde(default = "on")]
    pub verdicts: bool,
    /// Mesa's shader cache (`runner::cache`): by default in the user's cache directory;
    /// `None` turns it off (`--no-shader-cache`, and runs recorded before it existed).
    #[serde(default)]
    pub shader_cache: Option<PathBuf>,
    /// The verdicts kept from earlier runs (`runner::verdict_cache`): by default in the
    /// user's cache directory; `None` computes every verdict (`--no-verdict-cache`, and runs
    /// recorded before it existed).
    #[serde(default)]
    pub verdict_cache: Option<PathBuf>,
    /// Whether the run writes its HTML report into its directory (`--no-report` turns it
    /// off); a resumed run does as the run it finishes did.
    #[serde(default = "on")]
    pub report: bool,
    /// Each worker's memory limit in MiB (0: none); runs recorded before it existed had the
    /// default.
    #[serde(default = "default_worker_memory")]
    pub worker_memory_mib: u64,
    /// What judges the run (expectations, baseline), so a resumed run is judged as it was.
    #[serde(default)]
    pub judge: judge::Judge,
    /// Whether a worker on a Mesa driver captures the NIR it hands the driver for each test
    /// and its reference, into `RESULTS/ir` (`--driver-ir`, `--no-driver-ir`); runs recorded
    /// before it existed did not.
    #[serde(default)]
    pub driver_ir: bool,
}

/// A worker's memory limit when none was asked for (`worker::DEFAULT_MEMORY_MIB`).
pub(crate) fn default_worker_memory() -> u64 {
    worker::DEFAULT_MEMORY_MIB
}

/// Runs recorded before `--no-verdicts` and `--no-report` existed had verdicts and reports.
fn on() -> bool {
    true
}

impl Settings {
    /// What the workers of a run into `dir` open their backend with.
    fn backend_options(&self, dir: &Path) -> BackendOptions {
        BackendOptions {
            gl: crate::backend::gl::EglChoice {
                library: self.gl_library.as_deref().map(absolute),
                platform: self.gl_platform,
                device: self.gl_device,
            },
            emu_mode: self.emu_mode,
            emu_profile: self.emu_profile.clone(),
            reference: self.reference,
            exact_windows: self.exact_windows,
            verdicts: self.verdicts,
            verdict_cache: self.verdict_cache.clone(),
            framebuffers: self
                .framebuffers
                .then(|| absolute(dir).join(journal::FRAMEBUFFERS)),
            driver_ir: self
                .driver_ir
                .then(|| absolute(dir).join(driver_ir::IR_DIR)),
        }
    }
}

/// What watches a run as it goes (the terminal's display, `console::progress`). Called from
/// the pool's threads, so it must be `Sync`.
pub(crate) trait Progress: Sync {
    /// The first worker is up on `info`'s driver: `to_run` tests to run now; `done`, the
    /// results already in the journal (`--resume`).
    /// `is_flake` is the review's word on a result (the one flake count).
    fn start(
        &self,
        info: &RunInfo,
        to_run: usize,
        done: &BTreeMap<String, TestResult>,
        is_flake: &dyn Fn(&str, &TestResult) -> bool,
    );
    /// A test's final result (after any retries), as it arrives, in the order tests finish,
    /// with the review's finding when it needs attention.
    fn finished(&self, name: &str, result: &TestResult, finding: Option<&Finding>);
}

/// How a run is watched and judged while it goes on.
pub(crate) struct Hooks<'a> {
    /// The command line, for the results file.
    pub command_line: Vec<String>,
    /// When set, the run stops before any test unless `GL_RENDERER` matches.
    pub renderer_guard: Option<regex::Regex>,
    /// Decides which results fail the run (rerun, counted by `--max-fails`, in the CI files).
    pub review: &'a Review,
    /// Sees the results as they arrive.
    pub progress: &'a dyn Progress,
}

/// A finished run.
#[derive(Debug)]
pub(crate) struct RunOutcome {
    /// Everything that was written to `results.json`.
    pub results: ResultsFile,
    /// Where it was written.
    pub results_path: PathBuf,
    /// Set when a signal stopped the run: the exit status it should end with.
    pub signal_exit: Option<u8>,
    /// Whether the run's settings ask for its HTML report (`--no-report`, recorded in the
    /// journal, so a resumed run keeps it).
    pub report: bool,
}

/// The selection `options` make (their paths, `-t`/`-x`, test list and shard) and every test
/// found under their paths; errors are those of [`run`] before any test.
pub(crate) fn select(options: &RunOptions) -> Result<(Selection, Vec<TestFile>), String> {
    let found = find(&options.paths);
    if !found.errors.is_empty() {
        return Err(found.errors.join("\n"));
    }
    let test_list = options
        .test_list
        .as_deref()
        .map(read_test_list)
        .transpose()?;
    if let (Some(list), Some(file)) = (&test_list, &options.test_list) {
        let known: BTreeSet<&str> = found.tests.iter().map(|t| t.name.as_str()).collect();
        let unknown: Vec<&String> = list
            .iter()
            .filter(|n| !known.contains(n.as_str()))
            .collect();
        if !unknown.is_empty() {
            return Err(format!(
                "{}: {} names match no test under the paths given, e.g. '{}'",
                file.display(),
                unknown.len(),
                unknown[0]
            ));
        }
    }
    let selection = Selection {
        paths: options.paths.iter().map(|p| absolute(p)).collect(),
        scope: found.scope.into_iter().collect(),
        include: options.include.clone(),
        exclude: options.exclude.clone(),
        test_list,
        shard: options.shard.map(|(index, count)| Shard {
            indices: vec![index],
            count,
        }),
    };
    Ok((selection, found.tests))
}

/// Runs the tests and writes the results. Errors are problems that stop the whole run before
/// any test ran (exit 2).
pub(crate) fn run(options: &RunOptions, hooks: &Hooks) -> Result<RunOutcome, String> {
    let (selection, tests) = select(options)?;
    let selected = Selected::new(&selection)?;
    let jobs: Vec<Job> = tests
        .into_iter()
        .filter(|t| selected.selects(&t.name))
        .map(|t| Job {
            name: t.name,
            path: t.path,
        })
        .collect();
    if jobs.is_empty() {
        return Err("no .shader_test files selected".to_string());
    }
    let journal = JournalWriter::create(&options.results_dir, options.force)?;
    let outcome = execute(
        Plan {
            dir: &options.results_dir,
            settings: &options.settings,
            selection,
            jobs,
            done: BTreeMap::new(),
            resumed: None,
            journal,
        },
        hooks,
    );
    if outcome.is_err() {
        journal::remove_unstarted(&options.results_dir);
    }
    outcome
}

/// `run --resume DIR`: runs what `DIR`'s journal lacks, with `settings` (those its header
/// recorded, `judge::continue_run`) and the selection it recorded, and rebuilds
/// `results.json`.
pub(crate) fn resume(dir: &Path, settings: &Settings, hooks: &Hooks) -> Result<RunOutcome, String> {
    let path = dir.join(JOURNAL);
    let mut journal = read_journal(&path).map_err(|e| format!("cannot resume: {e}"))?;
    // The earlier sessions' work: theirs before, and the last one's from its start to its
    // last result, the journal's last write; the time since then was no work.
    let last_write = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
    let run = &mut journal.header.run;
    let session_start = run.resumed.as_deref().unwrap_or(&run.started);
    let last_session = humantime::parse_rfc3339(session_start)
        .ok()
        .zip(last_write)
        .and_then(|(start, end)| end.duration_since(start).ok())
        .map_or(0.0, |d| d.as_secs_f64());
    run.work_s = Some(run.work_s.unwrap_or(0.0) + last_session);
    run.resumed = Some(now_rfc3339());
    for warning in damaged_lines(&path, &journal, "its test runs again") {
        log::warn!("{warning}");
    }
    let selection = journal.header.run.selection.clone().ok_or_else(|| {
        format!(
            "cannot resume: {}:1: the header does not say which tests were selected",
            path.display()
        )
    })?;
    let found = find(&selection.paths);
    if !found.errors.is_empty() {
        return Err(format!("cannot resume: {}", found.errors.join("\n")));
    }
    let selected = Selected::new(&selection)?;
    let jobs: Vec<Job> = found
        .tests
        .into_iter()
        .filter(|t| selected.selects(&t.name) && !journal.tests.contains_key(&t.name))
        .map(|t| Job {
            name: t.name,
            path: t.path,
        })
        .collect();
    let writer = JournalWriter::rewrite(dir, &journal)?;
    execute(
        Plan {
            dir,
            settings,
            selection,
            jobs,
            done: journal.tests,
            resumed: Some(journal.header.run),
            journal: writer,
        },
        hooks,
    )
}

/// A run ready to go: what to run, and what is already done.
struct Plan<'a> {
    dir: &'a Path,
    settings: &'a Settings,
    selection: Selection,
    jobs: Vec<Job>,
    done: BTreeMap<String, TestResult>,
    /// The journal's run info, when resuming.
    resumed: Option<RunInfo>,
    journal: JournalWriter,
}

/// What the pool's threads share while results arrive.
struct Collected {
    tests: BTreeMap<String, TestResult>,
    journal: JournalWriter,
    unexpected: usize,
}

fn execute(mut plan: Plan, hooks: &Hooks) -> Result<RunOutcome, String> {
    let session = std::time::Instant::now();
    let settings = plan.settings;
    let workers = worker_count(settings.jobs, plan.jobs.len());
    let command = worker_command(plan.dir, settings, workers)?;
    let interrupt = Interrupt::on_signals()?;
    let started = now_rfc3339();
    // Every worker opens its backend at once; the first says what the run opened.
    let first = Worker::spawn(&command)?;
    let others = (1..workers)
        .filter_map(|_| Worker::spawn(&command).ok())
        .collect::<Vec<_>>();
    let opened = first.ready(&interrupt).and_then(|(first, info)| {
        match begin(&mut plan, started, info, hooks) {
            Ok(run) => Ok((first, run)),
            Err(e) => {
                first.finish();
                Err(e)
            }
        }
    });
    let (first, run) = match opened {
        Ok(opened) => opened,
        Err(e) => {
            others.into_iter().for_each(Starting::stop);
            return Err(e);
        }
    };
    // Every later worker runs the backend the first one resolved `auto` to.
    let command = WorkerCommand {
        args: worker_args(
            resolved_kind(settings.backend, &run),
            &settings.backend_options(plan.dir),
        ),
        ..command
    };
    let is_flake = |name: &str, result: &TestResult| hooks.review.is_flake(name, result);
    hooks
        .progress
        .start(&run, plan.jobs.len(), &plan.done, &is_flake);
    let collected = Mutex::new(Collected {
        tests: plan.done,
        journal: plan.journal,
        unexpected: 0,
    });
    let on_result = |job: &Job, result: TestResult| {
        let Ok(mut c) = collected.lock() else {
            return;
        };
        if let Err(e) = c.journal.append(&job.name, &result) {
            interrupt.stop(e);
        }
        let finding = hooks.review.finding(&job.name, &result);
        if finding.as_ref().is_some_and(|f| f.kind.fails_run()) {
            c.unexpected += 1;
            if let Some(max) = settings.max_fails.filter(|max| c.unexpected >= *max) {
                interrupt.stop(format!(
                    "stopped after {max} unexpected results (--max-fails)"
                ));
            }
        }
        hooks
            .progress
            .finished(&job.name, &result, finding.as_ref());
        c.tests.insert(job.name.clone(), result);
    };
    let fails_run = |name: &str, result: &TestResult| hooks.review.fails_run(name, result);
    let pool = PoolSettings {
        command: &command,
        backend: &run.backend,
        threads: settings.jobs,
        timeout: Duration::from_secs_f64(settings.timeout_s.max(0.001)),
        retries: settings.retries,
        fails_run: &fails_run,
        interrupt: &interrupt,
    };
    let selected: Vec<String> = plan.jobs.iter().map(|job| job.name.clone()).collect();
    run_pool(&pool, first, others, plan.jobs, &on_result);

    let mut collected = collected
        .into_inner()
        .map_err(|_| "a worker thread panicked".to_string())?;
    let incomplete = interrupt.reason();
    let not_run = fill_not_run(
        &mut collected.tests,
        selected,
        incomplete.as_deref().unwrap_or("the run ended before it"),
    );
    let results = ResultsFile {
        format: FORMAT.to_string(),
        run: RunInfo {
            finished: now_rfc3339(),
            incomplete: incomplete.or((not_run > 0).then(|| format!("{not_run} tests not run"))),
            work_s: Some(run.work_s.unwrap_or(0.0) + session.elapsed().as_secs_f64()),
            ..run
        },
        tests: collected.tests,
    };
    let results_path = plan.dir.join(RESULTS);
    write_results(plan.dir, &results, hooks.review)?;
    // Everything measured is written: a signal during what follows (the summary, the
    // report's emulator images) ends the process at once instead of being ignored.
    Interrupt::exit_on_signals()?;
    Ok(RunOutcome {
        results,
        results_path,
        signal_exit: interrupt.exit_code(),
        report: settings.report,
    })
}

/// Writes each test of `selected` that `tests` lacks as `notrun`, its reason `not run: why`,
/// so that no selected test vanishes from a run's outputs; returns how many.
pub(crate) fn fill_not_run(
    tests: &mut BTreeMap<String, TestResult>,
    selected: impl IntoIterator<Item = String>,
    why: &str,
) -> usize {
    let mut count = 0;
    for name in selected {
        tests.entry(name).or_insert_with(|| {
            count += 1;
            TestResult::with_status(Status::NotRun, format!("not run: {why}"))
        });
    }
    count
}

/// The run's info once its first worker opened `info`: checked against the expectations'
/// renderer and the run being resumed, and for a new run written as the journal's header.
fn begin(
    plan: &mut Plan,
    started: String,
    info: RunInfo,
    hooks: &Hooks,
) -> Result<RunInfo, String> {
    if let Some(guard) = &hooks.renderer_guard {
        if !guard.is_match(&info.renderer) {
            return Err(format!(
                "the renderer is '{}', but the expectations are for renderers matching '{guard}' \
                 (pass --skip-renderer-check to run anyway)",
                info.renderer
            ));
        }
    }
    if let Some(earlier) = plan.resumed.take() {
        if (&earlier.backend, &earlier.renderer) != (&info.backend, &info.renderer) {
            return Err(format!(
                "cannot resume: the run in {} used {} on '{}', this one opens {} on '{}'",
                plan.dir.display(),
                earlier.backend,
                earlier.renderer,
                info.backend,
                info.renderer
            ));
        }
        return Ok(earlier);
    }
    let run = RunInfo {
        started,
        environment: crate::lane::driver_environment(),
        command_line: hooks.command_line.clone(),
        selection: Some(std::mem::take(&mut plan.selection)),
        ..info
    };
    let header = JournalHeader {
        format: JOURNAL_FORMAT.to_string(),
        run: run.clone(),
        settings: serde_json::to_value(plan.settings).map_err(|e| e.to_string())?,
    };
    plan.journal.header(&header)?;
    Ok(run)
}

/// Writes a run's final results into its directory: `results.json`, then the CI files
/// beside it (`junit.xml`, `results.csv`, `failures.csv`, see `outputs`) as `review` judges
/// the run. Every command that finishes a run writes through here: `run`, `run --resume`, a
/// run stopped by a signal or `--max-fails`, and `merge`.
pub(crate) fn write_results(
    dir: &Path,
    results: &ResultsFile,
    review: &Review,
) -> Result<(), String> {
    crate::outputs::write_json(&dir.join(RESULTS), results)?;
    crate::outputs::write_ci_files(dir, results, review)?;
    Ok(())
}

/// The backend a worker actually opened.
fn resolved_kind(asked: BackendKind, info: &RunInfo) -> BackendKind {
    match (asked, info.backend.as_str()) {
        (BackendKind::Auto, "gl") => BackendKind::Gl,
        (BackendKind::Auto, _) => BackendKind::Emu,
        (kind, _) => kind,
    }
}

/// How to start a worker for this run, with Mesa's shader cache where the settings say
/// (`cache`), the CPUs shared out among the `workers` that start.
fn worker_command(
    dir: &Path,
    settings: &Settings,
    workers: usize,
) -> Result<WorkerCommand, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find halfcheck itself: {e}"))?;
    let mut env = cache::worker_env(
        settings.shader_cache.as_deref(),
        &crate::lane::driver_environment(),
        |name| std::env::var_os(name).is_some(),
    );
    env.push((
        worker::MEMORY_LIMIT_ENV.to_string(),
        settings.worker_memory_mib.to_string(),
    ));
    env.push(("GLIBC_TUNABLES".to_string(), worker_malloc_tunables()));
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    env.extend(thread_counts(cpus, workers, |name| {
        std::env::var_os(name).is_some()
    }));
    Ok(WorkerCommand {
        exe,
        args: worker_args(settings.backend, &settings.backend_options(dir)),
        env,
    })
}

/// How many workers a run of `tests` tests at `-j jobs` starts: no more than it has tests
/// (a run of one test at `-j 2` starts one, which then gets both CPUs' threads), and one.
fn worker_count(jobs: usize, tests: usize) -> usize {
    jobs.min(tests).max(1)
}

/// The thread counts a worker starts with, unless the user set them (`is_set`): the CPUs
/// shared out among the `workers` that start, for the emulator's shading (`RAYON_NUM_THREADS`) and
/// llvmpipe's rasteriser (`LP_NUM_THREADS`; other drivers ignore it). With as many workers as
/// CPUs each gets one: the emulator shades and llvmpipe rasterises on the worker's own
/// thread (`LP_NUM_THREADS=0`), with the same results. On the suite at `-j 2` on 2 CPUs a
/// second thread per worker cost 14% more CPU on the emulator and 6% on llvmpipe
/// (BENCHMARKS.md).
fn thread_counts(
    cpus: usize,
    workers: usize,
    is_set: impl Fn(&str) -> bool,
) -> Vec<(String, String)> {
    let share = (cpus / workers.max(1)).max(1);
    let rasteriser = if share == 1 { 0 } else { share };
    [("RAYON_NUM_THREADS", share), ("LP_NUM_THREADS", rasteriser)]
        .into_iter()
        .filter(|(name, _)| !is_set(name))
        .map(|(name, n)| (name.to_string(), n.to_string()))
        .collect()
}

/// glibc's malloc settings for a worker (`GLIBC_TUNABLES`, added to any the user set): a
/// freed block of up to 256 MiB stays in the process instead of going back to the kernel. A
/// worker allocates and frees the same large buffers for every test (a `probe all` region in
/// each prediction's domain, framebuffers, Mesa's compiles); returned, each comes back as
/// fresh zeroed pages, page fault by page fault. On `cases/` that was 1.6-2.1 s of system
/// time out of 7-8 s of CPU on the emulator (BENCHMARKS.md). Other C libraries ignore it.
fn worker_malloc_tunables() -> String {
    const KEEP: &str =
        "glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=268435456";
    match std::env::var("GLIBC_TUNABLES") {
        Ok(user) if !user.is_empty() => format!("{KEEP}:{user}"),
        _ => KEEP.to_string(),
    }
}

/// What a worker is started with: `worker --options JSON`, one JSON object.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct WorkerOptions {
    /// Which backend to open.
    #[serde(with = "backend_name")]
    pub backend: BackendKind,
    /// How to open it and what to do with each test.
    #[serde(flatten)]
    pub options: BackendOptions,
}

/// `worker --options JSON`.
fn worker_args(backend: BackendKind, options: &BackendOptions) -> Vec<String> {
    let worker = WorkerOptions {
        backend,
        options: options.clone(),
    };
    // Plain data with string keys: serialising cannot fail.
    let json = serde_json::to_string(&worker).unwrap_or_default();
    vec!["worker".to_string(), "--options".to_string(), json]
}

/// `BackendKind` in the journal's settings, by its command-line name.
mod backend_name {
    use crate::backend::BackendKind;
    use clap::ValueEnum;
    use serde::{Deserialize, Deserializer, Serializer};

    /// The command-line name of `kind`.
    pub(super) fn name(kind: BackendKind) -> &'static str {
        match kind {
            BackendKind::Auto => "auto",
            BackendKind::Gl => "gl",
            BackendKind::Emu => "emu",
            BackendKind::Mock => "mock",
        }
    }

    pub(super) fn serialize<S: Serializer>(kind: &BackendKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(name(*kind))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BackendKind, D::Error> {
        let text = String::deserialize(d)?;
        BackendKind::from_str(&text, false).map_err(serde::de::Error::custom)
    }
}

/// The emulator's `Mode` in the journal's settings and a worker's options, by its
/// command-line name.
pub(crate) mod mode_name {
    use super::{parse_mode, Mode};
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(mode: &Mode, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(mode.name())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Mode, D::Error> {
        let text = String::deserialize(d)?;
        parse_mode(&text).map_err(serde::de::Error::custom)
    }
}

/// The current UTC time as RFC 3339, to the second.
pub(crate) fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use super::{thread_counts, worker_count};

    fn counts(cpus: usize, jobs: usize, set: &[&str]) -> Vec<(String, String)> {
        thread_counts(cpus, jobs, |name| set.contains(&name))
    }

    fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
        expected
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn workers_share_the_cpus_and_one_each_runs_on_its_own_thread() {
        // As many workers as CPUs: llvmpipe rasterises on the worker's thread (0 threads).
        assert_eq!(
            counts(2, 2, &[]),
            pairs(&[("RAYON_NUM_THREADS", "1"), ("LP_NUM_THREADS", "0")])
        );
        // One worker on 8 CPUs gets all of them; three get two each.
        assert_eq!(
            counts(8, 1, &[]),
            pairs(&[("RAYON_NUM_THREADS", "8"), ("LP_NUM_THREADS", "8")])
        );
        assert_eq!(
            counts(8, 3, &[]),
            pairs(&[("RAYON_NUM_THREADS", "2"), ("LP_NUM_THREADS", "2")])
        );
        // More workers than CPUs, or none asked for: never fewer than one share.
        assert_eq!(counts(2, 16, &[])[0].1, "1");
        assert_eq!(counts(4, 0, &[])[0].1, "4");
    }

    #[test]
    fn a_run_starts_no_more_workers_than_tests() {
        // One test at `-j 2` on 2 CPUs: one worker, which gets both CPUs.
        assert_eq!(worker_count(2, 1), 1);
        assert_eq!(
            counts(2, worker_count(2, 1), &[]),
            pairs(&[("RAYON_NUM_THREADS", "2"), ("LP_NUM_THREADS", "2")])
        );
        assert_eq!(worker_count(2, 356), 2);
        // Nothing left to run still opens one worker (it says what the run opened).
        assert_eq!(worker_count(2, 0), 1);
    }

    #[test]
    fn a_count_the_user_set_is_left_alone() {
        assert_eq!(
            counts(2, 2, &["LP_NUM_THREADS"]),
            pairs(&[("RAYON_NUM_THREADS", "1")])
        );
        assert!(counts(2, 2, &["LP_NUM_THREADS", "RAYON_NUM_THREADS"]).is_empty());
    }
}
