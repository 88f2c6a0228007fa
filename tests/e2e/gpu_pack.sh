#!/usr/bin/env bash
# make gpu-pack: the self-contained GPU package (lpmpipe and the device
# test with no DPDK or optional peer, static CUDA runtime, static zlib, xz,
# bzip2 and Check, the shared data copied in) builds, runs here without a
# device (exit 3, the device test a SKIP), reads real tables from its own
# data folder, and needs nothing but libc, libm, libstdc++ and libgcc_s.
# Built in $BUILD/gpu-pack-build (incremental across runs).
set -u
cd "${LPMPIPE_ROOT:-.}"
fail() { echo "FAIL: $*"; exit 1; }
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "SKIP: nvcc is absent: no GPU package can be built"
  exit 77
fi
BD=${LPMPIPE_BUILD:?}
P=$BD/gpu-pack-test
DATA=${LPMPIPE_DATA:-/nonexistent}
# A make of its own: no flags of the make running the tests (test-asan's SAN).
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory gpu-pack JOBS=2 GPU_BUILD="$BD/gpu-pack-build" GPU_PACK="$P" GPU_DATA="$DATA" \
  >"$BD/gpu-pack.log" 2>&1 || { tail -20 "$BD/gpu-pack.log"; fail "make gpu-pack"; }
tail -1 "$BD/gpu-pack.log"
for f in lpmpipe test_gpu_device MANIFEST.txt; do [ -s "$P/$f" ] || fail "$P/$f missing"; done
grep -q 'R580' "$P/MANIFEST.txt" || fail "MANIFEST names no driver"
libs=$(ldd "$P/lpmpipe" "$P/test_gpu_device" | awk '/=>/ {print $1}' | sort -u | tr '\n' ' ')
for l in $libs; do
  case $l in libc.so.*|libm.so.*|libstdc++.so.*|libgcc_s.so.*) ;; *) fail "dynamic $l in the package ($libs)";; esac
done
echo "ok: dynamic libraries: $libs"
"$P/lpmpipe" --help >/dev/null || fail "lpmpipe --help"
"$P/lpmpipe" gpu info >/dev/null 2>"$BD/gpu-pack.err"; rc=$?
if [ $rc -eq 0 ]; then
  echo "SKIP: a CUDA device is present: the package's no-device exit is not exercised"
else
  [ $rc -eq 3 ] && grep -q 'no CUDA device' "$BD/gpu-pack.err" || fail "gpu info: exit $rc: $(cat "$BD/gpu-pack.err")"
  "$P/test_gpu_device" >"$BD/gpu-pack.err" 2>&1; rc=$?
  [ $rc -eq 77 ] && grep -q '^SKIP:' "$BD/gpu-pack.err" || fail "device test without a device: exit $rc"
  echo "ok: no device: gpu info exits 3, the device test prints SKIP"
fi
if [ -f "$P/data/tier1-2024.v4.txt.xz" ]; then
  out=$("$P/lpmpipe" lookup --fib "$P/data/tier1-2024.v4.txt.xz" --engine gamt --verify 8.8.8.8 1.1.1.1) ||
    fail "package lookup on its own copy of tier1 v4"
  echo "ok: the package reads its data: $(echo $out)"
else
  echo "SKIP: ../shared/data is absent: the package carries no tables"
fi
