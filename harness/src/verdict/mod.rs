//! Verdicts: whether a driver lowered, what each driver is expected to do, and how two runs
//! differ. Plain data and pure functions, apart from running.

pub mod classify;
pub mod compare;
pub mod expectations;
pub mod judge;
pub mod predict;
pub mod reduced;

pub use classify::{ChannelVerdict, Interval, Verdict};

use crate::results::{Status, TestResult};
use crate::shader_test::ShaderTest;

/// Gives `result` its lowering verdict: `n/a` when the shaders declare no reduced precision,
/// else judged from the emulator's predictions at the pixels the probes reported. When the
/// emulator cannot predict, the verdict stays empty and `logs["verdict"]` says why.
pub fn attach(test: &ShaderTest, result: &mut TestResult) {
    if matches!(result.status, Status::Skip | Status::Error) {
        return;
    }
    if !reduced::declares_reduced_precision(test) {
        result.verdict = Some(Verdict::NotApplicable);
        return;
    }
    if result.probes.is_empty() {
        return;
    }
    let at: Vec<[u32; 2]> = result.probes.iter().map(|p| p.pixel).collect();
    match predict::predict(test, &at) {
        Ok(predictions) => judge::judge(result, &predictions, true),
        Err(reason) => {
            result.logs.insert("verdict".to_string(), reason);
        }
    }
}
