//! `halfcheck try FILE`: runs one test on every lane this machine has (`halfcheck lanes`), each
//! judged by its own profile, and on piglit's `shader_runner` under each Mesa lane that opened,
//! and prints one table: status, verdict, what the header expects, and per probe how far the
//! driver's value lies outside `H` (as floats / in the 8-bit view beyond the tolerance). It
//! exits 1 when a lane's verdict is not what the header expects there, or when the header
//! claims lowering on llvmpipe and piglit's statuses cannot tell llvmpipe from softpipe.
//!
//! Each lane's results go to `DIR/<lane>/` (`--results`, default `results/try`).

use super::header::Header;
use super::margin::{outside, tolerance_of};
use super::read_test;
use crate::lanes::{Lane, LANES};
use crate::runner::journal::load_results;
use halfcheck_results::TestResult;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// Where Debian's piglit package keeps its runners.
const PIGLIT_BIN: &str = "/usr/lib/x86_64-linux-gnu/piglit/bin";

/// `halfcheck try`'s arguments.
#[derive(clap::Args, Debug)]
pub(crate) struct TryArgs {
    /// The `.shader_test` file.
    file: PathBuf,
    /// Directory for each lane's results (`DIR/<lane>/`, replaced each time).
    #[arg(long, default_value = "results/try")]
    results: PathBuf,
    /// Seconds each lane and each piglit run may take.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
}

/// One row of the table.
struct Row {
    name: String,
    status: String,
    verdict: String,
    expected: String,
    margins: String,
}

/// Runs `halfcheck try`.
pub(crate) fn run(args: &TryArgs) -> ExitCode {
    let (text, _) = match read_test(&args.file) {
        Ok(read) => read,
        Err(e) => return super::fail(&e.to_string()),
    };
    let header = Header::read(&text);
    let limit = Duration::from_secs_f64(args.timeout.max(1.0));
    let mut rows = Vec::new();
    let mut misses = Vec::new();
    let mut opened = Vec::new();
    for lane in &LANES {
        let expected = header.expected(lane.name).unwrap_or("-").to_string();
        let row = match run_lane(&args.file, lane, &args.results.join(lane.name), limit) {
            Ok(result) => {
                opened.push(lane);
                let verdict = result.verdict.map_or("-", |v| v.as_str()).to_string();
                if expected != "-" && verdict != expected {
                    misses.push(format!("{}: {verdict}, expected {expected}", lane.name));
                }
                Row {
                    name: lane.name.to_string(),
                    status: result.status.as_str().to_string(),
                    verdict,
                    expected,
                    margins: margins(&result),
                }
            }
            Err(why) => Row {
                name: lane.name.to_string(),
                status: "unavailable".to_string(),
                verdict: "-".to_string(),
                expected,
                margins: why,
            },
        };
        rows.push(row);
    }
    let mut piglit = Vec::new();
    if let Some(runner) = piglit_runner(&text) {
        for lane in opened.iter().filter(|l| l.platform.is_none()) {
            let status = run_piglit(&runner, &args.file, lane, limit);
            piglit.push((lane.name, status.clone()));
            rows.push(Row {
                name: format!("piglit {}", lane.name),
                status,
                verdict: "-".to_string(),
                expected: "-".to_string(),
                margins: format!("{} (8-bit window)", runner.display()),
            });
        }
    }
    let status_of = |name: &str| piglit.iter().find(|(l, _)| *l == name).map(|(_, s)| s);
    if matches!(header.expected("llvmpipe"), Some("lowered" | "partial")) {
        if let (Some(a), Some(b)) = (status_of("llvmpipe"), status_of("softpipe")) {
            if a == b {
                misses.push(format!(
                    "piglit: {a} on llvmpipe and on softpipe: its 8-bit view does not tell them apart"
                ));
            }
        }
    }
    print_table(&rows);
    for miss in &misses {
        crate::console::print(&format!("does not discriminate as claimed: {miss}\n"));
    }
    if misses.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Runs the file on `lane` with `halfcheck run` in a process of its own; its one result, or
/// why the lane did not open.
fn run_lane(file: &Path, lane: &Lane, dir: &Path, limit: Duration) -> Result<TestResult, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find halfcheck: {e}"))?;
    let mut command = Command::new(exe);
    command
        .arg("run")
        .arg(file)
        .args([
            "--backend",
            "gl",
            "--lane",
            lane.name,
            "--no-report",
            "--force",
            "-j",
            "1",
        ])
        .args(["--no-verdict-cache", "--timeout"])
        .arg(format!("{}", limit.as_secs_f64()))
        .arg("--results")
        .arg(dir);
    if halfcheck_emu::load_profile(lane.name).is_ok() {
        command.args(["--emu-profile", lane.name]);
    }
    if lane.platform.is_some() {
        if let Some(library) = std::env::var_os("HALFCHECK_ANGLE_LIBRARY") {
            command.arg("--gl-library").arg(library);
        }
    }
    let output = wait(command, limit + Duration::from_secs(30))?;
    if output.0 == Some(2) || !dir.join(crate::runner::journal::RESULTS).exists() {
        let why = output
            .1
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("it did not open")
            .trim_start_matches("halfcheck: ")
            .to_string();
        return Err(why);
    }
    let loaded = load_results(dir)?;
    loaded
        .results
        .tests
        .into_values()
        .next()
        .ok_or_else(|| "no result".to_string())
}

/// Runs `command` for at most `limit`: its exit code and stderr (`None`: killed).
fn wait(mut command: Command, limit: Duration) -> Result<(Option<i32>, String), String> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() > limit => {
                let _ = child.kill();
                break;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e.to_string()),
        }
    }
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let mut text = String::from_utf8_lossy(&output.stderr).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stdout));
    Ok((output.status.code(), text))
}

/// Per probe, `line: float / 8-bit`: how far the driver's value lies outside `H` on the
/// probe's best judged channel.
fn margins(result: &TestResult) -> String {
    let probes: Vec<String> = result
        .probes
        .iter()
        .filter_map(|p| {
            let best = p
                .channels
                .iter()
                .enumerate()
                .map(|(c, ch)| {
                    outside(
                        ch.observed,
                        ch.highp_bounds.lo,
                        ch.highp_bounds.hi,
                        tolerance_of(&p.tolerance, c),
                    )
                })
                .max_by(|a, b| a.0.total_cmp(&b.0))?;
            Some(format!("{}: {:.2e} / {:.3}", p.line, best.0, best.1))
        })
        .collect();
    if probes.is_empty() {
        "-".to_string()
    } else {
        probes.join(", ")
    }
}

/// piglit's GL ES runner for the file (`shader_runner_gles3` for `GL ES >= 3`), when installed.
fn piglit_runner(text: &str) -> Option<PathBuf> {
    let es3 = text.lines().any(|l| {
        l.trim()
            .strip_prefix("GL ES >=")
            .and_then(|v| v.trim().parse::<f64>().ok())
            .is_some_and(|v| v >= 3.0)
    });
    let runner = Path::new(PIGLIT_BIN).join(if es3 {
        "shader_runner_gles3"
    } else {
        "shader_runner_gles2"
    });
    runner.is_file().then_some(runner)
}

/// piglit's status for the file on `lane`'s driver (`-auto -fbo`, surfaceless EGL).
fn run_piglit(runner: &Path, file: &Path, lane: &Lane, limit: Duration) -> String {
    let mut command = Command::new(runner);
    command
        .arg(file)
        .args(["-auto", "-fbo"])
        .env("PIGLIT_PLATFORM", "surfaceless_egl");
    for (key, value) in lane.environment {
        command.env(key, value);
    }
    match wait(command, limit) {
        Ok((None, _)) => "timeout".to_string(),
        Ok((_, output)) => output
            .lines()
            .find_map(|l| l.trim().strip_prefix("PIGLIT: "))
            .and_then(|json| serde_json::from_str::<serde_json::Value>(json).ok())
            .and_then(|v| v.get("result").and_then(|r| r.as_str()).map(str::to_string))
            .unwrap_or_else(|| "crash".to_string()),
        Err(e) => format!("error: {e}"),
    }
}

/// The table, columns padded to their widest cell.
fn print_table(rows: &[Row]) {
    let head = [
        "lane",
        "status",
        "verdict",
        "expected",
        "outside H per probe (line: float / 8-bit)",
    ];
    let cells: Vec<[&str; 5]> = rows
        .iter()
        .map(|r| [&*r.name, &*r.status, &*r.verdict, &*r.expected, &*r.margins])
        .collect();
    let mut widths = head.map(str::len);
    for row in &cells {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    let line = |row: &[&str; 5]| {
        let mut text = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i + 1 == row.len() {
                text.push_str(cell);
            } else {
                text.push_str(&format!("{cell:<w$}  ", w = widths[i]));
            }
        }
        text.push('\n');
        text
    };
    crate::console::print(&line(&head));
    for row in &cells {
        crate::console::print(&line(row));
    }
}
