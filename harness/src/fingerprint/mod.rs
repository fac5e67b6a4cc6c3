//! `halfcheck fingerprint`: measures a driver's profile.
//!
//! The battery ([`battery`]: one small `.shader_test` per choice of the profile) is written to
//! a temporary directory and run like any other tests, through the runner's worker processes
//! on the chosen backend; what each probe read back then decides its choice ([`infer`]), and
//! the profile is written as YAML with the evidence for every choice.

pub mod battery;
pub mod infer;

use crate::backend::emu::Mode;
use crate::backend::BackendKind;
use crate::results::{RunInfo, TestResult};
use crate::review::Review;
use crate::runner::{run, Hooks, Progress, RunOptions, Settings};
use crate::verdict::ReferenceMode;
use halfcheck_compiler::Profile;
use infer::{reading, Inference, Inferrer, Reading};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How a fingerprint runs.
#[derive(Debug, Clone)]
pub struct FingerprintOptions {
    /// The backend the battery runs on.
    pub backend: BackendKind,
    /// The EGL device the GL backend uses (the first when `None`).
    pub gl_device: Option<usize>,
    /// The emulator's profile (a built-in name or an absolute path; the default when empty),
    /// for `--backend emu`.
    pub emu_profile: String,
    /// Worker processes.
    pub jobs: usize,
    /// Time limit per probe.
    pub timeout: Duration,
    /// The profile's name (default: the renderer's first word).
    pub name: Option<String>,
    /// The command line, for the run's record.
    pub command_line: Vec<String>,
}

/// Runs the battery and infers the profile.
pub fn fingerprint(options: &FingerprintOptions) -> Result<Profile, String> {
    let dir = scratch_dir()?;
    let result = measure(options, &dir);
    std::fs::remove_dir_all(&dir).ok();
    result
}

fn measure(options: &FingerprintOptions, dir: &Path) -> Result<Profile, String> {
    let inferrer = Inferrer::new(battery::battery());
    let probes = dir.join("probes");
    std::fs::create_dir_all(&probes).map_err(|e| format!("{}: {e}", probes.display()))?;
    for probe in inferrer.probes() {
        let path = probes.join(format!("{}.shader_test", probe.choice));
        std::fs::write(&path, &probe.text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let settings = Settings {
        backend: options.backend,
        gl_device: options.gl_device,
        emu_mode: Mode::Mediump,
        emu_profile: options.emu_profile.clone(),
        jobs: options.jobs,
        timeout_s: options.timeout.as_secs_f64(),
        retries: 0,
        max_fails: None,
        framebuffers: false,
        reference: ReferenceMode::None,
        exact_windows: true,
        // The inference predicts each probe itself; the run's verdicts would be unread.
        verdicts: false,
        worker_memory_mib: crate::runner::default_worker_memory(),
    };
    let review = Review::default();
    let outcome = run(
        &RunOptions {
            paths: vec![probes],
            include: Vec::new(),
            exclude: Vec::new(),
            test_list: None,
            shard: None,
            settings,
            results_dir: dir.join("results"),
            force: true,
        },
        &Hooks {
            command_line: options.command_line.clone(),
            renderer_guard: None,
            review: &review,
            progress: &Quiet,
        },
    )?;
    let observed: BTreeMap<String, Reading> = outcome
        .results
        .tests
        .iter()
        .map(|(name, result)| {
            // Named from the battery's folder: `probes/CHOICE.shader_test`.
            let file = name.strip_prefix("probes/").unwrap_or(name);
            let key = file.strip_suffix(".shader_test").unwrap_or(file);
            (key.to_owned(), reading(result))
        })
        .collect();
    let Inference {
        choices,
        evidence,
        undetermined,
    } = inferrer.infer(&observed);
    let run = &outcome.results.run;
    let version = run.versions.get("GL_VERSION").cloned().unwrap_or_default();
    let name = options
        .name
        .clone()
        .unwrap_or_else(|| default_name(&run.renderer));
    let describes = format!(
        "{} ({version}){}, fingerprinted by halfcheck {} on {}",
        run.renderer,
        driver_environment(),
        env!("CARGO_PKG_VERSION"),
        run.started.get(..10).unwrap_or(&run.started)
    );
    let mut profile = Profile::new(&name, &describes, choices);
    profile.evidence = evidence;
    profile.undetermined = undetermined;
    Ok(profile)
}

/// The battery's probes are no user's tests: their progress is not shown.
struct Quiet;

impl Progress for Quiet {
    fn start(&self, _info: &RunInfo, _to_run: usize, _done: &BTreeMap<String, TestResult>) {}
    fn finished(&self, _name: &str, _result: &TestResult) {}
}

/// The environment variables that pick or configure Mesa's driver (`GALLIUM_DRIVER`,
/// `GALLIUM_NOSSE`, `LP_*`), as ` with NAME=VALUE ...`, or nothing.
fn driver_environment() -> String {
    let mut set: Vec<String> = std::env::vars()
        .filter(|(k, _)| k.starts_with("GALLIUM_") || k.starts_with("LP_"))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    set.sort();
    if set.is_empty() {
        String::new()
    } else {
        format!(" with {}", set.join(" "))
    }
}

/// A profile name from a renderer string: its first word, lower case (`llvmpipe`).
fn default_name(renderer: &str) -> String {
    let word: String = renderer
        .split_whitespace()
        .next()
        .unwrap_or("driver")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    if word.is_empty() {
        "driver".into()
    } else {
        word.to_ascii_lowercase()
    }
}

/// A fresh directory for the battery and its results.
fn scratch_dir() -> Result<PathBuf, String> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let dir = std::env::temp_dir().join(format!(
        "halfcheck-fingerprint-{}-{nanos}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}
