//! Drawing: `draw rect` (plain, `ortho`, `tex`, instanced, `patch`) and `draw arrays` over
//! the `[vertex data]` table.
//!
//! `draw rect` feeds a triangle strip of four `vec4` corners to attribute 0 (`piglit_vertex`)
//! and, for `tex`, `vec2` coordinates to attribute 1 (`piglit_texcoord`), from a buffer and
//! vertex array of its own so the test's vertex data stays bound, as piglit does on ES 3.
//! `ortho` maps window pixels to NDC with piglit's arithmetic. `[vertex data]` columns go to
//! the attributes of the same name (or number), one interleaved float buffer.

use super::program::{ATTRIB_POS, ATTRIB_TEX};
use super::Stop;
use crate::backend::piglit::draw as piglit;
use crate::shader_test::{AttribType, RectMode, VertexColumn, VertexData};
use glow::HasContext;

/// A rectangle to draw and how.
pub struct Rect {
    /// `x y w h` in NDC (plain, tex) or window pixels (ortho).
    pub rect: [f32; 4],
    /// Coordinate mode.
    pub mode: RectMode,
    /// Draw as `GL_PATCHES` of 4 vertices.
    pub patch: bool,
    /// Instance count (1 for `draw rect`).
    pub instances: u32,
}

/// Draws a rectangle; `window` is piglit's window size, `restore` the test's vertex array.
pub fn rect(
    gl: &glow::Context,
    draw: &Rect,
    window: (u32, u32),
    restore: Option<glow::VertexArray>,
) -> Result<(), Stop> {
    let corners = piglit::rect(draw.rect, draw.mode, window);
    let mut data: Vec<f32> = corners.positions.iter().flatten().copied().collect();
    if let Some(texcoords) = corners.texcoords {
        data.extend(texcoords.iter().flatten());
    }
    let has_tex = matches!(draw.mode, RectMode::Tex(_));
    let instances = i32::try_from(draw.instances).map_err(|_| Stop::fail("too many instances"))?;
    // SAFETY: a temporary vertex array and buffer hold `data`; the attribute pointers stay
    // inside it; everything is unbound and deleted before returning.
    unsafe {
        let vao = gl.create_vertex_array().map_err(Stop::error)?;
        gl.bind_vertex_array(Some(vao));
        let buffer = gl.create_buffer().map_err(Stop::error)?;
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
        gl.buffer_data_u8_slice(
            glow::ARRAY_BUFFER,
            f32_bytes(&data).as_slice(),
            glow::STATIC_DRAW,
        );
        gl.vertex_attrib_pointer_f32(ATTRIB_POS, 4, glow::FLOAT, false, 0, 0);
        gl.enable_vertex_attrib_array(ATTRIB_POS);
        if has_tex {
            gl.vertex_attrib_pointer_f32(ATTRIB_TEX, 2, glow::FLOAT, false, 0, 16 * 4);
            gl.enable_vertex_attrib_array(ATTRIB_TEX);
        }
        let mode = if draw.patch {
            gl.patch_parameter_i32(glow::PATCH_VERTICES, 4);
            glow::PATCHES
        } else {
            glow::TRIANGLE_STRIP
        };
        if instances > 1 {
            gl.draw_arrays_instanced(mode, 0, 4, instances);
        } else {
            gl.draw_arrays(mode, 0, 4);
        }
        gl.bind_buffer(glow::ARRAY_BUFFER, None);
        gl.delete_buffer(buffer);
        gl.bind_vertex_array(restore);
        gl.delete_vertex_array(vao);
    }
    Ok(())
}

/// `draw arrays [instanced] MODE first count [instances]`; `rows` is the vertex data's size.
pub fn arrays(
    gl: &glow::Context,
    mode: &str,
    first: i32,
    count: i32,
    instances: Option<u32>,
    rows: Option<usize>,
) -> Result<(), Stop> {
    let mode = primitive(mode)?;
    if first < 0 {
        return Err(Stop::fail("draw arrays 'first' must be >= 0"));
    }
    if count <= 0 {
        return Err(Stop::fail("draw arrays 'count' must be > 0"));
    }
    if let Some(rows) = rows {
        if first as usize >= rows || count as usize > rows - first as usize {
            return Err(Stop::fail(format!(
                "draw arrays cannot draw beyond {rows} rows"
            )));
        }
    }
    // SAFETY: the range was checked against the vertex data uploaded for this program.
    unsafe {
        match instances {
            Some(n) => {
                let n = i32::try_from(n).map_err(|_| Stop::fail("too many instances"))?;
                gl.draw_arrays_instanced(mode, first, count, n);
            }
            None => gl.draw_arrays(mode, first, count),
        }
    }
    Ok(())
}

fn primitive(name: &str) -> Result<u32, Stop> {
    let bare = name.strip_prefix("GL_").unwrap_or(name);
    Ok(match bare {
        "POINTS" => glow::POINTS,
        "LINES" => glow::LINES,
        "LINE_LOOP" => glow::LINE_LOOP,
        "LINE_STRIP" => glow::LINE_STRIP,
        "TRIANGLES" => glow::TRIANGLES,
        "TRIANGLE_STRIP" => glow::TRIANGLE_STRIP,
        "TRIANGLE_FAN" => glow::TRIANGLE_FAN,
        "LINES_ADJACENCY" => glow::LINES_ADJACENCY,
        "LINE_STRIP_ADJACENCY" => glow::LINE_STRIP_ADJACENCY,
        "TRIANGLES_ADJACENCY" => glow::TRIANGLES_ADJACENCY,
        "TRIANGLE_STRIP_ADJACENCY" => glow::TRIANGLE_STRIP_ADJACENCY,
        "PATCHES" => glow::PATCHES,
        "QUADS" | "QUAD_STRIP" | "POLYGON" => {
            return Err(Stop::skip(format!("drawing mode {name} needs desktop GL")))
        }
        _ => return Err(Stop::fail(format!("unknown drawing mode \"{name}\""))),
    })
}

/// Uploads `[vertex data]` into a buffer and points the program's attributes at it.
///
/// Returns the buffer (to delete at the end) and the number of rows. Integer attributes fail
/// as in piglit, which cannot feed them on GL ES.
pub fn vertex_data(
    gl: &glow::Context,
    program: glow::Program,
    data: &VertexData,
) -> Result<(glow::Buffer, usize), Stop> {
    let per_row: usize = data.columns.iter().map(|c| c.components as usize).sum();
    let mut floats = Vec::with_capacity(per_row * data.rows.len());
    for row in &data.rows {
        if row.value.len() != per_row {
            return Err(Stop::fail(format!(
                "[vertex data] line {} has {} values, the header {per_row}",
                row.line,
                row.value.len()
            )));
        }
        let mut values = row.value.iter();
        for column in &data.columns {
            for &v in values.by_ref().take(column.components as usize) {
                floats.push(match column.ty {
                    AttribType::Half => half::f16::from_f64(v).to_f32(),
                    _ => v as f32,
                });
            }
        }
    }
    let stride = (per_row * 4) as i32;
    // SAFETY: the buffer holds every row; each attribute pointer stays inside one row.
    unsafe {
        let buffer = gl.create_buffer().map_err(Stop::error)?;
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
        gl.buffer_data_u8_slice(
            glow::ARRAY_BUFFER,
            f32_bytes(&floats).as_slice(),
            glow::STATIC_DRAW,
        );
        let mut offset = 0;
        for column in &data.columns {
            let (index, size) = attribute(gl, program, column)?;
            gl.vertex_attrib_pointer_f32(index, size, glow::FLOAT, false, stride, offset);
            gl.enable_vertex_attrib_array(index);
            offset += column.components as i32 * 4;
        }
        Ok((buffer, data.rows.len()))
    }
}

/// The attribute slot and size one column fills: piglit's `index + matrix_column +
/// array_index * matrix_columns`.
fn attribute(
    gl: &glow::Context,
    program: glow::Program,
    column: &VertexColumn,
) -> Result<(u32, i32), Stop> {
    let glsl = column.glsl_type.as_str();
    let integer = ["int", "ivec", "uint", "uvec"]
        .iter()
        .any(|p| glsl.starts_with(p))
        || (glsl.parse::<u32>().is_ok()
            && !matches!(
                column.ty,
                AttribType::Float | AttribType::Half | AttribType::Double
            ));
    if integer {
        return Err(Stop::fail(
            "Test uses glVertexAttribIPointer(), which is unsupported.",
        ));
    }
    let base = match column.name.parse::<u32>() {
        Ok(index) => Some(index),
        // SAFETY: a name lookup in a linked program.
        Err(_) => unsafe { gl.get_attrib_location(program, &column.name) },
    }
    .ok_or_else(|| Stop::fail(format!("Unexpected vbo column name.  Got: {}", column.name)))?;
    let matrix_columns = glsl
        .trim_start_matches('d')
        .strip_prefix("mat")
        .and_then(|dims| dims.chars().next())
        .and_then(|c| c.to_digit(10))
        .unwrap_or(1);
    if !(1..=4).contains(&column.components) {
        return Err(Stop::fail(format!(
            "bad vertex data column {}: {} components",
            column.name, column.components
        )));
    }
    let slot = base + column.matrix_column + column.array_index * matrix_columns;
    Ok((slot, column.components as i32))
}

fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_ne_bytes()).collect()
}
