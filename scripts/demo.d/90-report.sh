#!/usr/bin/env bash
# title: a small report of this run: sweeps on the demo's table, rendered as figures and a web page
# reports/demo/*.json through lpmpipe report (docs/cli-report.md): a queue and
# burst sweep of the demo's table on a 24-stage ring, and its words per
# stage for three mappings. The page stays after the demo (its path is printed).
set -euo pipefail
OUT=${DEMO_REPORT:-build/demo-report}
rm -rf "$OUT"
"$BIN" report run reports/demo/*.json -o "$OUT/results" --jobs 2 --quiet
"$BIN" report render "$OUT/results" -o "$OUT/html" >/dev/null
n=$(wc -l <"$OUT/results/results.jsonl")
printf '%s points recorded (%s), %s figures drawn\n' "$n" "$OUT/results/results.jsonl" "$(ls "$OUT"/html/*.svg | wc -l)"
echo "open $PWD/$OUT/html/index.html"
echo "SUMMARY: report of this run: $n points, $PWD/$OUT/html/index.html"
