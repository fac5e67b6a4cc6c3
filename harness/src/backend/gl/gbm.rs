//! A GBM device on the first DRM render node, for EGL's GBM platform (`EGL_KHR_platform_gbm`).
//!
//! libgbm is loaded at run time, like libEGL. The node's file and the GBM device live as long
//! as the process: an EGL display made on them is never torn down before it exits.

use super::GlError;
use std::ffi::c_void;
use std::os::fd::IntoRawFd;
use std::path::{Path, PathBuf};

/// Where render nodes are.
const DRI: &str = "/dev/dri";

/// Opens the first render node (`/dev/dri/renderD*`) and a GBM device on it: the node and the
/// `struct gbm_device *`.
pub(super) fn open_device() -> Result<(PathBuf, *mut c_void), GlError> {
    let node = first_render_node(Path::new(DRI))?;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&node)
        .map_err(|e| GlError::Platform(format!("cannot open {}: {e}", node.display())))?;
    // SAFETY: loading libgbm runs its initialisers, meant to run in any process.
    let library = unsafe { libloading::Library::new("libgbm.so.1") }
        .map_err(|e| GlError::Platform(format!("cannot load libgbm.so.1: {e}")))?;
    // SAFETY: `gbm_create_device` has this C signature.
    let create =
        unsafe { library.get::<unsafe extern "C" fn(i32) -> *mut c_void>(b"gbm_create_device\0") }
            .map_err(|e| GlError::Platform(format!("libgbm.so.1 has no gbm_create_device: {e}")))?;
    let fd = file.into_raw_fd();
    // SAFETY: an open render node; GBM keeps the descriptor, which is never closed.
    let device = unsafe { create(fd) };
    if device.is_null() {
        return Err(GlError::Platform(format!(
            "gbm_create_device({}) failed",
            node.display()
        )));
    }
    // The GBM device's code must stay loaded for as long as EGL uses it: the whole process.
    std::mem::forget(library);
    Ok((node, device))
}

/// The first `renderD*` node in `dir`, by name.
fn first_render_node(dir: &Path) -> Result<PathBuf, GlError> {
    let no_node = || GlError::Platform(format!("no render node (no {}/renderD*)", dir.display()));
    let entries = std::fs::read_dir(dir).map_err(|_| no_node())?;
    let mut nodes: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("renderD"))
        })
        .collect();
    nodes.sort();
    nodes.into_iter().next().ok_or_else(no_node)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_render_node_by_name_or_a_clear_error() {
        let scratch = tempfile::tempdir().expect("temp dir");
        let dir = scratch.path().join("dri");
        let missing = first_render_node(&dir).err().map(|e| e.to_string());
        assert_eq!(
            missing.as_deref(),
            Some(format!("no render node (no {}/renderD*)", dir.display()).as_str())
        );
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["card0", "renderD129", "renderD128"] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        let found = first_render_node(&dir).ok();
        assert_eq!(found, Some(dir.join("renderD128")));
    }
}
