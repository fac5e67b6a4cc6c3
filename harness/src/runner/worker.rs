//! The worker process: opens one backend and runs the jobs its parent sends, one at a time.
//!
//! A driver that crashes or hangs takes only its worker down; the parent records the test as
//! `crash` or `timeout` and starts a new worker for the rest. `HALFCHECK_WORKER_FAULT` lets
//! tests make a worker crash or hang on purpose (`crash=REGEX`, `crash-once=REGEX` for a
//! flaky test, `hang=REGEX`, `hang-start=REGEX` on the backend's name before it opens,
//! `;`-separated), the way deqp-runner's mock test binary does.

use super::driver_ir;
use super::protocol::{Job, Reply};
use super::verdict_cache::VerdictCache;
use crate::backend::{open_backend, BackendKind, BackendOptions};
use crate::results::{FramebufferFile, RunInfo, Status, TestResult};
use clap::ValueEnum;
use halfcheck_emu as emu;
use halfcheck_piglit::shader_test::{parse_bytes, read_file};
use halfcheck_piglit::WindowImage;
use halfcheck_verdict as verdict;
use regex::Regex;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::mpsc;
use std::time::Instant;

/// Runs the worker loop on stdin/stdout until stdin closes. Returns the process exit code.
pub(crate) fn worker_main(kind: BackendKind, options: &BackendOptions) -> i32 {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let faults = Faults::from_env();
    limit_memory();
    if let Some(name) = kind.to_possible_value() {
        faults.hang_before_opening(name.get_name());
    }
    if matches!(kind, BackendKind::Gl | BackendKind::Auto) {
        super::cache::create_dir_from_env();
    }
    let ir_dir = options
        .driver_ir
        .as_deref()
        .filter(|_| matches!(kind, BackendKind::Gl | BackendKind::Auto));
    if ir_dir.is_some() {
        driver_ir::ask();
    }
    // The run checked the profile before it started the workers.
    let opened = emu::profile_of(&options.emu_profile)
        .map_err(|e| e.to_string())
        .and_then(|profile| match open_backend(kind, options, &profile) {
            Ok(opened) => Ok((opened, profile)),
            Err(e) => Err(e.to_string()),
        });
    let (mut backend, fallback, profile) = match opened {
        Ok((opened, profile)) => (opened.backend, opened.fallback, profile),
        Err(message) => {
            send(&mut out, &Reply::Fatal(message));
            return 2;
        }
    };
    // The mock backend runs nothing, so there is nothing to judge; `--no-verdicts` judges nothing.
    let judges = kind != BackendKind::Mock && options.verdicts;
    if options.framebuffers.is_some() {
        backend.keep_windows();
    }
    if !options.exact_windows {
        backend.narrow_windows();
    }
    let mut info = RunInfo {
        fallback,
        ..backend.run_info()
    };
    if judges {
        info.reference = Some(options.reference.name().to_string());
        info.predictions = verdict::describe(&profile);
    }
    // Only Mesa's state tracker prints its IR; the emulator a run fell back to has none.
    let ir_dir = ir_dir.filter(|_| info.backend == "gl" && driver_ir::is_mesa(&info));
    let verdicts = options
        .verdict_cache
        .clone()
        .filter(|_| judges)
        .and_then(|dir| VerdictCache::new(dir, options, &crate::lane::driver_environment()));
    if !send(&mut out, &Reply::Ready(Box::new(info))) {
        return 1;
    }
    for line in jobs_until_parent_goes() {
        let result = match serde_json::from_str::<Job>(&line) {
            Ok(job) => {
                faults.inject(&job.name);
                let start = Instant::now();
                let read = read_file(&job.path)
                    .and_then(|bytes| Ok((parse_bytes(&job.path, &bytes)?, bytes)));
                let mut result = match read {
                    Ok((test, bytes)) => {
                        // A test with nothing lowp or mediump gets no verdict, and one the
                        // emulator cannot predict is unjudged: neither needs exact floats.
                        let reduced = judges && verdict::declares_reduced_precision(&test);
                        backend.exact_window(reduced && verdict::predictable(&test));
                        let (mut result, test_ir) =
                            driver_ir::run(ir_dir.is_some(), || backend.run_test(&test));
                        // The test's own window, before a reference run replaces it.
                        let window = backend.take_window();
                        let mut reference_ir = None;
                        if judges {
                            let mut reference = |promoted: &_| {
                                let (result, captured) =
                                    driver_ir::run(ir_dir.is_some(), || backend.run_test(promoted));
                                reference_ir = captured;
                                result
                            };
                            let judging = verdict::Judging {
                                reference: options.reference,
                                driver: &profile.choices,
                            };
                            match &verdicts {
                                Some(cache) => cache.attach(
                                    (&job.path, &bytes),
                                    &test,
                                    reduced,
                                    &mut result,
                                    judging,
                                    &mut reference,
                                ),
                                None => verdict::attach(
                                    &test,
                                    reduced,
                                    &mut result,
                                    judging,
                                    &mut reference,
                                ),
                            }
                        }
                        if let Some(dir) = ir_dir {
                            let record = driver_ir::Record {
                                dir,
                                name: &job.name,
                                test: &test,
                                driver: &profile.choices,
                            };
                            record.keep(test_ir, reference_ir, &mut result);
                        }
                        if let (Some(dir), Some(window)) = (&options.framebuffers, window) {
                            keep_window(dir, &job.name, &window, &mut result);
                        }
                        result
                    }
                    Err(e) => TestResult::with_status(Status::Error, e.to_string()),
                };
                result.duration_s = start.elapsed().as_secs_f64();
                result
            }
            Err(e) => TestResult::with_status(Status::Error, format!("bad job from parent: {e}")),
        };
        if !send(&mut out, &Reply::Result(Box::new(result))) {
            return 1;
        }
    }
    0
}

/// How a worker learns its memory limit from its parent, in MiB (`run --worker-memory`;
/// 0 for none).
pub(super) const MEMORY_LIMIT_ENV: &str = "HALFCHECK_WORKER_MEMORY_MIB";

/// A worker's memory limit when its parent names none, in MiB: with the libraries' code, a
/// worker stays under 2 GB. Measured (emulator, verdicts on): a test holds about 400 bytes per
/// window pixel and 40 more per probed pixel, so a 2048x2048 window with one `probe all` fits
/// (1.6 GB) and one with four does not; such a test is a `crash` that names the limit.
pub(super) const DEFAULT_MEMORY_MIB: u64 = 1792;

/// Limits this worker's memory (`RLIMIT_DATA`: its heap and private writable mappings, not
/// the address space llvmpipe reserves and never touches) before it opens a backend. An
/// allocation past it fails, the worker ends, and its parent records the test as a `crash`
/// whose reason names the memory limit; the run goes on with a new worker.
fn limit_memory() {
    let mib = std::env::var(MEMORY_LIMIT_ENV)
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(DEFAULT_MEMORY_MIB);
    if mib == 0 {
        return;
    }
    let bytes = mib.saturating_mul(1 << 20);
    let limit = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: setrlimit only reads the struct passed, and changes only this process's limit.
    if unsafe { libc::setrlimit(libc::RLIMIT_DATA, &limit) } != 0 {
        eprintln!(
            "halfcheck worker: cannot limit its memory to {mib} MiB: {}",
            std::io::Error::last_os_error()
        );
    }
}

/// Writes the test's window framebuffer to `DIR/<name>.rgba32f` and records it in the
/// result (or why it could not be written, in `logs["framebuffer"]`).
fn keep_window(dir: &Path, name: &str, window: &WindowImage, result: &mut TestResult) {
    let file = format!("{name}.{}", WindowImage::EXTENSION);
    match window.write(&dir.join(&file)) {
        Ok(()) => {
            result.framebuffer = Some(FramebufferFile {
                path: format!("framebuffers/{file}"),
                width: window.width,
                height: window.height,
            })
        }
        Err(why) => {
            result.logs.insert("framebuffer".into(), why.to_string());
        }
    }
}

/// The lines the parent sends. stdin is read on a thread of its own, so that when it closes
/// (the parent is done, or was killed) the worker exits at once, even in the middle of a test
/// that hangs: no worker outlives its parent.
fn jobs_until_parent_goes() -> mpsc::IntoIter<String> {
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                return;
            }
        }
        std::process::exit(0);
    });
    lines.into_iter()
}

/// Writes one reply line; false when the parent has gone.
fn send(out: &mut impl Write, reply: &Reply) -> bool {
    match serde_json::to_string(reply) {
        Ok(text) => writeln!(out, "{text}").and_then(|_| out.flush()).is_ok(),
        Err(_) => false,
    }
}

/// Deliberate faults for testing crash and hang recovery, and a driver that prints.
struct Faults {
    crash: Option<Regex>,
    crash_once: Option<Regex>,
    hang: Option<Regex>,
    hang_start: Option<Regex>,
    chatter: Option<Regex>,
}

impl Faults {
    /// Reads `HALFCHECK_WORKER_FAULT`; invalid patterns are ignored with a warning.
    fn from_env() -> Self {
        let mut faults = Faults {
            crash: None,
            crash_once: None,
            hang: None,
            hang_start: None,
            chatter: None,
        };
        let Ok(spec) = std::env::var("HALFCHECK_WORKER_FAULT") else {
            return faults;
        };
        for part in spec.split(';') {
            let Some((what, pattern)) = part.split_once('=') else {
                continue;
            };
            match (what.trim(), Regex::new(pattern)) {
                ("crash", Ok(re)) => faults.crash = Some(re),
                ("crash-once", Ok(re)) => faults.crash_once = Some(re),
                ("hang", Ok(re)) => faults.hang = Some(re),
                ("hang-start", Ok(re)) => faults.hang_start = Some(re),
                ("chatter", Ok(re)) => faults.chatter = Some(re),
                _ => eprintln!("halfcheck worker: ignoring fault '{part}'"),
            }
        }
        faults
    }

    /// Hangs, as a driver stuck in its initialisation, when `backend` (`gl`, `emu`, ...)
    /// matches `hang-start`.
    fn hang_before_opening(&self, backend: &str) {
        if self
            .hang_start
            .as_ref()
            .is_some_and(|re| re.is_match(backend))
        {
            hang();
        }
    }

    /// Crashes or hangs when the test's name matches. `crash-once` crashes only the first
    /// time a test runs: it leaves a file named after the test in the directory
    /// `HALFCHECK_WORKER_FAULT_STATE`, which survives the crashed worker. `chatter` prints a
    /// line to stdout, the protocol's channel, as some drivers do.
    fn inject(&self, name: &str) {
        if self.chatter.as_ref().is_some_and(|re| re.is_match(name)) {
            println!("driver chatter while running {name}");
        }
        if self.crash.as_ref().is_some_and(|re| re.is_match(name)) {
            std::process::abort();
        }
        if self.crash_once.as_ref().is_some_and(|re| re.is_match(name)) {
            if let Some(state) = std::env::var_os("HALFCHECK_WORKER_FAULT_STATE") {
                let mark = std::path::Path::new(&state).join(name.replace('/', "@"));
                if std::fs::File::create_new(&mark).is_ok() {
                    std::process::abort();
                }
            }
        }
        if self.hang.as_ref().is_some_and(|re| re.is_match(name)) {
            hang();
        }
    }
}

/// Never returns.
fn hang() -> ! {
    loop {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
}
