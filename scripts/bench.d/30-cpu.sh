#!/usr/bin/env bash
# title: CPU engines (DIR-24-8-BASIC, Tree Bitmap, hybrid) side by side with DPDK; parallel models; update cost
# Medians of 5 rounds; ratios come from the same rounds (docs/results-cpu.md
# explains the columns). rte_lpm's build alone takes minutes on a full IPv4
# table (its rule table is searched linearly): the peer runs once per family.
set -uo pipefail
BIN=${BIN:-build/lpmpipe}
D=${LPMPIPE_DATA:-}
if [ -z "$D" ]; then
  echo "SKIP: ../shared/data is absent: the CPU figures need the real tables"
  exit 0
fi
V4=$D/routeviews-pfx2as-v4-2020-02.txt.xz
V6=$D/routeviews-pfx2as-v6-2020-02.txt.xz
rc=0
peer=()
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '10.0.0.0/8 a\n' > "$tmp/t.fib"
if "$BIN" bench cpu --fib "$tmp/t.fib" --count 10 --repeat 1 --peer dpdk >/dev/null 2>"$tmp/err"; then
  peer=(--peer dpdk)
else
  echo "NOTE: $(cat "$tmp/err") -- figures without the DPDK peer"
fi

echo "-- IPv4, one thread, three traffic kinds"
"$BIN" bench cpu --fib "$V4" --kind random-match,uniform,zipf --count 2M --repeat 5 "${peer[@]}" || rc=1
echo "-- IPv6, one thread"
"$BIN" bench cpu --fib "$V6" --kind random-match,uniform,zipf --count 1M --repeat 5 "${peer[@]}" || rc=1
echo "-- IPv4, run-to-complete on 2 threads (the machine's cores)"
"$BIN" bench cpu --fib "$V4" --engines dir24-8,tree-bitmap-13,tree-bitmap-11,hybrid --count 2M --repeat 5 --threads 2 || rc=1
echo "-- IPv4, Tree Bitmap pipelined: one thread per level, then 2 stages"
"$BIN" bench cpu --fib "$V4" --engines tree-bitmap-13,tree-bitmap-11 --count 1M --repeat 3 --model pipeline || rc=1
"$BIN" bench cpu --fib "$V4" --engines tree-bitmap-13,tree-bitmap-11 --count 1M --repeat 3 --model pipeline --threads 2 || rc=1
echo "-- update cost (He et al. Table IV): every /8../16 prefix deleted and re-added"
"$BIN" bench update-cost --fib "$V4" --engines dir24-8,tree-bitmap-13,tree-bitmap-11,hybrid,ref || rc=1
exit $rc
