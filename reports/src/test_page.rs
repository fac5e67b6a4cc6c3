//! One test's page (`tests/STEM.html`) and its images (`img/STEM-*.png`): the result in each
//! run with the command that reruns it, the probe table, a plot of each judged channel's
//! values against the predictions and intervals, the framebuffer images and heat maps, the
//! shader source annotated with each operation's precision, and the compile/link logs.

use crate::front::channel_name;
use crate::html::{self, esc, interval, num, ulps, Nav};
use crate::images;
use crate::model::{AnnotatedSource, Channel, FloatImage, Run, Site, TestRun};
use crate::plots;
use crate::ReportError;
use std::fmt::Write;

/// The page and image files of test `name`, as `(path under the site, bytes)`.
pub fn files(site: &Site, name: &str, stem: &str) -> Result<Vec<(String, Vec<u8>)>, ReportError> {
    let mut files = Vec::new();
    let mut body = String::new();
    let detail = site.details.get(name);
    if let Some(file) = detail.and_then(|d| d.file.as_ref()) {
        let _ = writeln!(
            body,
            "<p>File: <code>{}</code></p>",
            esc(&file.display().to_string())
        );
    }
    if let Some(d) = detail.filter(|d| !d.operations.is_empty()) {
        let _ = writeln!(
            body,
            "<p>Operations at lowp or mediump: <code>{}</code> (<a href=\"../matrix.html\">matrix</a>)</p>",
            esc(&d.operations.join(" "))
        );
    }
    for note in detail.map(|d| d.notes.as_slice()).unwrap_or_default() {
        let _ = writeln!(body, "<p class=\"note\">{}</p>", esc(note));
    }
    body.push_str(&results_table(site, name));
    for run in &site.runs {
        if let Some(test) = run.tests.get(name) {
            body.push_str(&run_section(run, test));
        }
    }
    body.push_str(&image_section(site, name, stem, &mut files)?);
    for source in detail.map(|d| d.sources.as_slice()).unwrap_or_default() {
        body.push_str(&source_section(source));
    }
    body.push_str(&driver_ir_section(site, name));
    body.push_str(&logs_section(site, name));
    let page = html::page(
        name,
        &esc(name),
        Nav::Test,
        "../",
        site.history.is_some(),
        &body,
    );
    files.push((format!("tests/{stem}.html"), page.into_bytes()));
    Ok(files)
}

fn results_table(site: &Site, name: &str) -> String {
    let mut out = String::from(
        "<h2>Results</h2>\n<table><thead><tr><th>run</th><th>status</th><th>verdict</th>\
         <th class=\"num\">time</th><th>reason</th><th>rerun this test</th></tr></thead><tbody>\n",
    );
    for run in &site.runs {
        let Some(t) = run.tests.get(name) else {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td colspan=\"5\" class=\"muted\">not run</td></tr>",
                esc(&run.label)
            );
            continue;
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{:.3} s</td>\
             <td class=\"reason\">{}</td><td><code>{}</code></td></tr>",
            esc(&run.label),
            html::status_badge(&t.status),
            html::verdict_badge(t.verdict.as_deref()),
            t.duration_s,
            esc(t.reason.as_deref().unwrap_or("")),
            esc(t.rerun.as_deref().unwrap_or(""))
        );
    }
    out.push_str("</tbody></table>\n");
    out
}

/// The probe table and the channel plot of one run.
fn run_section(run: &Run, test: &TestRun) -> String {
    let mut out = format!("<h2>Probes on {}</h2>\n", esc(&run.label));
    if test.probes.is_empty() {
        out.push_str("<p class=\"note\">No probe ran.</p>\n");
        return out;
    }
    out.push_str(
        "<div class=\"wide\"><table class=\"sortable probes\"><thead><tr><th class=\"num\">line</th><th>pixel</th>\
         <th>ch</th><th class=\"num\">expected</th><th class=\"num\">observed o</th>\
         <th class=\"num\">highp h</th><th class=\"num\">mediump m</th>\
         <th class=\"num\">reference r</th><th class=\"num\">exact</th><th>H</th><th>M</th>\
         <th>evidence</th><th>verdict</th><th class=\"num\" title=\"|o - m| in binary16 ULPs at m\">o-m ULP16</th>\
         <th class=\"num\" title=\"|o - h| in binary32 ULPs at h\">o-h ULP32</th>\
         <th class=\"num\" title=\"|o - exact| in binary16 ULPs: what the test amplifies\">o-exact ULP16</th>\
         <th>o = m</th></tr></thead><tbody>\n",
    );
    let mut plotted: Vec<(String, &Channel)> = Vec::new();
    for probe in &test.probes {
        let channels = probe.observed.len().max(probe.channels.len());
        for c in 0..channels {
            let expected = probe.expected.get(c).map_or_else(String::new, |v| num(*v));
            let observed = probe.observed.get(c).map_or_else(String::new, |v| num(*v));
            let pixel = format!("({}, {})", probe.pixel[0], probe.pixel[1]);
            // Only the channels that missed piglit's tolerance are marked, not every channel
            // of a failed probe.
            let missed = !probe.pass
                && match (probe.expected.get(c), probe.observed.get(c)) {
                    (Some(e), Some(o)) => {
                        let tolerance = probe.tolerance.get(c).copied().unwrap_or(0.0);
                        (o - e).abs() > tolerance || o.is_nan()
                    }
                    _ => true,
                };
            let pass = if missed { " class=\"s-fail\"" } else { "" };
            let _ = write!(
                out,
                "<tr><td class=\"num\">{}</td><td>{pixel}</td><td>{}</td><td class=\"num\">{expected}</td>\
                 <td class=\"num\"><strong{pass}>{observed}</strong></td>",
                probe.line,
                channel_name(c)
            );
            match probe.channels.get(c) {
                Some(ch) => {
                    let _ = writeln!(
                        out,
                        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                         <td class=\"num\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
                         <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                         <td>{}</td></tr>",
                        num(ch.highp),
                        num(ch.mediump),
                        ch.reference.map_or_else(|| "—".into(), num),
                        num(ch.exact),
                        interval_cell(ch.highp_bounds),
                        interval_cell(ch.mediump_bounds),
                        evidence_cell(&ch.evidence),
                        verdict_cell(ch),
                        ulps(ch.from_mediump_ulp16),
                        ulps(ch.from_highp_ulp32),
                        ulps(ch.ulp16_error),
                        if ch.matches_mediump { "yes" } else { "no" }
                    );
                    if ch.discriminates() {
                        plotted.push((
                            format!(
                                "line {} ({}, {}) {}: {}",
                                probe.line,
                                probe.pixel[0],
                                probe.pixel[1],
                                channel_name(c),
                                ch.verdict
                            ),
                            ch,
                        ));
                    }
                }
                None => out.push_str("<td colspan=\"11\" class=\"muted\">not judged</td></tr>\n"),
            }
        }
    }
    out.push_str("</tbody></table></div>\n");
    match plots::channel_values(&plotted) {
        Some(svg) => {
            let _ = writeln!(
                out,
                "<p class=\"note\">Each channel that could tell highp from mediump: where the \
                 observed value lies against the intervals any conforming highp (H) and mediump (M) \
                 evaluation may return, and the emulator's predictions.</p>\n<div class=\"plot\">{svg}</div>"
            );
        }
        None => out.push_str(
            "<p class=\"note\">No channel of this run could tell highp from mediump.</p>\n",
        ),
    }
    out
}

/// A channel's verdict and, on a lowered channel, the error its worst binary16 operation
/// made on its own: the driver's arithmetic, where the columns beside it measure the test.
fn verdict_cell(ch: &Channel) -> String {
    let badge = html::verdict_badge(Some(&ch.verdict));
    match &ch.operation_error {
        Some((operation, error)) => format!(
            "{badge}<br><span class=\"muted\" title=\"the largest error one binary16 operation \
             on the way made on its own, against the exact result of the same operation on the \
             same operands, in the emulator's binary16 run: the driver's arithmetic, not what \
             the test amplifies\">{} ULP16 in {}</span>",
            ulps(*error),
            esc(operation)
        ),
        None => badge,
    }
}

/// The framebuffer images: the emulator's highp and mediump predictions and their
/// difference, then per run the observed framebuffer and its difference from highp.
fn image_section(
    site: &Site,
    name: &str,
    stem: &str,
    files: &mut Vec<(String, Vec<u8>)>,
) -> Result<String, ReportError> {
    let mut figures = Vec::new();
    let mut add = |file: String, png: Vec<u8>, caption: String| {
        figures.push(format!(
            "<figure><img src=\"../img/{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>",
            esc(&file),
            esc(&caption),
            caption
        ));
        files.push((format!("img/{file}"), png));
    };
    let emulator = site.details.get(name).and_then(|d| d.emulator.as_ref());
    if let Some(e) = emulator {
        add(
            format!("{stem}-highp.png"),
            images::framebuffer_png(&e.highp)?,
            "emulator, highp".into(),
        );
        add(
            format!("{stem}-mediump.png"),
            images::framebuffer_png(&e.mediump)?,
            "emulator, mediump (as Mesa lowers)".into(),
        );
        if let Some(map) = images::difference_png(&e.mediump, &e.highp) {
            let (png, largest) = map?;
            add(
                format!("{stem}-predicted-diff.png"),
                png,
                format!("|mediump − highp| predicted; largest {}", num(largest)),
            );
        }
    }
    for (i, run) in site.runs.iter().enumerate() {
        let Some(observed) = run.tests.get(name).and_then(|t| t.observed_image.as_ref()) else {
            continue;
        };
        add(
            format!("{stem}-run{i}-observed.png"),
            images::framebuffer_png(observed)?,
            format!("observed on {}", esc(&run.label)),
        );
        if let Some(map) = emulator.and_then(|e| images::difference_png(observed, &e.highp)) {
            let (png, largest) = map?;
            add(
                format!("{stem}-run{i}-diff.png"),
                png,
                format!(
                    "|observed − highp| on {}; largest {}",
                    esc(&run.label),
                    num(largest)
                ),
            );
        }
    }
    if figures.is_empty() {
        return Ok(String::new());
    }
    let size = emulator
        .map(|e| &e.highp)
        .or_else(|| {
            site.runs
                .iter()
                .find_map(|r| r.tests.get(name)?.observed_image.as_ref())
        })
        .map_or_else(String::new, |i: &FloatImage| {
            format!(" ({} × {} pixels)", i.width, i.height)
        });
    let observed_note = if site.runs.iter().any(|r| {
        r.tests
            .get(name)
            .is_some_and(|t| t.observed_image.is_some())
    }) {
        ""
    } else {
        " The runs saved no framebuffer, so only the emulator's images are shown."
    };
    Ok(format!(
        "<h2>Framebuffer{size}</h2>\n<p class=\"note\">Channels clamped to [0, 1]. Heat maps: \
         the largest difference over the channels per pixel, black where equal, \
         <span class=\"colourbar\"></span> from 2<sup>−24</sup> to 1 on a log scale, white where \
         not finite.{observed_note}</p>\n<div class=\"images\">{}</div>\n",
        figures.join("\n")
    ))
}

/// One shader section with its operations marked.
fn source_section(source: &AnnotatedSource) -> String {
    let mut marked = String::new();
    let mut at = 0;
    for mark in &source.marks {
        let (Some(before), Some(token)) = (
            source.text.get(at..mark.start),
            source.text.get(mark.start..mark.end),
        ) else {
            continue;
        };
        marked.push_str(&esc(before));
        let reduced = matches!(mark.precision.as_str(), "mediump" | "lowp");
        let (class, state) = match (mark.lowered, reduced) {
            (true, _) => ("lowered", "lowered to 16 bits"),
            (false, true) => ("kept", "kept at 32 bits"),
            (false, false) => ("highp", "32 bits"),
        };
        let _ = write!(
            marked,
            "<mark class=\"op {class}\" title=\"{}: {}, {state} ({})\">{}</mark>",
            esc(&mark.operation),
            esc(&mark.precision),
            esc(&mark.ir.join("; ")),
            esc(token)
        );
        at = mark.end;
    }
    marked.push_str(&esc(source.text.get(at..).unwrap_or("")));
    let mut lines = String::new();
    for (i, line) in marked.trim_end().split('\n').enumerate() {
        let number = if i < source.added_lines {
            "+".to_string()
        } else {
            (source.first_line + i - source.added_lines).to_string()
        };
        let _ = writeln!(lines, "<span class=\"ln\">{number}</span>{line}");
    }
    format!(
        "<h2>{} shader</h2>\n<p class=\"note\"><mark class=\"op lowered\">lowered</mark>: \
         mediump or lowp, computed in 16 bits; <mark class=\"op kept\">kept</mark>: mediump or \
         lowp, but computed in 32 bits; <mark class=\"op highp\">highp</mark>: 32 bits, as \
         halfcheck's compiler resolves and lowers them for a driver that lowers as Mesa does. \
         Hover an operation for its IR. Lines numbered + are not in the file (piglit adds them).</p>\n\
         <pre class=\"source\">{}</pre>\n",
        esc(&source.stage),
        lines.trim_end()
    )
}

/// The driver's own IR of the test on each run that kept it, its 16-bit instructions marked,
/// below halfcheck's predicted operations (the annotated sources above), with how the two
/// matched and how the numbers and the IR stand.
fn driver_ir_section(site: &Site, name: &str) -> String {
    let mut out = String::new();
    for run in &site.runs {
        let Some(ir) = run.tests.get(name).and_then(|t| t.driver_ir.as_ref()) else {
            continue;
        };
        let _ = writeln!(out, "<h2>The driver's IR on {}</h2>", esc(&run.label));
        let list = |ops: &[String]| {
            if ops.is_empty() {
                "none".to_string()
            } else {
                format!("<code>{}</code>", esc(&ops.join(", ")))
            }
        };
        let _ = writeln!(
            out,
            "<p>Lowered by halfcheck's model and at 16 bits in the driver's IR: {}; by the \
             model only: {}; at 16 bits in the IR only: {}.{}</p>",
            list(&ir.agreed),
            list(&ir.model_only),
            list(&ir.driver_only),
            ir.agreement
                .as_deref()
                .map(|a| format!(" Numbers and IR: <b>{}</b>.", esc(a)))
                .unwrap_or_default()
        );
        if let Some(note) = &ir.note {
            let _ = writeln!(out, "<p class=\"note\">{}</p>", esc(note));
        }
        let text: Vec<String> = ir
            .lines
            .iter()
            .map(|(line, sixteen)| {
                if *sixteen {
                    format!("<mark title=\"16 bits\">{}</mark>", esc(line))
                } else {
                    esc(line)
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "<details open><summary>NIR handed to the driver (16-bit instructions marked)</summary>\
             <pre class=\"source\">{}</pre></details>",
            text.join("\n")
        );
    }
    out
}

fn logs_section(site: &Site, name: &str) -> String {
    let mut out = String::new();
    for run in &site.runs {
        let Some(test) = run.tests.get(name) else {
            continue;
        };
        for (stage, log) in &test.logs {
            if log.trim().is_empty() {
                continue;
            }
            let _ = writeln!(
                out,
                "<details><summary>{} log on {}</summary><pre>{}</pre></details>",
                esc(stage),
                esc(&run.label),
                esc(log)
            );
        }
    }
    if out.is_empty() {
        out
    } else {
        format!("<h2>Logs</h2>\n{out}")
    }
}

/// An interval in a table cell: each end on a line of its own, so the probe table fits.
fn interval_cell(bounds: (f64, f64)) -> String {
    interval(bounds).replacen(", ", ",<br>", 1)
}

/// The lines of evidence in a table cell, one a line so the probe table stays narrow; `none`
/// when no line said anything.
fn evidence_cell(lines: &[String]) -> String {
    if lines.is_empty() {
        return "none".to_string();
    }
    lines
        .iter()
        .map(|l| esc(l))
        .collect::<Vec<_>>()
        .join("<br>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::DriverIrView;

    /// Issue 36: the test page shows the driver's IR with its 16-bit lines marked, and how it
    /// matched the model and the numbers.
    #[test]
    fn the_driver_ir_is_shown_with_its_16_bit_lines_marked() {
        let test = TestRun {
            driver_ir: Some(DriverIrView {
                lines: vec![
                    ("vec1 16 ssa_7 = fdiv ssa_3, ssa_6".into(), true),
                    ("vec1 32 ssa_8 = f2f32 ssa_7".into(), false),
                ],
                agreed: vec!["fdiv x1".into()],
                agreement: Some("agree".into()),
                ..DriverIrView::default()
            }),
            ..TestRun::default()
        };
        let site = Site {
            runs: vec![Run {
                label: "llvmpipe".into(),
                tests: [("t".to_string(), test)].into_iter().collect(),
                ..Run::default()
            }],
            ..Site::default()
        };
        let html = driver_ir_section(&site, "t");
        assert!(html.contains("The driver's IR on llvmpipe"), "{html}");
        assert!(
            html.contains("<mark title=\"16 bits\">vec1 16 ssa_7 = fdiv ssa_3, ssa_6</mark>"),
            "{html}"
        );
        assert!(html.contains("\nvec1 32 ssa_8 = f2f32 ssa_7"), "{html}");
        assert!(html.contains("<code>fdiv x1</code>"), "{html}");
        assert!(html.contains("Numbers and IR: <b>agree</b>"), "{html}");
        assert!(driver_ir_section(&site, "another").is_empty());
    }
}
