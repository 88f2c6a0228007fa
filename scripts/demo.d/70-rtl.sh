#!/usr/bin/env bash
# title: Verilog from a pipeline image, proven cycle-equal to the simulator (Verilator)
# A 2000-route slice of the demo table, mapped onto a 6-stage CAMP ring;
# lpmpipe rtl writes the Verilog, Verilator lints it, and rtl verify runs the
# same 5000 requests through the simulator and the Verilated model and
# compares every cycle. The first run builds the model (about a minute on two
# cores); later runs reuse it from build/rtl-cache.
set -euo pipefail
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
if ! command -v verilator >/dev/null; then
  echo "verilator not installed: skipped"; echo "SUMMARY: rtl: skipped (no verilator)"; exit 0
fi
export LPMPIPE_RTL_CACHE=${LPMPIPE_RTL_CACHE:-$PWD/build/rtl-cache}
head -2000 "$W/v4.fib" >"$W/rtl.fib"
"$BIN" map --fib "$W/rtl.fib" --stages 6 --stride 2 --initial-stride 10 -o "$W/rtl.lpi" >/dev/null
"$BIN" rtl --image "$W/rtl.lpi" -o "$W/rtl" --queue 8
make -s -C "$W/rtl" lint && echo "verilator --lint-only -Wall: clean"
sed -n '/^## Ports/,/^## Latency/p' "$W/rtl/README.md" | head -14
out=$("$BIN" rtl verify --image "$W/rtl.lpi" --gen random-match --count 5000 --queue 8)
echo "$out"
echo "SUMMARY: rtl: 6-stage ring, queue 8: $out (Verilator vs simulator, cycle by cycle)"
