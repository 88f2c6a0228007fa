#!/usr/bin/env bash
# Packs the self-contained GPU build (make gpu-pack) for a device machine:
#   scripts/gpu-pack.sh BUILD_DIR PACK_DIR DATA_DIR
# PACK_DIR gets lpmpipe and test_gpu_device (debug info stripped), data/
# with the shared tables, the update trace and the names lists the
# measurement reads (copied: a device machine has no ../shared), and
# MANIFEST.txt (commit, CUDA, the driver and glibc the binaries need).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 BUILD_DIR PACK_DIR DATA_DIR" >&2; exit 2; }
B=$1 P=$2 D=$3
for f in "$B/lpmpipe" "$B/tests/gpu/test_gpu_device"; do
  [ -x "$f" ] || { echo "gpu-pack: $f is missing (run make gpu-pack)" >&2; exit 2; }
done
rm -rf "$P"
mkdir -p "$P/data/names"
strip --strip-debug -o "$P/lpmpipe" "$B/lpmpipe"
strip --strip-debug -o "$P/test_gpu_device" "$B/tests/gpu/test_gpu_device"
if [ -d "$D" ]; then
  for f in routeviews-pfx2as-v4-2020-02.txt.xz routeviews-pfx2as-v6-2020-02.txt.xz \
           tier1-2024.v4.txt.xz tier1-2024.v6.txt.xz routeviews-20210117-as293.fib6.txt \
           linx-rib6-20141225-p69.txt linx-update-20141217-p52.txt \
           names/ut1-hosts.txt.xz names/urls-ut1.txt.xz names/alexa-top100k-2016.txt.xz; do
    if [ -f "$D/$f" ]; then cp "$D/$f" "$P/data/$f"; else echo "gpu-pack: $D/$f is absent" >&2; fi
  done
else
  echo "gpu-pack: no data folder $D: the package measures synthetic tables only" >&2
  rmdir "$P/data/names" "$P/data"
fi
need() { objdump -T "$P/lpmpipe" "$P/test_gpu_device" | grep -o "$1[0-9.]*" | sort -u -V | tail -1; }
glibc=$(need GLIBC_2) cxx=$(need GLIBCXX_) abi=$(need CXXABI_)
{
  echo "lpmpipe GPU package"
  echo "commit:   $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "built:    $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(. /etc/os-release && echo "$PRETTY_NAME")"
  echo "nvcc:     $(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' || echo unknown)"
  echo "needs:    an NVIDIA driver of branch R580 or newer (the CUDA 13 runtime is linked in"
  echo "          statically; an older driver makes the binaries say 'CUDA driver version is"
  echo "          insufficient for CUDA runtime version'),"
  echo "          glibc with $glibc, libstdc++.so.6 with $cxx and $abi (GCC 5 or later)"
  echo "dynamic libraries:"
  ldd "$P/lpmpipe" | sed 's/^/  /'
} >"$P/MANIFEST.txt"
if ldd "$P/lpmpipe" "$P/test_gpu_device" | grep -E 'lib(z|lzma|bz2|check|subunit|rte_|dpdk|cudart)[.-]' >&2; then
  echo "gpu-pack: a library that must be linked statically is dynamic (above)" >&2
  exit 1
fi
kb=$(du -sk "$P" | cut -f1)
echo "gpu-pack: $P ready ($((kb / 1024)) MiB; needs driver R580+, $glibc, $cxx)"
[ "$kb" -le $((60 * 1024)) ] || { echo "gpu-pack: over 60 MiB: too big to carry to a device machine" >&2; exit 1; }
