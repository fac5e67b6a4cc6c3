//! The fingerprint's probes: one small `.shader_test` per profile choice, built so that the
//! choice's values give different binary16/binary32 results (the round-trip tests check that
//! they do, on the emulator, for every value).
//!
//! A probe's expected values do not matter (a tolerance of 2 on piglit's 8-bit view lets
//! every probe pass); what counts is the exact floats it reads back. Each probe keeps the rest of the profile out of the way:
//! lowered trees hold more than one operation or a literal (so the lone-operation rule does
//! not undo them) unless that rule is what it probes, and every value comes from a uniform
//! (so no compiler folds it).

/// One probe: the choice it decides and its `.shader_test` text.
#[derive(Debug, Clone)]
pub struct Probe {
    /// The choice key (`arithmetic.fma`); also the probe's file name.
    pub choice: &'static str,
    /// The `.shader_test` file.
    pub text: String,
}

/// A test with `[vertex shader passthrough]`, an ES 3.00 fragment shader `body` after the
/// version line, uniforms set by `setup` (`[test]` lines) and `probes` at pixels.
fn fragment_test(body: &str, setup: &str, pixels: &[(u32, u32)]) -> String {
    test(
        "GLSL ES >= 3.00",
        "[vertex shader passthrough]\n",
        &format!("[fragment shader]\n#version 300 es\n{body}"),
        setup,
        pixels,
    )
}

fn test(require: &str, vertex: &str, fragment: &str, setup: &str, pixels: &[(u32, u32)]) -> String {
    let mut probes = String::new();
    for (x, y) in pixels {
        probes += &format!("probe rgba {x} {y} 0.0 0.0 0.0 0.0\n");
    }
    format!(
        "[require]\nGL ES >= 3.0\n{require}\n\n{vertex}\n{fragment}\n[test]\n{setup}\ndraw rect -1 -1 2 2\n{QUIET}{probes}"
    )
}

/// Lets every probe pass whatever it reads (piglit judges the 8-bit view, within [0, 1]).
const QUIET: &str = "tolerance 2.0 2.0 2.0 2.0\n";

/// A vertex shader handing `v`, the same at every vertex (uniform `k`), to the fragment shader.
const CONSTANT_VARYING: &str = "[vertex shader]
#version 300 es
in vec4 piglit_vertex;
uniform highp float k;
out highp float v;
void main() { gl_Position = piglit_vertex; v = k; }
";

/// A vertex shader handing the position to the fragment shader as `p` (a gradient).
const GRADIENT: &str = "[vertex shader]
#version 300 es
in vec4 piglit_vertex;
out highp vec4 p;
void main() { gl_Position = piglit_vertex; p = piglit_vertex * 0.37 + vec4(0.1, 0.2, 0.3, 0.4); }
";

/// The terms of the `dot` and matrix probes: products 2^24, 1, 1, -2^24; -1, (1 + 2^-12)^2;
/// and at binary16 2^11, 1, 1, -2^11; -1, (1 + 2^-6)^2.
const DOT_TERMS: &str =
    "uniform vec4 x 4096.0 1.0 1.0 -4096.0\nuniform vec4 y 4096.0 1.0 1.0 4096.0
uniform vec4 z 1.0 1.000244140625 0.0 0.0\nuniform vec4 w -1.0 1.000244140625 0.0 0.0
uniform vec4 mx 64.0 1.0 1.0 -64.0\nuniform vec4 my 32.0 1.0 1.0 32.0
uniform vec4 mz 1.0 1.015625 0.0 0.0\nuniform vec4 mw -1.0 1.015625 0.0 0.0";

/// The body of the transcendental probes: highp built-ins of uniforms.
const TRANSCENDENTALS: &str = "precision highp float;\nuniform vec4 x;\nout vec4 color;\n\
     void main() { color = vec4(exp2(x.x), exp2(x.y), log2(x.z), sin(x.w)); }\n";

/// Their arguments, found by searching for channels where every way of computing differs.
const TRANSCENDENTAL_ARGUMENTS: &str = "uniform vec4 x -2.562 -2.456 0.798 0.924";

/// The body of the `mix` probes: binary32 `mix` in r and g, binary16 in b and a.
const MIX: &str = "precision highp float;\nuniform vec2 x, y, t;\nuniform mediump vec2 mx, my, mt;\nout vec4 color;\n\
     void main() { color = vec4(mix(x, y, t), mix(mx, my, mt) * 2.0); }\n";

/// Their arguments.
const MIX_ARGUMENTS: &str =
    "uniform vec2 x 0.13 1.3\nuniform vec2 y 0.91 0.11\nuniform vec2 t 0.29 0.71\n\
     uniform vec2 mx 1.3 0.13\nuniform vec2 my 0.11 0.91\nuniform vec2 mt 0.71 0.29";

/// Every probe of the battery, one per choice of `halfcheck_emu::profile::CHOICES`.
pub fn battery() -> Vec<Probe> {
    let at0 = &[(0, 0)][..];
    let probe = |choice, text| Probe { choice, text };
    vec![
        // mesa keeps float(b) * 3.141592 - 3.0 at binary32; spec lowers it (the output is
        // mediump): 3.141592 becomes 3.140625.
        probe(
            "precision",
            fragment_test(
                "precision mediump float;\nuniform bool b;\nout mediump vec4 color;\n\
                 void main() { color = vec4(float(b) * 3.141592 - 3.0, float(b) * 0.1001 + 0.3001, 0.0, 1.0); }\n",
                "uniform int b 1",
                at0,
            ),
        ),
        // fract(0.3001 * 1000) is 0 in binary16 (300.0), 0.1000061 in binary32.
        probe(
            "lowering.float16",
            fragment_test(
                "precision mediump float;\nuniform float a, big;\nout vec4 color;\n\
                 void main() { color = vec4(fract(a * big), fract(a * 3.0), 0.0, 1.0); }\n",
                "uniform float a 0.3001\nuniform float big 1000.0",
                at0,
            ),
        ),
        // 300 * 300 / 7: 12857 at 32 bits, 24464 / 7 = 3494 at 16 bits.
        probe(
            "lowering.int16",
            fragment_test(
                "precision mediump float;\nprecision mediump int;\nuniform int x, y;\nout highp vec4 color;\n\
                 void main() { highp int r = (x * y) / 7; color = vec4(float(r) / 16384.0, 0.0, 0.0, 1.0); }\n",
                "uniform int x 300\nuniform int y 300",
                at0,
            ),
        ),
        // A mediump uniform read by a highp operation: rounded at load when 16-bit.
        probe(
            "lowering.float16_uniforms",
            fragment_test(
                "precision highp float;\nuniform mediump float u;\nuniform highp float big;\nout vec4 color;\n\
                 void main() { color = vec4(fract(u * big), 0.0, 0.0, 1.0); }\n",
                "uniform float u 0.3001\nuniform float big 1000.0",
                at0,
            ),
        ),
        // dFdx(p * 3.0) * 300.0: binary16 throughout, or the derivative (and what uses it)
        // at 32 bits.
        probe(
            "lowering.derivatives",
            test(
                "GLSL ES >= 3.00",
                GRADIENT,
                "[fragment shader]\n#version 300 es\nprecision mediump float;\nin mediump vec4 p;\nout vec4 color;\n\
                 void main() { color = vec4(dFdx(p.x * 3.0) * 300.0, dFdy(p.y * 5.0) * 300.0, 0.0, 1.0); }\n",
                "",
                &[(0, 0), (37, 101), (180, 66)],
            ),
        ),
        // dFdx(c * a) with c = gl_FragCoord.x in a mediump local and a = 0.3001: the
        // binary16 products differ by 0.3125 near x = 200; the binary32 product of the
        // binary16 operands by 0.30004883 (a rounded, times 1). The same for dFdy through a
        // local holding the product.
        probe(
            "lowering.lone_op_derivative",
            fragment_test(
                "precision mediump float;\nuniform float a;\nout highp vec4 color;\n\
                 void main() { mediump float c = gl_FragCoord.x; mediump float r = gl_FragCoord.y;\n\
                 float p = r * a; color = vec4(dFdx(c * a), dFdy(p), 0.0, 1.0); }\n",
                "uniform float a 0.3001",
                &[(200, 200), (37, 101)],
            ),
        ),
        // A highp result kept in a mediump local, placed by a mediump constructor straight
        // into the output: 1/3 at binary32 when the conversions fold there, rounded to
        // binary16 when the constructor keeps it (highp uniforms: 16-bit mediump uniforms
        // would round it either way).
        probe(
            "lowering.fold_constructors",
            fragment_test(
                "precision mediump float;\nuniform highp float a, b;\nout highp vec4 color;\n\
                 void main() { mediump float m = a / b; color = vec4(m, 0.0, 0.0, 1.0); }\n",
                "uniform float a 1.0\nuniform float b 3.0",
                at0,
            ),
        ),
        // One int operation on uniforms: 300 * 300 is 90000 at 32 bits, 24464 at 16.
        probe(
            "lowering.int_lone_op",
            fragment_test(
                "precision mediump float;\nprecision mediump int;\nuniform int x, y;\nout highp vec4 color;\n\
                 void main() { highp int r = x * y; color = vec4(float(r) / 131072.0, 0.0, 0.0, 1.0); }\n",
                "uniform int x 300\nuniform int y 300",
                at0,
            ),
        ),
        // A highp result kept in a mediump local and read by a highp operation: its 32 bits
        // survive when the conversions fold (read through an operation, not a constructor,
        // so that `fold_constructors` does not hide it).
        probe(
            "lowering.fold_conversions",
            fragment_test(
                "precision mediump float;\nuniform highp float a, b, one;\nout highp vec4 color;\n\
                 void main() { mediump float m = a / b; color = vec4(m * one, 0.0, 0.0, 1.0); }\n",
                "uniform float a 1.0\nuniform float b 3.0\nuniform float one 1.0",
                at0,
            ),
        ),
        // The same with ints: 300 * 300 = 90000, 24464 in 16 bits.
        probe(
            "lowering.int_fold_conversions",
            fragment_test(
                "precision mediump float;\nprecision mediump int;\nuniform highp int x, y;\nout highp vec4 color;\n\
                 void main() { mediump int n = x * y; highp int r = n; color = vec4(float(r) / 131072.0, 0.0, 0.0, 1.0); }\n",
                "uniform int x 300\nuniform int y 300",
                at0,
            ),
        ),
        // One operation on uniforms: fract(1000.3) is 0.29998779 at 32 bits, 0.5 at 16 (read
        // by a highp operation, so that `fold_constructors` does not hide it).
        probe(
            "lowering.lone_op_uniform",
            fragment_test(
                "precision mediump float;\nuniform float u;\nuniform highp float one;\nout highp vec4 color;\n\
                 void main() { color = vec4(fract(u) * one, 0.0, 0.0, 1.0); }\n",
                "uniform float u 1000.3\nuniform float one 1.0",
                at0,
            ),
        ),
        // The same on shader inputs.
        probe(
            "lowering.lone_op_varying",
            test(
                "GLSL ES >= 3.00",
                CONSTANT_VARYING,
                "[fragment shader]\n#version 300 es\nprecision mediump float;\n\
                 in mediump float v;\nuniform highp float one;\nout highp vec4 color;\n\
                 void main() { color = vec4(fract(v) * one, 0.0, 0.0, 1.0); }\n",
                "uniform float k 1000.3\nuniform float one 1.0",
                &[(0, 0)],
            ),
        ),
        // The same on values the shader computed, kept in mediump locals.
        probe(
            "lowering.lone_op_temporary",
            fragment_test(
                "precision mediump float;\nuniform highp float a, one;\nout highp vec4 color;\n\
                 void main() { highp float h = a * one; mediump float m = h; highp float r = fract(m); color = vec4(r, 0.0, 0.0, 1.0); }\n",
                "uniform float a 1000.3\nuniform float one 1.0",
                at0,
            ),
        ),
        // fract(485.62 + 0.87): 0.48999023 from the binary32 sum, 0.48999512 from an
        // extended one.
        probe(
            "arithmetic.binary32",
            fragment_test(
                "precision highp float;\nuniform float a, b;\nout vec4 color;\n\
                 void main() { color = vec4(fract(a + b), 0.0, 0.0, 1.0); }\n",
                "uniform float a 485.62\nuniform float b 0.87",
                at0,
            ),
        ),
        // 1e-20 * 1e-20 is subnormal in binary32: times 1e30, 1e-10 or 0.
        probe(
            "arithmetic.flush_f32_subnormals",
            fragment_test(
                "precision highp float;\nuniform float a, b, c;\nout vec4 color;\n\
                 void main() { color = vec4((a * b) * c, 0.0, 0.0, 1.0); }\n",
                "uniform float a 1e-20\nuniform float b 1e-20\nuniform float c 1e30",
                at0,
            ),
        ),
        // 0.5 * 0.0001 is subnormal in binary16: times 1000, 0.05 or 0.
        probe(
            "arithmetic.flush_f16_subnormals",
            fragment_test(
                "precision mediump float;\nuniform float u;\nout highp vec4 color;\n\
                 void main() { color = vec4(u * 0.0001 * 1000.0, 0.0, 0.0, 1.0); }\n",
                "uniform float u 0.5",
                at0,
            ),
        ),
        // (1 + 2^-12)^2 - (1 + 2^-11) is 2^-24 fused, 0 when the product is rounded first.
        probe(
            "arithmetic.fma",
            test(
                "GLSL ES >= 3.10",
                "[vertex shader passthrough]\n",
                "[fragment shader]\n#version 310 es\n#extension GL_EXT_gpu_shader5 : require\nprecision highp float;\nuniform float a, c;\nout vec4 color;\n\
                 void main() { color = vec4(fma(a, a, -c) * 16777216.0, 0.0, 0.0, 1.0); }\n",
                "uniform float a 1.000244140625\nuniform float c 1.00048828125",
                at0,
            ),
        ),
        // The same with a * a - c, at binary32 and at binary16 ((1 + 2^-6)^2 - (1 + 2^-5)).
        probe(
            "arithmetic.contract",
            fragment_test(
                "precision highp float;\nuniform float a, c;\nuniform mediump float m, mc;\nout vec4 color;\n\
                 void main() { color = vec4((a * a - c) * 16777216.0, (m * m - mc) * 4096.0, 0.0, 1.0); }\n",
                "uniform float a 1.000244140625\nuniform float c 1.00048828125\n\
                 uniform float m 1.015625\nuniform float mc 1.03125",
                at0,
            ),
        ),
        // 2^24 + 1 + 1 - 2^24 is 0 summed in order, 2 from the last term, 1 pairwise;
        // (1 + 2^-12)^2 - 1 keeps its 2^-24 only fused; the same at binary16 with 2^11 and
        // (1 + 2^-6)^2.
        probe(
            "arithmetic.dot",
            fragment_test(
                "precision highp float;\nuniform vec4 x, y, z, w;\nuniform mediump vec4 mx, my, mz, mw;\nout vec4 color;\n\
                 void main() { color = vec4(dot(x, y), (dot(z, w) - 0.00048828125) * 16777216.0,\n\
                 dot(mx, my), (dot(mz, mw) - 0.03125) * 4096.0); }\n",
                DOT_TERMS,
                at0,
            ),
        ),
        // The same terms as columns of a matrix times a vector.
        probe(
            "arithmetic.matrix",
            fragment_test(
                "precision highp float;\nuniform vec4 x, y, z, w;\nuniform mediump vec4 mx, my, mz, mw;\nout vec4 color;\n\
                 mat4 diagonal(vec4 d) { return mat4(d.x, 0.0, 0.0, 0.0, d.y, 0.0, 0.0, 0.0, d.z, 0.0, 0.0, 0.0, d.w, 0.0, 0.0, 0.0); }\n\
                 mediump mat4 mdiagonal(mediump vec4 d) { return mat4(d.x, 0.0, 0.0, 0.0, d.y, 0.0, 0.0, 0.0, d.z, 0.0, 0.0, 0.0, d.w, 0.0, 0.0, 0.0); }\n\
                 void main() { color = vec4((diagonal(x) * y).x, ((diagonal(z) * w).x - 0.00048828125) * 16777216.0,\n\
                 (mdiagonal(mx) * my).x, ((mdiagonal(mz) * mw).x - 0.03125) * 4096.0); }\n",
                DOT_TERMS,
                at0,
            ),
        ),
        // mix at binary32 (r, g) and binary16 (b, a: times 2, exact, so that the
        // lone-operation rule leaves it lowered): the three expansions round apart on these.
        probe("arithmetic.mix", fragment_test(MIX, MIX_ARGUMENTS, at0)),
        // The same probe: its binary16 channels decide the binary16 expansion (zink's
        // `weights` beside its binary32 `delta`).
        probe("arithmetic.mix16", fragment_test(MIX, MIX_ARGUMENTS, at0)),
        // log2 directly and as ln(x) * 1.442695 differ in the last bit on these.
        probe(
            "arithmetic.log2",
            fragment_test(
                "precision highp float;\nuniform vec4 x;\nout vec4 color;\n\
                 void main() { color = log2(x); }\n",
                "uniform vec4 x 2.96 4.81 5.55 9.25",
                at0,
            ),
        ),
        // exp at binary32 (through exp2, the rounded log2(e) shows at 80), exp and log at
        // binary16.
        probe(
            "arithmetic.exp_log",
            fragment_test(
                "precision highp float;\nuniform float x;\nuniform mediump vec2 mx, my;\nout vec4 color;\n\
                 void main() { color = vec4(exp(x), exp(mx.x) + log(my.x), exp(mx.y) + log(my.y), 1.0); }\n",
                "uniform float x 80.0\nuniform vec2 mx 7.3 2.1\nuniform vec2 my 300.0 0.3",
                at0,
            ),
        ),
        // pow at binary32 and binary16 (times 2, exact, so that it stays lowered).
        probe(
            "arithmetic.pow",
            fragment_test(
                "precision highp float;\nuniform vec2 x, y;\nuniform mediump vec2 mx, my;\nout vec4 color;\n\
                 void main() { color = vec4(pow(x, y), pow(mx, my) * 2.0); }\n",
                "uniform vec2 x 7.3 1.7\nuniform vec2 y 2.9 13.1\nuniform vec2 mx 7.3 1.7\nuniform vec2 my 2.9 3.1",
                at0,
            ),
        ),
        // binary32 exp2, log2, sin and cos where gallivm's polynomials (split or fused
        // multiply-adds, binary32 or x87 steps) and the correctly rounded functions part.
        probe(
            "arithmetic.transcendentals",
            fragment_test(TRANSCENDENTALS, TRANSCENDENTAL_ARGUMENTS, at0),
        ),
        // The same: exp2 of these two shows whether gallivm's multiply-adds are fused.
        probe(
            "arithmetic.polynomial_fma",
            fragment_test(TRANSCENDENTALS, TRANSCENDENTAL_ARGUMENTS, at0),
        ),
        // With x87 extended binary32, a loop of a uniform trip count: x accumulates 1000 +
        // 10 x 0.3 (rounded every iteration in memory: 1003 - 2^-13; in registers:
        // 1003 + 2^-23), y = 1000 * 0.3 (300 in memory, 300.0000119 in registers); and an
        // if on gl_FragCoord: z = 1000 * 0.3 + 0.3 (rounded where the branches join).
        probe(
            "arithmetic.control_flow_variables",
            fragment_test(
                "precision highp float;\nuniform float x0, stp, lim;\nuniform int n;\nout vec4 color;\n\
                 void main() { float x = x0; float y = x0;\n\
                 for (int i = 0; i < n; i++) { x += stp; y = x0 * stp; }\n\
                 float z = x0 * stp;\nif (gl_FragCoord.x > 0.0) { z = z + stp; }\n\
                 color = vec4(x - lim, fract(y * 1024.0), fract(z * 1024.0), 1.0); }\n",
                "uniform float x0 1000.0\nuniform float stp 0.3\nuniform float lim 1003.0\nuniform int n 10",
                at0,
            ),
        ),
        // 8-bit texels through a mediump sampler: truncated or rounded into binary16.
        probe(
            "texture.texel_to_f16",
            fragment_test(
                "precision mediump float;\nuniform mediump sampler2D tex;\nout highp vec4 color;\n\
                 void main() { color = texture(tex, vec2(0.25, 0.25)); }\n",
                "uniform int tex 0\ntexture checkerboard 0 0 (8, 8) (0.3, 0.7, 0.9, 0.1) (0.3, 0.7, 0.9, 0.1)",
                at0,
            ),
        ),
        // Bilinear filtering between texels of piglit's rgbw texture.
        probe(
            "texture.filtering",
            fragment_test(
                "precision highp float;\nuniform highp sampler2D tex;\nout vec4 color;\n\
                 void main() { color = texture(tex, gl_FragCoord.xy / 250.0); }\n",
                "uniform int tex 0\ntexture rgbw 0 (8, 8)\ntexparameter 2D mag linear",
                &[(110, 60), (37, 190)],
            ),
        ),
        // A rectangle whose right edge is 1/1024 pixel right of a pixel centre: snapped to
        // 1/256 the centre lies on the edge, which does not own it.
        probe(
            "raster.subpixel_snap",
            "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n\n[vertex shader passthrough]\n\n\
             [fragment shader]\n#version 300 es\nprecision highp float;\nout vec4 color;\n\
             void main() { color = vec4(1.0, 0.0, 0.0, 1.0); }\n\n[test]\n\
             clear color 0.0 0.0 0.0 0.0\nclear\ndraw rect -1 -1 0.0840078125 2\n\
             tolerance 2.0 2.0 2.0 2.0\nprobe rgba 10 5 0.0 0.0 0.0 0.0\n"
                .to_owned(),
        ),
        // A gradient at a few pixels: the plane set-ups round apart in their last bits.
        probe(
            "raster.interpolation",
            test(
                "GLSL ES >= 3.00",
                GRADIENT,
                "[fragment shader]\n#version 300 es\nprecision highp float;\nin highp vec4 p;\nout vec4 color;\n\
                 void main() { color = p; }\n",
                "",
                &[(0, 0), (17, 33), (82, 242), (166, 12), (93, 149), (211, 144)],
            ),
        ),
        // dFdx(x * y) at pixel (1, 0): 0.5 from its own row, 1.5 from the quad's upper row.
        probe(
            "raster.derivatives",
            fragment_test(
                "precision highp float;\nout vec4 color;\n\
                 void main() { float q = gl_FragCoord.x * gl_FragCoord.y; color = vec4(dFdx(q), dFdy(q), 0.0, 1.0); }\n",
                "",
                &[(1, 0), (0, 1)],
            ),
        ),
        // A mediump input read by a highp operation: 0.3001 rounded or not.
        probe(
            "interface.round_varyings",
            test(
                "GLSL ES >= 3.00",
                "[vertex shader]\n#version 300 es\nin vec4 piglit_vertex;\nuniform highp float k;\nout mediump float v;\n\
                 void main() { gl_Position = piglit_vertex; v = k; }\n",
                "[fragment shader]\n#version 300 es\nprecision highp float;\nin mediump float v;\nuniform highp float big;\nout vec4 color;\n\
                 void main() { color = vec4(fract(v * big), 0.0, 0.0, 1.0); }\n",
                "uniform float k 0.3001\nuniform float big 1000.0",
                at0,
            ),
        ),
        // A highp 1/3 written to a mediump output.
        probe(
            "interface.round_outputs",
            fragment_test(
                "precision highp float;\nuniform float a, b;\nout mediump vec4 color;\n\
                 void main() { color = vec4(a / b, 0.0, 0.0, 1.0); }\n",
                "uniform float a 1.0\nuniform float b 3.0",
                at0,
            ),
        ),
    ]
}
