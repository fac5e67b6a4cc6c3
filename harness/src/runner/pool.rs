//! The parent side of the worker processes: hands out jobs, enforces the per-test timeout,
//! and replaces a worker that crashed or hung so the rest of the run goes on.

use super::protocol::{Job, Reply};
use crate::results::{RunInfo, Status, TestResult};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How to start a worker process.
#[derive(Debug, Clone)]
pub struct WorkerCommand {
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

/// A running worker process.
pub struct Worker {
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<Reply>,
    stderr_tail: Arc<Mutex<String>>,
}

impl Worker {
    /// Starts a worker and waits until its backend is open.
    pub fn start(command: &WorkerCommand) -> Result<(Worker, RunInfo), String> {
        let mut child = Command::new(&command.exe)
            .args(&command.args)
            .envs(command.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
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
                    // Drivers sometimes print to stdout; only JSON lines are replies.
                    Err(_) => {
                        eprintln!("worker: {line}");
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
        let mut worker = Worker {
            child,
            stdin,
            replies,
            stderr_tail,
        };
        match worker.replies.recv_timeout(START_TIMEOUT) {
            Ok(Reply::Ready(info)) => Ok((worker, *info)),
            Ok(Reply::Fatal(message)) => {
                worker.stop();
                Err(message)
            }
            Ok(Reply::Result(_)) => {
                worker.stop();
                Err("worker answered before it was ready".to_string())
            }
            Err(_) => {
                let died = worker.stop();
                Err(format!("worker did not start: {died}"))
            }
        }
    }

    /// Runs one job; on a crash or timeout the worker is gone and the result says so.
    pub fn run(mut self, job: &Job, timeout: Duration) -> (Option<Worker>, TestResult) {
        let sent = serde_json::to_string(job)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                writeln!(self.stdin, "{text}")
                    .and_then(|_| self.stdin.flush())
                    .map_err(|e| e.to_string())
            });
        if let Err(e) = sent {
            let died = self.stop();
            return (
                None,
                crashed(format!("cannot send the test to the worker ({e}); {died}")),
            );
        }
        match self.replies.recv_timeout(timeout) {
            Ok(Reply::Result(result)) => (Some(self), *result),
            Ok(other) => {
                let died = self.stop();
                (
                    None,
                    crashed(format!("unexpected worker reply {other:?}; {died}")),
                )
            }
            Err(RecvTimeoutError::Timeout) => {
                self.stop();
                let mut result = TestResult::with_status(
                    Status::Timeout,
                    format!(
                        "no result after {} s; the worker was killed",
                        timeout.as_secs_f64()
                    ),
                );
                result.duration_s = timeout.as_secs_f64();
                (None, result)
            }
            Err(RecvTimeoutError::Disconnected) => {
                let died = self.stop();
                (None, crashed(died))
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
        if tail.is_empty() {
            format!("worker ended: {status}")
        } else {
            format!("worker ended: {status}; its stderr ended with: {tail}")
        }
    }

    /// Closes the worker's stdin and waits for it to exit.
    pub fn finish(mut self) {
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

/// Runs `jobs` on `threads` workers, starting with `first` (already started).
///
/// `on_result` sees every result as it arrives, from several threads.
pub fn run_pool(
    command: &WorkerCommand,
    first: Worker,
    jobs: Vec<Job>,
    threads: usize,
    timeout: Duration,
    on_result: &(dyn Fn(&Job, TestResult) + Sync),
) {
    let queue = Mutex::new(jobs.into_iter().collect::<VecDeque<_>>());
    let first = Mutex::new(Some(first));
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut worker = first.lock().ok().and_then(|mut w| w.take());
                while let Some(job) = queue.lock().ok().and_then(|mut q| q.pop_front()) {
                    let current = match worker.take() {
                        Some(w) => w,
                        None => match Worker::start(command) {
                            Ok((w, _)) => w,
                            Err(e) => {
                                on_result(&job, crashed(format!("cannot restart the worker: {e}")));
                                continue;
                            }
                        },
                    };
                    let (next, result) = current.run(&job, timeout);
                    worker = next;
                    on_result(&job, result);
                }
                if let Some(w) = worker {
                    w.finish();
                }
            });
        }
    });
}
