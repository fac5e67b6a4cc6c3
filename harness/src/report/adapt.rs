//! The one place that turns the results contract into the renderer's model: when
//! `results.json` grows, this is the file that follows.

use super::detail::float_image;
use super::load::Loaded;
use crate::compare::{Change, Comparison};
use crate::lane::lane;
use crate::results::read::{read_regular, MAX_RESULTS_BYTES};
use crate::results::{
    ChannelAnalysis, ChannelEvidence, Evidence, FramebufferFile, ProbeResult, ResultsFile, RunInfo,
    TestResult,
};
use crate::review::Review;
use halfcheck_piglit::WindowImage;
use halfcheck_reports::model;
use std::collections::BTreeMap;
use std::path::Path;

/// A run for the renderer; `rerun` gives the command that reruns one test of it.
pub(super) fn run(
    loaded: &Loaded,
    label: &str,
    rerun: &dyn Fn(&str) -> Option<String>,
) -> model::Run {
    let info = &loaded.results.run;
    let directory = loaded.path.parent().unwrap_or(Path::new(".")).to_path_buf();
    model::Run {
        label: label.to_string(),
        source: loaded.path.clone(),
        backend: info.backend.clone(),
        renderer: info.renderer.clone(),
        versions: info.versions.clone(),
        precision_formats: precision_formats(info),
        started: info.started.clone(),
        finished: info.finished.clone(),
        command_line: info.command_line.clone(),
        lane: lane(info),
        judged: None,
        tests: loaded
            .results
            .tests
            .iter()
            .map(|(name, result)| (name.clone(), test(result, rerun(name), &directory)))
            .collect(),
    }
}

/// One test of a run whose results directory is `directory` (where its framebuffer files
/// are); a framebuffer file that cannot be read says why in the test's logs.
fn test(result: &TestResult, rerun: Option<String>, directory: &Path) -> model::TestRun {
    let mut logs = result.logs.clone();
    let observed_image =
        result
            .framebuffer
            .as_ref()
            .and_then(|file| match observed_image(file, directory) {
                Ok(image) => Some(image),
                Err(why) => {
                    logs.insert("framebuffer".into(), why);
                    None
                }
            });
    model::TestRun {
        status: result.status.as_str().to_string(),
        verdict: result.verdict.map(|v| v.as_str().to_string()),
        duration_s: result.duration_s,
        reason: result.reason.clone(),
        probes: result.probes.iter().map(probe).collect(),
        logs,
        rerun,
        observed_image,
        driver_ir: driver_ir(result, directory),
    }
}

/// The driver's IR of a test for its page: the kept capture with its 16-bit lines marked, and
/// how it matched the model and the numbers; `None` without one.
fn driver_ir(result: &TestResult, directory: &Path) -> Option<model::DriverIrView> {
    let ir = result.driver_ir.as_ref()?;
    let path = directory.join(&ir.test.file);
    let (lines, note) = match read_regular(&path, MAX_RESULTS_BYTES) {
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            let note = ir.test.cut_at.map(|kept| {
                format!(
                    "the driver printed {} bytes; the first {kept} were kept",
                    ir.test.bytes
                )
            });
            (halfcheck_nir::marked_lines(&text), note)
        }
        Err(e) => (
            Vec::new(),
            Some(format!("cannot read {}: {e}", path.display())),
        ),
    };
    let named = |ops: &BTreeMap<String, u32>| -> Vec<String> {
        ops.iter().map(|(op, n)| format!("{op} x{n}")).collect()
    };
    let matched = ir.model.clone().unwrap_or_default();
    Some(model::DriverIrView {
        lines,
        note,
        agreed: named(&matched.agreed),
        model_only: named(&matched.model_only),
        driver_only: named(&matched.driver_only),
        agreement: halfcheck_verdict::agreement(result).map(|a| a.as_str().to_string()),
    })
}

/// The framebuffer a run kept (`run --framebuffers`).
fn observed_image(file: &FramebufferFile, directory: &Path) -> Result<model::FloatImage, String> {
    let path = directory.join(&file.path);
    // RGBA32F: 16 bytes a pixel; a file larger than its results say is not read to its end.
    let expected = u64::from(file.width) * u64::from(file.height) * 16;
    let bytes = read_regular(&path, expected.min(MAX_RESULTS_BYTES))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let window = WindowImage::from_bytes(file.width, file.height, &bytes).ok_or_else(|| {
        format!(
            "{}: {} bytes, not the {} x {} x 16 its results record",
            path.display(),
            bytes.len(),
            file.width,
            file.height
        )
    })?;
    Ok(float_image(&window))
}

fn probe(p: &ProbeResult) -> model::Probe {
    model::Probe {
        line: p.line,
        pixel: p.pixel,
        expected: p.expected.clone(),
        tolerance: p.tolerance.clone(),
        observed: p.observed.iter().map(|v| f64::from(*v)).collect(),
        pass: p.pass,
        channels: p.channels.iter().map(channel).collect(),
    }
}

fn channel(c: &ChannelAnalysis) -> model::Channel {
    model::Channel {
        observed: c.observed,
        highp: c.highp,
        mediump: c.mediump,
        exact: c.exact,
        reference: c.reference,
        highp_bounds: (c.highp_bounds.lo, c.highp_bounds.hi),
        mediump_bounds: (c.mediump_bounds.lo, c.mediump_bounds.hi),
        verdict: serde_json::to_value(c.verdict)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        evidence: evidence(&c.evidence),
        matches_mediump: c.matches_mediump,
        ulp16_error: c.ulp16_error,
        from_mediump_ulp16: (c.observed - c.mediump).abs() / ulp(c.mediump, 10, -14),
        from_highp_ulp32: (c.observed - c.highp).abs() / ulp(c.highp, 23, -126),
        operation_error: c
            .operation_error
            .as_ref()
            .map(|e| (e.operation.clone(), e.ulp16)),
    }
}

/// One unit in the last place at `x` of a binary format with `fraction` bits and smallest
/// normal exponent `min_exponent` (binary16: 10, -14; binary32: 23, -126).
fn ulp(x: f64, fraction: i32, min_exponent: i32) -> f64 {
    let exponent = if x == 0.0 || !x.is_finite() {
        min_exponent
    } else {
        (x.abs().log2().floor() as i32).max(min_exponent)
    };
    2f64.powi(exponent - fraction)
}

/// The review of a run as the front page shows it, and the exit status it gave.
pub(super) fn judged(results: &ResultsFile, review: &Review) -> model::Judged {
    let mut findings: Vec<model::JudgedTest> = review
        .findings(results)
        .into_iter()
        .map(|(name, _, f)| model::JudgedTest {
            name: name.to_string(),
            kind: f.kind.as_str().to_string(),
            fails: f.kind.fails_run(),
            expected: f.expected,
            actual: f.actual,
        })
        .collect();
    findings.sort_by_key(|f| !f.fails);
    model::Judged {
        against: review.against(),
        exit: review.exit_code(results),
        answer: review
            .tally(results)
            .words(review.judges_by_checks(), review.has_expectations()),
        findings,
    }
}

/// The lines of evidence that said something, as `reference lowered`.
fn evidence(e: &ChannelEvidence) -> Vec<String> {
    [
        ("reference", e.reference),
        ("bounds", e.bounds),
        ("model", e.model),
    ]
    .into_iter()
    .filter(|(_, line)| *line != Evidence::Silent)
    .map(|(name, line)| format!("{name} {}", line.as_str()))
    .collect()
}

/// `glGetShaderPrecisionFormat` per stage and type, from the run's context, as
/// `"fragment medium_float" -> "range 2^-15..2^15, 10 bits"`.
fn precision_formats(info: &RunInfo) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Some(stages) = info
        .context
        .get("shader_precision_format")
        .and_then(|v| v.as_object())
    else {
        return out;
    };
    for (stage, types) in stages {
        let Some(types) = types.as_object() else {
            continue;
        };
        for (ty, format) in types {
            let field = |k: &str| format.get(k).and_then(|v| v.as_i64()).unwrap_or(0);
            let bits = if ty.ends_with("_int") {
                String::new()
            } else {
                format!(", {} bits", field("precision"))
            };
            out.insert(
                format!("{stage} {ty}"),
                format!(
                    "range (-2^{}, 2^{}){bits}",
                    field("range_min"),
                    field("range_max")
                ),
            );
        }
    }
    out
}

/// A changed test for the renderer.
pub(super) fn change(c: &Change) -> model::Change {
    model::Change {
        name: c.name.clone(),
        old: c.old.clone(),
        new: c.new.clone(),
    }
}

/// A comparison for the renderer.
pub(super) fn comparison(old: &str, new: &str, c: &Comparison) -> model::Comparison {
    let changes = |list: &[Change]| list.iter().map(change).collect();
    model::Comparison {
        old: old.to_string(),
        new: new.to_string(),
        regressions: changes(&c.regressions),
        fixes: changes(&c.fixes),
        changes: changes(&c.changes),
        new_tests: c.new_tests.clone(),
        removed_tests: c.removed_tests.clone(),
    }
}
