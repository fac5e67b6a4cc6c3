//! The `results.json` contract (`halfcheck-results/1`): what a run writes and other tools read.
//!
//! Plain serde types, apart from running and judging: the harness's runner and verdicts fill
//! them, `compare` and the reports read them, and this crate depends on neither. Fields are
//! only ever added; a reader ignores the ones it does not know.

mod driver_ir;
mod error;
mod journal;
mod json;
pub mod quote;
pub mod read;
mod strict;
mod verdict;

pub use driver_ir::{DriverIr, IrCapture, IrShader, ModelMatch};
pub use error::{NestingError, ReadError};
pub use journal::{read_journal, Damaged, Journal, JournalHeader, JournalLine, JOURNAL_FORMAT};
pub use json::{json_float, json_float_option, json_floats};
pub use verdict::{
    ChannelAnalysis, ChannelEvidence, ChannelVerdict, Evidence, EvidenceLine, Interval,
    OperationError, Verdict,
};

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The format tag written into every results file.
pub const FORMAT: &str = "halfcheck-results/1";

/// Reads a results file (`results.json`), checking its format tag; see [`read_journal`] for
/// the journal of a run that did not finish.
pub fn read_results(path: &std::path::Path) -> Result<ResultsFile, ReadError> {
    let text = read::read_regular_text(path, read::MAX_RESULTS_BYTES).map_err(|source| {
        ReadError::Unreadable {
            path: path.to_path_buf(),
            source,
        }
    })?;
    let file: ResultsFile = serde_json::from_str(&text).map_err(|e| ReadError::Malformed {
        path: path.to_path_buf(),
        line: None,
        what: "results file",
        message: quote::cut_message(&e.to_string()).into_owned(),
    })?;
    if file.format != FORMAT {
        return Err(ReadError::Format {
            path: path.to_path_buf(),
            line: None,
            found: quote::cut(&file.format).into_owned(),
            expected: FORMAT,
        });
    }
    Ok(file)
}

/// A whole results file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ResultsFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// What ran and where.
    pub run: RunInfo,
    /// Results by test name (path relative to the directory given, `/`-separated); a name
    /// given twice is an error.
    #[serde(deserialize_with = "strict::unique_keys::deserialize")]
    pub tests: BTreeMap<String, TestResult>,
}

/// What ran, on which driver, when.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct RunInfo {
    /// `gl` or `emu`.
    pub backend: String,
    /// The driver's `GL_RENDERER`, or the emulator's description.
    pub renderer: String,
    /// Versions: `GL_VERSION`, `GL_SHADING_LANGUAGE_VERSION`, `GL_VENDOR`, halfcheck's own;
    /// `EGL_LIBRARY`, the libEGL the GL backend loaded.
    pub versions: BTreeMap<String, String>,
    /// The EGL platform the GL backend opened (`device`, `surfaceless`, `gbm`,
    /// `angle-swiftshader`, `angle-vulkan`, `angle-gles`); absent for other backends and in
    /// files written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    /// Backend-specific facts (e.g. `glGetShaderPrecisionFormat` per stage and type).
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub context: serde_json::Value,
    /// RFC 3339 UTC time the run started.
    pub started: String,
    /// RFC 3339 UTC time the run finished.
    pub finished: String,
    /// The command line, one argument per element.
    pub command_line: Vec<String>,
    /// Where the per-test highp reference came from: `driver` (each lowp/mediump test run a
    /// second time, promoted to highp, on the same device) or `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// How each prediction recorded per channel was made, by the name of its
    /// [`ChannelAnalysis`] field (`highp`, `mediump`, `mediump_spec`, `exact`,
    /// `highp_bounds`, `mediump_bounds`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub predictions: BTreeMap<String, PredictionInfo>,
    /// Set when `--backend auto` found no GL driver to load and ran the emulator: why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
    /// Which tests the run was asked for; absent in files written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<Selection>,
    /// Why the run did not run every selected test (a signal, `--max-fails`, a journal read
    /// before its run finished); absent when it ran them all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<String>,
    /// Seconds the run spent working: from its start, and from each `run --resume`'s, to the
    /// last result of that session, so the idle gap between a killed run and its resume is
    /// left out. In a journal's header, the sessions before the latest resume; absent in
    /// files written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub work_s: Option<f64>,
    /// The environment variables that choose or configure Mesa's driver (`GALLIUM_*`, `LP_*`)
    /// as the run found them: with the renderer they name the run's lane (`llvmpipe` with
    /// `GALLIUM_NOSSE=1`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub environment: BTreeMap<String, String>,
    /// RFC 3339 UTC time of the latest `run --resume`, when the run was resumed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resumed: Option<String>,
}

/// How one prediction was made: which arithmetic, driver model, precision model and
/// lowering switches stand behind it.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct PredictionInfo {
    /// What the prediction stands for, in a sentence.
    pub meaning: String,
    /// The arithmetic: `binary16`/`binary32` points, `binary64`, or acceptance intervals.
    pub arithmetic: String,
    /// The driver behaviour modelled outside the arithmetic (rasteriser, derivatives,
    /// texture filtering), or `any conforming driver` for intervals.
    pub driver_model: String,
    /// Which precision rules chose the lowered operations: `none` (nothing lowered),
    /// `mesa` or `spec`.
    pub precision_model: String,
    /// The lowering switches (`float16`, `int16`, ...) that were on.
    pub switches: Vec<String>,
}

/// How a run chose its tests, so that a comparison can tell a test that is gone from one the
/// run left out, and `run --resume` can find the same tests again.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Selection {
    /// The paths given, made absolute.
    pub paths: Vec<std::path::PathBuf>,
    /// Test-name prefixes those paths cover (a directory's name, or a file's full name).
    pub scope: Vec<String>,
    /// `-t` regexes (and nothing else): a test must match one, when there are any.
    #[serde(default)]
    pub include: Vec<String>,
    /// `-x` regexes, the expectations' `skips` included.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// The names of `--test-list`, when one was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test_list: Option<Vec<String>>,
    /// The shards run, when the run was a share of the tests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

/// A share of the tests: those whose name hashes to one of `indices` (1-based) of `count`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Shard {
    /// The shards included, 1-based (one for a run, several for a merge of some shards).
    pub indices: Vec<u32>,
    /// How many shards the tests were split into.
    pub count: u32,
}

/// How a test ended, in piglit's terms.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every probe matched.
    Pass,
    /// A `probe warn` mismatched; nothing failed.
    Warn,
    /// A probe or an expected link result did not match.
    Fail,
    /// The test cannot run here (missing requirement, unsupported command); `reason` says why.
    Skip,
    /// The worker process died while running it.
    Crash,
    /// It ran past the per-test time limit.
    Timeout,
    /// The file or a shader could not be read, parsed or compiled when it should have been.
    Error,
    /// The run selected it but never ran it (a killed shard, a stopped run); `reason` says
    /// why. Piglit's `notrun`.
    NotRun,
}

impl Status {
    /// The lowercase name used in results and on the console.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Warn => "warn",
            Status::Fail => "fail",
            Status::Skip => "skip",
            Status::Crash => "crash",
            Status::Timeout => "timeout",
            Status::Error => "error",
            Status::NotRun => "notrun",
        }
    }
}

/// The result of one test.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TestResult {
    /// Piglit-style status.
    pub status: Status,
    /// The lowering verdict, once the verdict stage has judged the probes.
    #[serde(default)]
    pub verdict: Option<Verdict>,
    /// Wall time of the test in seconds (never negative).
    #[serde(deserialize_with = "strict::duration::deserialize")]
    pub duration_s: f64,
    /// Why it did not pass, or why it was skipped.
    #[serde(default)]
    pub reason: Option<String>,
    /// One entry per probe command that ran.
    #[serde(default)]
    pub probes: Vec<ProbeResult>,
    /// Compile and link logs, by shader stage or `link`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub logs: BTreeMap<String, String>,
    /// The final window framebuffer, when the run kept it (`halfcheck run --framebuffers`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub framebuffer: Option<FramebufferFile>,
    /// Why the verdict is what it is when that needs saying: why a test is `unjudged`, which
    /// channel is `inconsistent`, why nothing discriminates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict_reason: Option<String>,
    /// What a `lowered`, `not-lowered` or `partial` verdict rests on: the lines of evidence
    /// that decided its deciding channels (`bounds`, `reference`). The model line never
    /// decides.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verdict_rests_on: Vec<EvidenceLine>,
    /// The highp reference run behind the channels' `reference` values, when one was asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<ReferenceRun>,
    /// The other attempts at a result that failed the run (`--retries`), oldest first: for a
    /// flake the earlier ones (this result, the last, met its expectation); else every attempt
    /// but the worst, which this result is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<Attempt>,
    /// True when an attempt failed the run and a later one met its expectation (deqp-runner's
    /// flake): the test is flaky, and its result is reported apart rather than as a failure
    /// or a regression.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flake: bool,
    /// What the driver's own compiler printed for the test and its reference
    /// (`run --driver-ir`): counts per shader; the IR itself is in the files it names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver_ir: Option<DriverIr>,
}

/// An earlier attempt at a test that was run again.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Attempt {
    /// Its status.
    pub status: Status,
    /// Its verdict.
    #[serde(default)]
    pub verdict: Option<Verdict>,
    /// Its reason.
    #[serde(default)]
    pub reason: Option<String>,
}

/// A test's final window framebuffer kept as a file: raw little-endian binary32, R, G, B, A
/// per pixel, rows from the bottom of the window up (OpenGL's order), no header, so
/// `width * height * 16` bytes.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct FramebufferFile {
    /// The file, relative to the results directory: `framebuffers/<test name>.rgba32f`.
    pub path: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

impl TestResult {
    /// A result with no probes, for tests that stopped before drawing.
    pub fn with_status(status: Status, reason: impl Into<String>) -> Self {
        TestResult {
            status,
            verdict: None,
            duration_s: 0.0,
            reason: Some(reason.into()),
            probes: Vec::new(),
            logs: BTreeMap::new(),
            framebuffer: None,
            verdict_reason: None,
            verdict_rests_on: Vec::new(),
            reference: None,
            attempts: Vec::new(),
            flake: false,
            driver_ir: None,
        }
    }
}

/// What became of a test's highp reference run (the test with every lowp/mediump qualifier
/// and default precision statement rewritten to highp, run on the same device).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ReferenceRun {
    /// Whether it ran.
    pub outcome: ReferenceOutcome,
    /// Why it was skipped or failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The promoted test's piglit status (its probes hold the reference's expected values
    /// too, so `fail` is usual on a driver that lowers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// Wall time of the reference run in seconds.
    #[serde(default)]
    pub duration_s: f64,
}

/// Whether a reference run happened.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum ReferenceOutcome {
    /// It ran and gave a value at every judged pixel.
    Ran,
    /// It was not run; `reason` says why (the acceptance intervals already decide every
    /// discriminating channel).
    Skipped,
    /// It was run but gave no values (did not compile, crashed the draw, drew no probe).
    Failed,
}

/// What one probe command saw.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ProbeResult {
    /// Line of the probe in the `.shader_test` file.
    pub line: usize,
    /// The pixel reported: the first that failed, else the region's first pixel.
    pub pixel: [u32; 2],
    /// Expected value per channel, from the file.
    #[serde(with = "json_floats")]
    pub expected: Vec<f64>,
    /// Tolerance per channel that applied.
    pub tolerance: Vec<f64>,
    /// The exact float the shader wrote, per channel (float render target).
    #[serde(with = "json_floats")]
    pub observed: Vec<f32>,
    /// The bits of `observed`, per channel, as `0x` hex.
    pub observed_bits: Vec<String>,
    /// What an 8-bit UNORM framebuffer would have held, per channel, as piglit reads it.
    pub observed_unorm8: Vec<f64>,
    /// Whether the probe passed by piglit's rules.
    pub pass: bool,
    /// The pixel rectangle read, `[x, y, w, h]` (rows from the bottom).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<[u32; 4]>,
    /// The exact RGBA floats of every pixel of `region`, row by row from the bottom: kept
    /// while the worker judges the probe, never written to results.
    #[serde(skip)]
    pub region_observed: Vec<f32>,
    /// Per channel, the numbers the lowering verdict was judged from (empty when unjudged),
    /// at `judged_pixel`: of every pixel judged, the one whose channels say least for
    /// lowering (out of bounds, inconsistent, not lowered, ..., lowered).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub channels: Vec<ChannelAnalysis>,
    /// The pixel `channels` describes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judged_pixel: Option<[u32; 2]>,
    /// How many pixels of the region were judged (every one the probe reads).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pixels_judged: u64,
    /// How many of them were lowered (their channels combine to `lowered`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pixels_lowered: u64,
}

/// Serde helper: a zero count is left out.
fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_observed_values_round_trip_through_json() {
        let probe = ProbeResult {
            line: 3,
            pixel: [0, 0],
            expected: vec![0.5, f64::INFINITY],
            tolerance: vec![0.01, 0.01],
            observed: vec![f32::NAN, f32::NEG_INFINITY],
            observed_bits: vec!["0x7fc00000".into(), "0xff800000".into()],
            observed_unorm8: vec![0.0, 0.0],
            pass: false,
            region: Some([0, 0, 1, 1]),
            region_observed: vec![f32::NAN, f32::NEG_INFINITY, 0.0, 1.0],
            channels: Vec::new(),
            judged_pixel: None,
            pixels_judged: 0,
            pixels_lowered: 0,
        };
        let json = serde_json::to_string(&probe).unwrap();
        assert!(json.contains(r#""observed":["NaN","-inf"]"#), "{json}");
        let back: ProbeResult = serde_json::from_str(&json).unwrap();
        assert!(back.observed[0].is_nan());
        assert_eq!(back.observed[1], f32::NEG_INFINITY);
        assert_eq!(back.expected, probe.expected);
        // The region's pixels stay in memory; results never hold them.
        assert!(!json.contains("region_observed"), "{json}");
        assert!(back.region_observed.is_empty());
    }

    /// Issue 26: `results.json` with a test twice kept the last result; a negative duration
    /// was read as given.
    #[test]
    fn a_test_given_twice_or_a_negative_duration_is_refused() {
        let head = r#"{"format":"halfcheck-results/1","run":{"backend":"emu","renderer":"r","versions":{},"started":"","finished":"","command_line":[]},"tests":{"#;
        let twice = format!(
            r#"{head}"a":{{"status":"fail","duration_s":1}},"a":{{"status":"pass","duration_s":1}}}}}}"#
        );
        let e = serde_json::from_str::<ResultsFile>(&twice).unwrap_err();
        assert!(e.to_string().contains("test 'a' has two results"), "{e}");
        let negative = format!(r#"{head}"a":{{"status":"pass","duration_s":-3}}}}}}"#);
        let e = serde_json::from_str::<ResultsFile>(&negative).unwrap_err();
        assert!(
            e.to_string()
                .contains("duration_s is -3, expected a number of seconds of 0 or more"),
            "{e}"
        );
    }
}
