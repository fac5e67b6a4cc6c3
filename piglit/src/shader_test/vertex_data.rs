//! Parser for the `[vertex data]` table: one header line of columns, then rows of numbers.

use super::model::{AttribType, Located, VertexColumn, VertexData};
use super::tokens::{expected, float32, float64, int, uint, words, LineError, Word};

/// Collects `[vertex data]` lines one at a time.
#[derive(Debug, Default)]
pub(super) struct VertexDataBuilder {
    columns: Option<Vec<VertexColumn>>,
    rows: Vec<Located<Vec<f64>>>,
}

impl VertexDataBuilder {
    /// Adds one comment-free line: the header if none was seen yet, else a data row.
    pub(super) fn add_line(&mut self, line_no: usize, line: &str) -> Result<(), LineError> {
        let words = words(line);
        if words.is_empty() {
            return Ok(());
        }
        let Some(columns) = &self.columns else {
            self.columns = Some(
                words
                    .iter()
                    .map(|&w| parse_column(w))
                    .collect::<Result<_, _>>()?,
            );
            return Ok(());
        };
        let mut values = Vec::new();
        let mut next = words.iter();
        for column in columns {
            for _ in 0..column.components {
                let Some(&word) = next.next() else {
                    let end = words.last().map_or(0, |w| w.offset + w.text.len());
                    let wanted: u32 = columns.iter().map(|c| c.components).sum();
                    return Err(LineError::at(
                        end,
                        format!(
                            "expected {wanted} values per row (one per header component), found {}",
                            words.len()
                        ),
                    ));
                };
                values.push(parse_value(column.ty, word)?);
            }
        }
        if let Some(extra) = next.next() {
            return Err(expected(*extra, "the end of the row"));
        }
        self.rows.push(Located {
            line: line_no,
            value: values,
        });
        Ok(())
    }

    /// The finished table (an empty one when the section had no header).
    pub(super) fn finish(self) -> VertexData {
        VertexData {
            columns: self.columns.unwrap_or_default(),
            rows: self.rows,
        }
    }
}

/// Reads one value of a row in its column's type.
fn parse_value(ty: AttribType, word: Word<'_>) -> Result<f64, LineError> {
    match ty {
        AttribType::Double => float64(word),
        AttribType::Float | AttribType::Half => float32(word),
        AttribType::Uint | AttribType::Ubyte | AttribType::Ushort => uint(word).map(|v| v as f64),
        AttribType::Int | AttribType::Byte | AttribType::Short => int(word).map(|v| v as f64),
    }
}

/// Parses `NAME[INDEX]/GL_TYPE/GLSL_TYPE[/MATRIX_COLUMN]`.
fn parse_column(word: Word<'_>) -> Result<VertexColumn, LineError> {
    let parts: Vec<&str> = word.text.split('/').collect();
    let form = "a column header NAME/TYPE/GLSL_TYPE such as vertex/float/vec2";
    if !(3..=4).contains(&parts.len()) {
        return Err(expected(word, form));
    }
    let (name, array_index) = split_array_index(parts[0]).ok_or_else(|| expected(word, form))?;
    let ty = match parts[1] {
        "float" => AttribType::Float,
        "int" => AttribType::Int,
        "uint" => AttribType::Uint,
        "double" => AttribType::Double,
        "half" => AttribType::Half,
        "byte" => AttribType::Byte,
        "ubyte" => AttribType::Ubyte,
        "short" => AttribType::Short,
        "ushort" => AttribType::Ushort,
        _ => return Err(expected(
            word,
            "a GL type (float, int, uint, double, half, byte, ubyte, short, ushort) after the name",
        )),
    };
    let glsl_type = parts[2];
    let (components, matrix_columns) = glsl_shape(glsl_type).ok_or_else(|| {
        expected(
            word,
            "a GLSL type (float, vec3, ivec2, mat2x3, ...) or a component count 1-4",
        )
    })?;
    let matrix_column = match parts.get(3) {
        None => 0,
        Some(text) => text
            .parse::<u32>()
            .ok()
            .filter(|&c| c < matrix_columns.max(4))
            .ok_or_else(|| expected(word, "a matrix column index 0-3 after the GLSL type"))?,
    };
    Ok(VertexColumn {
        name: name.to_string(),
        array_index,
        ty,
        glsl_type: glsl_type.to_string(),
        components,
        matrix_column,
    })
}

/// `name[3]` -> (`name`, 3); `name` -> (`name`, 0).
fn split_array_index(text: &str) -> Option<(&str, u32)> {
    match text.strip_suffix(']') {
        None => Some((text, 0)).filter(|(n, _)| !n.is_empty()),
        Some(inner) => {
            let (name, index) = inner.split_once('[')?;
            Some((name, index.parse().ok()?)).filter(|(n, _)| !n.is_empty())
        }
    }
}

/// Components per column and number of matrix columns for a GLSL type or a count.
fn glsl_shape(glsl_type: &str) -> Option<(u32, u32)> {
    if let Ok(n) = glsl_type.parse::<u32>() {
        return (1..=4).contains(&n).then_some((n, 1));
    }
    let scalar = ["float", "int", "uint", "double", "bool"];
    if scalar.contains(&glsl_type) {
        return Some((1, 1));
    }
    for prefix in ["dvec", "ivec", "uvec", "bvec", "vec"] {
        if let Some(n) = glsl_type.strip_prefix(prefix) {
            let n: u32 = n.parse().ok()?;
            return (2..=4).contains(&n).then_some((n, 1));
        }
    }
    let dims = glsl_type
        .strip_prefix("dmat")
        .or_else(|| glsl_type.strip_prefix("mat"))?;
    let (cols, rows) = match dims.split_once('x') {
        Some((c, r)) => (c.parse::<u32>().ok()?, r.parse::<u32>().ok()?),
        None => {
            let n = dims.parse::<u32>().ok()?;
            (n, n)
        }
    };
    ((2..=4).contains(&cols) && (2..=4).contains(&rows)).then_some((rows, cols))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(lines: &[&str]) -> Result<VertexData, LineError> {
        let mut builder = VertexDataBuilder::default();
        for (i, line) in lines.iter().enumerate() {
            builder.add_line(i + 1, line)?;
        }
        Ok(builder.finish())
    }

    #[test]
    fn glsl_type_and_count_header_forms_read_the_same() {
        let a = table(&["vertex/float/vec2", "-1 -1", "1 -1"]).unwrap();
        let b = table(&["vertex/float/2", "-1 -1", "1 -1"]).unwrap();
        assert_eq!(a.rows, b.rows);
        assert_eq!(a.columns[0].components, 2);
        assert_eq!(b.columns[0].components, 2);
    }

    #[test]
    fn matrix_columns_and_array_index() {
        let t = table(&["m/float/mat2x3/1 bar[2]/int/int", "1 2 3 7"]).unwrap();
        assert_eq!(t.columns[0].components, 3);
        assert_eq!(t.columns[0].matrix_column, 1);
        assert_eq!(t.columns[1].name, "bar");
        assert_eq!(t.columns[1].array_index, 2);
        assert_eq!(t.rows[0].value, vec![1.0, 2.0, 3.0, 7.0]);
    }

    #[test]
    fn short_row_names_the_expected_count() {
        let e = table(&["vertex/float/vec3", "1 2"]).unwrap_err();
        assert!(e.message.contains("expected 3 values"), "{}", e.message);
    }

    #[test]
    fn unknown_gl_type_is_an_error() {
        let e = table(&["vertex/quux/vec3"]).unwrap_err();
        assert!(e.message.contains("expected a GL type"), "{}", e.message);
    }
}
