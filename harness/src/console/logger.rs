//! The `-v` debugging log: a logger for the `log` crate, about as small as ripgrep's.
//!
//! Warnings and errors always show; `-v` adds info and debug messages, `-vv` trace. Each goes
//! to stderr as one line, `halfcheck: warning: ...`, debug and trace ones with the module they
//! come from (`halfcheck: DEBUG|halfcheck::runner: ...`), escaped (a test's name or a driver's
//! message may hold control characters) and printed above a live progress bar.

use halfcheck_compiler::front::diagnostic::escape;
use log::{Level, LevelFilter, Log, Metadata, Record};

/// The logger; it keeps no state (the level lives in `log::max_level`).
struct Logger;

static LOGGER: Logger = Logger;

/// Installs the logger for `-v` given `verbosity` times. A second call changes nothing.
pub(crate) fn init(verbosity: u8) {
    let level = match verbosity {
        0 => LevelFilter::Warn,
        1 => LevelFilter::Debug,
        _ => LevelFilter::Trace,
    };
    if log::set_logger(&LOGGER).is_ok() {
        log::set_max_level(level);
    }
}

impl Log for Logger {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &Record<'_>) {
        if !self.enabled(record.metadata()) {
            return;
        }
        let message = record.args().to_string();
        let message = escape(&message);
        let line = match record.level() {
            Level::Error => format!("halfcheck: error: {message}"),
            Level::Warn => format!("halfcheck: warning: {message}"),
            Level::Info => format!("halfcheck: {message}"),
            level => format!("halfcheck: {level}|{}: {message}", record.target()),
        };
        super::eprint_line(&line);
    }

    fn flush(&self) {}
}
