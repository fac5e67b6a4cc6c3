//! The `halfcheck` command line.

use clap::{Parser, Subcommand};
use halfcheck::backend::emu::{parse_mode as parse_emu_mode, resolve_profile, Mode};
use halfcheck::backend::gl::list_devices;
use halfcheck::backend::{BackendKind, BackendOptions};
use halfcheck::console::{logger, progress::ProgressDisplay, summary::summary};
use halfcheck::fingerprint::{fingerprint, FingerprintOptions};
use halfcheck::outputs::{self, Review, CI_FILES};
use halfcheck::report::{report, report_run, Images, ReportOptions};
use halfcheck::results::{read_results, ResultsFile};
use halfcheck::runner::{run, worker_main, RunOptions};
use halfcheck::validate::validate;
use halfcheck::verdict::compare::{compare, Comparison};
use halfcheck::verdict::expectations::Expectations;
use halfcheck::verdict::ReferenceMode;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

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
    Run {
        /// Files or directories.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Which backend runs the tests.
        #[arg(long, value_enum, default_value = "auto")]
        backend: BackendKind,
        /// EGL device index for the GL backend (see `halfcheck devices`).
        #[arg(long)]
        gl_device: Option<usize>,
        /// The emulator's arithmetic: highp (binary32), mediump (lowered ops in binary16) or
        /// exact (binary64).
        #[arg(long, default_value = "mediump", value_parser = parse_emu_mode)]
        emu_mode: Mode,
        /// The driver the emulator predicts: a built-in profile (llvmpipe, softpipe) or a
        /// profile YAML file (see `halfcheck fingerprint`).
        #[arg(long, default_value = "llvmpipe")]
        emu_profile: String,
        /// Directory for results.json.
        #[arg(long, default_value = "results")]
        results: PathBuf,
        /// Only run tests whose name matches this regex (repeatable).
        #[arg(short = 't', long = "include")]
        include: Vec<String>,
        /// Skip tests whose name matches this regex (repeatable).
        #[arg(short = 'x', long = "exclude")]
        exclude: Vec<String>,
        /// Worker processes (default: one per CPU).
        #[arg(short = 'j', long)]
        jobs: Option<usize>,
        /// Seconds a test may run before its worker is killed.
        #[arg(long, default_value_t = 60.0)]
        timeout: f64,
        /// Expected results for this driver (YAML); anything else makes the run exit 1.
        #[arg(long)]
        expectations: Option<PathBuf>,
        /// Run even when GL_RENDERER does not match the expectations' renderer.
        #[arg(long)]
        skip_renderer_check: bool,
        /// An earlier results.json: report regressions against it and exit 1 on any.
        #[arg(long)]
        baseline: Option<PathBuf>,
        /// Keep each test's final window framebuffer as exact floats in
        /// RESULTS/framebuffers/<test name>.rgba32f (see README).
        #[arg(long)]
        framebuffers: bool,
        /// Do not write the HTML report into DIR/report/.
        #[arg(long)]
        no_report: bool,
        /// The highp reference for verdicts: each lowp/mediump test also run promoted to
        /// highp on the same device (`driver`: unless the acceptance intervals already decide
        /// it; `always`; `none`).
        #[arg(long, value_enum, default_value = "driver")]
        reference: ReferenceMode,
    },
    /// Write the HTML accuracy report for one or more runs.
    Report(ReportArgs),
    /// Check that mediump tests can prove lowering: discriminating probes, nothing foldable,
    /// expected values that match a prediction.
    Lint {
        /// Files or directories.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Compare two results.json files: regressions, fixes, changes, new and removed tests.
    Compare {
        /// The earlier run's results.json.
        old: PathBuf,
        /// The later run's results.json.
        new: PathBuf,
    },
    /// Measure a driver's profile: run a battery of probes, infer every choice the emulator
    /// makes, and write the profile (YAML) with the evidence for each.
    Fingerprint {
        /// Which backend runs the probes.
        #[arg(long, value_enum, default_value = "auto")]
        backend: BackendKind,
        /// EGL device index for the GL backend.
        #[arg(long)]
        gl_device: Option<usize>,
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
    /// List the EGL devices the GL backend can use.
    Devices,
    /// Write a run's results in another tool's format.
    Export {
        /// A results.json, or the results directory holding one.
        #[arg(default_value = "results")]
        results: PathBuf,
        /// Write piglit's results format (DIR/results.json) for `piglit summary`.
        #[arg(long, value_name = "DIR", required = true)]
        piglit: PathBuf,
    },
    /// Compile one shader with halfcheck's compiler and print its IR (`--dump-ir`).
    Compile(halfcheck::compile_cmd::CompileArgs),
    /// Internal: run tests sent on stdin (started by `run`).
    #[command(hide = true)]
    Worker {
        /// Which backend to open.
        #[arg(long, value_enum)]
        backend: BackendKind,
        /// EGL device index.
        #[arg(long)]
        gl_device: Option<usize>,
        /// The emulator's arithmetic.
        #[arg(long, default_value = "mediump", value_parser = parse_emu_mode)]
        emu_mode: Mode,
        /// Where to write each test's final window framebuffer.
        #[arg(long)]
        framebuffers: Option<PathBuf>,
        /// The highp reference for verdicts.
        #[arg(long, value_enum, default_value = "driver")]
        reference: ReferenceMode,
        /// The emulator's profile: a built-in name or an absolute path.
        #[arg(long, default_value = "")]
        emu_profile: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    logger::init(cli.verbose);
    match cli.command {
        Commands::Parse { paths, stats } => parse_command(&paths, stats),
        Commands::Run {
            paths,
            backend,
            gl_device,
            emu_mode,
            emu_profile,
            results,
            include,
            exclude,
            jobs,
            timeout,
            expectations,
            skip_renderer_check,
            baseline,
            framebuffers,
            no_report,
            reference,
        } => {
            let baseline_path = baseline.clone();
            let checks = match RunChecks::load(expectations, baseline) {
                Ok(checks) => checks,
                Err(e) => {
                    log::error!("{e}");
                    return ExitCode::from(2);
                }
            };
            let emu_profile = match resolve_profile(&emu_profile) {
                Ok((spec, _)) => spec,
                Err(e) => {
                    eprintln!("halfcheck: {e}");
                    return ExitCode::from(2);
                }
            };
            let mut exclude = exclude;
            exclude.extend(checks.skip_patterns());
            let options = RunOptions {
                paths,
                backend,
                backend_options: BackendOptions {
                    gl_device,
                    emu_mode,
                    framebuffers: framebuffers.then(|| results.join("framebuffers")),
                    reference,
                    emu_profile,
                },
                results_dir: results,
                include,
                exclude,
                jobs: jobs
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                timeout: Duration::from_secs_f64(timeout.max(0.001)),
                command_line: std::env::args().collect(),
                renderer_guard: if skip_renderer_check {
                    None
                } else {
                    checks.renderer_guard()
                },
            };
            let report = (!no_report).then_some(baseline_path);
            run_command(&options, &checks, report)
        }
        Commands::Report(args) => report_command(args),
        Commands::Compare { old, new } => compare_command(&old, &new),
        Commands::Lint { paths } => lint_command(&paths),
        Commands::Devices => devices_command(),
        Commands::Export { results, piglit } => export_command(&results, &piglit),
        Commands::Fingerprint {
            backend,
            gl_device,
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
            let options = FingerprintOptions {
                backend,
                backend_options: BackendOptions {
                    gl_device,
                    emu_mode: Mode::Mediump,
                    emu_profile,
                    framebuffers: None,
                    reference: ReferenceMode::None,
                },
                jobs: jobs
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                timeout: Duration::from_secs_f64(timeout.max(0.001)),
                name,
                command_line: std::env::args().collect(),
            };
            fingerprint_command(&options, &output)
        }
        Commands::Compile(args) => match halfcheck::compile_cmd::run(&args) {
            Ok(out) => {
                print!("{out}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        },
        Commands::Worker {
            backend,
            gl_device,
            emu_mode,
            framebuffers,
            reference,
            emu_profile,
        } => {
            let options = BackendOptions {
                gl_device,
                emu_mode,
                framebuffers,
                reference,
                emu_profile,
            };
            let code = worker_main(backend, &options);
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
        println!(
            "{} files parsed, {} with errors, in {:.2} s",
            report.parsed,
            report.errors.len(),
            start.elapsed().as_secs_f64()
        );
        if !report.unsupported.is_empty() {
            println!("unsupported commands (files using each):");
            let mut by_count: Vec<_> = report.unsupported.iter().collect();
            by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            for (name, n) in by_count {
                println!("  {n:>7}  {name}");
            }
        }
    }
    if report.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The expectations and baseline a run is checked against.
struct RunChecks {
    expectations: Option<Expectations>,
    baseline: Option<ResultsFile>,
}

impl RunChecks {
    /// Reads both files before anything runs, so a typo costs no run.
    fn load(expectations: Option<PathBuf>, baseline: Option<PathBuf>) -> Result<Self, String> {
        Ok(RunChecks {
            expectations: expectations
                .as_deref()
                .map(Expectations::load)
                .transpose()?,
            baseline: baseline.as_deref().map(read_results).transpose()?,
        })
    }

    /// The expectations' `skips`, as `-x` patterns.
    fn skip_patterns(&self) -> Vec<String> {
        self.expectations
            .as_ref()
            .map(|e| e.skip_patterns().to_vec())
            .unwrap_or_default()
    }

    /// The expectations' renderer regex.
    fn renderer_guard(&self) -> Option<regex::Regex> {
        self.expectations.as_ref().and_then(|e| e.renderer.clone())
    }

    /// Reviews a finished run against the expectations and the baseline (by status when
    /// there are neither); also returns the comparison with the baseline.
    fn review(&self, results: &ResultsFile) -> (Review, Option<Comparison>) {
        let comparison = self.baseline.as_ref().map(|b| compare(b, results));
        let review = Review::new(results, self.expectations.as_ref(), comparison.as_ref());
        (review, comparison)
    }
}

/// `halfcheck run`: with expectations or a baseline, exit 1 on anything unexpected or any
/// regression; without, exit 1 when a test failed, crashed, timed out or errored. Exit 2 when
/// the run itself could not happen.
///
/// `report` (unless `--no-report`) holds the baseline's path: the HTML report goes into
/// `DIR/report/`; failing to write it is a warning, never a failed run.
fn run_command(
    options: &RunOptions,
    checks: &RunChecks,
    report: Option<Option<PathBuf>>,
) -> ExitCode {
    log::debug!(
        "run {:?} on {:?} with {} workers, {:?} per test, into {}",
        options.paths,
        options.backend,
        options.jobs,
        options.timeout,
        options.results_dir.display()
    );
    let progress = ProgressDisplay::new();
    let outcome = run(options, &progress);
    progress.finish();
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(e) => {
            log::error!("{e}");
            return ExitCode::from(2);
        }
    };
    let (review, comparison) = checks.review(&outcome.results);
    print!("{}", summary(&outcome.results, &review));
    if let Some(comparison) = &comparison {
        print!("{}", comparison.report());
    }
    if let Err(e) = outputs::write_ci_files(&options.results_dir, &outcome.results, &review) {
        log::error!("{e}");
        return ExitCode::from(2);
    }
    println!(
        "results: {} (and {} beside it)",
        outcome.results_path.display(),
        CI_FILES.join(", ")
    );
    if let Some(baseline_path) = report {
        let baseline = checks.baseline.as_ref().zip(baseline_path.as_deref());
        let out = options.results_dir.join("report");
        match report_run(&outcome.results, &outcome.results_path, baseline, &out) {
            Ok(summary) => println!("report: {}", summary.index.display()),
            Err(e) => log::warn!("no report: {e}"),
        }
    }
    if review.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `halfcheck export RESULTS --piglit DIR`: exit 2 when the results cannot be read or written.
fn export_command(results: &Path, piglit: &Path) -> ExitCode {
    let file = if results.is_dir() {
        results.join("results.json")
    } else {
        results.to_path_buf()
    };
    let written = read_results(&file).and_then(|r| outputs::export_piglit(&r, piglit));
    match written {
        Ok(path) => {
            println!("piglit results: {}", path.display());
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
            println!(
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
fn lint_command(paths: &[PathBuf]) -> ExitCode {
    let report = halfcheck::lint::lint(paths);
    for f in &report.findings {
        println!("{}:{}: {}", f.test, f.line, f.message);
    }
    // A mediump test lint could not check is as worth knowing as a finding.
    for (test, reason) in &report.skipped {
        if reason == halfcheck::lint::NOT_APPLICABLE {
            log::debug!("{test}: skipped: {reason}");
        } else {
            println!("{test}: skipped: {reason}");
        }
    }
    println!(
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
    if let Err(e) = std::fs::write(output, profile.to_yaml()) {
        eprintln!("halfcheck: cannot write {}: {e}", output.display());
        return ExitCode::from(2);
    }
    for (key, why) in &profile.undetermined {
        println!("undetermined: {key}: {why}");
    }
    println!(
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

/// `halfcheck compare`: exit 1 on regressions, 2 when a file cannot be read.
fn compare_command(old: &std::path::Path, new: &std::path::Path) -> ExitCode {
    let (old, new) = match (read_results(old), read_results(new)) {
        (Ok(old), Ok(new)) => (old, new),
        (Err(e), _) | (_, Err(e)) => {
            log::error!("{e}");
            return ExitCode::from(2);
        }
    };
    let comparison = compare(&old, &new);
    print!("{}", comparison.report());
    if comparison.regressions.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `halfcheck devices`. Opening a context compiles Mesa's internal shaders; with no cache
/// directory given, the cache is turned off rather than written to the user's home.
fn devices_command() -> ExitCode {
    if std::env::var_os("MESA_SHADER_CACHE_DIR").is_none() {
        std::env::set_var("MESA_SHADER_CACHE_DISABLE", "true");
    }
    match list_devices() {
        Ok(devices) => {
            for device in &devices {
                let renderer = match &device.renderer {
                    Ok(renderer) => format!("{renderer} ({})", device.gl_version),
                    Err(why) => format!("no ES context: {why}"),
                };
                let node = device
                    .render_node
                    .as_ref()
                    .map_or_else(|| "software".to_string(), |p| p.display().to_string());
                let vendor = device.vendor.as_deref().unwrap_or("unknown vendor");
                println!("{}: {renderer} [{vendor}, {node}]", device.index);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            log::error!("{e}");
            ExitCode::from(2)
        }
    }
}
