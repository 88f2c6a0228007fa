#!/usr/bin/env bash
# Runs every unit-test binary and every end-to-end script (JOBS at a time,
# default 2), prints one line per test and the closing
# "N passed, N failed, N skipped" line.
# A test reports a skipped part with a line starting "SKIP:"; a test that
# skipped everything exits 77 and counts as skipped, never as passed.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
JOBS=${JOBS:-2}
export LPMPIPE="$PWD/$BUILD/lpmpipe"
export LPMPIPE_ROOT="$PWD"
export LPMPIPE_BUILD="$PWD/$BUILD"
if [ -z "${LPMPIPE_DATA:-}" ]; then
  if [ -d ../shared/data ]; then LPMPIPE_DATA="$(cd ../shared/data && pwd)"; else LPMPIPE_DATA=""; fi
fi
export LPMPIPE_DATA
export CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-1800}
# Tests set their own Check timeouts for a quiet 2-core machine; a shared,
# loaded one (CI, the sanitizer build) can take several times longer.
export CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-4}
export CK_VERBOSITY=${CK_VERBOSITY:-normal}
[ -n "$LPMPIPE_DATA" ] || echo "SKIP: ../shared/data is absent: tests on real tables are skipped"

logdir="$BUILD/test-logs"
rm -rf "$logdir"
mkdir -p "$logdir"
filter=${TESTS:-}

# name<TAB>command lines
list="$logdir/list"
: >"$list"
for t in $(ls "$BUILD"/tests/*/test_* 2>/dev/null | sort); do
  [ -x "$t" ] && [ -f "$t" ] || continue
  printf '%s\t%s\n' "${t#$BUILD/tests/}" "$t" >>"$list"
done
for s in $(ls tests/e2e/*.sh 2>/dev/null | sort); do
  printf '%s\t%s\n' "e2e/$(basename "$s" .sh)" "bash $s" >>"$list"
done
[ -n "$filter" ] && { grep -F -- "$filter" "$list" >"$list.f" || :; mv "$list.f" "$list"; }

run_one() {
  local name=$1 cmd=$2 key=${1//\//_} t0=$SECONDS
  $cmd >"$logdir/$key.log" 2>&1
  echo "$? $((SECONDS - t0))" >"$logdir/$key.rc"
}
export -f run_one
export logdir
# Longest tests first would be better; input order is good enough.
cut -f1,2 "$list" | tr '\t' '\n' | xargs -d '\n' -n 2 -P "$JOBS" bash -c 'run_one "$0" "$1"'

pass=0 fail=0 skip=0 parts=0
failed=()
while IFS=$'\t' read -r name cmd; do
  key=${name//\//_}
  log="$logdir/$key.log"
  read -r rc dt <"$logdir/$key.rc" 2>/dev/null || { rc=99; dt=0; }
  n=$(grep -c '^SKIP:' "$log")
  parts=$((parts + n))
  grep '^SKIP:' "$log" | sed "s|^|  $name: |"
  if [ "$rc" -eq 0 ]; then
    pass=$((pass + 1)); printf 'PASS %-40s %4ds\n' "$name" "$dt"
  elif [ "$rc" -eq 77 ]; then
    skip=$((skip + 1)); printf 'SKIP %-40s %4ds\n' "$name" "$dt"
  else
    fail=$((fail + 1)); failed+=("$name")
    printf 'FAIL %-40s %4ds (exit %d, log %s)\n' "$name" "$dt" "$rc" "$log"
    grep -E '(:[EF]:|FAIL|mismatch|[Ee]rror)' "$log" | head -20 | sed 's/^/    /'
  fi
done <"$list"

echo
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "($parts skipped parts inside tests, listed above as SKIP lines)"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ] && [ $((pass + fail + skip)) -gt 0 ]
