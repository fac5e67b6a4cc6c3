//! The driver's own highp reference: each test that declares lowp/mediump runs a second time
//! on the same device, *promoted* (each shader preprocessed, every lowp/mediump qualifier
//! and default precision statement of the output rewritten to highp by
//! `halfcheck_compiler::front::promote`, the implicit defaults made explicit highp), with the
//! same `[test]` commands. Its value `r` at each
//! judged pixel is the reference evidence: `o != r` farther from exact is reduced precision on
//! this driver, `o == r` bit for bit where binary16 would differ is not.
//!
//! On the GL backend the reference is the driver itself; on the emulator it is the emulator's
//! highp arithmetic with the same driver model (the promoted test in the same mode).

use super::classify::{bounds_evidence, Evidence};
use super::judge::uniform_rgba;
use super::predict::ProbePrediction;
use super::reduced::compiler_stage;
use halfcheck_compiler::front::promote::promote_to_highp;
use halfcheck_piglit::shader_test::{ShaderTest, SourceKind};
use halfcheck_results::{ProbeResult, TestResult};

/// Whether and when a run asks for the highp reference (`--reference`).
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum ReferenceMode {
    /// Run the promoted test unless the acceptance intervals already decide every channel
    /// where binary16 and binary32 differ (recorded as skipped).
    #[default]
    Driver,
    /// Run the promoted test for every test that declares lowp or mediump.
    Always,
    /// Never: verdicts from the acceptance intervals alone.
    None,
}

impl ReferenceMode {
    /// The name `--reference` takes.
    pub fn name(self) -> &'static str {
        match self {
            ReferenceMode::Driver => "driver",
            ReferenceMode::Always => "always",
            ReferenceMode::None => "none",
        }
    }
}

/// `test` with every GLSL shader promoted to highp, or why a shader cannot be (its
/// section named).
pub fn promoted(test: &ShaderTest) -> Result<ShaderTest, String> {
    let mut out = test.clone();
    for shader in out
        .shaders
        .iter_mut()
        .filter(|s| s.kind == SourceKind::Glsl)
    {
        shader.text =
            promote_to_highp(&shader.text, compiler_stage(shader.stage)).map_err(|why| {
                format!(
                    "the {} shader cannot be promoted: {why}",
                    shader.stage.section_name()
                )
            })?;
    }
    Ok(out)
}

/// Whether the acceptance intervals decide every channel, at every pixel judged, where a
/// reference could tell (the binary16 and binary32 predictions differ): then the reference
/// would add nothing a sound interval has not proven.
pub(crate) fn bounds_decide(result: &TestResult, predictions: &[ProbePrediction]) -> bool {
    result
        .probes
        .iter()
        .zip(predictions)
        .all(|(probe, prediction)| probe_decided(probe, prediction))
        && result.probes.len() <= predictions.len()
}

/// Whether every discriminating channel of every pixel of `probe` has bounds evidence.
fn probe_decided(probe: &ProbeResult, prediction: &ProbePrediction) -> bool {
    let [x0, y0, w, h] = prediction.region;
    if probe.region != Some(prediction.region)
        || probe.region_observed.len() != w as usize * h as usize * 4
    {
        return false;
    }
    let channels = probe.observed.len().min(prediction.channels);
    // A region that holds the same numbers everywhere is decided by its first pixel.
    let (w, h) = if uniform_rgba(&probe.region_observed) && prediction.uniform() {
        (w.min(1), h.min(1))
    } else {
        (w, h)
    };
    (0..h).all(|dy| {
        (0..w).all(|dx| {
            let base = (dy as usize * w as usize + dx as usize) * 4;
            (0..channels).all(|c| match prediction.at(x0 + dx, y0 + dy, c) {
                None => false,
                Some(p) if !p.discriminates_by_models() => true,
                Some(p) => probe
                    .region_observed
                    .get(base + c)
                    .is_some_and(|&o| bounds_evidence(o, &p) != Evidence::Silent),
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use halfcheck_piglit::shader_test::parse_str;
    use std::path::Path;

    #[test]
    fn both_stages_are_promoted_and_commands_kept() {
        let text = "[require]\nGL ES >= 2.0\n[vertex shader]\nuniform mediump float k;\n\
                    attribute vec4 piglit_vertex;\nvoid main() { gl_Position = piglit_vertex * k; }\n\
                    [fragment shader]\nprecision mediump float;\nuniform mediump float k;\n\
                    void main() { gl_FragColor = vec4(k); }\n[test]\nuniform float k 1.0\n\
                    draw rect -1 -1 2 2\nprobe all rgba 1 1 1 1\n";
        let test = parse_str(Path::new("t.shader_test"), text).expect("parses");
        let up = promoted(&test).expect("promotes");
        assert_eq!(up.commands, test.commands);
        assert!(up.shaders[0].text.contains("uniform highp float k;"));
        assert!(up.shaders[1].text.contains("precision highp float;"));
        assert!(up.shaders[1].text.contains("precision highp int;"));
        assert!(!up.shaders.iter().any(|s| s.text.contains("mediump")));
    }
}
