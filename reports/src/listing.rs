//! `tests.html`: every test with its status and verdict in each run; regressed, broken and
//! failing tests first.

use crate::html::{self, esc, Nav};
use crate::model::{Site, TestRun};
use crate::Links;
use std::collections::BTreeSet;
use std::fmt::Write;

/// How urgently a result needs a reader: 0 first.
fn urgency(test: &TestRun) -> u8 {
    match (test.status.as_str(), test.verdict.as_deref()) {
        ("crash" | "timeout" | "error", _) => 1,
        ("fail", _) => 2,
        (_, Some("out-of-bounds")) => 3,
        (_, Some("partial" | "not-lowered")) => 4,
        (_, Some("lowered")) => 6,
        ("skip", _) => 7,
        _ => 5,
    }
}

/// Test names in reading order: regressed first, then by the most urgent result, then name.
pub fn ordered(site: &Site) -> Vec<(u8, String)> {
    let regressed: BTreeSet<&String> = site
        .comparisons
        .iter()
        .flat_map(|c| c.regressions.iter().map(|r| &r.name))
        .collect();
    let mut names: BTreeSet<&String> = site.details.keys().collect();
    for run in &site.runs {
        names.extend(run.tests.keys());
    }
    let mut list: Vec<(u8, String)> = names
        .into_iter()
        .map(|name| {
            let rank = if regressed.contains(name) {
                0
            } else {
                site.runs
                    .iter()
                    .filter_map(|r| r.tests.get(name))
                    .map(urgency)
                    .min()
                    .unwrap_or(8)
            };
            (rank, name.clone())
        })
        .collect();
    list.sort();
    list
}

/// `tests.html`.
pub fn page(site: &Site, links: &Links) -> String {
    let mut body = String::from(
        "<p class=\"note\">Regressed tests first, then crashes, failures, out-of-bounds and \
         not-lowered results. Click a header to sort, type to filter.</p>\n\
         <input class=\"filter\" hidden data-table=\"tests\" placeholder=\"filter tests\">\n\
         <table class=\"sortable\" id=\"tests\"><thead><tr><th class=\"num\">#</th><th>test</th>",
    );
    for run in &site.runs {
        let _ = write!(body, "<th>{}</th>", esc(&run.label));
    }
    body.push_str("<th>operations</th></tr></thead><tbody>\n");
    for (i, (rank, name)) in ordered(site).iter().enumerate() {
        let regressed = if *rank == 0 {
            " <strong>regressed</strong>"
        } else {
            ""
        };
        let _ = write!(
            body,
            "<tr><td class=\"num\">{}</td><td>{}{regressed}</td>",
            i + 1,
            links.test_anchor(name, "")
        );
        for run in &site.runs {
            match run.tests.get(name) {
                Some(t) => {
                    let _ = write!(
                        body,
                        "<td data-sort=\"{} {}\">{} {}</td>",
                        esc(&t.status),
                        esc(t.verdict.as_deref().unwrap_or("")),
                        html::status_badge(&t.status),
                        html::verdict_badge(t.verdict.as_deref())
                    );
                }
                None => body.push_str("<td class=\"muted\">not run</td>"),
            }
        }
        let ops = site
            .details
            .get(name)
            .map(|d| d.operations.join(" "))
            .unwrap_or_default();
        let _ = writeln!(body, "<td><code>{}</code></td></tr>", esc(&ops));
    }
    body.push_str("</tbody></table>\n");
    html::page(
        "All tests",
        "All tests",
        Nav::Tests,
        "",
        site.history.is_some(),
        &body,
    )
}
