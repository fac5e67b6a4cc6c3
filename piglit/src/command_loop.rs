//! Piglit's `[test]` command loop, once for every backend, over a [`Device`].
//!
//! Mirrors `shader_runner`'s rules:
//! - a command piglit knows but halfcheck does not run skips the test before anything runs;
//! - a shader that does not compile, or a command that errors, ends the test (`Err(Stop)`);
//! - a failing probe fails the test and the commands go on; `probe warn` only warns;
//! - drawing or setting a uniform needs a linked program in use: without one the test fails
//!   ("Failed to link"), and a uniform without a program ends it;
//! - a program that does not link fails the test at the end unless it says `link error`,
//!   and `link error` on a program that linked ends it;
//! - `tolerance` sets the first 1 to 4 channel tolerances of the probes after it;
//! - buffer probes (`probe ssbo`, `probe atomic counter`) fail the test like colour probes
//!   but record no pixel; `compute` needs a linked program like a draw.

use super::device::{ArraysDraw, Device, Primitive, Program, RectDraw};
use super::draw;
use super::probe::{
    buffer_holds, failure_reason, judge, judge_integers, region, DEFAULT_TOLERANCE,
};
use crate::shader_test::{Command, Probe, RectMode, Scalar, ShaderTest};
use crate::Stop;
use halfcheck_results::{ProbeResult, Status, TestResult};
use std::collections::BTreeMap;

/// Runs `test`'s commands on `device` (the test's requirements already checked) and reports
/// its status, probes and logs.
pub fn run<D: Device + ?Sized>(device: &mut D, test: &ShaderTest) -> TestResult {
    let mut state = Loop {
        window: test.require.window_size(),
        program: Program::Missing,
        tolerance: DEFAULT_TOLERANCE,
        clear_color: None,
        clear_depth: None,
        link_error_expected: false,
        probes: Vec::new(),
        failure: None,
        warning: None,
    };
    let mut logs = BTreeMap::new();
    let stopped = unsupported(test).map_or(Ok(()), Err).and_then(|()| {
        state.program = device.start(test, &mut logs)?;
        test.commands
            .iter()
            .try_for_each(|command| state.command(device, test, &command.value, command.line))
    });
    state.finish(stopped, logs)
}

/// The skip for the first command piglit knows and halfcheck does not run.
fn unsupported(test: &ShaderTest) -> Option<Stop> {
    test.commands
        .iter()
        .find_map(|command| match &command.value {
            Command::Unsupported { name } => {
                Some(Stop::skip(format!("unsupported command: {name}")))
            }
            _ => None,
        })
}

/// The loop's state while the commands run.
struct Loop {
    /// piglit's window size, which `draw rect ortho` maps to.
    window: (u32, u32),
    program: Program,
    tolerance: [f64; 4],
    /// `clear color`, once given: `clear` then clears the colour.
    clear_color: Option<[f32; 4]>,
    /// `clear depth`, once given: `clear` then clears the depth.
    clear_depth: Option<f64>,
    link_error_expected: bool,
    probes: Vec<ProbeResult>,
    failure: Option<String>,
    warning: Option<String>,
}

impl Loop {
    /// Records a failure; the first one is the test's reason.
    fn fail(&mut self, reason: String) {
        self.failure.get_or_insert(reason);
    }

    /// Piglit's `program_must_be_in_use`: records a failure when nothing linked.
    fn program_in_use(&mut self) -> bool {
        let why = match &self.program {
            Program::Linked => return true,
            Program::Missing => "no program".to_owned(),
            Program::NotLinked(log) => log.clone(),
        };
        self.fail(format!("Failed to link: {why}"));
        false
    }

    fn command<D: Device + ?Sized>(
        &mut self,
        device: &mut D,
        test: &ShaderTest,
        command: &Command,
        line: usize,
    ) -> Result<(), Stop> {
        match command {
            Command::Clear => device.clear(self.clear_color, self.clear_depth)?,
            Command::ClearColor(color) => self.clear_color = Some(*color),
            Command::ClearDepth(depth) => self.clear_depth = Some(*depth),
            Command::DrawRect { mode, patch, rect } => {
                if self.program_in_use() {
                    device.draw_rect(&RectDraw {
                        corners: draw::rect(*rect, *mode, self.window),
                        patch: *patch,
                        instances: 1,
                    })?;
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
                    device.draw_rect(&RectDraw {
                        corners: draw::rect(*rect, mode, self.window),
                        patch: *patch,
                        instances: *instances,
                    })?;
                }
            }
            Command::DrawArrays {
                mode,
                first,
                count,
                instances,
            } => {
                if self.program_in_use() {
                    let rows = test.vertex_data.as_ref().map(|data| data.rows.len());
                    let draw = arrays(mode, *first, *count, *instances, rows)?;
                    device.draw_arrays(&draw)?;
                }
            }
            Command::Uniform(set) => {
                if self.program != Program::Linked {
                    return Err(Stop::fail(format!(
                        "cannot get location of uniform \"{}\"",
                        set.name
                    )));
                }
                device.set_uniform(set)?;
            }
            Command::Tolerance(values) => {
                for (slot, value) in self.tolerance.iter_mut().zip(values) {
                    *slot = *value;
                }
            }
            Command::Probe(probe) => self.probe(device, probe, line)?,
            Command::TextureRgbw(texture) => device.texture_rgbw(texture)?,
            Command::TextureCheckerboard(texture) => device.texture_checkerboard(texture)?,
            Command::TexParameter {
                target,
                parameter,
                value,
            } => device.tex_parameter(target, parameter, value)?,
            Command::Fb { target, binding } => device.fb(*target, binding)?,
            Command::Blit { buffer, linear } => device.blit(*buffer, *linear)?,
            Command::AtomicCounterBuffer { binding, count } => {
                device.atomic_counter_buffer(*binding, *count)?
            }
            Command::AtomicCounter {
                binding,
                index,
                value,
            } => device.atomic_counter(*binding, *index, *value)?,
            Command::FbfetchBarrier => device.fbfetch_barrier()?,
            Command::TextureStorage(texture) => device.texture_storage(texture)?,
            Command::TextureInteger(texture) => device.texture_integer(texture)?,
            Command::TextureJunk2dArray {
                unit,
                width,
                height,
                layers,
            } => device.texture_junk_2d_array(*unit, [*width, *height, *layers])?,
            Command::ImageTexture { unit, format } => device.image_texture(*unit, format)?,
            Command::Ssbo { binding, size } => device.ssbo(*binding, *size)?,
            Command::SsboSubdata {
                binding,
                offset,
                value,
            } => device.ssbo_subdata(*binding, *offset, scalar_bytes(*value))?,
            Command::Compute(groups) => {
                if self.program_in_use() {
                    device.compute(*groups)?;
                }
            }
            Command::MemoryBarrier(bits) => device.memory_barrier(bits)?,
            Command::BufferProbe(probe) => {
                let bytes = device.read_buffer(&probe.buffer)?;
                if let Err(why) = buffer_holds(probe, bytes) {
                    self.fail(format!("probe at line {line} failed: {why}"));
                }
            }
            Command::LinkSuccess => {
                self.program_in_use();
            }
            Command::LinkError => {
                self.link_error_expected = true;
                if self.program == Program::Linked {
                    return Err(Stop::fail(
                        "shader link error expected, but it was successful!",
                    ));
                }
            }
            Command::Enable(name) => device.enable(name, true)?,
            Command::Disable(name) => device.enable(name, false)?,
            Command::BlendFunc { src, dst } => device.blend_func(src, dst)?,
            Command::Unsupported { name } => {
                return Err(Stop::skip(format!("unsupported command: {name}")))
            }
        }
        Ok(())
    }

    /// Reads a probe's region, judges it, and records the result.
    fn probe<D: Device + ?Sized>(
        &mut self,
        device: &mut D,
        probe: &Probe,
        line: usize,
    ) -> Result<(), Stop> {
        let (width, height) = device.read_size();
        let r = region(probe, width, height).map_err(|e| Stop::fail(e.to_string()))?;
        let result = if probe.integer {
            judge_integers(probe, line, r, &device.read_integers(r)?)
        } else {
            let pixels = device.read(r)?;
            judge(probe, line, &self.tolerance, r, pixels.values, pixels.exact)
        };
        device.probed(&result);
        if !result.pass {
            let reason = failure_reason(&result);
            if probe.warn_only {
                self.warning.get_or_insert(reason);
            } else {
                self.fail(reason);
            }
        }
        self.probes.push(result);
        Ok(())
    }

    /// Decides the status: a stop's, else fail, warn or pass from what was recorded.
    fn finish(mut self, stopped: Result<(), Stop>, logs: BTreeMap<String, String>) -> TestResult {
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
        TestResult {
            status,
            verdict: None,
            duration_s: 0.0,
            reason,
            probes: self.probes,
            logs,
            framebuffer: None,
            verdict_reason: None,
            verdict_rests_on: Vec::new(),
            reference: None,
            attempts: Vec::new(),
            flake: false,
            driver_ir: None,
        }
    }
}

/// The 4 bytes `ssbo ... subdata` writes: a binary32 float or a 32-bit integer.
fn scalar_bytes(value: Scalar) -> [u8; 4] {
    match value {
        Scalar::Float(f) => (f as f32).to_ne_bytes(),
        Scalar::Int(i) => (i as i32).to_ne_bytes(),
        Scalar::Uint(u) => (u as u32).to_ne_bytes(),
    }
}

/// `draw arrays MODE FIRST COUNT [INSTANCES]` checked as piglit checks it: `first` at least
/// 0, `count` at least 1, and the range inside `[vertex data]` when there is one.
fn arrays(
    mode: &str,
    first: i32,
    count: i32,
    instances: Option<u32>,
    rows: Option<usize>,
) -> Result<ArraysDraw, Stop> {
    let primitive = Primitive::from_name(mode)?;
    let first =
        usize::try_from(first).map_err(|_| Stop::fail("draw arrays 'first' must be >= 0"))?;
    let count = usize::try_from(count)
        .ok()
        .filter(|&c| c > 0)
        .ok_or_else(|| Stop::fail("draw arrays 'count' must be > 0"))?;
    if let Some(rows) = rows {
        if first >= rows || count > rows - first {
            return Err(Stop::fail(format!(
                "draw arrays cannot draw beyond {rows} rows"
            )));
        }
    }
    Ok(ArraysDraw {
        primitive,
        first,
        count,
        instances,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::Readback;
    use crate::probe::Region;
    use crate::shader_test::{parse_str, TextureCheckerboard, TextureRgbw, UniformSet};
    use std::path::Path;

    /// A device whose framebuffer is one colour, recording the operations it was asked for.
    struct Solid {
        program: Program,
        color: [f32; 4],
        done: Vec<String>,
    }

    impl Solid {
        fn new(program: Program) -> Solid {
            Solid {
                program,
                color: [0.0; 4],
                done: Vec::new(),
            }
        }
    }

    impl Device for Solid {
        fn name(&self) -> &'static str {
            "the solid device"
        }
        fn start(
            &mut self,
            _: &ShaderTest,
            logs: &mut BTreeMap<String, String>,
        ) -> Result<Program, Stop> {
            logs.insert("link".into(), "linked".into());
            self.done.push("start".into());
            Ok(self.program.clone())
        }
        fn read_size(&self) -> (u32, u32) {
            (4, 4)
        }
        fn clear(&mut self, color: Option<[f32; 4]>, _: Option<f64>) -> Result<(), Stop> {
            self.color = color.unwrap_or(self.color);
            self.done.push("clear".into());
            Ok(())
        }
        fn draw_rect(&mut self, _: &RectDraw) -> Result<(), Stop> {
            self.done.push("draw".into());
            Ok(())
        }
        fn draw_arrays(&mut self, _: &ArraysDraw) -> Result<(), Stop> {
            self.done.push("draw".into());
            Ok(())
        }
        fn set_uniform(&mut self, set: &UniformSet) -> Result<(), Stop> {
            self.done.push(format!("uniform {}", set.name));
            Ok(())
        }
        fn read(&mut self, region: Region) -> Result<Readback, Stop> {
            let pixels = (region.w * region.h) as usize;
            Ok(Readback {
                values: self.color.repeat(pixels),
                exact: true,
            })
        }
        fn texture_rgbw(&mut self, _: &TextureRgbw) -> Result<(), Stop> {
            Ok(())
        }
        fn texture_checkerboard(&mut self, _: &TextureCheckerboard) -> Result<(), Stop> {
            Ok(())
        }
        fn tex_parameter(&mut self, _: &str, _: &str, _: &str) -> Result<(), Stop> {
            Ok(())
        }
        fn enable(&mut self, _: &str, _: bool) -> Result<(), Stop> {
            Ok(())
        }
        fn blend_func(&mut self, _: &str, _: &str) -> Result<(), Stop> {
            Ok(())
        }
    }

    fn run_on(device: &mut Solid, commands: &str) -> TestResult {
        let text = format!("[require]\nGL ES >= 2.0\n[test]\n{commands}");
        let test = parse_str(Path::new("loop.shader_test"), &text).expect("parses");
        run(device, &test)
    }

    #[test]
    fn a_failing_probe_fails_the_test_and_the_commands_go_on() {
        let mut device = Solid::new(Program::Linked);
        let result = run_on(
            &mut device,
            "clear color 1 0 0 1\nclear\nprobe all rgba 0 1 0 1\ndraw rect -1 -1 2 2\n\
             probe all rgba 1 0 0 1\n",
        );
        assert_eq!(result.status, Status::Fail);
        assert_eq!(result.probes.len(), 2);
        assert!(!result.probes[0].pass && result.probes[1].pass);
        assert_eq!(device.done, ["start", "clear", "draw"]);
        assert_eq!(result.logs["link"], "linked");
    }

    #[test]
    fn probe_warn_only_warns_and_tolerance_widens_later_probes() {
        let mut device = Solid::new(Program::Linked);
        let result = run_on(
            &mut device,
            "clear color 0.5 0.5 0.5 0.5\nclear\nprobe warn all rgba 0.45 0.5 0.5 0.5\n\
             tolerance 0.1\nprobe all rgba 0.45 0.5 0.5 0.5\n",
        );
        assert_eq!(result.status, Status::Warn, "{:?}", result.reason);
        assert_eq!(result.probes[1].tolerance, [0.1, 0.01, 0.01, 0.01]);
        assert!(result.probes[1].pass);
    }

    #[test]
    fn a_command_run_nowhere_skips_before_the_device_starts() {
        let mut device = Solid::new(Program::Linked);
        let result = run_on(&mut device, "draw rect -1 -1 2 2\northo\n");
        assert_eq!(result.status, Status::Skip);
        assert_eq!(result.reason.as_deref(), Some("unsupported command: ortho"));
        assert!(device.done.is_empty());
    }

    #[test]
    fn a_command_the_device_lacks_skips_with_the_devices_name() {
        let mut device = Solid::new(Program::Linked);
        let result = run_on(&mut device, "draw rect -1 -1 2 2\nfb winsys\n");
        assert_eq!(result.status, Status::Skip);
        assert_eq!(
            result.reason.as_deref(),
            Some("the solid device does not run fb winsys")
        );
        assert_eq!(device.done, ["start", "draw"]);
    }

    #[test]
    fn drawing_without_a_linked_program_fails_and_nothing_is_drawn() {
        let mut device = Solid::new(Program::NotLinked("bad varying".into()));
        let result = run_on(&mut device, "draw rect -1 -1 2 2\n");
        assert_eq!(result.status, Status::Fail);
        assert_eq!(
            result.reason.as_deref(),
            Some("Failed to link: bad varying")
        );
        assert_eq!(device.done, ["start"]);
    }

    #[test]
    fn a_uniform_without_a_linked_program_ends_the_test() {
        let mut device = Solid::new(Program::NotLinked("bad varying".into()));
        let result = run_on(&mut device, "uniform float a 1.0\nclear\n");
        assert_eq!(result.status, Status::Fail);
        assert_eq!(
            result.reason.as_deref(),
            Some("cannot get location of uniform \"a\"")
        );
        assert_eq!(device.done, ["start"]);
    }

    #[test]
    fn link_error_passes_on_a_program_that_does_not_link_and_ends_one_that_does() {
        let mut unlinked = Solid::new(Program::NotLinked("bad varying".into()));
        assert_eq!(run_on(&mut unlinked, "link error\n").status, Status::Pass);
        let mut linked = Solid::new(Program::Linked);
        let result = run_on(&mut linked, "link error\nclear\n");
        assert_eq!(result.status, Status::Fail);
        assert_eq!(linked.done, ["start"]);
        // Without `link error`, a program that does not link fails at the end.
        let mut unexpected = Solid::new(Program::NotLinked("bad varying".into()));
        assert_eq!(run_on(&mut unexpected, "clear\n").status, Status::Fail);
    }

    #[test]
    fn draw_arrays_ranges_are_checked_against_the_vertex_data() {
        assert!(arrays("GL_TRIANGLES", 0, 3, None, Some(3)).is_ok());
        let past_end = arrays("GL_TRIANGLES", 1, 3, None, Some(3));
        assert_eq!(past_end.map_err(|s| s.status), Err(Status::Fail));
        let negative = arrays("TRIANGLES", -1, 3, None, None);
        assert_eq!(negative.map_err(|s| s.status), Err(Status::Fail));
        let desktop = arrays("GL_QUADS", 0, 4, None, None);
        assert_eq!(desktop.map_err(|s| s.status), Err(Status::Skip));
    }
}
