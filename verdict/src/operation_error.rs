//! The error each `lowered` channel's binary16 operations made on their own, for the report:
//! a test amplifies it on purpose, so the output's distance from `h` or the exact value says
//! how the test is built, and this says how the driver computes.

use super::predict::lowering_model;
use halfcheck_emu::exec::OwnErrors;
use halfcheck_emu::{probe_values, Choices, Compiled};
use halfcheck_piglit::shader_test::ShaderTest;
use halfcheck_results::{ChannelVerdict, OperationError, TestResult};

/// Gives every `lowered` channel of `result` its [`OperationError`] at the pixel its
/// analysis was judged at: the largest error one binary16 operation made on the way in the
/// emulator's binary16 run of the lowering `m` comes from (`driver`'s, or Mesa's where the
/// driver lowers nothing). Runs the emulator only when some channel is `lowered`.
pub(crate) fn attach(test: &ShaderTest, result: &mut TestResult, driver: &Choices) {
    let lowered = result
        .probes
        .iter()
        .flat_map(|p| &p.channels)
        .any(|c| c.verdict == ChannelVerdict::Lowered);
    if !lowered {
        return;
    }
    let lowering = lowering_model(driver);
    let compiled = Compiled::new(test, &lowering.compile_options(true));
    let run = probe_values(test, &OwnErrors::with(lowering), &compiled);
    for (probe, values) in result.probes.iter_mut().zip(&run.probes) {
        let Some([x, y]) = probe.judged_pixel else {
            continue;
        };
        for (c, channel) in probe.channels.iter_mut().enumerate() {
            if channel.verdict != ChannelVerdict::Lowered {
                continue;
            }
            channel.operation_error =
                values
                    .at(x, y, c)
                    .and_then(|value| value.worst)
                    .map(|(ulp16, operation)| OperationError {
                        operation: operation.name(),
                        ulp16: f64::from(ulp16),
                    });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{attach, Judging, ReferenceMode};
    use halfcheck_emu::{Choices, Mode};
    use halfcheck_piglit::shader_test::parse_str;
    use halfcheck_results::ChannelVerdict;
    use std::path::Path;

    /// `fract(a * b * 1024.0)` amplifies the error of its binary16 product a thousandfold;
    /// the lowered channel's operation error is the product's own (half a ULP at most), and
    /// a channel the rules keep at highp gets none.
    #[test]
    fn a_lowered_channel_gets_its_operations_own_error_not_the_tests() {
        let text = "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n\n[vertex shader passthrough]\n\n\
            [fragment shader]\n#version 300 es\nprecision mediump float;\nuniform float a;\n\
            uniform float b;\nout vec4 color;\n\
            void main() { color = vec4(fract(a * b * 1024.0), 0.5, 0.0, 1.0); }\n\n[test]\n\
            uniform float a 0.3337\nuniform float b 0.7123\ndraw rect -1 -1 2 2\n\
            probe rgba 3 3 0.0 0.0 0.0 1.0\n";
        let test = parse_str(Path::new("t.shader_test"), text).expect("parses");
        let mut result = halfcheck_emu::predict(&test, Mode::Mediump);
        let judging = Judging {
            reference: ReferenceMode::None,
            driver: &Choices::default(),
        };
        attach(&test, true, &mut result, judging, &mut |_| unreachable!());
        let channels = &result.probes[0].channels;
        let red = &channels[0];
        assert_eq!(red.verdict, ChannelVerdict::Lowered, "{red:?}");
        assert!(red.ulp16_error > 50.0, "the test amplifies: {red:?}");
        let own = red.operation_error.as_ref().expect("an operation error");
        assert!(own.ulp16 > 0.0 && own.ulp16 <= 0.5, "{own:?}");
        assert!(
            ["mul", "conversion"].contains(&own.operation.as_str()),
            "{own:?}"
        );
        let green = &channels[1];
        assert_ne!(green.verdict, ChannelVerdict::Lowered, "{green:?}");
        assert_eq!(green.operation_error, None);
    }
}
