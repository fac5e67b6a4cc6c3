"""Which .shader_test files piglit runs on GL ES, and with which shader_runner.

The rule is the one of piglit's framework/test/shader_test.py (Parser): a line of the
[require] section, before the next section, that matches its `GL ES <op> X.Y` or
`GLSL ES <op> X.YY` pattern makes the file a GL ES test. shader_runner_gles2 runs it when the
`GL ES` requirement is `<`/`<=`, or `=`/`>=` a version below 3.0; shader_runner_gles3
otherwise (including files that only say `GLSL ES ...`). A plain grep for "GL ES" in
[require] also catches two glsl-1.10 tests whose *comment* mentions GLSL ES 1.00; this rule
does not.

As a program: python3 piglit_gles.py PIGLIT_DIR [PREFIX=DIR ...] prints one line per GL ES
file, sorted: name <TAB> runner <TAB> absolute path, where the name is
piglit/<path under PIGLIT_DIR> for its tests/ and generated_tests/, and PREFIX/<path under
DIR> for each extra directory.
"""

import os
import re
import sys

GL = re.compile(r'^GL\s+(?P<profile>(ES|CORE|COMPAT))?\s*(?P<op>(<|<=|=|>=|>))\s*(?P<ver>\d\.\d)')
GLSL = re.compile(r'^GLSL\s+(?P<es>ES)?\s*(?P<op>(<|<=|=|>=|>))\s*(?P<ver>\d\.\d+)')


def runner(path):
    """shader_runner_gles2/gles3 for a GL ES test, None for a desktop GL test."""
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = iter(f.readlines())
    for line in lines:
        if line.startswith('[require]'):
            break
    else:
        return None
    es, gl_op, gl_ver, glsl_seen = False, None, 0.0, False
    for line in lines:
        if line.startswith('GL_'):
            continue
        m = GL.match(line) if not gl_ver else None
        if m:
            gl_op, gl_ver = m.group('op'), float(m.group('ver'))
            es = es or m.group('profile') == 'ES'
            continue
        m = GLSL.match(line) if not glsl_seen else None
        if m:
            glsl_seen = True
            es = es or bool(m.group('es'))
            continue
        if line.startswith('['):
            break
    if not es:
        return None
    if gl_op in ('<', '<=') or (gl_op in ('=', '>=') and gl_ver < 3):
        return 'shader_runner_gles2'
    return 'shader_runner_gles3'


def select(sources):
    """(name, runner, absolute path) of every GL ES .shader_test, sorted by name.

    sources: (prefix, root, subdirectories of root to walk) triples."""
    rows = []
    for prefix, root, subdirs in sources:
        for sub in subdirs:
            for dirpath, _, files in os.walk(os.path.join(root, sub), followlinks=True):
                for name in files:
                    if not name.endswith('.shader_test'):
                        continue
                    path = os.path.join(dirpath, name)
                    prog = runner(path)
                    if prog:
                        rel = os.path.relpath(path, root)
                        rows.append((prefix + '/' + rel, prog, os.path.abspath(path)))
    return sorted(rows)


def main(argv):
    if len(argv) < 2:
        sys.exit('usage: piglit_gles.py PIGLIT_DIR [PREFIX=DIR ...]')
    sources = [('piglit', argv[1], ('tests', 'generated_tests'))]
    for extra in argv[2:]:
        prefix, _, root = extra.partition('=')
        sources.append((prefix, root, ('',)))
    for row in select(sources):
        print('\t'.join(row))


if __name__ == '__main__':
    main(sys.argv)
