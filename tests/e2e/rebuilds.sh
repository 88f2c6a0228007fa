#!/usr/bin/env bash
# Rebuilds as bubble streams (issue 17, docs/microarchitecture.md 3.1): an
# image with a shadow copy, updates that force rebuilds, every bubble applied
# under traffic in the simulator with every answer judged before-or-after, the
# rebuild rules checked (no write into a copy that is live or being walked,
# the new copy's CRC at each swap), and planted faults (a swap one cycle
# early, a fence that does not wait) that the checks must catch.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
W=$(mktemp -d /tmp/lpmpipe-e2e-rb.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
jget() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval('d' + sys.argv[1]))" "$1"; }

. "$(dirname "$0")/../common/small_ipv4.sh"
small_ipv4_fib "$W/t.fib"
small_ipv4_updates "$W/u.txt" 300
"$BIN" trace gen --fib "$W/t.fib" --count 40000 --seed 3 -o "$W/t.tr" 2>/dev/null || bad "trace gen"

# One sim run with every bubble applied: all checks clean, one swap per R line.
clean_run() { # name image bubbles sim-options...
  local name=$1 img=$2 bub=$3
  shift 3
  local out nr nb
  out=$("$BIN" sim --image "$img" --trace "$W/t.tr" --updates "$bub" --drain-updates --json "$@" 2>"$W/err")
  [ $? -eq 0 ] || { bad "$name: exit $?: $(head -3 "$W/err")"; return; }
  nr=$(grep -c '^R ' "$bub"); nb=$(grep -c '^B ' "$bub")
  [ "$nr" -ge 1 ] || bad "$name: no rebuild in the bubble file"
  [ "$(echo "$out" | jget "['bubbles']['left']")" = 0 ] && [ "$(echo "$out" | jget "['bubbles']['applied']")" = "$nb" ] ||
    bad "$name: not every bubble applied"
  [ "$(echo "$out" | jget "['bubbles']['swaps']")" = "$nr" ] && [ "$(echo "$out" | jget "['check']['swaps_checked']")" = "$nr" ] ||
    bad "$name: swaps != rebuilds ($nr)"
  [ "$(echo "$out" | jget "['check']['mismatches']")" = 0 ] && [ "$(echo "$out" | jget "['check']['copy_violations']")" = 0 ] &&
    [ "$(echo "$out" | jget "['check']['swap_crc_mismatches']")" = 0 ] || bad "$name: checks failed: $(echo "$out" | jget "['check']")"
  [ "$(echo "$out" | jget "['check']['checked']")" = 40000 ] || bad "$name: not every lookup judged"
}

for arch in "ring --stages 8" "linear"; do
  a=${arch%% *}
  "$BIN" map --fib "$W/t.fib" --arch $arch --shadow -o "$W/$a.lpi" >/dev/null 2>&1 || bad "map --shadow $a"
  "$BIN" update --image "$W/$a.lpi" --updates "$W/u.txt" --rebuild-every 60 --bubbles "$W/$a.bub" -o "$W/$a.2.lpi" --json \
    >"$W/$a.json" || bad "update $a"
  [ "$(jget "['rebuilds']" <"$W/$a.json")" -ge 3 ] || bad "$a: fewer than 3 rebuilds"
  [ "$(jget "['rebuild_bubbles']" <"$W/$a.json")" -gt 0 ] && [ "$(jget "['shadow_bits']" <"$W/$a.json")" -gt 0 ] ||
    bad "$a: update reports no rebuild bubbles or shadow memory"
  "$BIN" image check "$W/$a.2.lpi" >/dev/null || bad "$a: the updated image does not check"
  head -1 "$W/$a.bub" | grep -q "^# lpmpipe bubbles v2" || bad "$a: bubble file header"
  grep '^R ' "$W/$a.bub" | head -1 | grep -Eq '^R [0-9]+ every copy=1 writes=[0-9]+ bubbles=[0-9]+ copy_crc=[0-9a-f]{8}$' ||
    bad "$a: R line: $(grep -m1 '^R ' "$W/$a.bub")"
  clean_run "$a, D=1" "$W/$a.lpi" "$W/$a.bub" --hop-cycles 1 --queue 8 --update-rate 10000000
  clean_run "$a, D=2, all at once" "$W/$a.lpi" "$W/$a.bub" --queue 8
done
clean_run "linear, credit rules" "$W/linear.lpi" "$W/linear.bub" --result-fifo 48 --update-rate 20000000
clean_run "linear, credit rules, D=3, back-pressure" "$W/linear.lpi" "$W/linear.bub" --result-fifo 64 --hop-cycles 3 --result-ready 0.6
clean_run "ring, width 4, lookahead" "$W/ring.lpi" "$W/ring.bub" --issue-width 4 --lookahead 16 --queue 4 --update-rate 20000000
# The image the updater wrote answers the final table (it is what the pipeline holds).
awk '{split($3,a,"/"); print a[1]}' "$W/u.txt" >"$W/probe.tr"
"$BIN" lookup --image "$W/ring.2.lpi" --verify --trace "$W/probe.tr" >/dev/null || bad "updated image vs its table"

# Back-to-back rebuilds (every update), all ready at once: fences wait.
"$BIN" update --image "$W/ring.lpi" --updates <(head -40 "$W/u.txt") --rebuild-every 1 --bubbles "$W/rb1.bub" >/dev/null ||
  bad "update --rebuild-every 1"
clean_run "ring, a rebuild per update" "$W/ring.lpi" "$W/rb1.bub" --hop-cycles 1 --issue-width 4 --queue 16
out=$("$BIN" sim --image "$W/ring.lpi" --trace "$W/t.tr" --updates "$W/rb1.bub" --hop-cycles 1 --issue-width 4 --queue 16 --json 2>/dev/null)
[ "$(echo "$out" | jget "['bubbles']['fence_wait_cycles']")" -gt 0 ] || bad "no fence ever waited with back-to-back rebuilds"

# Planted faults: each must fail the run (exit 1) through the rule check.
fault() { # name bubbles sim-options...
  local name=$1 bub=$2
  shift 2
  local out rc
  out=$("$BIN" sim --image "$W/ring.lpi" --trace "$W/t.tr" --updates "$bub" --drain-updates --json "$@" 2>"$W/err")
  rc=$?
  [ $rc -eq 1 ] || bad "$name: exit $rc, not 1"
  [ "$(echo "$out" | jget "['check']['copy_violations']")" -gt 0 ] || bad "$name: no rule violation counted"
  grep -q "broke the swap rules; the first, at cycle" "$W/err" || bad "$name: no description of the violation"
}
fault "swap one cycle early" "$W/ring.bub" --plant-fault swap-early --hop-cycles 1 --queue 8 --update-rate 10000000
grep -q "swap found the new copy different\|swaps found the new copy different" "$W/err" || bad "swap early: the CRC check did not see it"
fault "fence does not wait" "$W/rb1.bub" --plant-fault no-fence --hop-cycles 1 --issue-width 4 --queue 16
grep -q "while lookups were walking that copy" "$W/err" || bad "no fence: not reported as a write under walking lookups"

# update: an image without a shadow copy cannot send a rebuild as bubbles.
"$BIN" map --fib "$W/t.fib" --stages 8 -o "$W/one.lpi" >/dev/null 2>&1
"$BIN" update --image "$W/one.lpi" --updates "$W/u.txt" --rebuild-every 60 --bubbles "$W/one.bub" >/dev/null 2>"$W/err"
[ $? -eq 1 ] && grep -q "has no shadow copy" "$W/err" || bad "a rebuild without a shadow copy was not refused: $(cat "$W/err")"
"$BIN" update --image "$W/one.lpi" --updates "$W/u.txt" --rebuild-every 60 --json >"$W/one.json" || bad "update without --bubbles"
[ "$(jget "['rebuilds']" <"$W/one.json")" -ge 3 ] || bad "without a shadow copy the rebuilds are not counted"
# a table that outgrows the memory stops with exit 1 and says where
"$BIN" map --fib <(head -300 "$W/t.fib") --stages 8 --headroom 0 --shadow -o "$W/small.lpi" >/dev/null 2>&1
"$BIN" update --image "$W/small.lpi" --updates "$W/u.txt" --bubbles "$W/small.bub" --json >"$W/small.json" 2>"$W/err"
[ $? -eq 1 ] && grep -q "no longer fits this pipeline: stage" "$W/err" && [ "$(jget "['stopped_at']" <"$W/small.json")" -gt 0 ] ||
  bad "a table that outgrows its memory: $(cat "$W/err")"

# Bubble file grammar: refused with file:line and exit 2.
bfail() { # name expected-text
  "$BIN" sim --image "$W/ring.lpi" --trace "$W/t.tr" --updates "$W/g.bub" >/dev/null 2>"$W/err"
  [ $? -eq 2 ] && grep -q "g.bub:[0-9]*: .*$2" "$W/err" || bad "$1 not refused: $(cat "$W/err")"
}
# The records around real writes (one of the live copy 0, one of copy 1 from
# a rebuild) and the file's own header, so that only the grammar is wrong.
H=$(grep -m1 '^H ' "$W/ring.bub")
w0=$(awk '$1 == "B" && $3 ~ /:/ { print $3; exit }' "$W/ring.bub")
w1=$(awk '$1 == "B" && $3 == "fence" { print $4; exit }' "$W/ring.bub")
[ -n "$H" ] && [ -n "$w0" ] && [ -n "$w1" ] || bad "cannot find the header and writes in ring.bub"
gb() { printf '%s\n' "$H" "$@" >"$W/g.bub"; }
gb 'U 1 a 10.0.0.0/8 x writes=1 bubbles=1' "B 1 bogus $w0"; bfail "unknown flag" "unknown bubble flag"
gb 'U 1 a 10.0.0.0/8 x writes=1 bubbles=1' 'B 1 swap'; bfail "swap outside a rebuild" "belong to a rebuild"
gb 'U 1 a 10.0.0.0/8 x writes=1 bubbles=1' "B 1 fence $w0"; bfail "fence outside a rebuild" "belong to a rebuild"
gb 'U 1 a 10.0.0.0/8 x writes=1 bubbles=2' 'R 1 every copy=1 writes=1 bubbles=2' 'B 1 swap' "B 2 $w1"
bfail "swap not last" "swap must be the last"
gb 'U 1 a 10.0.0.0/8 x writes=1 bubbles=2' 'R 1 every copy=1 writes=1 bubbles=2' "B 1 $w1" 'U 2 w 10.0.0.0/8 -'
bfail "rebuild without its swap" "before its swap"
gb 'U 1 a 10.0.0.0/8 x writes=1 bubbles=2' 'R 1 every copy=1 frob=2 bubbles=2'; bfail "unknown R key" "unknown key"
gb 'U 1 a 10.0.0.0/8 x writes=1 bubbles=2' 'R 1 every copy=0 writes=1 bubbles=2'; bfail "a rebuild into the live copy" "inactive copy"
gb 'U 1 a 10.0.0.0/8 x writes=1 bubbles=2' 'R 1 every copy=1 writes=1 bubbles=2' "B 1 $w0" 'B 2 swap'
bfail "a rebuild writing the live copy" "outside copy 1"
gb 'U 1 a 10.0.0.0/8 x writes=1 bubbles=1' "B 1 $w1"; bfail "an update writing the inactive copy" "outside copy 0"
gb 'U 1 a 10.0.0.0/8 x writes=2 bubbles=2' 'R 1 every copy=1 writes=2 bubbles=2' "B 1 $w1" 'B 2 swap'
bfail "R writes= against its bubbles" "hold 1 writes, its R line says writes=2"
gb 'U 1 a 10.0.0.0/8 x writes=1 bubbles=1' 'R 1 every'; bfail "an R line without copy=" "needs copy="
printf '%s\n' "${H/copies=2/copies=1}" 'U 1 a 10.0.0.0/8 x writes=0 bubbles=0' >"$W/g.bub"
bfail "a file for an image without a shadow copy" "made for an image with 1 copy, this image has 2"

exit $fail
