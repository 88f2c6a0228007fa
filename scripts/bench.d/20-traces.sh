#!/usr/bin/env bash
# title: synthetic tables and traces: generation speed (median of 3 runs)
# Times `fib gen` for a full-size table of each family and `trace gen` of
# 10M addresses of every kind, written as text to /dev/null (so the figure
# includes formatting and the table load, which is also timed alone).
set -euo pipefail
BIN=${BIN:?}
W=$(mktemp -d /tmp/lpm-bench-traces.XXXXXX)
trap 'rm -rf "$W"' EXIT
TIMEFORMAT='%R'
median3() { # command... -> median wall seconds of 3 runs
  for _ in 1 2 3; do { time "$@" > /dev/null; } 2>&1; done | sort -g | sed -n 2p
}
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }'; }
printf '%-36s %9s %14s\n' "what" "seconds" "per second"
for spec in "4 900000" "6 160000"; do
  set -- $spec
  s=$(median3 "$BIN" fib gen --family "$1" --count "$2" --seed 1 -o "$W/v$1.fib")
  printf '%-36s %9s %14s\n' "fib gen IPv$1 $2 prefixes" "$s" "$(rate "$2" "$s")"
done
for fam in 4 6; do
  load=$(median3 "$BIN" trace gen --fib "$W/v$fam.fib" --kind uniform --count 1 -o /dev/null)
  printf '%-36s %9s\n' "IPv$fam table load (in each run below)" "$load"
  for k in uniform random-match table zipf; do
    s=$(median3 "$BIN" trace gen --fib "$W/v$fam.fib" --kind "$k" --count 10M --seed 2 -o /dev/null)
    net=$(awk -v a="$s" -v b="$load" 'BEGIN { print a - b }')
    printf '%-36s %9s %14s\n' "trace gen IPv$fam $k 10M" "$s" "$(rate 10000000 "$net")"
  done
done
