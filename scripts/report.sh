#!/usr/bin/env bash
# make report: the experiment sweeps of reports/*.json (docs/cli-report.md)
# on built-in synthetic data, and those on the real tables when
# ../shared/data is there (the others print a SKIP line); REPORT_LONG=1 adds
# reports/long/*.json; REPORT_SET=synthetic leaves the real tables out even
# where they are. Points already recorded are not run again, so a second
# `make report` only renders. Then the figures, summary.md and index.html,
# and a check that the CAMP figure still holds docs/results-camp.md's numbers.
set -euo pipefail
BIN=${1:-build/lpmpipe}
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
OUT=${REPORT_DIR:-build/report}
JOBS=${REPORT_JOBS:-$(nproc 2>/dev/null || echo 2)}
if [ -z "${LPMPIPE_DATA:-}" ] && [ -d ../shared/data ]; then LPMPIPE_DATA="$(cd ../shared/data && pwd)"; fi
export LPMPIPE_DATA=${LPMPIPE_DATA:-}
if [ "${REPORT_SET:-}" = synthetic ]; then
  LPMPIPE_DATA=""   # the synthetic set alone, even where the tables are
  echo "NOTE: REPORT_SET=synthetic: the sweeps on the real tables are skipped"
elif [ -z "$LPMPIPE_DATA" ]; then
  echo "NOTE: ../shared/data is absent: the sweeps on the real tables are skipped"
fi
defs=(reports/*.json)
[ -n "${REPORT_LONG:-}" ] && defs+=(reports/long/*.json)
t0=$SECONDS
rc=0
"$BIN" report run "${defs[@]}" -o "$OUT/results" --jobs "$JOBS" --data "$LPMPIPE_DATA" || rc=$?
"$BIN" report render "$OUT/results" -o "$OUT/html" >/dev/null
python3 scripts/report_doc_check.py docs/results-camp.md "$OUT/html" || rc=1
# Every generated table of the results docs whose sweep ran here, cell by cell.
python3 scripts/docs_tables.py check docs/results-*.md --results "$OUT/results" --present || rc=1
echo "report: $((SECONDS - t0)) s, load average $(cut -d' ' -f1-3 /proc/loadavg)"
case "$OUT" in /*) ;; *) OUT="$PWD/$OUT" ;; esac
echo "report: $OUT/html/index.html"
exit $rc
