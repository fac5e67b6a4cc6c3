#![warn(unreachable_pub)]
//! Verdicts: whether a driver lowered, judged from the values its probes observed, the
//! emulator's predictions for the run's driver profile and, where it ran, the driver's own
//! highp reference. Plain data and pure functions, apart from running the reference.

mod classify;
mod closed_world;
mod highp_proof;
mod judge;
mod model_match;
mod operation_error;
mod predict;
mod reduced;
mod reference;
mod witness;

pub use classify::{ChannelPrediction, ChannelVerdict, Interval, Verdict};
pub use model_match::{match_model, model_operations};
pub use predict::{add_forced, describe, predict, predictable, NoPrediction};
pub use reduced::{compiler_stage, declares_reduced_precision};
pub use reference::{promoted, ReferenceMode};
pub use witness::{agreement, witness, Agreement};

use halfcheck_emu::Choices;
use halfcheck_piglit::shader_test::ShaderTest;
use halfcheck_results::{ReferenceOutcome, ReferenceRun, Status, TestResult};
use std::time::Instant;

/// How a run judges its tests.
#[derive(Debug, Clone, Copy)]
pub struct Judging<'a> {
    /// When the driver's own highp reference runs (`--reference`).
    pub reference: ReferenceMode,
    /// The run's driver profile's choices (`--emu-profile`), which the predictions follow.
    pub driver: &'a Choices,
}

/// Gives `result` its lowering verdict: `n/a` when the shaders hold nothing lowp or mediump
/// (`reduced` false: [`reduced::declares_reduced_precision`]), else judged from the
/// emulator's predictions (by `judging.driver`'s choices) at every pixel the probes read
/// and, as `judging.reference` asks, the driver's own highp reference (`run` runs the
/// promoted test on the same device).
/// A test that ran but cannot be judged gets `unjudged` and `verdict_reason` says why;
/// skipped and broken tests get no verdict.
pub fn attach(
    test: &ShaderTest,
    reduced: bool,
    result: &mut TestResult,
    judging: Judging,
    run: &mut dyn FnMut(&ShaderTest) -> TestResult,
) {
    let Judging {
        reference: mode,
        driver,
    } = judging;
    if matches!(result.status, Status::Skip | Status::Error) {
        return;
    }
    if !reduced {
        result.verdict = Some(Verdict::NotApplicable);
        return;
    }
    if result.probes.is_empty() {
        result.verdict = Some(Verdict::Unjudged);
        result.verdict_reason = Some("no probe ran".to_string());
        return;
    }
    let channels: Vec<usize> = result.probes.iter().map(|p| p.observed.len()).collect();
    let mut predictions = match predict::predict(test, &channels, driver) {
        Ok(predictions) => predictions,
        Err(reason) => {
            result.verdict = Some(Verdict::Unjudged);
            result.verdict_reason = Some(reason.to_string());
            return;
        }
    };
    let unmodelled = closed_world::not_modelled(test);
    if !unmodelled.is_empty() {
        predictions
            .iter_mut()
            .for_each(predict::ProbePrediction::give_up_bounds);
    }
    // A fixed-precision built-in read, or a fixed mediump output written where the driver
    // rounds mediump outputs: either holds the promoted test below highp too.
    let fixed = reduced::fixed_reduced_builtin(test)
        .map(|builtin| {
            format!("the shaders read {builtin}, whose precision GLSL ES fixes below highp")
        })
        .or_else(|| {
            let rounds = driver.interface.round_outputs;
            let output = reduced::fixed_reduced_output(test).filter(|_| rounds)?;
            Some(format!(
                "the shaders write {output}, whose precision GLSL ES fixes at mediump, and the \
                 driver's profile rounds mediump outputs to binary16"
            ))
        });
    let promoted = match (mode, fixed) {
        (ReferenceMode::None, _) => None,
        (_, Some(why)) => {
            result.reference = Some(skipped(format!(
                "{why}: the promoted test would not be a highp reference"
            )));
            None
        }
        (ReferenceMode::Driver, None) if reference::bounds_decide(result, &predictions) => {
            result.reference = Some(skipped(
                "the acceptance intervals decide every channel where binary16 and binary32 \
                 differ"
                    .to_string(),
            ));
            None
        }
        (ReferenceMode::Driver | ReferenceMode::Always, None) => {
            let proven =
                reference::promoted(test).and_then(|twin| match highp_proof::reduced_left(&twin) {
                    Some(left) => Err(format!(
                        "promoted, {left} (halfcheck's compiler): the promoted test would \
                         not be a highp reference"
                    )),
                    None => Ok(twin),
                });
            match proven {
                Err(why) => {
                    result.reference = Some(skipped(why));
                    None
                }
                Ok(twin) => {
                    let start = Instant::now();
                    let promoted = run(&twin);
                    let ran = !promoted.probes.is_empty();
                    result.reference = Some(ReferenceRun {
                        outcome: if ran {
                            ReferenceOutcome::Ran
                        } else {
                            ReferenceOutcome::Failed
                        },
                        reason: (!ran).then(|| {
                            let why = promoted.reason.as_deref().unwrap_or("it drew no probe");
                            format!("the promoted test ran no probe: {why}")
                        }),
                        status: Some(promoted.status),
                        duration_s: start.elapsed().as_secs_f64(),
                    });
                    ran.then_some(promoted)
                }
            }
        }
    };
    judge::judge(result, &predictions, promoted.as_ref());
    // Nothing decided, and some channel the rules keep highp: a negative control, if lowering
    // everything would show there.
    let kept = result
        .probes
        .iter()
        .flat_map(|p| &p.channels)
        .any(|c| c.verdict == ChannelVerdict::KeptHighp);
    if result.verdict == Some(Verdict::Undetermined)
        && kept
        && predict::add_forced(test, &mut predictions, driver).is_ok()
    {
        judge::judge(result, &predictions, promoted.as_ref());
    }
    if result.verdict == Some(Verdict::Undetermined) && !unmodelled.is_empty() {
        result.verdict_reason = Some(closed_world::reason(&unmodelled));
    }
    operation_error::attach(test, result, driver);
    for probe in &mut result.probes {
        probe.region_observed = Vec::new();
    }
}

/// A reference run not made, and why.
fn skipped(reason: String) -> ReferenceRun {
    ReferenceRun {
        outcome: ReferenceOutcome::Skipped,
        reason: Some(reason),
        status: None,
        duration_s: 0.0,
    }
}
