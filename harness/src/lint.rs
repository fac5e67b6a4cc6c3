//! `halfcheck lint`: checks that each mediump test can prove lowering before it runs anywhere.
//!
//! For every probed channel the emulator predicts `h`, the binary16 value `m` of everything
//! the precision rules let a driver lower (`spec` model), and the highp acceptance interval
//! `H`. A probe *discriminates* when on some channel, at the pixel it reports, either `m`
//! lies outside `H` by more than the readback can blur (in the float view any distance, and in
//! piglit's 8-bit view more than the probe's tolerance between `m` and every 8-bit value `H`
//! can give: any driver's value proves lowering), or `m` and `h` differ by more than the
//! tolerance in the 8-bit view (a driver's own highp reference run tells them apart). Lint
//! reports:
//! - probes that discriminate neither way, with the best margin found;
//! - expressions a compiler may fold away with inexact algebra (`(a + b) - b`, ...);
//! - probes whose expected value in the file matches neither `h` nor `m`, nor lies in `H`
//!   (what a conforming driver may give where the spec leaves the result open).
//!
//! Each file gets `--timeout` ([`LINT_TIME_LIMIT`]) on the emulator. Tests whose shaders declare nothing lowp
//! or mediump are skipped (n/a).

use crate::author::header::{Header, PLAIN_LANE};
use crate::author::margin::{probe_margins, tolerance_of};
use crate::author::read_test;
use crate::discover::find_tests;
use crate::time_limit;
use halfcheck_compiler::analysis::foldable::foldable_patterns;
use halfcheck_compiler::{compile, parse_shader, CompileOptions, Model};
use halfcheck_emu::{predict as run_emulator, Mode};
use halfcheck_piglit::probe::unorm8;
use halfcheck_piglit::shader_test::{ShaderTest, SourceKind};
use halfcheck_verdict::{compiler_stage, declares_reduced_precision, predict, ChannelPrediction};
use std::path::PathBuf;
use std::time::Duration;

/// The reason lint gives for skipping a test whose shaders declare no reduced precision.
pub(crate) const NOT_APPLICABLE: &str = "declares nothing lowp or mediump";

/// One problem lint found.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Finding {
    /// The test's name.
    pub test: String,
    /// Line in the `.shader_test` file (0 when it is about the whole file).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// What linting a set of tests found.
#[derive(Debug, Default)]
pub(crate) struct LintReport {
    /// Tests checked (with reduced precision).
    pub checked: usize,
    /// Tests skipped, with why (no reduced precision, the emulator cannot run it).
    pub skipped: Vec<(String, String)>,
    /// Everything found.
    pub findings: Vec<Finding>,
}

/// How long the emulator may take over one file (its predictions in every mode) unless
/// `lint --timeout` says otherwise; a file that takes longer is skipped with the reason, so
/// one endless draw cannot hold up the others.
pub(crate) const LINT_TIME_LIMIT: Duration = Duration::from_secs(30);

/// Lints every `.shader_test` under `paths`, giving the emulator `limit` per file.
pub(crate) fn lint(paths: &[PathBuf], limit: Duration) -> LintReport {
    let (files, walk_errors) = find_tests(paths);
    let mut report = LintReport::default();
    for e in walk_errors {
        report.findings.push(Finding {
            test: e,
            line: 0,
            message: "cannot read".to_string(),
        });
    }
    for file in files {
        let (text, test) = match read_test(&file.path) {
            Ok(read) => read,
            Err(e) => {
                report.findings.push(Finding {
                    test: file.name,
                    line: e.line,
                    message: e.to_string(),
                });
                continue;
            }
        };
        if !declares_reduced_precision(&test) {
            report.skipped.push((file.name, NOT_APPLICABLE.to_string()));
            continue;
        }
        let header = Header::read(&text);
        let Some(linted) = time_limit::within(limit, move || lint_test(&test, &header)) else {
            report.skipped.push((
                file.name,
                format!(
                    "the emulator took longer than {} s, lint's limit per file (--timeout)",
                    limit.as_secs_f64()
                ),
            ));
            continue;
        };
        match linted {
            Ok(found) => {
                report.checked += 1;
                report
                    .findings
                    .extend(found.into_iter().map(|(line, message)| Finding {
                        test: file.name.clone(),
                        line,
                        message,
                    }));
            }
            Err(reason) => report.skipped.push((file.name, reason)),
        }
    }
    report
}

/// The findings of one test, as (line, message).
fn lint_test(test: &ShaderTest, header: &Header) -> Result<Vec<(usize, String)>, String> {
    let mut found = foldable(test);
    let emulated = run_emulator(test, Mode::Mediump);
    if emulated.probes.is_empty() {
        return Err(match emulated.reason {
            Some(reason) => format!("the emulator ran no probe: {reason}"),
            None => "it has no probes".to_string(),
        });
    }
    let counts: Vec<usize> = emulated.probes.iter().map(|p| p.observed.len()).collect();
    // The corpus is written for the default profile's driver (llvmpipe).
    let predictions =
        predict(test, &counts, &halfcheck_emu::Choices::default()).map_err(|e| e.to_string())?;
    let reported: Vec<Vec<ChannelPrediction>> = emulated
        .probes
        .iter()
        .zip(&predictions)
        .map(|(probe, p)| {
            let [x, y] = probe.pixel;
            (0..p.channels).map_while(|c| p.at(x, y, c)).collect()
        })
        .collect();
    let control = header.says_control(PLAIN_LANE);
    for (probe, channels) in emulated.probes.iter().zip(reported) {
        let tolerance = |c: usize| tolerance_of(&probe.tolerance, c);
        // A probe of values that rest on something never written can discriminate nothing,
        // by design (a case about such reads).
        let indeterminate = channels.iter().any(|p| p.indeterminate)
            && channels
                .iter()
                .all(|p| p.indeterminate || p.highp.to_bits() == p.mediump_spec.to_bits());
        if !control && !indeterminate {
            let margins = probe_margins(&channels, tolerance, |p| p.mediump_spec);
            if !margins.iter().any(|m| m.discriminates()) {
                let (float, byte) = margins.iter().fold((f64::MIN, f64::MIN), |acc, m| {
                    (acc.0.max(m.float), acc.1.max(m.byte))
                });
                found.push((
                    probe.line,
                    format!(
                        "probe does not discriminate: on no channel is the mediump value \
                         outside the highp interval in both views (best margin {float:.3e} \
                         as floats, {byte:.4} in the 8-bit view after the {} tolerance), nor \
                         apart from the highp value in the 8-bit view; a control says so in \
                         its header (`# Control: ...`)",
                        tolerance(0)
                    ),
                ));
            }
        }
        for (c, (p, &expected)) in channels.iter().zip(&probe.expected).enumerate() {
            let near = |v: f32| (f64::from(unorm8(v)) - expected).abs() <= tolerance(c);
            if !control && near(p.highp) && !near(p.mediump) && !near(p.mediump_spec) {
                found.push((
                    probe.line,
                    format!(
                        "expected {expected} on channel {c} is the binary32 prediction ({}), \
                         but the test expects lowering: binary16 gives {} (`halfcheck bless` \
                         writes it)",
                        p.highp, p.mediump
                    ),
                ));
                continue;
            }
            // A value a conforming highp evaluation may give (where the spec leaves the
            // result undefined or to the driver) is no mistake either.
            let (lo, hi) = (p.highp_bounds.lo, p.highp_bounds.hi);
            let conforming = lo - tolerance(c) <= expected && expected <= hi + tolerance(c);
            if !near(p.highp) && !near(p.mediump) && !near(p.mediump_spec) && !conforming {
                found.push((
                    probe.line,
                    format!(
                        "expected {expected} on channel {c} matches neither prediction: \
                         highp {}, mediump {} (spec model {})",
                        p.highp, p.mediump, p.mediump_spec
                    ),
                ));
            }
        }
    }
    Ok(found)
}

/// Foldable expressions in the test's GLSL shaders, at their lines in the file.
pub(crate) fn foldable(test: &ShaderTest) -> Vec<(usize, String)> {
    let options = CompileOptions {
        model: Model::Spec,
        lower: false,
        ..CompileOptions::default()
    };
    let mut found = Vec::new();
    for shader in test.shaders.iter().filter(|s| s.kind == SourceKind::Glsl) {
        let stage = compiler_stage(shader.stage);
        let (Ok(unit), Ok(module)) = (
            parse_shader(&shader.text, stage, "shader"),
            compile(&shader.text, stage, "shader", &options),
        ) else {
            continue;
        };
        for f in foldable_patterns(&module) {
            let location = unit.source_map.locate(f.span.start);
            found.push((
                shader.first_line + location.physical_line as usize - 1,
                format!(
                    "`{}` can be folded away by the compiler's inexact algebra; build the \
                     case from operations that cannot",
                    f.pattern
                ),
            ));
        }
    }
    found
}
