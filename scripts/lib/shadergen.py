"""Random GLSL ES 1.00 and 3.00 `.shader_test` files for the soundness campaign.

A seeded generator (`generate(seed, index, ...)` is a pure function of its arguments, so a
test is rebuilt from its seed and number alone) that writes piglit shader tests halfcheck
judges: mixed-precision expressions over the operators and built-ins, default precision
statements and operands without a precision, control flow, loops with constant bounds,
functions, arrays and structs, and *gadgets*: small pieces of code built where an
acceptance interval is weakest (texel choice at a NEAREST boundary, coverage at edge ties
and on perspective triangles, flat varyings, derivatives in non-uniform control flow and
after discard, integer division and remainder by zero and with negative operands,
out-of-range conversions and array indices, uninitialised variables, the sign of zero seen
through floatBitsToInt, reassociated additions, degrees(), gl_FragCoord at mediump,
round() at a .5 tie, textureOffset, implementation limits, near-plane clipping).

Every identifier a gadget introduces starts with its two-letter prefix (GADGETS), so the
gadgets left in a shrunk test are read back from its text (`gadgets_in`).

Probe values do not matter: a tolerance of 2 on piglit's 8-bit view lets every probe pass;
what halfcheck judges is the exact float each probe reads back.

`ints='highp'` keeps every integer operation at highp (declarations, default precision,
float-to-int conversions through a highp function): the variant for lanes whose mediump
int is still 16-bit (llvmpipe with GALLIUM_NOSSE=1), where only float lowering is absent.
The variant of a test is the same test otherwise (the same random choices).

The shapes of issue 34 (scripts/lib/shapes.py: vertex arithmetic feeding the rasteriser,
matrices, bitwise operations, several outputs, mipmaps, interpolation and sample built-ins,
pack/unpack, binary16 overflow, subnormals, inf and NaN) join a test with the chance their
weights give; a test that holds none is the same whatever the weights (`--shapes none`).
Every uniform a test sets is read by its alpha output (clamped), so that no driver drops it
and piglit's runner fails the test for a uniform the program lacks.

As a program: python3 shadergen.py SEED COUNT DIR [--ints highp] [--shapes all|none|vx,mx:0.3]
writes DIR/tNNNNN.shader_test.
"""

import os
import random
import re
import sys

import shapes

# Two-letter prefix -> the weak spot the gadget builds.
GADGETS = {
    'tn': 'texel selection at a NEAREST boundary',
    'tl': 'LINEAR filtering between texels',
    'et': 'coverage at an edge tie',
    'pv': 'perspective triangle (coverage and interpolation after vertex snapping)',
    'fl': 'flat float varying',
    'sv': 'smooth varying',
    'dv': 'derivative in non-uniform control flow or after discard',
    'iz': 'integer /0 and %0',
    'im': '% with negative operands',
    'fi': 'out-of-range float-to-int/uint conversion',
    'ai': 'out-of-range array index',
    'tf': 'out-of-range texelFetch',
    'un': 'uninitialised variable',
    'sz': 'sign of zero through floatBitsToInt',
    'ra': 'reassociated addition',
    'dg': 'degrees()',
    'fc': 'gl_FragCoord (mediump in ES 1.00)',
    'rt': 'round() at a .5 tie',
    'to': 'textureOffset',
    'gm': 'implementation limits (gl_Max*)',
    'nc': 'triangle crossing the near plane',
}

# Uniform values that widen the gap between binary16 and binary32: next to powers of two,
# not representable in binary16, large enough that a binary16 ulp is coarse.
GAP_VALUES = [1024.3, 2047.7, 0.3001, 1.00049, 3.0, 1000.1, 65.53, 0.1, 511.9, 4097.0,
              0.33333334, 2049.0, 8191.5, 0.0009765, 12.34, -7.3, 33.3, 0.70710677,
              200.33333, -1023.9, 1.5, 0.5, 2.0, 7.0, 0.25, 17.17, -0.6, 255.5]
INT_VALUES = [3, 7, 300, 1000, 255, 4096, 32767, 40000, -5, -300, 17, 2, 65536]
AMPLIFIERS = ['1.0', '16.0', '256.0', '1024.0', '4096.0']
PRECISIONS = ['', '', 'lowp ', 'mediump ', 'mediump ', 'highp ']
FLOAT_TYPES = ['float', 'vec2', 'vec3', 'vec4']
WIDTH = {'float': 1, 'vec2': 2, 'vec3': 3, 'vec4': 4}
WINDOW = 250


def fmt(x):
    """A float literal GLSL and piglit both read."""
    s = repr(float(x))
    return s if ('.' in s or 'e' in s) else s + '.0'


class Shader:
    """The pieces of one test while it is built."""

    def __init__(self, rng, es3, ints):
        self.rng = rng
        self.es3 = es3
        self.ints = ints
        self.globals = []        # fragment shader declarations before main
        self.functions = []      # fragment shader functions before main
        self.body = []           # statements of main
        self.channels = []       # extra float terms for the four output channels
        self.setup = []          # [test] lines before the draw
        self.uniforms = []       # (name, glsl type, prec, value text)
        self.vs_out = []         # (fs declaration, vs declaration, vs statement)
        self.vs_position = 'piglit_vertex'
        self.vertex_data = None  # [vertex data] text, or None for draw rect
        self.draws = None        # [test] draw lines, or None for a full-window rect
        self.probes = []         # (x, y) pixels
        self.textures = 0
        self.vars = []           # (name, type) readable in main
        self.locals = set()      # names of the generic locals main may assign
        self.counter = 0
        self.partial_cover = False
        # the shapes of shapes.py
        self.vs_transform = None  # gl_Position's expression, or None for piglit_vertex
        self.vs_in_extra = None   # a second vertex attribute's declaration
        self.vs_head = []         # vertex shader lines after #version
        self.vs_body = []         # vertex shader statements before gl_Position
        self.fs_head = []         # fragment shader lines after #version
        self.version = None       # '310 es' where a shape needs it, else the test's own
        self.outputs = []         # (declaration, statement) of outputs beside the colour
        self.color_location = None  # the colour output's location, where one is written

    def name(self, prefix):
        self.counter += 1
        return '%s_%d' % (prefix, self.counter)

    def int_prec(self):
        return 'highp ' if self.ints == 'highp' else self.rng.choice(PRECISIONS)

    def prec(self):
        return self.rng.choice(PRECISIONS)

    def uniform(self, prefix, glsl_type, value=None, prec=None):
        """Declares a fragment uniform and sets it; returns its name."""
        rng = self.rng
        name = self.name(prefix)
        if prec is None:
            prec = self.int_prec() if glsl_type in ('int', 'uint') else self.prec()
        if value is None:
            if glsl_type in ('int', 'uint'):
                value = str(abs(rng.choice(INT_VALUES)) if glsl_type == 'uint'
                            else rng.choice(INT_VALUES))
            else:
                value = ' '.join(fmt(rng.choice(GAP_VALUES)) for _ in range(WIDTH[glsl_type]))
        self.globals.append('uniform %s%s %s;' % (prec, glsl_type, name))
        self.setup.append('uniform %s %s %s' % (glsl_type, name, value))
        return name

    def to_int(self, expr):
        """float -> int of a scalar expression (through highp where ints are kept highp)."""
        if self.ints == 'highp':
            if 'highp int hp_int(highp float x) { return int(x); }' not in self.functions:
                self.functions.append('highp int hp_int(highp float x) { return int(x); }')
            return 'hp_int(%s)' % expr
        return 'int(%s)' % expr


class Expressions:
    """Random typed expressions over the variables of a Shader."""

    def __init__(self, sh):
        self.sh = sh
        self.rng = sh.rng

    def leaf(self, t):
        rng, sh = self.rng, self.sh
        same = [n for n, vt in sh.vars if vt == t]
        wider = [(n, vt) for n, vt in sh.vars if vt in FLOAT_TYPES and WIDTH[vt] >= WIDTH[t]
                 and vt != t]
        r = rng.random()
        if same and r < 0.55:
            return rng.choice(same)
        if wider and r < 0.75:
            n, vt = rng.choice(wider)
            return '%s.%s' % (n, ''.join(rng.choice('xyzw'[:WIDTH[vt]]) for _ in range(WIDTH[t])))
        if r < 0.85 or not (same or wider):
            lit = fmt(rng.choice(GAP_VALUES))
            return lit if t == 'float' else '%s(%s)' % (t, lit)
        return '%s(%s)' % (t, self.leaf('float')) if t != 'float' else self.leaf('float')

    def int_leaf(self):
        rng, sh = self.rng, self.sh
        ints = [n for n, vt in sh.vars if vt == 'int']
        if ints and rng.random() < 0.7:
            return rng.choice(ints)
        return str(rng.choice([1, 2, 3, 5, 7, 13, 100]))

    def int_expr(self, depth):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.35:
            return self.int_leaf()
        r = rng.random()
        if r < 0.45:
            return '(%s %s %s)' % (self.int_expr(depth - 1), rng.choice('+-*'),
                                   self.int_expr(depth - 1))
        if r < 0.6:
            return '(%s / %d)' % (self.int_expr(depth - 1), rng.choice([2, 3, 7, 10]))
        if r < 0.7 and self.sh.es3:
            return '(%s %% %d)' % (self.int_expr(depth - 1), rng.choice([3, 7, 16]))
        return self.sh.to_int('clamp(%s, -1000.0, 1000.0)' % self.expr('float', depth - 1))

    def cond(self, depth):
        rng = self.rng
        return '(%s %s %s)' % (self.expr('float', depth), rng.choice(['<', '>', '<=', '>=']),
                               self.expr('float', depth))

    def expr(self, t, depth):
        rng, sh = self.rng, self.sh
        if depth <= 0 or rng.random() < 0.2:
            return self.leaf(t)
        d = depth - 1
        e = lambda tt=t: self.expr(tt, d)  # noqa: E731
        r = rng.random()
        if r < 0.28:
            op = rng.choice(['+', '-', '*', '*', '/'])
            if op == '/':
                return '(%s / %s)' % (e(), self.leaf(t))
            if t != 'float' and rng.random() < 0.3:
                return '(%s %s %s)' % (e(), op, e('float'))
            return '(%s %s %s)' % (e(), op, e())
        if r < 0.55:
            f = rng.choice(['sin', 'cos', 'fract', 'floor', 'ceil', 'abs', 'sign', 'degrees',
                            'radians', 'exp2', 'exp', 'log', 'log2', 'sqrt', 'inversesqrt',
                            'normalize', 'tan', 'atan', '-'] +
                           (['round', 'trunc', 'roundEven'] if sh.es3 else []))
            a = e()
            if f in ('exp2', 'exp'):
                a = 'clamp(%s, -10.0, 10.0)' % a
            elif f in ('log', 'log2', 'sqrt'):
                a = '(abs(%s) + 0.5)' % a
            elif f == 'inversesqrt':
                a = '(abs(%s) + 0.25)' % a
            elif f == 'tan':
                a = 'clamp(%s, -1.5, 1.5)' % a
            return '(-(%s))' % a if f == '-' else '%s(%s)' % (f, a)
        if r < 0.72:
            f = rng.choice(['pow', 'mod', 'min', 'max', 'step', 'atan2', 'scalarmod', 'scalarmin'])
            if f == 'pow':
                return 'pow(abs(%s) + 0.1, clamp(%s, -3.0, 3.0))' % (e(), e())
            if f == 'mod':
                return 'mod(%s, abs(%s) + 0.5)' % (e(), e())
            if f == 'scalarmod':
                return 'mod(%s, %s)' % (e(), fmt(rng.choice([1.0, 0.1, 3.0, 0.3001])))
            if f == 'scalarmin':
                return '%s(%s, %s)' % (rng.choice(['min', 'max']), e(), e('float'))
            if f == 'atan2':
                return 'atan(%s, abs(%s) + 0.5)' % (e(), e())
            return '%s(%s, %s)' % (f, e(), e())
        if r < 0.8:
            f = rng.choice(['mix', 'clamp', 'smoothstep', 'mixs'])
            if f == 'mix':
                return 'mix(%s, %s, %s)' % (e(), e(), e())
            if f == 'mixs':
                return 'mix(%s, %s, %s)' % (e(), e(), e('float'))
            if f == 'clamp':
                lo = fmt(rng.choice([0.0, -1.0, 0.25]))
                return 'clamp(%s, %s, %s)' % (e(), lo, fmt(float(lo) + rng.choice([1.0, 100.0])))
            return 'smoothstep(%s, %s, %s)' % (
                fmt(rng.choice([0.0, -2.0])), fmt(rng.choice([1.0, 3.0])), e())
        if r < 0.88:
            if t == 'float':
                n = rng.choice(['vec2', 'vec3', 'vec4'])
                f = rng.choice(['dot', 'length', 'distance'])
                if f == 'length':
                    return 'length(%s)' % e(n)
                return '%s(%s, %s)' % (f, e(n), e(n))
            return '%s(%s)' % (t, ', '.join(self.expr('float', d) for _ in range(WIDTH[t])))
        if r < 0.93:
            return '(%s ? %s : %s)' % (self.cond(d), e(), e())
        if r < 0.97 and t == 'float':
            return '(float(%s) * %s)' % (self.int_expr(d), fmt(rng.choice([0.01, 0.37, 1.0])))
        return self.leaf(t)


def declare_locals(sh, ex, n):
    rng = sh.rng
    for _ in range(n):
        t = rng.choice(FLOAT_TYPES)
        name = sh.name('b')
        sh.body.append('%s%s %s = %s;' % (sh.prec(), t, name, ex.expr(t, rng.randint(1, 3))))
        sh.vars.append((name, t))
        sh.locals.add(name)


def statements(sh, ex):
    """Generic statements: locals, compound assignments, if/else, loops, functions, arrays,
    structs, ints."""
    rng = sh.rng
    declare_locals(sh, ex, rng.randint(1, 3))
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(['assign', 'if', 'for', 'func', 'array', 'struct', 'int', 'local'])
        floats = [(n, t) for n, t in sh.vars if n in sh.locals]
        if kind == 'local' or not floats:
            declare_locals(sh, ex, 1)
        elif kind == 'assign':
            n, t = rng.choice(floats)
            sh.body.append('%s %s= %s;' % (n, rng.choice('+-*'), ex.expr(t, 2)))
        elif kind == 'if':
            n, t = rng.choice(floats)
            sh.body.append('if %s {' % ex.cond(1))
            sh.body.append('%s %s= %s;' % (n, rng.choice('+-*'), ex.expr(t, 2)))
            if rng.random() < 0.5:
                sh.body.append('} else {')
                sh.body.append('%s %s= %s;' % (n, rng.choice('+-*'), ex.expr(t, 2)))
            sh.body.append('}')
        elif kind == 'for':
            n, t = rng.choice(floats)
            i = sh.name('b')
            sh.body.append('for (%sint %s = 0; %s < %d; %s++) {' % (
                sh.int_prec(), i, i, rng.randint(2, 6), i))
            sh.vars.append((i, 'int'))
            sh.body.append('%s = %s * %s + %s;' % (n, n, ex.expr('float', 1), ex.expr(t, 1)))
            sh.vars.pop()
            sh.body.append('}')
        elif kind == 'func':
            f = sh.name('b')
            t = rng.choice(FLOAT_TYPES)
            p1, p2 = sh.prec(), sh.prec()
            saved = sh.vars
            sh.vars = [('a', t), ('s', 'float')]
            body = ex.expr(t, 2)
            sh.vars = saved
            sh.functions.append('%s%s %s(%s%s a, %sfloat s) { return %s; }' % (
                sh.prec(), t, f, p1, t, p2, body))
            name = sh.name('b')
            sh.body.append('%s%s %s = %s(%s, %s);' % (sh.prec(), t, name, f, ex.expr(t, 2),
                                                     ex.expr('float', 1)))
            sh.vars.append((name, t))
        elif kind == 'array':
            a = sh.name('b')
            size = rng.randint(2, 4)
            sh.body.append('%sfloat %s[%d];' % (sh.prec(), a, size))
            for k in range(size):
                sh.body.append('%s[%d] = %s;' % (a, k, ex.expr('float', 2)))
            name = sh.name('b')
            if rng.random() < 0.5:
                i = sh.name('b')
                sh.body.append('%sfloat %s = 0.0;' % (sh.prec(), name))
                sh.body.append('for (%sint %s = 0; %s < %d; %s++) {' % (sh.int_prec(), i, i, size,
                                                                       i))
                sh.body.append('%s += %s[%s] * %s;' % (name, a, i, ex.leaf('float')))
                sh.body.append('}')
            else:
                sh.body.append('%sfloat %s = %s;' % (sh.prec(), name, ' - '.join(
                    '%s[%d]' % (a, k) for k in rng.sample(range(size), size))))
            sh.vars.append((name, 'float'))
        elif kind == 'struct':
            s = sh.name('b')
            sh.globals.append('struct %s { %sfloat x; %svec2 y; };' % (s.upper(), sh.prec(),
                                                                      sh.prec()))
            v = sh.name('b')
            sh.body.append('%s %s = %s(%s, %s);' % (s.upper(), v, s.upper(), ex.expr('float', 2),
                                                   ex.expr('vec2', 2)))
            name = sh.name('b')
            sh.body.append('%sfloat %s = %s.x * %s.y.%s;' % (sh.prec(), name, v, v,
                                                             rng.choice('xy')))
            sh.vars.append((name, 'float'))
        elif kind == 'int':
            u = sh.uniform('b', 'int')
            sh.vars.append((u, 'int'))
            name = sh.name('b')
            sh.body.append('%sint %s = %s;' % (sh.int_prec(), name, ex.int_expr(2)))
            sh.vars.append((name, 'int'))


# --- gadgets: each builds one weak spot ---------------------------------------------------

def sampler(sh, prefix, kind):
    """A sampler2D uniform on a new unit with a texture of `kind` (rgbw or checkerboard)."""
    rng = sh.rng
    unit = sh.textures
    sh.textures += 1
    name = sh.uniform(prefix, 'sampler2D', value=str(unit), prec=rng.choice(PRECISIONS))
    # sampler uniforms are set with `uniform int`
    sh.setup[-1] = 'uniform int %s %d' % (name, unit)
    size = rng.choice([4, 8, 16])
    if kind == 'rgbw':
        sh.setup.append('texture rgbw %d (%d, %d)' % (unit, size, size))
    else:
        c1 = ', '.join(fmt(rng.choice([0.3, 0.5, 0.7, 0.1, 1.0])) for _ in range(4))
        c2 = ', '.join(fmt(rng.choice([0.3, 0.9, 0.2, 0.0, 1.0])) for _ in range(4))
        sh.setup.append('texture checkerboard %d 0 (%d, %d) (%s) (%s)' % (unit, size, size, c1,
                                                                        c2))
    return name, size


def texfn(sh):
    return 'texture' if sh.es3 else 'texture2D'


def g_tn(sh, ex):
    rng = sh.rng
    tex, size = sampler(sh, 'tn', rng.choice(['rgbw', 'checkerboard']))
    filt = 'nearest'
    sh.setup.append('texparameter 2D min %s' % filt)
    sh.setup.append('texparameter 2D mag %s' % filt)
    if rng.random() < 0.5:
        # a coordinate exactly on a texel boundary, from a uniform
        k = rng.randrange(1, size)
        c = sh.uniform('tn', 'vec2', value='%s %s' % (fmt(k / size), fmt(rng.randrange(size) /
                                                                        size + 0.5 / size)))
        coord = c if rng.random() < 0.5 else '(%s * %s)' % (c, fmt(rng.choice([1.0, 3.0, 0.5])))
    else:
        # a coordinate from the pixel position, crossing boundaries across the window
        coord = '(gl_FragCoord.xy * %s)' % fmt(rng.choice([1.0 / WINDOW, 0.004, 1.0 / 125,
                                                           0.0123]))
    v = sh.name('tn')
    sh.body.append('%svec4 %s = %s(%s, %s);' % (sh.prec(), v, texfn(sh), tex, coord))
    sh.vars.append((v, 'vec4'))
    sh.channels.append('%s.%s * %s' % (v, rng.choice('rgba'), rng.choice(['1.0', '3.0',
                                                                          '1024.0'])))


def g_tl(sh, ex):
    rng = sh.rng
    tex, size = sampler(sh, 'tl', rng.choice(['rgbw', 'checkerboard']))
    sh.setup.append('texparameter 2D min linear')
    sh.setup.append('texparameter 2D mag linear')
    if rng.random() < 0.5:
        sh.setup.append('texparameter 2D wrap_s %s' % rng.choice(['repeat', 'clamp_to_edge',
                                                                  'mirrored_repeat']))
    coord = rng.choice(['(gl_FragCoord.xy * vec2(0.0071, 0.0093) - vec2(0.31, 0.17))',
                        sh.uniform('tl', 'vec2')])
    v = sh.name('tl')
    sh.body.append('%svec4 %s = %s(%s, %s);' % (sh.prec(), v, texfn(sh), tex, coord))
    sh.vars.append((v, 'vec4'))
    sh.channels.append('%s.%s * %s' % (v, rng.choice('rgba'), rng.choice(['1.0', '256.0'])))


def g_et(sh, ex):
    """Rectangles whose edges lie on pixel centres (1.004 in NDC is half a pixel of 250)."""
    if sh.draws is not None or sh.vertex_data is not None:
        return
    rng = sh.rng
    k = sh.uniform('et', 'float', value='0.25')
    sh.channels.append(k)
    draws = ['clear color 0.1 0.2 0.3 0.4', 'clear']
    e = rng.choice(['0.004', '0.004', '0.00401', '0.00399', '0.0040001'])
    f = fmt(round(1.0 - float(e), 8))  # the rest of the window
    rects = [('-1 -1 2 1%s' % e[1:], (10, 125)), ('-1 %s 2 %s' % (e, f), (200, 125)),
             ('-1 -1 1%s 2' % e[1:], (125, 10)), ('%s -1 %s 2' % (e, f), (125, 200))]
    rng.shuffle(rects)
    for rect, pixel in rects[:rng.randint(1, 4)]:
        draws.append('uniform float %s %s' % (k, fmt(rng.choice([0.25, 0.5, 0.75, 1.0]))))
        draws.append('draw rect %s' % rect)
        sh.probes.append(pixel)
    sh.probes.append((125, 125))
    sh.draws = draws
    sh.partial_cover = True


def g_pv(sh, ex):
    """A perspective triangle (w varies per vertex), probed inside and at its edges."""
    if sh.draws is not None or sh.vertex_data is not None or sh.vs_transform:
        return
    rng = sh.rng
    if rng.random() < 0.4:
        # a full-window rectangle whose w differs per vertex: the same pixels, perspective
        # interpolation, edges on the window's border
        sh.vs_transform = ('vec4(piglit_vertex.xy * (1.0 + %s * piglit_vertex.x + %s * '
                           'piglit_vertex.y), 0.0, 1.0 + %s * piglit_vertex.x + %s * '
                           'piglit_vertex.y)' % ((fmt(rng.choice([0.4, 0.25])),
                                                  fmt(rng.choice([0.3, 0.1]))) * 2))
        name = sh.name('pv')
        sh.vs_out.append(('%s %sfloat %s;' % ('in' if sh.es3 else 'varying', sh.prec(), name),
                          '%s float %s;' % ('out' if sh.es3 else 'varying', name),
                          '%s = piglit_vertex.x * %s + %s;' % (
                              name, fmt(rng.choice([1.0, 1000.3, 64.7])),
                              fmt(rng.choice([0.0, 1024.0, 3.3])))))
        sh.vars.append((name, 'float'))
        sh.channels.append('fract(%s)' % name)
        for _ in range(rng.randint(1, 3)):
            sh.probes.append((rng.choice([0, 1, 124, 125, 248, 249, rng.randrange(WINDOW)]),
                              rng.randrange(WINDOW)))
        return
    rows, corners = [], []
    for _ in range(3):
        w = rng.choice([0.5, 1.0, 2.0, 1.5, 0.75])
        x, y = rng.uniform(-1.2, 1.2), rng.uniform(-1.2, 1.2)
        rows.append('%s %s 0.0 %s   %s' % (fmt(round(x * w, 3)), fmt(round(y * w, 3)), fmt(w),
                                           fmt(round(rng.uniform(0, 1), 3))))
        corners.append(((x + 1) * WINDOW / 2, (y + 1) * WINDOW / 2))
    sh.vertex_data = 'piglit_vertex/float/4 pv_attr/float/1\n' + '\n'.join(rows) + '\n'
    name = sh.name('pv')
    qual = sh.prec()
    sh.vs_out.append(('%s %s%s %s;' % ('in' if sh.es3 else 'varying', qual, 'float', name),
                      '%s float %s;' % ('out' if sh.es3 else 'varying', name),
                      '%s = pv_attr * %s;' % (name, fmt(rng.choice([1.0, 1000.3, 64.7])))))
    sh.vs_in_extra = ('in' if sh.es3 else 'attribute') + ' float pv_attr;'
    sh.vars.append((name, 'float'))
    sh.channels.append('fract(%s)' % name)
    sh.draws = ['clear color 0.1 0.2 0.3 0.4', 'clear', 'draw arrays GL_TRIANGLES 0 3']
    for k in range(rng.randint(2, 5)):
        # inside the triangle, and on its edges (k odd: a point of an edge)
        a, b = rng.random(), rng.random()
        if k % 2:
            a, b = a, 1.0 - a
        elif a + b > 1:
            a, b = 1 - a, 1 - b
        x = corners[0][0] + a * (corners[1][0] - corners[0][0]) + b * (corners[2][0] -
                                                                       corners[0][0])
        y = corners[0][1] + a * (corners[1][1] - corners[0][1]) + b * (corners[2][1] -
                                                                       corners[0][1])
        sh.probes.append((min(max(int(x), 0), WINDOW - 1), min(max(int(y), 0), WINDOW - 1)))
    sh.partial_cover = True


def g_nc(sh, ex):
    """A rectangle whose z crosses the near and far planes: it must be clipped."""
    if sh.vertex_data is not None or sh.vs_transform:
        return
    sh.vs_transform = 'vec4(piglit_vertex.xy, piglit_vertex.x * %s, 1.0)' % fmt(
        sh.rng.choice([1.5, 3.0, -2.0]))
    sh.partial_cover = True


def g_sv(sh, ex):
    rng = sh.rng
    name = sh.name('sv')
    t = rng.choice(FLOAT_TYPES)
    src = {'float': 'piglit_vertex.x', 'vec2': 'piglit_vertex.xy', 'vec3': 'piglit_vertex.xyx',
           'vec4': 'piglit_vertex'}[t]
    scale = fmt(rng.choice([0.37, 4.0, 1000.3, 0.013]))
    off = fmt(rng.choice([0.1, 1004.0, 2048.0, 0.5]))
    centroid = 'centroid ' if sh.es3 and rng.random() < 0.3 else ''
    sh.vs_out.append(('%s%s %s%s %s;' % (centroid, 'in' if sh.es3 else 'varying', sh.prec(), t,
                                         name),
                      '%s%s %s%s %s;' % (centroid, 'out' if sh.es3 else 'varying',
                                         rng.choice(['', 'mediump ']), t, name),
                      '%s = %s * %s + %s(%s);' % (name, src, scale, t, off)))
    sh.vars.append((name, t))


def g_fl(sh, ex):
    if not sh.es3:
        return g_sv(sh, ex)
    rng = sh.rng
    name = sh.name('fl')
    sh.vs_out.append(('flat in %sfloat %s;' % (sh.prec(), name),
                      'flat out float %s;' % name,
                      '%s = piglit_vertex.x * %s + piglit_vertex.y * %s;' % (
                          name, fmt(rng.choice([3.7, 1000.1, 0.3001])),
                          fmt(rng.choice([1.3, 17.0, 2049.0])))))
    sh.vars.append((name, 'float'))
    sh.channels.append('fract(%s * %s)' % (name, rng.choice(AMPLIFIERS)))


def g_dv(sh, ex):
    if not sh.es3:
        return g_fc(sh, ex)
    rng = sh.rng
    v = sh.name('dv')
    src = ex.expr('float', 2)
    sh.body.append('%sfloat %s = %s * gl_FragCoord.x + gl_FragCoord.y * %s;' % (
        sh.prec(), v, src, fmt(rng.choice([0.3001, 7.0, 1000.1]))))
    d = sh.name('dv')
    fn = rng.choice(['dFdx', 'dFdy', 'fwidth'])
    if rng.random() < 0.5:
        sh.body.append('%sfloat %s = 0.0;' % (sh.prec(), d))
        sh.body.append('if (fract(gl_FragCoord.x * %s) < 0.5) {' % fmt(rng.choice([0.5, 0.25,
                                                                                  0.3])))
        sh.body.append('%s = %s(%s * %s);' % (d, fn, v, v))
        sh.body.append('}')
    else:
        sh.body.append('if (fract(gl_FragCoord.y * %s) < 0.25) discard;' % fmt(
            rng.choice([0.5, 0.25, 0.3])))
        sh.body.append('%sfloat %s = %s(%s * %s);' % (sh.prec(), d, fn, v, v))
        sh.partial_cover = True
    sh.vars.append((d, 'float'))
    sh.channels.append('fract(%s * %s)' % (d, rng.choice(['1.0', '0.125', '32.0'])))


def g_iz(sh, ex):
    rng = sh.rng
    a = sh.uniform('iz', 'int')
    z = sh.uniform('iz', 'int', value='0')
    op = rng.choice(['/', '%']) if sh.es3 else '/'
    v = sh.name('iz')
    sh.body.append('%sint %s = %s %s %s;' % (sh.int_prec(), v, a, op, z))
    sh.channels.append('float(%s) * 0.001' % v)


def g_im(sh, ex):
    if not sh.es3:
        return g_iz(sh, ex)
    rng = sh.rng
    a = sh.uniform('im', 'int', value=str(rng.choice([-7, -300, 7, -1])))
    b = sh.uniform('im', 'int', value=str(rng.choice([-3, 3, -16, 5])))
    v = sh.name('im')
    sh.body.append('%sint %s = %s %% %s;' % (sh.int_prec(), v, a, b))
    sh.channels.append('float(%s) * 0.1' % v)


def g_fi(sh, ex):
    rng = sh.rng
    f = sh.uniform('fi', 'float', value=fmt(rng.choice([3e9, -3e9, 1e20, 65536.5, 40000.0,
                                                        -1.5])))
    v = sh.name('fi')
    if sh.es3 and rng.random() < 0.4:
        conv = 'uint(%s)' % f if sh.ints != 'highp' else 'uint(hp_f(%s))' % f
        if sh.ints == 'highp' and 'highp float hp_f(highp float x) { return x; }' \
                not in sh.functions:
            sh.functions.append('highp float hp_f(highp float x) { return x; }')
        sh.body.append('%suint %s = %s;' % (sh.int_prec(), v, conv))
        sh.channels.append('float(%s %% 1000u) * 0.001' % v)
    else:
        sh.body.append('%sint %s = %s;' % (sh.int_prec(), v, sh.to_int(f)))
        sh.channels.append('float(%s / 1000) * 0.001' % v if not sh.es3
                           else 'float(%s %% 1000) * 0.001' % v)


def g_ai(sh, ex):
    if not sh.es3:
        return g_un(sh, ex)
    rng = sh.rng
    a = sh.name('ai')
    size = rng.randint(2, 4)
    vals = ', '.join(fmt(rng.choice(GAP_VALUES)) for _ in range(size))
    sh.body.append('%sfloat %s[%d] = float[%d](%s);' % (sh.prec(), a, size, size, vals))
    i = sh.uniform('ai', 'int', value=str(rng.choice([size, size + 3, -1, 100])))
    v = sh.name('ai')
    sh.body.append('%sfloat %s = %s[%s];' % (sh.prec(), v, a, i))
    sh.vars.append((v, 'float'))
    sh.channels.append('fract(%s)' % v)


def g_tf(sh, ex):
    if not sh.es3:
        return g_tn(sh, ex)
    rng = sh.rng
    tex, size = sampler(sh, 'tf', 'rgbw')
    i = sh.uniform('tf', 'ivec2', value='%d %d' % (rng.choice([size, size + 2, -1, 3]),
                                                    rng.choice([0, size, 2])))
    v = sh.name('tf')
    sh.body.append('%svec4 %s = texelFetch(%s, %s, 0);' % (sh.prec(), v, tex, i))
    sh.vars.append((v, 'vec4'))
    sh.channels.append('%s.%s' % (v, rng.choice('rgba')))


def g_un(sh, ex):
    rng = sh.rng
    v = sh.name('un')
    sh.body.append('%sfloat %s;' % (sh.prec(), v))
    if rng.random() < 0.3:
        sh.body.append('%s += %s;' % (v, ex.expr('float', 1)))
        sh.channels.append('fract(%s)' % v)
    else:
        c = sh.uniform('un', 'float', value='-1.0')
        sh.body.append('if (%s > 0.0) %s = %s;' % (c, v, ex.expr('float', 1)))
        sh.channels.append('fract(%s + %s)' % (v, c))
    sh.vars.append((v, 'float'))


def g_sz(sh, ex):
    if not sh.es3:
        return g_ra(sh, ex)
    rng = sh.rng
    u = sh.uniform('sz', 'float', value=fmt(rng.choice([-1.0, -0.0, -3.5, 2.0])))
    z = sh.uniform('sz', 'float', value=fmt(rng.choice([0.0, -0.0, 1e-30])))
    v = sh.name('sz')
    zero = rng.choice(['%s * %s' % (u, z), '-(%s * %s)' % (z, u), '%s * %s * %s' % (u, z, z)])
    sh.body.append('%sint %s = floatBitsToInt(%s);' % (sh.int_prec(), v, zero))
    sh.channels.append('(%s < 0 ? 1.0 : 0.0)' % v)


def g_ra(sh, ex):
    rng = sh.rng
    u = sh.uniform('ra', 'float', value=fmt(rng.choice([0.3001, 3.0, 12.34, -7.3])),
                   prec=rng.choice(['', 'highp ', 'mediump ']))
    big = rng.choice(['1e8', '1e4', '65536.0', '2048.0'])
    v = sh.name('ra')
    form = rng.choice(['(%s - %s) + 1.0', '(%s + %s) - %s', '(%s * 3.0 + %s) - %s'])
    text = form % ((u, big) if form.count('%s') == 2 else (u, big, big))
    sh.body.append('%sfloat %s = %s;' % (sh.prec(), v, text))
    sh.vars.append((v, 'float'))
    sh.channels.append('fract(%s)' % v)


def g_dg(sh, ex):
    rng = sh.rng
    t = rng.choice(['float', 'vec2'])
    u = sh.uniform('dg', t)
    v = sh.name('dg')
    sh.body.append('%sfloat %s = degrees(%s)%s;' % (sh.prec(), v, u, '.x' if t == 'vec2' else ''))
    sh.vars.append((v, 'float'))
    sh.channels.append('fract(%s * %s)' % (v, rng.choice(['1.0', '16.0', '256.0'])))


def g_fc(sh, ex):
    rng = sh.rng
    v = sh.name('fc')
    sh.body.append('%sfloat %s = gl_FragCoord.%s * %s;' % (
        sh.prec(), v, rng.choice('xy'), fmt(rng.choice([7.13, 0.3001, 1.0, 4.1]))))
    sh.vars.append((v, 'float'))
    sh.channels.append('fract(%s)' % v)


def g_rt(sh, ex):
    if not sh.es3:
        return g_fc(sh, ex)
    rng = sh.rng
    u = sh.uniform('rt', 'float', value=fmt(rng.choice([0.5, 1.5, 2.5, -0.5, 1000.5])))
    v = sh.name('rt')
    sh.body.append('%sfloat %s = round(%s);' % (sh.prec(), v, u))
    sh.vars.append((v, 'float'))
    sh.channels.append('fract(%s * 0.25)' % v)


def g_to(sh, ex):
    if not sh.es3:
        return g_tn(sh, ex)
    rng = sh.rng
    tex, size = sampler(sh, 'to', rng.choice(['rgbw', 'checkerboard']))
    v = sh.name('to')
    sh.body.append('%svec4 %s = textureOffset(%s, gl_FragCoord.xy * %s, ivec2(%d, %d));' % (
        sh.prec(), v, tex, fmt(1.0 / WINDOW), rng.choice([1, -2, 3]), rng.choice([0, 1, -1])))
    sh.vars.append((v, 'vec4'))
    sh.channels.append('%s.%s' % (v, rng.choice('rgba')))


def g_gm(sh, ex):
    rng = sh.rng
    c = rng.choice(['gl_MaxVertexUniformVectors', 'gl_MaxTextureImageUnits',
                    'gl_MaxFragmentUniformVectors', 'gl_MaxCombinedTextureImageUnits',
                    'gl_MaxDrawBuffers'] +
                   (['gl_MaxVertexOutputVectors', 'gl_MinProgramTexelOffset',
                     'gl_MaxProgramTexelOffset'] if sh.es3 else ['gl_MaxVaryingVectors']))
    v = sh.name('gm')
    sh.body.append('%sfloat %s = float(%s) * %s;' % (sh.prec(), v, c, fmt(rng.choice([
        0.001, 0.3001, 1.0 / 64]))))
    sh.vars.append((v, 'float'))
    sh.channels.append('fract(%s)' % v)


GADGET_FNS = {
    'tn': g_tn, 'tl': g_tl, 'et': g_et, 'pv': g_pv, 'fl': g_fl, 'sv': g_sv, 'dv': g_dv,
    'iz': g_iz, 'im': g_im, 'fi': g_fi, 'ai': g_ai, 'tf': g_tf, 'un': g_un, 'sz': g_sz,
    'ra': g_ra, 'dg': g_dg, 'fc': g_fc, 'rt': g_rt, 'to': g_to, 'gm': g_gm, 'nc': g_nc,
}


def gadgets_in(text):
    """The gadgets (and shapes) whose identifiers (`xx_N`) a test's text holds."""
    found = {m.group(1) for m in re.finditer(r'\b([a-z]{2})_\d+\b', text)}
    if 'vec4(piglit_vertex.xy, piglit_vertex.x' in text:
        found.add('nc')
    if re.search(r'^draw rect .*\b(1?\.00[34]\d*|0\.99[56]\d*)\b', text, re.M):
        found.add('et')  # an edge on (or a hair off) a pixel centre
    if '[vertex data]' in text or 'piglit_vertex.xy * (1.0 +' in text:
        found.add('pv')
    return sorted(g for g in found if g in GADGETS or g in shapes.SHAPES)


# --- assembling a test ---------------------------------------------------------------------

def generate(seed, index, ints='any', es3=None, weights=None):
    """The text of test `index` of campaign `seed`, holding each shape of shapes.py with the
    chance `weights` gives it (none without `weights`)."""
    rng = random.Random('%d/%d' % (seed, index))
    if es3 is None:
        es3 = rng.random() < 0.6
    else:
        rng.random()
    sh = Shader(rng, es3, ints)
    ex = Expressions(sh)
    # uniforms the generic expressions read
    for _ in range(rng.randint(1, 4)):
        t = rng.choice(FLOAT_TYPES)
        sh.vars.append((sh.uniform('b', t), t))
    for g in rng.sample(sorted(GADGET_FNS), rng.randint(0, 3)):
        GADGET_FNS[g](sh, ex)
    # the shapes: picked and built from streams of their own, so that a test holding none
    # is the classic generator's test bit for bit
    pick = random.Random('%d/%d/shapes' % (seed, index))
    chosen = [p for p in shapes.SHAPES if pick.random() < (weights or {}).get(p, 0.0)]
    if chosen:
        sh.rng = ex.rng = random.Random('%d/%d/build' % (seed, index))
        for p in chosen:
            shapes.SHAPE_FNS[p](sh, ex)
        sh.rng = ex.rng = rng
    statements(sh, ex)

    # the four output channels
    outs = []
    extra = list(sh.channels)
    rng.shuffle(extra)
    for k in range(4):
        name = 'r%d' % k
        e = ex.expr('float', rng.randint(1, 3))
        if extra and (k < 3 or rng.random() < 0.5):
            e = '%s + %s' % (extra.pop(), e) if rng.random() < 0.7 else extra.pop()
        amp = rng.choice(AMPLIFIERS)
        wrap = rng.choice(['fract(%s)', 'fract(%s)', 'clamp(%s, 0.0, 1.0)', '%s'])
        e = wrap % ('(%s) * %s' % (e, amp) if amp != '1.0' else e)
        sh.body.append('%sfloat %s = %s;' % (sh.prec(), name, e))
        outs.append(name)
    while extra:  # gadgets that did not get a channel of their own join the alpha
        sh.body.append('%s += %s;' % (outs[3], extra.pop()))
    # every value main computed, and every uniform, reaches an output, so that no uniform
    # is optimised away (piglit fails a test that sets a uniform the program lacks)
    declared = {m.group(2): m.group(1) for m in (
        re.match(r'uniform (?:\w+ )?(\w+) (\w+);', g) for g in sh.globals) if m}
    sink = ['%s(%s)' % ('float' if t == 'int' else '', n) if t in ('int', 'float')
            else '%s.x' % n for n, t in sh.vars if n not in declared]
    sink += ['clamp(%s, -1.0, 1.0)' % uniform_term(n, t) for n, t in declared.items()
             if not t.startswith('sampler')]
    if sink:
        sh.body.append('%s += (%s) * 0.0009765;' % (outs[3], ' + '.join(sink)))

    # fragment shader
    fprec = rng.choice(['mediump', 'mediump', 'lowp', 'highp'])
    version = '#version %s' % (sh.version or ('300 es' if es3 else '100'))
    head = [version] + sh.fs_head
    head.append('precision %s float;' % fprec)
    if ints == 'highp':
        head.append('precision highp int;')
    elif rng.random() < 0.3:
        head.append('precision %s int;' % rng.choice(['lowp', 'mediump', 'highp']))
    if sh.textures and rng.random() < 0.3:
        head.append('precision %s sampler2D;' % rng.choice(['lowp', 'mediump', 'highp']))
    for fs_decl, _, _ in sh.vs_out:
        head.append(fs_decl)
    if es3:
        layout = '' if sh.color_location is None else \
            'layout(location = %d) ' % sh.color_location
        head.append('%sout %svec4 color;' % (layout, rng.choice(PRECISIONS)))
        head += [d for d, _ in sh.outputs]
    out = 'color' if es3 else 'gl_FragColor'
    # uniforms nothing reads are left out (piglit cannot set an inactive uniform)
    code = '\n'.join(sh.functions + sh.body + sh.channels + [s for _, s in sh.outputs])
    for g in list(sh.globals):
        m = re.match(r'uniform (?:\w+ )?\w+ (\w+);', g)
        if m and not re.search(r'\b%s\b' % m.group(1), code):
            sh.globals.remove(g)
            sh.setup = [l for l in sh.setup if l.split()[2:3] != [m.group(1)]]
    frag = head + sh.globals + sh.functions + ['', 'void main()', '{'] + \
        ['\t' + s for s in sh.body + [s for _, s in sh.outputs]] + \
        ['\t%s = vec4(%s);' % (out, ', '.join(outs)), '}']

    # vertex shader
    position = sh.vs_transform or 'piglit_vertex'
    if sh.vs_out or position != 'piglit_vertex' or sh.vertex_data or sh.vs_body:
        vs = [version] + sh.vs_head + [('in' if es3 else 'attribute') + ' vec4 piglit_vertex;']
        if sh.vs_in_extra:
            vs.append(sh.vs_in_extra)
        vs += [d for _, d, _ in sh.vs_out]
        vs += ['void main()', '{'] + ['\t' + s for s in sh.vs_body]
        vs += ['\tgl_Position = %s;' % position]
        vs += ['\t' + s for _, _, s in sh.vs_out]
        vs.append('}')
        vertex = '[vertex shader]\n' + '\n'.join(vs) + '\n'
    else:
        vertex = '[vertex shader passthrough]\n'

    # test section
    test = list(sh.setup)
    if sh.partial_cover and sh.draws is None:
        test += ['clear color 0.1 0.2 0.3 0.4', 'clear']
    test += sh.draws if sh.draws is not None else ['draw rect -1 -1 2 2']
    test.append('tolerance 2.0 2.0 2.0 2.0')
    probes = list(sh.probes)
    for _ in range(rng.randint(1, 3)):
        probes.append((rng.randrange(WINDOW), rng.randrange(WINDOW)))
    lines = ['probe rgba %d %d 0.5 0.5 0.5 0.5' % p for p in probes]
    if not sh.partial_cover and rng.random() < 0.3:
        lines.append('probe all rgba 0.5 0.5 0.5 0.5')
    test += lines

    text = ['# soundness generator: seed %d, test %d, ints %s' % (seed, index, ints),
            '# gadgets: @GADGETS@',
            '',
            '[require]',
            'GL ES >= 3.1' if sh.version else 'GL ES >= 3.0' if es3 else 'GL ES >= 2.0',
            'GLSL ES >= 3.10' if sh.version else 'GLSL ES >= 3.00' if es3 else 'GLSL ES >= 1.00',
            '',
            vertex,
            '[fragment shader]'] + frag + ['']
    if sh.vertex_data:
        text += ['[vertex data]', sh.vertex_data]
    text += ['[test]'] + test
    text = '\n'.join(text) + '\n'
    return text.replace('@GADGETS@', ', '.join(gadgets_in(text)) or 'none', 1)


def uniform_term(name, glsl_type):
    """A float expression reading the uniform `name` of `glsl_type` (not a sampler)."""
    one = name + ('[0].x' if glsl_type.startswith('mat') else
                  '.x' if glsl_type[:-1] in ('vec', 'ivec', 'uvec') else '')
    if glsl_type.startswith('u'):
        return 'float(%s %% 7u)' % one
    return 'float(%s)' % one if glsl_type.startswith('i') else one


def test_name(index):
    """The file name of test `index`."""
    return 't%05d.shader_test' % index


def write(seed, count, directory, ints='any', start=0, indices=None, weights=None):
    """Writes tests start..start+count-1 (or those numbered `indices`) of campaign `seed`
    into `directory`, with the shapes of `weights` (shapes.parse); returns the paths."""
    os.makedirs(directory, exist_ok=True)
    paths = []
    for i in indices if indices is not None else range(start, start + count):
        path = os.path.join(directory, test_name(i))
        with open(path, 'w') as f:
            f.write(generate(seed, i, ints, weights=weights))
        paths.append(path)
    return paths


def main(argv):
    if len(argv) < 4:
        sys.exit('usage: shadergen.py SEED COUNT DIR [--ints highp] [--shapes SHAPES]')
    ints = 'highp' if '--ints' in argv and argv[argv.index('--ints') + 1] == 'highp' else 'any'
    try:
        weights = shapes.parse(argv[argv.index('--shapes') + 1] if '--shapes' in argv
                               else 'all')
    except (ValueError, IndexError) as e:
        sys.exit('shadergen.py: --shapes: %s' % e)
    write(int(argv[1]), int(argv[2]), argv[3], ints, weights=weights)


if __name__ == '__main__':
    main(sys.argv)
