#!/usr/bin/env bash
# The rendered report in a real browser: headless Chromium (Debian's
# chromium, scripts/deps.sh) loads index.html from disk; every image must
# decode with a natural size above zero, the console must stay free of
# errors, and a screenshot is written (tests/reports/browser_check.py).
set -u
BIN=${LPMPIPE:-build/lpmpipe}
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
W=$(mktemp -d /tmp/lpmpipe-report-browser.XXXXXX)
trap 'rm -rf "$W"' EXIT
command -v chromium >/dev/null || { echo "FAIL: chromium is not installed (scripts/deps.sh installs it)"; exit 1; }
D=tests/reports
"$BIN" report run "$D/small-sim.json" "$D/small-map.json" "$D/small-gpu.json" -o "$W/res" --jobs 2 --quiet || exit 1
"$BIN" report render "$W/res" -o "$W/html" >/dev/null || exit 1
n=$(grep -c '<img ' "$W/html/index.html")
[ "$n" -ge 3 ] || { echo "FAIL: $n images in index.html"; exit 1; }
python3 tests/reports/browser_check.py "$W/html/index.html" "$W/shot.png" --expect-images "$n" || exit 1
mkdir -p "${LPMPIPE_BUILD:-build}/test-logs"
cp "$W/shot.png" "${LPMPIPE_BUILD:-build}/test-logs/report_browser.png" && echo "screenshot: ${LPMPIPE_BUILD:-build}/test-logs/report_browser.png"
