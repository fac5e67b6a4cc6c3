//! The parent side of the worker processes: hands out jobs, enforces the per-test timeout,
//! replaces a worker that crashed or hung so the rest of the run goes on, reruns unexpected
//! results (`--retries`) and stops handing out jobs once the run is interrupted.

use super::interrupt::Interrupt;
use super::protocol::{Job, Reply};
use super::worker::{DEFAULT_MEMORY_MIB, MEMORY_LIMIT_ENV};
use crate::results::{RunInfo, Status, TestResult};
use crate::review::settle;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How to start a worker process.
#[derive(Debug, Clone)]
pub(super) struct WorkerCommand {
    /// The `halfcheck` executable.
    pub exe: PathBuf,
    /// Arguments after the executable (`worker --backend gl ...`).
    pub args: Vec<String>,
    /// Extra environment for the worker.
    pub env: Vec<(String, String)>,
}

/// How long a worker may take to open its backend.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How much of a worker's stderr is kept for a crash report.
const STDERR_TAIL: usize = 2000;
/// How often a waiting thread looks whether the run was interrupted.
const POLL: Duration = Duration::from_millis(50);

/// How one job on one worker ended.
pub(super) enum Ran {
    /// It has a result; the worker is still usable when it is `Some`.
    Done(Option<Worker>, Box<TestResult>),
    /// The run was interrupted while it ran: the worker was killed, nothing was measured.
    Abandoned,
}

/// A running worker process.
pub(super) struct Worker {
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<Reply>,
    stderr_tail: Arc<Mutex<String>>,
    memory: Memory,
}

/// A worker's memory limit and the most it was seen to hold, to say when a crash was the
/// limit: Rust code says so on stderr when an allocation fails, Mesa's C code just crashes.
#[derive(Debug, Default)]
struct Memory {
    /// The limit the worker runs under, in bytes (`None`: none).
    limit: Option<u64>,
    /// The most data it was seen to hold (`/proc/PID/statm`), in bytes.
    peak: u64,
}

impl Memory {
    /// The limit `command` gives its worker.
    fn of(command: &WorkerCommand) -> Memory {
        let mib = command
            .env
            .iter()
            .find(|(k, _)| k == MEMORY_LIMIT_ENV)
            .and_then(|(_, v)| v.parse::<u64>().ok())
            .unwrap_or(DEFAULT_MEMORY_MIB);
        Memory {
            limit: (mib > 0).then(|| mib.saturating_mul(1 << 20)),
            peak: 0,
        }
    }

    /// Notes what process `pid` holds now (its data and stack, what the limit counts).
    fn sample(&mut self, pid: u32) {
        let data_pages = std::fs::read_to_string(format!("/proc/{pid}/statm"))
            .ok()
            .and_then(|statm| statm.split_whitespace().nth(5)?.parse::<u64>().ok());
        if let Some(pages) = data_pages {
            self.peak = self.peak.max(pages.saturating_mul(PAGE_BYTES));
        }
    }

    /// Why a worker that ended with `stderr_tail` ran out of memory, if it did: its stderr
    /// says an allocation failed, or it was seen holding three quarters of its limit.
    fn exhausted(&self, stderr_tail: &str) -> Option<String> {
        let limit = self.limit?;
        let said = [
            "memory allocation of",
            "out of memory",
            "Out of memory",
            "std::bad_alloc",
        ]
        .iter()
        .any(|m| stderr_tail.contains(m));
        (said || self.peak >= limit / 4 * 3).then(|| {
            format!(
                "memory limit: the worker passed its limit of {} MiB (run --worker-memory), \
                 seen holding {} MiB",
                limit >> 20,
                self.peak >> 20
            )
        })
    }
}

/// The size of a page in `/proc/PID/statm` (4 KiB on every Linux halfcheck runs on).
const PAGE_BYTES: u64 = 4096;

/// A worker process started and still opening its backend.
pub(super) struct Starting {
    worker: Worker,
}

impl Starting {
    /// Waits until the worker's backend is open, and says what it opened. A worker still
    /// opening it when the run is interrupted, or after the start timeout, is stopped.
    pub(super) fn ready(self, interrupt: &Interrupt) -> Result<(Worker, RunInfo), String> {
        let mut worker = self.worker;
        let deadline = Instant::now() + START_TIMEOUT;
        let reply = loop {
            match worker.replies.recv_timeout(POLL) {
                Ok(reply) => break reply,
                Err(RecvTimeoutError::Timeout) if interrupt.is_set() => {
                    worker.stop();
                    return Err("the run was interrupted while a worker opened its backend".into());
                }
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Err(_) => {
                    let died = worker.stop();
                    return Err(format!("worker did not start: {died}"));
                }
            }
        };
        match reply {
            Reply::Ready(info) => Ok((worker, *info)),
            Reply::Fatal(message) => {
                worker.stop();
                Err(message)
            }
            Reply::Result(_) => {
                worker.stop();
                Err("worker answered before it was ready".to_string())
            }
        }
    }

    /// Stops a worker the run no longer needs: it has run nothing, and may still be opening
    /// its backend (or hang there), so it is killed rather than waited for.
    pub(super) fn stop(mut self) {
        self.worker.stop();
    }
}

impl Worker {
    /// Starts a worker and waits until its backend is open (or the run is interrupted).
    pub(super) fn start(
        command: &WorkerCommand,
        interrupt: &Interrupt,
    ) -> Result<(Worker, RunInfo), String> {
        Worker::spawn(command)?.ready(interrupt)
    }

    /// Starts a worker process without waiting for its backend, so that several open theirs
    /// at once.
    pub(super) fn spawn(command: &WorkerCommand) -> Result<Starting, String> {
        let mut child = Command::new(&command.exe)
            .args(&command.args)
            .envs(command.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own process group: a terminal's Ctrl-C reaches the parent alone, which
            // stops the workers itself and keeps what they finished.
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start worker {}: {e}", command.exe.display()))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err("worker started without pipes".to_string());
        };
        let (sender, replies) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let reply = match serde_json::from_str::<Reply>(&line) {
                    Ok(reply) => reply,
                    // A reply that cannot be read ends the job now rather than at its timeout.
                    Err(e) if line.starts_with("{\"") => {
                        Reply::Fatal(format!("unreadable reply from the worker: {e}"))
                    }
                    // Drivers sometimes print to stdout; only JSON lines are replies. The
                    // logger prints the line (escaped) above a live progress bar.
                    Err(_) => {
                        log::warn!("driver output on the worker's stdout: {line}");
                        continue;
                    }
                };
                if sender.send(reply).is_err() {
                    break;
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(String::new()));
        let tail = Arc::clone(&stderr_tail);
        std::thread::spawn(move || keep_tail(stderr, &tail));
        let worker = Worker {
            child,
            stdin,
            replies,
            stderr_tail,
            memory: Memory::of(command),
        };
        Ok(Starting { worker })
    }

    /// Runs one job; on a crash or timeout the worker is gone and the result says so.
    pub(super) fn run(mut self, job: &Job, timeout: Duration, interrupt: &Interrupt) -> Ran {
        let sent = serde_json::to_string(job)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                writeln!(self.stdin, "{text}")
                    .and_then(|_| self.stdin.flush())
                    .map_err(|e| e.to_string())
            });
        if let Err(e) = sent {
            let died = self.stop();
            return Ran::Done(
                None,
                Box::new(crashed(format!(
                    "cannot send the test to the worker ({e}); {died}"
                ))),
            );
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                self.stop();
                let mut result = TestResult::with_status(
                    Status::Timeout,
                    format!(
                        "no result after {} s; the worker was killed",
                        timeout.as_secs_f64()
                    ),
                );
                result.duration_s = timeout.as_secs_f64();
                return Ran::Done(None, Box::new(result));
            }
            match self.replies.recv_timeout(left.min(POLL)) {
                Ok(Reply::Result(result)) => return Ran::Done(Some(self), result),
                Ok(other) => {
                    let died = self.stop();
                    return Ran::Done(
                        None,
                        Box::new(crashed(format!(
                            "unexpected worker reply {other:?}; {died}"
                        ))),
                    );
                }
                Err(RecvTimeoutError::Timeout) if interrupt.is_set() => {
                    self.stop();
                    return Ran::Abandoned;
                }
                Err(RecvTimeoutError::Timeout) => self.memory.sample(self.child.id()),
                Err(RecvTimeoutError::Disconnected) => {
                    let died = self.stop();
                    return Ran::Done(None, Box::new(crashed(died)));
                }
            }
        }
    }

    /// Kills the worker if needed and says how it ended, with its last stderr lines.
    fn stop(&mut self) -> String {
        let status = match self.child.try_wait() {
            Ok(Some(status)) => status,
            _ => {
                self.child.kill().ok();
                match self.child.wait() {
                    Ok(status) => status,
                    Err(e) => return format!("worker could not be reaped: {e}"),
                }
            }
        };
        // Give the stderr reader a moment to drain what the worker wrote last.
        std::thread::sleep(Duration::from_millis(20));
        let tail = self
            .stderr_tail
            .lock()
            .map(|t| t.clone())
            .unwrap_or_default();
        let tail = tail.trim();
        let ended = if tail.is_empty() {
            format!("worker ended: {status}")
        } else {
            format!("worker ended: {status}; its stderr ended with: {tail}")
        };
        match self.memory.exhausted(tail) {
            Some(why) => format!("{why}; {ended}"),
            None => ended,
        }
    }

    /// Closes the worker's stdin and waits for it to exit.
    pub(super) fn finish(mut self) {
        drop(self.stdin);
        self.child.wait().ok();
    }
}

/// A `crash` result with a reason.
fn crashed(reason: String) -> TestResult {
    TestResult::with_status(Status::Crash, reason)
}

/// Keeps the last [`STDERR_TAIL`] bytes a worker writes to stderr.
fn keep_tail(mut stderr: impl Read, tail: &Mutex<String>) {
    let mut buffer = [0u8; 4096];
    while let Ok(n) = stderr.read(&mut buffer) {
        if n == 0 {
            break;
        }
        let Ok(mut kept) = tail.lock() else { break };
        kept.push_str(&String::from_utf8_lossy(&buffer[..n]));
        if kept.len() > STDERR_TAIL {
            let mut cut = kept.len() - STDERR_TAIL;
            while !kept.is_char_boundary(cut) {
                cut += 1;
            }
            kept.drain(..cut);
        }
    }
}

/// How the pool runs jobs.
pub(super) struct PoolSettings<'a> {
    /// How to start a replacement worker.
    pub command: &'a WorkerCommand,
    /// The backend the run opened (`gl`, `emu`): a worker started early must have opened it.
    pub backend: &'a str,
    /// Worker processes at once.
    pub threads: usize,
    /// Time limit per test.
    pub timeout: Duration,
    /// How many times a result that fails the run is run again.
    pub retries: u32,
    /// Whether a result fails the run (and so is run again): the run's `Review`.
    pub fails_run: &'a (dyn Fn(&str, &TestResult) -> bool + Sync),
    /// Set when no more jobs should start.
    pub interrupt: &'a Interrupt,
}

/// Runs `jobs` on `settings.threads` workers: `first` (ready), then `starting` (each taken
/// when it is ready and opened the run's backend, else replaced), then new ones as needed.
///
/// `on_result` sees every final result as it arrives, from several threads; a job abandoned
/// because the run was interrupted has none.
pub(super) fn run_pool(
    settings: &PoolSettings,
    first: Worker,
    starting: Vec<Starting>,
    jobs: Vec<Job>,
    on_result: &(dyn Fn(&Job, TestResult) + Sync),
) {
    let queue = Mutex::new(jobs.into_iter().collect::<VecDeque<_>>());
    let first = Mutex::new(Some(first));
    let starting = Mutex::new(starting);
    std::thread::scope(|scope| {
        for _ in 0..settings.threads.max(1) {
            scope.spawn(|| {
                let mut worker = first.lock().ok().and_then(|mut w| w.take());
                if worker.is_none() {
                    let next = starting.lock().ok().and_then(|mut s| s.pop());
                    worker = next.and_then(|s| ready_for(settings.backend, s, settings.interrupt));
                }
                while let Some(job) = next_job(&queue, settings.interrupt) {
                    if let Some(result) = run_with_retries(settings, &mut worker, &job) {
                        on_result(&job, result);
                    }
                }
                if let Some(w) = worker {
                    w.finish();
                }
            });
        }
    });
    if let Ok(left) = starting.into_inner() {
        left.into_iter().for_each(Starting::stop);
    }
}

/// `starting` once ready, when it opened the run's `backend` (`auto` may resolve otherwise
/// in one process); else `None`, and the pool starts a worker for the run's backend.
fn ready_for(backend: &str, starting: Starting, interrupt: &Interrupt) -> Option<Worker> {
    match starting.ready(interrupt) {
        Ok((worker, info)) if info.backend == backend => Some(worker),
        Ok((worker, _)) => {
            worker.finish();
            None
        }
        Err(_) => None,
    }
}

/// The next job, unless the run was interrupted.
fn next_job(queue: &Mutex<VecDeque<Job>>, interrupt: &Interrupt) -> Option<Job> {
    if interrupt.is_set() {
        return None;
    }
    queue.lock().ok().and_then(|mut q| q.pop_front())
}

/// Runs a job, and again while its result fails the run and retries are left; the runs are
/// settled into one result by the review's rule (`review::settle`: a flake only when the last
/// run met its expectation). `None` when interrupted.
fn run_with_retries(
    settings: &PoolSettings,
    worker: &mut Option<Worker>,
    job: &Job,
) -> Option<TestResult> {
    let fails = |result: &TestResult| (settings.fails_run)(&job.name, result);
    let mut runs = vec![run_once(settings, worker, job)?];
    while runs.last().is_some_and(&fails) && runs.len() <= settings.retries as usize {
        runs.push(run_once(settings, worker, job)?);
    }
    settle(runs, fails)
}

/// Runs a job once on `worker`, starting a fresh worker when there is none.
fn run_once(settings: &PoolSettings, worker: &mut Option<Worker>, job: &Job) -> Option<TestResult> {
    let current = match worker.take() {
        Some(w) => w,
        None if settings.interrupt.is_set() => return None,
        None => match Worker::start(settings.command, settings.interrupt) {
            Ok((w, _)) => w,
            // Interrupted while the new worker opened its backend: the job is abandoned, to
            // run again on `--resume`, not a crash.
            Err(_) if settings.interrupt.is_set() => return None,
            Err(e) => return Some(crashed(format!("cannot restart the worker: {e}"))),
        },
    };
    match current.run(job, settings.timeout, settings.interrupt) {
        Ran::Done(next, result) => {
            *worker = next;
            Some(*result)
        }
        Ran::Abandoned => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in worker: a shell running `script`.
    fn shell(script: &str) -> WorkerCommand {
        WorkerCommand {
            exe: PathBuf::from("sh"),
            args: vec!["-c".to_string(), script.to_string()],
            env: Vec::new(),
        }
    }

    /// A stand-in worker that prints `reply` and waits for its stdin to close.
    fn fake(reply: &str) -> WorkerCommand {
        shell(&format!("printf '%s\\n' '{reply}'; cat >/dev/null"))
    }

    /// The line a worker that opened `backend` prints.
    fn ready_on(backend: &str) -> String {
        let info = RunInfo {
            backend: backend.to_string(),
            ..RunInfo::default()
        };
        serde_json::to_string(&Reply::Ready(Box::new(info))).expect("serialises")
    }

    #[test]
    fn a_worker_started_early_serves_only_the_backend_the_run_opened() {
        let running = Interrupt::default();
        let same = Worker::spawn(&fake(&ready_on("gl"))).expect("starts");
        let other = Worker::spawn(&fake(&ready_on("emu"))).expect("starts");
        let kept = ready_for("gl", same, &running).expect("opened gl");
        kept.finish();
        assert!(ready_for("gl", other, &running).is_none(), "opened emu");
    }

    #[test]
    fn a_worker_that_ends_before_it_is_ready_says_so() {
        let running = Interrupt::default();
        let silent = Worker::spawn(&shell("exit 3")).expect("starts");
        let why = silent.ready(&running).err().expect("never ready");
        assert!(why.starts_with("worker did not start"), "{why}");
        let fatal = Worker::spawn(&fake(r#"{"fatal":"no EGL display"}"#)).expect("starts");
        assert_eq!(
            fatal.ready(&running).err().as_deref(),
            Some("no EGL display")
        );
    }

    #[test]
    fn a_worker_still_opening_its_backend_is_stopped_when_the_run_is_interrupted() {
        // A driver that hangs while it opens: without the interrupt, the 60 s start timeout.
        let hung = Worker::spawn(&shell("exec sleep 120")).expect("starts");
        let interrupt = Interrupt::default();
        interrupt.stop("--max-fails reached".to_string());
        let why = hung.ready(&interrupt).err().expect("never ready");
        assert!(why.contains("interrupted"), "{why}");
    }

    #[test]
    fn a_job_whose_new_worker_is_still_opening_when_the_run_is_interrupted_is_not_recorded() {
        let dir = tempfile::tempdir().expect("temp dir");
        let started = dir.path().join("started");
        std::fs::remove_file(&started).ok();
        // The first worker takes one job and dies with it; every later one hangs opening.
        let command = shell(&format!(
            "if [ -e {m} ]; then exec sleep 600; fi; touch {m}; printf '%s\\n' '{ready}'; \
             read job; exit 3",
            m = started.display(),
            ready = ready_on("mock")
        ));
        let (first, _) = Worker::start(&command, &Interrupt::default()).expect("first starts");
        let interrupt = Interrupt::default();
        let never = |_: &str, _: &TestResult| false;
        let settings = PoolSettings {
            command: &command,
            backend: "mock",
            threads: 1,
            timeout: Duration::from_secs(60),
            retries: 0,
            fails_run: &never,
            interrupt: &interrupt,
        };
        let job = |name: &str| Job {
            name: name.to_string(),
            path: PathBuf::from(name),
        };
        let recorded = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(500));
                interrupt.stop("stopped by the test".to_string());
            });
            let on_result = |job: &Job, result: TestResult| {
                if let Ok(mut r) = recorded.lock() {
                    r.push((job.name.clone(), result.status));
                }
            };
            run_pool(
                &settings,
                first,
                Vec::new(),
                vec![job("a"), job("b")],
                &on_result,
            );
        });
        // `b` is left for `--resume`, not recorded as a worker that could not restart.
        let recorded = recorded.into_inner().expect("not poisoned");
        assert_eq!(recorded, [("a".to_string(), Status::Crash)]);
    }

    #[test]
    fn a_worker_the_run_no_longer_needs_is_killed_even_while_it_hangs_opening() {
        let hung = Worker::spawn(&shell("exec sleep 600")).expect("starts");
        let pid = hung.worker.child.id();
        let (done, stopped) = mpsc::channel();
        std::thread::spawn(move || {
            hung.stop();
            done.send(()).ok();
        });
        // Waiting for it instead would take the whole 600 s.
        stopped
            .recv_timeout(Duration::from_secs(30))
            .expect("stop returned");
        assert!(
            !std::path::Path::new(&format!("/proc/{pid}")).exists(),
            "reaped"
        );
    }
}
