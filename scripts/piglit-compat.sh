#!/usr/bin/env bash
# piglit-compat.sh: does halfcheck's GL backend agree with piglit's own shader_runner?
#
# Runs the same GL ES .shader_test files twice per Mesa Gallium driver (llvmpipe and
# softpipe): once with piglit's shader_runner_gles2/gles3, one process per file (the way
# `piglit run` does it), and once with `halfcheck run --backend gl`. Prints a table of
# piglit's status vs halfcheck's status for every file, the agree/disagree counts, and the
# wall time of both runners for each driver.
#
# The files:
#   - every .shader_test in Debian's piglit package (tests/ and generated_tests/) that
#     piglit's own framework would run with a GL ES runner: a line of its [require]
#     section (before the next section, comments not counted) matches piglit's
#     `GL ES <op> X.Y` or `GLSL ES <op> X.YY` pattern (framework/test/shader_test.py,
#     Parser). A plain grep for "GL ES" in [require] also catches two glsl-1.10 tests whose
#     *comment* mentions GLSL ES 1.00; the parser rule does not. Debian's piglit
#     0~git20220119 gives 105 files (82 gles3, 23 gles2).
#   - the 28 files under ../shared/anchors/igalia-mediump (relative to the repo root).
#
# The runner binary is picked like piglit's Parser does: gles2 when the `GL ES` requirement
# is `<`/`<=` or `=`/`>=` a version below 3.0, gles3 otherwise (including files that only
# say `GLSL ES ...`). Each is run as
#   PIGLIT_PLATFORM=surfaceless_egl shader_runner_gles{2,3} FILE -auto -fbo
# and its status is read as piglit's framework reads it: the last `PIGLIT: {...}` line;
# killed by a signal -> crash; non-zero exit -> warn (if it said pass) or fail; no PIGLIT
# line at all -> crash; over $TIMEOUT seconds -> timeout.
#
# halfcheck sees the same files through a tree of symlinks whose two top folders are marked
# as suite roots (.halfcheck-suite), so its test names are
#   piglit/<path under the piglit dir>   and   anchors/<path under igalia-mediump>
# and the table uses those names. Mesa's shader cache goes to a fresh temp dir per runner and
# driver (never $HOME), so neither runner is timed with the other's compiled shaders.
#
# Usage: scripts/piglit-compat.sh            (from anywhere; needs bash, python3, coreutils)
# Environment (all optional):
#   HALFCHECK   halfcheck binary          (default: <repo>/target/release/halfcheck)
#   PIGLIT_DIR  piglit install            (default: /usr/lib/x86_64-linux-gnu/piglit)
#   ANCHORS     extra test directory      (default: <repo>/../shared/anchors/igalia-mediump)
#   DRIVERS     Gallium drivers or lanes (default: "llvmpipe softpipe"; also zink: zink on
#               lavapipe; virgl: virpipe over vtest, for which the script starts
#               virgl_test_server on Mesa 22.3's fixed socket /tmp/.virgl_test unless one
#               listens there, and stops it at the end; angle-swiftshader, angle-vulkan)
#   ANGLE_LIBRARY  ANGLE's libEGL.so for the ANGLE lanes (default: $HALFCHECK_ANGLE_LIBRARY)
#   JOBS        halfcheck -j              (default: nproc)
#   TIMEOUT     per-file timeout, seconds (default: 60)
#   OUT         output directory          (default: a new temp dir; printed at the end)
# Output in $OUT: table.tsv (one row per file and driver), summary.txt (counts and timings,
# also printed), runners.tsv (which shader_runner each file used), piglit-<driver>/<name>.log
# (each shader_runner's output), piglit-<driver>.tsv (its exit status, start and end time),
# halfcheck-<driver>/results.json, times.tsv (wall time of both runners per driver).
#
# Timing: "piglit" is the wall clock of the whole serial loop (one process per file, as
# `piglit run -j1` would start them, without piglit's Python around it); "halfcheck" is the
# wall clock of one `halfcheck run -j $JOBS`. halfcheck skips some files piglit runs, so the
# summary also gives piglit's time on only the files halfcheck did not skip.
# ANGLE lanes: halfcheck runs `--lane angle-swiftshader|angle-vulkan --gl-library
# $ANGLE_LIBRARY`. piglit's shader_runner opens EGL through waffle, which loads libEGL.so.1
# and libGLESv2.so.2 by those fixed names and takes the surfaceless platform, so piglit gets a
# directory of symlinks to ANGLE's files under those names on LD_LIBRARY_PATH (ANGLE loads its
# libGLESv2.so and libvulkan.so.1 from the directory it was loaded from); on the surfaceless
# platform ANGLE opens its default, Vulkan, back end on the driver VK_ICD_FILENAMES names:
# SwiftShader's (beside ANGLE) or lavapipe's. The same stack as halfcheck's lane, not the same
# way in: halfcheck needs neither the names nor LD_LIBRARY_PATH.
# Exit status: 0 when every file agrees on every driver, 1 otherwise, 2 on setup errors.

set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HALFCHECK=${HALFCHECK:-$repo/target/release/halfcheck}
PIGLIT_DIR=${PIGLIT_DIR:-/usr/lib/x86_64-linux-gnu/piglit}
ANCHORS=${ANCHORS:-$repo/../shared/anchors/igalia-mediump}
DRIVERS=${DRIVERS:-llvmpipe softpipe}
JOBS=${JOBS:-$(nproc)}
TIMEOUT=${TIMEOUT:-60}
OUT=${OUT:-$(mktemp -d -t piglit-compat.XXXXXX)}

for f in "$HALFCHECK" "$PIGLIT_DIR/bin/shader_runner_gles2" "$PIGLIT_DIR/bin/shader_runner_gles3"; do
    [[ -x $f ]] || { echo "piglit-compat: $f: not found or not executable" >&2; exit 2; }
done
[[ -d $ANCHORS ]] || { echo "piglit-compat: $ANCHORS: no such directory" >&2; exit 2; }
ANCHORS=$(cd "$ANCHORS" && pwd)

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
work=$(mktemp -d -t piglit-compat-work.XXXXXX)
server=""
trap 'rm -rf "$work"; if [[ -n $server ]]; then kill "$server" 2>/dev/null || true; fi' EXIT
# Mesa's shader cache goes to temp dirs, never to $HOME: a fresh one for each runner and
# driver, so neither runner finds shaders the other compiled.

# --- 1. Select the files and pick each one's runner (piglit's Parser rule). -------------
# Writes runners.tsv: name <TAB> runner <TAB> absolute path (scripts/lib/piglit_gles.py).
python3 "$repo/scripts/lib/piglit_gles.py" "$PIGLIT_DIR" "anchors=$ANCHORS" > "$OUT/runners.tsv"

n_piglit=$(grep -c '^piglit/' "$OUT/runners.tsv" || true)
n_anchors=$(grep -c '^anchors/' "$OUT/runners.tsv" || true)
echo "piglit-compat: $n_piglit piglit GL ES files + $n_anchors anchor files; output in $OUT"

# A tree of symlinks so halfcheck names every file by the same name as the table.
tree=$work/tree
while IFS=$'\t' read -r name _ path; do
    mkdir -p "$tree/$(dirname "$name")"
    ln -s "$path" "$tree/$name"
done < "$OUT/runners.tsv"
# Each top folder is a suite root, so halfcheck's names start with piglit/ and anchors/ (a
# marker wins over piglit's spec/ folder, which would otherwise start the names).
for suite in "$tree"/*/; do touch "$suite/.halfcheck-suite"; done

now() { date +%s.%N; }

# Starts virgl_test_server unless one listens on /tmp/.virgl_test (stopped on exit).
start_vtest() {
    if python3 -c 'import socket; socket.socket(socket.AF_UNIX).connect("/tmp/.virgl_test")' \
        2>/dev/null; then
        return
    fi
    command -v virgl_test_server > /dev/null \
        || { echo "piglit-compat: virgl needs virgl_test_server (virgl-server)" >&2; exit 2; }
    virgl_test_server --use-egl-surfaceless --use-gles --multi-clients > /dev/null 2>&1 &
    server=$!
    sleep 1
}

# Exports the environment of a lane: a Gallium driver's name, zink (on lavapipe) or virgl.
select_lane() {
    unset LIBGL_ALWAYS_SOFTWARE VK_ICD_FILENAMES
    case $1 in
        zink)
            export GALLIUM_DRIVER=zink LIBGL_ALWAYS_SOFTWARE=1 \
                VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json ;;
        virgl) export GALLIUM_DRIVER=virpipe; start_vtest ;;
        *) export GALLIUM_DRIVER=$1 ;;
    esac
}

# --- 2. Run both runners under each driver. ---------------------------------------------
: > "$OUT/times.tsv"
ANGLE_LIBRARY=${ANGLE_LIBRARY:-${HALFCHECK_ANGLE_LIBRARY:-}}
for driver in $DRIVERS; do
    piglit_env=()
    halfcheck_args=()
    case $driver in
        angle-swiftshader | angle-vulkan)
            unset GALLIUM_DRIVER
            if [[ ! -f $ANGLE_LIBRARY ]]; then
                echo "piglit-compat: $driver needs ANGLE_LIBRARY (ANGLE's libEGL.so)" >&2
                exit 2
            fi
            angle=$(dirname "$ANGLE_LIBRARY")
            names=$work/angle-names
            mkdir -p "$names"
            ln -sf "$angle/libEGL.so" "$names/libEGL.so.1"
            ln -sf "$angle/libGLESv2.so" "$names/libGLESv2.so.2"
            for file in libGLESv2.so libvulkan.so.1 libvk_swiftshader.so; do
                [[ -f $angle/$file ]] && ln -sf "$angle/$file" "$names/$file"
            done
            icd=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
            [[ $driver == angle-swiftshader ]] && icd=$angle/vk_swiftshader_icd.json
            piglit_env=(LD_LIBRARY_PATH="$names" VK_ICD_FILENAMES="$icd")
            halfcheck_args=(--lane "$driver" --gl-library "$ANGLE_LIBRARY")
            ;;
        *) select_lane "$driver" ;;
    esac

    # piglit: one shader_runner process per file, one after another.
    logs=$OUT/piglit-$driver
    mkdir -p "$logs"
    : > "$OUT/piglit-$driver.tsv"
    t0=$(now)
    while IFS=$'\t' read -r name prog path; do
        log=$logs/$name.log
        mkdir -p "$(dirname "$log")"
        rc=0
        start=$(now)
        env "${piglit_env[@]}" \
            MESA_SHADER_CACHE_DIR=$work/cache-piglit-$driver PIGLIT_PLATFORM=surfaceless_egl \
            timeout -s KILL "$TIMEOUT" \
            "$PIGLIT_DIR/bin/$prog" "$path" -auto -fbo > "$log" 2>&1 < /dev/null || rc=$?
        printf '%s\t%s\t%s\t%s\n' "$name" "$rc" "$start" "$(now)" >> "$OUT/piglit-$driver.tsv"
    done < "$OUT/runners.tsv"
    t1=$(now)

    # halfcheck: one run over the whole tree.
    rc=0
    MESA_SHADER_CACHE_DIR=$work/cache-halfcheck-$driver \
        "$HALFCHECK" run "$tree" --backend gl --results "$OUT/halfcheck-$driver" -j "$JOBS" \
        --timeout "$TIMEOUT" --force "${halfcheck_args[@]}" > "$OUT/halfcheck-$driver.log" 2>&1 \
        || rc=$?
    t2=$(now)
    if [[ $rc -ge 2 ]]; then
        echo "piglit-compat: halfcheck could not run on $driver (exit $rc):" >&2
        tail -20 "$OUT/halfcheck-$driver.log" >&2
        exit 2
    fi
    awk -v d="$driver" -v a="$t0" -v b="$t1" -v c="$t2" \
        'BEGIN { printf "%s\t%.3f\t%.3f\n", d, b - a, c - b }' >> "$OUT/times.tsv"
done

# --- 3. Compare. ------------------------------------------------------------------------
python3 - "$OUT" "$JOBS" "$TIMEOUT" <<'EOF'
import json, os, re, sys

out, jobs, timeout = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = [l.rstrip('\n').split('\t') for l in open(os.path.join(out, 'runners.tsv'))]
times = [l.split() for l in open(os.path.join(out, 'times.tsv'))]
drivers = [t[0] for t in times]

def piglit_status(driver, name, rc):
    """The status piglit's framework gives a shader_runner run (base.py, piglit_test.py)."""
    if rc in (124, 137):  # timeout(1) killed it
        return 'timeout', 'killed after %d s' % timeout
    result = None
    for line in open(os.path.join(out, 'piglit-' + driver, name + '.log'), errors='replace'):
        if line.startswith('PIGLIT:'):
            result = json.loads(line[8:]).get('result', result)
    if rc > 128:  # the shell's 128+signal
        return 'crash', 'signal %d' % (rc - 128)
    if result is None:
        return 'crash', 'no PIGLIT line (exit %d)' % rc
    if rc != 0:
        return ('warn' if result == 'pass' else 'fail'), 'exit %d' % rc
    return result, ''

def piglit_reason(driver, name):
    """The last informative line of shader_runner's output, for the table."""
    lines = [l.strip() for l in open(os.path.join(out, 'piglit-' + driver, name + '.log'),
                                     errors='replace')]
    lines = [l for l in lines if l and not l.startswith('PIGLIT:')]
    return lines[-1] if lines else ''

rows, summary = [], []
for driver, t_piglit, t_halfcheck in times:
    rcs, secs = {}, {}
    for line in open(os.path.join(out, 'piglit-%s.tsv' % driver)):
        name, rc, start, end = line.split()
        rcs[name], secs[name] = rc, float(end) - float(start)
    results = json.load(open(os.path.join(out, 'halfcheck-%s' % driver, 'results.json')))
    tests = results['tests']
    agree = disagree = 0
    ran = 0.0  # piglit's seconds on the files halfcheck did not skip
    for name, prog, path in files:
        p, p_why = piglit_status(driver, name, int(rcs[name]))
        h = tests.get(name, {}).get('status', 'missing')
        h_why = (tests.get(name, {}).get('reason') or '').replace('\n', ' ').replace('\t', ' ')
        same = p == h
        if h != 'skip':
            ran += secs[name]
        agree += same
        disagree += not same
        if not p_why and p != 'pass':
            p_why = piglit_reason(driver, name)
        rows.append((driver, name, prog, p, h, 'agree' if same else 'DIFFER', p_why, h_why[:300]))
    summary.append((driver, results['run'].get('renderer', '?'), len(files), agree, disagree,
                    float(t_piglit), float(t_halfcheck), ran,
                    sum(1 for r in rows if r[0] == driver and r[4] != 'skip')))

with open(os.path.join(out, 'table.tsv'), 'w') as f:
    f.write('driver\tfile\trunner\tpiglit\thalfcheck\tagreement\tpiglit_note\thalfcheck_reason\n')
    for r in rows:
        f.write('\t'.join(r) + '\n')

width = max(len(r[1]) for r in rows)
text = []
for driver in drivers:
    text.append('== %s ==' % driver)
    text.append('%-*s  %-7s  %-7s' % (width, 'file', 'piglit', 'halfck'))
    for r in rows:
        if r[0] == driver:
            mark = '' if r[5] == 'agree' else '   <-- differs'
            text.append('%-*s  %-7s  %-7s%s' % (width, r[1], r[3], r[4], mark))
    text.append('')
for driver, renderer, n, agree, disagree, tp, th, ran, n_ran in summary:
    text.append('%s (%s): %d files, %d agree, %d disagree; wall time: piglit shader_runner '
                '(one process per file, serial) %.2f s, halfcheck (-j %s) %.2f s, ratio %.2fx'
                % (driver, renderer, n, agree, disagree, tp, jobs, th, tp / th))
    text.append('  piglit on the %d files halfcheck did not skip: %.2f s (ratio %.2fx)'
                % (n_ran, ran, ran / th))
    counts = {}
    for r in rows:
        if r[0] == driver:
            counts.setdefault('piglit', {}).setdefault(r[3], 0)
            counts['piglit'][r[3]] += 1
            counts.setdefault('halfcheck', {}).setdefault(r[4], 0)
            counts['halfcheck'][r[4]] += 1
    for who in ('piglit', 'halfcheck'):
        text.append('  %-9s %s' % (who, ', '.join('%s %d' % kv for kv in sorted(counts[who].items()))))
text.append('table: %s' % os.path.join(out, 'table.tsv'))
print('\n'.join(text))
with open(os.path.join(out, 'summary.txt'), 'w') as f:
    f.write('\n'.join(text) + '\n')
sys.exit(1 if any(s[4] for s in summary) else 0)
EOF
