#!/usr/bin/env bash
# lpmpipe rtl end to end: the generated Verilog is lint clean and
# deterministic, and `rtl verify` finds it cycle-equal to the simulator (and
# every answer equal to the reference LPM) on hand-built tiny tables and on
# 10K-prefix subsets of the real IPv4 and IPv6 tables: ring and linear,
# queues 0, 4 and 32, with and without update bubbles. A planted fault
# (--mutate queue-beats-pass) must make verify fail; Icarus Verilog must give
# the Verilator results. Verilator builds are cached in $LPMPIPE_BUILD/rtl-cache.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
DATA=${LPMPIPE_DATA:-}
W=$(mktemp -d /tmp/lpmpipe-e2e-rtl.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
export LPMPIPE_RTL_CACHE=${LPMPIPE_RTL_CACHE:-${LPMPIPE_BUILD:-$PWD/build}/rtl-cache}

if ! "$BIN" rtl --help >/dev/null 2>&1; then
  echo "SKIP: lpmpipe rtl is not built"
  exit 77
fi
if ! command -v verilator >/dev/null; then
  echo "SKIP: verilator is not installed: no RTL checks"
  exit 77
fi

# verify IMG ARGS...: must pass with 0 mismatches on every lookup
verify() {
  local what=$1; shift
  local out
  out=$("$BIN" rtl verify "$@" --json 2>"$W/err")
  local rc=$?
  if [ $rc -ne 0 ]; then bad "$what: exit $rc: $(grep -v '^  ' "$W/err" | head -3)"; return; fi
  echo "$out" | grep -q '"mismatches":0}' || bad "$what: $out"
  echo "$out" | grep -q '"cycle_mismatches":0,' || bad "$what: cycle log differs: $out"
  echo "$what: $out"
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
# height mapping: DIT entries name later first stages, which every lookup
# reaches by entering at stage 0 and riding (docs/microarchitecture.md)
"$BIN" map --fib "$W/tiny.fib" --arch linear --mapping height --stride 2 --initial-stride 4 -o "$W/tl.lpi" >/dev/null ||
  bad "map tiny linear"
"$BIN" update --image "$W/tr.lpi" --updates "$W/tiny.upd" --bubbles "$W/tr.bub" >/dev/null || bad "update tiny ring"
"$BIN" update --image "$W/tl.lpi" --updates "$W/tiny.upd" --bubbles "$W/tl.bub" >/dev/null || bad "update tiny linear"
"$BIN" trace gen --fib "$W/tiny.fib" --kind random-match --count 3000 --seed 5 -o "$W/tiny.trace" || bad "trace tiny"

# generated text: deterministic, lint clean (ring and linear)
"$BIN" rtl --image "$W/tr.lpi" -o "$W/g1" --queue 4 --issue-width 2 --rob 8 >/dev/null || bad "rtl generate"
"$BIN" rtl --image "$W/tr.lpi" -o "$W/g2" --queue 4 --issue-width 2 --rob 8 >/dev/null || bad "rtl generate again"
diff -r "$W/g1" "$W/g2" >/dev/null || bad "generated folders differ between two runs"
head -1 "$W/g1/lpm_top.v" | grep -q 'image tr.lpi: ring, 4 stages' || bad "header does not name the image: $(head -1 "$W/g1/lpm_top.v")"
grep -q -- '--queue 4 --issue-width 2 --rob 8' "$W/g1/lpm_top.v" || bad "header does not name the options"
make -s -C "$W/g1" lint >"$W/lint" 2>&1 || bad "verilator lint (ring): $(head -5 "$W/lint")"
"$BIN" rtl --image "$W/tl.lpi" -o "$W/g3" --queue 0 >/dev/null || bad "rtl generate linear"
make -s -C "$W/g3" lint >"$W/lint" 2>&1 || bad "verilator lint (linear): $(head -5 "$W/lint")"

# bad options: exit 2 with a reason
"$BIN" rtl --image "$W/tl.lpi" -o "$W/x" --issue-width 2 2>/dev/null; [ $? -eq 2 ] || bad "linear with issue width 2 not refused"
"$BIN" rtl --image "$W/tr.lpi" -o "$W/x" --mutate nonsense 2>/dev/null; [ $? -eq 2 ] || bad "unknown mutation not refused"
"$BIN" rtl --image "$W/nonexistent.lpi" -o "$W/x" 2>/dev/null; [ $? -ne 0 ] || bad "missing image not refused"
"$BIN" rtl verify --image "$W/tr.lpi" 2>/dev/null; [ $? -eq 2 ] || bad "verify without stimulus not refused"
# cycle rules the generator does not implement yet: refused, never compared
for opt in "--hop-cycles 2" "--ports 2"; do
  "$BIN" rtl --image "$W/tr.lpi" -o "$W/x" $opt 2>"$W/err"; [ $? -eq 2 ] && grep -q "one-cycle rules" "$W/err" ||
    bad "rtl $opt not refused: $(cat "$W/err")"
  "$BIN" rtl verify --image "$W/tr.lpi" --trace "$W/tiny.trace" $opt 2>"$W/err"; [ $? -eq 2 ] && grep -q "one-cycle rules" "$W/err" ||
    bad "rtl verify $opt not refused: $(cat "$W/err")"
done
grep -qx '#define TB_LOG_HEADER "# lpmpipe sim cycle log v2: stages=4 ring queue=4 width=2 rob=8 lookahead=0 hop=1 ports=1"' "$W/g1/tb_cfg.h" ||
  bad "tb_cfg.h: cycle log header: $(grep TB_LOG_HEADER "$W/g1/tb_cfg.h")"

# the matrix on the tiny tables
verify "tiny ring, queue 4, width 2, rob 8, bubbles" --image "$W/tr.lpi" --trace "$W/tiny.trace" \
  --queue 4 --issue-width 2 --rob 8 --updates "$W/tr.bub" --update-rate 700000
verify "tiny ring, queue 0, Icarus too" --image "$W/tr.lpi" --trace "$W/tiny.trace" --queue 0 --icarus
verify "tiny linear, queue 4, bubbles" --image "$W/tl.lpi" --trace "$W/tiny.trace" --queue 4 \
  --updates "$W/tl.bub" --update-rate 700000

# the mutation test: a planted fault must be caught, naming the first cycle
"$BIN" rtl verify --image "$W/tr.lpi" --trace "$W/tiny.trace" --queue 4 --issue-width 2 --rob 8 \
  --mutate queue-beats-pass >"$W/mut.out" 2>"$W/mut.err"
rc=$?
if [ $rc -ne 1 ]; then
  bad "mutation queue-beats-pass: verify exit $rc, expected 1 (the comparison cannot fail?)"
else
  grep -q 'first at cycle [0-9]' "$W/mut.err" || bad "mutation: no first differing cycle named"
  echo "mutation test: $(cat "$W/mut.out"); $(grep 'first at cycle' "$W/mut.err")"
fi

# ---- 10K-prefix subsets of real tables ----
if [ -z "$DATA" ]; then
  echo "SKIP: ../shared/data is absent: no real-table RTL checks"
else
  if [ -f "$DATA/tier1-2024.v4.txt.xz" ]; then
    xz -dc "$DATA/tier1-2024.v4.txt.xz" | awk 'NR % 90 == 7' | head -10000 >"$W/v4.fib"
    "$BIN" map --fib "$W/v4.fib" --stages 8 --stride 2 --initial-stride 12 -o "$W/v4r.lpi" >/dev/null || bad "map v4 ring"
    "$BIN" trace gen --fib "$W/v4.fib" --kind random-match --count 20000 --seed 9 -o "$W/v4.trace" || bad "trace v4"
    "$BIN" trace updates --fib "$W/v4.fib" --count 200 --seed 4 -o "$W/v4.upd" || bad "updates v4"
    "$BIN" update --image "$W/v4r.lpi" --updates "$W/v4.upd" --bubbles "$W/v4r.bub" >/dev/null || bad "update v4"
    verify "tier1 v4 10K, ring 8, queue 32, bubbles" --image "$W/v4r.lpi" --trace "$W/v4.trace" --queue 32 \
      --updates "$W/v4r.bub" --update-rate 2000000
    verify "tier1 v4 10K, ring 8, queue 32, reference" --image "$W/v4r.lpi" --trace "$W/v4.trace" --queue 32
  else
    echo "SKIP: tier1-2024.v4.txt.xz absent"
  fi
  if [ -f "$DATA/tier1-2024.v6.txt.xz" ]; then
    xz -dc "$DATA/tier1-2024.v6.txt.xz" | awk 'NR % 16 == 3' | head -10000 >"$W/v6.fib"
    "$BIN" map --fib "$W/v6.fib" --arch linear --stride 4 --initial-stride 16 -o "$W/v6l.lpi" >/dev/null || bad "map v6 linear"
    "$BIN" trace updates --fib "$W/v6.fib" --count 200 --seed 4 -o "$W/v6.upd" || bad "updates v6"
    # Update 181 needs a stage after the last (a rebuild); an image without a
    # shadow copy cannot take a rebuild as bubbles (update stops there with
    # exit 1), and rtl does not take shadow images yet: the first 180.
    head -n 180 "$W/v6.upd" >"$W/v6.180.upd"
    "$BIN" update --image "$W/v6l.lpi" --updates "$W/v6.180.upd" --bubbles "$W/v6l.bub" >/dev/null || bad "update v6"
    verify "tier1 v6 10K, linear, queue 4, bubbles" --image "$W/v6l.lpi" --gen random-match --count 20000 \
      --seed 9 --queue 4 --updates "$W/v6l.bub" --update-rate 2000000
    verify "tier1 v6 10K, linear, queue 4, reference" --image "$W/v6l.lpi" --gen random-match --count 20000 \
      --seed 9 --queue 4
  else
    echo "SKIP: tier1-2024.v6.txt.xz absent"
  fi
fi
exit $fail
