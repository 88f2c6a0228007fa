#!/usr/bin/env bash
# title: GPU engines GAMT and GALE (needs a CUDA device; docs/results-gpu.md)
# On a device: batch-size curve, streams curve, IPv4/IPv6, updates 0..70K/s,
# each one JSON line (docs/cli-gpu.md). Without one: says so and stops.
set -uo pipefail
if ! "$BIN" gpu info 2>/dev/null; then
  echo "no CUDA device here: GPU figures are not measured (see docs/results-gpu.md)"
  exit 0
fi
D=${LPMPIPE_DATA:-}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
if [ -n "$D" ]; then
  V4="$D/tier1-2024.v4.txt.xz"; V6="$D/tier1-2024.v6.txt.xz"; U="$D/linx-update-20141217-p52.txt"
else
  "$BIN" fib gen --family 4 --count 900000 --seed 1 -o "$W/v4.fib"
  "$BIN" fib gen --family 6 --count 160000 --seed 1 -o "$W/v6.fib"
  V4="$W/v4.fib"; V6="$W/v6.fib"; U=""
fi
run() { "$BIN" gpu bench --json "$@" || echo "{\"failed\":\"$*\"}"; }
echo "# batch-size curve (IPv4, 4 streams)"
for b in 1024 4096 16384 65536 262144 1048576 4194304 16777216 33554432; do
  for e in gamt gale; do run --fib "$V4" --engine $e --batch $b --streams 4 --count $((b * 16 > 4194304 ? b * 16 : 4194304)); done
done
echo "# streams curve (IPv4, batch 2^20)"
for s in 1 2 4 8 16 32; do run --fib "$V4" --engine gamt --batch 1048576 --streams $s; done
echo "# IPv6 (GAMT, first 64 bits)"
for b in 4096 65536 1048576 16777216; do run --fib "$V6" --engine gamt --batch $b --streams 4; done
echo "# under updates (IPv4, batch 2^20, 4 streams)"
for r in 0 10000 30000 50000 70000; do
  run --fib "$V4" --engine gamt --batch 1048576 --streams 4 --count 67108864 --updates 1000000 --update-rate $r
  run --fib "$V4" --engine gale --batch 1048576 --streams 4 --count 67108864 --updates 1000000 --update-rate $r
done
[ -n "$U" ] && run --fib "$V4" --engine gamt --batch 1048576 --streams 4 --count 67108864 --update-trace "$U" --update-rate 70000
exit 0
