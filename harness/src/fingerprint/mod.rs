//! `halfcheck fingerprint`: measures a driver's profile.
//!
//! The battery ([`battery`]: one small `.shader_test` per choice of the profile) is written to
//! a temporary directory and run like any other tests, through the runner's worker processes
//! on the chosen backend; what each probe read back then decides its choice ([`infer`]), and
//! the profile is written as YAML with the evidence for every choice.

pub mod battery;
pub mod infer;

use crate::backend::BackendKind;
use crate::lane::lane;
use crate::results::{RunInfo, TestResult};
use crate::review::{Finding, Review};
use crate::runner::{run, Hooks, Progress, RunOptions, Settings};
use halfcheck_emu::Mode;
use halfcheck_emu::Profile;
use halfcheck_verdict::ReferenceMode;
use infer::{reading, Inference, Inferrer, Reading};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// How a fingerprint runs.
#[derive(Debug, Clone)]
pub(crate) struct FingerprintOptions {
    /// The backend the battery runs on.
    pub backend: BackendKind,
    /// The EGL library, platform and device the GL backend opens.
    pub gl: crate::backend::gl::EglChoice,
    /// The emulator's profile (a built-in name or an absolute path; the default when empty),
    /// for `--backend emu`.
    pub emu_profile: String,
    /// Worker processes.
    pub jobs: usize,
    /// Time limit per probe.
    pub timeout: Duration,
    /// The profile's name (default: the run's lane, `llvmpipe-nosse` for llvmpipe with
    /// `GALLIUM_NOSSE=1`).
    pub name: Option<String>,
    /// The command line, for the run's record.
    pub command_line: Vec<String>,
}

/// Runs the battery and infers the profile.
pub(crate) fn fingerprint(options: &FingerprintOptions) -> Result<Profile, String> {
    // Removed when dropped, whatever `measure` returns.
    let dir = tempfile::Builder::new()
        .prefix("halfcheck-fingerprint-")
        .tempdir()
        .map_err(|e| format!("cannot make a temporary directory for the battery: {e}"))?;
    measure(options, dir.path())
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
        gl_device: options.gl.device,
        gl_library: options.gl.library.clone(),
        gl_platform: options.gl.platform,
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
        // Probes of one battery, compiled once: nothing worth keeping.
        shader_cache: None,
        verdict_cache: None,
        report: false,
        worker_memory_mib: crate::runner::default_worker_memory(),
        judge: Default::default(),
        // The probes are judged by their numbers alone.
        driver_ir: false,
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
    let name = options.name.clone().unwrap_or_else(|| lane(run));
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

/// The profile as the YAML file `fingerprint -o` writes: the profile's own YAML, with every
/// choice the battery left undetermined marked on its line in `choices:`, so a kept default
/// is never silent (the value stays, so the file still reads as a profile; why is under
/// `undetermined:`).
pub(crate) fn profile_yaml(profile: &Profile) -> String {
    let mut section = String::new();
    let mut out = String::new();
    for line in profile.to_yaml().lines() {
        out.push_str(line);
        let trimmed = line.trim_start();
        let depth = line.len() - trimmed.len();
        if let Some((key, value)) = trimmed
            .split_once(':')
            .filter(|_| !trimmed.starts_with('#'))
        {
            if depth == 0 {
                section = key.to_string();
            } else if depth == 2 && section.starts_with("choices") {
                // A group (`lowering:`) opens its section; a choice of no group closes it.
                section = if value.is_empty() {
                    format!("choices.{key}")
                } else {
                    "choices".to_string()
                };
            }
            let full = match (depth, section.strip_prefix("choices")) {
                (2, Some(_)) if !value.is_empty() => Some(key.to_string()),
                (4, Some(head)) => Some(format!("{}.{key}", head.trim_start_matches('.'))),
                _ => None,
            };
            if full.is_some_and(|k| profile.undetermined.contains_key(&k)) {
                out.push_str("  # undetermined: the default, not measured (see undetermined:)");
            }
        }
        out.push('\n');
    }
    out
}

/// The battery's probes are no user's tests: their progress is not shown.
struct Quiet;

impl Progress for Quiet {
    fn start(
        &self,
        _info: &RunInfo,
        _to_run: usize,
        _done: &BTreeMap<String, TestResult>,
        _is_flake: &dyn Fn(&str, &TestResult) -> bool,
    ) {
    }
    fn finished(&self, _name: &str, _result: &TestResult, _finding: Option<&Finding>) {}
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
