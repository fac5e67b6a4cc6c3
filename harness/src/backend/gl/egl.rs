//! One EGL library, loaded at run time from a path or by its usual name.
//!
//! The entry points are glutin's generated EGL 1.5 bindings (`glutin_egl_sys`), filled from the
//! library with `libloading`, so any `libEGL` opens: the system's (`libEGL.so.1`, glvnd or
//! Mesa), ANGLE's, a vendor's. A library is loaded once per process and kept loaded: a
//! context's driver code must never be unloaded under it.

use super::GlError;
use glutin_egl_sys::egl;
use std::collections::HashMap;
use std::ffi::{c_void, CStr, CString};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The name the system's libEGL is loaded by when no path is given.
pub(super) const SYSTEM_LIBRARY: &str = "libEGL.so.1";

/// A loaded EGL library and its entry points.
pub(super) struct Egl {
    /// The entry points; an extension's may be missing (`is_loaded`).
    pub api: egl::Egl,
    /// The path or name it was loaded from.
    pub library: String,
    _library: libloading::Library,
}

// SAFETY: the entry table is plain function pointers and the library handle is never used
// after loading; EGL entry points may be called from any thread.
unsafe impl Send for Egl {}
// SAFETY: as above; nothing in `Egl` is mutated after loading.
unsafe impl Sync for Egl {}

static LOADED: Mutex<Option<HashMap<PathBuf, &'static Egl>>> = Mutex::new(None);

impl Egl {
    /// Loads `path` (the system's libEGL when `None`), once per process.
    pub(super) fn load(path: Option<&Path>) -> Result<&'static Egl, GlError> {
        let key = path.map_or_else(|| PathBuf::from(SYSTEM_LIBRARY), Path::to_path_buf);
        let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        let cache = loaded.get_or_insert_with(HashMap::new);
        if let Some(egl) = cache.get(&key) {
            return Ok(egl);
        }
        let egl: &'static Egl = Box::leak(Box::new(Egl::open(&key, path.is_some())?));
        cache.insert(key, egl);
        Ok(egl)
    }

    fn open(key: &Path, given: bool) -> Result<Egl, GlError> {
        let shown = key.display().to_string();
        // SAFETY: loading a library runs its initialisers; an EGL library's are meant to run
        // in any process that links it.
        let library = unsafe { libloading::Library::new(key) }.map_err(|e| {
            if given {
                GlError::Library(format!("cannot load {shown}: {e}"))
            } else {
                GlError::NoEgl
            }
        })?;
        // SAFETY: `eglGetProcAddress` has this C signature in every EGL.
        let get_proc: Option<unsafe extern "system" fn(*const i8) -> *const c_void> =
            unsafe { library.get(b"eglGetProcAddress\0") }
                .ok()
                .map(|symbol| *symbol);
        let Some(get_proc) = get_proc else {
            return Err(GlError::Library(format!(
                "{shown} is no EGL library: it has no eglGetProcAddress (a stub, such as \
                 the empty libEGL.so of a Chromium that links ANGLE into its executable)"
            )));
        };
        let api = egl::Egl::load_with(|name| {
            let Ok(symbol_name) = CString::new(name) else {
                return std::ptr::null();
            };
            // SAFETY: looking a symbol up by name; it is only called through the signature
            // the generated bindings give for that name.
            let direct = unsafe { library.get::<*const c_void>(symbol_name.as_bytes_with_nul()) }
                .map(|symbol| *symbol)
                .unwrap_or(std::ptr::null());
            if direct.is_null() {
                // SAFETY: a NUL-terminated name, as eglGetProcAddress takes.
                unsafe { get_proc(symbol_name.as_ptr()) }
            } else {
                direct
            }
        });
        let core = [
            api.GetDisplay.is_loaded(),
            api.Initialize.is_loaded(),
            api.QueryString.is_loaded(),
            api.ChooseConfig.is_loaded(),
            api.CreateContext.is_loaded(),
            api.MakeCurrent.is_loaded(),
            api.BindAPI.is_loaded(),
            api.GetError.is_loaded(),
            api.DestroyContext.is_loaded(),
        ];
        if core.contains(&false) {
            return Err(GlError::Library(format!(
                "{shown} lacks EGL 1.4's core entry points"
            )));
        }
        Ok(Egl {
            api,
            library: shown,
            _library: library,
        })
    }

    /// The client extensions (`EGL_EXTENSIONS` of `EGL_NO_DISPLAY`), empty when it has none.
    pub(super) fn client_extensions(&self) -> String {
        // SAFETY: querying a string of no display is defined when the library has
        // EGL_EXT_client_extensions, and returns null otherwise.
        let text = unsafe {
            self.api
                .QueryString(egl::NO_DISPLAY, egl::EXTENSIONS as i32)
        };
        // Clear the error a library without client extensions raised.
        // SAFETY: a plain query.
        unsafe { self.api.GetError() };
        c_text(text)
    }

    /// The last EGL error, as its name (`EGL_BAD_DISPLAY`).
    pub(super) fn error(&self) -> String {
        // SAFETY: a plain query.
        let code = unsafe { self.api.GetError() };
        error_name(code)
    }

    /// The address of a GL or EGL entry point, or null.
    pub(super) fn proc_address(&self, name: &CStr) -> *const c_void {
        // SAFETY: a NUL-terminated name.
        unsafe { self.api.GetProcAddress(name.as_ptr()) as *const c_void }
    }
}

/// A C string EGL returned, or empty for null.
pub(super) fn c_text(text: *const std::ffi::c_char) -> String {
    if text.is_null() {
        return String::new();
    }
    // SAFETY: EGL returns NUL-terminated strings that live as long as the display.
    unsafe { CStr::from_ptr(text) }
        .to_string_lossy()
        .into_owned()
}

/// `0x3008` -> `EGL_BAD_DISPLAY`.
fn error_name(code: i32) -> String {
    let name = match code as u32 {
        egl::SUCCESS => "EGL_SUCCESS",
        egl::NOT_INITIALIZED => "EGL_NOT_INITIALIZED",
        egl::BAD_ACCESS => "EGL_BAD_ACCESS",
        egl::BAD_ALLOC => "EGL_BAD_ALLOC",
        egl::BAD_ATTRIBUTE => "EGL_BAD_ATTRIBUTE",
        egl::BAD_CONFIG => "EGL_BAD_CONFIG",
        egl::BAD_CONTEXT => "EGL_BAD_CONTEXT",
        egl::BAD_DISPLAY => "EGL_BAD_DISPLAY",
        egl::BAD_MATCH => "EGL_BAD_MATCH",
        egl::BAD_PARAMETER => "EGL_BAD_PARAMETER",
        _ => return format!("EGL error {code:#x}"),
    };
    name.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_library_without_egl_entry_points_is_refused_by_name() {
        // libc is loaded in every process and has no eglGetProcAddress.
        let err = Egl::open(Path::new("libc.so.6"), true)
            .err()
            .map(|e| e.to_string());
        let err = err.unwrap_or_default();
        assert!(err.contains("libc.so.6 is no EGL library"), "{err}");
        let missing = Egl::open(Path::new("/nonexistent/libEGL.so"), true)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            missing.contains("cannot load /nonexistent/libEGL.so"),
            "{missing}"
        );
    }

    #[test]
    fn error_codes_read_as_their_names() {
        assert_eq!(error_name(0x3008), "EGL_BAD_DISPLAY");
        assert_eq!(error_name(0x1234), "EGL error 0x1234");
    }
}
