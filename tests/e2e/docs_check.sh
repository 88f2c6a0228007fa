#!/usr/bin/env bash
# The part of `make docs-check` that takes under a minute: every
# <!-- report-table --> marker of the results docs against its definition
# in reports/, and 14 points of camp-slide12 re-run and compared with
# docs/results-camp.md cell by cell. Then the check must catch a changed
# cell, a changed row label and a table whose records are missing.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
W=$(mktemp -d /tmp/lpmpipe-docs-check.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
DOCS_CHECK=quick DOCS_CHECK_DIR="$W/dc" bash scripts/docs_check.sh "$BIN" >"$W/out.txt" 2>&1 || fail=1
cat "$W/out.txt"
grep -q "docs/results-camp.md:[0-9]* (camp-slide12): 14 of 14 cells re-run, 0 differ" "$W/out.txt" || {
  echo "FAIL: the latency table was not re-run in full"; fail=1; }
# Negative: the same records against docs with one cell or label changed.
python3 - docs/results-camp.md "$W/cell.md" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
i = next(k for k, l in enumerate(lines) if l.startswith("| 16 |"))  # queue 16, CAMP's dispatcher
c = lines[i].split(" | ")
c[2] = "%.3f" % (float(c[2]) + 0.001)                               # burst 2, one step off
lines[i] = " | ".join(c)
open(sys.argv[2], "w").write("\n".join(lines))
PY
sed '0,/^| W=2, lookahead 32 | 275\.2 |/s//| W=2, lookahead 16 | 275.2 |/' docs/results-camp.md >"$W/label.md"
for m in cell label; do
  if cmp -s "$W/$m.md" docs/results-camp.md; then echo "FAIL: the $m edit did not apply"; fail=1; continue; fi
  if python3 scripts/docs_tables.py check "$W/$m.md" --results "$W/dc/results" --exp camp-slide12 >"$W/neg.txt"; then
    echo "FAIL: a changed $m passed the check"; cat "$W/neg.txt"; fail=1
  else
    echo "ok: a changed $m is caught: $(grep -m1 -E "[1-9][0-9]* differ|shape" "$W/neg.txt")"
  fi
done
if python3 scripts/docs_tables.py check docs/results-camp.md --results "$W/dc/results" >"$W/neg.txt"; then
  echo "FAIL: tables without records (camp-real) passed the check"; fail=1
else
  echo "ok: a table with no re-run record fails: $(grep -m1 'not re-run' "$W/neg.txt")"
fi
# Timing columns (results-gpu.md's CPU builds): records made up from the
# doc's own table with other timings must pass; a timing cell that is no
# number, or a changed memory cell, must fail.
mkdir -p "$W/t/experiments"
cp reports/gpu-cpu-builds.json "$W/t/experiments/"
python3 tests/e2e/docs_timing_fixture.py docs/results-gpu.md "$W/t" || fail=1
if python3 scripts/docs_tables.py check docs/results-gpu.md --results "$W/t" >"$W/neg.txt"; then
  echo "ok: other timings pass: $(grep -m1 'timings' "$W/neg.txt")"
else
  echo "FAIL: other timings failed the check"; cat "$W/neg.txt"; fail=1
fi
for m in nonum mem; do
  if cmp -s "$W/t/$m.md" docs/results-gpu.md; then echo "FAIL: the $m edit did not apply"; fail=1; continue; fi
  if python3 scripts/docs_tables.py check "$W/t/$m.md" --results "$W/t" >"$W/neg.txt"; then
    echo "FAIL: a changed $m cell passed the check"; cat "$W/neg.txt"; fail=1
  else
    echo "ok: a changed $m cell is caught: $(grep -m1 'differs:' "$W/neg.txt")"
  fi
done
# Joined definitions ("also" with "exp") and each row's own base ("row_base"):
# render fills every cell from two sweeps; a changed joined cell and a
# changed ratio fail the check; `typed` lists the typed number, not the
# quoted cell.
mkdir -p "$W/j/experiments"
python3 tests/e2e/docs_join_fixture.py "$W/j" || fail=1
if python3 scripts/docs_tables.py render "$W/j/join.md" --results "$W/j" >/dev/null &&
   grep -qxF '| t2 | new | 2,100 | 0.875 | 1.050 |' "$W/j/join.md" &&
   python3 scripts/docs_tables.py check "$W/j/join.md" --results "$W/j" >"$W/neg.txt"; then
  echo "ok: a joined table renders and checks: $(grep -m1 'cells re-run' "$W/neg.txt")"
else
  echo "FAIL: the joined table: $(cat "$W/j/join.md" "$W/neg.txt" 2>/dev/null)"; fail=1
fi
for m in 's/| 0.875 | 1.050 |/| 0.876 | 1.050 |/' 's/| 0.875 | 1.050 |/| 0.875 | 1.051 |/'; do
  sed "$m" "$W/j/join.md" >"$W/j/bad.md"
  if cmp -s "$W/j/bad.md" "$W/j/join.md" || python3 scripts/docs_tables.py check "$W/j/bad.md" --results "$W/j" >"$W/neg.txt"; then
    echo "FAIL: a changed joined cell ($m) passed the check"; fail=1
  else
    echo "ok: a changed joined cell is caught: $(grep -m1 'differs:' "$W/neg.txt")"
  fi
done
python3 scripts/docs_tables.py typed "$W/j/join.md" >"$W/typed.txt"
if grep -q ' \[12.5\]$' "$W/typed.txt" && grep -q ' \[3.75\]$' "$W/typed.txt" &&
   [ "$(grep -c '^.*join.md:' "$W/typed.txt")" = 2 ] && grep -q 'marked not measured: 1 quote' "$W/typed.txt"; then
  echo "ok: typed lists the typed numbers only (a marker passes the numbers it lists, no other): $(grep -m1 'GHz' "$W/typed.txt")"
else
  echo "FAIL: typed: $(cat "$W/typed.txt")"; fail=1
fi
if python3 scripts/docs_tables.py typed --check "$W/j/join.md" >/dev/null; then
  echo "FAIL: typed --check passed a doc with typed numbers"; fail=1
else
  echo "ok: typed --check fails on a doc with typed numbers"
fi
exit $fail
