#!/usr/bin/env bash
# lpmpipe model end to end: the SystemC cycle-accurate model against the C
# simulator (model verify: cycle logs line by line, results field by field,
# answers against the reference LPM) on hand-built tiny tables over the
# rules' settings (hop cycles 1-3, ports 1-2, issue width, reorder buffer,
# result back-pressure, bubbles), and on real-table subsets: a 24-stage
# ring with queue 32 (routeviews IPv4, LINX update bubbles) and a linear
# pipeline with bubbles (LINX IPv6). Planted faults must make verify fail;
# model run must write the simulator's cycle log and results byte for byte.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
DATA=${LPMPIPE_DATA:-}
W=$(mktemp -d /tmp/lpmpipe-e2e-model.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

if ! "$BIN" --version --json | grep -q '"systemc":true'; then
  echo "SKIP: this lpmpipe was built without SystemC: no model checks"
  "$BIN" model run --image x.lpi --gen uniform 2>/dev/null; [ $? -eq 3 ] || bad "model without SystemC: exit is not 3"
  exit $((fail ? 1 : 77))
fi

# verify WHAT ARGS...: must pass with 0 mismatches on every lookup
verify() {
  local what=$1; shift
  local out
  out=$("$BIN" model verify "$@" --json 2>"$W/err")
  local rc=$?
  if [ $rc -ne 0 ]; then bad "$what: exit $rc: $(head -4 "$W/err")"; return; fi
  echo "$out" | grep -q '"cycle_mismatches":0,"result_mismatches":0,' || bad "$what: $out"
  echo "$out" | grep -q '"mismatches":0}' || bad "$what: $out"
  echo "$what: $out"
}

cat >"$W/tiny.fib" <<'EOF2'
0.0.0.0/0 d
10.0.0.0/8 a
10.1.0.0/16 b
10.1.2.0/24 c
10.1.2.128/25 e
10.1.2.192/26 f
10.200.0.0/13 g
192.168.0.0/16 h
192.168.10.0/23 i
192.168.10.7/32 j
172.16.0.0/12 k
EOF2
cat >"$W/tiny.upd" <<'EOF2'
0.000001 a 10.1.3.0/24 x
0.000002 a 10.1.2.64/26 y
0.000003 w 10.1.2.128/25
0.000004 a 192.168.11.0/24 z
0.000005 w 172.16.0.0/12
0.000006 a 10.128.0.0/9 q
EOF2
"$BIN" map --fib "$W/tiny.fib" --stages 4 --stride 2 --initial-stride 4 -o "$W/tr.lpi" >/dev/null || bad "map tiny ring"
"$BIN" map --fib "$W/tiny.fib" --arch linear --mapping height --stride 2 --initial-stride 4 -o "$W/tl.lpi" >/dev/null ||
  bad "map tiny linear"
"$BIN" update --image "$W/tr.lpi" --updates "$W/tiny.upd" --bubbles "$W/tr.bub" >/dev/null || bad "update tiny ring"
"$BIN" update --image "$W/tl.lpi" --updates "$W/tiny.upd" --bubbles "$W/tl.bub" >/dev/null || bad "update tiny linear"
"$BIN" trace gen --fib "$W/tiny.fib" --kind random-match --count 2000 --seed 5 -o "$W/tiny.trace" || bad "trace tiny"

# the rules' settings on both tiny pipelines, with and without bubbles
for img in tr tl; do
  for args in "--hop-cycles 1 --queue 0" "--hop-cycles 1 --queue 2" "" "--hop-cycles 3 --queue 1" "--ports 2" \
    "--result-ready 0.4 --queue 2" "--hop-cycles 1 --rob 4 --ports 2"; do
    verify "tiny $img [$args]" --image "$W/$img.lpi" --trace "$W/tiny.trace" $args
    verify "tiny $img [$args], bubbles" --image "$W/$img.lpi" --trace "$W/tiny.trace" $args \
      --updates "$W/$img.bub" --update-rate 20000000
  done
done
for args in "--issue-width 2 --rob 8" "--issue-width 3 --ports 2 --queue 2 --result-ready 0.5"; do
  verify "tiny ring [$args], bubbles" --image "$W/tr.lpi" --trace "$W/tiny.trace" $args \
    --updates "$W/tr.bub" --update-rate 20000000
done
verify "tiny linear, 2 ports, width 2, bubbles" --image "$W/tl.lpi" --gen random-match --count 2000 \
  --ports 2 --issue-width 2 --updates "$W/tl.bub" --update-rate 20000000
# the linear credit rules (docs/microarchitecture.md 4.1)
for args in "--result-fifo 6" "--result-fifo 16 --load 0.6 --result-ready 0.4" "--result-fifo 24 --hop-cycles 3 --result-ready 0.3"; do
  verify "tiny linear [$args], bubbles" --image "$W/tl.lpi" --trace "$W/tiny.trace" $args --updates "$W/tl.bub" \
    --update-rate 3000000
done
# DIT answers through queue 0 (--dit-answers queue): a uniform trace, which the DIT answers mostly
"$BIN" trace gen --fib "$W/tiny.fib" --kind uniform --count 2000 --seed 7 -o "$W/tinyu.trace" || bad "trace tiny uniform"
for img in tr tl; do
  verify "tiny $img [--dit-answers queue, uniform trace], bubbles" --image "$W/$img.lpi" --trace "$W/tinyu.trace" \
    --dit-answers queue --hop-cycles 3 --queue 2 --result-ready 0.5 --updates "$W/$img.bub" --update-rate 20000000
done
"$BIN" model verify --image "$W/tr.lpi" --trace "$W/tinyu.trace" --hop-cycles 1 --dit-answers queue 2>"$W/err"
[ $? -eq 2 ] && grep -q 'DIT answers through the queues' "$W/err" || bad "--dit-answers queue at D = 1 not refused: $(cat "$W/err")"
nb=$(grep -c '^B' "$W/tr.bub")
"$BIN" model verify --image "$W/tr.lpi" --trace "$W/tiny.trace" --updates "$W/tr.bub" --update-rate 20000000 --json |
  grep -q "\"bubbles\":$nb," || bad "tiny ring: the $nb bubbles of the file did not all go through"

# planted faults: verify must fail (exit 1) and name the first differing cycle
for m in dit-late queue-capacity; do
  "$BIN" model verify --image "$W/tr.lpi" --trace "$W/tiny.trace" --queue 1 --issue-width 2 --mutate $m \
    >"$W/mut.out" 2>"$W/mut.err"
  rc=$?
  if [ $rc -ne 1 ]; then
    bad "mutation $m: exit $rc, expected 1 (the comparison cannot fail?)"
  else
    grep -q 'first at cycle [0-9]' "$W/mut.err" || bad "mutation $m: no first differing cycle named"
    echo "mutation $m: $(cat "$W/mut.out"); $(grep 'first at cycle' "$W/mut.err")"
  fi
done

# co-simulation: the Verilated RTL stepped by the model's clock, compared every
# cycle (the builds are cached in $LPMPIPE_RTL_CACHE, as tests/e2e/rtl.sh's)
export LPMPIPE_RTL_CACHE=${LPMPIPE_RTL_CACHE:-${LPMPIPE_BUILD:-$PWD/build}/rtl-cache}
cosim_ok='"cosim":{"cycle_mismatches":0,"result_mismatches":0,'
if command -v verilator >/dev/null 2>&1; then
  for img in tr tl; do
    out=$("$BIN" model verify --image "$W/$img.lpi" --trace "$W/tiny.trace" --queue 4 --cosim --json 2>"$W/err") ||
      bad "cosim tiny $img: exit $?: $(head -4 "$W/err")"
    echo "cosim tiny $img: $out"
    echo "$out" | grep -q "$cosim_ok\"reference_checked\":2000,\"reference_mismatches\":0}" || bad "cosim tiny $img: $out"
    echo "$out" | grep -q '"mismatches":0}' || bad "cosim tiny $img: $out"
  done
  out=$("$BIN" model verify --image "$W/tr.lpi" --trace "$W/tiny.trace" --queue 4 --cosim --updates "$W/tr.bub" \
    --update-rate 20000000 --json 2>"$W/err") || bad "cosim tiny ring, bubbles: exit $?: $(head -4 "$W/err")"
  echo "cosim tiny ring, bubbles: $out"
  echo "$out" | grep -q "\"bubbles\":$nb,.*$cosim_ok" || bad "cosim tiny ring, bubbles: $out"
  echo "$out" | grep -q '"mismatches":0}' || bad "cosim tiny ring, bubbles: $out"
  out=$("$BIN" model verify --image "$W/tl.lpi" --trace "$W/tiny.trace" --result-fifo 16 --cosim --updates "$W/tl.bub" \
    --update-rate 3000000 --result-ready 0.5 --json 2>"$W/err") || bad "cosim tiny linear, credit rules: exit $?: $(head -4 "$W/err")"
  echo "cosim tiny linear, credit rules, bubbles: $out"
  echo "$out" | grep -q "$cosim_ok" && echo "$out" | grep -q '"mismatches":0}' || bad "cosim tiny linear, credit rules: $out"
  # planted faults, one in the model and one in the RTL: the per-cycle comparison must fail
  for m in "--mutate dit-late" "--rtl-mutate queue-order"; do
    "$BIN" model verify --image "$W/tr.lpi" --trace "$W/tiny.trace" --queue 4 --cosim $m --json >"$W/mut.out" 2>"$W/mut.err"
    rc=$?
    if [ $rc -ne 1 ]; then
      bad "cosim $m: exit $rc, expected 1: $(head -3 "$W/mut.err")"
    else
      grep -q '"cosim":{"cycle_mismatches":[1-9]' "$W/mut.out" || bad "cosim $m: no cycle mismatch between model and RTL"
      grep -q 'first at cycle [0-9]' "$W/mut.err" || bad "cosim $m: no first differing cycle named"
      echo "cosim $m: $(cat "$W/mut.out"); $(grep 'first at cycle' "$W/mut.err")"
    fi
  done
  grep -q '"cycle_mismatches":0,"result_mismatches":0,' "$W/mut.out" ||
    bad "cosim --rtl-mutate: the model and the simulator should still agree"
  "$BIN" model verify --image "$W/tr.lpi" --trace "$W/tiny.trace" --cosim --hop-cycles 1 --queue 2 2>/dev/null
  [ $? -eq 2 ] || bad "cosim with --hop-cycles 1 not refused"
  "$BIN" model verify --image "$W/tr.lpi" --trace "$W/tiny.trace" --rtl-mutate queue-order 2>/dev/null
  [ $? -eq 2 ] || bad "--rtl-mutate without --cosim not refused"
else
  echo "SKIP: verilator is not on the PATH: no co-simulation"
fi

# model run writes what lpmpipe sim writes
for args in "" "--hop-cycles 1 --queue 2 --issue-width 2" "--ports 2 --rob 16 --issue-width 2"; do
  "$BIN" model run --image "$W/tr.lpi" --trace "$W/tiny.trace" $args --updates "$W/tr.bub" --update-rate 20000000 \
    --cycle-log "$W/m.log" --results "$W/m.csv" >/dev/null || bad "model run [$args]"
  "$BIN" sim --image "$W/tr.lpi" --trace "$W/tiny.trace" $args --updates "$W/tr.bub" --update-rate 20000000 \
    --cycle-log "$W/s.log" --results "$W/s.csv" >/dev/null || bad "sim [$args]"
  cmp -s "$W/m.log" "$W/s.log" || bad "model run [$args]: cycle log differs from sim's"
  cmp -s "$W/m.csv" "$W/s.csv" || bad "model run [$args]: results differ from sim's"
done
"$BIN" model run --image "$W/tr.lpi" --trace "$W/tiny.trace" | grep -q '2000 answers checked, 0 mismatches' ||
  bad "model run: answers not checked against the interpreter"

# the TLM line card, both engines: every packet answered or dropped, every
# answer checked; over the saturated rate the FIFO drops and both engines
# agree on the throughput (the fast one is calibrated from cycle runs)
for eng in cycle fast; do
  out=$("$BIN" model linecard --image "$W/tr.lpi" --trace "$W/tiny.trace" --engine $eng --rate-mpps 40 --json) ||
    bad "linecard $eng: exit $?"
  echo "linecard $eng 40 Mpps: $out"
  echo "$out" | grep -q '"answered":2000,"dropped":0,' || bad "linecard $eng at 40 Mpps: $out"
  echo "$out" | grep -q '"checked":2000,"mismatches":0' || bad "linecard $eng: answers not all checked: $out"
  out=$("$BIN" model linecard --image "$W/tr.lpi" --trace "$W/tiny.trace" --engine $eng --rate-mpps 400 --json) ||
    bad "linecard $eng 400 Mpps: exit $?"
  echo "linecard $eng 400 Mpps: $out"
  echo "$out" | grep -q '"dropped":0,' && bad "linecard $eng: 2 lookups per clock offered, nothing dropped: $out"
  echo "$out" | grep -q '"need_lookups_per_clock":2.0000,' || bad "linecard $eng: lookups per clock: $out"
  out=$("$BIN" model linecard --image "$W/tr.lpi" --trace "$W/tiny.trace" --engine $eng --rate-mpps 0 --json) ||
    bad "linecard $eng back to back: exit $?"
  echo "linecard $eng back to back: $out"
  echo "$out" | grep -q '"answered":2000,"dropped":0,' || bad "linecard $eng back to back: $out"
  echo "$out" | grep -q '"checked":2000,"mismatches":0' || bad "linecard $eng back to back: not all checked: $out"
  out=$("$BIN" model linecard --image "$W/tr.lpi" --trace "$W/tiny.trace" --engine $eng --rate-mpps 40 \
    --updates "$W/tr.bub" --update-rate 20000000 --json) || bad "linecard $eng with updates: exit $?"
  echo "$out" | grep -q '"bubbles":0,' && bad "linecard $eng: no bubble went through the socket: $out"
done
# a trace's own timing: bursts of 50 packets 2 ns apart, then 50 packets 20 ns apart
awk '{ t += (NR % 100 < 50) ? 2e-9 : 20e-9; printf "%.9f %s\n", 1.5 + t, $1 }' "$W/tiny.trace" >"$W/tiny.timed"
for eng in cycle fast; do
  out=$("$BIN" model linecard --image "$W/tr.lpi" --timed-trace "$W/tiny.timed" --engine $eng --json) ||
    bad "linecard $eng timed trace: exit $?"
  echo "linecard $eng timed trace: $out"
  echo "$out" | grep -q '"timed":true,' || bad "linecard $eng timed trace: not timed: $out"
  echo "$out" | grep -q '"need_lookups_per_clock":0.4544,"peak_lookups_per_clock":0.4800,' ||
    bad "linecard $eng timed trace: the trace's rate: $out"
  a=$(echo "$out" | sed 's/.*"answered":\([0-9]*\).*/\1/'); d=$(echo "$out" | sed 's/.*"dropped":\([0-9]*\).*/\1/')
  [ $((a + d)) -eq 2000 ] && [ "$d" -gt 0 ] || bad "linecard $eng timed trace: bursts over the ring's rate must drop: $out"
  echo "$out" | grep -q "\"checked\":$a,\"mismatches\":0" || bad "linecard $eng timed trace: not all checked: $out"
done
printf '0.1 10.0.0.1\n0.05 10.0.0.2\n' >"$W/back.timed"
"$BIN" model linecard --image "$W/tr.lpi" --timed-trace "$W/back.timed" 2>"$W/err"
[ $? -eq 2 ] && grep -q 'back.timed:2: ' "$W/err" || bad "timed trace going back in time not refused with file:line"
"$BIN" model linecard --image "$W/tr.lpi" --timed-trace "$W/tiny.trace" 2>"$W/err"
[ $? -eq 2 ] && grep -q 'tiny.trace:1: ' "$W/err" || bad "untimed trace as --timed-trace not refused with file:line"
"$BIN" model linecard --image "$W/tr.lpi" --timed-trace "$W/tiny.timed" --rate-mpps 3 2>/dev/null
[ $? -eq 2 ] || bad "--timed-trace with --rate-mpps not refused"
"$BIN" model linecard --image "$W/tr.lpi" --trace "$W/tiny.trace" --updates "$W/tr.bub" 2>/dev/null
[ $? -eq 2 ] || bad "linecard --updates without --update-rate not refused"
"$BIN" model linecard --image "$W/tr.lpi" --trace "$W/tiny.trace" --engine warp 2>/dev/null
[ $? -eq 2 ] || bad "linecard --engine warp not refused"
"$BIN" model run --image "$W/tr.lpi" --trace "$W/tiny.trace" --fifo 3 2>/dev/null
[ $? -eq 2 ] || bad "model run --fifo not refused"

# bad usage: exit 2 with a reason
"$BIN" model verify --image "$W/tr.lpi" 2>/dev/null; [ $? -eq 2 ] || bad "verify without stimulus not refused"
"$BIN" model verify --image "$W/tr.lpi" --trace "$W/tiny.trace" --mutate nonsense 2>/dev/null; [ $? -eq 2 ] ||
  bad "unknown mutation not refused"
"$BIN" model verify --image "$W/tl.lpi" --trace "$W/tiny.trace" --issue-width 2 2>/dev/null; [ $? -eq 2 ] ||
  bad "linear with issue width 2 and one port not refused"
"$BIN" model verify --image "$W/tr.lpi" --trace "$W/tiny.trace" --result-fifo 16 2>"$W/err"; [ $? -eq 2 ] &&
  grep -q "linear pipeline" "$W/err" || bad "a ring under the credit rules not refused: $(cat "$W/err")"
"$BIN" model run --image "$W/tr.lpi" --trace "$W/tiny.trace" --hop-cycles 2 --queue 0 2>/dev/null; [ $? -eq 2 ] ||
  bad "hop cycles 2 without queues not refused"
"$BIN" model run --image "$W/none.lpi" --trace "$W/tiny.trace" 2>/dev/null; [ $? -ne 0 ] || bad "missing image not refused"
"$BIN" model frob 2>/dev/null; [ $? -eq 2 ] || bad "unknown subcommand not refused"

# ---- real-table subsets (different tables from the RTL tests') ----
# cosim_real WHAT ARGS...: the co-simulation on a real table, without and with
# the table's bubbles ($W/*.bub beside the image); opt-in, as a cold Verilator
# build of a 24-stage design takes minutes on 2 cores (docs/models.md)
cosim_real() {
  local what=$1; shift
  if [ -z "${LPMPIPE_COSIM_REAL:-}" ] || ! command -v verilator >/dev/null 2>&1; then
    echo "SKIP: co-simulation on $what (set LPMPIPE_COSIM_REAL=1; needs verilator)"
    return
  fi
  local img=$2 out
  for upd in "" "--updates ${img%.lpi}.bub --update-rate 2000000"; do
    out=$("$BIN" model verify "$@" $upd --cosim --json 2>"$W/err") || bad "cosim $what $upd: exit $?: $(head -4 "$W/err")"
    echo "cosim $what ${upd:+with bubbles}: $out"
    echo "$out" | grep -q "$cosim_ok" || bad "cosim $what $upd: $out"
    echo "$out" | grep -q '"mismatches":0}' || bad "cosim $what $upd: $out"
  done
}
if [ -z "$DATA" ]; then
  echo "SKIP: ../shared/data is absent: no real-table model checks"
  exit $fail
fi
if [ -f "$DATA/routeviews-pfx2as-v4-2020-02.txt.xz" ] && [ -f "$DATA/linx-update-20141217-p52.txt" ]; then
  xz -dc "$DATA/routeviews-pfx2as-v4-2020-02.txt.xz" | awk 'NR % 80 == 11' | head -10000 >"$W/v4.fib"
  "$BIN" map --fib "$W/v4.fib" --stages 24 --stride 2 --initial-stride 12 -o "$W/v4r.lpi" >/dev/null || bad "map v4 ring"
  "$BIN" trace gen --fib "$W/v4.fib" --kind random-match --count 20000 --seed 9 -o "$W/v4.trace" || bad "trace v4"
  head -3000 "$DATA/linx-update-20141217-p52.txt" >"$W/v4.upd"
  "$BIN" update --image "$W/v4r.lpi" --updates "$W/v4.upd" --bubbles "$W/v4r.bub" >/dev/null || bad "update v4"
  verify "routeviews v4 10K, ring 24, queue 32, reference" --image "$W/v4r.lpi" --trace "$W/v4.trace" --queue 32
  verify "routeviews v4 10K, ring 24, queue 32, LINX bubbles" --image "$W/v4r.lpi" --trace "$W/v4.trace" --queue 32 \
    --updates "$W/v4r.bub" --update-rate 2000000
  verify "routeviews v4 10K, ring 24, queue 32, width 4, 2 ports, D 3, bubbles" --image "$W/v4r.lpi" \
    --trace "$W/v4.trace" --queue 32 --issue-width 4 --ports 2 --hop-cycles 3 --updates "$W/v4r.bub" --update-rate 2000000
  cosim_real "routeviews v4 10K, ring 24, queue 32" --image "$W/v4r.lpi" --trace "$W/v4.trace" --queue 32
else
  echo "SKIP: routeviews-pfx2as-v4-2020-02.txt.xz or linx-update-20141217-p52.txt absent"
fi
if [ -f "$DATA/linx-rib6-20141225-p69.txt" ]; then
  awk 'NR % 2 == 1' "$DATA/linx-rib6-20141225-p69.txt" >"$W/v6.fib"
  "$BIN" map --fib "$W/v6.fib" --arch linear --stride 4 --initial-stride 16 --headroom 50 --stages 28 \
    -o "$W/v6l.lpi" >/dev/null || bad "map v6 linear"
  "$BIN" trace updates --fib "$W/v6.fib" --count 300 --seed 4 -o "$W/v6.upd" || bad "updates v6"
  "$BIN" update --image "$W/v6l.lpi" --updates "$W/v6.upd" --bubbles "$W/v6l.bub" >/dev/null || bad "update v6"
  verify "LINX v6, linear, queue 4, reference" --image "$W/v6l.lpi" --gen random-match --count 20000 --seed 9 --queue 4
  verify "LINX v6, linear, queue 4, bubbles" --image "$W/v6l.lpi" --gen random-match --count 20000 --seed 9 \
    --queue 4 --updates "$W/v6l.bub" --update-rate 2000000
  verify "LINX v6, linear, 2 ports, width 2, D 1, bubbles" --image "$W/v6l.lpi" --gen random-match --count 20000 \
    --seed 9 --queue 4 --ports 2 --issue-width 2 --hop-cycles 1 --updates "$W/v6l.bub" --update-rate 2000000
  cosim_real "LINX v6, linear, queue 4" --image "$W/v6l.lpi" --gen random-match --count 20000 --seed 9 --queue 4
else
  echo "SKIP: linx-rib6-20141225-p69.txt absent"
fi
exit $fail
