//! What `--emu-mode` and `--emu-profile` name: a mode, and a built-in profile or a YAML file.

use crate::exec::Mode;
use crate::profile::{Profile, ProfileError};
use halfcheck_results::read::{check_yaml_nesting, read_regular_text, MAX_SETTINGS_BYTES};
use halfcheck_results::NestingError;
use std::path::Path;

/// An `--emu-mode` that names no mode.
#[derive(Debug, thiserror::Error)]
#[error("unknown emulator mode '{0}': highp, mediump or exact")]
pub struct UnknownMode(pub String);

/// Why `--emu-profile` names no usable profile.
#[derive(Debug, thiserror::Error)]
pub enum LoadProfileError {
    /// Neither a built-in profile's name nor a readable file.
    #[error("no emulator profile '{spec}': not a built-in one ({builtins}) and not a readable file ({source})")]
    NotFound {
        /// What `--emu-profile` said.
        spec: String,
        /// The built-in profiles' names, comma-separated.
        builtins: String,
        /// Why the file could not be read.
        source: std::io::Error,
    },
    /// The file nests deeper than settings files may.
    #[error("{path}: {source}")]
    Nesting {
        /// The file.
        path: String,
        /// How deep it nests.
        source: NestingError,
    },
    /// The file is no valid profile.
    #[error(transparent)]
    Invalid(#[from] ProfileError),
    /// The file could be read but not made absolute for the workers.
    #[error("{spec}: {source}")]
    Unresolved {
        /// What `--emu-profile` said.
        spec: String,
        /// Why it could not be made absolute.
        source: std::io::Error,
    },
}

/// The mode `--emu-mode` names (`highp`, `mediump`, `exact`).
pub fn parse_mode(name: &str) -> Result<Mode, UnknownMode> {
    [Mode::Highp, Mode::Mediump, Mode::Exact]
        .into_iter()
        .find(|m| m.name() == name)
        .ok_or_else(|| UnknownMode(name.to_owned()))
}

/// The profile `--emu-profile` names: a built-in profile's name, or a YAML file. Errors name
/// the file, line and column.
pub fn load_profile(spec: &str) -> Result<Profile, LoadProfileError> {
    if let Some(profile) = Profile::builtin(spec) {
        return Ok(profile);
    }
    let path = Path::new(spec);
    let text = read_regular_text(path, MAX_SETTINGS_BYTES).map_err(|source| {
        LoadProfileError::NotFound {
            spec: spec.to_owned(),
            builtins: Profile::builtin_names().join(", "),
            source,
        }
    })?;
    check_yaml_nesting(&text).map_err(|source| LoadProfileError::Nesting {
        path: path.display().to_string(),
        source,
    })?;
    Ok(Profile::from_yaml(&text, &path.display().to_string())?)
}

/// The profile of a run's options: [`load_profile`] of `spec`, the default when empty.
pub fn profile_of(spec: &str) -> Result<Profile, LoadProfileError> {
    match spec {
        "" => Ok(Profile::default()),
        spec => load_profile(spec),
    }
}

/// `--emu-profile SPEC` checked before a run: the profile, and how workers name it (a
/// built-in name, or the file made absolute).
pub fn resolve_profile(spec: &str) -> Result<(String, Profile), LoadProfileError> {
    let profile = load_profile(spec)?;
    if Profile::builtin(spec).is_some() {
        return Ok((spec.to_owned(), profile));
    }
    let absolute = std::fs::canonicalize(spec)
        .map_err(|source| LoadProfileError::Unresolved {
            spec: spec.to_owned(),
            source,
        })?
        .display()
        .to_string();
    Ok((absolute, profile))
}
