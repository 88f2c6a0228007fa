#!/usr/bin/env bash
# Runs every unit-test binary and every end-to-end script, prints one line
# per test and the closing "N passed, N failed, N skipped" line.
# A test reports a skipped part with a line starting "SKIP:"; a test that
# skipped everything exits 77 and counts as skipped, never as passed.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export LPMPIPE="$PWD/$BUILD/lpmpipe"
export LPMPIPE_ROOT="$PWD"
export LPMPIPE_BUILD="$PWD/$BUILD"
if [ -z "${LPMPIPE_DATA:-}" ]; then
  if [ -d ../shared/data ]; then LPMPIPE_DATA="$(cd ../shared/data && pwd)"; else LPMPIPE_DATA=""; fi
fi
export LPMPIPE_DATA
export CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-1800}
export CK_VERBOSITY=${CK_VERBOSITY:-normal}
[ -n "$LPMPIPE_DATA" ] || echo "SKIP: ../shared/data is absent: tests on real tables are skipped"

logdir="$BUILD/test-logs"
mkdir -p "$logdir"
pass=0 fail=0 skip=0 skipped_parts=0
failed=()
filter=${TESTS:-}

run_one() {
  local name=$1; shift
  [ -n "$filter" ] && [[ "$name" != *$filter* ]] && return
  local log="$logdir/${name//\//_}.log" t0=$SECONDS rc
  "$@" >"$log" 2>&1
  rc=$?
  local dt=$((SECONDS - t0)) parts
  parts=$(grep -c '^SKIP:' "$log")
  skipped_parts=$((skipped_parts + parts))
  grep '^SKIP:' "$log" | sed "s|^|  $name: |"
  if [ $rc -eq 0 ]; then
    pass=$((pass + 1)); printf 'PASS %-40s %4ds\n' "$name" "$dt"
  elif [ $rc -eq 77 ]; then
    skip=$((skip + 1)); printf 'SKIP %-40s %4ds\n' "$name" "$dt"
  else
    fail=$((fail + 1)); failed+=("$name"); printf 'FAIL %-40s %4ds (exit %d, log %s)\n' "$name" "$dt" "$rc" "$log"
    grep -E '(:[EF]:|FAIL|mismatch|error|Error|ERROR|rror:)' "$log" | head -20 | sed 's/^/    /'
  fi
}

for t in $(ls "$BUILD"/tests/*/test_* 2>/dev/null | grep -v '\.d$' | sort); do
  [ -x "$t" ] || continue
  run_one "${t#$BUILD/tests/}" "$t"
done
for s in $(ls tests/e2e/*.sh 2>/dev/null | sort); do
  run_one "e2e/$(basename "$s" .sh)" bash "$s"
done

echo
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "($skipped_parts skipped parts inside tests, listed above as SKIP lines)"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
