//! A backend that runs nothing: every test passes with no probes. It lets the runner's own
//! tests (crash and hang recovery, filters, results) run on machines with no driver.

use crate::results::{RunInfo, Status, TestResult};
use halfcheck_piglit::shader_test::ShaderTest;
use halfcheck_piglit::Backend;

/// The do-nothing backend behind `--backend mock`.
pub(super) struct MockBackend;

impl Backend for MockBackend {
    fn run_info(&self) -> RunInfo {
        RunInfo {
            backend: "mock".to_string(),
            renderer: "halfcheck mock backend".to_string(),
            ..RunInfo::default()
        }
    }

    fn run_test(&mut self, test: &ShaderTest) -> TestResult {
        TestResult::with_status(
            Status::Pass,
            format!("mock backend: {} commands not run", test.commands.len()),
        )
    }
}
