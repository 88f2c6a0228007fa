#!/usr/bin/env bash
# title: pipeline mapping: CAMP ring and linear pipeline images, checked by the image interpreter
# short: CAMP ring and linear pipeline images
source "$LIB"
neg=0
for fam in 4 6; do
  for m in "ring:--arch ring --stages 24 --initial-stride 8" "linear:--arch linear --mapping balanced --stages 24"; do
    name=${m%%:*}
    # shellcheck disable=SC2086
    "$BIN" map --fib "v$fam.fib" ${m#*:} -o "v$fam-$name.lpi" --json >"map-v$fam-$name.json"
    "$BIN" lookup --image "v$fam-$name.lpi" --verify --trace "v$fam.trace" >/dev/null
    n=$(wc -l <"v$fam.trace")
    check "IPv$fam $name image interpreter" "$n" 0
    ov=$(json "map-v$fam-$name.json" '"%+.2f" % d["overhead_bits_pct"]')
    case $ov in -*) neg=1 ;; esac
    echo "SUMMARY: IPv$fam $name pipeline, $(json "map-v$fam-$name.json" 'd["stages"]') stages: $(json "map-v$fam-$name.json" '"%.2f MiB" % ((d["bits_used"] + d["dit_bits_total"]) / 8 / 1048576)') of stage and DIT memory, fullest stage $(json "map-v$fam-$name.json" '"%.3f" % d["fullest_over_mean"]') x the mean, $ov% bits against an unpipelined trie; $n lookups equal to the reference"
  done
done
if [ $neg = 1 ]; then
  echo "a negative overhead means the pipeline needs fewer bits than the same trie in one memory: each stage"
  echo "addresses only its own words, so its pointers are shorter (docs/cli-mapper.md, overhead_bits_pct)"
fi
saved "images and mapping reports (JSON)" "v4-ring.lpi, map-v4-ring.json, ... (per-stage words inside)"
"$BIN" trace updates --fib v4.fib --count 20000 --seed 3 -o v4.upd
"$BIN" update --image v4-ring.lpi --updates v4.upd -o v4-ring2.lpi --bubbles v4.bubbles --json >update.json
"$BIN" lookup --image v4-ring2.lpi --verify --trace v4.trace >/dev/null
check "IPv4 ring image after 20000 updates" "$(wc -l <v4.trace)" 0
echo "SUMMARY: IPv4 ring, 20000 updates offline: $(json update.json 'd["writes"]') writes in $(json update.json 'd["bubbles"]') bubbles ($(json update.json '"%.2f" % d["writes_per_update"]') writes per update), $(json update.json 'd["rebuilds"]') rebuilds, $(json update.json '"%.2f" % (d["updates_per_s"] / 1e6)') M updates/s; the updated image equals the reference"
saved "bubbles and the updated image" "v4.bubbles, v4-ring2.lpi, update.json"
