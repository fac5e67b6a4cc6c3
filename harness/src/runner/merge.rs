//! `halfcheck merge DIR... -o OUT`: joins the results of the shards of one run (`--shard K/N`
//! on several machines) into one results directory, as if one machine had run them all.
//!
//! The inputs must be shards of one run: the same backend and renderer, the same selection
//! apart from the shard, every shard of the `--shard K/N` their journals record once, and no
//! test twice; a missing or duplicate shard is an error naming it (exit 2). The merged run is written as a
//! run's is, CI files included, judged by the review given (the shards' expectations). A test
//! of the selection that no shard holds (a shard killed part-way) is written as `notrun`.

use super::journal::{load_results, RESULTS};
use super::{now_rfc3339, write_results};
use crate::discover::{names_under, Selected};
use crate::results::{ResultsFile, Selection, FORMAT};
use crate::review::Review;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A merged run.
#[derive(Debug)]
pub(crate) struct Merged {
    /// What was written to `OUT/results.json`.
    pub results: ResultsFile,
    /// Damaged journal lines in the inputs, one message each.
    pub warnings: Vec<String>,
}

/// Merges the results in `inputs` (results directories, `results.json` files or journals)
/// into `out`, which must hold no results unless `force`; `review` judges the merged run for
/// its CI files and, `strict`, refuses it (nothing written) when its expectations are stale.
pub(crate) fn merge(
    inputs: &[PathBuf],
    out: &Path,
    force: bool,
    strict: bool,
    command_line: Vec<String>,
    review: &Review,
) -> Result<Merged, String> {
    let mut warnings = Vec::new();
    let mut runs = Vec::new();
    for input in inputs {
        let loaded = load_results(input)?;
        warnings.extend(loaded.warnings);
        runs.push((input, loaded.results));
    }
    let Some(((first_path, first), rest)) = runs.split_first() else {
        return Err("nothing to merge".to_string());
    };
    // Shards first: a missing or repeated shard says more than the tests it repeats.
    let selection = merged_selection(&runs)?;
    let mut run = first.run.clone();
    let mut tests = first.tests.clone();
    let mut incomplete: Vec<String> = first
        .run
        .incomplete
        .iter()
        .map(|why| format!("{}: {why}", first_path.display()))
        .collect();
    for (path, other) in rest {
        if (&other.run.backend, &other.run.renderer) != (&run.backend, &run.renderer) {
            return Err(format!(
                "{} ran {} on '{}' but {} ran {} on '{}': not shards of one run",
                first_path.display(),
                run.backend,
                run.renderer,
                path.display(),
                other.run.backend,
                other.run.renderer
            ));
        }
        for (name, result) in &other.tests {
            if tests.insert(name.clone(), result.clone()).is_some() {
                return Err(format!(
                    "{name} is in {} and in an earlier input: not shards of one run",
                    path.display()
                ));
            }
        }
        run.started = run.started.min(other.run.started.clone());
        run.finished = run.finished.max(other.run.finished.clone());
        // The shards ran side by side: the merged run worked as long as the longest.
        run.work_s = match (run.work_s, other.run.work_s) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        if let Some(why) = &other.run.incomplete {
            incomplete.push(format!("{}: {why}", path.display()));
        }
    }
    // Nothing vanishes: a test of the selection no shard holds (its shard was killed) is
    // written as `notrun`, saying which shards did not finish.
    let why = if incomplete.is_empty() {
        "no shard holds it".to_string()
    } else {
        format!("no shard holds it ({})", incomplete.join("; "))
    };
    match selection.as_ref().map(selected_names).transpose() {
        Ok(Some(names)) => {
            let not_run = super::fill_not_run(&mut tests, names, &why);
            if not_run > 0 && incomplete.is_empty() {
                incomplete.push(format!("{not_run} tests not run"));
            }
        }
        Ok(None) => {}
        Err(e) => warnings.push(format!(
            "cannot list the run's tests to find those no shard ran: {e}"
        )),
    }
    if strict {
        review.refuse_stale(selection.as_ref())?;
    }
    run.selection = selection;
    run.incomplete = (!incomplete.is_empty()).then(|| incomplete.join("; "));
    run.command_line = command_line;
    if run.finished.is_empty() {
        run.finished = now_rfc3339();
    }
    let results = ResultsFile {
        format: FORMAT.to_string(),
        run,
        tests,
    };
    if out.join(RESULTS).exists() && !force {
        return Err(format!(
            "{} holds results already: pass --force to replace them",
            out.display()
        ));
    }
    std::fs::create_dir_all(out)
        .map_err(|e| format!("cannot create results directory {}: {e}", out.display()))?;
    write_results(out, &results, review)?;
    Ok(Merged { results, warnings })
}

/// The names of the tests `selection` selects, found again at its paths.
fn selected_names(selection: &Selection) -> Result<Vec<String>, String> {
    let selected = Selected::new(selection)?;
    let mut names = names_under(&selection.paths)?;
    names.retain(|name| selected.selects(name));
    Ok(names)
}

/// The selection of the merged run: the inputs' common selection, without a shard, since
/// every shard must be there. Each shard's journal records `--shard K/N`, so a missing shard
/// (a job that died before uploading) or one given twice is an error that names it, not a
/// merged run that is green on part of the tests.
fn merged_selection(runs: &[(&PathBuf, ResultsFile)]) -> Result<Option<Selection>, String> {
    let without_shard = |s: &Option<Selection>| s.clone().map(|s| Selection { shard: None, ..s });
    let (first_path, first) = &runs[0];
    let common = without_shard(&first.run.selection);
    let mut count = None;
    let mut given: BTreeMap<u32, &Path> = BTreeMap::new();
    for (path, results) in runs {
        if without_shard(&results.run.selection) != common {
            return Err(format!(
                "{} and {} selected their tests differently (paths, -t/-x, test list): not \
                 shards of one run",
                first_path.display(),
                path.display()
            ));
        }
        let Some(shard) = results
            .run
            .selection
            .as_ref()
            .and_then(|s| s.shard.as_ref())
        else {
            if runs.len() > 1 {
                return Err(format!(
                    "{} is not a shard (no --shard): nothing to merge it with",
                    path.display()
                ));
            }
            continue;
        };
        if count.is_some_and(|n| n != shard.count) {
            return Err(format!(
                "{} is a shard of {}, the others of {}",
                path.display(),
                shard.count,
                count.unwrap_or_default()
            ));
        }
        count = Some(shard.count);
        for index in &shard.indices {
            if let Some(earlier) = given.insert(*index, path) {
                return Err(format!(
                    "shard {index}/{} is given twice: {} and {}",
                    shard.count,
                    earlier.display(),
                    path.display()
                ));
            }
        }
    }
    if let Some(count) = count {
        let missing: Vec<String> = (1..=count)
            .filter(|i| !given.contains_key(i))
            .map(|i| format!("{i}/{count}"))
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "shard {} missing: the inputs hold {} of {count} shards (every shard of the run \
                 must be merged)",
                missing.join(", "),
                given.len()
            ));
        }
    }
    Ok(common)
}
