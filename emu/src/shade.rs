//! Draws: the vertex shader over the vertices, primitive assembly, rasterisation, and the
//! fragment shader over batches of quads (in parallel when rayon's pool has more than one
//! thread), writing the framebuffer. A triangle whose first batch read nothing that varies
//! from fragment to fragment (no varying that differs between its vertices, no
//! `gl_FragCoord`) and wrote one colour gives every other fragment that colour without
//! shading it.
//!
//! Varyings are interpolated perspective-correctly in binary32 from the plane of each
//! triangle (`v0 + (v1 - v0) * b1 + (v2 - v0) * b2`, so a varying equal at the three vertices
//! stays exact); `flat` and integer varyings take the last vertex's value. `gl_FragCoord` is the pixel centre,
//! the interpolated depth and 1/w; `gl_FrontFacing` follows the winding.
//!
//! In a domain that tracks ranges (acceptance intervals), interpolated values enter as every
//! value a conforming driver may interpolate ([`interp::range_at`]), lowp/mediump inputs and
//! attributes in the precision they declare, and a lane whose path the ranges left open
//! writes an unbounded colour.

use super::framebuffer::Framebuffer;
use super::interp::{self, Setup};
use super::program::{check_batch, Program, QUADS_PER_BATCH};
use super::raster::{self, Coverage, Quad, WindowVertex};
use super::textures::Units;
use super::ties;
use super::uniforms::Uniforms;
use crate::exec::value::at;
use crate::exec::{find_var, layout, Arrangement, Binary, Domain, Invocation, Lanes, Value, Width};
use crate::profile::Binary32;
use halfcheck_compiler::ir::{Module, Precision, VarId, VarMode};
use halfcheck_piglit::shader_test::Stage;
use halfcheck_piglit::Stop;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Statements one batch may execute before it counts as hung.
const MAX_STEPS: u64 = 1_000_000;

/// One vertex attribute: its name, location, and values per vertex.
pub(crate) struct Attribute {
    /// Name in the shader (`piglit_vertex`), or empty for a numbered column.
    pub name: String,
    /// Location, for columns named by number and piglit's bound attributes.
    pub location: Option<u32>,
    /// Components per vertex, each vertex's list.
    pub values: Vec<Vec<f32>>,
}

/// How the vertices make triangles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Topology {
    /// `GL_TRIANGLES`
    List,
    /// `GL_TRIANGLE_STRIP`
    Strip,
    /// `GL_TRIANGLE_FAN`
    Fan,
}

/// Blending of the fragment's colour into the framebuffer: source and destination factors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Blend {
    /// Source factor name (`GL_SRC_ALPHA`).
    pub src: Factor,
    /// Destination factor name.
    pub dst: Factor,
}

/// A blend factor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Factor {
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
    pub(crate) fn from_name(name: &str) -> Option<Factor> {
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
pub(crate) struct Draw<'a, D: Domain> {
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

/// The triangles a pixel on a tie may take its colour from: every triangle on screen as
/// (triangle, front facing, window vertices, its raster), each raster's one colour where it
/// shaded every fragment alike, and the vertex shader's outputs.
struct Candidates<'a, F> {
    on_screen: &'a [(usize, bool, [WindowVertex; 3], Option<usize>)],
    alike: &'a [Option<[F; 4]>],
    shaded: &'a Shaded<F>,
    triangles: &'a [[usize; 3]],
}

/// Vertex shader outputs: positions and varyings by name, one entry per vertex.
struct Shaded<F> {
    positions: Vec<[f64; 4]>,
    /// How far, in window pixels, a conforming driver's position may lie from `positions`
    /// (0 for point domains; infinite where the vertex's path was left open).
    slack: Vec<f64>,
    varyings: Vec<(String, Value<F>)>,
    /// Whether some vertex's position or varyings rest on something never written: what the
    /// draw covers, and with which values, may differ from run to run.
    indeterminate: bool,
}

/// The width a variable of precision `p` may be held in (lowp and mediump their own).
fn declared_width(p: halfcheck_compiler::ir::Precision) -> Width {
    use halfcheck_compiler::ir::Precision;
    match p {
        Precision::Low => Width::Low,
        Precision::Medium => Width::Half,
        _ => Width::Single,
    }
}

/// `x` with its bounds given up: the path that computed it was left open (an indeterminate
/// `x` stays so).
fn unbounded<D: Domain>(d: &D, x: D::F) -> D::F {
    if d.is_indeterminate(x) {
        return x;
    }
    d.enter(
        d.representative(x),
        f64::NEG_INFINITY,
        f64::INFINITY,
        Width::Single,
    )
}

impl<D: Domain> Draw<'_, D> {
    /// Runs the vertex shader on `attributes`, rasterises `topology` and shades into `fb`.
    pub(crate) fn run(
        &self,
        attributes: &[Attribute],
        count: usize,
        topology: Topology,
        fb: &mut Framebuffer<D::F>,
    ) -> Result<(), Stop> {
        let shaded = self.vertices(attributes, count, (fb.width, fb.height))?;
        let triangles = assemble(topology, count);
        let snap = self.domain.driver().raster.subpixel_snap;
        // What each triangle covers, in draw order: (triangle, front facing, coverage).
        let mut rasters: Vec<(usize, bool, Coverage)> = Vec::new();
        // Every triangle on screen: (triangle, front facing, window vertices, its raster).
        let mut on_screen: Vec<(usize, bool, [WindowVertex; 3], Option<usize>)> = Vec::new();
        for (t, &tri) in triangles.iter().enumerate() {
            let Some(window) = window_vertices(&shaded.positions, tri, (fb.width, fb.height))?
            else {
                continue;
            };
            let (coverage, front) =
                raster::triangle(window, fb.width, fb.height, self.needed, snap);
            let raster = (!coverage.is_empty()).then_some(rasters.len());
            on_screen.push((t, front, window, raster));
            if !coverage.is_empty() {
                rasters.push((t, front, coverage));
            }
        }
        // Pixels whose coverage another driver may decide otherwise, with what they held.
        let open_ties = if self.domain.tracks_ranges() {
            let candidates: Vec<ties::Triangle> = on_screen
                .iter()
                .map(|&(t, _, vertices, raster)| ties::Triangle {
                    vertices,
                    coverage: raster.map(|r| &rasters[r].2),
                    slack: triangles[t]
                        .iter()
                        .map(|&v| shaded.slack.get(v).copied().unwrap_or(0.0))
                        .fold(0.0, f64::max),
                })
                .collect();
            ties::ties(&candidates, fb.width, fb.height, self.needed)
                .into_iter()
                .filter_map(|tie| Some((fb.pixel_mut(tie.x, tie.y).copied()?, tie)))
                .collect()
        } else {
            Vec::new()
        };
        let output = output_var(&self.program.fragment)?;
        let size = (fb.width, fb.height);
        let shade = |r: usize, quads: &[Quad]| {
            let (t, front, _) = &rasters[r];
            self.fragments(&shaded, triangles[*t], *front, quads, output, size)
        };
        // Each triangle's first batch. One that read nothing varying from fragment to
        // fragment coloured every fragment of its triangle alike: the rest of the triangle
        // takes its colour unshaded, its whole blocks as whole tiles. The first batch that
        // fails (a shader that loops forever) stops those not yet begun.
        let first_batches: Vec<Vec<Quad>> = rasters
            .iter()
            .map(|(_, _, coverage)| coverage.first_quads(QUADS_PER_BATCH))
            .collect();
        let firsts: Vec<Shading<D::F>> = each(&first_batches, |(r, quads)| shade(r, quads))?;
        // Every quad of the triangles whose first batch varied, that batch first.
        // Each triangle's one colour, where its first batch shaded every fragment alike.
        let colours: Vec<Option<[D::F; 4]>> = firsts.iter().map(Shading::alike).collect();
        let varied: Vec<(usize, Vec<Quad>)> = rasters
            .iter()
            .enumerate()
            .filter(|(r, _)| colours[*r].is_none())
            .map(|(r, (_, _, coverage))| (r, coverage.all_quads()))
            .collect();
        let rest: Vec<(usize, &[Quad])> = varied
            .iter()
            .flat_map(|(r, quads)| quads.chunks(QUADS_PER_BATCH).skip(1).map(|c| (*r, c)))
            .collect();
        let rest_colors: Vec<Colors<D::F>> =
            each(&rest, |(_, &(r, quads))| shade(r, quads).map(|s| s.colors))?;
        let mut rest = rest.iter().zip(&rest_colors).peekable();
        // Consecutive triangles of one colour are filled together (unblended, the colour of
        // their union), so that a tile their shared edge crosses is filled whole at once.
        let mut alike: Option<([D::F; 4], Vec<&Coverage>)> = None;
        for (r, (_, _, coverage)) in rasters.iter().enumerate() {
            let first = &firsts[r];
            if let Some(color) = colours[r] {
                match &mut alike {
                    Some((c, group)) if self.blend.is_none() && self.same_color(c, &color) => {
                        group.push(coverage)
                    }
                    _ => {
                        if let Some((c, group)) = alike.replace((color, vec![coverage])) {
                            self.fill(&group, c, fb);
                        }
                    }
                }
                continue;
            }
            if let Some((c, group)) = alike.take() {
                self.fill(&group, c, fb);
            }
            self.write(&first_batches[r], &first.colors, fb);
            while let Some(((_, quads), colors)) = rest.next_if(|((at, _), _)| *at == r) {
                self.write(quads, colors, fb);
            }
        }
        if let Some((c, group)) = alike {
            self.fill(&group, c, fb);
        }
        let candidates = Candidates {
            on_screen: &on_screen,
            alike: &colours,
            shaded: &shaded,
            triangles: &triangles,
        };
        self.settle_ties(&open_ties, &candidates, output, fb)?;
        if shaded.indeterminate {
            self.mark_indeterminate(fb);
        }
        Ok(())
    }

    /// Marks every pixel [`Domain::indeterminate`]: a draw whose vertices rest on something
    /// never written may cover any of them, with any value.
    fn mark_indeterminate(&self, fb: &mut Framebuffer<D::F>) {
        let d = self.domain;
        fb.map(|color| color.map(|c| d.indeterminate(c)));
    }

    /// Gives each pixel whose coverage the ties leave open the hull of every value it may
    /// end with (`ties`), from `before` (what it held before the draw) and each candidate
    /// triangle shaded there. Blending makes such a pixel unbounded.
    fn settle_ties(
        &self,
        open: &[([D::F; 4], ties::Tie)],
        candidates: &Candidates<'_, D::F>,
        output: VarId,
        fb: &mut Framebuffer<D::F>,
    ) -> Result<(), Stop> {
        let Candidates {
            on_screen,
            alike,
            shaded,
            triangles,
        } = candidates;
        let d = self.domain;
        let size = (fb.width, fb.height);
        let join = |slot: &mut Option<[D::F; 4]>, color: [D::F; 4]| {
            *slot = Some(match *slot {
                None => color,
                Some(held) => [0, 1, 2, 3].map(|c| d.either(held[c], color[c])),
            });
        };
        // The modelled driver's own value first: a point domain keeps it (`Domain::either`).
        let mut settled: Vec<Option<[D::F; 4]>> = open
            .iter()
            .map(|(before, tie)| {
                let mut slot = fb.pixel_mut(tie.x, tie.y).copied();
                if tie.may_keep {
                    join(&mut slot, *before);
                }
                slot
            })
            .collect();
        let blended = |color: [D::F; 4]| match self.blend {
            None => color,
            Some(_) => color.map(|x| unbounded(d, x)),
        };
        for (candidate, &(t, front, _, raster)) in on_screen.iter().enumerate() {
            let pixels: Vec<usize> = (0..open.len())
                .filter(|&k| open[k].1.candidates.contains(&candidate))
                .collect();
            // A triangle that shaded every fragment alike shades its tie pixels so too.
            if let Some(color) = raster.and_then(|r| alike.get(r).copied().flatten()) {
                for &k in &pixels {
                    join(&mut settled[k], blended(color));
                }
                continue;
            }
            for chunk in pixels.chunks(QUADS_PER_BATCH) {
                let quads: Vec<Quad> = chunk
                    .iter()
                    .map(|&k| ties::quad_of(open[k].1.x, open[k].1.y))
                    .collect();
                let shading = self.fragments(shaded, triangles[t], front, &quads, output, size)?;
                for (i, &k) in chunk.iter().enumerate() {
                    let lane = i * 4 + quads[i].covered.iter().position(|&c| c).unwrap_or(0);
                    let color = match shading.colors.get(lane) {
                        // The shaded colour (anything where blended).
                        Some(color) => blended(color),
                        // Discarded (the pixel keeps what it held): anything.
                        None => open[k].0.map(|x| unbounded(d, x)),
                    };
                    join(&mut settled[k], color);
                }
            }
        }
        for ((_, tie), value) in open.iter().zip(settled) {
            if let (Some(value), Some(pixel)) = (value, fb.pixel_mut(tie.x, tie.y)) {
                *pixel = value;
            }
        }
        Ok(())
    }

    /// Whether two colours are the same values, bit for bit.
    fn same_color(&self, a: &[D::F; 4], b: &[D::F; 4]) -> bool {
        a.iter().zip(b).all(|(a, b)| self.domain.same(a, b))
    }

    /// Writes (or blends) `color` into every pixel the `coverages` hold, in order.
    fn fill(&self, coverages: &[&Coverage], color: [D::F; 4], fb: &mut Framebuffer<D::F>) {
        if self.blend.is_some() {
            for coverage in coverages {
                self.write(&coverage.all_quads(), &Colors::Same(color), fb);
            }
            return;
        }
        let quads: Vec<Quad> = coverages
            .iter()
            .flat_map(|c| c.quads.iter().copied())
            .collect();
        for coverage in coverages {
            fb.fill_blocks(&coverage.blocks, color);
        }
        fb.fill(&quads, color, |a, b| self.domain.same(a, b));
    }

    /// Writes (or blends) the colours a batch of `quads` gave into `fb`.
    fn write(&self, quads: &[Quad], colors: &Colors<D::F>, fb: &mut Framebuffer<D::F>) {
        if let (Colors::Same(color), None) = (colors, self.blend) {
            fb.fill(quads, *color, |a, b| self.domain.same(a, b));
            return;
        }
        for (lane, quad) in (0..quads.len() * 4).map(|lane| (lane, &quads[lane / 4])) {
            let k = lane % 4;
            let Some(color) = colors.get(lane).filter(|_| quad.covered[k]) else {
                continue;
            };
            if let Some(pixel) = fb.pixel_mut(quad.x + k as u32 % 2, quad.y + k as u32 / 2) {
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

    fn vertices(
        &self,
        attributes: &[Attribute],
        count: usize,
        size: (u32, u32),
    ) -> Result<Shaded<D::F>, Stop> {
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
                    let width = declared_width(var.precision);
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
                                    .map(|x| self.domain.enter(x, x, x, width))
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
        let d = self.domain;
        let positions: Vec<[f64; 4]> = (0..count)
            .map(|v| {
                [0, 1, 2, 3].map(|c| match position.get(c) {
                    Some(Lanes::Float(x)) => d.representative(at(x, v)) as f32 as f64,
                    _ => 0.0,
                })
            })
            .collect();
        let uncertain = inv.uncertain().to_vec();
        let open = |v: usize| d.tracks_ranges() && uncertain.get(v).copied().unwrap_or(false);
        let indeterminate = inv.indeterminate().contains(&true)
            || module.variables.iter().enumerate().any(|(i, var)| {
                var.mode == VarMode::ShaderOut
                    && inv.get(VarId(i as u32)).is_some_and(|value| {
                        value.iter().any(|lanes| match lanes {
                            Lanes::Float(x) => x.iter().any(|&x| d.is_indeterminate(x)),
                            _ => false,
                        })
                    })
            });
        let slack = (0..count)
            .map(|v| {
                if !d.tracks_ranges() {
                    return 0.0;
                }
                if open(v) {
                    return f64::INFINITY;
                }
                let range = |c: usize| match position.get(c) {
                    Some(Lanes::Float(x)) => d.range(at(x, v)),
                    _ => (0.0, 0.0),
                };
                window_slack(positions[v], [range(0), range(1), range(3)], size)
            })
            .collect();
        // Varyings leave the vertex shader as binary32; only a profile that computes binary32
        // at extended precision holds anything more until here.
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
            .filter_map(|(i, v)| {
                let mut value = stored(inv.get(VarId(i as u32))?);
                if (0..count).any(open) {
                    for lanes in &mut value {
                        *lanes = lanes.expanded(count);
                        if let Lanes::Float(x) = lanes {
                            for (vertex, slot) in x.iter_mut().enumerate() {
                                if open(vertex) {
                                    *slot = unbounded(d, *slot);
                                }
                            }
                        }
                    }
                }
                Some((v.name.clone(), value))
            })
            .collect();
        Ok(Shaded {
            positions,
            slack,
            varyings,
            indeterminate,
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
    ) -> Result<Shading<D::F>, Stop> {
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
        let slack = tri
            .iter()
            .map(|&v| shaded.slack.get(v).copied().unwrap_or(0.0))
            .fold(0.0, f64::max);
        let ranges_at = |values: [[f64; 2]; 3], perspective: bool| -> Vec<[f64; 2]> {
            (0..lanes)
                .map(|l| interp::range_at(&window, values, slack, pixel(l), perspective))
                .collect()
        };
        let uses = &self.program.fragment_uses;
        // Whether some input the shader reads differs from one fragment to the next.
        let mut varies = false;
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
                    let entry = Entry {
                        tri,
                        width: declared_width(var.precision),
                        same_w: oow[0] == oow[1] && oow[1] == oow[2],
                        flat: var.flat,
                    };
                    let value = interpolate(
                        self.domain,
                        value,
                        &entry,
                        |a| {
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
                        },
                        |a| ranges_at(a, true),
                    );
                    let round = self.domain.driver().interface.round_varyings;
                    let value = self.reduced(value, var, round);
                    varies |= !value.iter().all(Lanes::is_uniform);
                    inv.set(id, value);
                }
                (VarMode::SystemValue, "gl_FragCoord") => {
                    varies = true;
                    let d = self.domain;
                    // GLSL ES 1.00 declares it mediump, and promoting the shader cannot
                    // change that: any conforming evaluation may read it in that precision.
                    let width = declared_width(var.precision);
                    let coord = |f: &dyn Fn(usize) -> f32| {
                        Lanes::Float(
                            (0..lanes)
                                .map(|l| {
                                    let x = f64::from(f(l));
                                    d.enter(x, x, x, width)
                                })
                                .collect(),
                        )
                    };
                    // z and 1/w are planes in window space: intervals in range domains.
                    let planar = |f: &dyn Fn(usize) -> f32, vertex: [f32; 3]| {
                        if !d.tracks_ranges() {
                            return coord(f);
                        }
                        let ranges = ranges_at(vertex.map(|v| [f64::from(v); 2]), false);
                        Lanes::Float(
                            (0..lanes)
                                .map(|l| {
                                    let [lo, hi] = ranges[l];
                                    d.enter(f64::from(f(l)), lo, hi, width)
                                })
                                .collect(),
                        )
                    };
                    let x = coord(&|l| pixel(l).0 as f32 + 0.5);
                    let y = coord(&|l| pixel(l).1 as f32 + 0.5);
                    let depth = setup.plane(window.map(|p| p[2]));
                    let zc = planar(
                        &|l| {
                            let (x, y) = pixel(l);
                            depth.at(x, y).min(1.0)
                        },
                        window.map(|p| p[2]),
                    );
                    let inverse_w = setup.plane(oow);
                    let wc = planar(
                        &|l| {
                            let (x, y) = pixel(l);
                            inverse_w.at(x, y)
                        },
                        oow,
                    );
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
        let d = self.domain;
        let (open, indeterminate): (Vec<bool>, Vec<bool>) = if d.tracks_ranges() {
            let indeterminate = if reaches_draw_buffer(module, output) {
                inv.indeterminate().to_vec()
            } else {
                vec![true; lanes]
            };
            (inv.uncertain().to_vec(), indeterminate)
        } else {
            (Vec::new(), Vec::new())
        };
        let zero = d.constant(0.0);
        let component = |c: usize, lane: usize| {
            let x = match color.get(c) {
                Some(Lanes::Float(x)) => at(x, lane),
                // A component the output lacks (a float or vec2 output on the RGBA buffer):
                // no spec gives it a value, and what a driver leaves there differs from run
                // to run, so a domain that tracks ranges makes it indeterminate.
                _ => return d.indeterminate(zero),
            };
            if indeterminate.get(lane).copied().unwrap_or(false) {
                d.indeterminate(x)
            } else {
                x
            }
        };
        // One colour for every lane: every lane holds the same colour, no lane was
        // discarded, and every lane left its path open, or none did (so with uniform
        // inputs, a branch on an overflowing uniform leaves every fragment alike, whether
        // one way of it ran or both).
        if color.iter().all(|l| alike_in_every_lane(d, l))
            && !killed.contains(&true)
            && all_equal(&open)
            && all_equal(&indeterminate)
        {
            let color = [0, 1, 2, 3].map(|c| component(c, 0));
            let color = if open.first().copied().unwrap_or(false) {
                color.map(|x| unbounded(d, x))
            } else {
                color
            };
            return Ok(Shading {
                colors: Colors::Same(color),
                varies,
            });
        }
        let colors = Colors::PerLane(
            (0..lanes)
                .map(|lane| {
                    let dead = killed.get(lane).copied().unwrap_or(false);
                    if open.get(lane).copied().unwrap_or(false) {
                        // Written or not, any value: the path was left open.
                        return Some([0, 1, 2, 3].map(|c| unbounded(d, component(c, lane))));
                    }
                    (!dead).then(|| [0, 1, 2, 3].map(|c| component(c, lane)))
                })
                .collect(),
        );
        Ok(Shading { colors, varies })
    }
}

impl<D: Domain> Draw<'_, D> {
    /// `value` of interface variable `var`, rounded to binary16 when `round` (the profile
    /// rounds mediump and lowp floats there) and `var` is one.
    /// In a domain that tracks ranges, a mediump or lowp variable may hold any value in
    /// binary16 too, whatever the profile: the spec lets any driver store it so (zink rounds
    /// ES 1.00's `gl_FragColor`, a mediump output, where llvmpipe does not).
    fn reduced(
        &self,
        value: Value<D::F>,
        var: &halfcheck_compiler::ir::Variable,
        round: bool,
    ) -> Value<D::F> {
        if !var.precision.is_lowerable() {
            return value;
        }
        let d = self.domain;
        let value = if d.tracks_ranges() {
            stored_in_binary16(d, value, var.precision == Precision::Low)
        } else {
            value
        };
        if !round {
            return value;
        }
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

/// Each float of `value`, or its binary16 rounding: a range `[lo, hi]` grows to hold
/// `[f16(lo), f16(hi)]` (rounding is monotonic, so that holds every value's). A `lowp`
/// variable may also hold it in lowp's own format ([`Width::Low`]: in `M`, a fixed point
/// below 2, anything beyond; NVIDIA stores a lowp output on a grid of `2^-8`).
fn stored_in_binary16<D: Domain>(d: &D, value: Value<D::F>, lowp: bool) -> Value<D::F> {
    let rounded = |x: f64| half::f16::from_f64(x).to_f64();
    value
        .into_iter()
        .map(|lanes| match lanes {
            Lanes::Float(v) => Lanes::Float(
                v.into_iter()
                    .map(|x| {
                        let (lo, hi) = d.range(x);
                        let (lo16, hi16) = (rounded(lo), rounded(hi));
                        let x = if lo16 >= lo && hi16 <= hi {
                            x
                        } else {
                            let stored = d.enter(
                                d.representative(x),
                                lo.min(lo16),
                                hi.max(hi16),
                                Width::Single,
                            );
                            d.either(x, stored)
                        };
                        if lowp {
                            d.either(x, d.convert(x, Width::Low))
                        } else {
                            x
                        }
                    })
                    .collect(),
            ),
            other => other,
        })
        .collect()
}

/// What a batch of fragments wrote, and whether anything they read varied between them.
struct Shading<F> {
    colors: Colors<F>,
    varies: bool,
}

/// Whether every lane of `lanes` holds the same value, bit for bit: stored once, or once per
/// lane where both ways of a branch wrote it (a branch the intervals leave open).
fn alike_in_every_lane<D: Domain>(d: &D, lanes: &Lanes<D::F>) -> bool {
    match lanes {
        Lanes::Float(x) => x.windows(2).all(|w| d.same(&w[0], &w[1])),
        Lanes::Int(x) => all_equal(x),
        Lanes::Bool(x) => all_equal(x),
    }
}

/// Whether every item equals the first.
fn all_equal<T: PartialEq>(items: &[T]) -> bool {
    items.windows(2).all(|w| w[0] == w[1])
}

impl<F: Copy> Shading<F> {
    /// The colour every fragment of the triangle writes, when the batch read nothing that
    /// varies from fragment to fragment and wrote one colour everywhere.
    fn alike(&self) -> Option<[F; 4]> {
        match self.colors {
            Colors::Same(color) if !self.varies => Some(color),
            _ => None,
        }
    }
}

/// `f` over `items` with their indices, in parallel on rayon's pool when it has more than
/// one thread, else in order on this thread: a worker that shares the CPUs with others gets
/// a pool of one (`runner`), where handing batches to another thread only costs switches.
/// The first error stops the items not yet begun.
fn each<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn((usize, &T)) -> Result<R, Stop> + Sync + Send,
) -> Result<Vec<R>, Stop> {
    if rayon::current_num_threads() > 1 {
        items.par_iter().enumerate().map(f).collect()
    } else {
        items.iter().enumerate().map(f).collect()
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

/// How a fragment input enters: its triangle, the width its precision allows, and whether
/// the three vertices share one `w` (then a value equal at the three stays exact).
struct Entry {
    tri: [usize; 3],
    width: Width,
    same_w: bool,
    /// A `flat` input: the provoking (last) vertex's value, not interpolated.
    flat: bool,
}

/// Interpolates a per-vertex value over a triangle's lanes: a `flat` one, and a component
/// equal at the three vertices, stays as it is (exact, and uniform); the others go through `lanes`, which gives
/// the value per lane of the component with these vertex values (binary32, or extended), and
/// in a domain that
/// tracks ranges through `ranges`, every value a conforming driver may interpolate per lane.
fn interpolate<D: Domain>(
    d: &D,
    value: &Value<D::F>,
    entry: &Entry,
    lanes: impl Fn([f32; 3]) -> Vec<f64>,
    ranges: impl Fn([[f64; 2]; 3]) -> Vec<[f64; 2]>,
) -> Value<D::F> {
    let tri = entry.tri;
    let ranged = d.tracks_ranges();
    value
        .iter()
        .map(|component| match component {
            Lanes::Float(v) if entry.flat => {
                let provoking = at(v, tri[2]);
                let (lo, hi) = d.range(provoking);
                Lanes::Float(vec![d.enter(
                    d.representative(provoking),
                    lo,
                    hi,
                    entry.width,
                )])
            }
            Lanes::Float(v) => {
                let (a, b, c) = (at(v, tri[0]), at(v, tri[1]), at(v, tri[2]));
                if a == b && b == c && (!ranged || entry.same_w) {
                    if !ranged {
                        return Lanes::Float(vec![a]);
                    }
                    let (lo, hi) = d.range(a);
                    return Lanes::Float(vec![d.enter(d.representative(a), lo, hi, entry.width)]);
                }
                let vertex = [a, b, c].map(|x| d.representative(x) as f32);
                let points = lanes(vertex);
                if !ranged {
                    return Lanes::Float(points.into_iter().map(|x| d.constant(x)).collect());
                }
                let bounds = ranges([a, b, c].map(|x| {
                    let (lo, hi) = d.range(x);
                    [lo, hi]
                }));
                Lanes::Float(
                    points
                        .into_iter()
                        .zip(bounds)
                        .map(|(x, [lo, hi])| d.enter(x, lo, hi, entry.width))
                        .collect(),
                )
            }
            other => other.lane(tri[2]),
        })
        .collect()
}

/// How far, in window pixels, a vertex may lie from `position` for clip coordinates in the
/// ranges `x`, `y`, `w` (infinite when `w` may be 0 or the ranges are unbounded).
fn window_slack(position: [f64; 4], ranges: [(f64, f64); 3], (width, height): (u32, u32)) -> f64 {
    let [x, y, w] = ranges;
    if w.0 <= 0.0 || ![x.0, x.1, y.0, y.1, w.0, w.1].iter().all(|v| v.is_finite()) {
        return f64::INFINITY;
    }
    let centre = |c: f64, pw: f64, half: f64| c / pw * half;
    let (hw, hh) = (f64::from(width) / 2.0, f64::from(height) / 2.0);
    let (px, py) = (
        centre(position[0], position[3], hw),
        centre(position[1], position[3], hh),
    );
    let mut slack: f64 = 0.0;
    for cw in [w.0, w.1] {
        for cx in [x.0, x.1] {
            slack = slack.max((centre(cx, cw, hw) - px).abs());
        }
        for cy in [y.0, y.1] {
            slack = slack.max((centre(cy, cw, hh) - py).abs());
        }
    }
    slack
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

/// Whether `output` reaches the window's draw buffer (location 0): an output at another
/// location leaves draw buffer 0 written by nothing, which holds an undefined value there
/// (GLSL ES 3.00 section 4.3.8.2; OpenGL ES 3.0 section 4.2.1: a draw buffer no output is
/// bound to is undefined), so a domain that tracks ranges makes it indeterminate.
fn reaches_draw_buffer(module: &Module, output: VarId) -> bool {
    module
        .variables
        .get(output.0 as usize)
        .is_none_or(|v| v.builtin || v.location.is_none_or(|l| l == 0))
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

/// The window vertices of a triangle; `None` when the clip volume's near or far plane, or
/// `w > 0`, leaves it wholly outside. One that crosses such a plane would need clipping,
/// which the emulator does not do: the test is skipped rather than drawn wrong.
fn window_vertices(
    positions: &[[f64; 4]],
    tri: [usize; 3],
    size: (u32, u32),
) -> Result<Option<[WindowVertex; 3]>, Stop> {
    let Some(vertices) = tri
        .iter()
        .map(|&v| positions.get(v).copied())
        .collect::<Option<Vec<[f64; 4]>>>()
    else {
        return Ok(None);
    };
    // Outside the plane w > 0, the far plane, the near plane.
    let planes: [fn(&[f64; 4]) -> bool; 3] = [
        |p| !(p[3] > 0.0 && p[3].is_finite()),
        |p| p[2] > p[3],
        |p| p[2] < -p[3],
    ];
    for outside in planes {
        if vertices.iter().all(outside) {
            return Ok(None);
        }
        if vertices.iter().any(outside) {
            return Err(Stop::skip(
                "a triangle crosses the near or far clip plane (or w <= 0): the emulator \
                 does not clip",
            ));
        }
    }
    let mut out = [WindowVertex { x: 0.0, y: 0.0 }; 3];
    for (slot, p) in out.iter_mut().zip(vertices) {
        let [x, y, _, _] = window_position(p, size);
        *slot = WindowVertex {
            x: f64::from(x),
            y: f64::from(y),
        };
    }
    Ok(Some(out))
}
