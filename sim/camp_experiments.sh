#!/usr/bin/env bash
# The experiments of docs/results-camp.md, end to end: CAMP slides 12-13
# reproduced (synthetic 24-stage full traversal; 32-stage stride-3 ring on
# the real IPv4 table), the real IPv4/IPv6 tables under random-match and
# zipf traffic, and route updates in flight. Every run checks every answer
# against the image interpreter. Writes CSV files into OUT (default
# ./camp-results) and prints them. These are the papers' one-cycle rules
# (--hop-cycles 1, docs/microarchitecture.md).
#
#   sim/camp_experiments.sh [BIN] [OUT]      (LPMPIPE_DATA: the real tables)
set -euo pipefail
BIN=${1:-build/lpmpipe}
OUT=${2:-camp-results}
DATA=${LPMPIPE_DATA:-../shared/data}
TRACE_BIN=${TRACE_BIN:-$BIN}   # any lpmpipe with 'trace gen'
SWEEP="$(dirname "$0")/sweep.sh"
mkdir -p "$OUT"
V4=$DATA/routeviews-pfx2as-v4-2020-02.txt.xz
V6=$DATA/routeviews-20210117-as293.fib6.txt
say() { printf '\n== %s\n' "$*"; }

say "(a) 24 stages, every request reads all 24 (CAMP slide 12), W=1 in order"
"$SWEEP" -p queue=0,1,2,4,8,16,32,64 -p burst=1,2,4,8,16,32,64 -- \
  "$BIN" sim --hop-cycles 1 --synthetic 24 --count 200000 --seed 1 --warmup 1000 --issue-width 1 | tee "$OUT/a_camp.csv"
say "(a') the same with W=2 and a 32-entry lookahead window"
"$SWEEP" -p queue=0,1,2,4,8,16,32,64 -p burst=1,2,4,8,16,32,64 -- \
  "$BIN" sim --hop-cycles 1 --synthetic 24 --count 200000 --seed 1 --warmup 1000 --issue-width 2 --lookahead 32 | tee "$OUT/a_ours.csv"

[ -f "$V4" ] || { echo "SKIP: $V4 absent: the real-table parts need it"; exit 0; }
say "traffic"
"$TRACE_BIN" trace gen --fib "$V4" --kind random-match --count 1000000 --seed 1 -o "$OUT/v4.rm"
"$TRACE_BIN" trace gen --fib "$V4" --kind zipf --count 1000000 --seed 1 -o "$OUT/v4.zipf"
"$TRACE_BIN" trace gen --fib "$V6" --kind random-match --count 500000 --seed 1 -o "$OUT/v6.rm"
"$TRACE_BIN" trace gen --fib "$V6" --kind zipf --count 500000 --seed 1 -o "$OUT/v6.zipf"

say "(b) 32 stages, initial stride 8, stride 3 over the other 24 bits (CAMP slide 13), real IPv4"
"$BIN" map --fib "$V4" --stages 32 --initial-stride 8 --stride 3 -o "$OUT/v4r32s3.lpi" >"$OUT/v4r32s3.map.txt"
"$SWEEP" -p lookahead=0,32 -p queue=8,16,32 -p burst=1,4,16,64 -- \
  "$BIN" sim --hop-cycles 1 --image "$OUT/v4r32s3.lpi" --trace "$OUT/v4.rm" --warmup 1000 --issue-width 8 | tee "$OUT/b.csv"

say "(c) real tables, 24-stage ring, stride 1 (IPv4) / 32-stage ring, stride 3 (IPv6)"
"$BIN" map --fib "$V4" --stages 24 -o "$OUT/v4r24.lpi" >"$OUT/v4r24.map.txt"
"$BIN" map --fib "$V6" --stages 32 --stride 3 -o "$OUT/v6r32s3.lpi" >"$OUT/v6r32s3.map.txt"
for t in v4r24:v4 v6r32s3:v6; do
  img=${t%%:*} fam=${t#*:}
  for kind in rm zipf; do
    "$SWEEP" -p lookahead=0,32 -p queue=0,4,16,32 -p burst=1,16 -- \
      "$BIN" sim --hop-cycles 1 --image "$OUT/$img.lpi" --trace "$OUT/$fam.$kind" --warmup 1000 --issue-width 4 | tee "$OUT/c_${img}_$kind.csv"
  done
done

say "updates in flight: linx-update-20141217-p52 on the IPv4 ring, 200 MHz"
"$BIN" update --image "$OUT/v4r24.lpi" --updates "$DATA/linx-update-20141217-p52.txt" --bubbles "$OUT/linx.bub" >"$OUT/linx.update.txt"
"$TRACE_BIN" trace gen --fib "$V4" --kind random-match --count 3000000 --seed 2 -o "$OUT/v4.rm3m"
echo "rate,lpc,applied,checked,mismatches" >"$OUT/updates.csv"
for rate in 0 10000 20000 50000 70000 100000 1000000 10000000; do
  upd="--updates $OUT/linx.bub --update-rate $rate"
  [ $rate = 0 ] && upd=
  j=$("$BIN" sim --hop-cycles 1 --image "$OUT/v4r24.lpi" --trace "$OUT/v4.rm3m" --queue 16 --issue-width 4 --lookahead 32 --warmup 1000 $upd --json)
  f() { tr -d '\n' <<<"$j" | sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"; }
  echo "$rate,$(f lpc),$(f applied),$(f checked),$(f mismatches)" | tee -a "$OUT/updates.csv"
done
say "all linx updates at once (a flood of bubbles), then the whole stream replayed under traffic"
"$BIN" sim --hop-cycles 1 --image "$OUT/v4r24.lpi" --trace "$OUT/v4.rm" --queue 16 --issue-width 4 --updates "$OUT/linx.bub" --json | tee "$OUT/updates_flood.json"
