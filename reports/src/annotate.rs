//! Which operations of a shader the compiler resolved to which precision, and which it
//! lowered to 16 bits, placed on the source text: the per-test page's annotated source and
//! the coverage matrix's rows.
//!
//! The shader is compiled as the emulator runs it for a driver that lowers (Mesa's model,
//! Mesa's lowering and later pipeline). Each operation of the IR is placed on its operator
//! (the text between its two operands' spans) or, for a built-in function, on the function's
//! name (an IR node whose span is a whole call `name(...)`); an operation that is only a
//! conversion the lowering inserted is not shown.

use crate::model::{AnnotatedSource, Mark};
use halfcheck_compiler::ir::{visit, BaseType, Expr, ExprKind, Op, Precision};
use halfcheck_compiler::{compile_mapped, CompileOptions, Compiled, Diagnostic, Stage};
use std::collections::{BTreeMap, BTreeSet};

/// A shader section annotated, and the operations its lowp/mediump code exercises.
#[derive(Debug, Clone, Default)]
pub struct Annotation {
    /// The source with its marks.
    pub source: AnnotatedSource,
    /// Names of the operations with lowp or mediump precision (`*`, `sin()`, ...).
    pub operations: BTreeSet<String>,
}

/// Compiles `text` (one stage's source as the driver gets it) and annotates it. The first
/// `added_lines` lines of `text` are not in the `.shader_test` file (a `#version` piglit
/// adds); the next is its line `first_line`. An error is the compiler's diagnostic.
pub fn annotate(
    stage_name: &str,
    stage: Stage,
    text: &str,
    (added_lines, first_line): (usize, usize),
) -> Result<Annotation, Diagnostic> {
    let options = CompileOptions {
        final_pipeline: true,
        ..CompileOptions::default()
    };
    let compiled = compile_mapped(text, stage, stage_name, &options)?;
    let lines = line_starts(text);
    // Per range: the mark, and the highest precision of the operations placed there.
    let mut by_range: BTreeMap<(usize, usize), (Mark, Precision)> = BTreeMap::new();
    let mut operations = BTreeSet::new();
    visit::exprs(&compiled.module, &mut |e| {
        let Some(op) = operation(e) else {
            return;
        };
        let place = place(&compiled, e);
        let name = place
            .as_ref()
            .map_or_else(|| readable(&op).to_string(), |(_, name)| name.clone());
        if e.precision.is_lowerable() {
            operations.insert(name.clone());
        }
        let Some(range) = place.and_then(|(range, _)| source_range(&compiled, &lines, range))
        else {
            return;
        };
        let (mark, precision) = by_range.entry(range).or_insert_with(|| {
            let mark = Mark {
                start: range.0,
                end: range.1,
                operation: name,
                ..Mark::default()
            };
            (mark, Precision::None)
        });
        mark.lowered |= lowered(e);
        mark.ir.push(format!("{} {op}", e.ty.name()));
        *precision = (*precision).max(e.precision);
    });
    let mut marks: Vec<Mark> = Vec::new();
    for (mut mark, precision) in by_range.into_values() {
        mark.precision = precision_name(precision).to_string();
        // Marks never overlap: a later one starting inside the previous is dropped.
        if marks.last().is_none_or(|last| mark.start >= last.end) {
            marks.push(mark);
        }
    }
    Ok(Annotation {
        source: AnnotatedSource {
            stage: stage_name.to_string(),
            text: text.to_string(),
            added_lines,
            first_line,
            marks,
        },
        operations,
    })
}

/// The IR operation's name for a node that is an operation worth showing.
fn operation(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Op(op, _) if !is_inserted_conversion(*op) => Some(op.name().to_string()),
        ExprKind::Texture(t) => Some(t.op.name().to_string()),
        _ => None,
    }
}

/// How GLSL writes an IR operation that has no operator or call of its own in the source
/// (conversions, the selection of `?:`); other names as Mesa prints them.
fn readable(op: &str) -> &str {
    match op {
        "i2f" => "float(int)",
        "u2f" => "float(uint)",
        "b2f" | "b2f16" => "float(bool)",
        "f2i" => "int(float)",
        "f2u" => "uint(float)",
        "f2b" | "f162b" => "bool(float)",
        "i2b" => "bool(int)",
        "b2i" => "int(bool)",
        "csel" => "?:",
        other => other,
    }
}

/// Conversions the lowering pass inserts around 16-bit sub-trees.
fn is_inserted_conversion(op: Op) -> bool {
    matches!(
        op,
        Op::F2fmp | Op::F2f16 | Op::F162f | Op::I2imp | Op::U2ump | Op::I2i | Op::U2u
    )
}

/// Whether the node computes at 16 bits (its result, or for a comparison its operands).
fn lowered(e: &Expr) -> bool {
    let is_16 = |x: &Expr| {
        matches!(
            x.ty.base(),
            Some(BaseType::Float16 | BaseType::Int16 | BaseType::Uint16)
        )
    };
    is_16(e)
        || match &e.kind {
            ExprKind::Op(_, operands) => operands.iter().any(is_16),
            _ => false,
        }
}

fn precision_name(p: Precision) -> &'static str {
    match p {
        Precision::None => "none",
        other => other.keyword(),
    }
}

/// Where in the preprocessed text the node's operation is written, and its name there:
/// a built-in call's name, or the operator between two operands, or a prefix operator.
fn place(compiled: &Compiled, e: &Expr) -> Option<((usize, usize), String)> {
    let text = compiled.text.as_str();
    let span = e.span.range();
    let written = text.get(span.clone())?;
    if let Some(name) = call_name(written) {
        if is_constructor(name) {
            return None;
        }
        return Some(((span.start, span.start + name.len()), format!("{name}()")));
    }
    let ExprKind::Op(_, operands) = &e.kind else {
        return None;
    };
    match operands.as_slice() {
        [a, b] => {
            let (from, to) = (a.span.range().end, b.span.range().start);
            let between = text.get(from..to)?;
            let symbol = between.trim_matches(|c: char| c.is_whitespace() || c == ')' || c == '(');
            let is_operator = !symbol.is_empty()
                && symbol.len() <= 3
                && symbol.chars().all(|c| "+-*/%<>=!&|^".contains(c));
            let offset = between.find(symbol)?;
            is_operator.then(|| {
                let start = from + offset;
                ((start, start + symbol.len()), symbol.to_string())
            })
        }
        [_] => {
            let symbol = written.chars().next().filter(|c| "-!~".contains(*c))?;
            Some(((span.start, span.start + 1), symbol.to_string()))
        }
        _ => None,
    }
}

/// `name` when `written` is exactly one call `name(...)`.
fn call_name(written: &str) -> Option<&str> {
    let end = written
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(written.len());
    let name = written.get(..end)?;
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let rest = written.get(end..)?.trim_start();
    let inner = rest.strip_prefix('(')?.strip_suffix(')')?;
    // The parentheses must match: `f(a) * g(b)` is no single call.
    let mut depth = 0i32;
    for c in inner.chars() {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        if depth < 0 {
            return None;
        }
    }
    (depth == 0).then_some(name)
}

/// Type names used as constructors (their conversions are not operations to show).
fn is_constructor(name: &str) -> bool {
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == 'x');
    matches!(
        base,
        "float" | "int" | "uint" | "bool" | "vec" | "ivec" | "uvec" | "bvec" | "mat"
    )
}

/// Byte offsets where each line of `text` starts.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// A range of the preprocessed text as a range of the source text, when both ends land on
/// the same source line.
fn source_range(
    compiled: &Compiled,
    lines: &[usize],
    (start, end): (usize, usize),
) -> Option<(usize, usize)> {
    let to_source = |offset: usize| {
        let location = compiled
            .source_map
            .locate(u32::try_from(offset).unwrap_or(u32::MAX));
        let line_start = *lines.get(location.physical_line.checked_sub(1)? as usize)?;
        Some((
            location.physical_line,
            line_start + location.column.checked_sub(1)? as usize,
        ))
    };
    let (line, from) = to_source(start)?;
    let length = end.checked_sub(start)?;
    // The end is the start plus the length when the token was not produced by a macro.
    let (end_line, to) = to_source(end.checked_sub(1)?)?;
    (line == end_line && to + 1 == from + length).then_some((from, from + length))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(source: &str) -> Vec<(String, String, bool, String)> {
        let a = annotate("fragment", Stage::Fragment, source, (0, 1)).expect("compiles");
        a.source
            .marks
            .iter()
            .map(|m| {
                (
                    source[m.start..m.end].to_string(),
                    m.precision.clone(),
                    m.lowered,
                    m.operation.clone(),
                )
            })
            .collect()
    }

    #[test]
    fn mediump_operations_with_a_literal_are_lowered_and_placed_on_their_operator() {
        let src = "#version 100\nprecision mediump float;\nuniform float a, b;\n\
                   void main() { gl_FragColor = vec4(fract(a / b * 1024.0)); }\n";
        let got = marks(src);
        let find = |op: &str| got.iter().find(|m| m.0 == op).cloned();
        assert_eq!(
            find("/"),
            Some(("/".into(), "mediump".into(), true, "/".into()))
        );
        assert_eq!(
            find("*"),
            Some(("*".into(), "mediump".into(), true, "*".into()))
        );
        assert_eq!(
            find("fract"),
            Some(("fract".into(), "mediump".into(), true, "fract()".into()))
        );
    }

    #[test]
    fn highp_operations_are_marked_highp_and_not_lowered() {
        let src = "#version 100\nprecision highp float;\nuniform float a, b;\n\
                   void main() { gl_FragColor = vec4(a * b + 1.0); }\n";
        let a = annotate("fragment", Stage::Fragment, src, (0, 1)).expect("compiles");
        assert!(a.operations.is_empty(), "{:?}", a.operations);
        let plus = a
            .source
            .marks
            .iter()
            .find(|m| &src[m.start..m.end] == "+")
            .expect("+ marked");
        assert_eq!(plus.precision, "highp");
        assert!(!plus.lowered);
    }

    #[test]
    fn a_lone_mediump_operation_on_32_bit_values_stays_32_bit_as_on_llvmpipe() {
        let src = "#version 100\nprecision mediump float;\nuniform float a;\n\
                   void main() { gl_FragColor = vec4(fract(a)); }\n";
        let got = marks(src);
        assert_eq!(
            got,
            [(
                "fract".to_string(),
                "mediump".to_string(),
                false,
                "fract()".to_string()
            )]
        );
    }

    #[test]
    fn a_shader_that_does_not_compile_gives_the_diagnostic() {
        let e = annotate(
            "fragment",
            Stage::Fragment,
            "#version 100\nvoid main() { x; }",
            (0, 1),
        )
        .unwrap_err();
        assert_eq!(e.file, "fragment");
        assert!(e.message.contains("'x'"), "{e}");
        assert_eq!(e.location.map(|l| l.line), Some(2), "{e}");
    }
}
