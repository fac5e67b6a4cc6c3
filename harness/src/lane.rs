//! A run's lane: the driver it ran on and the environment that changes that driver's
//! arithmetic, named for people (the console, the report's columns, fingerprint profiles):
//! `llvmpipe`, `llvmpipe-nosse` (`GALLIUM_NOSSE=1`), `softpipe`; `angle-swiftshader`,
//! `angle-vulkan`, `angle-gles` for ANGLE's back ends; `emu` and `mock` for halfcheck's own
//! backends. `lanes` lists them with what opens each.

use crate::results::RunInfo;
use std::collections::BTreeMap;

/// The environment variables that choose or configure Mesa's driver (`GALLIUM_*`, `LP_*`),
/// as this process has them.
pub(crate) fn driver_environment() -> BTreeMap<String, String> {
    std::env::vars()
        .filter(|(k, _)| k.starts_with("GALLIUM_") || k.starts_with("LP_"))
        .collect()
}

/// The lane of `run`: the renderer's first word, lower case, with `-nosse` when llvmpipe ran
/// without its SSE paths (and so without its binary16 float arithmetic); for ANGLE, its back
/// end (`angle-swiftshader`, `angle-vulkan`, `angle-gles`); the backend's name for the
/// emulator and the mock.
pub(crate) fn lane(run: &RunInfo) -> String {
    if run.backend != "gl" {
        return run.backend.clone();
    }
    let word: String = run
        .renderer
        .split_whitespace()
        .next()
        .unwrap_or("driver")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect::<String>()
        .to_ascii_lowercase();
    let word = if word.is_empty() {
        "driver".into()
    } else {
        word
    };
    if word == "angle" {
        return angle_lane(&run.renderer).to_string();
    }
    let nosse = run
        .environment
        .get("GALLIUM_NOSSE")
        .is_some_and(|v| !matches!(v.trim(), "" | "0" | "false"));
    if nosse {
        format!("{word}-nosse")
    } else {
        word
    }
}

/// ANGLE's back end from its renderer: `ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device
/// ...))`, `ANGLE (Mesa, Vulkan 1.3.230 (llvmpipe ...))`, `ANGLE (Mesa, llvmpipe ..., OpenGL ES
/// 3.2 Mesa 22.3.6)`.
fn angle_lane(renderer: &str) -> &'static str {
    if renderer.contains("SwiftShader") {
        "angle-swiftshader"
    } else if renderer.contains("Vulkan") {
        "angle-vulkan"
    } else {
        "angle-gles"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(backend: &str, renderer: &str, env: &[(&str, &str)]) -> RunInfo {
        RunInfo {
            backend: backend.into(),
            renderer: renderer.into(),
            environment: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..RunInfo::default()
        }
    }

    #[test]
    fn the_lane_is_the_renderer_and_the_environment_that_changes_its_arithmetic() {
        let llvmpipe = "llvmpipe (LLVM 19.1.7, 256 bits)";
        assert_eq!(lane(&run("gl", llvmpipe, &[])), "llvmpipe");
        assert_eq!(
            lane(&run("gl", llvmpipe, &[("GALLIUM_NOSSE", "1")])),
            "llvmpipe-nosse"
        );
        assert_eq!(
            lane(&run("gl", llvmpipe, &[("GALLIUM_NOSSE", "0")])),
            "llvmpipe"
        );
        assert_eq!(lane(&run("gl", "softpipe", &[])), "softpipe");
        assert_eq!(lane(&run("emu", "halfcheck f16 emulator", &[])), "emu");
        let swiftshader = "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) \
                           (0x0000C0DE)), SwiftShader driver-5.0.0)";
        assert_eq!(lane(&run("gl", swiftshader, &[])), "angle-swiftshader");
        let lavapipe = "ANGLE (Mesa, Vulkan 1.3.230 (llvmpipe (LLVM 15.0.6 256 bits) \
                        (0x00000000)), llvmpipe-0.0.1)";
        assert_eq!(lane(&run("gl", lavapipe, &[])), "angle-vulkan");
        let gles = "ANGLE (Mesa, llvmpipe (LLVM 15.0.6 256 bits), OpenGL ES 3.2 Mesa 22.3.6)";
        assert_eq!(lane(&run("gl", gles, &[])), "angle-gles");
    }
}
