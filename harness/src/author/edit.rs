//! A test's text as `suggest` edits it: where each uniform is set (or goes, before the first
//! draw), the values written as piglit's `uniform TYPE NAME VALUES` lines, and a probe added to
//! a test with none. Every other character of the file stays as written.

use super::numbers::{format_value, number_spans, replace_trailing};
use super::uniforms::{Kind, Uniform};
use halfcheck_piglit::shader_test::{Command, ShaderTest};

/// A test's text, split so that uniform lines can be set and a probe added.
pub(crate) struct Editable {
    /// The file's lines, each with its line ending.
    pub lines: Vec<String>,
    /// Per searched uniform: the line setting it (`None`: inserted before the first draw).
    pub setters: Vec<Option<usize>>,
    /// Where an inserted uniform line goes.
    pub first_draw: usize,
    /// Whether the test has a probe of its own.
    pub has_probes: bool,
}

/// The file split for editing: where each uniform is set, where new ones go.
pub(crate) fn editable(text: &str, test: &ShaderTest, uniforms: &[Uniform]) -> Editable {
    let lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
    let test_start = lines
        .iter()
        .position(|l| l.trim() == "[test]")
        .map_or(lines.len(), |i| i + 1);
    let first_draw = lines[test_start.min(lines.len())..]
        .iter()
        .position(|l| {
            let l = l.trim_start();
            l.starts_with("draw") || l.starts_with("dispatch")
        })
        .map_or(0, |i| test_start + i);
    let setters = uniforms
        .iter()
        .map(|u| {
            let setting: Vec<usize> = (test_start..lines.len())
                .filter(|&i| {
                    let mut words = lines[i].split_whitespace();
                    words.next() == Some("uniform") && words.nth(1) == Some(u.name.as_str())
                })
                .collect();
            match setting.as_slice() {
                [one] => Some(*one),
                _ => None,
            }
        })
        .collect();
    let has_probes = test
        .commands
        .iter()
        .any(|c| matches!(c.value, Command::Probe(_)));
    Editable {
        lines,
        setters,
        first_draw,
        has_probes,
    }
}

/// A uniform's values as the file sets them (1 where it does not).
pub(crate) fn current(lines: &[String], setter: Option<usize>, uniform: &Uniform) -> Vec<f32> {
    let mut values = vec![1.0; uniform.components];
    if let Some(line) = setter.and_then(|i| lines.get(i)) {
        let numbers: Vec<f32> = number_spans(line)
            .into_iter()
            .filter_map(|s| line[s].parse::<f64>().ok())
            .map(|v| v as f32)
            .collect();
        let skip = numbers.len().saturating_sub(uniform.components);
        for (slot, v) in values.iter_mut().zip(&numbers[skip..]) {
            *slot = *v;
        }
    }
    values
}

/// `uniform TYPE NAME VALUES`.
pub(crate) fn uniform_line(uniform: &Uniform, values: &[f32]) -> String {
    let values: Vec<String> = values
        .iter()
        .map(|&v| match uniform.kind {
            Kind::Float => format_value(v),
            Kind::Int | Kind::Uint => format!("{}", v as i64),
        })
        .collect();
    format!(
        "uniform {} {} {}",
        uniform.type_name,
        uniform.name,
        values.join(" ")
    )
}

/// The file with `values` set (each uniform's line rewritten, or inserted before the first
/// draw), and `probe` appended (the window probe of a test with none).
pub(crate) fn with_values(
    editable: &Editable,
    uniforms: &[Uniform],
    values: &[Vec<f32>],
    probe: Option<&str>,
) -> String {
    let mut lines = editable.lines.clone();
    let mut inserted = String::new();
    for ((u, v), setter) in uniforms.iter().zip(values).zip(&editable.setters) {
        match setter {
            Some(i) => {
                let line = &lines[*i];
                let new = match u.kind {
                    Kind::Float => replace_trailing(line, v),
                    Kind::Int | Kind::Uint => None,
                };
                lines[*i] = new.unwrap_or_else(|| {
                    let end = if line.ends_with('\n') { "\n" } else { "" };
                    format!("{}{end}", uniform_line(u, v))
                });
            }
            None if editable.first_draw > 0 => {
                inserted.push_str(&uniform_line(u, v));
                inserted.push('\n');
            }
            None => {}
        }
    }
    if !inserted.is_empty() {
        lines.insert(editable.first_draw, inserted);
    }
    let mut text = lines.concat();
    if let Some(probe) = probe {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(probe);
        text.push('\n');
    }
    text
}
