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
use crate::results::TestResult;
use glow::HasContext;
use halfcheck_piglit::device::{ArraysDraw, Device, Program, Readback, RectDraw};
use halfcheck_piglit::probe::Region;
use halfcheck_piglit::shader_test::{
    BlitBuffer, FbBinding, FbTarget, ProbedBuffer, ShaderTest, TextureCheckerboard, TextureInteger,
    TextureRgbw, TextureStorage, UniformSet,
};
use halfcheck_piglit::WindowImage;
use halfcheck_piglit::{self as piglit};
use std::collections::BTreeMap;

/// Runs `test` (whose requirements were already checked) and reports its result, with the
/// final window framebuffer when `keep_window` asks for it; `exact` asks for a window that
/// holds the exact floats the shaders write.
pub(super) fn run(
    gl: &glow::Context,
    info: &ContextInfo,
    extra: &ExtraFunctions,
    test: &ShaderTest,
    keep_window: bool,
    exact: bool,
) -> (TestResult, Option<WindowImage>) {
    let (width, height) = test.require.window_size();
    let mut device = match GlDevice::new(gl, info, extra, width, height, exact) {
        Ok(device) => device,
        Err(stop) => return (TestResult::with_status(stop.status, stop.reason), None),
    };
    let result = piglit::run(&mut device, test);
    let window = keep_window.then(|| device.window().ok()).flatten();
    device.delete();
    (result, window)
}

/// One test's GL state while its commands run.
struct GlDevice<'a> {
    gl: &'a glow::Context,
    info: &'a ContextInfo,
    extra: ExtraFunctions,
    window: Target,
    /// Every FBO an `fb` command made, deleted when the test ends.
    fbos: Vec<Target>,
    /// The draw framebuffer: one of `fbos`, or the window (`None`).
    draw: Option<usize>,
    /// The read framebuffer: one of `fbos`, or the window (`None`).
    read: Option<usize>,
    /// `atomic counter buffer` objects by binding point.
    atomic_buffers: BTreeMap<u32, glow::Buffer>,
    /// `ssbo` objects by binding point.
    storage_buffers: BTreeMap<u32, glow::Buffer>,
    program: Option<Linked>,
    vao: Option<glow::VertexArray>,
    vertex_buffer: Option<glow::Buffer>,
    textures: Textures,
}

impl<'a> GlDevice<'a> {
    /// A device drawing into a new `width` x `height` window FBO (of exact floats when
    /// `exact`), with a vertex array bound.
    fn new(
        gl: &'a glow::Context,
        info: &'a ContextInfo,
        extra: &ExtraFunctions,
        width: u32,
        height: u32,
        exact: bool,
    ) -> Result<GlDevice<'a>, Stop> {
        let window = Target::window(gl, info, width, height, exact)?;
        // SAFETY: a vertex array for the test's attributes, deleted in `delete`.
        let vao = unsafe { gl.create_vertex_array() }.ok();
        // SAFETY: binding the array just created.
        unsafe { gl.bind_vertex_array(vao) };
        Ok(GlDevice {
            gl,
            info,
            extra: *extra,
            window,
            fbos: Vec::new(),
            draw: None,
            read: None,
            atomic_buffers: BTreeMap::new(),
            storage_buffers: BTreeMap::new(),
            program: None,
            vao,
            vertex_buffer: None,
            textures: Textures::default(),
        })
    }

    /// The program in use, when one linked (none with separate shader objects).
    fn in_use(&self) -> Option<glow::Program> {
        self.program
            .as_ref()
            .filter(|p| p.ok)
            .and_then(|p| p.in_use)
    }

    /// The framebuffer probes and blits read from (piglit's read FBO).
    fn read_target(&self) -> &Target {
        self.read
            .and_then(|i| self.fbos.get(i))
            .unwrap_or(&self.window)
    }

    /// The framebuffer draws and blits go to (piglit's draw FBO).
    fn draw_target(&self) -> &Target {
        self.draw
            .and_then(|i| self.fbos.get(i))
            .unwrap_or(&self.window)
    }

    /// The FBO an `fb` command binds to `binding`; `None` for the window.
    fn framebuffer(&self, binding: u32, what: &FbBinding) -> Result<Option<Target>, Stop> {
        let gl = self.gl;
        let texture = |unit: u32| self.textures.need(unit, &format!("fb {}", what.name()));
        Ok(Some(match what {
            FbBinding::Winsys => {
                // SAFETY: binding the window FBO, which lives until the test ends.
                unsafe { gl.bind_framebuffer(binding, Some(self.window.framebuffer)) };
                return Ok(None);
            }
            FbBinding::Tex2d(units) => {
                let textures = units
                    .iter()
                    .map(|&unit| texture(unit))
                    .collect::<Result<Vec<_>, _>>()?;
                Target::textures(gl, binding, &textures)?
            }
            FbBinding::TexSlice {
                target,
                unit,
                level,
                layer,
            } => {
                let texture = texture(*unit)?;
                if textures::texture_target(*target)? != texture.target {
                    return Err(Stop::fail(format!(
                        "fb tex slice {target:?}: unit {unit} holds another kind of texture"
                    )));
                }
                Target::slice(gl, binding, &texture, *level, *layer)?
            }
            FbBinding::TexLayered(unit) => Target::layered(gl, binding, &texture(*unit)?)?,
            FbBinding::Multisample {
                format,
                width,
                height,
                samples,
            } => Target::multisample(gl, binding, format, (*width, *height), *samples)?,
        }))
    }

    /// The binding target, object and byte offset a buffer probe reads.
    fn probed_buffer(&self, buffer: &ProbedBuffer) -> Result<(u32, glow::Buffer, u32), Stop> {
        let (target, buffers, binding, offset) = match *buffer {
            ProbedBuffer::Ssbo {
                binding, offset, ..
            } => (
                glow::SHADER_STORAGE_BUFFER,
                &self.storage_buffers,
                binding,
                offset,
            ),
            ProbedBuffer::AtomicCounter { binding, offset } => (
                glow::ATOMIC_COUNTER_BUFFER,
                &self.atomic_buffers,
                binding,
                offset,
            ),
        };
        let object = buffers
            .get(&binding)
            .copied()
            .ok_or_else(|| Stop::fail(format!("no buffer was made at binding {binding}")))?;
        Ok((target, object, offset))
    }

    /// Deletes every object the test made.
    fn delete(mut self) {
        let gl = self.gl;
        self.textures.delete_all(gl);
        // SAFETY: deleting objects this test created on the current context.
        unsafe {
            if let Some(buffer) = self.vertex_buffer.take() {
                gl.delete_buffer(buffer);
            }
            let buffers = std::mem::take(&mut self.atomic_buffers)
                .into_values()
                .chain(std::mem::take(&mut self.storage_buffers).into_values());
            for buffer in buffers {
                gl.delete_buffer(buffer);
            }
            gl.bind_vertex_array(None);
            if let Some(vao) = self.vao.take() {
                gl.delete_vertex_array(vao);
            }
        }
        if let Some(program) = self.program.take() {
            program.delete(gl, &self.extra);
        }
        for target in std::mem::take(&mut self.fbos) {
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
        self.program = program::build(self.gl, &self.extra, test, logs)?;
        let attributes_from = self.program.as_ref().filter(|p| p.ok).map(Linked::vertex);
        if let (Some(Some(program)), Some(data)) = (attributes_from, &test.vertex_data) {
            self.vertex_buffer = Some(draw::vertex_data(self.gl, program, data)?);
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
        // With separate shader objects no program is current, so piglit finds no location.
        let program = self.in_use().ok_or_else(|| {
            Stop::fail(format!("cannot get location of uniform \"{}\"", set.name))
        })?;
        uniforms::set(self.gl, program, set)
    }

    fn read(&mut self, region: Region) -> Result<Readback, Stop> {
        probe::read(self.gl, self.read_target(), region)
    }

    fn read_integers(&mut self, region: Region) -> Result<Vec<i64>, Stop> {
        probe::read_integers(self.gl, self.read_target(), region)
    }

    fn window(&mut self) -> Result<WindowImage, Stop> {
        let window = &self.window;
        // SAFETY: binding the window FBO, which lives until the test ends, for reading.
        unsafe {
            self.gl
                .bind_framebuffer(glow::READ_FRAMEBUFFER, Some(window.framebuffer))
        };
        self.read = None;
        let whole = Region {
            x: 0,
            y: 0,
            w: window.width,
            h: window.height,
        };
        Ok(WindowImage {
            width: window.width,
            height: window.height,
            rgba: probe::read(self.gl, window, whole)?.values,
        })
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

    fn fb(&mut self, target: FbTarget, what: &FbBinding) -> Result<(), Stop> {
        let binding = match target {
            FbTarget::Both => glow::FRAMEBUFFER,
            FbTarget::Draw => glow::DRAW_FRAMEBUFFER,
            FbTarget::Read => glow::READ_FRAMEBUFFER,
        };
        let index = self.framebuffer(binding, what)?.map(|fbo| {
            self.fbos.push(fbo);
            self.fbos.len() - 1
        });
        if target != FbTarget::Read {
            self.draw = index;
        }
        if target != FbTarget::Draw {
            self.read = index;
        }
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
        let zeros = zeroed(u64::from(count) * 4)?;
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

    fn texture_storage(&mut self, texture: &TextureStorage) -> Result<(), Stop> {
        self.textures.storage(self.gl, texture)
    }

    fn texture_integer(&mut self, texture: &TextureInteger) -> Result<(), Stop> {
        self.textures.integer(self.gl, texture)
    }

    fn texture_junk_2d_array(&mut self, unit: u32, size: [u32; 3]) -> Result<(), Stop> {
        self.textures.junk_2d_array(self.gl, unit, size)
    }

    fn image_texture(&mut self, unit: u32, format: &str) -> Result<(), Stop> {
        self.textures.image(self.gl, unit, format)
    }

    fn ssbo(&mut self, binding: u32, size: u32) -> Result<(), Stop> {
        let gl = self.gl;
        let zeros = zeroed(u64::from(size))?;
        // SAFETY: a new buffer bound at `binding` and filled; deleted in `delete`.
        unsafe {
            let buffer = gl.create_buffer().map_err(Stop::error)?;
            gl.bind_buffer_base(glow::SHADER_STORAGE_BUFFER, binding, Some(buffer));
            gl.buffer_data_u8_slice(glow::SHADER_STORAGE_BUFFER, &zeros, glow::DYNAMIC_DRAW);
            if let Some(old) = self.storage_buffers.insert(binding, buffer) {
                gl.delete_buffer(old);
            }
        }
        Ok(())
    }

    fn ssbo_subdata(&mut self, binding: u32, offset: u32, bytes: [u8; 4]) -> Result<(), Stop> {
        let Some(&buffer) = self.storage_buffers.get(&binding) else {
            return Err(Stop::fail(format!(
                "ssbo subdata: no buffer at binding {binding} ('ssbo {binding} SIZE' makes one)"
            )));
        };
        let offset = i32::try_from(offset)
            .map_err(|_| Stop::fail(format!("ssbo subdata offset {offset} is too large")))?;
        let gl = self.gl;
        // SAFETY: writing 4 bytes of a buffer this test created, then an error query.
        let error = unsafe {
            gl.bind_buffer(glow::SHADER_STORAGE_BUFFER, Some(buffer));
            gl.buffer_sub_data_u8_slice(glow::SHADER_STORAGE_BUFFER, offset, &bytes);
            gl.get_error()
        };
        if error != glow::NO_ERROR {
            return Err(Stop::fail(format!("glBufferSubData error 0x{error:x}")));
        }
        Ok(())
    }

    fn compute(&mut self, [x, y, z]: [u32; 3]) -> Result<(), Stop> {
        let gl = self.gl;
        // SAFETY: a dispatch of the program in use, between full barriers, as piglit does.
        unsafe {
            gl.memory_barrier(glow::ALL_BARRIER_BITS);
            gl.dispatch_compute(x, y, z);
            gl.memory_barrier(glow::ALL_BARRIER_BITS);
        }
        Ok(())
    }

    fn memory_barrier(&mut self, bits: &str) -> Result<(), Stop> {
        let bits = state::barrier_bits(bits)
            .ok_or_else(|| Stop::fail(format!("unknown memory barrier {bits}")))?;
        // SAFETY: a barrier on the current context.
        unsafe { self.gl.memory_barrier(bits) };
        Ok(())
    }

    fn read_buffer(&mut self, buffer: &ProbedBuffer) -> Result<[u8; 4], Stop> {
        let (target, object, offset) = self.probed_buffer(buffer)?;
        let offset = i32::try_from(offset)
            .map_err(|_| Stop::fail(format!("buffer offset {offset} is too large")))?;
        let gl = self.gl;
        // SAFETY: maps 4 bytes of a buffer this test created for reading, copies them while
        // the mapping lives, and unmaps it. Piglit binds a probed SSBO to binding 0.
        unsafe {
            if target == glow::SHADER_STORAGE_BUFFER {
                gl.bind_buffer_base(target, 0, Some(object));
            } else {
                gl.bind_buffer(target, Some(object));
            }
            let pointer = gl.map_buffer_range(target, offset, 4, glow::MAP_READ_BIT);
            if pointer.is_null() {
                while gl.get_error() != glow::NO_ERROR {}
                return Err(Stop::fail(format!(
                    "cannot map the buffer to read bytes {offset}..{}",
                    offset + 4
                )));
            }
            let mut bytes = [0u8; 4];
            std::ptr::copy_nonoverlapping(pointer, bytes.as_mut_ptr(), 4);
            gl.unmap_buffer(target);
            Ok(bytes)
        }
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

/// The largest buffer a test may ask for (`ssbo`, `atomic counters`), so a bad size fails
/// the test instead of exhausting memory.
const MAX_BUFFER_BYTES: u64 = 1 << 28;

/// `bytes` zeroes for a new buffer's contents, as piglit's `calloc`, or a failure past
/// [`MAX_BUFFER_BYTES`].
fn zeroed(bytes: u64) -> Result<Vec<u8>, Stop> {
    if bytes > MAX_BUFFER_BYTES {
        return Err(Stop::fail(format!(
            "a buffer of {bytes} bytes is larger than halfcheck's limit of {MAX_BUFFER_BYTES}"
        )));
    }
    Ok(vec![0; bytes as usize])
}
