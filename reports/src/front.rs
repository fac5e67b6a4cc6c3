//! The front page: what a run was judged against and the results that need attention first
//! (a run's own report), then regressions, fixes and changes (with the numbers that decided
//! each), then each run (driver, lane, versions, precision formats), counts per verdict and
//! status, and each run's distances of `o` from the binary16 and binary32 predictions in ULPs.

use crate::html::{self, esc, num, Nav};
use crate::model::{Change, Channel, Comparison, Run, Site, TestRun};
use crate::{plots, Links};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Verdicts in the order the counts list them (others follow, by name).
pub(crate) const VERDICT_ORDER: [&str; 6] = [
    "lowered",
    "partial",
    "not-lowered",
    "out-of-bounds",
    "undetermined",
    "n/a",
];

/// Statuses in the order the counts list them.
const STATUS_ORDER: [&str; 7] = ["pass", "warn", "fail", "skip", "crash", "timeout", "error"];

/// `index.html`.
pub fn page(site: &Site, links: &Links) -> String {
    let mut body = String::new();
    body.push_str(&headline(site));
    for run in &site.runs {
        if let Some(judged) = &run.judged {
            body.push_str(&judged_section(run, judged, links));
        }
    }
    for comparison in &site.comparisons {
        body.push_str(&comparison_section(site, comparison, links));
    }
    body.push_str("<h2>Runs</h2>\n<div class=\"cards\">\n");
    for run in &site.runs {
        body.push_str(&run_card(run));
    }
    body.push_str("</div>\n");
    body.push_str(&counts(site));
    body.push_str(
        "<h2>How far the driver is from each prediction</h2>\n<p class=\"note\">Every judged \
         channel that could discriminate. Left: |o - m|, the distance of the observed value \
         from the binary16 prediction <code>m</code>, in binary16 ULPs at <code>m</code>; \
         right: |o - h|, from the binary32 prediction <code>h</code>, in binary32 ULPs at \
         <code>h</code>. A driver that lowers as Mesa does has its channels in the left \
         chart's 0 bar; one that computes at highp, in the right chart's 0 bar; elsewhere, \
         the driver rounds otherwise than both predictions. The distance from the exact \
         value is not shown here: cases amplify the error on purpose (as \
         <code>fract(x * 1024.0)</code> does), so it measures the test, not the driver; \
         each test's page has it.</p>\n",
    );
    for run in &site.runs {
        let channels: Vec<&Channel> = run
            .tests
            .values()
            .flat_map(|t| t.probes.iter().flat_map(|p| p.channels.iter()))
            .filter(|c| c.discriminates())
            .collect();
        let _ = writeln!(
            body,
            "<h3>{} ({} channels)</h3>",
            esc(&run.label),
            channels.len()
        );
        match plots::ulp_histograms(&channels) {
            Some(svg) => {
                let _ = writeln!(body, "<div class=\"plot\">{svg}</div>");
            }
            None => body.push_str("<p class=\"note\">No channel of this run was judged.</p>\n"),
        }
    }
    html::page(
        "Summary",
        "Lowering report",
        Nav::Summary,
        "",
        site.history.is_some(),
        &body,
    )
}

/// One line that answers "did lowering regress?".
fn headline(site: &Site) -> String {
    let runs: Vec<String> = site.runs.iter().map(|r| esc(&r.label)).collect();
    let regressions: usize = site.comparisons.iter().map(|c| c.regressions.len()).sum();
    let fixes: usize = site.comparisons.iter().map(|c| c.fixes.len()).sum();
    let judged = site
        .runs
        .iter()
        .find_map(|r| r.judged.as_ref().map(|j| (r, j)));
    let (class, text) = if let Some((run, judged)) = judged {
        (
            if judged.exit > 0 { " bad" } else { "" },
            format!(
                "<strong>{} (lane {}): {}</strong>, judged against {}; exit status {}.",
                esc(&run.label),
                esc(&run.lane),
                esc(&judged.answer),
                esc(&judged.against),
                judged.exit
            ),
        )
    } else if site.comparisons.is_empty() {
        (
            "",
            format!(
                "{} run{}: {}. Give two runs (or <code>--baseline</code>) to see what changed.",
                runs.len(),
                if runs.len() == 1 { "" } else { "s" },
                runs.join(", ")
            ),
        )
    } else if regressions > 0 {
        (
            " bad",
            format!("<strong>{regressions} regression{}</strong> and {fixes} fix{} against the baseline.",
                if regressions == 1 { "" } else { "s" },
                if fixes == 1 { "" } else { "es" }),
        )
    } else {
        (
            "",
            format!(
                "No regressions; {fixes} fix{}.",
                if fixes == 1 { "" } else { "es" }
            ),
        )
    };
    format!("<p class=\"summary-line{class}\">{text}</p>\n")
}

/// What a run's review found, the results that fail it first, each with the numbers that
/// decided it.
fn judged_section(run: &Run, judged: &crate::model::Judged, links: &Links) -> String {
    let mut out = format!(
        "<h2>{} judged against {}</h2>\n",
        esc(&run.label),
        esc(&judged.against)
    );
    if judged.findings.is_empty() {
        out.push_str("<p>Every result is as expected.</p>\n");
        return out;
    }
    let id = format!("judged-{}", html::test_file_stem(&run.label));
    let _ = write!(
        out,
        "<details open><summary><strong>Results that need attention ({})</strong></summary>\n\
         <input class=\"filter\" hidden data-table=\"{id}\" placeholder=\"filter\">\n\
         <div class=\"scroll\"><table class=\"sortable regressions\" id=\"{id}\"><thead><tr>\
         <th>test</th><th>finding</th><th>expected</th><th>got</th><th>what decided it</th>\
         </tr></thead><tbody>\n",
        judged.findings.len()
    );
    for f in &judged.findings {
        let test = run.tests.get(&f.name);
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            links.test_anchor(&f.name, ""),
            esc(&f.kind),
            esc(f.expected.as_deref().unwrap_or("—")),
            esc(&f.actual),
            test.map(numbers).unwrap_or_default()
        );
    }
    out.push_str("</tbody></table></div></details>\n");
    out
}

/// The discriminating channels of one result (at most three): o against h and m.
fn numbers(test: &TestRun) -> String {
    let mut parts = Vec::new();
    for probe in &test.probes {
        for (c, ch) in probe.channels.iter().enumerate() {
            if !ch.discriminates() {
                continue;
            }
            if parts.len() == 3 {
                parts.push("…".to_string());
                return parts.join("<br>");
            }
            parts.push(format!(
                "line {} {}: o {} ({}); h {}, m {}",
                probe.line,
                channel_name(c),
                num(ch.observed),
                esc(&ch.verdict),
                num(ch.highp),
                num(ch.mediump)
            ));
        }
    }
    if parts.is_empty() {
        if let Some(reason) = test.reason.as_deref().and_then(|r| r.lines().next()) {
            parts.push(format!("<span class=\"mono\">{}</span>", esc(reason)));
        }
    }
    parts.join("<br>")
}

/// A run by label.
pub(crate) fn run_by_label<'a>(site: &'a Site, label: &str) -> Option<&'a Run> {
    site.runs.iter().find(|r| r.label == label)
}

fn comparison_section(site: &Site, c: &Comparison, links: &Links) -> String {
    let mut out = format!(
        "<h2>{} against {}</h2>\n<p>{} regressions, {} fixes, {} other changes, {} new tests, \
         {} removed tests.</p>\n",
        esc(&c.new),
        esc(&c.old),
        c.regressions.len(),
        c.fixes.len(),
        c.changes.len(),
        c.new_tests.len(),
        c.removed_tests.len()
    );
    let old = run_by_label(site, &c.old);
    let new = run_by_label(site, &c.new);
    let sections = [
        ("Regressions", &c.regressions, "regressions", true),
        ("Fixes", &c.fixes, "fixes", c.fixes.len() <= 20),
        ("Changes", &c.changes, "changes", c.changes.len() <= 20),
    ];
    for (title, list, class, open) in sections {
        if list.is_empty() {
            continue;
        }
        let id = format!(
            "{}-{}-{}",
            class,
            html::test_file_stem(&c.old),
            html::test_file_stem(&c.new)
        );
        let _ = write!(
            out,
            "<details{}><summary><strong>{title} ({})</strong></summary>\n\
             <input class=\"filter\" hidden data-table=\"{id}\" placeholder=\"filter\">\n\
             <div class=\"scroll\"><table class=\"sortable {class}\" id=\"{id}\"><thead><tr><th>test</th>\
             <th>{}</th><th>{}</th><th>what decided it</th></tr></thead><tbody>\n",
            if open { " open" } else { "" },
            list.len(),
            esc(&c.old),
            esc(&c.new),
        );
        for change in list {
            out.push_str(&change_row(change, old, new, links));
        }
        out.push_str("</tbody></table></div></details>\n");
    }
    for (title, names) in [
        ("New tests", &c.new_tests),
        ("Removed tests", &c.removed_tests),
    ] {
        if names.is_empty() {
            continue;
        }
        let _ = write!(
            out,
            "<details><summary>{title} ({})</summary><ul>",
            names.len()
        );
        for name in names {
            let _ = write!(out, "<li>{}</li>", links.test_anchor(name, ""));
        }
        out.push_str("</ul></details>\n");
    }
    out
}

fn change_row(change: &Change, old: Option<&Run>, new: Option<&Run>, links: &Links) -> String {
    let before = old.and_then(|r| r.tests.get(&change.name));
    let after = new.and_then(|r| r.tests.get(&change.name));
    format!(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        links.test_anchor(&change.name, ""),
        esc(&change.old),
        esc(&change.new),
        decided(before, after)
    )
}

/// The numbers behind a change: the new reason when the status changed, and the observed
/// values of the discriminating channels before and after, against `h` and `m`.
pub(crate) fn decided(before: Option<&TestRun>, after: Option<&TestRun>) -> String {
    let (Some(before), Some(after)) = (before, after) else {
        return String::new();
    };
    let mut parts = Vec::new();
    let mut shown = 0;
    for (k, probe) in after.probes.iter().enumerate() {
        for (c, now) in probe.channels.iter().enumerate() {
            let was = before
                .probes
                .get(k)
                .filter(|p| p.line == probe.line)
                .and_then(|p| p.channels.get(c));
            let discriminates = now.discriminates() || was.is_some_and(Channel::discriminates);
            if !discriminates || was.is_some_and(|w| w.verdict == now.verdict) {
                continue;
            }
            if shown == 3 {
                parts.push("…".into());
                return parts.join("<br>");
            }
            shown += 1;
            let was_text = was.map_or_else(
                || "—".to_string(),
                |w| format!("{} ({})", num(w.observed), esc(&w.verdict)),
            );
            parts.push(format!(
                "line {} {}: o {} → <strong>{}</strong> ({}); h {}, m {}",
                probe.line,
                channel_name(c),
                was_text,
                num(now.observed),
                esc(&now.verdict),
                num(now.highp),
                num(now.mediump)
            ));
        }
    }
    // A status change that no channel explains: the reason says why.
    if parts.is_empty() && before.status != after.status {
        if let Some(reason) = after.reason.as_deref().and_then(|r| r.lines().next()) {
            parts.push(format!("<span class=\"mono\">{}</span>", esc(reason)));
        }
    }
    parts.join("<br>")
}

/// `r`, `g`, `b`, `a` for channels 0-3.
pub(crate) fn channel_name(c: usize) -> &'static str {
    ["r", "g", "b", "a"].get(c).copied().unwrap_or("?")
}

fn run_card(run: &Run) -> String {
    let mut out = format!("<div class=\"card\"><h3>{}</h3><dl>", esc(&run.label));
    let mut row = |k: &str, v: &str| {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", esc(k), v);
    };
    row("renderer", &esc(&run.renderer));
    row("lane", &esc(&run.lane));
    row("backend", &esc(&run.backend));
    for (k, v) in &run.versions {
        row(k, &esc(v));
    }
    if !run.started.is_empty() {
        row("ran", &esc(&format!("{} to {}", run.started, run.finished)));
    }
    row("tests", &run.tests.len().to_string());
    row(
        "from",
        &format!("<code>{}</code>", esc(&run.source.display().to_string())),
    );
    if !run.command_line.is_empty() {
        row(
            "command",
            &format!("<code>{}</code>", esc(&run.command_line.join(" "))),
        );
    }
    out.push_str("</dl>");
    if !run.precision_formats.is_empty() {
        out.push_str(
            "<details><summary>precision formats</summary><table><thead><tr><th>stage, type</th>\
             <th>format</th></tr></thead><tbody>",
        );
        for (k, v) in &run.precision_formats {
            let _ = write!(out, "<tr><td>{}</td><td>{}</td></tr>", esc(k), esc(v));
        }
        out.push_str("</tbody></table></details>");
    }
    out.push_str("</div>\n");
    out
}

/// Tables of tests per verdict and per status, one column per run.
fn counts(site: &Site) -> String {
    let mut out = String::from("<h2>Counts</h2>\n");
    let verdicts = keyed_counts(site, |t| {
        t.verdict.clone().unwrap_or_else(|| "unjudged".into())
    });
    let statuses = keyed_counts(site, |t| t.status.clone());
    let order = |known: &[&str], counts: &BTreeMap<String, Vec<usize>>| {
        let mut keys: Vec<String> = known
            .iter()
            .filter(|k| counts.contains_key(**k))
            .map(|k| k.to_string())
            .collect();
        keys.extend(
            counts
                .keys()
                .filter(|k| !known.contains(&k.as_str()))
                .cloned(),
        );
        keys
    };
    for (title, table, keys, badge) in [
        (
            "verdict",
            &verdicts,
            order(&VERDICT_ORDER, &verdicts),
            &(|k: &str| html::verdict_badge((k != "unjudged").then_some(k)))
                as &dyn Fn(&str) -> String,
        ),
        (
            "status",
            &statuses,
            order(&STATUS_ORDER, &statuses),
            &(|k: &str| html::status_badge(k)) as &dyn Fn(&str) -> String,
        ),
    ] {
        let _ = write!(
            out,
            "<table class=\"counts\" id=\"counts-{title}\"><thead><tr><th>{title}</th>"
        );
        for run in &site.runs {
            let _ = write!(out, "<th class=\"num\">{}</th>", esc(&run.label));
        }
        out.push_str("</tr></thead><tbody>");
        for key in keys {
            let _ = write!(out, "<tr><td>{}</td>", badge(&key));
            for n in &table[&key] {
                let _ = write!(out, "<td class=\"num\" data-key=\"{}\">{n}</td>", esc(&key));
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table>\n");
    }
    out
}

/// Per key, the number of tests of each run with that key.
fn keyed_counts(site: &Site, key: impl Fn(&TestRun) -> String) -> BTreeMap<String, Vec<usize>> {
    let mut table: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, run) in site.runs.iter().enumerate() {
        for test in run.tests.values() {
            table
                .entry(key(test))
                .or_insert_with(|| vec![0; site.runs.len()])[i] += 1;
        }
    }
    table
}
