#!/usr/bin/env bash
# title: cycle-level simulator speed: lookups/s against a plain unibit-trie walk of the same table
# The simulator (checking off, traffic preloaded) at the one-cycle rules
# (--hop-cycles 1, as docs/results-camp.md's CAMP figures) and at the
# hardware rules (--hop-cycles 2), and --walk-baseline unibit (24 lookups in
# flight through the table's binary trie, one prefetch: issue 11's limit) on
# the same addresses; --walk-baseline 24 (the image, 24 in flight) for
# reference. Medians of 3 runs (CPU time), and the ratios. Also the bare
# ring's cycles/s (synthetic, 24 stages, every stage read).
#   --fib FILE   this table instead of routeviews-pfx2as-v4
#   --json       one JSON object instead of the lines (what lpmpipe report
#                keeps: reports/camp-sim-speed.json, results-camp.md)
#   --bin B      the lpmpipe binary (default $BIN, else build/lpmpipe)
set -uo pipefail
BIN=${BIN:-build/lpmpipe}
json=0 fibarg=""
while [ $# -gt 0 ]; do
  case "$1" in
    --json) json=1 ;;
    --fib) fibarg=$2; shift ;;
    --bin) BIN=$2; shift ;;
    *) echo "usage: scripts/bench.d/25-sim.sh [--fib FILE] [--json] [--bin B]" >&2; exit 2 ;;
  esac
  shift
done
W=$(mktemp -d /tmp/lpmpipe-bench-sim.XXXXXX)
trap 'rm -rf "$W"' EXIT
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
V4=${LPMPIPE_DATA:+$LPMPIPE_DATA/routeviews-pfx2as-v4-2020-02.txt.xz}
if [ -n "$fibarg" ]; then
  [ -f "$fibarg" ] || { echo "25-sim.sh: $fibarg: no such table" >&2; exit 2; }
  fib=$fibarg name=$(basename "$fibarg")
elif [ -n "$V4" ] && [ -f "$V4" ]; then
  fib=$V4 name="routeviews-pfx2as-v4 (845K prefixes)"
else
  echo "NOTE: no real table: a synthetic one stands in" >&2
  awk 'BEGIN { srand(3); for (i = 0; i < 200000; i++) { ip = int(rand() * 4294967296); l = 8 + int(rand() * 17); m = 2 ^ (32 - l); ip = int(ip / m) * m;
    printf "%d.%d.%d.%d/%d nh%d\n", int(ip / 16777216), int(ip / 65536) % 256, int(ip / 256) % 256, ip % 256, l, i % 50 } }' >"$W/t.fib"
  fib=$W/t.fib name="synthetic 200K prefixes"
fi
"$BIN" map --fib "$fib" --stages 24 -o "$W/r24.lpi" >/dev/null 2>&1 || { echo "map failed"; exit 1; }
if ! "$BIN" trace gen --fib "$fib" --kind random-match --count 1000000 --seed 1 -o "$W/t.trace" 2>/dev/null; then
  # no trace generator in this binary: addresses inside the table's prefixes
  xzcat -f "$fib" | awk '!/^#/ { split($1, p, "/"); print p[1] }' | head -1000000 >"$W/t.trace"
fi
n=$(wc -l <"$W/t.trace")
for i in 1 2 3; do
  for h in 1 2; do
    "$BIN" sim --image "$W/r24.lpi" --trace "$W/t.trace" --hop-cycles $h --queue 16 --issue-width 4 --no-check --preload --timing --json 2>&1 >/dev/null |
      sed -n 's/.* s: \([0-9]*\) lookups\/s, \([0-9]*\) cycles\/s/\1 \2/p' >>"$W/sim$h"
  done
  "$BIN" sim --image "$W/r24.lpi" --trace "$W/t.trace" --walk-baseline unibit --preload |
    sed -n 's/.*"lookups_per_s":\([0-9]*\).*/\1/p' >>"$W/unibit"
  "$BIN" sim --image "$W/r24.lpi" --trace "$W/t.trace" --walk-baseline 24 --preload |
    sed -n 's/.*"lookups_per_s":\([0-9]*\).*/\1/p' >>"$W/walk"
  "$BIN" sim --synthetic 24 --count 300000 --hop-cycles 1 --queue 16 --no-check --timing --json 2>&1 >/dev/null |
    sed -n 's/.* s: \([0-9]*\) lookups\/s, \([0-9]*\) cycles\/s/\2/p' >>"$W/bare"
done
s1=$(cut -d' ' -f1 "$W/sim1" | median) c1=$(cut -d' ' -f2 "$W/sim1" | median)
s2=$(cut -d' ' -f1 "$W/sim2" | median) c2=$(cut -d' ' -f2 "$W/sim2" | median)
u=$(median <"$W/unibit") wk=$(median <"$W/walk") b=$(median <"$W/bare")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
if [ $json = 1 ]; then
  printf '{"table":"%s","lookups":%s,"repeat":3,"sim_d1_lps":%.0f,"sim_d2_lps":%.0f,"unibit_walk_lps":%.0f,"image_walk_lps":%.0f,' \
    "$name" "$n" "$s1" "$s2" "$u" "$wk"
  printf '"ratio_d1":%s,"ratio_d2":%s,"bare_ring_cycles_per_s":%.0f,"load":"%s"}\n' \
    "$(ratio "$s1" "$u")" "$(ratio "$s2" "$u")" "$b" "$(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi
printf '%-48s %s, 24-stage ring (stride 1), %s random-match lookups\n' "table" "$name" "$n"
printf '%-48s %12.0f lookups/s  (%.0f cycles/s)\n' "lpmpipe sim (D 1, queue 16, W 4, --no-check)" "$s1" "$c1"
printf '%-48s %12.0f lookups/s  (%.0f cycles/s)\n' "lpmpipe sim (D 2, queue 16, W 4, --no-check)" "$s2" "$c2"
printf '%-48s %12.0f lookups/s\n' "unibit trie walk, 24 in flight (the limit)" "$u"
printf '%-48s %12.0f lookups/s\n' "interleaved walk of the image, 24 in flight" "$wk"
printf '%-48s %12s\n' "ratio sim D 1 / unibit walk (aim 1.0, >= 0.5)" "$(ratio "$s1" "$u")"
printf '%-48s %12s\n' "ratio sim D 2 / unibit walk (aim 1.0, >= 0.5)" "$(ratio "$s2" "$u")"
printf '%-48s %12.0f cycles/s\n' "bare synthetic ring, 24 stages, all read" "$b"
