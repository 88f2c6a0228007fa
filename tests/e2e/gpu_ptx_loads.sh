#!/usr/bin/env bash
# The lookup kernels read the tables that update kernels write while they
# run: every table load must be a coherent ld.relaxed.gpu, never the
# non-coherent read-only path (ld.global.nc) or a plain L1-cached
# ld.global; bubbles are written with st.release.gpu. Checked on the PTX
# nvcc makes of gpu/gpu_dev.cu (host-side: no device needed). Without nvcc
# the test is skipped.
set -u
cd "${LPMPIPE_ROOT:-.}"
NVCC=${NVCC:-$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)}
if [ -z "$NVCC" ]; then
  echo "SKIP: nvcc is absent: the kernels' PTX cannot be checked"
  exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$NVCC" -O2 -std=c++17 -arch=compute_90 -ptx gpu/gpu_dev.cu -o "$T/dev.ptx" || fail "nvcc -ptx"

# body NAME-REGEX: the PTX of the kernel whose mangled name matches.
body() { awk -v re="$1" '$0 ~ "^.visible .entry " re {on=1} on {print} on && /^}/ {exit}' "$T/dev.ptx"; }
count() { grep -c -- "$1" || :; }

for k in '_Z6k_gamtIjE' '_Z6k_gamtImE' '_Z6k_galePKj'; do
  b=$(body "$k")
  [ -n "$b" ] || fail "kernel $k not found in the PTX"
  relaxed=$(count 'ld.relaxed.gpu' <<<"$b")
  nc=$(count 'ld.global.nc' <<<"$b")
  plain=$(grep -E 'ld\.global\.(u|b|s)32|ld\.global\.v' <<<"$b" | grep -vc 'ld.global.nc' || :)
  want=1; [ "$k" = '_Z6k_galePKj' ] && want=2 # t24, then the long table
  [ "$relaxed" -eq "$want" ] || fail "$k: $relaxed ld.relaxed.gpu table loads, want $want"
  [ "$nc" -le 1 ] || fail "$k: $nc ld.global.nc loads (only the key may use the read-only path)"
  [ "$plain" -eq 0 ] || fail "$k: $plain plain ld.global loads (L1 is not coherent)"
  echo "ok: $k: table loads coherent ($relaxed ld.relaxed.gpu, $nc ld.global.nc for the key)"
done
for k in '_Z12k_gamt_apply' '_Z12k_gale_apply'; do
  b=$(body "$k")
  [ "$(count 'st.release.gpu' <<<"$b")" -eq 1 ] || fail "$k: bubble writes are not st.release.gpu"
  [ "$(count 'st.global' <<<"$b")" -eq 0 ] || fail "$k: a plain st.global into the table"
  echo "ok: $k: bubbles written with st.release.gpu"
done
