#!/usr/bin/env bash
# title: pipeline mapping: CAMP ring and linear pipeline images, checked by the image interpreter
set -euo pipefail
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
cd "$W"
for fam in 4 6; do
  for m in "ring:--arch ring --stages 24 --initial-stride 8" "linear:--arch linear --mapping balanced --stages 24"; do
    name=${m%%:*}
    # shellcheck disable=SC2086
    "$BIN" map --fib "v$fam.fib" ${m#*:} -o "v$fam-$name.lpi" --json >"rep-$fam-$name.json"
    "$BIN" lookup --image "v$fam-$name.lpi" --verify --trace "v$fam.trace" >/dev/null
    n=$(wc -l <"v$fam.trace")
    python3 - "rep-$fam-$name.json" "$fam" "$name" "$n" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("SUMMARY: IPv%s %s pipeline, %d stages: %d words, fullest/mean %.3f, overhead %+.2f%% bits vs unpipelined trie; %s lookups = reference"
      % (sys.argv[2], sys.argv[3], r["stages"], r["words_used"], r["fullest_over_mean"], r["overhead_bits_pct"], sys.argv[4]))
PY
  done
done
"$BIN" trace updates --fib v4.fib --count 20000 --seed 3 -o v4.upd
"$BIN" update --image v4-ring.lpi --updates v4.upd -o v4-ring2.lpi --bubbles v4.bubbles --json >upd.json
"$BIN" lookup --image v4-ring2.lpi --verify --trace v4.trace >/dev/null
python3 - upd.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("SUMMARY: IPv4 ring: %d updates -> %d writes in %d bubbles (%.2f writes/update), %d rebuilds, %.2fM updates/s offline; updated image = reference"
      % (r["updates"], r["writes"], r["bubbles"], r["writes_per_update"], r["rebuilds"], r["updates_per_s"] / 1e6))
PY
