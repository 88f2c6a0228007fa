#!/usr/bin/env bash
# Timing-only prototypes of issue 11's control (docs/rtl-fmax-history.md,
# "2026-12-02"): Yosys synth_ice40 of proto.v with the parameters given,
# then nextpnr-ice40 --hx8k seeds 1..K as rtl synth runs them; prints each
# seed's post-route Fmax and the median. Not a design: nothing is simulated.
#   scripts/fmax-proto/run.sh [-k K] [-set NAME VALUE ...]
#   e.g. scripts/fmax-proto/run.sh -set STEP 3 -set LANEX 1 -set EARLY 1
set -euo pipefail
K=5
[ "${1:-}" = -k ] && { K=$2; shift 2; }
case "${1:-}" in -h|--help) sed -n 2,7p "$0"; exit 0 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d /tmp/lpmpipe-fmax-proto.XXXXXX)
trap 'rm -rf "$W"' EXIT
cp "$here/proto.v" "$W/"
cd "$W"
yosys -q -l yosys.log -p "read_verilog proto.v; ${*:+chparam $* proto;} synth_ice40 -top proto -json proto.json"
f=()
for s in $(seq 1 "$K"); do
  nextpnr-ice40 --hx8k --package ct256 --json proto.json --freq 100 --timing-allow-fail --seed "$s" -l "s$s.log" -q \
    >/dev/null 2>&1 || true
  f+=("$(sed -n 's/.*Max frequency for clock[^:]*: \([0-9.]*\) MHz.*/\1/p' "s$s.log" | tail -1)")
done
cells=$(grep -o "ICESTORM_LC: *[0-9]*" s1.log | head -1 | grep -o "[0-9]*$")
med=$(printf '%s\n' "${f[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
echo "proto ${*:-(defaults)}: ${cells} logic cells; Fmax by seed ${f[*]}; median $med MHz"
