#!/usr/bin/env bash
# Updates end to end (issue 17): nothing in a bubble file is skipped
# silently (bubbles.in_file / applied / left, updates.in_file / applied, the
# note, --drain-updates), in lpmpipe sim and in rtl verify.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
DATA=${LPMPIPE_DATA:-}
W=$(mktemp -d /tmp/lpmpipe-e2e-upd.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
jget() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval('d' + sys.argv[1]))" "$1"; }

# A small IPv4 table and updates against it (the sim.sh generator).
. "$(dirname "$0")/../common/small_ipv4.sh"
small_ipv4_fib "$W/t4.fib"
small_ipv4_updates "$W/upd.txt" 400

"$BIN" map --fib "$W/t4.fib" --stages 8 -o "$W/r8.lpi" >/dev/null 2>&1 || bad "map"
"$BIN" update --image "$W/r8.lpi" --updates "$W/upd.txt" --bubbles "$W/r8.bub" >/dev/null || bad "update"
nb=$(grep -c '^B ' "$W/r8.bub")
nu=$(grep -c '^U ' "$W/r8.bub")

# 1. Lookups end long before the updates: the rest is counted and a note says so.
out=$("$BIN" sim --image "$W/r8.lpi" --gen random-match --count 2000 --updates "$W/r8.bub" --update-rate 1000000 --json 2>"$W/err")
[ $? -eq 0 ] || bad "sim with updates: $(head -3 "$W/err")"
inf=$(echo "$out" | jget "['bubbles']['in_file']")
app=$(echo "$out" | jget "['bubbles']['applied']")
left=$(echo "$out" | jget "['bubbles']['left']")
[ "$inf" = "$nb" ] || bad "bubbles.in_file $inf, the file has $nb"
[ "$left" -gt 0 ] && [ $((app + left)) -eq "$nb" ] || bad "applied $app + left $left != $nb (or nothing left)"
[ "$(echo "$out" | jget "['updates']['in_file']")" = "$nu" ] || bad "updates.in_file"
ua=$(echo "$out" | jget "['updates']['applied']")
[ "$ua" -lt "$nu" ] || bad "updates.applied $ua of $nu with bubbles left"
grep -q "note: the lookups ended before the updates: $left of $nb bubbles" "$W/err" || bad "no note: $(cat "$W/err")"
"$BIN" sim --image "$W/r8.lpi" --gen random-match --count 2000 --updates "$W/r8.bub" --update-rate 1000000 2>/dev/null |
  grep -q "^updates  *$ua of $nu simulated" || bad "table output does not say how many updates were simulated"

# 2. --drain-updates: every bubble goes through, the same answers are checked.
out=$("$BIN" sim --image "$W/r8.lpi" --gen random-match --count 2000 --updates "$W/r8.bub" --update-rate 1000000 \
      --drain-updates --json 2>"$W/err")
[ $? -eq 0 ] || bad "sim --drain-updates: $(head -3 "$W/err")"
[ "$(echo "$out" | jget "['bubbles']['left']")" = 0 ] && [ "$(echo "$out" | jget "['bubbles']['applied']")" = "$nb" ] ||
  bad "--drain-updates left bubbles: $out"
[ "$(echo "$out" | jget "['updates']['applied']")" = "$nu" ] || bad "--drain-updates: not every update applied"
[ "$(echo "$out" | jget "['check']['mismatches']")" = 0 ] || bad "--drain-updates: mismatches"
grep -q note "$W/err" && bad "a note although every bubble went through"
# the same with a cycle log (no jump over idle cycles): identical counts and cycles
out2=$("$BIN" sim --image "$W/r8.lpi" --gen random-match --count 2000 --updates "$W/r8.bub" --update-rate 1000000 \
       --drain-updates --json --cycle-log "$W/log" 2>/dev/null)
[ "$(echo "$out" | jget "['cycles']")" = "$(echo "$out2" | jget "['cycles']")" ] || bad "--drain-updates: cycles differ with a cycle log"
[ "$(($(wc -l <"$W/log") - 1))" = "$(echo "$out2" | jget "['cycles']")" ] || bad "--drain-updates: cycle log lines"
"$BIN" sim --image "$W/r8.lpi" --gen random-match --count 10 --drain-updates >/dev/null 2>&1
[ $? -eq 2 ] || bad "--drain-updates without --updates accepted"

# 3. A broken line after the part the run reaches is still found.
cp "$W/r8.bub" "$W/tail.bub"
echo "B 999999 0:1:zz" >>"$W/tail.bub"
"$BIN" sim --image "$W/r8.lpi" --gen random-match --count 100 --updates "$W/tail.bub" --update-rate 1000 >/dev/null 2>"$W/err"
[ $? -eq 2 ] && grep -q "tail.bub:$(wc -l <"$W/tail.bub"):" "$W/err" || bad "a bad last line was not read: $(cat "$W/err")"

# 4. rtl verify reports the same counters (the RTL's own count of bubbles in).
if command -v verilator >/dev/null 2>&1; then
  out=$("$BIN" rtl verify --image "$W/r8.lpi" --gen random-match --count 300 --queue 4 --updates "$W/r8.bub" \
        --update-rate 5000000 --json 2>"$W/err")
  [ $? -eq 0 ] || bad "rtl verify with updates: $(tail -3 "$W/err")"
  [ "$(echo "$out" | jget "['bubbles']['in_file']")" = "$nb" ] || bad "rtl verify bubbles.in_file: $out"
  a=$(echo "$out" | jget "['bubbles']['applied']"); l=$(echo "$out" | jget "['bubbles']['left']")
  [ "$a" -gt 0 ] && [ $((a + l)) -eq "$nb" ] || bad "rtl verify applied $a + left $l != $nb"
  grep -q "note: the lookups ended before the updates" "$W/err" || [ "$l" = 0 ] || bad "rtl verify: no note"
else
  echo "SKIP: verilator is not installed: rtl verify counters not checked"
fi

exit $fail
