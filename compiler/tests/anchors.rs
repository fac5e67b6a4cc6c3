//! Every shader of the shared anchors parses: Mesa's lower-precision cases (JSON `source`
//! fields) and the Igalia mediump piglit tests.
//!
//! Without the anchors beside the repository these skip with a printed reason, unless
//! `HALFCHECK_REQUIRE_ANCHORS=1`.

use std::path::{Path, PathBuf};

use halfcheck_compiler::{parse_shader, Stage};
use halfcheck_test_support::anchors;

fn json_sources(path: &Path) -> Vec<(String, String, Option<String>)> {
    let file = path.display();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let cases: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let cases = cases.as_array().expect("a JSON array of cases");
    assert!(!cases.is_empty(), "{file} has no cases");
    cases
        .iter()
        .map(|case| {
            let name = case["name"].as_str().expect("name").to_owned();
            let source = case["source"].as_str().expect("source").to_owned();
            let vs = case
                .get("vs_source")
                .and_then(|v| v.as_str())
                .map(str::to_owned);
            (name, source, vs)
        })
        .collect()
}

fn assert_all_parse(file: &str) {
    let Some(path) = anchors(&format!("mesa-lower-precision/{file}")) else {
        return;
    };
    let mut failures = Vec::new();
    for (name, source, vs) in json_sources(&path) {
        if let Err(e) = parse_shader(&source, Stage::Fragment, &name) {
            failures.push(e.to_string());
        }
        if let Some(vs) = vs {
            if let Err(e) = parse_shader(&vs, Stage::Vertex, &name) {
                failures.push(e.to_string());
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_mesa_lower_precision_case_parses() {
    assert_all_parse("lower_precision_cases.json");
}

#[test]
fn every_mesa_gl_lower_mediump_case_parses() {
    assert_all_parse("gl_lower_mediump_cases.json");
}

/// The `[vertex shader]` and `[fragment shader]` sections of a `.shader_test` file.
fn shader_sections(text: &str) -> Vec<(Stage, String)> {
    let mut sections = Vec::new();
    let mut current: Option<(Stage, String)> = None;
    for line in text.lines() {
        if line.starts_with('[') {
            sections.extend(current.take());
            current = match line.trim() {
                "[vertex shader]" => Some((Stage::Vertex, String::new())),
                "[fragment shader]" => Some((Stage::Fragment, String::new())),
                _ => None,
            };
        } else if let Some((_, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    sections.extend(current);
    sections
}

fn shader_tests(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{dir:?}: {e}"));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            shader_tests(&path, out);
        } else if path.extension().is_some_and(|e| e == "shader_test") {
            out.push(path);
        }
    }
}

#[test]
fn every_igalia_mediump_shader_parses() {
    let Some(igalia) = anchors("igalia-mediump") else {
        return;
    };
    let mut files = Vec::new();
    shader_tests(&igalia, &mut files);
    assert_eq!(files.len(), 28, "expected the 28 Igalia mediump tests");
    let mut failures = Vec::new();
    let mut shaders = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        for (stage, source) in shader_sections(&text) {
            shaders += 1;
            if let Err(e) = parse_shader(&source, stage, &path.display().to_string()) {
                failures.push(e.to_string());
            }
        }
    }
    assert!(shaders >= 28, "found only {shaders} shaders");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
