//! The `halfcheck` command line: its arguments and one function per subcommand.

use crate::backend::gl::{list_devices, DeviceInfo, EglChoice, Platform};
use crate::backend::BackendKind;
use crate::console::summary::{summary, Ending, SUMMARY_LISTED};
use crate::console::{logger, progress::ProgressDisplay};
use crate::expectations::Expectations;
use crate::fingerprint::{fingerprint, profile_yaml, FingerprintOptions};
use crate::outputs::{self, CI_FILES};
use crate::report::{report, report_run, Images, ReportOptions};
use crate::results::ResultsFile;
use crate::review::Review;
use crate::runner::cache::default_dir;
use crate::runner::journal::{holds_only_a_run, load_results, RESULTS};
use crate::runner::judge::{continue_run, Continued, Given, Judge};
use crate::runner::merge::merge;
use crate::runner::{resume, run, worker_main, Hooks, RunOptions, Settings, WorkerOptions};
use crate::validate::validate;
use clap::{Parser, Subcommand};
use halfcheck_emu::{parse_mode as parse_emu_mode, resolve_profile, Mode};
use halfcheck_verdict::ReferenceMode;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The target the command line's debug lines name (`halfcheck: DEBUG|halfcheck: ...`): the
/// binary's, as when this module was its `main.rs`.
pub(crate) const LOG_TARGET: &str = "halfcheck";

/// `print!` to stdout without panicking on a closed pipe (`crate::console::print`).
macro_rules! out {
    ($($arg:tt)*) => {
        crate::console::print(&format!($($arg)*))
    };
}

/// `println!` to stdout without panicking on a closed pipe (`crate::console::print`).
macro_rules! outln {
    ($($arg:tt)*) => {
        crate::console::print(&format!("{}\n", format_args!($($arg)*)))
    };
}

/// Proves that a GPU shader compiler computes GLSL ES mediump at 16-bit precision.
#[derive(Parser, Debug)]
#[command(name = "halfcheck", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Commands,
    /// Debugging log on stderr: -v for debug messages, -vv for trace.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
}

#[derive(Subcommand, Debug)]
enum Commands {
    /// Validate .shader_test files (recursively under directories).
    Parse {
        /// Files or directories.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print counts: files parsed, files per unsupported command, errors.
        #[arg(long)]
        stats: bool,
    },
    /// Run .shader_test files on a GL driver or the emulator and write results.json.
    Run(Box<RunArgs>),
    /// Write the HTML accuracy report for one or more runs.
    Report(ReportArgs),
    /// Check that mediump tests can prove lowering: discriminating probes, nothing foldable,
    /// expected values that match a prediction.
    Lint {
        /// Files or directories.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Seconds the emulator may spend on one file; a file that takes longer is skipped.
        #[arg(long, default_value_t = crate::lint::LINT_TIME_LIMIT.as_secs_f64())]
        timeout: f64,
    },
    /// Compare two runs: regressions, fixes, changes, flakes, new and removed tests.
    Compare {
        /// The earlier run: its results.json, its journal (results.jsonl) or its directory.
        old: PathBuf,
        /// The later run, likewise.
        new: PathBuf,
    },
    /// Join the results of the shards of one run (`run --shard K/N`) into one.
    Merge {
        /// The shards' results directories (or results.json files, or journals).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Directory for the merged results.json and its CI files.
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
        /// Replace results already in the output directory.
        #[arg(long)]
        force: bool,
        /// The expectations the shards ran with: the merged run is judged by them, as `run`
        /// judges (junit.xml, failures.csv, exit 1 on anything unexpected).
        #[arg(long)]
        expectations: Option<PathBuf>,
        /// An earlier run to report regressions against, as `run --baseline`.
        #[arg(long)]
        baseline: Option<PathBuf>,
        /// Refuse to merge (exit 2, nothing written) when the expectations are stale for the
        /// merged run, as `run --strict-expectations`.
        #[arg(long, requires = "expectations")]
        strict_expectations: bool,
    },
    /// Measure a driver's profile: run a battery of probes, infer every choice the emulator
    /// makes, and write the profile (YAML) with the evidence for each.
    Fingerprint {
        /// Which backend runs the probes.
        #[arg(long, value_enum, default_value = "auto")]
        backend: BackendKind,
        #[command(flatten)]
        gl: GlArgs,
        /// Fingerprint this lane (see `halfcheck lanes`): its platform and environment.
        #[arg(long, value_name = "NAME")]
        lane: Option<String>,
        /// With `--backend emu`: the profile the emulator runs.
        #[arg(long, default_value = "llvmpipe")]
        emu_profile: String,
        /// Where to write the profile.
        #[arg(short = 'o', long)]
        output: PathBuf,
        /// The profile's name (default: the renderer's first word).
        #[arg(long)]
        name: Option<String>,
        /// Worker processes (default: one per CPU).
        #[arg(short = 'j', long)]
        jobs: Option<usize>,
        /// Seconds a probe may run before its worker is killed.
        #[arg(long, default_value_t = 60.0)]
        timeout: f64,
    },
    /// List what each EGL platform opens (device, surfaceless, gbm, ANGLE's back ends), with
    /// its renderer and version, or why it does not open.
    Devices {
        #[command(flatten)]
        gl: GlArgs,
    },
    /// List the named lanes: each GL ES stack with the platform and environment it needs.
    Lanes,
    /// Print the emulator's inventory: every built-in, qualifier, extension, piglit command
    /// and GL state, each modelled (with the cases that pin it), bounded (with the spec text)
    /// or not modelled, and the counts.
    Features,
    /// Write a run's results in another tool's format.
    Export {
        /// A run: its results.json, its journal (results.jsonl) or its directory.
        #[arg(default_value = "results")]
        results: PathBuf,
        /// Write piglit's results format (DIR/results.json) for `piglit summary`.
        #[arg(long, value_name = "DIR", required = true)]
        piglit: PathBuf,
        /// Judge the run by these expectations: what they expect is piglit's `pass`.
        #[arg(long)]
        expectations: Option<PathBuf>,
        /// Judge the run against this earlier run: a regression is piglit's `fail`.
        #[arg(long)]
        baseline: Option<PathBuf>,
    },
    /// Compile one shader with halfcheck's compiler and print its IR (`--dump-ir`).
    Compile(crate::compile_cmd::CompileArgs),
    /// Work on a driver's expectations file.
    #[command(subcommand)]
    Expectations(ExpectationsCommand),
    /// Write the skeleton of a mediump case: the corpus's header, the amplifier idiom.
    New(crate::author::new::NewArgs),
    /// Search uniform values and probed pixels that make a test discriminate.
    Suggest(crate::author::suggest::SuggestArgs),
    /// Fill a test's probe values and `# Expect` lines from a profile's predictions.
    Bless(crate::author::bless::BlessArgs),
    /// Run one test on every lane here and on piglit: one table of verdicts and margins.
    Try(crate::author::try_cmd::TryArgs),
    /// Internal: run tests sent on stdin (started by `run`).
    #[command(hide = true)]
    Worker {
        /// The backend and how to open it, as one JSON object (`runner::WorkerOptions`).
        #[arg(long)]
        options: String,
    },
}

/// `halfcheck expectations ...`.
#[derive(Subcommand, Debug)]
enum ExpectationsCommand {
    /// Write or update an expectations file (YAML) from a run: each test the run did not meet
    /// as expected gets an entry (existing reasons kept, new ones "measured on DATE,
    /// RENDERER").
    Update {
        /// The run: its results.json, its journal or its directory.
        run: PathBuf,
        /// The expectations file to update (written anew when missing); stdout without it.
        #[arg(short = 'o', long)]
        output: Option<PathBuf>,
        /// Drop entries and flakes that match no test of the run.
        #[arg(long)]
        prune: bool,
    },
}

/// `halfcheck run`'s arguments.
#[derive(clap::Args, Debug)]
struct RunArgs {
    /// Files and directories.
    #[arg(required_unless_present = "resume")]
    paths: Vec<PathBuf>,
    /// Which backend runs the tests.
    #[arg(long, value_enum, default_value = "auto")]
    backend: BackendKind,
    #[command(flatten)]
    gl: GlArgs,
    /// Run on this lane (see `halfcheck lanes`): its EGL platform and environment (a variable
    /// already set is kept).
    #[arg(long, value_name = "NAME")]
    lane: Option<String>,
    /// The emulator's arithmetic: highp (binary32), mediump (lowered ops in binary16) or
    /// exact (binary64).
    #[arg(long, default_value = "mediump", value_parser = parse_emu_mode)]
    emu_mode: Mode,
    /// The driver the emulator predicts: a built-in profile (llvmpipe, softpipe,
    /// llvmpipe-nosse, angle-swiftshader, angle-vulkan) or a profile YAML file (see `halfcheck fingerprint`). On `--backend emu` the driver it runs as; on any run the driver the verdicts' predictions follow [default: llvmpipe].
    #[arg(long, value_name = "NAME|FILE")]
    emu_profile: Option<String>,
    /// Directory for results.json (default `results`, replaced when it holds nothing but an
    /// earlier run's files; a directory given here needs --force for that).
    #[arg(long)]
    results: Option<PathBuf>,
    /// Replace the results already in the results directory.
    #[arg(long)]
    force: bool,
    /// Finish the run whose results directory this is: run only the tests its journal lacks,
    /// with the settings, environment, expectations and baseline it recorded (-j and
    /// --timeout may change; a judging flag given again must repeat its value), and rebuild
    /// results.json.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["paths", "backend", "gl_device", "gl_platform", "gl_library", "emu_mode", "results", "force", "include", "exclude", "test_list", "shard", "worker_memory", "max_fails", "framebuffers", "exact_windows", "no_verdicts", "shader_cache", "no_shader_cache", "verdict_cache", "no_verdict_cache", "strict_expectations", "driver_ir", "no_driver_ir"])]
    resume: Option<PathBuf>,
    /// Only run tests whose name matches this regex (repeatable).
    #[arg(short = 't', long = "include")]
    include: Vec<String>,
    /// Skip tests whose name matches this regex (repeatable).
    #[arg(short = 'x', long = "exclude")]
    exclude: Vec<String>,
    /// Only run the tests this file names, one per line (# comments allowed).
    #[arg(long, value_name = "FILE")]
    test_list: Option<PathBuf>,
    /// Only run share K of N (1-based): the tests whose name hashes to K.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(u32, u32)>,
    /// Worker processes (default: one per CPU).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// Seconds a test may run before its worker is killed [default: 60].
    #[arg(long)]
    timeout: Option<f64>,
    /// Each worker's memory limit in MiB (0: none); a test that passes it is a crash whose
    /// reason says so, and the run goes on.
    #[arg(long, value_name = "MIB", default_value_t = crate::runner::default_worker_memory())]
    worker_memory: u64,
    /// Run an unexpected result again up to N times; a result that changes is a flake
    /// [default: 1].
    #[arg(long, value_name = "N")]
    retries: Option<u32>,
    /// Stop after N unexpected results.
    #[arg(long, value_name = "N")]
    max_fails: Option<usize>,
    /// Expected results for this driver (YAML); anything else makes the run exit 1.
    #[arg(long)]
    expectations: Option<PathBuf>,
    /// Run even when GL_RENDERER does not match the expectations' renderer.
    #[arg(long)]
    skip_renderer_check: bool,
    /// Refuse to run (exit 2) when the expectations are stale for the run's selection: an
    /// entry, `flakes` or `skips` pattern for no test (`Expectations::stale`).
    #[arg(long, requires = "expectations")]
    strict_expectations: bool,
    /// An earlier run (results.json, journal or directory): report regressions against it and
    /// exit 1 on any.
    #[arg(long)]
    baseline: Option<PathBuf>,
    /// Keep each test's final window framebuffer as exact floats in
    /// RESULTS/framebuffers/<test name>.rgba32f (see README).
    #[arg(long)]
    framebuffers: bool,
    /// Draw every test into a window of exact floats (RGBA32F). By default only a test
    /// holding lowp or mediump that the emulator can predict does, for its verdict; the rest
    /// draw into RGBA8, as in piglit.
    #[arg(long)]
    exact_windows: bool,
    /// Keep Mesa's shader cache in DIR (default: $XDG_CACHE_HOME/halfcheck/mesa_shader_cache,
    /// else ~/.cache/halfcheck/mesa_shader_cache).
    #[arg(long, value_name = "DIR")]
    shader_cache: Option<PathBuf>,
    /// Run with Mesa's shader cache off: every shader compiled afresh.
    #[arg(long, conflicts_with = "shader_cache")]
    no_shader_cache: bool,
    /// Keep the verdicts in DIR (default: $XDG_CACHE_HOME/halfcheck/verdicts, else
    /// ~/.cache/halfcheck/verdicts): a test whose run draws the same, bit for bit, as when
    /// its verdict was stored gets it again without the emulator's predictions.
    #[arg(long, value_name = "DIR", conflicts_with = "no_verdicts")]
    verdict_cache: Option<PathBuf>,
    /// Compute every verdict afresh, and keep none.
    #[arg(long, conflicts_with = "verdict_cache")]
    no_verdict_cache: bool,
    /// Do not write the HTML report into DIR/report/.
    #[arg(long)]
    no_report: bool,
    /// On a Mesa driver, capture the NIR it is handed for each test and its reference
    /// (ST_DEBUG=nir) into RESULTS/ir/<test name>.nir, count its 16-bit operations and weigh
    /// it against the numbers (docs/driver-ir.md). On by default.
    #[arg(long)]
    driver_ir: bool,
    /// Capture no driver IR.
    #[arg(long, conflicts_with = "driver_ir")]
    no_driver_ir: bool,
    /// Run the tests as piglit does, without lowering verdicts: no emulator predictions, no
    /// highp reference runs, and RGBA8 windows unless --exact-windows or --framebuffers. The
    /// statuses are the same; expectations and baselines, which hold verdicts, need verdicts.
    #[arg(long, conflicts_with_all = ["reference", "expectations", "baseline"])]
    no_verdicts: bool,
    /// The highp reference for verdicts: each lowp/mediump test also run promoted to highp
    /// on the same device (`driver`: unless the acceptance intervals already decide it;
    /// `always`; `none`) [default: driver].
    #[arg(long, value_enum)]
    reference: Option<ReferenceMode>,
}

/// Which EGL library, platform and device the GL backend opens.
#[derive(clap::Args, Debug, Clone, Default)]
struct GlArgs {
    /// EGL device index on the `device` platform (see `halfcheck devices`).
    #[arg(long)]
    gl_device: Option<usize>,
    /// The EGL platform: device, surfaceless, gbm, angle-swiftshader, angle-vulkan,
    /// angle-gles (default: the first the library offers).
    #[arg(long, value_name = "NAME")]
    gl_platform: Option<Platform>,
    /// The libEGL to load (default: the system's libEGL.so.1; ANGLE's, found in Chromium's
    /// directory, for an ANGLE platform).
    #[arg(long, value_name = "PATH")]
    gl_library: Option<PathBuf>,
}

impl GlArgs {
    /// The choice these arguments make, with `lane`'s platform where none was given; the
    /// lane's environment is set in this process (workers inherit it).
    fn choice(&self, lane: Option<&str>) -> Result<EglChoice, String> {
        let mut platform = self.gl_platform;
        if let Some(name) = lane {
            let lane = crate::lanes::find(name)?;
            lane.apply_environment();
            platform = platform.or(lane.platform);
        }
        Ok(EglChoice {
            library: self.gl_library.clone(),
            platform,
            device: self.gl_device,
        })
    }
}

/// Where `run` writes without `--results`.
const DEFAULT_RESULTS: &str = "results";

/// Whether `run` replaces the results directory without `--force`: only the default one
/// (`results` was not given), and only when it holds nothing but an earlier run's files, so
/// the README's first command works the second time, as a piglit or deqp-runner user reruns
/// into one directory. A directory named with `--results` (a nightly's) is never replaced
/// unasked.
fn replaces_default(results: Option<&Path>) -> bool {
    let dir = Path::new(DEFAULT_RESULTS);
    let replace = results.is_none() && holds_only_a_run(dir);
    if replace {
        log::warn!(
            "replacing the earlier run in {DEFAULT_RESULTS}/ (give --results DIR to keep runs apart)"
        );
    }
    replace
}

/// `K/N` with 1 <= K <= N.
fn parse_shard(text: &str) -> Result<(u32, u32), String> {
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.trim().parse::<u32>().ok()?, n.trim().parse::<u32>().ok()?)));
    match parsed {
        Some((k, n)) if (1..=n).contains(&k) => Ok((k, n)),
        _ => Err(format!(
            "expected K/N with 1 <= K <= N, e.g. 2/3, not '{text}'"
        )),
    }
}

/// Runs the command line: parses the arguments, runs the subcommand, returns its exit status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    logger::init(cli.verbose);
    match cli.command {
        Commands::Parse { paths, stats } => parse_command(&paths, stats),
        Commands::Run(args) => run_command(*args),
        Commands::Report(args) => report_command(args),
        Commands::Compare { old, new } => compare_command(&old, &new),
        Commands::Merge {
            inputs,
            output,
            force,
            expectations,
            baseline,
            strict_expectations,
        } => merge_command(
            &inputs,
            &output,
            force,
            strict_expectations,
            expectations.as_deref(),
            baseline.as_deref(),
        ),
        Commands::Lint { paths, timeout } => lint_command(
            &paths,
            std::time::Duration::from_secs_f64(timeout.max(0.001)),
        ),
        Commands::Devices { gl } => devices_command(&gl),
        Commands::Lanes => {
            for lane in &crate::lanes::LANES {
                out!("{}", lane.describe());
            }
            ExitCode::SUCCESS
        }
        Commands::Export {
            results,
            piglit,
            expectations,
            baseline,
        } => match load_review(expectations.as_deref(), baseline.as_deref()) {
            Ok(review) => export_command(&results, &piglit, &review),
            Err(e) => {
                log::error!("{e}");
                ExitCode::from(2)
            }
        },
        Commands::Features => {
            out!("{}", crate::features::render());
            ExitCode::SUCCESS
        }
        Commands::Fingerprint {
            backend,
            gl,
            lane,
            emu_profile,
            output,
            name,
            jobs,
            timeout,
        } => {
            let emu_profile = match resolve_profile(&emu_profile) {
                Ok((spec, _)) => spec,
                Err(e) => {
                    eprintln!("halfcheck: {e}");
                    return ExitCode::from(2);
                }
            };
            let gl = match gl.choice(lane.as_deref()) {
                Ok(gl) => gl,
                Err(e) => {
                    eprintln!("halfcheck: {e}");
                    return ExitCode::from(2);
                }
            };
            let options = FingerprintOptions {
                backend,
                gl,
                emu_profile,
                jobs: jobs
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                timeout: std::time::Duration::from_secs_f64(timeout.max(0.001)),
                name,
                command_line: std::env::args().collect(),
            };
            fingerprint_command(&options, &output)
        }
        Commands::Expectations(ExpectationsCommand::Update { run, output, prune }) => {
            expectations_update_command(&run, output.as_deref(), prune)
        }
        Commands::Compile(args) => match crate::compile_cmd::run(&args) {
            Ok(out) => {
                out!("{out}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        },
        Commands::New(args) => crate::author::new::run(&args),
        Commands::Suggest(args) => crate::author::suggest::run(&args),
        Commands::Bless(args) => crate::author::bless::run(&args),
        Commands::Try(args) => crate::author::try_cmd::run(&args),
        Commands::Worker { options } => {
            let code = match serde_json::from_str::<WorkerOptions>(&options) {
                Ok(worker) => worker_main(worker.backend, &worker.options),
                Err(e) => {
                    eprintln!("halfcheck worker: unreadable --options: {e}");
                    2
                }
            };
            ExitCode::from(code as u8)
        }
    }
}

/// `halfcheck parse`.
fn parse_command(paths: &[PathBuf], stats: bool) -> ExitCode {
    let start = Instant::now();
    let report = validate(paths);
    for e in &report.walk_errors {
        eprintln!("error: {e}");
    }
    for e in &report.errors {
        eprintln!("{e}");
    }
    for (path, over) in &report.over_budget {
        log::warn!(
            "{}: {over}; `run` and `lint` skip this test",
            path.display()
        );
    }
    if stats {
        outln!(
            "{} files parsed, {} with errors, in {:.2} s",
            report.parsed,
            report.errors.len(),
            start.elapsed().as_secs_f64()
        );
        if !report.unsupported.is_empty() {
            outln!("unsupported commands (files using each):");
            let mut by_count: Vec<_> = report.unsupported.iter().collect();
            by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            for (name, n) in by_count {
                outln!("  {n:>7}  {name}");
            }
        }
    }
    if report.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Reads `--expectations` and `--baseline` before anything runs, so a typo costs no run. A
/// baseline that is a deqp-runner list (`failures.csv`, `*-fails.txt`) is what deqp-runner's
/// `--baseline` is: expectations.
fn load_review(
    expectations_path: Option<&Path>,
    baseline_path: Option<&Path>,
) -> Result<Review, String> {
    let (expectations_path, baseline_path) = match baseline_path {
        Some(list) if crate::expectations_lists::is_list(list) => match expectations_path {
            None => (Some(list), None),
            Some(e) => {
                return Err(format!(
                    "--baseline {} is a deqp-runner list, read as expectations, and \
                     --expectations {} is given too: give one",
                    list.display(),
                    e.display()
                ))
            }
        },
        _ => (expectations_path, baseline_path),
    };
    let baseline = match baseline_path {
        Some(path) => {
            let loaded = load_results(path)?;
            for warning in &loaded.warnings {
                log::warn!("{warning}");
            }
            Some(loaded.results)
        }
        None => None,
    };
    let loaded = expectations_path
        .map(Expectations::load)
        .transpose()
        .map_err(|e| e.to_string())?;
    Ok(Review::new(loaded, baseline).read_from(expectations_path, baseline_path))
}

/// `halfcheck run`: with expectations or a baseline, exit 1 on anything unexpected or any
/// regression; without, exit 1 when a test failed, crashed, timed out or errored (a flake
/// does neither). Exit 2 when the run itself could not happen; 128 + the signal when a
/// signal stopped it (its results.json is written all the same).
fn run_command(args: RunArgs) -> ExitCode {
    // A lane's environment is set before anything starts, so a resumed run given the same
    // --lane gets it too.
    let gl = match args.gl.choice(args.lane.as_deref()) {
        Ok(gl) => gl,
        Err(e) => {
            log::error!("{e}");
            return ExitCode::from(2);
        }
    };
    // A resumed run is the run continued: its settings, environment and judge as recorded.
    let continued = match args.resume.as_deref().map(|dir| resume_args(dir, &args)) {
        Some(Ok(continued)) => Some(continued),
        Some(Err(e)) => {
            log::error!("{e}");
            return ExitCode::from(2);
        }
        None => None,
    };
    let judge = continued.as_ref().map_or_else(
        || {
            Judge::new(
                args.expectations.as_deref(),
                args.baseline.as_deref(),
                args.skip_renderer_check,
            )
        },
        |c| c.judge.clone(),
    );
    let (expectations, baseline) = match &continued {
        Some(_) => (judge.expectations.clone(), judge.baseline.clone()),
        None => (args.expectations.clone(), args.baseline.clone()),
    };
    let review = match load_review(expectations.as_deref(), baseline.as_deref()) {
        Ok(review) => review,
        Err(e) => {
            log::error!("{e}");
            return ExitCode::from(2);
        }
    };
    // Unless --no-report (given now, or recorded by the run being resumed), the HTML report
    // goes into DIR/report/ with the baseline beside the run; failing to write it is a
    // warning, never a failed run.
    let report_baseline = (!args.no_report).then(|| baseline.clone());
    let results_dir = match (&args.resume, &args.results) {
        (Some(dir), _) | (None, Some(dir)) => dir.clone(),
        (None, None) => PathBuf::from(DEFAULT_RESULTS),
    };
    let progress = ProgressDisplay::new()
        .with_plan(review.against(), &results_dir.join(outputs::FAILURES_CSV));
    let hooks = Hooks {
        command_line: std::env::args().collect(),
        renderer_guard: if judge.skip_renderer_check || args.skip_renderer_check {
            None
        } else {
            review.renderer_guard()
        },
        review: &review,
        progress: &progress,
    };
    let outcome = match (&args.resume, &continued) {
        (Some(dir), Some(continued)) => {
            log::debug!(target: LOG_TARGET, "resume the run in {}", dir.display());
            resume(dir, &continued.settings, &hooks)
        }
        _ => {
            let emu_profile =
                match resolve_profile(args.emu_profile.as_deref().unwrap_or("llvmpipe")) {
                    Ok((spec, _)) => spec,
                    Err(e) => {
                        log::error!("{e}");
                        return ExitCode::from(2);
                    }
                };
            let mut exclude = args.exclude;
            exclude.extend(review.skip_patterns());
            let options = RunOptions {
                paths: args.paths,
                include: args.include,
                exclude,
                test_list: args.test_list,
                shard: args.shard,
                settings: Settings {
                    backend: args.backend,
                    gl_device: gl.device,
                    gl_library: gl.library,
                    gl_platform: gl.platform,
                    emu_mode: args.emu_mode,
                    emu_profile,
                    jobs: args.jobs.unwrap_or_else(|| {
                        std::thread::available_parallelism().map_or(1, |n| n.get())
                    }),
                    timeout_s: args.timeout.unwrap_or(60.0),
                    retries: args.retries.unwrap_or(1),
                    max_fails: args.max_fails,
                    framebuffers: args.framebuffers,
                    reference: args.reference.unwrap_or_default(),
                    exact_windows: args.exact_windows,
                    verdicts: !args.no_verdicts,
                    report: !args.no_report,
                    shader_cache: if args.no_shader_cache {
                        None
                    } else {
                        args.shader_cache
                            .map(|dir| crate::discover::absolute(&dir))
                            .or_else(default_dir)
                    },
                    verdict_cache: if args.no_verdict_cache {
                        None
                    } else {
                        args.verdict_cache
                            .map(|dir| crate::discover::absolute(&dir))
                            .or_else(crate::runner::verdict_cache_dir)
                    },
                    worker_memory_mib: args.worker_memory,
                    judge,
                    driver_ir: args.driver_ir || !args.no_driver_ir,
                },
                force: args.force || replaces_default(args.results.as_deref()),
                results_dir: args
                    .results
                    .unwrap_or_else(|| PathBuf::from(DEFAULT_RESULTS)),
            };
            if args.strict_expectations {
                let strict = crate::runner::select(&options)
                    .and_then(|(selection, _)| review.refuse_stale(Some(&selection)));
                if let Err(e) = strict {
                    log::error!("{e}");
                    return ExitCode::from(2);
                }
            }
            log::debug!(
                target: LOG_TARGET,
                "run {:?} with {:?} into {}",
                options.paths,
                options.settings,
                options.results_dir.display()
            );
            run(&options, &hooks)
        }
    };
    progress.finish();
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(e) => {
            log::error!("{e}");
            return ExitCode::from(2);
        }
    };
    let code = print_outcome(
        &outcome.results,
        &review,
        &outcome.results_path,
        outcome.signal_exit,
        &progress.shown(),
    );
    if let Some(baseline_path) = report_baseline.filter(|_| outcome.report) {
        write_report(
            &outcome.results,
            &outcome.results_path,
            &review,
            baseline_path.as_deref(),
        );
    }
    code
}

/// `run --resume DIR`'s flags checked against the run in `DIR` (`judge::continue_run`).
fn resume_args(dir: &Path, args: &RunArgs) -> Result<Continued, String> {
    let emu_profile = args
        .emu_profile
        .as_deref()
        .map(|name| resolve_profile(name).map(|(spec, _)| spec))
        .transpose()
        .map_err(|e| e.to_string())?;
    let given = Given {
        expectations: args.expectations.as_deref(),
        baseline: args.baseline.as_deref(),
        jobs: args.jobs,
        timeout_s: args.timeout,
        retries: args.retries,
        reference: args.reference,
        emu_profile,
    };
    continue_run(dir, &given)
}

/// `halfcheck merge`: exits as `run` does (1 when the merged run has anything unexpected, 2
/// when the shards cannot be merged or, `strict`, its expectations are stale).
fn merge_command(
    inputs: &[PathBuf],
    output: &Path,
    force: bool,
    strict: bool,
    expectations: Option<&Path>,
    baseline: Option<&Path>,
) -> ExitCode {
    let merged = load_review(expectations, baseline).and_then(|review| {
        let merged = merge(
            inputs,
            output,
            force,
            strict,
            std::env::args().collect(),
            &review,
        )?;
        Ok((merged, review))
    });
    match merged {
        Ok((merged, review)) => {
            for warning in &merged.warnings {
                log::warn!("{warning}");
            }
            let results_path = output.join(RESULTS);
            let code = print_outcome(
                &merged.results,
                &review,
                &results_path,
                None,
                &BTreeSet::new(),
            );
            write_report(&merged.results, &results_path, &review, baseline);
            code
        }
        Err(e) => {
            log::error!("{e}");
            ExitCode::from(2)
        }
    }
}

/// Prints the summary of a finished run (and its comparison with the baseline) and where its
/// files are; exit 1 when the review found anything that fails it or a test of its selection
/// never ran, `signal_exit` when a signal stopped it. `shown`: the tests the progress listed.
fn print_outcome(
    results: &ResultsFile,
    review: &Review,
    results_path: &Path,
    signal_exit: Option<u8>,
    shown: &BTreeSet<String>,
) -> ExitCode {
    let code = signal_exit.unwrap_or(review.exit_code(results));
    let failures_csv = results_path
        .parent()
        .unwrap_or(Path::new("."))
        .join(outputs::FAILURES_CSV);
    let notes = review
        .stale(results.run.selection.as_ref())
        .unwrap_or_else(|e| vec![format!("stale expectations not checked: {e}")]);
    let ending = Ending {
        exit: code,
        failures_csv: &failures_csv,
        shown,
        notes: &notes,
    };
    out!("{}", summary(results, review, &ending));
    if let Some(comparison) = review.comparison(results) {
        out!("{}", comparison.report_listing(SUMMARY_LISTED));
    }
    outln!(
        "results: {} (and {} beside it)",
        results_path.display(),
        CI_FILES.join(", ")
    );
    ExitCode::from(code)
}

/// Writes the HTML report of a finished run into `report/` beside its `results.json`, with
/// the baseline (read from `baseline_path`) beside it; a report that cannot be written is a
/// warning, never a failed run.
fn write_report(
    results: &ResultsFile,
    results_path: &Path,
    review: &Review,
    baseline_path: Option<&Path>,
) {
    let baseline = review.baseline().zip(baseline_path);
    let out = results_path
        .parent()
        .unwrap_or(Path::new("."))
        .join("report");
    match report_run(results, results_path, baseline, review, &out) {
        Ok(summary) => outln!("report: {}", summary.index.display()),
        Err(e) => log::warn!("no report: {e}"),
    }
}

/// `halfcheck expectations update RUN [-o FILE] [--prune]`: exit 2 when the run or the file
/// cannot be read or written.
fn expectations_update_command(run: &Path, output: Option<&Path>, prune: bool) -> ExitCode {
    let updated = load_results(run).and_then(|loaded| {
        let existing = match output.filter(|o| o.exists()) {
            Some(file) => Some(
                crate::results::read::read_regular_text(
                    file,
                    crate::results::read::MAX_SETTINGS_BYTES,
                )
                .map_err(|e| format!("{}: {e}", file.display()))?,
            ),
            None => None,
        };
        let today = crate::runner::now_rfc3339()
            .chars()
            .take(10)
            .collect::<String>();
        crate::expectations_update::update(&loaded.results, existing.as_deref(), prune, &today)
            .map_err(|e| format!("{}: {e}", output.unwrap_or(run).display()))
    });
    let written = updated.and_then(|updated| {
        match output {
            Some(file) => std::fs::write(file, &updated.yaml)
                .map_err(|e| format!("cannot write {}: {e}", file.display()))?,
            None => out!("{}", updated.yaml),
        }
        Ok(updated)
    });
    match written {
        Ok(updated) => {
            eprintln!(
                "halfcheck: {} entries added, {} changed, {} pruned{}",
                updated.added,
                updated.changed,
                updated.pruned,
                output.map_or(String::new(), |o| format!(": {}", o.display()))
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            log::error!("{e}");
            ExitCode::from(2)
        }
    }
}

/// `halfcheck export RESULTS --piglit DIR`, judged by `review`: exit 2 when the results cannot
/// be read or written.
fn export_command(results: &Path, piglit: &Path, review: &Review) -> ExitCode {
    let written = load_results(results).and_then(|loaded| {
        for warning in &loaded.warnings {
            log::warn!("{warning}");
        }
        outputs::export_piglit(&loaded.results, piglit, review)
    });
    match written {
        Ok(path) => {
            outln!("piglit results: {}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            log::error!("{e}");
            ExitCode::from(2)
        }
    }
}

/// Arguments of `halfcheck report`.
#[derive(clap::Args, Debug)]
struct ReportArgs {
    /// results.json files, results directories or journals (results.jsonl), one column each.
    #[arg(required = true)]
    results: Vec<PathBuf>,
    /// The site's directory.
    #[arg(short = 'o', long = "out", default_value = "report")]
    out: PathBuf,
    /// A run to compare every other with (shown first).
    #[arg(long)]
    baseline: Option<PathBuf>,
    /// The results are nights of one driver, oldest first: trend and first night of each
    /// regression.
    #[arg(long)]
    history: bool,
    /// Where to find the tests' files, when not at the paths their runs were given.
    #[arg(long = "tests")]
    tests: Vec<PathBuf>,
    /// Skip the emulator's framebuffer images.
    #[arg(long)]
    no_images: bool,
}

/// `halfcheck report`: exit 0 when the site was written, 2 when it could not be.
fn report_command(args: ReportArgs) -> ExitCode {
    let options = ReportOptions {
        inputs: args.results,
        out: args.out,
        baseline: args.baseline,
        history: args.history,
        tests: args.tests,
        images: if args.no_images {
            Images::None
        } else {
            Images::All
        },
    };
    let started = Instant::now();
    match report(&options) {
        Ok(summary) => {
            for w in &summary.warnings {
                log::warn!("{w}");
            }
            outln!(
                "report: {} ({} files, {:.1} MB, {} regressions, {:.1} s)",
                summary.index.display(),
                summary.written.files,
                summary.written.bytes as f64 / 1e6,
                summary.regressions,
                started.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            log::error!("{e}");
            ExitCode::from(2)
        }
    }
}

/// `halfcheck lint`: exit 0 only when nothing was found.
fn lint_command(paths: &[PathBuf], limit: std::time::Duration) -> ExitCode {
    let report = crate::lint::lint(paths, limit);
    for f in &report.findings {
        outln!("{}:{}: {}", f.test, f.line, f.message);
    }
    // A mediump test lint could not check is as worth knowing as a finding.
    for (test, reason) in &report.skipped {
        if reason == crate::lint::NOT_APPLICABLE {
            log::debug!("{test}: skipped: {reason}");
        } else {
            outln!("{test}: skipped: {reason}");
        }
    }
    outln!(
        "{} tests checked, {} skipped, {} findings",
        report.checked,
        report.skipped.len(),
        report.findings.len()
    );
    if report.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `halfcheck fingerprint`: exit 0 when the profile was written (undetermined choices
/// included), 2 when the battery could not run or the file not be written.
fn fingerprint_command(options: &FingerprintOptions, output: &std::path::Path) -> ExitCode {
    let started = Instant::now();
    let profile = match fingerprint(options) {
        Ok(profile) => profile,
        Err(e) => {
            eprintln!("halfcheck: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = std::fs::write(output, profile_yaml(&profile)) {
        eprintln!("halfcheck: cannot write {}: {e}", output.display());
        return ExitCode::from(2);
    }
    for (key, why) in &profile.undetermined {
        outln!("undetermined: {key}: {why}");
    }
    outln!(
        "profile {} ({}): {} choices measured, {} undetermined, in {:.1} s; written to {}",
        profile.name,
        profile.describes,
        profile.evidence.len(),
        profile.undetermined.len(),
        started.elapsed().as_secs_f64(),
        output.display()
    );
    ExitCode::SUCCESS
}

/// `halfcheck compare`: the new run reviewed with the old one as its baseline; exit 1 on
/// regressions (a flake is none), 2 when a run cannot be read.
fn compare_command(old: &Path, new: &Path) -> ExitCode {
    let (old, new) = match (load_results(old), load_results(new)) {
        (Ok(old), Ok(new)) => (old, new),
        (Err(e), _) | (_, Err(e)) => {
            log::error!("{e}");
            return ExitCode::from(2);
        }
    };
    for warning in old.warnings.iter().chain(&new.warnings) {
        log::warn!("{warning}");
    }
    let review = Review::new(None, Some(old.results));
    if let Some(comparison) = review.comparison(&new.results) {
        out!("{}", comparison.report());
    }
    if review.passed(&new.results) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `halfcheck devices`: what each platform opens, each in a process of its own (two Vulkan
/// back ends in one process would share the first one's driver), or the one `--gl-platform`
/// names. Exit 0 when any opened. Opening a context compiles Mesa's internal shaders; with no
/// cache directory given, the cache is turned off rather than written to the user's home.
fn devices_command(gl: &GlArgs) -> ExitCode {
    if std::env::var_os("MESA_SHADER_CACHE_DIR").is_none() {
        std::env::set_var("MESA_SHADER_CACHE_DISABLE", "true");
    }
    let opened = match gl.gl_platform {
        Some(platform) => {
            let choice = EglChoice {
                library: gl.gl_library.clone(),
                platform: Some(platform),
                device: gl.gl_device,
            };
            let devices = list_devices(&choice, platform);
            devices.iter().for_each(|d| outln!("{}", device_line(d)));
            devices.iter().any(|d| d.renderer.is_ok())
        }
        None => {
            let mut any = false;
            for platform in Platform::ALL {
                any |= devices_in_child(gl, platform);
            }
            any
        }
    };
    if opened {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}

/// Runs `halfcheck devices --gl-platform PLATFORM` in a child process and prints its lines;
/// true when it opened something.
fn devices_in_child(gl: &GlArgs, platform: Platform) -> bool {
    let mut command = match std::env::current_exe() {
        Ok(exe) => std::process::Command::new(exe),
        Err(e) => {
            outln!("{platform}: cannot run halfcheck again: {e}");
            return false;
        }
    };
    command.args(["devices", "--gl-platform", platform.name()]);
    if let Some(library) = &gl.gl_library {
        command.arg("--gl-library").arg(library);
    }
    if let Some(device) = gl.gl_device {
        command.args(["--gl-device", &device.to_string()]);
    }
    match command.stderr(std::process::Stdio::null()).output() {
        Ok(output) => {
            let text = String::from_utf8_lossy(&output.stdout);
            if text.trim().is_empty() {
                outln!(
                    "{platform}: the probe ended with {} and printed nothing",
                    output.status
                );
            } else {
                out!("{text}");
            }
            output.status.success()
        }
        Err(e) => {
            outln!("{platform}: cannot run halfcheck again: {e}");
            false
        }
    }
}

/// `device 0: llvmpipe (LLVM 15.0.6, 256 bits) (OpenGL ES 3.2 Mesa 22.3.6) [Mesa Project,
/// software, libEGL.so.1]`, or `angle-gles: no ES context: why`.
fn device_line(device: &DeviceInfo) -> String {
    let name = match device.index {
        Some(index) => format!("{} {index}", device.platform),
        None => device.platform.to_string(),
    };
    match &device.renderer {
        Ok(renderer) => {
            let node = device
                .render_node
                .as_ref()
                .map_or_else(|| "software".to_string(), |p| p.display().to_string());
            let vendor = device.vendor.as_deref().unwrap_or("unknown vendor");
            let library = device.library.as_deref().unwrap_or("?");
            format!(
                "{name}: {renderer} ({}) [{vendor}, {node}, {library}]",
                device.gl_version
            )
        }
        Err(why) => format!("{name}: not opened: {why}"),
    }
}
