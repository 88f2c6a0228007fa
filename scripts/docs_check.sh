#!/usr/bin/env bash
# make docs-check: re-runs a reduced part of every sweep the generated
# tables of docs/results-*.md are drawn from (docs/cli-report.md, "Results
# docs"), into a fresh folder, and compares every re-run cell with the doc
# (scripts/docs_tables.py check: exact text, as the doc prints it; the
# simulator and the mapper are deterministic, so no tolerance is needed;
# columns marked "timing" hold timings of the machine that ran them and
# are checked for shape only: a number where the doc has one).
# Reduced = a subset of each grid at full size: the points the doc shows
# are re-run exactly, the others not. Sweeps on the real tables need
# ../shared/data (else a SKIP line each). Budget: 10 minutes on 2 quiet
# cores (the time and the load average are printed at the end).
#
#   scripts/docs_check.sh [BIN]            the whole check (make docs-check)
#   DOCS_CHECK=quick scripts/docs_check.sh  the part make test runs (under a
#                                          minute): synthetic points only,
#                                          and every marker against reports/
set -u
BIN=${1:-build/lpmpipe}
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
OUT=${DOCS_CHECK_DIR:-build/docs-check}
JOBS=${DOCS_CHECK_JOBS:-2}
MODE=${DOCS_CHECK:-full}
DOCS=(docs/results-*.md)
if [ -z "${LPMPIPE_DATA:-}" ] && [ -d ../shared/data ]; then LPMPIPE_DATA="$(cd ../shared/data && pwd)"; fi
export LPMPIPE_DATA=${LPMPIPE_DATA:-}
t0=$SECONDS
rc=0

# Every marker names a definition of reports/ and renders the doc's header
# and row labels (no records needed).
python3 scripts/docs_tables.py validate "${DOCS[@]}" --defs reports || rc=1
# The docs with no typed figure left stay so: a number in their prose is
# a generated cell, or a quote, parameter or aim said so by a marker.
python3 scripts/docs_tables.py typed --check docs/results-mapping.md docs/results-names.md docs/results-gpu.md docs/results-rtl.md docs/results-cpu.md docs/results-camp.md || rc=1

rm -rf "$OUT"
mkdir -p "$OUT"
R="$OUT/results"
run() { # definition, --only filters...
  local def=$1; shift
  local only=()
  for o in "$@"; do only+=(--only "$o"); done
  "$BIN" report run "reports/$def.json" -o "$R" --jobs "$JOBS" --data "$LPMPIPE_DATA" --quiet "${only[@]}" || rc=1
}
exps=(--exp camp-slide12)
if [ "$MODE" = quick ]; then
  run camp-slide12 queue=16                      # 14 of 112 points: both dispatchers, every burst
else
  run camp-slide12                               # all 112 points (synthetic, seconds each)
  run camp-v2 queue=16                           # 24 of 144: D=1 / D=2 / 2 ports (synthetic)
  exps+=(--exp camp-v2)
  if [ -n "$LPMPIPE_DATA" ]; then
    run camp-slide13 queue=16                    # 8 of 24 points, 1M lookups each
    run camp-slide13-v2 queue=16 lookahead=0     # 8 of 48 (D = 2, one and two ports)
    run camp-real queue=16                       # 16 of 64
    run camp-updates rate=0                      # the base of "LPC lost"
    run camp-updates rate=70000                  # 2 of 8, 3M lookups each
    run camp-updates-v2 rate=0                   # 4 of 16: D = 2, one and two ports, rates 0 and 70K
    run camp-updates-v2 rate=70000
    exps+=(--exp camp-updates-v2)
    run camp-updates-stream                      # 2 points: the linx stream compiled, and all of it at cycle 0 (results-camp.md)
    run camp-sim-speed table=tier1-2024.v4        # 1 of 2: make bench's simulator speed (timings: shape only; results-camp.md)
    run camp-sim-memory                          # 4 points: peak memory against the trace (shape only; results-camp.md)
    run mapping-real "mapping=ring X=8"          # 6 of 48 maps
    run mapping-real "mapping=linear balanced"   # 6 more
    run mapping-loops                            # 3 points: reads and wraps per lookup (results-mapping.md)
    run mapping-overhead x=8                     # 6 of 18: fib tries + map, like-for-like overhead (results-mapping.md)
    run mapping-updates                          # 1 point: the linx trace compiled (results-mapping.md)
    run names-real-tables                        # 2 points: names build --json (results-names.md)
    run names-real "primes=1048573,4194301,16777213 (default)"   # 2 of 6: the default ATA primes
    run gpu-cpu-builds                           # 2 points: CPU builds of GAMT/GALE (results-gpu.md)
    run mapping-v6-split table=linx-rib6         # 15 of 75 maps: IPv6 split section (results-mapping.md)
    run mapping-v6-split-sim table=linx-rib6     # their 15 simulations
    exps+=(--exp mapping-v6-split)
    for d in mapping-split-updates mapping-split-updates-sim mapping-split-updates-balance; do
      run $d "case=tier1 v4, split, linx-update"   # the IPv4 case (results-mapping.md, updates on split)
    done
    exps+=(--exp mapping-split-updates)
    run mapping-scale table=tier1-2024.v4        # 2 of 7 maps (results-mapping.md, Scale, FPGA blocks)
    run mapping-scale table=linx-rib6
    run mapping-scale-sim table=tier1-2024.v4    # 1 of 4: 1M lookups
    exps+=(--exp mapping-scale)
    run names-real-speed "case=zonewalk, average"   # 1 of 4, with the updates (ut1 takes tens of minutes; results-names.md)
    exps+=(--exp names-real-speed)
    if command -v verilator >/dev/null && command -v iverilog >/dev/null; then
      run rtl-verify "case=tiny ring, queue 4, bubbles, Icarus"   # 1 of 11: results-rtl.md section 1
      run long/mapping-scale-rtl table=linx-rib6     # 1 of 5: the small image (results-mapping.md, Scale, RTL)
      run long/rtl-rebuild-doc "mapping=linear, balanced"   # 1 of 4 (under a minute): results-rtl.md's rebuilds table
      exps+=(--exp rtl-verify --exp mapping-scale-rtl --exp rtl-rebuild-doc)
    else
      echo "SKIP: verilator or iverilog missing: results-rtl.md's equivalence table is not re-run"
    fi
    if command -v yosys >/dev/null; then
      run long/mapping-yosys "case=linx-rib6 first 2,000 routes, memories alone, xc7"   # 1 of 6: Yosys on the memories (results-mapping.md)
      exps+=(--exp mapping-yosys)
    else
      echo "SKIP: yosys missing: results-mapping.md's Yosys estimate is not re-run"
    fi
    exps+=(--exp camp-slide13 --exp camp-slide13-v2 --exp camp-real --exp camp-updates --exp camp-updates-stream --exp camp-sim-speed --exp camp-sim-memory --exp mapping-real --exp mapping-loops --exp mapping-overhead --exp mapping-updates --exp names-real-tables --exp names-real --exp gpu-cpu-builds)
    run mapping-rebuilds headroom=10% mapping=height   # 3 of 45: the three traces on one image (results-mapping.md)
    run mapping-rebuilds-whole "trace=bgp4mp first 140,000"   # 1 of 2: the first rebuild (results-mapping.md)
    run camp-inflight "mapping=ring, 24 stages, W 4, lookahead 32"   # 3 of 12: the ring's three runs (results-camp.md)
    exps+=(--exp mapping-rebuilds --exp mapping-rebuilds-whole --exp camp-inflight)
    if "$BIN" version | grep -q "DPDK peer *yes"; then
      run cpu-update-cost                        # 4 points: update counts per engine (results-cpu.md)
      exps+=(--exp cpu-update-cost)
    else
      echo "SKIP: no DPDK peer in this build: results-cpu.md's update tables (rte_fib rows) are not re-run"
    fi
    # results-cpu.md's lookup tables, all four points: the IPv6 half (seconds each) and the
    # IPv4 half (about 90 s a point, rte_lpm's build; a table none of whose points ran fails the check)
    if "$BIN" version | grep -q "DPDK peer *yes"; then
      run cpu-lookup-v6-real
      run cpu-lookup-v4-real
      exps+=(--exp cpu-lookup-v6-real --exp cpu-lookup-v4-real)
    else
      echo "SKIP: no DPDK peer in this build: results-cpu.md's IPv6 lookup tables are not re-run"
    fi
  else
    echo "SKIP: ../shared/data is absent: the tables drawn from the real tables are not re-run"
  fi
fi
if [ "$MODE" != quick ]; then
  if command -v yosys >/dev/null && command -v nextpnr-ice40 >/dev/null; then
    # 1 of 2 points, about a minute (Yosys for xc7, then iCE40 place and route): results-rtl.md section 2;
    # the linear point, long/rtl-bram-doc and long/rtl-synth-shape-doc (about two minutes each) run only in the long set
    run long/rtl-synth-doc "design=11 routes, ring 4, D 2, W 1, queue 4"
    # 1 of 2 points, about forty seconds: the linear pipeline under the credit rules at D = 2
    run long/rtl-synth-credit-doc "design=11 routes, linear (level, stride 4), credit rules, D 2, F 32"
    exps+=(--exp rtl-synth-doc --exp rtl-synth-credit-doc)
  else
    echo "SKIP: yosys or nextpnr-ice40 missing: results-rtl.md's synthesis tables are not re-run"
  fi
  if command -v verilator >/dev/null; then
    run long/rtl-speed-doc "load=load 0.1"      # 1 of 2 (about a minute): results-rtl.md section 3's counts; its ratio is timing (shape only)
    exps+=(--exp rtl-speed-doc)
  else
    echo "SKIP: verilator missing: results-rtl.md's speed table is not re-run"
  fi
fi
python3 scripts/docs_tables.py check "${DOCS[@]}" --results "$R" "${exps[@]}" || rc=1
echo "docs check: $((SECONDS - t0)) s, load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
exit $rc
