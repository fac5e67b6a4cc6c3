//! `halfcheck parse`: validates `.shader_test` files and summarises what they use.

use crate::discover::{find_tests, TestFile};
use halfcheck_piglit::shader_test::{over_budget, parse_file, Command, OverBudget, ParseError};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What validating a set of files found.
#[derive(Debug, Default)]
pub struct ValidationReport {
    /// Files that parsed.
    pub parsed: usize,
    /// Errors, one per file that did not parse, in name order.
    pub errors: Vec<ParseError>,
    /// Paths that could not be walked.
    pub walk_errors: Vec<String>,
    /// For each unsupported command, how many files use it.
    pub unsupported: BTreeMap<String, usize>,
    /// Files that parse but ask for more than halfcheck's budget (they are skipped when run).
    pub over_budget: Vec<(PathBuf, OverBudget)>,
}

impl ValidationReport {
    /// True when every file parsed and every path could be read.
    pub fn is_clean(&self) -> bool {
        self.errors.is_empty() && self.walk_errors.is_empty()
    }
}

/// Parses every `.shader_test` under `paths`, in parallel.
pub fn validate(paths: &[PathBuf]) -> ValidationReport {
    let (files, walk_errors) = find_tests(paths);
    type Parsed = (Vec<String>, Option<OverBudget>);
    let outcomes: Vec<(&TestFile, Result<Parsed, ParseError>)> = files
        .par_iter()
        .map(|file: &TestFile| {
            let parsed = parse_file(&file.path).map(|test| {
                let mut names: Vec<String> = test
                    .commands
                    .iter()
                    .filter_map(|c| match &c.value {
                        Command::Unsupported { name } => Some(name.clone()),
                        _ => None,
                    })
                    .collect();
                names.sort();
                names.dedup();
                (names, over_budget(&test))
            });
            (file, parsed)
        })
        .collect();
    let mut report = ValidationReport {
        walk_errors,
        ..ValidationReport::default()
    };
    for (file, outcome) in outcomes {
        match outcome {
            Ok((names, over)) => {
                report.parsed += 1;
                for name in names {
                    *report.unsupported.entry(name).or_default() += 1;
                }
                if let Some(over) = over {
                    report.over_budget.push((file.path.clone(), over));
                }
            }
            Err(e) => report.errors.push(e),
        }
    }
    report
}
