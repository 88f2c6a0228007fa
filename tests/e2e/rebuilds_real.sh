#!/usr/bin/env bash
# Every mapping with a real update trace and rebuilds in the stream (issue
# 17, item 5): a held-out real table (every 16th prefix of tier1-2024 v4,
# not the table the mapper was tuned on) with the LINX trace, rebuilds every
# 4000 effective updates (at the default head room the real traces need
# none on these tables: docs/results-mapping.md), every bubble applied under
# traffic, every lookup judged before-or-after, the rebuild rules and the
# new copy's CRC checked at every swap. Then rebuilds the traces cause
# themselves (balance) on the rings, with LINX and with bgp4mp.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
DATA=${LPMPIPE_DATA:-}
T1=$DATA/tier1-2024.v4.txt.xz
LINX=$DATA/linx-update-20141217-p52.txt
BGP=$DATA/bgp4mp-et-20151023-as3856.bgpdump.txt.xz
if [ -z "$DATA" ] || [ ! -f "$T1" ] || [ ! -f "$LINX" ]; then
  echo "SKIP: the shared tier1 table or the LINX trace is absent: no real-trace rebuild tests"
  exit 77
fi
W=$(mktemp -d /tmp/lpmpipe-e2e-rr.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
jget() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval('d' + sys.argv[1]))" "$1"; }

xzcat "$T1" | awk 'NR % 16 == 0' >"$W/t.txt"
N=60000
run() { # name image bubbles sim-options...
  local name=$1 img=$2 bub=$3
  shift 3
  local out nr nb
  out=$("$BIN" sim --image "$img" --gen random-match --count $N --updates "$bub" --drain-updates --json "$@" 2>"$W/err")
  [ $? -eq 0 ] || { bad "$name: sim exit: $(head -3 "$W/err")"; return; }
  nr=$(grep -c '^R ' "$bub"); nb=$(grep -c '^B ' "$bub")
  [ "$nr" -ge 1 ] || bad "$name: no rebuild"
  [ "$(echo "$out" | jget "['bubbles']['left']")" = 0 ] && [ "$(echo "$out" | jget "['bubbles']['applied']")" = "$nb" ] &&
    [ "$(echo "$out" | jget "['updates']['applied']")" = "$(echo "$out" | jget "['updates']['in_file']")" ] ||
    bad "$name: not every bubble applied: $(echo "$out" | jget "['bubbles']")"
  [ "$(echo "$out" | jget "['bubbles']['swaps']")" = "$nr" ] || bad "$name: swaps != rebuilds"
  [ "$(echo "$out" | jget "['check']['checked']")" = $N ] && [ "$(echo "$out" | jget "['check']['mismatches']")" = 0 ] &&
    [ "$(echo "$out" | jget "['check']['copy_violations']")" = 0 ] &&
    [ "$(echo "$out" | jget "['check']['swaps_checked']")" = "$nr" ] &&
    [ "$(echo "$out" | jget "['check']['swap_crc_mismatches']")" = 0 ] || bad "$name: checks: $(echo "$out" | jget "['check']")"
  echo "$name: $nb bubbles ($nr rebuilds) applied under $N lookups, all judged, 0 mismatches"
}

for m in "ring:--stages 24" "adaptive:--mapping adaptive" "level:--arch linear --mapping level" \
         "height:--arch linear --mapping height" "balanced:--arch linear --mapping balanced"; do
  name=${m%%:*}
  "$BIN" map --fib "$W/t.txt" --shadow ${m#*:} -o "$W/$name.lpi" >/dev/null 2>&1 || { bad "map $name"; continue; }
  "$BIN" update --image "$W/$name.lpi" --updates "$LINX" --rebuild-every 4000 --bubbles "$W/$name.bub" --json \
    >"$W/$name.json" 2>"$W/err" || { bad "update $name: $(cat "$W/err")"; continue; }
  [ "$(jget "['rebuilds']" <"$W/$name.json")" -ge 1 ] && [ "$(jget "['rebuild_headroom'] + d['rebuild_stages']" <"$W/$name.json")" = 0 ] ||
    bad "$name: rebuilds other than the asked-for ones"
  run "$name, LINX" "$W/$name.lpi" "$W/$name.bub" --update-rate 40000000 --issue-width $([ $name = ring ] || [ $name = adaptive ] && echo 4 || echo 1)
done
# the ring once more with the one-cycle rules
run "ring, LINX, --hop-cycles 1" "$W/ring.lpi" "$W/ring.bub" --update-rate 40000000 --hop-cycles 1 --issue-width 4 --lookahead 16

# Natural rebuilds (reason "balance": the fullest stage grew past 1.002 or
# 1.01 times its share after the last build; the ring turns the new mapping
# to fit the memories): LINX on the ring and adaptive ring, and the first
# 20000 lines of the bgp4mp full-table burst on a ring with 30 % head room.
for m in "ring:--stages 24" "adaptive:--mapping adaptive --split 6"; do
  name=${m%%:*}
  "$BIN" map --fib "$W/t.txt" --shadow ${m#*:} -o "$W/n$name.lpi" >/dev/null 2>&1 || bad "map n$name"
  "$BIN" update --image "$W/n$name.lpi" --updates "$LINX" --rebalance-at 1.002 --bubbles "$W/n$name.bub" --json \
    >"$W/n$name.json" 2>"$W/err" || bad "update n$name: $(cat "$W/err")"
  [ "$(jget "['rebuild_balance']" <"$W/n$name.json")" -ge 1 ] || bad "$name: no balance rebuild"
  run "$name, LINX, balance rebuilds" "$W/n$name.lpi" "$W/n$name.bub" --update-rate 40000000 --issue-width 4
done
if [ -f "$BGP" ]; then
  xzcat "$BGP" | head -20000 >"$W/bgp.txt"
  "$BIN" map --fib "$W/t.txt" --shadow --stages 24 --headroom 30 -o "$W/r30.lpi" >/dev/null 2>&1 || bad "map r30"
  "$BIN" update --image "$W/r30.lpi" --updates "$W/bgp.txt" --rebalance-at 1.01 --bubbles "$W/r30.bub" --json >"$W/r30.json" \
    2>"$W/err" || bad "update bgp4mp: $(cat "$W/err")"
  [ "$(jget "['rebuild_balance']" <"$W/r30.json")" -ge 1 ] || bad "bgp4mp: no balance rebuild"
  run "ring, bgp4mp, balance rebuilds" "$W/r30.lpi" "$W/r30.bub" --update-rate 60000000 --issue-width 4
else
  echo "SKIP: the shared bgp4mp trace is absent: no bgp4mp rebuild test"
fi
exit $fail
