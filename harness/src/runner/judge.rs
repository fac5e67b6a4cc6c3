//! What judges a run, recorded in its journal so that `run --resume DIR` is the run continued:
//! the expectations file (by path and content hash), the baseline, the renderer check, and,
//! with the runner's other [`Settings`], `-j`, the retries, `--reference` and the profile.
//!
//! [`continue_run`] reads them back for `--resume`: a flag given again with the value the run
//! recorded is accepted, with another value it is an error naming both; `-j` and `--timeout`
//! may change (they do not judge). The driver's environment (`GALLIUM_*`, `LP_*`) is set from
//! the journal where it differs, with a line saying so, so the workers inherit the run's lane;
//! a renderer that still differs is refused when the first worker opens.

use super::journal::JOURNAL;
use super::Settings;
use crate::lane::driver_environment;
use crate::results::read::{read_regular, MAX_SETTINGS_BYTES};
use crate::results::read_journal;
use halfcheck_verdict::ReferenceMode;
use serde::{Deserialize, Serialize};
use std::hash::Hasher;
use std::path::{Path, PathBuf};

/// What judged a run: kept in the journal's settings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Judge {
    /// `--expectations`, as an absolute path.
    #[serde(default)]
    pub expectations: Option<PathBuf>,
    /// FNV-1a of the expectations file's content when the run started, in hex.
    #[serde(default)]
    pub expectations_hash: Option<String>,
    /// `--baseline`, as an absolute path.
    #[serde(default)]
    pub baseline: Option<PathBuf>,
    /// `--skip-renderer-check`.
    #[serde(default)]
    pub skip_renderer_check: bool,
}

impl Judge {
    /// The judge of a new run, its expectations hashed as they are now.
    pub(crate) fn new(
        expectations: Option<&Path>,
        baseline: Option<&Path>,
        skip_renderer_check: bool,
    ) -> Judge {
        Judge {
            expectations: expectations.map(crate::discover::absolute),
            expectations_hash: expectations.and_then(content_hash),
            baseline: baseline.map(crate::discover::absolute),
            skip_renderer_check,
        }
    }
}

/// FNV-1a of a file's content, in hex; `None` when it cannot be read (the run reads it
/// again and says why).
fn content_hash(path: &Path) -> Option<String> {
    let bytes = read_regular(path, MAX_SETTINGS_BYTES).ok()?;
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(&bytes);
    Some(format!("{:016x}", hasher.finish()))
}

/// The flags of `run --resume DIR` that may repeat the run's own.
#[derive(Debug, Default)]
pub(crate) struct Given<'a> {
    /// `--expectations`.
    pub expectations: Option<&'a Path>,
    /// `--baseline`.
    pub baseline: Option<&'a Path>,
    /// `-j`: may change.
    pub jobs: Option<usize>,
    /// `--timeout`: may change.
    pub timeout_s: Option<f64>,
    /// `--retries`.
    pub retries: Option<u32>,
    /// `--reference`.
    pub reference: Option<ReferenceMode>,
    /// `--emu-profile`, resolved.
    pub emu_profile: Option<String>,
}

/// A run to continue: its settings, `-j` and `--timeout` as given now, and its judge.
#[derive(Debug)]
pub(crate) struct Continued {
    /// The runner's settings.
    pub settings: Settings,
    /// What judges it.
    pub judge: Judge,
}

/// Reads how the run in `dir` was run and judged, checks `given` against it and sets the
/// driver's environment the journal recorded (see the module's doc).
pub(crate) fn continue_run(dir: &Path, given: &Given) -> Result<Continued, String> {
    let path = dir.join(JOURNAL);
    let journal = read_journal(&path).map_err(|e| format!("cannot resume: {e}"))?;
    let mut settings: Settings =
        serde_json::from_value(journal.header.settings.clone()).map_err(|e| {
            format!(
                "cannot resume: {}:1: no runner settings: {e}",
                path.display()
            )
        })?;
    // A journal written before the judge was recorded: the flags given now judge it.
    if journal.header.settings.get("judge").is_none() {
        settings.judge = Judge::new(given.expectations, given.baseline, false);
    }
    let judge = settings.judge.clone();
    let same = |flag: &str, recorded: String, now: Option<String>| match now {
        Some(now) if now != recorded => Err(format!(
            "cannot resume: {flag} {now} was given, but the run in {} recorded {recorded}",
            dir.display()
        )),
        _ => Ok(()),
    };
    let shown = |p: &Option<PathBuf>| {
        p.as_ref()
            .map_or("none".to_string(), |p| p.display().to_string())
    };
    let absolute = |p: Option<&Path>| p.map(crate::discover::absolute);
    if given.expectations.is_some() {
        same(
            "--expectations",
            shown(&judge.expectations),
            Some(shown(&absolute(given.expectations))),
        )?;
    }
    if given.baseline.is_some() {
        same(
            "--baseline",
            shown(&judge.baseline),
            Some(shown(&absolute(given.baseline))),
        )?;
    }
    same(
        "--retries",
        settings.retries.to_string(),
        given.retries.map(|r| r.to_string()),
    )?;
    same(
        "--reference",
        format!("{:?}", settings.reference).to_lowercase(),
        given.reference.map(|r| format!("{r:?}").to_lowercase()),
    )?;
    same(
        "--emu-profile",
        settings.emu_profile.clone(),
        given.emu_profile.clone(),
    )?;
    if let (Some(file), Some(then)) = (&judge.expectations, &judge.expectations_hash) {
        match content_hash(file) {
            Some(now) if &now != then => log::warn!(
                "{} changed since the run started (content hash {then} then, {now} now): the \
                 resumed run is judged by it as it is now",
                file.display()
            ),
            _ => {}
        }
    }
    set_recorded_environment(&journal.header.run.environment);
    settings.jobs = given.jobs.unwrap_or(settings.jobs);
    settings.timeout_s = given.timeout_s.unwrap_or(settings.timeout_s);
    Ok(Continued { settings, judge })
}

/// Sets each driver variable the run recorded and removes each it did not have, saying so:
/// the workers of the resumed run inherit the lane of the run they continue.
fn set_recorded_environment(recorded: &std::collections::BTreeMap<String, String>) {
    let now = driver_environment();
    for (name, value) in recorded {
        if now.get(name) != Some(value) {
            log::warn!(
                "resume: {name}={value} set from the journal (it is {} here)",
                now.get(name)
                    .map_or("unset".to_string(), |v| format!("'{v}'"))
            );
            std::env::set_var(name, value);
        }
    }
    for name in now.keys().filter(|name| !recorded.contains_key(*name)) {
        log::warn!("resume: {name} unset, as the journal records the run without it");
        std::env::remove_var(name);
    }
}
