//! Numbers where a `[test]` line writes them, so that `bless` and `suggest` rewrite only the
//! numbers and keep every other character of the line.

use std::ops::Range;

/// The byte ranges of the tokens of `line` that read as numbers, in order (tokens are split
/// at whitespace, commas and parentheses, as piglit's probe and uniform commands write them).
pub(crate) fn number_spans(line: &str) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    let mut start = None;
    let separator = |c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')');
    for (i, c) in line
        .char_indices()
        .chain(std::iter::once((line.len(), ' ')))
    {
        match (start, separator(c)) {
            (None, false) => start = Some(i),
            (Some(s), true) => {
                if line[s..i].parse::<f64>().is_ok() {
                    spans.push(s..i);
                }
                start = None;
            }
            _ => {}
        }
    }
    spans
}

/// `line` with its last `values.len()` numbers replaced by `values`, each written by
/// [`format_value`]; a number already equal to its new value (as binary32) is kept as
/// written. `None` when the line holds fewer numbers.
pub(crate) fn replace_trailing(line: &str, values: &[f32]) -> Option<String> {
    let spans = number_spans(line);
    let first = spans.len().checked_sub(values.len())?;
    let mut out = String::with_capacity(line.len());
    let mut at = 0;
    for (span, &value) in spans[first..].iter().zip(values) {
        out.push_str(&line[at..span.start]);
        let written = &line[span.clone()];
        let new = format_value(value);
        if same_value(written, &new) {
            out.push_str(written);
        } else {
            out.push_str(&new);
        }
        at = span.end;
    }
    out.push_str(&line[at..]);
    Some(out)
}

/// Whether two written numbers read as the same binary32 value.
fn same_value(a: &str, b: &str) -> bool {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(a), Ok(b)) => (a as f32).to_bits() == (b as f32).to_bits() || (a == 0.0 && b == 0.0),
        _ => false,
    }
}

/// A value as the corpus writes expected values: six significant digits, trailing zeros
/// dropped, at least one digit after the point (`0.25`, `0.333344`, `1.0`, `300.0`).
pub(crate) fn format_value(value: f32) -> String {
    let v = f64::from(value);
    if v == 0.0 || !v.is_finite() {
        return if v.is_finite() {
            "0.0".to_string()
        } else {
            format!("{v}")
        };
    }
    let magnitude = v.abs().log10().floor() as i32;
    let decimals = (5 - magnitude).clamp(1, 20) as usize;
    let mut text = format!("{v:.decimals$}");
    while text.ends_with('0') && !text.ends_with(".0") {
        text.pop();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_trailing_numbers_change_and_equal_ones_keep_their_spelling() {
        let line = "relative probe rect rgb (0, 0.5, 0.5, 0.5) (0.0, 1.0, 0.0)";
        assert_eq!(
            replace_trailing(line, &[0.25, 1.0, 0.0]).as_deref(),
            Some("relative probe rect rgb (0, 0.5, 0.5, 0.5) (0.25, 1.0, 0.0)")
        );
        assert_eq!(
            replace_trailing(
                "probe all rgba 0.333 0 0  1\t# note",
                &[0.333_344_35, 0.0, 0.0, 1.0]
            )
            .as_deref(),
            Some("probe all rgba 0.333344 0 0  1\t# note")
        );
        assert_eq!(
            replace_trailing("probe all rgba 1 2", &[1.0, 2.0, 3.0]),
            None
        );
    }

    #[test]
    fn values_are_written_with_six_significant_digits() {
        assert_eq!(format_value(0.25), "0.25");
        assert_eq!(format_value(1.0), "1.0");
        assert_eq!(format_value(300.0), "300.0");
        assert_eq!(format_value(0.000_123_456_78), "0.000123457");
        assert_eq!(format_value(-0.0), "0.0");
    }
}
