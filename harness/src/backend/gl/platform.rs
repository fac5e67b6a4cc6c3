//! The EGL platforms halfcheck opens a display on, and which library each loads.
//!
//! `device`: an EGL device (`EGL_EXT_device_enumeration`, `EGL_EXT_platform_device`), by
//! index. `surfaceless`: `EGL_MESA_platform_surfaceless`. `gbm`: the first DRM render node
//! (`/dev/dri/renderD*`) through libgbm (`EGL_KHR_platform_gbm`). `angle-swiftshader`,
//! `angle-vulkan`, `angle-gles`: `EGL_ANGLE_platform_angle` with ANGLE's Vulkan back end on
//! SwiftShader, on the system's Vulkan driver, or its OpenGL ES back end over the system's EGL.
//! With no platform asked for, the first of `device`, `surfaceless`, `gbm` and
//! `angle-swiftshader` the library offers opens.
//!
//! The ANGLE platforms load ANGLE's libEGL: `--gl-library`, else the first real one of
//! [`ANGLE_SEARCH`]; the others load the system's libEGL unless `--gl-library` names one.

use super::egl::{c_text, Egl};
use super::GlError;
use glutin_egl_sys::egl;
use serde::{Deserialize, Serialize};
use std::ffi::c_void;
use std::path::{Path, PathBuf};

/// Where halfcheck looks for ANGLE's libEGL, in order (its libGLESv2 and SwiftShader's
/// Vulkan driver sit beside it, where ANGLE loads them from).
pub const ANGLE_SEARCH: [&str; 6] = [
    "/usr/lib/chromium/libEGL.so",
    "/usr/lib64/chromium/libEGL.so",
    "/usr/lib/chromium-browser/libEGL.so",
    "/snap/chromium/current/usr/lib/chromium-browser/libEGL.so",
    "/opt/google/chrome/libEGL.so",
    "/opt/chromium.org/chromium/libEGL.so",
];

// EGL_ANGLE_platform_angle and its device types (ANGLE's `eglext_angle.h`).
const PLATFORM_ANGLE: u32 = 0x3202;
const ANGLE_TYPE: i32 = 0x3203;
const ANGLE_DEVICE_TYPE: i32 = 0x3209;
const ANGLE_TYPE_OPENGLES: i32 = 0x320E;
const ANGLE_TYPE_VULKAN: i32 = 0x3450;
const ANGLE_DEVICE_TYPE_SWIFTSHADER: i32 = 0x3487;
const ANGLE_DEVICE_TYPE_EGL: i32 = 0x348E;
const ANGLE_NATIVE_PLATFORM_TYPE: i32 = 0x348F;
// EGL_MESA_platform_surfaceless, EGL_KHR_platform_gbm, EGL_EXT_platform_device.
const PLATFORM_SURFACELESS: u32 = 0x31DD;
const PLATFORM_GBM: u32 = 0x31D7;
const PLATFORM_DEVICE: u32 = 0x313F;
const DRM_RENDER_NODE_FILE: i32 = 0x3377;

/// ANGLE's back ends halfcheck opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AngleBackend {
    /// Vulkan on SwiftShader, ANGLE's own CPU Vulkan driver.
    SwiftShader,
    /// Vulkan on the system's Vulkan driver (`VK_ICD_FILENAMES` picks one).
    Vulkan,
    /// OpenGL ES over the system's EGL.
    Gles,
}

/// An EGL platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// An enumerated EGL device.
    Device,
    /// `EGL_MESA_platform_surfaceless`.
    Surfaceless,
    /// GBM on the first DRM render node.
    Gbm,
    /// `EGL_ANGLE_platform_angle` with a back end.
    Angle(AngleBackend),
}

impl Platform {
    /// Every platform, in the order `halfcheck devices` lists them.
    pub const ALL: [Platform; 6] = [
        Platform::Device,
        Platform::Surfaceless,
        Platform::Gbm,
        Platform::Angle(AngleBackend::SwiftShader),
        Platform::Angle(AngleBackend::Vulkan),
        Platform::Angle(AngleBackend::Gles),
    ];

    /// The platform's command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Platform::Device => "device",
            Platform::Surfaceless => "surfaceless",
            Platform::Gbm => "gbm",
            Platform::Angle(AngleBackend::SwiftShader) => "angle-swiftshader",
            Platform::Angle(AngleBackend::Vulkan) => "angle-vulkan",
            Platform::Angle(AngleBackend::Gles) => "angle-gles",
        }
    }

    /// Whether the platform is ANGLE's (and loads ANGLE's libEGL).
    pub fn is_angle(self) -> bool {
        matches!(self, Platform::Angle(_))
    }
}

impl std::fmt::Display for Platform {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Platform {
    type Err = String;

    fn from_str(text: &str) -> Result<Platform, String> {
        Platform::ALL
            .into_iter()
            .find(|p| p.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Platform::ALL.iter().map(|p| p.name()).collect();
                format!(
                    "unknown EGL platform `{text}`: expected one of {}",
                    names.join(", ")
                )
            })
    }
}

impl Serialize for Platform {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Platform {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Platform, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Which EGL library, platform and device the GL backend opens (`--gl-library`,
/// `--gl-platform`, `--gl-device`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EglChoice {
    /// The libEGL to load; `None`: ANGLE's, found by [`ANGLE_SEARCH`], for an ANGLE platform,
    /// else the system's.
    pub library: Option<PathBuf>,
    /// The platform; `None`: the first the library offers.
    pub platform: Option<Platform>,
    /// The device index on the `device` platform (the first when `None`).
    pub device: Option<usize>,
}

/// An initialised EGL display and what opened it.
pub(super) struct Opened {
    /// The library.
    pub egl: &'static Egl,
    /// The display, initialised.
    pub display: egl::types::EGLDisplay,
    /// The platform it is on.
    pub platform: Platform,
    /// The device's DRM render node, when the device platform reports one (or GBM's node).
    pub render_node: Option<PathBuf>,
}

/// Opens and initialises the display `choice` names.
pub(super) fn open(choice: &EglChoice) -> Result<Opened, GlError> {
    let egl = Egl::load(library_for(choice)?.as_deref())?;
    let platforms: Vec<Platform> = match choice.platform {
        Some(platform) => vec![platform],
        None => [
            Platform::Device,
            Platform::Surfaceless,
            Platform::Gbm,
            Platform::Angle(AngleBackend::SwiftShader),
        ]
        .into_iter()
        .filter(|p| offers(egl, *p))
        .collect(),
    };
    // The next platform is tried only where this one has nothing to open (no device, no
    // render node); a display or driver that is there but fails is the error.
    let mut why = Vec::new();
    for platform in &platforms {
        match open_on(egl, *platform, choice.device) {
            Ok(opened) => return Ok(opened),
            Err(e @ (GlError::NoDevice(_) | GlError::Platform(_))) if choice.platform.is_none() => {
                why.push(format!("{platform}: {e}"))
            }
            Err(e) => return Err(e),
        }
    }
    if platforms.is_empty() {
        return Err(GlError::NoDevice(format!(
            "{} offers none of the platforms device, surfaceless, gbm, angle",
            egl.library
        )));
    }
    Err(GlError::NoDevice(why.join("; ")))
}

/// The library `choice` loads: its own, ANGLE's for an ANGLE platform, else `None` (the
/// system's).
pub(super) fn library_for(choice: &EglChoice) -> Result<Option<PathBuf>, GlError> {
    Ok(match (&choice.library, choice.platform) {
        (Some(path), _) => Some(path.clone()),
        (None, Some(Platform::Angle(_))) => Some(find_angle()?),
        (None, _) => None,
    })
}

/// ANGLE's libEGL: the first of [`ANGLE_SEARCH`] that is a real EGL library.
pub(super) fn find_angle() -> Result<PathBuf, GlError> {
    let mut why = Vec::new();
    for candidate in ANGLE_SEARCH.iter().map(Path::new) {
        if !candidate.exists() {
            continue;
        }
        match Egl::load(Some(candidate)) {
            Ok(_) => return Ok(candidate.to_path_buf()),
            Err(e) => why.push(e.to_string()),
        }
    }
    let found = if why.is_empty() {
        String::new()
    } else {
        format!(" ({})", why.join("; "))
    };
    Err(GlError::NoAngle(format!(
        "no ANGLE libEGL in {}{found}: pass --gl-library PATH",
        ANGLE_SEARCH.join(", ")
    )))
}

/// Whether `egl` has the client extensions `platform` needs.
fn offers(egl: &Egl, platform: Platform) -> bool {
    let extensions = egl.client_extensions();
    let has = |name: &str| extensions.split_whitespace().any(|e| e == name);
    match platform {
        Platform::Device => has("EGL_EXT_device_enumeration") && has("EGL_EXT_platform_device"),
        Platform::Surfaceless => has("EGL_MESA_platform_surfaceless"),
        Platform::Gbm => has("EGL_KHR_platform_gbm") || has("EGL_MESA_platform_gbm"),
        Platform::Angle(_) => has("EGL_ANGLE_platform_angle"),
    }
}

fn open_on(
    egl: &'static Egl,
    platform: Platform,
    device: Option<usize>,
) -> Result<Opened, GlError> {
    if !offers(egl, platform) {
        return Err(GlError::Platform(format!(
            "{} does not offer the {platform} platform",
            egl.library
        )));
    }
    if !egl.api.GetPlatformDisplayEXT.is_loaded() {
        return Err(GlError::Platform(format!(
            "{} has no eglGetPlatformDisplayEXT",
            egl.library
        )));
    }
    let none = [egl::NONE as i32];
    let mut render_node = None;
    let (kind, native, attributes): (u32, *mut c_void, Vec<i32>) = match platform {
        Platform::Device => {
            let (handle, node) = enumerated_device(egl, device.unwrap_or(0))?;
            render_node = node;
            (PLATFORM_DEVICE, handle, none.to_vec())
        }
        Platform::Surfaceless => (PLATFORM_SURFACELESS, std::ptr::null_mut(), none.to_vec()),
        Platform::Gbm => {
            let (node, gbm) = super::gbm::open_device()?;
            render_node = Some(node);
            (PLATFORM_GBM, gbm, none.to_vec())
        }
        Platform::Angle(backend) => (
            PLATFORM_ANGLE,
            std::ptr::null_mut(),
            angle_attributes(backend).to_vec(),
        ),
    };
    // SAFETY: the attribute list ends with EGL_NONE; `native` is what the platform takes.
    let display = unsafe {
        egl.api
            .GetPlatformDisplayEXT(kind, native, attributes.as_ptr())
    };
    if display == egl::NO_DISPLAY {
        return Err(GlError::Display(format!(
            "eglGetPlatformDisplayEXT({platform}) failed: {}",
            egl.error()
        )));
    }
    let (mut major, mut minor) = (0, 0);
    // SAFETY: a display from this library.
    if unsafe { egl.api.Initialize(display, &mut major, &mut minor) } == 0 {
        return Err(GlError::Display(format!(
            "eglInitialize({platform}) failed: {}",
            egl.error()
        )));
    }
    Ok(Opened {
        egl,
        display,
        platform,
        render_node,
    })
}

/// `EGL_PLATFORM_ANGLE_ANGLE`'s attributes for `backend`, headless (surfaceless native
/// platform).
fn angle_attributes(backend: AngleBackend) -> [i32; 7] {
    let surfaceless = PLATFORM_SURFACELESS as i32;
    let none = egl::NONE as i32;
    match backend {
        AngleBackend::SwiftShader => [
            ANGLE_TYPE,
            ANGLE_TYPE_VULKAN,
            ANGLE_DEVICE_TYPE,
            ANGLE_DEVICE_TYPE_SWIFTSHADER,
            ANGLE_NATIVE_PLATFORM_TYPE,
            surfaceless,
            none,
        ],
        AngleBackend::Vulkan => [
            ANGLE_TYPE,
            ANGLE_TYPE_VULKAN,
            ANGLE_NATIVE_PLATFORM_TYPE,
            surfaceless,
            none,
            none,
            none,
        ],
        AngleBackend::Gles => [
            ANGLE_TYPE,
            ANGLE_TYPE_OPENGLES,
            ANGLE_DEVICE_TYPE,
            ANGLE_DEVICE_TYPE_EGL,
            ANGLE_NATIVE_PLATFORM_TYPE,
            surfaceless,
            none,
        ],
    }
}

/// The handle of EGL device `index` and its DRM render node, when it reports one.
fn enumerated_device(egl: &Egl, index: usize) -> Result<(*mut c_void, Option<PathBuf>), GlError> {
    let devices = enumerate(egl)?;
    let device = *devices.get(index).ok_or(GlError::NoSuchDevice {
        index,
        count: devices.len(),
    })?;
    Ok((device as *mut c_void, render_node(egl, device)))
}

/// Every EGL device the library lists.
pub(super) fn enumerate(egl: &Egl) -> Result<Vec<egl::types::EGLDeviceEXT>, GlError> {
    if !egl.api.QueryDevicesEXT.is_loaded() {
        return Err(GlError::NoDevice(format!(
            "{} has no EGL_EXT_device_enumeration",
            egl.library
        )));
    }
    let mut count = 0;
    // SAFETY: asking for the count only.
    if unsafe { egl.api.QueryDevicesEXT(0, std::ptr::null_mut(), &mut count) } == 0 {
        return Err(GlError::NoDevice(format!(
            "eglQueryDevicesEXT failed: {}",
            egl.error()
        )));
    }
    let mut devices: Vec<egl::types::EGLDeviceEXT> = vec![std::ptr::null(); count.max(0) as usize];
    // SAFETY: the buffer holds `count` handles.
    if unsafe {
        egl.api
            .QueryDevicesEXT(count, devices.as_mut_ptr(), &mut count)
    } == 0
    {
        return Err(GlError::NoDevice(format!(
            "eglQueryDevicesEXT failed: {}",
            egl.error()
        )));
    }
    devices.truncate(count.max(0) as usize);
    if devices.is_empty() {
        return Err(GlError::NoDevice("the EGL library lists no device".into()));
    }
    Ok(devices)
}

/// The device's DRM render node (`EGL_EXT_device_drm_render_node`), if it has one.
fn render_node(egl: &Egl, device: egl::types::EGLDeviceEXT) -> Option<PathBuf> {
    if !egl.api.QueryDeviceStringEXT.is_loaded() {
        return None;
    }
    // SAFETY: a device handle from this library; the extension list is a plain query.
    let extensions =
        c_text(unsafe { egl.api.QueryDeviceStringEXT(device, egl::EXTENSIONS as i32) });
    if !extensions
        .split_whitespace()
        .any(|e| e == "EGL_EXT_device_drm_render_node")
    {
        return None;
    }
    // SAFETY: as above; the device advertises the render-node query.
    let node = c_text(unsafe { egl.api.QueryDeviceStringEXT(device, DRM_RENDER_NODE_FILE) });
    (!node.is_empty()).then(|| PathBuf::from(node))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn platforms_read_back_from_their_names() {
        for platform in Platform::ALL {
            assert_eq!(platform.name().parse::<Platform>(), Ok(platform));
        }
        let err = "angle".parse::<Platform>().unwrap_err();
        assert!(err.contains("unknown EGL platform `angle`"), "{err}");
        assert!(err.contains("angle-swiftshader"), "{err}");
    }
}
