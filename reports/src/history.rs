//! `history.html`: nightly runs of one driver, oldest first: the number of tests per verdict
//! night by night, and for each test regressed on the last night against the first, the
//! night it first appeared.

use crate::front::{decided, VERDICT_ORDER};
use crate::html::{self, esc, Nav};
use crate::model::{History, Site};
use crate::{plots, Links};
use std::fmt::Write;

/// `history.html`.
pub fn page(site: &Site, history: &History, links: &Links) -> String {
    let nights: Vec<String> = site.runs.iter().map(|r| r.label.clone()).collect();
    let mut verdicts: Vec<String> = VERDICT_ORDER.iter().map(|v| v.to_string()).collect();
    for run in &site.runs {
        for t in run.tests.values() {
            let v = t.verdict.clone().unwrap_or_else(|| "unjudged".into());
            if !verdicts.contains(&v) {
                verdicts.push(v);
            }
        }
    }
    let series: Vec<(String, Vec<usize>)> = verdicts
        .into_iter()
        .map(|v| {
            let counts: Vec<usize> = site
                .runs
                .iter()
                .map(|r| {
                    r.tests
                        .values()
                        .filter(|t| t.verdict.as_deref().unwrap_or("unjudged") == v)
                        .count()
                })
                .collect();
            (v, counts)
        })
        .filter(|(_, counts)| counts.iter().any(|n| *n > 0))
        .collect();
    let mut body = String::new();
    if let Some(svg) = plots::trend(&nights, &series) {
        let _ = writeln!(body, "<div class=\"plot\">{svg}</div>");
    }
    body.push_str("<table class=\"counts\"><thead><tr><th>night</th><th>renderer</th>");
    for (v, _) in &series {
        let _ = write!(body, "<th class=\"num\">{}</th>", esc(v));
    }
    body.push_str("</tr></thead><tbody>");
    for (i, run) in site.runs.iter().enumerate() {
        let _ = write!(
            body,
            "<tr><td>{}</td><td>{}</td>",
            esc(&run.label),
            esc(&run.renderer)
        );
        for (_, counts) in &series {
            let _ = write!(body, "<td class=\"num\">{}</td>", counts[i]);
        }
        body.push_str("</tr>");
    }
    body.push_str("</tbody></table>\n");
    let _ = writeln!(
        body,
        "<h2>Regressions on the last night, and when each appeared ({})</h2>",
        history.regressions.len()
    );
    if history.regressions.is_empty() {
        body.push_str("<p>No test is worse on the last night than on the first.</p>\n");
    } else {
        body.push_str(
            "<table class=\"sortable regressions\"><thead><tr><th>test</th><th>first night</th>\
             <th>last night</th><th>first seen</th><th>what decided it</th></tr></thead><tbody>\n",
        );
        let first = site.runs.first();
        let last = site.runs.last();
        for r in &history.regressions {
            let night = site.runs.get(r.night).map_or("?", |n| n.label.as_str());
            let _ = writeln!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td data-sort=\"{}\">{}</td><td>{}</td></tr>",
                links.test_anchor(&r.change.name, ""),
                esc(&r.change.old),
                esc(&r.change.new),
                r.night,
                esc(night),
                decided(
                    first.and_then(|f| f.tests.get(&r.change.name)),
                    last.and_then(|l| l.tests.get(&r.change.name))
                )
            );
        }
        body.push_str("</tbody></table>\n");
    }
    html::page("History", "History", Nav::History, "", true, &body)
}
