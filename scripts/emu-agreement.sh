#!/usr/bin/env bash
# Bit-exact agreement of the emulator with Mesa's drivers, probe channel by probe channel.
#
# Runs DIRS (default: cases/ and the Igalia mediump anchors) four times: GL on llvmpipe,
# GL on softpipe, the emulator in mediump mode and in highp mode; then compares
# probes[].observed_bits of each pair: emu mediump vs llvmpipe, emu highp vs softpipe.
# Prints the share of channels that agree and lists the ones that do not.
#
#   scripts/emu-agreement.sh [DIR...]         (HALFCHECK=path/to/halfcheck, OUT=results dir)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
halfcheck="${HALFCHECK:-$root/target/release/halfcheck}"
out="${OUT:-$root/results/agreement}"
if [ "$#" -eq 0 ]; then
    set -- "$root/cases" "$root/../shared/anchors/igalia-mediump"
fi
mkdir -p "$out"
i=0
for dir in "$@"; do
    i=$((i + 1))
    "$halfcheck" run "$dir" --backend gl --results "$out/llvmpipe-$i" >/dev/null 2>&1 || true
    GALLIUM_DRIVER=softpipe "$halfcheck" run "$dir" --backend gl --results "$out/softpipe-$i" >/dev/null 2>&1 || true
    "$halfcheck" run "$dir" --backend emu --emu-mode mediump --results "$out/mediump-$i" >/dev/null 2>&1 || true
    "$halfcheck" run "$dir" --backend emu --emu-mode highp --results "$out/highp-$i" >/dev/null 2>&1 || true
done
python3 - "$out" "$i" <<'PY'
import json, sys
out, n = sys.argv[1], int(sys.argv[2])

def probes(kind):
    table = {}
    for i in range(1, n + 1):
        tests = json.load(open(f"{out}/{kind}-{i}/results.json"))["tests"]
        for name, t in tests.items():
            for p in t.get("probes", []):
                for c, bits in enumerate(p["observed_bits"]):
                    table[(i, name, p["line"], c)] = bits
    return table

for emu, gl in (("mediump", "llvmpipe"), ("highp", "softpipe")):
    e, g = probes(emu), probes(gl)
    common = sorted(set(e) & set(g))
    same = [k for k in common if e[k] == g[k]]
    share = 100.0 * len(same) / len(common) if common else 0.0
    print(f"emu {emu} vs {gl}: {len(same)}/{len(common)} probe channels bit-identical ({share:.1f}%)")
    print(f"  only on {gl}: {len(set(g) - set(e))}, only on emu: {len(set(e) - set(g))}")
    for k in common:
        if e[k] != g[k]:
            print(f"  differs: {k[1]} line {k[2]} channel {'rgba'[k[3]]}: emu {e[k]} {gl} {g[k]}")
PY
