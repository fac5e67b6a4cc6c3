#!/usr/bin/env bash
# A user's first minutes: clone this repository into an empty temporary directory, with nothing
# beside it (no ../shared anchors), and run the README's test command there. It must pass:
# tests that need the anchors skip with a printed reason. HALFCHECK_REQUIRE_ANCHORS is unset for
# that run; HALFCHECK_REQUIRE_GL and HALFCHECK_REQUIRE_PIGLIT pass through as they are.
#
# Usage: scripts/fresh-clone-test.sh [--anchors-after] [REV]   (default HEAD).
# --anchors-after: then put this checkout's ../shared beside the clone and run, in the same
# build, every test target that reads the anchors (its source calls `anchors(` or
# `igalia_mediump(`) with HALFCHECK_REQUIRE_ANCHORS=1, so that CI builds and runs the suite
# once (.ci/run).
# The clone builds in a target directory of its own (FRESH_CLONE_TARGET, default a temporary
# one): cargo keys workspace crates by their path inside the workspace, so a shared one would
# let the clone's build (and its baked-in paths) stand in for this checkout's.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
anchors_after=0
if [ "${1:-}" = "--anchors-after" ]; then
    anchors_after=1
    shift
fi
rev=${1:-HEAD}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git clone --quiet --no-local "$repo" "$work/halfcheck"
git -C "$work/halfcheck" checkout --quiet "$rev"
if [ -e "$work/shared" ]; then
    echo "fresh-clone-test: $work/shared exists; the clone must have nothing beside it" >&2
    exit 1
fi
cd "$work/halfcheck"
export CARGO_TARGET_DIR="${FRESH_CLONE_TARGET:-$work/target}"
# A build made once keeps no incremental state (it was a fifth of the target's size).
export CARGO_INCREMENTAL=0
# The README's test command, exactly as written there.
test_command=$(grep -m1 -E '^cargo test' README.md | sed 's/ *#.*$//')
echo "fresh-clone-test: running '$test_command' in $work/halfcheck"
status=0
env -u HALFCHECK_REQUIRE_ANCHORS bash -c "$test_command" >"$work/test.log" 2>&1 || status=$?
grep -E '^skipping ' "$work/test.log" | sort | uniq -c || true
if [ "$status" -ne 0 ]; then
    tail -50 "$work/test.log"
    echo "fresh-clone-test: the test command failed in a fresh clone" >&2
    exit 1
fi
skipped=$(grep -c '^skipping .*shared/anchors' "$work/test.log" || true)
echo "fresh-clone-test: passed; $skipped tests skipped for want of ../shared/anchors"
if [ "$skipped" -eq 0 ]; then
    echo "fresh-clone-test: no test said it skipped for the anchors: is the clone really bare?" >&2
    exit 1
fi
[ "$anchors_after" -eq 1 ] || exit 0

# The same build, with the anchors beside the clone: each test target that reads them.
if [ ! -d "$repo/../shared/anchors" ]; then
    echo "fresh-clone-test: --anchors-after, but $repo/../shared/anchors is missing" >&2
    exit 1
fi
ln -s "$(cd "$repo/../shared" && pwd)" "$work/shared"
for crate in $(dirname */Cargo.toml); do
    [ -d "$crate/tests" ] || continue
    package=$(sed -n 's/^name = "\(.*\)"/\1/p' "$crate/Cargo.toml" | head -1)
    targets=()
    for file in $(grep -lE 'anchors\(|igalia_mediump\(' "$crate"/tests/*.rs); do
        targets+=(--test "$(basename "$file" .rs)")
    done
    [ "${#targets[@]}" -gt 0 ] || continue
    echo "fresh-clone-test: with the anchors: $package ${targets[*]}"
    HALFCHECK_REQUIRE_ANCHORS=1 cargo test -q -p "$package" "${targets[@]}"
done
