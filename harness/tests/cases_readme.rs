//! `cases/README.md`'s counts are the files' own: the table between its `counts` markers is
//! generated from the cases (their folders and `# Expect:` lines), and every "`folder/` (N)"
//! the prose mentions is checked. `HALFCHECK_WRITE_COUNTS=1` rewrites the table instead of
//! failing, after a case is added or moved.

mod common;

use common::*;
use std::collections::BTreeMap;

const BEGIN: &str = "<!-- counts: generated from the cases by harness/tests/cases_readme.rs -->\n";
const END: &str = "<!-- end of counts -->\n";
/// The verdicts the table has a column for, in its order.
const VERDICTS: [&str; 5] = [
    "lowered",
    "partial",
    "not-lowered",
    "undetermined",
    "unjudged",
];

/// Per folder under `cases/` (`builtins/trig`), the count of cases per expected verdict.
fn counts() -> BTreeMap<String, BTreeMap<String, usize>> {
    let root = cases();
    let mut counts: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for path in shader_tests(&root) {
        let text = std::fs::read_to_string(&path).expect("case");
        let verdict = text
            .lines()
            .find_map(|l| l.strip_prefix("# Expect: "))
            .unwrap_or("none")
            .trim()
            .to_string();
        let folder = path
            .parent()
            .and_then(|p| p.strip_prefix(&root).ok())
            .expect("under cases/")
            .to_string_lossy()
            .replace('\\', "/");
        *counts
            .entry(folder)
            .or_default()
            .entry(verdict)
            .or_default() += 1;
    }
    counts
}

/// The generated table.
fn table(counts: &BTreeMap<String, BTreeMap<String, usize>>) -> String {
    let mut text = format!(
        "| folder | cases | {} |\n|---|---|{}\n",
        VERDICTS.join(" | "),
        "---|".repeat(VERDICTS.len())
    );
    let mut totals = [0usize; 6];
    for (folder, by_verdict) in counts {
        let n: usize = by_verdict.values().sum();
        totals[0] += n;
        let cells: Vec<String> = VERDICTS
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let k = by_verdict.get(*v).copied().unwrap_or(0);
                totals[i + 1] += k;
                k.to_string()
            })
            .collect();
        text.push_str(&format!("| {folder} | {n} | {} |\n", cells.join(" | ")));
    }
    let cells: Vec<String> = totals[1..].iter().map(|k| format!("**{k}**")).collect();
    text.push_str(&format!(
        "| **total** | **{}** | {} |\n",
        totals[0],
        cells.join(" | ")
    ));
    text
}

#[test]
fn the_readme_counts_are_the_cases_own() {
    let path = cases().join("README.md");
    let readme = std::fs::read_to_string(&path).expect("cases/README.md");
    let counts = counts();
    let table = table(&counts);
    let start = readme
        .find(BEGIN)
        .expect("cases/README.md has the counts markers")
        + BEGIN.len();
    let end = readme[start..].find(END).expect("the end marker") + start;
    if std::env::var("HALFCHECK_WRITE_COUNTS").as_deref() == Ok("1") {
        let written = format!("{}{table}{}", &readme[..start], &readme[end..]);
        std::fs::write(&path, written).expect("write cases/README.md");
        return;
    }
    assert_eq!(
        readme[start..end],
        table,
        "cases/README.md's counts are stale: HALFCHECK_WRITE_COUNTS=1 cargo test -p halfcheck --test cases_readme"
    );
    // Every "`folder/` (N)" of the prose.
    for (at, _) in readme.match_indices("/` (") {
        let open = readme[..at].rfind('`').expect("opening backtick");
        let folder = &readme[open + 1..at];
        let rest = &readme[at + 4..];
        let Some(n) = rest.split(')').next().and_then(|n| n.parse::<usize>().ok()) else {
            continue;
        };
        let actual: usize = counts.get(folder).map_or(0, |v| v.values().sum());
        assert_eq!(n, actual, "cases/README.md says `{folder}/` ({n})");
    }
    for (folder, by_verdict) in &counts {
        assert!(
            !by_verdict.contains_key("none"),
            "a case in {folder} has no `# Expect:` line"
        );
    }
}
