//! The emulator as a piglit [`Device`]: the software framebuffer, uniforms and textures of one
//! test, in any numeric [`Domain`]. The shared command loop (`backend::piglit`) runs the
//! commands; what the emulator lacks (framebuffer objects, blits, atomic counters,
//! tessellation, lines and points) skips through the trait's defaults or with its own reason.
//!
//! Only the pixels some probe reads are shaded (with their quads), unless a command reads
//! the framebuffer otherwise; what probes see is the same.

use super::framebuffer::Framebuffer;
use super::program::{Built, Compiled, Program};
use super::shade::{Attribute, Blend, Draw, Factor, Topology};
use super::textures::Units;
use super::uniforms::Uniforms;
use crate::exec::Domain;
use crate::values::{Evaluation, ProbeValues};
use halfcheck_piglit::device::{self, ArraysDraw, Primitive, Readback, RectDraw};
use halfcheck_piglit::probe::{region, Region};
use halfcheck_piglit::program::{ATTRIB_POS, ATTRIB_TEX};
use halfcheck_piglit::shader_test::{
    AttribType, Command, ShaderTest, TextureCheckerboard, TextureRgbw, UniformSet, VertexData,
};
use halfcheck_piglit::Stop;
use halfcheck_piglit::WindowImage;
use halfcheck_piglit::{self as piglit, Device};
use halfcheck_results::ProbeResult;
use std::collections::BTreeMap;

/// Runs `test` (whose requirements were checked) in `domain`, with its shaders as
/// `compiled`. Each probe keeps the values of every pixel of its region, and is judged as on a
/// driver when `judge_probes` says so (else it passes). With `keep_window`, every pixel is
/// shaded and the window's binary32 view comes back too.
pub(crate) fn run<D: Domain>(
    test: &ShaderTest,
    domain: &D,
    compiled: &Compiled,
    keep_window: bool,
    judge_probes: bool,
) -> (Evaluation<D::F>, Option<WindowImage>) {
    let (width, height) = test.require.window_size();
    let needed = if keep_window {
        None
    } else {
        needed(test, width, height)
    };
    let mut device = EmuDevice {
        test,
        compiled,
        program: None,
        domain,
        fb: Framebuffer::new(width, height, domain.constant(0.0)),
        probe_values: Vec::new(),
        needed,
        judge_probes,
        uniforms: Uniforms::default(),
        textures: Units::new(domain.driver().texture.filtering),
        blend: None,
        blend_func: Blend {
            src: Factor::One,
            dst: Factor::Zero,
        },
    };
    let result = piglit::run(&mut device, test);
    let window = keep_window.then(|| device.window().ok()).flatten();
    let probes = device.probe_values;
    (Evaluation { result, probes }, window)
}

/// The pixels the probes read, or `None` when every pixel may matter (a probe reads the whole
/// window, or the framebuffer is read otherwise).
fn needed(test: &ShaderTest, width: u32, height: u32) -> Option<Vec<bool>> {
    let mut needed = vec![false; width as usize * height as usize];
    for command in &test.commands {
        match &command.value {
            Command::Probe(probe) => {
                let Ok(r) = region(probe, width, height) else {
                    continue;
                };
                if (r.x, r.y, r.w, r.h) == (0, 0, width, height) {
                    return None;
                }
                for y in r.y..r.y + r.h {
                    let row = y as usize * width as usize;
                    needed[row + r.x as usize..row + (r.x + r.w) as usize].fill(true);
                }
            }
            Command::Fb { .. } | Command::Blit { .. } => return None,
            _ => {}
        }
    }
    Some(needed)
}

/// One test's software state while its commands run.
struct EmuDevice<'a, D: Domain> {
    test: &'a ShaderTest,
    compiled: &'a Compiled,
    program: Option<&'a Program>,
    domain: &'a D,
    fb: Framebuffer<D::F>,
    /// Each probe's values over its region.
    probe_values: Vec<ProbeValues<D::F>>,
    needed: Option<Vec<bool>>,
    /// Whether probes read the binary32 view to be judged; else they read nothing and pass
    /// (`probed` keeps their values in the domain all the same).
    judge_probes: bool,
    uniforms: Uniforms,
    textures: Units,
    blend: Option<Blend>,
    blend_func: Blend,
}

impl<D: Domain> EmuDevice<'_, D> {
    fn draw(&self, instance: i64) -> Option<Draw<'_, D>> {
        Some(Draw {
            program: self.program?,
            domain: self.domain,
            uniforms: &self.uniforms,
            textures: &self.textures,
            needed: self.needed.as_deref(),
            blend: self.blend,
            instance,
        })
    }

    /// Runs `instances` draws of `count` vertices of `attributes` into the framebuffer.
    fn shade(
        &mut self,
        attributes: &[Attribute],
        count: usize,
        topology: Topology,
        instances: u32,
    ) -> Result<(), Stop> {
        let empty = Framebuffer::new(0, 0, self.domain.constant(0.0));
        let mut fb = std::mem::replace(&mut self.fb, empty);
        let drawn = (0..instances.max(1)).try_for_each(|i| match self.draw(i64::from(i)) {
            Some(draw) => draw.run(attributes, count, topology, &mut fb),
            None => Ok(()),
        });
        self.fb = fb;
        drawn
    }
}

impl<D: Domain> Device for EmuDevice<'_, D> {
    fn name(&self) -> &'static str {
        "the emulator"
    }

    fn start(
        &mut self,
        _test: &ShaderTest,
        logs: &mut BTreeMap<String, String>,
    ) -> Result<device::Program, Stop> {
        let compiled = self.compiled;
        Ok(match compiled.built(logs)? {
            Built::Nothing => device::Program::Missing,
            Built::Linked(p) => {
                self.program = Some(p);
                device::Program::Linked
            }
            Built::LinkFailed(why) => device::Program::NotLinked(why.clone()),
        })
    }

    fn read_size(&self) -> (u32, u32) {
        (self.fb.width, self.fb.height)
    }

    fn clear(&mut self, color: Option<[f32; 4]>, _depth: Option<f64>) -> Result<(), Stop> {
        if let Some(color) = color {
            let d = self.domain;
            self.fb.clear(color.map(|c| d.constant(f64::from(c))));
        }
        Ok(())
    }

    fn draw_rect(&mut self, rect: &RectDraw) -> Result<(), Stop> {
        if rect.patch {
            return Err(Stop::skip("the emulator has no tessellation"));
        }
        let corners = &rect.corners;
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
        self.shade(&attributes, 4, Topology::Strip, rect.instances)
    }

    fn draw_arrays(&mut self, draw: &ArraysDraw) -> Result<(), Stop> {
        let topology = match draw.primitive {
            Primitive::Triangles => Topology::List,
            Primitive::TriangleStrip => Topology::Strip,
            Primitive::TriangleFan => Topology::Fan,
            other => {
                return Err(Stop::skip(format!(
                    "the emulator rasterises triangles only, not {other:?}"
                )))
            }
        };
        let attributes = match &self.test.vertex_data {
            Some(data) => attributes(data, draw.first, draw.count)?,
            None => Vec::new(),
        };
        self.shade(
            &attributes,
            draw.count,
            topology,
            draw.instances.unwrap_or(1),
        )
    }

    fn set_uniform(&mut self, set: &UniformSet) -> Result<(), Stop> {
        let program = self
            .program
            .ok_or_else(|| Stop::error("no linked program"))?;
        self.uniforms.set(program, set)
    }

    fn read(&mut self, r: Region) -> Result<Readback, Stop> {
        let d = self.domain;
        let values = if self.judge_probes {
            self.fb
                .read(r.x, r.y, r.w, r.h, |v| d.representative(v) as f32, 0.0)
        } else {
            Vec::new()
        };
        Ok(Readback {
            values,
            exact: true,
        })
    }

    fn probed(&mut self, result: &ProbeResult) {
        let [x, y, w, h] = result
            .region
            .unwrap_or([result.pixel[0], result.pixel[1], 1, 1]);
        let (d, region) = (self.domain, Region { x, y, w, h });
        let values = match self.fb.uniform(x, y, w, h, |a, b| d.same(a, b)) {
            Some(color) => ProbeValues::one_colour(region, color),
            None => {
                ProbeValues::per_pixel(region, self.fb.read(x, y, w, h, |v| v, d.constant(0.0)))
            }
        };
        self.probe_values.push(values);
    }

    fn window(&mut self) -> Result<WindowImage, Stop> {
        let (width, height) = (self.fb.width, self.fb.height);
        let d = self.domain;
        let rgba = self
            .fb
            .read(0, 0, width, height, |v| d.representative(v) as f32, 0.0);
        Ok(WindowImage {
            width,
            height,
            rgba,
        })
    }

    fn texture_rgbw(&mut self, texture: &TextureRgbw) -> Result<(), Stop> {
        self.textures.rgbw(texture)
    }

    fn texture_checkerboard(&mut self, texture: &TextureCheckerboard) -> Result<(), Stop> {
        self.textures.checkerboard(texture)
    }

    fn tex_parameter(&mut self, target: &str, parameter: &str, value: &str) -> Result<(), Stop> {
        self.textures.parameter(target, parameter, value)
    }

    fn enable(&mut self, capability: &str, on: bool) -> Result<(), Stop> {
        match capability {
            "GL_BLEND" => self.blend = on.then_some(self.blend_func),
            "GL_DITHER" | "GL_PROGRAM_POINT_SIZE" => {}
            _ if !on => {}
            other => return Err(Stop::skip(format!("the emulator does not model {other}"))),
        }
        Ok(())
    }

    fn blend_func(&mut self, src: &str, dst: &str) -> Result<(), Stop> {
        let factor = |name: &str| {
            Factor::from_name(name)
                .ok_or_else(|| Stop::skip(format!("the emulator has no blend factor {name}")))
        };
        self.blend_func = Blend {
            src: factor(src)?,
            dst: factor(dst)?,
        };
        if self.blend.is_some() {
            self.blend = Some(self.blend_func);
        }
        Ok(())
    }
}

/// `[vertex data]` rows `first..first + count` as attributes, columns by name (or number).
fn attributes(data: &VertexData, first: usize, count: usize) -> Result<Vec<Attribute>, Stop> {
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
        let rows = data
            .rows
            .get(first..first + count)
            .ok_or_else(|| Stop::fail("draw arrays cannot draw beyond the vertex data"))?;
        let values = rows
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
