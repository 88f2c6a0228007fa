#!/usr/bin/env bash
# title: CPU engines: DIR-24-8-BASIC, Tree Bitmap, hybrid (lookups/s, memory, update cost)
set -euo pipefail
out=$("$BIN" bench cpu --fib "$W/v4.fib" --kind uniform --count 200k --repeat 1 --json 2>/dev/null)
echo "$out"
echo "$out" | sed -n 's/.*"engine":"\([^"]*\)".*"memory_bytes":\([0-9]*\),"lookups_per_s":\([0-9]*\),"mismatches":\([0-9]*\).*/SUMMARY: IPv4 \1: \3 lookups\/s, \2 bytes, \4 mismatches/p'
"$BIN" bench cpu --fib "$W/v6.fib" --kind uniform --count 100k --repeat 1 2>/dev/null
"$BIN" bench update-cost --fib "$W/v4.fib" --engines dir24-8,tree-bitmap-13,hybrid
echo "SUMMARY: update cost (/8-/16, entries set per update): $("$BIN" bench update-cost --fib "$W/v4.fib" --engines dir24-8,hybrid --json | sed -n 's/.*"engine":"\([^"]*\)".*"add":{"entries_set":\([0-9.]*\).*/\1 \2/p' | paste -sd, -)"
