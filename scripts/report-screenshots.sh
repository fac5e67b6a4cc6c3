#!/usr/bin/env bash
# Opens a halfcheck HTML report in headless Chromium (Debian's `chromium`), fails on any
# message the pages write to the console (the report's pages write none, so any is an error:
# an exception in report.js, a blocked or missing resource) and saves screenshots of the front
# page, the lowering matrix and one test page.
#
#   scripts/report-screenshots.sh REPORT_DIR [OUT_DIR] [TEST_PAGE]
#
# REPORT_DIR: a site written by `halfcheck report` or `halfcheck run` (DIR/report).
# OUT_DIR: where the PNGs go (default: REPORT_DIR/../screenshots).
# TEST_PAGE: a page under REPORT_DIR/tests/ (default: the first test listed on tests.html, that
# is the most urgent one).
# Each page opens in a fresh, empty Chromium profile that is deleted afterwards; no network.
# Shared memory is not used (--disable-dev-shm-usage): a container's /dev/shm may be small.
# The test `the_report_opens_in_chromium_without_console_messages` (harness/tests/cli_report.rs)
# runs it on a report `run` writes, and once more with a report.js that throws.
set -euo pipefail

report=${1:?usage: $0 REPORT_DIR [OUT_DIR] [TEST_PAGE]}
report=$(cd "$report" && pwd)
out=${2:-$report/../screenshots}
mkdir -p "$out"
out=$(cd "$out" && pwd)
chromium=${CHROMIUM:-chromium}

if [[ $# -ge 3 ]]; then
    test_page=$3
else
    # The first link into tests/ on tests.html: the list is ordered most urgent first.
    test_page=$(grep -o 'href="tests/[^"]*\.html"' "$report/tests.html" | head -n 1 | sed 's/^href="//; s/"$//')
fi
[[ -f "$report/$test_page" ]] || { echo "no test page $report/$test_page" >&2; exit 2; }

failed=0
shoot() { # PAGE NAME HEIGHT
    local page=$1 name=$2 height=$3 profile log
    profile=$(mktemp -d)
    log=$(mktemp)
    "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-quic \
        --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" --enable-logging=stderr --v=0 \
        --hide-scrollbars --virtual-time-budget=5000 --window-size="1400,$height" \
        --screenshot="$out/$name.png" "file://$report/$page" 2>"$log" >/dev/null || {
        echo "chromium failed on $page:" >&2
        tail -n 20 "$log" >&2
        failed=1
    }
    if grep -F ':CONSOLE' "$log" >&2; then
        echo "console messages on $page (above)" >&2
        failed=1
    fi
    rm -rf "$profile" "$log"
    [[ -s "$out/$name.png" ]] && echo "$out/$name.png: $page"
}

shoot index.html front ${FRONT_HEIGHT:-2200}
shoot matrix.html matrix 1600
shoot "$test_page" test 3000
exit $failed
