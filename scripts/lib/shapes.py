"""The soundness generator's shapes of issue 34: code the classic gadgets never write.

Each shape is a gadget (its identifiers start with its two-letter prefix, so `gadgets_in`
reads it back) with a weight: the chance that one test holds it. `shadergen.generate` picks
the shapes with a random stream of their own and builds them with another, so a test that
holds no shape is the same whatever the weights (`--shapes none` writes only such tests).

  vx  vertex-shader arithmetic that feeds the rasteriser: varyings computed in the vertex
      shader at mixed precisions, and a position computed at lowp/mediump/highp
  mx  matrices: construction, `*` with vectors and matrices, matrixCompMult, and in 3.00
      transpose, outerProduct, determinant and inverse
  bw  bitwise operations and shifts on int and uint (3.00), at the test's int precisions,
      shift counts up to and past 16
  mo  several outputs at explicit locations (3.00), the colour at location 0 (the only one
      the window's draw buffer receives; halfcheck probes no other)
  mm  LINEAR and mipmap filters (a mipmap filter on a one-level texture is incomplete and
      samples black), minification, a bias, and textureLod
  is  interpolation and sample built-ins (interpolateAt*, gl_SampleID, gl_SamplePosition,
      gl_SampleMaskIn, the `sample` qualifier): GLSL ES 3.10 with the OES extensions where
      the driver has them, the plain value where it does not
  pk  packing built-ins (packHalf2x16, packUnorm2x16, packSnorm2x16, packUnorm4x8,
      packSnorm4x8 (3.10, with the is shape) and their unpacks) (3.00)
  xv  values near binary16 overflow (65504), subnormals (< 6.1e-5), inf and NaN through
      division by zero, overflow, log of 0 and intBitsToFloat

The campaign reads what halfcheck says of each: a shape the emulator does not model must end
`undetermined` or be judged by the driver's own highp run, never a false claim.
"""

SHAPES = {
    'vx': ('vertex-shader arithmetic feeding the rasteriser', 0.12),
    'mx': ('matrices (products, transpose, outerProduct, determinant, inverse)', 0.12),
    'bw': ('bitwise operations and shifts', 0.12),
    'mo': ('several outputs at explicit locations', 0.1),
    'mm': ('LINEAR and mipmap filters, minification, textureLod', 0.1),
    'is': ('interpolation and sample built-ins', 0.05),
    'pk': ('pack/unpack built-ins', 0.1),
    'xv': ('values near binary16 overflow, subnormals, inf and NaN', 0.12),
}

PRECISIONS = ['', '', 'lowp ', 'mediump ', 'mediump ', 'highp ']
MAT_VALUES = [0.3001, 1.00049, 3.0, 12.34, -7.3, 0.1, 2.0, 1024.3, 0.70710677, 65.53]


def fmt(x):
    """A float literal GLSL and piglit both read."""
    s = repr(float(x))
    return s if ('.' in s or 'e' in s) else s + '.0'


def parse(text):
    """{prefix: weight} from `all`, `none` or `vx,mx:0.3,...` (a name alone takes its
    default weight); raises ValueError naming what it could not read."""
    if text in (None, '', 'all'):
        return {p: w for p, (_, w) in SHAPES.items()}
    if text == 'none':
        return {}
    out = {}
    for item in text.split(','):
        name, _, weight = item.partition(':')
        if name not in SHAPES:
            raise ValueError('unknown shape %r (known: %s)' % (name, ', '.join(SHAPES)))
        try:
            out[name] = float(weight) if weight else SHAPES[name][1]
        except ValueError:
            raise ValueError('shape %s: weight %r is not a number' % (name, weight))
        if not 0.0 <= out[name] <= 1.0:
            raise ValueError('shape %s: weight %s is not in [0, 1]' % (name, weight))
    return out


def s_vx(sh, ex):
    rng = sh.rng
    t = rng.choice(['float', 'vec2'])
    src = {'float': rng.choice(['piglit_vertex.x', 'piglit_vertex.y']),
           'vec2': 'piglit_vertex.xy'}[t]
    local = sh.name('vx')
    sh.vs_body.append('%s%s %s = %s * %s + %s(%s);' % (
        rng.choice(PRECISIONS), t, local, src, fmt(rng.choice([0.3001, 1000.1, 7.13, 64.7,
                                                               2049.0])),
        t, fmt(rng.choice([1024.3, 0.1, -7.3, 4097.0]))))
    sh.vs_body.append('%s = %s * %s - %s(%s);' % (
        local, local, fmt(rng.choice([1.5, 0.25, 3.0, 1.00049])), t,
        fmt(rng.choice([1024.0, 0.5, 2048.0]))))
    name = sh.name('vx')
    sh.vs_out.append(('%s %s%s %s;' % ('in' if sh.es3 else 'varying', sh.prec(), t, name),
                      '%s %s%s %s;' % ('out' if sh.es3 else 'varying',
                                       rng.choice(PRECISIONS), t, name),
                      '%s = %s;' % (name, local)))
    sh.vars.append((name, t))
    sh.channels.append('fract(%s%s)' % (name, '.x' if t == 'vec2' else ''))
    if sh.vs_transform is None and sh.vertex_data is None and rng.random() < 0.5:
        # the position itself at a chosen precision: edges where the window's grid is not
        pos = sh.name('vx')
        sh.vs_body.append('%svec2 %s = piglit_vertex.xy * %s + vec2(%s, %s);' % (
            rng.choice(PRECISIONS), pos, fmt(rng.choice([0.9001, 0.7503, 1.0, 0.3333])),
            fmt(rng.choice([0.0, 0.0501, -0.1003])), fmt(rng.choice([0.0, 0.0302, 0.25]))))
        sh.vs_transform = 'vec4(%s, 0.0, 1.0)' % pos
        sh.partial_cover = True
    if rng.random() < 0.3:
        sh.vs_head.append('precision %s float;' % rng.choice(['mediump', 'lowp', 'highp']))


def s_mx(sh, ex):
    rng = sh.rng
    n = rng.choice([2, 3, 4])
    mt, vt = 'mat%d' % n, 'vec%d' % n
    if rng.random() < 0.3:
        m = sh.uniform('mx', mt, value=' '.join(fmt(rng.choice(MAT_VALUES))
                                                 for _ in range(n * n)))
    else:
        u = sh.uniform('mx', vt)
        m = sh.name('mx')
        entries = [rng.choice(['%s.%s' % (u, 'xyzw'[rng.randrange(n)]),
                               fmt(rng.choice(MAT_VALUES))]) for _ in range(n * n)]
        sh.body.append('%s%s %s = %s(%s);' % (sh.prec(), mt, m, mt, ', '.join(entries)))
        # a heavier diagonal keeps most of them invertible
        sh.body.append('%s += %s(%s);' % (m, mt, fmt(rng.choice([4.0, 100.0, 1.5]))))
    ops = ['mv', 'vm', 'mm', 'cm'] + (['tr', 'op', 'det', 'inv'] if sh.es3 else [])
    v = sh.name('mx')
    op = rng.choice(ops)
    if n == 4 and op in ('det', 'inv'):
        op = 'mm'  # the emulator stops at 3x3 for these (the test would be unjudged)
    vec = lambda: ex.expr(vt, 1)  # noqa: E731
    if op == 'mv':
        sh.body.append('%s%s %s = %s * %s;' % (sh.prec(), vt, v, m, vec()))
        value = '%s.%s' % (v, rng.choice('xy'))
    elif op == 'vm':
        sh.body.append('%s%s %s = %s * %s;' % (sh.prec(), vt, v, vec(), m))
        value = '%s.%s' % (v, rng.choice('xy'))
    elif op == 'det':
        sh.body.append('%sfloat %s = determinant(%s);' % (sh.prec(), v, m))
        value = v
    else:
        form = {'mm': '%s * %s' % (m, m), 'cm': 'matrixCompMult(%s, %s)' % (m, m),
                'tr': 'transpose(%s) * %s' % (m, m), 'inv': 'inverse(%s)' % m,
                'op': 'outerProduct(%s, %s)' % (vec(), vec())}[op]
        sh.body.append('%s%s %s = %s;' % (sh.prec(), mt, v, form))
        value = '%s[%d][%d]' % (v, rng.randrange(n), rng.randrange(n))
    sh.channels.append('fract(%s * %s)' % (value, rng.choice(['1.0', '0.25', '16.0'])))


def s_bw(sh, ex):
    if not sh.es3:
        return
    rng = sh.rng
    a = sh.uniform('bw', 'int', value=rng.choice(['300', '-5', '4096', '32767', '-32768', '255',
                                                  '65536', '-1', '1000']))
    b = sh.uniform('bw', 'uint', value=rng.choice(['3', '255', '65535', '4294967295', '1000',
                                                   '40000']))
    s = sh.uniform('bw', 'int', value=rng.choice(['1', '3', '7', '15', '16', '17']))

    def bits(depth, leaves, counts):
        """A random tree of & | ^ ~ << >> over `leaves`, shifted by one of `counts`."""
        if depth <= 0 or rng.random() < 0.3:
            return rng.choice(leaves())
        op = rng.choice(['&', '|', '^', '~', '<<', '>>'])
        if op == '~':
            return '(~%s)' % bits(depth - 1, leaves, counts)
        if op in ('<<', '>>'):
            return '(%s %s %s)' % (bits(depth - 1, leaves, counts), op, rng.choice(counts))
        return '(%s %s %s)' % (bits(depth - 1, leaves, counts), op,
                               bits(depth - 1, leaves, counts))

    ints = lambda: [a, a, s, str(rng.choice([7, 127, 4095, 255]))]  # noqa: E731
    uints = lambda: [b, b, 'uint(%s)' % a, '%su' % rng.choice([7, 255, 65535])]  # noqa: E731
    i, u = sh.name('bw'), sh.name('bw')
    sh.body.append('%sint %s = %s;' % (sh.int_prec(), i, bits(rng.randint(1, 3), ints,
                                                               [s, '3', '15', '4u'])))
    sh.body.append('%suint %s = %s;' % (sh.int_prec(), u, bits(rng.randint(1, 3), uints,
                                                                [s, '2u', '16', '9'])))
    sh.channels.append('float(%s & 1023) * 0.001' % i)
    sh.channels.append('float(%s %% 1000u) * 0.001' % u)


def s_mo(sh, ex):
    if not sh.es3 or sh.color_location is not None:
        return
    rng = sh.rng
    # the colour always at location 0: with nothing there, llvmpipe drops the unbound outputs
    # and the uniforms they read, and piglit fails the test for a uniform the program lacks
    # (cases/soundness/draw_buffer_no_output_writes holds that shape)
    sh.color_location = 0
    taken = {sh.color_location}
    for _ in range(rng.randint(1, 3)):
        loc = rng.choice([k for k in range(4) if k not in taken] or [None])
        if loc is None:
            break
        taken.add(loc)
        name = sh.name('mo')
        t = rng.choice(['vec4', 'vec2', 'float'])
        sh.outputs.append(('layout(location = %d) out %s%s %s;' % (loc, rng.choice(PRECISIONS),
                                                                  t, name),
                           '%s = %s;' % (name, ex.expr(t, 2))))


def s_mm(sh, ex):
    rng = sh.rng
    unit = sh.textures
    sh.textures += 1
    tex = sh.uniform('mm', 'sampler2D', value=str(unit), prec=rng.choice(PRECISIONS))
    sh.setup[-1] = 'uniform int %s %d' % (tex, unit)
    size = rng.choice([4, 8, 16])
    # (piglit's one command for a mipmapped texture, `texture miptree`, makes halfcheck's GL
    # back end skip the test: each texture here has one level, so a mipmap filter leaves it
    # incomplete, sampling black)
    if rng.random() < 0.45:
        sh.setup.append('texture rgbw %d (%d, %d)' % (unit, size, size))
    else:
        c1 = ', '.join(fmt(rng.choice([0.3, 0.5, 0.7, 0.1, 1.0])) for _ in range(4))
        c2 = ', '.join(fmt(rng.choice([0.3, 0.9, 0.2, 0.0, 1.0])) for _ in range(4))
        sh.setup.append('texture checkerboard %d 0 (%d, %d) (%s) (%s)' % (unit, size, size,
                                                                        c1, c2))
    sh.setup.append('texparameter 2D min %s' % rng.choice([
        'linear', 'linear', 'nearest_mipmap_nearest', 'linear_mipmap_nearest',
        'nearest_mipmap_linear', 'linear_mipmap_linear']))
    sh.setup.append('texparameter 2D mag %s' % rng.choice(['linear', 'nearest']))
    if rng.random() < 0.4:
        sh.setup.append('texparameter 2D wrap_t %s' % rng.choice(['repeat', 'mirrored_repeat']))
    # scales past one texel per pixel minify (level of detail > 0)
    coord = '(gl_FragCoord.xy * %s + vec2(%s, 0.013))' % (
        fmt(rng.choice([0.004, 0.0123, 0.05, 0.3001, 1.7])), fmt(rng.choice([0.0, 0.37])))
    v = sh.name('mm')
    look = '%s(%s, %s)' % ('texture' if sh.es3 else 'texture2D', tex, coord)
    if sh.es3 and rng.random() < 0.3:
        look = 'textureLod(%s, %s, %s)' % (tex, coord, fmt(rng.choice([0.0, 0.5, 1.0, 2.5])))
    elif rng.random() < 0.2:
        look = '%s(%s, %s, %s)' % ('texture' if sh.es3 else 'texture2D', tex, coord,
                                   fmt(rng.choice([-1.0, 0.5, 2.0])))  # a bias
    sh.body.append('%svec4 %s = %s;' % (sh.prec(), v, look))
    sh.vars.append((v, 'vec4'))
    sh.channels.append('%s.%s * %s' % (v, rng.choice('rgba'), rng.choice(['1.0', '3.0',
                                                                          '1024.0'])))


# GLSL ES 3.10 with the extensions where the driver has them, the plain value where not
# (softpipe has neither): the same test runs, and judges, on every lane.
IS_HEAD = [
    '#ifdef GL_OES_shader_multisample_interpolation',
    '#extension GL_OES_shader_multisample_interpolation : enable',
    '#define IS_AT_OFFSET(v, o) interpolateAtOffset(v, o)',
    '#define IS_AT_CENTROID(v) interpolateAtCentroid(v)',
    '#define IS_AT_SAMPLE(v, s) interpolateAtSample(v, s)',
    '#define IS_SAMPLE sample',
    '#else',
    '#define IS_AT_OFFSET(v, o) (v)',
    '#define IS_AT_CENTROID(v) (v)',
    '#define IS_AT_SAMPLE(v, s) (v)',
    '#define IS_SAMPLE',
    '#endif',
    '#ifdef GL_OES_sample_variables',
    '#extension GL_OES_sample_variables : enable',
    '#define IS_SAMPLE_ID gl_SampleID',
    '#define IS_SAMPLE_POSITION gl_SamplePosition',
    '#define IS_SAMPLE_MASK_IN gl_SampleMaskIn[0]',
    '#else',
    '#define IS_SAMPLE_ID 0',
    '#define IS_SAMPLE_POSITION vec2(0.5)',
    '#define IS_SAMPLE_MASK_IN 1',
    '#endif',
]


def s_is(sh, ex):
    if not sh.es3 or sh.version is not None:
        return
    rng = sh.rng
    sh.version = '310 es'
    sh.fs_head.extend(IS_HEAD)
    name = sh.name('is')
    t = rng.choice(['float', 'vec2'])
    # (`sample` on the fragment side only: the vertex shader has no extension macros, and
    # GLSL ES 3.10 lets auxiliary qualifiers differ between the stages)
    qual = 'IS_SAMPLE ' if rng.random() < 0.3 else ''
    sh.vs_out.append(('%sin %s%s %s;' % (qual, sh.prec(), t, name),
                      'out %s%s %s;' % (rng.choice(PRECISIONS), t, name),
                      '%s = %s * %s + %s(%s);' % (
                          name, 'piglit_vertex.x' if t == 'float' else 'piglit_vertex.xy',
                          fmt(rng.choice([100.3, 0.37, 1000.1])), t,
                          fmt(rng.choice([0.0, 1024.0, 3.3])))))
    v = sh.name('is')
    form = rng.choice([
        'IS_AT_OFFSET(%s, vec2(%s, %s))' % (name, fmt(rng.choice([0.4, -0.25, 0.125])),
                                            fmt(rng.choice([0.4, 0.0, -0.5]))),
        'IS_AT_CENTROID(%s)' % name, 'IS_AT_SAMPLE(%s, 0)' % name,
        '%s * float(IS_SAMPLE_ID + 1)' % name,
        '%s + %s(IS_SAMPLE_POSITION.x)' % (name, t),
        '%s * float(IS_SAMPLE_MASK_IN)' % name])
    sh.body.append('%s%s %s = %s;' % (sh.prec(), t, v, form))
    sh.vars.append((v, t))
    sh.channels.append('fract(%s%s)' % (v, '.x' if t == 'vec2' else ''))


def s_pk(sh, ex):
    if not sh.es3:
        return
    rng = sh.rng
    kind = rng.choice(['Half2x16', 'Unorm2x16', 'Snorm2x16'] +
                      (['Unorm4x8', 'Snorm4x8'] if sh.version else []))  # 4x8: GLSL ES 3.10
    vt = 'vec4' if kind.endswith('4x8') else 'vec2'
    p = sh.name('pk')
    if rng.random() < 0.6:
        arg = ex.expr(vt, 1)
        if kind != 'Half2x16':
            arg = 'clamp(%s, -1.5, 1.5)' % arg if rng.random() < 0.5 else arg
        sh.body.append('%suint %s = pack%s(%s);' % (sh.int_prec(), p, kind, arg))
    else:
        sh.body.append('%suint %s = %s;' % (sh.int_prec(), p, sh.uniform('pk', 'uint', value=str(
            rng.choice([1006648320, 3212836864, 65535, 2147516416, 1065353216, 4294967295])))))
    sh.channels.append('float(%s %% 1000u) * 0.001' % p)
    v = sh.name('pk')
    sh.body.append('%s%s %s = unpack%s(%s);' % (sh.prec(), vt, v, kind, p))
    sh.vars.append((v, vt))
    sh.channels.append('fract(%s.%s * %s)' % (v, rng.choice('xy'), rng.choice(['1.0', '16.0',
                                                                             '1024.0'])))


def s_xv(sh, ex):
    rng = sh.rng
    kind = rng.choice(['overflow', 'subnormal', 'inf', 'nan'] + (['bits'] if sh.es3 else []))
    v = sh.name('xv')
    if kind == 'overflow':
        u = sh.uniform('xv', 'float', value=fmt(rng.choice([65504.0, 65519.0, 65520.0, 32768.5,
                                                            60000.0, 70000.0, -65504.0])))
        form = rng.choice(['%s * 2.0', '%s + 16.0', '(%s - 65500.0) * 3.0', '%s * 1.00049',
                           'exp2(16.0 + fract(%s))'])
    elif kind == 'subnormal':
        u = sh.uniform('xv', 'float', value=fmt(rng.choice([6.0e-5, 3.0e-5, 1.0e-6, 6.0e-8,
                                                            2.0e-8, -4.0e-6])))
        form = rng.choice(['%s * 1024.0', '(%s + 1.0e-5) * 4096.0', '%s / 3.0 * 65536.0',
                           '%s * %s * 1.0e8'])
    elif kind == 'inf':
        u = sh.uniform('xv', 'float', value=fmt(rng.choice([0.0, -0.0])))
        form = rng.choice(['1.0 / %s', '-3.0 / %s', 'log(%s)', 'inversesqrt(%s)',
                           'exp(90.0 + %s)'])
    elif kind == 'nan':
        u = sh.uniform('xv', 'float', value='0.0')
        form = rng.choice(['%s / %s', '(1.0 / %s) - (1.0 / %s)', 'sqrt(-1.0 - %s)',
                           'log(-1.0 - %s)', '(1.0 / %s) * %s'])
    else:
        u = sh.uniform('xv', 'int', value=str(rng.choice([2139095040, -8388608, 2143289344, 1,
                                                          8388607, 947912704, 1199570944])))
        form = rng.choice(['intBitsToFloat(%s)', 'intBitsToFloat(%s) * 2.0',
                           'intBitsToFloat(%s) + 1.0'])
    sh.body.append('%sfloat %s = %s;' % (sh.prec(), v, form.replace('%s', u)))
    reads = ['fract(%s)', 'clamp(%s * 0.001, 0.0, 1.0)', '%s * 1.0e-5', '1.0 / (%s + 2.0)']
    if sh.es3:
        reads += ['(isinf(%s) ? 0.25 : 0.75)', '(isnan(%s) ? 0.25 : 0.75)']
    sh.channels.append(rng.choice(reads) % v)


SHAPE_FNS = {'vx': s_vx, 'mx': s_mx, 'bw': s_bw, 'mo': s_mo, 'mm': s_mm, 'is': s_is,
             'pk': s_pk, 'xv': s_xv}
