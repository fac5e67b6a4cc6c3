//! The driver's IR as a second witness beside the numbers (`run --driver-ir`,
//! `docs/driver-ir.md`).
//!
//! Each judged channel gets the IR's own line of evidence (`ir`): `lowered` where every value
//! stored to that component of the colour output comes from a 16-bit float operation,
//! `not-lowered` where a float operation on its way works at 32 bits and nothing on it holds a
//! 16-bit value (nor, when it reads inputs or textures, anything in the whole program): a
//! constant output is neither. Then:
//! - where the numbers and the IR say opposite things of a channel, or the numbers say
//!   `lowered` or `partial` of a test whose IR holds no 16-bit value at all, the test is
//!   `inconsistent`, with both facts in the reason;
//! - where the numbers leave the test `undetermined`, the IR's evidence decides the channels
//!   it speaks of, and the verdict says it rests on the IR alone.
//!
//! A capture cut short says nothing: the absence of a 16-bit value in half a dump proves
//! nothing. The numbers always come first; the IR never overturns them, it only disagrees.

use super::classify::combine;
use halfcheck_nir::Program;
use halfcheck_results::{ChannelVerdict, Evidence, EvidenceLine, TestResult, Verdict};

/// Adds the IR's evidence to `result`'s channels and lets it contradict or decide the
/// verdict, as the module's comment says.
pub fn witness(result: &mut TestResult, ir: &Program) {
    let Some(verdict) = result.verdict else {
        return;
    };
    if matches!(verdict, Verdict::NotApplicable | Verdict::Unjudged) || !ir.complete {
        return;
    }
    let mut contradictions = Vec::new();
    for probe in &mut result.probes {
        for (c, channel) in probe.channels.iter_mut().enumerate() {
            channel.evidence.ir = evidence(ir, c);
            let numbers = match channel.verdict {
                ChannelVerdict::Lowered => Evidence::Lowered,
                ChannelVerdict::NotLowered => Evidence::NotLowered,
                _ => continue,
            };
            if opposite(numbers, channel.evidence.ir) {
                contradictions.push(format!(
                    "probe line {} {}: the numbers say {}, the driver's IR {}",
                    probe.line,
                    channel_name(c),
                    numbers.as_str(),
                    said(channel.evidence.ir)
                ));
            }
        }
    }
    if matches!(verdict, Verdict::Lowered | Verdict::Partial) && !ir.any_16 {
        contradictions.push(format!(
            "the numbers say {verdict}, and {NO_16_BIT} in any of its {} shaders",
            ir.shaders.len()
        ));
    }
    if !contradictions.is_empty() {
        let numbers = result.verdict_reason.take();
        result.verdict = Some(Verdict::Inconsistent);
        result.verdict_reason = Some(match numbers {
            Some(before) => format!("{}; before the IR: {before}", contradictions.join("; ")),
            None => contradictions.join("; "),
        });
        return;
    }
    if verdict == Verdict::Undetermined {
        decide(result);
    }
}

/// How a test's reason says that its IR holds no 16-bit value at all.
const NO_16_BIT: &str = "the driver's IR holds no 16-bit value";

/// How the numbers and the driver's IR stand on one test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agreement {
    /// The numbers decided, and the IR says the same of a deciding channel.
    Agree,
    /// The numbers decided; the IR says nothing of their deciding channels.
    Silent,
    /// The IR says the opposite of the numbers (the test is `inconsistent`).
    Disagree,
    /// The numbers could not tell; the IR decided.
    Decided,
}

impl Agreement {
    /// The words the report uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Agreement::Agree => "agree",
            Agreement::Silent => "IR silent",
            Agreement::Disagree => "disagree",
            Agreement::Decided => "decided by the IR",
        }
    }
}

/// How the numbers and the driver's IR stand on `result`; `None` for a test with no IR, or
/// that neither the numbers nor the IR decided.
pub fn agreement(result: &TestResult) -> Option<Agreement> {
    result.driver_ir.as_ref()?;
    if result.verdict_rests_on == [EvidenceLine::Ir] {
        return Some(Agreement::Decided);
    }
    let deciding: Vec<(Evidence, Evidence)> = result
        .probes
        .iter()
        .flat_map(|p| &p.channels)
        .filter_map(|c| match c.verdict {
            ChannelVerdict::Lowered => Some((Evidence::Lowered, c.evidence.ir)),
            ChannelVerdict::NotLowered => Some((Evidence::NotLowered, c.evidence.ir)),
            _ => None,
        })
        .collect();
    let none_at_16 = result
        .verdict_reason
        .as_deref()
        .is_some_and(|r| r.contains(NO_16_BIT));
    if deciding.iter().any(|&(n, ir)| opposite(n, ir)) || none_at_16 {
        return Some(Agreement::Disagree);
    }
    match result.verdict? {
        Verdict::Lowered | Verdict::NotLowered | Verdict::Partial => {
            Some(if deciding.iter().any(|&(n, ir)| n == ir) {
                Agreement::Agree
            } else {
                Agreement::Silent
            })
        }
        _ => None,
    }
}

/// Lets the IR decide the undetermined channels of an undetermined test.
fn decide(result: &mut TestResult) {
    let mut verdicts = Vec::new();
    for channel in result.probes.iter_mut().flat_map(|p| &mut p.channels) {
        if channel.verdict == ChannelVerdict::Undetermined {
            channel.verdict = match channel.evidence.ir {
                Evidence::Lowered => ChannelVerdict::Lowered,
                Evidence::NotLowered => ChannelVerdict::NotLowered,
                _ => ChannelVerdict::Undetermined,
            };
        }
        verdicts.push(channel.verdict);
    }
    let decided = combine(&verdicts);
    if decided == Verdict::Undetermined {
        return;
    }
    let numbers = result.verdict_reason.take().unwrap_or_default();
    result.verdict = Some(decided);
    result.verdict_rests_on = vec![EvidenceLine::Ir];
    result.verdict_reason = Some(format!(
        "{decided} on the driver's IR alone: the numbers cannot tell ({numbers}); the IR is \
         the NIR Mesa's state tracker hands the driver, and its back end may still change \
         the precision"
    ));
}

/// What the IR says of component `c` of the colour output.
fn evidence(ir: &Program, c: usize) -> Evidence {
    match ir.colour.as_ref().and_then(|components| components.get(c)) {
        Some(component) if component.computed_at_16 => Evidence::Lowered,
        Some(component)
            if component.computes_32
                && !component.touches_16
                && (!component.reads_inputs || !ir.any_16) =>
        {
            Evidence::NotLowered
        }
        _ => Evidence::Silent,
    }
}

/// Whether two lines of evidence say opposite things.
fn opposite(a: Evidence, b: Evidence) -> bool {
    matches!(
        (a, b),
        (Evidence::Lowered, Evidence::NotLowered) | (Evidence::NotLowered, Evidence::Lowered)
    )
}

/// The IR's evidence as a phrase.
fn said(e: Evidence) -> &'static str {
    match e {
        Evidence::Lowered => "computes it by a 16-bit float operation",
        _ => "holds no 16-bit value on its way",
    }
}

/// `r`, `g`, `b`, `a` for channel 0 to 3.
fn channel_name(c: usize) -> &'static str {
    ["r", "g", "b", "a"].get(c).copied().unwrap_or("?")
}

#[cfg(test)]
mod tests {
    use super::*;
    use halfcheck_nir::Component;
    use halfcheck_results::{ChannelAnalysis, ProbeResult, Status};

    fn judged(verdict: Verdict, channels: &[ChannelVerdict]) -> TestResult {
        let mut result = TestResult::with_status(Status::Pass, "");
        result.verdict = Some(verdict);
        result.probes = vec![ProbeResult {
            line: 12,
            channels: channels
                .iter()
                .map(|&verdict| ChannelAnalysis {
                    verdict,
                    ..ChannelAnalysis::default()
                })
                .collect(),
            ..ProbeResult::default()
        }];
        result
    }

    /// A program whose colour output's components are `(computed_at_16, touches_16)`, each
    /// with a 32-bit float operation on its way unless it touches 16 bits.
    fn ir(any_16: bool, colour: &[(bool, bool)]) -> Program {
        Program {
            shaders: Vec::new(),
            any_16,
            colour: Some(
                colour
                    .iter()
                    .map(|&(computed_at_16, touches_16)| Component {
                        computed_at_16,
                        touches_16,
                        computes_32: !touches_16,
                        reads_inputs: false,
                    })
                    .collect(),
            ),
            complete: true,
        }
    }

    #[test]
    fn a_lowered_verdict_on_an_ir_with_no_16_bit_value_is_inconsistent() {
        let mut result = judged(Verdict::Lowered, &[ChannelVerdict::Lowered]);
        witness(&mut result, &ir(false, &[(false, false)]));
        assert_eq!(result.verdict, Some(Verdict::Inconsistent));
        let reason = result.verdict_reason.clone().unwrap();
        assert!(reason.contains("the numbers say lowered"), "{reason}");
        assert!(reason.contains("holds no 16-bit value"), "{reason}");
        result.driver_ir = Some(Default::default());
        assert_eq!(agreement(&result), Some(Agreement::Disagree));
    }

    #[test]
    fn a_not_lowered_channel_the_ir_computes_at_16_bits_is_inconsistent() {
        let mut result = judged(Verdict::NotLowered, &[ChannelVerdict::NotLowered]);
        witness(&mut result, &ir(true, &[(true, true)]));
        assert_eq!(result.verdict, Some(Verdict::Inconsistent));
    }

    /// llvmpipe's lone operation: `fract(a)` stays binary32 in the numbers and in the IR.
    #[test]
    fn a_lone_operation_kept_at_32_bits_agrees_with_not_lowered() {
        let mut result = judged(Verdict::NotLowered, &[ChannelVerdict::NotLowered]);
        witness(&mut result, &ir(false, &[(false, false)]));
        assert_eq!(result.verdict, Some(Verdict::NotLowered));
        assert_eq!(
            result.probes[0].channels[0].evidence.ir,
            Evidence::NotLowered
        );
    }

    #[test]
    fn an_undetermined_test_is_decided_by_the_ir_and_says_so() {
        let mut result = judged(
            Verdict::Undetermined,
            &[ChannelVerdict::Undetermined, ChannelVerdict::KeptHighp],
        );
        witness(&mut result, &ir(true, &[(true, true), (false, true)]));
        assert_eq!(result.verdict, Some(Verdict::Lowered));
        assert_eq!(result.verdict_rests_on, vec![EvidenceLine::Ir]);
        assert!(result
            .verdict_reason
            .unwrap()
            .contains("on the driver's IR alone"));
    }

    #[test]
    fn a_16_bit_value_on_the_way_but_not_computing_the_output_decides_nothing() {
        let mut result = judged(Verdict::Undetermined, &[ChannelVerdict::Undetermined]);
        witness(&mut result, &ir(true, &[(false, true)]));
        assert_eq!(result.verdict, Some(Verdict::Undetermined));
        assert_eq!(result.probes[0].channels[0].evidence.ir, Evidence::Silent);
    }

    #[test]
    fn a_capture_cut_short_says_nothing() {
        let mut result = judged(Verdict::Lowered, &[ChannelVerdict::Lowered]);
        let mut cut = ir(false, &[(false, false)]);
        cut.complete = false;
        witness(&mut result, &cut);
        assert_eq!(result.verdict, Some(Verdict::Lowered));
        assert_eq!(result.probes[0].channels[0].evidence.ir, Evidence::Silent);
    }
}
