//! The emulator's predictions for a test's probes, at every pixel each probe reads: what a
//! driver that does not lower (`h`), one that lowers as Mesa does (`m`), one that lowers
//! everything the rules allow (`m'`) and exact arithmetic give, and the acceptance intervals
//! of a conforming highp (`H`) and mediump (`M`) evaluation.
//!
//! `H` is the highp interval domain over the unlowered shader; `M` is the mediump interval
//! domain over the shader lowered by the `spec` model: every operation the precision rules
//! let a driver run at mediump gets mediump's allowance, and lowp/mediump uniforms and
//! varyings may enter in the mediump format, so a driver that lowers more than Mesa is still
//! judged conforming. Each interval is computed alongside a point evaluation of the same IR
//! ([`Guided`]), whose values steer control flow; where an interval leaves a decision open,
//! the evaluator follows both ways or gives up the bound (`halfcheck_emu::exec`).
//!
//! The point predictions follow the run's driver profile (`--emu-profile`, llvmpipe by
//! default): its arithmetic, texture, raster and interface choices. A profile that lowers
//! nothing (softpipe's) still gets Mesa's lowering for `m` and `m'` ([`lowering_model`]):
//! they predict what the driver would give if it lowered.

use super::classify::{ChannelPrediction, Interval};
use super::reduced::{compiler_stage, implementation_limit};
use halfcheck_compiler::front::requalify::demote_to_mediump;
use halfcheck_compiler::{CompileOptions, Model, Switches};
use halfcheck_emu::exec::{Bounds, Domain, Guided, Rounding};
use halfcheck_emu::{probe_values, skip_reason, Compiled, Evaluation, Mode, ProbeValues};
use halfcheck_emu::{Choices, Profile};
use halfcheck_piglit::shader_test::{ShaderTest, SourceKind};
use halfcheck_results::{PredictionInfo, Status};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One probe's predictions over the region it reads, per pixel and probed channel.
#[derive(Debug, Clone)]
pub struct ProbePrediction {
    /// `[x, y, w, h]`.
    pub region: [u32; 4],
    /// How many channels the probe reads.
    pub channels: usize,
    source: Source,
    /// [`ProbePrediction::uniform`], once asked (a scan of every pixel of every evaluation).
    uniform: OnceLock<bool>,
    /// Whether `H` and `M` are given up on every channel: the test uses a feature the
    /// emulator does not model ([`ProbePrediction::give_up_bounds`]).
    unbounded: bool,
}

/// Point and bound from a guided evaluation.
type Pair = (f64, halfcheck_emu::exec::Interval);

/// Where a probe's predictions come from: the emulator's evaluations, read per pixel on
/// demand (a `probe all` holds 62,500 pixels), or a table.
#[derive(Debug, Clone)]
enum Source {
    Evaluations(Box<Evaluations>),
    Table(Vec<Vec<ChannelPrediction>>),
}

/// A probe's values in each of the emulator's evaluations, over its region.
#[derive(Debug, Clone)]
struct Evaluations {
    highp: ProbeValues<Pair>,
    spec: ProbeValues<Pair>,
    mediump: ProbeValues<f64>,
    exact: ProbeValues<f64>,
    forced: Option<ProbeValues<f64>>,
}

impl Evaluations {
    /// Channel `c` at pixel `(x, y)`, when every evaluation holds it.
    fn at(&self, x: u32, y: u32, c: usize) -> Option<ChannelPrediction> {
        let (h, hb) = self.highp.at(x, y, c)?;
        let (ms, mb) = self.spec.at(x, y, c)?;
        Some(ChannelPrediction {
            highp: h as f32,
            mediump: self.mediump.at(x, y, c)? as f32,
            mediump_spec: ms as f32,
            exact: self.exact.at(x, y, c)?,
            highp_bounds: interval(&hb),
            mediump_bounds: interval(&mb),
            forced: self
                .forced
                .as_ref()
                .and_then(|f| f.at(x, y, c))
                .map(|v| v as f32),
            indeterminate: hb.is_indeterminate() || mb.is_indeterminate(),
        })
    }

    /// Whether every pixel holds the first pixel's values in every evaluation, bit for bit.
    fn uniform(&self) -> bool {
        let f64s = |a: &f64, b: &f64| a.to_bits() == b.to_bits();
        let pairs = |a: &Pair, b: &Pair| {
            f64s(&a.0, &b.0)
                && f64s(&a.1.lo(), &b.1.lo())
                && f64s(&a.1.hi(), &b.1.hi())
                && a.1.is_indeterminate() == b.1.is_indeterminate()
        };
        self.highp.uniform(pairs)
            && self.spec.uniform(pairs)
            && self.mediump.uniform(f64s)
            && self.exact.uniform(f64s)
            && self.forced.as_ref().is_none_or(|f| f.uniform(f64s))
    }
}

impl ProbePrediction {
    /// Predictions given per pixel (row by row from the bottom) and channel.
    pub fn from_table(region: [u32; 4], pixels: Vec<Vec<ChannelPrediction>>) -> Self {
        let channels = pixels.first().map_or(0, Vec::len);
        ProbePrediction {
            region,
            channels,
            source: Source::Table(pixels),
            uniform: OnceLock::new(),
            unbounded: false,
        }
    }

    /// The prediction for channel `c` at pixel `(x, y)`, when the region holds it.
    pub fn at(&self, x: u32, y: u32, c: usize) -> Option<ChannelPrediction> {
        let [rx, ry, w, h] = self.region;
        if !((rx..rx + w).contains(&x) && (ry..ry + h).contains(&y)) || c >= self.channels {
            return None;
        }
        let prediction = match &self.source {
            Source::Table(pixels) => {
                let index = (y - ry) as usize * w as usize + (x - rx) as usize;
                pixels.get(index)?.get(c).copied()
            }
            Source::Evaluations(evaluations) => evaluations.at(x, y, c),
        }?;
        if !self.unbounded {
            return Some(prediction);
        }
        let entire = Interval {
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
        };
        Some(ChannelPrediction {
            highp_bounds: entire,
            mediump_bounds: entire,
            ..prediction
        })
    }

    /// Gives up `H` and `M` on every channel: the values rest on something the emulator
    /// does not model, so only the driver's own highp reference can decide.
    pub(crate) fn give_up_bounds(&mut self) {
        self.unbounded = true;
    }
}

impl ProbePrediction {
    /// Whether every pixel of the region has the first pixel's predictions, bit for bit.
    pub fn uniform(&self) -> bool {
        *self.uniform.get_or_init(|| match &self.source {
            Source::Table(pixels) => pixels.windows(2).all(|w| {
                w[0].len() == w[1].len() && w[0].iter().zip(&w[1]).all(|(a, b)| a.same_bits(b))
            }),
            Source::Evaluations(evaluations) => evaluations.uniform(),
        })
    }
}

/// Adds `m!` to `predictions`: the test with every shader demoted to mediump, lowered by the
/// `spec` model, in binary16 (what a driver that lowers everything would give).
pub fn add_forced(
    test: &ShaderTest,
    predictions: &mut [ProbePrediction],
    driver: &Choices,
) -> Result<(), NoPrediction> {
    let mut demoted = test.clone();
    for shader in demoted
        .shaders
        .iter_mut()
        .filter(|s| s.kind == SourceKind::Glsl)
    {
        shader.text = demote_to_mediump(&shader.text, compiler_stage(shader.stage));
    }
    let lowering = lowering_model(driver);
    let compiled = Compiled::new(&demoted, &spec_lowered(&lowering));
    let forced = run(
        &demoted,
        &Rounding::with(Mode::Mediump, lowering),
        &compiled,
    )?;
    for (prediction, values) in predictions.iter_mut().zip(forced) {
        if let Source::Evaluations(evaluations) = &mut prediction.source {
            evaluations.forced = Some(values);
            prediction.uniform = OnceLock::new();
        }
    }
    Ok(())
}

/// The `spec` model's lowering with `lowering`'s switches, which `M` and `m'` evaluate.
fn spec_lowered(lowering: &Choices) -> CompileOptions {
    CompileOptions {
        model: Model::Spec,
        lower: true,
        final_pipeline: false,
        switches: lowering.lowering,
    }
}

/// The choices `m` and `m'` follow for a run on `driver`: its own where it lowers floats,
/// else its arithmetic with Mesa's precision rules and lowering (the default profile's):
/// what the driver would give if it lowered as Mesa does.
pub(crate) fn lowering_model(driver: &Choices) -> Choices {
    if driver.lowering.float16 {
        *driver
    } else {
        let mesa = Choices::default();
        Choices {
            precision: mesa.precision,
            lowering: mesa.lowering,
            ..*driver
        }
    }
}

/// Whether the emulator can take `test` at all (its requirements and budget): one it
/// cannot gets no predictions, so no verdict that needs the driver's exact floats.
pub fn predictable(test: &ShaderTest) -> bool {
    skip_reason(test).is_none()
}

/// Why the emulator has no predictions for a test.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoPrediction {
    /// The emulator could not run it: why.
    #[error("the emulator could not run it: {0}")]
    CannotRun(String),
    /// It reads an implementation limit (named) that only the driver knows.
    #[error(
        "it reads {0}, an implementation limit the driver decides and the emulator does not know"
    )]
    ImplementationLimit(String),
}

/// Per probe (in order), the predictions over its region for its first `channels[k]`
/// channels, the point predictions by the choices of `driver` (the run's profile). An error
/// says why the emulator could not predict.
pub fn predict(
    test: &ShaderTest,
    channels: &[usize],
    driver: &Choices,
) -> Result<Vec<ProbePrediction>, NoPrediction> {
    if let Some(reason) = skip_reason(test) {
        return Err(NoPrediction::CannotRun(reason));
    }
    if let Some(limit) = implementation_limit(test) {
        return Err(NoPrediction::ImplementationLimit(limit));
    }
    // Three compiles serve the four evaluations: `h` and `e` run the unlowered IR.
    let lowering = lowering_model(driver);
    let unlowered = Compiled::new(test, &driver.compile_options(false));
    let spec_lowering = Compiled::new(test, &spec_lowered(&lowering));
    let mesa_lowering = Compiled::new(test, &lowering.compile_options(true));
    let guided = |mode: Mode, choices: Choices, follower: Bounds| Guided {
        guide: Rounding::with(mode, choices),
        follower,
    };
    // Where Mesa lowers what the rules allow, and nothing else (the same IR), `m` is `m'`:
    // the point evaluation that steered the `spec` run.
    let own_mediump = mesa_lowering != spec_lowering;
    // The evaluations are independent: side by side where rayon's pool has threads to spare
    // (a worker sharing the CPUs with others has a pool of one, and runs them in turn).
    let ((highp, spec), (mediump, exact)) = rayon::join(
        || {
            rayon::join(
                || {
                    run(
                        test,
                        &guided(Mode::Highp, *driver, Bounds::highp()),
                        &unlowered,
                    )
                },
                || {
                    run(
                        test,
                        &guided(Mode::Mediump, lowering, Bounds::mediump()),
                        &spec_lowering,
                    )
                },
            )
        },
        || {
            rayon::join(
                || {
                    own_mediump.then(|| {
                        run(
                            test,
                            &Rounding::with(Mode::Mediump, lowering),
                            &mesa_lowering,
                        )
                    })
                },
                || run(test, &Rounding::with(Mode::Exact, *driver), &unlowered),
            )
        },
    );
    // The first evaluation that failed says why, in the order they were written.
    let (highp, spec) = (highp?, spec?);
    let mediump = match mediump {
        Some(own) => own?,
        None => spec
            .iter()
            .map(|values| values.map(|(point, _)| *point))
            .collect(),
    };
    let exact = exact?;
    Ok(highp
        .into_iter()
        .zip(spec)
        .zip(mediump.into_iter().zip(exact))
        .zip(channels)
        .map(|(((highp, spec), (mediump, exact)), &n)| {
            let r = highp.region;
            ProbePrediction {
                region: [r.x, r.y, r.w, r.h],
                channels: n.min(4),
                source: Source::Evaluations(Box::new(Evaluations {
                    highp,
                    spec,
                    mediump,
                    exact,
                    forced: None,
                })),
                uniform: OnceLock::new(),
                unbounded: false,
            }
        })
        .collect())
}

/// One emulator run's probe values, or why there are none.
fn run<D: Domain>(
    test: &ShaderTest,
    domain: &D,
    compiled: &Compiled,
) -> Result<Vec<ProbeValues<D::F>>, NoPrediction> {
    let Evaluation { result, probes } = probe_values(test, domain, compiled);
    match result.status {
        Status::Skip | Status::Error | Status::Crash | Status::Timeout => {
            Err(NoPrediction::CannotRun(result.reason.unwrap_or_default()))
        }
        _ => Ok(probes),
    }
}

/// The verdict's interval for an emulator interval (NaN-capable intervals are everything).
fn interval(i: &halfcheck_emu::exec::Interval) -> Interval {
    if i.may_be_nan() {
        Interval::new(f64::NEG_INFINITY, f64::INFINITY)
    } else {
        Interval::new(i.lo(), i.hi())
    }
}

/// How each prediction is made on a run whose driver profile is `profile`, for
/// `results.json`'s `run.predictions`.
pub fn describe(profile: &Profile) -> BTreeMap<String, PredictionInfo> {
    let switches = |s: Switches| {
        [
            ("float16", s.float16),
            ("int16", s.int16),
            ("constants", s.constants),
            ("float16_uniforms", s.float16_uniforms),
            ("derivatives", s.derivatives),
        ]
        .into_iter()
        .filter(|(_, on)| *on)
        .map(|(name, _)| name.to_string())
        .collect::<Vec<_>>()
    };
    // Every point prediction follows the run's driver profile's choices.
    let driver = || format!("profile {} ({})", profile.name, profile.describes);
    let any = "any conforming driver (interpolation, texture coordinates and filtering, \
               derivatives within stated allowances)";
    let info =
        |meaning: &str, arithmetic: &str, driver_model: String, model: &str, on| PredictionInfo {
            meaning: meaning.to_string(),
            arithmetic: arithmetic.to_string(),
            driver_model,
            precision_model: model.to_string(),
            switches: on,
        };
    let lowering = lowering_model(&profile.choices);
    let mesa = lowering.compile_options(true);
    BTreeMap::from([
        (
            "highp".to_string(),
            info(
                "a driver that does not lower: every operation in binary32",
                "binary32",
                driver(),
                "none",
                Vec::new(),
            ),
        ),
        (
            "mediump".to_string(),
            info(
                "a driver that lowers as Mesa does",
                "binary16 where lowered, else binary32",
                driver(),
                "mesa",
                switches(mesa.switches),
            ),
        ),
        (
            "mediump_spec".to_string(),
            info(
                "a driver that lowers everything the precision rules allow",
                "binary16 where lowered, else binary32",
                driver(),
                "spec",
                switches(spec_lowered(&lowering).switches),
            ),
        ),
        (
            "exact".to_string(),
            info("the exact value", "binary64", driver(), "none", Vec::new()),
        ),
        (
            "highp_bounds".to_string(),
            info(
                "every value a conforming highp evaluation may return",
                "intervals, dEQP's highp allowances",
                any.to_string(),
                "none",
                Vec::new(),
            ),
        ),
        (
            "mediump_bounds".to_string(),
            info(
                "every value a conforming evaluation may return with everything the rules \
                 allow at mediump",
                "intervals, dEQP's mediump allowances where lowered, lowp/mediump uniforms \
                 and varyings in the mediump format",
                any.to_string(),
                "spec",
                switches(spec_lowered(&lowering).switches),
            ),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use halfcheck_emu::compile_options;
    use halfcheck_piglit::shader_test::parse_str;
    use std::path::Path;

    /// A test whose fragment shader computes `body` from uniforms `a` and `b`, probed at one
    /// pixel.
    fn test_with(body: &str) -> ShaderTest {
        test_writing("", body)
    }

    /// [`test_with`], its output `color` declared with `precision` (`""` for the default).
    fn test_writing(precision: &str, body: &str) -> ShaderTest {
        let text = format!(
            "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n\n[vertex shader passthrough]\n\n\
             [fragment shader]\n#version 300 es\nprecision mediump float;\nuniform float a;\n\
             uniform float b;\nout {precision} vec4 color;\nvoid main() {{ {body} }}\n\n[test]\n\
             uniform float a 485.62\nuniform float b 0.87\ndraw rect -1 -1 2 2\n\
             probe rgba 7 9 0.0 0.0 0.0 1.0\n"
        );
        parse_str(Path::new("m.shader_test"), &text).expect("parses")
    }

    /// `m` is the binary16 run of Mesa's lowering, whether it comes from the `spec` run (the
    /// two lowerings give the same IR) or from a run of its own (they differ: Mesa keeps
    /// derivatives at highp, the rules let them be lowered).
    #[test]
    fn m_is_the_run_of_mesas_lowering_whether_shared_or_not() {
        let cases = [
            ("color = vec4(fract(a + b), fract(a * b), 0.0, 1.0);", true),
            (
                "float p = gl_FragCoord.x * a * b;\n\
                 color = vec4(fract(dFdx(p) * 32.0), a * b, 0.0, 1.0);",
                false,
            ),
        ];
        for (body, shared) in cases {
            let test = test_with(body);
            let same = Compiled::new(&test, &compile_options(Mode::Mediump))
                == Compiled::new(&test, &spec_lowered(&Choices::default()));
            assert_eq!(same, shared, "{body}");
            let predictions = predict(&test, &[4], &Choices::default()).expect("predicts");
            let alone = halfcheck_emu::predict(&test, Mode::Mediump);
            let observed = &alone.probes[0].observed;
            for (c, value) in observed.iter().enumerate() {
                let m = predictions[0].at(7, 9, c).expect("predicted").mediump;
                assert_eq!(m.to_bits(), value.to_bits(), "{body}: channel {c}");
            }
            let h = predictions[0].at(7, 9, 0).expect("predicted").highp;
            assert_ne!(h, observed[0], "{body}: binary16 shows");
        }
    }

    /// What NVIDIA's GL ES driver (H200, 580.159) does, and `M` must hold: a constant
    /// expression a mediump variable consumes folded in binary16 (`fract(0.37 * 4096.0)`:
    /// 1515.52 is 1516 there, so 0; 0.52 in binary32), and a lowp output stored on a grid of
    /// `2^-8` (0.12 as 0.12109375), and a literal at a binary16 tie rounded up. None is a
    /// value `H` holds.
    #[test]
    fn m_holds_constants_folded_at_mediump_and_lowp_outputs_on_their_own_grid() {
        let test = test_writing(
            "lowp",
            "mediump float c = fract(0.37 * 4096.0);\ncolor = vec4(c, 0.12, 0.0, 1.0);",
        );
        let predictions = predict(&test, &[4], &Choices::default()).expect("predicts");
        let red = predictions[0].at(7, 9, 0).expect("predicted");
        let (h, m) = (red.highp_bounds, red.mediump_bounds);
        assert!(m.contains(0.0) && m.contains(0.52), "{m:?}");
        assert!(!h.contains(0.0), "{h:?}");
        let green = predictions[0].at(7, 9, 1).expect("predicted");
        let (h, m) = (green.highp_bounds, green.mediump_bounds);
        assert!(m.contains(0.121_093_75), "{m:?}");
        assert!(!h.contains(0.121_093_75), "{h:?}");
        // A literal between two binary16 values may be converted to either: 2049.0 to 2050.
        let tie = test_writing(
            "highp",
            "mediump float t = round(2049.0);\ncolor = vec4(t / 4096.0);",
        );
        let predictions = predict(&tie, &[4], &Choices::default()).expect("predicts");
        let red = predictions[0].at(7, 9, 0).expect("predicted");
        let (h, m) = (red.highp_bounds, red.mediump_bounds);
        assert!(m.contains(2050.0 / 4096.0), "{m:?}");
        assert!(!h.contains(2050.0 / 4096.0), "{h:?}");
    }

    /// The run's profile reaches every point prediction: with softpipe's, `h` is softpipe's
    /// highp value (its `log2` from `ln`, not llvmpipe's direct one), and `m`, though softpipe
    /// lowers nothing, is still Mesa's binary16 prediction, so the models still tell a
    /// lowering driver apart.
    #[test]
    fn the_runs_profile_reaches_the_predictions() {
        let test = test_with("color = vec4(fract(log2(a) * 65536.0), a * b, 0.0, 1.0);");
        let softpipe = Profile::builtin("softpipe").expect("built in").choices;
        let at = |driver: &Choices| {
            predict(&test, &[4], driver).expect("predicts")[0]
                .at(7, 9, 0)
                .expect("predicted")
        };
        let (on_softpipe, on_llvmpipe) = (at(&softpipe), at(&Choices::default()));
        let alone = halfcheck_emu::predict_with(&test, Mode::Highp, &softpipe);
        let softpipe_highp = alone.probes[0].observed[0];
        assert_eq!(on_softpipe.highp.to_bits(), softpipe_highp.to_bits());
        assert_ne!(on_softpipe.highp.to_bits(), on_llvmpipe.highp.to_bits());
        assert_ne!(on_softpipe.mediump.to_bits(), on_softpipe.highp.to_bits());
        assert_eq!(
            lowering_model(&softpipe).lowering,
            Choices::default().lowering
        );
    }

    /// The buffer components an output of fewer than four lacks hold what the driver left
    /// there, which differs from run to run (issue 34's campaign, seed 23 test 157: softpipe
    /// left 1.0 where the emulator read 0): indeterminate; what the output writes is not.
    #[test]
    fn the_components_a_short_output_lacks_are_indeterminate() {
        let text = "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n\n[vertex shader passthrough]\n\n\
                    [fragment shader]\n#version 300 es\nprecision mediump float;\n\
                    uniform float a;\nout vec2 color;\nvoid main() { color = vec2(a, a); }\n\n\
                    [test]\nuniform float a 0.25\ndraw rect -1 -1 2 2\n\
                    probe rgba 7 9 0.25 0.25 0.0 1.0\n";
        let test = parse_str(Path::new("short.shader_test"), text).expect("parses");
        let predictions = predict(&test, &[4], &Choices::default()).expect("predicts");
        for c in 0..4 {
            let p = predictions[0].at(7, 9, c).expect("predicted");
            assert_eq!(p.indeterminate, c >= 2, "channel {c}: {p:?}");
        }
    }

    /// An implementation limit is the driver's to decide: no prediction rests on the
    /// emulator's own number.
    #[test]
    fn a_shader_reading_an_implementation_limit_gets_no_prediction() {
        let test = test_with("color = vec4(float(gl_MaxDrawBuffers) * a, b, 0.0, 1.0);");
        let reason = predict(&test, &[4], &Choices::default()).err();
        assert_eq!(
            reason,
            Some(NoPrediction::ImplementationLimit(
                "gl_MaxDrawBuffers".to_owned()
            ))
        );
        let reason = reason.map(|r| r.to_string()).unwrap_or_default();
        assert!(reason.contains("reads gl_MaxDrawBuffers, an"), "{reason}");
        let plain = test_with("color = vec4(a, b, 0.0, 1.0);");
        assert!(predict(&plain, &[4], &Choices::default()).is_ok());
    }
}
