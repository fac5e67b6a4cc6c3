//! What the renderer draws: a small data model of its own, filled by the harness's
//! `halfcheck report` from results files (one adapter there), so the results contract can grow
//! without touching the pages. Verdicts and statuses stay strings: a new verdict shows up as
//! itself, coloured as "other", instead of breaking the report.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// Everything one report shows.
#[derive(Debug, Clone, Default)]
pub struct Site {
    /// The runs, in the order given (the matrix's columns).
    pub runs: Vec<Run>,
    /// Comparisons between runs (the front page lists their regressions first).
    pub comparisons: Vec<Comparison>,
    /// Per test name: what does not depend on the run (source, operations, emulator images).
    pub details: BTreeMap<String, TestDetail>,
    /// Nightly history, when the runs are nights of one driver in date order.
    pub history: Option<History>,
}

/// One run: a column of the report.
#[derive(Debug, Clone, Default)]
pub struct Run {
    /// Short name (the results directory's name, unless given).
    pub label: String,
    /// Where it was read from.
    pub source: PathBuf,
    /// `gl`, `emu`, ...
    pub backend: String,
    /// The driver's renderer string.
    pub renderer: String,
    /// Versions (`GL_VERSION`, halfcheck's, ...).
    pub versions: BTreeMap<String, String>,
    /// Precision formats per stage and type, as `name -> "range [lo, hi], precision p"`.
    pub precision_formats: BTreeMap<String, String>,
    /// When it started and finished (RFC 3339), when known.
    pub started: String,
    /// When it finished.
    pub finished: String,
    /// The command line that made it.
    pub command_line: Vec<String>,
    /// Results by test name.
    pub tests: BTreeMap<String, TestRun>,
    /// The lane (`llvmpipe-nosse`: the renderer and the environment that changes its
    /// arithmetic).
    pub lane: String,
    /// What the run was judged against and what did not meet it, when the report is a run's
    /// own (`halfcheck run` with `--expectations` or `--baseline`).
    pub judged: Option<Judged>,
}

/// A run as its review judged it: the answer the front page opens with.
#[derive(Debug, Clone, Default)]
pub struct Judged {
    /// What it was judged against: `cases/expectations/llvmpipe.yaml`, `baseline OLD`, or
    /// its statuses.
    pub against: String,
    /// The exit status the run ended with (0: nothing needs attention).
    pub exit: u8,
    /// Its counts in words, as the console's first line says them: unexpected results
    /// against the expectations and regressions against the baseline apart, tests not run,
    /// flakes.
    pub answer: String,
    /// The results that need attention, those that fail the run first.
    pub findings: Vec<JudgedTest>,
}

/// One result the review found.
#[derive(Debug, Clone, Default)]
pub struct JudgedTest {
    /// The test.
    pub name: String,
    /// `unexpected`, `unexpected improvement`, `regression`, `failed`, `flake`.
    pub kind: String,
    /// Whether it fails the run (a flake does not).
    pub fails: bool,
    /// What was expected, when anything was.
    pub expected: Option<String>,
    /// What it gave.
    pub actual: String,
}

/// One test in one run.
#[derive(Debug, Clone, Default)]
pub struct TestRun {
    /// `pass`, `fail`, ... as the results write it.
    pub status: String,
    /// `lowered`, `not-lowered`, ... or `None` when unjudged.
    pub verdict: Option<String>,
    /// Wall time in seconds.
    pub duration_s: f64,
    /// Why it did not pass, or was skipped.
    pub reason: Option<String>,
    /// The probes.
    pub probes: Vec<Probe>,
    /// Compile and link logs by stage.
    pub logs: BTreeMap<String, String>,
    /// The command that reruns this one test.
    pub rerun: Option<String>,
    /// The whole framebuffer the driver produced, when the run saved it.
    pub observed_image: Option<FloatImage>,
    /// What the driver's own compiler printed for the test (`run --driver-ir`).
    pub driver_ir: Option<DriverIrView>,
}

/// The driver's IR of one test, as its page shows it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DriverIrView {
    /// The kept capture, line by line, each with whether it computes or holds a 16-bit value.
    pub lines: Vec<(String, bool)>,
    /// Why the capture is not all the driver printed (cut at its cap), or could not be read.
    pub note: Option<String>,
    /// The model's lowered operations the IR also has at 16 bits, those it has not, and the
    /// IR's 16-bit operations the model does not lower (NIR names with counts).
    pub agreed: Vec<String>,
    /// See `agreed`.
    pub model_only: Vec<String>,
    /// See `agreed`.
    pub driver_only: Vec<String>,
    /// How the numbers and the IR stand (`agree`, `IR silent`, `disagree`, `decided by the
    /// IR`), when the test was decided.
    pub agreement: Option<String>,
}

/// One probe command's result.
#[derive(Debug, Clone, Default)]
pub struct Probe {
    /// Line in the `.shader_test` file.
    pub line: usize,
    /// The pixel reported.
    pub pixel: [u32; 2],
    /// Expected per channel.
    pub expected: Vec<f64>,
    /// piglit's tolerance per channel.
    pub tolerance: Vec<f64>,
    /// Observed per channel.
    pub observed: Vec<f64>,
    /// Whether piglit's rules passed it.
    pub pass: bool,
    /// The judged numbers per channel (empty when unjudged).
    pub channels: Vec<Channel>,
}

/// The numbers one probed channel was judged from.
#[derive(Debug, Clone, Default)]
pub struct Channel {
    /// Observed `o`.
    pub observed: f64,
    /// Emulator's highp prediction `h`.
    pub highp: f64,
    /// Emulator's mediump prediction `m` (Mesa's lowering).
    pub mediump: f64,
    /// The binary64 value.
    pub exact: f64,
    /// The driver's own highp reference `r`, when the run measured it.
    pub reference: Option<f64>,
    /// `H`.
    pub highp_bounds: (f64, f64),
    /// `M`.
    pub mediump_bounds: (f64, f64),
    /// The channel verdict (`lowered`, `not-lowered`, `kept-highp`, ...).
    pub verdict: String,
    /// The lines of evidence that said something (`reference lowered`, `bounds lowered`);
    /// empty when none did.
    pub evidence: Vec<String>,
    /// Whether `o` equals `m` bit for bit.
    pub matches_mediump: bool,
    /// |o - exact| in binary16 ULPs: how much the test amplifies the error.
    pub ulp16_error: f64,
    /// |o - m| in binary16 ULPs at `m`: how far the driver is from the binary16 prediction
    /// (0 when it lowered as Mesa does), whatever the test amplifies.
    pub from_mediump_ulp16: f64,
    /// |o - h| in binary32 ULPs at `h`: how far the driver is from the binary32 prediction
    /// (0 when it computed at highp).
    pub from_highp_ulp32: f64,
    /// On a `lowered` channel, the largest error one binary16 operation on its way made on
    /// its own, in binary16 ULPs, and that operation: the driver's arithmetic, without what
    /// the test amplifies.
    pub operation_error: Option<(String, f64)>,
}

impl Channel {
    /// Whether this channel could tell highp from mediump (its verdict counts).
    pub fn discriminates(&self) -> bool {
        matches!(
            self.verdict.as_str(),
            "lowered" | "not-lowered" | "out-of-bounds" | "inconsistent"
        )
    }
}

/// An RGBA float image, bottom row first (as GL reads it back).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FloatImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// RGBA per pixel, `width * height` of them.
    pub pixels: Vec<[f32; 4]>,
}

/// What a test is, apart from any run.
#[derive(Debug, Clone, Default)]
pub struct TestDetail {
    /// The `.shader_test` file, when found.
    pub file: Option<PathBuf>,
    /// Its shader sections, annotated.
    pub sources: Vec<AnnotatedSource>,
    /// Operations and built-ins the test's reduced-precision code exercises (matrix rows).
    pub operations: Vec<String>,
    /// The emulator's whole-framebuffer images.
    pub emulator: Option<EmulatorImages>,
    /// Why something above is missing (no file, a compile error, ...).
    pub notes: Vec<String>,
}

/// The emulator's prediction of the whole framebuffer.
#[derive(Debug, Clone, Default)]
pub struct EmulatorImages {
    /// Everything at highp.
    pub highp: FloatImage,
    /// Lowered as Mesa lowers.
    pub mediump: FloatImage,
}

/// One shader section with its operations annotated.
#[derive(Debug, Clone, Default)]
pub struct AnnotatedSource {
    /// `vertex`, `fragment`, ...
    pub stage: String,
    /// The text as the driver got it.
    pub text: String,
    /// How many leading lines of `text` are not in the file (a `#version` piglit adds).
    pub added_lines: usize,
    /// The line of the `.shader_test` file holding the first line that is in the file.
    pub first_line: usize,
    /// Operations, by byte range of `text`, sorted and not overlapping.
    pub marks: Vec<Mark>,
}

/// One annotated operation in a source text.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mark {
    /// Byte range in the text (the operator or the built-in's name).
    pub start: usize,
    /// One past the end.
    pub end: usize,
    /// The resolved precision (`mediump`, `highp`, `lowp`, or `none`).
    pub precision: String,
    /// Whether the compiler lowered it to 16 bits.
    pub lowered: bool,
    /// What the operation is, e.g. `*` or `normalize()`.
    pub operation: String,
    /// The IR operations behind it, with their result types (`float16_t *`, ...).
    pub ir: Vec<String>,
}

/// What changed between two runs.
#[derive(Debug, Clone, Default)]
pub struct Comparison {
    /// The earlier run's label.
    pub old: String,
    /// The later run's label.
    pub new: String,
    /// Worse than before.
    pub regressions: Vec<Change>,
    /// Better than before.
    pub fixes: Vec<Change>,
    /// Different, neither better nor worse.
    pub changes: Vec<Change>,
    /// Only in the later run.
    pub new_tests: Vec<String>,
    /// Only in the earlier run.
    pub removed_tests: Vec<String>,
}

/// One test that changed.
#[derive(Debug, Clone, Default)]
pub struct Change {
    /// The test.
    pub name: String,
    /// `status, verdict` before.
    pub old: String,
    /// `status, verdict` after.
    pub new: String,
}

/// Nightly history of one driver: the runs are the nights, oldest first.
#[derive(Debug, Clone, Default)]
pub struct History {
    /// For each test regressed on the last night against the first: where it first appeared.
    pub regressions: Vec<FirstSeen>,
}

/// A regression and the night it appeared.
#[derive(Debug, Clone, Default)]
pub struct FirstSeen {
    /// The change from the first night to the last.
    pub change: Change,
    /// Index into [`Site::runs`] of the first night showing the last night's result.
    pub night: usize,
}
