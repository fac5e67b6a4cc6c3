//! Runs one test's program and `[test]` commands on a fresh window FBO.
//!
//! Mirrors piglit's `shader_runner`: a compile failure or a fatal command error ends the
//! test; a failing probe marks it failed and the commands go on; `probe warn` only warns;
//! a link failure fails the test unless it says `link error`. Every GL object the test
//! creates is deleted before [`run`] returns.

use super::context::ContextInfo;
use super::draw::{self, Rect};
use super::probe::{self, DEFAULT_TOLERANCE};
use super::program::{self, Linked};
use super::target::Target;
use super::textures::{self, Textures};
use super::{state, uniforms, Stop};
use crate::results::{ProbeResult, Status, TestResult};
use crate::shader_test::{Command, RectMode, ShaderTest};
use glow::HasContext;
use std::collections::BTreeMap;

/// Runs `test` (whose requirements were already checked) and reports its result.
pub fn run(gl: &glow::Context, info: &ContextInfo, test: &ShaderTest) -> TestResult {
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
        window,
        fb_texture: None,
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
    window: Target,
    fb_texture: Option<Target>,
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
                let target = self.fb_texture.as_ref().unwrap_or(&self.window);
                let result = probe::run(gl, target, probe, line, &self.tolerance)?;
                if !result.pass {
                    let reason = format!(
                        "probe at line {line} failed at ({}, {}): expected {:?}, observed {:?} (exact {:?})",
                        result.pixel[0], result.pixel[1], result.expected, result.observed_unorm8, result.observed
                    );
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
            }
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
