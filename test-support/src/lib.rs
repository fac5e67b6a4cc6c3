//! What the integration tests of every halfcheck crate share: where the real material that is
//! not part of the repository lives, and how a test skips when it is absent.
//!
//! Two kinds of such material exist:
//! - the anchors (`../shared/anchors` beside the repository: the Igalia mediump piglit tests
//!   and Mesa's lower-precision cases), present on the project's own machines only;
//! - Debian's `piglit` package (`/usr/lib/x86_64-linux-gnu/piglit`), present where it was
//!   installed.
//!
//! Tools some tests run (piglit's own `piglit` command, `xmllint`, `chromium`) are found the
//! same way: [`piglit_command`], [`xmllint`], [`chromium`].
//!
//! A test asks for them through [`anchors`] and [`piglit`]. When they are absent the test
//! prints why ([`skip`]) and returns early, so a fresh clone passes its tests; when
//! `HALFCHECK_REQUIRE_ANCHORS=1` or `HALFCHECK_REQUIRE_PIGLIT=1` (CI sets both) says they must
//! be there, their absence fails the test instead.

use std::path::{Path, PathBuf};

/// Where Debian's `piglit` package installs its tests and runners.
pub const PIGLIT_ROOT: &str = "/usr/lib/x86_64-linux-gnu/piglit";

/// `../shared/anchors/<relative>` beside the repository, or `None` (with a printed reason)
/// when it is absent. Panics when absent and `HALFCHECK_REQUIRE_ANCHORS=1`.
pub fn anchors(relative: &str) -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/anchors");
    present(
        root.join(relative),
        "HALFCHECK_REQUIRE_ANCHORS",
        "the anchors beside the repository (../shared/anchors)",
    )
}

/// The Igalia mediump anchors, `../shared/anchors/igalia-mediump`; see [`anchors`].
pub fn igalia_mediump() -> Option<PathBuf> {
    anchors("igalia-mediump")
}

/// Debian piglit's `<relative>` under [`PIGLIT_ROOT`], or `None` (with a printed reason)
/// when piglit is not installed. Panics when absent and `HALFCHECK_REQUIRE_PIGLIT=1`.
pub fn piglit(relative: &str) -> Option<PathBuf> {
    present(
        Path::new(PIGLIT_ROOT).join(relative),
        "HALFCHECK_REQUIRE_PIGLIT",
        "Debian's piglit package (apt-get install piglit)",
    )
}

/// Debian piglit's `piglit` command (`/usr/bin/piglit`, which runs the framework under
/// [`PIGLIT_ROOT`]), or `None` (with a printed reason) when piglit is not installed. Panics
/// when absent and `HALFCHECK_REQUIRE_PIGLIT=1`.
pub fn piglit_command() -> Option<PathBuf> {
    piglit("framework")?;
    present(
        PathBuf::from("/usr/bin/piglit"),
        "HALFCHECK_REQUIRE_PIGLIT",
        "Debian's piglit package (apt-get install piglit)",
    )
}

/// `xmllint` from the `PATH` (Debian's `libxml2-utils`), or `None` (with a printed reason)
/// when it is absent. Panics when absent and `HALFCHECK_REQUIRE_XMLLINT=1`.
pub fn xmllint() -> Option<PathBuf> {
    present(
        on_path("xmllint"),
        "HALFCHECK_REQUIRE_XMLLINT",
        "xmllint (apt-get install libxml2-utils)",
    )
}

/// `chromium` from the `PATH` (Debian's `chromium`, which runs headless), or `None` (with a
/// printed reason) when it is absent. Panics when absent and `HALFCHECK_REQUIRE_CHROMIUM=1`.
pub fn chromium() -> Option<PathBuf> {
    present(
        on_path("chromium"),
        "HALFCHECK_REQUIRE_CHROMIUM",
        "chromium (apt-get install chromium)",
    )
}

/// The executable `name` in a directory of the `PATH`, else `name` itself (which does not
/// exist, so the caller reports it absent).
fn on_path(name: &str) -> PathBuf {
    std::env::var_os("PATH")
        .and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(name))
                .find(|p| p.is_file())
        })
        .unwrap_or_else(|| PathBuf::from(name))
}

/// The shader sections of a piglit `.shader_test` that runs on GL ES, as
/// `(section name, GLSL text)` (`"vertex shader"`, `"fragment shader"`, ... but not
/// `"vertex shader passthrough"`); nothing for a desktop GL test.
///
/// A test is GL ES when a line of its `[require]` section starts with `GL ES` or `GLSL ES`.
/// A section without `#version` gets `#version N es` first when `[require]` asks for
/// `GLSL ES >= N` above 1.00, as piglit's shader_runner does.
pub fn gles_shader_sections(text: &str) -> Vec<(String, String)> {
    let mut sections: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let t = line.trim_end();
        if let Some(name) = t.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            sections.push((name.trim().to_owned(), String::new()));
        } else if let Some((_, body)) = sections.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    let require: String = sections
        .iter()
        .filter(|(name, _)| name == "require")
        .map(|(_, body)| body.as_str())
        .collect();
    let is_es = require
        .lines()
        .any(|l| l.trim_start().starts_with("GL ES") || l.trim_start().starts_with("GLSL ES"));
    if !is_es {
        return Vec::new();
    }
    let es_version = require.lines().find_map(|l| {
        l.trim()
            .strip_prefix("GLSL ES >=")
            .map(|v| v.trim().replace('.', ""))
    });
    sections
        .into_iter()
        .filter(|(name, _)| name.ends_with(" shader"))
        .map(|(name, body)| {
            let has_version = body.lines().any(|l| l.trim_start().starts_with("#version"));
            let body = match &es_version {
                Some(v) if !has_version && v != "100" => format!("#version {v} es\n{body}"),
                _ => body,
            };
            (name, body)
        })
        .collect()
}

/// `path` when it exists; else the skip (or, when `require_var` is `1`, the failure).
fn present(path: PathBuf, require_var: &str, what: &str) -> Option<PathBuf> {
    if path.exists() {
        return Some(path);
    }
    let test = std::thread::current()
        .name()
        .unwrap_or("this test")
        .to_string();
    let why = format!("{} is absent: it needs {what}", path.display());
    if std::env::var(require_var).as_deref() == Ok("1") {
        panic!("{test}: {why}, and {require_var}=1 says it must be there");
    }
    skip(&format!(
        "{test}: {why} (set {require_var}=1 to make this a failure)"
    ));
    None
}

/// Prints `skipping <why>` on stderr past the test harness's capture (which holds back what
/// `eprintln!` prints from a passing test), so a skipped test is seen in every run.
pub fn skip(why: &str) {
    use std::io::Write;
    let mut stderr = std::io::stderr().lock();
    writeln!(stderr, "skipping {why}").ok();
}
