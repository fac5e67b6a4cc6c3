//! The emulator's predictions for a test's probes: what a driver that does not lower (`h`),
//! one that lowers as Mesa does (`m`) and exact arithmetic give, and the acceptance intervals
//! of a conforming highp (`H`) and mediump (`M`) evaluation.
//!
//! `H` is the highp interval domain over the unlowered shader; `M` is the mediump interval
//! domain over the shader lowered by the `spec` model (with llvmpipe's switches): every
//! operation the precision rules let a driver run at mediump gets mediump's allowance, so a
//! driver that lowers more than Mesa is still judged conforming. Each interval is computed
//! alongside a point evaluation of the same IR ([`Guided`]), whose values decide branches and
//! indices: the bounds are those of the evaluations that take that path.

use super::judge::ChannelPrediction;
use super::Interval;
use crate::backend::emu::{compile_options, evaluate, Evaluation, Mode};
use crate::results::Status;
use crate::shader_test::ShaderTest;
use halfcheck_compiler::exec::{Bounds, Domain, Guided, Rounding};
use halfcheck_compiler::{CompileOptions, Model, Switches};

/// Per probe (in order) and per channel, the predictions at the pixels `at` (one per probe:
/// the pixel the observed run reported). An error says why the emulator could not predict.
pub fn predict(test: &ShaderTest, at: &[[u32; 2]]) -> Result<Vec<Vec<ChannelPrediction>>, String> {
    let unlowered = compile_options(Mode::Highp);
    let spec_lowered = CompileOptions {
        model: Model::Spec,
        lower: true,
        final_pipeline: false,
        switches: Switches::llvmpipe(),
    };
    let guided = |mode: Mode, follower: Bounds| Guided {
        guide: Rounding::new(mode),
        follower,
    };
    let highp = run(test, &guided(Mode::Highp, Bounds::highp()), &unlowered, at)?;
    let mediump_bounds = run(
        test,
        &guided(Mode::Mediump, Bounds::mediump()),
        &spec_lowered,
        at,
    )?;
    let mediump = run(
        test,
        &Rounding::new(Mode::Mediump),
        &compile_options(Mode::Mediump),
        at,
    )?;
    let exact = run(test, &Rounding::new(Mode::Exact), &unlowered, at)?;
    Ok(highp
        .iter()
        .enumerate()
        .map(|(probe, channels)| {
            channels
                .iter()
                .enumerate()
                .filter_map(|(c, (h, highp_bounds))| {
                    Some(ChannelPrediction {
                        highp: *h as f32,
                        mediump: *mediump.get(probe)?.get(c)? as f32,
                        mediump_spec: mediump_bounds.get(probe)?.get(c)?.0 as f32,
                        exact: *exact.get(probe)?.get(c)?,
                        highp_bounds: interval(highp_bounds),
                        mediump_bounds: interval(&mediump_bounds.get(probe)?.get(c)?.1),
                    })
                })
                .collect()
        })
        .collect())
}

/// One emulator run's probe values, or why there are none.
fn run<D: Domain>(
    test: &ShaderTest,
    domain: &D,
    options: &CompileOptions,
    at: &[[u32; 2]],
) -> Result<Vec<Vec<D::F>>, String> {
    let Evaluation { result, probes } = evaluate(test, domain, options, at);
    match result.status {
        Status::Skip | Status::Error | Status::Crash | Status::Timeout => Err(format!(
            "the emulator could not run it: {}",
            result.reason.unwrap_or_default()
        )),
        _ => Ok(probes),
    }
}

/// The verdict's interval for an emulator interval (NaN-capable intervals are everything).
fn interval(i: &halfcheck_compiler::exec::Interval) -> Interval {
    if i.may_be_nan() {
        Interval::new(f64::NEG_INFINITY, f64::INFINITY)
    } else {
        Interval::new(i.lo(), i.hi())
    }
}
