#!/usr/bin/env bash
# lpmpipe update --max-updates N (docs/cli-mapper.md): the first N updates of
# a trace give byte for byte what the same trace cut after its N-th update
# gives (report, bubble stream, updated image), for a plain trace with
# comments and blank lines and for a bgpdump trace with STATE lines and a
# second peer (neither counts); the updated image answers every lookup as
# the reference LPM of the table with those N updates applied (computed
# here, independently), and every bubble goes through the simulator with
# every lookup judged before-or-after. Bad values exit 2. With the shared
# data: the first 3,000 updates of the real bgp4mp trace against a cut of it.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
DATA=${LPMPIPE_DATA:-}
W=$(mktemp -d /tmp/lpmpipe-e2e-umax.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
jget() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval('d' + sys.argv[1]))" "$1"; }

. "$(dirname "$0")/../common/small_ipv4.sh"
small_ipv4_fib "$W/t4dup.fib"
awk '!seen[$1]++' "$W/t4dup.fib" >"$W/t4.fib" # one next hop a prefix: the reference below is a dict
small_ipv4_updates "$W/u.txt" 600
IMG=$W/r8.lpi
"$BIN" map --fib "$W/t4.fib" --stages 8 --shadow -o "$IMG" >/dev/null 2>&1 || { echo "FAIL: map"; exit 1; }

# The JSON report without the timings of the offline step.
nojson() { python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
for k in ('seconds', 'updates_per_s', 'rebuild_seconds'): d.pop(k)
print(json.dumps(d, sort_keys=True))" "$1"; }

# The base table with the first N updates of a trace applied (announce sets
# the next hop, withdraw removes; bgpdump A/W lines of the first peer
# only), written as a plain table: the reference the image is checked on.
reference() { # FIB TRACE N OUT
  python3 - "$@" <<'PY'
import sys
fib, trace, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
routes = dict(l.split()[:2] for l in open(fib) if l.strip())
peer, k = None, 0
for line in open(trace):
    if k == n:
        break
    line = line.rstrip("\n")
    f = line.split("|")
    if len(f) > 1:
        if f[2] not in ("A", "W"):
            continue
        peer = peer or f[3]
        if f[3] != peer:
            continue
        op, pfx, nh = f[2].lower(), f[5], f[8] if f[2] == "A" else None
    else:
        t = line.split()
        if not t or t[0].startswith("#"):
            continue
        op, pfx, nh = t[1], t[2], t[3] if len(t) > 3 else None
    k += 1
    if op == "a":
        routes[pfx] = nh
    else:
        routes.pop(pfx, None)
with open(out, "w") as fp:
    for p, h in routes.items():
        fp.write("%s %s\n" % (p, h))
PY
}

check() { # NAME TRACE CUT N [update options...]
  local name=$1 tr=$2 cut=$3 n=$4 out
  shift 4
  "$BIN" update --image "$IMG" --updates "$tr" --max-updates "$n" "$@" --bubbles "$W/a.bub" -o "$W/a.lpi" \
    --json >"$W/a.json" 2>"$W/err" || { bad "$name: update --max-updates $n: $(cat "$W/err")"; return; }
  "$BIN" update --image "$IMG" --updates "$cut" "$@" --bubbles "$W/b.bub" -o "$W/b.lpi" --json >"$W/b.json" \
    2>"$W/err" || { bad "$name: update on the cut trace: $(cat "$W/err")"; return; }
  [ "$(jget "['updates']" <"$W/a.json")" = "$n" ] || bad "$name: updates $(jget "['updates']" <"$W/a.json"), want $n"
  [ "$(nojson "$W/a.json")" = "$(nojson "$W/b.json")" ] || bad "$name: the reports differ: $(nojson "$W/a.json") / $(nojson "$W/b.json")"
  cmp -s "$W/a.bub" "$W/b.bub" || bad "$name: the bubble streams differ"
  cmp -s "$W/a.lpi" "$W/b.lpi" || bad "$name: the updated images differ"
  # every answer of the updated image against the reference LPM of the table
  # with the first N updates applied
  reference "$W/t4.fib" "$cut" "$n" "$W/ref.fib"
  "$BIN" trace gen --fib "$W/ref.fib" --kind random-match --count 20000 --seed 3 -o "$W/ref.tr" 2>/dev/null
  "$BIN" lookup --image "$W/a.lpi" --trace "$W/ref.tr" --verify --fib "$W/ref.fib" >/dev/null 2>"$W/err" ||
    bad "$name: the updated image against the reference: $(head -3 "$W/err")"
  # every bubble through the simulator, every lookup judged
  out=$("$BIN" sim --image "$IMG" --gen random-match --count 20000 --updates "$W/a.bub" --update-rate 2000000 \
        --drain-updates --json 2>"$W/err") || { bad "$name: sim: $(head -3 "$W/err")"; return; }
  [ "$(echo "$out" | jget "['updates']['applied']")" = "$n" ] && [ "$(echo "$out" | jget "['bubbles']['left']")" = 0 ] ||
    bad "$name: sim applied $(echo "$out" | jget "['updates']")"
  [ "$(echo "$out" | jget "['check']['checked']")" = 20000 ] && [ "$(echo "$out" | jget "['check']['mismatches']")" = 0 ] &&
    [ "$(echo "$out" | jget "['check']['copy_violations']")" = 0 ] || bad "$name: sim checks: $(echo "$out" | jget "['check']")"
  echo "$name: --max-updates $n = the cut trace (report, bubbles, image); the image verified, $(grep -c '^B ' "$W/a.bub") bubbles simulated, 0 mismatches"
}

# 1. A plain trace with comments and blank lines between the updates.
awk 'NR == 1 { print "# a comment before the first update" } { print } NR % 50 == 0 { print ""; print "# comment " NR }' \
  "$W/u.txt" >"$W/uc.txt"
cutn() { awk -v n="$2" -v pat="$3" '{ print } $0 ~ pat && ++k == n { exit }' "$1"; }
cutn "$W/uc.txt" 250 '^[0-9]' >"$W/uc250.txt"
[ "$(grep -c '^[0-9]' "$W/uc250.txt")" = 250 ] && [ "$(grep -c '^#' "$W/uc250.txt")" -ge 5 ] || bad "the cut plain trace"
check "plain trace, 250 of 600" "$W/uc.txt" "$W/uc250.txt" 250
# N beyond the end: the whole trace
"$BIN" update --image "$IMG" --updates "$W/uc.txt" --max-updates 100000 --json >"$W/all.json" 2>"$W/err" &&
  [ "$(jget "['updates']" <"$W/all.json")" = 600 ] || bad "--max-updates past the end: $(cat "$W/err" "$W/all.json")"
# the rest of the file is not read: a bad line after the N-th update is not seen
{ cat "$W/uc250.txt"; echo "1 x 10.0.0.0/8"; } >"$W/badtail.txt"
"$BIN" update --image "$IMG" --updates "$W/badtail.txt" --max-updates 250 >/dev/null 2>&1 || bad "a bad line after the N-th update was read"
"$BIN" update --image "$IMG" --updates "$W/badtail.txt" --max-updates 251 >/dev/null 2>"$W/err"
[ $? -eq 2 ] && grep -q "badtail.txt:$(wc -l <"$W/badtail.txt"):" "$W/err" || bad "the bad 251st update: $(cat "$W/err")"

# 2. bgpdump lines: STATE lines and a second peer's updates do not count.
awk 'BEGIN { print "BGP4MP_ET|1.0|STATE|192.0.2.1|64500|1|2" }
     { t = 100 + NR; op = ($2 == "w") ? "W" : "A"
       if (NR % 40 == 0) print "BGP4MP_ET|" t ".5|STATE|192.0.2.1|64500|6|1"
       if (NR % 7 == 0) print "BGP4MP_ET|" t ".2|A|192.0.2.9|64501|" $3 "|64501 1|IGP|192.0.2.9|0|0||NAG||"
       if (op == "W") print "BGP4MP_ET|" t ".1|W|192.0.2.1|64500|" $3
       else print "BGP4MP_ET|" t ".1|A|192.0.2.1|64500|" $3 "|64500 2|IGP|" ($4 == "" ? "192.0.2.1" : $4) "|0|0||NAG||" }' \
  "$W/u.txt" >"$W/b.txt"
cutn "$W/b.txt" 300 '^BGP4MP_ET\|[^|]*\|[AW]\|192\.0\.2\.1\|' >"$W/b300.txt"
[ "$(grep -c '|STATE|' "$W/b300.txt")" -ge 5 ] && [ "$(grep -c '|192.0.2.9|' "$W/b300.txt")" -ge 30 ] || bad "the cut bgpdump trace"
check "bgpdump trace, 300 of 600" "$W/b.txt" "$W/b300.txt" 300

# 3. Bad values: exit 2 and a message naming the option.
for v in 0 -1 abc 1.5 "" 2000000000000; do
  "$BIN" update --image "$IMG" --updates "$W/u.txt" --max-updates "$v" >/dev/null 2>"$W/err"
  rc=$?
  [ $rc -eq 2 ] && grep -q "^lpmpipe: update: --max-updates: " "$W/err" || bad "--max-updates '$v': exit $rc: $(cat "$W/err")"
done

# 4. The real bgp4mp trace: its first 3,000 updates against a cut of it.
BGP=$DATA/bgp4mp-et-20151023-as3856.bgpdump.txt.xz
if [ -n "$DATA" ] && [ -f "$BGP" ]; then
  (xzcat "$BGP" || :) | awk '{ print } /^BGP4MP[^|]*\|[^|]*\|[AW]\|/ && ++k == 3000 { exit }' >"$W/bgp3000.txt"
  # the trace has one peer: every A/W line counts; a full-table burst needs
  # more head room than the small table's
  IMG=$W/r8h.lpi
  "$BIN" map --fib "$W/t4.fib" --stages 8 --shadow --headroom 100 -o "$IMG" >/dev/null 2>&1 || bad "map --headroom 100"
  check "bgp4mp, first 3000" "$BGP" "$W/bgp3000.txt" 3000
else
  echo "SKIP: the shared bgp4mp trace is absent: the real-trace cut is not checked"
fi
exit $fail
