#!/usr/bin/env bash
# title: cycle-level simulation of a CAMP ring and a linear pipeline (every answer checked)
# short: cycle-level simulation (ring, linear, CAMP's slide 12)
source "$LIB"
"$BIN" map --fib v4.fib --stages 24 -o sim-ring24.lpi >/dev/null
"$BIN" map --fib v4.fib --arch linear -o sim-linear.lpi >/dev/null
"$BIN" sim --image sim-ring24.lpi --trace v4.trace --queue 16 --issue-width 2 --lookahead 32 --warmup 500 --verify --json >sim-ring.json
"$BIN" sim --image sim-ring24.lpi --trace v4.trace --queue 16 --issue-width 2 --lookahead 32 --warmup 500 --verify >sim-ring.txt
"$BIN" sim --image sim-linear.lpi --trace v4.trace --queue 16 --warmup 500 --verify --json >sim-linear.json
"$BIN" sim --synthetic 24 --count 100000 --queue 32 --burst 16 --warmup 1000 --json >sim-camp12.json
# the linear pipeline under the credit rules (microarchitecture.md 4.1): no queue, results in input order
"$BIN" sim --image sim-linear.lpi --trace v4.trace --result-fifo 64 --warmup 500 --verify --json --results sim-credit.csv >sim-credit.json
for r in ring linear; do
  python3 - "sim-$r.json" "$r" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["check"]
what = "IPv4 24-stage ring, issue width 2, queue 16" if sys.argv[2] == "ring" else "IPv4 linear pipeline, %d stages, queue 16" % d["stages"]
print("SUMMARY: sim %s: %.3f lookups per cycle, utilisation %.1f%%, latency mean %.0f / p99 %d cycles; %d answers equal to the interpreter and the reference"
      % (what, d["lpc"], 100 * d["utilisation"], d["latency"]["mean"], d["latency"]["p99"], c["checked"] - c["mismatches"]))
print("CHECK: sim %s vs interpreter|%d|%d" % (sys.argv[2], c["checked"], c["mismatches"]))
print("CHECK: sim %s vs reference|%d|%d" % (sys.argv[2], c["reference_checked"], c["reference_mismatches"]))
PY
done
python3 - sim-credit.json sim-credit.csv <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["check"]
ids = [int(l.split(",")[0]) for l in open(sys.argv[2]).read().split("\n")[1:] if l]
ordered = ids == sorted(ids)
print("SUMMARY: sim IPv4 linear pipeline, credit rules (64 credits): %.3f lookups per cycle, latency %d..%d cycles, results %s; %d answers equal to the reference"
      % (d["lpc"], d["latency"]["min"], d["latency"]["max"], "in input order" if ordered else "OUT OF ORDER", c["reference_checked"] - c["reference_mismatches"]))
print("CHECK: sim linear credit rules vs reference|%d|%d" % (c["reference_checked"], c["reference_mismatches"] + (0 if ordered else 1)))
PY
echo "SUMMARY: sim CAMP slide 12 (24 stages all read, queue 32, bursts of 16): $(json sim-camp12.json '"%.3f" % d["lpc"]') lookups per cycle"
saved "per-stage utilisation and queues" sim-ring.txt
saved "the runs as JSON" "sim-ring.json, sim-linear.json, sim-camp12.json"
