#!/usr/bin/env bash
# fuzz/run.sh FUZZ_BUILD BIN SECONDS RUNS NAME...: `make fuzz`'s driver.
# Makes the seeds (fuzz/seeds.sh), then runs each harness for SECONDS (and
# at most RUNS executions when RUNS > 0) over its corpus, which is kept in
# FUZZ_BUILD/corpus/NAME between runs, and prints one line per harness:
#   fuzz NAME: E execs in S s (R/s), corpus C inputs, K crashes
# The harnesses run one after the other, or all at once with FUZZ_JOBS=all
# (for a long run on a shared machine: each gets what the machine spares).
# A crash leaves its input in FUZZ_BUILD/crashes/NAME/ and the log in
# FUZZ_BUILD/logs/NAME.log; keep it in fuzz/regress/NAME/ once fixed (the
# replay test runs it in `make test`). Exit 1 when any harness crashed.
set -uo pipefail
FB=${1:?}; BIN=${2:?}; SECS=${3:?}; RUNS=${4:?}; shift 4
mkdir -p "$FB/logs" "$FB/corpus" "$FB/crashes"
echo "fuzz: seeds from the shared tables, the MRT examples and generated images and bubble files"
fuzz/seeds.sh "$BIN" "$FB/seeds" || { echo "fuzz: making the seeds failed" >&2; exit 2; }

run_one() {
  local name=$1 corpus=$FB/corpus/$1 art=$FB/crashes/$1 seeds=$FB/seeds/$1 log=$FB/logs/$1.log
  mkdir -p "$corpus" "$art"
  local before t0 rc dt execs crashes corp
  before=$(ls "$art" | wc -l)
  local args=(-max_total_time="$SECS" -timeout=60 -rss_limit_mb=2560 -close_fd_mask=3
              -print_final_stats=1 -artifact_prefix="$art/")
  [ "$RUNS" -gt 0 ] && args+=(-runs="$RUNS")
  [ -d "$seeds" ] || seeds=
  t0=$(date +%s.%N)
  nice -n 10 "$FB/fuzz/fuzz_$name" "${args[@]}" "$corpus" $seeds >"$log" 2>&1
  rc=$?
  dt=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  execs=${execs:-0}
  crashes=$(( $(ls "$art" | wc -l) - before ))
  [ $rc -ne 0 ] && [ $crashes -eq 0 ] && crashes=1 # died without an artifact: count it, see the log
  corp=$(ls "$corpus" | wc -l)
  printf 'fuzz %-12s %11d execs in %5.0f s (%6.0f/s), corpus %5d inputs, %d crash%s%s\n' "$name:" "$execs" "$dt" \
    "$(awk -v e="$execs" -v t="$dt" 'BEGIN { print (t > 0 ? e / t : 0) }')" "$corp" "$crashes" \
    "$([ $crashes = 1 ] || echo es)" "$([ $crashes = 0 ] || echo " (log $log, inputs $art/)")" >"$FB/logs/$name.line"
}

for name in "$@"; do
  rm -f "$FB/logs/$name.line"
  if [ "${FUZZ_JOBS:-1}" = all ]; then
    run_one "$name" &
  else
    run_one "$name"
    cat "$FB/logs/$name.line"
  fi
done
wait
bad=0
for name in "$@"; do
  [ "${FUZZ_JOBS:-1}" = all ] && cat "$FB/logs/$name.line"
  grep -q ', 0 crashes$' "$FB/logs/$name.line" || bad=1
done
exit $bad
