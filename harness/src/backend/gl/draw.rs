//! Drawing: `draw rect` (plain, `ortho`, `tex`, instanced, `patch`) and `draw arrays` over
//! the `[vertex data]` table.
//!
//! `draw rect` feeds a triangle strip of four `vec4` corners to attribute 0 (`piglit_vertex`)
//! and, for `tex`, `vec2` coordinates to attribute 1 (`piglit_texcoord`), from a buffer and
//! vertex array of its own so the test's vertex data stays bound, as piglit does on ES 3.
//! The corners come from `backend::piglit::draw`. `[vertex data]` columns go to the
//! attributes of the same name (or number), one interleaved float buffer.

use super::program::{ATTRIB_POS, ATTRIB_TEX};
use super::Stop;
use glow::HasContext;
use halfcheck_piglit::device::{ArraysDraw, Primitive, RectDraw};
use halfcheck_piglit::shader_test::{AttribType, VertexColumn, VertexData};

/// Draws a rectangle's corners; `restore` is the test's vertex array, bound again after.
pub(super) fn rect(
    gl: &glow::Context,
    draw: &RectDraw,
    restore: Option<glow::VertexArray>,
) -> Result<(), Stop> {
    let corners = &draw.corners;
    let mut data: Vec<f32> = corners.positions.iter().flatten().copied().collect();
    if let Some(texcoords) = corners.texcoords {
        data.extend(texcoords.iter().flatten());
    }
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
        if corners.texcoords.is_some() {
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

/// `draw arrays [instanced] MODE first count [instances]`, its range already checked.
pub(super) fn arrays(gl: &glow::Context, draw: &ArraysDraw) -> Result<(), Stop> {
    let mode = primitive(draw.primitive);
    let too_many = || Stop::fail("draw arrays: too many vertices");
    let first = i32::try_from(draw.first).map_err(|_| too_many())?;
    let count = i32::try_from(draw.count).map_err(|_| too_many())?;
    // SAFETY: the loop checked the range against the vertex data uploaded for this program.
    unsafe {
        match draw.instances {
            Some(n) => {
                let n = i32::try_from(n).map_err(|_| Stop::fail("too many instances"))?;
                gl.draw_arrays_instanced(mode, first, count, n);
            }
            None => gl.draw_arrays(mode, first, count),
        }
    }
    Ok(())
}

fn primitive(primitive: Primitive) -> u32 {
    match primitive {
        Primitive::Points => glow::POINTS,
        Primitive::Lines => glow::LINES,
        Primitive::LineLoop => glow::LINE_LOOP,
        Primitive::LineStrip => glow::LINE_STRIP,
        Primitive::Triangles => glow::TRIANGLES,
        Primitive::TriangleStrip => glow::TRIANGLE_STRIP,
        Primitive::TriangleFan => glow::TRIANGLE_FAN,
        Primitive::LinesAdjacency => glow::LINES_ADJACENCY,
        Primitive::LineStripAdjacency => glow::LINE_STRIP_ADJACENCY,
        Primitive::TrianglesAdjacency => glow::TRIANGLES_ADJACENCY,
        Primitive::TriangleStripAdjacency => glow::TRIANGLE_STRIP_ADJACENCY,
        Primitive::Patches => glow::PATCHES,
    }
}

/// Uploads `[vertex data]` into a buffer and points the program's attributes at it.
///
/// Returns the buffer (to delete at the end). Integer attributes fail as in piglit, which
/// cannot feed them on GL ES.
pub(super) fn vertex_data(
    gl: &glow::Context,
    program: glow::Program,
    data: &VertexData,
) -> Result<glow::Buffer, Stop> {
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
        Ok(buffer)
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
