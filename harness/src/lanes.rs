//! The named lanes: each GL ES stack halfcheck runs on, with the EGL platform and environment
//! that open it, in one table (`halfcheck lanes`, `run --lane`, `fingerprint --lane`).
//!
//! A lane's name is the one [`crate::lane::lane`] derives from a run on it, so a run with
//! `--lane NAME` is reported, judged against `cases/expectations/NAME.yaml` and fingerprinted
//! under that name.

use crate::backend::gl::{AngleBackend, Platform};

/// lavapipe, Mesa's CPU Vulkan driver (`mesa-vulkan-drivers`).
const LAVAPIPE_ICD: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

/// One lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Lane {
    /// Its name, as results, expectations and profiles use it.
    pub name: &'static str,
    /// The stack, in words.
    pub stack: &'static str,
    /// The EGL platform it opens (`None`: the first the system's libEGL offers).
    pub platform: Option<Platform>,
    /// The environment its driver needs.
    pub environment: &'static [(&'static str, &'static str)],
    /// What must run or be installed beside it, when anything.
    pub needs: &'static str,
}

/// Every lane.
pub(crate) const LANES: [Lane; 8] = [
    Lane {
        name: "llvmpipe",
        stack: "Mesa llvmpipe (LLVM JIT), binary16 arithmetic for lowered mediump",
        platform: None,
        environment: &[],
        needs: "Mesa's libegl-mesa0",
    },
    Lane {
        name: "llvmpipe-nosse",
        stack: "Mesa llvmpipe without its SSE paths: no binary16 arithmetic",
        platform: None,
        environment: &[("GALLIUM_NOSSE", "1")],
        needs: "Mesa's libegl-mesa0",
    },
    Lane {
        name: "softpipe",
        stack: "Mesa softpipe (interpreted), binary32 throughout",
        platform: None,
        environment: &[("GALLIUM_DRIVER", "softpipe")],
        needs: "Mesa's libegl-mesa0",
    },
    Lane {
        name: "zink",
        stack: "Mesa zink (GL on Vulkan) on lavapipe, float16 in SPIR-V",
        platform: None,
        environment: &[
            ("LIBGL_ALWAYS_SOFTWARE", "1"),
            ("GALLIUM_DRIVER", "zink"),
            ("VK_ICD_FILENAMES", LAVAPIPE_ICD),
        ],
        needs: "mesa-vulkan-drivers",
    },
    Lane {
        name: "virgl",
        stack: "Mesa virgl over vtest to virglrenderer on the host's GLES",
        platform: None,
        environment: &[("GALLIUM_DRIVER", "virpipe")],
        needs: "virgl-server: `virgl_test_server --use-egl-surfaceless --use-gles --multi-clients` running",
    },
    Lane {
        name: "angle-swiftshader",
        stack: "ANGLE's Vulkan back end on SwiftShader (Chromium's software WebGL stack)",
        platform: Some(Platform::Angle(AngleBackend::SwiftShader)),
        environment: &[],
        needs: "ANGLE's libEGL, libGLESv2 and libvk_swiftshader (see `halfcheck devices`)",
    },
    Lane {
        name: "angle-vulkan",
        stack: "ANGLE's Vulkan back end on lavapipe",
        platform: Some(Platform::Angle(AngleBackend::Vulkan)),
        environment: &[("VK_ICD_FILENAMES", LAVAPIPE_ICD)],
        needs: "ANGLE's libEGL and libGLESv2; mesa-vulkan-drivers",
    },
    Lane {
        name: "angle-gles",
        stack: "ANGLE's OpenGL ES back end over Mesa's EGL (llvmpipe)",
        platform: Some(Platform::Angle(AngleBackend::Gles)),
        environment: &[],
        needs: "an ANGLE built with its OpenGL ES back end; Mesa's libegl-mesa0",
    },
];

/// The lane named `name`, or an error listing the names.
pub(crate) fn find(name: &str) -> Result<&'static Lane, String> {
    LANES.iter().find(|l| l.name == name).ok_or_else(|| {
        let names: Vec<&str> = LANES.iter().map(|l| l.name).collect();
        format!(
            "unknown lane `{name}`: expected one of {}",
            names.join(", ")
        )
    })
}

impl Lane {
    /// The lane as `halfcheck lanes` prints it: name, platform, environment, needs.
    pub(crate) fn describe(&self) -> String {
        let platform = self.platform.map_or("default", Platform::name);
        let environment: Vec<String> = self
            .environment
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let environment = if environment.is_empty() {
            "-".to_string()
        } else {
            environment.join(" ")
        };
        format!(
            "{}\n  stack: {}\n  platform: {platform}\n  environment: {environment}\n  needs: {}\n",
            self.name, self.stack, self.needs
        )
    }

    /// Sets the lane's environment in this process, before any worker starts (they inherit
    /// it). A variable the user set already is kept.
    pub(crate) fn apply_environment(&self) {
        for (key, value) in self.environment {
            if std::env::var_os(key).is_none() {
                std::env::set_var(key, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lane_is_found_by_its_name_and_an_unknown_one_is_named() {
        for lane in LANES {
            assert_eq!(find(lane.name).map(|l| l.name), Ok(lane.name));
        }
        let err = find("angle").unwrap_err();
        assert!(err.starts_with("unknown lane `angle`: expected one of llvmpipe,"));
    }

    #[test]
    fn a_lane_describes_its_platform_and_environment() {
        let zink = find("zink").map(Lane::describe).unwrap_or_default();
        assert!(zink.contains("platform: default"), "{zink}");
        assert!(
            zink.contains(
                "environment: LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink \
                 VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
            ),
            "{zink}"
        );
        let angle = find("angle-swiftshader")
            .map(Lane::describe)
            .unwrap_or_default();
        assert!(angle.contains("platform: angle-swiftshader"), "{angle}");
    }
}
