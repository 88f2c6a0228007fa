#!/usr/bin/env bash
# title: table parsing (fib stats): wall and CPU seconds, medians of 5 runs
set -uo pipefail
D=${LPMPIPE_DATA:-}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
run() {
  local f=$1 walls=() cpus=() i
  for i in 1 2 3 4 5; do
    /usr/bin/time -f '%e %U %S %M' -o /tmp/lpm-bench-time.$$ "$BIN" fib stats --fib "$f" >/dev/null 2>&1 || { echo "  $f: failed"; return; }
    read -r w u s m </tmp/lpm-bench-time.$$
    walls+=("$w"); cpus+=("$(echo "$u $s" | awk '{ print $1 + $2 }')"); mem=$m
  done
  rm -f /tmp/lpm-bench-time.$$
  printf '  %-45s %8s %8s %10s\n' "$(basename "$f")" "$(printf '%s\n' "${walls[@]}" | median)" \
    "$(printf '%s\n' "${cpus[@]}" | median)" "$mem"
}
printf '  %-45s %8s %8s %10s\n' table "wall s" "CPU s" "peak KB"
if [ -z "$D" ]; then
  T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
  if "$BIN" fib gen --family 4 --count 900000 --seed 1 -o "$T/synth.v4.txt" 2>/dev/null; then run "$T/synth.v4.txt"; else echo "  (no real tables and no synthetic generator yet)"; fi
  exit 0
fi
for f in tier1-2024.v4.txt.xz tier1-2024.v6.txt.xz routeviews-pfx2as-v4-2020-02.txt.xz bgp4mp-et-20151023-as3856.bgpdump.txt.xz; do
  [ -e "$D/$f" ] && run "$D/$f"
done
echo "  target: tier1-2024.v4 parse well under 1 s (parse + multibit build under 1.5 s)"
