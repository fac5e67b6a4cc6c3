//! Runs one test's `[test]` commands on the software framebuffer, with piglit's semantics
//! (shared with the GL backend: `backend::piglit`): a fatal command ends the test, a failing
//! probe fails it and the commands go on, `probe warn` only warns, a compile failure fails.
//!
//! Only the pixels some probe reads are shaded (with their quads), unless a command reads
//! the framebuffer otherwise; what probes see is the same.

use super::framebuffer::Framebuffer;
use super::program::{self, Built, Program};
use super::shade::{Attribute, Blend, Draw, Factor, Topology};
use super::textures::Units;
use super::uniforms::Uniforms;
use super::{Evaluation, Stop};
use crate::backend::piglit::draw as piglit_draw;
use crate::backend::piglit::probe::{failure_reason, judge, region, DEFAULT_TOLERANCE};
use crate::backend::piglit::program::{ATTRIB_POS, ATTRIB_TEX};
use crate::results::{ProbeResult, Status, TestResult};
use crate::shader_test::{AttribType, Command, RectMode, ShaderTest, VertexData};
use halfcheck_compiler::exec::Domain;
use halfcheck_compiler::CompileOptions;
use std::collections::BTreeMap;

/// Runs `test` (whose requirements were checked) in `domain`, its shaders compiled with
/// `options`. Each probe's values come from the pixel `at` gives for it (by probe order), or
/// from the pixel its result reports.
pub fn run<D: Domain>(
    test: &ShaderTest,
    domain: &D,
    options: &CompileOptions,
    at: &[[u32; 2]],
) -> Evaluation<D::F> {
    let (width, height) = test.require.window_size();
    let mut logs = BTreeMap::new();
    let (program, link_failure) = match program::build(test, options, &mut logs) {
        Ok(Built::Nothing) => (None, None),
        Ok(Built::Linked(p)) => (Some(*p), None),
        Ok(Built::LinkFailed(why)) => (None, Some(why)),
        Err(stop) => {
            let mut result = TestResult::with_status(stop.status, stop.reason);
            result.logs = logs;
            return Evaluation {
                result,
                probes: Vec::new(),
            };
        }
    };
    let mut run = Run {
        program,
        link_failure,
        domain,
        fb: Framebuffer::new(width, height, domain.constant(0.0)),
        at,
        probe_values: Vec::new(),
        needed: needed(test, width, height),
        uniforms: Uniforms::default(),
        textures: Units::new(domain.driver().fixed_point_filtering),
        tolerance: DEFAULT_TOLERANCE,
        clear_color: [0.0; 4],
        clear_color_set: false,
        blend: None,
        blend_func: Blend {
            src: Factor::One,
            dst: Factor::Zero,
        },
        link_error_expected: false,
        probes: Vec::new(),
        failure: None,
        warning: None,
    };
    let stopped = test
        .commands
        .iter()
        .try_for_each(|command| run.command(test, &command.value, command.line));
    run.finish(stopped, logs)
}

/// The pixels the probes read, or `None` when every pixel may matter.
fn needed(test: &ShaderTest, width: u32, height: u32) -> Option<Vec<bool>> {
    let mut needed = vec![false; width as usize * height as usize];
    for command in &test.commands {
        match &command.value {
            Command::Probe(probe) => {
                let Ok(r) = region(probe, width, height) else {
                    continue;
                };
                for y in r.y..r.y + r.h {
                    let row = y as usize * width as usize;
                    needed[row + r.x as usize..row + (r.x + r.w) as usize].fill(true);
                }
            }
            Command::FbTex2d { .. } | Command::Blit { .. } => return None,
            _ => {}
        }
    }
    Some(needed)
}

/// The state of one test while its commands run.
struct Run<'a, D: Domain> {
    program: Option<Program>,
    /// Why the stages did not link, when they did not.
    link_failure: Option<String>,
    domain: &'a D,
    fb: Framebuffer<D::F>,
    /// The pixel each probe's values are read at, by probe order.
    at: &'a [[u32; 2]],
    /// Each probe's values, per channel.
    probe_values: Vec<Vec<D::F>>,
    needed: Option<Vec<bool>>,
    uniforms: Uniforms,
    textures: Units,
    tolerance: [f64; 4],
    clear_color: [f32; 4],
    clear_color_set: bool,
    blend: Option<Blend>,
    blend_func: Blend,
    link_error_expected: bool,
    probes: Vec<ProbeResult>,
    failure: Option<String>,
    warning: Option<String>,
}

impl<D: Domain> Run<'_, D> {
    fn fail(&mut self, reason: String) {
        self.failure.get_or_insert(reason);
    }

    /// Piglit's `program_must_be_in_use`.
    fn program_in_use(&mut self) -> bool {
        if self.program.is_some() {
            return true;
        }
        let why = self.link_failure.as_deref().unwrap_or("no program");
        self.fail(format!("Failed to link: {why}"));
        false
    }

    fn command(&mut self, test: &ShaderTest, command: &Command, line: usize) -> Result<(), Stop> {
        match command {
            Command::Clear => {
                if self.clear_color_set {
                    let d = self.domain;
                    self.fb
                        .clear(self.clear_color.map(|c| d.constant(f64::from(c))));
                }
            }
            Command::ClearColor(color) => {
                self.clear_color = *color;
                self.clear_color_set = true;
            }
            Command::ClearDepth(_) => {}
            Command::DrawRect { mode, patch, rect } => {
                if *patch {
                    return Err(Stop::skip("the emulator has no tessellation"));
                }
                if self.program_in_use() {
                    self.rect(*rect, *mode, 1)?;
                }
            }
            Command::DrawInstancedRect {
                ortho,
                patch,
                instances,
                rect,
            } => {
                if *patch {
                    return Err(Stop::skip("the emulator has no tessellation"));
                }
                if self.program_in_use() {
                    let mode = if *ortho {
                        RectMode::Ortho
                    } else {
                        RectMode::Plain
                    };
                    self.rect(*rect, mode, *instances)?;
                }
            }
            Command::DrawArrays {
                mode,
                first,
                count,
                instances,
            } => {
                if self.program_in_use() {
                    self.arrays(test.vertex_data.as_ref(), mode, *first, *count, *instances)?;
                }
            }
            Command::Uniform(set) => match &self.program {
                Some(program) => self.uniforms.set(program, set)?,
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
                if probe.integer {
                    return Err(Stop::skip("the emulator has no integer framebuffers"));
                }
                let r = region(probe, self.fb.width, self.fb.height).map_err(Stop::fail)?;
                let d = self.domain;
                let pixels = self
                    .fb
                    .read(r.x, r.y, r.w, r.h, |v| d.representative(v) as f32, 0.0);
                let result = judge(probe, line, &self.tolerance, r, &pixels, true);
                let [x, y] = self
                    .at
                    .get(self.probe_values.len())
                    .copied()
                    .unwrap_or(result.pixel);
                let zero = [d.constant(0.0); 4];
                let values = self.fb.get(x, y).unwrap_or(zero);
                self.probe_values
                    .push(values.into_iter().take(result.observed.len()).collect());
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
            Command::TextureRgbw(texture) => self.textures.rgbw(texture)?,
            Command::TextureCheckerboard(texture) => self.textures.checkerboard(texture)?,
            Command::TexParameter {
                target,
                parameter,
                value,
            } => self.textures.parameter(target, parameter, value)?,
            Command::LinkSuccess => {
                self.program_in_use();
            }
            Command::LinkError => {
                self.link_error_expected = true;
                if self.program.is_some() {
                    return Err(Stop::fail(
                        "shader link error expected, but it was successful!",
                    ));
                }
            }
            Command::Enable(name) | Command::Disable(name) => {
                let on = matches!(command, Command::Enable(_));
                match name.as_str() {
                    "GL_BLEND" => self.blend = on.then_some(self.blend_func),
                    "GL_DITHER" | "GL_PROGRAM_POINT_SIZE" => {}
                    _ if !on => {}
                    other => {
                        return Err(Stop::skip(format!("the emulator does not model {other}")))
                    }
                }
            }
            Command::BlendFunc { src, dst } => {
                let factor = |name: &str| {
                    Factor::from_name(name).ok_or_else(|| {
                        Stop::skip(format!("the emulator has no blend factor {name}"))
                    })
                };
                self.blend_func = Blend {
                    src: factor(src)?,
                    dst: factor(dst)?,
                };
                if self.blend.is_some() {
                    self.blend = Some(self.blend_func);
                }
            }
            Command::FbTex2d { .. }
            | Command::FbWinsys(_)
            | Command::Blit { .. }
            | Command::AtomicCounterBuffer { .. }
            | Command::AtomicCounter { .. }
            | Command::FbfetchBarrier => {
                return Err(Stop::skip(format!(
                    "the emulator does not run {}",
                    command_name(command)
                )))
            }
            Command::Unsupported { name } => {
                return Err(Stop::skip(format!("unsupported command: {name}")))
            }
        }
        Ok(())
    }

    fn draw(&self, instance: i64) -> Option<Draw<'_, D>> {
        Some(Draw {
            program: self.program.as_ref()?,
            domain: self.domain,
            uniforms: &self.uniforms,
            textures: &self.textures,
            needed: self.needed.as_deref(),
            blend: self.blend,
            instance,
        })
    }

    fn rect(&mut self, rect: [f32; 4], mode: RectMode, instances: u32) -> Result<(), Stop> {
        let corners = piglit_draw::rect(rect, mode, (self.fb.width, self.fb.height));
        let mut attributes = vec![Attribute {
            name: "piglit_vertex".into(),
            location: Some(ATTRIB_POS),
            values: corners.positions.iter().map(|p| p.to_vec()).collect(),
        }];
        if let Some(texcoords) = corners.texcoords {
            attributes.push(Attribute {
                name: "piglit_texcoord".into(),
                location: Some(ATTRIB_TEX),
                values: texcoords.iter().map(|t| t.to_vec()).collect(),
            });
        }
        let empty = Framebuffer::new(0, 0, self.domain.constant(0.0));
        let mut fb = std::mem::replace(&mut self.fb, empty);
        let drawn = (0..instances.max(1)).try_for_each(|i| match self.draw(i64::from(i)) {
            Some(draw) => draw.run(&attributes, 4, Topology::Strip, &mut fb),
            None => Ok(()),
        });
        self.fb = fb;
        drawn
    }

    fn arrays(
        &mut self,
        data: Option<&VertexData>,
        mode: &str,
        first: i32,
        count: i32,
        instances: Option<u32>,
    ) -> Result<(), Stop> {
        let topology = match mode.strip_prefix("GL_").unwrap_or(mode) {
            "TRIANGLES" => Topology::List,
            "TRIANGLE_STRIP" => Topology::Strip,
            "TRIANGLE_FAN" => Topology::Fan,
            "QUADS" | "QUAD_STRIP" | "POLYGON" => {
                return Err(Stop::skip(format!("drawing mode {mode} needs desktop GL")))
            }
            "POINTS" | "LINES" | "LINE_LOOP" | "LINE_STRIP" => {
                return Err(Stop::skip(format!(
                    "the emulator rasterises triangles only, not {mode}"
                )))
            }
            _ => return Err(Stop::fail(format!("unknown drawing mode \"{mode}\""))),
        };
        let (first, count) = match (usize::try_from(first), usize::try_from(count)) {
            (Ok(f), Ok(c)) if c > 0 => (f, c),
            _ => return Err(Stop::fail("draw arrays needs first >= 0 and count > 0")),
        };
        let attributes = match data {
            Some(data) => attributes(data, first, count)?,
            None => Vec::new(),
        };
        let empty = Framebuffer::new(0, 0, self.domain.constant(0.0));
        let mut fb = std::mem::replace(&mut self.fb, empty);
        let drawn =
            (0..instances.unwrap_or(1).max(1)).try_for_each(|i| match self.draw(i64::from(i)) {
                Some(draw) => draw.run(&attributes, count, topology, &mut fb),
                None => Ok(()),
            });
        self.fb = fb;
        drawn
    }

    /// Decides the status.
    fn finish(
        mut self,
        stopped: Result<(), Stop>,
        logs: BTreeMap<String, String>,
    ) -> Evaluation<D::F> {
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
        Evaluation {
            result: TestResult {
                status,
                verdict: None,
                duration_s: 0.0,
                reason,
                probes: self.probes,
                logs,
            },
            probes: self.probe_values,
        }
    }
}

/// `[vertex data]` rows `first..first + count` as attributes, columns by name (or number).
fn attributes(data: &VertexData, first: usize, count: usize) -> Result<Vec<Attribute>, Stop> {
    if first + count > data.rows.len() {
        return Err(Stop::fail(format!(
            "draw arrays cannot draw beyond {} rows",
            data.rows.len()
        )));
    }
    let mut out = Vec::new();
    let mut start = 0;
    for column in &data.columns {
        let n = column.components as usize;
        if column.matrix_column != 0 || column.array_index != 0 || column.glsl_type.contains("mat")
        {
            return Err(Stop::skip(
                "the emulator has no matrix or array vertex attributes",
            ));
        }
        if !matches!(column.ty, AttribType::Float | AttribType::Half) {
            return Err(Stop::fail(
                "Test uses glVertexAttribIPointer(), which is unsupported.",
            ));
        }
        let values = data.rows[first..first + count]
            .iter()
            .map(|row| {
                row.value
                    .get(start..start + n)
                    .map(|v| {
                        v.iter()
                            .map(|&x| match column.ty {
                                AttribType::Half => half::f16::from_f64(x).to_f32(),
                                _ => x as f32,
                            })
                            .collect()
                    })
                    .ok_or_else(|| Stop::fail(format!("[vertex data] line {} is short", row.line)))
            })
            .collect::<Result<Vec<Vec<f32>>, Stop>>()?;
        let location = column.name.parse().ok();
        out.push(Attribute {
            name: if location.is_some() {
                String::new()
            } else {
                column.name.clone()
            },
            location,
            values,
        });
        start += n;
    }
    Ok(out)
}

fn command_name(command: &Command) -> &'static str {
    match command {
        Command::FbTex2d { .. } => "fb tex 2d",
        Command::FbWinsys(_) => "fb winsys",
        Command::Blit { .. } => "blit",
        Command::AtomicCounterBuffer { .. } | Command::AtomicCounter { .. } => "atomic counters",
        _ => "fbfetch barrier",
    }
}
