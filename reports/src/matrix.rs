//! The lowering coverage matrix: one row per operation or built-in that some test computes at
//! lowp or mediump (from the compiler's IR of each test), one column per run. A cell sums up
//! the verdicts of the tests behind it on that run and links to their list.

use crate::front::VERDICT_ORDER;
use crate::html::{self, esc, Nav};
use crate::model::Site;
use crate::Links;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// What a cell says about its tests' verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// No test of this run exercises the operation.
    Empty,
    /// Every judged test lowered.
    Lowered,
    /// Some tests lowered and some not, or a test partly.
    Partial,
    /// No judged test lowered.
    NotLowered,
    /// Some test was too inaccurate even for mediump.
    OutOfBounds,
    /// No test could tell.
    Undetermined,
}

impl Cell {
    /// The verdict name the cell is coloured as.
    pub fn verdict(self) -> Option<&'static str> {
        match self {
            Cell::Empty => None,
            Cell::Lowered => Some("lowered"),
            Cell::Partial => Some("partial"),
            Cell::NotLowered => Some("not-lowered"),
            Cell::OutOfBounds => Some("out-of-bounds"),
            Cell::Undetermined => Some("undetermined"),
        }
    }

    /// Sums up the verdicts of a cell's tests (`None`: unjudged).
    pub fn of<'a>(verdicts: impl IntoIterator<Item = Option<&'a str>>) -> Cell {
        let (mut any, mut lowered, mut partial, mut not, mut oob) = (false, 0, 0, 0, 0);
        for v in verdicts {
            any = true;
            match v {
                Some("lowered") => lowered += 1,
                Some("partial") => partial += 1,
                Some("not-lowered") => not += 1,
                Some("out-of-bounds") => oob += 1,
                _ => {}
            }
        }
        match () {
            _ if !any => Cell::Empty,
            _ if oob > 0 => Cell::OutOfBounds,
            _ if partial > 0 || (lowered > 0 && not > 0) => Cell::Partial,
            _ if lowered > 0 => Cell::Lowered,
            _ if not > 0 => Cell::NotLowered,
            _ => Cell::Undetermined,
        }
    }
}

/// Per operation, per run (by index), the tests that exercise it and ran there.
pub fn rows(site: &Site) -> BTreeMap<String, Vec<Vec<String>>> {
    let mut rows: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    for (name, detail) in &site.details {
        for op in &detail.operations {
            let row = rows
                .entry(op.clone())
                .or_insert_with(|| vec![Vec::new(); site.runs.len()]);
            for (i, run) in site.runs.iter().enumerate() {
                if run.tests.contains_key(name) {
                    row[i].push(name.clone());
                }
            }
        }
    }
    rows
}

/// Per run (by index), the tests that regressed against the baseline in the site's
/// comparisons.
fn regressed(site: &Site) -> Vec<BTreeSet<&str>> {
    site.runs
        .iter()
        .map(|run| {
            site.comparisons
                .iter()
                .filter(|c| c.new == run.label)
                .flat_map(|c| c.regressions.iter().map(|r| r.name.as_str()))
                .collect()
        })
        .collect()
}

/// Per run, how many judged tests the numbers and the driver's IR agree on (`run
/// --driver-ir`); nothing when no run kept the IR.
fn ir_agreement(site: &Site) -> String {
    const KINDS: [&str; 4] = ["agree", "IR silent", "disagree", "decided by the IR"];
    let counts: Vec<[usize; 4]> = site
        .runs
        .iter()
        .map(|run| {
            let mut n = [0; 4];
            for test in run.tests.values() {
                let kind = test
                    .driver_ir
                    .as_ref()
                    .and_then(|ir| ir.agreement.as_deref());
                if let Some(i) = KINDS.iter().position(|k| Some(*k) == kind) {
                    n[i] += 1;
                }
            }
            n
        })
        .collect();
    if counts.iter().all(|n| n.iter().sum::<usize>() == 0) {
        return String::new();
    }
    let mut out = String::from(
        "<h2>The numbers and the driver's IR</h2>\n<p class=\"note\">Per run, the tests the \
         numbers decided, by what the driver's own IR (the NIR Mesa hands it) says of their \
         deciding channels, and the undetermined tests the IR decided alone \
         (docs/driver-ir.md).</p>\n<table><thead><tr><th>run</th><th class=\"num\">agree</th>\
         <th class=\"num\">judged</th><th class=\"num\">IR silent</th>\
         <th class=\"num\">disagree</th><th class=\"num\">decided by the IR</th></tr></thead><tbody>\n",
    );
    for (run, [agree, silent, disagree, decided]) in site.runs.iter().zip(&counts) {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"num\">{agree}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{silent}</td><td class=\"num\">{disagree}</td>\
             <td class=\"num\">{decided}</td></tr>",
            esc(&run.label),
            agree + silent + disagree
        );
    }
    out.push_str("</tbody></table>\n");
    out
}

/// `matrix.html`.
pub fn page(site: &Site, links: &Links) -> String {
    let rows = rows(site);
    let regressed = regressed(site);
    let mut body = String::from(
        "<p class=\"note\">Rows: the operations and built-ins that tests compute at lowp or \
         mediump, read from halfcheck's compiler (Mesa's precision rules). Columns: runs. A cell \
         sums up the verdicts of the tests behind it on that run: the share of them that \
         lowered (bar and per cent, lowered / all), and links to them; a cell with a test that \
         regressed against the baseline is outlined and says how many. A test counts for every \
         operation it computes at reduced precision.</p>\n\
         <div class=\"legend\">",
    );
    for v in [
        "lowered",
        "partial",
        "not-lowered",
        "out-of-bounds",
        "undetermined",
    ] {
        body.push_str(&html::verdict_badge(Some(v)));
    }
    body.push_str("</div>\n");
    body.push_str(&ir_agreement(site));
    if rows.is_empty() {
        body.push_str(
            "<p>No test computes anything at lowp or mediump, or no test's source was found.</p>\n",
        );
    }
    body.push_str(
        "<input class=\"filter\" hidden data-table=\"matrix\" placeholder=\"filter operations\">\n\
         <table class=\"matrix sortable\" id=\"matrix\"><thead><tr><th>operation</th>",
    );
    for run in &site.runs {
        let _ = write!(
            body,
            "<th>{}<br><span class=\"muted\">{}</span></th>",
            esc(&run.label),
            esc(&run.renderer)
        );
    }
    body.push_str("</tr></thead><tbody>\n");
    for (r, (op, per_run)) in rows.iter().enumerate() {
        let _ = write!(body, "<tr><td><code>{}</code></td>", esc(op));
        for (i, tests) in per_run.iter().enumerate() {
            let verdicts: Vec<Option<&str>> = tests
                .iter()
                .map(|t| site.runs[i].tests.get(t).and_then(|x| x.verdict.as_deref()))
                .collect();
            let cell = Cell::of(verdicts.iter().copied());
            let Some(verdict) = cell.verdict() else {
                body.push_str("<td class=\"cell empty\">—</td>");
                continue;
            };
            let lowered = verdicts.iter().filter(|v| **v == Some("lowered")).count();
            let share = 100 * lowered / tests.len().max(1);
            let shown = match share {
                0 if lowered > 0 => "<1".to_string(),
                100 if lowered < tests.len() => ">99".to_string(),
                _ => share.to_string(),
            };
            let dropped = tests
                .iter()
                .filter(|t| regressed[i].contains(t.as_str()))
                .count();
            let (flag, note) = if dropped > 0 {
                (
                    " regressed",
                    format!("<span class=\"drop\">▼ {dropped} regressed</span>"),
                )
            } else {
                ("", String::new())
            };
            let _ = write!(
                body,
                "<td class=\"cell {}{flag}\" data-sort=\"{share:03}\" title=\"{}: {lowered} of {} tests \
                 lowered{}\"><a href=\"#cell-{r}-{i}\"><span class=\"pct\">{} {shown}%</span>\
                 <span class=\"share\"><span style=\"width: {share}%\"></span></span>\
                 <span class=\"of\">{lowered}/{} lowered</span>{note}</a></td>",
                html::verdict_class(Some(verdict)),
                esc(verdict),
                tests.len(),
                if dropped > 0 {
                    format!(", {dropped} regressed against the baseline")
                } else {
                    String::new()
                },
                html::verdict_glyph(verdict),
                tests.len()
            );
        }
        body.push_str("</tr>\n");
    }
    body.push_str("</tbody></table>\n<h2>Tests behind each cell</h2>\n");
    for (r, (op, per_run)) in rows.iter().enumerate() {
        for (i, tests) in per_run.iter().enumerate() {
            if tests.is_empty() {
                continue;
            }
            let _ = write!(
                body,
                "<h3 id=\"cell-{r}-{i}\"><code>{}</code> on {}</h3><ul>",
                esc(op),
                esc(&site.runs[i].label)
            );
            let mut by_verdict: Vec<(usize, &String, Option<&str>)> = tests
                .iter()
                .map(|t| {
                    let v = site.runs[i].tests.get(t).and_then(|x| x.verdict.as_deref());
                    let rank = v
                        .and_then(|v| VERDICT_ORDER.iter().position(|k| *k == v))
                        .unwrap_or(VERDICT_ORDER.len());
                    (rank, t, v)
                })
                .collect();
            by_verdict.sort();
            for (_, t, v) in by_verdict {
                let _ = write!(
                    body,
                    "<li>{} {}</li>",
                    html::verdict_badge(v),
                    links.test_anchor(t, "")
                );
            }
            body.push_str("</ul>\n");
        }
    }
    html::page(
        "Lowering matrix",
        "Lowering coverage matrix",
        Nav::Matrix,
        "",
        site.history.is_some(),
        &body,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Change, Comparison, Run, TestDetail, TestRun};

    /// issue 25, item 5: "◐ 93/94" and "◐ 6/94" looked alike. A cell now shows its share in
    /// per cent with a bar, and one holding a test that regressed against the baseline is
    /// marked and says how many.
    #[test]
    fn a_cell_shows_its_share_and_a_regressed_cell_stands_out() {
        let run = |label: &str, lowered: usize| Run {
            label: label.into(),
            tests: (0..4)
                .map(|i| {
                    let verdict = if i < lowered {
                        "lowered"
                    } else {
                        "not-lowered"
                    };
                    (
                        format!("t{i}"),
                        TestRun {
                            verdict: Some(verdict.into()),
                            ..TestRun::default()
                        },
                    )
                })
                .collect(),
            ..Run::default()
        };
        let detail = TestDetail {
            operations: vec!["*".into()],
            ..TestDetail::default()
        };
        let site = Site {
            runs: vec![run("llvmpipe", 4), run("nosse", 1)],
            comparisons: vec![Comparison {
                old: "llvmpipe".into(),
                new: "nosse".into(),
                regressions: (1..4)
                    .map(|i| Change {
                        name: format!("t{i}"),
                        ..Change::default()
                    })
                    .collect(),
                ..Comparison::default()
            }],
            details: (0..4).map(|i| (format!("t{i}"), detail.clone())).collect(),
            history: None,
        };
        let page = page(&site, &Links::new(&site));
        assert!(page.contains("● 100%</span>"), "{page}");
        assert!(page.contains("◐ 25%</span>"), "{page}");
        assert!(page.contains("<span style=\"width: 25%\">"), "{page}");
        assert_eq!(page.matches(" regressed\" data-sort").count(), 1, "{page}");
        assert!(page.contains("▼ 3 regressed"), "{page}");
    }

    #[test]
    fn a_cell_is_partial_when_its_tests_disagree_and_out_of_bounds_wins() {
        assert_eq!(Cell::of([Some("lowered"), Some("lowered")]), Cell::Lowered);
        assert_eq!(
            Cell::of([Some("lowered"), Some("not-lowered")]),
            Cell::Partial
        );
        assert_eq!(
            Cell::of([Some("not-lowered"), Some("undetermined")]),
            Cell::NotLowered
        );
        assert_eq!(
            Cell::of([Some("lowered"), Some("out-of-bounds")]),
            Cell::OutOfBounds
        );
        assert_eq!(Cell::of([None, Some("undetermined")]), Cell::Undetermined);
        assert_eq!(Cell::of([]), Cell::Empty);
    }

    /// Issue 36: the matrix page counts, per run, the tests where the numbers and the
    /// driver's IR agree, and says nothing of the IR for a run that kept none.
    #[test]
    fn the_numbers_and_the_ir_are_counted_per_run() {
        let with_ir = |agreement: &str| TestRun {
            verdict: Some("lowered".into()),
            driver_ir: Some(crate::model::DriverIrView {
                agreement: Some(agreement.into()),
                ..Default::default()
            }),
            ..TestRun::default()
        };
        let run = Run {
            label: "llvmpipe".into(),
            tests: [("a", "agree"), ("b", "agree"), ("c", "IR silent")]
                .into_iter()
                .map(|(name, agreement)| (name.to_string(), with_ir(agreement)))
                .collect(),
            ..Run::default()
        };
        let site = Site {
            runs: vec![run],
            ..Site::default()
        };
        let page = page_of(&site);
        assert!(page.contains("The numbers and the driver's IR"), "{page}");
        assert!(
            page.contains("<td>llvmpipe</td><td class=\"num\">2</td><td class=\"num\">3</td><td class=\"num\">1</td>"),
            "{page}"
        );
        let without = Site {
            runs: vec![Run::default()],
            ..Site::default()
        };
        assert!(!page_of(&without).contains("The numbers and the driver's IR"));
    }

    fn page_of(site: &Site) -> String {
        page(site, &Links::new(site))
    }
}
