#!/usr/bin/env bash
# The update experiments of docs/results-mapping.md ("Updates") and
# docs/results-camp.md ("Updates in flight"), end to end.
#
#   mapper/update_experiments.sh [BIN] [OUT]    (LPMPIPE_DATA: the real tables)
#
# 1. rebuilds.csv: for every mapping and head-room setting, the real update
#    traces (LINX; the first BGPN lines of bgp4mp, default 50000: the whole
#    file is a full table announced on top of the table, 80 s a run) and a
#    generated one, compiled by lpmpipe update on images with a shadow copy:
#    rebuilds, the first one, where the table outgrew the memory
#    (stopped_at), memory with and without the shadow.
#    TABLES: the tables (default: routeviews-pfx2as-v4 and tier1-2024 v4).
# 2. inflight.csv: the LINX stream (all of it, --drain-updates) at RATE
#    updates/s (default 50M: the stream overlaps the lookups), without and
#    with one forced rebuild (--rebuild-every 8000), on LOOKUPS (default
#    300K) random-match lookups of the full IPv4 table, ring and linear:
#    LPC, bubbles, the rebuild's cycles and the LPC while it streams
#    (one-cycle rules).
set -euo pipefail
BIN=${1:-build/lpmpipe}
OUT=${2:-update-results}
DATA=${LPMPIPE_DATA:-../shared/data}
mkdir -p "$OUT"
LINX=$DATA/linx-update-20141217-p52.txt
BGP=$DATA/bgp4mp-et-20151023-as3856.bgpdump.txt.xz
V4=$DATA/routeviews-pfx2as-v4-2020-02.txt.xz
T1=$DATA/tier1-2024.v4.txt.xz
TABLES=${TABLES:-"$V4 $T1"}
HEADROOMS=${HEADROOMS:-"5 10 20"}
BGPN=${BGPN:-50000}
LOOKUPS=${LOOKUPS:-300000}
RATE=${RATE:-50000000}
[ -f "$V4" ] && [ -f "$LINX" ] || { echo "SKIP: the shared tables are absent"; exit 0; }
if [ -f "$BGP" ]; then (xzcat "$BGP" || :) | head -n "$BGPN" >"$OUT/bgp4mp-head.txt"; BGP=$OUT/bgp4mp-head.txt; fi

csv() { python3 - "$@" <<'PY'
import json, sys
tab, mapping, head, trace, mj, uj = sys.argv[1:7]
m = json.load(open(mj)); u = json.load(open(uj))
print(",".join(str(x) for x in [tab, mapping, head, trace, u["updates"], u["updates"] - u["noops"], u["rebuilds"],
      u["first_rebuild"], u["stopped_at"], u["rebuild_headroom"], u["rebuild_stages"], u["blocks_copied"],
      u["rebuild_bubbles"], u["max_rebuild_bubbles"], m["words_used"], m["words_allocated"], m["memory_bits"],
      m["shadow_bits"], "%.2f" % u["seconds"]]))
PY
}
"$BIN" trace updates --fib "$V4" --count 3000 --seed 1 -o "$OUT/gen3000.txt"
echo "table,mapping,headroom,trace,updates,effective,rebuilds,first_rebuild,stopped_at,rebuild_headroom,rebuild_stages,blocks_copied,rebuild_bubbles,max_rebuild_bubbles,words_used,words_allocated,memory_bits,shadow_bits,seconds" \
  | tee "$OUT/rebuilds.csv"
for tab in $TABLES; do
  [ -f "$tab" ] || continue
  t=$(basename "$tab" | cut -d- -f1-2)
  for h in $HEADROOMS; do
    for m in "ring:--stages 24" "adaptive:--mapping adaptive" "level:--arch linear --mapping level" \
             "height:--arch linear --mapping height" "balanced:--arch linear --mapping balanced"; do
      name=${m%%:*}
      "$BIN" map --fib "$tab" --shadow --headroom "$h" ${m#*:} -o "$OUT/img.lpi" --json >"$OUT/map.json" 2>/dev/null
      for tr in "$LINX" "$BGP" "$OUT/gen3000.txt"; do
        [ -f "$tr" ] || continue
        "$BIN" update --image "$OUT/img.lpi" --updates "$tr" --json >"$OUT/upd.json" 2>/dev/null || true
        csv "$t" "$name" "$h" "$(basename "$tr" | cut -d- -f1)" "$OUT/map.json" "$OUT/upd.json" | tee -a "$OUT/rebuilds.csv"
      done
    done
  done
done
rm -f "$OUT/img.lpi"

# 2. updates in flight with a rebuild, on the full IPv4 table
"$BIN" trace gen --fib "$V4" --kind random-match --count "$LOOKUPS" --seed 2 -o "$OUT/v4.rm"
echo "mapping,rebuild,update_rate,lpc,requests,cycles,bubbles,swaps,rebuild_cycles,rebuild_lpc,mismatches,copy_violations" \
  | tee "$OUT/inflight.csv"
for m in "level:--arch linear --mapping level:" "ring:--stages 24:--issue-width 4 --lookahead 32" \
         "height:--arch linear --mapping height:" "balanced:--arch linear --mapping balanced:"; do
  IFS=: read -r name mopts sopts <<<"$m"
  "$BIN" map --fib "$V4" --shadow $mopts -o "$OUT/$name.lpi" >/dev/null 2>&1
  "$BIN" update --image "$OUT/$name.lpi" --updates "$LINX" --bubbles "$OUT/$name.bub" >/dev/null
  "$BIN" update --image "$OUT/$name.lpi" --updates "$LINX" --rebuild-every 8000 --bubbles "$OUT/$name.rb.bub" >/dev/null
  for run in "none:-" "$RATE:no" "$RATE:yes"; do
    IFS=: read -r rate rb <<<"$run"
    bub=$OUT/$name.bub; [ "$rb" = yes ] && bub=$OUT/$name.rb.bub
    upd="--updates $bub --update-rate $rate --drain-updates"
    [ "$rate" = none ] && upd=""
    "$BIN" sim --hop-cycles 1 --image "$OUT/$name.lpi" --trace "$OUT/v4.rm" --queue 16 $sopts --warmup 1000 $upd --json \
      >"$OUT/sim.json" 2>"$OUT/sim.err" || echo "sim $name $rb $rate failed: $(head -2 "$OUT/sim.err")" >&2
    python3 - "$name" "$rb" "$rate" "$OUT/sim.json" <<'PY' | tee -a "$OUT/inflight.csv"
import json, sys
n, rb, rate, f = sys.argv[1:5]
d = json.load(open(f)); b = d["bubbles"]
print(",".join(str(x) for x in [n, rb, rate, "%.5f" % d["lpc"], d["requests"], d["cycles"], b["applied"], b["swaps"],
      b["rebuild_cycles"], "%.4f" % b["rebuild_lpc"], d["check"]["mismatches"], d["check"]["copy_violations"]]))
PY
  done
  rm -f "$OUT/$name.lpi" "$OUT/$name.bub" "$OUT/$name.rb.bub"
done
