#!/usr/bin/env bash
# lpmpipe rtl synth end to end on the 11-route table of e2e/rtl: the ring
# at D = 2 places on the HX8K and has the three Fmax figures of one run
# (the design, the bare block-RAM loop, the design's datapath alone), each
# ratio the quotient of its medians; the datapath alone has every block RAM
# of the design (the DIT and each stage memory of each lane) and less logic
# than the design; the written Verilog (--write-only for the others) is
# lint clean for a ring, a linear pipeline at D = 3 and two ports; bad
# folders and options are refused.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
ROOT=${LPMPIPE_ROOT:-.}
fail=0
bad() { echo "FAIL: $*"; fail=1; }
for t in yosys nextpnr-ice40 verilator; do
  command -v $t >/dev/null || { echo "SKIP: $t not on the PATH (scripts/deps.sh installs it)"; exit 77; }
done
W=$(mktemp -d /tmp/lpmpipe-e2e-synth.XXXXXX)
trap 'rm -rf "$W"' EXIT
FIB="$ROOT/reports/data/rtl-tiny.fib"

"$BIN" map --fib "$FIB" --stages 4 --stride 2 --initial-stride 4 -o "$W/r.lpi" >"$W/r.map.txt" || bad "map ring"
"$BIN" map --fib "$FIB" --arch linear --mapping level --stride 4 --initial-stride 4 -o "$W/l.lpi" >/dev/null ||
  bad "map linear"
"$BIN" rtl --image "$W/r.lpi" -o "$W/r2" --queue 4 >/dev/null || bad "rtl ring"
"$BIN" rtl --image "$W/l.lpi" -o "$W/l3" --queue 4 --hop-cycles 3 >/dev/null || bad "rtl linear D 3"
"$BIN" rtl --image "$W/r.lpi" -o "$W/p2" --queue 4 --ports 2 --issue-width 2 >/dev/null || bad "rtl ring, 2 ports"

"$BIN" rtl synth "$W/r2" --seeds 1 --json >"$W/r2.json" || bad "rtl synth ring: exit $?"
python3 - "$W/r2.json" "$W/r.map.txt" "$W/r2" <<'EOF' || bad "rtl synth ring: figures (above)"
import glob, json, re, sys
d = json.load(open(sys.argv[1]))
i = d["ice40"]
assert i["placed"] and i["datapath_placed"], i
assert i["logic_cells"] > 0 and i["bram4k"] > 0, i
for k in ("fmax_mhz", "bare_bram_loop_fmax_mhz", "datapath_fmax_mhz"):
    assert i[k] > 0, (k, i)
assert abs(i["ratio"] - i["fmax_mhz"] / i["bare_bram_loop_fmax_mhz"]) < 0.001, i
assert abs(i["datapath_ratio"] - i["datapath_fmax_mhz"] / i["bare_bram_loop_fmax_mhz"]) < 0.001, i
assert i["datapath_fmax_mhz_seeds"] == [i["datapath_fmax_mhz"]], i
# the bare loop's memory is the largest stage memory: its words from the memory files, its width
# from the map's summary ("stage memories  N words x B bits")
words = max(sum(1 for _ in open(f)) for f in glob.glob(sys.argv[3] + "/stage_*.hex"))
bits = int(re.search(r"stage memories .* x (\d+) bits", open(sys.argv[2]).read()).group(1))
assert (i["bare_loop_words"], i["bare_loop_bits"]) == (words, bits), (words, bits, i)
# no control: fewer logic cells than the design it is drawn from
assert 0 < i["datapath_logic_cells"] < i["logic_cells"], i
EOF
grep -q "Max frequency" "$W/r2/nextpnr_datapath.log" || bad "no nextpnr_datapath.log with a frequency"

for g in l3 p2; do
  out=$("$BIN" rtl synth "$W/$g" --write-only) || bad "rtl synth $g --write-only: exit $?"
  [ "$out" = "$W/$g: synth_shell.v, bare_loop.v and datapath_only.v written" ] || bad "--write-only said: $out"
  [ -f "$W/$g/synth_shell.v" ] && [ -f "$W/$g/bare_loop.v" ] || bad "$g: --write-only did not write the shells"
  [ ! -e "$W/$g/synth_xilinx.log" ] || bad "$g: --write-only ran Yosys"
done
# every block RAM of the design: the DIT and N x P stage memories
for g in r2:4:1 l3:7:1 p2:4:2; do
  IFS=: read -r d n p <<<"$g"
  f="$W/$d/datapath_only.v"
  got=$(grep -c 'ram_style = "block"' "$f")
  [ "$got" = $((n * p + 1)) ] || bad "$d: $got block RAMs in datapath_only.v, want $((n * p + 1))"
  grep -q "^// (.*, $n stages, $p lane" "$f" || bad "$d: header does not name $n stages, $p lane(s): $(sed -n 2p "$f")"
  out=$(cd "$W/$d" && verilator --lint-only -Wall datapath_only.v 2>&1) || bad "$d: datapath_only.v not lint clean: $out"
  [ -z "$out" ] || bad "$d: datapath_only.v lint: $out"
done
grep -q "3 cycles a hop" "$W/l3/datapath_only.v" || bad "l3: datapath not at D = 3"
grep -q "^// (linear" "$W/l3/datapath_only.v" || bad "l3: datapath not linear"

"$BIN" rtl synth "$W/nonexistent" >"$W/e.out" 2>&1
[ $? -eq 2 ] && grep -q "tb_cfg.h" "$W/e.out" || bad "a folder rtl did not write: not refused with exit 2: $(cat "$W/e.out")"
"$BIN" rtl synth "$W/nonexistent" --write-only >/dev/null 2>&1
[ $? -eq 2 ] || bad "--write-only on a folder rtl did not write: not refused with exit 2"
"$BIN" rtl synth "$W/r2" --seeds 0 >/dev/null 2>&1
[ $? -eq 2 ] || bad "--seeds 0 not refused with exit 2"
[ $fail -eq 0 ] && echo "rtl synth: PASS"
exit $fail
