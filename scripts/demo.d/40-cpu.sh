#!/usr/bin/env bash
# title: CPU engines: DIR-24-8-BASIC, Tree Bitmap, hybrid (speed, memory, update cost)
# short: CPU engines (DIR-24-8, Tree Bitmap, hybrid)
source "$LIB"
"$BIN" bench cpu --fib v4.fib --kind random-match --count 200k --repeat 1 --json >cpu-v4.jsonl 2>cpu.notes
"$BIN" bench cpu --fib v6.fib --kind random-match --count 100k --repeat 1 --json >cpu-v6.jsonl 2>>cpu.notes
for f in cpu-v4.jsonl cpu-v6.jsonl; do
  python3 - "$f" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["family"] == 6:
        print("%-34s %.2f M lookups/s, %.2f MiB" % ("IPv%d %s:" % (e["family"], e["engine"]), e["lookups_per_s"] / 1e6,
              e["memory_bytes"] / 1048576))
    print("CHECK: bench cpu IPv%d %s|%d|%d" % (e["family"], e["engine"], e["lookups"], e["mismatches"]))
    if e["family"] == 4:
        print("SUMMARY: IPv4 %s: %.2f M lookups/s (random-match trace, one thread), %.2f MiB" % (e["engine"], e["lookups_per_s"] / 1e6, e["memory_bytes"] / 1048576))
PY
done
"$BIN" bench update-cost --fib v4.fib --engines dir24-8,tree-bitmap-13,hybrid --json >update-cost.jsonl
"$BIN" bench update-cost --fib v4.fib --engines dir24-8,tree-bitmap-13,hybrid >update-cost.txt
python3 - update-cost.jsonl <<'PY'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
print("SUMMARY: update cost of /8../16 prefixes, table entries set per add: " +
      ", ".join("%s %.2f" % (e["engine"], e["add"]["entries_set"]) for e in r))
PY
saved "lookup and update-cost reports" "cpu-v4.jsonl, cpu-v6.jsonl, update-cost.txt"
