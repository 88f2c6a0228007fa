#!/usr/bin/env bash
# Timing-only prototypes of issue 11's control (docs/rtl-fmax-history.md,
# "2026-12-02"): Yosys synth_ice40 of a prototype with the parameters given,
# then nextpnr-ice40 --hx8k --package ct256 seeds 1..K as rtl synth runs them;
# prints each seed's post-route Fmax and the median. Not a design: nothing is
# simulated. The ring's prototype is proto.v (the default; proto_ring_bub.v
# with bubbles and reset), the linear pipeline's proto_linear.v
# (proto_linear_bub.v), or proto_linear_credit.v under other linear rules
# (-f FILE; its top module is the file's name);
# -keep DIR keeps the logs (each seed's critical path report) in DIR.
#   scripts/fmax-proto/run.sh [-k K] [-keep DIR] [-f FILE] [-set NAME VALUE ...]
#   e.g. scripts/fmax-proto/run.sh -set STEP 3 -set LANEX 1 -set EARLY 2
#        scripts/fmax-proto/run.sh -f scripts/fmax-proto/proto_linear.v -set STEP 3 -set LANEX 1
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
K=5 KEEP= FILE=$here/proto.v
while :; do
  case "${1:-}" in
    -k) K=$2; shift 2 ;;
    -keep) KEEP=$2; shift 2 ;;
    -f) FILE=$(readlink -f "$2"); shift 2 ;;
    -h|--help) sed -n 2,13p "$0"; exit 0 ;;
    *) break ;;
  esac
done
TOP=$(basename "$FILE" .v)
W=$(mktemp -d /tmp/lpmpipe-fmax-proto.XXXXXX)
trap 'rm -rf "$W"' EXIT
cp "$FILE" "$W/$TOP.v"
cd "$W"
yosys -q -l yosys.log -p "read_verilog $TOP.v; ${*:+chparam $* $TOP;} synth_ice40 -top $TOP -json $TOP.json"
f=()
for s in $(seq 1 "$K"); do
  nextpnr-ice40 --hx8k --package ct256 --json $TOP.json --freq 100 --timing-allow-fail --seed "$s" -l "s$s.log" -q \
    >/dev/null 2>&1 || true
  f+=("$(sed -n 's/.*Max frequency for clock[^:]*: \([0-9.]*\) MHz.*/\1/p' "s$s.log" | tail -1)")
done
cells=$(grep -o "ICESTORM_LC: *[0-9]*" s1.log | head -1 | grep -o "[0-9]*$")
med=$(printf '%s\n' "${f[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
[ -n "$KEEP" ] && { mkdir -p "$KEEP"; cp s*.log yosys.log "$KEEP/"; }
echo "$TOP ${*:-(defaults)}: ${cells} logic cells; Fmax by seed ${f[*]}; median $med MHz"
