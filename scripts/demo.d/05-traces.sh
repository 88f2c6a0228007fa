#!/usr/bin/env bash
# title: traces: the four kinds, bursts and an update trace on the synthetic IPv4 table
# short: lookup and update traces
source "$LIB"
printf '%-14s %10s %10s %10s\n' "trace kind" addresses matched distinct
for k in uniform random-match table zipf; do
  "$BIN" trace gen --fib v4.fib --kind "$k" --count 20000 --seed 3 -o "kind-$k.trace"
  m=$("$BIN" lookup --fib v4.fib --trace "kind-$k.trace" | awk '$2 != "-"' | wc -l)
  d=$(sort -u "kind-$k.trace" | wc -l)
  printf '%-14s %10d %10d %10d\n' "$k" 20000 "$m" "$d"
done
"$BIN" trace gen --fib v4.fib --kind table --count 20000 --seed 3 --burst 8 -o burst.trace
runs=$(uniq burst.trace | wc -l)
fig "table trace, --burst 8:" "20000 addresses in $runs runs of one address (mean run $(awk -v r="$runs" 'BEGIN{printf "%.2f", 20000/r}'))"
"$BIN" trace updates --fib v4.fib --count 10000 --withdraw-share 0.3 --seed 4 -o updates.trace
w=$(awk '$2=="w"' updates.trace | wc -l)
fig "update trace:" "10000 updates, $w withdrawals, $((10000 - w)) announcements"
saved "traces" "kind-*.trace, burst.trace, updates.trace"
echo "SUMMARY: traces: four kinds generated and looked up; an update trace of 10000 ($w withdrawals)"
