#!/usr/bin/env bash
# title: GPU engines: GAMT and GALE (their CPU builds here; the GPU when there is one)
# short: GAMT and GALE (CPU builds; the GPU when present)
source "$LIB"
for fam in 4 6; do
  for e in gamt gale; do
    [ "$e" = gale ] && [ $fam = 6 ] && continue
    n=$(grep -vc '^#' "v$fam.trace")
    if "$BIN" lookup --fib "v$fam.fib" --engine $e --verify --trace "v$fam.trace" >/dev/null 2>gpu.err; then
      check "IPv$fam $e (CPU build)" "$n" 0
      fig "IPv$fam $e (CPU build):" "$n lookups, each equal to the reference"
    else
      cat gpu.err >&2; check "IPv$fam $e (CPU build)" "$n" 1; exit 1
    fi
  done
done
set +e
"$BIN" gpu info >gpu.out 2>gpu.err
rc=$?
set -e
case $rc in
  0) "$BIN" gpu bench --fib v4.fib --engine gamt --batch 1048576 --streams 4 --json >gpu-bench.json
     echo "SUMMARY: GPU: $(head -1 gpu.out); GAMT bench in gpu-bench.json";;
  3) echo "SUMMARY: GPU: none here (lpmpipe gpu exits 3: $(sed 's/^lpmpipe: gpu info: //' gpu.err | head -1)); no GPU figure";;
  *) cat gpu.err >&2; echo "GPU: lpmpipe gpu info failed"; exit 1;;
esac
