//! The GL context as a piglit [`Device`]: one test's program, objects and framebuffers.
//!
//! [`run`] makes a fresh window FBO, lets the shared command loop (`backend::piglit`) run the
//! test's commands on a [`GlDevice`], and deletes every GL object the test created before it
//! returns.

use super::context::{ContextInfo, ExtraFunctions};
use super::draw;
use super::probe;
use super::program::{self, Linked};
use super::target::Target;
use super::textures::{self, Textures};
use super::{state, uniforms, Stop};
use crate::backend::piglit::device::{ArraysDraw, Device, Program, Readback, RectDraw};
use crate::backend::piglit::probe::Region;
use crate::backend::piglit::{self as piglit};
use crate::results::TestResult;
use crate::shader_test::{
    BlitBuffer, FbTarget, ShaderTest, TextureCheckerboard, TextureRgbw, UniformSet,
};
use glow::HasContext;
use std::collections::BTreeMap;

/// Runs `test` (whose requirements were already checked) and reports its result.
pub fn run(
    gl: &glow::Context,
    info: &ContextInfo,
    extra: &ExtraFunctions,
    test: &ShaderTest,
) -> TestResult {
    let (width, height) = test.require.window_size();
    let mut device = match GlDevice::new(gl, info, extra, width, height) {
        Ok(device) => device,
        Err(stop) => return TestResult::with_status(stop.status, stop.reason),
    };
    let result = piglit::run(&mut device, test);
    device.delete();
    result
}

/// One test's GL state while its commands run.
struct GlDevice<'a> {
    gl: &'a glow::Context,
    info: &'a ContextInfo,
    extra: ExtraFunctions,
    window: Target,
    /// The FBO of the last `fb tex 2d`; draws and reads use it unless `fb [draw|read]
    /// winsys` moved one of them back to the window.
    fb_texture: Option<Target>,
    read_window: bool,
    draw_window: bool,
    /// `atomic counter buffer` objects by binding point.
    atomic_buffers: BTreeMap<u32, glow::Buffer>,
    program: Option<Linked>,
    vao: Option<glow::VertexArray>,
    vertex_buffer: Option<glow::Buffer>,
    textures: Textures,
}

impl<'a> GlDevice<'a> {
    /// A device drawing into a new `width` x `height` window FBO, with a vertex array bound.
    fn new(
        gl: &'a glow::Context,
        info: &'a ContextInfo,
        extra: &ExtraFunctions,
        width: u32,
        height: u32,
    ) -> Result<GlDevice<'a>, Stop> {
        let window = Target::window(gl, info, width, height)?;
        // SAFETY: a vertex array for the test's attributes, deleted in `delete`.
        let vao = unsafe { gl.create_vertex_array() }.ok();
        // SAFETY: binding the array just created.
        unsafe { gl.bind_vertex_array(vao) };
        Ok(GlDevice {
            gl,
            info,
            extra: *extra,
            window,
            fb_texture: None,
            read_window: false,
            draw_window: false,
            atomic_buffers: BTreeMap::new(),
            program: None,
            vao,
            vertex_buffer: None,
            textures: Textures::default(),
        })
    }

    /// The program when it linked.
    fn linked(&self) -> Option<glow::Program> {
        self.program.as_ref().filter(|p| p.ok).map(|p| p.program)
    }

    /// The framebuffer probes and blits read from (piglit's read FBO).
    fn read_target(&self) -> &Target {
        match &self.fb_texture {
            Some(target) if !self.read_window => target,
            _ => &self.window,
        }
    }

    /// The framebuffer draws and blits go to (piglit's draw FBO).
    fn draw_target(&self) -> &Target {
        match &self.fb_texture {
            Some(target) if !self.draw_window => target,
            _ => &self.window,
        }
    }

    /// Deletes every object the test made.
    fn delete(mut self) {
        let gl = self.gl;
        self.textures.delete_all(gl);
        // SAFETY: deleting objects this test created on the current context.
        unsafe {
            if let Some(program) = self.program.take() {
                gl.use_program(None);
                gl.delete_program(program.program);
            }
            if let Some(buffer) = self.vertex_buffer.take() {
                gl.delete_buffer(buffer);
            }
            for buffer in std::mem::take(&mut self.atomic_buffers).into_values() {
                gl.delete_buffer(buffer);
            }
            gl.bind_vertex_array(None);
            if let Some(vao) = self.vao.take() {
                gl.delete_vertex_array(vao);
            }
        }
        if let Some(target) = self.fb_texture.take() {
            target.delete(gl);
        }
        self.window.delete(gl);
    }
}

impl Device for GlDevice<'_> {
    fn name(&self) -> &'static str {
        "this GL ES context"
    }

    fn start(
        &mut self,
        test: &ShaderTest,
        logs: &mut BTreeMap<String, String>,
    ) -> Result<Program, Stop> {
        self.program = program::build(self.gl, test, logs)?;
        if let (Some(linked), Some(data)) = (self.linked(), &test.vertex_data) {
            self.vertex_buffer = Some(draw::vertex_data(self.gl, linked, data)?);
        }
        Ok(match &self.program {
            None => Program::Missing,
            Some(linked) if linked.ok => Program::Linked,
            Some(linked) => Program::NotLinked(linked.log_first_line.clone()),
        })
    }

    fn read_size(&self) -> (u32, u32) {
        let target = self.read_target();
        (target.width, target.height)
    }

    fn clear(&mut self, color: Option<[f32; 4]>, depth: Option<f64>) -> Result<(), Stop> {
        let gl = self.gl;
        let mut bits = 0;
        // SAFETY: setting clear values and clearing the bound FBO.
        unsafe {
            if let Some([r, g, b, a]) = color {
                gl.clear_color(r, g, b, a);
                bits |= glow::COLOR_BUFFER_BIT;
            }
            if let Some(depth) = depth {
                gl.clear_depth_f32(depth as f32);
                bits |= glow::DEPTH_BUFFER_BIT;
            }
            gl.clear(bits);
        }
        Ok(())
    }

    fn draw_rect(&mut self, rect: &RectDraw) -> Result<(), Stop> {
        draw::rect(self.gl, rect, self.vao)
    }

    fn draw_arrays(&mut self, arrays: &ArraysDraw) -> Result<(), Stop> {
        draw::arrays(self.gl, arrays)
    }

    fn set_uniform(&mut self, set: &UniformSet) -> Result<(), Stop> {
        let program = self
            .linked()
            .ok_or_else(|| Stop::error("no linked program"))?;
        uniforms::set(self.gl, program, set)
    }

    fn read(&mut self, region: Region) -> Result<Readback, Stop> {
        Ok(probe::read(self.gl, self.read_target(), region))
    }

    fn texture_rgbw(&mut self, texture: &TextureRgbw) -> Result<(), Stop> {
        self.textures.rgbw(self.gl, texture)
    }

    fn texture_checkerboard(&mut self, texture: &TextureCheckerboard) -> Result<(), Stop> {
        self.textures.checkerboard(self.gl, texture)
    }

    fn tex_parameter(&mut self, target: &str, parameter: &str, value: &str) -> Result<(), Stop> {
        textures::parameter(self.gl, target, parameter, value)
    }

    fn enable(&mut self, capability: &str, on: bool) -> Result<(), Stop> {
        state::enable(self.gl, self.info, capability, on)
    }

    fn blend_func(&mut self, src: &str, dst: &str) -> Result<(), Stop> {
        state::blend_func(self.gl, src, dst)
    }

    fn fb_tex_2d(&mut self, units: &[u32]) -> Result<(), Stop> {
        let gl = self.gl;
        let textures = units
            .iter()
            .map(|&unit| {
                self.textures
                    .get(unit)
                    .ok_or_else(|| Stop::fail(format!("no texture on unit {unit} for fb tex 2d")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(old) = self.fb_texture.take() {
            old.delete(gl);
        }
        self.fb_texture = Some(Target::textures(gl, &textures)?);
        self.read_window = false;
        self.draw_window = false;
        Ok(())
    }

    fn fb_winsys(&mut self, target: FbTarget) -> Result<(), Stop> {
        let binding = match target {
            FbTarget::Both => glow::FRAMEBUFFER,
            FbTarget::Draw => glow::DRAW_FRAMEBUFFER,
            FbTarget::Read => glow::READ_FRAMEBUFFER,
        };
        // SAFETY: binding the window FBO, which lives until the test ends.
        unsafe {
            self.gl
                .bind_framebuffer(binding, Some(self.window.framebuffer))
        };
        self.draw_window |= target != FbTarget::Read;
        self.read_window |= target != FbTarget::Draw;
        Ok(())
    }

    fn blit(&mut self, buffer: BlitBuffer, linear: bool) -> Result<(), Stop> {
        let (from, to) = (self.read_target(), self.draw_target());
        let mask = match buffer {
            BlitBuffer::Color => glow::COLOR_BUFFER_BIT,
            BlitBuffer::Depth => glow::DEPTH_BUFFER_BIT,
            BlitBuffer::Stencil => glow::STENCIL_BUFFER_BIT,
        };
        let filter = if linear { glow::LINEAR } else { glow::NEAREST };
        let size = |t: &Target| (t.width as i32, t.height as i32);
        let ((rw, rh), (dw, dh)) = (size(from), size(to));
        // SAFETY: a blit between the bound read and draw FBOs, then an error query.
        let error = unsafe {
            self.gl
                .blit_framebuffer(0, 0, rw, rh, 0, 0, dw, dh, mask, filter);
            self.gl.get_error()
        };
        if error != glow::NO_ERROR {
            return Err(Stop::fail(format!("glBlitFramebuffer error 0x{error:x}")));
        }
        Ok(())
    }

    fn atomic_counter_buffer(&mut self, binding: u32, count: u32) -> Result<(), Stop> {
        let gl = self.gl;
        let zeros = vec![0u8; count as usize * 4];
        // SAFETY: a new buffer bound at `binding` and filled; deleted in `delete`.
        unsafe {
            let buffer = gl.create_buffer().map_err(Stop::error)?;
            gl.bind_buffer_base(glow::ATOMIC_COUNTER_BUFFER, binding, Some(buffer));
            gl.buffer_data_u8_slice(glow::ATOMIC_COUNTER_BUFFER, &zeros, glow::STATIC_DRAW);
            if let Some(old) = self.atomic_buffers.insert(binding, buffer) {
                gl.delete_buffer(old);
            }
        }
        Ok(())
    }

    fn atomic_counter(&mut self, binding: u32, index: u32, value: u32) -> Result<(), Stop> {
        let Some(&buffer) = self.atomic_buffers.get(&binding) else {
            return Err(Stop::fail(format!(
                "atomic counter: no buffer at binding {binding} \
                 ('atomic counter buffer {binding} N' makes one)"
            )));
        };
        let offset = i32::try_from(u64::from(index) * 4)
            .map_err(|_| Stop::fail(format!("atomic counter index {index} is too large")))?;
        let gl = self.gl;
        // SAFETY: writing one counter of a buffer this test created.
        unsafe {
            gl.bind_buffer_base(glow::ATOMIC_COUNTER_BUFFER, binding, Some(buffer));
            gl.buffer_sub_data_u8_slice(glow::ATOMIC_COUNTER_BUFFER, offset, &value.to_ne_bytes());
        }
        Ok(())
    }

    fn fbfetch_barrier(&mut self) -> Result<(), Stop> {
        match self.extra.framebuffer_fetch_barrier {
            // SAFETY: the entry point was loaded for this context, which is current.
            Some(barrier) => {
                unsafe { barrier() };
                Ok(())
            }
            None => Err(Stop::skip(
                "glFramebufferFetchBarrierEXT is not supported on this context",
            )),
        }
    }
}
