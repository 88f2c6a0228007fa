#!/usr/bin/env bash
# lpmpipe rtl end to end (the hardware cycle rules, --hop-cycles 2 or more):
# the generated Verilog is lint clean and deterministic, and `rtl verify`
# finds it cycle-equal to the simulator (and every answer equal to the
# reference LPM) with bubbles, request gaps (--load) and result
# back-pressure (--result-ready), ring and linear, one and two ports; on
# hand-built tiny tables, and on held-out real tables: a 24-stage ring with
# queue 32 (routeviews IPv4 with the real LINX update trace), a linear
# pipeline with update bubbles (LINX IPv6) and two ports. Four planted
# faults (queue order, queue capacity, bubble write address, a swap that
# does not wait for the bubbles before it) must make verify fail, and a
# fifth (lpm_top's registered busy falling early) the testbench's check; images
# with a shadow copy take rebuilds (fence, drain, swap) in the stream
# (tiny tables, and the routeviews ring with one rebuild); Icarus Verilog
# must give the Verilator results (with
# bubbles), and so must the Yosys iCE40 netlist of a small pipeline.
#
# Run time (issue 11: within 5 minutes of make test on 2 cores). Almost all
# of it is compiling the Verilated C++ (15-30 MB for a 24-stage ring), not
# running it (20,000 lookups take a second), so: (1) the testbenches are
# compiled with gcc -O0 instead of Verilator's -Os (half the CPU time; the
# model is the same Verilog, only slower to run, which these short runs do
# not feel): $VERILATOR passes OPT_FAST/OPT_SLOW/OPT_GLOBAL to Verilator's
# make, and the builds go to their own cache, $LPMPIPE_BUILD/rtl-cache-O0,
# so that make bench and the demo never time a -O0 model; the default
# flags are built by e2e/model, e2e/mapper_v6 and docs-check's rtl-verify
# row. (2) Independent parts run two at a time (the tiny tables, the gate
# level and IPv6 in one lane, the routeviews ring in the other), each in
# its own scratch folder, their logs printed in order at the end. Every
# verify of the same generated Verilog shares one build (the cache is keyed
# by the files' content). Every real-table row of the Done-when list stays
# here; reports/rtl-verify.json (docs/results-rtl.md section 1) runs them
# at the default build flags.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
DATA=${LPMPIPE_DATA:-}
W=$(mktemp -d /tmp/lpmpipe-e2e-rtl.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
T=$W # the scratch folder of the running part (each lane sets its own)
bad() { echo "FAIL: $*"; echo "$*" >>"$W/failed"; fail=1; }
export LPMPIPE_RTL_CACHE=${LPMPIPE_RTL_CACHE:-${LPMPIPE_BUILD:-$PWD/build}/rtl-cache-O0}
export VERILATOR=${VERILATOR:-verilator -MAKEFLAGS OPT_FAST=-O0 -MAKEFLAGS OPT_SLOW=-O0 -MAKEFLAGS OPT_GLOBAL=-O0}

if ! "$BIN" rtl --help >/dev/null 2>&1; then
  echo "SKIP: lpmpipe rtl is not built"
  exit 77
fi
if ! command -v verilator >/dev/null; then
  echo "SKIP: verilator is not installed: no RTL checks"
  exit 77
fi

# verify WHAT ARGS...: must pass with 0 mismatches on every lookup
verify() {
  local what=$1; shift
  local out
  out=$("$BIN" rtl verify "$@" --json 2>"$T/err")
  local rc=$?
  if [ $rc -ne 0 ]; then bad "$what: exit $rc: $(grep -v '^  ' "$T/err" | head -3)"; return; fi
  echo "$out" | grep -q '"mismatches":0}' || bad "$what: $out"
  echo "$out" | grep -q '"cycle_mismatches":0,' || bad "$what: cycle log differs: $out"
  echo "$what: $out"
  last=$out
}

# fault NAME WHAT ARGS...: a planted fault must make verify fail (exit 1), naming the first cycle
fault() {
  local name=$1 what=$2; shift 2
  "$BIN" rtl verify "$@" --mutate "$name" >"$T/mut.out" 2>"$T/mut.err"
  local rc=$?
  if [ $rc -ne 1 ]; then
    bad "planted fault $name ($what): verify exit $rc, expected 1 (the comparison cannot fail?)"
  else
    grep -q 'first at cycle [0-9]' "$T/mut.err" || bad "fault $name: no first differing cycle named"
    echo "planted fault $name ($what): caught: $(cat "$T/mut.out"); $(grep 'first at cycle' "$T/mut.err")"
  fi
}

# ---- hand-built tiny table: nested prefixes, a /32, a default route ----
cat >"$W/tiny.fib" <<'EOF'
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
EOF
cat >"$W/tiny.upd" <<'EOF'
0.001 a 10.1.3.0/24 x
0.002 a 10.1.2.64/26 y
0.003 w 10.1.2.128/25
0.004 a 192.168.11.0/24 z
0.005 w 172.16.0.0/12
0.006 a 10.128.0.0/9 q
EOF
"$BIN" map --fib "$W/tiny.fib" --stages 4 --stride 2 --initial-stride 4 -o "$W/tr.lpi" >/dev/null || bad "map tiny ring"
# height mapping: DIT entries and J words name later stages, which every
# lookup reaches by entering at stage 0 and riding (docs/microarchitecture.md)
"$BIN" map --fib "$W/tiny.fib" --arch linear --mapping height --stride 2 --initial-stride 4 -o "$W/tl.lpi" >/dev/null ||
  bad "map tiny linear"
"$BIN" update --image "$W/tr.lpi" --updates "$W/tiny.upd" --bubbles "$W/tr.bub" >/dev/null || bad "update tiny ring"
"$BIN" update --image "$W/tl.lpi" --updates "$W/tiny.upd" --bubbles "$W/tl.bub" >/dev/null || bad "update tiny linear"
"$BIN" trace gen --fib "$W/tiny.fib" --kind random-match --count 3000 --seed 5 -o "$W/tiny.trace" || bad "trace tiny"
# uniform addresses: most are answered by the DIT (the default route), the rest walk
"$BIN" trace gen --fib "$W/tiny.fib" --kind uniform --count 3000 --seed 7 -o "$W/tinyu.trace" || bad "trace tiny uniform"

lint() {
  "$BIN" rtl --image "$@" -o "$T/gl" >/dev/null || { bad "rtl generate $*"; return; }
  make -s -C "$T/gl" lint >"$T/lint" 2>&1 || bad "verilator lint ($*): $(head -5 "$T/lint")"
  grep -q '%Warning' "$T/lint" && bad "verilator lint warnings ($*): $(grep -m3 '%Warning' "$T/lint")"
  rm -rf "$T/gl"
}
# bad options: exit 2 with a reason
refused() { local why=$1; shift; "$BIN" rtl "$@" 2>"$T/err"; [ $? -eq 2 ] && grep -q -- "$why" "$T/err" || bad "rtl $* not refused ($why): $(cat "$T/err")"; }
# verify_rb WHAT ARGS...: as verify, and every bubble (six swaps among them) applied, fence and drain waits included
verify_rb() {
  local what=$1; shift
  verify "$what" "$@" --build-dir "$T/rb"
  grep -q '"left":0,"wait_cycles"' "$T/rb/sim.json" && grep -q '"swaps":6,' "$T/rb/sim.json" &&
    grep -q '"swap_crc_mismatches":0' "$T/rb/sim.json" || bad "$what: the simulator did not apply every rebuild: $(cat "$T/rb/sim.json")"
  grep -q '"drain_wait_cycles":0,' "$T/rb/sim.json" && bad "$what: no swap waited for a drain (the gate is not exercised)"
  echo "$last" | grep -q '"swaps":6,"swaps_checked":6,"swap_crc_mismatches":0,"copy_violations":0}' ||
    bad "$what: rtl verify --json lacks the simulator's six swaps: $last"
  rm -rf "$T/rb"
}

# ---- the parts: each writes into its own scratch folder $T (the inputs above are shared, read only) ----

# the tiny tables: generated text, lint, refusals, the matrix, the planted faults, shadow copies, memories as parts
part_tiny() {
# generated text: deterministic, lint clean (ring, linear, two ports, D = 3)
"$BIN" rtl --image "$W/tr.lpi" -o "$T/g1" --queue 4 --issue-width 2 >/dev/null || bad "rtl generate"
"$BIN" rtl --image "$W/tr.lpi" -o "$T/g2" --queue 4 --issue-width 2 >/dev/null || bad "rtl generate again"
diff -r "$T/g1" "$T/g2" >/dev/null || bad "generated folders differ between two runs"
head -1 "$T/g1/lpm_top.v" | grep -q 'image tr.lpi: ring, 4 stages' || bad "header does not name the image: $(head -1 "$T/g1/lpm_top.v")"
grep -q -- '--hop-cycles 2 --ports 1 --queue 4 --issue-width 2' "$T/g1/lpm_top.v" || bad "header does not name the options"
grep -qx '#define TB_LOG_HEADER "# lpmpipe sim cycle log v2: stages=4 ring queue=4 width=2 rob=0 lookahead=0 hop=2 ports=1"' "$T/g1/tb_cfg.h" ||
  bad "tb_cfg.h: cycle log header: $(grep TB_LOG_HEADER "$T/g1/tb_cfg.h")"
lint "$W/tr.lpi" --queue 4 --issue-width 2
lint "$W/tr.lpi" --queue 1 --ports 2 --hop-cycles 3
lint "$W/tl.lpi" --queue 4 --ports 2 --issue-width 2
# a linear pipeline builds only queue 0 and the last stage's result lanes
"$BIN" rtl --image "$W/tl.lpi" -o "$T/g3" --queue 4 >/dev/null || bad "rtl generate linear"
grep -q 'localparam NQ = 1;' "$T/g3/lpm_item.vh" || bad "linear: more than one queue"
grep -q 'qhead' "$T/g3/lpm_stage_01.v" && bad "linear: stage 1 has a queue"
# the credit rules (docs/microarchitecture.md 4.1): no queue at all, the control and FIFO of lpm_credit.v
lint "$W/tl.lpi" --result-fifo 16
lint "$W/tl.lpi" --result-fifo 8 --hop-cycles 3
"$BIN" rtl --image "$W/tl.lpi" -o "$T/g4" --result-fifo 16 >/dev/null || bad "rtl generate linear --result-fifo"
grep -q 'qhead' "$T/g4/lpm_stage_00.v" && bad "credit rules: stage 0 has a queue"
grep -q 'lpm_cctl ctl' "$T/g4/lpm_pipe.v" && grep -q 'lpm_rfifo rf' "$T/g4/lpm_pipe.v" || bad "credit rules: no lpm_cctl or lpm_rfifo"
grep -q ' fifo=16"' "$T/g4/tb_cfg.h" || bad "credit rules: the log header lacks fifo=16"
[ -f "$T/g3/lpm_credit.v" ] && bad "window rules: lpm_credit.v written"

# bad options
refused "one-cycle" --image "$W/tr.lpi" -o "$T/x" --hop-cycles 1
refused "at most the ports" --image "$W/tl.lpi" -o "$T/x" --issue-width 2
refused "reorder buffer" --image "$W/tr.lpi" -o "$T/x" --rob 8
refused "queue" --image "$W/tr.lpi" -o "$T/x" --queue 0
refused "unknown fault" --image "$W/tr.lpi" -o "$T/x" --mutate nonsense
refused "not a ring" --image "$W/tr.lpi" -o "$T/x" --result-fifo 16
refused "build no queue" --image "$W/tl.lpi" -o "$T/x" --result-fifo 16 --mutate queue-order
refused "one port" --image "$W/tl.lpi" -o "$T/x" --result-fifo 16 --ports 2
refused "one-cycle" verify --image "$W/tr.lpi" --trace "$W/tiny.trace" --hop-cycles 1
refused "hop cycles 3 or more" --image "$W/tr.lpi" -o "$T/x" --dit-answers queue
refused "hop cycles 3 or more" --image "$W/tr.lpi" -o "$T/x" --dit-answers queue --hop-cycles 3 --issue-width 2
refused "not lane or queue" --image "$W/tr.lpi" -o "$T/x" --dit-answers dit
# one request lane at D >= 3: lpm_ctl3.v's control and (one port) queue; DIT answers through queue 0
"$BIN" rtl --image "$W/tr.lpi" -o "$T/g5" --queue 4 --hop-cycles 3 --dit-answers queue >/dev/null || bad "rtl generate, DIT answers through queue 0"
grep -q 'lpm_ctl3 ctl' "$T/g5/lpm_pipe.v" && grep -q 'lpm_queue3 q' "$T/g5/lpm_pipe.v" && grep -q 'localparam ANSQ = 1;' "$T/g5/lpm_item.vh" ||
  bad "one lane, D 3, --dit-answers queue: not lpm_ctl3 with lpm_queue3 and ANSQ"
grep -q ' answers=queue"' "$T/g5/tb_cfg.h" || bad "--dit-answers queue: the log header lacks answers=queue"
rm -rf "$T/g5"
lint "$W/tr.lpi" --queue 4 --hop-cycles 3 --dit-answers queue
lint "$W/tl.lpi" --queue 4 --hop-cycles 4 --ports 2 --dit-answers queue
"$BIN" rtl --image "$W/nonexistent.lpi" -o "$T/x" 2>/dev/null; [ $? -ne 0 ] || bad "missing image not refused"
"$BIN" rtl verify --image "$W/tr.lpi" 2>/dev/null; [ $? -eq 2 ] || bad "verify without stimulus not refused"

# the matrix on the tiny tables
verify "tiny ring, queue 4, bubbles, Icarus too" --image "$W/tr.lpi" --trace "$W/tiny.trace" --queue 4 \
  --updates "$W/tr.bub" --update-rate 700000 --icarus
verify "tiny ring, 2 ports, width 2, queue 2, load 1.5, result port ready 0.5" --image "$W/tr.lpi" \
  --trace "$W/tiny.trace" --queue 2 --ports 2 --issue-width 2 --load 1.5 --result-ready 0.5
verify "tiny ring, D 3, width 3, queue 7, bubbles, result port ready 0.2" --image "$W/tr.lpi" --trace "$W/tiny.trace" \
  --queue 7 --issue-width 3 --hop-cycles 3 --updates "$W/tr.bub" --update-rate 2000000 --result-ready 0.2
# one request lane at D >= 3: lpm_ctl3.v's control (items made before the window)
verify "tiny ring, D 3, one lane (lpm_ctl3), DIT answers through queue 0, uniform, bubbles, load 0.7, ready 0.6, Icarus too" \
  --image "$W/tr.lpi" --trace "$W/tinyu.trace" --queue 4 --hop-cycles 3 --dit-answers queue --updates "$W/tr.bub" \
  --update-rate 5000000 --load 0.7 --result-ready 0.6 --icarus --build-dir "$T/aq"
grep -Eq '"dit_answers":[1-9][0-9]{2,}' "$T/aq/sim.json" || bad "--dit-answers queue: the DIT answered too few: $(grep -o '"dit_answers":[0-9]*' "$T/aq/sim.json")"
rm -rf "$T/aq"
verify "tiny linear, D 4, one lane (lpm_ctl3), 2 ports, DIT answers through queue 0, uniform, bubbles, ready 0.5" \
  --image "$W/tl.lpi" --trace "$W/tinyu.trace" --queue 4 --hop-cycles 4 --ports 2 --dit-answers queue --updates "$W/tl.bub" \
  --update-rate 3000000 --result-ready 0.5
verify "tiny linear, queue 4, bubbles, load 0.3, Icarus too" --image "$W/tl.lpi" --trace "$W/tiny.trace" --queue 4 \
  --updates "$W/tl.bub" --update-rate 700000 --load 0.3 --icarus
verify "tiny linear, 2 ports, width 2, bubbles, result port ready 0.4" --image "$W/tl.lpi" --trace "$W/tiny.trace" \
  --queue 4 --ports 2 --issue-width 2 --updates "$W/tl.bub" --update-rate 700000 --result-ready 0.4
verify "tiny linear, credit rules (16), bubbles, load 0.6, result port ready 0.4, Icarus too" --image "$W/tl.lpi" \
  --trace "$W/tiny.trace" --result-fifo 16 --updates "$W/tl.bub" --update-rate 3000000 --load 0.6 --result-ready 0.4 --icarus
# --timing (make bench's sim / Verilator ratio): the same model again (the build cache hits), timed
verify "tiny linear, 2 ports, width 2, bubbles, result port ready 0.4, --timing" --image "$W/tl.lpi" \
  --trace "$W/tiny.trace" --queue 4 --ports 2 --issue-width 2 --updates "$W/tl.bub" --update-rate 700000 \
  --result-ready 0.4 --timing
echo "$last" | grep -Eq '"timing":\{"runs":3,"sim_cycles_per_s":[0-9.e+]*[1-9][0-9.e+]*,"rtl_cycles_per_s":[0-9.e+]*[1-9][0-9.e+]*,"ratio":[0-9.]+' ||
  bad "rtl verify --timing: no timing figures: $last"

# the planted faults: each must be caught (the queue faults: part_queue_faults)
fault bubble-address "ring, D 3, one lane (lpm_ctl3), with updates" --image "$W/tr.lpi" --trace "$W/tiny.trace" --queue 4 \
  --hop-cycles 3 --updates "$W/tr.bub" --update-rate 700000
fault bubble-address "linear, with updates" --image "$W/tl.lpi" --trace "$W/tiny.trace" --queue 4 \
  --updates "$W/tl.bub" --update-rate 700000
fault bubble-address "linear, credit rules, with updates" --image "$W/tl.lpi" --trace "$W/tiny.trace" --result-fifo 16 \
  --updates "$W/tl.bub" --update-rate 700000
# lpm_top's registered busy is not in the cycle log: the testbench checks it against the exact flag
"$BIN" rtl verify --image "$W/tr.lpi" --trace "$W/tiny.trace" --queue 4 --load 0.3 --mutate busy-early \
  >"$T/mut.out" 2>"$T/mut.err"
rc=$?
if [ $rc -eq 1 ] && grep -q 'the registered busy is low while items are in flight' "$T/mut.err"; then
  echo "planted fault busy-early (ring, load 0.3): caught: $(grep -o 'cycle [0-9]*: the registered busy[^$]*' "$T/mut.err" | head -1)"
else
  bad "planted fault busy-early: verify exit $rc, not caught by the testbench's busy check"
fi

# ---- shadow copies: rebuilds as bubble streams into the inactive copy, then a swap ----
# (docs/microarchitecture.md 3.1: fence, drain, swap; the RTL's DIT select and counters)
"$BIN" map --fib "$W/tiny.fib" --stages 4 --stride 2 --initial-stride 4 --shadow -o "$T/trs.lpi" >/dev/null || bad "map tiny ring shadow"
# a rebuild after every update: every one of the six is a rebuild stream ending in a swap
"$BIN" update --image "$T/trs.lpi" --updates "$W/tiny.upd" --rebuild-every 1 --bubbles "$T/trs.bub" >/dev/null || bad "update trs"
[ "$(grep -c ' swap$' "$T/trs.bub")" -eq 6 ] || bad "the ring's shadow bubble file lacks its six swaps"
lint "$T/trs.lpi" --queue 4 --issue-width 2
verify_rb "tiny ring shadow, six rebuilds, Icarus too" --image "$T/trs.lpi" --trace "$W/tiny.trace" --queue 4 \
  --updates "$T/trs.bub" --update-rate 3000000 --icarus
verify_rb "tiny ring shadow, six rebuilds, D 3, 2 ports, width 3, ready 0.4" --image "$T/trs.lpi" --trace "$W/tiny.trace" \
  --queue 7 --issue-width 3 --hop-cycles 3 --ports 2 --result-ready 0.4 --updates "$T/trs.bub" --update-rate 3000000
verify_rb "tiny ring shadow, six rebuilds, D 3, one lane (lpm_ctl3), ready 0.7" --image "$T/trs.lpi" \
  --trace "$W/tiny.trace" --queue 4 --hop-cycles 3 --result-ready 0.7 --updates "$T/trs.bub" --update-rate 3000000
fault swap-early "ring shadow, six rebuilds" --image "$T/trs.lpi" --trace "$W/tiny.trace" --queue 4 --updates "$T/trs.bub"
refused "shadow copy" --image "$W/tr.lpi" -o "$T/x" --mutate swap-early
}

# the planted queue faults: each must be caught
part_queue_faults() {
fault queue-order "ring, queue 4" --image "$W/tr.lpi" --trace "$W/tiny.trace" --queue 4
fault queue-capacity "ring, queue 4" --image "$W/tr.lpi" --trace "$W/tiny.trace" --queue 4
fault queue-capacity "ring, D 3, one lane (lpm_ctl3)" --image "$W/tr.lpi" --trace "$W/tiny.trace" --queue 4 --hop-cycles 3
}

# the linear pipeline's shadow copy: six rebuilds under the window and the credit rules
part_shadow_linear() {
"$BIN" map --fib "$W/tiny.fib" --arch linear --mapping height --stride 2 --initial-stride 4 --shadow -o "$T/tls.lpi" \
  >/dev/null || bad "map tiny linear shadow"
"$BIN" update --image "$T/tls.lpi" --updates "$W/tiny.upd" --rebuild-every 1 --bubbles "$T/tls.bub" >/dev/null || bad "update tls"
[ "$(grep -c ' swap$' "$T/tls.bub")" -eq 6 ] || bad "the linear shadow bubble file lacks its six swaps"
lint "$T/tls.lpi" --queue 4 --ports 2 --issue-width 2
verify_rb "tiny linear height shadow, six rebuilds, load 0.5" --image "$T/tls.lpi" --trace "$W/tiny.trace" --queue 4 \
  --updates "$T/tls.bub" --update-rate 3000000 --load 0.5
verify_rb "tiny linear height shadow, credit rules (20), six rebuilds, D 3, ready 0.4" --image "$T/tls.lpi" \
  --trace "$W/tiny.trace" --result-fifo 20 --hop-cycles 3 --result-ready 0.4 --updates "$T/tls.bub" --update-rate 3000000
}

# memories held as parts (block-RAM shapes): a 20-bit word as 18 + 2 bits, bubbles write both
part_parts() {
"$BIN" fib gen --family 4 --count 3000 --seed 1 -o "$T/f3k.fib" || bad "fib gen 3000"
"$BIN" map --fib "$T/f3k.fib" --stages 4 --stride 2 --initial-stride 10 -o "$T/r3k.lpi" >/dev/null || bad "map r3k"
"$BIN" trace updates --fib "$T/f3k.fib" --count 200 --seed 4 -o "$T/f3k.upd" || bad "updates f3k"
"$BIN" update --image "$T/r3k.lpi" --updates "$T/f3k.upd" --bubbles "$T/r3k.bub" >/dev/null || bad "update r3k"
"$BIN" rtl --image "$T/r3k.lpi" -o "$T/g3k" --queue 4 >/dev/null || bad "rtl r3k"
grep -q '^stage_00 [0-9]* 20 18 2$' "$T/g3k/memories.txt" && [ -s "$T/g3k/stage_00_part_1.hex" ] ||
  bad "r3k: stage 0 is not held as 18 + 2 bits: $(grep stage_00 "$T/g3k/memories.txt")"
rm -rf "$T/g3k"
lint "$T/r3k.lpi" --queue 4 --ports 2 --issue-width 2 --hop-cycles 3
verify "3000 synthetic routes, ring 4, memories as 18 + 2 bits, 200 updates, Icarus too" --image "$T/r3k.lpi" \
  --gen random-match --count 2000 --seed 3 --queue 4 --updates "$T/r3k.bub" --update-rate 20000000 --icarus
}

# the gate level: the Yosys iCE40 netlist under Icarus with the cell models
part_gate() {
if command -v yosys >/dev/null && command -v iverilog >/dev/null; then
  "$BIN" trace gen --fib "$W/tiny.fib" --kind random-match --count 400 --seed 6 -o "$T/gate.trace" || bad "trace gate"
  out=$("$BIN" rtl verify --image "$W/tr.lpi" --trace "$T/gate.trace" --queue 4 --updates "$W/tr.bub" \
    --update-rate 20000000 --result-ready 0.5 --gate --json 2>"$T/err")
  echo "$out" | grep -q '"gate":"same"' && echo "$out" | grep -q '"mismatches":0}' ||
    bad "gate level: $out $(grep -v '^  ' "$T/err" | head -3)"
  echo "gate level (iCE40 netlist, tiny ring with bubbles, ready 0.5): $out"
  out=$("$BIN" rtl verify --image "$W/tr.lpi" --trace "$T/gate.trace" --queue 4 --hop-cycles 3 --updates "$W/tr.bub" \
    --update-rate 20000000 --result-ready 0.5 --gate --json 2>"$T/err")
  echo "$out" | grep -q '"gate":"same"' && echo "$out" | grep -q '"mismatches":0}' ||
    bad "gate level, D 3: $out $(grep -v '^  ' "$T/err" | head -3)"
  echo "gate level (iCE40 netlist, tiny ring, D 3, one lane: lpm_ctl3, bubbles, ready 0.5): $out"
else
  echo "SKIP: yosys or iverilog missing: no gate-level check"
fi
}

# ---- held-out real tables (not used while developing the RTL) ----
part_routeviews() {
if [ -f "$DATA/routeviews-pfx2as-v4-2020-02.txt.xz" ] && [ -f "$DATA/linx-update-20141217-p52.txt" ]; then
  # 10000 routes (every 84th line), the first 300 real LINX updates
  xz -dc "$DATA/routeviews-pfx2as-v4-2020-02.txt.xz" | awk 'NR % 84 == 5' | head -10000 >"$T/rv4.fib"
  head -300 "$DATA/linx-update-20141217-p52.txt" >"$T/linx.upd"
  "$BIN" map --fib "$T/rv4.fib" --stages 24 --stride 2 --initial-stride 10 -o "$T/rv4.lpi" >/dev/null || bad "map rv4 ring 24"
  "$BIN" update --image "$T/rv4.lpi" --updates "$T/linx.upd" --bubbles "$T/rv4.bub" >/dev/null || bad "update rv4"
  verify "routeviews v4 10K, ring 24, queue 32, reference" --image "$T/rv4.lpi" --gen random-match \
    --count 20000 --seed 9 --queue 32
  verify "routeviews v4 10K, ring 24, queue 32, LINX update bubbles, result port ready 0.7" --image "$T/rv4.lpi" \
    --gen random-match --count 20000 --seed 9 --queue 32 --updates "$T/rv4.bub" --update-rate 2000000 --result-ready 0.7
  verify "routeviews v4 10K, ring 24, queue 32, 2 ports, width 2" --image "$T/rv4.lpi" --gen random-match \
    --count 20000 --seed 9 --queue 32 --ports 2 --issue-width 2
  # a rebuild in the stream: the same table with a shadow copy, one rebuild after the 150th effective update
  "$BIN" map --fib "$T/rv4.fib" --stages 24 --stride 2 --initial-stride 10 --shadow -o "$T/rv4s.lpi" >/dev/null ||
    bad "map rv4 shadow"
  "$BIN" update --image "$T/rv4s.lpi" --updates "$T/linx.upd" --rebuild-every 150 --bubbles "$T/rv4s.bub" >/dev/null ||
    bad "update rv4 shadow"
  out=$("$BIN" rtl verify --image "$T/rv4s.lpi" --gen random-match --count 20000 --seed 9 --queue 32 \
    --updates "$T/rv4s.bub" --update-rate 20000000 --build-dir "$T/rb" --json 2>"$T/err")
  echo "$out" | grep -q '"left":0},' && echo "$out" | grep -q '"mismatches":0}' &&
    grep -q '"swaps":[1-9]' "$T/rb/sim.json" && echo "$out" | grep -q '"swaps":1,"swaps_checked":1,' || bad "routeviews v4 shadow with a rebuild: $out $(grep -v '^  ' "$T/err" | head -3)"
  echo "routeviews v4 10K, ring 24, shadow copy, LINX with a rebuild: $out"
  rm -rf "$T/rb"
else
  echo "SKIP: routeviews-pfx2as-v4 or the LINX update trace absent"
fi
}

part_linx6() {
if [ -f "$DATA/linx-rib6-20141225-p69.txt" ]; then
  # 10 stages, two more than the table's levels: generated updates announce prefixes longer than the table's
  # (update 2 needs a 9th stage), and an image without a shadow copy cannot take a rebuild as bubbles
  "$BIN" map --fib "$DATA/linx-rib6-20141225-p69.txt" --arch linear --mapping level --stride 4 --initial-stride 16 \
    --stages 10 -o "$T/l6.lpi" >/dev/null || bad "map linx v6 linear"
  "$BIN" trace updates --fib "$DATA/linx-rib6-20141225-p69.txt" --count 200 --seed 4 -o "$T/l6.upd" || bad "updates v6"
  "$BIN" update --image "$T/l6.lpi" --updates "$T/l6.upd" --bubbles "$T/l6.bub" >/dev/null || bad "update v6"
  verify "LINX v6 20K, linear, queue 4, update bubbles, load 0.8" --image "$T/l6.lpi" --gen random-match \
    --count 20000 --seed 9 --queue 4 --updates "$T/l6.bub" --update-rate 2000000 --load 0.8
  verify "LINX v6 20K, linear, 2 ports, width 2, reference" --image "$T/l6.lpi" --gen random-match \
    --count 20000 --seed 9 --queue 4 --ports 2 --issue-width 2
else
  echo "SKIP: linx-rib6 absent"
fi
}

# lane NAME PART...: the parts one after another in $W/NAME (output in $W/NAME.log)
lane() {
  local name=$1; shift
  mkdir -p "$W/$name"
  ( T=$W/$name; for p in "$@"; do t0=$SECONDS; $p; echo "$p: $((SECONDS - t0)) s"; done ) >"$W/$name.log" 2>&1
}
if [ -z "$DATA" ]; then
  lane a part_tiny &
  lane b part_gate part_parts part_shadow_linear part_queue_faults &
  wait
  cat "$W/a.log" "$W/b.log"
  echo "SKIP: ../shared/data is absent: no real-table RTL checks"
else
  # two lanes of about equal CPU time: the 24-stage ring's three builds, the memories as parts, the linear
  # shadow copy and the queue faults; the tiny tables, the gate level, IPv6
  lane a part_routeviews part_parts part_shadow_linear part_queue_faults &
  lane b part_tiny part_gate part_linx6 &
  wait
  cat "$W/b.log" "$W/a.log"
fi
[ -s "$W/failed" ] && fail=1
exit $fail
