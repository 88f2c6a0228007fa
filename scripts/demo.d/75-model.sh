#!/usr/bin/env bash
# title: SystemC: the cycle-accurate model against the simulator, and a TLM-2.0 line card
# short: SystemC model cycle-equal to the simulator; TLM line card
# A 2000-route slice of the demo table on an 8-stage CAMP ring (the hardware
# rules, --hop-cycles 2): model verify runs 5000 requests through the C
# simulator and the SystemC model and compares every cycle; then the line
# card offers 100 GbE's minimum-size packet rate (148.8 Mpps at 200 MHz) to
# the TLM engine, cycle-accurate and loosely timed (docs/models.md).
source "$LIB"
if ! "$BIN" --version --json | grep -q '"systemc":true'; then
  echo "SUMMARY: model: skipped (built without SystemC; scripts/deps.sh installs libsystemc-dev)"; exit 0
fi
head -2000 v4.fib >model.fib
"$BIN" map --fib model.fib --stages 8 --stride 2 --initial-stride 10 -o model.lpi >/dev/null
"$BIN" trace gen --fib model.fib --kind random-match --count 5000 --seed 3 -o model.trace
out=$("$BIN" model verify --image model.lpi --trace model.trace --queue 16)
read -r lookups cycles mism < <(sed -n 's/^\([0-9]*\) lookups, \([0-9]*\) cycles, \([0-9]*\) mismatches.*/\1 \2 \3/p' <<<"$out")
check "model verify: SystemC model vs simulator, cycle by cycle" "$cycles" "$mism"
for eng in cycle fast; do
  "$BIN" model linecard --image model.lpi --trace model.trace --queue 16 --engine $eng --json >linecard-$eng.json
  fig "line card ($eng engine):" "$(json linecard-$eng.json '"%d answered, %d dropped, %.1f M lookups/s, latency p50 %.0f / p99 %.0f ns" % (d["answered"], d["dropped"], d["lookups_per_s"] / 1e6, d["latency_ns"]["p50"], d["latency_ns"]["p99"])')"
  check "line card ($eng engine): answers vs the interpreter" "$(json linecard-$eng.json 'd["checked"]')" \
    "$(json linecard-$eng.json 'd["mismatches"]')"
done
echo "SUMMARY: model: 8-stage ring, queue 16: $lookups lookups over $cycles cycles, the SystemC model and the simulator identical in every cycle ($mism mismatches); line card at 148.8 Mpps: $(json linecard-cycle.json '"%.3f lookups per clock needed, %d dropped" % (d["need_lookups_per_clock"], d["dropped"])')"
saved "line card reports (JSON)" "linecard-cycle.json, linecard-fast.json"
