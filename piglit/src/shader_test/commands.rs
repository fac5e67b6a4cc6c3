//! Parser for one `[test]` command line.
//!
//! The commands halfcheck runs become typed [`Command`] values. Commands piglit's shader_runner
//! knows but halfcheck does not run become [`Command::Unsupported`] with their name, so a
//! backend can skip the test and say why. Anything else is an error: it is no piglit command.

use super::model::*;
use super::tokens::{
    comparison, count, expected, finite_float32, float32, float64, floats, int, int32, take, uint,
    words, LineError, Word,
};

/// Piglit commands the parser turns into typed [`Command`]s, by their leading words (some
/// forms of `compute`, `fb`, `ssbo`, `image texture`, `texture integer`/`storage` and the
/// buffer probes fall back to [`UNSUPPORTED`]). With it, the table of every command the
/// parser knows, which the emulator's inventory classifies (`halfcheck features`).
pub const COMMANDS: &[&str] = &[
    "atomic counter",
    "atomic counter buffer",
    "atomic counters",
    "blend func",
    "blit",
    "clear",
    "clear color",
    "clear depth",
    "compute",
    "disable",
    "draw arrays",
    "draw arrays instanced",
    "draw instanced rect",
    "draw instanced rect ortho",
    "draw instanced rect ortho patch",
    "draw rect",
    "draw rect ortho",
    "draw rect ortho patch",
    "draw rect patch",
    "draw rect tex",
    "enable",
    "fb",
    "fbfetch barrier",
    "image texture",
    "link error",
    "link success",
    "memory barrier",
    "probe all rgb",
    "probe all rgba",
    "probe atomic counter",
    "probe rect rgb",
    "probe rect rgba",
    "probe rgb",
    "probe rgba",
    "probe ssbo",
    "probe warn all rgba",
    "relative probe rect rgb",
    "relative probe rect rgba",
    "relative probe rgb",
    "relative probe rgba",
    "ssbo",
    "texparameter",
    "texture checkerboard",
    "texture integer",
    "texture junk 2DArray",
    "texture rgbw",
    "texture storage",
    "tolerance",
    "uniform",
];

/// Piglit commands halfcheck does not run, by their leading words (longest first wins).
pub const UNSUPPORTED: &[&str] = &[
    "active shader program",
    "active uniform",
    "blend barrier",
    "block array index",
    "block binding",
    "block matrix stride",
    "block offset",
    "block row major",
    "calllist",
    "clip plane",
    "color",
    "compute group size",
    "compute",
    "deletelist",
    "depthfunc",
    "draw arrays instanced base",
    "draw elements",
    "endlist",
    "fb",
    "frontface",
    "frustum",
    "hint",
    "image texture",
    "light",
    "memory barrier",
    "multidraw arrays",
    "newlist",
    "ortho",
    "parameter",
    "patch parameter",
    "polygon mode",
    "probe atomic counter buffer",
    "probe atomic counter",
    "probe depth",
    "probe ssbo",
    "probe xfb buffer",
    "program binary save restore",
    "provoking vertex",
    "resident image texture",
    "resident texture",
    "shade model",
    "ssbo",
    "subuniform",
    "texcoord",
    "texture integer",
    "texture junk",
    "texture miptree",
    "texture quads",
    "texture rgbw 1D",
    "texture rgbw 1DArray",
    "texture rgbw 2DArray",
    "texture rgbw 3D",
    "texture shadow1D",
    "texture shadow1DArray",
    "texture shadow2D",
    "texture shadow2DArray",
    "texture shadowRect",
    "texture storage",
    "ubo array index",
    "verify program_interface_query",
    "verify program_query",
    "verify query_object",
    "vertex attrib",
    "viewport indexed",
    "viewport swizzle",
    "xfb buffer object",
    "xfb draw arrays",
];

/// Parses a trimmed, non-empty, comment-free `[test]` line.
pub(super) fn parse_command(line: &str) -> Result<Command, LineError> {
    let w = words(line);
    let end = line.len();
    let text = |i: usize| w.get(i).map_or("", |word| word.text);
    let command = match (text(0), text(1), text(2)) {
        ("clear", "", _) => Command::Clear,
        ("clear", "color", _) => Command::ClearColor(floats::<4>(&w[2..], end)?),
        ("clear", "depth", _) => Command::ClearDepth(take(&w[2..], 1, end, "number", float64)?[0]),
        ("draw", "rect", _) => parse_draw_rect(&w[2..], end)?,
        ("draw", "instanced", "rect") => parse_draw_instanced_rect(&w[3..], end)?,
        ("draw", "arrays", "instanced") if text(3) == "base" => unsupported_or_unknown(line, &w)?,
        ("draw", "arrays", _) => parse_draw_arrays(&w[2..], end)?,
        ("uniform", _, _) => Command::Uniform(parse_uniform(&w[1..], end)?),
        ("tolerance", _, _) => {
            let n = (w.len() - 1).min(4);
            if n == 0 {
                return Err(LineError::at(end, "expected 1 to 4 tolerance values"));
            }
            Command::Tolerance(take(&w[1..], n, end, "numbers", finite_float32)?)
        }
        ("probe", "ssbo", _) | ("probe", "atomic", "counter") => {
            match parse_buffer_probe(&w[1..], end)? {
                Some(probe) => Command::BufferProbe(probe),
                None => unsupported_or_unknown(line, &w)?,
            }
        }
        ("probe" | "relative", _, _) => match parse_probe(&w, end)? {
            Some(probe) => Command::Probe(probe),
            None => unsupported_or_unknown(line, &w)?,
        },
        ("texture", "rgbw", unit) if unit.bytes().all(|b| b.is_ascii_digit()) => {
            parse_texture_rgbw(&w[2..], end)?
        }
        ("texture", "checkerboard", _) => parse_texture_checkerboard(&w[2..], end)?,
        ("texparameter", _, _) => {
            if w.len() < 4 {
                return Err(LineError::at(
                    end,
                    "expected TARGET PARAMETER VALUE, e.g. 'texparameter 2D min nearest'",
                ));
            }
            let value_start = w[3].offset;
            Command::TexParameter {
                target: w[1].text.to_string(),
                parameter: w[2].text.to_string(),
                value: line[value_start..].trim().to_string(),
            }
        }
        ("fb", _, _) => parse_fb(&w[1..], end)?,
        ("texture", "storage", _) => parse_texture_storage(&w[2..], end)?,
        ("texture", "integer", _) => parse_texture_integer(&w[2..], end)?,
        ("texture", "junk", "2DArray") => {
            let v = take(&w[3..], 4, end, "values: UNIT (W, H, LAYERS)", count)?;
            Command::TextureJunk2dArray {
                unit: v[0],
                width: v[1],
                height: v[2],
                layers: v[3],
            }
        }
        ("image", "texture", _) => {
            let v = take(&w[2..], 2, end, "values: UNIT FORMAT", Ok)?;
            Command::ImageTexture {
                unit: count(v[0])?,
                format: v[1].text.to_string(),
            }
        }
        ("ssbo", _, _) => match parse_ssbo(&w[1..], end)? {
            Some(command) => command,
            None => unsupported_or_unknown(line, &w)?,
        },
        ("compute", x, _) if x.starts_with(|c: char| c.is_ascii_digit()) => {
            let v = take(&w[1..], 3, end, "work group counts (X Y Z)", count)?;
            Command::Compute([v[0], v[1], v[2]])
        }
        ("memory", "barrier", bits) if !bits.is_empty() => Command::MemoryBarrier(bits.to_string()),
        ("blit", _, _) => parse_blit(&w[1..], end)?,
        ("atomic", "counter", "buffer") => {
            let v = take(&w[3..], 2, end, "BINDING COUNT", count)?;
            Command::AtomicCounterBuffer {
                binding: v[0],
                count: v[1],
            }
        }
        ("atomic", "counters", _) => Command::AtomicCounterBuffer {
            binding: 0,
            count: take(&w[2..], 1, end, "a counter count", count)?[0],
        },
        ("atomic", "counter", _) => {
            let v = take(&w[2..], 3, end, "BINDING INDEX VALUE", count)?;
            Command::AtomicCounter {
                binding: v[0],
                index: v[1],
                value: v[2],
            }
        }
        ("fbfetch", "barrier", "") => Command::FbfetchBarrier,
        ("link", "success", "") => Command::LinkSuccess,
        ("link", "error", "") => Command::LinkError,
        ("enable" | "disable", cap, "") if !cap.is_empty() => {
            if text(0) == "enable" {
                Command::Enable(cap.to_string())
            } else {
                Command::Disable(cap.to_string())
            }
        }
        ("blend", "func", _) => {
            let factors = take(&w[2..], 2, end, "blend factors (SRC DST)", Ok)?;
            Command::BlendFunc {
                src: factors[0].text.to_string(),
                dst: factors[1].text.to_string(),
            }
        }
        _ => unsupported_or_unknown(line, &w)?,
    };
    Ok(command)
}

/// `Unsupported` for a command piglit knows, else an error naming the unknown command.
fn unsupported_or_unknown(line: &str, w: &[Word<'_>]) -> Result<Command, LineError> {
    let known = UNSUPPORTED
        .iter()
        .filter(|name| starts_with_words(w, name))
        .max_by_key(|name| name.len());
    match known {
        Some(name) => Ok(Command::Unsupported {
            name: name.to_string(),
        }),
        None => Err(LineError::at(
            0,
            format!(
                "unknown command '{}'; expected a piglit [test] command such as \
                 'draw rect', 'uniform', 'probe rgba' or 'clear color'",
                line.split_whitespace()
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        )),
    }
}

/// Whether the line's words begin with the words of `name`.
fn starts_with_words(w: &[Word<'_>], name: &str) -> bool {
    name.split(' ')
        .enumerate()
        .all(|(n, part)| w.get(n).map(|x| x.text) == Some(part))
}

/// `[draw|read] tex 2d|tex slice|tex layered|ms|winsys ...` after `fb`.
fn parse_fb(w: &[Word<'_>], end: usize) -> Result<Command, LineError> {
    let (target, rest) = match w.first().map(|x| x.text) {
        Some("draw") => (FbTarget::Draw, &w[1..]),
        Some("read") => (FbTarget::Read, &w[1..]),
        _ => (FbTarget::Both, w),
    };
    let text = |i: usize| rest.get(i).map_or("", |word| word.text);
    let binding = match (text(0), text(1)) {
        ("tex", "2d") => {
            let units = rest[2..]
                .iter()
                .map(|&u| count(u))
                .collect::<Result<Vec<_>, _>>()?;
            if units.is_empty() {
                return Err(LineError::at(end, "expected at least one texture unit"));
            }
            FbBinding::Tex2d(units)
        }
        ("tex", "slice") => {
            let v = take(&rest[2..], 4, end, "values: TARGET UNIT LEVEL LAYER", Ok)?;
            let numbers = v[1..]
                .iter()
                .map(|&x| count(x))
                .collect::<Result<Vec<_>, _>>()?;
            FbBinding::TexSlice {
                target: texture_target(v[0])?,
                unit: numbers[0],
                level: numbers[1],
                layer: numbers[2],
            }
        }
        ("tex", "layered") => {
            FbBinding::TexLayered(take(&rest[2..], 1, end, "a texture unit", count)?[0])
        }
        ("ms", _) => {
            let v = take(&rest[1..], 4, end, "values: FORMAT W H SAMPLES", Ok)?;
            FbBinding::Multisample {
                format: v[0].text.to_string(),
                width: count(v[1])?,
                height: count(v[2])?,
                samples: count(v[3])?,
            }
        }
        ("winsys", "") => FbBinding::Winsys,
        _ => {
            return Err(LineError::at(
                rest.first().map_or(end, |x| x.offset),
                "expected 'tex 2d', 'tex slice', 'tex layered', 'ms' or 'winsys' after 'fb'",
            ))
        }
    };
    Ok(Command::Fb { target, binding })
}

/// A texture target name (`2D`, `2DArray`, `Cube`, ...).
fn texture_target(word: Word<'_>) -> Result<TextureTarget, LineError> {
    TextureTarget::from_name(word.text).ok_or_else(|| {
        expected(
            word,
            "a texture target (1D, 2D, 3D, Rect, Cube, 1DArray, 2DArray, CubeArray)",
        )
    })
}

/// `UNIT TARGET FORMAT (LEVELS W [H [D]])` after `texture storage`.
fn parse_texture_storage(w: &[Word<'_>], end: usize) -> Result<Command, LineError> {
    let head = take(
        w,
        5,
        end,
        "values: UNIT TARGET FORMAT (LEVELS W [H [D]])",
        Ok,
    )?;
    let numbers = w[3..]
        .iter()
        .take(4)
        .map(|&x| count(x))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Command::TextureStorage(TextureStorage {
        unit: count(head[0])?,
        target: texture_target(head[1])?,
        format: head[2].text.to_string(),
        levels: numbers[0],
        size: numbers[1..].to_vec(),
    }))
}

/// `UNIT (W, H) (B, A) FORMAT` after `texture integer`.
fn parse_texture_integer(w: &[Word<'_>], end: usize) -> Result<Command, LineError> {
    let v = take(w, 6, end, "values: UNIT (W, H) (B, A) FORMAT", Ok)?;
    let signed = |x: Word<'_>| int32(x);
    Ok(Command::TextureInteger(TextureInteger {
        unit: count(v[0])?,
        width: count(v[1])?,
        height: count(v[2])?,
        b: signed(v[3])?,
        a: signed(v[4])?,
        format: v[5].text.to_string(),
    }))
}

/// `BINDING SIZE` or `BINDING subdata float|int OFFSET VALUE` after `ssbo`; `None` for the
/// other `subdata` types.
fn parse_ssbo(w: &[Word<'_>], end: usize) -> Result<Option<Command>, LineError> {
    let binding = count(
        *w.first()
            .ok_or_else(|| LineError::at(end, "expected a binding and a size, or 'subdata'"))?,
    )?;
    if w.get(1).map(|x| x.text) != Some("subdata") {
        let size = take(&w[1..], 1, end, "size in bytes", count)?[0];
        return Ok(Some(Command::Ssbo { binding, size }));
    }
    let v = take(&w[2..], 3, end, "values: TYPE OFFSET VALUE", Ok)?;
    let value = match v[0].text {
        "float" => Scalar::Float(float32(v[2])?),
        "int" => Scalar::Int(i64::from(int(v[2])? as i32)),
        _ => return Ok(None),
    };
    Ok(Some(Command::SsboSubdata {
        binding,
        offset: count(v[1])?,
        value,
    }))
}

/// `ssbo int|uint|float BINDING OFFSET OP VALUE`, `atomic counter INDEX OP VALUE` or
/// `atomic counter buffer BINDING OFFSET OP VALUE` after `probe`; `None` for the 64-bit and
/// double `probe ssbo` forms.
fn parse_buffer_probe(w: &[Word<'_>], end: usize) -> Result<Option<BufferProbe>, LineError> {
    let what = "values: [BINDING] OFFSET OP VALUE";
    let (buffer, rest) = match (w[0].text, w.get(1).map(|x| x.text)) {
        ("ssbo", Some(ty @ ("int" | "uint" | "float"))) => {
            let v = take(&w[2..], 2, end, what, count)?;
            let ty = match ty {
                "int" => BufferValue::Int,
                "uint" => BufferValue::Uint,
                _ => BufferValue::Float,
            };
            let buffer = ProbedBuffer::Ssbo {
                binding: v[0],
                offset: v[1],
                ty,
            };
            (buffer, &w[4..])
        }
        ("ssbo", _) => return Ok(None),
        _ if w.get(2).map(|x| x.text) == Some("buffer") => {
            let v = take(&w[3..], 2, end, what, count)?;
            let buffer = ProbedBuffer::AtomicCounter {
                binding: v[0],
                offset: v[1],
            };
            (buffer, &w[5..])
        }
        _ => {
            let index = take(&w[2..], 1, end, what, count)?[0];
            let offset = index.checked_mul(4).ok_or_else(|| {
                LineError::at(w[2].offset, format!("atomic counter {index} is too large"))
            })?;
            (ProbedBuffer::AtomicCounter { binding: 0, offset }, &w[3..])
        }
    };
    let v = take(rest, 2, end, "a comparison and a value", Ok)?;
    let expected = match buffer {
        ProbedBuffer::Ssbo {
            ty: BufferValue::Float,
            ..
        } => Scalar::Float(float32(v[1])?),
        ProbedBuffer::Ssbo {
            ty: BufferValue::Int,
            ..
        } => Scalar::Int(i64::from(int(v[1])? as i32)),
        _ => Scalar::Uint(u64::from(uint(v[1])? as u32)),
    };
    Ok(Some(BufferProbe {
        buffer,
        op: comparison(v[0])?,
        expected,
    }))
}

/// `color|depth|stencil linear|nearest` after `blit`.
fn parse_blit(w: &[Word<'_>], end: usize) -> Result<Command, LineError> {
    let what = "'color', 'depth' or 'stencil', then 'linear' or 'nearest'";
    let [buffer, filter] = match w {
        [buffer, filter] => [*buffer, *filter],
        [] | [_] => return Err(LineError::at(end, format!("expected {what}"))),
        [_, _, extra, ..] => return Err(expected(*extra, "the end of the line")),
    };
    let buffer = match buffer.text {
        "color" => BlitBuffer::Color,
        "depth" => BlitBuffer::Depth,
        "stencil" => BlitBuffer::Stencil,
        _ => return Err(expected(buffer, "'color', 'depth' or 'stencil'")),
    };
    let linear = match filter.text {
        "linear" => true,
        "nearest" => false,
        _ => return Err(expected(filter, "'linear' or 'nearest'")),
    };
    Ok(Command::Blit { buffer, linear })
}

/// `draw arrays [instanced] MODE FIRST COUNT [INSTANCES]` after `draw arrays`.
fn parse_draw_arrays(w: &[Word<'_>], end: usize) -> Result<Command, LineError> {
    let instanced = w.first().map(|x| x.text) == Some("instanced");
    let args = if instanced { &w[1..] } else { w };
    let n = if instanced { 4 } else { 3 };
    let args = take(args, n, end, "values (MODE FIRST COUNT [INSTANCES])", Ok)?;
    Ok(Command::DrawArrays {
        mode: args[0].text.to_string(),
        first: int32(args[1])?,
        count: int32(args[2])?,
        instances: args.get(3).map(|&x| count(x)).transpose()?,
    })
}

/// `draw rect [tex|ortho] [patch] X Y W H [TX TY TW TH]` after `draw rect`.
fn parse_draw_rect(w: &[Word<'_>], end: usize) -> Result<Command, LineError> {
    let (mode_word, rest) = match w.first().map(|x| x.text) {
        Some("tex") => ("tex", &w[1..]),
        Some("ortho") => ("ortho", &w[1..]),
        _ => ("", w),
    };
    let (patch, rest) = match rest.first().map(|x| x.text) {
        Some("patch") if mode_word != "tex" => (true, &rest[1..]),
        _ => (false, rest),
    };
    let mode = match mode_word {
        "tex" => {
            let v = floats::<8>(rest, end)?;
            return Ok(Command::DrawRect {
                mode: RectMode::Tex([v[4], v[5], v[6], v[7]]),
                patch,
                rect: [v[0], v[1], v[2], v[3]],
            });
        }
        "ortho" => RectMode::Ortho,
        _ => RectMode::Plain,
    };
    Ok(Command::DrawRect {
        mode,
        patch,
        rect: floats::<4>(rest, end)?,
    })
}

/// `draw instanced rect [ortho] [patch] N X Y W H` after `draw instanced rect`.
fn parse_draw_instanced_rect(w: &[Word<'_>], end: usize) -> Result<Command, LineError> {
    let (ortho, rest) = match w.first().map(|x| x.text) {
        Some("ortho") => (true, &w[1..]),
        _ => (false, w),
    };
    let (patch, rest) = match rest.first().map(|x| x.text) {
        Some("patch") => (true, &rest[1..]),
        _ => (false, rest),
    };
    let Some((&n, rect)) = rest.split_first() else {
        return Err(LineError::at(end, "expected an instance count and X Y W H"));
    };
    Ok(Command::DrawInstancedRect {
        ortho,
        patch,
        instances: count(n)?,
        rect: floats::<4>(rect, end)?,
    })
}

/// `uniform TYPE NAME VALUES...` after `uniform`.
fn parse_uniform(w: &[Word<'_>], end: usize) -> Result<UniformSet, LineError> {
    let (Some(&ty_word), Some(&name)) = (w.first(), w.get(1)) else {
        return Err(LineError::at(
            end,
            "expected a type and a name after 'uniform'",
        ));
    };
    let ty = uniform_type(ty_word.text).ok_or_else(|| {
        expected(
            ty_word,
            "a uniform type (float, vec4, int, uvec2, bool, mat3x2, double, dmat4, int64_t, handle, ...)",
        )
    })?;
    // Piglit leaves components it was not given undefined; a backend fills them with 0.
    let n = ty.components().min(w.len().saturating_sub(2)).max(1);
    let read: fn(Word<'_>) -> Result<Scalar, LineError> = match ty {
        UniformType::Float(_) | UniformType::Mat(..) => |x| float32(x).map(Scalar::Float),
        UniformType::Double(_) | UniformType::DMat(..) => |x| float64(x).map(Scalar::Float),
        UniformType::Int(_) | UniformType::Int64(_) => |x| int(x).map(Scalar::Int),
        UniformType::Bool(_) => bool_value,
        UniformType::Uint(_) | UniformType::Uint64(_) | UniformType::Handle => {
            |x| uint(x).map(Scalar::Uint)
        }
    };
    let values = take(&w[2..], n, end, "values", read)?;
    Ok(UniformSet {
        ty,
        name: name.text.to_string(),
        values,
    })
}

/// A bool uniform value: `true`, `false`, or an integer.
fn bool_value(word: Word<'_>) -> Result<Scalar, LineError> {
    match word.text {
        "true" => Ok(Scalar::Int(1)),
        "false" => Ok(Scalar::Int(0)),
        _ => int(word)
            .map(|v| Scalar::Int(i64::from(v != 0)))
            .map_err(|_| expected(word, "true, false or an integer")),
    }
}

/// Decodes a uniform type name.
fn uniform_type(name: &str) -> Option<UniformType> {
    let scalar = |ty: fn(u8) -> UniformType, prefix: &str, scalar_name: &str| {
        if name == scalar_name {
            return Some(ty(1));
        }
        let n: u8 = name.strip_prefix(prefix)?.parse().ok()?;
        (2..=4).contains(&n).then(|| ty(n))
    };
    let matrix = |ty: fn(u8, u8) -> UniformType, prefix: &str| {
        let dims = name.strip_prefix(prefix)?;
        let (c, r) = match dims.split_once('x') {
            Some((c, r)) => (c.parse::<u8>().ok()?, r.parse::<u8>().ok()?),
            None => {
                let n = dims.parse::<u8>().ok()?;
                (n, n)
            }
        };
        ((2..=4).contains(&c) && (2..=4).contains(&r)).then(|| ty(c, r))
    };
    if name == "handle" {
        return Some(UniformType::Handle);
    }
    scalar(UniformType::Float, "vec", "float")
        .or_else(|| scalar(UniformType::Double, "dvec", "double"))
        .or_else(|| scalar(UniformType::Int, "ivec", "int"))
        .or_else(|| scalar(UniformType::Uint, "uvec", "uint"))
        .or_else(|| scalar(UniformType::Bool, "bvec", "bool"))
        .or_else(|| scalar(UniformType::Int64, "i64vec", "int64_t"))
        .or_else(|| scalar(UniformType::Uint64, "u64vec", "uint64_t"))
        .or_else(|| matrix(UniformType::Mat, "mat"))
        .or_else(|| matrix(UniformType::DMat, "dmat"))
}

/// The colour probes; `None` for probe commands halfcheck does not run.
fn parse_probe(w: &[Word<'_>], end: usize) -> Result<Option<Probe>, LineError> {
    let mut i = 0;
    let next_is = |word: &str, i: &mut usize| {
        let hit = w.get(*i).map(|x| x.text) == Some(word);
        if hit {
            *i += 1;
        }
        hit
    };
    let relative = next_is("relative", &mut i);
    if !next_is("probe", &mut i) {
        return Ok(None);
    }
    let warn_only = next_is("warn", &mut i);
    let region_kind = if next_is("all", &mut i) {
        "all"
    } else if next_is("rect", &mut i) {
        "rect"
    } else {
        "point"
    };
    let channels = if next_is("rgba", &mut i) {
        4
    } else if next_is("rgb", &mut i) {
        3
    } else {
        return Ok(None);
    };
    let integer = next_is("int", &mut i);
    let rest = &w[i..];
    let coords = match region_kind {
        "all" => 0,
        "rect" => 4,
        _ => 2,
    };
    let wanted = coords + channels;
    let expected_what = format!(
        "{} then {} expected colour values",
        match region_kind {
            "all" => "no coordinates".to_string(),
            "rect" => "X Y W H".to_string(),
            _ => "X Y".to_string(),
        },
        channels
    );
    if rest.len() < wanted {
        return Err(LineError::at(
            end,
            format!("expected {expected_what}, found {} values", rest.len()),
        ));
    }
    let numbers = take(rest, wanted, end, "values", finite_float32)?;
    let region = match region_kind {
        "all" => ProbeRegion::All,
        "rect" => ProbeRegion::Rect([numbers[0], numbers[1], numbers[2], numbers[3]]),
        _ => ProbeRegion::Point([numbers[0], numbers[1]]),
    };
    Ok(Some(Probe {
        region,
        relative,
        channels: channels as u8,
        integer,
        warn_only,
        expected: numbers[coords..].to_vec(),
    }))
}

/// `texture rgbw UNIT (W, H) [FORMAT]` after `texture rgbw`.
fn parse_texture_rgbw(w: &[Word<'_>], end: usize) -> Result<Command, LineError> {
    if w.len() < 3 {
        return Err(LineError::at(
            end,
            "expected UNIT (WIDTH, HEIGHT) and an optional internal format",
        ));
    }
    Ok(Command::TextureRgbw(TextureRgbw {
        unit: count(w[0])?,
        width: count(w[1])?,
        height: count(w[2])?,
        format: w.get(3).map(|x| x.text.to_string()),
    }))
}

/// `texture checkerboard UNIT LEVEL (W, H) (R, G, B, A) (R, G, B, A)` after the two words.
fn parse_texture_checkerboard(w: &[Word<'_>], end: usize) -> Result<Command, LineError> {
    let what = "UNIT LEVEL (W, H) (R, G, B, A) (R, G, B, A)";
    if w.len() < 12 {
        return Err(LineError::at(
            end,
            format!("expected {what}, found {} values", w.len()),
        ));
    }
    let c = floats::<8>(&w[4..], end)?;
    Ok(Command::TextureCheckerboard(TextureCheckerboard {
        unit: count(w[0])?,
        level: count(w[1])?,
        width: count(w[2])?,
        height: count(w[3])?,
        color1: [c[0], c[1], c[2], c[3]],
        color2: [c[4], c[5], c[6], c[7]],
    }))
}
