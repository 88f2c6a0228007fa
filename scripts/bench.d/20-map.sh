#!/usr/bin/env bash
# title: mapper: 900K-prefix table onto a 24-stage CAMP ring (target < 2 s), and the offline update rate (target >= 1M/s)
# Medians of 5 runs. Mapping time is lpm_map_build (trie, coloring,
# placement, encoding, validation; the report's "seconds"), without reading
# the table. Update rate: the linx trace replayed through lpmpipe update.
set -uo pipefail
D=${LPMPIPE_DATA:-}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if [ -n "$D" ] && [ -e "$D/tier1-2024.v4.txt.xz" ]; then
  tab="$D/tier1-2024.v4.txt.xz"
else
  echo "NOTE: the real tables are absent: a synthetic 900K-prefix table stands in"
  "$BIN" fib gen --family 4 --count 900000 --seed 1 -o "$T/synth.txt"; tab="$T/synth.txt"
fi
if [ -n "$D" ] && [ -e "$D/linx-update-20141217-p52.txt" ]; then
  upd="$D/linx-update-20141217-p52.txt"
else
  "$BIN" trace updates --fib "$tab" --count 50000 --seed 1 -o "$T/upd.txt"; upd="$T/upd.txt"
fi
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for m in "ring minmax:--arch ring --stages 24 --initial-stride 8" "ring adaptive:--arch ring --mapping adaptive --stages 24 --initial-stride 8" \
         "linear balanced:--arch linear --mapping balanced --stages 24"; do
  for i in 1 2 3 4 5; do
    # shellcheck disable=SC2086
    "$BIN" map --fib "$tab" ${m#*:} -o "$T/img.lpi" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['seconds'])"
  done | median >"$T/t"
  printf '  %-16s %-32s map %.3f s (median of 5)\n' "${m%%:*}" "$(basename "$tab")" "$(cat "$T/t")"
done
"$BIN" map --fib "$tab" --arch ring --stages 24 --initial-stride 8 -o "$T/img.lpi" >/dev/null
for i in 1 2 3 4 5; do
  "$BIN" update --image "$T/img.lpi" --updates "$upd" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['updates_per_s'])"
done | median >"$T/u"
printf '  %-16s %-32s %.2fM updates/s offline (median of 5)\n' "update" "$(basename "$upd")" "$(python3 -c "print($(cat "$T/u")/1e6)")"
