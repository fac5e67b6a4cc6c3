//! Writing a mediump test: `halfcheck new` (a skeleton), `suggest` (uniform values and
//! pixels that discriminate), `bless` (expected values and `# Expect` lines from a profile's
//! predictions) and `try` (every lane here, and piglit), with what they share with `lint`: the
//! header a test states its claim in ([`header`]), the margins of a probe ([`margin`]).

pub(crate) mod bless;
mod candidates;
mod edit;
pub(crate) mod header;
pub(crate) mod margin;
pub(crate) mod new;
mod numbers;
pub(crate) mod suggest;
pub(crate) mod try_cmd;
mod uniforms;

use halfcheck_emu::{load_profile, Profile};
use halfcheck_piglit::shader_test::{parse_bytes, read_file, ParseError, ShaderTest};
use std::path::Path;
use std::process::ExitCode;

/// `--lane NAME | --emu-profile P`: the driver whose predictions `suggest` and `bless` follow.
#[derive(clap::Args, Debug)]
pub(crate) struct ProfileArgs {
    /// Predict the driver of this lane (see `halfcheck lanes`), by its built-in profile.
    #[arg(long, value_name = "NAME", conflicts_with = "emu_profile")]
    lane: Option<String>,
    /// Predict this profile: a built-in name or a profile YAML file (default llvmpipe).
    #[arg(long, value_name = "P")]
    emu_profile: Option<String>,
}

impl ProfileArgs {
    /// The profile named, or why it cannot be loaded.
    pub(crate) fn load(&self) -> Result<Profile, String> {
        let spec = match (&self.lane, &self.emu_profile) {
            (Some(lane), _) => crate::lanes::find(lane)?.name,
            (None, Some(profile)) => profile.as_str(),
            (None, None) => "llvmpipe",
        };
        load_profile(spec).map_err(|e| e.to_string())
    }
}

/// `halfcheck: MESSAGE` on stderr; exit 2.
pub(crate) fn fail(message: &str) -> ExitCode {
    eprintln!("halfcheck: {message}");
    ExitCode::from(2)
}

/// A `.shader_test` file's text and its parse.
pub(crate) fn read_test(path: &Path) -> Result<(String, ShaderTest), ParseError> {
    let bytes = read_file(path)?;
    let test = parse_bytes(path, &bytes)?;
    Ok((String::from_utf8_lossy(&bytes).into_owned(), test))
}

/// `work` on every item, on one thread per CPU, the results in the items' order (`None` for an
/// item whose thread panicked).
pub(crate) fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    work: impl Fn(&T) -> R + Sync,
) -> Vec<Option<R>> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.min(items.len()))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else {
                            return done;
                        };
                        done.push((i, work(item)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut slots: Vec<Option<R>> = items.iter().map(|_| None).collect();
    for (i, r) in results {
        slots[i] = Some(r);
    }
    slots
}
