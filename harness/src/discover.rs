//! Finds `.shader_test` files under the paths given on the command line and names them.
//!
//! A test's name is its path relative to the directory it was found under, with `/`
//! separators (a file given directly is named by its file name). `-t`/`-x` regexes select
//! tests by name, as in `piglit run`.

use regex::Regex;
use std::path::{Path, PathBuf};

/// A test file found on disk.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct TestFile {
    /// Name in results: path relative to the root it was found under, `/`-separated.
    pub name: String,
    /// Where the file is.
    pub path: PathBuf,
}

/// Lists every `*.shader_test` under `paths` (files are taken as given), sorted by name.
///
/// Unreadable directories are reported in the returned error list; the walk goes on.
pub fn find_tests(paths: &[PathBuf]) -> (Vec<TestFile>, Vec<String>) {
    let mut found = Vec::new();
    let mut errors = Vec::new();
    for root in paths {
        if root.is_file() {
            let name = root.file_name().map_or_else(
                || root.display().to_string(),
                |n| n.to_string_lossy().into(),
            );
            found.push(TestFile {
                name,
                path: root.clone(),
            });
        } else if root.is_dir() {
            walk(root, root, &mut found, &mut errors);
        } else {
            errors.push(format!("{}: no such file or directory", root.display()));
        }
    }
    found.sort();
    found.dedup_by(|a, b| a.path == b.path);
    (found, errors)
}

/// Recursively collects `.shader_test` files under `dir`.
fn walk(root: &Path, dir: &Path, found: &mut Vec<TestFile>, errors: &mut Vec<String>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            errors.push(format!("{}: cannot read directory: {e}", dir.display()));
            return;
        }
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let is_dir = entry.file_type().map(|t| t.is_dir()).unwrap_or(false);
        if is_dir {
            walk(root, &path, found, errors);
        } else if path.extension().is_some_and(|e| e == "shader_test") {
            found.push(TestFile {
                name: relative_name(root, &path),
                path,
            });
        }
    }
}

/// `path` relative to `root`, joined with `/`.
fn relative_name(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Include (`-t`) and exclude (`-x`) regexes on test names.
#[derive(Debug, Default)]
pub struct Filter {
    include: Vec<Regex>,
    exclude: Vec<Regex>,
}

impl Filter {
    /// Compiles the patterns; an invalid one is reported with its text.
    pub fn new(include: &[String], exclude: &[String]) -> Result<Self, String> {
        let compile = |patterns: &[String]| {
            patterns
                .iter()
                .map(|p| Regex::new(p).map_err(|e| format!("invalid regex '{p}': {e}")))
                .collect::<Result<Vec<_>, _>>()
        };
        Ok(Filter {
            include: compile(include)?,
            exclude: compile(exclude)?,
        })
    }

    /// Whether a test named `name` is selected.
    pub fn selects(&self, name: &str) -> bool {
        (self.include.is_empty() || self.include.iter().any(|r| r.is_match(name)))
            && !self.exclude.iter().any(|r| r.is_match(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_and_exclude_regexes_select_by_name() {
        let f = Filter::new(&["mediump".into()], &["_lowered".into()]).unwrap();
        assert!(f.selects("glsl-es-1.00/execution/mediump_div.shader_test"));
        assert!(!f.selects("glsl-es-1.00/execution/mediump_div_lowered.shader_test"));
        assert!(!f.selects("glsl-es-1.00/execution/simple-dot3.shader_test"));
    }

    #[test]
    fn invalid_regex_is_reported_with_its_text() {
        let e = Filter::new(&["(".into()], &[]).unwrap_err();
        assert!(e.contains("invalid regex '('"), "{e}");
    }
}
