//! Runs one test's program and `[test]` commands on a fresh window FBO.
//!
//! Mirrors piglit's `shader_runner`: a compile failure or a fatal command error ends the
//! test; a failing probe marks it failed and the commands go on; `probe warn` only warns;
//! a link failure fails the test unless it says `link error`. Every GL object the test
//! creates is deleted before [`run`] returns.

use super::context::{ContextInfo, ExtraFunctions};
use super::draw::{self, Rect};
use super::probe;
use super::program::{self, Linked};
use super::target::Target;
use super::textures::{self, Textures};
use super::{state, uniforms, Stop};
use crate::backend::piglit::probe::{failure_reason, DEFAULT_TOLERANCE};
use crate::results::{ProbeResult, Status, TestResult};
use crate::shader_test::{BlitBuffer, Command, FbTarget, RectMode, ShaderTest};
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
    let window = match Target::window(gl, info, width, height) {
        Ok(window) => window,
        Err(stop) => return TestResult::with_status(stop.status, stop.reason),
    };
    // SAFETY: a vertex array for the test's attributes, deleted in `finish`.
    let vao = unsafe { gl.create_vertex_array() }.ok();
    // SAFETY: binding the array just created.
    unsafe { gl.bind_vertex_array(vao) };
    let mut run = Run {
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
        tolerance: DEFAULT_TOLERANCE,
        clear_bits: 0,
        link_error_expected: false,
        probes: Vec::new(),
        failure: None,
        warning: None,
        logs: BTreeMap::new(),
    };
    let stopped = run.start(test).and_then(|()| {
        test.commands
            .iter()
            .try_for_each(|command| run.command(&command.value, command.line))
    });
    run.finish(stopped)
}

/// The state of one test while its commands run.
struct Run<'a> {
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
    vertex_buffer: Option<(glow::Buffer, usize)>,
    textures: Textures,
    tolerance: [f64; 4],
    clear_bits: u32,
    link_error_expected: bool,
    probes: Vec<ProbeResult>,
    failure: Option<String>,
    warning: Option<String>,
    logs: BTreeMap<String, String>,
}

impl Run<'_> {
    /// Builds the program and uploads the vertex data.
    fn start(&mut self, test: &ShaderTest) -> Result<(), Stop> {
        self.program = program::build(self.gl, test, &mut self.logs)?;
        if let (Some(linked), Some(data)) = (self.linked(), &test.vertex_data) {
            self.vertex_buffer = Some(draw::vertex_data(self.gl, linked, data)?);
        }
        Ok(())
    }

    /// The program when it linked.
    fn linked(&self) -> Option<glow::Program> {
        self.program.as_ref().filter(|p| p.ok).map(|p| p.program)
    }

    /// Piglit's `program_must_be_in_use`: records a failure when nothing linked.
    fn program_in_use(&mut self) -> bool {
        if self.linked().is_some() {
            return true;
        }
        let log = self
            .program
            .as_ref()
            .map_or("", |p| p.log_first_line.as_str());
        self.fail(format!("Failed to link: {log}"));
        false
    }

    fn fail(&mut self, reason: String) {
        self.failure.get_or_insert(reason);
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

    fn command(&mut self, command: &Command, line: usize) -> Result<(), Stop> {
        let gl = self.gl;
        let window = (self.window.width, self.window.height);
        match command {
            // SAFETY (these three): clearing and setting clear values on the bound FBO.
            Command::Clear => unsafe { gl.clear(self.clear_bits) },
            Command::ClearColor([r, g, b, a]) => {
                unsafe { gl.clear_color(*r, *g, *b, *a) };
                self.clear_bits |= glow::COLOR_BUFFER_BIT;
            }
            Command::ClearDepth(depth) => {
                unsafe { gl.clear_depth_f32(*depth as f32) };
                self.clear_bits |= glow::DEPTH_BUFFER_BIT;
            }
            Command::DrawRect { mode, patch, rect } => {
                if self.program_in_use() {
                    let draw = Rect {
                        rect: *rect,
                        mode: *mode,
                        patch: *patch,
                        instances: 1,
                    };
                    draw::rect(gl, &draw, window, self.vao)?;
                }
            }
            Command::DrawInstancedRect {
                ortho,
                patch,
                instances,
                rect,
            } => {
                if self.program_in_use() {
                    let mode = if *ortho {
                        RectMode::Ortho
                    } else {
                        RectMode::Plain
                    };
                    let draw = Rect {
                        rect: *rect,
                        mode,
                        patch: *patch,
                        instances: *instances,
                    };
                    draw::rect(gl, &draw, window, self.vao)?;
                }
            }
            Command::DrawArrays {
                mode,
                first,
                count,
                instances,
            } => {
                if self.program_in_use() {
                    let rows = self.vertex_buffer.map(|(_, rows)| rows);
                    draw::arrays(gl, mode, *first, *count, *instances, rows)?;
                }
            }
            Command::Uniform(set) => match self.linked() {
                Some(program) => uniforms::set(gl, program, set)?,
                None => {
                    return Err(Stop::fail(format!(
                        "cannot get location of uniform \"{}\"",
                        set.name
                    )))
                }
            },
            Command::Tolerance(values) => {
                for (slot, value) in self.tolerance.iter_mut().zip(values) {
                    *slot = *value;
                }
            }
            Command::Probe(probe) => {
                let target = self.read_target();
                let result = probe::run(gl, target, probe, line, &self.tolerance)?;
                if !result.pass {
                    let reason = failure_reason(&result);
                    if probe.warn_only {
                        self.warning.get_or_insert(reason);
                    } else {
                        self.fail(reason);
                    }
                }
                self.probes.push(result);
            }
            Command::TextureRgbw(texture) => self.textures.rgbw(gl, texture)?,
            Command::TextureCheckerboard(texture) => self.textures.checkerboard(gl, texture)?,
            Command::TexParameter {
                target,
                parameter,
                value,
            } => textures::parameter(gl, target, parameter, value)?,
            Command::FbTex2d { units } => {
                let textures = units
                    .iter()
                    .map(|&unit| {
                        self.textures.get(unit).ok_or_else(|| {
                            Stop::fail(format!("no texture on unit {unit} for fb tex 2d"))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                if let Some(old) = self.fb_texture.take() {
                    old.delete(gl);
                }
                self.fb_texture = Some(Target::textures(gl, &textures)?);
                self.read_window = false;
                self.draw_window = false;
            }
            Command::FbWinsys(target) => {
                let binding = match target {
                    FbTarget::Both => glow::FRAMEBUFFER,
                    FbTarget::Draw => glow::DRAW_FRAMEBUFFER,
                    FbTarget::Read => glow::READ_FRAMEBUFFER,
                };
                // SAFETY: binding the window FBO, which lives until the test ends.
                unsafe { gl.bind_framebuffer(binding, Some(self.window.framebuffer)) };
                self.draw_window |= *target != FbTarget::Read;
                self.read_window |= *target != FbTarget::Draw;
            }
            Command::Blit { buffer, linear } => {
                let (from, to) = (self.read_target(), self.draw_target());
                let mask = match buffer {
                    BlitBuffer::Color => glow::COLOR_BUFFER_BIT,
                    BlitBuffer::Depth => glow::DEPTH_BUFFER_BIT,
                    BlitBuffer::Stencil => glow::STENCIL_BUFFER_BIT,
                };
                let filter = if *linear { glow::LINEAR } else { glow::NEAREST };
                let size = |t: &Target| (t.width as i32, t.height as i32);
                let ((rw, rh), (dw, dh)) = (size(from), size(to));
                // SAFETY: a blit between the bound read and draw FBOs, then an error query.
                let error = unsafe {
                    gl.blit_framebuffer(0, 0, rw, rh, 0, 0, dw, dh, mask, filter);
                    gl.get_error()
                };
                if error != glow::NO_ERROR {
                    return Err(Stop::fail(format!("glBlitFramebuffer error 0x{error:x}")));
                }
            }
            Command::AtomicCounterBuffer { binding, count } => {
                let zeros = vec![0u8; *count as usize * 4];
                // SAFETY: a new buffer bound at `binding` and filled; deleted in `finish`.
                unsafe {
                    let buffer = gl.create_buffer().map_err(Stop::error)?;
                    gl.bind_buffer_base(glow::ATOMIC_COUNTER_BUFFER, *binding, Some(buffer));
                    gl.buffer_data_u8_slice(glow::ATOMIC_COUNTER_BUFFER, &zeros, glow::STATIC_DRAW);
                    if let Some(old) = self.atomic_buffers.insert(*binding, buffer) {
                        gl.delete_buffer(old);
                    }
                }
            }
            Command::AtomicCounter {
                binding,
                index,
                value,
            } => {
                let Some(&buffer) = self.atomic_buffers.get(binding) else {
                    return Err(Stop::fail(format!(
                        "atomic counter: no buffer at binding {binding} \
                         ('atomic counter buffer {binding} N' makes one)"
                    )));
                };
                let offset = i32::try_from(u64::from(*index) * 4).map_err(|_| {
                    Stop::fail(format!("atomic counter index {index} is too large"))
                })?;
                // SAFETY: writing one counter of a buffer this test created.
                unsafe {
                    gl.bind_buffer_base(glow::ATOMIC_COUNTER_BUFFER, *binding, Some(buffer));
                    gl.buffer_sub_data_u8_slice(
                        glow::ATOMIC_COUNTER_BUFFER,
                        offset,
                        &value.to_ne_bytes(),
                    );
                }
            }
            Command::FbfetchBarrier => match self.extra.framebuffer_fetch_barrier {
                // SAFETY: the entry point was loaded for this context, which is current.
                Some(barrier) => unsafe { barrier() },
                None => {
                    return Err(Stop::skip(
                        "glFramebufferFetchBarrierEXT is not supported on this context",
                    ))
                }
            },
            Command::LinkSuccess => {
                self.program_in_use();
            }
            Command::LinkError => {
                self.link_error_expected = true;
                if self.linked().is_some() {
                    return Err(Stop::fail(
                        "shader link error expected, but it was successful!",
                    ));
                }
            }
            Command::Enable(name) => state::enable(gl, self.info, name, true)?,
            Command::Disable(name) => state::enable(gl, self.info, name, false)?,
            Command::BlendFunc { src, dst } => state::blend_func(gl, src, dst)?,
            Command::Unsupported { name } => {
                return Err(Stop::skip(format!("unsupported command: {name}")))
            }
        }
        Ok(())
    }

    /// Decides the status and deletes every object the test made.
    fn finish(mut self, stopped: Result<(), Stop>) -> TestResult {
        if stopped.is_ok() && !self.link_error_expected {
            self.program_in_use();
        }
        let (status, reason) = match stopped {
            Err(stop) => (stop.status, Some(stop.reason)),
            Ok(()) => match (self.failure.take(), self.warning.take()) {
                (Some(failure), _) => (Status::Fail, Some(failure)),
                (None, Some(warning)) => (Status::Warn, Some(warning)),
                (None, None) => (Status::Pass, None),
            },
        };
        let gl = self.gl;
        self.textures.delete_all(gl);
        // SAFETY: deleting objects this test created on the current context.
        unsafe {
            if let Some(program) = self.program.take() {
                gl.use_program(None);
                gl.delete_program(program.program);
            }
            if let Some((buffer, _)) = self.vertex_buffer.take() {
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
        TestResult {
            status,
            verdict: None,
            duration_s: 0.0,
            reason,
            probes: self.probes,
            logs: self.logs,
        }
    }
}
