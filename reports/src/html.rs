//! HTML building blocks shared by the pages: escaping, the page shell with its navigation,
//! verdict and status badges, number formatting and file names for tests.

use std::fmt::Write;

/// The stylesheet every page links (`style.css`).
pub const STYLE: &str = include_str!("assets/style.css");
/// The script every page loads (`report.js`): sorting and filtering of tables.
pub const SCRIPT: &str = include_str!("assets/report.js");

/// `text` with `&`, `<`, `>`, `"` and `'` escaped, for element content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The pages of the navigation bar: file name and title.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nav {
    /// `index.html`.
    Summary,
    /// `matrix.html`.
    Matrix,
    /// `tests.html`.
    Tests,
    /// `history.html`.
    History,
    /// A test's own page (under `tests/`).
    Test,
}

/// A whole page: `root` is the relative path back to the site's root (`""` or `"../"`).
pub fn page(title: &str, heading: &str, nav: Nav, root: &str, history: bool, body: &str) -> String {
    let mut links = vec![
        (Nav::Summary, "index.html", "Summary"),
        (Nav::Matrix, "matrix.html", "Lowering matrix"),
        (Nav::Tests, "tests.html", "All tests"),
    ];
    if history {
        links.push((Nav::History, "history.html", "History"));
    }
    let mut nav_html = String::new();
    for (kind, file, label) in links {
        let current = if kind == nav {
            " aria-current=\"page\""
        } else {
            ""
        };
        let _ = write!(nav_html, "<a href=\"{root}{file}\"{current}>{label}</a>");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title} · {site}</title>\n<link rel=\"stylesheet\" href=\"{root}style.css\">\n\
         <script src=\"{root}report.js\" defer></script>\n</head>\n<body>\n\
         <header><span class=\"site\">{site}</span><nav>{nav_html}</nav></header>\n\
         <main>\n<h1>{heading}</h1>\n{body}</main>\n</body>\n</html>\n",
        title = esc(title),
        site = esc("halfcheck report"),
        heading = heading,
    )
}

/// The CSS class of a verdict (`v-lowered`, ..., `v-other` for verdicts this report does not
/// know yet; `v-none` when unjudged or without a verdict).
pub fn verdict_class(verdict: Option<&str>) -> &'static str {
    match verdict {
        None => "v-none",
        Some("lowered") => "v-lowered",
        Some("partial") => "v-partial",
        Some("not-lowered") => "v-not-lowered",
        Some("out-of-bounds") => "v-out-of-bounds",
        Some("undetermined") => "v-undetermined",
        Some("kept-highp") => "v-kept-highp",
        Some("n/a") => "v-na",
        Some("unjudged") => "v-none",
        Some(_) => "v-other",
    }
}

/// A glyph that tells verdicts apart without colour.
pub fn verdict_glyph(verdict: &str) -> &'static str {
    match verdict {
        "lowered" => "●",
        "partial" => "◐",
        "not-lowered" => "○",
        "out-of-bounds" => "✖",
        "undetermined" => "?",
        "kept-highp" => "–",
        "n/a" => "·",
        "inconsistent" => "≠",
        "unjudged" => "∅",
        _ => "◇",
    }
}

/// A verdict badge (`no verdict` when the result has none).
pub fn verdict_badge(verdict: Option<&str>) -> String {
    match verdict {
        Some(v) => format!(
            "<span class=\"badge {}\">{} {}</span>",
            verdict_class(Some(v)),
            verdict_glyph(v),
            esc(v)
        ),
        None => "<span class=\"badge v-none\">no verdict</span>".to_string(),
    }
}

/// The CSS class of a status.
pub fn status_class(status: &str) -> &'static str {
    match status {
        "pass" => "s-pass",
        "warn" => "s-warn",
        "fail" => "s-fail",
        "skip" => "s-skip",
        "crash" | "timeout" | "error" => "s-broken",
        _ => "s-other",
    }
}

/// A status badge.
pub fn status_badge(status: &str) -> String {
    format!(
        "<span class=\"badge {}\">{}</span>",
        status_class(status),
        esc(status)
    )
}

/// A float as the shortest text that reads back the same, as a binary32 value when it is one
/// (`inf`, `-inf`, `NaN` spelt out).
pub fn num(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else if f64::from(x as f32) == x {
        format!("{}", x as f32)
    } else {
        format!("{x}")
    }
}

/// An error in ULPs, to three significant digits.
pub fn ulps(x: f64) -> String {
    if !x.is_finite() {
        return num(x);
    }
    if x == 0.0 {
        return "0".into();
    }
    if x >= 1000.0 {
        format!("{x:.3e}")
    } else {
        format!("{}", (x * 1000.0).round() / 1000.0)
    }
}

/// An interval as `[lo, hi]`.
pub fn interval((lo, hi): (f64, f64)) -> String {
    format!("[{}, {}]", num(lo), num(hi))
}

/// The file name of a test's page, unique per name: the name with `/` as `@` (as piglit
/// names tests) and anything but letters, digits, `-`, `_`, `.` and `@` as `_`.
pub fn test_file_stem(name: &str) -> String {
    let stem = name.strip_suffix(".shader_test").unwrap_or(name);
    stem.chars()
        .map(|c| match c {
            '/' => '@',
            c if c.is_ascii_alphanumeric() || "-_.@".contains(c) => c,
            _ => '_',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_markup_and_quotes() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn test_pages_are_named_like_piglit_tests_with_odd_characters_replaced() {
        assert_eq!(
            test_file_stem("arithmetic/add scalar?.shader_test"),
            "arithmetic@add_scalar_"
        );
    }

    #[test]
    fn numbers_read_back_exactly() {
        assert_eq!(num(0.489990234375), "0.48999023");
        assert_eq!(num(0.1), "0.1");
        assert_eq!(num(f64::from(0.1f32)), "0.1");
        assert_eq!(num(f64::NEG_INFINITY), "-inf");
        assert_eq!(ulps(8052900.0), "8.053e6");
        assert_eq!(ulps(0.12345), "0.123");
    }
}
