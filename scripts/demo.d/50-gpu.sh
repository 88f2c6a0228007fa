#!/usr/bin/env bash
# title: GPU engines: GAMT and GALE (CPU builds here; the GPU when there is one)
set -uo pipefail
for fam in 4 6; do
  for e in gamt gale; do
    [ "$e" = gale ] && [ $fam = 6 ] && continue
    if "$BIN" lookup --fib "$W/v$fam.fib" --engine $e --verify --trace "$W/v$fam.trace" >/dev/null 2>"$W/gpu.err"; then
      n=$(grep -vc '^#' "$W/v$fam.trace")
      echo "SUMMARY: IPv$fam $e (CPU build): $n lookups, 0 mismatches against the reference"
    else
      cat "$W/gpu.err"; echo "SUMMARY: IPv$fam $e (CPU build): FAILED"; exit 1
    fi
  done
done
"$BIN" gpu info >"$W/gpu.out" 2>"$W/gpu.err"
case $? in
  0) "$BIN" gpu bench --fib "$W/v4.fib" --engine gamt --batch 1048576 --streams 4 --json
     echo "SUMMARY: GPU: $(cat "$W/gpu.out")";;
  3) echo "SUMMARY: GPU: none here, lpmpipe gpu exits 3: $(sed 's/^lpmpipe: gpu: //' "$W/gpu.err")";;
  *) cat "$W/gpu.err"; echo "SUMMARY: GPU: FAILED"; exit 1;;
esac
