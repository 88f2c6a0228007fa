#!/usr/bin/env bash
# title: traces: the four kinds, bursts and an update trace on the synthetic IPv4 table
set -euo pipefail
BIN=${BIN:?}
W=${W:?}
printf '%-14s %10s %10s %14s\n' kind addresses matched distinct
for k in uniform random-match table zipf; do
  "$BIN" trace gen --fib "$W/v4.fib" --kind "$k" --count 20000 --seed 3 -o "$W/k.trace"
  m=$("$BIN" lookup --fib "$W/v4.fib" --trace "$W/k.trace" | awk '$2 != "-"' | wc -l)
  d=$(sort -u "$W/k.trace" | wc -l)
  printf '%-14s %10d %10d %14d\n' "$k" 20000 "$m" "$d"
done
"$BIN" trace gen --fib "$W/v4.fib" --kind table --count 20000 --seed 3 --burst 8 -o "$W/b.trace"
runs=$(uniq "$W/b.trace" | wc -l)
echo "table trace with --burst 8: 20000 addresses in $runs runs (mean run $(awk -v r="$runs" 'BEGIN{printf "%.2f", 20000/r}'))"
"$BIN" trace updates --fib "$W/v4.fib" --count 10000 --withdraw-share 0.3 --seed 4 -o "$W/u.trace"
head -3 "$W/u.trace"
w=$(awk '$2=="w"' "$W/u.trace" | wc -l)
echo "SUMMARY: traces: 4 kinds generated and looked up; update trace of 10000 ($w withdrawals)"
