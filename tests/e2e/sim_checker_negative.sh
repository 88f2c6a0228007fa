#!/usr/bin/env bash
# The update checker of lpmpipe sim --updates can fail: one update whose
# first bubble writes a wrong word (a DIT entry, then a stage word) and whose
# second bubble writes the right one. The table before and after the update
# is the same (right), so only a lookup that reads the word between the two
# bubbles sees the wrong next hop, and only the in-flight judgement (before/
# after the concurrent update) can catch it. With issue width 2, request 0
# enters the window in the same cycle as the first bubble, after it (bubbles
# come first), and the second bubble enters one cycle later (at most one
# bubble per cycle): docs/microarchitecture.md, step 4. The control run is
# the same run with the wrong word replaced by the right one; it must pass.
# (A linear pipeline cannot show this: with W = 1 the bubbles of one update
# enter back to back, before any request. Nor can --hop-cycles 2 or more,
# where a cycle that takes a bubble takes no request: the runs here use the
# one-cycle rules, --hop-cycles 1.)
set -u
BIN=${LPMPIPE:-build/lpmpipe}
W=$(mktemp -d /tmp/lpmpipe-e2e-simneg.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

if ! "$BIN" map --help >/dev/null 2>&1 || ! "$BIN" update --help >/dev/null 2>&1; then
  echo "SKIP: lpmpipe map/update is not built: no image or bubbles to simulate"
  exit 77
fi

# A tiny table: 10.5.5.5 matches only 10.0.0.0/8 (nha); 10/8 is expanded
# into DIT entry 10 (initial stride 8), which also points into the trie for
# 10.1/16, so lookups of 10.5.5.5 enter the ring and are not DIT answers.
printf '0.0.0.0/0 dflt\n10.0.0.0/8 nha\n10.1.0.0/16 nhb\n10.1.2.0/24 nhc\n11.0.0.0/8 nhb\n' >"$W/t.fib"
"$BIN" map --fib "$W/t.fib" --stages 4 -o "$W/r.lpi" >/dev/null 2>&1 || { echo "FAIL: map"; exit 1; }

# One case: $1 name, $2 two-line update trace whose first update writes the
# wrong word and whose second writes the right one (the mapper encodes both:
# no hand-coded word formats), $3 the write's target (D:10 or STAGE:ADDR),
# $4 the address to look up, $5 the mismatch line expected on stderr.
check_case() {
  local name=$1 want=$5 rc
  printf '%s' "$2" >"$W/u.txt"
  "$BIN" update --image "$W/r.lpi" --updates "$W/u.txt" --rebalance-at 0 --bubbles "$W/real.bub" >/dev/null 2>&1 ||
    { bad "$name: update"; return; }
  local wrong right
  wrong=$(awk '$1 == "B" && $2 == 1 { print $3 }' "$W/real.bub")
  right=$(awk '$1 == "B" && $2 == 2 { print $3 }' "$W/real.bub")
  [[ "$wrong" == "$3":* && "$right" == "$3":* && "$wrong" != "$right" ]] ||
    { bad "$name: expected one write to $3 per update: $(cat "$W/real.bub")"; return; }
  local head
  head=$(grep '^H ' "$W/real.bub")
  { echo "$head"; echo "U 1 a $name"; echo "B 1 $right"; echo "B 2 $right"; } >"$W/good.bub"
  { echo "$head"; echo "U 1 a $name"; echo "B 1 $wrong"; echo "B 2 $right"; } >"$W/corrupt.bub"
  for i in $(seq 20); do echo "$4"; done >"$W/a.trace"

  # Control: the same run without the corruption passes, every answer checked.
  run 2 "$W/good.bub"
  rc=$?
  [ $rc -eq 0 ] || bad "$name: control run: exit $rc: $(head -3 "$W/err")"
  grep -q '"against":"interpreter before/after update","checked":20,"mismatches":0,' "$W/out" ||
    bad "$name: control run: not 20 answers checked clean: $(cat "$W/out")"
  grep -q '"applied":2,' "$W/out" || bad "$name: control run: the two bubbles were not applied: $(cat "$W/out")"

  # Corrupted: exit 1, the mismatch counted and reported with the address,
  # both answers and the cycle.
  run 2 "$W/corrupt.bub"
  rc=$?
  [ $rc -eq 1 ] || bad "$name: corrupted run: exit $rc, expected 1: $(head -3 "$W/err")"
  grep -q '"checked":20,"mismatches":1,' "$W/out" || bad "$name: corrupted run: expected exactly 1 mismatch: $(cat "$W/out")"
  grep -qxF "$want" "$W/err" || bad "$name: corrupted run: mismatch line missing or different: $(cat "$W/err")"
  grep -qxF 'lpmpipe: sim: 1 mismatch' "$W/err" || bad "$name: corrupted run: no mismatch summary: $(cat "$W/err")"

  # The corruption is invisible without concurrency: with issue width 1 both
  # bubbles enter before any request (bubbles come first, one per cycle), so
  # the same corrupted file passes: the failure above is the in-flight read.
  run 1 "$W/corrupt.bub" || bad "$name: corrupted file at issue width 1: exit $?: $(head -3 "$W/err")"
  grep -q '"checked":20,"mismatches":0,' "$W/out" || bad "$name: corrupted file at issue width 1 should pass: $(cat "$W/out")"
}

run() { # $1: issue width, $2: bubble file; stdout to $W/out, stderr to $W/err
  "$BIN" sim --image "$W/r.lpi" --trace "$W/a.trace" --hop-cycles 1 --issue-width "$1" --queue 4 --updates "$2" --json >"$W/out" 2>"$W/err"
}

# Request 0 is the one between the bubbles: DIT read in cycle 0, pushed
# behind the first bubble into queue 0 in cycle 1, stages 0 1 2 3 in cycles
# 2-5, wraps, stages 0 1 in cycles 6-7: exit cycle 7 (--cycle-log shows it).
# The second bubble follows it one stage behind, so only words it reads on
# its first pass (or in the DIT) are seen wrong.
pre='lpmpipe: sim: mismatch: request 0 10.5.5.5: pipeline says'
post='the interpreter (before and after the concurrent update) says nha (exit cycle 7)'
# A wrong DIT entry 10 (next hop nhb for 10/8).
check_case dit $'1 a 10.0.0.0/8 nhb\n2 a 10.0.0.0/8 nha\n' D:10 10.5.5.5 "$pre nhb, $post"
# A wrong stage word: the node of 10.0/10 (stage 1, address 0) with next
# hop nhc, which 10.5.5.5 reads on its first pass.
check_case stage $'1 a 10.0.0.0/10 nhc\n2 w 10.0.0.0/10\n' 1:0 10.5.5.5 "$pre nhc, $post"

[ $fail -eq 0 ] && echo "update checker: corrupted in-flight DIT and stage words caught (exit 1, address, both answers, cycle); control clean"
exit $fail
