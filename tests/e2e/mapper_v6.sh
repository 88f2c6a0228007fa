#!/usr/bin/env bash
# Issue 21's "done when", through the CLI: `lpmpipe map` with no mapping
# options on every shared IPv6 table (and a 1M-prefix synthetic one) gives
# the split mapping with fullest/mean <= 1.02; `lpmpipe sim --queue 32` on a
# 24-stage ring with random-match traffic gives LPC >= 0.9 with every lookup
# checked against the interpreter and the reference LPM. The linear default
# maps and answers too; update bubbles on split images apply in flight with
# every lookup checked; and the RTL of a small split image (ring and
# linear) is cycle-equal to the simulator with every answer equal to the
# reference (on the first 1500 prefixes of every shared IPv6 table).
set -u
BIN=${LPMPIPE:-build/lpmpipe}
DATA=${LPMPIPE_DATA:-}
W=$(mktemp -d /tmp/lpmpipe-e2e-v6.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
export LPMPIPE_RTL_CACHE=${LPMPIPE_RTL_CACHE:-${LPMPIPE_BUILD:-$PWD/build}/rtl-cache}
field() { sed -n "s/.*\"$1\":\"*\([^,\"}]*\).*/\1/p" | head -1; }

# check_table NAME FIB LOOKUPS: the default ring mapping and its simulation
check_table() {
  local name=$1 fib=$2 n=$3 rep out
  rep=$("$BIN" map --fib "$fib" -o "$W/r.lpi" --json 2>"$W/err") || { bad "$name: map: $(head -2 "$W/err")"; return; }
  local kind bal lpc
  kind=$(echo "$rep" | field mapping)
  bal=$(echo "$rep" | field fullest_over_mean)
  [ "$kind" = ring-split ] || bad "$name: default mapping is '$kind', not ring-split"
  awk -v b="$bal" 'BEGIN { exit !(b <= 1.02) }' || bad "$name: fullest/mean $bal > 1.02"
  out=$("$BIN" sim --image "$W/r.lpi" --gen random-match --count "$n" --queue 32 --verify --json 2>"$W/err")
  local rc=$?
  lpc=$(echo "$out" | field lpc)
  if [ $rc -ne 0 ] || ! echo "$out" | grep -q "\"checked\":$n,\"mismatches\":0,\"reference_checked\":$n,\"reference_mismatches\":0"; then
    bad "$name: sim exit $rc: $(head -2 "$W/err") $(echo "$out" | grep -o '"check":{[^}]*}')"
  fi
  awk -v l="$lpc" 'BEGIN { exit !(l >= 0.9) }' || bad "$name: LPC $lpc < 0.9"
  echo "$name: ring-split, fullest/mean $bal, LPC $lpc over $n random-match lookups (queue 32), 0 mismatches"
  # the linear default: split too, every lookup checked
  rep=$("$BIN" map --fib "$fib" --arch linear -o "$W/l.lpi" --json 2>"$W/err") || { bad "$name: map linear: $(head -2 "$W/err")"; return; }
  [ "$(echo "$rep" | field mapping)" = linear-split ] || bad "$name: linear default is not linear-split"
  out=$("$BIN" sim --image "$W/l.lpi" --gen random-match --count 20000 --queue 32 --verify --json 2>"$W/err")
  echo "$out" | grep -q '"checked":20000,"mismatches":0,"reference_checked":20000,"reference_mismatches":0' ||
    bad "$name: linear sim: $(head -2 "$W/err")"
  echo "$name: linear-split, $(echo "$rep" | field stages) stages, fullest/mean $(echo "$rep" | field fullest_over_mean)"
}

if [ -n "$DATA" ]; then
  for f in routeviews-pfx2as-v6-2020-02.txt.xz tier1-2024.v6.txt.xz routeviews-20210117-as293.fib6.txt \
           linx-rib6-20141225-p69.txt; do
    if [ -f "$DATA/$f" ]; then check_table "$f" "$DATA/$f" 100000; else echo "SKIP: $f absent"; fi
  done
else
  echo "SKIP: ../shared/data is absent: no real IPv6 tables"
fi
"$BIN" fib gen --family 6 --count 1000000 --seed 1 -o "$W/syn1m.fib" || bad "fib gen 1M"
check_table "synthetic 1M IPv6" "$W/syn1m.fib" 100000
rm -f "$W/syn1m.fib"

# Updates on split images: bubbles compiled, applied by the simulator,
# every lookup answered as before or after its update; all bubbles applied.
upd_check() {
  local name=$1 img=$2 upd=$3 out n
  out=$("$BIN" update --image "$img" --updates "$upd" --bubbles "$W/u.bub" --json 2>"$W/err") ||
    { bad "$name: update: $(head -2 "$W/err")"; return; }
  n=$(grep -c '^B ' "$W/u.bub")
  echo "$out" | grep -q '"rebuilds":0,' || bad "$name: rebuilt: $out"
  out=$("$BIN" sim --image "$img" --gen random-match --count 200000 --queue 32 --updates "$W/u.bub" \
        --update-rate 40000000 --json 2>"$W/err")
  echo "$out" | grep -q "\"bubbles\":{\"in_file\":$n,\"applied\":$n,\"left\":0," || bad "$name: not all $n bubbles applied: $(echo "$out" | grep -o '"bubbles":{[^}]*}')"
  echo "$out" | grep -q '"checked":200000,"mismatches":0' || bad "$name: sim with updates: $(head -2 "$W/err")"
  echo "$name: $n bubbles applied in flight, 200000 lookups checked, 0 mismatches, 0 rebuilds"
}
if [ -n "$DATA" ] && [ -f "$DATA/tier1-2024.v6.txt.xz" ]; then
  "$BIN" map --fib "$DATA/tier1-2024.v6.txt.xz" -o "$W/t6.lpi" >/dev/null || bad "map tier1 v6"
  "$BIN" trace updates --fib "$DATA/tier1-2024.v6.txt.xz" --count 5000 --seed 3 -o "$W/t6.upd" || bad "trace updates v6"
  upd_check "tier1 v6 split, 5000 synthetic updates" "$W/t6.lpi" "$W/t6.upd"
fi
if [ -n "$DATA" ] && [ -f "$DATA/linx-update-20141217-p52.txt" ] && [ -f "$DATA/tier1-2024.v4.txt.xz" ]; then
  "$BIN" map --fib "$DATA/tier1-2024.v4.txt.xz" --mapping split -o "$W/t4.lpi" >/dev/null || bad "map tier1 v4 split"
  upd_check "tier1 v4 split, linx-update (23446 updates)" "$W/t4.lpi" "$DATA/linx-update-20141217-p52.txt"
else
  echo "SKIP: linx-update or tier1 v4 absent: no update check on an IPv4 split image"
fi

# IPv4 keeps the plain ring by default
"$BIN" fib gen --family 4 --count 5000 --seed 2 -o "$W/v4.fib" || bad "fib gen v4"
"$BIN" map --fib "$W/v4.fib" -o "$W/v4.lpi" --json | grep -q '"mapping":"ring",' || bad "IPv4 default is not ring"
"$BIN" map --fib "$W/v4.fib" --mapping split -o "$W/v4s.lpi" --json | grep -q '"mapping":"ring-split",' || bad "IPv4 split"
"$BIN" lookup --image "$W/v4s.lpi" --verify - </dev/null >/dev/null || bad "IPv4 split image does not verify"

# RTL on small split images, cycle-equal to the simulator, every answer
# checked against the reference LPM: the first 1500 prefixes of every shared
# IPv6 table with the default mapping (split, 8-stage ring; one Verilator
# build each, as their stage depths differ), and a synthetic table as ring
# and linear.
rtl_check() { # NAME FIB ARCH LOOKUPS
  local st="" out rc
  [ "$3" = ring ] && st="--stages 8"
  "$BIN" map --fib "$2" --arch "$3" $st -o "$W/s.lpi" --json >"$W/s.json" 2>"$W/err" || { bad "$1: map $3: $(head -2 "$W/err")"; return; }
  grep -q '"mapping":"'"$3"'-split"' "$W/s.json" || bad "$1 $3: not split"
  out=$("$BIN" rtl verify --image "$W/s.lpi" --gen random-match --count "$4" --queue 8 --json 2>"$W/err")
  rc=$?
  if [ $rc -ne 0 ] || ! echo "$out" | grep -q '"cycle_mismatches":0,"result_mismatches":0,"reference_checked":'"$4"',"reference_mismatches":0'; then
    bad "rtl verify $1, $3 split: exit $rc $(grep -v '^  ' "$W/err" | head -3) $out"
  else
    echo "$1, $3 split, $(field stages <"$W/s.json") stages: RTL = simulator, $4 lookups = reference"
  fi
}
if ! command -v verilator >/dev/null || ! "$BIN" rtl --help >/dev/null 2>&1; then
  echo "SKIP: verilator or lpmpipe rtl absent: no RTL check of the split mapping"
else
  for f in routeviews-pfx2as-v6-2020-02.txt.xz tier1-2024.v6.txt.xz routeviews-20210117-as293.fib6.txt \
           linx-rib6-20141225-p69.txt; do
    if [ -n "$DATA" ] && [ -f "$DATA/$f" ]; then
      xz -dcf "$DATA/$f" | head -n 1500 >"$W/sub.fib"
      rtl_check "$f, first 1500 prefixes" "$W/sub.fib" ring 3000
    else
      echo "SKIP: $f absent: no RTL check on its prefixes"
    fi
  done
  "$BIN" fib gen --family 6 --count 3000 --seed 5 -o "$W/small.fib" || bad "fib gen small"
  rtl_check "small synthetic IPv6 table (3000 prefixes)" "$W/small.fib" ring 5000
  rtl_check "small synthetic IPv6 table (3000 prefixes)" "$W/small.fib" linear 5000
fi
exit $fail
