#!/usr/bin/env bash
# `lpmpipe fib stats --json` on every real table in ../shared/data: prefix
# counts, length histograms and next-hop counts equal the data README's.
# (linx-update-20141217-p52.txt is an update trace, not a table: the Check
# test test_fib_readers loads it.)
set -u
BIN=${LPMPIPE:?}
D=${LPMPIPE_DATA:-}
if [ -z "$D" ]; then echo "SKIP: ../shared/data is absent"; exit 77; fi
fail=0 ran=0

# hist_ok JSON SPEC: SPEC is the README's histogram ("/8:10 /16-19:2 >64:143
# /0-7:1"); every bucket must equal the sum of our lengths in it, and the
# buckets must add up to all prefixes (no length outside them).
hist_ok() {
  local json=$1 spec=$2
  local lens
  lens=$(printf '%s' "$json" | sed 's/.*"lengths":{\([^}]*\)}.*/\1/' | tr -d '"' | tr ',' ' ')
  awk -v lens="$lens" -v spec="$spec" 'BEGIN {
    n = split(lens, a, " "); for (i = 1; i <= n; i++) { split(a[i], kv, ":"); c[kv[1] + 0] = kv[2] + 0; total += kv[2] }
    m = split(spec, b, " "); bad = 0; sum = 0
    for (i = 1; i <= m; i++) {
      split(b[i], kv, ":"); r = kv[1]; want = kv[2] + 0
      if (r ~ /^>/) { lo = substr(r, 2) + 1; hi = 128 }
      else { sub(/^\//, "", r); if (r ~ /-/) { split(r, lh, "-"); lo = lh[1] + 0; hi = lh[2] + 0 } else { lo = hi = r + 0 } }
      got = 0; for (l = lo; l <= hi; l++) got += c[l]
      if (got != want) { printf "  bucket %s: ours %d, README %d\n", b[i], got, want; bad = 1 }
      sum += want
    }
    if (sum != total) { printf "  buckets hold %d prefixes, the table %d\n", sum, total; bad = 1 }
    exit bad }'
}

# check FILE FAMILY PREFIXES NEXT_HOPS(- if not given) HISTOGRAM
check() {
  local f=$1 fam=$2 want=$3 nh=$4 spec=$5
  if [ ! -e "$D/$f" ]; then echo "SKIP: $f: not in $D"; return; fi
  ran=$((ran + 1))
  local json
  if ! json=$("$BIN" fib stats --json --fib "$D/$f" 2>/dev/null); then
    echo "FAIL: $f: fib stats failed"; fail=1; return
  fi
  local got_fam got_n got_nh
  got_fam=$(printf '%s' "$json" | sed 's/.*"family":\([0-9]*\).*/\1/')
  got_n=$(printf '%s' "$json" | sed 's/.*"prefixes":\([0-9]*\).*/\1/')
  got_nh=$(printf '%s' "$json" | sed 's/.*"next_hops":\([0-9]*\).*/\1/')
  local ok=1
  [ "$got_fam" = "$fam" ] || { echo "FAIL: $f: family $got_fam, want $fam"; ok=0; }
  [ "$got_n" = "$want" ] || { echo "FAIL: $f: $got_n prefixes, README says $want"; ok=0; }
  if [ "$nh" != - ] && [ "$got_nh" != "$nh" ]; then echo "FAIL: $f: $got_nh next hops, README says $nh"; ok=0; fi
  if ! hist_ok "$json" "$spec"; then echo "FAIL: $f: length histogram differs from the README"; ok=0; fi
  if [ $ok = 1 ]; then echo "ok: $f: $got_n prefixes, $got_nh next hops, histogram as in the README"; else fail=1; fi
}

check routeviews-pfx2as-v4-2020-02.txt.xz 4 845161 68631 \
  "/8:10 /9:11 /10:38 /11:98 /12:287 /13:580 /14:1171 /15:1987 /16:13514 /17:8421 /18:14218 /19:26610 /20:42198 /21:50445 /22:104733 /23:87259 /24:487188 /25:1901 /26:1339 /27:1110 /28:249 /29:293 /30:301 /31:129 /32:1071"
check routeviews-pfx2as-v6-2020-02.txt.xz 6 83125 - \
  "/16-19:2 /20-23:32 /24-27:64 /28-31:3733 /32:13659 /33-39:8833 /40:4395 /41-43:1993 /44:5056 /45-47:4212 /48:39330 /49-63:755 /64:918 >64:143"
check tier1-2024.v4.txt.xz 4 901899 - \
  "/8:16 /9:13 /10:38 /11:103 /12:299 /13:581 /14:1203 /15:2100 /16:13490 /17:8235 /18:13798 /19:24870 /20:42611 /21:50750 /22:108623 /23:96510 /24:537698 /25:20 /26:3 /27:11 /28:18 /29:17 /30:3 /31:3 /32:886"
check tier1-2024.v6.txt.xz 6 160147 - \
  "/16-19:2 /20-23:34 /24-27:73 /28-31:5498 /32:22548 /33-39:16442 /40:13418 /41-43:4205 /44:14365 /45-47:7745 /48:75488 /49-63:62 /64:184 >64:83"
check routeviews-20210117-as293.fib6.txt 6 105363 31 \
  "/16-19:2 /20-23:30 /24-27:70 /28-31:4312 /32:15824 /33-39:11456 /40:6014 /41-43:3694 /44:7347 /45-47:4608 /48:52006"
check linx-rib6-20141225-p69.txt 6 20440 94 \
  "/16-19:3 /20-23:18 /24-27:51 /28-31:734 /32:6214 /33-39:1578 /40:1146 /41-43:270 /44:980 /45-47:607 /48:8839"

# The bgpdump file is a replay: the README counts unique prefixes over its
# lines; prefixes withdrawn for good (a W after their last A, found here
# with awk, independently of lpmpipe) are not in the table.
B=bgp4mp-et-20151023-as3856.bgpdump.txt.xz
if [ -e "$D/$B" ]; then
  gone=$(xzcat "$D/$B" | awk -F'|' '$3 == "A" { s[$6] = 1 } $3 == "W" && ($6 in s) { s[$6] = 0 }
         END { for (p in s) if (!s[p]) { split(p, a, "/"); print a[2] } }' | sort -n | tr '\n' ' ')
  ngone=$(echo $gone | wc -w)
  echo "withdrawn for good: $ngone prefixes, lengths: $gone"
  spec="/0-7:1 /8:18 /9:13 /10:35 /11:97 /12:262 /13:504 /14:1017 /15:1787 /16:13048 /17:7464 /18:12618 /19:25658 /20:37164 /21:39480 /22:63428 /23:54283 /24:311954 /25:706 /26:325 /27:425 /28:490 /29:1551 /30:1703 /31:24 /32:3651"
  for l in $gone; do
    spec=$(echo "$spec" | awk -v l="$l" '{ for (i = 1; i <= NF; i++) { split($i, kv, ":"); if (kv[1] == "/" l) $i = kv[1] ":" kv[2] - 1 } print }')
  done
  check "$B" 4 $((577706 - ngone)) 3771 "$spec"
else
  echo "SKIP: $B: not in $D"
fi

[ $ran -gt 0 ] || exit 77
exit $fail
