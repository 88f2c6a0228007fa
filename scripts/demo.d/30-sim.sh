#!/usr/bin/env bash
# title: cycle-level simulation of a CAMP ring and a linear pipeline (every answer checked)
set -euo pipefail
BIN=${BIN:-build/lpmpipe}
W=${W:?}
"$BIN" map --fib "$W/v4.fib" --stages 24 -o "$W/sim-r24.lpi" >/dev/null
"$BIN" map --fib "$W/v4.fib" --arch linear -o "$W/sim-lin.lpi" >/dev/null
"$BIN" sim --image "$W/sim-r24.lpi" --trace "$W/v4.trace" --queue 16 --issue-width 2 --lookahead 32 --warmup 500 --verify
ring=$("$BIN" sim --image "$W/sim-r24.lpi" --trace "$W/v4.trace" --queue 16 --issue-width 2 --lookahead 32 --warmup 500 --verify --json)
lin=$("$BIN" sim --image "$W/sim-lin.lpi" --trace "$W/v4.trace" --queue 16 --warmup 500 --verify --json)
camp=$("$BIN" sim --synthetic 24 --count 100000 --hop-cycles 1 --queue 32 --burst 16 --warmup 1000 --json)
f() { tr -d '\n' <<<"$1" | sed -n "s/.*\"$2\":\([0-9.]*\).*/\1/p"; }
echo "SUMMARY: sim IPv4 24-stage ring: LPC $(f "$ring" lpc), $(f "$ring" reference_checked) lookups, $(f "$ring" reference_mismatches) mismatches"
echo "SUMMARY: sim IPv4 linear pipeline: LPC $(f "$lin" lpc), $(f "$lin" reference_checked) lookups, $(f "$lin" reference_mismatches) mismatches"
echo "SUMMARY: sim CAMP slide 12 (24 stages all read, queue 32, bursts of 16): LPC $(f "$camp" lpc)"
