//! Draws: the vertex shader over the vertices, primitive assembly, rasterisation, and the
//! fragment shader over batches of quads in parallel, writing the framebuffer.
//!
//! Varyings are interpolated perspective-correctly in binary32 from the plane of each
//! triangle (`v0 + (v1 - v0) * b1 + (v2 - v0) * b2`, so a varying equal at the three vertices
//! stays exact); integer varyings are flat (last vertex). `gl_FragCoord` is the pixel centre,
//! the interpolated depth and 1/w; `gl_FrontFacing` follows the winding.

use super::framebuffer::Framebuffer;
use super::interp::Setup;
use super::program::{check_batch, Program};
use super::raster::{self, Quad, WindowVertex};
use super::textures::Units;
use super::uniforms::Uniforms;
use super::Stop;
use crate::shader_test::Stage;
use halfcheck_compiler::exec::value::at;
use halfcheck_compiler::exec::{
    find_var, layout, Arrangement, Binary, Domain, Invocation, Lanes, Value, Width,
};
use halfcheck_compiler::ir::{Module, VarId, VarMode};
use halfcheck_compiler::profile::Binary32;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Statements one batch may execute before it counts as hung.
const MAX_STEPS: u64 = 1_000_000;
/// Quads per fragment batch (4 lanes each).
const QUADS_PER_BATCH: usize = 256;
/// Lanes of one fragment batch.
pub const FRAGMENT_LANES: usize = QUADS_PER_BATCH * 4;

/// One vertex attribute: its name, location, and values per vertex.
pub struct Attribute {
    /// Name in the shader (`piglit_vertex`), or empty for a numbered column.
    pub name: String,
    /// Location, for columns named by number and piglit's bound attributes.
    pub location: Option<u32>,
    /// Components per vertex, each vertex's list.
    pub values: Vec<Vec<f32>>,
}

/// How the vertices make triangles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topology {
    /// `GL_TRIANGLES`
    List,
    /// `GL_TRIANGLE_STRIP`
    Strip,
    /// `GL_TRIANGLE_FAN`
    Fan,
}

/// Blending of the fragment's colour into the framebuffer: source and destination factors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Blend {
    /// Source factor name (`GL_SRC_ALPHA`).
    pub src: Factor,
    /// Destination factor name.
    pub dst: Factor,
}

/// A blend factor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Factor {
    /// 0
    Zero,
    /// 1
    One,
    /// source alpha
    SrcAlpha,
    /// 1 - source alpha
    OneMinusSrcAlpha,
    /// destination alpha
    DstAlpha,
    /// 1 - destination alpha
    OneMinusDstAlpha,
    /// source colour
    SrcColor,
    /// destination colour
    DstColor,
}

impl Factor {
    /// The factor GL names `name`, if the emulator has it.
    pub fn from_name(name: &str) -> Option<Factor> {
        Some(match name.strip_prefix("GL_").unwrap_or(name) {
            "ZERO" => Factor::Zero,
            "ONE" => Factor::One,
            "SRC_ALPHA" => Factor::SrcAlpha,
            "ONE_MINUS_SRC_ALPHA" => Factor::OneMinusSrcAlpha,
            "DST_ALPHA" => Factor::DstAlpha,
            "ONE_MINUS_DST_ALPHA" => Factor::OneMinusDstAlpha,
            "SRC_COLOR" => Factor::SrcColor,
            "DST_COLOR" => Factor::DstColor,
            _ => return None,
        })
    }

    /// The factor's four weights for source `src` over destination `dst`, in binary32.
    fn weights<D: Domain>(self, d: &D, src: [D::F; 4], dst: [D::F; 4]) -> [D::F; 4] {
        let one_minus = |x| d.binary(Binary::Sub, d.constant(1.0), x, Width::Single);
        match self {
            Factor::Zero => [d.constant(0.0); 4],
            Factor::One => [d.constant(1.0); 4],
            Factor::SrcAlpha => [src[3]; 4],
            Factor::OneMinusSrcAlpha => [one_minus(src[3]); 4],
            Factor::DstAlpha => [dst[3]; 4],
            Factor::OneMinusDstAlpha => [one_minus(dst[3]); 4],
            Factor::SrcColor => src,
            Factor::DstColor => dst,
        }
    }
}

/// What a draw needs besides its vertices.
pub struct Draw<'a, D: Domain> {
    /// The compiled shaders.
    pub program: &'a Program,
    /// The arithmetic.
    pub domain: &'a D,
    /// Uniform values.
    pub uniforms: &'a Uniforms,
    /// Textures by unit.
    pub textures: &'a Units,
    /// Pixels some probe reads (`None`: all).
    pub needed: Option<&'a [bool]>,
    /// Blending, when enabled.
    pub blend: Option<Blend>,
    /// `gl_InstanceID`.
    pub instance: i64,
}

/// Vertex shader outputs: positions and varyings by name, one entry per vertex.
struct Shaded<F> {
    positions: Vec<[f64; 4]>,
    varyings: Vec<(String, Value<F>)>,
}

impl<D: Domain> Draw<'_, D> {
    /// Runs the vertex shader on `attributes`, rasterises `topology` and shades into `fb`.
    pub fn run(
        &self,
        attributes: &[Attribute],
        count: usize,
        topology: Topology,
        fb: &mut Framebuffer<D::F>,
    ) -> Result<(), Stop> {
        let shaded = self.vertices(attributes, count)?;
        let triangles = assemble(topology, count);
        let mut work: Vec<(usize, bool, Vec<Quad>)> = Vec::new();
        for (t, &[a, b, c]) in triangles.iter().enumerate() {
            let Some(window) = window_vertices(&shaded.positions, [a, b, c], (fb.width, fb.height))
            else {
                continue;
            };
            let snap = self.domain.driver().raster.subpixel_snap;
            let (quads, front) = raster::triangle(window, fb.width, fb.height, self.needed, snap);
            for chunk in quads.chunks(QUADS_PER_BATCH) {
                work.push((t, front, chunk.to_vec()));
            }
        }
        let output = output_var(&self.program.fragment)?;
        let size = (fb.width, fb.height);
        // The first batch that fails (a shader that loops forever) stops those not yet begun.
        let shaded_batches: Vec<Colors<D::F>> = work
            .par_iter()
            .map(|(t, front, quads)| {
                let [a, b, c] = triangles[*t];
                self.fragments(&shaded, [a, b, c], *front, quads, output, size)
            })
            .collect::<Result<_, Stop>>()?;
        for ((_, _, quads), colors) in work.iter().zip(shaded_batches) {
            for lane in 0..quads.len() * 4 {
                let quad = &quads[lane / 4];
                let k = lane % 4;
                let Some(color) = colors.get(lane).filter(|_| quad.covered[k]) else {
                    continue;
                };
                let (x, y) = (quad.x + k as u32 % 2, quad.y + k as u32 / 2);
                let index = fb.index(x, y);
                if let Some(pixel) = fb.pixels.get_mut(index) {
                    *pixel = match self.blend {
                        None => color,
                        Some(blend) => {
                            let d = self.domain;
                            let s = blend.src.weights(d, color, *pixel);
                            let t = blend.dst.weights(d, color, *pixel);
                            [0, 1, 2, 3].map(|c| {
                                let from = d.binary(Binary::Mul, color[c], s[c], Width::Single);
                                let kept = d.binary(Binary::Mul, pixel[c], t[c], Width::Single);
                                d.binary(Binary::Add, from, kept, Width::Single)
                            })
                        }
                    };
                }
            }
        }
        Ok(())
    }

    fn vertices(&self, attributes: &[Attribute], count: usize) -> Result<Shaded<D::F>, Stop> {
        let module = &self.program.vertex;
        check_batch(module, count, Stage::Vertex)?;
        let textures = self.textures;
        let mut inv = Invocation::new(
            module,
            self.domain,
            textures,
            count,
            Arrangement::Independent,
        );
        self.uniforms.apply(module, &mut inv, self.domain);
        let locations = attribute_locations(module, attributes);
        for (i, var) in module.variables.iter().enumerate() {
            let id = VarId(i as u32);
            match var.mode {
                VarMode::ShaderIn => {
                    let attribute = attributes.iter().find(|a| a.name == var.name).or_else(|| {
                        let location = locations.get(&id)?;
                        attributes.iter().find(|a| a.location == Some(*location))
                    });
                    let n = layout::size(module, &var.ty);
                    let value = (0..n)
                        .map(|c| {
                            let default = if c == 3 { 1.0 } else { 0.0 };
                            Lanes::Float(
                                (0..count)
                                    .map(|v| {
                                        attribute
                                            .and_then(|a| a.values.get(v))
                                            .and_then(|vals| vals.get(c))
                                            .map_or(default, |&x| f64::from(x))
                                    })
                                    .map(|x| self.domain.constant(x))
                                    .collect(),
                            )
                        })
                        .collect();
                    inv.set(id, value);
                }
                VarMode::SystemValue if var.name == "gl_VertexID" => {
                    inv.set(id, vec![Lanes::Int((0..count as i64).collect())]);
                }
                VarMode::SystemValue if var.name == "gl_InstanceID" => {
                    inv.set(id, vec![Lanes::Int(vec![self.instance])]);
                }
                _ => {}
            }
        }
        inv.run(MAX_STEPS)
            .map_err(|e| Stop::error(format!("vertex shader: {e}")))?;
        let position = find_var(module, "gl_Position", VarMode::ShaderOut)
            .and_then(|id| inv.get(id))
            .ok_or_else(|| Stop::fail("the vertex shader never writes gl_Position"))?;
        let positions = (0..count)
            .map(|v| {
                [0, 1, 2, 3].map(|c| match position.get(c) {
                    Some(Lanes::Float(x)) => self.domain.representative(at(x, v)) as f32 as f64,
                    _ => 0.0,
                })
            })
            .collect();
        // Varyings leave the vertex shader as binary32; only a profile that computes binary32
        // at extended precision holds anything more until here.
        let d = self.domain;
        let extended = d.driver().arithmetic.binary32 == Binary32::Extended;
        let stored = |value: &Value<D::F>| -> Value<D::F> {
            value
                .iter()
                .map(|lanes| match lanes {
                    Lanes::Float(v) if extended => Lanes::Float(
                        v.iter()
                            .map(|&x| d.constant(f64::from(d.representative(x) as f32)))
                            .collect(),
                    ),
                    other => other.clone(),
                })
                .collect()
        };
        let varyings = module
            .variables
            .iter()
            .enumerate()
            .filter(|(_, v)| v.mode == VarMode::ShaderOut && !v.builtin)
            .filter_map(|(i, v)| Some((v.name.clone(), stored(inv.get(VarId(i as u32))?))))
            .collect();
        Ok(Shaded {
            positions,
            varyings,
        })
    }

    fn fragments(
        &self,
        shaded: &Shaded<D::F>,
        tri: [usize; 3],
        front: bool,
        quads: &[Quad],
        output: VarId,
        size: (u32, u32),
    ) -> Result<Colors<D::F>, Stop> {
        let module = &self.program.fragment;
        let lanes = quads.len() * 4;
        let mut inv = Invocation::new(
            module,
            self.domain,
            self.textures,
            lanes,
            Arrangement::Quads,
        );
        self.uniforms.apply(module, &mut inv, self.domain);
        let window = tri.map(|v| window_position(shaded.positions[v], size));
        let setup = Setup::new(
            window.map(|p| [p[0], p[1]]),
            self.domain.driver().raster.interpolation,
        );
        let oow = window.map(|p| p[3]);
        let pixel = |lane: usize| {
            let quad = &quads[lane / 4];
            let k = (lane % 4) as u32;
            (quad.x + k % 2, quad.y + k / 2)
        };
        let uses = &self.program.fragment_uses;
        for (i, var) in module.variables.iter().enumerate() {
            let id = VarId(i as u32);
            if !uses.get(i).copied().unwrap_or(false) {
                continue;
            }
            match (var.mode, var.name.as_str()) {
                (VarMode::ShaderIn, name) => {
                    let Some((_, value)) = shaded.varyings.iter().find(|(n, _)| n == name) else {
                        continue;
                    };
                    let extended = self.domain.driver().arithmetic.binary32 == Binary32::Extended;
                    let value = interpolate(self.domain, value, tri, |a| {
                        let p = setup.perspective(a, oow);
                        (0..lanes)
                            .map(|l| {
                                let (x, y) = pixel(l);
                                if extended {
                                    p.at_extended(x, y)
                                } else {
                                    f64::from(p.at(x, y))
                                }
                            })
                            .collect()
                    });
                    let round = self.domain.driver().interface.round_varyings;
                    inv.set(id, self.reduced(value, var, round));
                }
                (VarMode::SystemValue, "gl_FragCoord") => {
                    let d = self.domain;
                    let coord = |f: &dyn Fn(usize) -> f32| {
                        Lanes::Float((0..lanes).map(|l| d.constant(f64::from(f(l)))).collect())
                    };
                    let x = coord(&|l| pixel(l).0 as f32 + 0.5);
                    let y = coord(&|l| pixel(l).1 as f32 + 0.5);
                    let depth = setup.plane(window.map(|p| p[2]));
                    let zc = coord(&|l| {
                        let (x, y) = pixel(l);
                        depth.at(x, y).min(1.0)
                    });
                    let inverse_w = setup.plane(oow);
                    let wc = coord(&|l| {
                        let (x, y) = pixel(l);
                        inverse_w.at(x, y)
                    });
                    inv.set(id, vec![x, y, zc, wc]);
                }
                (VarMode::SystemValue, "gl_FrontFacing") => {
                    inv.set(id, vec![Lanes::Bool(vec![front])]);
                }
                _ => {}
            }
        }
        inv.run(MAX_STEPS)
            .map_err(|e| Stop::error(format!("fragment shader: {e}")))?;
        let color = inv.get(output).cloned().unwrap_or_default();
        let round = self.domain.driver().interface.round_outputs;
        let color = match module.variables.get(output.0 as usize) {
            Some(var) => self.reduced(color, var, round),
            None => color,
        };
        let killed = inv.killed();
        let zero = self.domain.constant(0.0);
        let component = |c: usize, lane: usize| match color.get(c) {
            Some(Lanes::Float(x)) => at(x, lane),
            _ => zero,
        };
        if color.iter().all(|l| l.is_uniform()) && !killed.contains(&true) {
            return Ok(Colors::Same([0, 1, 2, 3].map(|c| component(c, 0))));
        }
        Ok(Colors::PerLane(
            (0..lanes)
                .map(|lane| {
                    let dead = killed.get(lane).copied().unwrap_or(false);
                    (!dead).then(|| [0, 1, 2, 3].map(|c| component(c, lane)))
                })
                .collect(),
        ))
    }
}

impl<D: Domain> Draw<'_, D> {
    /// `value` of interface variable `var`, rounded to binary16 when `round` (the profile
    /// rounds mediump and lowp floats there) and `var` is one.
    fn reduced(
        &self,
        value: Value<D::F>,
        var: &halfcheck_compiler::ir::Variable,
        round: bool,
    ) -> Value<D::F> {
        if !round || !var.precision.is_lowerable() {
            return value;
        }
        let d = self.domain;
        value
            .into_iter()
            .map(|lanes| match lanes {
                Lanes::Float(v) => {
                    Lanes::Float(v.into_iter().map(|x| d.convert(x, Width::Half)).collect())
                }
                other => other,
            })
            .collect()
    }
}

/// The colours a batch of fragments wrote.
enum Colors<F> {
    /// Every lane wrote this colour (nothing discarded).
    Same([F; 4]),
    /// Per lane; `None` where the fragment was discarded.
    PerLane(Vec<Option<[F; 4]>>),
}

impl<F: Copy> Colors<F> {
    fn get(&self, lane: usize) -> Option<[F; 4]> {
        match self {
            Colors::Same(color) => Some(*color),
            Colors::PerLane(colors) => colors.get(lane).copied().flatten(),
        }
    }
}

/// Interpolates a per-vertex value over a triangle's lanes: a component equal at the three
/// vertices stays as it is (exact, and uniform); the others go through `lanes`, which gives
/// the value per lane of the component with these vertex values (binary32, or extended).
fn interpolate<D: Domain>(
    d: &D,
    value: &Value<D::F>,
    tri: [usize; 3],
    lanes: impl Fn([f32; 3]) -> Vec<f64>,
) -> Value<D::F> {
    value
        .iter()
        .map(|component| match component {
            Lanes::Float(v) => {
                let (a, b, c) = (at(v, tri[0]), at(v, tri[1]), at(v, tri[2]));
                if a == b && b == c {
                    return Lanes::Float(vec![a]);
                }
                let vertex = [a, b, c].map(|x| d.representative(x) as f32);
                Lanes::Float(lanes(vertex).into_iter().map(|x| d.constant(x)).collect())
            }
            other => other.lane(tri[2]),
        })
        .collect()
}

/// The fragment shader's colour output: a user `out` (location 0 or the first), else
/// `gl_FragData` when written, else `gl_FragColor`.
fn output_var(module: &Module) -> Result<VarId, Stop> {
    let outs: Vec<(usize, &halfcheck_compiler::ir::Variable)> = module
        .variables
        .iter()
        .enumerate()
        .filter(|(_, v)| v.mode == VarMode::ShaderOut && !v.builtin)
        .collect();
    if let Some((i, _)) = outs
        .iter()
        .find(|(_, v)| v.location == Some(0))
        .or_else(|| outs.first())
    {
        return Ok(VarId(*i as u32));
    }
    let uses_data = halfcheck_compiler::ir::dump::to_sexpr(module).contains("gl_FragData");
    let name = if uses_data {
        "gl_FragData"
    } else {
        "gl_FragColor"
    };
    find_var(module, name, VarMode::ShaderOut)
        .ok_or_else(|| Stop::fail("the fragment shader has no colour output"))
}

/// The location of every vertex input: its `layout(location)`, else the one piglit's bound
/// attributes (`piglit_vertex` 0, `piglit_texcoord` 1) leave free, in declaration order, as
/// the linker gives them.
fn attribute_locations(module: &Module, attributes: &[Attribute]) -> BTreeMap<VarId, u32> {
    let inputs: Vec<(VarId, &halfcheck_compiler::ir::Variable)> = module
        .variables
        .iter()
        .enumerate()
        .filter(|(_, v)| v.mode == VarMode::ShaderIn && !v.builtin)
        .map(|(i, v)| (VarId(i as u32), v))
        .collect();
    let mut taken: Vec<u32> = inputs
        .iter()
        .filter_map(|(_, v)| {
            let bound = attributes
                .iter()
                .find(|a| a.name == v.name)
                .and_then(|a| a.location);
            v.location.and_then(|l| u32::try_from(l).ok()).or(bound)
        })
        .collect();
    let mut out = BTreeMap::new();
    for (id, var) in inputs {
        if let Some(l) = var.location.and_then(|l| u32::try_from(l).ok()) {
            out.insert(id, l);
        } else if !attributes.iter().any(|a| a.name == var.name) {
            let free = (0..).find(|l| !taken.contains(l)).unwrap_or(0);
            taken.push(free);
            out.insert(id, free);
        }
    }
    out
}

/// Vertex index triples of the triangles.
fn assemble(topology: Topology, count: usize) -> Vec<[usize; 3]> {
    match topology {
        Topology::List => (0..count / 3)
            .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
            .collect(),
        Topology::Strip => (0..count.saturating_sub(2))
            .map(|i| {
                if i % 2 == 0 {
                    [i, i + 1, i + 2]
                } else {
                    [i + 1, i, i + 2]
                }
            })
            .collect(),
        Topology::Fan => (1..count.saturating_sub(1))
            .map(|i| [0, i, i + 1])
            .collect(),
    }
}

/// A clip-space position in window coordinates as the driver computes them in binary32:
/// `x / w * (width / 2) + width / 2`, the depth `z / w * 0.5 + 0.5`, and `1 / w`.
fn window_position(p: [f64; 4], (width, height): (u32, u32)) -> [f32; 4] {
    let oow = 1.0 / p[3] as f32;
    let (hw, hh) = (width as f32 / 2.0, height as f32 / 2.0);
    [
        p[0] as f32 * oow * hw + hw,
        p[1] as f32 * oow * hh + hh,
        p[2] as f32 * oow * 0.5 + 0.5,
        oow,
    ]
}

/// The window vertices of a triangle; `None` when a vertex is behind the eye (w <= 0), which
/// would need clipping.
fn window_vertices(
    positions: &[[f64; 4]],
    tri: [usize; 3],
    size: (u32, u32),
) -> Option<[WindowVertex; 3]> {
    let mut out = [WindowVertex { x: 0.0, y: 0.0 }; 3];
    for (slot, &v) in out.iter_mut().zip(&tri) {
        let p = *positions.get(v)?;
        if p[3] <= 0.0 || !p[3].is_finite() {
            return None;
        }
        let [x, y, _, _] = window_position(p, size);
        *slot = WindowVertex {
            x: f64::from(x),
            y: f64::from(y),
        };
    }
    Some(out)
}
