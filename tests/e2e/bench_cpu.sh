#!/usr/bin/env bash
# lpmpipe bench cpu / bench update-cost through the CLI: the poptrie
# engine beside the others on IPv4 and IPv6 (every answer checked, JSON
# rows), update traces replayed with the results checked, bad options;
# with the DPDK peer built: every lookup path by name, the best-DPDK row
# and the ratios against it, rte_fib/rte_fib6 in update-cost (SKIP without).
set -u
BIN=${LPMPIPE:-build/lpmpipe}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

expect() {
  local want=$1 msg=$2; shift 3
  "$@" >"$W/out" 2>"$W/err"
  local rc=$?
  [ "$rc" = "$want" ] || bad "exit $rc (want $want): $*: $(head -c 300 "$W/err")"
  [ -z "$msg" ] || grep -qF -- "$msg" "$W/err" || bad "no '$msg' in the message of: $*: $(head -c 300 "$W/err")"
}

for fam in 4 6; do
  f="$W/v$fam.fib"
  "$BIN" fib gen --family $fam --count 20000 --seed 7 -o "$f" || bad "fib gen v$fam"
  "$BIN" trace updates --fib "$f" --count 3000 --seed 8 -o "$W/v$fam.upd" || bad "trace updates v$fam"
  eng=poptrie,tree-bitmap-13 rows=4
  [ $fam = 4 ] && eng=poptrie,dir24-8,hybrid rows=6
  "$BIN" bench cpu --fib "$f" --engines $eng --kind random-match,uniform --count 50000 --repeat 2 --json \
    >"$W/c.json" || bad "bench cpu v$fam"
  [ "$(grep -c '"mismatches":0,' "$W/c.json")" = $rows ] || bad "bench cpu v$fam rows: $(cat "$W/c.json")"
  grep -q '"engine":"poptrie".*"lookups_per_cpu_s":[1-9]' "$W/c.json" || bad "no poptrie row with a CPU rate (v$fam)"
  grep -v '"mismatches":0,' "$W/c.json" && bad "a bench cpu row with mismatches (v$fam)"
  "$BIN" bench update-cost --fib "$f" --updates "$W/v$fam.upd" --engines $eng --json >"$W/u.json" \
    || bad "update-cost --updates v$fam: $(cat "$W/u.json")"
  grep -q '"engine":"poptrie",.*"adds":[1-9][0-9]*,"dels":[1-9].*"mismatches":0}' "$W/u.json" \
    || bad "update-cost v$fam: $(cat "$W/u.json")"
  "$BIN" bench update-cost --fib "$f" --engines poptrie --min-len 0 --max-len 128 >"$W/u.txt" \
    || bad "update-cost table v$fam"
  grep -q '^poptrie  *[0-9]* |.*| *[0-9]* *0$' "$W/u.txt" || bad "update-cost table v$fam: $(cat "$W/u.txt")"
done

expect 2 "nosuch.upd" -- "$BIN" bench update-cost --fib "$W/v4.fib" --updates "$W/nosuch.upd"
expect 2 "IPv" -- "$BIN" bench update-cost --fib "$W/v4.fib" --updates "$W/v6.upd"
expect 2 "--peer: only 'dpdk'" -- "$BIN" bench cpu --fib "$W/v4.fib" --peer vpp

# The DPDK peer, where it is built.
if "$BIN" bench cpu --fib "$W/v4.fib" --engines poptrie --count 2000 --repeat 1 --peer dpdk >"$W/p4.txt" 2>"$W/p4.err"; then
  for path in rte_lpm_lookup_bulk/64 rte_lpm_lookup_bulk/256 rte_lpm_lookupx4 rte_fib_lookup_bulk/macro \
              rte_fib_lookup_bulk/inline rte_fib_lookup_bulk/uni rte_fib_lookup_bulk/avx512; do
    grep -q "^$path .* 0  *[0-9.]*x  *[0-9.]*x$" "$W/p4.txt" || grep -q "^note: $path: not available here: " "$W/p4.txt" \
      || bad "no row or note for $path: $(cat "$W/p4.txt")"
  done
  grep -q '^best DPDK .* 1.00x  *1.00x' "$W/p4.txt" || bad "no best DPDK row: $(cat "$W/p4.txt")"
  "$BIN" bench cpu --fib "$W/v6.fib" --engines poptrie --count 2000 --repeat 1 --peer dpdk >"$W/p6.txt" \
    || bad "bench cpu --peer dpdk v6: $(cat "$W/p6.txt")"
  for path in rte_lpm6_lookup_bulk_func/64 rte_fib6_lookup_bulk/scalar rte_fib6_lookup_bulk/avx512; do
    grep -q "^$path " "$W/p6.txt" || grep -q "^note: $path: not available here: " "$W/p6.txt" \
      || bad "no row or note for $path: $(cat "$W/p6.txt")"
  done
  for fam in 4 6; do
    "$BIN" bench update-cost --fib "$W/v$fam.fib" --updates "$W/v$fam.upd" --engines poptrie --peer dpdk --json \
      >"$W/pu.json" || bad "update-cost --peer dpdk v$fam: $(cat "$W/pu.json")"
    grep -q '"engine":"rte_fib6\?","peer":true,.*"mismatches":0}' "$W/pu.json" || bad "no rte_fib row v$fam: $(cat "$W/pu.json")"
  done
else
  grep -q "not built" "$W/p4.err" || bad "--peer dpdk failed without saying it is not built: $(cat "$W/p4.err")"
  echo "SKIP: DPDK peer not built (scripts/deps.sh --peers): its paths are not checked here"
fi
exit $fail
