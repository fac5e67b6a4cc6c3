//! Captures what a Mesa driver prints on stderr while one test runs: with `ST_DEBUG=nir`, the
//! NIR of every shader the state tracker hands the driver (`halfcheck_nir` reads it).
//!
//! The worker runs one test at a time, so a capture is one test's (or one reference run's)
//! and never two tests' mixed: file descriptor 2 is pointed at an anonymous memory file
//! (`memfd_create`: nothing is written to disk) around the run, and put back after. What the
//! driver printed beyond the size cap is counted, not kept.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::fd::{AsRawFd, FromRawFd, RawFd};

/// The most a capture keeps, in bytes: a test's dump on llvmpipe is a few KiB; a shader that
/// unrolls a long loop may print megabytes.
pub(crate) const MAX_CAPTURE_BYTES: u64 = 1 << 20;

/// Sets a smaller cap than [`MAX_CAPTURE_BYTES`], in bytes, so that tests can cut a capture.
pub(crate) const CAP_ENV: &str = "HALFCHECK_DRIVER_IR_CAP";

/// The cap in force: [`CAP_ENV`] when it holds a number below the default, else the default.
fn cap() -> u64 {
    std::env::var(CAP_ENV)
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map_or(MAX_CAPTURE_BYTES, |n| n.min(MAX_CAPTURE_BYTES))
}

/// Sets `ST_DEBUG` so that Mesa's GL state tracker prints the NIR it hands the driver,
/// keeping any flags already set. Called before the driver is loaded (Mesa reads it once).
pub(crate) fn ask_mesa_for_nir() {
    let value = match std::env::var("ST_DEBUG") {
        Ok(v) if v.split(',').any(|f| f.trim() == "nir") => return,
        Ok(v) if !v.trim().is_empty() => format!("{v},nir"),
        _ => "nir".to_string(),
    };
    std::env::set_var("ST_DEBUG", value);
}

/// What one run printed on stderr.
#[derive(Debug, Default)]
pub(crate) struct Captured {
    /// The text kept (at most the cap, [`MAX_CAPTURE_BYTES`], cut at a line's end).
    pub text: String,
    /// How many bytes were printed in all.
    pub bytes: u64,
    /// How many of them `text` holds.
    pub kept: u64,
}

impl Captured {
    /// Whether the text kept is less than what was printed.
    pub(crate) fn cut(&self) -> bool {
        self.kept < self.bytes
    }
}

/// Runs `f` with stderr captured. Where the capture cannot be set up, `f` runs with stderr
/// as it was and the capture is empty, with the reason.
pub(crate) fn around<T>(f: impl FnOnce() -> T) -> (T, Result<Captured, String>) {
    let redirect = match Redirect::start() {
        Ok(redirect) => redirect,
        Err(e) => return (f(), Err(e)),
    };
    let value = f();
    (value, redirect.finish())
}

/// Stderr pointed at a memory file, and the descriptor to put back.
struct Redirect {
    saved: RawFd,
    file: File,
}

impl Redirect {
    fn start() -> Result<Redirect, String> {
        let name = c"halfcheck-stderr";
        // SAFETY: memfd_create reads the NUL-terminated name and returns a new descriptor
        // (or -1), which `File` then owns alone.
        let fd = unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(format!(
                "cannot create a memory file: {}",
                std::io::Error::last_os_error()
            ));
        }
        // SAFETY: `fd` is a fresh descriptor nothing else owns.
        let file = unsafe { File::from_raw_fd(fd) };
        // What was printed before the run goes where stderr pointed then.
        c_stderr::flush();
        // SAFETY: dup and dup2 only duplicate descriptors; 2 stays open throughout, now
        // onto the memory file, and `saved` keeps the old one to put back.
        let saved = unsafe { libc::dup(2) };
        if saved < 0 || unsafe { libc::dup2(file.as_raw_fd(), 2) } < 0 {
            let e = std::io::Error::last_os_error();
            if saved >= 0 {
                // SAFETY: `saved` is ours and not yet handed anywhere.
                unsafe { libc::close(saved) };
            }
            return Err(format!("cannot redirect stderr: {e}"));
        }
        c_stderr::buffer(true);
        Ok(Redirect { saved, file })
    }

    /// Puts stderr back and reads what was printed.
    fn finish(mut self) -> Result<Captured, String> {
        c_stderr::flush();
        c_stderr::buffer(false);
        // SAFETY: `saved` is the descriptor stderr was; dup2 makes 2 it again, then the
        // duplicate is closed.
        unsafe {
            libc::dup2(self.saved, 2);
            libc::close(self.saved);
        }
        let bytes = self
            .file
            .metadata()
            .map_err(|e| format!("cannot read the captured stderr: {e}"))?
            .len();
        self.file
            .seek(SeekFrom::Start(0))
            .map_err(|e| format!("cannot read the captured stderr: {e}"))?;
        let mut kept = Vec::new();
        (&mut self.file)
            .take(cap())
            .read_to_end(&mut kept)
            .map_err(|e| format!("cannot read the captured stderr: {e}"))?;
        if (kept.len() as u64) < bytes {
            // Cut at the last whole line, so no instruction is read half.
            let end = kept.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            kept.truncate(end);
        }
        Ok(Captured {
            kept: kept.len() as u64,
            text: String::from_utf8_lossy(&kept).into_owned(),
            bytes,
        })
    }
}

/// C's `stderr`, through which Mesa prints. It is unbuffered, so Mesa's IR printer makes a
/// system call for each token it prints (about 400 per test on llvmpipe); a capture buffers
/// it, and flushes it before stderr points elsewhere.
mod c_stderr {
    extern "C" {
        /// The C library's standard error stream.
        static mut stderr: *mut libc::FILE;
    }

    /// Writes out what the stream holds.
    pub(super) fn flush() {
        // SAFETY: reads the stream pointer the C library set up at start; fflush locks the
        // stream itself.
        unsafe {
            libc::fflush(stderr);
        }
    }

    /// Makes the stream fully buffered (`true`) or unbuffered again (`false`). Called only
    /// right after [`flush`], with nothing held. The buffer is the process's own, allocated
    /// once: the C library would otherwise keep the one-byte buffer of unbuffered mode.
    pub(super) fn buffer(on: bool) {
        static BUFFER: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        let (mode, buffer, size) = if on {
            let buffer = *BUFFER.get_or_init(|| {
                Box::leak(vec![0u8; SIZE].into_boxed_slice()).as_mut_ptr() as usize
            });
            (libc::_IOFBF, buffer as *mut libc::c_char, SIZE)
        } else {
            (libc::_IONBF, std::ptr::null_mut(), 0)
        };
        // SAFETY: as in `flush`; the buffer lives as long as the process and only the stream
        // writes it, one capture at a time.
        unsafe {
            libc::setvbuf(stderr, buffer, mode, size);
        }
    }

    /// The buffer's size in bytes.
    const SIZE: usize = 1 << 16;
}
