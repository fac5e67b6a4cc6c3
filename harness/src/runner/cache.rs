//! Where Mesa keeps the shaders a run compiles: a persistent cache in the user's cache
//! directory by default, so a nightly's fresh results directory does not compile everything
//! again (piglit's cache persists the same way); `--shader-cache DIR` moves it,
//! `--no-shader-cache` turns it off, and a `MESA_SHADER_CACHE_DIR` the user set wins.
//!
//! Mesa keys its entries by the driver's build and the shader, but not every driver puts the
//! CPU features it uses into its key (llvmpipe with `GALLIUM_NOSSE=1` compiles other code for
//! the same shader). Each driver environment (`GALLIUM_*`, `LP_*`) therefore gets its own
//! subdirectory, so a lane never reads another lane's code.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The default cache: `mesa_shader_cache` in [`user_cache_dir`].
pub(crate) fn default_dir() -> Option<PathBuf> {
    user_cache_dir().map(|dir| dir.join("mesa_shader_cache"))
}

/// halfcheck's directory in the user's cache: `$XDG_CACHE_HOME/halfcheck`, else
/// `~/.cache/halfcheck`; `None` when neither variable names an absolute directory.
pub(crate) fn user_cache_dir() -> Option<PathBuf> {
    let absolute = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let base = absolute("XDG_CACHE_HOME").or_else(|| absolute("HOME").map(|h| h.join(".cache")))?;
    Some(base.join("halfcheck"))
}

/// The environment a worker starts with for the cache `dir` (`None`: no cache), given the
/// driver environment (`lane::driver_environment`) and whether the user set a variable.
pub(crate) fn worker_env(
    dir: Option<&Path>,
    driver_env: &BTreeMap<String, String>,
    is_set: impl Fn(&str) -> bool,
) -> Vec<(String, String)> {
    if is_set("MESA_SHADER_CACHE_DIR") {
        return Vec::new();
    }
    let Some(dir) = dir else {
        return vec![("MESA_SHADER_CACHE_DISABLE".into(), "true".into())];
    };
    let mut env = vec![(
        "MESA_SHADER_CACHE_DIR".to_string(),
        dir.join(lane_dir(driver_env)).display().to_string(),
    )];
    // One file per cache, not one per shader: writing one file per compiled shader cost the
    // suite of `scripts/bench` 12% of its wall time cold (BENCHMARKS.md).
    if !is_set("MESA_DISK_CACHE_SINGLE_FILE") {
        env.push(("MESA_DISK_CACHE_SINGLE_FILE".into(), "true".into()));
    }
    env
}

/// Creates the directory `MESA_SHADER_CACHE_DIR` names, with its parents, before a worker
/// opens a GL driver: Mesa 22 creates only its last level, and else runs without a cache. A
/// failure is said on stderr (the parent keeps a worker's stderr) and Mesa runs uncached.
pub(crate) fn create_dir_from_env() {
    if let Some(dir) = std::env::var_os("MESA_SHADER_CACHE_DIR") {
        if let Err(e) = std::fs::create_dir_all(&dir) {
            eprintln!(
                "halfcheck worker: cannot create the shader cache {}: {e}",
                Path::new(&dir).display()
            );
        }
    }
}

/// The subdirectory of a driver environment: `default` for none, else its variables
/// (`GALLIUM_NOSSE=1`), with anything but letters, digits, `=`, `-` and `_` made `_`.
fn lane_dir(driver_env: &BTreeMap<String, String>) -> String {
    if driver_env.is_empty() {
        return "default".to_string();
    }
    driver_env
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "=-_,".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn each_driver_environment_gets_its_own_single_file_cache() {
        let dir = Path::new("/cache");
        assert_eq!(
            worker_env(Some(dir), &env(&[]), |_| false),
            [
                ("MESA_SHADER_CACHE_DIR".into(), "/cache/default".into()),
                ("MESA_DISK_CACHE_SINGLE_FILE".into(), "true".into())
            ]
        );
        assert_eq!(
            worker_env(Some(dir), &env(&[("GALLIUM_NOSSE", "1")]), |n| n
                == "MESA_DISK_CACHE_SINGLE_FILE"),
            [(
                "MESA_SHADER_CACHE_DIR".to_string(),
                "/cache/GALLIUM_NOSSE=1".to_string()
            )]
        );
    }

    #[test]
    fn no_cache_turns_mesas_off_and_the_users_directory_wins() {
        assert_eq!(
            worker_env(None, &env(&[]), |_| false),
            [("MESA_SHADER_CACHE_DISABLE".into(), "true".into())]
        );
        assert!(worker_env(None, &env(&[]), |n| n == "MESA_SHADER_CACHE_DIR").is_empty());
    }
}
