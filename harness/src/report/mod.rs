//! `halfcheck report`: turns results into the HTML accuracy report (crate
//! `halfcheck-reports`), and the report `run` writes into `DIR/report/` after each run.
//!
//! This module gathers what the renderer draws: the runs (`load`, then `adapt`, the one
//! adapter from the results contract to the renderer's model), the comparisons between
//! them (`verdict::compare`, the same regressions `halfcheck compare` prints), each test's
//! file, annotated source and emulator images (`detail`), and the command that reruns each
//! test (`rerun`). What needs the emulator is computed here and handed over as data.

mod adapt;
mod detail;
mod load;
mod rerun;

pub(crate) use load::{load, Loaded};

use crate::compare::compare;
use crate::results::{ResultsFile, Status, Verdict};
use crate::review::Review;
use halfcheck_reports::model::{FirstSeen, History, Judged, Site};
use halfcheck_reports::{render, Written};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What `halfcheck report` was asked to do.
#[derive(Debug, Clone, Default)]
pub(crate) struct ReportOptions {
    /// Results files, results directories or journals, in column order.
    pub inputs: Vec<PathBuf>,
    /// The site's directory.
    pub out: PathBuf,
    /// A run every other run is compared with (shown as the first column).
    pub baseline: Option<PathBuf>,
    /// The inputs are nights of one driver, oldest first: show the trend and when each
    /// regression appeared.
    pub history: bool,
    /// More directories to look for the tests' files in.
    pub tests: Vec<PathBuf>,
    /// Which tests get the emulator's whole-framebuffer images.
    pub images: Images,
}

/// Which tests' pages show the emulator's images (two whole-framebuffer renders per test:
/// most of a report's time).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Images {
    /// Every test's.
    #[default]
    All,
    /// Only the first `at_most` tests (by name) that need a look in some run: not passed,
    /// or a verdict other than `lowered` and `n/a` (what `run`'s own report shows, to stay
    /// cheap however badly the run went).
    NeedingALook {
        /// How many tests at most.
        at_most: usize,
    },
    /// None.
    None,
}

/// How many tests get the emulator's images in the report `run` writes.
const RUN_REPORT_IMAGES: usize = 20;

/// What a report run produced.
#[derive(Debug, Clone)]
pub(crate) struct ReportSummary {
    /// The front page.
    pub index: PathBuf,
    /// Files and bytes written.
    pub written: Written,
    /// Regressions listed on the front page.
    pub regressions: usize,
    /// Inputs read only in part.
    pub warnings: Vec<String>,
}

/// `halfcheck report`.
pub(crate) fn report(options: &ReportOptions) -> Result<ReportSummary, String> {
    if options.inputs.is_empty() {
        return Err("no results to report on".into());
    }
    let baseline = options.baseline.as_deref().map(load).transpose()?;
    let runs = options
        .inputs
        .iter()
        .map(|p| load(p))
        .collect::<Result<Vec<_>, _>>()?;
    write(baseline, runs, options, None)
}

/// The report `run` writes for its own results (and the baseline it was given), into `out`,
/// opening with what `review` found.
pub(crate) fn report_run(
    results: &ResultsFile,
    results_path: &Path,
    baseline: Option<(&ResultsFile, &Path)>,
    review: &Review,
    out: &Path,
) -> Result<ReportSummary, String> {
    let loaded = |results: &ResultsFile, path: &Path| {
        // A baseline given as its directory is labelled by that directory, as a run is.
        let path = if path.is_dir() {
            path.join(crate::runner::journal::RESULTS)
        } else {
            path.to_path_buf()
        };
        Loaded {
            label: load::label_of(&path, &results.run.renderer),
            path,
            results: results.clone(),
            warnings: Vec::new(),
        }
    };
    let options = ReportOptions {
        out: out.to_path_buf(),
        images: Images::NeedingALook {
            at_most: RUN_REPORT_IMAGES,
        },
        ..ReportOptions::default()
    };
    write(
        baseline.map(|(r, p)| loaded(r, p)),
        vec![loaded(results, results_path)],
        &options,
        Some(adapt::judged(results, review)),
    )
}

/// Writes the site of `runs` (after the `baseline`); `judged`, the last run's review.
fn write(
    baseline: Option<Loaded>,
    runs: Vec<Loaded>,
    options: &ReportOptions,
    judged: Option<Judged>,
) -> Result<ReportSummary, String> {
    let has_baseline = baseline.is_some();
    let loaded: Vec<Loaded> = baseline.into_iter().chain(runs).collect();
    let warnings = loaded.iter().flat_map(|l| l.warnings.clone()).collect();
    let mut site = site(&loaded, has_baseline, options);
    if let Some(last) = site.runs.last_mut() {
        last.judged = judged;
    }
    let written = render(&site, &options.out).map_err(|e| e.to_string())?;
    Ok(ReportSummary {
        index: options.out.join("index.html"),
        written,
        regressions: site.comparisons.iter().map(|c| c.regressions.len()).sum(),
        warnings,
    })
}

/// The renderer's model of `runs` (the first is the baseline when `has_baseline`).
fn site(runs: &[Loaded], has_baseline: bool, options: &ReportOptions) -> Site {
    let labels = unique_labels(runs);
    let model_runs = runs
        .iter()
        .zip(&labels)
        .map(|(l, label)| adapt::run(l, label, &|name| rerun::command(&l.results.run, name)))
        .collect();
    let comparisons = match runs {
        [first, .., last] if options.history => {
            vec![(0, runs.len() - 1, compare(&first.results, &last.results))]
        }
        [first, rest @ ..] if has_baseline || !rest.is_empty() => rest
            .iter()
            .enumerate()
            .map(|(i, run)| (0, i + 1, compare(&first.results, &run.results)))
            .collect(),
        _ => Vec::new(),
    };
    let history = options.history.then(|| History {
        regressions: comparisons
            .first()
            .map(|(_, _, c)| {
                c.regressions
                    .iter()
                    .map(|r| FirstSeen {
                        change: adapt::change(r),
                        night: first_night(runs, &r.name),
                    })
                    .collect()
            })
            .unwrap_or_default(),
    });
    Site {
        comparisons: comparisons
            .iter()
            .map(|(old, new, c)| adapt::comparison(&labels[*old], &labels[*new], c))
            .collect(),
        details: details(runs, options),
        runs: model_runs,
        history,
    }
}

/// The first night from which test `name` has the last night's status and verdict.
fn first_night(runs: &[Loaded], name: &str) -> usize {
    let state = |l: &Loaded| l.results.tests.get(name).map(|t| (t.status, t.verdict));
    let Some(last) = runs.last().map(state) else {
        return 0;
    };
    let mut night = runs.len().saturating_sub(1);
    while night > 0 && state(&runs[night - 1]) == last {
        night -= 1;
    }
    night
}

/// Each run's label, made unique (`name`, `name (2)`, ...).
fn unique_labels(runs: &[Loaded]) -> Vec<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    runs.iter()
        .map(|l| {
            let n = seen.entry(l.label.clone()).or_insert(0);
            *n += 1;
            if *n == 1 {
                l.label.clone()
            } else {
                format!("{} ({n})", l.label)
            }
        })
        .collect()
}

/// Every test's detail, found from the runs' command lines, in parallel.
fn details(
    runs: &[Loaded],
    options: &ReportOptions,
) -> BTreeMap<String, halfcheck_reports::model::TestDetail> {
    let mut roots = Vec::new();
    for run in runs {
        for root in detail::roots(&run.results.run.command_line, &options.tests) {
            if !roots.contains(&root) {
                roots.push(root);
            }
        }
    }
    let names: BTreeSet<&String> = runs.iter().flat_map(|r| r.results.tests.keys()).collect();
    let with_images: BTreeSet<&String> = match options.images {
        Images::All => names.clone(),
        Images::None => BTreeSet::new(),
        Images::NeedingALook { at_most } => names
            .iter()
            .copied()
            .filter(|name| {
                runs.iter()
                    .any(|run| run.results.tests.get(*name).is_some_and(needs_a_look))
            })
            .take(at_most)
            .collect(),
    };
    let mut details: BTreeMap<String, _> = names
        .par_iter()
        .map(|name| {
            let mut detail = detail::detail(detail::find(name, &roots));
            if let (false, Images::NeedingALook { at_most }) =
                (with_images.contains(*name), options.images)
            {
                detail.notes.push(format!(
                    "To stay quick, this report draws the emulator's framebuffer images only for \
                     the first {at_most} tests that need a look; halfcheck report draws them for \
                     every test."
                ));
            }
            ((*name).clone(), detail)
        })
        .collect();
    // One test at a time, each under its time limit, from this thread: the emulator shades
    // on rayon's pool, which a pool thread waiting on the limit would hold up.
    for name in with_images {
        let Some(detail) = details.get_mut(name) else {
            continue;
        };
        // A test that timed out or crashed in a run would only do it again here.
        let hung = runs.iter().any(|run| {
            run.results
                .tests
                .get(name)
                .is_some_and(|t| matches!(t.status, Status::Timeout | Status::Crash))
        });
        if hung {
            detail.notes.push(
                "No emulator images: the test timed out or crashed in a run, and the emulator \
                 would only do it again."
                    .into(),
            );
        } else {
            detail::add_images(detail);
        }
    }
    details
}

/// Whether a result needs a look: not passed, or a verdict other than `lowered` and `n/a`.
fn needs_a_look(result: &crate::results::TestResult) -> bool {
    !matches!(result.status, Status::Pass | Status::Skip)
        || !matches!(
            result.verdict,
            None | Some(Verdict::Lowered | Verdict::NotApplicable)
        )
}
