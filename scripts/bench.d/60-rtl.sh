#!/usr/bin/env bash
# title: RTL simulation speed: the Verilated pipeline beside the C simulator
# One configuration (a 10000-route synthetic table, CAMP ring of 8 stages,
# queue 16, issue width 1, 200000 random-match requests). rtl verify first
# proves the two cycle-equal on that stimulus; then each runs it three times:
# the C simulator (--preload --timing --no-check, CPU time) and the
# Verilated model (CPU time too, with and without writing the cycle log).
# Medians, and the ratio; then both again at low load (--load 0.1: a request
# every ten cycles, issue 11's condition), where the simulator visits only
# the busy stages and the model still clocks every register.
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
# simrate ARGS / rtlrate ARGS: median cycles/s of three runs
simrate() { for i in 1 2 3; do
  "$BIN" sim --image "$T/r.lpi" --trace "$T/v/stim.trace" --hop-cycles 2 --queue 16 --preload --timing --no-check "$@" \
    2>&1 >/dev/null | sed -n 's/.* \([0-9][0-9]*\) cycles\/s.*/\1/p'; done | median; }
rtlrate() { local log=$1; shift; for i in 1 2 3; do (cd "$T/v/rtl" && "$exe" ../keys.hex ../bubbles.txt "$log" "$T/r.res" "$@" 2>&1 >/dev/null) |
    sed -n 's/.*: \([0-9][0-9]*\) cycles\/s.*/\1/p'; done | median; }
sim=$(simrate) rtl=$(rtlrate -) rtllog=$(rtlrate "$T/r.log")
siml=$(simrate --load 0.1) rtll=$(rtlrate - --load 0.1)
printf '%-52s %12s cycles/s\n' "C simulator (lpmpipe sim, no cycle log)" "$sim"
printf '%-52s %12s cycles/s\n' "Verilator model (no cycle log)" "$rtl"
printf '%-52s %12s cycles/s\n' "Verilator model (writing the cycle log)" "$rtllog"
awk -v s="$sim" -v r="$rtl" 'BEGIN { printf "%-52s %12.1f x\n", "C simulator / Verilator", s / r }'
printf '%-52s %12s cycles/s\n' "C simulator, load 0.1" "$siml"
printf '%-52s %12s cycles/s\n' "Verilator model, load 0.1" "$rtll"
awk -v s="$siml" -v r="$rtll" 'BEGIN { printf "%-52s %12.1f x\n", "C simulator / Verilator, load 0.1 (aim >= 10)", s / r }'
