//! Reading a file halfcheck was given: only a regular file, and only up to a size cap.
//!
//! A name can point at a named pipe (opening it waits for a writer forever), a device
//! (`/dev/zero` never ends) or a file larger than memory. The file is opened without blocking
//! and its type checked on the open descriptor (so nothing can swap it in between), then read
//! up to the cap; anything else is an error saying what the file is, and no read hangs.

use crate::NestingError;
use std::fs::File;
use std::io::{Error, ErrorKind, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The largest `results.json` or journal halfcheck reads: about 250,000 results at the 1 KB a
/// result with its probes takes, far beyond piglit's whole corpus.
pub const MAX_RESULTS_BYTES: u64 = 256 << 20;

/// The largest expectations file, driver profile or test list halfcheck reads.
pub const MAX_SETTINGS_BYTES: u64 = 16 << 20;

/// Reads the whole of `path` if it is a regular file of at most `limit` bytes. The error says
/// what else it is (a named pipe, a device, a directory) or that it is too large.
pub fn read_regular(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!("larger than {}, the most halfcheck reads here", size(limit)),
        ));
    }
    Ok(bytes)
}

/// Reads `path` like [`read_regular`] and decodes it as UTF-8.
pub fn read_regular_text(path: &Path, limit: u64) -> std::io::Result<String> {
    String::from_utf8(read_regular(path, limit)?)
        .map_err(|e| Error::new(ErrorKind::InvalidData, format!("not UTF-8 text: {e}")))
}

/// Opens `path` for reading without waiting on a pipe, and refuses anything but a regular
/// file.
fn open_regular(path: &Path) -> std::io::Result<File> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    let what = if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a named pipe"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "something other than a file"
    };
    Err(Error::new(
        ErrorKind::InvalidInput,
        format!("{what}, not a regular file"),
    ))
}

/// The deepest nesting halfcheck reads in a YAML file: its expectations and profiles nest 3
/// levels, and a 200,000-deep nest took the YAML parser over a minute before its own limit.
pub const MAX_NESTING: usize = 64;

/// The widest indentation halfcheck reads in a YAML file, in columns (block nesting grows it).
pub const MAX_INDENT: usize = 256;

/// Refuses YAML text nested deeper than [`MAX_NESTING`] flow brackets (`[`, `{`) or indented
/// wider than [`MAX_INDENT`] columns (leading `- ` counted), before a parser spends minutes
/// on it. Brackets inside quotes and comments do not count. The error names the line.
pub fn check_yaml_nesting(text: &str) -> Result<(), NestingError> {
    let mut depth = 0usize;
    for (index, line) in text.lines().enumerate() {
        let indent = line
            .char_indices()
            .find(|&(i, c)| !(c == ' ' || (c == '-' && line[i + 1..].starts_with(' '))))
            .map_or(line.len(), |(i, _)| i);
        if indent > MAX_INDENT {
            return Err(NestingError::TooWide {
                line: index + 1,
                columns: indent,
            });
        }
        let mut quote = None;
        let mut previous = ' ';
        for c in line.chars() {
            match (quote, c) {
                (None, '#') if previous.is_whitespace() => break,
                (None, '"' | '\'') => quote = Some(c),
                (None, '[' | '{') => depth += 1,
                (None, ']' | '}') => depth = depth.saturating_sub(1),
                (Some('"'), '"') if previous != '\\' => quote = None,
                (Some('\''), '\'') => quote = None,
                _ => {}
            }
            if depth > MAX_NESTING {
                return Err(NestingError::TooDeep { line: index + 1 });
            }
            previous = c;
        }
    }
    Ok(())
}

/// `bytes` as MiB or KiB for a message.
fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_pipe_and_a_device_are_refused_without_waiting() {
        let dir = std::env::temp_dir().join(format!("halfcheck-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let fifo = dir.join("results.json");
        let _ = std::fs::remove_file(&fifo);
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(status.success());
        let e = read_regular(&fifo, 1 << 20).expect_err("refused");
        assert_eq!(e.to_string(), "a named pipe, not a regular file");
        let e = read_regular(Path::new("/dev/zero"), 1 << 20).expect_err("refused");
        assert_eq!(e.to_string(), "a character device, not a regular file");
        let e = read_regular(&dir, 1 << 20).expect_err("refused");
        assert_eq!(e.to_string(), "a directory, not a regular file");
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    fn a_file_over_the_cap_is_refused_and_one_at_the_cap_is_read() {
        let path = std::env::temp_dir().join(format!("halfcheck-cap-{}", std::process::id()));
        std::fs::write(&path, vec![b'x'; 2048]).expect("write");
        assert_eq!(read_regular(&path, 2048).expect("read").len(), 2048);
        let e = read_regular(&path, 1024).expect_err("refused");
        assert_eq!(
            e.to_string(),
            "larger than 1 KiB, the most halfcheck reads here"
        );
        std::fs::remove_file(&path).expect("clean up");
    }

    #[test]
    fn yaml_nested_too_deep_is_refused_by_its_line() {
        assert_eq!(
            check_yaml_nesting("tests:\n  - name: 'a[['\n    regex: \"x[\\\"[\"\n  # [[[[\n"),
            Ok(())
        );
        let deep = format!("a: {}", "[".repeat(200_000));
        let e = check_yaml_nesting(&deep).expect_err("too deep");
        assert_eq!(e, NestingError::TooDeep { line: 1 });
        assert_eq!(
            e.to_string(),
            "line 1: nested more than 64 deep; halfcheck reads no deeper"
        );
        let wide = format!("a:\n{}b: 1\n", "- ".repeat(200));
        let e = check_yaml_nesting(&wide).expect_err("too wide");
        assert_eq!(
            e.to_string(),
            "line 2: indented 400 columns; halfcheck reads at most 256"
        );
    }
}
