#!/usr/bin/env bash
# title: RTL simulation speed: the Verilated pipeline beside the C simulator
# One configuration (a 10000-route synthetic table, CAMP ring of 8 stages,
# queue 16, issue width 1, 200000 random-match requests). rtl verify first
# proves the two cycle-equal on that stimulus; then each runs it three times:
# the C simulator (--preload --timing, CPU time) and the Verilated model
# (CPU time too, with and without writing the cycle log). Medians, and the ratio.
# Both run the hardware rules (--hop-cycles 2, the default), which the RTL implements.
set -euo pipefail
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
if ! command -v verilator >/dev/null; then echo "verilator not installed: skipped"; exit 0; fi
export LPMPIPE_RTL_CACHE=${LPMPIPE_RTL_CACHE:-$PWD/build/rtl-cache}
T=$(mktemp -d /tmp/lpmpipe-bench-rtl.XXXXXX)
trap 'rm -rf "$T"' EXIT
"$BIN" fib gen --family 4 --count 10000 --seed 1 -o "$T/t.fib"
"$BIN" map --fib "$T/t.fib" --stages 8 --stride 2 --initial-stride 12 -o "$T/r.lpi" >/dev/null
echo "verify: $("$BIN" rtl verify --image "$T/r.lpi" --gen random-match --count 200000 --queue 16 --build-dir "$T/v")"
exe=$(cat "$T/v/model.path")
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
sim=$(for i in 1 2 3; do
  "$BIN" sim --image "$T/r.lpi" --trace "$T/v/stim.trace" --hop-cycles 2 --queue 16 --preload --timing 2>&1 >/dev/null |
    sed -n 's/.* \([0-9][0-9]*\) cycles\/s.*/\1/p'; done | median)
rtl=$(for i in 1 2 3; do (cd "$T/v/rtl" && "$exe" ../keys.hex ../bubbles.txt - "$T/r.res" 2>&1 >/dev/null) |
    sed -n 's/.*: \([0-9][0-9]*\) cycles\/s.*/\1/p'; done | median)
rtllog=$(for i in 1 2 3; do (cd "$T/v/rtl" && "$exe" ../keys.hex ../bubbles.txt "$T/r.log" "$T/r.res" 2>&1 >/dev/null) |
    sed -n 's/.*: \([0-9][0-9]*\) cycles\/s.*/\1/p'; done | median)
printf '%-44s %12s cycles/s\n' "C simulator (lpmpipe sim, no cycle log)" "$sim"
printf '%-44s %12s cycles/s\n' "Verilator model (no cycle log)" "$rtl"
printf '%-44s %12s cycles/s\n' "Verilator model (writing the cycle log)" "$rtllog"
awk -v s="$sim" -v r="$rtl" 'BEGIN { printf "%-44s %12.1f x\n", "C simulator / Verilator", s / r }'
