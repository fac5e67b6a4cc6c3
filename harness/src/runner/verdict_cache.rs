//! The verdicts workers gave before, kept in the user's cache directory, so a nightly's second
//! night does not compute the emulator's predictions again for a test whose run came out the
//! same: `$XDG_CACHE_HOME/halfcheck/verdicts` (else `~/.cache/halfcheck/verdicts`) by default,
//! `--verdict-cache DIR` moves it and `--no-verdict-cache` turns it off.
//!
//! A verdict is a pure function of the test, the run's settings (profile, reference mode),
//! halfcheck's own build and what the driver drew: the test's probes and, where it ran, the
//! highp reference's. The driver still runs every test (and every reference) each night; only
//! when everything the verdict was computed from is the same, bit for bit, is the stored
//! verdict given again. A driver that draws one bit otherwise gets a verdict computed anew.
//!
//! Each test has one slot per lane (the backend's settings and the driver's environment), so
//! the cache holds one entry per test and lane and is rewritten, not grown, night after night.
//! Deleting the directory at any time only costs the next run the predictions.

use crate::backend::BackendOptions;
use crate::results::{ProbeResult, TestResult};
use halfcheck_piglit::shader_test::ShaderTest;
use halfcheck_verdict::{self as verdict, Judging};
use serde::{Deserialize, Serialize};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The default directory: `verdicts` in halfcheck's user cache directory.
pub(crate) fn default_dir() -> Option<PathBuf> {
    super::cache::user_cache_dir().map(|dir| dir.join("verdicts"))
}

/// A worker's verdict cache: its directory, and what every key shares (halfcheck's build and
/// the lane).
pub(crate) struct VerdictCache {
    dir: PathBuf,
    build: Digest,
    lane: Digest,
}

/// 128 bits of two SipHash runs: stable within one build of halfcheck, which every key names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct Digest([u64; 2]);

impl Digest {
    /// The digest of what `feed` writes.
    fn of(feed: impl Fn(&mut DefaultHasher)) -> Digest {
        let half = |salt: u8| {
            let mut hasher = DefaultHasher::new();
            salt.hash(&mut hasher);
            feed(&mut hasher);
            hasher.finish()
        };
        Digest([half(1), half(2)])
    }

    fn hex(self) -> String {
        format!("{:016x}{:016x}", self.0[0], self.0[1])
    }
}

/// One stored verdict.
#[derive(Serialize, Deserialize)]
struct Entry {
    /// What the verdict was computed from, but the reference's drawing.
    key: Digest,
    /// What the highp reference drew, when it ran.
    reference: Option<Digest>,
    /// The result with its verdict.
    result: TestResult,
}

impl VerdictCache {
    /// The cache in `dir` for a worker with `options` (the lane's settings and the driver's
    /// environment `driver_env`). `None` when halfcheck cannot name its own build.
    pub(crate) fn new(
        dir: PathBuf,
        options: &BackendOptions,
        driver_env: &std::collections::BTreeMap<String, String>,
    ) -> Option<VerdictCache> {
        let build = build_identity()?;
        let lane = Digest::of(|h| {
            format!("{:?}", options.gl).hash(h);
            format!("{:?}", options.emu_mode).hash(h);
            options.emu_profile.hash(h);
            options.reference.name().hash(h);
            driver_env.hash(h);
        });
        Some(VerdictCache { dir, build, lane })
    }

    /// [`verdict::attach`] for the test read from `bytes` at `path`, giving the stored
    /// verdict where everything it was computed from is the same, else computing it and
    /// storing it. `run` runs the promoted reference on the driver, as for `attach`.
    pub(crate) fn attach(
        &self,
        (path, bytes): (&Path, &[u8]),
        test: &ShaderTest,
        reduced: bool,
        result: &mut TestResult,
        judging: Judging,
        run: &mut dyn FnMut(&ShaderTest) -> TestResult,
    ) {
        let drawn = drawn(result);
        let key = Digest::of(|h| {
            self.build.hash(h);
            bytes.hash(h);
            reduced.hash(h);
            judging.reference.name().hash(h);
            format!("{:?}", judging.driver).hash(h);
            drawn.hash(h);
        });
        let slot = self.slot(path);
        let stored = read(&slot).filter(|entry| entry.key == key);
        let mut promoted_early = None;
        if let Some(entry) = stored {
            let Some(reference) = entry.reference else {
                *result = entry.result;
                return;
            };
            // A stored reference ran, so the test promotes: the same bytes, the same build.
            if let Ok(twin) = verdict::promoted(test) {
                let started = Instant::now();
                let promoted = run(&twin);
                let took = started.elapsed().as_secs_f64();
                if drawn_digest(&promoted) == reference {
                    *result = entry.result;
                    if let Some(run) = &mut result.reference {
                        run.duration_s = took;
                    }
                    return;
                }
                promoted_early = Some((promoted, took));
            }
        }
        let mut reference = None;
        let mut early_duration = None;
        let mut running = |promoted: &ShaderTest| {
            let drawn = match promoted_early.take() {
                Some((drawn, took)) => {
                    early_duration = Some(took);
                    drawn
                }
                None => run(promoted),
            };
            reference = Some(drawn_digest(&drawn));
            drawn
        };
        verdict::attach(test, reduced, result, judging, &mut running);
        if let (Some(took), Some(run)) = (early_duration, &mut result.reference) {
            run.duration_s = took;
        }
        write(
            &slot,
            &Entry {
                key,
                reference,
                result: result.clone(),
            },
        );
    }

    /// The file of the test at `path` on this cache's lane.
    fn slot(&self, path: &Path) -> PathBuf {
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let slot = Digest::of(|h| {
            self.lane.hash(h);
            absolute.hash(h);
        });
        self.dir.join(format!("{}.json", slot.hex()))
    }
}

/// Everything a driver's run of a test gave, but its duration, as bytes: every field of the
/// result and of each probe (each value by its bits, every pixel of its region). The fields
/// are named one by one, so a new field of the results contract does not compile here until
/// it is added.
fn drawn(result: &TestResult) -> Vec<u8> {
    let TestResult {
        status,
        verdict,
        duration_s: _,
        reason,
        probes,
        logs,
        framebuffer,
        verdict_reason,
        verdict_rests_on,
        reference,
        attempts,
        flake,
        // Given after the verdict, from what the driver printed; the IR's witness is applied
        // to a stored verdict as to a fresh one.
        driver_ir: _,
    } = result;
    // The rare and small fields (all empty before a verdict), as results.json writes them.
    let rest = (
        status,
        verdict,
        reason,
        logs,
        framebuffer,
        verdict_reason,
        verdict_rests_on,
        reference,
        attempts,
        flake,
    );
    // Plain data with string keys: serialising cannot fail.
    let mut bytes = serde_json::to_vec(&rest).unwrap_or_default();
    for probe in probes {
        let ProbeResult {
            line,
            pixel,
            expected,
            tolerance,
            observed,
            observed_bits,
            observed_unorm8,
            pass,
            region,
            region_observed,
            channels,
            judged_pixel,
            pixels_judged,
            pixels_lowered,
        } = probe;
        let small = (line, pixel, observed_bits, pass, region, judged_pixel);
        bytes.extend(serde_json::to_vec(&small).unwrap_or_default());
        bytes.extend(serde_json::to_vec(&(pixels_judged, pixels_lowered)).unwrap_or_default());
        bytes.extend(serde_json::to_vec(channels).unwrap_or_default());
        for values in [expected, tolerance, observed_unorm8] {
            bytes.extend((values.len() as u64).to_le_bytes());
            bytes.extend(values.iter().flat_map(|v| v.to_bits().to_le_bytes()));
        }
        for values in [observed, region_observed] {
            bytes.extend((values.len() as u64).to_le_bytes());
            bytes.extend(values.iter().flat_map(|v| v.to_bits().to_le_bytes()));
        }
    }
    bytes
}

/// [`drawn`]'s digest.
fn drawn_digest(result: &TestResult) -> Digest {
    let bytes = drawn(result);
    Digest::of(|h| bytes.hash(h))
}

/// halfcheck's own build: its version and its executable's size and modification time (as
/// ccache tells compilers apart), so a rebuilt halfcheck computes every verdict anew.
fn build_identity() -> Option<Digest> {
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(&exe).ok()?;
    let modified = meta.modified().ok()?;
    Some(Digest::of(|h| {
        env!("CARGO_PKG_VERSION").hash(h);
        exe.hash(h);
        meta.len().hash(h);
        modified.hash(h);
    }))
}

/// The entry in `slot`, when there is one that reads.
fn read(slot: &Path) -> Option<Entry> {
    let bytes = std::fs::read(slot).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Writes `entry` to `slot` whole (a temporary file renamed over it, so a reader never sees
/// half an entry). A cache that cannot be written is no error: the run goes on without it.
fn write(slot: &Path, entry: &Entry) {
    let Some(dir) = slot.parent() else { return };
    let Ok(json) = serde_json::to_vec(entry) else {
        return;
    };
    let written = std::fs::create_dir_all(dir).and_then(|()| {
        let mut file = tempfile::NamedTempFile::new_in(dir)?;
        std::io::Write::write_all(&mut file, &json)?;
        file.persist(slot).map_err(|e| e.error)?;
        Ok(())
    });
    if let Err(e) = written {
        log::debug!(target: crate::cli::LOG_TARGET, "verdict cache {}: {e}", slot.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use halfcheck_emu::{Choices, Mode};
    use halfcheck_piglit::shader_test::parse_str;
    use halfcheck_verdict::{ReferenceMode, Verdict};

    const TEST: &str =
        "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n\n[vertex shader passthrough]\n\n\
        [fragment shader]\n#version 300 es\nprecision mediump float;\nuniform float a;\n\
        out vec4 color;\nvoid main() { color = vec4(fract(a * 3.0 * 1024.0), a, 0.0, 1.0); }\n\n\
        [test]\nuniform float a 0.3337\ndraw rect -1 -1 2 2\nprobe rgba 1 1 0.0 0.0 0.0 1.0\n";

    /// A cache in a directory of its own, for one build of halfcheck.
    fn cache(dir: &Path, build: u64) -> VerdictCache {
        VerdictCache {
            dir: dir.to_path_buf(),
            build: Digest([build, 0]),
            lane: Digest([7, 7]),
        }
    }

    /// What a driver that lowers as Mesa does draws: the emulator's binary16 run.
    fn drawn_by_a_lowering_driver(test: &ShaderTest) -> TestResult {
        halfcheck_emu::predict(test, Mode::Mediump)
    }

    /// Marks the one stored verdict, so that a result that carries the mark came from the
    /// cache and one without it was computed.
    fn mark_the_stored_verdict(dir: &Path) {
        let files: Vec<_> = std::fs::read_dir(dir).expect("cache").flatten().collect();
        assert_eq!(files.len(), 1, "one slot per test and lane");
        let slot = files[0].path();
        let mut entry = read(&slot).expect("an entry");
        entry.result.verdict_reason = Some("from the cache".into());
        write(&slot, &entry);
    }

    fn judge(
        cache: &VerdictCache,
        test: &ShaderTest,
        drawn: &TestResult,
        reference: ReferenceMode,
        run: &mut dyn FnMut(&ShaderTest) -> TestResult,
    ) -> TestResult {
        let mut result = drawn.clone();
        let judging = Judging {
            reference,
            driver: &Choices::default(),
        };
        let bytes = TEST.as_bytes();
        cache.attach((&test.path, bytes), test, true, &mut result, judging, run);
        result
    }

    /// [`judge`] with no reference run: the `from the cache` mark, if the result has it.
    fn reason_without_reference(
        dir: &Path,
        build: u64,
        test: &ShaderTest,
        drawn: &TestResult,
    ) -> Option<String> {
        let mut no_reference = |_: &ShaderTest| -> TestResult { panic!("no reference asked") };
        let cache = cache(dir, build);
        judge(&cache, test, drawn, ReferenceMode::None, &mut no_reference).verdict_reason
    }

    #[test]
    fn a_stored_verdict_is_given_again_only_for_the_same_drawing_and_build() {
        let dir = tempfile::tempdir().expect("temp dir");
        let test = parse_str(Path::new("t.shader_test"), TEST).expect("parses");
        let drawn = drawn_by_a_lowering_driver(&test);
        let mut no_reference = |_: &ShaderTest| -> TestResult { panic!("no reference asked") };
        let cache1 = cache(dir.path(), 1);
        let first = judge(
            &cache1,
            &test,
            &drawn,
            ReferenceMode::None,
            &mut no_reference,
        );
        assert_eq!(first.verdict, Some(Verdict::Lowered), "{first:?}");
        let marked = Some("from the cache".to_string());
        mark_the_stored_verdict(dir.path());
        assert_eq!(
            reason_without_reference(dir.path(), 1, &test, &drawn),
            marked
        );
        // One bit otherwise in one probed pixel: computed anew (and stored in its place).
        let mut other = drawn.clone();
        let probe = &mut other.probes[0];
        probe.observed[0] = f32::from_bits(probe.observed[0].to_bits() ^ 1);
        probe.region_observed[0] = probe.observed[0];
        assert_ne!(
            reason_without_reference(dir.path(), 1, &test, &other),
            marked
        );
        // Another build of halfcheck: computed anew.
        mark_the_stored_verdict(dir.path());
        assert_ne!(
            reason_without_reference(dir.path(), 2, &test, &other),
            marked
        );
    }

    #[test]
    fn the_reference_runs_every_time_and_one_that_draws_otherwise_is_judged_anew() {
        let dir = tempfile::tempdir().expect("temp dir");
        let test = parse_str(Path::new("t.shader_test"), TEST).expect("parses");
        let drawn = drawn_by_a_lowering_driver(&test);
        let runs = std::cell::Cell::new(0);
        let flip = std::cell::Cell::new(false);
        let mut reference = |promoted: &ShaderTest| {
            runs.set(runs.get() + 1);
            let mut highp = halfcheck_emu::predict(promoted, Mode::Highp);
            if flip.get() {
                let probe = &mut highp.probes[0];
                probe.observed[1] = f32::from_bits(probe.observed[1].to_bits() ^ 1);
                probe.region_observed[1] = probe.observed[1];
            }
            highp
        };
        let always = ReferenceMode::Always;
        let first = judge(&cache(dir.path(), 1), &test, &drawn, always, &mut reference);
        assert_eq!(runs.get(), 1);
        assert!(first.reference.is_some(), "{first:?}");
        mark_the_stored_verdict(dir.path());
        let again = judge(&cache(dir.path(), 1), &test, &drawn, always, &mut reference);
        assert_eq!(
            runs.get(),
            2,
            "the reference runs on the driver every night"
        );
        assert_eq!(again.verdict_reason.as_deref(), Some("from the cache"));
        flip.set(true);
        let anew = judge(&cache(dir.path(), 1), &test, &drawn, always, &mut reference);
        assert_eq!(
            runs.get(),
            3,
            "the reference ran once, and its drawing was judged"
        );
        assert_ne!(anew.verdict_reason.as_deref(), Some("from the cache"));
    }
}
