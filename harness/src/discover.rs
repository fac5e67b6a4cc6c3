//! Finds `.shader_test` files under the paths given on the command line and names them.
//!
//! A test's name does not depend on how its path was spelled (`cases`, `./cases/`,
//! `/abs/cases`) nor on which part of its suite was given (`cases` or `cases/lowp`): it is the
//! file's path from its *suite root*, starting with the root's own name and joined with `/`
//! (`cases/lowp/mul.shader_test`). A file's suite root is the nearest directory above it that
//! holds a [`SUITE_MARKER`] file; failing that, the nearest directory named `spec` (piglit's
//! layout, whose test names start at `spec@`); failing that, the path given itself (a file
//! given alone is named by its file name). Two different files that would get one name are an
//! error, so no result can overwrite another. `-t`/`-x` regexes select tests by name, as in
//! `piglit run`; `--shard K/N` takes the tests whose name hashes to K.

use crate::results::read::{read_regular_text, MAX_SETTINGS_BYTES};
use crate::results::{quote, Selection, Shard};
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::hash::Hasher;
use std::path::{Component, Path, PathBuf};

/// The file (its content does not matter) that marks a directory as a suite root.
pub(crate) const SUITE_MARKER: &str = ".halfcheck-suite";

/// A test file found on disk.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct TestFile {
    /// Name in results: the path from the suite root, starting with the root's name.
    pub name: String,
    /// Where the file is.
    pub path: PathBuf,
}

/// Everything found under the paths given.
#[derive(Debug, Default)]
pub(crate) struct Found {
    /// The tests, sorted by name, each file once.
    pub tests: Vec<TestFile>,
    /// Name prefixes the paths given cover (a directory's name, or a file's full name): a test
    /// whose name falls under one of them would have been found had its file existed.
    pub scope: BTreeSet<String>,
    /// Paths that do not exist or could not be read, and names two files would share.
    pub errors: Vec<String>,
}

/// Lists every `*.shader_test` under `paths` (files are taken as given), sorted by name.
///
/// Errors (a missing path, an unreadable directory, a name collision) are collected; the walk
/// goes on, and `run` refuses to start while any is left.
pub(crate) fn find(paths: &[PathBuf]) -> Found {
    let mut found = Found::default();
    let mut files = Vec::new();
    for given in paths {
        let path = absolute(given);
        if path.is_file() {
            let root = Roots::above(&path).root().unwrap_or(&path).to_path_buf();
            let name = name_under(&root, &path);
            found.scope.insert(name.clone());
            files.push(TestFile { name, path });
        } else if path.is_dir() {
            let walk = Walk {
                given: &path,
                files: &mut files,
                scope: &mut found.scope,
                errors: &mut found.errors,
            };
            walk.dir(&path, Roots::above(&path));
        } else {
            found.errors.push(not_a_test(given));
        }
    }
    // A file reached through two paths given is one test.
    let mut seen = BTreeSet::new();
    files.retain(|f| seen.insert(f.path.clone()));
    let mut by_name: BTreeMap<String, PathBuf> = BTreeMap::new();
    for file in files {
        if let Some(other) = by_name.get(&file.name) {
            found.errors.push(format!(
                "{} and {} would both be named '{}': give one of them, or mark their suite \
                 root with a {SUITE_MARKER} file",
                other.display(),
                file.path.display(),
                file.name
            ));
            continue;
        }
        by_name.insert(file.name.clone(), file.path.clone());
        found.tests.push(file);
    }
    found.tests.sort();
    found
}

/// Lists every `*.shader_test` under `paths`, sorted by name, with the errors met (see [`find`]).
pub(crate) fn find_tests(paths: &[PathBuf]) -> (Vec<TestFile>, Vec<String>) {
    let found = find(paths);
    (found.tests, found.errors)
}

/// The names of every test under `paths`, before any filter; an error when a path cannot be
/// walked.
pub(crate) fn names_under(paths: &[PathBuf]) -> Result<Vec<String>, String> {
    let found = find(paths);
    if !found.errors.is_empty() {
        return Err(found.errors.join("; "));
    }
    Ok(found.tests.into_iter().map(|t| t.name).collect())
}

/// Why `path`, neither a file nor a directory, cannot be run: it does not exist, cannot be
/// looked at, or is something else (a device, a pipe, a socket), said as what it is.
fn not_a_test(path: &Path) -> String {
    use std::os::unix::fs::FileTypeExt;
    let what = match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return format!("{}: no such file or directory", path.display());
        }
        Err(e) => return format!("{}: cannot read: {e}", path.display()),
        Ok(meta) => {
            let kind = meta.file_type();
            if kind.is_char_device() {
                "a character device"
            } else if kind.is_block_device() {
                "a block device"
            } else if kind.is_fifo() {
                "a named pipe"
            } else if kind.is_socket() {
                "a socket"
            } else {
                "not a regular file"
            }
        }
    };
    format!(
        "{}: {what}, not a .shader_test file or a directory",
        path.display()
    )
}

/// The suite roots in force at a directory: the nearest marked one and the nearest `spec`.
#[derive(Debug, Clone, Default)]
struct Roots {
    marked: Option<PathBuf>,
    spec: Option<PathBuf>,
}

impl Roots {
    /// The roots at `path`, from its ancestors (itself included).
    fn above(path: &Path) -> Roots {
        Roots {
            marked: path
                .ancestors()
                .find(|a| a.join(SUITE_MARKER).is_file())
                .map(Path::to_path_buf),
            spec: path
                .ancestors()
                .find(|a| a.file_name().is_some_and(|n| n == "spec"))
                .map(Path::to_path_buf),
        }
    }

    /// The roots at `dir`, a subdirectory of the directory these roots are for.
    fn descend(&self, dir: &Path) -> Roots {
        let mut roots = self.clone();
        if dir.join(SUITE_MARKER).is_file() {
            roots.marked = Some(dir.to_path_buf());
        }
        if dir.file_name().is_some_and(|n| n == "spec") {
            roots.spec = Some(dir.to_path_buf());
        }
        roots
    }

    /// The root that names files here: a marked one first, then `spec`.
    fn root(&self) -> Option<&Path> {
        self.marked.as_deref().or(self.spec.as_deref())
    }
}

/// A recursive walk of one directory given on the command line.
struct Walk<'a> {
    given: &'a Path,
    files: &'a mut Vec<TestFile>,
    scope: &'a mut BTreeSet<String>,
    errors: &'a mut Vec<String>,
}

impl Walk<'_> {
    fn dir(mut self, dir: &Path, roots: Roots) -> Self {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => {
                self.errors
                    .push(format!("{}: cannot read directory: {e}", dir.display()));
                return self;
            }
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            // Links to directories are not followed (they could loop); links to files are.
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir {
                let below = roots.descend(&path);
                self = self.dir(&path, below);
            } else if path.extension().is_some_and(|e| e == "shader_test") {
                let root = roots.root().unwrap_or(self.given);
                // The path given is in scope by its own name, unless a root lies below it.
                let covered = if self.given.starts_with(root) {
                    self.given
                } else {
                    root
                };
                self.scope.insert(name_under(root, covered));
                self.files.push(TestFile {
                    name: name_under(root, &path),
                    path,
                });
            }
        }
        self
    }
}

/// The name of `path` under suite root `root`: its path from the root's parent, `/`-joined.
fn name_under(root: &Path, path: &Path) -> String {
    let base = root.parent().unwrap_or(root);
    let relative = path.strip_prefix(base).unwrap_or(path);
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// `path` made absolute against the current directory, with `.` and `..` resolved by name
/// (symbolic links are kept, so a test reached through a link is named by the link).
pub(crate) fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|cwd| cwd.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    };
    let mut out = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Whether `name` falls under one of the `scope` prefixes of [`Found::scope`].
pub(crate) fn in_scope<'a>(scope: impl IntoIterator<Item = &'a String>, name: &str) -> bool {
    scope.into_iter().any(|prefix| {
        name == prefix
            || name
                .strip_prefix(prefix.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
    })
}

/// Include (`-t`) and exclude (`-x`) regexes on test names.
#[derive(Debug, Default)]
pub(crate) struct Filter {
    include: Vec<Regex>,
    exclude: Vec<Regex>,
}

impl Filter {
    /// Compiles the patterns; an invalid one is reported with its text.
    pub(crate) fn new(include: &[String], exclude: &[String]) -> Result<Self, String> {
        let compile = |patterns: &[String]| {
            patterns
                .iter()
                .map(|p| regex(p))
                .collect::<Result<Vec<_>, _>>()
        };
        Ok(Filter {
            include: compile(include)?,
            exclude: compile(exclude)?,
        })
    }

    /// Whether a test named `name` is selected.
    pub(crate) fn selects(&self, name: &str) -> bool {
        (self.include.is_empty() || self.include.iter().any(|r| r.is_match(name)))
            && !self.exclude.iter().any(|r| r.is_match(name))
    }
}

/// Compiles a regex given by the user; an invalid one is reported with its text cut to 100
/// characters and the regex crate's last line (what is wrong), never the whole pattern
/// again, which its own message repeats.
pub(crate) fn regex(pattern: &str) -> Result<Regex, String> {
    Regex::new(pattern).map_err(|e| {
        let message = e.to_string();
        let what = message
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or_default();
        format!(
            "invalid regex '{}': {}",
            quote::cut(pattern),
            quote::cut(what.trim())
        )
    })
}

/// The shard (0-based, below `count`) a test belongs to: a hash of its name alone, so adding
/// or removing other tests never moves it. FNV-1a over the name's UTF-8 bytes.
pub(crate) fn shard_of(name: &str, count: u32) -> u32 {
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(name.as_bytes());
    (hasher.finish() % u64::from(count.max(1))) as u32
}

/// A run's [`Selection`] as a predicate: whether that run would run a test of a given name.
/// The runner chooses its tests with it, and `compare` tells a removed test from one that the
/// other run left out.
#[derive(Debug)]
pub(crate) struct Selected {
    scope: Vec<String>,
    filter: Filter,
    list: Option<BTreeSet<String>>,
    shard: Option<Shard>,
}

impl Selected {
    /// Compiles a selection (its regexes may be invalid when it was written by hand).
    pub(crate) fn new(selection: &Selection) -> Result<Self, String> {
        Ok(Selected {
            scope: selection.scope.clone(),
            filter: Filter::new(&selection.include, &selection.exclude)?,
            list: selection
                .test_list
                .as_ref()
                .map(|names| names.iter().cloned().collect()),
            shard: selection.shard.clone(),
        })
    }

    /// Whether the run selects `name`: under a path given, through `-t`/`-x`, on the test
    /// list, in the shard.
    pub(crate) fn selects(&self, name: &str) -> bool {
        in_scope(&self.scope, name)
            && self.filter.selects(name)
            && self.list.as_ref().is_none_or(|list| list.contains(name))
            && self
                .shard
                .as_ref()
                .is_none_or(|shard| shard.indices.contains(&(shard_of(name, shard.count) + 1)))
    }
}

/// What a run's expectations are checked against for stale entries (`Review::stale`): the
/// run's selection, and every test of the suites its paths lie in, before any filter (a
/// subfolder's run knows the rest of its suite).
#[derive(Debug)]
pub(crate) struct Suites {
    selected: Selected,
    names: BTreeSet<String>,
}

impl Suites {
    /// Walks the suite roots of `selection`'s paths; an error when a path cannot be walked.
    pub(crate) fn of(selection: &Selection) -> Result<Self, String> {
        let given = find(&selection.paths);
        if !given.errors.is_empty() {
            return Err(given.errors.join("; "));
        }
        let roots: Vec<PathBuf> = selection
            .paths
            .iter()
            .map(|path| {
                let path = absolute(path);
                Roots::above(&path)
                    .root()
                    .map_or(path.clone(), Path::to_path_buf)
            })
            .collect();
        // The paths given were walked whole; elsewhere in their suites, an unreadable folder
        // only hides tests.
        let names = given
            .tests
            .into_iter()
            .chain(find(&roots).tests)
            .map(|t| t.name)
            .collect();
        Ok(Suites {
            selected: Selected::new(selection)?,
            names,
        })
    }

    /// Whether the run selects `name` (see [`Selected::selects`]).
    pub(crate) fn selects(&self, name: &str) -> bool {
        self.selected.selects(name)
    }

    /// Whether a test named `name` is in the suites.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// The names of the suites' tests, sorted.
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }
}

/// Reads a `--test-list` file: one test name per line; blank lines and `#` comments skipped.
pub(crate) fn read_test_list(path: &Path) -> Result<Vec<String>, String> {
    let text = read_regular_text(path, MAX_SETTINGS_BYTES)
        .map_err(|e| format!("{}: cannot read the test list: {e}", path.display()))?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_string)
        .collect())
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
        assert_eq!(e, "invalid regex '(': error: unclosed group");
    }

    /// Issue 26: a 10 MB regex gave a 10 MB error line.
    #[test]
    fn a_huge_invalid_regex_gives_a_short_error() {
        let huge = "a".repeat(10 << 20) + "(";
        let e = Filter::new(&[huge], &[]).unwrap_err();
        assert!(e.len() < 400, "{} bytes", e.len());
        assert!(e.contains("(10485761 characters in all)"), "{e}");
    }

    #[test]
    fn absolute_resolves_dots_by_name() {
        assert_eq!(absolute(Path::new("/a/./b/../c/")), PathBuf::from("/a/c"));
    }

    #[test]
    fn scope_prefixes_match_whole_path_components() {
        let scope = ["cases/lowp".to_string()];
        assert!(in_scope(&scope, "cases/lowp/a.shader_test"));
        assert!(in_scope(&scope, "cases/lowp"));
        assert!(!in_scope(&scope, "cases/lowpx/a.shader_test"));
        assert!(!in_scope(&scope, "cases/arithmetic/a.shader_test"));
    }

    /// The FNV-1a test vectors: the shard rule may never change, or shards of one night's
    /// run would overlap with the next's.
    #[test]
    fn shard_hash_is_fnv1a_of_the_name() {
        let mut h = fnv::FnvHasher::default();
        h.write(b"a");
        assert_eq!(h.finish(), 0xaf63dc4c8601ec8c);
        assert_eq!(shard_of("a", 1), 0);
        assert_eq!(shard_of("a", 0x10000), 0xec8c);
    }
}
