//! The emulator as a [`Backend`]: one driver profile, in one arithmetic mode.

use crate::evaluate::run;
use crate::exec::{Mode, Rounding};
use crate::profile::Profile;
use halfcheck_piglit::shader_test::ShaderTest;
use halfcheck_piglit::{Backend, WindowImage};
use halfcheck_results::{RunInfo, TestResult};
use serde_json::json;
use std::collections::BTreeMap;

/// The emulator backend: one driver profile, in one arithmetic mode.
#[derive(Debug, Clone, Default)]
pub struct EmuBackend {
    /// The arithmetic.
    pub mode: Mode,
    /// The emulated driver.
    pub profile: Profile,
    /// Whether each test's whole window is shaded and kept.
    keep_windows: bool,
    /// The last test's window framebuffer, when kept.
    window: Option<WindowImage>,
}

impl EmuBackend {
    /// The emulator in `mode` with `profile`, keeping no windows.
    pub fn new(mode: Mode, profile: Profile) -> EmuBackend {
        EmuBackend {
            mode,
            profile,
            ..EmuBackend::default()
        }
    }
}

impl Backend for EmuBackend {
    fn run_info(&self) -> RunInfo {
        RunInfo {
            backend: "emu".into(),
            renderer: format!(
                "halfcheck f16 emulator (profile {}, {})",
                self.profile.name,
                self.mode.name()
            ),
            versions: BTreeMap::from([
                (
                    "GL_VERSION".to_owned(),
                    "OpenGL ES 3.1 halfcheck-emu".to_owned(),
                ),
                ("halfcheck".to_owned(), env!("CARGO_PKG_VERSION").to_owned()),
            ]),
            context: json!({
                "mode": self.mode.name(),
                "profile": self.profile.name,
                "profile_describes": self.profile.describes,
                "profile_choices": self.profile.choices,
                "render_target": "RGBA32F",
            }),
            ..RunInfo::default()
        }
    }

    fn run_test(&mut self, test: &ShaderTest) -> TestResult {
        let choices = &self.profile.choices;
        let domain = Rounding::with(self.mode, *choices);
        let options = choices.compile_options(self.mode == Mode::Mediump);
        let (evaluation, window) = run(test, &domain, &options, self.keep_windows);
        self.window = window;
        evaluation.result
    }

    fn keep_windows(&mut self) {
        self.keep_windows = true;
    }

    fn take_window(&mut self) -> Option<WindowImage> {
        self.window.take()
    }
}
