//! The HTML report as a user makes it, checked against the results it was made from: real
//! runs of `cases/` on llvmpipe (which lowers, the baseline) and softpipe (which does not), a
//! report of both, and the report `run` writes by default. Each run happens once; every check
//! reads the same files. Without EGL the GL test skips with a printed reason (unless
//! `HALFCHECK_REQUIRE_GL=1`); the emulator test runs anywhere.

mod common;

use common::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Output;

fn run(results: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = halfcheck();
    command
        .args(["run", "-j", "2", "--results"])
        .arg(results)
        .args(args)
        .arg(cases());
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("runs")
}

fn results(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("results.json")).expect("results.json");
    serde_json::from_str(&text).expect("json")
}

fn report(inputs: &[&Path], out: &Path) -> Output {
    let output = halfcheck()
        .arg("report")
        .args(inputs)
        .arg("-o")
        .arg(out)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", text(&output));
    output
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The rows of the front page's count table `id` (`verdict` or `status`): key -> one count
/// per run, in column order.
fn count_table(index: &str, id: &str) -> BTreeMap<String, Vec<usize>> {
    let start = index
        .find(&format!("id=\"counts-{id}\""))
        .unwrap_or_else(|| panic!("no counts-{id} table"));
    let table = &index[start..start + index[start..].find("</table>").expect("table ends")];
    let mut rows = BTreeMap::new();
    for cell in table.split("<td class=\"num\" data-key=\"").skip(1) {
        let (key, rest) = cell.split_once("\">").expect("key");
        let n: usize = rest[..rest.find('<').expect("cell ends")]
            .parse()
            .expect("a count");
        rows.entry(key.replace("&#39;", "'"))
            .or_insert_with(Vec::new)
            .push(n);
    }
    rows
}

/// Counts per verdict (`unjudged` for none) or status, straight from results.json.
fn expected_counts(results: &Value, field: &str) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for test in results["tests"].as_object().expect("tests").values() {
        let key = test[field].as_str().unwrap_or("unjudged").to_string();
        *counts.entry(key).or_insert(0) += 1;
    }
    counts
}

/// Checks the front page's counts against each run's results.json, in column order.
fn check_counts(index: &str, runs: &[&Value]) {
    for field in ["verdict", "status"] {
        let table = count_table(index, field);
        for (column, run) in runs.iter().enumerate() {
            let expected = expected_counts(run, field);
            let shown: BTreeMap<String, usize> = table
                .iter()
                .map(|(k, counts)| (k.clone(), counts[column]))
                .filter(|(_, n)| *n > 0)
                .collect();
            assert_eq!(shown, expected, "{field} counts of run {column}");
        }
    }
}

/// The `href`/`src` targets of a page.
fn targets(page: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
        for piece in page.split(attr).skip(1) {
            out.push(piece[..piece.find('"').expect("quoted")].replace("&amp;", "&"));
        }
    }
    out
}

/// Every link and image of every page resolves to a file of the site (and a same-page
/// anchor to an element of the page); every PNG decodes; nothing points outside the site.
fn check_site(site: &Path) -> usize {
    let mut checked = 0;
    let files = files_under(site);
    for file in &files {
        match file.extension().and_then(|e| e.to_str()) {
            Some("png") => {
                let bytes = std::fs::read(file).expect("png");
                image::load_from_memory(&bytes)
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            }
            Some("html") => {
                let page = read(file);
                for target in targets(&page) {
                    assert!(
                        !target.contains("://") && !target.starts_with('/'),
                        "{}: {target} leaves the site",
                        file.display()
                    );
                    let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
                    let resolved = if path.is_empty() {
                        file.clone()
                    } else {
                        file.parent().expect("dir").join(path)
                    };
                    assert!(
                        resolved.is_file(),
                        "{}: {target} does not resolve",
                        file.display()
                    );
                    if !anchor.is_empty() {
                        let text = read(&resolved);
                        assert!(
                            text.contains(&format!("id=\"{anchor}\"")),
                            "{}: {target}: no such anchor",
                            file.display()
                        );
                    }
                    checked += 1;
                }
            }
            _ => {}
        }
    }
    checked
}

/// Names listed in one section (`regressions`, `fixes`, ...) of `halfcheck compare`'s output.
fn compare_section(output: &str, section: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut inside = false;
    for line in output.lines() {
        if !line.starts_with(' ') {
            inside = line.starts_with(&format!("{section} ("));
        } else if inside {
            let name = line.trim().split(": ").next().expect("name");
            names.insert(name.to_string());
        }
    }
    names
}

/// The test names linked from the front page's table of class `class`.
fn front_table(index: &str, class: &str) -> BTreeSet<String> {
    let Some(start) = index.find(&format!("class=\"sortable {class}\"")) else {
        return BTreeSet::new();
    };
    let table = &index[start..start + index[start..].find("</table>").expect("ends")];
    table
        .split("<tr><td><a href=\"")
        .skip(1)
        .map(|row| {
            let text = &row[row.find("\">").expect("link") + 2..];
            text[..text.find("</a>").expect("link ends")].to_string()
        })
        .collect()
}

/// The text a page shows for an observed value of results.json (a binary32 value).
fn shown(v: &Value) -> String {
    format!("{}", v.as_f64().expect("number") as f32)
}

#[test]
fn report_of_llvmpipe_and_softpipe_on_cases_matches_their_results() {
    if !have_gl() {
        return;
    }
    let root = temp_dir("report-gl");
    let (llvmpipe, softpipe) = (root.join("llvmpipe"), root.join("softpipe"));
    // llvmpipe's run writes its own report (the default); softpipe's does not.
    let first = run(
        &llvmpipe,
        &["--backend", "gl"],
        &[("GALLIUM_DRIVER", "llvmpipe")],
    );
    let second = run(
        &softpipe,
        &["--backend", "gl", "--no-report"],
        &[("GALLIUM_DRIVER", "softpipe")],
    );
    assert!(first.status.success(), "{}", text(&first));
    // softpipe fails the cases' expected values, which are binary16's.
    assert_eq!(second.status.code(), Some(1), "{}", text(&second));
    assert!(text(&first).contains("report: "), "{}", text(&first));
    assert!(!softpipe.join("report").exists());
    let (old, new) = (results(&llvmpipe), results(&softpipe));

    // The report run writes by default: one run, its counts, no comparison.
    let own = read(&llvmpipe.join("report/index.html"));
    check_counts(&own, &[&old]);
    assert!(own.contains("llvmpipe (LLVM"), "renderer missing");
    check_site(&llvmpipe.join("report"));

    let site = root.join("site");
    report(&[&llvmpipe, &softpipe], &site);
    let index = read(&site.join("index.html"));
    check_counts(&index, &[&old, &new]);

    // Every regression `halfcheck compare` finds is on the front page, and nothing else is.
    let compared = halfcheck()
        .arg("compare")
        .arg(llvmpipe.join("results.json"))
        .arg(softpipe.join("results.json"))
        .output()
        .expect("runs");
    let compared = text(&compared);
    let regressions = compare_section(&compared, "regressions");
    assert_eq!(front_table(&index, "regressions"), regressions);
    assert!(index.contains(&format!(
        "<strong>{} regressions</strong>",
        regressions.len()
    )));
    // ... and they are the lost lowerings the results show: every test lowered on llvmpipe
    // and not lowered on softpipe is one.
    let lost: BTreeSet<String> = old["tests"]
        .as_object()
        .expect("tests")
        .iter()
        .filter(|(name, t)| {
            t["verdict"] == "lowered" && new["tests"][name.as_str()]["verdict"] == "not-lowered"
        })
        .map(|(name, _)| name.clone())
        .collect();
    assert!(lost.len() > 150, "{}", lost.len());
    assert!(lost.is_subset(&regressions));

    // A regressed test's page shows both runs' observed values, its verdicts, the lowered
    // operations in its source and the emulator's images.
    let name = "cases/arithmetic/add_scalar.shader_test";
    let page = read(&site.join("tests/cases@arithmetic@add_scalar.html"));
    for run in [&old, &new] {
        let test = &run["tests"][name];
        let observed = shown(&test["probes"][0]["observed"][0]);
        assert!(
            page.contains(&format!(">{observed}<")),
            "{observed} missing"
        );
        assert!(page.contains(test["verdict"].as_str().expect("verdict")));
    }
    assert!(
        page.contains("<mark class=\"op lowered\""),
        "no lowered operation marked"
    );
    assert!(page.contains("-highp.png") && page.contains("-mediump.png"));
    assert!(page.contains("GALLIUM_DRIVER=softpipe"), "rerun command");

    // The matrix has the operations the cases exercise, lowered on llvmpipe, not on softpipe.
    let matrix = read(&site.join("matrix.html"));
    for op in [
        "<code>+</code>",
        "<code>sin()</code>",
        "<code>texture2D()</code>",
    ] {
        assert!(matrix.contains(op), "{op} not in the matrix");
    }
    assert!(matrix.contains("cell v-lowered") && matrix.contains("cell v-not-lowered"));

    assert!(check_site(&site) > 1000);
}

#[test]
fn report_of_emulator_runs_shows_what_lowering_changes_without_a_driver() {
    let root = temp_dir("report-emu");
    let (highp, mediump) = (root.join("highp"), root.join("mediump"));
    let filter = [
        "-t",
        "^cases/arithmetic/",
        "--no-report",
        "--backend",
        "emu",
    ];
    // The mediump run keeps its framebuffers: the observed image and |observed - highp|.
    let a = run(
        &mediump,
        &[&filter[..], &["--emu-mode", "mediump", "--framebuffers"]].concat(),
        &[],
    );
    let b = run(
        &highp,
        &[&filter[..], &["--emu-mode", "highp"]].concat(),
        &[],
    );
    assert!(a.status.success(), "{}", text(&a));
    assert_eq!(b.status.code(), Some(1), "{}", text(&b));
    let site = root.join("site");
    let output = halfcheck()
        .args(["report", "--baseline"])
        .arg(&mediump)
        .arg(highp.join("results.json"))
        .arg("-o")
        .arg(&site)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", text(&output));
    let index = read(&site.join("index.html"));
    check_counts(&index, &[&results(&mediump), &results(&highp)]);
    let regressions = front_table(&index, "regressions");
    assert!(
        regressions.contains("cases/arithmetic/add_scalar.shader_test"),
        "{regressions:?}"
    );
    check_site(&site);
    let page = read(&site.join("tests/cases@arithmetic@add_scalar.html"));
    assert!(
        page.contains("cases@arithmetic@add_scalar-run0-observed.png"),
        "no observed image"
    );
    // fract(a + b) is 0.25 lowered and 0.48999 at highp on every pixel.
    assert!(
        page.contains("|observed − highp| on mediump; largest 0.23999"),
        "no heat map"
    );
    // Issue 25, item 6: the output is 983 binary16 ULPs from the exact value, because the
    // test amplifies on purpose; the binary16 addition itself erred by 0.48 ULP.
    let red = &results(&mediump)["tests"]["cases/arithmetic/add_scalar.shader_test"]["probes"][0]
        ["channels"][0];
    assert_eq!(red["verdict"], "lowered", "{red}");
    assert!(
        red["ulp16_error"].as_f64().is_some_and(|e| e > 900.0),
        "{red}"
    );
    assert_eq!(red["operation_error"]["operation"], "add", "{red}");
    assert_eq!(red["operation_error"]["ulp16"], 0.48046875, "{red}");
    assert!(
        page.contains("0.48 ULP16 in add"),
        "no operation error on the page"
    );

    // Three nights: lowered twice, then not: each regression first appeared on the third.
    let nights: Vec<PathBuf> = (1..=3).map(|n| root.join(format!("night{n}"))).collect();
    for (night, from) in nights.iter().zip([&mediump, &mediump, &highp]) {
        std::fs::create_dir_all(night).expect("night dir");
        std::fs::copy(from.join("results.json"), night.join("results.json")).expect("copy");
    }
    let history = root.join("history");
    let output = halfcheck()
        .args(["report", "--history"])
        .args(&nights)
        .arg("-o")
        .arg(&history)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", text(&output));
    let page = read(&history.join("history.html"));
    let row = page
        .split("<tr>")
        .find(|r| r.contains(">cases/arithmetic/add_scalar.shader_test<"))
        .expect("add_scalar regressed");
    assert!(
        row.contains("pass, lowered") && row.contains(">night3<"),
        "{row}"
    );
    assert_eq!(
        page.matches(">night1<").count(),
        1,
        "the trend table lists each night once"
    );
    check_site(&history);
}

/// `scripts/report-screenshots.sh` on `site`, screenshots into `out`, with `chromium`.
fn screenshots(site: &Path, out: &Path, chromium: &Path) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/report-screenshots.sh");
    std::process::Command::new(script)
        .arg(site)
        .arg(out)
        .env("CHROMIUM", chromium)
        .output()
        .expect("runs")
}

/// The pages `run` writes open in headless Chromium without a console message (an exception
/// in report.js, a resource that does not load), and their screenshots are images with
/// something drawn; a report.js that throws fails the same check, naming each page.
#[test]
fn the_report_opens_in_chromium_without_console_messages() {
    let Some(chromium) = halfcheck_test_support::chromium() else {
        return;
    };
    let root = temp_dir("report-chromium");
    let results = root.join("run");
    let ran = run(
        &results,
        &["-t", "^cases/arithmetic/", "--backend", "emu"],
        &[],
    );
    assert!(ran.status.success(), "{}", text(&ran));
    let site = results.join("report");
    let shots = screenshots(&site, &root.join("shots"), &chromium);
    assert!(shots.status.success(), "{}", text(&shots));
    for name in ["front", "matrix", "test"] {
        let path = root.join("shots").join(format!("{name}.png"));
        let image = image::open(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .to_rgb8();
        assert_eq!(image.width(), 1400, "{name}");
        let colours: BTreeSet<[u8; 3]> = image.pixels().map(|p| p.0).collect();
        assert!(colours.len() > 16, "{name}: {} colours", colours.len());
    }
    let script = site.join("report.js");
    std::fs::write(
        &script,
        read(&script) + "\nthrow new Error(\"injected\");\n",
    )
    .expect("writes");
    let broken = screenshots(&site, &root.join("broken"), &chromium);
    let said = text(&broken);
    assert!(!broken.status.success(), "{said}");
    assert!(said.contains("Uncaught Error: injected"), "{said}");
    assert!(said.contains("console messages on matrix.html"), "{said}");
}

#[test]
fn report_of_a_missing_results_file_fails_naming_it() {
    let missing = PathBuf::from("/nonexistent/results.json");
    let output = halfcheck()
        .arg("report")
        .arg(&missing)
        .arg("-o")
        .arg(temp_dir("report-missing"))
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output).contains("/nonexistent/results.json"),
        "{}",
        text(&output)
    );
}
