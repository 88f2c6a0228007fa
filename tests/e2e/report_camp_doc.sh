#!/usr/bin/env bash
# The CAMP figure of the report against the numbers docs/results-camp.md
# prints (section (a), both dispatchers): reports/camp-slide12.json run and
# rendered, every LPC equal to the doc's after rounding to three decimals.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
W=$(mktemp -d /tmp/lpmpipe-report-camp.XXXXXX)
trap 'rm -rf "$W"' EXIT
"$BIN" report run reports/camp-slide12.json -o "$W/res" --jobs 2 --quiet || exit 1
"$BIN" report render "$W/res" -o "$W/html" >/dev/null || exit 1
python3 scripts/report_doc_check.py docs/results-camp.md "$W/html"
