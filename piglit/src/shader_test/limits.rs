//! How much a test may ask for: halfcheck's budget for the sizes a `.shader_test` file sets.
//!
//! A file decides how much memory and work a backend spends on it: its own size, the window
//! (`SIZE w h`), textures (`texture rgbw|checkerboard|integer|storage|junk`), multisample
//! framebuffers (`fb ms`), the vertex and instance counts of draws, atomic counter buffers,
//! shader storage buffers and the pixels its probes read together. Unchecked, `SIZE 100000 100000` asks the emulator for a 320 GB
//! framebuffer and its process aborts. Both backends call [`over_budget`] before they run a
//! test and skip one that asks for more, naming the line and the limit; `lint` skips it the
//! same way (it runs the emulator) and `compile` and `parse` warn.
//!
//! The budget is far above what real tests ask for (piglit's largest window is 256x256) and
//! within what every GL ES 3.0 device renders (its `GL_MAX_RENDERBUFFER_SIZE` is at least
//! 2048). At the limit, a window costs 64 MiB as an RGBA32F target and the emulator's
//! interval framebuffer (24 bytes per channel) 384 MiB. A driver's own, lower limits are
//! checked by the GL backend against the context.

use super::model::{Command, FbBinding, ProbeRegion, Requirement, ShaderTest};

/// The largest file halfcheck reads as a test or a shader: piglit's largest `.shader_test` is
/// far below a megabyte, and a name that is really `/dev/zero` must not be read forever.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Reads a test or shader file of at most [`MAX_FILE_BYTES`]; a larger one, or one that is
/// no regular file (a named pipe would wait for a writer forever), is an error that says so.
pub fn read_bounded(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    halfcheck_results::read::read_regular(path, MAX_FILE_BYTES)
}

/// The longest side of a window or texture, in pixels.
pub const MAX_SIDE: u64 = 16384;
/// The most pixels of a window, or texels of a texture: 2048x2048.
pub const MAX_PIXELS: u64 = 2048 * 2048;
/// The most vertices one draw may name.
pub const MAX_VERTICES: u64 = 1 << 20;
/// The most instances one draw may name.
pub const MAX_INSTANCES: u64 = 1 << 16;
/// The most counters of one atomic counter buffer.
pub const MAX_ATOMIC_COUNTERS: u64 = 1 << 16;
/// The largest shader storage buffer, in bytes (the GL backend's own cap is the same).
pub const MAX_BUFFER_BYTES: u64 = 1 << 28;
/// The most samples of a multisample framebuffer.
pub const MAX_SAMPLES: u64 = 64;
/// The most pixels all of a test's probes may read together: a probed pixel keeps about 16
/// bytes for the verdict, so 3,000 `probe all` lines of 250x250 took 2.9 GB. This is 16
/// `probe all` of a 2048x2048 window, 1,000 of piglit's default 250x250: about 1 GB.
pub const MAX_PROBED_PIXELS: u64 = 1 << 26;

/// What a test asks for beyond the budget, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverBudget {
    /// The line of the `.shader_test` file that asks.
    pub line: usize,
    /// What it asks for and what the limit is.
    pub message: String,
}

impl std::fmt::Display for OverBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The first thing `test` asks for beyond halfcheck's budget, or `None` when it fits.
pub fn over_budget(test: &ShaderTest) -> Option<OverBudget> {
    let window = test.require.items.iter().find_map(|item| match item.value {
        Requirement::Size { width, height } => {
            image("SIZE", "window", width, height).map(|message| OverBudget {
                line: item.line,
                message,
            })
        }
        _ => None,
    });
    window
        .or_else(|| {
            test.commands.iter().find_map(|command| {
                command_over_budget(&command.value).map(|message| OverBudget {
                    line: command.line,
                    message,
                })
            })
        })
        .or_else(|| probes_over_budget(test))
}

/// The probe at which the pixels the test's probes read together pass
/// [`MAX_PROBED_PIXELS`], if one does.
fn probes_over_budget(test: &ShaderTest) -> Option<OverBudget> {
    let (width, height) = test.require.window_size();
    let window = u64::from(width) * u64::from(height);
    let mut total: u64 = 0;
    for command in &test.commands {
        let Command::Probe(probe) = &command.value else {
            continue;
        };
        let pixels = match probe.region {
            ProbeRegion::Point(_) => 1,
            ProbeRegion::All => window,
            ProbeRegion::Rect([_, _, w, h]) => {
                let (w, h) = if probe.relative {
                    (w * f64::from(width), h * f64::from(height))
                } else {
                    (w, h)
                };
                // Only the part inside the window is read.
                let side = |v: f64, max: u32| v.abs().min(f64::from(max)) as u64;
                side(w, width) * side(h, height)
            }
        };
        total = total.saturating_add(pixels);
        if total > MAX_PROBED_PIXELS {
            return Some(OverBudget {
                line: command.line,
                message: format!(
                    "the probes up to here read {total} pixels; halfcheck reads at most \
                     {MAX_PROBED_PIXELS} for one test (16 probe all of 2048x2048)"
                ),
            });
        }
    }
    None
}

/// What one `[test]` command asks for beyond the budget.
fn command_over_budget(command: &Command) -> Option<String> {
    match command {
        Command::TextureRgbw(t) => image("texture rgbw", "texture", t.width, t.height),
        Command::TextureCheckerboard(t) => {
            image("texture checkerboard", "texture", t.width, t.height)
        }
        Command::DrawArrays {
            count, instances, ..
        } => at_most("draw arrays", "vertices", i64::from(*count), MAX_VERTICES).or_else(|| {
            instances.and_then(|n| at_most("draw arrays", "instances", n.into(), MAX_INSTANCES))
        }),
        Command::DrawInstancedRect { instances, .. } => at_most(
            "draw instanced rect",
            "instances",
            (*instances).into(),
            MAX_INSTANCES,
        ),
        Command::AtomicCounterBuffer { count, .. } => at_most(
            "atomic counter buffer",
            "counters",
            (*count).into(),
            MAX_ATOMIC_COUNTERS,
        ),
        Command::TextureInteger(t) => image("texture integer", "texture", t.width, t.height),
        Command::TextureStorage(t) => {
            let size = |i: usize| t.size.get(i).copied().unwrap_or(1);
            volume("texture storage", size(0), size(1), size(2))
        }
        Command::TextureJunk2dArray {
            width,
            height,
            layers,
            ..
        } => volume("texture junk", *width, *height, *layers),
        Command::Fb {
            binding:
                FbBinding::Multisample {
                    width,
                    height,
                    samples,
                    ..
                },
            ..
        } => image("fb ms", "framebuffer", *width, *height)
            .or_else(|| at_most("fb ms", "samples", (*samples).into(), MAX_SAMPLES)),
        Command::Ssbo { size, .. } => at_most("ssbo", "bytes", (*size).into(), MAX_BUFFER_BYTES),
        _ => None,
    }
}

/// Why a `width` x `height` image named by `command` is over budget, if it is.
fn image(command: &str, what: &str, width: u32, height: u32) -> Option<String> {
    let (w, h) = (u64::from(width), u64::from(height));
    if w.max(h) > MAX_SIDE {
        return Some(format!(
            "{command} asks for a {width}x{height} {what}; halfcheck runs sides of at most \
             {MAX_SIDE} pixels"
        ));
    }
    (w * h > MAX_PIXELS).then(|| {
        format!(
            "{command} asks for a {width}x{height} {what} ({} pixels); halfcheck runs at most \
             {MAX_PIXELS} (2048x2048)",
            w * h
        )
    })
}

/// Why a `width` x `height` x `depth` texture (layers or depth) named by `command` is over
/// budget, if it is: each side, and all its texels, count like an image's.
fn volume(command: &str, width: u32, height: u32, depth: u32) -> Option<String> {
    let texels = u64::from(width) * u64::from(height) * u64::from(depth);
    image(command, "texture", width, height.max(depth)).or_else(|| {
        (texels > MAX_PIXELS).then(|| {
            format!(
                "{command} asks for a {width}x{height}x{depth} texture ({texels} texels); \
                     halfcheck runs at most {MAX_PIXELS} (2048x2048)"
            )
        })
    })
}

/// Why `value` `what`s named by `command` are over `limit`, if they are.
fn at_most(command: &str, what: &str, value: i64, limit: u64) -> Option<String> {
    (u64::try_from(value).is_ok_and(|v| v > limit))
        .then(|| format!("{command} asks for {value} {what}; halfcheck runs at most {limit}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shader_test::parse_str;
    use std::path::Path;

    fn test_with(require: &str, commands: &str) -> ShaderTest {
        let text = format!(
            "[require]\nGL ES >= 2.0\n{require}\n[vertex shader passthrough]\n\n\
             [fragment shader]\nvoid main() {{ gl_FragColor = vec4(1.0); }}\n\n[test]\n{commands}"
        );
        parse_str(Path::new("t.shader_test"), &text).expect("parses")
    }

    #[test]
    fn files_larger_than_the_budget_are_not_read_to_their_end() {
        let path = std::env::temp_dir().join(format!("halfcheck-big-{}", std::process::id()));
        let file = std::fs::File::create(&path).expect("create");
        file.set_len(MAX_FILE_BYTES + 1).expect("sparse file");
        let big = read_bounded(&path).expect_err("too large");
        std::fs::remove_file(&path).expect("clean up");
        assert!(big.to_string().contains("larger than 64 MiB"), "{big}");
        let endless = read_bounded(Path::new("/dev/zero")).expect_err("a device");
        assert!(
            endless.to_string().contains("a character device"),
            "{endless}"
        );
    }

    /// Issue 26: each `probe all` kept about 1 MB at 250x250, and 3,000 of them took 2.9 GB.
    #[test]
    fn probes_reading_more_pixels_than_the_budget_name_the_line_that_passes_it() {
        let fits = "draw rect -1 -1 2 2\n".to_string() + &"probe all rgba 1 1 1 1\n".repeat(16);
        assert_eq!(over_budget(&test_with("SIZE 2048 2048", &fits)), None);
        let over = fits + "probe rect rgba (0, 0, 10, 1) (1, 1, 1, 1)\n";
        let found = over_budget(&test_with("SIZE 2048 2048", &over)).expect("over budget");
        assert_eq!(found.line, 10 + 16 + 1);
        assert!(found.message.contains("read 67108874 pixels"), "{found}");
        let many = "probe all rgba 1 1 1 1\n".repeat(3000);
        let found = over_budget(&test_with("", &many)).expect("over budget");
        assert!(found.message.contains("halfcheck reads at most"), "{found}");
    }

    #[test]
    fn a_window_larger_than_the_budget_names_its_line_and_the_limit() {
        let over = over_budget(&test_with("SIZE 100000 100000", "")).expect("over budget");
        assert_eq!(over.line, 3);
        assert!(over.message.contains("100000x100000"), "{over}");
        assert!(over.message.contains("16384"), "{over}");
        let over = over_budget(&test_with("SIZE 4096 4096", "")).expect("too many pixels");
        assert!(over.message.contains("16777216 pixels"), "{over}");
    }

    #[test]
    fn windows_and_textures_within_the_budget_pass() {
        assert_eq!(over_budget(&test_with("SIZE 2048 2048", "")), None);
        assert_eq!(over_budget(&test_with("SIZE 16384 16", "")), None);
        assert_eq!(
            over_budget(&test_with(
                "",
                "texture rgbw 0 (256, 256)\ndraw rect -1 -1 2 2"
            )),
            None
        );
    }

    #[test]
    fn textures_draws_and_counter_buffers_over_the_budget_are_found() {
        let cases = [
            ("texture rgbw 0 (100000, 100000)", "texture"),
            (
                "texture checkerboard 0 0 (4096, 4096) (1, 0, 0, 1) (0, 1, 0, 1)",
                "texture",
            ),
            ("draw arrays GL_TRIANGLES 0 2000000000", "vertices"),
            (
                "draw arrays instanced GL_TRIANGLES 0 3 1000000",
                "instances",
            ),
            ("draw instanced rect 100000000 -1 -1 2 2", "instances"),
            ("atomic counter buffer 0 4000000000", "counters"),
            (
                "texture integer 0 (65536, 65536) (0, 0) GL_RGBA32I",
                "texture",
            ),
            (
                "texture storage 0 3D GL_RGBA8 (1 512 512 512)",
                "134217728 texels",
            ),
            ("texture junk 2DArray 0 (2048, 2048, 64)", "texels"),
            ("fb ms GL_RGBA8 100000 100000 4", "framebuffer"),
            ("fb ms GL_RGBA8 250 250 4096", "samples"),
            ("ssbo 0 4000000000", "bytes"),
        ];
        for (command, what) in cases {
            let over = over_budget(&test_with("", command))
                .unwrap_or_else(|| panic!("{command} should be over budget"));
            assert!(over.message.contains(what), "{command}: {over}");
            assert!(over.line > 3, "{command}: {over}");
        }
    }
}
