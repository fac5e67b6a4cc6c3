//! The `uniform TYPE NAME VALUES...` command: `glUniform*` by type.
//!
//! The name goes to `glGetUniformLocation` whole, so array elements (`a[2]`) and struct
//! members (`s.m`, `s.a[1].b`) work; a name that is a number is used as the location, as in
//! piglit. Several values' worth sets consecutive array elements. Samplers are set with
//! `uniform int`. A name the program does not have fails the test, as piglit does.

use super::Stop;
use glow::HasContext;
use halfcheck_piglit::shader_test::{Scalar, UniformSet, UniformType};

/// Sets one uniform of the program in use.
pub(super) fn set(
    gl: &glow::Context,
    program: glow::Program,
    set: &UniformSet,
) -> Result<(), Stop> {
    let location = location(gl, program, &set.name)?;
    let per_value = set.ty.components();
    let count = set.values.len() / per_value.max(1);
    if count == 0 {
        return Err(Stop::fail(format!(
            "uniform {} needs {per_value} values, got {}",
            set.name,
            set.values.len()
        )));
    }
    let values = &set.values[..count * per_value];
    let loc = Some(&location);
    let floats: Vec<f32> = values.iter().map(|&v| as_f32(v)).collect();
    let ints: Vec<i32> = values.iter().map(|&v| as_i32(v)).collect();
    let uints: Vec<u32> = values.iter().map(|&v| as_u32(v)).collect();
    // SAFETY: the slices hold `count` whole values of the declared type.
    unsafe {
        match set.ty {
            UniformType::Float(1) => gl.uniform_1_f32_slice(loc, &floats),
            UniformType::Float(2) => gl.uniform_2_f32_slice(loc, &floats),
            UniformType::Float(3) => gl.uniform_3_f32_slice(loc, &floats),
            UniformType::Float(4) => gl.uniform_4_f32_slice(loc, &floats),
            UniformType::Int(1) | UniformType::Bool(1) => gl.uniform_1_i32_slice(loc, &ints),
            UniformType::Int(2) | UniformType::Bool(2) => gl.uniform_2_i32_slice(loc, &ints),
            UniformType::Int(3) | UniformType::Bool(3) => gl.uniform_3_i32_slice(loc, &ints),
            UniformType::Int(4) | UniformType::Bool(4) => gl.uniform_4_i32_slice(loc, &ints),
            UniformType::Uint(1) => gl.uniform_1_u32_slice(loc, &uints),
            UniformType::Uint(2) => gl.uniform_2_u32_slice(loc, &uints),
            UniformType::Uint(3) => gl.uniform_3_u32_slice(loc, &uints),
            UniformType::Uint(4) => gl.uniform_4_u32_slice(loc, &uints),
            UniformType::Mat(2, 2) => gl.uniform_matrix_2_f32_slice(loc, false, &floats),
            UniformType::Mat(2, 3) => gl.uniform_matrix_2x3_f32_slice(loc, false, &floats),
            UniformType::Mat(2, 4) => gl.uniform_matrix_2x4_f32_slice(loc, false, &floats),
            UniformType::Mat(3, 2) => gl.uniform_matrix_3x2_f32_slice(loc, false, &floats),
            UniformType::Mat(3, 3) => gl.uniform_matrix_3_f32_slice(loc, false, &floats),
            UniformType::Mat(3, 4) => gl.uniform_matrix_3x4_f32_slice(loc, false, &floats),
            UniformType::Mat(4, 2) => gl.uniform_matrix_4x2_f32_slice(loc, false, &floats),
            UniformType::Mat(4, 3) => gl.uniform_matrix_4x3_f32_slice(loc, false, &floats),
            UniformType::Mat(4, 4) => gl.uniform_matrix_4_f32_slice(loc, false, &floats),
            other => {
                return Err(Stop::skip(format!(
                    "uniform type {other:?} is not supported on GL ES"
                )))
            }
        }
    }
    Ok(())
}

fn location(
    gl: &glow::Context,
    program: glow::Program,
    name: &str,
) -> Result<glow::UniformLocation, Stop> {
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        return name
            .parse()
            .map(glow::NativeUniformLocation)
            .map_err(|_| Stop::fail(format!("bad uniform location \"{name}\"")));
    }
    // SAFETY: a name lookup in a linked program of this context.
    unsafe { gl.get_uniform_location(program, name) }
        .ok_or_else(|| Stop::fail(format!("cannot get location of uniform \"{name}\"")))
}

fn as_f32(value: Scalar) -> f32 {
    match value {
        Scalar::Float(f) => f as f32,
        Scalar::Int(i) => i as f32,
        Scalar::Uint(u) => u as f32,
    }
}

fn as_i32(value: Scalar) -> i32 {
    match value {
        Scalar::Float(f) => f as i32,
        Scalar::Int(i) => i as i32,
        Scalar::Uint(u) => u as i32,
    }
}

fn as_u32(value: Scalar) -> u32 {
    match value {
        Scalar::Float(f) => f as u32,
        Scalar::Int(i) => i as u32,
        Scalar::Uint(u) => u as u32,
    }
}
