#!/usr/bin/env bash
# title: RTL simulation speed: the Verilated pipeline beside the C simulator
# One configuration (a 10000-route synthetic table, CAMP ring of 8 stages,
# queue 16, issue width 1, 200000 random-match requests), at full rate and
# at low load (--load 0.1: a request every ten cycles, issue 11's condition,
# where the simulator visits only the busy stages and the model still clocks
# every register). lpmpipe rtl verify --timing proves the two cycle-equal on
# that stimulus, then times each three times (the simulator as sim --preload
# --timing --no-check, the model without its cycle log; CPU time) and prints
# the medians and their ratio, measured in one run. The same runs as
# reports/long/rtl-speed-doc.json, which docs/results-rtl.md section 3 is
# rendered from. Both run the hardware rules (--hop-cycles 2, the default).
set -euo pipefail
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
if ! command -v verilator >/dev/null; then echo "verilator not installed: skipped"; exit 0; fi
export LPMPIPE_RTL_CACHE=${LPMPIPE_RTL_CACHE:-$PWD/build/rtl-cache}
T=$(mktemp -d /tmp/lpmpipe-bench-rtl.XXXXXX)
trap 'rm -rf "$T"' EXIT
"$BIN" fib gen --family 4 --count 10000 --seed 1 -o "$T/t.fib"
"$BIN" map --fib "$T/t.fib" --stages 8 --stride 2 --initial-stride 12 -o "$T/r.lpi" >/dev/null
for load in "" 0.1; do
  echo "${load:+load $load: }$("$BIN" rtl verify --image "$T/r.lpi" --gen random-match --count 200000 --queue 16 \
    ${load:+--load "$load"} --timing | tr '\n' ' ')"
done
