#!/usr/bin/env bash
# title: Verilog from a pipeline image, proven cycle-equal to the simulator (Verilator)
# short: Verilog, cycle-equal to the simulator (Verilator)
# A 2000-route slice of the demo table, mapped onto a 6-stage CAMP ring;
# lpmpipe rtl writes the Verilog, Verilator lints it, and rtl verify runs the
# same 5000 requests through the simulator and the Verilated model and
# compares every cycle. The first run builds the model (about a minute on two
# cores); later runs reuse it from build/rtl-cache.
source "$LIB"
if ! command -v verilator >/dev/null; then
  echo "SUMMARY: rtl: skipped (verilator is not installed; scripts/deps.sh installs it)"; exit 0
fi
export LPMPIPE_RTL_CACHE=${LPMPIPE_RTL_CACHE:-$(cd "$W/.." && pwd)/rtl-cache}
head -2000 v4.fib >rtl.fib
"$BIN" map --fib rtl.fib --stages 6 --stride 2 --initial-stride 10 -o rtl.lpi >/dev/null
"$BIN" rtl --image rtl.lpi -o rtl --queue 8 >rtl-gen.txt
make -s -C rtl lint >rtl-lint.txt 2>&1
fig "Verilog:" "6-stage ring, queue 8; verilator --lint-only -Wall clean"
out=$("$BIN" rtl verify --image rtl.lpi --gen random-match --count 5000 --queue 8)
read -r lookups cycles mism < <(sed -n 's/^\([0-9]*\) lookups, \([0-9]*\) cycles, \([0-9]*\) mismatches.*/\1 \2 \3/p' <<<"$out")
check "rtl verify: Verilator vs simulator, cycle by cycle" "$cycles" "$mism"
echo "SUMMARY: rtl: 6-stage ring, queue 8: $lookups lookups over $cycles cycles, the Verilated model and the simulator identical in every cycle ($mism mismatches)"
saved "Verilog, memories, ports (README.md)" "rtl/"
