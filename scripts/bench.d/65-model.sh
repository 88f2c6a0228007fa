#!/usr/bin/env bash
# title: SystemC models: the cycle model's cycles/s beside the C simulator and the Verilated RTL; TLM lookups/s
# The configuration of 60-rtl.sh (a 10000-route synthetic table, CAMP ring of
# 8 stages, queue 16, issue width 1, 200000 random-match requests, the
# hardware rules at --hop-cycles 2, which the RTL implements). model verify
# --cosim first proves the SystemC model cycle-equal to the simulator and to
# the Verilated RTL on that stimulus (and rtl verify the RTL to the simulator);
# then each runs three times, medians of CPU time inside the run (the
# Verilated model: its own wall-clock figure; the co-simulation: the model
# and the RTL stepped together in one kernel, comparing every cycle). Then the TLM line card at
# 148.8 Mpps and back to back (--rate-mpps 0, one context: the fast mode's
# own pace): host lookups/s of the cycle-accurate and the fast engine.
set -euo pipefail
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
if ! "$BIN" --version --json | grep -q '"systemc":true'; then echo "built without SystemC: skipped"; exit 0; fi
export LPMPIPE_RTL_CACHE=${LPMPIPE_RTL_CACHE:-$PWD/build/rtl-cache}
T=$(mktemp -d /tmp/lpmpipe-bench-model.XXXXXX)
trap 'rm -rf "$T"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
"$BIN" fib gen --family 4 --count 10000 --seed 1 -o "$T/t.fib"
"$BIN" map --fib "$T/t.fib" --stages 8 --stride 2 --initial-stride 12 -o "$T/r.lpi" >/dev/null
"$BIN" trace gen --fib "$T/t.fib" --kind random-match --count 200000 --seed 1 -o "$T/t.trace"
opts="--hop-cycles 2 --queue 16"
cosim=
if command -v verilator >/dev/null; then
  echo "model verify --cosim: $("$BIN" model verify --image "$T/r.lpi" --trace "$T/t.trace" $opts --cosim)"
  cosim=$(for i in 1 2 3; do "$BIN" model verify --image "$T/r.lpi" --trace "$T/t.trace" $opts --cosim --json |
      sed -n 's/.*"cycles":\([0-9]*\),.*"model_seconds":\([0-9.]*\),.*/\1 \2/p' | awk '{ printf "%.0f\n", $1 / $2 }'; done | median)
else
  echo "model verify: $("$BIN" model verify --image "$T/r.lpi" --trace "$T/t.trace" $opts)"
fi
sim=$(for i in 1 2 3; do
  "$BIN" sim --image "$T/r.lpi" --trace "$T/t.trace" $opts --preload --timing 2>&1 >/dev/null |
    sed -n 's/.* \([0-9][0-9]*\) cycles\/s.*/\1/p'; done | median)
mod=$(for i in 1 2 3; do "$BIN" model run --image "$T/r.lpi" --trace "$T/t.trace" $opts --json |
    sed -n 's/.*"cycles_per_s":\([0-9]*\).*/\1/p'; done | median)
modlog=$(for i in 1 2 3; do "$BIN" model run --image "$T/r.lpi" --trace "$T/t.trace" $opts --json --cycle-log "$T/m.log" |
    sed -n 's/.*"cycles_per_s":\([0-9]*\).*/\1/p'; done | median)
rtl=
if command -v verilator >/dev/null; then
  echo "rtl verify: $("$BIN" rtl verify --image "$T/r.lpi" --trace "$T/t.trace" $opts --build-dir "$T/v")"
  exe=$(cat "$T/v/model.path")
  rtl=$(for i in 1 2 3; do (cd "$T/v/rtl" && "$exe" ../keys.hex ../bubbles.txt - "$T/r.res" 2>&1 >/dev/null) |
      sed -n 's/.*: \([0-9][0-9]*\) cycles\/s.*/\1/p'; done | median)
fi
printf '%-54s %12s cycles/s\n' "C simulator (lpmpipe sim, no cycle log)" "$sim"
printf '%-54s %12s cycles/s\n' "SystemC cycle model (model run, no cycle log)" "$mod"
printf '%-54s %12s cycles/s\n' "SystemC cycle model (writing the cycle log)" "$modlog"
if [ -n "$rtl" ]; then
  printf '%-54s %12s cycles/s\n' "Verilator model (no cycle log)" "$rtl"
  printf '%-54s %12s cycles/s\n' "co-simulation (SystemC model + Verilated RTL, per cycle)" "$cosim"
else
  echo "Verilator model: verilator not installed, not measured"
fi
awk -v s="$sim" -v m="$mod" 'BEGIN { printf "%-48s %12.1f x\n", "C simulator / SystemC model", s / m }'
for eng in cycle fast; do
  for rate in 148.8 0; do
    lps=$(for i in 1 2 3; do "$BIN" model linecard --image "$T/r.lpi" --trace "$T/t.trace" --engine $eng --json \
        --rate-mpps $rate $([ $rate = 0 ] && echo --contexts 1) | sed -n 's/.*"host_lookups_per_s":\([0-9]*\).*/\1/p'; done | median)
    what="TLM line card, $eng engine, $([ $rate = 0 ] && echo "back to back, 1 context" || echo "$rate Mpps")"
    printf '%-54s %12s lookups/s (host CPU)\n' "$what" "$lps"
  done
done
echo "(each lookup's answer is also checked against the image interpreter inside these figures)"
echo "load: $(uptime | sed 's/.*load average/load average/')"
