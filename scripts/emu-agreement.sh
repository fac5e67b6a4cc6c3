#!/usr/bin/env bash
# Bit-exact agreement of the emulator with Mesa's drivers, probe channel by probe channel,
# each driver predicted by the profile `halfcheck fingerprint` measured on it.
#
# For each lane (llvmpipe; softpipe: GALLIUM_DRIVER=softpipe; llvmpipe without SSE:
# GALLIUM_NOSSE=1; zink on lavapipe; virgl over vtest, for which the script starts
# virgl_test_server on Mesa 22.3's fixed socket /tmp/.virgl_test unless one listens there),
# fingerprints the driver into OUT/LANE.yaml, runs DIRS (default: cases/ and
# the Igalia mediump anchors) on it with the GL backend and on the emulator with that
# profile, then compares probes[].observed_bits. Prints per lane the share of channels that
# agree and lists the ones that do not. The fingerprint battery's own probes are not among
# DIRS: they do not count.
#
#   scripts/emu-agreement.sh [DIR...]   (HALFCHECK=path/to/halfcheck, OUT=results dir,
#                                        LANES="llvmpipe softpipe nosse zink virgl")
# The ANGLE lanes (LANES="angle-swiftshader angle-vulkan") run with `--lane NAME`, and
# `--gl-library $HALFCHECK_ANGLE_LIBRARY` when it is set.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
halfcheck="${HALFCHECK:-$root/target/release/halfcheck}"
out="${OUT:-$root/results/agreement}"
lanes="${LANES:-llvmpipe softpipe nosse}"
if [ "$#" -eq 0 ]; then
    set -- "$root/cases" "$root/../shared/anchors/igalia-mediump"
fi
mkdir -p "$out"

# The environment that selects a lane's driver.
lane_env() {
    case "$1" in
        llvmpipe) echo "HALFCHECK_LANE=llvmpipe" ;;
        softpipe) echo "GALLIUM_DRIVER=softpipe" ;;
        nosse) echo "GALLIUM_NOSSE=1" ;;
        angle-*) echo "HALFCHECK_LANE=$1" ;;
        zink) echo "LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json" ;;
        virgl) echo "GALLIUM_DRIVER=virpipe" ;;
        *) echo "unknown lane $1" >&2; exit 2 ;;
    esac
}

# The arguments that select a lane's platform (its environment comes from lane_env).
lane_args() {
    case "$1" in
        angle-*) echo "--lane $1${HALFCHECK_ANGLE_LIBRARY:+ --gl-library $HALFCHECK_ANGLE_LIBRARY}" ;;
    esac
}

# Starts virgl_test_server unless one listens on /tmp/.virgl_test; stopped on exit.
server=""
start_vtest() {
    if python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect("/tmp/.virgl_test")' 2>/dev/null; then
        return
    fi
    virgl_test_server --use-egl-surfaceless --use-gles --multi-clients >/dev/null 2>&1 &
    server=$!
    trap 'kill "$server" 2>/dev/null || true' EXIT
    sleep 1
}

for lane in $lanes; do
    if [ "$lane" = virgl ]; then start_vtest; fi
    # shellcheck disable=SC2046 # the lane's assignments and arguments are separate words
    env $(lane_env "$lane") "$halfcheck" fingerprint --backend gl --name "$lane" $(lane_args "$lane") \
        -o "$out/$lane.yaml" >"$out/$lane.fingerprint.txt" 2>&1
    i=0
    for dir in "$@"; do
        i=$((i + 1))
        # shellcheck disable=SC2046
        env $(lane_env "$lane") "$halfcheck" run "$dir" --backend gl $(lane_args "$lane") \
            --exact-windows --force \
            --results "$out/$lane-gl-$i" >/dev/null 2>&1 || true
        "$halfcheck" run "$dir" --backend emu --emu-profile "$out/$lane.yaml" --force \
            --results "$out/$lane-emu-$i" >/dev/null 2>&1 || true
    done
done

python3 - "$out" "$#" $lanes <<'PY'
import json, sys
out, n, lanes = sys.argv[1], int(sys.argv[2]), sys.argv[3:]

def probes(lane, kind):
    table = {}
    for i in range(1, n + 1):
        tests = json.load(open(f"{out}/{lane}-{kind}-{i}/results.json"))["tests"]
        for name, t in tests.items():
            for p in t.get("probes", []):
                for c, bits in enumerate(p["observed_bits"]):
                    table[(i, name, p["line"], c)] = bits
    return table

for lane in lanes:
    e, g = probes(lane, "emu"), probes(lane, "gl")
    common = sorted(set(e) & set(g))
    same = [k for k in common if e[k] == g[k]]
    share = 100.0 * len(same) / len(common) if common else 0.0
    print(f"{lane}: emu with its fingerprint {out}/{lane}.yaml vs the driver: "
          f"{len(same)}/{len(common)} probe channels bit-identical ({share:.1f}%)")
    print(f"  only on the driver: {len(set(g) - set(e))}, only on emu: {len(set(e) - set(g))}")
    for k in common:
        if e[k] != g[k]:
            print(f"  differs: {k[1]} line {k[2]} channel {'rgba'[k[3]]}: "
                  f"emu {e[k]} driver {g[k]}")
PY
