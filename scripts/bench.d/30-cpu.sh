#!/usr/bin/env bash
# title: CPU engines (DIR-24-8-BASIC, Tree Bitmap, hybrid, poptrie) beside every DPDK lookup path; update rates; parallel models
# Medians of 5 rounds; ratios come from the same rounds, against the best
# DPDK path of each round (docs/results-cpu.md explains the columns).
# rte_lpm's build alone takes minutes on a full IPv4 table (its rule table
# is searched linearly): each IPv4 table pays it once.
set -uo pipefail
BIN=${BIN:-build/lpmpipe}
D=${LPMPIPE_DATA:-}
if [ -z "$D" ]; then
  echo "SKIP: ../shared/data is absent: the CPU figures need the real tables"
  exit 0
fi
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
echo "load: $(uptime)"

for t in tier1-2024.v4.txt.xz routeviews-pfx2as-v4-2020-02.txt.xz; do
  echo "-- IPv4 $t, one thread, random-match and uniform"
  "$BIN" bench cpu --fib "$D/$t" --engines dir24-8,hybrid,tree-bitmap-13,poptrie --kind random-match,uniform \
    --count 2M --repeat 5 "${peer[@]}" || rc=1
done
for t in tier1-2024.v6.txt.xz routeviews-20210117-as293.fib6.txt; do
  echo "-- IPv6 $t, one thread, random-match and uniform"
  "$BIN" bench cpu --fib "$D/$t" --engines tree-bitmap-13,poptrie --kind random-match,uniform \
    --count 1M --repeat 5 "${peer[@]}" || rc=1
done
echo "load: $(uptime)"

echo "-- update rates: the shared update traces replayed on the full IPv4 table, beside rte_fib"
for u in linx-update-20141217-p52.txt bgp4mp-et-20151023-as3856.bgpdump.txt.xz; do
  "$BIN" bench update-cost --fib "$D/routeviews-pfx2as-v4-2020-02.txt.xz" --updates "$D/$u" \
    --engines dir24-8,hybrid,tree-bitmap-13,poptrie "${peer[@]}" || rc=1
done
echo "-- update rates, IPv6: every prefix deleted and added back, beside rte_fib6"
"$BIN" bench update-cost --fib "$D/tier1-2024.v6.txt.xz" --min-len 0 --max-len 128 \
  --engines tree-bitmap-13,poptrie "${peer[@]}" || rc=1
echo "-- update cost (He et al. Table IV): every /8../16 prefix deleted and re-added"
"$BIN" bench update-cost --fib "$D/routeviews-pfx2as-v4-2020-02.txt.xz" \
  --engines dir24-8,tree-bitmap-13,tree-bitmap-11,hybrid,poptrie,ref || rc=1

V4=$D/routeviews-pfx2as-v4-2020-02.txt.xz
echo "-- IPv4, run-to-complete on 2 threads (the machine's cores)"
"$BIN" bench cpu --fib "$V4" --engines dir24-8,tree-bitmap-13,hybrid,poptrie --count 2M --repeat 5 --threads 2 || rc=1
echo "-- IPv4, Tree Bitmap pipelined: one thread per level, then 2 stages"
"$BIN" bench cpu --fib "$V4" --engines tree-bitmap-13,tree-bitmap-11 --count 1M --repeat 3 --model pipeline || rc=1
"$BIN" bench cpu --fib "$V4" --engines tree-bitmap-13,tree-bitmap-11 --count 1M --repeat 3 --model pipeline --threads 2 || rc=1
exit $rc
